//! One call stepped through Claude Code's decision flow, stage by stage, for a lesson to show
//! (seed 001, "权限规则与审批模式").
//!
//! The seed draws the flow in the Agent SDK's published order (`claude-code.md` §6):
//! **hooks → deny → ask → mode → allow → ask callback**, and then the sandbox around what runs.
//! [`flow`] is a *presentation* of [`evaluate`]: it runs the one evaluator and lays its
//! [`Verdict`] out over those stages. It never decides anything itself, so the flow's outcome
//! is the evaluator's outcome by construction (a test holds every conformance case to it).
//!
//! Where each of the evaluator's deciders sits ([`StageKind::of`]):
//!
//! | Stage | Decides with |
//! |---|---|
//! | `hooks` | a PreToolUse hook that exits with code 2 (deny) |
//! | `deny` | a deny rule (deny), a bare deny that removes the tool (unavailable); `EndConversation` ignoring deny and ask rules (allow) |
//! | `ask` | an ask rule (ask; deny in dontAsk) |
//! | `mode` | checks no allow rule overrides (protected path, critical-path `rm`, tools requiring user interaction), sandbox auto-allow, `bypassPermissions`, acceptEdits' and auto's own approvals |
//! | `allow` | allow rules, with the built-in baseline (read-only commands, reads in working directories, tools needing no permission) |
//! | `callback` | nothing approved the call: the prompt (CLI) or `canUseTool` (SDK); dontAsk denies, auto hands over to its classifier; a hook's "allow" stands in for the prompt |
//! | `sandbox` | never decides: whether the command runs inside the sandbox and what that bounds |
//!
//! Two consequences of presenting the evaluator as it is:
//!
//! - The evaluator checks sandbox auto-allow *before* allow rules (the reference's §5 lists it
//!   with the mode baseline after them; the outcome is `allow` either way). The seed's settings
//!   turn the sandbox on without writing `autoAllowBashIfSandboxed: true`, and CLI 2.1.332
//!   (recorded) then auto-allows nothing: `npm run test -- auth` is decided at the `allow`
//!   stage by `Bash(npm run test *)`, as the seed's table says. With the key written out it is
//!   decided at the `mode` stage by the sandbox, and the allow rule shows up in
//!   [`Flow::matches`].
//! - acceptEdits' approvals are found together with allow rules in the evaluator; the flow
//!   shows them at the `mode` stage, as the seed and the SDK order do.
//!
//! ## The sandbox stage
//!
//! The reference says what the sandbox does to the *verdict* (§8: a sandboxed Bash command is
//! auto-allowed in every mode but plan; deny rules, content-scoped ask rules and critical-path
//! `rm` still apply) and that Read/Edit denies and WebFetch rules feed the OS-level boundary,
//! "the documented fix for the §2.4 bypasses". It does not model the network boundary ("hosts
//! not allowed … not modelled"). So the stage stays minimal: whether the command runs
//! sandboxed, the settings' `sandbox.network.allowedDomains`, the Read/Edit deny rules the OS
//! enforces, and — **inferred** — the hosts the command names in `http(s)://` URLs, each
//! marked allowed or not. The seed's account of a host outside the list: "访问未放行的域名时再询问"
//! (the user is asked when the command reaches it); without that approval the connection
//! fails. A command can reach hosts its text does not name; the list is only what the text
//! shows.
//!
//! ## "Rules are not a security boundary"
//!
//! [`NOT_A_BOUNDARY`] holds the seed's examples. The docs (§2.4) say `Bash(curl *)` denies
//! `curl https://…` but misses `/usr/bin/curl https://…` and `sh -c 'curl https://…'`. CLI
//! 2.1.332, recorded, denies `/usr/bin/curl …` too (it matches the command's name without its
//! path): that is the lesson's doc-drift example, [`boundary_drift`] gives both answers.
//! `sh -c '…'` does get past ([`GETS_PAST_CURL_DENY`]: every recorded way past). With the
//! seed's settings (acceptEdits, sandbox `enabled` without `autoAllowBashIfSandboxed`) it
//! asks; with `autoAllowBashIfSandboxed: true` it runs, auto-allowed, inside the sandbox,
//! where `example.com` is not an allowed domain; in `bypassPermissions` without the sandbox
//! it runs with nothing around it.
//!
//! ```
//! use permlab_core::claude_code::flow::{flow, seed_001, StageKind, StageStatus};
//! use permlab_core::claude_code::{Mode, Outcome, ToolCall};
//! let seed = seed_001().unwrap();
//! let f = flow(&seed.settings, Mode::AcceptEdits, true, &ToolCall::bash("git push --force origin main"));
//! assert_eq!(f.outcome, Outcome::Deny);
//! assert_eq!(f.decided_by, StageKind::Deny);
//! assert_eq!(f.stage(StageKind::Deny).rule.as_deref(), Some("Bash(git push --force *)"));
//! assert_eq!(f.stage(StageKind::Ask).status, StageStatus::NotReached);
//! ```

use super::eval::{self, evaluate, Context, Decider, Hook, ToolCall, Verdict};
use super::mode::{Mode, Outcome};
use super::settings::{Policy, Scope, SettingsFile};
use crate::error::Error;
use crate::json::{self, Value};
use crate::table::Action;

