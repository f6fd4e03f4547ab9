//! # Lint: what is wrong with a real permission config, shown by the faithful engines
//!
//! People who write permission configs fall into the same traps again and again: an OpenCode
//! `"*": "allow"` written after the denies (last match wins, so it overrides them), a Claude
//! Code allow that can never open a hole in a deny, a Codex `["git", "push", "--force"]` rule
//! that `git push origin --force` walks past. This module finds them in a config as written
//! and, for every finding, computes a **demonstrating call** and runs the harness's own engine
//! on it, so each claim is one the real product would confirm.
//!
//! Claims of the form "rule B matches everything rule A matches" are proved, not sampled: the
//! patterns' wildcard languages are compared exactly ([`glob`]); when the proof search gives up
//! the linter says nothing. The demonstrating call is then checked with the engine, and a
//! finding whose call does not behave as claimed is dropped.
//!
//! Kinds ([`Kind`]): dead rules (all three harnesses), order-fragile pairs (OpenCode), patterns
//! that do not do what they look like, and — with a target harness — translation hazards.
//!
//! ```
//! use permlab_core::import::Format;
//! use permlab_core::lint::{lint_text, Kind};
//! let found = lint_text(Format::OpenCode, r#"{"permission": {"bash": {"rm *": "deny", "*": "allow"}}}"#).unwrap();
//! assert_eq!(found.len(), 1);
//! let f = &found[0];
//! assert_eq!(f.kind, Kind::DeadRule);
//! assert_eq!((f.place.line, f.place.column), (1, 26));
//! assert_eq!(f.call.call.input, "rm"); // `rm` matches `rm *`, but the later `*` decides: allow
//! assert_eq!(f.call.verdict.as_str(), "allow");
//! ```

mod claude_code;
#[cfg(feature = "rules-files")]
mod codex;
pub mod glob;
pub(crate) mod locate;
pub(crate) mod opencode;
mod translate;

use crate::claude_code::Scope;
use crate::error::{Error, ErrorKind};
use crate::evaluation::Decision;
use crate::import::Format;
use crate::json::{write_string, Value};
use crate::table::{Action, Call};

/// What kind of trap a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// A rule that can never decide: something else always decides first (Claude Code a
    /// covering deny or ask; OpenCode a later rule matching everything it matches; Codex a
    /// stricter-or-equal rule matching everything it matches).
    DeadRule,
    /// OpenCode: two overlapping rules, neither covering the other, whose order decides a call.
    OrderFragile,
    /// OpenCode: a command pattern without ` *` (`"yarn": "deny"` does not match `yarn test`).
    NoSpaceStar,
    /// OpenCode: `*` in a path rule crosses `/`, so an allow reaches deeper than it reads.
    StarCrossesSlash,
    /// OpenCode: `**/` is two plain stars, not a globstar: `**/.env` misses `.env`.
    Globstar,
    /// OpenCode: `?` is one UTF-16 code unit (an emoji is two).
    QuestionMark,
    /// Claude Code: `:*` anywhere but at the very end is a literal colon.
    ColonStar,
    /// Claude Code: a final ` *` is optional only when it is the rule's only `*`:
    /// `Bash(ssh * uptime *)` misses `ssh host uptime`.
    TrailingStar,
    /// Claude Code: a bare deny (`Bash`, `Bash(*)`) removes the tool from the model's context.
    BareDeny,
    /// Claude Code: a path rule starting with one `/` is anchored at the settings source, not
    /// at the filesystem root (`//` is the root).
    PathAnchor,
    /// Claude Code: a relative `**/` path deny covers the working directory only.
    OutsideCwd,
    /// Claude Code: a Bash deny that `sh -c '…'` or an absolute program path still gets past.
    WrapperBypass,
    /// Codex: a flag after the prefix is escaped by putting any argument before it.
    FlagAfterPrefix,
    /// Codex: a pattern token holding a space matches no argv (tokens are never split).
    TokenWithSpace,
    /// Codex: a `match=`/`not_match=` example fails, so Codex refuses the whole file.
    FailingExample,
    /// `--target`: the rule means something else once the config is moved to that harness.
    Translation,
}

