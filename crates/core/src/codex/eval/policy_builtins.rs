//! The three policy built-ins: `prefix_rule`, `network_rule` and `host_executable`.

use super::*;

impl Interp<'_> {
    pub(super) fn prefix_rule(
        &mut self,
        pos: Vec<Value>,
        named: Vec<(String, Value)>,
        span: Span,
    ) -> R<Value> {
        let a = self.bind_native("prefix_rule", PREFIX_RULE, pos, named, span)?;
        // Unpack (type checks) first, in parameter order, as the generated binding does.
        let pattern = self.want_list("pattern", a[0].as_ref().unwrap_or(&Value::None), span)?;
        let decision = a[1]
            .as_ref()
            .map(|v| self.want_str("decision", v, span))
            .transpose()?;
        let matches = a[2]
            .as_ref()
            .map(|v| self.want_list("match", v, span))
            .transpose()?;
        let not_matches = a[3]
            .as_ref()
            .map(|v| self.want_list("not_match", v, span))
            .transpose()?;
        let justification = a[4]
            .as_ref()
            .map(|v| self.want_str("justification", v, span))
            .transpose()?;
        let canonical = a[5]
            .as_ref()
            .map(|v| self.want_bool("canonical_matching", v, span))
            .transpose()?
            .unwrap_or(false);

        let decision = match decision {
            Some(raw) => Decision::parse(&raw)
                .ok_or_else(|| self.err(span, format!("invalid decision: {raw}")))?,
            None => Decision::Allow,
        };
        if justification
            .as_deref()
            .is_some_and(|j| j.trim().is_empty())
        {
            return Err(self.err(span, "invalid rule: justification cannot be empty"));
        }
        // First the checks and the sizes, from the values as they are: the rules' strings are
        // copied only once the copies are paid for. (`["git", ["x" * 200000] * 20000]` is a
        // list of 20 000 references to one string, cheap to build, but 4 GB as pattern
        // tokens: it used to be copied first and refused after.)
        // Per pattern element: (strings, bytes of its strings).
        let mut sizes: Vec<(usize, usize)> = Vec::with_capacity(pattern.len());
        for v in &pattern {
            sizes.push(match v {
                Value::Str(s) => (1, s.len()),
                Value::List(l) => {
                    let l = l.borrow();
                    let mut bytes = 0usize;
                    for a in l.iter() {
                        match a {
                            Value::Str(s) => bytes = bytes.saturating_add(s.len()),
                            other => {
                                return Err(self.err(span, format!("invalid pattern element: pattern alternative must be a string (got {})", other.type_name())))
                            }
                        }
                    }
                    if l.is_empty() {
                        return Err(self.err(span, "invalid pattern element: pattern alternatives cannot be empty"));
                    }
                    (l.len(), bytes)
                }
                other => {
                    return Err(self.err(span, format!("invalid pattern element: pattern element must be a string or list of strings (got {})", other.type_name())))
                }
            });
        }
        if sizes.is_empty() {
            return Err(self.err(span, "invalid pattern element: pattern cannot be empty"));
        }
        let matches = self.examples(matches.unwrap_or_default(), span)?;
        let not_matches = self.examples(not_matches.unwrap_or_default(), span)?;
        // Every alternative of the first token becomes a rule with its own copy of the rest, and
        // every example is checked against each of them after the file ran: charge both now,
        // at this call, before anything is built.
        let heads = sizes[0].0;
        let rest_bytes = sizes[1..]
            .iter()
            .map(|&(n, bytes)| bytes.saturating_add(n.saturating_mul(SLOT as usize)))
            .fold(0usize, usize::saturating_add);
        let per_rule = rest_bytes.saturating_add(64);
        self.alloc(heads.saturating_mul(per_rule), span)?;
        let rest_strings: usize = sizes[1..].iter().map(|&(n, _)| n).sum();
        self.work(heads.saturating_mul(1 + rest_strings), span)?;
        let examples = matches.len() + not_matches.len();
        self.work(
            examples.saturating_mul(heads).saturating_mul(sizes.len()),
            span,
        )?;
        let token = |v: &Value| match v {
            Value::Str(s) => PatternToken::Single(s.to_string()),
            Value::List(l) => {
                let l = l.borrow();
                let alt = |a: &Value| match a {
                    Value::Str(s) => s.to_string(),
                    _ => unreachable!("checked above"),
                };
                if l.len() == 1 {
                    PatternToken::Single(alt(&l[0]))
                } else {
                    PatternToken::Alts(l.iter().map(alt).collect())
                }
            }
            _ => unreachable!("checked above"),
        };
        let tokens: Vec<PatternToken> = pattern[1..].iter().map(token).collect();
        // codex 0.171.0: a canonical rule keeps its tokens as written (its repr shows them);
        // both sides are folded when they are compared.
        let heads = match token(&pattern[0]) {
            PatternToken::Single(s) => vec![s],
            PatternToken::Alts(a) => a,
        };
        let start = self.policy.rules().len();
        for head in heads {
            self.policy.push_rule(PrefixRule {
                first: head,
                rest: tokens.clone(),
                decision,
                justification: justification.as_deref().map(str::to_string),
                canonical,
            });
        }
        let end = self.policy.rules().len();
        self.pending.push(PendingExamples {
            rules: start..end,
            matches,
            not_matches,
            span,
        });
        Ok(Value::None)
    }

    pub(super) fn examples(&self, items: Vec<Value>, span: Span) -> R<Vec<Vec<String>>> {
        let mut out = Vec::new();
        for v in items {
            match &v {
                Value::Str(s) => {
                    // Shell-splitting an example costs more than an expression step.
                    self.work(16, span)?;
                    self.scan(s.len(), span)?;
                    self.alloc(s.len().saturating_mul(2).saturating_add(24), span)?;
                }
                Value::List(l) => {
                    let l = l.borrow();
                    let len: usize = l
                        .iter()
                        .map(|t| match t {
                            Value::Str(s) => s.len() + 24,
                            _ => 0,
                        })
                        .sum();
                    self.work(l.len(), span)?;
                    self.alloc(len.saturating_add(24), span)?;
                }
                _ => {}
            }
            out.push(match v {
                Value::Str(s) => {
                    let Some(tokens) = shlex::rust_split(&s) else {
                        return Err(self.err(
                            span,
                            "invalid example: example string has invalid shell syntax",
                        ));
                    };
                    if tokens.is_empty() {
                        return Err(
                            self.err(span, "invalid example: example cannot be an empty string")
                        );
                    }
                    tokens
                }
                Value::List(l) => {
                    let mut tokens = Vec::new();
                    for t in l.borrow().iter() {
                        match t {
                            Value::Str(s) => tokens.push(s.to_string()),
                            other => {
                                return Err(self.err(
                                    span,
                                    format!(
                                        "invalid example: example tokens must be strings (got {})",
                                        other.type_name()
                                    ),
                                ))
                            }
                        }
                    }
                    if tokens.is_empty() {
                        return Err(
                            self.err(span, "invalid example: example cannot be an empty list")
                        );
                    }
                    tokens
                }
                other => {
                    return Err(self.err(
                        span,
                        format!(
                            "invalid example: example must be a string or list of strings (got {})",
                            other.type_name()
                        ),
                    ))
                }
            });
        }
        Ok(out)
    }

    pub(super) fn network_rule(
        &mut self,
        pos: Vec<Value>,
        named: Vec<(String, Value)>,
        span: Span,
    ) -> R<Value> {
        let a = self.bind_native("network_rule", NETWORK_RULE, pos, named, span)?;
        let host = self.want_str("host", a[0].as_ref().unwrap_or(&Value::None), span)?;
        let protocol = self.want_str("protocol", a[1].as_ref().unwrap_or(&Value::None), span)?;
        let decision = self.want_str("decision", a[2].as_ref().unwrap_or(&Value::None), span)?;
        let justification = a[3]
            .as_ref()
            .map(|v| self.want_str("justification", v, span))
            .transpose()?;
        let protocol = match &*protocol {
            "http" => "http",
            "https" | "https_connect" | "http-connect" => "https",
            "socks5_tcp" => "socks5_tcp",
            "socks5_udp" => "socks5_udp",
            other => {
                return Err(self.err(span, format!("invalid rule: network_rule protocol must be one of http, https, socks5_tcp, socks5_udp (got {other})")))
            }
        };
        // Only here is `deny` a decision: a synonym of forbidden.
        let decision = if &*decision == "deny" {
            Decision::Forbidden
        } else {
            Decision::parse(&decision)
                .ok_or_else(|| self.err(span, format!("invalid decision: {decision}")))?
        };
        if justification
            .as_deref()
            .is_some_and(|j| j.trim().is_empty())
        {
            return Err(self.err(span, "invalid rule: justification cannot be empty"));
        }
        let host =
            normalize_host(&host).map_err(|m| self.err(span, format!("invalid rule: {m}")))?;
        self.policy.push_network_rule(NetworkRule {
            host,
            protocol: protocol.to_string(),
            decision,
            justification: justification.as_deref().map(str::to_string),
        });
        Ok(Value::None)
    }

    pub(super) fn host_executable(
        &mut self,
        pos: Vec<Value>,
        named: Vec<(String, Value)>,
        span: Span,
    ) -> R<Value> {
        let a = self.bind_native("host_executable", HOST_EXECUTABLE, pos, named, span)?;
        let name = self.want_str("name", a[0].as_ref().unwrap_or(&Value::None), span)?;
        let paths = self.want_list("paths", a[1].as_ref().unwrap_or(&Value::None), span)?;
        if name.is_empty() {
            return Err(self.err(span, "invalid rule: host_executable name cannot be empty"));
        }
        if name.contains('/') || &*name == "." || &*name == ".." {
            return Err(self.err(span, format!("invalid rule: host_executable name must be a bare executable name (got {name})")));
        }
        let mut parsed: Vec<String> = Vec::new();
        for p in paths {
            let Value::Str(raw) = &p else {
                return Err(self.err(
                    span,
                    format!(
                        "invalid rule: host_executable paths must be strings (got {})",
                        p.type_name()
                    ),
                ));
            };
            if !raw.starts_with('/') && !raw.starts_with("~/") {
                return Err(self.err(
                    span,
                    format!("invalid rule: host_executable paths must be absolute (got {raw})"),
                ));
            }
            let base = raw.trim_end_matches('/').rsplit('/').next().unwrap_or("");
            if base != &*name {
                return Err(self.err(
                    span,
                    format!(
                        "invalid rule: host_executable path `{raw}` must have basename `{name}`"
                    ),
                ));
            }
            let raw = raw.to_string();
            if !parsed.contains(&raw) {
                parsed.push(raw);
            }
        }
        self.policy.set_host_executable(name.to_string(), parsed);
        Ok(Value::None)
    }
}