/// A stage of the flow, in the seed's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StageKind {
    /// PreToolUse hooks run before any rule.
    Hooks,
    /// Deny rules: checked first, in every mode.
    Deny,
    /// Ask rules: a match prompts in every mode (dontAsk: deny).
    Ask,
    /// The permission mode (and what no allow rule overrides).
    Mode,
    /// Allow rules and the built-in baseline.
    Allow,
    /// Nothing approved the call: the prompt / `canUseTool` callback.
    Callback,
    /// What contains the command while it runs.
    Sandbox,
}

impl StageKind {
    /// Every stage, in order.
    pub const ORDER: [StageKind; 7] = [
        StageKind::Hooks,
        StageKind::Deny,
        StageKind::Ask,
        StageKind::Mode,
        StageKind::Allow,
        StageKind::Callback,
        StageKind::Sandbox,
    ];

    /// `hooks`, `deny`, `ask`, `mode`, `allow`, `callback`, `sandbox`.
    pub fn slug(self) -> &'static str {
        match self {
            StageKind::Hooks => "hooks",
            StageKind::Deny => "deny",
            StageKind::Ask => "ask",
            StageKind::Mode => "mode",
            StageKind::Allow => "allow",
            StageKind::Callback => "callback",
            StageKind::Sandbox => "sandbox",
        }
    }

    /// The stage where the evaluator's `decider` sits (see the module's table).
    pub fn of(decider: &Decider) -> StageKind {
        match decider {
            Decider::HookBlock => StageKind::Hooks,
            Decider::ToolRemoved | Decider::DenyRule(_) | Decider::EndConversation => {
                StageKind::Deny
            }
            Decider::AskRule => StageKind::Ask,
            Decider::ProtectedPath(_)
            | Decider::CriticalPath
            | Decider::RequiresUserInteraction
            | Decider::Sandbox
            | Decider::Bypass
            | Decider::AcceptEdits
            | Decider::AutoMode => StageKind::Mode,
            Decider::AllowRule
            | Decider::ReadOnly
            | Decider::NoPermissionTool
            | Decider::WorkingDirectory
            | Decider::AdditionalDirectory => StageKind::Allow,
            Decider::HookAllow | Decider::Callback { .. } | Decider::Mode { .. } => {
                StageKind::Callback
            }
        }
    }
}

/// What a stage did with the call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StageStatus {
    /// Looked at the call and let it through to the next stage.
    Pass,
    /// Decided the call.
    Decided(Outcome),
    /// An earlier stage decided; this one never saw the call.
    NotReached,
}

impl StageStatus {
    /// `pass`, `decided`, `not-reached`.
    pub fn slug(self) -> &'static str {
        match self {
            StageStatus::Pass => "pass",
            StageStatus::Decided(_) => "decided",
            StageStatus::NotReached => "not-reached",
        }
    }
}

/// One rule a rule stage looked at (from the evaluator's trace).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleCheck {
    /// Position in [`Policy::rules`].
    pub rule: usize,
    /// The rule as written, e.g. `Bash(git push *)`.
    pub text: String,
    /// The rule names the call's tool.
    pub tool_matched: bool,
    /// Its specifier matched the call (`None` when the tool did not).
    pub spec_matched: Option<bool>,
    /// This rule decided.
    pub decisive: bool,
}

/// Why a Bash command does not run inside the sandbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsandboxed {
    /// The learner turned the sandbox off (`sandbox.enabled` false).
    SandboxOff,
    /// Not a Bash call: the sandbox bounds shell commands only (the seed: "管不了文件编辑工具、MCP 工具").
    NotBash,
    /// Sandbox on, but this command runs outside it (`excludedCommands`, a command that
    /// cannot be sandboxed, or the model's `dangerouslyDisableSandbox` retry).
    RunsOutside,
}

impl Unsandboxed {
    /// `sandbox-off`, `not-bash`, `runs-outside`.
    pub fn slug(self) -> &'static str {
        match self {
            Unsandboxed::SandboxOff => "sandbox-off",
            Unsandboxed::NotBash => "not-bash",
            Unsandboxed::RunsOutside => "runs-outside",
        }
    }
}

/// A host the command names in an `http(s)://` URL (inferred: the text is all the flow sees).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostCheck {
    /// The host, lower-cased, as written in the URL.
    pub host: String,
    /// Listed in `sandbox.network.allowedDomains` (`*.x` covers subdomains).
    pub allowed: bool,
}

/// What bounds the command while it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Containment {
    /// Runs inside the OS sandbox; otherwise [`Containment::unsandboxed`] says why not.
    pub sandboxed: bool,
    /// Why it does not run sandboxed.
    pub unsandboxed: Option<Unsandboxed>,
    /// `sandbox.network.allowedDomains`, as written.
    pub allowed_domains: Vec<String>,
    /// Hosts named by URLs in the command, each checked against `allowed_domains` (only when
    /// sandboxed; inferred from the text).
    pub hosts: Vec<HostCheck>,
    /// Read/Edit deny rules, which the sandbox also enforces at the OS level (§8), whatever
    /// form the command takes.
    pub fs_denies: Vec<String>,
}

impl Containment {
    /// Some named host is outside `allowedDomains`: the seed says the user is asked when the
    /// command reaches it; without approval the connection fails.
    pub fn blocks_a_host(&self) -> bool {
        self.sandboxed && self.hosts.iter().any(|h| !h.allowed)
    }
}