impl Kind {
    /// Every kind, in report order.
    pub const ALL: [Kind; 16] = [
        Kind::DeadRule,
        Kind::OrderFragile,
        Kind::NoSpaceStar,
        Kind::StarCrossesSlash,
        Kind::Globstar,
        Kind::QuestionMark,
        Kind::ColonStar,
        Kind::TrailingStar,
        Kind::BareDeny,
        Kind::PathAnchor,
        Kind::OutsideCwd,
        Kind::WrapperBypass,
        Kind::FlagAfterPrefix,
        Kind::TokenWithSpace,
        Kind::FailingExample,
        Kind::Translation,
    ];

    /// The kind's slug (`dead-rule`, `order-fragile`…), stable for `--json` consumers.
    pub fn slug(self) -> &'static str {
        match self {
            Kind::DeadRule => "dead-rule",
            Kind::OrderFragile => "order-fragile",
            Kind::NoSpaceStar => "no-space-star",
            Kind::StarCrossesSlash => "star-crosses-slash",
            Kind::Globstar => "globstar",
            Kind::QuestionMark => "question-mark",
            Kind::ColonStar => "colon-star",
            Kind::TrailingStar => "trailing-star",
            Kind::BareDeny => "bare-deny",
            Kind::PathAnchor => "path-anchor",
            Kind::OutsideCwd => "outside-cwd",
            Kind::WrapperBypass => "wrapper-bypass",
            Kind::FlagAfterPrefix => "flag-after-prefix",
            Kind::TokenWithSpace => "token-with-space",
            Kind::FailingExample => "failing-example",
            Kind::Translation => "translation",
        }
    }
}

/// How much a finding matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// The config does something its author very likely did not mean.
    Warning,
    /// Worth knowing (a redundant rule, a documented limit of a deny).
    Note,
}

impl Severity {
    /// `warning` or `note`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// A place in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The file's name as given.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

/// A rule a finding is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleRef {
    /// Where it is written.
    pub place: Place,
    /// The rule as the harness writes it (`Bash(git push *)`, `bash git *: allow`,
    /// `prefix_rule(["git", "push"], prompt)`).
    pub text: String,
    /// Its action (Codex: prompt is ask, forbidden is deny).
    pub action: Action,
}

/// The call that shows a finding, and what the harness's engine answered for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Demo {
    /// The call in the lesson's common form: the widget loads it into its call box.
    pub call: Call,
    /// The call as the harness sees it (`Bash: git push`, `bash: yarn test`, `git push -f`).
    pub native: String,
    /// The engine's verdict on it.
    pub verdict: Decision,
    /// What decided (a rule as written, `no rule (default ask)`, `tool removed`…).
    pub decided_by: String,
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// What kind of trap.
    pub kind: Kind,
    /// How much it matters.
    pub severity: Severity,
    /// The harness whose engine checked it.
    pub harness: Format,
    /// Where: the first rule involved.
    pub place: Place,
    /// The rules involved, the one the finding is about first.
    pub rules: Vec<RuleRef>,
    /// What happens, in one or two sentences.
    pub message: String,
    /// The demonstrating call, checked with the engine.
    pub call: Demo,
    /// What to write instead.
    pub fix: String,
    /// The parts `message` and `fix` are made of, for a front end that words findings in its
    /// own language (the widget's import panel).
    pub facts: Facts,
}

