//! Scene `merge`: seed 003's four-state merge, one permission check from the participants'
//! candidates to the audit line ([`permlab_core::merge`] decides everything).
//!
//! The learner picks one of the seed's three walkthroughs or any tool / effect / path, may add
//! a hook suggestion (its behavior and the tool it applies to), and answers the approval
//! prompt with `y`, a bare Enter (N) or a failing approver — the prompt is offered only when
//! the core's merge says `ask`, so `[deny, ask]` never shows it.

use permlab_core::json;
use permlab_core::lcc::safe_path;
use permlab_core::merge::{
    decide, Approval, Behavior, Effect, Participant, PermissionDecision, PolicyRule, Request, Trace,
};
use permlab_core::Decision;

use leptos::prelude::*;

use super::merge_text::T;
use super::ui::{self, Checkbox, ChoiceButtons, ChoiceSelect, Choices, Field};
use crate::text::i18n::Lang;

/// The seed's workspace (its `code/` directory).
pub const WORKSPACE: &str = "/home/learner/code";

/// The five tools of the seed's registry, with the effect their definition declares.
pub const TOOLS: [(&str, Effect); 5] = [
    ("read_file", Effect::Read),
    ("glob", Effect::Read),
    ("write_file", Effect::Write),
    ("edit_file", Effect::Write),
    ("shell", Effect::Execute),
];

/// The seed's three walkthroughs: tool, effect, path.
pub const WALKS: [(&str, Effect, &str); 3] = [
    ("glob", Effect::Read, ""),
    ("write_file", Effect::Write, "chapter3-note.txt"),
    ("write_file", Effect::Write, "../outside.txt"),
];

/// What the learner answers at the approval prompt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// `y`.
    Yes,
    /// A bare Enter (the default N).
    No,
    /// The approval provider throws.
    Fail,
}

/// The hook's name: its candidates come from `hook:pre-tool-use`.
pub const HOOK_NAME: &str = "pre-tool-use";
/// The hook's reason (ours; the seed's chapter 4 is not part of it).
pub const HOOK_REASON: &str = "Suggested by the PreToolUse hook";
/// The message of a failing approver (ours; the seed only asks what happens).
pub const APPROVER_ERROR: &str = "the approval provider threw";

/// The scene's state.
#[derive(Clone, PartialEq)]
pub struct Merge {
    lang: Lang,
    /// The tool's name.
    pub tool: String,
    /// Its effect.
    pub effect: Effect,
    /// The path (or, for `execute`, the command) as typed.
    pub arg: String,
    /// A hook suggestion takes part.
    pub hook: bool,
    /// What it suggests.
    pub hook_behavior: Behavior,
    /// The tool it applies to (`*`: every tool).
    pub hook_tool: String,
    /// The learner's answer to the prompt, once given.
    pub answer: Option<Answer>,
}

fn effect_slug(e: Effect) -> &'static str {
    match e {
        Effect::Read => "read",
        Effect::Write => "write",
        Effect::Execute => "execute",
    }
}

/// What a hook may say, in the select's order.
const BEHAVIORS: [Behavior; 4] = [
    Behavior::Allow,
    Behavior::Deny,
    Behavior::Ask,
    Behavior::Passthrough,
];

/// A behavior's word: `deny` is the API's own name, the zh gloss follows it.
fn behavior_word(lang: Lang, b: Behavior) -> String {
    match lang {
        Lang::En => b.as_str().to_string(),
        Lang::Zh => {
            let gloss = match b {
                Behavior::Allow => "放行",
                Behavior::Deny => "拒绝",
                Behavior::Ask => "问人",
                Behavior::Passthrough => "不表态",
            };
            format!("{}({gloss})", b.as_str())
        }
    }
}

fn behavior_badge(lang: Lang, b: Behavior) -> impl IntoView {
    let (class, icon) = match b {
        Behavior::Allow => ("allow", "✓"),
        Behavior::Deny => ("deny", "✗"),
        Behavior::Ask => ("ask", "?"),
        Behavior::Passthrough => ("passthrough", "○"),
    };
    view! {
        <span class=format!("pl-badge pl-v-{class}") data-behavior=b.as_str()>
            <span aria-hidden="true">{icon}" "</span>{behavior_word(lang, b)}
        </span>
    }
}

