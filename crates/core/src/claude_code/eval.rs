//! The decision procedure (`claude-code.md` §5): hook → bare deny (tool removed) → deny rules →
//! ask rules → safety checks → sandbox auto-allow → bypass → allow rules and the mode's
//! baseline → the mode's fallback.
//!
//! Each step is documented; their exact order in the CLI is inferred from the Agent SDK's
//! published order (§6: hooks → deny → ask → mode → allow → callback). Specificity and array
//! order never matter, only the group order, so the verdict never depends on the order of the
//! rules (a property test checks it). When several rules of the deciding group match, the first
//! in merged order (managed, cli, local, project, user; then array order) is named.
//!
//! ```
//! use permlab_core::json::parse;
//! use permlab_core::claude_code::{evaluate, Context, Mode, Outcome, Policy, Scope, SettingsFile, ToolCall};
//! let settings = SettingsFile::from_json(r#"{"permissions": {
//!     "allow": ["Bash(git *)"], "deny": ["Bash(git push *)"]}}"#, Scope::Project).unwrap();
//! let policy = Policy::merge(&[settings], true);
//! let call = ToolCall::bash("git push origin main");
//! let v = evaluate(&policy, Mode::Default, &Context::default(), &call);
//! assert_eq!(v.outcome, Outcome::Deny);
//! assert_eq!(policy.rules[v.rule.unwrap()].text, "Bash(git push *)");
//! ```

use super::bash::{self, Sub};
use super::index::Index;
use super::mode::{Mode, Outcome};
use super::path;
use super::settings::Policy;
use super::shell;
use crate::table::Action;

use super::env::{Env, Facts, Kind, Target};
pub use super::types::{
    Blocker, Context, Decider, Hook, Surface, ToolCall, TraceStep, Verdict, Via,
};

/// Tools governed by Read rules.
const READ_TOOLS: [&str; 6] = ["Read", "Grep", "Glob", "LSP", "NotebookRead", "LS"];
/// Tools governed by Edit rules.
const EDIT_TOOLS: [&str; 4] = ["Edit", "Write", "MultiEdit", "NotebookEdit"];

/// Evaluates one call under `policy` in `mode`.
///
/// Compiles the policy for this one call; to evaluate many calls, compile once with
/// [`CompiledPolicy`].
pub fn evaluate(policy: &Policy, mode: Mode, ctx: &Context, call: &ToolCall) -> Verdict {
    let ix = Index::new(policy, mode, ctx);
    run(policy, &ix, mode, ctx, call, true)
}

/// Whether a Bash call would run inside the sandbox (sandbox on, the command can be sandboxed,
/// not in `excludedCommands`, no honoured `dangerouslyDisableSandbox`): the same check the
/// procedure's sandbox auto-allow uses, for presenting what contains the call after the
/// verdict ([`flow`](super::flow)).
pub(crate) fn runs_sandboxed(policy: &Policy, mode: Mode, ctx: &Context, call: &ToolCall) -> bool {
    let ix = Index::new(policy, mode, ctx);
    let env = Env {
        policy,
        mode,
        ctx,
        working_dirs: &ix.working_dirs,
        ix: &ix,
        trace: false,
    };
    env.sandboxed(&Facts::new(call, ctx)).is_some()
}

/// A policy compiled once for one mode and context (rule index, anchors, working
/// directories), to evaluate many calls.
///
/// [`CompiledPolicy::evaluate`] gives exactly what [`evaluate`] gives. [`CompiledPolicy::decide`]
/// is the fast path: the same outcome, decider, rule and `inferred`, without the trace and the
/// list of matches, looking only at the rules that could match the call (a property test holds
/// the two together).
///
/// ```
/// use permlab_core::claude_code::{CompiledPolicy, Context, Mode, Outcome, Policy, Scope, SettingsFile, ToolCall};
/// let settings = SettingsFile::from_json(r#"{"permissions": {
///     "allow": ["Bash(git *)"], "deny": ["Bash(git push *)", "WebFetch"]}}"#, Scope::Project).unwrap();
/// let p = CompiledPolicy::new(Policy::merge(&[settings], true), Mode::Default, Context::default());
/// let call = ToolCall::bash("git status && git push origin main");
/// let fast = p.decide(&call);
/// assert_eq!((fast.outcome, fast.rule), (Outcome::Deny, Some(0)));
/// assert!(fast.trace.is_empty());
/// let full = p.evaluate(&call);
/// assert_eq!((full.outcome, full.rule), (fast.outcome, fast.rule));
/// assert_eq!(p.decide(&ToolCall::with_field("WebFetch", "url", "https://x.org")).outcome, Outcome::Unavailable);
/// ```
#[derive(Clone, Debug)]
pub struct CompiledPolicy {
    policy: Policy,
    mode: Mode,
    ctx: Context,
    ix: Index,
}