/// The parts of a finding's sentences beyond its kind, rules and call: with them a front end
/// can say what `message` and `fix` say in another language without parsing English. A field
/// that does not apply to the kind stays empty.
///
/// ```
/// use permlab_core::import::Format;
/// use permlab_core::lint::{lint_text, Kind};
/// let found = lint_text(Format::OpenCode, r#"{"permission": {"bash": {"yarn": "deny"}}}"#).unwrap();
/// assert_eq!(found[0].kind, Kind::NoSpaceStar);
/// assert_eq!(found[0].facts.part.as_deref(), Some("yarn"));
/// assert_eq!(found[0].facts.write, [r#""yarn *": "deny""#]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    /// A second verdict the finding sets against the call's: [`Kind::OrderFragile`] — the
    /// call's verdict with the two rules swapped; [`Kind::Translation`] — its verdict in the
    /// harness the config comes from.
    pub other: Option<Decision>,
    /// What the fix suggests writing, in the harness's own syntax: the rule(s) to add or write
    /// instead ([`Kind::FlagAfterPrefix`]: the shorter prefix; [`Kind::TokenWithSpace`]: the
    /// token list).
    pub write: Vec<String>,
    /// The piece of the rule the finding is about: [`Kind::NoSpaceStar`] the exact command it
    /// matches, [`Kind::FlagAfterPrefix`] the flag, [`Kind::TokenWithSpace`] the token.
    pub part: Option<String>,
    /// [`Kind::FailingExample`]: the example is a `not_match` one (else a `match` one).
    pub negated: bool,
    /// [`Kind::BareDeny`]: how many rules the removed tool makes useless (`rules` names at
    /// most five of them).
    pub count: usize,
    /// [`Kind::Translation`]: the harness the config comes from.
    pub from: Option<Format>,
    /// [`Kind::WrapperBypass`]: how the config's sandbox stands, which decides the advice
    /// (turn it on, or what it already does with the form that gets past).
    pub sandbox: Option<Sandboxing>,
    /// OpenCode: the agent (`agent.<name>.permission`) whose rules the finding is about; its
    /// call was judged with the top-level rules followed by that agent's. `None`: the
    /// top-level rules alone (what the widget's import panel turns into the table).
    pub agent: Option<String>,
}

/// A Claude Code config's sandbox, as a finding's advice depends on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sandboxing {
    /// `sandbox.enabled` is not `true`.
    Off,
    /// On, without `autoAllowBashIfSandboxed: true`: sandboxed commands still ask (CLI
    /// 2.1.332, recorded) and, once approved, run inside the sandbox.
    On,
    /// On, with `autoAllowBashIfSandboxed: true`: sandboxed commands run without a prompt.
    OnAutoAllow,
}

impl Sandboxing {
    /// `off`, `on`, `on-auto-allow`.
    pub fn slug(self) -> &'static str {
        match self {
            Sandboxing::Off => "off",
            Sandboxing::On => "on",
            Sandboxing::OnAutoAllow => "on-auto-allow",
        }
    }

    /// The state named by `slug`.
    pub fn from_slug(slug: &str) -> Option<Sandboxing> {
        [Sandboxing::Off, Sandboxing::On, Sandboxing::OnAutoAllow]
            .into_iter()
            .find(|x| x.slug() == slug)
    }
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{}:{}:{}: {} [{}] {}",
            self.place.file,
            self.place.line,
            self.place.column,
            self.severity.as_str(),
            self.kind.slug(),
            self.message
        )?;
        for r in &self.rules {
            writeln!(
                f,
                "    rule {}:{}:{}  {}",
                r.place.file, r.place.line, r.place.column, r.text
            )?;
        }
        writeln!(
            f,
            "    call `{}` → {} ({})",
            self.call.native,
            self.call.verdict.as_str(),
            self.call.decided_by
        )?;
        write!(f, "    fix: {}", self.fix)
    }
}

/// One file to lint.
#[derive(Clone, Debug)]
pub struct Source {
    /// Its name (shown in findings and errors).
    pub name: String,
    /// Its text.
    pub text: String,
    /// Its format; `None`: from the name and content ([`detect`]).
    pub format: Option<Format>,
    /// For Claude Code: its settings scope; `None`: from the name ([`claude_scope`]).
    pub scope: Option<Scope>,
}