impl Merge {
    /// The scene at the seed's first walkthrough.
    pub fn new(lang: Lang) -> Merge {
        let mut m = Merge {
            lang,
            tool: String::new(),
            effect: Effect::Read,
            arg: String::new(),
            hook: false,
            hook_behavior: Behavior::Allow,
            hook_tool: "*".into(),
            answer: None,
        };
        m.walk(0);
        m
    }

    fn walk(&mut self, i: usize) {
        if let Some(&(tool, effect, path)) = WALKS.get(i) {
            self.tool = tool.into();
            self.effect = effect;
            self.arg = path.into();
            self.hook = false;
            self.answer = None;
        }
    }

    /// The walkthrough the current request is, if any.
    pub fn current_walk(&self) -> Option<usize> {
        if self.hook {
            return None;
        }
        WALKS
            .iter()
            .position(|&(t, e, p)| t == self.tool && e == self.effect && p == self.arg.trim())
    }

    /// The participants: the seed's chapter 3 profile, plus the hook when on.
    pub fn participants(&self) -> Vec<Participant> {
        let mut v = Participant::chapter3();
        if self.hook {
            v.push(Participant::Hook(PolicyRule::new(
                HOOK_NAME,
                self.hook_tool.as_str(),
                self.hook_behavior,
                HOOK_REASON,
            )));
        }
        v
    }

    fn path(&self) -> Option<&str> {
        let a = self.arg.trim();
        (self.effect != Effect::Execute && !a.is_empty()).then_some(a)
    }

    /// The core's decision with the learner's answer; `true` when the prompt is still open
    /// (the merge asked and no answer was given yet: nothing after it has happened).
    pub fn trace(&self) -> (Trace, bool) {
        let req = Request {
            tool: &self.tool,
            effect: self.effect,
            path: self.path(),
            workspace: WORKSPACE,
        };
        let mut asked = false;
        let t = decide(&req, &self.participants(), |_, _| {
            asked = true;
            match self.answer {
                Some(Answer::Yes) => Approval::Approve,
                Some(Answer::Fail) => Approval::Failed(APPROVER_ERROR.into()),
                _ => Approval::Reject,
            }
        });
        (t, asked && self.answer.is_none())
    }

    /// The tool's arguments as the prompt prints them (`{"path":"…","content":"..."}`).
    fn args_json(&self) -> String {
        let mut s = String::from("{");
        let key = match (self.effect, self.tool.as_str()) {
            (Effect::Execute, _) => "command",
            (_, "glob") => "pattern",
            _ => "path",
        };
        json::write_string(key, &mut s);
        s.push(':');
        json::write_string(self.arg.trim(), &mut s);
        if self.effect == Effect::Write {
            s.push_str(",\"content\":\"...\"");
        }
        s.push('}');
        s
    }

    /// The approval prompt, as seed 003's program prints it.
    pub fn prompt(&self, ask: &PermissionDecision) -> String {
        format!(
            "工具调用需要批准: {}\n原因: {}\n参数: {}\n允许本次调用? [y/N]",
            self.tool,
            ask.reason,
            self.args_json()
        )
    }

