//! Scene `claude-flow`: seed 001's Claude Code decision flow. One request stepped through hooks
//! → deny → ask → mode → allow → ask callback, then the sandbox, under the seed's worked
//! example config, in the mode and with the sandbox the learner picks
//! ([`permlab_core::claude_code::flow::flow`] lays the evaluator's verdict over the stages;
//! this scene only words it).
//!
//! Requests: the six of the seed's verdict table (each with the seed's verdict next to the
//! computed one) and the "rules are not a security boundary" commands, which only the sandbox
//! contains.

use permlab_core::claude_code::eval::{Blocker, Decider, Hook, Via};
use permlab_core::claude_code::flow::{
    flow, seed_001, Containment, Flow, RuleCheck, Seed001, Stage, StageKind, StageStatus,
    Unsandboxed, NOT_A_BOUNDARY,
};
use permlab_core::claude_code::{Mode, Outcome, ToolCall};
use permlab_core::json;
use permlab_core::{Action, Decision};

use super::claude_flow_text::T;
use super::{ui, Event, Scene};
use crate::html::H;
use crate::i18n::Lang;

/// The seed's settings file as the lesson shows it.
const LESSON: &str = include_str!("../../../../fixtures/lessons/claude-code-settings.json");

/// Which request is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// One of the seed's six requests (its index).
    Seed(usize),
    /// One of [`NOT_A_BOUNDARY`] (its index).
    Boundary(usize),
}

impl Pick {
    fn slug(self) -> String {
        match self {
            Pick::Seed(i) => format!("s{i}"),
            Pick::Boundary(i) => format!("b{i}"),
        }
    }

    fn parse(s: &str) -> Option<Pick> {
        let (kind, n) = s.split_at_checked(1)?;
        let n: usize = n.parse().ok()?;
        match kind {
            "s" => Some(Pick::Seed(n)),
            "b" if n < NOT_A_BOUNDARY.len() => Some(Pick::Boundary(n)),
            _ => None,
        }
    }
}

/// The scene's state.
pub struct ClaudeFlow {
    lang: Lang,
    seed: Option<Seed001>,
    settings_text: String,
    /// The mode.
    pub mode: Mode,
    /// The sandbox switch.
    pub sandbox: bool,
    /// The request.
    pub pick: Pick,
    /// The stage shown (0-based, [`StageKind::ORDER`]).
    pub step: usize,
}

const LAST: usize = StageKind::ORDER.len() - 1;

fn stage_name(k: StageKind) -> T {
    match k {
        StageKind::Hooks => T::SHooks,
        StageKind::Deny => T::SDeny,
        StageKind::Ask => T::SAsk,
        StageKind::Mode => T::SMode,
        StageKind::Allow => T::SAllow,
        StageKind::Callback => T::SCallback,
        StageKind::Sandbox => T::SSandbox,
    }
}

fn stage_gist(k: StageKind) -> T {
    match k {
        StageKind::Hooks => T::GHooks,
        StageKind::Deny => T::GDeny,
        StageKind::Ask => T::GAsk,
        StageKind::Mode => T::GMode,
        StageKind::Allow => T::GAllow,
        StageKind::Callback => T::GCallback,
        StageKind::Sandbox => T::GSandbox,
    }
}

fn outcome_word(o: Outcome) -> T {
    match o {
        Outcome::Allow => T::OAllow,
        Outcome::Ask => T::OAsk,
        Outcome::Deny => T::ODeny,
        Outcome::Unavailable => T::OUnavailable,
        Outcome::Classifier => T::OClassifier,
    }
}

fn mode_text(m: Mode) -> T {
    match m {
        Mode::Default => T::ModeDefault,
        Mode::AcceptEdits => T::ModeAcceptEdits,
        Mode::Plan => T::ModePlan,
        Mode::Auto => T::ModeAuto,
        Mode::DontAsk => T::ModeDontAsk,
        Mode::BypassPermissions => T::ModeBypass,
    }
}

impl ClaudeFlow {
    /// The scene with the seed's settings, mode (acceptEdits) and sandbox (on), at its first
    /// request.
    pub fn new(lang: Lang) -> ClaudeFlow {
        let seed = seed_001().ok();
        let settings_text = json::parse(LESSON)
            .ok()
            .and_then(|v| {
                v.get("presets")?
                    .as_array()?
                    .first()?
                    .get("config")?
                    .get("text")?
                    .as_str()
                    .map(str::to_string)
            })
            .unwrap_or_default();
        let (mode, sandbox) = seed
            .as_ref()
            .map_or((Mode::AcceptEdits, true), |s| (s.mode, s.sandbox));
        ClaudeFlow {
            lang,
            seed,
            settings_text,
            mode,
            sandbox,
            pick: Pick::Seed(0),
            step: 0,
        }
    }