/// `network_rule` hosts: a hostname or IP literal, optionally with a port; normalized to lower
/// case without the port or a trailing dot.
pub(super) fn normalize_host(raw: &str) -> Result<String, String> {
    let mut host = raw.trim();
    if host.is_empty() {
        return Err("network_rule host cannot be empty".into());
    }
    if host.contains("://") || host.contains('/') || host.contains('?') || host.contains('#') {
        return Err(
            "network_rule host must be a hostname or IP literal (without scheme or path)".into(),
        );
    }
    if let Some(stripped) = host.strip_prefix('[') {
        let Some((inside, rest)) = stripped.split_once(']') else {
            return Err("network_rule host has an invalid bracketed IPv6 literal".into());
        };
        let port_ok = rest
            .strip_prefix(':')
            .is_some_and(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()));
        if !rest.is_empty() && !port_ok {
            return Err(format!(
                "network_rule host contains an unsupported suffix: {raw}"
            ));
        }
        host = inside;
    } else if host.matches(':').count() == 1 {
        if let Some((candidate, port)) = host.rsplit_once(':') {
            if !candidate.is_empty() && !port.is_empty() && port.chars().all(|c| c.is_ascii_digit())
            {
                host = candidate;
            }
        }
    }
    let normalized = host.trim_end_matches('.').trim().to_ascii_lowercase();
    if normalized.is_empty() {
        return Err("network_rule host cannot be empty".into());
    }
    if normalized.contains('*') {
        return Err("network_rule host must be a specific host; wildcards are not allowed".into());
    }
    if normalized.chars().any(char::is_whitespace) {
        return Err("network_rule host cannot contain whitespace".into());
    }
    Ok(normalized)
}
