//! CoreCoder 0.7.0: the tool's *name* decides; a human's "always" is the only rule.
//!
//! CoreCoder (`he-yufeng/CoreCoder`, PyPI wheel 0.7.0) has **no rule table**. Its whole
//! permission layer is `corecoder/permissions.py` (48 lines): four read-only tools always run,
//! every other tool needs a human "yes" (or `--yes`), a human "always" is remembered per exact
//! tool name for the rest of the session, and a session with nobody to ask (`-p`) refuses. So
//! rule order can never matter: there are no rules to order.
//!
//! The layers, in the order they act on one call:
//!
//! 1. **PreToolUse hooks** may veto first (not modelled: the conformance data assumes none).
//! 2. **Plan mode** ([`Session::plan_mode`]): anything outside [`READ_ONLY`] is refused before
//!    consent is even considered, `--yes` or not.
//! 3. **[`Permission::check`]**: read-only, `--yes` or "always" → run; no prompt available →
//!    refuse; otherwise ask and map the answer ([`Answer::verdict`]).
//! 4. **Execution**: `BashTool.execute` refuses commands matching the regex blacklist
//!    ([`check_dangerous`]) *after* consent. This is why "always" on `bash` covers `rm -rf /`
//!    as far as consent goes, and only the blacklist stops it.
//!
//! ```
//! use permlab_core::corecoder::{Answer, Mode, Outcome, Session};
//! let mut s = Session::new(Mode::Interactive);
//! // "always" for bash, given while approving a harmless command…
//! let first = s.call("bash", Some("git status"), |_| Answer::line("a"));
//! assert_eq!(first.outcome, Outcome::Executes);
//! // …approves every later bash command without a prompt; only the blacklist stops this one.
//! let later = s.call("bash", Some("rm -rf /"), |_| unreachable!("not asked"));
//! assert_eq!(later.asked, None);
//! assert_eq!(later.outcome, Outcome::BlockedByBlacklist);
//! ```
//!
//! Compared with the other engines: OpenCode and Claude Code also remember "always", but as
//! *patterns* (`git *`); CoreCoder remembers a tool name, so it cannot say "allow `git status`
//! but ask for `git push`". lcc ([`crate::lcc`]) never asks at all.

mod blacklist;
mod layer;

use std::collections::BTreeSet;

pub use blacklist::{check_dangerous, BlacklistHit, DangerousPattern, DANGEROUS_PATTERNS};

use crate::evaluation::{Decision, Engine, EngineId, Evaluation, Reason};
use crate::table::{Call, RuleTable};

pub use layer::Layer;

/// `Permission.READ_ONLY`: the tools that run without consent, matched by exact,
/// case-sensitive name. `list_dir` is *not* among them (the lesson's table has it), nor is
/// any MCP tool, even one that only reads (`mcp__fs__read_text_file`).
pub const READ_ONLY: [&str; 4] = ["read_file", "glob", "grep", "todo_write"];

/// Whether `tool` is in [`READ_ONLY`] (exact name: `Read_File` is not).
pub fn is_read_only(tool: &str) -> bool {
    READ_ONLY.contains(&tool)
}

/// How the command line built the session (`cli.py`): which flags were given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// No flags: `Permission(ask=_ask_permission)`; non-read-only tools prompt.
    Interactive,
    /// `-p PROMPT`: `Permission()` without `ask`; whatever would prompt is refused.
    Print,
    /// `--yes`: `Permission(allow_all=True)`; consent is skipped (plan mode, hooks and the
    /// blacklist still apply).
    Yes,
    /// `-p PROMPT --yes`: `--yes` wins, as [`Mode::Yes`].
    PrintYes,
}

impl Mode {
    /// All modes, in the conformance file's order.
    pub const ALL: [Mode; 4] = [Mode::Interactive, Mode::Print, Mode::Yes, Mode::PrintYes];