    fn t(&self, k: T) -> &'static str {
        k.get(self.lang)
    }

    /// A change to the request: the old answer was to another prompt, so it is forgotten
    /// when the request did change.
    fn request_change(&mut self, f: impl FnOnce(&mut Merge)) {
        let before = self.clone();
        f(self);
        if *self != before {
            self.answer = None;
        }
    }

    /// One of the seed's walkthroughs ([`WALKS`]).
    pub fn choose_walk(&mut self, i: usize) {
        self.request_change(|m| m.walk(i));
    }

    /// A tool of [`TOOLS`] (with the effect its definition declares).
    pub fn set_tool(&mut self, name: &str) {
        if let Some(&(t, eff)) = TOOLS.iter().find(|(t, _)| *t == name) {
            self.request_change(|m| {
                m.tool = t.into();
                m.effect = eff;
            });
        }
    }

    /// The request's effect.
    pub fn set_effect(&mut self, eff: Effect) {
        self.request_change(|m| m.effect = eff);
    }

    /// The path (or command) as typed.
    pub fn set_arg(&mut self, text: String) {
        self.request_change(|m| m.arg = text);
    }

    /// The hook suggestion on or off.
    pub fn set_hook(&mut self, on: bool) {
        self.request_change(|m| m.hook = on);
    }

    /// What the hook suggests.
    pub fn set_hook_behavior(&mut self, b: Behavior) {
        self.request_change(|m| m.hook_behavior = b);
    }

    /// The tool the hook applies to (`*` or one of [`TOOLS`]).
    pub fn set_hook_tool(&mut self, name: &str) {
        if name == "*" || TOOLS.iter().any(|(t, _)| *t == name) {
            self.request_change(|m| m.hook_tool = name.to_string());
        }
    }

    /// The learner's answer at the prompt.
    pub fn answer(&mut self, a: Answer) {
        self.answer = Some(a);
    }

    /// "最终结果: <audit line>" or "最终结果: 等你回答" (announced).
    pub fn status(&self, trace: &Trace, pending: bool) -> String {
        if pending {
            format!("{} {}", self.t(T::Final), self.t(T::Pending))
        } else {
            format!("{} {}", self.t(T::Final), trace.audit_line())
        }
    }

    /// What participant `i` saw, in words (the facts come from the request and the core).
    fn saw(&self, p: &Participant) -> String {
        let lang = self.lang;
        match p {
            Participant::WorkspaceBoundary => {
                if self.effect != Effect::Write {
                    return self.t(T::NotWrite).into();
                }
                match self.path() {
                    None => self.t(T::NoPath).into(),
                    Some(path) => match safe_path(WORKSPACE, path) {
                        Ok(sp) => format!("{} {}", self.t(T::Inside), sp.absolute),
                        Err(e) => format!("{} {e}", self.t(T::Outside)),
                    },
                }
            }
            Participant::ShellDefault => self
                .t(if self.effect == Effect::Execute {
                    T::Exec
                } else {
                    T::NotExec
                })
                .into(),
            Participant::Rule(r) | Participant::Hook(r) => {
                let hit = r.tool == "*" || r.tool == self.tool;
                let tool = if r.tool == "*" {
                    T::AllTools.get(lang)
                } else {
                    r.tool.as_str()
                };
                self.t(if hit { T::Applies } else { T::Misses })
                    .replace("{t}", tool)
            }
        }
    }

    fn participant_name(&self, p: &Participant) -> &'static str {
        self.t(match p {
            Participant::WorkspaceBoundary => T::PBoundary,
            Participant::ShellDefault => T::PShell,
            Participant::Rule(_) => T::PRule,
            Participant::Hook(_) => T::PHook,
        })
    }
}

/// ① … ⑳ for 1 … 20 (the seed numbers its stages this way).
fn circled(n: usize) -> String {
    match n {
        1..=20 => char::from_u32(0x2460 + n as u32 - 1)
            .map(String::from)
            .unwrap_or_default(),
        _ => format!("({n})"),
    }
}

