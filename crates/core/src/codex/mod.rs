//! # Codex execpolicy: token-prefix rules, the strictest match wins
//!
//! A port of `openai/codex` `codex-rs/execpolicy` at commit `6a0c4709` (2026-03-27), plus the
//! shell-wrapper splitting codex-core does before it asks the policy ([`shell`]).
//!
//! ## The policy language
//!
//! Policies are Starlark files (`.rules`) that call three built-ins:
//!
//! ```text
//! prefix_rule(pattern=["git", ["push", "fetch"]], decision="prompt",
//!             justification="…", match=["git push origin"], not_match=["git pull"])
//! network_rule(host="example.com", protocol="https", decision="deny")
//! host_executable(name="git", paths=["/usr/bin/git"])
//! ```
//!
//! The file is a real program — `for`, `if`, `def` and f-strings work — so permlab carries a
//! small Starlark interpreter ([`Policy::parse`]). Any error fails the **whole** policy, like
//! the CLI (`Error: failed to parse policy at <file>` + the cause, see [`LoadError`]).
//!
//! ## Why a prefix, and why the strictest
//!
//! A rule matches a command (an argv, never re-tokenized) when the command is at least as long
//! as the pattern and agrees with it token by token; trailing tokens are ignored. So
//! `["git", "push", "--force"]` does not catch `git push origin main --force`: a prefix rule
//! never looks past its own length. Every rule stored under the command's first token is tried
//! and **all** matches are kept; the decision is their maximum under
//! `Allow < Prompt < Forbidden`. That makes rule order irrelevant — unlike OpenCode
//! (last match wins) or a naive first-match table. When nothing matches, execpolicy gives no
//! decision at all; codex-core then uses heuristics that permlab does not model.
//!
//! ```
//! use permlab_core::codex::{Decision, Policy};
//! let policy = Policy::parse("policy.rules", r#"
//! prefix_rule(pattern=["rm"], decision="prompt")
//! prefix_rule(pattern=["rm", "-rf", "/"], decision="forbidden")
//! "#).unwrap();
//! let argv = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
//! assert_eq!(policy.check(&argv("rm -rf /")).decision, Some(Decision::Forbidden));
//! assert_eq!(policy.check(&argv("rm -fr /")).decision, Some(Decision::Prompt)); // -fr ≠ -rf
//! assert_eq!(policy.check(&argv("ls")).decision, None);
//! ```
//!
//! ## The lesson's table
//!
//! [`from_table`] translates the common [`RuleTable`] into a policy: a `bash` row whose pattern
//! is a plain token prefix (optionally ending in ` *`) becomes a prefix rule; everything else
//! (other tools, a bare `*`, a `*` glued to a token) is reported as [`Untranslatable`] with the
//! reason. [`CodexEngine`] evaluates calls against that policy, and [`to_rules`] writes the table
//! as a `.rules` file.

pub mod approval;
mod diag;
mod eval;
mod export;
mod lexer;
mod load;
mod policy;
pub mod shell;
pub mod shlex;
mod syntax;

pub use diag::{LoadError, LoadErrorKind};
pub use eval::Limits;
pub use export::{starlark_string, to_rules, to_rules_worded, Comments};
#[cfg(feature = "rules-files")]
pub(crate) use load::RuleCall;
pub use policy::{
    case_fold, Check, Decision, MatchOptions, NetworkRule, PatternToken, Policy, PrefixRule,
    RuleMatch,
};

use crate::evaluation::{
    Combine, Decision as Verdict, Engine, EngineId, Evaluation, Part, Reason, Step, Subject,
};
use crate::table::{Action, Call, RuleTable};
use std::fmt;

/// The tool name whose rows and calls are shell commands in the lesson's table.
pub const SHELL_TOOL: &str = "bash";

/// A table row that has no faithful execpolicy form, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Untranslatable {
    /// The row's position (0-based) in the table.
    pub row: usize,
    /// Why it cannot be written as a prefix rule, in English.
    pub reason: String,
    /// The same as data (a page words it in its own language).
    pub why: NoPrefix,
}

/// Why a row (or a pattern) has no execpolicy prefix rule. `Display` says it in English.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NoPrefix {
    /// A row of another tool than the shell (the tool).
    NotShell(String),
    /// `*`: every command.
    MatchesAll,
    /// The pattern cannot be split like a shell command (the splitter's English reason).
    Unsplittable(String),
    /// No tokens at all.
    NoTokens,
    /// A `*` word between words.
    StarBetweenWords,
    /// A trailing `*` glued to a word (the word).
    GluedStar(String),
    /// A wildcard inside a token (the token).
    WildcardInToken(String),
}

