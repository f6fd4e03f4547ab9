//! Scene `opencode-lifecycle`: seed 002's bash call stepped through OpenCode 1.18.32's stages
//! ([`permlab_core::opencode::lifecycle::lifecycle`] computes every stage; this scene words
//! it). The classic runtime by default, the newer one (the seed's account) on request; each
//! stage says where the seed's statements hold. The learner answers the prompts (once / always
//! / reject, with or without feedback) and sees what the model is told.
//!
//! The answer buttons sit in the stage that raised the prompt: the call stops
//! there, and every later step and the result say where to answer, with a button that steps
//! to it and puts focus on the answers.

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

use leptos::prelude::*;

use super::lifecycle_text::T;
use super::ui::{self, Checkbox, ChoiceButtons, Choices, Field, Move, Scroll, Stepper};
use crate::text::i18n::Lang;

/// The seed's command.
pub const SEED_COMMAND: &str = "rm -rf /tmp/cache";

const LAST: usize = StageKind::ORDER.len() - 1;

/// The scene's state.
#[derive(Clone)]
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

    /// The runtime; the answers so far were to its prompts, so they are forgotten.
    pub fn set_runtime(&mut self, r: Runtime) {
        if r != self.runtime {
            self.runtime = r;
            self.answers.clear();
            self.keep_step_in_reach();
        }
    }

    /// The command as typed (a new call: no answers yet).
    pub fn set_command(&mut self, text: String) {
        self.command = text;
        self.answers.clear();
        self.keep_step_in_reach();
    }

    /// The last stage the stepper reaches: while a prompt waits, the stage that asks (the call
    /// goes no further until it is answered, so neither does the learner); else the last.
    pub fn reach(l: &Lifecycle) -> usize {
        Ask::of(l).map_or(LAST, |a| a.at)
    }

    fn keep_step_in_reach(&mut self) {
        self.step = self.step.min(Self::reach(&self.lifecycle()));
    }

    /// Back to the seed's command.
    pub fn seed_command(&mut self) {
        self.set_command(SEED_COMMAND.into());
    }

    /// The seed's 5000-line build log as the command's output, or the seed's short one.
    pub fn set_long_output(&mut self, on: bool) {
        self.build_log = on.then(seed_build_log);
    }

    /// Whether the long build log is the output.
    pub fn long_output(&self) -> bool {
        self.build_log.is_some()
    }

    /// Answers the open prompt by its button's slug (`once`, `always`, `reject`, `feedback`);
    /// nothing when no prompt is open or the slug is unknown.
    pub fn reply(&mut self, slug: &str) {
        if self.lifecycle().end != End::Waiting {
            return;
        }
        let reply = match slug {
            "once" => Reply::Once,
            "always" => Reply::Always,
            "reject" => Reply::Reject(None),
            "feedback" => Reply::Reject(Some(T::Feedback.get(self.lang).into())),
            _ => return,
        };
        self.answers.push(reply);
    }

    /// Forgets every answer (the call starts again).
    pub fn restart(&mut self) {
        self.answers.clear();
        self.keep_step_in_reach();
    }

    /// One stepper move, up to [`OpencodeLifecycle::reach`].
    pub fn step(&mut self, m: Move) {
        let reach = Self::reach(&self.lifecycle());
        self.step = m.apply(self.step, reach).min(reach);
    }

    /// Shows stage `i` (up to [`OpencodeLifecycle::reach`]).
    pub fn go(&mut self, i: usize) {
        self.step = i.min(Self::reach(&self.lifecycle()));
    }

    /// "第 4 / 8 步:… — 等待回答" (the stepper's line, announced).
    pub fn now(&self, l: &Lifecycle) -> String {
        let kind = StageKind::ORDER[self.step.min(LAST)];
        format!(
            "{} — {}",
            self.t(T::StepOf)
                .replace("{k}", &(self.step + 1).to_string())
                .replace("{s}", self.t(kind_name(kind))),
            self.t(status_word(l.stage(kind).status))
        )
    }

    /// "结局: …" (announced).
    pub fn end_line(&self, l: &Lifecycle) -> String {
        let mut s = format!("{}: {}", self.t(T::End), self.t(end_word(l.end)));
        if let Some(k) = l.stopped_at() {
            s.push_str(&format!(" · {}", self.t(kind_name(k))));
        }
        s
    }
}