    fn t(&self, k: T) -> &'static str {
        k.get(self.lang)
    }

    fn call(&self) -> Option<ToolCall> {
        match self.pick {
            Pick::Seed(i) => Some(self.seed.as_ref()?.requests.get(i)?.tool_call.clone()),
            Pick::Boundary(i) => NOT_A_BOUNDARY.get(i).map(|c| ToolCall::bash(c)),
        }
    }

    /// The core's flow for the current choices.
    pub fn flow(&self) -> Option<Flow> {
        let seed = self.seed.as_ref()?;
        Some(flow(&seed.settings, self.mode, self.sandbox, &self.call()?))
    }

    fn request_label(&self, pick: Pick) -> String {
        match pick {
            Pick::Seed(i) => self
                .seed
                .as_ref()
                .and_then(|s| s.requests.get(i))
                .map(|r| {
                    if r.call.tool == "bash" {
                        r.call.input.clone()
                    } else {
                        format!("{}{}", self.t(T::Edit), r.call.input)
                    }
                })
                .unwrap_or_default(),
            Pick::Boundary(i) => NOT_A_BOUNDARY.get(i).copied().unwrap_or("").to_string(),
        }
    }

    fn controls(&self, h: &mut H) {
        let modes: Vec<(&str, &str)> = Mode::ALL.iter().map(|m| (m.as_str(), m.as_str())).collect();
        ui::choices(
            h,
            "pl-cf-modes",
            "mode",
            self.t(T::Mode),
            &modes,
            Some(self.mode.as_str()),
        );
        h.leaf("p", "pl-hint pl-cf-mode-text", self.t(mode_text(self.mode)));
        h.tag("div", "pl-cf-pick");
        ui::checkbox(
            h,
            "pl-cf-sandbox",
            "sandbox",
            self.t(T::Sandbox),
            self.sandbox,
        );
        h.tag("label", "pl-field pl-cf-request");
        h.leaf("span", "", self.t(T::Request));
        h.open("select")
            .a("data-act", "request")
            .a("data-k", "request")
            .gt();
        let n = self.seed.as_ref().map_or(0, |s| s.requests.len());
        let current = self.pick.slug();
        for (label, picks) in [
            (T::SeedGroup, (0..n).map(Pick::Seed).collect::<Vec<_>>()),
            (
                T::BoundaryGroup,
                (0..NOT_A_BOUNDARY.len()).map(Pick::Boundary).collect(),
            ),
        ] {
            h.open("optgroup").a("label", self.t(label)).gt();
            for p in picks {
                let slug = p.slug();
                h.open("option")
                    .a("value", &slug)
                    .flag("selected", slug == current)
                    .gt()
                    .t(&self.request_label(p))
                    .close("option");
            }
            h.close("optgroup");
        }
        h.raw("</select></label></div>");
    }

    fn settings(&self, h: &mut H) {
        h.tag("div", "pl-cf-settings");
        h.leaf("h3", "", self.t(T::Settings));
        h.open("pre")
            .a("class", "pl-cf-settings-text")
            .a("tabindex", "0")
            .a("aria-label", self.t(T::Settings))
            .gt()
            .raw("<code>")
            .t(&self.settings_text)
            .raw("</code>")
            .close("pre");
        h.close("div");
    }

    fn rule_line(&self, h: &mut H, r: &RuleCheck) {
        let (state, text) = match (r.tool_matched, r.spec_matched, r.decisive) {
            (_, _, true) => ("decides", T::RuleDecides),
            (false, _, _) => ("tool-miss", T::RuleToolMiss),
            (true, Some(false), _) => ("spec-miss", T::RuleSpecMiss),
            _ => ("match", T::RuleHit),
        };
        h.open("li")
            .a("class", &format!("pl-cf-rule pl-cf-rule-{state}"))
            .a("data-rule", &r.text)
            .a("data-state", state)
            .gt()
            .raw("<code>")
            .t(&r.text)
            .raw("</code>")
            .t(" — ")
            .t(self.t(text))
            .close("li");
    }

    fn via(&self, v: &Via) -> T {
        match v {
            Via::Direct => T::DDeny,
            Via::FileCommand => T::DDenyFile,
            Via::SymlinkTarget => T::DDenyLink,
            Via::RedirectTarget => T::DDenyRedirect,
        }
    }

    fn blocker(&self, b: &Blocker) -> String {
        let with = |k: T, s: &str| format!("{} {s}", self.t(k));
        match b {
            Blocker::NoRule => self.t(T::BNoRule).into(),
            Blocker::Unparseable(_) => self.t(T::BUnparseable).into(),
            Blocker::ExecWrapper(w) => with(T::BExecWrapper, w),
            Blocker::CdGit => self.t(T::BCdGit).into(),
            Blocker::Target(t) => with(T::BTarget, t),
            Blocker::OutsideWorkingDirectory => self.t(T::BOutside).into(),
            Blocker::PlanWrite => self.t(T::BPlanWrite).into(),
            Blocker::NotFilesystemCommand => self.t(T::BNotFs).into(),
            Blocker::UnsafeEnv(v) => with(T::BUnsafeEnv, v),
        }
    }

    /// The deciding step in words.
    pub fn decider(&self, d: &Decider, rule: Option<&str>) -> String {
        let r = rule.unwrap_or("");
        let s = |k: T| self.t(k).replace("{r}", r);
        match d {
            Decider::HookBlock => s(T::DHookBlock),
            Decider::HookAllow => s(T::DHookAllow),
            Decider::ToolRemoved => s(T::DToolRemoved),
            Decider::DenyRule(v) => s(self.via(v)),
            Decider::AskRule => s(T::DAsk),
            Decider::ProtectedPath(p) => self.t(T::DProtected).replace("{p}", p),
            Decider::CriticalPath => s(T::DCritical),
            Decider::RequiresUserInteraction => s(T::DInteraction),
            Decider::EndConversation => s(T::DEndConversation),
            Decider::Sandbox => s(T::DSandbox),
            Decider::Bypass => s(T::DBypass),
            Decider::AllowRule => s(T::DAllowRule),
            Decider::ReadOnly => s(T::DReadOnly),
            Decider::NoPermissionTool => s(T::DNoPermission),
            Decider::WorkingDirectory => s(T::DWorkingDir),
            Decider::AdditionalDirectory => s(T::DAdditionalDir),
            Decider::AcceptEdits => s(T::DAcceptEdits),
            Decider::AutoMode => s(T::DAutoMode),
            Decider::Callback { why } => format!("{} {}", s(T::DCallback), self.blocker(why)),
            Decider::Mode { mode, why } => format!(
                "{} {}",
                self.t(T::DModeFallback).replace("{m}", mode.as_str()),
                self.blocker(why)
            ),
        }
    }

    fn outcome_badge(&self, h: &mut H, o: Outcome) {
        let d = match o {
            Outcome::Classifier => Decision::Ask,
            o => o.decision(),
        };
        h.open("span")
            .a("class", &format!("pl-badge pl-v-{}", d.as_str()))
            .a("data-outcome", o.as_str())
            .gt()
            .raw("<span aria-hidden=\"true\">")
            .t(ui::icon(d))
            .raw(" </span>")
            .t(self.t(outcome_word(o)))
            .close("span");
    }

    fn containment(&self, h: &mut H, c: &Containment) {
        h.open("p")
            .a("class", "pl-cf-contained")
            .aria("data-sandboxed", c.sandboxed)
            .gt();
        h.raw("<span aria-hidden=\"true\">")
            .t(if c.sandboxed { "▣ " } else { "□ " })
            .raw("</span>");
        h.t(self.t(match c.unsandboxed {
            None => T::Sandboxed,
            Some(Unsandboxed::SandboxOff) => T::USandboxOff,
            Some(Unsandboxed::NotBash) => T::UNotBash,
            Some(Unsandboxed::RunsOutside) => T::URunsOutside,
        }));
        h.close("p");
        if !c.sandboxed {
            return;
        }
        h.tag("p", "pl-cf-domains").t(self.t(T::Domains)).t(" ");
        for (i, d) in c.allowed_domains.iter().enumerate() {
            if i > 0 {
                h.t(", ");
            }
            h.raw("<code>").t(d).raw("</code>");
        }
        h.close("p");
        if !c.hosts.is_empty() {
            h.tag("ul", "pl-cf-hosts");
            for host in &c.hosts {
                h.open("li")
                    .a("data-host", &host.host)
                    .aria("data-allowed", host.allowed)
                    .gt()
                    .raw("<code>")
                    .t(&host.host)
                    .raw("</code>")
                    .t(": ");
                if host.allowed {
                    ui::badge(h, Decision::Allow, self.t(T::HostOk));
                } else {
                    ui::badge(h, Decision::Ask, self.t(T::HostBlocked));
                    h.t(" → ").t(self.t(T::HostBlockedWhy));
                }
                h.close("li");
            }
            h.close("ul");
        }
        if !c.fs_denies.is_empty() {
            h.tag("p", "pl-cf-fs").t(self.t(T::FsDenies)).t(" ");
            for (i, d) in c.fs_denies.iter().enumerate() {
                if i > 0 {
                    h.t(", ");
                }
                h.raw("<code>").t(d).raw("</code>");
            }
            h.close("p");
        }
    }

    fn stage(&self, h: &mut H, i: usize, s: &Stage) {
        let (status, class) = match s.status {
            StageStatus::Pass => ("pass", ""),
            StageStatus::Decided(_) => ("decided", " pl-decided"),
            StageStatus::NotReached => ("not-reached", " pl-unreached"),
        };
        let place = match i.cmp(&self.step) {
            std::cmp::Ordering::Less => "",
            std::cmp::Ordering::Equal => " pl-current",
            std::cmp::Ordering::Greater => " pl-future",
        };
        h.open("li")
            .a("class", &format!("pl-flow-stage{class}{place}"))
            .a("data-stage", s.kind.slug())
            .a("data-status", status);
        if i == self.step {
            h.a("aria-current", "step");
        }
        h.gt();
        h.tag("h4", "pl-flow-title")
            .raw("<span class=\"pl-flow-n\">")
            .n(i + 1)
            .raw("</span> ")
            .t(self.t(stage_name(s.kind)))
            .close("h4");
        h.leaf("p", "pl-hint", self.t(stage_gist(s.kind)));
        h.tag("p", "pl-flow-status");
        match s.status {
            StageStatus::Pass if s.kind == StageKind::Sandbox => {
                h.t(self.t(T::Runs));
            }
            StageStatus::Pass => {
                h.raw("<span aria-hidden=\"true\">↓ </span>")
                    .t(self.t(T::Pass));
            }
            StageStatus::Decided(o) => {
                h.raw("<strong>")
                    .t(self.t(T::DecidedHere))
                    .raw("</strong> ");
                self.outcome_badge(h, o);
            }
            StageStatus::NotReached if s.kind == StageKind::Sandbox => {
                h.t(self.t(T::NotRun));
            }
            StageStatus::NotReached => {
                h.t(self.t(T::NotReached));
            }
        }
        h.close("p");
        if let Some(d) = &s.decider {
            h.leaf("p", "pl-flow-why", &self.decider(d, s.rule.as_deref()));
        }
        if s.kind == StageKind::Hooks && s.status != StageStatus::NotReached {
            h.leaf(
                "p",
                "pl-hint",
                self.t(match s.hook {
                    None => T::NoHook,
                    Some(Hook::Allow) => T::HookAllows,
                    Some(Hook::Block) => T::HookBlocks,
                }),
            );
        }
        let group = matches!(s.kind, StageKind::Deny | StageKind::Ask | StageKind::Allow);
        if group && s.status != StageStatus::NotReached {
            if s.rules.is_empty() {
                h.leaf("p", "pl-hint", self.t(T::NoRules));
            } else {
                h.tag("ul", "pl-cf-rules");
                for r in &s.rules {
                    self.rule_line(h, r);
                }
                h.close("ul");
            }
        }
        if let Some(c) = &s.containment {
            self.containment(h, c);
        }
        h.close("li");
    }

    fn result(&self, h: &mut H, f: &Flow) {
        h.open("section")
            .a("class", "pl-cf-result")
            .a("data-outcome", f.outcome.as_str())
            .a("data-decided-by", f.decided_by.slug())
            .gt();
        h.leaf("h3", "", self.t(T::Result));
        h.tag("p", "pl-cf-outcome");
        self.outcome_badge(h, f.outcome);
        h.t(" · ")
            .t(self.t(T::DecidedBy))
            .t(" ")
            .raw("<strong>")
            .t(&format!(
                "{} {}",
                StageKind::ORDER
                    .iter()
                    .position(|k| *k == f.decided_by)
                    .map_or(0, |i| i + 1),
                self.t(stage_name(f.decided_by))
            ))
            .raw("</strong>");
        if f.inferred {
            h.t(self.t(T::Inferred));
        }
        h.close("p");
        h.tag("p", "pl-cf-matches").t(self.t(T::AlsoMatched)).t(" ");
        if f.matches.is_empty() {
            h.t(self.t(T::None));
        }
        for (i, m) in f.matches.iter().enumerate() {
            if i > 0 {
                h.t(", ");
            }
            h.raw("<code>").t(m).raw("</code>");
        }
        h.close("p");
        h.tag("p", "pl-hint pl-cf-label")
            .t(self.t(T::Label))
            .t(" ")
            .raw("<code>")
            .t(&f.label)
            .raw("</code>")
            .close("p");
        if let (Pick::Seed(i), Some(seed)) = (self.pick, &self.seed) {
            if let Some(r) = seed.requests.get(i) {
                let agrees = f.outcome.decision() == r.expect;
                h.open("p")
                    .a("class", "pl-cf-seed")
                    .aria("data-agrees", agrees)
                    .gt()
                    .t(self.t(T::SeedSays))
                    .t(" ");
                ui::badge(h, r.expect, self.lang.decision(r.expect));
                h.t(" ")
                    .t(self.t(if agrees { T::Agrees } else { T::Differs }));
                h.close("p");
                let allow_matched = f.matches.iter().any(|m| {
                    seed.settings
                        .policy
                        .rules
                        .iter()
                        .any(|p| &p.text == m && p.group == Action::Allow)
                });
                if matches!(f.stage(f.decided_by).decider, Some(Decider::Sandbox)) && allow_matched
                {
                    h.leaf("p", "pl-cf-note", self.t(T::SandboxFirst));
                }
            }
        }
        if matches!(self.pick, Pick::Boundary(_)) {
            h.leaf("p", "pl-cf-note", self.t(T::NotBoundary));
        }
        h.close("section");
    }
}