/// The scene (`data-scene="merge"`): the walkthroughs, the request and hook controls, each
/// participant's candidate, and the stages after the merge (the prompt only for `ask`).
#[component]
pub fn MergeScene(
    /// The state to start from (`Merge::new(lang)`).
    init: Merge,
) -> impl IntoView {
    let lang = init.lang;
    let t = move |k: T| k.get(lang);
    let model = RwSignal::new(init);
    super::keep::text(model, "arg", |m| m.arg.clone(), Merge::set_arg);
    // Bumped when a walkthrough (not typing) sets the path: only then is the field written.
    let arg_set = RwSignal::new(0u32);
    let traced = Memo::new(move |_| model.with(Merge::trace));
    let status =
        Memo::new(move |_| traced.with(|(tr, p)| model.with_untracked(|m| m.status(tr, *p))));
    super::host::announce(Memo::new(move |_| vec![status.get()]));
    let walks = Signal::derive(move || {
        [T::Walk1, T::Walk2, T::Walk3]
            .into_iter()
            .enumerate()
            .fold(Choices::default(), |c, (i, k)| {
                c.with(i, i.to_string(), t(k))
            })
            .choose(model.with(Merge::current_walk))
    });
    let walk = Callback::new(move |i: usize| {
        model.update(|m| m.choose_walk(i));
        arg_set.update(|n| *n += 1);
    });
    let final_line = move || {
        traced.with(|(tr, pending)| {
            let icon = (!pending).then(|| {
                let d = if tr.decision.behavior == Behavior::Allow {
                    Decision::Allow
                } else {
                    Decision::Deny
                };
                view! { <span aria-hidden="true">{ui::icon(d)}" "</span> }
            });
            view! { {icon}<span data-live="">{status.get()}</span> }
        })
    };
    view! {
        <h2 class="pl-title">{t(T::Title)}</h2>
        <p class="pl-intro">{t(T::Intro)}</p>
        <ChoiceButtons class="pl-merge-walks pl-controls" label=t(T::Walks) choices=walks press=walk/>
        <div class="pl-merge-setup">
            <RequestControls model arg_set/>
            <HookControls model/>
        </div>
        {move || model.with(|m| traced.with(|(tr, _)| candidates(m, tr)))}
        <Flow model traced/>
        <p class="pl-live pl-merge-final"
            data-final=move || traced.with(|(tr, p)| if *p { "pending" } else { tr.decision.behavior.as_str() })>
            {final_line}
        </p>
    }
}