/// `<code>a</code>, <code>b</code>`.
fn codes(items: Vec<String>) -> impl IntoView {
    items
        .into_iter()
        .enumerate()
        .map(|(i, d)| view! { {(i > 0).then_some(", ")}<code>{d}</code> })
        .collect_view()
}

/// The scene (`data-scene="opencode-lifecycle"`): runtime, command and output; the rules; the
/// eight stages with the one shown marked (a step moves the mark only); the result and the
/// prompt's answers. The command field is never rewritten while typing.
#[component]
pub fn LifecycleScene(
    /// The state to start from (`OpencodeLifecycle::new(lang)`).
    init: OpencodeLifecycle,
) -> impl IntoView {
    let lang = init.lang;
    let t = move |k: T| k.get(lang);
    let model = RwSignal::new(init);
    super::keep::text(
        model,
        "command",
        |m| m.command.clone(),
        OpencodeLifecycle::set_command,
    );
    // Bumped when the seed button (not typing) sets the command.
    let command_set = RwSignal::new(0u32);
    let life = Memo::new(move |_| model.with(OpencodeLifecycle::lifecycle));
    let step = Memo::new(move |_| model.with(|m| m.step));
    let reach = Memo::new(move |_| life.with(OpencodeLifecycle::reach));
    let now = Memo::new(move |_| life.with(|l| model.with(|m| m.now(l))));
    let end_line = Memo::new(move |_| life.with(|l| model.with_untracked(|m| m.end_line(l))));
    super::host::announce(Memo::new(move |_| vec![now.get(), end_line.get()]));
    let go = Callback::new(move |m: Move| model.update(|s| s.step(m)));
    let runtimes = Signal::derive(move || {
        [(Runtime::Classic, T::Classic), (Runtime::Next, T::Next)]
            .into_iter()
            .fold(Choices::default(), |c, (r, k)| c.with(r, r.slug(), t(k)))
            .choose(Some(model.with(|m| m.runtime)))
    });
    let set_runtime = Callback::new(move |r: Runtime| model.update(|m| m.set_runtime(r)));
    let call_json = move || model.with(OpencodeLifecycle::call_json);
    let rules = move || life.with(|l| model.with(|m| rules_view(m, l)));
    // Steps to the stage that asks and focuses its first answer (after the frame that shows
    // it: a hidden button cannot take focus).
    let answers_at: NodeRef<leptos::html::Div> = NodeRef::new();
    let to_answers = Callback::new(move |i: usize| {
        model.update(|m| m.go(i));
        request_animation_frame(move || {
            use leptos::wasm_bindgen::JsCast;
            // `try_`: the scene may have been unmounted before this frame.
            if let Some(b) = answers_at
                .try_get_untracked()
                .flatten()
                .and_then(|d| d.query_selector("button").ok().flatten())
                .and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok())
            {
                let _ = b.focus();
            }
        });
    });
    let stages = move || {
        life.with(|l| {
            let m = model.get_untracked();
            let ask = Ask::of(l);
            l.stages
                .iter()
                .enumerate()
                .map(|(i, s)| stage_view(&m, model, i, s, step, ask, answers_at))
                .collect_view()
        })
    };
    let result = move || {
        life.with(|l| {
            model.with_untracked(|m| result_view(m, model, l, end_line, Ask::of(l), to_answers))
        })
    };
    view! {
        <h2 class="pl-title">{t(T::Title)}</h2>
        <p class="pl-intro">{t(T::Intro)}</p>
        <div class="pl-lc-top">
            <div>
                <ChoiceButtons class="pl-lc-runtime" label=t(T::Runtime) choices=runtimes press=set_runtime/>
                <div class="pl-lc-call">
                    <Field class="pl-lc-command" label=t(T::Command)
                        value=Signal::derive(move || { command_set.track(); model.with_untracked(|m| m.command.clone()) })
                        input=Callback::new(move |v: String| model.update(|m| m.set_command(v)))/>
                    <div class="pl-rp-tools pl-controls">
                        <button type="button" class="pl-lc-seed"
                            disabled=move || model.with(|m| m.command == SEED_COMMAND)
                            on:click=move |_| { model.update(OpencodeLifecycle::seed_command); command_set.update(|n| *n += 1) }>
                            {t(T::SeedCommand)}
                        </button>
                    </div>
                    <Checkbox class="pl-lc-long" label=t(T::LongOutput)
                        on=Signal::derive(move || model.with(OpencodeLifecycle::long_output))
                        set=Callback::new(move |on: bool| model.update(|m| m.set_long_output(on)))/>
                </div>
                <p class="pl-label">{t(T::Call)}</p>
                <pre class="pl-lc-call-json"><code>{call_json}</code></pre>
            </div>
            {rules}
        </div>
        <section class="pl-lc-flow" aria-label=t(T::Stages)>
            <h3>{t(T::Stages)}</h3>
            <Stepper lang label=t(T::Stages) k=step last=reach now go/>
            <ol class="pl-flow">{stages}</ol>
        </section>
        {result}
    }
}