    /// `interactive`, `print`, `yes` or `print+yes` (the conformance file's names).
    pub fn slug(self) -> &'static str {
        match self {
            Mode::Interactive => "interactive",
            Mode::Print => "print",
            Mode::Yes => "yes",
            Mode::PrintYes => "print+yes",
        }
    }

    /// The mode named by `slug`.
    ///
    /// ```
    /// use permlab_core::corecoder::Mode;
    /// assert_eq!(Mode::from_slug("print+yes"), Some(Mode::PrintYes));
    /// assert_eq!(Mode::from_slug("-p"), None);
    /// ```
    pub fn from_slug(slug: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.slug() == slug)
    }
}

/// What the person at the prompt did (`_ask_permission` reads one line).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Answer {
    /// A typed line (without its newline).
    Line(String),
    /// End of input (`EOFError`), e.g. stdin closed.
    Eof,
    /// Ctrl-C at the prompt (`KeyboardInterrupt`).
    Interrupt,
}

impl Answer {
    /// A typed line.
    pub fn line(text: impl Into<String>) -> Answer {
        Answer::Line(text.into())
    }

    /// The conformance file's notation: `<EOF>` and `<Ctrl-C>` stand for end of input and a
    /// keyboard interrupt; anything else is a typed line.
    pub fn from_script(text: &str) -> Answer {
        match text {
            "<EOF>" => Answer::Eof,
            "<Ctrl-C>" => Answer::Interrupt,
            other => Answer::line(other),
        }
    }

    /// `_ask_permission`'s mapping of `answer.strip().lower()`: `y`/`yes` → once, `a`/`always`
    /// → always, anything else (also `""`, `ok`, `yess`), end of input and Ctrl-C → deny.
    ///
    /// ```
    /// use permlab_core::corecoder::{Answer, AskVerdict};
    /// assert_eq!(Answer::line("  YES\t").verdict(), AskVerdict::Once);
    /// assert_eq!(Answer::line("A").verdict(), AskVerdict::Always);
    /// assert_eq!(Answer::line("yess").verdict(), AskVerdict::Deny);
    /// assert_eq!(Answer::Eof.verdict(), AskVerdict::Deny);
    /// ```
    pub fn verdict(&self) -> AskVerdict {
        let Answer::Line(text) = self else {
            return AskVerdict::Deny;
        };
        // Python's `str.lower()` is full Unicode lowering, but the only non-ASCII character
        // whose lowering is ASCII is U+212A KELVIN SIGN (→ `k`), in none of the accepted words:
        // ASCII case folding of the stripped text is exact here.
        let answer = crate::pychar::strip(text);
        if answer.eq_ignore_ascii_case("y") || answer.eq_ignore_ascii_case("yes") {
            AskVerdict::Once
        } else if answer.eq_ignore_ascii_case("a") || answer.eq_ignore_ascii_case("always") {
            AskVerdict::Always
        } else {
            AskVerdict::Deny
        }
    }
}

/// What a prompt answer means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AskVerdict {
    /// Allow this call only.
    Once,
    /// Allow this call and every later call of the same tool in this session.
    Always,
    /// Refuse this call. Never remembered: the next call of the tool prompts again.
    Deny,
}

impl AskVerdict {
    /// `once`, `always` or `deny`.
    pub fn as_str(self) -> &'static str {
        match self {
            AskVerdict::Once => "once",
            AskVerdict::Always => "always",
            AskVerdict::Deny => "deny",
        }
    }
}

/// Why a call was refused; the text becomes the tool result and the agent loop continues.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// `-p` mode: nobody can be asked.
    NonInteractive,
    /// The human answered anything but yes/always (or closed the input).
    UserRefused,
    /// `/plan` is on and the tool is not read-only.
    PlanMode,
}

