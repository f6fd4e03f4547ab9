//! Claude Code: deny → ask → allow over the union of every settings layer. Dead allow/ask
//! rules, bare denies, and patterns that do not do what they look like.

use super::glob::{text, witness, Lang, Search};
use super::{
    claude_scope, file_error, Demo, Facts, Finding, Kind, Place, RuleRef, Sandboxing, Severity,
    Source,
};
use crate::claude_code::rule::{Specifier, ToolSelector};
use crate::claude_code::{
    CompiledPolicy, Context, Decider, Outcome, Policy, PolicyRule, Scope, SettingsFile, ToolCall,
    Verdict,
};
use crate::error::Error;
use crate::evaluation::Decision;
use crate::import::ClaudeRulePlaces;
use crate::import::Format;
use crate::json::{self, Value};
use crate::table::{Action, Call};

/// First path segments that mark a `/path` rule as meant to be absolute.
const ROOTS: [&str; 20] = [
    "etc", "usr", "var", "tmp", "opt", "bin", "sbin", "lib", "dev", "proc", "sys", "root", "home",
    "Users", "private", "System", "Library", "Volumes", "mnt", "srv",
];

/// A session: the layers, merged, with where each rule is written.
pub(crate) struct Session<'a> {
    pub sources: Vec<(&'a Source, Scope, Value)>,
    pub policy: Policy,
    pub compiled: CompiledPolicy,
    pub places: Vec<Place>,
}

impl Session<'_> {
    fn verdict(&self, call: &ToolCall) -> Verdict {
        self.compiled.evaluate(call)
    }

    /// Whether rule `i` on its own matches `call` (the engine, over a policy of that rule).
    fn rule_matches(&self, i: usize, call: &ToolCall) -> bool {
        let mut alone = self.policy.clone();
        alone.rules = vec![self.policy.rules[i].clone()];
        let v = CompiledPolicy::new(alone, crate::claude_code::Mode::Default, ctx()).evaluate(call);
        v.rule == Some(0) || v.matches.contains(&0)
    }

    fn rule_ref(&self, i: usize) -> RuleRef {
        let r = &self.policy.rules[i];
        RuleRef {
            place: self.places[i].clone(),
            text: format!("{} {}", r.group, r.text),
            action: r.group,
        }
    }

    fn demo(&self, call: &ToolCall) -> Demo {
        let v = self.verdict(call);
        let decided_by = match (&v.decider, v.rule) {
            (Decider::ToolRemoved, Some(k)) => {
                format!("`deny {}` removes the tool", self.policy.rules[k].text)
            }
            (_, Some(k)) => format!(
                "rule `{} {}`",
                self.policy.rules[k].group, self.policy.rules[k].text
            ),
            (Decider::Mode { mode, .. }, None) => {
                format!("no rule: the {} mode's fallback", mode.as_str())
            }
            // Any other step, in the conformance files' words (`builtin:read-only`), never
            // as a Rust value.
            (_, None) => v.label(&self.policy),
        };
        let input = call_input(call);
        Demo {
            call: Call::new(common_tool(&call.tool), input.clone()),
            native: format!("{}: {input}", call.tool),
            verdict: outcome_decision(v.outcome),
            decided_by,
        }
    }
}

fn ctx() -> Context {
    Context::default()
}

fn outcome_decision(o: Outcome) -> Decision {
    match o {
        Outcome::Allow => Decision::Allow,
        Outcome::Ask | Outcome::Classifier => Decision::Ask,
        Outcome::Deny => Decision::Deny,
        Outcome::Unavailable => Decision::Unavailable,
    }
}

fn common_tool(tool: &str) -> String {
    match tool {
        "Bash" => "bash",
        "Read" => "read_file",
        "Edit" => "edit_file",
        "Write" => "write_file",
        "WebFetch" => "web_fetch",
        "WebSearch" => "web_search",
        other => other,
    }
    .to_string()
}

fn call_input(call: &ToolCall) -> String {
    call.input
        .as_object()
        .and_then(|o| o.first())
        .and_then(|(_, v)| v.as_str())
        .unwrap_or("")
        .to_string()
}