impl Scene for ClaudeFlow {
    fn render(&self) -> String {
        let mut h = H::default();
        h.leaf("h2", "pl-title", self.t(T::Title));
        h.leaf("p", "pl-intro", self.t(T::Intro));
        h.tag("div", "pl-cf-top");
        h.tag("div", "pl-cf-controls");
        self.controls(&mut h);
        h.close("div");
        self.settings(&mut h);
        h.close("div");
        let Some(f) = self.flow() else {
            return h.s;
        };
        let kind = StageKind::ORDER[self.step.min(LAST)];
        let s = f.stage(kind);
        let status = match s.status {
            StageStatus::Pass if kind == StageKind::Sandbox => self.t(T::Runs).to_string(),
            StageStatus::NotReached if kind == StageKind::Sandbox => self.t(T::NotRun).to_string(),
            StageStatus::Pass => self.t(T::Pass).to_string(),
            StageStatus::Decided(o) => {
                format!("{} {}", self.t(T::DecidedHere), self.t(outcome_word(o)))
            }
            StageStatus::NotReached => self.t(T::NotReached).to_string(),
        };
        let now = format!(
            "{} — {status}",
            self.t(T::StepOf)
                .replace("{k}", &(self.step + 1).to_string())
                .replace("{s}", self.t(stage_name(kind)))
        );
        ui::open_stages(
            &mut h,
            self.lang,
            "pl-cf-flow",
            self.t(T::Stages),
            self.step,
            LAST,
            &now,
        );
        for (i, st) in f.stages.iter().enumerate() {
            self.stage(&mut h, i, st);
        }
        h.raw("</ol></section>");
        self.result(&mut h, &f);
        h.s
    }