impl Refusal {
    /// The exact refusal string CoreCoder returns (one line).
    ///
    /// ```
    /// use permlab_core::corecoder::Refusal;
    /// assert!(Refusal::UserRefused.message("bash").starts_with("Permission denied: the user refused this bash call."));
    /// ```
    pub fn message(self, tool: &str) -> String {
        match self {
            Refusal::NonInteractive => format!(
                "Permission denied: {tool} mutates state and this session is non-interactive, so \
                 nobody can approve it. Rerun with --yes, or tell the user the exact step so they \
                 can run it themselves."
            ),
            Refusal::UserRefused => format!(
                "Permission denied: the user refused this {tool} call. Do not retry it unchanged; \
                 ask what they would prefer instead."
            ),
            Refusal::PlanMode => "Plan mode is on, so this call was refused: plan mode is \
                 read-only. Do not retry it. Keep investigating with the read-only tools, then \
                 present the plan and stop. The user can approve it by typing \"approve\", or \
                 exit plan mode with /plan."
                .to_string(),
        }
    }
}

/// `corecoder.permissions.Permission`: the consent state of one session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Permission {
    allow_all: bool,
    can_ask: bool,
    always: BTreeSet<String>,
}

impl Permission {
    /// The `Permission` the CLI builds for `mode`, with an empty "always" set (0.7.0 never
    /// persists it).
    pub fn new(mode: Mode) -> Permission {
        Permission {
            allow_all: matches!(mode, Mode::Yes | Mode::PrintYes),
            can_ask: mode == Mode::Interactive,
            always: BTreeSet::new(),
        }
    }

    /// The tool names answered "always" so far, sorted.
    pub fn always(&self) -> impl Iterator<Item = &str> {
        self.always.iter().map(String::as_str)
    }

    /// Adds `tool` to the "always" set, as an "always" answer does. For restoring a session's
    /// state (the widget's URL, a conformance case); in CoreCoder only an answer grows the set.
    pub fn grant_always(&mut self, tool: impl Into<String>) {
        self.always.insert(tool.into());
    }

    /// What `check` would do without asking anyone: `Ok(layer)` when it allows, `Err(refusal)`
    /// when it refuses, `Ok(Layer::Prompt)` when it would prompt.
    pub fn precheck(&self, tool: &str) -> Result<Layer, Refusal> {
        if is_read_only(tool) {
            Ok(Layer::ReadOnly)
        } else if self.allow_all {
            Ok(Layer::AllowAll)
        } else if self.always.contains(tool) {
            Ok(Layer::Always)
        } else if !self.can_ask {
            Err(Refusal::NonInteractive)
        } else {
            Ok(Layer::Prompt)
        }
    }

    /// `Permission.check(tool, args)`: allows or refuses, prompting through `ask` when needed
    /// and remembering an "always". `args` is never inspected, so it is not a parameter.
    pub fn check(&mut self, tool: &str, ask: impl FnOnce(&str) -> Answer) -> Check {
        match self.precheck(tool) {
            Err(refusal) => Check::refused(Layer::NonInteractive, None, refusal),
            Ok(Layer::Prompt) => {
                let verdict = ask(tool).verdict();
                match verdict {
                    AskVerdict::Always => {
                        self.always.insert(tool.to_string());
                        Check::allowed(Layer::Prompt, Some(verdict))
                    }
                    AskVerdict::Once => Check::allowed(Layer::Prompt, Some(verdict)),
                    AskVerdict::Deny => {
                        Check::refused(Layer::Prompt, Some(verdict), Refusal::UserRefused)
                    }
                }
            }
            Ok(layer) => Check::allowed(layer, None),
        }
    }
}

/// The permission layers' answer for one call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Check {
    /// Which layer decided.
    pub layer: Layer,
    /// The prompt's verdict, or `None` when nobody was asked.
    pub asked: Option<AskVerdict>,
    /// Why the call was refused, or `None` when it was allowed.
    pub refusal: Option<Refusal>,
}

impl Check {
    fn allowed(layer: Layer, asked: Option<AskVerdict>) -> Check {
        Check {
            layer,
            asked,
            refusal: None,
        }
    }

    fn refused(layer: Layer, asked: Option<AskVerdict>, refusal: Refusal) -> Check {
        Check {
            layer,
            asked,
            refusal: Some(refusal),
        }
    }

