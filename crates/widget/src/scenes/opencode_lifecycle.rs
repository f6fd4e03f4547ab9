//! Scene `opencode-lifecycle`: seed 002's bash call stepped through OpenCode 1.18.32's stages
//! ([`permlab_core::opencode::lifecycle::lifecycle`] computes every stage; this scene words
//! it). The classic runtime by default, the newer one (the seed's account) on request; each
//! stage says where the seed's statements hold. The learner answers the prompts (once / always
//! / reject, with or without feedback) and sees what the model is told.

use permlab_core::opencode::lifecycle::exec::{Run, RunEnd, TimeoutSource};
use permlab_core::opencode::lifecycle::request::{
    Decision, Layer, PatternCheck, Prompt, Reply, BUTTONS,
};
use permlab_core::opencode::lifecycle::{
    lifecycle, seed_002, seed_build_log, BashCall, Detail, End, Lifecycle, Runtime, Scenario,
    SeedMatch, Stage, StageKind, Status,
};
use permlab_core::opencode::Rule;
use permlab_core::{json, Action};

use super::lifecycle_text::T;
use super::{ui, Event, Scene};
use crate::html::H;
use crate::i18n::Lang;

/// The seed's command.
pub const SEED_COMMAND: &str = "rm -rf /tmp/cache";

const LAST: usize = StageKind::ORDER.len() - 1;

/// The scene's state.
pub struct OpencodeLifecycle {
    lang: Lang,
    scenario: Scenario,
    build_log: Option<String>,
    /// The runtime.
    pub runtime: Runtime,
    /// The command as typed.
    pub command: String,
    /// The user's replies so far, in prompt order.
    pub answers: Vec<Reply>,
    /// The stage shown (0-based, [`StageKind::ORDER`]).
    pub step: usize,
}

fn kind_name(k: StageKind) -> T {
    match k {
        StageKind::ToolLookup => T::KLookup,
        StageKind::Arguments => T::KArgs,
        StageKind::Parse => T::KParse,
        StageKind::ExternalDirectory => T::KDir,
        StageKind::Command => T::KCommand,
        StageKind::Confirmation => T::KConfirm,
        StageKind::Execution => T::KExec,
        StageKind::Output => T::KOutput,
    }
}

fn status_word(s: Status) -> T {
    match s {
        Status::Pass => T::StPass,
        Status::Skipped => T::StSkipped,
        Status::Stopped => T::StStopped,
        Status::Waiting => T::StWaiting,
        Status::NotReached => T::StNotReached,
    }
}

fn claim_text(slug: &str) -> Option<T> {
    Some(match slug {
        "four-sources" => T::CFourSources,
        "same-name-tools-stack" => T::CStack,
        "scope-exit-pops" => T::CPops,
        "mcp-prefixed-names" => T::CMcpNames,
        "model-writes-timeout-120000" => T::CTimeoutArg,
        "resource-is-whole-command" => T::CWholeCommand,
        "directory-then-command" => T::CDirThenCommand,
        "find-last" => T::CFindLast,
        "configured-then-saved" => T::CConfiguredThenSaved,
        "configured-deny-not-overridable" => T::CDenyStays,
        "saved-pattern-rm-rf-star" => T::CRmRfStar,
        "always-saved-per-project-database" => T::CSqlite,
        "user-confirms" => T::CConfirms,
        "timeout-120000" => T::CTimeout,
        "limits-2000-lines-51200-bytes" => T::CLimits,
        "full-output-saved-to-disk" => T::CSaved,
        "head-tail-sampling" => T::CHeadTail,
        "halves-of-max-lines" => T::CHalves,
        _ => return None,
    })
}

fn match_word(m: SeedMatch) -> T {
    match m {
        SeedMatch::Both => T::MBoth,
        SeedMatch::Classic => T::MClassic,
        SeedMatch::Next => T::MNext,
        SeedMatch::Neither => T::MNeither,
    }
}