    fn act(&mut self, e: &Event) -> bool {
        match (e.kind, e.act) {
            ("click", "mode") => match Mode::parse(e.arg) {
                Some(m) if m != self.mode => self.mode = m,
                _ => return false,
            },
            ("change", "sandbox") => self.sandbox = e.value == "true",
            ("change", "request") => match Pick::parse(e.value) {
                Some(p) if p != self.pick => self.pick = p,
                _ => return false,
            },
            (_, "step") => {
                let Some(m) = ui::step_move(e) else {
                    return false;
                };
                let before = self.step;
                self.step = ui::stepped(self.step, LAST, m);
                return e.kind == "keydown" || self.step != before;
            }
            _ => return false,
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decided(s: &ClaudeFlow) -> (String, String) {
        let f = s.flow().unwrap();
        (f.decided_by.slug().into(), f.outcome.as_str().into())
    }

    /// The seed's verdict table with its own settings (acceptEdits, sandbox on), by clicks.
    #[test]
    fn the_seed_table_reproduces() {
        let mut s = ClaudeFlow::new(Lang::Zh);
        let want = [
            ("deny", "deny"),
            ("ask", "ask"),
            ("mode", "allow"),
            ("mode", "allow"),
            ("deny", "deny"),
            ("mode", "allow"),
        ];
        for (i, (stage, outcome)) in want.iter().enumerate() {
            let v = format!("s{i}");
            s.act(&Event::value("change", "request", "", &v));
            assert_eq!(decided(&s), (stage.to_string(), outcome.to_string()), "{v}");
            assert!(s.render().contains("data-agrees=\"true\""), "{v}");
        }
        s.act(&Event::value("change", "request", "", "s0"));
        let html = s.render();
        assert!(html.contains("命中 deny 规则 Bash(git push --force *)。"));
        assert!(
            html.contains("<code>Bash(git push --force *)</code>, <code>Bash(git push *)</code>")
        );
        assert!(html.contains("data-stage=\"ask\" data-status=\"not-reached\""));
        s.act(&Event::value("change", "request", "", "s4"));
        assert!(s
            .render()
            .contains("cat 这类命令的文件参数同样受 Read 规则约束"));
        // npm run test: the sandbox decides first; with it off, the allow rule does.
        s.act(&Event::value("change", "request", "", "s2"));
        assert!(s
            .render()
            .contains("评估器在 allow 规则之前先检查沙箱自动放行"));
        assert!(s.act(&Event::value("change", "sandbox", "", "false")));
        assert_eq!(decided(&s), ("allow".into(), "allow".into()));
        assert!(s
            .render()
            .contains("data-rule=\"Bash(npm run test *)\" data-state=\"decides\""));
    }

    #[test]
    fn rules_are_not_a_boundary() {
        let mut s = ClaudeFlow::new(Lang::En);
        s.act(&Event::value("change", "request", "", "b0"));
        assert_eq!(decided(&s), ("deny".into(), "deny".into()));
        s.act(&Event::value("change", "request", "", "b1"));
        assert_eq!(decided(&s), ("mode".into(), "allow".into()));
        let html = s.render();
        assert!(html.contains("data-sandboxed=\"true\""));
        assert!(html.contains("data-host=\"example.com\" data-allowed=\"false\""));
        assert!(html.contains("Rules only see the command&#39;s text"));
        // Sandbox off: acceptEdits asks; bypassPermissions runs it with nothing around it.
        s.act(&Event::value("change", "sandbox", "", "false"));
        assert_eq!(decided(&s).1, "ask");
        s.act(&Event::click("mode", "bypassPermissions"));
        assert_eq!(decided(&s), ("mode".into(), "allow".into()));
        assert!(s
            .render()
            .contains("The sandbox is off: nothing bounds the command"));
        s.act(&Event::click("mode", "dontAsk"));
        assert_eq!(decided(&s).1, "deny");
    }

    #[test]
    fn stepping_with_keys() {
        let mut s = ClaudeFlow::new(Lang::Zh);
        assert!(s
            .render()
            .contains("第 1 / 7 关:Hooks(PreToolUse) — 通过,交给下一关"));
        assert!(s.act(&Event::key("step", "1", "ArrowRight")));
        assert!(s
            .render()
            .contains("第 2 / 7 关:deny 规则 — 在这里定案: 拒绝"));
        assert!(s.act(&Event::key("step", "1", "End")));
        assert_eq!(s.step, 6);
        assert!(s.render().contains("没有放行,不会执行"));
        assert!(
            s.act(&Event::key("step", "1", "ArrowRight")),
            "a used key at the end"
        );
        assert!(!s.act(&Event::key("step", "1", "a")));
        assert!(s.act(&Event::click("step", "-2")));
        assert_eq!(s.step, 0);
        assert!(!s.act(&Event::click("mode", "acceptEdits")), "already");
    }
}