/// The request: tool, effect, path or command.
#[component]
fn RequestControls(
    /// The scene's state.
    model: RwSignal<Merge>,
    /// Bumped when the path is set from outside the field.
    arg_set: RwSignal<u32>,
) -> impl IntoView {
    let lang = model.with_untracked(|m| m.lang);
    let t = move |k: T| k.get(lang);
    let tools = Signal::derive(move || {
        TOOLS
            .iter()
            .fold(Choices::default(), |c, (n, _)| c.with(*n, *n, *n))
            .choose(model.with(|m| TOOLS.iter().map(|(n, _)| *n).find(|n| *n == m.tool)))
    });
    let effects = Signal::derive(move || {
        [
            (Effect::Read, T::EffRead),
            (Effect::Write, T::EffWrite),
            (Effect::Execute, T::EffExec),
        ]
        .into_iter()
        .fold(Choices::default(), |c, (e, k)| {
            c.with(e, effect_slug(e), t(k))
        })
        .choose(Some(model.with(|m| m.effect)))
    });
    let execute = Memo::new(move |_| model.with(|m| m.effect == Effect::Execute));
    view! {
        <fieldset class="pl-merge-request">
            <legend>{t(T::Request)}</legend>
            <ChoiceSelect class="pl-merge-tool" label=t(T::Tool) choices=tools
                set=Callback::new(move |v: &'static str| model.update(|m| m.set_tool(v)))/>
            <ChoiceSelect class="pl-merge-effect" label=t(T::Effect) choices=effects
                set=Callback::new(move |e: Effect| model.update(|m| m.set_effect(e)))/>
            <Field class="pl-merge-arg"
                label=Signal::derive(move || t(if execute.get() { T::Command } else { T::Path }))
                value=Signal::derive(move || { arg_set.track(); model.with_untracked(|m| m.arg.clone()) })
                input=Callback::new(move |v: String| model.update(|m| m.set_arg(v)))/>
            <p class="pl-merge-ws">{t(T::Workspace)}": "<code>{WORKSPACE}</code></p>
        </fieldset>
    }
}

/// The hook suggestion: on or off, what it says, which tool it is for.
#[component]
fn HookControls(
    /// The scene's state.
    model: RwSignal<Merge>,
) -> impl IntoView {
    let lang = model.with_untracked(|m| m.lang);
    let t = move |k: T| k.get(lang);
    let on = Memo::new(move |_| model.with(|m| m.hook));
    let behaviors = Signal::derive(move || {
        BEHAVIORS
            .into_iter()
            .fold(Choices::default(), |c, b| {
                c.with(b, b.as_str(), behavior_word(lang, b))
            })
            .choose(Some(model.with(|m| m.hook_behavior)))
    });
    // The hook's tool: `*` or one of the tools, by name.
    let tools = Signal::derive(move || {
        TOOLS
            .iter()
            .fold(
                Choices::default().with("*", "*", t(T::AllTools)),
                |c, (n, _)| c.with(*n, *n, *n),
            )
            .choose(model.with(|m| {
                std::iter::once("*")
                    .chain(TOOLS.iter().map(|(n, _)| *n))
                    .find(|n| *n == m.hook_tool)
            }))
    });
    view! {
        <fieldset class="pl-merge-hook">
            <legend>{t(T::PHook)}</legend>
            <Checkbox class="pl-merge-hook-on" label=t(T::HookOn) on=on
                set=Callback::new(move |v: bool| model.update(|m| m.set_hook(v)))/>
            <Show when=move || on.get()>
                <ChoiceSelect class="pl-merge-hook-behavior" label=t(T::HookSays) choices=behaviors
                    set=Callback::new(move |b: Behavior| model.update(|m| m.set_hook_behavior(b)))/>
                <ChoiceSelect class="pl-merge-hook-tool" label=t(T::HookFor) choices=tools
                    set=Callback::new(move |v: &'static str| model.update(|m| m.set_hook_tool(v)))/>
            </Show>
        </fieldset>
    }
}

fn participant_slug(p: &Participant) -> &'static str {
    match p {
        Participant::WorkspaceBoundary => "boundary",
        Participant::ShellDefault => "shell",
        Participant::Rule(_) => "rule",
        Participant::Hook(_) => "hook",
    }
}

/// Each participant: what it saw and its candidate (the winner starred).
fn candidates(m: &Merge, trace: &Trace) -> impl IntoView {
    let lang = m.lang;
    let t = move |k: T| k.get(lang);
    let ps = m.participants();
    let rows = trace
        .candidates
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let p = ps.get(c.participant)?;
            let winner = c.decision.as_ref() == Some(&trace.merged);
            let cand = match &c.decision {
                None => view! { <span class="pl-none">{t(T::NoOpinion)}</span> }.into_any(),
                Some(d) => view! {
                    {behavior_badge(lang, d.behavior)}" "<small>{format!("({})", d.source)}</small>
                    {winner.then(|| view! {
                        " "<strong class="pl-win-mark">{format!("★ {}", if lang == Lang::Zh { "胜出" } else { "wins" })}</strong>
                    })}
                }
                .into_any(),
            };
            Some(view! {
                <tr data-participant=participant_slug(p)
                    data-candidate=c.decision.as_ref().map_or("none", |d| d.behavior.as_str())
                    class=if winner { "pl-winner" } else { "" }>
                    <th scope="row">{format!("{} {}", circled(i + 1), m.participant_name(p))}</th>
                    <td class="pl-saw">{m.saw(p)}</td>
                    <td class="pl-cand">{cand}</td>
                </tr>
            })
        })
        .collect_view();
    view! {
        <div class="pl-scroll"><table class="pl-merge-cands">
            <caption>{t(T::CandsCaption)}</caption>
            <thead><tr>
                <th scope="col">{t(T::ColWho)}</th><th scope="col">{t(T::ColSaw)}</th><th scope="col">{t(T::ColCand)}</th>
            </tr></thead>
            <tbody>{rows}</tbody>
        </table></div>
    }
}

/// How the approval stage goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Approving {
    /// The merge asks: the prompt and its answers.
    Prompt,
    /// An ask was offered but a stronger candidate won: no prompt.
    Suppressed,
    /// Nobody asked.
    NotNeeded,
}