fn end_word(e: End) -> T {
    match e {
        End::Completed => T::ECompleted,
        End::Invalid => T::EInvalid,
        End::CustomTool => T::ECustom,
        End::ArgumentError => T::EArgs,
        End::Denied => T::EDenied,
        End::Rejected => T::ERejected,
        End::Waiting => T::EWaiting,
    }
}

fn rule_text(r: &Rule) -> String {
    format!("{} {} {}", r.permission, r.pattern, r.action.as_str())
}

fn action_decision(a: Action) -> permlab_core::Decision {
    a.into()
}

impl OpencodeLifecycle {
    /// The scene at the seed's example, classic runtime, nothing answered.
    pub fn new(lang: Lang) -> OpencodeLifecycle {
        OpencodeLifecycle {
            lang,
            scenario: seed_002(),
            build_log: None,
            runtime: Runtime::Classic,
            command: SEED_COMMAND.into(),
            answers: Vec::new(),
            step: 0,
        }
    }

    fn t(&self, k: T) -> &'static str {
        k.get(self.lang)
    }

    fn call(&self) -> BashCall {
        BashCall {
            command: self.command.clone(),
            ..self.scenario.call.clone()
        }
    }

    fn run(&self) -> Run {
        match &self.build_log {
            Some(log) => Run::exited(log, 0),
            None => self.scenario.run.clone(),
        }
    }

    /// The core's lifecycle for the current choices.
    pub fn lifecycle(&self) -> Lifecycle {
        lifecycle(
            self.runtime,
            &self.scenario.setup,
            &self.call(),
            &self.answers,
            &self.run(),
        )
    }

    fn call_json(&self) -> String {
        let c = self.call();
        let mut s = String::from("{\n  \"name\": ");
        json::write_string(&c.tool, &mut s);
        s.push_str(",\n  \"input\": {\n    \"command\": ");
        json::write_string(&c.command, &mut s);
        if let Some(t) = c.timeout {
            s.push_str(&format!(",\n    \"timeout\": {t}"));
        }
        s.push_str("\n  }\n}");
        s
    }

    fn controls(&self, h: &mut H) {
        ui::choices(
            h,
            "pl-lc-runtime",
            "runtime",
            self.t(T::Runtime),
            &[("classic", self.t(T::Classic)), ("next", self.t(T::Next))],
            Some(self.runtime.slug()),
        );
        h.tag("div", "pl-lc-call");
        ui::field(
            h,
            "pl-lc-command",
            "command",
            self.t(T::Command),
            &self.command,
        );
        h.tag("div", "pl-rp-tools pl-controls");
        h.button("pl-lc-seed", "seed-command", "")
            .flag("disabled", self.command == SEED_COMMAND)
            .gt()
            .t(self.t(T::SeedCommand))
            .close("button");
        h.close("div");
        ui::checkbox(
            h,
            "pl-lc-long",
            "long-output",
            self.t(T::LongOutput),
            self.build_log.is_some(),
        );
        h.close("div");
    }

    fn rules(&self, h: &mut H, l: &Lifecycle) {
        h.tag("div", "pl-lc-rules");
        h.leaf("h3", "", self.t(T::Rules));
        h.tag("ol", "pl-lc-rule-list");
        let saved = if self.runtime == Runtime::Classic {
            T::SavedClassic
        } else {
            T::SavedNext
        };
        let setup = &self.scenario.setup;
        let mut n = 0;
        for (label, rules) in [
            (T::Configured, setup.agent_rules.as_slice()),
            (saved, setup.approvals.rules()),
        ] {
            for r in rules {
                h.open("li")
                    .a("value", &n.to_string())
                    .a("data-rule", &rule_text(r))
                    .gt()
                    .raw("<code>")
                    .t(&format!("{} {}", r.permission, r.pattern))
                    .raw("</code> ");
                ui::badge(h, action_decision(r.action), self.lang.action(r.action));
                h.raw(" <small>").t(self.t(label)).raw("</small></li>");
                n += 1;
            }
        }
        h.close("ol");
        let before = setup.approvals.rules().len();
        let added = l.approvals.rules().get(before..).unwrap_or(&[]);
        if !added.is_empty() {
            h.tag("p", "pl-lc-added").t(self.t(T::After)).t(" ");
            for (i, r) in added.iter().enumerate() {
                if i > 0 {
                    h.t(", ");
                }
                h.raw("<code>").t(&rule_text(r)).raw("</code>");
            }
            h.close("p");
        }
        h.close("div");
    }

    fn check(&self, h: &mut H, c: &PatternCheck) {
        let n = c.position.map_or(0, |p| p).to_string();
        let layer = self
            .t(match (c.layer, self.runtime) {
                (Layer::Agent, _) => T::LAgent,
                (Layer::Session, _) => T::LSession,
                (Layer::Approved, Runtime::Classic) => T::LApprovedClassic,
                (Layer::Approved, Runtime::Next) => T::LApprovedNext,
                (Layer::Default, _) => T::LDefault,
            })
            .replace("{n}", &n);
        let text = self
            .t(T::Check)
            .replace("{p}", &c.pattern)
            .replace("{r}", &rule_text(&c.rule))
            .replace("{l}", &layer);
        h.open("li")
            .a("data-pattern", &c.pattern)
            .a("data-layer", c.layer.slug())
            .a("data-action", c.rule.action.as_str())
            .gt();
        ui::badge(
            h,
            action_decision(c.rule.action),
            self.lang.action(c.rule.action),
        );
        h.t(" ").t(&text);
        if c.configured_alone {
            h.raw("<br><small>")
                .t(self.t(T::ConfiguredAlone))
                .raw("</small>");
        }
        h.close("li");
    }

    fn prompt(&self, h: &mut H, p: &Prompt) {
        h.open("div")
            .a("class", "pl-lc-prompt")
            .a("data-permission", &p.request.permission)
            .a("data-reply", p.reply.as_ref().map_or("none", |r| r.slug()))
            .gt();
        h.tag("p", "")
            .raw("<strong>")
            .t(self.t(T::Prompt))
            .raw("</strong> ")
            .raw("<code>")
            .t(&p.request.permission)
            .raw("</code>: ");
        for (i, pat) in p.request.patterns.iter().enumerate() {
            if i > 0 {
                h.t(", ");
            }
            h.raw("<code>").t(pat).raw("</code>");
        }
        h.close("p");
        h.tag("p", "pl-hint")
            .t(self.t(T::Buttons))
            .t(" ")
            .t(&BUTTONS.join(" · "))
            .close("p");
        h.tag("p", "pl-lc-reply");
        match &p.reply {
            None => {
                h.t(self.t(T::NoReply));
            }
            Some(r) => {
                h.raw("<strong>").t(self.t(T::Answer)).raw(":</strong> ");
                h.t(self.t(match r {
                    Reply::Once => T::AOnce,
                    Reply::Always => T::AAlways,
                    Reply::Reject(None) => T::AReject,
                    Reply::Reject(Some(_)) => T::AFeedback,
                }));
                h.t(" → ")
                    .t(self.t(if p.proceeds { T::Proceeds } else { T::Stops }));
                if !p.proceeds {
                    h.t(" · ").t(self.t(if p.loop_continues {
                        T::LoopGoesOn
                    } else {
                        T::LoopStops
                    }));
                }
            }
        }
        h.close("p");
        if let Some(c) = p.confirmation {
            h.tag("p", "pl-lc-confirm").t(c).t(": ");
            for (i, a) in p.request.always.iter().enumerate() {
                if i > 0 {
                    h.t(", ");
                }
                h.raw("<code>").t(a).raw("</code>");
            }
            h.close("p");
        }
        if !p.stored.is_empty() {
            h.tag("p", "").t(self.t(T::Stores)).t(" ");
            for (i, r) in p.stored.iter().enumerate() {
                if i > 0 {
                    h.t(", ");
                }
                h.raw("<code>").t(&rule_text(r)).raw("</code>");
            }
            h.close("p");
        }
        if matches!(p.reply, Some(Reply::Reject(_))) {
            self.model_told(h, p.model_message.as_deref());
        }
        h.close("div");
    }

    fn model_told(&self, h: &mut H, text: Option<&str>) {
        h.tag("div", "pl-lc-model");
        h.leaf("p", "pl-label", self.t(T::ModelTold));
        match text {
            Some(t) => {
                h.open("pre")
                    .a("class", "pl-lc-model-text")
                    .a("tabindex", "0")
                    .a("aria-label", self.t(T::ModelTold))
                    .gt()
                    .t(t)
                    .close("pre");
            }
            None => {
                h.leaf("p", "pl-lc-not-stated", self.t(T::NotStated));
            }
        }
        h.close("div");
    }

    fn detail(&self, h: &mut H, d: &Detail) {
        let row = |h: &mut H, k: T, v: &str| {
            h.raw("<dt>")
                .t(self.t(k))
                .raw("</dt><dd>")
                .t(v)
                .raw("</dd>");
        };
        match d {
            Detail::Lookup(l) => {
                h.tag("dl", "pl-lc-facts");
                row(h, T::Requested, &l.requested);
                row(h, T::Resolved, l.resolved.as_deref().unwrap_or("—"));
                if let Some(a) = &l.active {
                    row(
                        h,
                        T::Active,
                        &format!("{} ({}, {})", a.name, a.source.slug(), a.origin),
                    );
                }
                if !l.others.is_empty() {
                    let o: Vec<String> = l
                        .others
                        .iter()
                        .map(|d| format!("{} ({})", d.name, d.source.slug()))
                        .collect();
                    row(h, T::Others, &o.join(", "));
                }
                h.close("dl");
                if let Some(m) = &l.invalid_message {
                    self.model_told(h, Some(m));
                }
            }
            Detail::Arguments(a) => {
                h.tag("dl", "pl-lc-facts");
                let source = self.t(match a.timeout_source {
                    TimeoutSource::Argument => T::FromArgument,
                    TimeoutSource::Environment => T::FromEnv,
                    TimeoutSource::Default => T::FromDefault,
                });
                let mut timeout = format!("{} ms · {source}", a.timeout_ms);
                if let Some(m) = a.max_timeout_ms {
                    timeout.push_str(&format!(" · {} {m} ms", self.t(T::MaxTimeout)));
                }
                if a.over_max {
                    timeout.push_str(&format!(" · {}", self.t(T::OverMax)));
                }
                row(h, T::Timeout, &timeout);
                row(h, T::Cwd, &a.cwd);
                h.close("dl");
                if let Some(e) = &a.error {
                    self.model_told(h, Some(e));
                }
            }
            Detail::Parse(p) => {
                if p.commands.is_empty() {
                    h.leaf("p", "pl-hint", self.t(T::NoParse));
                } else {
                    ui::scroll(h, self.t(T::SubCommands));
                    h.tag("table", "pl-lc-parse");
                    h.raw("<caption>")
                        .t(self.t(T::SubCommands))
                        .raw("</caption><thead><tr>");
                    for k in [T::ColText, T::ColPattern, T::ColAlways, T::ColDirs] {
                        h.raw("<th scope=\"col\">").t(self.t(k)).raw("</th>");
                    }
                    h.raw("</tr></thead><tbody>");
                    for c in &p.commands {
                        h.open("tr").a("data-sub", &c.text).gt();
                        h.raw("<th scope=\"row\"><code>")
                            .t(&c.text)
                            .raw("</code></th>");
                        for v in [c.pattern.as_deref(), c.always.as_deref()] {
                            h.raw("<td>");
                            match v {
                                Some(v) => {
                                    h.raw("<code>").t(v).raw("</code>");
                                }
                                None => {
                                    h.t("—");
                                }
                            }
                            h.raw("</td>");
                        }
                        h.tag("td", "").t(&c.dirs.join(", ")).close("td");
                        h.close("tr");
                    }
                    h.raw("</tbody></table></div>");
                }
                if !p.advisory_dirs.is_empty() {
                    h.tag("p", "pl-hint")
                        .t(self.t(T::Advisory))
                        .t(" ")
                        .t(&p.advisory_dirs.join(", "))
                        .close("p");
                }
            }
            Detail::Permission(p) => {
                h.tag("p", "")
                    .t(self.t(T::Permission))
                    .t(" ")
                    .raw("<code>")
                    .t(&p.request.permission)
                    .raw("</code> · ")
                    .t(self.t(T::Patterns))
                    .t(": ");
                for (i, pat) in p.request.patterns.iter().enumerate() {
                    if i > 0 {
                        h.t(", ");
                    }
                    h.raw("<code>").t(pat).raw("</code>");
                }
                h.close("p");
                h.tag("ul", "pl-lc-checks");
                for c in &p.checks {
                    self.check(h, c);
                }
                h.close("ul");
                let (class, k) = match &p.decision {
                    Decision::Allow => ("allow", T::DAllow),
                    Decision::Ask => ("ask", T::DAsk),
                    Decision::Deny { .. } => ("deny", T::DDeny),
                };
                h.open("p")
                    .a("class", &format!("pl-lc-decision pl-v-{class}"))
                    .a("data-decision", p.decision.slug())
                    .gt()
                    .raw("<strong>")
                    .t(self.t(k))
                    .raw("</strong></p>");
                if let Decision::Deny { message, .. } = &p.decision {
                    self.model_told(h, message.as_deref());
                }
            }
            Detail::Confirmation(prompts) => {
                for p in prompts {
                    self.prompt(h, p);
                }
            }
            Detail::Execution(x) => {
                h.tag("dl", "pl-lc-facts");
                row(h, T::Shell, &x.shell);
                row(h, T::Timeout, &format!("{} ms", x.timeout_ms));
                row(h, T::Timer, &format!("{} ms", x.timer_ms));
                row(h, T::ForceKill, &format!("{} ms", x.force_kill_after_ms));
                let end = match x.end {
                    RunEnd::Exited(c) => format!("{} {c}", self.t(T::Exited)),
                    RunEnd::TimedOut => self.t(T::TimedOut).into(),
                    RunEnd::Aborted => self.t(T::Aborted).into(),
                };
                row(h, T::End, &end);
                h.close("dl");
            }
            Detail::Output(o) => {
                let limits = self.scenario.setup.limits;
                h.leaf(
                    "p",
                    "pl-hint",
                    &self
                        .t(T::Limits)
                        .replace("{l}", &limits.max_lines.to_string())
                        .replace("{b}", &limits.max_bytes.to_string()),
                );
                h.open("p")
                    .a("class", "pl-lc-truncated")
                    .aria("data-truncated", o.truncated)
                    .gt();
                if let Some(c) = o.classic.as_ref().filter(|c| c.truncated) {
                    h.t(&self
                        .t(T::ClassicCut)
                        .replace("{k}", &c.kept_lines.to_string())
                        .replace("{b}", &c.kept_bytes.to_string())
                        .replace("{n}", &c.total_lines.to_string())
                        .replace("{t}", &c.total_bytes.to_string()));
                    if let Some(f) = &c.file {
                        h.t(" · ")
                            .t(self.t(T::SavedTo))
                            .t(" ")
                            .raw("<code>")
                            .t(f)
                            .raw("</code>");
                    }
                } else if let Some(n) = o.next.as_ref().filter(|n| n.truncated) {
                    h.t(&self
                        .t(T::NextCut)
                        .replace("{h}", &n.head_lines.to_string())
                        .replace("{t}", &n.tail_lines.to_string())
                        .replace("{n}", &n.total_lines.to_string()));
                } else {
                    h.t(self.t(T::NotTruncated));
                }
                h.close("p");
            }
        }
    }

    fn claims(&self, h: &mut H, s: &Stage) {
        h.tag("div", "pl-lc-claims");
        h.open("p")
            .a("class", "pl-lc-claims-head")
            .a("data-seed-matches", s.seed_matches.slug())
            .gt()
            .raw("<strong>")
            .t(self.t(T::Seed))
            .raw("</strong>: ")
            .t(self.t(match s.seed_matches {
                SeedMatch::Both => T::SBoth,
                SeedMatch::Classic => T::SClassic,
                SeedMatch::Next => T::SNext,
                SeedMatch::Neither => T::SNeither,
            }))
            .close("p");
        h.tag("ul", "");
        for c in s.claims {
            let holds = c.matches.holds_for(self.runtime);
            h.open("li")
                .a("data-claim", c.claim)
                .a("data-matches", c.matches.slug())
                .aria("data-holds", holds)
                .gt()
                .t(claim_text(c.claim).map_or(c.claim, |k| self.t(k)))
                .t(" — ")
                .t(self.t(match_word(c.matches)))
                .raw(" <strong class=\"")
                .t(if holds { "pl-v-allow" } else { "pl-v-deny" })
                .raw("\">")
                .t(self.t(if holds { T::HoldsHere } else { T::NotHere }))
                .raw("</strong></li>");
        }
        h.raw("</ul></div>");
    }

    fn stage(&self, h: &mut H, i: usize, s: &Stage) {
        let place = match i.cmp(&self.step) {
            std::cmp::Ordering::Less => "",
            std::cmp::Ordering::Equal => " pl-current",
            std::cmp::Ordering::Greater => " pl-future",
        };
        h.open("li")
            .a(
                "class",
                &format!("pl-flow-stage pl-st-{}{place}", s.status.slug()),
            )
            .a("data-stage", s.kind.slug())
            .a("data-status", s.status.slug());
        if i == self.step {
            h.a("aria-current", "step");
        }
        h.gt();
        h.tag("h4", "pl-flow-title")
            .t(self.t(kind_name(s.kind)))
            .close("h4");
        h.tag("p", "pl-flow-status")
            .raw("<strong>")
            .t(self.t(status_word(s.status)))
            .raw("</strong>")
            .close("p");
        if let Some(d) = &s.detail {
            self.detail(h, d);
        }
        if s.kind == StageKind::Confirmation && s.status == Status::Waiting {
            self.answer_buttons(h, "pl-lc-answers-inline");
        }
        if !s.claims.is_empty() {
            self.claims(h, s);
        }
        h.close("li");
    }

    fn answer_buttons(&self, h: &mut H, class: &str) {
        h.open("div")
            .a("class", &format!("pl-choices pl-lc-answers {class}"))
            .a("role", "group")
            .a("aria-label", self.t(T::Answer))
            .gt();
        for (arg, k) in [
            ("once", T::AOnce),
            ("always", T::AAlways),
            ("reject", T::AReject),
            ("feedback", T::AFeedback),
        ] {
            h.button("pl-choice pl-lc-answer", &format!("answer{class}"), arg)
                .a("data-answer", arg)
                .gt()
                .t(self.t(k))
                .close("button");
        }
        h.close("div");
    }

    fn result(&self, h: &mut H, l: &Lifecycle) {
        h.open("section")
            .a("class", "pl-lc-result")
            .a("data-end", l.end.slug())
            .gt();
        h.leaf("h3", "", self.t(T::Result));
        h.open("p")
            .a("class", "pl-live pl-lc-end")
            .a("data-live", "")
            .gt()
            .t(self.t(T::End))
            .t(": ")
            .t(self.t(end_word(l.end)));
        if let Some(k) = l.stopped_at() {
            h.t(" · ").t(self.t(kind_name(k)));
        }
        h.close("p");
        if l.end == End::Waiting {
            let waiting = l.stages.iter().find_map(|s| match &s.detail {
                Some(Detail::Confirmation(ps)) => ps.iter().find(|p| p.reply.is_none()).cloned(),
                _ => None,
            });
            if let Some(p) = waiting {
                h.tag("p", "pl-lc-waiting")
                    .t(self.t(T::WaitingFor))
                    .t(" ")
                    .raw("<code>")
                    .t(&p.request.permission)
                    .raw("</code> ")
                    .t(&p.request.patterns.join(", "))
                    .close("p");
            }
            self.answer_buttons(h, "");
        } else {
            self.model_told(h, l.model_receives.as_deref());
        }
        if !self.answers.is_empty() {
            h.tag("div", "pl-rp-tools pl-controls");
            h.button("pl-lc-restart", "restart", "")
                .gt()
                .t(self.t(T::Restart))
                .close("button");
            h.close("div");
        }
        h.close("section");
    }

    fn reset_answers(&mut self) {
        self.answers.clear();
    }
}