/// Reads the files and merges them as one session (trusted, so project allows apply).
pub(crate) fn session<'a>(sources: &[&'a Source]) -> (Option<Session<'a>>, Vec<Error>) {
    let mut errors = Vec::new();
    let mut files = Vec::new();
    let mut read = Vec::new();
    for s in sources {
        let value = match json::parse(&s.text) {
            Ok(v) => v,
            Err(e) => {
                errors.push(file_error(
                    &s.name,
                    format!(
                        "{}:{}: invalid JSON: {}: settings.json is strict JSON (no comments, no trailing commas); fix it there",
                        e.position.line, e.position.column, e.message
                    ),
                ));
                continue;
            }
        };
        let scope = s.scope.unwrap_or_else(|| claude_scope(&s.name));
        match SettingsFile::from_value(&value, scope) {
            Ok(f) => {
                files.push(f);
                read.push((*s, scope, value));
            }
            Err(e) => errors.push(file_error(
                &s.name,
                format!("1:1: {e}: a settings file is an object with a `permissions` object"),
            )),
        }
    }
    if read.is_empty() {
        return (None, errors);
    }
    let policy = Policy::merge(&files, true);
    let places = places_of(&read, &policy.rules);
    let compiled = CompiledPolicy::new(policy.clone(), policy.session_mode(), ctx());
    (
        Some(Session {
            sources: read,
            policy,
            compiled,
            places,
        }),
        errors,
    )
}

/// Where each rule of the merged policy is written: its file, line and column (each file
/// read once for all its rules, see [`ClaudeRulePlaces`]).
fn places_of(read: &[(&Source, Scope, Value)], rules: &[PolicyRule]) -> Vec<Place> {
    let places: Vec<ClaudeRulePlaces> = read
        .iter()
        .map(|(s, _, _)| ClaudeRulePlaces::new(&s.name, &s.text))
        .collect();
    rules
        .iter()
        .map(|r| match read.iter().position(|(_, s, _)| *s == r.scope) {
            Some(f) => places[f]
                .place(r.group, r.index)
                .unwrap_or_else(|| super::place_at(read[f].0, 0)),
            None => Place {
                file: String::new(),
                line: 1,
                column: 1,
            },
        })
        .collect()
}

pub(crate) fn lint(sources: &[&Source]) -> (Vec<Finding>, Vec<Error>) {
    // Layers need one file per scope; otherwise each file is its own session.
    let mut scopes: Vec<Scope> = sources
        .iter()
        .map(|s| s.scope.unwrap_or_else(|| claude_scope(&s.name)))
        .collect();
    scopes.sort();
    let unique = scopes.windows(2).all(|w| w[0] != w[1]);
    let groups: Vec<Vec<&Source>> = if unique {
        vec![sources.to_vec()]
    } else {
        sources.iter().map(|s| vec![*s]).collect()
    };
    let mut findings = Vec::new();
    let mut errors = Vec::new();
    for g in groups {
        let (s, e) = session(&g);
        errors.extend(e);
        if let Some(s) = s {
            findings.extend(lint_session(&s));
        }
    }
    (findings, errors)
}

/// The rules reported dead, by position in the merged policy.
#[cfg(test)]
pub(crate) fn dead_positions(s: &Session) -> Vec<usize> {
    let mut out: Vec<usize> = (0..s.policy.rules.len())
        .filter(|&i| dead_rule(s, i).is_some())
        .collect();
    out.dedup();
    out
}

fn lint_session(s: &Session) -> Vec<Finding> {
    let mut out = Vec::new();
    let bare = bare_denies(s, &mut out);
    for i in 0..s.policy.rules.len() {
        if let Some((f, cover)) = dead_rule(s, i) {
            if !bare.contains(&cover) {
                out.push(f);
            }
        } else {
            out.extend(hazards(s, i));
        }
    }
    let _ = &s.sources;
    out
}

fn raw_spec(text: &str) -> Option<&str> {
    let t = text.trim();
    let open = t.find('(')?;
    t.strip_suffix(')').map(|x| &x[open + 1..])
}

fn tool_covers(d: &ToolSelector, a: &ToolSelector) -> bool {
    match (d, a) {
        (ToolSelector::Glob(g), _) if g == "*" => true,
        (ToolSelector::Glob(g), ToolSelector::Exact(n)) => crate::claude_code::bash::wildcard(g, n),
        (ToolSelector::Glob(g), ToolSelector::Glob(h)) => g == h,
        (ToolSelector::McpServer(_), ToolSelector::Exact(n)) => d.names(n),
        (ToolSelector::McpServer(s), ToolSelector::McpServer(t)) => s == t,
        (ToolSelector::Exact(m), ToolSelector::Exact(n)) => m == n,
        _ => false,
    }
}