fn rules_view(m: &OpencodeLifecycle, l: &Lifecycle) -> impl IntoView {
    let lang = m.lang;
    let t = move |k: T| k.get(lang);
    let saved = if m.runtime == Runtime::Classic {
        T::SavedClassic
    } else {
        T::SavedNext
    };
    let setup = &m.scenario.setup;
    let items = [
        (T::Configured, setup.agent_rules.as_slice()),
        (saved, setup.approvals.rules()),
    ]
    .into_iter()
    .flat_map(|(label, rules)| rules.iter().map(move |r| (label, r)))
    .enumerate()
    .map(|(n, (label, r))| {
        view! {
            <li value=n data-rule=rule_text(r)>
                <code>{format!("{} {}", r.permission, r.pattern)}</code>" "
                {ui::verdict(action_decision(r.action), lang.action(r.action))}
                " "<small>{t(label)}</small>
            </li>
        }
    })
    .collect_view();
    let before = setup.approvals.rules().len();
    let added = l.approvals.rules().get(before..).unwrap_or(&[]);
    let added = (!added.is_empty()).then(|| {
        view! { <p class="pl-lc-added">{t(T::After)}" "{codes(added.iter().map(rule_text).collect())}</p> }
    });
    view! {
        <div class="pl-lc-rules">
            <h3>{t(T::Rules)}</h3>
            <ol class="pl-lc-rule-list">{items}</ol>
            {added}
        </div>
    }
}

fn check_view(m: &OpencodeLifecycle, c: &PatternCheck) -> impl IntoView {
    let n = c.position.map_or(0, |p| p).to_string();
    let layer = m
        .t(match (c.layer, m.runtime) {
            (Layer::Agent, _) => T::LAgent,
            (Layer::Session, _) => T::LSession,
            (Layer::Approved, Runtime::Classic) => T::LApprovedClassic,
            (Layer::Approved, Runtime::Next) => T::LApprovedNext,
            (Layer::Default, _) => T::LDefault,
        })
        .replace("{n}", &n);
    let text = m
        .t(T::Check)
        .replace("{p}", &c.pattern)
        .replace("{r}", &rule_text(&c.rule))
        .replace("{l}", &layer);
    let alone = c
        .configured_alone
        .then(|| view! { <br/><small>{m.t(T::ConfiguredAlone)}</small> });
    view! {
        <li data-pattern=c.pattern.clone() data-layer=c.layer.slug() data-action=c.rule.action.as_str()>
            {ui::verdict(action_decision(c.rule.action), m.lang.action(c.rule.action))}" "{text}{alone}
        </li>
    }
}

fn model_told(m: &OpencodeLifecycle, text: Option<&str>) -> impl IntoView {
    let lang = m.lang;
    let t = move |k: T| k.get(lang);
    let body = match text {
        Some(s) => view! {
            <pre class="pl-lc-model-text" tabindex="0" aria-label=t(T::ModelTold)>{s.to_string()}</pre>
        }
        .into_any(),
        None => view! { <p class="pl-lc-not-stated">{t(T::NotStated)}</p> }.into_any(),
    };
    view! {
        <div class="pl-lc-model">
            <p class="pl-label">{t(T::ModelTold)}</p>
            {body}
        </div>
    }
}