    /// Whether the call may proceed to execution.
    pub fn allowed_to_run(&self) -> bool {
        self.refusal.is_none()
    }
}

/// What finally happens to a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Plan mode or `check` refused it: the tool did not run.
    Refused,
    /// Consent passed, but `BashTool.execute` refused it via the blacklist.
    BlockedByBlacklist,
    /// It runs.
    Executes,
}

impl Outcome {
    /// `refused`, `blocked_by_blacklist` or `executes`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Refused => "refused",
            Outcome::BlockedByBlacklist => "blocked_by_blacklist",
            Outcome::Executes => "executes",
        }
    }
}

/// One call through every layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallResult {
    /// The permission layers' verdict.
    pub check: Check,
    /// The prompt's verdict, or `None` when nobody was asked (same as `check.asked`).
    pub asked: Option<AskVerdict>,
    /// The exact refusal string, when refused.
    pub refusal: Option<String>,
    /// For `bash`: the first blacklist pattern matching the command, whether or not consent
    /// let it get that far (the conformance data reports it for refused calls too).
    pub blacklist: Option<BlacklistHit>,
    /// What happens.
    pub outcome: Outcome,
}

/// A session: the plan-mode switch and the `Permission` object, which carries the "always"
/// set from call to call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    /// Whether `/plan` is on.
    pub plan_mode: bool,
    /// The consent state; `None` means the agent was built without one (everything allowed).
    pub permission: Option<Permission>,
}

impl Session {
    /// A session as the CLI starts it in `mode`: plan mode off, nothing remembered.
    pub fn new(mode: Mode) -> Session {
        Session {
            plan_mode: false,
            permission: Some(Permission::new(mode)),
        }
    }

    /// `Agent._permit(tc)`: plan mode first, then `Permission.check`.
    pub fn permit(&mut self, tool: &str, ask: impl FnOnce(&str) -> Answer) -> Check {
        if self.plan_mode && !is_read_only(tool) {
            return Check::refused(Layer::PlanMode, None, Refusal::PlanMode);
        }
        match &mut self.permission {
            None => Check::allowed(Layer::NoPermission, None),
            Some(p) => p.check(tool, ask),
        }
    }

    /// Runs one call through plan mode, consent and (for `bash`, given its `command`) the
    /// blacklist. `ask` is called only if CoreCoder would prompt.
    pub fn call(
        &mut self,
        tool: &str,
        command: Option<&str>,
        ask: impl FnOnce(&str) -> Answer,
    ) -> CallResult {
        let check = self.permit(tool, ask);
        let blacklist = match (tool, command) {
            ("bash", Some(command)) => check_dangerous(command),
            _ => None,
        };
        let outcome = if !check.allowed_to_run() {
            Outcome::Refused
        } else if blacklist.is_some() {
            Outcome::BlockedByBlacklist
        } else {
            Outcome::Executes
        };
        CallResult {
            check,
            asked: check.asked,
            refusal: check.refusal.map(|r| r.message(tool)),
            blacklist,
            outcome,
        }
    }
}

/// CoreCoder over the lesson's common [`RuleTable`]: it reads **none** of the rows.
///
/// The verdict comes from the tool name and the configured session: read-only →
/// allow; `--yes` or a remembered "always" → allow; `-p` → deny; plan mode → deny for
/// non-read-only tools; otherwise ask. `steps` and `matches` are always empty and the
/// [`Reason::CoreCoder`] says how many rows were ignored. The engine cannot record answers
/// (evaluation does not mutate it): configure the "always" set up front with
/// [`CoreCoderEngine::with_always`].
///
/// ```
/// use permlab_core::{Call, Decision, Engine, RuleTable};
/// use permlab_core::corecoder::{CoreCoderEngine, Mode};
/// let table = RuleTable::from_json(include_str!("../../../../fixtures/rulesets/miniagent-standard.json")).unwrap();
/// let engine = CoreCoderEngine::new(&table);
/// assert_eq!(engine.decide(&Call::new("read_file", "x.py")).0, Decision::Allow);
/// assert_eq!(engine.decide(&Call::new("list_dir", ".")).0, Decision::Ask); // not read-only
/// assert_eq!(engine.decide(&Call::new("bash", "python -m unittest")).0, Decision::Ask);
/// let print = CoreCoderEngine::new(&table).with_mode(Mode::Print);
/// assert_eq!(print.decide(&Call::new("bash", "git status")).0, Decision::Deny);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoreCoderEngine {
    plan_mode: bool,
    permission: Permission,
    rules_ignored: usize,
}