/// The text every command a Claude Code command pattern matches starts with: what comes
/// before its first `*`, without the space of an optional final ` *` (`git *` matches `git`).
fn command_head(pattern: &str) -> &str {
    let head = pattern.split('*').next().unwrap_or("");
    if pattern.ends_with(" *") && pattern.matches('*').count() == 1 {
        head.strip_suffix(' ').unwrap_or(head)
    } else {
        head
    }
}

/// Whether rule `d` (deny or ask) fires on every call rule `a` would decide.
fn covers(s: &Session, d: &PolicyRule, a: &PolicyRule) -> bool {
    if !tool_covers(&d.rule.tool, &a.rule.tool) {
        return false;
    }
    if matches!(&a.rule.tool, ToolSelector::Exact(n) if n == "EndConversation") {
        return false;
    }
    let bash = matches!(&a.rule.tool, ToolSelector::Exact(n) if n == "Bash");
    match (&d.rule.spec, &a.rule.spec) {
        (Specifier::Bare, _) => {
            // A bare Bash ask is skipped for sandboxed commands: it does not cover then.
            !(d.group == Action::Ask
                && bash
                && s.policy.sandbox_enabled
                && s.policy.auto_allow_bash_if_sandboxed)
        }
        (_, Specifier::Bare) => false,
        (Specifier::Command(dp), Specifier::Command(ap)) if bash => {
            // Every command `ap` matches starts with its text before the first `*`, and every
            // one `dp` matches with its own: unless `dp`'s is a prefix of `ap`'s, no command
            // proves anything, so the languages are not built (a file of 3 000 allows and
            // 3 000 denies is 9 million pairs).
            command_head(ap.as_str()).starts_with(command_head(dp.as_str()))
                && !super::glob::spent(ap.as_str())
                && Lang::claude_command(dp.as_str()).includes(&Lang::claude_command(ap.as_str()))
                    == Some(true)
        }
        (Specifier::Path(_), Specifier::Path(_)) => {
            // Same text: a deny reads a path pattern at least as broadly as an allow. A `/path`
            // anchor means the settings source, so only within one file.
            let (ds, asp) = (raw_spec(&d.text), raw_spec(&a.text));
            ds.is_some()
                && ds == asp
                && (d.scope == a.scope
                    || !ds.is_some_and(|x| x.starts_with('/') && !x.starts_with("//")))
        }
        (Specifier::Domain(x), Specifier::Domain(y)) => x == "*" || x.eq_ignore_ascii_case(y),
        (Specifier::AgentType(x), Specifier::AgentType(y)) => x == y,
        (Specifier::Param { name: n, value: v }, Specifier::Param { name: m, value: w }) => {
            n == m && v == w
        }
        _ => false,
    }
}

/// A call rule `a` decides when nothing stops it: built from its specifier.
fn call_for(s: &Session, a: &PolicyRule) -> Option<ToolCall> {
    let tool = match &a.rule.tool {
        ToolSelector::Exact(n) => n.clone(),
        ToolSelector::McpServer(srv) => format!("mcp__{srv}__tool"),
        ToolSelector::Glob(g) => g.replace('*', "x"),
    };
    let c = ctx();
    Some(match &a.rule.spec {
        Specifier::Bare => match tool.as_str() {
            "Bash" => ToolCall::bash("npm test"),
            "Read" | "Edit" | "Write" => {
                ToolCall::with_field(&tool, "file_path", &format!("{}/README.md", c.cwd))
            }
            "WebFetch" => ToolCall::with_field(&tool, "url", "https://example.com/"),
            "WebSearch" => ToolCall::with_field(&tool, "query", "rust"),
            "Agent" => ToolCall::with_field(&tool, "subagent_type", "general-purpose"),
            _ => ToolCall::new(tool, Value::Object(Vec::new())),
        },
        Specifier::Command(p) => {
            let lang = Lang::claude_command(p.as_str());
            let w = match super::glob::natural(p.as_str(), &lang) {
                Some(w) => w,
                None => match witness(&lang, &Lang::claude_command("*"), true) {
                    Search::Found(u) => text(&u)?,
                    _ => return None,
                },
            };
            let w = if w.is_empty() { "ls".into() } else { w };
            if tool == "Bash" {
                ToolCall::bash(&w)
            } else {
                ToolCall::with_field(&tool, "command", &w)
            }
        }
        Specifier::Path(_) => {
            let spec = raw_spec(&a.text)?;
            let path = absolute(spec, a.scope, &c)?;
            ToolCall::with_field(&tool, "file_path", &path)
        }
        Specifier::Domain(d) => {
            ToolCall::with_field(&tool, "url", &format!("https://{}/", d.replace('*', "www")))
        }
        Specifier::AgentType(t) => {
            ToolCall::with_field(&tool, "subagent_type", &t.replace('*', "x"))
        }
        Specifier::Skill(p) => {
            ToolCall::with_field(&tool, "skill", p.as_str().trim_end_matches(" *"))
        }
        Specifier::Param { name, value } => {
            let mut o = vec![(name.clone(), Value::from(value.replace('*', "x").as_str()))];
            if tool == "Bash" {
                o.insert(0, ("command".into(), Value::from("npm test")));
            }
            let _ = s;
            ToolCall::new(tool, Value::Object(o))
        }
    })
}

