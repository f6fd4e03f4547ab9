//! Rules, matching and the loaded policy: the executable form of `execpolicy`'s `rule.rs` and
//! `policy.rs`.
//!
//! A [`PrefixRule`] is keyed by its first token; the policy stores rules in a multimap from
//! that token to the rules, in insertion order (file order, then the order the files were
//! given). Checking a command looks only at the rules stored under `command[0]`, keeps **every**
//! rule that matches (duplicates included) and decides by the maximum under
//! `Allow < Prompt < Forbidden`. Rule order therefore never changes a decision.

use std::collections::HashMap;
use std::fmt;

use super::diag::{LoadError, Span};
use super::shlex;
use crate::json::write_string;

/// The three outcomes of an execpolicy rule, ordered by strictness (the derived order of the
/// real `enum Decision` is what `.max()` relies on).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Decision {
    /// Run without asking.
    Allow,
    /// Ask the user first.
    Prompt,
    /// Reject the command.
    Forbidden,
}

impl Decision {
    /// Exactly `allow`, `prompt` or `forbidden` (case-sensitive, as in the real crate).
    pub fn parse(s: &str) -> Option<Decision> {
        match s {
            "allow" => Some(Decision::Allow),
            "prompt" => Some(Decision::Prompt),
            "forbidden" => Some(Decision::Forbidden),
            _ => None,
        }
    }

    /// The spelling used in policies and in the CLI's JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Prompt => "prompt",
            Decision::Forbidden => "forbidden",
        }
    }

    fn debug_name(self) -> &'static str {
        match self {
            Decision::Allow => "Allow",
            Decision::Prompt => "Prompt",
            Decision::Forbidden => "Forbidden",
        }
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One position of a pattern after the first: one exact token or a set of alternatives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PatternToken {
    /// Exactly this token.
    Single(String),
    /// Any of these tokens (a list inside the pattern; never a one-element list, which the
    /// parser turns into [`PatternToken::Single`]).
    Alts(Vec<String>),
}

/// A prefix rule as stored: its first token is fixed (a first-position list of alternatives
/// becomes one rule per alternative).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrefixRule {
    /// The first token, the key the rule is stored under.
    pub first: String,
    /// The remaining positions.
    pub rest: Vec<PatternToken>,
    /// What a match decides.
    pub decision: Decision,
    /// The rule's `justification`, if one was given.
    pub justification: Option<String>,
    /// `canonical_matching=True` (codex 0.171.0): the pattern keeps its tokens as written (the
    /// `PrefixRule` repr in validation messages shows them so), and both sides are case-folded
    /// ([`case_fold`]) when they are compared. Nothing else is normalised: `ＧＩＴ` (full-width)
    /// does not match `git`, `-fr` does not match `-rf`.
    pub canonical: bool,
}

/// Full Unicode case folding, as `canonical_matching` applies it to every token: `STRASSE`,
/// `Straße` and `strasse` fold alike; full-width letters stay themselves.
///
/// Upper-casing then lower-casing gives the full folding's equivalence classes (`ß` → `SS` →
/// `ss`, final `ς` → `Σ` → `σ`, `ﬁ` → `FI` → `fi`) with the standard library's tables alone.
///
/// ```
/// use permlab_core::codex::case_fold;
/// assert_eq!(case_fold("Straße"), case_fold("STRASSE"));
/// assert_eq!(case_fold("-RF"), "-rf");
/// assert_ne!(case_fold("ＧＩＴ"), "git");
/// ```
pub fn case_fold(s: &str) -> String {
    s.chars()
        .flat_map(char::to_uppercase)
        .flat_map(char::to_lowercase)
        .collect()
}