impl Scene for OpencodeLifecycle {
    fn render(&self) -> String {
        let l = self.lifecycle();
        let mut h = H::default();
        h.leaf("h2", "pl-title", self.t(T::Title));
        h.leaf("p", "pl-intro", self.t(T::Intro));
        h.tag("div", "pl-lc-top");
        h.tag("div", "");
        self.controls(&mut h);
        h.leaf("p", "pl-label", self.t(T::Call));
        h.open("pre")
            .a("class", "pl-lc-call-json")
            .gt()
            .raw("<code>")
            .t(&self.call_json())
            .raw("</code></pre></div>");
        self.rules(&mut h, &l);
        h.close("div");
        let kind = StageKind::ORDER[self.step.min(LAST)];
        let now = format!(
            "{} — {}",
            self.t(T::StepOf)
                .replace("{k}", &(self.step + 1).to_string())
                .replace("{s}", self.t(kind_name(kind))),
            self.t(status_word(l.stage(kind).status))
        );
        ui::open_stages(
            &mut h,
            self.lang,
            "pl-lc-flow",
            self.t(T::Stages),
            self.step,
            LAST,
            &now,
        );
        for (i, s) in l.stages.iter().enumerate() {
            self.stage(&mut h, i, s);
        }
        h.raw("</ol></section>");
        self.result(&mut h, &l);
        h.s
    }