impl Source {
    /// A file whose format and scope are detected.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        Source {
            name: name.into(),
            text: text.into(),
            format: None,
            scope: None,
        }
    }
}

/// The format of a file from its name and text: `.rules` → Codex, `.md`/`.jsonc`/`opencode.json`
/// → OpenCode, other `.json` with `"permissions"` (or under a `claude` directory) → Claude
/// Code, any other JSON → OpenCode.
pub fn detect(name: &str, text: &str) -> Format {
    if name.ends_with(".rules") {
        Format::Codex
    } else if name.ends_with(".md") || name.ends_with(".jsonc") || name.ends_with("opencode.json") {
        Format::OpenCode
    } else if text.contains("\"permissions\"") || name.contains("claude") {
        Format::ClaudeCode
    } else {
        Format::OpenCode
    }
}

/// A Claude Code settings file's scope from its name: `managed-settings.json` → managed,
/// `settings.local.json` → local, a path under `~/.claude/` or a dotfiles `dot_claude/` →
/// user, anything else → project.
pub fn claude_scope(name: &str) -> Scope {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    if base.starts_with("managed-settings") {
        Scope::Managed
    } else if base.contains(".local.") {
        Scope::Local
    } else if name.starts_with("~/") || name.contains("dot_claude/") || name.contains("/home/") {
        Scope::User
    } else {
        Scope::Project
    }
}

/// A proof the linter did not make because it would cost too much (see [`glob`]'s budgets):
/// rules written with this pattern may hide findings that were not looked for. Not a
/// problem in the config, so not a [`Finding`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotChecked {
    /// Where the pattern is written (its first occurrence in the file; the file's start
    /// when it is written with escapes).
    pub place: Place,
    /// The pattern as the harness reads it.
    pub pattern: String,
    /// Why: [`glob::TooComplex::Pattern`] ("not checked: pattern too complex") or
    /// [`glob::TooComplex::File`] (the file's proofs used up their budget).
    pub why: glob::TooComplex,
}

impl std::fmt::Display for NotChecked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut shown: String = self.pattern.chars().take(60).collect();
        if shown.len() < self.pattern.len() {
            shown.push('…');
        }
        let why = match self.why {
            glob::TooComplex::Pattern => "pattern too complex",
            glob::TooComplex::File => "the file's proofs used up the linter's budget",
        };
        write!(
            f,
            "{}:{}:{}: note [not-checked] not checked: {why} (`{shown}`); findings about rules with it may be missing",
            self.place.file, self.place.line, self.place.column
        )
    }
}

/// [`NotChecked`] notes for what `skipped` names, placed in `src`.
fn not_checked(src: &Source, skipped: Vec<glob::Unchecked>) -> Vec<NotChecked> {
    skipped
        .into_iter()
        .map(|u| NotChecked {
            place: place_at(src, src.text.find(&u.pattern).unwrap_or(0)),
            pattern: u.pattern,
            why: u.why,
        })
        .collect()
}

/// What [`lint`] found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Every finding, by file, line and column.
    pub findings: Vec<Finding>,
    /// Proofs skipped because they would cost too much, by file, line and column.
    pub not_checked: Vec<NotChecked>,
    /// Files that could not be read as their harness would read them (the harness itself
    /// would refuse them), each naming the position and the fix.
    pub errors: Vec<Error>,
}