/// One stage of the flow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stage {
    /// Which stage.
    pub kind: StageKind,
    /// What it did.
    pub status: StageStatus,
    /// Rule stages (deny, ask, allow): the rules examined, in merged order.
    pub rules: Vec<RuleCheck>,
    /// The deciding step, when this stage decided (the widget phrases it).
    pub decider: Option<Decider>,
    /// The deciding rule's text, when a rule decided.
    pub rule: Option<String>,
    /// The hooks stage: the hook's answer (`None`: no hook configured).
    pub hook: Option<Hook>,
    /// The sandbox stage: what contains the command (`None` when nothing runs).
    pub containment: Option<Containment>,
}

/// A call stepped through the flow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flow {
    /// The mode the call was evaluated in.
    pub mode: Mode,
    /// The sandbox switch.
    pub sandbox: bool,
    /// The seven stages, in [`StageKind::ORDER`].
    pub stages: Vec<Stage>,
    /// The stage that decided.
    pub decided_by: StageKind,
    /// The evaluator's outcome.
    pub outcome: Outcome,
    /// Every rule that matches the call, deciding or not (e.g. the ask rule a deny beat), as
    /// written.
    pub matches: Vec<String>,
    /// The verdict rests on an inferred point of the reference.
    pub inferred: bool,
    /// The verdict in the conformance file's `matched` vocabulary ([`Verdict::label`]), e.g.
    /// `deny:Bash(curl *)`, `sandbox:autoAllowBashIfSandboxed`, `mode:acceptEdits`.
    pub label: String,
    /// The evaluator's verdict itself.
    pub verdict: Verdict,
}

impl Flow {
    /// The stage `kind` (every flow has all seven).
    pub fn stage(&self, kind: StageKind) -> &Stage {
        // `stages` is built from `StageKind::ORDER`, so the position is the index.
        let i = StageKind::ORDER
            .iter()
            .position(|k| *k == kind)
            .unwrap_or(0);
        &self.stages[i]
    }
}

/// The settings a flow runs under: the merged policy, the session facts, and the sandbox's
/// network allow-list (which [`Policy`] does not carry).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlowSettings {
    /// The merged rules and scalars.
    pub policy: Policy,
    /// Working directory, home, interactive, hook…
    pub context: Context,
    /// `sandbox.network.allowedDomains`.
    pub allowed_domains: Vec<String>,
}

impl FlowSettings {
    /// A project `.claude/settings.json` (trusted workspace) in `context`.
    pub fn from_json(text: &str, context: Context) -> Result<FlowSettings, Error> {
        let value = json::parse(text)?;
        let file = SettingsFile::from_value(&value, Scope::Project)?;
        Ok(FlowSettings {
            policy: Policy::merge(&[file], true),
            context,
            allowed_domains: allowed_domains(&value),
        })
    }
}