impl PrefixRule {
    /// The command's own tokens that matched, when the rule matches: the command is at least as
    /// long as the pattern and agrees with it position by position. Later tokens are ignored.
    ///
    /// ```
    /// use permlab_core::codex::{Decision, PatternToken, PrefixRule};
    /// let rule = PrefixRule { first: "git".into(), rest: vec![PatternToken::Single("push".into())],
    ///                         decision: Decision::Prompt, justification: None, canonical: false };
    /// let cmd: Vec<String> = ["git", "push", "--force"].map(String::from).to_vec();
    /// assert_eq!(rule.matched_prefix(&cmd), Some(vec!["git".to_string(), "push".to_string()]));
    /// ```
    pub fn matched_prefix(&self, cmd: &[String]) -> Option<Vec<String>> {
        let len = self.rest.len() + 1;
        if cmd.len() < len {
            return None;
        }
        let same = |pattern: &str, token: &str| {
            pattern == token || (self.canonical && case_fold(pattern) == case_fold(token))
        };
        if !same(&self.first, &cmd[0]) {
            return None;
        }
        if self.rest.iter().zip(&cmd[1..len]).all(|(p, t)| match p {
            PatternToken::Single(s) => same(s, t),
            PatternToken::Alts(alts) => alts.iter().any(|a| same(a, t)),
        }) {
            Some(cmd[..len].to_vec())
        } else {
            None
        }
    }

    fn matches(&self, cmd: &[String]) -> Option<RuleMatch> {
        self.matched_prefix(cmd).map(|matched_prefix| RuleMatch {
            matched_prefix,
            decision: self.decision,
            resolved_program: None,
            justification: self.justification.clone(),
        })
    }

    /// The rule as Rust's `{:?}` prints the real `PrefixRule` (used in validation messages).
    fn debug_repr(&self) -> String {
        let rest: Vec<String> = self
            .rest
            .iter()
            .map(|t| match t {
                PatternToken::Single(s) => format!("Single({})", debug_str(s)),
                PatternToken::Alts(a) => format!("Alts({})", debug_list(a)),
            })
            .collect();
        format!(
            "PrefixRule {{ pattern: PrefixPattern {{ canonical_matching: {}, first: {}, rest: [{}] }}, decision: {}, justification: {} }}",
            self.canonical,
            debug_str(&self.first),
            rest.join(", "),
            self.decision.debug_name(),
            debug_opt(self.justification.as_deref())
        )
    }
}

/// A `network_rule(...)`: parsed and validated like the real crate, but it never affects a
/// command check (it governs the network proxy, which permlab does not model).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkRule {
    /// Normalized host (lower case, no port, no trailing dot).
    pub host: String,
    /// `http`, `https`, `socks5_tcp` or `socks5_udp`.
    pub protocol: String,
    /// `deny` is accepted here as a synonym of forbidden.
    pub decision: Decision,
    /// The rule's justification, if any.
    pub justification: Option<String>,
}

/// One matching rule, as the CLI reports it under `prefixRuleMatch`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleMatch {
    /// The command's tokens that the pattern covered.
    pub matched_prefix: Vec<String>,
    /// The rule's decision.
    pub decision: Decision,
    /// With host-executable resolution: the absolute program path that was resolved to the
    /// rule's basename.
    pub resolved_program: Option<String>,
    /// The rule's justification, if any.
    pub justification: Option<String>,
}

impl RuleMatch {
    fn debug_repr(&self) -> String {
        format!(
            "PrefixRuleMatch {{ matched_prefix: {}, decision: {}, resolved_program: {}, justification: {} }}",
            debug_list(&self.matched_prefix),
            self.decision.debug_name(),
            match &self.resolved_program {
                Some(p) => format!("Some(AbsolutePathBuf({}))", debug_str(p)),
                None => "None".to_string(),
            },
            debug_opt(self.justification.as_deref())
        )
    }

    fn write_json(&self, out: &mut String) {
        out.push_str("{\"prefixRuleMatch\":{\"matchedPrefix\":[");
        for (i, t) in self.matched_prefix.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            write_string(t, out);
        }
        out.push_str("],\"decision\":");
        write_string(self.decision.as_str(), out);
        if let Some(p) = &self.resolved_program {
            out.push_str(",\"resolvedProgram\":");
            write_string(p, out);
        }
        if let Some(j) = &self.justification {
            out.push_str(",\"justification\":");
            write_string(j, out);
        }
        out.push_str("}}");
    }
}