impl fmt::Display for NoPrefix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoPrefix::NotShell(tool) => write!(f, "execpolicy only sees shell commands; `{tool}` calls never reach it"),
            NoPrefix::MatchesAll => write!(f, "`*` matches every command, but execpolicy stores rules under a literal first token: no prefix rule matches all commands"),
            NoPrefix::Unsplittable(e) => write!(f, "the pattern cannot be split into tokens ({e})"),
            NoPrefix::NoTokens => write!(f, "the pattern has no tokens; a prefix rule needs at least one"),
            NoPrefix::StarBetweenWords => write!(f, "a `*` between words stands for any words, but execpolicy compares fixed token positions only"),
            NoPrefix::GluedStar(w) => write!(f, "the trailing `*` is glued to `{w}`, so it also matches `{w}x`; execpolicy compares whole tokens only"),
            NoPrefix::WildcardInToken(t) => write!(f, "`{t}` contains a wildcard inside a token; execpolicy compares whole tokens only"),
        }
    }
}

/// The execpolicy decision a table action becomes: ask is `prompt`, deny is `forbidden`.
pub fn decision_for(action: Action) -> Decision {
    match action {
        Action::Allow => Decision::Allow,
        Action::Ask => Decision::Prompt,
        Action::Deny => Decision::Forbidden,
    }
}

fn verdict(d: Decision) -> Verdict {
    match d {
        Decision::Allow => Verdict::Allow,
        Decision::Prompt => Verdict::Ask,
        Decision::Forbidden => Verdict::Deny,
    }
}

fn action(d: Decision) -> Action {
    match d {
        Decision::Allow => Action::Allow,
        Decision::Prompt => Action::Ask,
        Decision::Forbidden => Action::Deny,
    }
}

/// The tokens of a table pattern as a prefix rule, or why it has none.
///
/// The pattern is split like Python's `shlex.split`, after dropping a trailing ` *`. Note that
/// `git status` and `git status *` give the same rule: execpolicy has no way to say "exactly
/// these tokens", so a rule always matches longer commands too (`git status --short`).
///
/// ```
/// use permlab_core::codex::translate_pattern;
/// assert_eq!(translate_pattern("git push *").unwrap(), ["git", "push"]);
/// assert!(translate_pattern("python -m unittest*").is_err());
/// assert!(translate_pattern("*").is_err());
/// ```
pub fn translate_pattern(pattern: &str) -> Result<Vec<String>, NoPrefix> {
    if pattern.trim() == "*" {
        return Err(NoPrefix::MatchesAll);
    }
    let body = pattern.strip_suffix(" *").unwrap_or(pattern);
    let tokens = shlex::python_split(body).map_err(|e| NoPrefix::Unsplittable(e.to_string()))?;
    if tokens.is_empty() {
        return Err(NoPrefix::NoTokens);
    }
    if let Some(t) = tokens.iter().find(|t| t.contains(['*', '?', '['])) {
        let glued = t.ends_with('*') && t.len() > 1 && !t[..t.len() - 1].contains(['*', '?', '[']);
        if t == "*" {
            return Err(NoPrefix::StarBetweenWords);
        }
        return Err(if glued && tokens.last() == Some(t) {
            NoPrefix::GluedStar(t[..t.len() - 1].to_string())
        } else {
            NoPrefix::WildcardInToken(t.clone())
        });
    }
    Ok(tokens)
}

/// Translates the lesson's table into an execpolicy (one prefix rule per translatable row, in
/// table order) and lists the rows that have no execpolicy form.
pub fn from_table(table: &RuleTable) -> (Policy, Vec<Untranslatable>) {
    let (policy, _, skipped) = translate(table, &[]);
    (policy, skipped)
}

/// `canonical[row]`: the row comes from a rule written with `canonical_matching=True` (its
/// tokens are stored case-folded and commands are folded before they are compared).
fn translate(
    table: &RuleTable,
    canonical: &[bool],
) -> (Policy, Vec<Option<usize>>, Vec<Untranslatable>) {
    let mut policy = Policy::empty();
    let mut rule_of_row = Vec::with_capacity(table.len());
    let mut skipped = Vec::new();
    for (row, r) in table.rules().iter().enumerate() {
        if r.tool != SHELL_TOOL {
            rule_of_row.push(None);
            let why = NoPrefix::NotShell(r.tool.clone());
            skipped.push(Untranslatable {
                row,
                reason: why.to_string(),
                why,
            });
            continue;
        }
        match translate_pattern(&r.pattern) {
            Ok(mut tokens) => {
                let folded = canonical.get(row).copied().unwrap_or(false);
                if folded {
                    tokens = tokens.iter().map(|t| case_fold(t)).collect();
                }
                let first = tokens.remove(0);
                let i = policy.push_rule(PrefixRule {
                    first,
                    rest: tokens.into_iter().map(PatternToken::Single).collect(),
                    decision: decision_for(r.action),
                    justification: None,
                    canonical: folded,
                });
                rule_of_row.push(Some(i));
            }
            Err(why) => {
                rule_of_row.push(None);
                skipped.push(Untranslatable {
                    row,
                    reason: why.to_string(),
                    why,
                });
            }
        }
    }
    (policy, rule_of_row, skipped)
}

