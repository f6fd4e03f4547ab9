//! Permission modes (`claude-code.md` §7): what each approves without asking, and what it
//! never approves.
//!
//! | Mode | Runs without asking | Never auto-approved |
//! |---|---|---|
//! | `default` (Manual) | reads in working dirs, read-only Bash, no-permission tools | everything else → ask |
//! | `acceptEdits` | + edits in working dirs, `mkdir touch rm rmdir mv cp sed` on in-scope paths | protected paths, critical-path `rm`, other Bash → ask |
//! | `plan` | reads, read-only Bash | edits (even with an allow rule) → ask |
//! | `auto` | rule matches, reads, working-dir edits, narrow allows | the rest → classifier (its own outcome) |
//! | `dontAsk` | allow matches, reads, read-only Bash, hook approvals | anything that would prompt → deny |
//! | `bypassPermissions` | everything, protected paths included | deny rules; ask rules, critical-path `rm`, `AskUserQuestion` → ask |
//!
//! ```
//! use permlab_core::claude_code::mode::Mode;
//! assert_eq!(Mode::parse("manual"), Some(Mode::Default));
//! assert_eq!(Mode::parse("bypassPermissions").unwrap().as_str(), "bypassPermissions");
//! assert_eq!(Mode::parse("Default"), None);
//! ```

/// A permission mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Manual: prompts for anything not approved.
    Default,
    /// Approves edits and filesystem commands inside the working directories.
    AcceptEdits,
    /// Read-only exploration; edits wait for plan approval.
    Plan,
    /// A classifier decides what rules and the baseline leave open.
    Auto,
    /// Anything that would prompt is denied (unattended runs).
    DontAsk,
    /// Everything runs, except what deny/ask rules and the safety checks stop.
    BypassPermissions,
}

impl Mode {
    /// Every mode.
    pub const ALL: [Mode; 6] = [
        Mode::Default,
        Mode::AcceptEdits,
        Mode::Plan,
        Mode::Auto,
        Mode::DontAsk,
        Mode::BypassPermissions,
    ];

    /// The settings spelling; `manual` is an alias of `default` (case-sensitive).
    pub fn parse(s: &str) -> Option<Mode> {
        match s {
            "default" | "manual" => Some(Mode::Default),
            "acceptEdits" => Some(Mode::AcceptEdits),
            "plan" => Some(Mode::Plan),
            "auto" => Some(Mode::Auto),
            "dontAsk" => Some(Mode::DontAsk),
            "bypassPermissions" => Some(Mode::BypassPermissions),
            _ => None,
        }
    }

    /// The settings spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Default => "default",
            Mode::AcceptEdits => "acceptEdits",
            Mode::Plan => "plan",
            Mode::Auto => "auto",
            Mode::DontAsk => "dontAsk",
            Mode::BypassPermissions => "bypassPermissions",
        }
    }
}

/// The outcome of one call, Claude Code's own vocabulary.
///
/// [`Outcome::Classifier`] is auto mode's fourth outcome: the docs leave the call to a model
/// classifier whose verdict is not deterministic, so it is never guessed. As a common
/// [`Decision`](crate::Decision) it maps to `Ask`: the call is not approved by any rule or by
/// the mode's baseline, and a reviewer (the classifier, standing in for the human) decides.
/// [`Outcome::Unavailable`] maps to `Decision::Unavailable`; conformance files call it `deny`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Runs without a prompt.
    Allow,
    /// A human is prompted (SDK: the `canUseTool` callback).
    Ask,
    /// Blocked.
    Deny,
    /// A bare or glob deny removed the tool from the model's context.
    Unavailable,
    /// Auto mode's classifier decides.
    Classifier,
}

impl Outcome {
    /// `allow`, `ask`, `deny`, `unavailable`, `classifier`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Allow => "allow",
            Outcome::Ask => "ask",
            Outcome::Deny => "deny",
            Outcome::Unavailable => "unavailable",
            Outcome::Classifier => "classifier",
        }
    }

    /// The common decision (see the type's docs for `Classifier`).
    pub fn decision(self) -> crate::Decision {
        match self {
            Outcome::Allow => crate::Decision::Allow,
            Outcome::Ask | Outcome::Classifier => crate::Decision::Ask,
            Outcome::Deny => crate::Decision::Deny,
            Outcome::Unavailable => crate::Decision::Unavailable,
        }
    }
}