/// A file a path rule names, made absolute in the lint's session (`**` → `a`, `*` → `x`).
pub(crate) fn absolute(spec: &str, scope: Scope, c: &Context) -> Option<String> {
    let spec = spec.strip_prefix('!').unwrap_or(spec);
    let fill = |p: &str| {
        let p = p.replace("**", "a").replace(['*', '?'], "x");
        let p = p.trim_end_matches('/').to_string();
        if p.is_empty() {
            "a".to_string()
        } else {
            p
        }
    };
    Some(if let Some(r) = spec.strip_prefix("//") {
        format!("/{}", fill(r))
    } else if let Some(r) = spec.strip_prefix("~/") {
        format!("{}/{}", c.home, fill(r))
    } else if let Some(r) = spec.strip_prefix('/') {
        let base = if scope == Scope::User {
            format!("{}/.claude", c.home)
        } else {
            c.project_root.clone()
        };
        format!("{base}/{}", fill(r))
    } else {
        let r = spec.strip_prefix("./").unwrap_or(spec);
        format!("{}/{}", c.cwd, fill(r))
    })
}

fn dead_rule(s: &Session, i: usize) -> Option<(Finding, usize)> {
    let a = &s.policy.rules[i];
    let groups: &[Action] = match a.group {
        Action::Allow => &[Action::Deny, Action::Ask],
        Action::Ask => &[Action::Deny],
        Action::Deny => return None,
    };
    let (k, d) = s
        .policy
        .rules
        .iter()
        .enumerate()
        .find(|(_, d)| groups.contains(&d.group) && covers(s, d, a))?;
    let call = call_for(s, a)?;
    // The engine must agree: the rule matches the call on its own, and the covering group
    // decides it in the session.
    if !s.rule_matches(i, &call) {
        return None;
    }
    let v = s.verdict(&call);
    let decided_by_cover = match v.rule {
        Some(r) => s.policy.rules[r].group != Action::Allow && r != i,
        None => false,
    };
    if !decided_by_cover {
        return None;
    }
    let demo = s.demo(&call);
    let what = if d.group == Action::Deny {
        "deny"
    } else {
        "ask"
    };
    let message = format!(
        "`{} {}` never decides: `{what} {}` matches every call it matches, and Claude Code checks deny, then ask, then allow whatever the order or the file, so `{}` gets {}",
        a.group, a.text, d.text, demo.native, demo.verdict
    );
    let fix = if a.group == Action::Allow && d.group == Action::Deny {
        format!(
            "an allow cannot open a hole in a deny: narrow `{}` so that it no longer covers `{}`, or delete the allow",
            d.text, a.text
        )
    } else {
        format!("delete `{}`, or narrow `{}`", a.text, d.text)
    };
    Some((
        Finding {
            kind: Kind::DeadRule,
            severity: Severity::Warning,
            harness: Format::ClaudeCode,
            place: s.places[i].clone(),
            rules: vec![s.rule_ref(i), s.rule_ref(k)],
            message,
            call: demo,
            fix,
            facts: Facts::default(),
        },
        k,
    ))
}