fn prompt_view(m: &OpencodeLifecycle, p: &Prompt) -> impl IntoView {
    let lang = m.lang;
    let t = move |k: T| k.get(lang);
    let reply = match &p.reply {
        None => t(T::NoReply).into_any(),
        Some(r) => {
            let word = t(match r {
                Reply::Once => T::AOnce,
                Reply::Always => T::AAlways,
                Reply::Reject(None) => T::AReject,
                Reply::Reject(Some(_)) => T::AFeedback,
            });
            let mut then = format!(" → {}", t(if p.proceeds { T::Proceeds } else { T::Stops }));
            if !p.proceeds {
                then.push_str(&format!(
                    " · {}",
                    t(if p.loop_continues {
                        T::LoopGoesOn
                    } else {
                        T::LoopStops
                    })
                ));
            }
            view! { <strong>{format!("{}:", t(T::Answer))}</strong>" "{word}{then} }.into_any()
        }
    };
    let confirm = p.confirmation.map(|c| {
        view! { <p class="pl-lc-confirm">{c}": "{codes(p.request.always.clone())}</p> }
    });
    let stored = (!p.stored.is_empty()).then(
        || view! { <p>{t(T::Stores)}" "{codes(p.stored.iter().map(rule_text).collect())}</p> },
    );
    let told = matches!(p.reply, Some(Reply::Reject(_)))
        .then(|| model_told(m, p.model_message.as_deref()));
    view! {
        <div class="pl-lc-prompt" data-permission=p.request.permission.clone()
            data-reply=p.reply.as_ref().map_or("none", |r| r.slug())>
            <p>
                <strong>{t(T::Prompt)}</strong>" "<code>{p.request.permission.clone()}</code>": "
                {codes(p.request.patterns.clone())}
            </p>
            <p class="pl-hint">{format!("{} {}", t(T::Buttons), BUTTONS.join(" · "))}</p>
            <p class="pl-lc-reply">{reply}</p>
            {confirm}
            {stored}
            {told}
        </div>
    }
}

fn facts(m: &OpencodeLifecycle, rows: Vec<(T, String)>) -> impl IntoView {
    let rows = rows
        .into_iter()
        .map(|(k, v)| view! { <dt>{m.t(k)}</dt><dd>{v}</dd> })
        .collect_view();
    view! { <dl class="pl-lc-facts">{rows}</dl> }
}