    fn act(&mut self, e: &Event) -> bool {
        match (e.kind, e.act) {
            ("click", "runtime") => {
                let r = match e.arg {
                    "classic" => Runtime::Classic,
                    "next" => Runtime::Next,
                    _ => return false,
                };
                if r == self.runtime {
                    return false;
                }
                self.runtime = r;
                self.reset_answers();
            }
            ("input", "command") => {
                self.command = e.value.to_string();
                self.reset_answers();
            }
            ("click", "seed-command") => {
                self.command = SEED_COMMAND.into();
                self.reset_answers();
            }
            ("change", "long-output") => {
                self.build_log = (e.value == "true").then(seed_build_log);
            }
            ("click", a) if a.starts_with("answer") => {
                if self.lifecycle().end != End::Waiting {
                    return false;
                }
                let reply = match e.arg {
                    "once" => Reply::Once,
                    "always" => Reply::Always,
                    "reject" => Reply::Reject(None),
                    "feedback" => Reply::Reject(Some(T::Feedback.get(self.lang).into())),
                    _ => return false,
                };
                self.answers.push(reply);
            }
            ("click", "restart") => self.reset_answers(),
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

    fn end(s: &OpencodeLifecycle) -> &'static str {
        s.lifecycle().end.slug()
    }

    /// The seed's `rm -rf /tmp/cache`, end to end on the classic runtime: the directory prompt
    /// first, then the in-memory `bash rm -rf *` approval allows the command.
    #[test]
    fn the_seed_example_on_the_classic_runtime() {
        let mut s = OpencodeLifecycle::new(Lang::Zh);
        let html = s.render();
        assert_eq!(end(&s), "waiting");
        assert!(html.contains("data-stage=\"external-directory\" data-status=\"waiting\""));
        assert!(html.contains(
            "<li data-pattern=\"/tmp/cache/*\" data-layer=\"agent\" data-action=\"ask\">"
        ));
        assert!(html.contains("<tr data-sub=\"rm -rf /tmp/cache\"><th scope=\"row\"><code>rm -rf /tmp/cache</code></th><td><code>rm -rf /tmp/cache</code></td><td><code>rm *</code></td>"));
        assert!(s.act(&Event::click("answer", "once")));
        let html = s.render();
        assert_eq!(end(&s), "completed");
        assert!(html.contains(
            "<li data-pattern=\"rm -rf /tmp/cache\" data-layer=\"approved\" data-action=\"allow\">"
        ));
        assert!(html.contains(
            "<pre class=\"pl-lc-model-text\" tabindex=\"0\" aria-label=\"模型收到:\">(no output)</pre>"
        ));
        // Claims: the configured deny is overridable here; the seed's saved pattern is neither's.
        assert!(html.contains("data-claim=\"configured-deny-not-overridable\" data-matches=\"next\" data-holds=\"false\""));
        assert!(html.contains("data-claim=\"saved-pattern-rm-rf-star\" data-matches=\"neither\""));
        // Always on the directory: the TUI's confirmation and what it stores.
        s.act(&Event::click("restart", ""));
        assert!(s.act(&Event::click("answer", "always")));
        let html = s.render();
        assert!(html.contains("This will allow the following patterns until OpenCode is restarted: <code>/tmp/cache/*</code>"));
        assert!(html.contains("external_directory /tmp/cache/* allow"));
        // Reject: what the model is told, and the loop.
        s.act(&Event::click("restart", ""));
        assert!(s.act(&Event::click("answer", "reject")));
        assert_eq!(end(&s), "rejected");
        assert!(s
            .render()
            .contains("The user rejected permission to use this specific tool call."));
        s.act(&Event::click("restart", ""));
        assert!(s.act(&Event::click("answer", "feedback")));
        assert!(s
            .render()
            .contains("with the following feedback: 先列出要删除的文件,我确认后再删"));
        // No more answers once it ended.
        assert!(!s.act(&Event::click("answer", "once")));
    }

    /// The next runtime: no directory prompt, the configured `bash rm *` deny wins.
    #[test]
    fn the_seed_example_on_the_next_runtime() {
        let mut s = OpencodeLifecycle::new(Lang::En);
        assert!(s.act(&Event::click("runtime", "next")));
        assert_eq!(end(&s), "denied");
        let html = s.render();
        assert!(html.contains("data-stage=\"external-directory\" data-status=\"skipped\""));
        assert!(html.contains("data-stage=\"command\" data-status=\"stopped\""));
        assert!(html.contains("data-layer=\"agent\" data-action=\"deny\""));
        assert!(html.contains("a configured deny no approval can override"));
        assert!(html.contains("data-claim=\"configured-deny-not-overridable\" data-matches=\"next\" data-holds=\"true\""));
        assert!(html.contains("nothing is invented"));
    }

    #[test]
    fn long_output_and_other_commands() {
        let mut s = OpencodeLifecycle::new(Lang::En);
        assert!(s.act(&Event::value("change", "long-output", "", "true")));
        s.act(&Event::click("answer", "once"));
        let html = s.render();
        let at = html.find("pl-lc-truncated").unwrap_or(0);
        assert!(
            // The byte limit bites first: 51 200 bytes hold the last 1708 lines.
            html.contains("keeps the last 1708 lines / 51184 bytes (of 5000 lines / 148825 bytes)"),
            "{}",
            html.get(at..at + 400).unwrap_or("")
        );
        s.act(&Event::click("runtime", "next"));
        s.act(&Event::value("input", "command", "", "ls && git status"));
        assert_eq!(s.answers.len(), 0);
        s.act(&Event::click("answer", "once"));
        let html = s.render();
        assert!(
            html.contains("keeps the first 998 + last 998 lines (of 5000)"),
            "{}",
            end(&s)
        );
        assert!(s.act(&Event::key("step", "1", "End")));
        assert_eq!(s.step, 7);
    }
}