/// Bare denies of a tool that other rules try to carve exceptions from; returns their positions.
fn bare_denies(s: &Session, out: &mut Vec<Finding>) -> Vec<usize> {
    let mut found = Vec::new();
    for (k, d) in s.policy.rules.iter().enumerate() {
        if d.group != Action::Deny || !d.rule.is_bare() {
            continue;
        }
        let others: Vec<usize> = s
            .policy
            .rules
            .iter()
            .enumerate()
            .filter(|(j, r)| {
                *j != k && r.group != Action::Deny && tool_covers(&d.rule.tool, &r.rule.tool)
            })
            .map(|(j, _)| j)
            .collect();
        let Some(&first) = others.first() else {
            continue;
        };
        let Some(call) = call_for(s, &s.policy.rules[first]) else {
            continue;
        };
        if s.verdict(&call).outcome != Outcome::Unavailable {
            continue;
        }
        let demo = s.demo(&call);
        let mut rules = vec![s.rule_ref(k)];
        rules.extend(others.iter().take(5).map(|&j| s.rule_ref(j)));
        let names: Vec<String> = others
            .iter()
            .take(3)
            .map(|&j| format!("`{} {}`", s.policy.rules[j].group, s.policy.rules[j].text))
            .collect();
        out.push(Finding {
            kind: Kind::BareDeny,
            severity: Severity::Warning,
            harness: Format::ClaudeCode,
            place: s.places[k].clone(),
            rules,
            message: format!(
                "the bare deny `{}` removes the tool from the model's context, so no call of it can be made and {}{} can never apply: `{}` is unavailable",
                d.text,
                names.join(", "),
                if others.len() > 3 { format!(" and {} more", others.len() - 3) } else { String::new() },
                demo.native
            ),
            call: demo,
            fix: format!(
                "deny what must never run one pattern at a time (`{}(rm *)`-style rules) instead of the whole tool, or delete the rules that try to allow parts of it",
                d.text.split('(').next().unwrap_or(&d.text)
            ),
            facts: Facts {
                write: vec![format!("{}(rm *)", d.text.split('(').next().unwrap_or(&d.text))],
                count: others.len(),
                ..Facts::default()
            },
        });
        found.push(k);
    }
    found
}

/// How `policy`'s sandbox stands (what a wrapper finding's advice depends on).
fn sandboxing(policy: &Policy) -> Sandboxing {
    match (policy.sandbox_enabled, policy.auto_allow_bash_if_sandboxed) {
        (false, _) => Sandboxing::Off,
        (true, false) => Sandboxing::On,
        (true, true) => Sandboxing::OnAutoAllow,
    }
}