fn detail_view(m: &OpencodeLifecycle, d: &Detail) -> AnyView {
    let lang = m.lang;
    let t = move |k: T| k.get(lang);
    match d {
        Detail::Lookup(l) => {
            let mut rows = vec![
                (T::Requested, l.requested.clone()),
                (
                    T::Resolved,
                    l.resolved.clone().unwrap_or_else(|| "—".into()),
                ),
            ];
            if let Some(a) = &l.active {
                rows.push((
                    T::Active,
                    format!("{} ({}, {})", a.name, a.source.slug(), a.origin),
                ));
            }
            if !l.others.is_empty() {
                let o: Vec<String> = l
                    .others
                    .iter()
                    .map(|d| format!("{} ({})", d.name, d.source.slug()))
                    .collect();
                rows.push((T::Others, o.join(", ")));
            }
            let told = l.invalid_message.as_deref().map(|s| model_told(m, Some(s)));
            view! { {facts(m, rows)}{told} }.into_any()
        }
        Detail::Arguments(a) => {
            let source = t(match a.timeout_source {
                TimeoutSource::Argument => T::FromArgument,
                TimeoutSource::Environment => T::FromEnv,
                TimeoutSource::Default => T::FromDefault,
            });
            let mut timeout = format!("{} ms · {source}", a.timeout_ms);
            if let Some(x) = a.max_timeout_ms {
                timeout.push_str(&format!(" · {} {x} ms", t(T::MaxTimeout)));
            }
            if a.over_max {
                timeout.push_str(&format!(" · {}", t(T::OverMax)));
            }
            let told = a.error.as_deref().map(|s| model_told(m, Some(s)));
            view! { {facts(m, vec![(T::Timeout, timeout), (T::Cwd, a.cwd.clone())])}{told} }
                .into_any()
        }
        Detail::Parse(p) => {
            let table = if p.commands.is_empty() {
                view! { <p class="pl-hint">{t(T::NoParse)}</p> }.into_any()
            } else {
                let code_or_dash = |v: Option<&str>| match v {
                    Some(v) => view! { <code>{v.to_string()}</code> }.into_any(),
                    None => "—".into_any(),
                };
                let rows = p
                    .commands
                    .iter()
                    .map(|c| {
                        view! {
                            <tr data-sub=c.text.clone()>
                                <th scope="row"><code>{c.text.clone()}</code></th>
                                <td>{code_or_dash(c.pattern.as_deref())}</td>
                                <td>{code_or_dash(c.always.as_deref())}</td>
                                <td>{c.dirs.join(", ")}</td>
                            </tr>
                        }
                    })
                    .collect_view();
                view! {
                    <Scroll label=t(T::SubCommands)>
                        <table class="pl-lc-parse">
                            <caption>{t(T::SubCommands)}</caption>
                            <thead><tr>
                                <th scope="col">{t(T::ColText)}</th><th scope="col">{t(T::ColPattern)}</th>
                                <th scope="col">{t(T::ColAlways)}</th><th scope="col">{t(T::ColDirs)}</th>
                            </tr></thead>
                            <tbody>{rows}</tbody>
                        </table>
                    </Scroll>
                }
                .into_any()
            };
            let advisory = (!p.advisory_dirs.is_empty()).then(|| {
                view! { <p class="pl-hint">{format!("{} {}", t(T::Advisory), p.advisory_dirs.join(", "))}</p> }
            });
            view! { {table}{advisory} }.into_any()
        }
        Detail::Permission(p) => {
            let checks = p.checks.iter().map(|c| check_view(m, c)).collect_view();
            let (class, k) = match &p.decision {
                Decision::Allow => ("allow", T::DAllow),
                Decision::Ask => ("ask", T::DAsk),
                Decision::Deny { .. } => ("deny", T::DDeny),
            };
            let told = match &p.decision {
                Decision::Deny { message, .. } => Some(model_told(m, message.as_deref())),
                _ => None,
            };
            view! {
                <p>
                    {t(T::Permission)}" "<code>{p.request.permission.clone()}</code>" · "{t(T::Patterns)}": "
                    {codes(p.request.patterns.clone())}
                </p>
                <ul class="pl-lc-checks">{checks}</ul>
                <p class=format!("pl-lc-decision pl-v-{class}") data-decision=p.decision.slug()><strong>{t(k)}</strong></p>
                {told}
            }
            .into_any()
        }
        Detail::Confirmation(prompts) => prompts
            .iter()
            .map(|p| prompt_view(m, p))
            .collect_view()
            .into_any(),
        Detail::Execution(x) => {
            let end = match x.end {
                RunEnd::Exited(c) => format!("{} {c}", t(T::Exited)),
                RunEnd::TimedOut => t(T::TimedOut).into(),
                RunEnd::Aborted => t(T::Aborted).into(),
            };
            facts(
                m,
                vec![
                    (T::Shell, x.shell.clone()),
                    (T::Timeout, format!("{} ms", x.timeout_ms)),
                    (T::Timer, format!("{} ms", x.timer_ms)),
                    (T::ForceKill, format!("{} ms", x.force_kill_after_ms)),
                    (T::End, end),
                ],
            )
            .into_any()
        }
        Detail::Output(o) => {
            let limits = m.scenario.setup.limits;
            let cut = if let Some(c) = o.classic.as_ref().filter(|c| c.truncated) {
                let text = t(T::ClassicCut)
                    .replace("{k}", &c.kept_lines.to_string())
                    .replace("{b}", &c.kept_bytes.to_string())
                    .replace("{n}", &c.total_lines.to_string())
                    .replace("{t}", &c.total_bytes.to_string());
                let file = c
                    .file
                    .clone()
                    .map(|f| view! { " · "{t(T::SavedTo)}" "<code>{f}</code> });
                view! { {text}{file} }.into_any()
            } else if let Some(n) = o.next.as_ref().filter(|n| n.truncated) {
                t(T::NextCut)
                    .replace("{h}", &n.head_lines.to_string())
                    .replace("{t}", &n.tail_lines.to_string())
                    .replace("{n}", &n.total_lines.to_string())
                    .into_any()
            } else {
                t(T::NotTruncated).into_any()
            };
            let limits = t(T::Limits)
                .replace("{l}", &limits.max_lines.to_string())
                .replace("{b}", &limits.max_bytes.to_string());
            view! {
                <p class="pl-hint">{limits}</p>
                <p class="pl-lc-truncated" data-truncated=if o.truncated { "true" } else { "false" }>{cut}</p>
            }
            .into_any()
        }
    }
}

