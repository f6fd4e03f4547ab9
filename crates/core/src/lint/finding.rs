//! What a finding is: its kind, severity, place, rules and demonstrating call. A leaf: every
//! harness's linter builds these, and `lint` sorts and reports them.

use crate::evaluation::Decision;
use crate::import::Format;
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