/// The result of checking one command: every matching rule, and the strictest decision
/// (`None` when nothing matched — the CLI then prints no `decision` at all).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    /// All matches in policy order, duplicates included.
    pub matched_rules: Vec<RuleMatch>,
    /// The maximum decision of the matches.
    pub decision: Option<Decision>,
}

impl Check {
    fn from_matches(matched_rules: Vec<RuleMatch>) -> Self {
        let decision = matched_rules.iter().map(|m| m.decision).max();
        Check {
            matched_rules,
            decision,
        }
    }

    /// The JSON array of matches, as in the CLI's `matchedRules`.
    pub fn matched_rules_json(&self) -> String {
        let mut out = String::from("[");
        for (i, m) in self.matched_rules.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            m.write_json(&mut out);
        }
        out.push(']');
        out
    }

    /// The exact line `codex-execpolicy check` prints on stdout (without the newline):
    /// `{"matchedRules":[…],"decision":"…"}`, with no `decision` key when nothing matched.
    ///
    /// ```
    /// use permlab_core::codex::Policy;
    /// let p = Policy::parse("policy.rules", r#"prefix_rule(pattern=["git", "push"], decision="prompt")"#).unwrap();
    /// let cmd: Vec<String> = ["git", "push", "origin"].map(String::from).to_vec();
    /// assert_eq!(p.check(&cmd).to_cli_json(),
    ///     r#"{"matchedRules":[{"prefixRuleMatch":{"matchedPrefix":["git","push"],"decision":"prompt"}}],"decision":"prompt"}"#);
    /// assert_eq!(p.check(&["ls".to_string()]).to_cli_json(), r#"{"matchedRules":[]}"#);
    /// ```
    pub fn to_cli_json(&self) -> String {
        let mut out = String::from("{\"matchedRules\":");
        out.push_str(&self.matched_rules_json());
        if let Some(d) = self.decision {
            out.push_str(",\"decision\":");
            write_string(d.as_str(), &mut out);
        }
        out.push('}');
        out
    }
}

/// How to match: the CLI's `--resolve-host-executables` (always on inside codex-core).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchOptions {
    /// When no rule keyed by the exact first token matches, try the rules of the program's
    /// basename (`/usr/bin/git` → `git`), subject to `host_executable` allowlists. A
    /// `canonical_matching` rule folds the basename too (`/usr/bin/LS` matches `["ls"]`), and
    /// is then also subject to the allowlist of its own spelling.
    pub resolve_host_executables: bool,
    /// The working directory a relative program (`./git`) is made absolute against. `None`:
    /// relative programs are not resolved (the real code would use the process's directory,
    /// which a lesson page does not have).
    pub cwd: Option<String>,
    /// `$HOME`, which a program `~` or `~/…` is expanded with before it is resolved (a
    /// relative HOME is taken against `cwd`). `None`: such programs are not resolved (the real
    /// code falls back to the account's home directory). `~user/…` is never expanded: it is
    /// a relative path.
    pub home: Option<String>,
}

/// A loaded execpolicy: the rules of one or more `.rules` files.
#[derive(Clone, Debug, Default)]
pub struct Policy {
    rules: Vec<PrefixRule>,
    by_program: HashMap<String, Vec<usize>>,
    /// A finer index for the hot path ([`Policy::matching_rule_indices`]): rules of one
    /// program that stop after the program token, and rules keyed by their second token (a
    /// list of alternatives files the rule under each). execpolicy itself scans every rule of
    /// the program; with hundreds of rules per program that scan dominated, and the answer is
    /// the same because a rule can only match a command whose second token it names.
    by_two: HashMap<String, ProgramIndex>,
    network_rules: Vec<NetworkRule>,
    host_executables: HashMap<String, Vec<String>>,
    /// The `canonical_matching=True` rules by their case-folded first token: a command's
    /// first token is also looked up case-folded among them.
    by_folded: HashMap<String, Vec<usize>>,
    /// Some rule was declared with `canonical_matching=True`.
    any_canonical: bool,
    /// Where the examples of `match=` / `not_match=` resolve a relative or `~/` program.
    pub(super) example_env: MatchOptions,
}