/// Codex over the lesson's table, for the whole call: the command line runs as
/// `bash -lc <line>`; codex-core splits a script of plain commands and checks each one
/// against every translated row, and the strictest decision over all of them wins (an
/// unmatched command counts as codex-core's fallback, shown as ask). A script that is not
/// plain (a redirect, `$( )`, `VAR=1 cmd`…) is checked whole, as `bash -lc <line>`.
///
/// ```
/// use permlab_core::codex::CodexEngine;
/// use permlab_core::{Action, Call, Decision, Engine, RuleTable};
/// let t = RuleTable::new([("bash", "git *", Action::Allow), ("bash", "curl *", Action::Deny)]);
/// let e = CodexEngine::new(&t).evaluate(&Call::new("bash", "git status; curl https://x.example"));
/// assert_eq!(e.decision, Decision::Deny);        // forbidden: the strictest of the two
/// assert_eq!(e.parts.len(), 2);
/// assert_eq!(e.decided_by.map(|(k, _)| k), Some(1)); // the second command decided
/// assert_eq!(e.rule, Some(1));
/// // `$( )` is not plain: the line is checked whole, and no `curl` row can see inside it.
/// let e = CodexEngine::new(&t).evaluate(&Call::new("bash", "echo \"$(curl https://x.example)\""));
/// assert_eq!(e.decision, Decision::Ask);
/// assert_eq!(e.parts[0].subject.text(), "bash -lc echo \"$(curl https://x.example)\"");
/// ```
#[derive(Clone, Debug)]
pub struct CodexEngine {
    policy: Policy,
    /// For each table row, the index of its rule in `policy`.
    rule_of_row: Vec<Option<usize>>,
    /// For each policy rule, its table row.
    row_of_rule: Vec<usize>,
    untranslatable: Vec<Untranslatable>,
}

impl CodexEngine {
    /// Compiles `table` (see [`from_table`]).
    pub fn new(table: &RuleTable) -> Self {
        Self::with_canonical(table, &[])
    }

    /// Compiles `table` where `canonical[row]` marks the rows of an imported `.rules` rule
    /// written with `canonical_matching=True`: those keep Codex's case folding (`GIT Push`
    /// matches the row `git push *`), which the table's pattern alone cannot say.
    ///
    /// ```
    /// use permlab_core::codex::CodexEngine;
    /// use permlab_core::{Action, Call, Decision, Engine, RuleTable};
    /// let t = RuleTable::new([("bash", "git push *", Action::Deny)]);
    /// let call = Call::new("bash", "GIT Push origin");
    /// assert_eq!(CodexEngine::new(&t).evaluate(&call).decision, Decision::Ask);
    /// assert_eq!(CodexEngine::with_canonical(&t, &[true]).evaluate(&call).decision, Decision::Deny);
    /// ```
    pub fn with_canonical(table: &RuleTable, canonical: &[bool]) -> Self {
        let (policy, rule_of_row, untranslatable) = translate(table, canonical);
        let mut row_of_rule = vec![0; policy.rules().len()];
        for (row, rule) in rule_of_row.iter().enumerate() {
            if let Some(i) = rule {
                row_of_rule[*i] = row;
            }
        }
        CodexEngine {
            policy,
            rule_of_row,
            row_of_rule,
            untranslatable,
        }
    }

    /// The translated policy.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The rows left out, with reasons.
    pub fn untranslatable(&self) -> &[Untranslatable] {
        &self.untranslatable
    }

    /// The commands codex-core checks for the call: the command line runs as
    /// `bash -lc <line>`, and [`shell::commands_for_exec_policy`] splits a script made only of
    /// plain commands (`git status; curl x` → `[git status]`, `[curl x]`); any other script
    /// (a redirect, `$( )`, `VAR=1 cmd`…) is checked whole, as `["bash", "-lc", line]`, which
    /// only rows for `bash` itself can match.
    fn commands(&self, call: &Call) -> Result<Checked, Reason> {
        if call.tool != SHELL_TOOL {
            return Err(Reason::CodexNotACommand {
                tool: call.tool.clone(),
            });
        }
        let argv = vec![
            SHELL_TOOL.to_string(),
            "-lc".to_string(),
            call.input.clone(),
        ];
        let split = shell::commands_for_exec_policy(&argv);
        let whole = split.commands.len() == 1 && split.commands[0] == argv;
        let one_piece = split.commands.len() == 1 && !whole && !split.used_complex_parsing;
        let commands = split
            .commands
            .into_iter()
            .map(|command| {
                // Rules under argv[0] come back in insertion order, which is table order.
                let rows: Vec<usize> = self
                    .policy
                    .matching_rule_indices(&command)
                    .into_iter()
                    .map(|i| self.row_of_rule[i])
                    .collect();
                let best = self.strictest(&rows);
                CheckedCommand {
                    command,
                    rows,
                    best,
                }
            })
            .collect();
        Ok(Checked {
            commands,
            one_piece,
        })
    }