/// One numbered stage of the flow after the candidates (`n` follows the candidates' count).
#[component]
fn MergeStage(
    /// Its number.
    #[prop(into)]
    n: Signal<usize>,
    /// Its `data-stage`.
    slug: &'static str,
    /// Its title.
    title: &'static str,
    /// What it shows.
    children: Children,
) -> impl IntoView {
    view! {
        <li class="pl-merge-stage" data-stage=slug>
            <h3 class="pl-stage-title">{move || format!("{} {title}", circled(n.get()))}</h3>
            {children()}
        </li>
    }
}

/// Merge, converge, approval; then (once answered) audit, execution and what the model gets.
/// The prompt's answer buttons stay the same nodes while the learner answers (focus stays).
#[component]
fn Flow(
    /// The scene's state.
    model: RwSignal<Merge>,
    /// The core's trace and whether the prompt is open.
    traced: Memo<(Trace, bool)>,
) -> impl IntoView {
    let lang = model.with_untracked(|m| m.lang);
    let t = move |k: T| k.get(lang);
    let n0 = Memo::new(move |_| traced.with(|(tr, _)| tr.candidates.len()));
    let pending = Memo::new(move |_| traced.with(|(_, p)| *p));
    let offered = Memo::new(move |_| {
        traced.with(|(tr, _)| {
            tr.candidates
                .iter()
                .filter_map(|c| c.decision.as_ref().map(|d| d.behavior))
                .collect::<Vec<_>>()
        })
    });
    let merged = Memo::new(move |_| traced.with(|(tr, _)| tr.merged.clone()));
    let approving = Memo::new(move |_| {
        if merged.with(|d| d.behavior) == Behavior::Ask {
            Approving::Prompt
        } else if offered.with(|o| o.contains(&Behavior::Ask)) {
            Approving::Suppressed
        } else {
            Approving::NotNeeded
        }
    });
    let result = move || {
        let b = merged.with(|d| d.behavior);
        offered.with(|o| match o.len() {
            0 => t(T::MergeNone).into_any(),
            1 => view! { {t(T::MergeOne)}{behavior_badge(lang, b)} }.into_any(),
            _ => {
                let list: Vec<&str> = o.iter().map(|b| b.as_str()).collect();
                let text = t(T::MergeMany).replace("{c}", &format!("[{}]", list.join(", ")));
                view! { {text}{behavior_badge(lang, b)} }.into_any()
            }
        })
    };
    let prompt = move || {
        let answer = model.with(|m| m.answer);
        let text = merged.with(|d| model.with_untracked(|m| m.prompt(d)));
        let tail = match answer {
            Some(Answer::Yes) => " y",
            Some(Answer::No) => " ",
            Some(Answer::Fail) => " …",
            None => "",
        };
        format!("{text}{tail}")
    };
    let approval = move || match approving.get() {
        Approving::Prompt => view! {
            <p class="pl-hint">{t(T::PromptIs)}</p>
            <pre class="pl-merge-prompt" lang="zh-CN">{prompt}</pre>
            <AnswerButtons model/>
            <Show when=move || pending.get()><p class="pl-merge-waiting">{t(T::Waiting)}</p></Show>
        }
        .into_any(),
        Approving::Suppressed => {
            view! { <p class="pl-merge-noprompt">{t(T::Suppressed)}</p> }.into_any()
        }
        Approving::NotNeeded => {
            view! { <p class="pl-merge-noprompt">{t(T::NoApproval)}</p> }.into_any()
        }
    };
    let after = move || {
        traced.with(|(tr, pending)| {
            (!pending).then(|| {
                let runs = tr.decision.behavior == Behavior::Allow;
                let told = match tr.tool_error() {
                    Some(e) => view! { <pre class="pl-tool-error">{e}</pre> }.into_any(),
                    None => view! { <p>{t(T::ModelOk)}</p> }.into_any(),
                };
                let (audit, line) = (tr.decision.behavior.as_str(), tr.audit_line());
                view! {
                    <MergeStage n=Signal::derive(move || n0.get() + 4) slug="audit" title=t(T::Audit)>
                        <pre class="pl-audit" data-audit=audit>{line}</pre>
                    </MergeStage>
                    <MergeStage n=Signal::derive(move || n0.get() + 5) slug="execute" title=t(T::Execute)>
                        <p class="pl-merge-exec" data-runs=if runs { "true" } else { "false" }>
                            {t(if runs { T::Runs } else { T::NotRun })}
                        </p>
                    </MergeStage>
                    <MergeStage n=Signal::derive(move || n0.get() + 6) slug="model" title=t(T::Model)>
                        {told}
                    </MergeStage>
                }
            })
        })
    };
    view! {
        <ol class="pl-merge-flow">
            <MergeStage n=Signal::derive(move || n0.get() + 1) slug="merge" title=t(T::Merge)>
                <p class="pl-merge-result" data-merged=move || merged.with(|d| d.behavior.as_str())>
                    {result}" "<small>{move || merged.with(|d| format!("({})", d.source))}</small>
                </p>
                <p class="pl-hint">{t(T::Order)}</p>
            </MergeStage>
            <MergeStage n=Signal::derive(move || n0.get() + 2) slug="converge" title=t(T::Converge)>
                <p>{move || t(match merged.with(|d| d.behavior) {
                    Behavior::Passthrough => T::ConvPass,
                    Behavior::Ask => T::ConvAsk,
                    _ => T::ConvSame,
                })}</p>
            </MergeStage>
            <MergeStage n=Signal::derive(move || n0.get() + 3) slug="approval" title=t(T::Approval)>
                {approval}
            </MergeStage>
            {after}
        </ol>
    }
}

