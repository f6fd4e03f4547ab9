//! Whether a rule matches a call: the per-tool meaning of a specifier (`claude-code.md` §1–§4)
//! and the group scans of the decision procedure.

use super::bash;
use super::env::*;
use super::path::{self, Anchor, PathMatch, PathPattern};
use super::rule::{Specifier, ToolSelector};
use super::settings::PolicyRule;
use super::types::*;
use crate::json::Value;
use crate::table::Action;

impl Env<'_> {
    pub(super) fn path_match(
        &self,
        r: &PolicyRule,
        p: &PathPattern,
        abs: &str,
        is_dir: bool,
    ) -> Option<PathMatch> {
        // Root, home, cwd, or the rule's settings source (`~/.claude` for user settings).
        let base = self.ix.anchor_dir(p.anchor, r.scope);
        let rel = path::relative_to(abs, base)?;
        p.matches_relative(rel, is_dir)
    }

    /// Whether rule `i` (a path rule of `group`) matches `abs`, honouring later `!` carve-outs
    /// of the same source and group.
    pub(super) fn path_rule_matches(&self, i: usize, abs: &str, is_dir: bool) -> bool {
        let r = &self.policy.rules[i];
        let Specifier::Path(p) = &r.rule.spec else {
            return false;
        };
        if p.negated {
            return false;
        }
        let Some(how) = self.path_match(r, p, abs, is_dir) else {
            return false;
        };
        if how == PathMatch::Ancestor || p.anchor != Anchor::Cwd {
            // A wholly blocked directory cannot be reopened; negation only carves out of
            // relative rules.
            return true;
        }
        // The later negated path rules of the same group, scope and tool (precomputed).
        let carved = self.ix.negations_after(i).iter().any(|&k| {
            let n = &self.policy.rules[k];
            matches!(&n.rule.spec, Specifier::Path(np) if np.negated
                && self.path_match(n, np, abs, is_dir).is_some())
        });
        !carved
    }

    /// Every rule whose tool and specifier match the call (whether or not its group got to
    /// decide), in merged order.
    pub(super) fn all_matches(&self, facts: &Facts<'_>) -> Vec<usize> {
        self.policy
            .rules
            .iter()
            .enumerate()
            .filter(|(i, r)| {
                self.rule_names_tool(r, facts, r.group)
                    && (r.rule.is_bare() || self.spec_matches(*i, r, facts, r.group).is_some())
            })
            .map(|(i, _)| i)
            .collect()
    }

    /// Scans one group; returns the deciding rule, how it matched, and whether it is bare.
    ///
    /// `sandbox_auto`: the Bash command will be auto-allowed inside the sandbox. Then a bare
    /// Bash ask is skipped (docs), and a Read/Edit deny reaching the command only through a
    /// file argument or redirect target does not decide: the sandbox enforces it at the OS
    /// level instead (recorded, CLI 2.1.332: with seed 001's settings and
    /// `autoAllowBashIfSandboxed: true`, `cat .env` ran and got "Permission denied").
    pub(super) fn scan(
        &self,
        facts: &Facts<'_>,
        group: Action,
        v: &mut Verdict,
        sandbox_auto: bool,
    ) -> Option<(usize, Via, bool)> {
        let skip_bare_bash_ask = sandbox_auto && group == Action::Ask;
        let mut found: Vec<(usize, Via, bool)> = Vec::new();
        let mut steps = Vec::new();
        for i in self.group_rules(group, facts) {
            let r = &self.policy.rules[i];
            let tool_matched = self.rule_names_tool(r, facts, group);
            let hit = if tool_matched {
                if r.rule.is_bare() {
                    if skip_bare_bash_ask {
                        None
                    } else {
                        Some(Via::Direct)
                    }
                } else {
                    self.spec_matches(i, r, facts, group).filter(|via| {
                        !(sandbox_auto
                            && group == Action::Deny
                            && matches!(via, Via::FileCommand | Via::RedirectTarget))
                    })
                }
            } else {
                None
            };
            if let Some(via) = hit {
                found.push((i, via, r.rule.is_bare()));
                if !self.trace {
                    // Candidates come in merged order, so nothing later takes precedence: not
                    // even a bare deny, since without a trace a bare deny naming the tool has
                    // already decided before the input was looked at.
                    break;
                }
            }
            if !self.trace {
                continue;
            }
            steps.push(TraceStep {
                group,
                rule: i,
                tool_matched,
                spec_matched: tool_matched.then_some(hit.is_some()),
                stop: false,
            });
        }
        // A bare deny removes the tool before content rules are looked at.
        let decisive = if group == Action::Deny {
            found.iter().find(|f| f.2).or(found.first()).copied()
        } else {
            found.first().copied()
        };
        if let Some((i, _, _)) = decisive {
            if let Some(k) = steps.iter().position(|s| s.rule == i) {
                steps.truncate(k + 1);
                steps[k].stop = true;
            }
        }
        v.trace.extend(steps);
        decisive
    }

    /// The rules of `group` to scan, in merged order: all of them when tracing, else only the
    /// ones that could match the call (see [`Index`](super::index)).
    pub(super) fn group_rules(&self, group: Action, facts: &Facts<'_>) -> Vec<usize> {
        if self.trace {
            return self.policy.group(group).map(|(i, _)| i).collect();
        }
        self.candidates(group, facts)
    }

    /// The rules of `group` that could match the call: a superset of those that do, sorted.
    pub(super) fn candidates(&self, group: Action, facts: &Facts<'_>) -> Vec<usize> {
        let mut out = Vec::with_capacity(64);
        let ix = self.ix;
        ix.tool_rules(group, &facts.tool, &mut out);
        match facts.kind {
            Kind::Shell => {
                for s in &facts.subs {
                    ix.bash_rules(group, &s.stripped, &mut out);
                    ix.bash_rules(group, &s.unstripped, &mut out);
                    if group != Action::Allow {
                        ix.bash_rules(group, &s.normalized, &mut out);
                    }
                }
                if facts.parse_error.is_some() {
                    ix.bash_rules(group, facts.source.trim(), &mut out);
                }
                for t in &facts.targets {
                    if let Some(abs) = &t.abs {
                        ix.path_rules(group, abs, &mut out);
                    }
                }
            }
            Kind::Read | Kind::Edit => {
                for p in [&facts.path, &facts.target].into_iter().flatten() {
                    ix.path_rules(group, p, &mut out);
                }
            }
            Kind::PowerShell | Kind::Other => {}
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Whether the rule's tool part names the call's tool (path rules reach their family).
    pub(super) fn rule_names_tool(&self, r: &PolicyRule, facts: &Facts<'_>, group: Action) -> bool {
        if r.rule.tool.names(&facts.tool) {
            return true;
        }
        let ToolSelector::Exact(name) = &r.rule.tool else {
            return false;
        };
        let Specifier::Path(_) = r.rule.spec else {
            return false;
        };
        match (name.as_str(), facts.kind) {
            ("Read", Kind::Read) | ("Edit", Kind::Edit) => true,
            // A Read deny also blocks Edit and Write.
            ("Read", Kind::Edit) => group == Action::Deny,
            // An Edit allow also grants Read.
            ("Edit", Kind::Read) => group == Action::Allow,
            // Read/Edit denies (and asks) reach Bash file commands and redirect targets.
            ("Read" | "Edit", Kind::Shell) => group != Action::Allow,
            _ => false,
        }
    }

    /// Whether a non-bare rule's specifier matches (deny and ask semantics: any part).
    pub(super) fn spec_matches(
        &self,
        i: usize,
        r: &PolicyRule,
        facts: &Facts<'_>,
        group: Action,
    ) -> Option<Via> {
        match &r.rule.spec {
            Specifier::Bare => Some(Via::Direct),
            Specifier::Param { name, value } => {
                let field = facts.call.input.get(name)?;
                let text = match field {
                    Value::String(s) => s.clone(),
                    Value::Bool(b) => b.to_string(),
                    Value::Number(n) => n.text.clone(),
                    _ => return None,
                };
                bash::wildcard(value, &text).then_some(Via::Direct)
            }
            Specifier::Command(p) => match facts.kind {
                Kind::Shell => {
                    let subs = &facts.subs;
                    // Deny and ask also see the normalised argv (CLI 2.1.332, recorded).
                    let hit = subs.iter().any(|s| {
                        p.matches(&s.stripped)
                            || p.matches(&s.unstripped)
                            || (group != Action::Allow && p.matches(&s.normalized))
                    });
                    // Unparseable: fail closed, the whole text counts too.
                    (hit || (facts.parse_error.is_some() && p.matches(facts.source.trim())))
                        .then_some(Via::Direct)
                }
                Kind::PowerShell => {
                    let parts = facts
                        .ps_parts
                        .clone()
                        .unwrap_or_else(|| vec![facts.source.clone()]);
                    parts.iter().any(|t| p.matches(t)).then_some(Via::Direct)
                }
                _ => facts
                    .call
                    .str_field("command")
                    .filter(|c| p.matches(c))
                    .map(|_| Via::Direct),
            },
            Specifier::Path(_) => {
                if facts.kind == Kind::Shell {
                    let ToolSelector::Exact(name) = &r.rule.tool else {
                        return None;
                    };
                    for t in &facts.targets {
                        let applies = match (name.as_str(), group) {
                            ("Read", Action::Deny) => true,
                            ("Read", _) => !t.write,
                            _ => t.write,
                        };
                        if !applies {
                            continue;
                        }
                        if let Some(abs) = &t.abs {
                            if self.path_rule_matches(i, abs, false) {
                                return Some(if t.redirect {
                                    Via::RedirectTarget
                                } else {
                                    Via::FileCommand
                                });
                            }
                        }
                    }
                    return None;
                }
                let abs = facts.path.as_deref()?;
                if self.path_rule_matches(i, abs, facts.is_dir) {
                    return Some(Via::Direct);
                }
                // Deny and ask apply if either the link or its target matches.
                let t = facts.target.as_deref()?;
                self.path_rule_matches(i, t, facts.is_dir)
                    .then_some(Via::SymlinkTarget)
            }
            Specifier::Domain(d) => {
                let host = host_of(facts.call.str_field("url")?)?;
                domain_matches(d, &host).then_some(Via::Direct)
            }
            Specifier::AgentType(t) => {
                let ty = facts.call.str_field("subagent_type")?;
                bash::wildcard(t, ty).then_some(Via::Direct)
            }
            Specifier::Skill(p) => {
                let (name, text) = skill_text(facts)?;
                let hit = p.matches(&text)
                    || (group != Action::Allow && {
                        // A deny/ask also catches qualified names (`plugin:name`).
                        let short = name.rsplit(':').next().unwrap_or(&name);
                        let args = facts.call.str_field("args").unwrap_or("");
                        let t = if args.is_empty() {
                            short.to_string()
                        } else {
                            format!("{short} {args}")
                        };
                        p.matches(&t)
                    });
                hit.then_some(Via::Direct)
            }
        }
    }
}

fn skill_text(facts: &Facts<'_>) -> Option<(String, String)> {
    let name = facts
        .call
        .str_field("skill")?
        .trim_start_matches('/')
        .to_string();
    let args = facts.call.str_field("args").unwrap_or("");
    let text = if args.is_empty() {
        name.clone()
    } else {
        format!("{name} {args}")
    };
    Some((name, text))
}

/// The host of a URL, lower-cased, without a trailing `.`.
fn host_of(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit('@').next()?;
    let host = if host.starts_with('[') {
        host.split(']').next().map(|h| format!("{h}]"))?
    } else {
        host.split(':').next()?.to_string()
    };
    let host = host.trim_end_matches('.').to_lowercase();
    (!host.is_empty()).then_some(host)
}

/// `domain:` matching (§4): `*` every host; a leading `*.` any depth of subdomains (not the
/// apex); an inner `*` exactly one label.
///
/// ```
/// # use permlab_core::claude_code::eval::domain_matches;
/// assert!(domain_matches("*.example.com", "a.b.example.com"));
/// assert!(!domain_matches("*.example.com", "example.com"));
/// assert!(domain_matches("example.*", "example.org"));
/// assert!(!domain_matches("example.*", "example.co.uk"));
/// assert!(domain_matches("Example.COM.", "example.com"));
/// ```
pub fn domain_matches(pattern: &str, host: &str) -> bool {
    let pattern = pattern.trim_end_matches('.').to_lowercase();
    let host = host.trim_end_matches('.').to_lowercase();
    if pattern == "*" {
        return true;
    }
    let p: Vec<&str> = pattern.split('.').collect();
    let h: Vec<&str> = host.split('.').collect();
    if p.len() > 1 && p[0] == "*" {
        let rest = &p[1..];
        if h.len() <= rest.len() {
            return false;
        }
        let tail = &h[h.len() - rest.len()..];
        return rest.iter().zip(tail).all(|(a, b)| bash::wildcard(a, b));
    }
    p.len() == h.len() && p.iter().zip(&h).all(|(a, b)| bash::wildcard(a, b))
}
