//! `permlab check LESSON.json...`: validate lessons and compare every author-written answer
//! with the engines.

use permlab_core::claude_code::{Blocker, Decider};
use permlab_core::corecoder::Layer;
use permlab_core::lesson::{Lesson, Locator, Severity};
use permlab_core::{Evaluation, Reason};

use crate::{read_file, Failure};

fn rule_text(table: &permlab_core::RuleTable, row: usize) -> String {
    match table.rules().get(row) {
        Some(r) => format!("rule #{} {} {} {}", row + 1, r.tool, r.pattern, r.action),
        None => "a rule outside the table".into(),
    }
}

fn why(e: &Evaluation, table: &permlab_core::RuleTable) -> String {
    match (&e.reason, e.rule) {
        (Reason::ToolRemoved { row }, _) => format!("{} removes the tool", rule_text(table, *row)),
        (_, Some(row)) => rule_text(table, row),
        (r, None) => reason_text(r),
    }
}

/// A reason no row decided, in words (the widget says the same in zh and en; a course author
/// reads this, not the Rust value).
fn reason_text(r: &Reason) -> String {
    match r {
        Reason::NoMatch { fallback } => format!("no rule matched, fallback {fallback}"),
        Reason::Rule { row, .. } | Reason::CodexStrictest { row, .. } => format!("rule #{}", row + 1),
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
        Reason::ClaudeCode(d) => format!("Claude Code: {}", decider_text(d)),
        Reason::CodexNoRuleMatched => "no prefix rule matched: execpolicy gives no decision and Codex's own heuristics (not modelled) take over; shown as ask".into(),
        Reason::CodexNotACommand { tool } => {
            format!("execpolicy only sees shell commands; a {tool} call never reaches it (shown as ask)")
        }
        Reason::CodexUnsplittable { message } => format!(
            "the command cannot be split into words ({message}), so no prefix rule can check it (shown as ask)"
        ),
        // A reason added to the core later: still no Rust value in the output.
        #[allow(unreachable_patterns)]
        _ => "the engine's own step decided (permlab eval --explain shows which)".into(),
    }
}

fn decider_text(d: &Decider) -> String {
    let s = match d {
        Decider::HookBlock => "the PreToolUse hook blocked it (exit code 2)",
        Decider::HookAllow => "the PreToolUse hook approved it",
        Decider::ToolRemoved => "a deny removed the tool",
        Decider::DenyRule(_) => "a deny rule matched",
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
            return format!(
                "{}; the SDK's canUseTool callback is asked",
                blocker_text(why)
            )
        }
        Decider::Mode { mode, why } => {
            return format!(
                "{}; the {} mode's fallback decides",
                blocker_text(why),
                mode.as_str()
            )
        }
        #[allow(unreachable_patterns)]
        _ => "a step other than a rule decided",
    };
    s.to_string()
}

fn blocker_text(b: &Blocker) -> String {
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

/// Runs the check; `Ok(false)` when a lesson is invalid or an answer is wrong.
pub fn run(files: &[String]) -> Result<bool, Failure> {
    if files.is_empty() {
        return Err(Failure::usage("check needs at least one LESSON.json"));
    }
    let mut ok = true;
    for path in files {
        let text = read_file(path)?;
        let loaded = Lesson::parse(&text);
        for p in &loaded.problems {
            say!("{path}: {p}");
        }
        if loaded
            .problems
            .iter()
            .any(|p| p.severity == Severity::Error)
        {
            ok = false;
            say!("{path}: invalid lesson");
            continue;
        }
        let Some(lesson) = loaded.lesson else {
            ok = false;
            continue;
        };
        // One index of the text for all the wrong answers (locating each from the top made
        // `check` quadratic in their number).
        let locator = Locator::new(&text);
        let (mut checked, mut wrong) = (0, 0);
        for preset in &lesson.presets {
            // Each engine is compiled once per preset, not once per answer: a lesson of
            // 40 000 rules and 10 000 answers took minutes where `batch` takes a second.
            let mut compiled: Vec<(permlab_core::EngineId, Box<dyn permlab_core::Engine>)> =
                Vec::new();
            for (i, call) in preset.calls.iter().enumerate() {
                for (engine_id, want) in &call.expect {
                    let at = match compiled.iter().position(|(id, _)| id == engine_id) {
                        Some(k) => k,
                        None => {
                            compiled.push((*engine_id, preset.engine(*engine_id)));
                            compiled.len() - 1
                        }
                    };
                    let engine = &compiled[at].1;
                    checked += 1;
                    // The verdict alone first (what `batch` computes; it agrees with
                    // `evaluate`); the full trace only for a wrong answer, to say why.
                    if engine.decide(&call.call).0 != *want {
                        let e = engine.evaluate(&call.call);
                        wrong += 1;
                        let at = locator
                            .locate(&format!("{}[{i}].expect.{engine_id}", preset.calls_at))
                            .map(|p| format!("{}:{}: ", p.line, p.column))
                            .unwrap_or_default();
                        say!(
                            "{path}:{at}preset {}, call #{} `{}`, {}: expected {}, engines say {} ({})",
                            preset.id,
                            i + 1,
                            call.call,
                            engine_id,
                            want,
                            e.decision,
                            why(&e, &preset.table)
                        );
                    }
                }
            }
        }
        if wrong > 0 {
            ok = false;
        }
        say!(
            "{path}: {} presets, {checked} answers checked, {wrong} wrong",
            lesson.presets.len()
        );
    }
    Ok(ok)
}