    fn strictest(&self, rows: &[usize]) -> Option<(usize, Decision)> {
        let mut best: Option<(usize, Decision)> = None;
        for &row in rows {
            let Some(rule) = self.rule_of_row[row] else {
                continue;
            };
            let d = self.policy.rules()[rule].decision;
            // Strictly greater: the first row (table order) reaching the maximum is reported.
            if best.is_none_or(|(_, b)| d > b) {
                best = Some((row, d));
                // Nothing is stricter than forbidden, and later rows cannot be reported.
                if d == Decision::Forbidden {
                    break;
                }
            }
        }
        best
    }

    /// One command's outcome: its strictest row, or the placeholder ask when nothing matched
    /// (codex-core's own heuristics and approval policy decide then, not modelled here).
    fn outcome(c: &CheckedCommand) -> (Verdict, Option<usize>, Reason) {
        match c.best {
            Some((row, d)) => (
                verdict(d),
                Some(row),
                Reason::CodexStrictest {
                    row,
                    action: action(d),
                    matched: c.rows.len(),
                },
            ),
            None => (Verdict::Ask, None, Reason::CodexNoRuleMatched),
        }
    }

    /// The command that decides the whole call: the strictest over all commands, where an
    /// unmatched command counts as its fallback (shown as ask); the first one reaching it.
    fn deciding(checked: &Checked) -> usize {
        let rank = |c: &CheckedCommand| match c.best {
            Some((_, d)) => d,
            None => Decision::Prompt,
        };
        let mut best = 0;
        for (k, c) in checked.commands.iter().enumerate() {
            if rank(c) > rank(&checked.commands[best]) {
                best = k;
            }
        }
        best
    }
}

/// The commands of one call, each with its matching rows.
struct Checked {
    commands: Vec<CheckedCommand>,
    /// The line was one plain command, checked as the learner wrote it: no parts to show.
    one_piece: bool,
}

struct CheckedCommand {
    command: Vec<String>,
    rows: Vec<usize>,
    best: Option<(usize, Decision)>,
}

impl Engine for CodexEngine {
    fn id(&self) -> EngineId {
        EngineId::Codex
    }

    fn evaluate(&self, call: &Call) -> Evaluation {
        let checked = match self.commands(call) {
            Ok(c) => c,
            Err(reason) => {
                // Not a shell command: Codex's execpolicy never sees it. Every row is shown
                // unmatched by tool.
                let steps = self.steps(&[], false, None);
                return Evaluation::whole(
                    EngineId::Codex,
                    Verdict::Ask,
                    None,
                    vec![],
                    steps,
                    reason,
                );
            }
        };
        let k = Self::deciding(&checked);
        let (decision, rule, reason) = Self::outcome(&checked.commands[k]);
        let matches = checked.commands[k].rows.clone();
        if checked.one_piece {
            let steps = self.steps(&matches, true, None);
            return Evaluation::whole(EngineId::Codex, decision, rule, matches, steps, reason);
        }
        // Codex checks every rule against every command (a maximum: no early stop).
        let mut steps = Vec::new();
        let mut parts = Vec::new();
        for (i, c) in checked.commands.iter().enumerate() {
            steps.extend(self.steps(&c.rows, true, Some(i)));
            let (decision, rule, reason) = Self::outcome(c);
            parts.push(Part {
                subject: Subject::Command(c.command.join(" ")),
                decision,
                rule,
                reason,
            });
        }
        Evaluation {
            parts,
            decided_by: Some((k, Combine::Strictest)),
            ..Evaluation::whole(EngineId::Codex, decision, rule, matches, steps, reason)
        }
    }

    fn decide(&self, call: &Call) -> (Verdict, Option<usize>) {
        match self.commands(call) {
            Ok(checked) => {
                let (d, rule, _) = Self::outcome(&checked.commands[Self::deciding(&checked)]);
                (d, rule)
            }
            Err(_) => (Verdict::Ask, None),
        }
    }
}

impl CodexEngine {
    /// One step per translated row, in table order: Codex collects every match.
    fn steps(&self, matches: &[usize], is_shell: bool, part: Option<usize>) -> Vec<Step> {
        self.rule_of_row
            .iter()
            .enumerate()
            .filter(|(_, r)| r.is_some())
            .map(|(row, _)| Step {
                row,
                group: None,
                tool_matched: is_shell,
                pattern_matched: is_shell.then(|| matches.contains(&row)),
                stop: false,
                part,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