/// The rules of one program, split by their second pattern token.
#[derive(Clone, Debug, Default)]
struct ProgramIndex {
    /// Rules whose pattern is the program alone: they match every command of the program.
    bare: Vec<usize>,
    /// Rules by second token, in insertion order.
    by_second: HashMap<String, Vec<usize>>,
}

/// Example validations recorded by `prefix_rule(match=…, not_match=…)`, run after the file
/// has been evaluated (so a later runtime error wins over an earlier bad example, as in the
/// real parser).
pub(crate) struct PendingExamples {
    pub rules: std::ops::Range<usize>,
    pub matches: Vec<Vec<String>>,
    pub not_matches: Vec<Vec<String>>,
    pub span: Span,
}

impl Policy {
    /// A policy with no rules: it matches nothing, not even `rm -rf /`.
    pub fn empty() -> Self {
        Policy::default()
    }

    pub(crate) fn push_rule(&mut self, rule: PrefixRule) -> usize {
        let i = self.rules.len();
        self.any_canonical |= rule.canonical;
        if rule.canonical {
            self.by_folded
                .entry(case_fold(&rule.first))
                .or_default()
                .push(i);
        }
        self.by_program
            .entry(rule.first.clone())
            .or_default()
            .push(i);
        let index = self.by_two.entry(rule.first.clone()).or_default();
        match rule.rest.first() {
            None => index.bare.push(i),
            Some(PatternToken::Single(t)) => index.by_second.entry(t.clone()).or_default().push(i),
            Some(PatternToken::Alts(alts)) => {
                for t in alts {
                    let list = index.by_second.entry(t.clone()).or_default();
                    // `["a", "a"]` alternatives must not file the rule twice.
                    if list.last() != Some(&i) {
                        list.push(i);
                    }
                }
            }
        }
        self.rules.push(rule);
        i
    }

    pub(crate) fn push_network_rule(&mut self, rule: NetworkRule) {
        self.network_rules.push(rule);
    }

    pub(crate) fn set_host_executable(&mut self, name: String, paths: Vec<String>) {
        self.host_executables.insert(name, paths);
    }

    /// Every prefix rule, in insertion order.
    pub fn rules(&self) -> &[PrefixRule] {
        &self.rules
    }

    /// Every `network_rule`, in insertion order (never used by command checks).
    pub fn network_rules(&self) -> &[NetworkRule] {
        &self.network_rules
    }

    /// The `host_executable` allowlist declared for `name`, if any.
    pub fn host_executable(&self, name: &str) -> Option<&[String]> {
        self.host_executables.get(name).map(Vec::as_slice)
    }

    /// `codex-execpolicy check` without flags: exact first-token lookup, no host resolution.
    pub fn check(&self, cmd: &[String]) -> Check {
        self.check_with_options(cmd, &MatchOptions::default())
    }

    /// Checks one command with `options`.
    pub fn check_with_options(&self, cmd: &[String], options: &MatchOptions) -> Check {
        Check::from_matches(self.matches_for_command(cmd, options))
    }

    /// The matches for one command. Rules keyed by the exact first token come first; only when
    /// none of them matches, and resolution is on, does a path-like program fall back to the
    /// rules of its basename.
    pub fn matches_for_command(&self, cmd: &[String], options: &MatchOptions) -> Vec<RuleMatch> {
        let exact = self.matches_under(cmd, None);
        if !exact.is_empty() || !options.resolve_host_executables {
            return exact;
        }
        self.host_executable_matches(cmd, options)
    }