impl CompiledPolicy {
    /// Compiles `policy` for `mode` in `ctx`.
    pub fn new(policy: Policy, mode: Mode, ctx: Context) -> Self {
        let ix = Index::new(&policy, mode, &ctx);
        CompiledPolicy {
            policy,
            mode,
            ctx,
            ix,
        }
    }

    /// The policy.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The context.
    pub fn context(&self) -> &Context {
        &self.ctx
    }

    /// The full verdict, trace and matches included (same as [`evaluate`]).
    pub fn evaluate(&self, call: &ToolCall) -> Verdict {
        run(&self.policy, &self.ix, self.mode, &self.ctx, call, true)
    }

    /// The verdict without [`Verdict::trace`] and [`Verdict::matches`] (left empty), fast.
    pub fn decide(&self, call: &ToolCall) -> Verdict {
        run(&self.policy, &self.ix, self.mode, &self.ctx, call, false)
    }

    /// Only whether a bare deny removes `tool` (a canonical name), and which rule: the one
    /// check that needs no look at the call's input. `None` when something earlier decides
    /// (a blocking hook, `EndConversation`) or no bare deny names the tool.
    pub(crate) fn removed(&self, tool: &str) -> Option<usize> {
        let tool = if tool == "Task" { "Agent" } else { tool };
        if self.ctx.hook == Some(Hook::Block) || tool == "EndConversation" {
            return None;
        }
        self.ix.first_bare(&self.policy, Action::Deny, tool)
    }
}

fn run(
    policy: &Policy,
    ix: &Index,
    mode: Mode,
    ctx: &Context,
    call: &ToolCall,
    trace: bool,
) -> Verdict {
    let mut v = decide(policy, ix, mode, ctx, call, trace);
    // `Skill(name *)` deciding a call without arguments rests on the trailing-` *` rule (§4 [I]).
    if let Some(r) = v.rule.and_then(|r| policy.rules.get(r)) {
        let bare_call = call.str_field("args").is_none_or(str::is_empty);
        if call.tool == "Skill" && bare_call && r.text.ends_with(" *)") {
            v.inferred = true;
        }
    }
    v
}