fn claims_view(m: &OpencodeLifecycle, s: &Stage) -> impl IntoView {
    let lang = m.lang;
    let t = move |k: T| k.get(lang);
    let items = s
        .claims
        .iter()
        .map(|c| {
            let holds = c.matches.holds_for(m.runtime);
            // What "Always" stores is shown beside the claim about it: the rule the learner
            // sees in the list is the lesson's example, not what a reply would save.
            let saves = match &s.detail {
                Some(Detail::Permission(p))
                    if c.claim == "saved-pattern-rm-rf-star" && !p.request.always.is_empty() =>
                {
                    let rules = p
                        .request
                        .always
                        .iter()
                        .map(|a| format!("{} {a}", p.request.permission))
                        .collect();
                    Some(view! { <br/><small class="pl-lc-always">{t(T::AlwaysHere)}" "{codes(rules)}</small> })
                }
                _ => None,
            };
            view! {
                <li data-claim=c.claim data-matches=c.matches.slug() data-holds=if holds { "true" } else { "false" }>
                    {claim_text(c.claim).map_or(c.claim, t)}" — "{t(match_word(c.matches))}" "
                    <strong class=if holds { "pl-v-allow" } else { "pl-v-deny" }>
                        {t(if holds { T::HoldsHere } else { T::NotHere })}
                    </strong>
                    {saves}
                </li>
            }
        })
        .collect_view();
    view! {
        <div class="pl-lc-claims">
            <p class="pl-lc-claims-head" data-seed-matches=s.seed_matches.slug()>
                <strong>{t(T::Seed)}</strong>": "
                {t(match s.seed_matches {
                    SeedMatch::Both => T::SBoth,
                    SeedMatch::Classic => T::SClassic,
                    SeedMatch::Next => T::SNext,
                    SeedMatch::Neither => T::SNeither,
                })}
            </p>
            <ul>{items}</ul>
        </div>
    }
}

/// Where the call waits for an answer: the stage that raised the open prompt.
#[derive(Clone, Copy)]
struct Ask {
    /// Its index (0-based, [`StageKind::ORDER`]).
    at: usize,
    /// Its kind.
    kind: StageKind,
}

impl Ask {
    /// The first waiting stage, if the call waits.
    fn of(l: &Lifecycle) -> Option<Ask> {
        if l.end != End::Waiting {
            return None;
        }
        l.stages
            .iter()
            .position(|s| s.status == Status::Waiting)
            .map(|at| Ask {
                at,
                kind: l.stages[at].kind,
            })
    }
}

/// "回答按钮在「② 目录权限」这一步" and a button that steps there.
fn answer_at(lang: Lang, ask: Ask, to_answers: Callback<usize>) -> impl IntoView {
    let t = move |k: T| k.get(lang);
    let text = t(T::AnswerAt).replace("{s}", t(kind_name(ask.kind)));
    view! {
        <p class="pl-lc-answer-at">
            {text}" "
            <button type="button" class="pl-lc-goto" data-arg=ask.at on:click=move |_| to_answers.run(ask.at)>
                {t(T::GoAnswer).replace("{s}", t(kind_name(ask.kind)))}
            </button>
        </p>
    }
}