impl Report {
    /// Findings and errors as one JSON document for editors and CI:
    /// `{"findings": [{"kind", "severity", "harness", "file", "line", "column", "rules": [...],
    /// "message", "call": {"tool", "input", "native", "verdict", "decided_by"}, "fix"}],
    /// "errors": [{"file", "message"}]}`.
    pub fn to_json(&self) -> String {
        let mut out = String::from("{\"findings\": [");
        for (i, f) in self.findings.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("\n  ");
            out.push_str(&finding_value(f).to_json());
        }
        if !self.findings.is_empty() {
            out.push('\n');
        }
        out.push_str("], \"not_checked\": [");
        for (i, n) in self.not_checked.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let mut o = place_fields(&n.place);
            o.push(("pattern".into(), Value::from(n.pattern.as_str())));
            o.push((
                "why".into(),
                Value::from(match n.why {
                    glob::TooComplex::Pattern => "pattern-too-complex",
                    glob::TooComplex::File => "file-budget",
                }),
            ));
            out.push_str(&Value::Object(o).to_json());
        }
        out.push_str("], \"errors\": [");
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str("{\"file\": ");
            write_string(e.source_name().unwrap_or(""), &mut out);
            out.push_str(", \"message\": ");
            write_string(&e.to_string(), &mut out);
            out.push('}');
        }
        out.push_str("]}");
        out
    }
}

fn place_fields(p: &Place) -> Vec<(String, Value)> {
    vec![
        ("file".into(), Value::from(p.file.as_str())),
        ("line".into(), Value::from(p.line)),
        ("column".into(), Value::from(p.column)),
    ]
}

fn finding_value(f: &Finding) -> Value {
    let mut o = vec![
        ("kind".into(), Value::from(f.kind.slug())),
        ("severity".into(), Value::from(f.severity.as_str())),
        ("harness".into(), Value::from(f.harness.slug())),
    ];
    o.extend(place_fields(&f.place));
    o.push((
        "rules".into(),
        Value::Array(
            f.rules
                .iter()
                .map(|r| {
                    let mut v = place_fields(&r.place);
                    v.push(("rule".into(), Value::from(r.text.as_str())));
                    v.push(("action".into(), Value::from(r.action.as_str())));
                    Value::Object(v)
                })
                .collect(),
        ),
    ));
    o.push(("message".into(), Value::from(f.message.as_str())));
    o.push((
        "call".into(),
        Value::Object(vec![
            ("tool".into(), Value::from(f.call.call.tool.as_str())),
            ("input".into(), Value::from(f.call.call.input.as_str())),
            ("native".into(), Value::from(f.call.native.as_str())),
            ("verdict".into(), Value::from(f.call.verdict.as_str())),
            ("decided_by".into(), Value::from(f.call.decided_by.as_str())),
        ]),
    ));
    o.push(("fix".into(), Value::from(f.fix.as_str())));
    Value::Object(o)
}

/// The import panel's headline for `n` findings: `你的配置里有 3 处问题` / `Your config has 3
/// problems` (`zh`: Chinese, else English).
///
/// ```
/// assert_eq!(permlab_core::lint::headline(3, true), "你的配置里有 3 处问题");
/// assert_eq!(permlab_core::lint::headline(1, false), "Your config has 1 problem");
/// assert_eq!(permlab_core::lint::headline(0, false), "No problems found in your config");
/// ```
pub fn headline(n: usize, zh: bool) -> String {
    match (n, zh) {
        (0, true) => "你的配置里没有发现问题".into(),
        (0, false) => "No problems found in your config".into(),
        (n, true) => format!("你的配置里有 {n} 处问题"),
        (1, false) => "Your config has 1 problem".into(),
        (n, false) => format!("Your config has {n} problems"),
    }
}

/// Lints one pasted config of `format` (what the widget's import panel calls): its findings,
/// or the error the harness itself would give for the file.
pub fn lint_text(format: Format, text: &str) -> Result<Vec<Finding>, Error> {
    lint_text_checked(format, text).map(|(findings, _)| findings)
}

/// [`lint_text`], with the proofs it skipped as too costly ([`NotChecked`]), for a front end
/// that says "not checked" next to the findings.
pub fn lint_text_checked(
    format: Format,
    text: &str,
) -> Result<(Vec<Finding>, Vec<NotChecked>), Error> {
    let src = Source {
        name: "config".into(),
        text: text.into(),
        format: Some(format),
        scope: None,
    };
    let r = lint(&[src], None);
    match r.errors.into_iter().next() {
        Some(e) => Err(e),
        None => Ok((r.findings, r.not_checked)),
    }
}