/// `sandbox.network.allowedDomains` (strings only; anything else is ignored).
fn allowed_domains(settings: &Value) -> Vec<String> {
    settings
        .get("sandbox")
        .and_then(|s| s.get("network"))
        .and_then(|n| n.get("allowedDomains"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|d| d.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Steps `call` through the flow under `settings` in `mode`, with the sandbox switched on or
/// off (overriding the settings' `sandbox.enabled`).
pub fn flow(settings: &FlowSettings, mode: Mode, sandbox: bool, call: &ToolCall) -> Flow {
    let auto_allow = settings.policy.auto_allow_bash_if_sandboxed;
    flow_with(settings, mode, sandbox, auto_allow, call)
}

/// [`flow`] with `autoAllowBashIfSandboxed` set too (overriding the settings'): CLI 2.1.332
/// (recorded) auto-allows sandboxed Bash commands only when it is written `true`, so a lesson
/// can show the seed's "在沙箱里执行" happening only with the key.
///
/// ```
/// use permlab_core::claude_code::flow::{flow_with, seed_001};
/// use permlab_core::claude_code::{Outcome, ToolCall};
/// let seed = seed_001().unwrap();
/// let sync = ToolCall::bash("node scripts/sync.js");
/// assert_eq!(flow_with(&seed.settings, seed.mode, true, false, &sync).outcome, Outcome::Ask);
/// assert_eq!(flow_with(&seed.settings, seed.mode, true, true, &sync).outcome, Outcome::Allow);
/// ```
pub fn flow_with(
    settings: &FlowSettings,
    mode: Mode,
    sandbox: bool,
    auto_allow: bool,
    call: &ToolCall,
) -> Flow {
    let mut policy = settings.policy.clone();
    policy.sandbox_enabled = sandbox;
    policy.auto_allow_bash_if_sandboxed = auto_allow;
    let ctx = &settings.context;
    let verdict = evaluate(&policy, mode, ctx, call);
    let decided_by = StageKind::of(&verdict.decider);
    let text = |i: usize| policy.rules.get(i).map(|r| r.text.clone());
    let runs = !matches!(verdict.outcome, Outcome::Deny | Outcome::Unavailable);

    let mut stages = Vec::with_capacity(StageKind::ORDER.len());
    let mut reached = true;
    for kind in StageKind::ORDER {
        let group = match kind {
            StageKind::Deny => Some(Action::Deny),
            StageKind::Ask => Some(Action::Ask),
            StageKind::Allow => Some(Action::Allow),
            _ => None,
        };
        let status = if kind == StageKind::Sandbox {
            if runs {
                StageStatus::Pass
            } else {
                StageStatus::NotReached
            }
        } else if !reached {
            StageStatus::NotReached
        } else if kind == decided_by {
            reached = false;
            StageStatus::Decided(verdict.outcome)
        } else {
            StageStatus::Pass
        };
        let rules = match (group, status) {
            (Some(g), StageStatus::Pass | StageStatus::Decided(_)) => verdict
                .trace
                .iter()
                .filter(|s| s.group == g)
                .map(|s| RuleCheck {
                    rule: s.rule,
                    text: text(s.rule).unwrap_or_default(),
                    tool_matched: s.tool_matched,
                    spec_matched: s.spec_matched,
                    decisive: s.stop && matches!(status, StageStatus::Decided(_)),
                })
                .collect(),
            _ => Vec::new(),
        };
        let decided = matches!(status, StageStatus::Decided(_));
        stages.push(Stage {
            kind,
            status,
            rules,
            decider: decided.then(|| verdict.decider.clone()),
            rule: if decided {
                verdict.rule.and_then(text)
            } else {
                None
            },
            hook: if kind == StageKind::Hooks {
                ctx.hook
            } else {
                None
            },
            containment: (kind == StageKind::Sandbox && runs)
                .then(|| containment(settings, &policy, mode, call)),
        });
    }
    Flow {
        mode,
        sandbox,
        stages,
        decided_by,
        outcome: verdict.outcome,
        matches: verdict.matches.iter().filter_map(|&i| text(i)).collect(),
        inferred: verdict.inferred,
        label: verdict.label(&policy),
        verdict,
    }
}

fn containment(
    settings: &FlowSettings,
    policy: &Policy,
    mode: Mode,
    call: &ToolCall,
) -> Containment {
    let bash = call.tool == "Bash";
    let sandboxed = bash && eval::runs_sandboxed(policy, mode, &settings.context, call);
    let unsandboxed = if sandboxed {
        None
    } else if !bash {
        Some(Unsandboxed::NotBash)
    } else if !policy.sandbox_enabled {
        Some(Unsandboxed::SandboxOff)
    } else {
        Some(Unsandboxed::RunsOutside)
    };
    let hosts = if sandboxed {
        url_hosts(call.str_field("command").unwrap_or(""))
            .into_iter()
            .map(|host| HostCheck {
                allowed: settings
                    .allowed_domains
                    .iter()
                    .any(|d| eval::domain_matches(d, &host)),
                host,
            })
            .collect()
    } else {
        Vec::new()
    };
    let fs_denies = policy
        .group(Action::Deny)
        .filter(|(_, r)| r.text.starts_with("Read(") || r.text.starts_with("Edit("))
        .map(|(_, r)| r.text.clone())
        .collect();
    Containment {
        sandboxed,
        unsandboxed,
        allowed_domains: settings.allowed_domains.clone(),
        hosts,
        fs_denies,
    }
}

/// Hosts of the `http://` / `https://` URLs written anywhere in `text` (quotes, `sh -c '…'`
/// strings included), lower-cased, first occurrence order, without duplicates.
///
/// ```
/// use permlab_core::claude_code::flow::url_hosts;
/// assert_eq!(url_hosts("sh -c 'curl https://Example.com/x'"), ["example.com"]);
/// assert_eq!(url_hosts("curl -s http://a.org:8080 https://b.net?q"), ["a.org", "b.net"]);
/// assert!(url_hosts("curl example.com").is_empty());
/// ```
pub fn url_hosts(text: &str) -> Vec<String> {
    let lower = text.to_ascii_lowercase();
    let mut hosts: Vec<String> = Vec::new();
    let mut rest = lower.as_str();
    while let Some(k) = rest.find("://") {
        let scheme_ok = rest[..k].ends_with("http") || rest[..k].ends_with("https");
        let after = &rest[k + 3..];
        if scheme_ok {
            let end = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '_'))
                .unwrap_or(after.len());
            let host = &after[..end];
            if !host.is_empty() && !hosts.iter().any(|h| h == host) {
                hosts.push(host.to_string());
            }
        }
        rest = after;
    }
    hosts
}

/// The seed's "rules are not a security boundary" commands (`claude-code.md` §2.4). The docs
/// say `Bash(curl *)` denies the first and misses the other two; CLI 2.1.332 (recorded)
/// denies the first **two** (it normalises `/usr/bin/curl` to `curl` before matching: see
/// [`boundary_drift`]) and misses only `sh -c '…'`. [`GETS_PAST_CURL_DENY`] lists every
/// recorded way past.
pub const NOT_A_BOUNDARY: [&str; 3] = [
    "curl https://example.com",
    "/usr/bin/curl https://example.com",
    "sh -c 'curl https://example.com'",
];

/// Commands that get past a deny `Bash(curl *)` in CLI 2.1.332 (recorded in
/// `claude-code-recorded.json`; in default mode each asks): the rule sees the outer command
/// only. Denied instead, though the docs say they get past: `/usr/bin/curl …`,
/// `/usr/local/bin/curl …`, `'curl' …`, `cu''rl …`, `exec curl …`, `c=curl; $c …`,
/// `echo … | xargs curl`.
pub const GETS_PAST_CURL_DENY: [&str; 6] = [
    "sh -c 'curl https://example.com'",
    "sh -c \"curl https://example.com\"",
    "eval 'curl https://example.com'",
    "$(which curl) https://example.com",
    "python3 -c \"import os; os.system('curl https://example.com')\"",
    "CURL https://example.com",
];

/// What the docs and CLI 2.1.332 each say about one of the boundary commands, when they
/// differ (the lesson shows both: "文档写的是… / CLI 2.1.332 实测…"), from [`drift`](super::drift).
///
/// ```
/// use permlab_core::claude_code::flow::{boundary_drift, NOT_A_BOUNDARY};
/// let d = boundary_drift(NOT_A_BOUNDARY[1]).unwrap();
/// assert_eq!(d.label(), "docs: ask · CLI 2.1.332: deny");
/// ```
pub fn boundary_drift(command: &str) -> Option<&'static super::drift::DocDrift> {
    super::drift::for_bash(command)
}

