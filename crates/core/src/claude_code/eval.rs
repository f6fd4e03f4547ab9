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

use super::bash::{self, CommandPattern, Sub};
use super::mode::{Mode, Outcome};
use super::path::{self, Anchor, PathMatch, PathPattern};
use super::rule::{Specifier, ToolSelector};
use super::settings::{Policy, PolicyRule, Scope};
use super::shell;
use crate::json::Value;
use crate::table::Action;

/// Where the call is evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surface {
    /// The interactive or `-p` CLI.
    Cli,
    /// The Agent SDK: a prompt is the `canUseTool` callback.
    Sdk,
}

/// What a PreToolUse hook answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hook {
    /// The hook approved: replaces the prompt only.
    Allow,
    /// The hook exited with code 2: blocked before any rule.
    Block,
}

/// The facts of the session a verdict depends on (never read from the machine).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Context {
    /// Current (primary) working directory.
    pub cwd: String,
    /// What `~` and `$HOME` mean.
    pub home: String,
    /// Anchor of `/path` rules from project, local and CLI settings.
    pub project_root: String,
    /// An interactive terminal (not `-p`).
    pub interactive: bool,
    /// CLI or Agent SDK.
    pub surface: Surface,
    /// Whether this Bash command can run inside the sandbox.
    pub sandboxable: bool,
    /// Auto mode is available (matters in plan mode); `None`: true iff the mode is auto.
    pub auto_mode_available: Option<bool>,
    /// The PreToolUse hook's answer, if a hook is configured.
    pub hook: Option<Hook>,
    /// Requested absolute path → the file it resolves to.
    pub symlinks: Vec<(String, String)>,
}

impl Default for Context {
    /// The conformance file's default environment: `/home/alice/proj`, interactive CLI.
    fn default() -> Self {
        Context {
            cwd: "/home/alice/proj".into(),
            home: "/home/alice".into(),
            project_root: "/home/alice/proj".into(),
            interactive: true,
            surface: Surface::Cli,
            sandboxable: true,
            auto_mode_available: None,
            hook: None,
            symlinks: Vec::new(),
        }
    }
}

/// A tool call as the model sends it: the canonical tool name and its input object.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCall {
    /// `Bash`, `Read`, `mcp__server__tool`… (`Task` is read as `Agent`).
    pub tool: String,
    /// The input object.
    pub input: Value,
}

impl ToolCall {
    /// A call of `tool` with `input`.
    pub fn new(tool: impl Into<String>, input: Value) -> Self {
        ToolCall {
            tool: tool.into(),
            input,
        }
    }

    /// A Bash call.
    pub fn bash(command: &str) -> Self {
        ToolCall::new(
            "Bash",
            Value::Object(vec![("command".into(), Value::from(command))]),
        )
    }

    /// A call whose input is `{field: value}`.
    pub fn with_field(tool: &str, field: &str, value: &str) -> Self {
        ToolCall::new(
            tool,
            Value::Object(vec![(field.into(), Value::from(value))]),
        )
    }

    fn str_field(&self, name: &str) -> Option<&str> {
        self.input.get(name).and_then(Value::as_str)
    }
}

/// How a deny matched something other than the call's own input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Via {
    /// The call's input itself.
    Direct,
    /// The path's symlink target.
    SymlinkTarget,
    /// A file argument of `cat`/`head`/`tail`/`sed`/`tee`.
    FileCommand,
    /// A redirection target.
    RedirectTarget,
}

/// The step that decided, as data (the widget phrases it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decider {
    /// The PreToolUse hook exited with code 2.
    HookBlock,
    /// The PreToolUse hook approved where the mode would have prompted.
    HookAllow,
    /// A bare or glob deny removed the tool from the model's context.
    ToolRemoved,
    /// A deny rule matched.
    DenyRule(Via),
    /// An ask rule matched.
    AskRule,
    /// A write to a protected path.
    ProtectedPath(String),
    /// `rm`/`rmdir` on a critical path.
    CriticalPath,
    /// `AskUserQuestion` (or a tool requiring user interaction) is never auto-approved.
    RequiresUserInteraction,
    /// `EndConversation` ignores deny and ask rules while any other tool remains.
    EndConversation,
    /// A sandboxed Bash command with `autoAllowBashIfSandboxed`.
    Sandbox,
    /// `bypassPermissions` approves what reached it.
    Bypass,
    /// Allow rules (with the baseline) covered every part of the call.
    AllowRule,
    /// Built-in read-only Bash commands.
    ReadOnly,
    /// A tool that needs no permission (Agent, Glob, Grep, TodoWrite…).
    NoPermissionTool,
    /// A read inside the working directory.
    WorkingDirectory,
    /// A read or edit inside an `additionalDirectories` entry.
    AdditionalDirectory,
    /// acceptEdits approved an edit or a filesystem command in scope.
    AcceptEdits,
    /// Auto mode approved a read or a working-directory edit.
    AutoMode,
    /// Agent SDK: nothing approved the call, so the `canUseTool` callback is asked.
    Callback {
        /// What kept the call from being approved.
        why: Blocker,
    },
    /// Nothing approved the call; the mode's fallback decided. `why` says what stood in the way.
    Mode {
        /// The mode.
        mode: Mode,
        /// What kept the call from being approved.
        why: Blocker,
    },
}