fn hazards(s: &Session, i: usize) -> Vec<Finding> {
    let a = &s.policy.rules[i];
    let mut out = Vec::new();
    let finding =
        |kind, severity, message: String, call: &ToolCall, fix: String, write: Vec<String>| {
            Finding {
                kind,
                severity,
                harness: Format::ClaudeCode,
                place: s.places[i].clone(),
                rules: vec![s.rule_ref(i)],
                message,
                call: s.demo(call),
                fix,
                facts: Facts {
                    write,
                    ..Facts::default()
                },
            }
        };
    let effect = |call: &ToolCall| outcome_decision(s.verdict(call).outcome);
    let tool = match &a.rule.tool {
        ToolSelector::Exact(n) => n.as_str(),
        _ => return out,
    };
    match &a.rule.spec {
        Specifier::Command(p) if tool == "Bash" => {
            let pat = p.as_str();
            // `:*` is a wildcard only at the very end.
            if pat.contains(":*") {
                let cmd = pat.replace(":*", "").replace('*', "x");
                let call = ToolCall::bash(&cmd);
                if !s.rule_matches(i, &call) && effect(&call) != Decision::from(a.group) {
                    let fixed = pat.replace(":*", " *");
                    out.push(finding(
                        Kind::ColonStar,
                        Severity::Warning,
                        format!(
                            "`:*` is a wildcard only at the very end of a Bash rule: in `{}` the colon is literal, so `{cmd}` is not matched",
                            a.text
                        ),
                        &call,
                        format!("write `Bash({fixed})`"),
                        vec![format!("Bash({fixed})")],
                    ));
                }
            }
            // A final ` *` is optional only when it is the only `*`.
            if let Some(head) = pat.strip_suffix(" *").filter(|h| h.contains('*')) {
                let cmd = head.replace('*', "x");
                let call = ToolCall::bash(&cmd);
                if !s.rule_matches(i, &call) && effect(&call) != Decision::from(a.group) {
                    out.push(finding(
                        Kind::TrailingStar,
                        Severity::Warning,
                        format!(
                            "a final ` *` may match nothing only when it is the rule's only `*`: `{} {}` does not match `{cmd}` (it gets {})",
                            a.group,
                            a.text,
                            effect(&call)
                        ),
                        &call,
                        format!("add `Bash({head})` next to it for the form without arguments"),
                        vec![format!("Bash({head})")],
                    ));
                }
            }
            // A deny that a wrapper or an absolute path still gets past.
            let first = pat.split(' ').next().unwrap_or("");
            if a.group == Action::Deny && !first.is_empty() && !first.contains(['*', '/']) {
                if let Some(base) = call_for(s, a) {
                    let cmd = call_input(&base);
                    let mut tries = Vec::new();
                    if !cmd.contains('\'') {
                        tries.push(format!("sh -c '{cmd}'"));
                    }
                    tries.push(format!("/usr/bin/{cmd}"));
                    for t in tries {
                        let call = ToolCall::bash(&t);
                        let e = effect(&call);
                        if e != Decision::Deny && e != Decision::Unavailable {
                            // The rule for the form that got past, not for one the deny
                            // already stops (CLI 2.1.332 drops `/usr/bin/` before matching).
                            let rule = if t.starts_with("sh -c") {
                                format!("Bash(sh -c *{first}*)")
                            } else {
                                format!("Bash(/usr/bin/{first} *)")
                            };
                            let sandbox = sandboxing(&s.policy);
                            let fix = match sandbox {
                                Sandboxing::Off => format!(
                                    "also deny `{rule}`, or turn on the sandbox (`sandbox.enabled`), which bounds the paths and domains every process can reach, whatever form the command takes"
                                ),
                                Sandboxing::On => format!(
                                    "also deny `{rule}`; the sandbox is already on: once approved, `{t}` runs inside it, bounded by its paths and allowed domains"
                                ),
                                Sandboxing::OnAutoAllow => format!(
                                    "also deny `{rule}`; the sandbox is on and auto-allows sandboxed commands, so `{t}` runs without a prompt, bounded only by the sandbox's paths and allowed domains"
                                ),
                            };
                            let mut f = finding(
                                Kind::WrapperBypass,
                                Severity::Note,
                                format!(
                                    "`deny {}` matches the command text as written, not what runs: `{t}` is not denied (it gets {e}); Claude Code's docs say Bash rules are not a security boundary",
                                    a.text
                                ),
                                &call,
                                fix,
                                vec![rule],
                            );
                            f.facts.sandbox = Some(sandbox);
                            out.push(f);
                            break;
                        }
                    }
                }
            }
        }
        Specifier::Path(_) if matches!(tool, "Read" | "Edit") => {
            let Some(spec) = raw_spec(&a.text) else {
                return out;
            };
            // `/etc/…` is anchored at the settings source, not at the filesystem root.
            if let Some(rest) = spec.strip_prefix('/').filter(|r| !r.starts_with('/')) {
                let seg = rest.split('/').next().unwrap_or("");
                if ROOTS.contains(&seg) {
                    let path = format!(
                        "/{}",
                        rest.replace("**", "a")
                            .replace('*', "x")
                            .trim_end_matches('/')
                    );
                    let call = ToolCall::with_field(tool, "file_path", &path);
                    if !s.rule_matches(i, &call) && effect(&call) != Decision::from(a.group) {
                        out.push(finding(
                            Kind::PathAnchor,
                            Severity::Warning,
                            format!(
                                "`{}`: a path starting with one `/` is relative to the settings source (the project root for project settings, `~/.claude/` for user settings), not the filesystem root, so `{path}` is not matched",
                                a.text
                            ),
                            &call,
                            format!("write `{tool}(/{spec})` (`//` is the filesystem root)"),
                            vec![format!("{tool}(/{spec})")],
                        ));
                    }
                }
            }
            // `**/x` as a deny: only under the working directory.
            if a.group != Action::Allow {
                if let Some(rest) = spec.strip_prefix("**/") {
                    let c = ctx();
                    let path = format!(
                        "{}/{}",
                        c.home,
                        rest.replace("**", "a")
                            .replace('*', "x")
                            .trim_end_matches('/')
                    );
                    let call = ToolCall::with_field(tool, "file_path", &path);
                    if !s.rule_matches(i, &call) && effect(&call) != Decision::from(a.group) {
                        out.push(finding(
                            Kind::OutsideCwd,
                            Severity::Warning,
                            format!(
                                "`{} {}` is relative to the working directory: `{path}`, outside it, is not matched (it gets {})",
                                a.group,
                                a.text,
                                effect(&call)
                            ),
                            &call,
                            format!("add `{tool}(~/**/{rest})` for the home directory, or `{tool}(//**/{rest})` for anywhere"),
                            vec![format!("{tool}(~/**/{rest})"), format!("{tool}(//**/{rest})")],
                        ));
                    }
                }
            }
        }
        _ => {}
    }
    out
}