/// One request of the seed's verdict table.
#[derive(Clone, Debug, PartialEq)]
pub struct SeedRequest {
    /// As the lesson writes it (`bash: git push origin main`).
    pub call: crate::table::Call,
    /// The Claude Code tool call it stands for.
    pub tool_call: ToolCall,
    /// The verdict CLI 2.1.332 gives it under the seed's settings (recorded; the lesson's
    /// expected value).
    pub expect: crate::Decision,
    /// Where the seed's table, which follows the docs, says otherwise (the docs' answer and
    /// the CLI's): `node scripts/sync.js`, which the seed runs in the sandbox ("沙箱开启时,
    /// 沙箱内命令默认自动放行") and the CLI asks for, as the seed's settings do not write
    /// `autoAllowBashIfSandboxed: true`.
    pub drift: Option<&'static super::drift::DocDrift>,
}

impl SeedRequest {
    /// What the seed's table says: the docs' answer where they and the CLI disagree, else
    /// the CLI's.
    pub fn seed_says(&self) -> crate::Decision {
        self.drift.map_or(self.expect, |d| d.docs)
    }
}

/// Seed 001's worked example: its settings (read from the lesson fixture
/// `fixtures/lessons/claude-code-settings.json`, not duplicated here), its mode, and its six
/// requests with the seed's verdicts.
#[derive(Clone, Debug, PartialEq)]
pub struct Seed001 {
    /// The settings, in the lesson's context.
    pub settings: FlowSettings,
    /// The settings' `defaultMode` as the session starts in it (`acceptEdits`).
    pub mode: Mode,
    /// `sandbox.enabled` (true).
    pub sandbox: bool,
    /// The six requests, in the seed's order.
    pub requests: Vec<SeedRequest>,
}

/// How many of the lesson's calls are the seed's requests (the lesson may add its own after).
const SEED_001_REQUESTS: usize = 6;

const SEED_001_LESSON: &str =
    include_str!("../../../../fixtures/lessons/claude-code-settings.json");