impl CoreCoderEngine {
    /// An interactive session with plan mode off and nothing remembered. The table is only
    /// counted, never read.
    pub fn new(table: &RuleTable) -> CoreCoderEngine {
        CoreCoderEngine {
            plan_mode: false,
            permission: Permission::new(Mode::Interactive),
            rules_ignored: table.len(),
        }
    }

    /// The same engine in another command-line mode (keeps the "always" set).
    pub fn with_mode(mut self, mode: Mode) -> CoreCoderEngine {
        let always = std::mem::take(&mut self.permission.always);
        self.permission = Permission::new(mode);
        self.permission.always = always;
        self
    }

    /// With `/plan` on or off.
    pub fn with_plan_mode(mut self, on: bool) -> CoreCoderEngine {
        self.plan_mode = on;
        self
    }

    /// With these tool names answered "always" earlier in the session.
    pub fn with_always<S: Into<String>>(
        mut self,
        tools: impl IntoIterator<Item = S>,
    ) -> CoreCoderEngine {
        for tool in tools {
            self.permission.grant_always(tool);
        }
        self
    }

    fn layer(&self, tool: &str) -> (Decision, Layer) {
        if self.plan_mode && !is_read_only(tool) {
            return (Decision::Deny, Layer::PlanMode);
        }
        match self.permission.precheck(tool) {
            Err(_) => (Decision::Deny, Layer::NonInteractive),
            Ok(Layer::Prompt) => (Decision::Ask, Layer::Prompt),
            Ok(layer) => (Decision::Allow, layer),
        }
    }
}

impl Engine for CoreCoderEngine {
    fn id(&self) -> EngineId {
        EngineId::CoreCoder
    }

    fn evaluate(&self, call: &Call) -> Evaluation {
        let (decision, layer) = self.layer(&call.tool);
        let blacklist = if call.tool == "bash" && decision != Decision::Deny {
            check_dangerous(&call.input).map(|hit| hit.index)
        } else {
            None
        };
        Evaluation {
            engine: EngineId::CoreCoder,
            decision,
            rule: None,
            matches: Vec::new(),
            steps: Vec::new(),
            reason: Reason::CoreCoder {
                layer,
                blacklist,
                rules_ignored: self.rules_ignored,
            },
            inferred: false,
            parts: Vec::new(),
            decided_by: None,
            always: Vec::new(),
        }
    }