/// Stage `i`; `step` marks the one shown (only its class and `aria-current` follow a step).
/// The stage that asks carries the answer buttons (the stepper stops there until it is answered).
fn stage_view(
    m: &OpencodeLifecycle,
    model: RwSignal<OpencodeLifecycle>,
    i: usize,
    s: &Stage,
    step: Memo<usize>,
    ask: Option<Ask>,
    answers_at: NodeRef<leptos::html::Div>,
) -> impl IntoView {
    let status = s.status.slug();
    let class = move || {
        let place = match i.cmp(&step.get()) {
            std::cmp::Ordering::Less => "",
            std::cmp::Ordering::Equal => " pl-current",
            std::cmp::Ordering::Greater => " pl-future",
        };
        format!("pl-flow-stage pl-st-{status}{place}")
    };
    let detail = s.detail.as_ref().map(|d| detail_view(m, d));
    let lang = m.lang;
    let answers = ask.map(|a| {
        if a.at == i {
            view! {
                <p class="pl-lc-here">{T::AnswerHere.get(lang)}</p>
                <div class="pl-lc-answers-here" node_ref=answers_at>
                    {answer_buttons(lang, model, "pl-lc-answers-inline")}
                </div>
            }
            .into_any()
        } else {
            ().into_any()
        }
    });
    let claims = (!s.claims.is_empty()).then(|| claims_view(m, s));
    view! {
        <li class=class data-stage=s.kind.slug() data-status=status
            aria-current=move || (step.get() == i).then_some("step")>
            <h4 class="pl-flow-title">{m.t(kind_name(s.kind))}</h4>
            <p class="pl-flow-status"><strong>{m.t(status_word(s.status))}</strong></p>
            {detail}
            {answers}
            {claims}
        </li>
    }
}

fn answer_buttons(lang: Lang, model: RwSignal<OpencodeLifecycle>, class: &str) -> impl IntoView {
    let buttons = [
        ("once", T::AOnce),
        ("always", T::AAlways),
        ("reject", T::AReject),
        ("feedback", T::AFeedback),
    ]
    .map(|(arg, k)| {
        view! {
            <button type="button" class="pl-choice pl-lc-answer" data-arg=arg data-answer=arg
                on:click=move |_| model.update(|m| m.reply(arg))>{k.get(lang)}</button>
        }
    });
    view! {
        <div class=format!("pl-choices pl-lc-answers {class}") role="group" aria-label=T::Answer.get(lang)>
            {buttons}
        </div>
    }
}