/// What kept a call from being approved before the mode's fallback.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Blocker {
    /// No rule and no baseline covers it.
    NoRule,
    /// The command could not be parsed (allow rules never approve it).
    Unparseable(String),
    /// An exec wrapper: no prefix rule can approve it.
    ExecWrapper(String),
    /// `cd` into another directory combined with `git`.
    CdGit,
    /// A redirection or `tee` target that cannot be approved.
    Target(String),
    /// A path outside the working directories.
    OutsideWorkingDirectory,
    /// Plan mode never auto-approves edits or shell writes.
    PlanWrite,
    /// Not a filesystem command acceptEdits approves.
    NotFilesystemCommand,
    /// A variable assignment an allow rule cannot look past.
    UnsafeEnv(String),
}

/// One rule examined, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceStep {
    /// deny, ask or allow.
    pub group: Action,
    /// Position in [`Policy::rules`].
    pub rule: usize,
    /// The rule names the call's tool.
    pub tool_matched: bool,
    /// The specifier matched (`None` when the tool did not).
    pub spec_matched: Option<bool>,
    /// This rule decided.
    pub stop: bool,
}

/// The verdict with its explanation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Claude Code's outcome.
    pub outcome: Outcome,
    /// The deciding step.
    pub decider: Decider,
    /// The deciding rule (position in [`Policy::rules`]), if a rule decided.
    pub rule: Option<usize>,
    /// Every rule whose tool and specifier both match, per group order.
    pub matches: Vec<usize>,
    /// The rules examined, group by group.
    pub trace: Vec<TraceStep>,
    /// The verdict rests on an inferred point of the reference.
    pub inferred: bool,
}

impl Verdict {
    /// A short label in the conformance file's `matched` vocabulary, e.g.
    /// `deny:Bash(rm *)`, `mode:default`, `builtin:read-only`.
    pub fn label(&self, policy: &Policy) -> String {
        let rule = self
            .rule
            .and_then(|r| policy.rules.get(r))
            .map(|r| r.text.as_str())
            .unwrap_or("?");
        match &self.decider {
            Decider::HookBlock => "hook:exit 2".into(),
            Decider::HookAllow => "hook:allow".into(),
            Decider::ToolRemoved => format!("deny:{rule} (tool removed from context)"),
            Decider::DenyRule(Via::Direct) => format!("deny:{rule}"),
            Decider::DenyRule(Via::SymlinkTarget) => format!("deny:{rule} (symlink target)"),
            Decider::DenyRule(Via::FileCommand) => format!("deny:{rule} (recognized file command)"),
            Decider::DenyRule(Via::RedirectTarget) => format!("deny:{rule} (redirect target)"),
            Decider::AskRule if self.outcome == Outcome::Deny => {
                format!("ask:{rule} -> dontAsk denies")
            }
            Decider::AskRule => format!("ask:{rule}"),
            Decider::ProtectedPath(p) => format!("protected-path:{p}"),
            Decider::CriticalPath => "critical-path".into(),
            Decider::RequiresUserInteraction => "requires user interaction".into(),
            Decider::EndConversation => "deny ignored while other tools remain".into(),
            Decider::Sandbox => "sandbox:autoAllowBashIfSandboxed".into(),
            Decider::Bypass => "mode:bypassPermissions".into(),
            Decider::AllowRule => format!("allow:{rule}"),
            Decider::ReadOnly => "builtin:read-only".into(),
            Decider::NoPermissionTool => "builtin:no permission needed".into(),
            Decider::WorkingDirectory => "builtin:read in working directory".into(),
            Decider::AdditionalDirectory => "additionalDirectories".into(),
            Decider::AcceptEdits => "mode:acceptEdits".into(),
            Decider::AutoMode => "mode:auto".into(),
            Decider::Callback { .. } => "canUseTool callback".into(),
            Decider::Mode { mode, why } => {
                let what = match why {
                    Blocker::NoRule => "no rule matches".to_string(),
                    Blocker::Unparseable(e) => format!("unparseable: {e}"),
                    Blocker::ExecWrapper(w) => format!("exec wrapper {w}"),
                    Blocker::CdGit => "cd+git combination".into(),
                    Blocker::Target(t) => format!("redirect target {t}"),
                    Blocker::OutsideWorkingDirectory => "outside working directory".into(),
                    Blocker::PlanWrite => "plan mode never auto-approves writes".into(),
                    Blocker::NotFilesystemCommand => "not a filesystem command".into(),
                    Blocker::UnsafeEnv(v) => format!("allow does not match past {v}="),
                };
                format!("mode:{} ({what})", mode.as_str())
            }
        }
    }
}

/// Tools that need no permission (§7 "no-permission tools").
const NO_PERMISSION: [&str; 16] = [
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

/// Tools governed by Read rules.
const READ_TOOLS: [&str; 6] = ["Read", "Grep", "Glob", "LSP", "NotebookRead", "LS"];
/// Tools governed by Edit rules.
const EDIT_TOOLS: [&str; 4] = ["Edit", "Write", "MultiEdit", "NotebookEdit"];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Read,
    Edit,
    Shell,
    PowerShell,
    Other,
}

