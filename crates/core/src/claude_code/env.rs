//! What every step of the decision procedure reads: the call's [`Facts`], computed once,
//! and the [`Env`] (policy, mode, context, index) its methods are spread over: `eval`
//! (the procedure), `matching` (does a rule match) and `approve` (what a mode approves).

use super::bash::Sub;
use super::index::Index;
use super::mode::Mode;
use super::path;
use super::settings::Policy;
use super::types::{Context, Decider, ToolCall, Verdict};

/// Tools that need no permission (§7 "no-permission tools").
pub(super) const NO_PERMISSION: [&str; 16] = [
    "Agent",
    "TodoWrite",
    "TodoRead",
    "ExitPlanMode",
    "EnterPlanMode",
    "BashOutput",
    "KillShell",
    "TaskOutput",
    "TaskStop",
    "TaskCreate",
    "TaskGet",
    "TaskList",
    "TaskUpdate",
    "ToolSearch",
    "ListMcpResourcesTool",
    "ReadMcpResourceTool",
];

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Read,
    Edit,
    Shell,
    PowerShell,
    Other,
}

/// Everything about the call the rules look at, computed once.
pub(super) struct Facts<'a> {
    pub(super) call: &'a ToolCall,
    pub(super) tool: String,
    pub(super) kind: Kind,
    /// Read/Edit tools: the absolute path and its symlink target.
    pub(super) path: Option<String>,
    pub(super) target: Option<String>,
    pub(super) is_dir: bool,
    /// Bash.
    pub(super) source: String,
    /// Bash: why the command cannot be parsed ([`shell::Parsed::error`]).
    pub(super) parse_error: Option<String>,
    /// PowerShell parts (None: unparseable).
    pub(super) ps_parts: Option<Vec<String>>,
    /// Bash: every subcommand, wrappers stripped (computed once per call).
    pub(super) subs: Vec<Sub>,
    /// Bash: the files its subcommands name (redirections, `tee`, `cat`…).
    pub(super) targets: Vec<Target>,
    /// Bash: some part runs in the background (`npm test &`).
    pub(super) background: bool,
    /// Bash: a `&` of the outer command list (`ls &`, not `(ls &)`).
    pub(super) top_background: bool,
    /// Bash: a `$(` is never closed (`echo $(ls`).
    pub(super) unclosed_substitution: bool,
    /// Bash: the paths read-only commands read ([`bash::read_operands`] and the read
    /// [`bash::file_targets`]), each `(as written, absolute, recorded program)`; no absolute
    /// path when it is written with an expansion (`cat $HOME/x.txt`).
    pub(super) reads: Vec<(String, Option<String>, bool)>,
    /// Bash: the absolute paths of the filesystem commands acceptEdits knows (`rm`, `mkdir`,
    /// `cp`, `mv`, `touch`, `sed`), expansions left out.
    pub(super) writes: Vec<String>,
}

pub(super) struct Env<'a> {
    pub(super) policy: &'a Policy,
    pub(super) mode: Mode,
    pub(super) ctx: &'a Context,
    pub(super) working_dirs: &'a [String],
    pub(super) ix: &'a Index,
    /// Record the trace and every match (`evaluate`), or only find the verdict (`decide`):
    /// then the index narrows every scan to the rules that could match.
    pub(super) trace: bool,
}

/// Records the allow group's steps: the rules that hit, and the deciding one.
pub(super) type TraceAllow<'a> = dyn FnMut(&mut Verdict, &[usize], Option<usize>) + 'a;

/// A path-rule target inside a Bash command.
pub(super) struct Target {
    /// Written with `~`, a glob or an expansion: no rule or mode can approve it (§2.6).
    pub(super) needs_approval: bool,
    pub(super) abs: Option<String>,
    pub(super) write: bool,
    pub(super) redirect: bool,
    pub(super) raw: String,
}

impl Env<'_> {
    pub(super) fn auto_available(&self) -> bool {
        self.ctx
            .auto_mode_available
            .unwrap_or(self.mode == Mode::Auto)
    }

    pub(super) fn in_working_dir(&self, abs: &str) -> Option<Decider> {
        for (k, d) in self.working_dirs.iter().enumerate() {
            if path::relative_to(abs, d).is_some() {
                return Some(if k == 0 {
                    Decider::WorkingDirectory
                } else {
                    Decider::AdditionalDirectory
                });
            }
        }
        None
    }
}