/// Lints `sources`: Claude Code files together as the layers of one session (one file per
/// scope), every OpenCode file on its own, Codex files together as one policy (in the order
/// given). With `target`, also the translation hazards of moving each config to that harness.
pub fn lint(sources: &[Source], target: Option<Format>) -> Report {
    let mut report = Report::default();
    let mut claude = Vec::new();
    let mut codex = Vec::new();
    for s in sources {
        match s.format.unwrap_or_else(|| detect(&s.name, &s.text)) {
            Format::ClaudeCode => claude.push(s),
            Format::Codex => codex.push(s),
            Format::OpenCode => {
                let (r, skipped) = glob::budgeted(|| match opencode::lint(s) {
                    Ok(f) => {
                        report.findings.extend(f);
                        if let Some(t) = target {
                            report
                                .findings
                                .extend(translate::lint(s, Format::OpenCode, t));
                        }
                        Ok(())
                    }
                    Err(e) => Err(e),
                });
                if let Err(e) = r {
                    report.errors.push(e);
                }
                report.not_checked.extend(not_checked(s, skipped));
            }
        }
    }
    if !claude.is_empty() {
        let (e, skipped) = glob::budgeted(|| {
            let (f, e) = claude_code::lint(&claude);
            report.findings.extend(f);
            if let Some(t) = target {
                for s in &claude {
                    if !e.iter().any(|e| e.source_name() == Some(s.name.as_str())) {
                        report
                            .findings
                            .extend(translate::lint(s, Format::ClaudeCode, t));
                    }
                }
            }
            e
        });
        report.errors.extend(e);
        for u in skipped {
            // The layer the pattern is written in (the first that has it).
            let src = claude
                .iter()
                .find(|s| s.text.contains(&u.pattern))
                .unwrap_or(&claude[0]);
            report.not_checked.extend(not_checked(src, vec![u]));
        }
    }
    if !codex.is_empty() {
        #[cfg(feature = "rules-files")]
        {
            let (f, e) = codex::lint(&codex);
            let failed = !e.is_empty();
            report.findings.extend(f);
            report.errors.extend(e);
            if let (Some(t), false) = (target, failed) {
                for s in &codex {
                    let (f, skipped) = glob::budgeted(|| translate::lint(s, Format::Codex, t));
                    report.findings.extend(f);
                    report.not_checked.extend(not_checked(s, skipped));
                }
            }
        }
        #[cfg(not(feature = "rules-files"))]
        for s in &codex {
            report.errors.push(
                Error::new(ErrorKind::Config(
                    "linting a Codex .rules file needs the rules-files feature (Starlark)".into(),
                ))
                .in_source(s.name.clone()),
            );
        }
    }
    report.not_checked.sort_by(|a, b| {
        (&a.place.file, a.place.line, a.place.column).cmp(&(
            &b.place.file,
            b.place.line,
            b.place.column,
        ))
    });
    report.findings.sort_by(|a, b| {
        (&a.place.file, a.place.line, a.place.column, a.kind).cmp(&(
            &b.place.file,
            b.place.line,
            b.place.column,
            b.kind,
        ))
    });
    report
}

/// An error for a file, positioned, with the fix.
pub(crate) fn file_error(name: &str, message: String) -> Error {
    Error::new(ErrorKind::Config(message)).in_source(name.to_string())
}

/// `place` for a byte offset of `src`.
pub(crate) fn place_at(src: &Source, offset: usize) -> Place {
    let (line, column) = locate::line_col(&src.text, offset);
    Place {
        file: src.name.clone(),
        line,
        column,
    }
}

#[cfg(test)]
mod tests;