/// Everything about the call the rules look at, computed once.
struct Facts<'a> {
    call: &'a ToolCall,
    tool: String,
    kind: Kind,
    /// Read/Edit tools: the absolute path and its symlink target.
    path: Option<String>,
    target: Option<String>,
    is_dir: bool,
    /// Bash.
    source: String,
    parsed: shell::Parsed,
    /// PowerShell parts (None: unparseable).
    ps_parts: Option<Vec<String>>,
}

struct Env<'a> {
    policy: &'a Policy,
    mode: Mode,
    ctx: &'a Context,
    working_dirs: Vec<String>,
}

/// Evaluates one call under `policy` in `mode`.
pub fn evaluate(policy: &Policy, mode: Mode, ctx: &Context, call: &ToolCall) -> Verdict {
    let env = Env {
        policy,
        mode,
        ctx,
        working_dirs: working_dirs(policy, ctx),
    };
    let facts = Facts::new(call, ctx);
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
    if facts.tool == "EndConversation" {
        // Inferred: a deny of every tool (`*`) leaves no other tool, so the deny applies.
        let everything_denied = policy.group(Action::Deny).any(
            |(_, r)| matches!(&r.rule.tool, ToolSelector::Glob(g) if g.chars().all(|c| c == '*')),
        );
        if !everything_denied {
            return v.decide(Outcome::Allow, Decider::EndConversation);
        }
        v.inferred = true;
    }

    v.matches = env.all_matches(&facts);
    let sandboxed = env.sandboxed(&facts);
    let auto_allow_sandbox = sandboxed.is_some()
        && policy.auto_allow_bash_if_sandboxed
        && mode != Mode::Plan
        && facts.kind == Kind::Shell;

    // 2–3. Deny group: a bare/glob deny removes the tool; any other match blocks.
    let denies = env.scan(&facts, Action::Deny, &mut v, false);
    if let Some((i, via, bare)) = denies {
        v.rule = Some(i);
        return if bare {
            v.decide(Outcome::Unavailable, Decider::ToolRemoved)
        } else {
            v.decide(Outcome::Deny, Decider::DenyRule(via))
        };
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
    if facts.tool == "AskUserQuestion" {
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
        // classifier.
        Mode::Plan if env.auto_available() => Outcome::Classifier,
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
        Facts {
            call,
            tool,
            kind,
            path,
            target,
            is_dir,
            source,
            parsed,
            ps_parts,
        }
    }

    fn subs(&self) -> Vec<Sub<'_>> {
        self.parsed
            .commands
            .iter()
            .map(|c| bash::analyse(&self.source, c))
            .collect()
    }
}

fn working_dirs(policy: &Policy, ctx: &Context) -> Vec<String> {
    let mut dirs = vec![path::normalize(&ctx.cwd)];
    for d in &policy.additional_directories {
        dirs.push(path::resolve(d, &ctx.cwd, &ctx.home));
    }
    dirs
}

/// Records the allow group's steps: the rules that hit, and the deciding one.
type TraceAllow<'a> = dyn FnMut(&mut Verdict, &[usize], Option<usize>) + 'a;

/// A path-rule target inside a Bash command.
struct Target {
    abs: Option<String>,
    write: bool,
    redirect: bool,
    raw: String,
}