fn result_view(
    m: &OpencodeLifecycle,
    model: RwSignal<OpencodeLifecycle>,
    l: &Lifecycle,
    end_line: Memo<String>,
    ask: Option<Ask>,
    to_answers: Callback<usize>,
) -> impl IntoView {
    let lang = m.lang;
    let t = move |k: T| k.get(lang);
    let body = if let Some(ask) = ask {
        let waiting = l.stages.iter().find_map(|s| match &s.detail {
            Some(Detail::Confirmation(ps)) => ps.iter().find(|p| p.reply.is_none()).cloned(),
            _ => None,
        });
        let waiting = waiting.map(|p| {
            view! {
                <p class="pl-lc-waiting">
                    {t(T::WaitingFor)}" "<code>{p.request.permission.clone()}</code>" "{p.request.patterns.join(", ")}
                </p>
            }
        });
        view! { {waiting}{answer_at(lang, ask, to_answers)} }.into_any()
    } else {
        model_told(m, l.model_receives.as_deref()).into_any()
    };
    let restart = (!m.answers.is_empty()).then(|| {
        view! {
            <div class="pl-rp-tools pl-controls">
                <button type="button" class="pl-lc-restart" on:click=move |_| model.update(OpencodeLifecycle::restart)>
                    {t(T::Restart)}
                </button>
            </div>
        }
    });
    view! {
        <section class="pl-lc-result" data-end=l.end.slug()>
            <h3>{t(T::Result)}</h3>
            <p class="pl-live pl-lc-end" data-live="">{move || end_line.get()}</p>
            {body}
            {restart}
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(s: &OpencodeLifecycle) -> String {
        let s = s.clone();
        super::super::html(move || view! { <LifecycleScene init=s/> })
    }

    fn end(s: &OpencodeLifecycle) -> &'static str {
        s.lifecycle().end.slug()
    }

    /// The seed's `rm -rf /tmp/cache`, end to end on the classic runtime: the directory prompt
    /// first, then the in-memory `bash rm -rf *` approval allows the command.
    #[test]
    fn the_seed_example_on_the_classic_runtime() {
        let mut s = OpencodeLifecycle::new(Lang::Zh);
        let html = render(&s);
        assert_eq!(end(&s), "waiting");
        assert!(html.contains("data-stage=\"external-directory\" data-status=\"waiting\""));
        // The answers sit in the stage that asks (②), once; the later steps and the result
        // point there.
        let at = html.find("data-stage=\"external-directory\"").unwrap();
        let next = html.find("data-stage=\"command\"").unwrap();
        assert!(html[at..next].contains("pl-lc-answers-here"));
        assert_eq!(html.matches("pl-lc-answers-here").count(), 1);
        assert_eq!(html.matches("data-answer=\"once\"").count(), 1);
        assert!(html[next..].contains("回答按钮在「② 目录权限(external_directory)」这一步"));
        assert_eq!(
            html.matches("class=\"pl-lc-goto\"").count(),
            1,
            "the result alone points to the answers"
        );
        // The stepper stops at the stage that waits, until it is answered.
        s.step(Move::Last);
        assert_eq!(s.step, 3);
        s.step(Move::Next);
        assert_eq!(s.step, 3);
        s.go(6);
        assert_eq!(s.step, 3);
        assert!(html.contains(
            "<li data-pattern=\"/tmp/cache/*\" data-layer=\"agent\" data-action=\"ask\">"
        ));
        assert!(html.contains("<tr data-sub=\"rm -rf /tmp/cache\"><th scope=\"row\"><code>rm -rf /tmp/cache</code></th><td><code>rm -rf /tmp/cache</code></td><td><code>rm *</code></td>"));
        s.reply("once");
        let html = render(&s);
        assert_eq!(end(&s), "completed");
        s.step(Move::Last);
        assert_eq!(s.step, LAST);
        // What "Always" would save, beside the lesson's claim about it: the arity prefix.
        assert!(
            html.contains("这次调用点「始终允许」,这个运行时存下的是: <code>bash rm *</code>"),
            "{html}"
        );
        // A new command asks again: the stepper is taken back to the stage that waits.
        s.set_command("rm -rf /tmp/other".into());
        assert_eq!(s.step, 3);
        s.seed_command();
        assert!(html.contains(
            "<li data-pattern=\"rm -rf /tmp/cache\" data-layer=\"approved\" data-action=\"allow\">"
        ));
        assert!(html.contains(
            "<pre tabindex=\"0\" aria-label=\"模型收到:\" class=\"pl-lc-model-text\">(no output)</pre>"
        ));
        // Claims: the configured deny is overridable here; the seed's saved pattern is neither's.
        assert!(html.contains("data-claim=\"configured-deny-not-overridable\" data-matches=\"next\" data-holds=\"false\""));
        assert!(html.contains("data-claim=\"saved-pattern-rm-rf-star\" data-matches=\"neither\""));
        // Always on the directory: the TUI's confirmation and what it stores.
        s.restart();
        s.reply("always");
        let html = render(&s);
        assert!(html.contains("This will allow the following patterns until OpenCode is restarted: <code>/tmp/cache/*</code>"));
        assert!(html.contains("external_directory /tmp/cache/* allow"));
        // Reject: what the model is told, and the loop.
        s.restart();
        s.reply("reject");
        assert_eq!(end(&s), "rejected");
        assert!(render(&s).contains("The user rejected permission to use this specific tool call."));
        s.restart();
        s.reply("feedback");
        assert!(render(&s).contains("with the following feedback: 先列出要删除的文件,我确认后再删"));
        // No more answers once it ended.
        let n = s.answers.len();
        s.reply("once");
        assert_eq!(s.answers.len(), n);
    }

    /// The next runtime: no directory prompt, the configured `bash rm *` deny wins.
    #[test]
    fn the_seed_example_on_the_next_runtime() {
        let mut s = OpencodeLifecycle::new(Lang::En);
        s.set_runtime(Runtime::Next);
        assert_eq!(end(&s), "denied");
        let html = render(&s);
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
        s.set_long_output(true);
        s.reply("once");
        let html = render(&s);
        let at = html.find("pl-lc-truncated").unwrap_or(0);
        assert!(
            // The byte limit bites first: 51 200 bytes hold the last 1708 lines.
            html.contains("keeps the last 1708 lines / 51184 bytes (of 5000 lines / 148825 bytes)"),
            "{}",
            html.get(at..at + 400).unwrap_or("")
        );
        s.set_runtime(Runtime::Next);
        s.set_command("ls && git status".into());
        assert_eq!(s.answers.len(), 0);
        s.reply("once");
        let html = render(&s);
        assert!(
            html.contains("keeps the first 998 + last 998 lines (of 5000)"),
            "{}",
            end(&s)
        );
        s.step(Move::Last);
        assert_eq!(s.step, 7);
    }
}