/// Loads [`Seed001`] from the lesson fixture.
pub fn seed_001() -> Result<Seed001, Error> {
    let raw = json::parse(SEED_001_LESSON)?;
    let text = raw
        .get("presets")
        .and_then(Value::as_array)
        .and_then(|p| p.first())
        .and_then(|p| p.get("config"))
        .and_then(|c| c.get("text"))
        .and_then(Value::as_str)
        .ok_or_else(|| Error::shape("presets[0].config.text", "the seed's settings text"))?;
    let loaded = crate::lesson::Lesson::parse(SEED_001_LESSON);
    let lesson = loaded
        .lesson
        .ok_or_else(|| Error::shape("", "the seed-001 lesson does not load"))?;
    let preset = lesson
        .presets
        .first()
        .ok_or_else(|| Error::shape("presets", "the seed-001 lesson has no preset"))?;
    let settings = FlowSettings::from_json(text, super::table::lesson_context())?;
    let mode = settings.policy.session_mode();
    let sandbox = settings.policy.sandbox_enabled;
    // The lesson lists the seed's six requests first; calls after them are the lesson's own
    // (the `/usr/bin/curl` drift example), not the seed's worked example.
    let requests = preset
        .calls
        .iter()
        .take(SEED_001_REQUESTS)
        .filter_map(|c| {
            let expect = c
                .expect
                .iter()
                .find(|(e, _)| *e == crate::EngineId::ClaudeCode)?
                .1;
            let drift = (c.call.tool == "bash")
                .then(|| super::drift::for_settings(&settings.policy, mode, &c.call.input))
                .flatten();
            Some(SeedRequest {
                call: c.call.clone(),
                tool_call: super::table::to_tool_call(&c.call),
                expect,
                drift,
            })
        })
        .collect();
    Ok(Seed001 {
        settings,
        mode,
        sandbox,
        requests,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Decision;

    fn seed() -> Seed001 {
        seed_001().expect("the seed-001 lesson loads")
    }

    fn decided(f: &Flow) -> (StageKind, Outcome, Option<String>) {
        let s = f.stage(f.decided_by);
        (f.decided_by, f.outcome, s.rule.clone())
    }

    #[test]
    fn seed_001_loads_its_settings_and_six_requests() {
        let s = seed();
        assert_eq!(s.mode, Mode::AcceptEdits);
        assert!(s.sandbox);
        assert_eq!(s.settings.allowed_domains, ["registry.npmjs.org"]);
        assert_eq!(s.settings.policy.rules.len(), 11);
        let calls: Vec<String> = s
            .requests
            .iter()
            .map(|r| format!("{}: {}", r.call.tool, r.call.input))
            .collect();
        assert_eq!(
            calls,
            [
                "bash: git push --force origin main",
                "bash: git push origin main",
                "bash: npm run test -- auth",
                "edit_file: src/auth.ts",
                "bash: cat .env",
                "bash: node scripts/sync.js",
            ]
        );
    }

    /// The seed's verdict table, stage by stage, with its own settings (acceptEdits, sandbox
    /// `enabled: true` without `autoAllowBashIfSandboxed`), as CLI 2.1.332 decides (recorded:
    /// the `seed001-*` cases of `claude-code-recorded.json`). The sandbox auto-allows nothing
    /// here, so `npm run test -- auth` is approved by its allow rule and `node scripts/sync.js`
    /// asks (the docs, which default auto-allow to on, say it runs).
    #[test]
    fn seed_001_verdict_table() {
        let s = seed();
        let want: [(StageKind, Outcome, Option<&str>, Decision); 6] = [
            (
                StageKind::Deny,
                Outcome::Deny,
                Some("Bash(git push --force *)"),
                Decision::Deny,
            ),
            (
                StageKind::Ask,
                Outcome::Ask,
                Some("Bash(git push *)"),
                Decision::Ask,
            ),
            (
                StageKind::Allow,
                Outcome::Allow,
                Some("Bash(npm run test *)"),
                Decision::Allow,
            ),
            (StageKind::Mode, Outcome::Allow, None, Decision::Allow),
            (
                StageKind::Deny,
                Outcome::Deny,
                Some("Read(./.env)"),
                Decision::Deny,
            ),
            (StageKind::Callback, Outcome::Ask, None, Decision::Ask),
        ];
        for (r, (stage, outcome, rule, decision)) in s.requests.iter().zip(want) {
            let f = flow(&s.settings, s.mode, s.sandbox, &r.tool_call);
            assert_eq!(f.outcome.decision(), r.expect, "{}", r.call.input);
            assert_eq!(r.expect, decision);
            assert_eq!(
                decided(&f),
                (stage, outcome, rule.map(str::to_string)),
                "{}",
                r.call.input
            );
        }
        let labels: Vec<String> = s
            .requests
            .iter()
            .map(|r| flow(&s.settings, s.mode, s.sandbox, &r.tool_call).label)
            .collect();
        assert_eq!(
            labels,
            [
                "deny:Bash(git push --force *)",
                "ask:Bash(git push *)",
                "allow:Bash(npm run test *)",
                "mode:acceptEdits",
                "deny:Read(./.env) (recognized file command)",
                "mode:acceptEdits (not a filesystem command)",
            ]
        );
    }

    /// With `autoAllowBashIfSandboxed: true` written out, the sandbox auto-allows the Bash
    /// commands no rule stops, and a Read deny reaching `cat .env` is left to the sandbox's
    /// OS-level boundary (recorded, CLI 2.1.332: the command ran and got "Permission denied").
    #[test]
    fn seed_001_with_auto_allow_written_out() {
        let mut s = seed();
        s.settings.policy.auto_allow_bash_if_sandboxed = true;
        let got: Vec<(StageKind, Outcome)> = s
            .requests
            .iter()
            .map(|r| {
                let f = flow(&s.settings, s.mode, true, &r.tool_call);
                (f.decided_by, f.outcome)
            })
            .collect();
        assert_eq!(
            got,
            [
                (StageKind::Deny, Outcome::Deny),
                (StageKind::Ask, Outcome::Ask),
                (StageKind::Mode, Outcome::Allow),
                (StageKind::Mode, Outcome::Allow),
                (StageKind::Mode, Outcome::Allow),
                (StageKind::Mode, Outcome::Allow),
            ]
        );
        let env = flow(&s.settings, s.mode, true, &s.requests[4].tool_call);
        assert_eq!(env.stage(StageKind::Mode).decider, Some(Decider::Sandbox));
        let c = env.stage(StageKind::Sandbox).containment.clone().unwrap();
        assert!(c.sandboxed && c.fs_denies.contains(&"Read(./.env)".to_string()));
        // With the sandbox off the rule decides again.
        let off = flow(&s.settings, s.mode, false, &s.requests[4].tool_call);
        assert_eq!(off.outcome, Outcome::Deny);
    }

    /// The deny beats the ask rule the call also matches; with the sandbox off nothing changes
    /// for the seed (it auto-allowed nothing anyway).
    #[test]
    fn seed_001_also_matched_and_sandbox_off() {
        let s = seed();
        let force = flow(&s.settings, s.mode, true, &s.requests[0].tool_call);
        assert_eq!(
            force.matches,
            ["Bash(git push --force *)", "Bash(git push *)"]
        );
        let deny = force.stage(StageKind::Deny);
        assert_eq!(
            deny.rules.iter().filter(|r| r.decisive).count(),
            1,
            "{:?}",
            deny.rules
        );
        for sandbox in [true, false] {
            let npm = flow(&s.settings, s.mode, sandbox, &s.requests[2].tool_call);
            assert_eq!(npm.matches, ["Bash(npm run test *)"]);
            assert_eq!(
                decided(&npm),
                (
                    StageKind::Allow,
                    Outcome::Allow,
                    Some("Bash(npm run test *)".into())
                )
            );
            // node scripts/sync.js: nothing covers it, acceptEdits asks.
            let node = flow(&s.settings, s.mode, sandbox, &s.requests[5].tool_call);
            assert_eq!(decided(&node), (StageKind::Callback, Outcome::Ask, None));
            assert_eq!(node.stage(StageKind::Mode).status, StageStatus::Pass);
            assert_eq!(node.stage(StageKind::Allow).status, StageStatus::Pass);
        }
        // In default mode the edit is no longer approved by the mode.
        let edit = flow(&s.settings, Mode::Default, true, &s.requests[3].tool_call);
        assert_eq!(decided(&edit), (StageKind::Callback, Outcome::Ask, None));
    }

    #[test]
    fn sandbox_stage_of_the_seed_requests() {
        let s = seed();
        let node = flow(&s.settings, s.mode, true, &s.requests[5].tool_call);
        let c = node.stage(StageKind::Sandbox).containment.clone().unwrap();
        assert!(c.sandboxed);
        assert_eq!(c.allowed_domains, ["registry.npmjs.org"]);
        assert_eq!(
            c.fs_denies,
            ["Read(./.env)", "Read(./.env.*)", "Read(./secrets/**)"]
        );
        assert!(c.hosts.is_empty());
        // Denied calls never run: nothing to contain.
        let env = flow(&s.settings, s.mode, true, &s.requests[4].tool_call);
        assert_eq!(
            env.stage(StageKind::Sandbox).status,
            StageStatus::NotReached
        );
        assert!(env.stage(StageKind::Sandbox).containment.is_none());
        // The edit tool is not a shell command: the sandbox does not bound it.
        let edit = flow(&s.settings, s.mode, true, &s.requests[3].tool_call);
        let c = edit.stage(StageKind::Sandbox).containment.clone().unwrap();
        assert_eq!(
            (c.sandboxed, c.unsandboxed),
            (false, Some(Unsandboxed::NotBash))
        );
    }

    /// `Bash(curl *)` denies `curl …` and, in CLI 2.1.332, `/usr/bin/curl …` too (recorded;
    /// the docs say it misses it: [`boundary_drift`]); `sh -c 'curl …'` gets past it, and then
    /// the other rules, the mode and the sandbox decide.
    #[test]
    fn rules_are_not_a_security_boundary() {
        let s = seed();
        let calls: Vec<ToolCall> = NOT_A_BOUNDARY.iter().map(|c| ToolCall::bash(c)).collect();
        for mode in Mode::ALL {
            for sandbox in [true, false] {
                for call in &calls[..2] {
                    let f = flow(&s.settings, mode, sandbox, call);
                    assert_eq!(
                        decided(&f),
                        (StageKind::Deny, Outcome::Deny, Some("Bash(curl *)".into())),
                        "{mode:?} {sandbox} {:?}",
                        call.input
                    );
                }
            }
        }
        let drift = boundary_drift(NOT_A_BOUNDARY[1]).expect("the /usr/bin/curl drift is recorded");
        assert_eq!((drift.docs, drift.cli), (Decision::Ask, Decision::Deny));
        assert!(boundary_drift(NOT_A_BOUNDARY[0]).is_none());
        // `sh -c` gets past; the outcome by mode, seed settings (no auto-allow) and with
        // `autoAllowBashIfSandboxed: true` and the sandbox on.
        let table: [(Mode, Outcome, Outcome); 6] = [
            (Mode::Default, Outcome::Ask, Outcome::Allow),
            (Mode::AcceptEdits, Outcome::Ask, Outcome::Allow),
            (Mode::Plan, Outcome::Ask, Outcome::Ask),
            (Mode::Auto, Outcome::Classifier, Outcome::Allow),
            (Mode::DontAsk, Outcome::Deny, Outcome::Allow),
            (Mode::BypassPermissions, Outcome::Allow, Outcome::Allow),
        ];
        let mut auto = s.settings.clone();
        auto.policy.auto_allow_bash_if_sandboxed = true;
        let call = &calls[2];
        for (mode, seed_says, auto_on) in table {
            let f = flow(&s.settings, mode, true, call);
            let deny = f.stage(StageKind::Deny);
            assert_eq!(deny.status, StageStatus::Pass);
            let curl = deny
                .rules
                .iter()
                .find(|r| r.text == "Bash(curl *)")
                .unwrap();
            assert_eq!((curl.tool_matched, curl.spec_matched), (true, Some(false)));
            assert_eq!(f.outcome, seed_says, "{mode:?} seed settings");
            assert!(f.matches.is_empty());
            let g = flow(&auto, mode, true, call);
            assert_eq!(g.outcome, auto_on, "{mode:?} auto-allow on");
        }
        // Auto-allowed in the sandbox: example.com is not an allowed domain.
        let f = flow(&auto, Mode::AcceptEdits, true, call);
        assert_eq!(f.stage(StageKind::Mode).decider, Some(Decider::Sandbox));
        let c = f.stage(StageKind::Sandbox).containment.clone().unwrap();
        assert!(c.sandboxed);
        assert_eq!(
            c.hosts,
            [HostCheck {
                host: "example.com".into(),
                allowed: false
            }]
        );
        assert!(c.blocks_a_host());
        // bypassPermissions, sandbox off: it runs, and nothing contains it.
        let g = flow(&s.settings, Mode::BypassPermissions, false, call);
        assert_eq!(g.stage(StageKind::Mode).decider, Some(Decider::Bypass));
        let c = g.stage(StageKind::Sandbox).containment.clone().unwrap();
        assert_eq!(
            (c.sandboxed, c.unsandboxed),
            (false, Some(Unsandboxed::SandboxOff))
        );
        assert!(!c.blocks_a_host());
        // Every recorded way past `Bash(curl *)` gets past the engine too.
        let deny_curl = FlowSettings::from_json(
            r#"{"permissions": {"deny": ["Bash(curl *)"]}}"#,
            Context::default(),
        )
        .unwrap();
        for cmd in GETS_PAST_CURL_DENY {
            let f = flow(&deny_curl, Mode::Default, false, &ToolCall::bash(cmd));
            assert_eq!(f.outcome, Outcome::Ask, "{cmd}");
        }
    }

    #[test]
    fn hooks_stage() {
        let s = seed();
        let mut settings = s.settings.clone();
        settings.context.hook = Some(Hook::Block);
        let f = flow(&settings, s.mode, true, &s.requests[2].tool_call);
        assert_eq!(decided(&f), (StageKind::Hooks, Outcome::Deny, None));
        assert!(f.stages[1..6]
            .iter()
            .all(|s| s.status == StageStatus::NotReached));
        assert_eq!(f.stage(StageKind::Hooks).hook, Some(Hook::Block));
        // A hook's allow only stands in for the prompt: the ask rule still asks …
        settings.context.hook = Some(Hook::Allow);
        let f = flow(&settings, s.mode, false, &s.requests[1].tool_call);
        assert_eq!(decided(&f).0, StageKind::Ask);
        assert_eq!(f.stage(StageKind::Hooks).status, StageStatus::Pass);
        // … and it decides where the prompt would have been.
        let f = flow(&settings, s.mode, false, &s.requests[5].tool_call);
        assert_eq!(decided(&f), (StageKind::Callback, Outcome::Allow, None));
        assert_eq!(
            f.stage(StageKind::Callback).decider,
            Some(Decider::HookAllow)
        );
    }

    #[test]
    fn url_hosts_survive_odd_text() {
        for t in [
            "://",
            "http://",
            "https://é",
            "xhttp://a",
            "http://:80",
            "日本https://b.jp/",
        ] {
            let _ = url_hosts(t);
        }
        assert_eq!(url_hosts("日本https://b.jp/"), ["b.jp"]);
        assert_eq!(url_hosts("http://a.org http://A.org"), ["a.org"]);
    }

    /// Every case of the Claude Code conformance file, stepped through the flow: the flow's
    /// outcome is the evaluator's, exactly one stage decides, it is the decider's stage, the
    /// stages before it pass and those after it are not reached.
    #[test]
    fn flow_presents_every_conformance_verdict() {
        let doc = json::parse(include_str!(
            "../../../../fixtures/conformance/claude-code.json"
        ))
        .unwrap();
        let defaults = doc.get("defaults").and_then(|d| d.get("context"));
        let cases = doc.get("cases").and_then(Value::as_array).unwrap();
        assert!(cases.len() >= 100);
        let mut by_stage = std::collections::BTreeMap::new();
        for case in cases {
            let id = case.get("id").and_then(Value::as_str).unwrap_or("?");
            let (settings, mode, call) = conformance_case(case, defaults);
            let sandbox = settings.policy.sandbox_enabled;
            let f = flow(&settings, mode, sandbox, &call);
            let v = evaluate(&settings.policy, mode, &settings.context, &call);
            assert_eq!(f.outcome, v.outcome, "{id}");
            assert_eq!(f.verdict, v, "{id}");
            assert_eq!(f.decided_by, StageKind::of(&v.decider), "{id}");
            let k = StageKind::ORDER
                .iter()
                .position(|s| *s == f.decided_by)
                .unwrap();
            for (i, st) in f.stages.iter().enumerate().take(6) {
                let want = match i.cmp(&k) {
                    std::cmp::Ordering::Less => StageStatus::Pass,
                    std::cmp::Ordering::Equal => StageStatus::Decided(v.outcome),
                    std::cmp::Ordering::Greater => StageStatus::NotReached,
                };
                assert_eq!(st.status, want, "{id}: stage {}", st.kind.slug());
            }
            let d = f.stage(f.decided_by);
            assert_eq!(d.decider.as_ref(), Some(&v.decider), "{id}");
            let rule = v.rule.map(|r| settings.policy.rules[r].text.clone());
            assert_eq!(d.rule, rule, "{id}");
            if let Some(r) = &d.rule {
                if matches!(
                    f.decided_by,
                    StageKind::Deny | StageKind::Ask | StageKind::Allow
                ) {
                    assert!(
                        d.rules.iter().any(|c| c.decisive && &c.text == r),
                        "{id}: the deciding rule is marked in {:?}",
                        d.rules
                    );
                }
            }
            *by_stage.entry(f.decided_by.slug()).or_insert(0) += 1;
        }
        // Every decision stage but the sandbox appears in the file.
        let seen: Vec<&str> = by_stage.keys().copied().collect();
        assert_eq!(seen, ["allow", "ask", "callback", "deny", "hooks", "mode"]);
    }

    /// The conformance runner's reading of a case, for the flow.
    fn conformance_case(case: &Value, defaults: Option<&Value>) -> (FlowSettings, Mode, ToolCall) {
        let (policy, mode, context, call) =
            crate::conformance::claude_code::read_case(case, defaults, Mode::Default).unwrap();
        let settings = case.get("settings").unwrap();
        let flow_settings = FlowSettings {
            allowed_domains: allowed_domains(settings),
            policy,
            context,
        };
        (flow_settings, mode, call)
    }
}