    /// Indices (into [`Policy::rules`]) of the rules that match `cmd` exactly, in order.
    pub(crate) fn matching_rule_indices(&self, cmd: &[String]) -> Vec<usize> {
        if self.any_canonical {
            return self
                .candidates(cmd)
                .into_iter()
                .filter(|&i| self.rules[i].matched_prefix(cmd).is_some())
                .collect();
        }
        let Some(index) = cmd.first().and_then(|first| self.by_two.get(first)) else {
            return Vec::new();
        };
        let keyed: &[usize] = cmd
            .get(1)
            .and_then(|second| index.by_second.get(second))
            .map_or(&[], Vec::as_slice);
        // Both lists are in insertion order; merge them so the result is too.
        let mut out = Vec::with_capacity(index.bare.len() + keyed.len());
        let (mut a, mut b) = (index.bare.iter().peekable(), keyed.iter().peekable());
        loop {
            let next = match (a.peek(), b.peek()) {
                (Some(&&x), Some(&&y)) if x < y => a.next(),
                (Some(_), Some(_)) => b.next(),
                (Some(_), None) => a.next(),
                (None, Some(_)) => b.next(),
                (None, None) => break,
            };
            let i = *next.expect("peeked");
            if self.rules[i].matched_prefix(cmd).is_some() {
                out.push(i);
            }
        }
        out
    }

    /// The plain scan execpolicy does: every rule of the program, in order. Kept as the oracle
    /// for the index above.
    #[cfg(test)]
    pub(crate) fn matching_rule_indices_by_scan(&self, cmd: &[String]) -> Vec<usize> {
        let Some(first) = cmd.first() else {
            return Vec::new();
        };
        self.by_program
            .get(first)
            .map(|ix| {
                ix.iter()
                    .copied()
                    .filter(|&i| self.rules[i].matched_prefix(cmd).is_some())
                    .collect()
            })
            .unwrap_or_default()
    }

    fn matches_under(
        &self,
        cmd: &[String],
        only: Option<&std::ops::Range<usize>>,
    ) -> Vec<RuleMatch> {
        self.candidates(cmd)
            .into_iter()
            .filter(|i| only.is_none_or(|r| r.contains(i)))
            .filter_map(|i| self.rules[i].matches(cmd))
            .collect()
    }

    /// The rules filed under the command's program, in insertion order; with canonical rules,
    /// also the canonical rules whose program folds like it.
    fn candidates(&self, cmd: &[String]) -> Vec<usize> {
        let Some(first) = cmd.first() else {
            return Vec::new();
        };
        let mut out: Vec<usize> = self.by_program.get(first).cloned().unwrap_or_default();
        if self.any_canonical {
            if let Some(more) = self.by_folded.get(&case_fold(first)) {
                out.extend(more);
                out.sort_unstable();
                out.dedup();
            }
        }
        out
    }

    fn host_executable_matches(&self, cmd: &[String], options: &MatchOptions) -> Vec<RuleMatch> {
        self.host_executable_matches_in(cmd, options, None)
    }

    fn host_executable_matches_in(
        &self,
        cmd: &[String],
        options: &MatchOptions,
        only: Option<&std::ops::Range<usize>>,
    ) -> Vec<RuleMatch> {
        let Some(first) = cmd.first() else {
            return Vec::new();
        };
        let Some(program) = resolve_program(first, options) else {
            return Vec::new();
        };
        let Some(basename) = program.rsplit('/').next().filter(|b| !b.is_empty()) else {
            return Vec::new();
        };
        // An allowlist declared for `name` admits only the paths it lists. The basename's own
        // allowlist gates every rule; a canonical rule whose program is spelled otherwise
        // (`LS` for `/bin/ls`, `ls` for `/bin/LS`) is gated by its own name's allowlist too.
        let allowed = |name: &str| {
            self.host_executables.get(name).is_none_or(|paths| {
                paths
                    .iter()
                    .any(|p| absolutize(p, None).as_deref() == Some(program.as_str()))
            })
        };
        if !allowed(basename) {
            return Vec::new();
        }
        let mut renamed = cmd.to_vec();
        renamed[0] = basename.to_string();
        self.candidates(&renamed)
            .into_iter()
            .filter(|i| only.is_none_or(|r| r.contains(i)))
            .filter(|&i| self.rules[i].first == basename || allowed(&self.rules[i].first))
            .filter_map(|i| self.rules[i].matches(&renamed))
            .map(|mut m| {
                m.resolved_program = Some(program.clone());
                m
            })
            .collect()
    }