    fn decide(&self, call: &Call) -> (Decision, Option<usize>) {
        (self.layer(&call.tool).0, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Action;

    fn session(mode: Mode) -> Session {
        Session::new(mode)
    }

    fn never(_: &str) -> Answer {
        panic!("CoreCoder would not prompt here")
    }

    #[test]
    fn answers_map_as_the_prompt_does() {
        let table = [
            ("y", AskVerdict::Once),
            ("Y", AskVerdict::Once),
            (" yes \n", AskVerdict::Once),
            ("YeS", AskVerdict::Once),
            ("a", AskVerdict::Always),
            ("\u{3000}ALWAYS\u{1c}", AskVerdict::Always),
            ("", AskVerdict::Deny),
            ("n", AskVerdict::Deny),
            ("no", AskVerdict::Deny),
            ("ok", AskVerdict::Deny),
            ("yess", AskVerdict::Deny),
            ("y es", AskVerdict::Deny),
            ("\u{200b}y", AskVerdict::Deny),
            ("<EOF>", AskVerdict::Deny),
            ("<Ctrl-C>", AskVerdict::Deny),
        ];
        for (text, want) in table {
            assert_eq!(Answer::from_script(text).verdict(), want, "{text:?}");
        }
    }

    #[test]
    fn read_only_is_by_exact_name() {
        for tool in READ_ONLY {
            let r = session(Mode::Print).call(tool, None, never);
            assert_eq!(
                (r.check.layer, r.outcome),
                (Layer::ReadOnly, Outcome::Executes)
            );
        }
        for tool in [
            "Read_File",
            "list_dir",
            "mcp__fs__read_text_file",
            "agent",
            "bash",
            "x",
        ] {
            let r = session(Mode::Print).call(tool, None, never);
            assert_eq!(r.outcome, Outcome::Refused, "{tool}");
            assert_eq!(r.check.refusal, Some(Refusal::NonInteractive));
        }
    }

    #[test]
    fn always_on_bash_covers_rm_rf_root_and_sudo() {
        let mut s = session(Mode::Interactive);
        let first = s.call("bash", Some("git status"), |_| Answer::line("always"));
        assert_eq!(first.asked, Some(AskVerdict::Always));
        let sudo = s.call("bash", Some("sudo ls"), never);
        assert_eq!((sudo.asked, sudo.outcome), (None, Outcome::Executes));
        let rm = s.call("bash", Some("rm -rf /"), never);
        assert_eq!(rm.check.layer, Layer::Always);
        assert_eq!(rm.outcome, Outcome::BlockedByBlacklist);
        assert_eq!(
            rm.blacklist.unwrap().reason,
            "recursive delete on home/root"
        );
        // …but not a command the blacklist misses.
        let shutil = s.call(
            "bash",
            Some("python3 -c \"import shutil; shutil.rmtree('/')\""),
            never,
        );
        assert_eq!(shutil.outcome, Outcome::Executes);
    }

    #[test]
    fn always_is_per_exact_tool_name() {
        let mut s = session(Mode::Interactive);
        s.call("write_file", None, |_| Answer::line("a"));
        for other in ["edit_file", "mcp__fs__write_file", "Write_File"] {
            let mut asked = false;
            s.call(other, None, |_| {
                asked = true;
                Answer::line("n")
            });
            assert!(asked, "{other} should prompt");
        }
        let always: Vec<_> = s.permission.as_ref().unwrap().always().collect();
        assert_eq!(always, ["write_file"]);
    }

    #[test]
    fn deny_is_not_remembered() {
        let mut s = session(Mode::Interactive);
        let no = s.call("bash", Some("ls"), |_| Answer::Eof);
        assert_eq!(no.refusal, Some(Refusal::UserRefused.message("bash")));
        let mut asked = false;
        s.call("bash", Some("ls"), |_| {
            asked = true;
            Answer::line("y")
        });
        assert!(asked);
    }

    #[test]
    fn yes_does_not_skip_plan_mode_or_the_blacklist() {
        let mut s = session(Mode::Yes);
        s.plan_mode = true;
        let w = s.call("write_file", None, never);
        assert_eq!(w.check.refusal, Some(Refusal::PlanMode));
        assert_eq!(s.call("grep", None, never).outcome, Outcome::Executes);
        s.plan_mode = false;
        let rm = s.call("bash", Some("rm -fr /"), never);
        assert_eq!(rm.outcome, Outcome::BlockedByBlacklist);
        // print+yes: --yes wins.
        let mut py = session(Mode::PrintYes);
        assert_eq!(
            py.call("bash", Some("ls"), never).check.layer,
            Layer::AllowAll
        );
    }

    #[test]
    fn print_mode_never_remembers() {
        let mut s = session(Mode::Print);
        for _ in 0..2 {
            assert_eq!(s.call("write_file", None, never).outcome, Outcome::Refused);
        }
        assert_eq!(s.permission.unwrap().always().count(), 0);
    }

    #[test]
    fn no_permission_object_allows_everything_but_plan_mode_still_refuses() {
        let mut s = Session {
            plan_mode: false,
            permission: None,
        };
        assert_eq!(
            s.call("bash", Some("ls"), never).check.layer,
            Layer::NoPermission
        );
        s.plan_mode = true;
        assert_eq!(s.call("bash", Some("ls"), never).outcome, Outcome::Refused);
    }

    #[test]
    fn engine_ignores_every_row_and_order() {
        let table = RuleTable::new([
            ("bash", "*", Action::Deny),
            ("bash", "git *", Action::Allow),
            ("read_file", "*", Action::Deny),
        ]);
        let engine = CoreCoderEngine::new(&table);
        let mut reversed = table.clone();
        reversed.reverse();
        let engine_rev = CoreCoderEngine::new(&reversed);
        for (tool, input, want) in [
            ("read_file", "x", Decision::Allow), // a deny row for read_file: ignored
            ("bash", "git status", Decision::Ask),
            ("list_dir", ".", Decision::Ask),
            ("todo_write", "", Decision::Allow),
        ] {
            let call = Call::new(tool, input);
            let e = engine.evaluate(&call);
            assert_eq!(e.decision, want, "{tool}");
            assert!(e.matches.is_empty() && e.steps.is_empty() && e.rule.is_none());
            assert_eq!(engine_rev.evaluate(&call).decision, want);
            assert_eq!(engine.decide(&call), (want, None));
        }
        let e = engine.evaluate(&Call::new("bash", "ls"));
        assert_eq!(
            e.reason,
            Reason::CoreCoder {
                layer: Layer::Prompt,
                blacklist: None,
                rules_ignored: 3
            }
        );
    }

    #[test]
    fn engine_on_the_lesson_table() {
        let table = RuleTable::from_json(include_str!(
            "../../../../fixtures/rulesets/miniagent-standard.json"
        ))
        .unwrap();
        let engine = CoreCoderEngine::new(&table);
        // One call per row's tool, with inputs the rows would match (and deny, for #6–#8).
        for (tool, input, want) in [
            ("read_file", "dateparse.py", Decision::Allow),
            ("list_dir", ".", Decision::Ask),
            ("grep", "parse_date", Decision::Allow),
            ("edit_file", "dateparse.py", Decision::Ask),
            ("write_file", "test_x.py", Decision::Ask),
            ("edit_file", "test_dateparse.py", Decision::Ask),
            (
                "bash",
                "python -m unittest -v test_dateparse.py",
                Decision::Ask,
            ),
            ("bash", "git push origin main", Decision::Ask),
        ] {
            let e = engine.evaluate(&Call::new(tool, input));
            assert_eq!(e.decision, want, "{tool}: {input}");
            assert!(matches!(
                e.reason,
                Reason::CoreCoder {
                    rules_ignored: 10,
                    ..
                }
            ));
        }
    }

    #[test]
    fn engine_modes() {
        let t = RuleTable::default();
        let rm = Call::new("bash", "rm -rf /");
        let print = CoreCoderEngine::new(&t).with_mode(Mode::Print);
        assert_eq!(print.decide(&rm).0, Decision::Deny);
        let yes = CoreCoderEngine::new(&t).with_mode(Mode::Yes);
        let e = yes.evaluate(&rm);
        assert_eq!(e.decision, Decision::Allow);
        assert!(matches!(
            e.reason,
            Reason::CoreCoder {
                layer: Layer::AllowAll,
                blacklist: Some(0),
                ..
            }
        ));
        let plan = CoreCoderEngine::new(&t)
            .with_mode(Mode::Yes)
            .with_plan_mode(true);
        assert_eq!(plan.decide(&rm).0, Decision::Deny);
        assert_eq!(plan.decide(&Call::new("glob", "*")).0, Decision::Allow);
        let always = CoreCoderEngine::new(&t)
            .with_always(["bash"])
            .with_mode(Mode::Print);
        let e = always.evaluate(&rm);
        assert_eq!(e.decision, Decision::Allow);
        assert!(matches!(
            e.reason,
            Reason::CoreCoder {
                layer: Layer::Always,
                ..
            }
        ));
    }
}
