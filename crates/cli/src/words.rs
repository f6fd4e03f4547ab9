//! Why an engine decided, in English words: the CLI's counterpart of the widget's zh/en
//! reason texts. Every reason and every Claude Code step is named; no Rust value is printed.

use permlab_core::claude_code::{Blocker, Decider};
use permlab_core::corecoder::Layer;
use permlab_core::Reason;

/// A reason no row decided, in words (the widget says the same in zh and en; a course author
/// reads this, not the Rust value).
pub fn reason(r: &Reason) -> String {
    match r {
        Reason::NoMatch { fallback } => format!("no rule matched, fallback {fallback}"),
        Reason::Rule { row, .. } => format!("rule #{}", row + 1),
        Reason::CodexStrictest { row, matched, .. } => format!(
            "rule #{}, the strictest of the {matched} matching {}",
            row + 1,
            if *matched == 1 { "rule" } else { "rules" }
        ),
        Reason::ToolRemoved { row } => format!("rule #{} removes the tool", row + 1),
        Reason::OpenCodeDefault { permission } => format!(
            "no rule matched: OpenCode's default {{permission: \"{permission}\", pattern: \"*\", action: \"ask\"}}"
        ),
        Reason::CoreCoder { layer, .. } => format!(
            "CoreCoder reads no rule: {}",
            match layer {
                Layer::ReadOnly => "a read-only tool runs without asking",
                Layer::Prompt => "not a read-only tool, so it asks",
                Layer::NonInteractive => "nobody to ask (-p): refused",
                Layer::AllowAll => "--yes: everything runs",
                Layer::Always => "an earlier \"always\" for this tool",
                Layer::PlanMode => "plan mode refuses tools that are not read-only",
                Layer::NoPermission => "the session has no permission object: everything runs",
            }
        ),
        Reason::ClaudeCode(d) => format!("Claude Code: {}", decider(d)),
        Reason::CodexNoRuleMatched => "no prefix rule matched: execpolicy gives no decision and Codex's own heuristics (not modelled) take over; shown as ask".into(),
        Reason::CodexNotACommand { tool } => {
            format!("execpolicy only sees shell commands; a {tool} call never reaches it (shown as ask)")
        }
        Reason::CodexUnsplittable { message } => format!(
            "the command cannot be split into words ({message}), so no prefix rule can check it (shown as ask)"
        ),
        Reason::ClaudeRuleInMode { row, action, mode } => format!(
            "rule #{} ({action}) matched, and the {} mode turned its answer: {}",
            row + 1,
            mode.as_str(),
            mode_turn(*mode)
        ),
        Reason::OpenCodeNothingAsked => "the bash tool asked no permission at all (only cd inside the project, assignments, tests or comments): the command runs".into(),
        Reason::OpenCodeHidden { row } => format!(
            "rule #{} (`bash *` deny, the last bash rule) hides the bash tool from the model: the call cannot be made",
            row + 1
        ),
        // A reason added to the core later: still no Rust value in the output.
        #[allow(unreachable_patterns)]
        _ => "the engine's own step decided (permlab eval --explain shows which)".into(),
    }
}

/// What a mode does to a rule's prompt, for a rule that matched in it.
pub fn mode_turn(mode: permlab_core::claude_code::Mode) -> &'static str {
    use permlab_core::claude_code::Mode;
    match mode {
        Mode::DontAsk => "dontAsk asks nobody, so what would prompt is denied",
        Mode::Auto => "auto mode hands what would prompt to its classifier",
        _ => "the mode decides what the prompt becomes",
    }
}

/// The Claude Code step that decided, in words.
pub fn decider(d: &Decider) -> String {
    let s = match d {
        Decider::HookBlock => "the PreToolUse hook blocked it (exit code 2)",
        Decider::HookAllow => "the PreToolUse hook approved it",
        Decider::ToolRemoved => "a deny removed the tool",
        Decider::DenyRule(via) => {
            use permlab_core::claude_code::Via;
            match via {
                Via::Direct => "a deny rule matched",
                Via::SymlinkTarget => "a deny rule matched the path's symlink target",
                Via::FileCommand => "a deny rule matched a file the command reads or writes",
                Via::RedirectTarget => "a deny rule matched a redirection target",
            }
        }
        Decider::AskRule => "an ask rule matched",
        Decider::ProtectedPath(p) => return format!("a write to the protected path {p} asks"),
        Decider::CriticalPath => "rm on a critical path asks",
        Decider::RequiresUserInteraction => "a tool that needs the user is never auto-approved",
        Decider::EndConversation => "EndConversation ignores deny and ask rules",
        Decider::Sandbox => "a sandboxed command runs (autoAllowBashIfSandboxed)",
        Decider::Bypass => "bypassPermissions approves it",
        Decider::AllowRule => "allow rules cover the call",
        Decider::ReadOnly => "a built-in read-only command runs",
        Decider::NoPermissionTool => "this tool needs no permission",
        Decider::WorkingDirectory => "a read inside the working directory runs",
        Decider::AdditionalDirectory => "a read or edit inside an additional directory runs",
        Decider::AcceptEdits => "acceptEdits approves an edit in scope",
        Decider::AutoMode => "auto mode approves it",
        Decider::Callback { why } => {
            return format!("{}; the SDK's canUseTool callback is asked", blocker(why))
        }
        Decider::Mode { mode, why } => {
            return format!(
                "{}; the {} mode's fallback decides",
                blocker(why),
                mode.as_str()
            )
        }
        #[allow(unreachable_patterns)]
        _ => "a step other than a rule decided",
    };
    s.to_string()
}

/// What kept a Claude Code call from being approved, in words.
pub fn blocker(b: &Blocker) -> String {
    match b {
        Blocker::NoRule => "no rule or baseline covers it".into(),
        Blocker::Unparseable(m) => {
            format!("the command cannot be parsed ({m}), so no allow rule approves it")
        }
        Blocker::ExecWrapper(w) => {
            format!("{w} wraps another command, so no prefix rule approves it")
        }
        Blocker::CdGit => "cd into another directory combined with git".into(),
        Blocker::Target(t) => format!("the write target {t} cannot be approved"),
        Blocker::OutsideWorkingDirectory => "the path is outside the working directories".into(),
        Blocker::PlanWrite => "plan mode never approves writes".into(),
        Blocker::NotFilesystemCommand => "not a filesystem command acceptEdits approves".into(),
        Blocker::UnsafeEnv(v) => {
            format!("the variable assignment {v} keeps allow rules from approving it")
        }
    }
}

/// `s` in double quotes, escaped as JSON escapes it (what `{:?}` showed, without Rust's own
/// escapes).
pub fn quoted(s: &str) -> String {
    let mut out = String::new();
    permlab_core::json::write_string(s, &mut out);
    out
}