fn decide(
    policy: &Policy,
    ix: &Index,
    mode: Mode,
    ctx: &Context,
    call: &ToolCall,
    trace: bool,
) -> Verdict {
    let env = Env {
        policy,
        mode,
        ctx,
        working_dirs: &ix.working_dirs,
        ix,
        trace,
    };
    let tool = if call.tool == "Task" {
        "Agent"
    } else {
        call.tool.as_str()
    };
    let mut v = Verdict {
        outcome: Outcome::Ask,
        decider: Decider::Mode {
            mode,
            why: Blocker::NoRule,
        },
        rule: None,
        matches: Vec::new(),
        trace: Vec::new(),
        inferred: false,
    };

    // 1. PreToolUse hook exit 2: before any rule.
    if ctx.hook == Some(Hook::Block) {
        return v.decide(Outcome::Deny, Decider::HookBlock);
    }
    // EndConversation ignores deny and ask rules while any other tool remains.
    if tool == "EndConversation" {
        // Inferred: a deny of every tool (`*`) leaves no other tool, so the deny applies.
        if !ix.everything_denied {
            return v.decide(Outcome::Allow, Decider::EndConversation);
        }
        v.inferred = true;
    }
    // A bare deny removes the tool whatever its input: without a trace to fill, nothing else
    // needs to be looked at (the deny scan below finds the same rule first).
    if !trace {
        if let Some(i) = ix.first_bare(policy, Action::Deny, tool) {
            v.rule = Some(i);
            return v.decide(Outcome::Unavailable, Decider::ToolRemoved);
        }
    }

    let facts = Facts::new(call, ctx);
    if trace {
        v.matches = env.all_matches(&facts);
    }
    let sandboxed = env.sandboxed(&facts);
    let auto_allow_sandbox = sandboxed.is_some()
        && policy.auto_allow_bash_if_sandboxed
        && mode != Mode::Plan
        && facts.kind == Kind::Shell;

    // 2–3. Deny group: a bare/glob deny removes the tool; any other match blocks.
    let denies = env.scan(&facts, Action::Deny, &mut v, auto_allow_sandbox);
    if let Some((i, via, bare)) = denies {
        v.rule = Some(i);
        return if bare {
            v.decide(Outcome::Unavailable, Decider::ToolRemoved)
        } else {
            v.decide(Outcome::Deny, Decider::DenyRule(via))
        };
    }
    // Recorded (CLI 2.1.332): a skill without `allowed-tools` runs once no deny stopped it,
    // whatever `Skill(name)` ask rules say; only a bare `Skill` ask still prompts. An allow
    // rule that covers it is still named as the deciding step.
    if tool == "Skill"
        && !ctx.skill_allowed_tools
        && ix.first_bare(policy, Action::Ask, "Skill").is_none()
    {
        if let Ok((decider, rule)) = env.approve(&facts, &mut v) {
            v.rule = rule;
            return v.decide(Outcome::Allow, decider);
        }
        return v.decide(Outcome::Allow, Decider::NoPermissionTool);
    }
    // 4. Ask group (a bare Bash ask is skipped for sandboxed commands, except in plan mode).
    if let Some((i, _, _)) = env.scan(&facts, Action::Ask, &mut v, auto_allow_sandbox) {
        v.rule = Some(i);
        let outcome = if mode == Mode::DontAsk {
            Outcome::Deny
        } else {
            Outcome::Ask
        };
        return v.decide(outcome, Decider::AskRule);
    }
    // 5. Safety checks no allow rule or hook overrides.
    if facts.tool == "AskUserQuestion" || ctx.requires_user_interaction {
        let outcome = if mode == Mode::DontAsk {
            Outcome::Deny
        } else {
            Outcome::Ask
        };
        return v.decide(outcome, Decider::RequiresUserInteraction);
    }
    if facts.kind == Kind::Shell && env.critical_rm(&facts) {
        let outcome = match mode {
            Mode::DontAsk => Outcome::Deny,
            Mode::Auto if !ctx.interactive => Outcome::Deny,
            _ => Outcome::Ask,
        };
        return v.decide(outcome, Decider::CriticalPath);
    }
    // Recorded (CLI 2.1.332): a `$(` that is never closed (`echo $(ls`) prompts even under a
    // bare `Bash` allow and in bypassPermissions (dontAsk: deny). Deny rules still saw the
    // commands inside it (`echo $(rm -rf build` is denied by `Bash(rm *)`). An unclosed
    // double quote or backtick is only unparseable: no allow rule but a bare one approves it.
    if facts.kind == Kind::Shell && facts.unclosed_substitution {
        // Auto mode shows no prompt for it: "denied by a built-in Claude Code safety check"
        // (recorded).
        let outcome = if matches!(mode, Mode::DontAsk | Mode::Auto) {
            Outcome::Deny
        } else {
            Outcome::Ask
        };
        // Not recorded: the sandbox's auto-allow.
        v.inferred |= auto_allow_sandbox;
        let why = Blocker::Unparseable(facts.parse_error.clone().unwrap_or_default());
        return v.decide(outcome, Decider::Mode { mode, why });
    }
    if mode != Mode::BypassPermissions && !auto_allow_sandbox {
        if let Some(p) = env.protected_write(&facts) {
            let outcome = match mode {
                Mode::DontAsk => Outcome::Deny,
                Mode::Auto => Outcome::Classifier,
                Mode::Plan if env.auto_available() => Outcome::Classifier,
                _ => Outcome::Ask,
            };
            return v.decide(outcome, Decider::ProtectedPath(p));
        }
    }
    // Sandbox auto-allow: every mode except plan.
    if auto_allow_sandbox {
        if mode == Mode::DontAsk || sandboxed == Some(true) {
            v.inferred = true;
        }
        return v.decide(Outcome::Allow, Decider::Sandbox);
    }
    // 6. bypassPermissions approves whatever reached it.
    if mode == Mode::BypassPermissions {
        return v.decide(Outcome::Allow, Decider::Bypass);
    }
    // 7–8. Allow rules and the mode's baseline.
    let why = match env.approve(&facts, &mut v) {
        Ok((decider, rule)) => {
            v.rule = rule;
            return v.decide(Outcome::Allow, decider);
        }
        Err(why) => why,
    };
    let outcome = match mode {
        Mode::DontAsk => Outcome::Deny,
        Mode::Auto => Outcome::Classifier,
        // With auto mode available (and `useAutoModeDuringPlan`), plan hands over to the
        // classifier, except edits: they ask (recorded, CLI 2.1.332: a Write in plan mode
        // with auto mode available prompts, `npm test` goes to the classifier).
        Mode::Plan if env.auto_available() && facts.kind != Kind::Edit => Outcome::Classifier,
        _ => Outcome::Ask,
    };
    if ctx.hook == Some(Hook::Allow) {
        return v.decide(Outcome::Allow, Decider::HookAllow);
    }
    if matches!(why, Blocker::Target(_) | Blocker::PlanWrite) || (facts.tool.starts_with("mcp__")) {
        v.inferred = true;
    }
    if outcome == Outcome::Ask && ctx.surface == Surface::Sdk {
        // Agent SDK: the last step is the `canUseTool` callback (reported as ask).
        return v.decide(outcome, Decider::Callback { why });
    }
    v.decide(outcome, Decider::Mode { mode, why })
}