    /// Runs one `prefix_rule` call's examples against the rules that call created (and only
    /// those), `not_match` first, with host resolution on.
    pub(super) fn validate(
        &self,
        file: &str,
        src: &str,
        v: &PendingExamples,
    ) -> Result<(), LoadError> {
        // The real loader resolves a relative program against the process's directory (and
        // `~/` with its HOME); only the basename matters unless an allowlist names the program,
        // so "/" stands in for an unknown directory.
        let options = MatchOptions {
            resolve_host_executables: true,
            cwd: Some(
                self.example_env
                    .cwd
                    .clone()
                    .unwrap_or_else(|| "/".to_string()),
            ),
            home: self.example_env.home.clone(),
        };
        let matches = |cmd: &[String]| {
            let exact = self.matches_under(cmd, Some(&v.rules));
            if exact.is_empty() {
                self.host_executable_matches_in(cmd, &options, Some(&v.rules))
            } else {
                exact
            }
        };
        for ex in &v.not_matches {
            if let Some(m) = matches(ex).first() {
                let msg = format!(
                    "expected example to not match rule `{}`: {}",
                    m.debug_repr(),
                    shlex::try_join(ex)
                );
                return Err(LoadError::validation(file, src, v.span, msg));
            }
        }
        let unmatched: Vec<String> = v
            .matches
            .iter()
            .filter(|ex| matches(ex).is_empty())
            .map(|ex| shlex::try_join(ex))
            .collect();
        if !unmatched.is_empty() {
            let rules: Vec<String> = self.rules[v.rules.clone()]
                .iter()
                .map(|r| r.debug_repr())
                .collect();
            let msg = format!(
                "expected every example to match at least one rule. rules: {}; unmatched examples: {}",
                debug_list(&rules),
                debug_list(&unmatched)
            );
            return Err(LoadError::validation(file, src, v.span, msg));
        }
        Ok(())
    }
}

/// A command's program as an absolute path: `~` and `~/…` expanded with `options.home`, then
/// made absolute against `options.cwd` ([`absolutize`]); `None` when the directory it needs is
/// unknown.
fn resolve_program(program: &str, options: &MatchOptions) -> Option<String> {
    let cwd = options.cwd.as_deref();
    let rest = match program.strip_prefix('~') {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => rest,
        _ => return absolutize(program, cwd),
    };
    let home = options.home.as_deref().filter(|h| !h.is_empty())?;
    let home = absolutize(home, cwd)?;
    absolutize(&format!("{home}/{rest}"), None)
}

/// `path` made absolute and normalized lexically (`.` and `..` resolved), as
/// `AbsolutePathBuf` does; `None` for a relative path without a working directory.
fn absolutize(path: &str, cwd: Option<&str>) -> Option<String> {
    let joined = if path.starts_with('/') {
        path.to_string()
    } else {
        format!("{}/{}", cwd?, path)
    };
    let mut parts: Vec<&str> = Vec::new();
    for c in joined.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            c => parts.push(c),
        }
    }
    Some(format!("/{}", parts.join("/")))
}

/// A string as Rust's `{:?}` prints it.
pub(crate) fn debug_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\0' => out.push_str("\\0"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn debug_list(items: &[String]) -> String {
    let v: Vec<String> = items.iter().map(|s| debug_str(s)).collect();
    format!("[{}]", v.join(", "))
}

fn debug_opt(s: Option<&str>) -> String {
    match s {
        Some(s) => format!("Some({})", debug_str(s)),
        None => "None".to_string(),
    }
}