/// The prompt's three answers (`data-arg` y / n / fail), the given one pressed.
#[component]
fn AnswerButtons(
    /// The scene's state.
    model: RwSignal<Merge>,
) -> impl IntoView {
    let lang = model.with_untracked(|m| m.lang);
    let t = move |k: T| k.get(lang);
    let buttons = [("y", T::AnswerY, Answer::Yes), ("n", T::AnswerN, Answer::No), ("fail", T::AnswerFail, Answer::Fail)]
        .map(|(arg, k, a)| {
            let pressed = move || if model.with(|m| m.answer) == Some(a) { "true" } else { "false" };
            view! {
                <button type="button" class="pl-choice pl-merge-answer" data-arg=arg aria-pressed=pressed
                    on:click=move |_| model.update(|m| m.answer(a))>{t(k)}</button>
            }
        });
    view! {
        <div class="pl-choices pl-merge-answers" role="group" aria-label=t(T::Approval)>{buttons}</div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn audit(html: &str) -> Option<String> {
        let start = html.find("class=\"pl-audit\"")?;
        let rest = &html[start..];
        let open = rest.find('>')? + 1;
        let end = rest.find("</pre>")?;
        Some(rest[open..end].to_string())
    }

    fn walk(m: &mut Merge, i: usize) {
        m.choose_walk(i);
        assert_eq!(m.current_walk(), Some(i));
    }

    fn render(m: &Merge) -> String {
        let m = m.clone();
        super::super::html(move || view! { <MergeScene init=m/> })
    }

    /// The seed's three walkthroughs, by clicks, give its audit lines (the seed cuts the
    /// reasons short with `...`; the core prints them whole).
    #[test]
    fn the_seed_walkthroughs_reproduce() {
        let mut m = Merge::new(Lang::Zh);
        walk(&mut m, 0);
        let html = render(&m);
        assert_eq!(
            audit(&html).unwrap(),
            "[Permission] glob: allow (default) - No permission rule blocked the request"
        );
        assert!(audit(&html)
            .unwrap()
            .starts_with("[Permission] glob: allow (default) - No "));
        assert_eq!(html.matches("data-candidate=\"none\"").count(), 3);
        assert!(html.contains("data-merged=\"passthrough\""));
        assert!(html.contains("不需要(合并结果不是 ask)"));
        assert!(!html.contains("pl-merge-prompt"));

        walk(&mut m, 1);
        let html = render(&m);
        assert!(html.contains("data-participant=\"boundary\" data-candidate=\"none\""));
        assert!(html.contains("data-participant=\"rule\" data-candidate=\"ask\""));
        assert!(html.contains(
            "工具调用需要批准: write_file\n原因: File writes require explicit approval from chapter 3 onward\n参数: {\"path\":\"chapter3-note.txt\",\"content\":\"...\"}\n允许本次调用? [y/N]"
        ));
        assert_eq!(audit(&html), None, "no audit before the answer");
        assert!(html.contains("data-final=\"pending\""));
        m.answer(Answer::Yes);
        let html = render(&m);
        assert_eq!(
            audit(&html).unwrap(),
            "[Permission] write_file: allow (terminal-approval) - User approved this tool call"
        );
        assert!(html.contains("data-runs=\"true\""));
        m.answer(Answer::No);
        let line = audit(&render(&m)).unwrap();
        assert!(line.starts_with("[Permission] write_file: deny (terminal-approval)"));
        assert!(render(&m).contains("Error [permission_denied]: User rejected this tool call"));

        walk(&mut m, 2);
        let html = render(&m);
        assert_eq!(
            audit(&html).unwrap(),
            "[Permission] write_file: deny (workspace-boundary) - Writing outside the workspace is forbidden"
        );
        assert!(html.contains("候选 [deny, ask] → 最强的是 "));
        assert!(html.contains("根本没调用,用户看不到任何提示框"));
        assert!(!html.contains("pl-merge-prompt"));
        assert!(html.contains("data-runs=\"false\""));
        assert!(html.contains(
            "<pre class=\"pl-tool-error\">Error [permission_denied]: Writing outside the workspace is forbidden</pre>"
        ));
        assert!(html.contains("Path escapes workspace: ../outside.txt"));
    }

    #[test]
    fn a_hook_allow_cannot_beat_the_shell_default() {
        let mut m = Merge::new(Lang::En);
        m.set_tool("shell");
        assert_eq!(m.effect, Effect::Execute);
        m.set_arg("ls".into());
        m.set_hook(true);
        assert_eq!(m.current_walk(), None);
        let html = render(&m);
        assert!(html.contains("data-participant=\"hook\" data-candidate=\"allow\""));
        assert!(html.contains("data-merged=\"ask\""));
        assert!(html.contains("{\"command\":\"ls\"}"));
        // The hook denies instead: deny wins, no prompt.
        m.set_hook_behavior(Behavior::Deny);
        let html = render(&m);
        assert!(html.contains(
            "[Permission] shell: deny (hook:pre-tool-use) - Suggested by the PreToolUse hook"
        ));
        assert!(html.contains("never called, the user sees no prompt"));
        // A hook for another tool has no opinion.
        m.set_hook_tool("write_file");
        assert!(render(&m).contains("data-participant=\"hook\" data-candidate=\"none\""));
    }

    #[test]
    fn answers_and_failures() {
        let mut m = Merge::new(Lang::En);
        m.choose_walk(1);
        m.answer(Answer::Fail);
        assert!(render(&m).contains(
            "[Permission] write_file: deny (terminal-approval) - Approval failed: the approval provider threw"
        ));
        // Editing the request forgets the answer.
        m.set_arg("notes/a.txt".into());
        assert_eq!(m.answer, None);
        assert!(render(&m).contains("data-final=\"pending\""));
        // Unknown names change nothing.
        let before = m.clone();
        m.set_tool("rm");
        m.set_hook_tool("rm");
        assert!(m == before);
    }

    #[test]
    fn hostile_input_is_text() {
        let mut m = Merge::new(Lang::En);
        m.choose_walk(1);
        m.set_arg("<img src=x onerror=alert(1)>".into());
        let html = render(&m);
        assert!(!html.contains("<img"));
    }
}