impl Env<'_> {
    fn auto_available(&self) -> bool {
        self.ctx
            .auto_mode_available
            .unwrap_or(self.mode == Mode::Auto)
    }

    fn source_dir(&self, scope: Scope) -> String {
        match scope {
            Scope::User => path::normalize(&format!("{}/.claude", self.ctx.home)),
            _ => path::normalize(&self.ctx.project_root),
        }
    }

    fn anchor_dir(&self, anchor: Anchor, scope: Scope) -> String {
        match anchor {
            Anchor::Root => "/".into(),
            Anchor::Home => path::normalize(&self.ctx.home),
            Anchor::Source => self.source_dir(scope),
            Anchor::Cwd => path::normalize(&self.ctx.cwd),
        }
    }

    fn path_match(
        &self,
        r: &PolicyRule,
        p: &PathPattern,
        abs: &str,
        is_dir: bool,
    ) -> Option<PathMatch> {
        let base = self.anchor_dir(p.anchor, r.scope);
        let rel = path::relative_to(abs, &base)?;
        p.matches_relative(rel, is_dir)
    }

    /// Whether rule `i` (a path rule of `group`) matches `abs`, honouring later `!` carve-outs
    /// of the same source and group.
    fn path_rule_matches(&self, i: usize, abs: &str, is_dir: bool) -> bool {
        let r = &self.policy.rules[i];
        let Specifier::Path(p) = &r.rule.spec else {
            return false;
        };
        if p.negated {
            return false;
        }
        let Some(how) = self.path_match(r, p, abs, is_dir) else {
            return false;
        };
        if how == PathMatch::Ancestor || p.anchor != Anchor::Cwd {
            // A wholly blocked directory cannot be reopened; negation only carves out of
            // relative rules.
            return true;
        }
        let carved = self.policy.rules[i + 1..].iter().any(|n| {
            n.group == r.group
                && n.scope == r.scope
                && n.rule.tool == r.rule.tool
                && matches!(&n.rule.spec, Specifier::Path(np) if np.negated
                    && self.path_match(n, np, abs, is_dir).is_some())
        });
        !carved
    }

    fn targets(&self, facts: &Facts<'_>) -> Vec<Target> {
        let mut out = Vec::new();
        for sub in facts.subs() {
            for t in bash::file_targets(&sub) {
                let abs = (!t.unresolvable)
                    .then(|| path::resolve(&t.path, &self.ctx.cwd, &self.ctx.home));
                out.push(Target {
                    abs,
                    write: t.write,
                    redirect: t.redirect,
                    raw: t.path,
                });
            }
        }
        out
    }

    /// Every rule whose tool and specifier match the call (whether or not its group got to
    /// decide), in merged order.
    fn all_matches(&self, facts: &Facts<'_>) -> Vec<usize> {
        self.policy
            .rules
            .iter()
            .enumerate()
            .filter(|(i, r)| {
                self.rule_names_tool(r, facts, r.group)
                    && (r.rule.is_bare() || self.spec_matches(*i, r, facts, r.group).is_some())
            })
            .map(|(i, _)| i)
            .collect()
    }

    /// Scans one group; returns the deciding rule, how it matched, and whether it is bare.
    fn scan(
        &self,
        facts: &Facts<'_>,
        group: Action,
        v: &mut Verdict,
        skip_bare_bash_ask: bool,
    ) -> Option<(usize, Via, bool)> {
        let mut found: Vec<(usize, Via, bool)> = Vec::new();
        let mut steps = Vec::new();
        for (i, r) in self.policy.group(group) {
            let tool_matched = self.rule_names_tool(r, facts, group);
            let hit = if tool_matched {
                if r.rule.is_bare() {
                    if skip_bare_bash_ask {
                        None
                    } else {
                        Some(Via::Direct)
                    }
                } else {
                    self.spec_matches(i, r, facts, group)
                }
            } else {
                None
            };
            if let Some(via) = hit {
                found.push((i, via, r.rule.is_bare()));
            }
            steps.push(TraceStep {
                group,
                rule: i,
                tool_matched,
                spec_matched: tool_matched.then_some(hit.is_some()),
                stop: false,
            });
        }
        // A bare deny removes the tool before content rules are looked at.
        let decisive = if group == Action::Deny {
            found.iter().find(|f| f.2).or(found.first()).copied()
        } else {
            found.first().copied()
        };
        if let Some((i, _, _)) = decisive {
            if let Some(k) = steps.iter().position(|s| s.rule == i) {
                steps.truncate(k + 1);
                steps[k].stop = true;
            }
        }
        v.trace.extend(steps);
        decisive
    }

    /// Whether the rule's tool part names the call's tool (path rules reach their family).
    fn rule_names_tool(&self, r: &PolicyRule, facts: &Facts<'_>, group: Action) -> bool {
        if r.rule.tool.names(&facts.tool) {
            return true;
        }
        let ToolSelector::Exact(name) = &r.rule.tool else {
            return false;
        };
        let Specifier::Path(_) = r.rule.spec else {
            return false;
        };
        match (name.as_str(), facts.kind) {
            ("Read", Kind::Read) | ("Edit", Kind::Edit) => true,
            // A Read deny also blocks Edit and Write.
            ("Read", Kind::Edit) => group == Action::Deny,
            // An Edit allow also grants Read.
            ("Edit", Kind::Read) => group == Action::Allow,
            // Read/Edit denies (and asks) reach Bash file commands and redirect targets.
            ("Read" | "Edit", Kind::Shell) => group != Action::Allow,
            _ => false,
        }
    }

    /// Whether a non-bare rule's specifier matches (deny and ask semantics: any part).
    fn spec_matches(
        &self,
        i: usize,
        r: &PolicyRule,
        facts: &Facts<'_>,
        group: Action,
    ) -> Option<Via> {
        match &r.rule.spec {
            Specifier::Bare => Some(Via::Direct),
            Specifier::Param { name, value } => {
                let field = facts.call.input.get(name)?;
                let text = match field {
                    Value::String(s) => s.clone(),
                    Value::Bool(b) => b.to_string(),
                    Value::Number(n) => n.text.clone(),
                    _ => return None,
                };
                bash::wildcard(value, &text).then_some(Via::Direct)
            }
            Specifier::Command(p) => match facts.kind {
                Kind::Shell => {
                    let subs = facts.subs();
                    let hit = subs
                        .iter()
                        .any(|s| p.matches(&s.stripped) || p.matches(&s.unstripped));
                    // Unparseable: fail closed, the whole text counts too.
                    (hit || (facts.parsed.error.is_some() && p.matches(facts.source.trim())))
                        .then_some(Via::Direct)
                }
                Kind::PowerShell => {
                    let parts = facts
                        .ps_parts
                        .clone()
                        .unwrap_or_else(|| vec![facts.source.clone()]);
                    parts.iter().any(|t| p.matches(t)).then_some(Via::Direct)
                }
                _ => facts
                    .call
                    .str_field("command")
                    .filter(|c| p.matches(c))
                    .map(|_| Via::Direct),
            },
            Specifier::Path(_) => {
                if facts.kind == Kind::Shell {
                    let ToolSelector::Exact(name) = &r.rule.tool else {
                        return None;
                    };
                    for t in self.targets(facts) {
                        let applies = match (name.as_str(), group) {
                            ("Read", Action::Deny) => true,
                            ("Read", _) => !t.write,
                            _ => t.write,
                        };
                        if !applies {
                            continue;
                        }
                        if let Some(abs) = &t.abs {
                            if self.path_rule_matches(i, abs, false) {
                                return Some(if t.redirect {
                                    Via::RedirectTarget
                                } else {
                                    Via::FileCommand
                                });
                            }
                        }
                    }
                    return None;
                }
                let abs = facts.path.as_deref()?;
                if self.path_rule_matches(i, abs, facts.is_dir) {
                    return Some(Via::Direct);
                }
                // Deny and ask apply if either the link or its target matches.
                let t = facts.target.as_deref()?;
                self.path_rule_matches(i, t, facts.is_dir)
                    .then_some(Via::SymlinkTarget)
            }
            Specifier::Domain(d) => {
                let host = host_of(facts.call.str_field("url")?)?;
                domain_matches(d, &host).then_some(Via::Direct)
            }
            Specifier::AgentType(t) => {
                let ty = facts.call.str_field("subagent_type")?;
                bash::wildcard(t, ty).then_some(Via::Direct)
            }
            Specifier::Skill(p) => {
                let (name, text) = skill_text(facts)?;
                let hit = p.matches(&text)
                    || (group != Action::Allow && {
                        // A deny/ask also catches qualified names (`plugin:name`).
                        let short = name.rsplit(':').next().unwrap_or(&name);
                        let args = facts.call.str_field("args").unwrap_or("");
                        let t = if args.is_empty() {
                            short.to_string()
                        } else {
                            format!("{short} {args}")
                        };
                        p.matches(&t)
                    });
                hit.then_some(Via::Direct)
            }
        }
    }

    /// `Some(strict)` when the Bash call runs sandboxed; `strict` = the escape hatch was
    /// ignored because `allowUnsandboxedCommands` is false (inferred).
    fn sandboxed(&self, facts: &Facts<'_>) -> Option<bool> {
        if facts.kind != Kind::Shell || !self.policy.sandbox_enabled || !self.ctx.sandboxable {
            return None;
        }
        let excluded = facts.subs().iter().any(|s| {
            self.policy
                .excluded_commands
                .iter()
                .any(|e| CommandPattern::new(e, false).matches(&s.stripped))
        });
        if excluded {
            return None;
        }
        let escape = facts.call.input.get("dangerouslyDisableSandbox") == Some(&Value::Bool(true));
        match (escape, self.policy.allow_unsandboxed_commands) {
            (true, true) => None,
            (true, false) => Some(true),
            _ => Some(false),
        }
    }

    fn in_working_dir(&self, abs: &str) -> Option<Decider> {
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

    /// `rm`/`rmdir` on a critical path anywhere in the command (§7).
    fn critical_rm(&self, facts: &Facts<'_>) -> bool {
        self.critical_in(&facts.source, &facts.parsed, 0)
    }

    fn critical_in(&self, source: &str, parsed: &shell::Parsed, depth: usize) -> bool {
        for c in &parsed.commands {
            let sub = bash::analyse(source, c);
            let argv = sub.argv();
            match argv.first() {
                Some(&"rm") | Some(&"rmdir") => {
                    for w in &sub.words()[1..] {
                        if w.value.starts_with('-') && !w.value.contains('/') {
                            continue;
                        }
                        if self.critical_target(&w.value, w.expansion) {
                            return true;
                        }
                    }
                }
                Some(&("bash" | "sh" | "zsh")) if depth < 2 => {
                    if let Some(k) = argv.iter().position(|a| *a == "-c") {
                        if let Some(script) = argv.get(k + 1) {
                            let inner = shell::parse(script);
                            if self.critical_in(script, &inner, depth + 1) {
                                return true;
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        false
    }

    fn critical_target(&self, arg: &str, expansion: bool) -> bool {
        if expansion || arg.contains('$') {
            // `"$VAR"/*`, `$(pwd)`: the target is not known before running.
            return true;
        }
        let trimmed = arg.strip_suffix("/*").unwrap_or(arg);
        let trimmed = if trimmed.is_empty() && arg.starts_with('/') {
            "/"
        } else {
            trimmed
        };
        let trimmed = if trimmed.is_empty() { "." } else { trimmed };
        let abs = path::resolve(trimmed, &self.ctx.cwd, &self.ctx.home);
        let home = path::normalize(&self.ctx.home);
        let cwd = path::normalize(&self.ctx.cwd);
        let depth = abs.split('/').filter(|s| !s.is_empty()).count();
        if depth <= 1 || abs == home || path::relative_to(&cwd, &abs).is_some() {
            return true;
        }
        // Globs directly under an additional directory.
        arg.ends_with('*')
            && self.working_dirs[1..]
                .iter()
                .any(|d| path::relative_to(&abs, d) == Some(""))
    }

    /// The protected path an edit (or a Bash write) touches.
    fn protected_write(&self, facts: &Facts<'_>) -> Option<String> {
        match facts.kind {
            Kind::Edit => facts.path.as_deref().and_then(path::protected),
            Kind::Shell => {
                for t in self.targets(facts) {
                    if t.write {
                        if let Some(p) = t.abs.as_deref().and_then(path::protected) {
                            return Some(p);
                        }
                    }
                }
                for sub in facts.subs() {
                    if let Some(paths) = bash::accept_edits_paths(&sub) {
                        if sub.program() == Some("sed")
                            && !sub.argv().iter().any(|a| a.starts_with("-i"))
                        {
                            continue;
                        }
                        for w in paths {
                            let abs = path::resolve(&w.value, &self.ctx.cwd, &self.ctx.home);
                            if let Some(p) = path::protected(&abs) {
                                return Some(p);
                            }
                        }
                    }
                }
                None
            }
            _ => None,
        }
    }

    /// Allow rules the current mode keeps (auto mode drops broad ones on entry).
    fn allow_rules(&self) -> Vec<(usize, &PolicyRule)> {
        self.policy
            .group(Action::Allow)
            .filter(|(_, r)| self.mode != Mode::Auto || !dropped_in_auto(r))
            .collect()
    }

    /// Steps 7–8: allow rules and the baseline. `Ok` = approved.
    fn approve(
        &self,
        facts: &Facts<'_>,
        v: &mut Verdict,
    ) -> Result<(Decider, Option<usize>), Blocker> {
        let allows = self.allow_rules();
        // Bare allows (and tool-name globs) cover the whole tool.
        let bare = allows
            .iter()
            .find(|(_, r)| r.rule.is_bare() && r.rule.tool.names(&facts.tool))
            .map(|(i, _)| *i);
        let plan_edit = self.mode == Mode::Plan && facts.kind == Kind::Edit;
        let mut trace_allow = |v: &mut Verdict, hits: &[usize], stop: Option<usize>| {
            for (i, r) in &allows {
                let tool_matched =
                    r.rule.tool.names(&facts.tool) || self.rule_names_tool(r, facts, Action::Allow);
                let hit = hits.contains(i);
                v.trace.push(TraceStep {
                    group: Action::Allow,
                    rule: *i,
                    tool_matched,
                    spec_matched: tool_matched.then_some(hit),
                    stop: Some(*i) == stop,
                });
                if Some(*i) == stop {
                    break;
                }
            }
        };
        match facts.kind {
            Kind::Shell => self.approve_bash(facts, v, &allows, bare, &mut trace_allow),
            Kind::PowerShell => {
                let parts = facts.ps_parts.clone();
                let mut hits = Vec::new();
                let mut first = None;
                let covered = match (&parts, bare) {
                    (_, Some(b)) => {
                        hits.push(b);
                        first = Some(b);
                        true
                    }
                    (None, None) => false,
                    (Some(parts), None) => parts.iter().all(|t| {
                        let r = allows.iter().find(|(_, r)| {
                            r.rule.tool.names("PowerShell")
                                && matches!(&r.rule.spec, Specifier::Command(p) if p.matches(t))
                        });
                        if let Some((i, _)) = r {
                            if !hits.contains(i) {
                                hits.push(*i);
                            }
                            first = first.or(Some(*i));
                        }
                        r.is_some()
                    }),
                };
                trace_allow(v, &hits, if covered { first } else { None });
                if covered {
                    Ok((Decider::AllowRule, first))
                } else if parts.is_none() {
                    Err(Blocker::Unparseable(
                        "PowerShell command cannot be split".into(),
                    ))
                } else {
                    Err(Blocker::NoRule)
                }
            }
            Kind::Read | Kind::Edit => {
                let Some(abs) = facts.path.clone() else {
                    trace_allow(v, &bare.into_iter().collect::<Vec<_>>(), bare);
                    return match bare {
                        Some(b) if !plan_edit => Ok((Decider::AllowRule, Some(b))),
                        _ => Err(Blocker::NoRule),
                    };
                };
                let mut hits: Vec<usize> = Vec::new();
                for (i, r) in &allows {
                    let hit = if r.rule.is_bare() {
                        r.rule.tool.names(&facts.tool)
                    } else if self.rule_names_tool(r, facts, Action::Allow)
                        && matches!(r.rule.spec, Specifier::Path(_))
                    {
                        // An allow needs both the link and its target to match.
                        self.path_rule_matches(*i, &abs, facts.is_dir)
                            && facts
                                .target
                                .as_deref()
                                .is_none_or(|t| self.path_rule_matches(*i, t, facts.is_dir))
                    } else {
                        false
                    };
                    if hit {
                        hits.push(*i);
                    }
                }
                if plan_edit {
                    trace_allow(v, &hits, None);
                    return Err(Blocker::PlanWrite);
                }
                let first = hits.first().copied();
                trace_allow(v, &hits, first);
                if let Some(i) = first {
                    return Ok((Decider::AllowRule, Some(i)));
                }
                let inside = self.in_working_dir(&abs).filter(|_| {
                    facts
                        .target
                        .as_deref()
                        .is_none_or(|t| self.in_working_dir(t).is_some())
                });
                match (facts.kind, inside) {
                    (Kind::Read, Some(d)) => Ok((d, None)),
                    (Kind::Edit, Some(_)) if self.mode == Mode::AcceptEdits => {
                        Ok((Decider::AcceptEdits, None))
                    }
                    (Kind::Edit, Some(_)) if self.mode == Mode::Auto => {
                        Ok((Decider::AutoMode, None))
                    }
                    (_, None) => Err(Blocker::OutsideWorkingDirectory),
                    _ => Err(Blocker::NoRule),
                }
            }
            Kind::Other => {
                let mut hits = Vec::new();
                for (i, r) in &allows {
                    let hit = r.rule.tool.names(&facts.tool)
                        && (r.rule.is_bare()
                            || self.spec_matches(*i, r, facts, Action::Allow).is_some());
                    if hit {
                        hits.push(*i);
                    }
                }
                let first = hits.first().copied();
                trace_allow(v, &hits, first);
                if let Some(i) = first {
                    return Ok((Decider::AllowRule, Some(i)));
                }
                if NO_PERMISSION.contains(&facts.tool.as_str()) {
                    return Ok((Decider::NoPermissionTool, None));
                }
                if facts.tool == "Skill" && facts.call.str_field("args").is_none_or(str::is_empty) {
                    // `Skill(name *)` vs a bare call: the trailing-` *` rule applies (inferred).
                    v.inferred = true;
                }
                Err(Blocker::NoRule)
            }
        }
    }

    fn approve_bash(
        &self,
        facts: &Facts<'_>,
        v: &mut Verdict,
        allows: &[(usize, &PolicyRule)],
        bare: Option<usize>,
        trace_allow: &mut TraceAllow<'_>,
    ) -> Result<(Decider, Option<usize>), Blocker> {
        if let Some(b) = bare {
            if self.mode != Mode::Plan || !self.shell_writes(facts) {
                trace_allow(v, &[b], Some(b));
                return Ok((Decider::AllowRule, Some(b)));
            }
        }
        if let Some(e) = &facts.parsed.error {
            trace_allow(v, &[], None);
            return Err(Blocker::Unparseable(e.clone()));
        }
        let subs = facts.subs();
        let mut hits: Vec<usize> = Vec::new();
        let mut first_rule: Option<usize> = None;
        let mut blocker: Option<Blocker> = None;
        let mut used_baseline = Decider::ReadOnly;
        let changes_dir = subs.iter().any(|s| {
            s.program() == Some("cd")
                && s.argv().get(1).is_none_or(|d| {
                    path::resolve(d, &self.ctx.cwd, &self.ctx.home)
                        != path::normalize(&self.ctx.cwd)
                })
        });
        for s in &subs {
            if s.argv().is_empty() {
                // A bare assignment or redirection: only its targets matter.
                if let Err(why) = bash::read_only(s) {
                    blocker.get_or_insert(match why {
                        bash::NotReadOnly::SpecialVariable(n) => Blocker::UnsafeEnv(n),
                        _ => Blocker::NoRule,
                    });
                }
                continue;
            }
            let exec = bash::exec_wrapper(s);
            let rule = if exec.is_none() && s.env_safe_for_allow {
                allows.iter().find(|(_, r)| {
                    r.rule.tool.names("Bash")
                        && matches!(&r.rule.spec, Specifier::Command(p) if p.matches(&s.stripped))
                })
            } else {
                None
            };
            if let Some((i, _)) = rule {
                if !hits.contains(i) {
                    hits.push(*i);
                }
                first_rule = first_rule.or(Some(*i));
                if s.env_inferred {
                    v.inferred = true;
                }
                continue;
            }
            match bash::read_only(s) {
                Ok(inferred_git) => {
                    if s.program() == Some("cd") {
                        let target = s
                            .argv()
                            .get(1)
                            .map(|d| path::resolve(d, &self.ctx.cwd, &self.ctx.home));
                        if target
                            .as_deref()
                            .and_then(|t| self.in_working_dir(t))
                            .is_none()
                        {
                            blocker.get_or_insert(Blocker::OutsideWorkingDirectory);
                        }
                        continue;
                    }
                    if s.program() == Some("git") && changes_dir {
                        blocker.get_or_insert(Blocker::CdGit);
                        continue;
                    }
                    if inferred_git {
                        v.inferred = true;
                    }
                    continue;
                }
                Err(bash::NotReadOnly::ExecWrapper(w)) => {
                    blocker.get_or_insert(Blocker::ExecWrapper(w));
                    continue;
                }
                Err(bash::NotReadOnly::SpecialVariable(n)) => {
                    blocker.get_or_insert(Blocker::UnsafeEnv(n));
                    continue;
                }
                Err(_) => {}
            }
            if matches!(self.mode, Mode::AcceptEdits) {
                if let Some(paths) = bash::accept_edits_paths(s) {
                    let in_scope = paths.iter().all(|w| {
                        !w.expansion
                            && !w.value.starts_with('~')
                            && self
                                .in_working_dir(&path::resolve(
                                    &w.value,
                                    &self.ctx.cwd,
                                    &self.ctx.home,
                                ))
                                .is_some()
                    });
                    if in_scope && !paths.is_empty() && s.env_safe_for_allow {
                        used_baseline = Decider::AcceptEdits;
                        continue;
                    }
                    blocker.get_or_insert(Blocker::OutsideWorkingDirectory);
                    continue;
                }
                blocker.get_or_insert(Blocker::NotFilesystemCommand);
                continue;
            }
            if !s.env_safe_for_allow {
                let v = s
                    .env
                    .iter()
                    .find(|n| !bash::SAFE_ENV.contains(&n.as_str()))
                    .cloned()
                    .unwrap_or_default();
                blocker.get_or_insert(Blocker::UnsafeEnv(v));
            } else {
                blocker.get_or_insert(Blocker::NoRule);
            }
            if s.cmd.nested {
                // §10.2: nested commands need their own approval (inferred).
                v.inferred = true;
            }
        }
        if blocker.is_none() {
            blocker = self.target_blocker(facts);
        }
        if blocker.is_none() && self.mode == Mode::Plan && self.shell_writes(facts) {
            v.inferred = true;
            blocker = Some(Blocker::PlanWrite);
        }
        match blocker {
            None => {
                trace_allow(v, &hits, first_rule);
                match first_rule {
                    Some(i) => Ok((Decider::AllowRule, Some(i))),
                    None => Ok((used_baseline, None)),
                }
            }
            Some(b) => {
                trace_allow(v, &hits, None);
                Err(b)
            }
        }
    }

    /// A redirection or `tee` target no rule or mode approves (§2.6).
    fn target_blocker(&self, facts: &Facts<'_>) -> Option<Blocker> {
        for t in self.targets(facts) {
            if !t.redirect && !t.write {
                continue; // `cat f`: only deny rules look at it.
            }
            let Some(abs) = t.abs.as_deref() else {
                return Some(Blocker::Target(format!("{} cannot be resolved", t.raw)));
            };
            let group_rules = self.allow_rules();
            let allowed = group_rules.iter().any(|(i, r)| {
                let ToolSelector::Exact(name) = &r.rule.tool else {
                    return false;
                };
                let fits = if t.write {
                    name == "Edit"
                } else {
                    name == "Read" || name == "Edit"
                };
                fits && matches!(r.rule.spec, Specifier::Path(_))
                    && self.path_rule_matches(*i, abs, false)
            });
            if allowed {
                continue;
            }
            let inside = self.in_working_dir(abs).is_some();
            let ok = if t.write {
                inside && matches!(self.mode, Mode::AcceptEdits | Mode::Auto)
            } else {
                inside
            };
            if !ok {
                return Some(Blocker::Target(t.raw.clone()));
            }
        }
        None
    }

    /// Whether the command writes files (acceptEdits commands, write targets).
    fn shell_writes(&self, facts: &Facts<'_>) -> bool {
        facts
            .subs()
            .iter()
            .any(|s| bash::accept_edits_paths(s).is_some())
            || self.targets(facts).iter().any(|t| t.write)
    }
}

/// Broad allow rules auto mode drops on entry (§5 step 7).
fn dropped_in_auto(r: &PolicyRule) -> bool {
    let ToolSelector::Exact(name) = &r.rule.tool else {
        return false;
    };
    match (name.as_str(), &r.rule.spec) {
        ("Bash" | "PowerShell", Specifier::Bare) => true,
        ("Agent" | "Monitor", _) => true,
        ("Bash", Specifier::Command(p)) => {
            const INTERPRETERS: [&str; 12] = [
                "python", "python3", "node", "ruby", "perl", "bash", "sh", "zsh", "deno", "bun",
                "php", "lua",
            ];
            const RUNNERS: [&str; 8] = [
                "npm run",
                "pnpm run",
                "yarn run",
                "bun run",
                "npx",
                "uv run",
                "pnpm exec",
                "yarn",
            ];
            let text = p.as_str();
            let head = text.trim_end_matches('*').trim_end();
            INTERPRETERS
                .iter()
                .any(|i| head == *i || (text.starts_with(i) && text[i.len()..].starts_with('*')))
                || RUNNERS.iter().any(|r| text == format!("{r} *"))
        }
        _ => false,
    }
}

fn skill_text(facts: &Facts<'_>) -> Option<(String, String)> {
    let name = facts
        .call
        .str_field("skill")?
        .trim_start_matches('/')
        .to_string();
    let args = facts.call.str_field("args").unwrap_or("");
    let text = if args.is_empty() {
        name.clone()
    } else {
        format!("{name} {args}")
    };
    Some((name, text))
}

/// The host of a URL, lower-cased, without a trailing `.`.
fn host_of(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit('@').next()?;
    let host = if host.starts_with('[') {
        host.split(']').next().map(|h| format!("{h}]"))?
    } else {
        host.split(':').next()?.to_string()
    };
    let host = host.trim_end_matches('.').to_lowercase();
    (!host.is_empty()).then_some(host)
}

/// `domain:` matching (§4): `*` every host; a leading `*.` any depth of subdomains (not the
/// apex); an inner `*` exactly one label.
///
/// ```
/// # use permlab_core::claude_code::eval::domain_matches;
/// assert!(domain_matches("*.example.com", "a.b.example.com"));
/// assert!(!domain_matches("*.example.com", "example.com"));
/// assert!(domain_matches("example.*", "example.org"));
/// assert!(!domain_matches("example.*", "example.co.uk"));
/// assert!(domain_matches("Example.COM.", "example.com"));
/// ```
pub fn domain_matches(pattern: &str, host: &str) -> bool {
    let pattern = pattern.trim_end_matches('.').to_lowercase();
    let host = host.trim_end_matches('.').to_lowercase();
    if pattern == "*" {
        return true;
    }
    let p: Vec<&str> = pattern.split('.').collect();
    let h: Vec<&str> = host.split('.').collect();
    if p.len() > 1 && p[0] == "*" {
        let rest = &p[1..];
        if h.len() <= rest.len() {
            return false;
        }
        let tail = &h[h.len() - rest.len()..];
        return rest.iter().zip(tail).all(|(a, b)| bash::wildcard(a, b));
    }
    p.len() == h.len() && p.iter().zip(&h).all(|(a, b)| bash::wildcard(a, b))
}