impl Verdict {
    fn decide(mut self, outcome: Outcome, decider: Decider) -> Verdict {
        self.outcome = outcome;
        self.decider = decider;
        self
    }
}

impl<'a> Facts<'a> {
    fn new(call: &'a ToolCall, ctx: &Context) -> Facts<'a> {
        let tool = if call.tool == "Task" {
            "Agent".to_string()
        } else {
            call.tool.clone()
        };
        let kind = match tool.as_str() {
            "Bash" => Kind::Shell,
            "PowerShell" => Kind::PowerShell,
            t if READ_TOOLS.contains(&t) => Kind::Read,
            t if EDIT_TOOLS.contains(&t) => Kind::Edit,
            _ => Kind::Other,
        };
        let (mut path, mut is_dir) = (None, false);
        if matches!(kind, Kind::Read | Kind::Edit) {
            let raw = call
                .str_field("file_path")
                .or_else(|| call.str_field("notebook_path"));
            match raw {
                Some(p) => path = Some(path::resolve(p, &ctx.cwd, &ctx.home)),
                None if matches!(tool.as_str(), "Grep" | "Glob" | "LS") => {
                    is_dir = true;
                    let p = call.str_field("path").unwrap_or(&ctx.cwd);
                    path = Some(path::resolve(p, &ctx.cwd, &ctx.home));
                }
                None => {}
            }
        }
        let target = path.as_ref().and_then(|p| {
            ctx.symlinks
                .iter()
                .find(|(from, _)| path::normalize(from) == *p)
                .map(|(_, to)| path::resolve(to, &ctx.cwd, &ctx.home))
        });
        let source = match kind {
            Kind::Shell | Kind::PowerShell => call.str_field("command").unwrap_or("").to_string(),
            _ => String::new(),
        };
        let parsed = if kind == Kind::Shell {
            shell::parse(&source)
        } else {
            shell::Parsed::default()
        };
        let ps_parts = if kind == Kind::PowerShell {
            bash::powershell_parts(&source)
        } else {
            None
        };
        let mut subs: Vec<Sub> = parsed
            .commands
            .into_iter()
            .map(|c| bash::analyse_owned(&source, c))
            .collect();
        // `c=curl; $c https://…`: deny rules see `curl https://…` (recorded, CLI 2.1.332).
        let mut vars: std::collections::HashMap<String, String> = Default::default();
        for sub in &mut subs {
            if sub.cmd.words.is_empty() {
                for a in &sub.cmd.assignments {
                    if let Some((n, v)) = a.value.split_once('=') {
                        vars.insert(n.to_string(), v.to_string());
                    }
                }
            } else if sub.cmd.words[0].value == "export" {
                for w in &sub.cmd.words[1..] {
                    if let Some((n, v)) = w.value.split_once('=') {
                        vars.insert(n.to_string(), v.to_string());
                    }
                }
            } else if !vars.is_empty() && sub.cmd.words.iter().any(|w| w.expansion) {
                sub.normalized = bash::normalized_text(&sub.cmd, 0, &vars);
            }
        }
        let mut targets = Vec::new();
        let mut reads = Vec::new();
        let mut writes = Vec::new();
        for sub in &subs {
            for w in bash::accept_edits_paths(sub).unwrap_or_default() {
                if !w.expansion {
                    writes.push(path::resolve(&w.value, &ctx.cwd, &ctx.home));
                }
            }
            let recorded = sub
                .program()
                .is_some_and(|p| bash::PATH_CHECKED_RECORDED.contains(&p));
            let resolve =
                |p: &str| (!p.contains('$')).then(|| path::resolve(p, &ctx.cwd, &ctx.home));
            for w in bash::read_operands(sub) {
                reads.push((w.value.clone(), resolve(&w.value), recorded));
            }
            for t in bash::file_targets(sub) {
                if !t.write && !t.redirect {
                    reads.push((t.path.clone(), resolve(&t.path), recorded));
                }
                // `~` is known from the context and a glob is matched literally (`cat *.env`
                // hits `Read(*.env)`), so deny rules still see them; only an expansion
                // (`$VAR/x`) has no path at all. Approval is another matter: see
                // `needs_approval`.
                let abs =
                    (!t.path.contains('$')).then(|| path::resolve(&t.path, &ctx.cwd, &ctx.home));
                targets.push(Target {
                    abs,
                    needs_approval: t.unresolvable,
                    write: t.write,
                    redirect: t.redirect,
                    raw: t.path,
                });
            }
        }
        Facts {
            call,
            tool,
            kind,
            path,
            target,
            is_dir,
            source,
            parse_error: parsed.error,
            background: parsed.background,
            top_background: parsed.top_background,
            unclosed_substitution: parsed.unclosed_substitution,
            reads,
            writes,
            ps_parts,
            subs,
            targets,
        }
    }
}

pub use super::matching::domain_matches;
