//! Scene `codex-approvals`: seed 001's "先划沙箱，越界才审批" as Codex 0.171.0 decides it
//! ([`permlab_core::codex::approval`]). The learner sets `sandbox_mode` and `approval_policy`
//! (Granular with its per-category booleans) and sees the same calls — the core's
//! [`LESSON_CALLS`]: a read, a write in the workspace, one outside it, the network, an
//! escalation request, a dangerous command, an execpolicy `prompt` rule and a `forbidden` one —
//! run, ask or be rejected.
//!
//! Guess, then reveal: a call's outcome is shown only after the learner guesses it (or asks to
//! see it), and a guess belongs to the setting it was made on — changing a setting asks again.
//! A Granular rejection says why nobody was asked: `false` means auto-reject, not "ask me"
//! (seed 000's misconception 3).

use permlab_core::codex::approval::{
    self, ApprovalPolicy, Command, Granular, LessonCall, Outcome, SandboxMode, Verdict,
    LESSON_CALLS, REJECT_RULES_APPROVAL_REASON, REJECT_SANDBOX_APPROVAL_REASON,
};
use permlab_core::codex::Decision as ExecDecision;
use permlab_core::{Decision, EngineId};

use leptos::prelude::*;

use super::codex_approvals_text::T;
use super::keep::{Kept, Read};
use super::ui::{self, Checkbox, ChoiceButtons, Choices, Scroll};
use crate::text::i18n::Lang;

/// What the learner did with one call under the current setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// Guessed this three-way verdict (run / ask / reject), then saw the outcome.
    Guess(Decision),
    /// Asked to see the outcome without guessing.
    Shown,
}

/// The three guesses a call can take, as the lesson's verdicts: run (allow), ask, reject
/// (deny — rejected up front, or blocked by the sandbox with nobody asked).
pub const GUESSES: [Decision; 3] = [Decision::Allow, Decision::Ask, Decision::Deny];

/// The Granular categories, as `protocol.rs` names them, and whether permlab models them.
pub const CATEGORIES: [(&str, bool); 5] = [
    ("sandbox_approval", true),
    ("rules", true),
    ("skill_approval", false),
    ("request_permissions", false),
    ("mcp_elicitations", false),
];

/// `approval_policy` as the scene offers it: a named policy, or granular (its booleans are
/// the scene's [`CodexApprovals::granular`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// `untrusted`, `on-failure`, `on-request` or `never`.
    Named(ApprovalPolicy),
    /// `granular`.
    Granular,
}

impl Policy {
    /// The policies offered, in the buttons' order.
    pub const ALL: [Policy; 5] = [
        Policy::Named(ApprovalPolicy::Untrusted),
        Policy::Named(ApprovalPolicy::OnFailure),
        Policy::Named(ApprovalPolicy::OnRequest),
        Policy::Named(ApprovalPolicy::Never),
        Policy::Granular,
    ];

    /// The config value (the core's).
    pub fn slug(self) -> &'static str {
        match self {
            Policy::Named(p) => p.slug(),
            Policy::Granular => ApprovalPolicy::Granular(Granular::ALL_TRUE).slug(),
        }
    }
}

/// The scene's state.
#[derive(Clone)]
pub struct CodexApprovals {
    lang: Lang,
    /// `sandbox_mode`.
    pub sandbox: SandboxMode,
    /// `approval_policy`.
    pub policy: Policy,
    /// `[approval_policy.granular]`, used when the policy is `granular`.
    pub granular: Granular,
    /// Per lesson call, what the learner did under the current setting.
    pub picks: Vec<Option<Pick>>,
}

impl CodexApprovals {
    /// The seed's config: `workspace-write` and `on-request`, nothing guessed.
    pub fn new(lang: Lang) -> CodexApprovals {
        CodexApprovals {
            lang,
            sandbox: SandboxMode::WorkspaceWrite,
            policy: Policy::Named(ApprovalPolicy::OnRequest),
            granular: Granular::ALL_TRUE,
            picks: vec![None; LESSON_CALLS.len()],
        }
    }

    fn t(&self, k: T) -> &'static str {
        k.get(self.lang)
    }

    /// The policy as Codex reads it.
    pub fn approval_policy(&self) -> ApprovalPolicy {
        match self.policy {
            Policy::Named(p) => p,
            Policy::Granular => ApprovalPolicy::Granular(self.granular),
        }
    }

    /// Every lesson call's verdict under the current setting (the core decides).
    pub fn verdicts(&self) -> Vec<Verdict> {
        approval::lesson(self.sandbox, self.approval_policy())
    }

    /// A guess belongs to the setting it was made on: a new setting asks again.
    fn forget(&mut self) {
        self.picks = vec![None; LESSON_CALLS.len()];
    }

    /// Sets `sandbox_mode`.
    pub fn set_sandbox(&mut self, m: SandboxMode) {
        if m != self.sandbox {
            self.sandbox = m;
            self.forget();
        }
    }

    /// Sets `approval_policy`.
    pub fn set_policy(&mut self, p: Policy) {
        if p != self.policy {
            self.policy = p;
            self.forget();
        }
    }

    /// Sets one Granular category.
    pub fn set_category(&mut self, name: &str, on: bool) {
        let g = &mut self.granular;
        let field = match name {
            "sandbox_approval" => &mut g.sandbox_approval,
            "rules" => &mut g.rules,
            "skill_approval" => &mut g.skill_approval,
            "request_permissions" => &mut g.request_permissions,
            "mcp_elicitations" => &mut g.mcp_elicitations,
            _ => return,
        };
        if *field != on {
            *field = on;
            if self.policy == Policy::Granular {
                self.forget();
            }
        }
    }

    /// Whether a Granular category is on.
    pub fn category(&self, name: &str) -> bool {
        let g = self.granular;
        match name {
            "sandbox_approval" => g.sandbox_approval,
            "rules" => g.rules,
            "skill_approval" => g.skill_approval,
            "request_permissions" => g.request_permissions,
            _ => g.mcp_elicitations,
        }
    }

    /// Seed 000's misconception 3: `workspace-write`, Granular with `sandbox_approval = false`.
    pub fn misconception(&mut self) {
        self.sandbox = SandboxMode::WorkspaceWrite;
        self.policy = Policy::Granular;
        self.granular = Granular {
            sandbox_approval: false,
            ..Granular::ALL_TRUE
        };
        self.forget();
    }

    /// The learner's guess for call `i` (it reveals the outcome).
    pub fn guess(&mut self, i: usize, d: Decision) {
        if let Some(p) = self.picks.get_mut(i) {
            *p = Some(Pick::Guess(d));
        }
    }

    /// Shows call `i`'s outcome without a guess.
    pub fn show(&mut self, i: usize) {
        if let Some(p) = self.picks.get_mut(i) {
            p.get_or_insert(Pick::Shown);
        }
    }

    /// Shows every outcome not yet shown.
    pub fn show_all(&mut self) {
        for i in 0..self.picks.len() {
            self.show(i);
        }
    }

    /// What a reload keeps: the setting, and what was done with each call under it.
    pub fn kept(&self) -> String {
        let g = self.granular;
        let picks = self.picks.iter().map(|p| {
            p.map(|p| match p {
                Pick::Shown => "shown",
                Pick::Guess(d) => d.as_str(),
            })
        });
        Kept::default()
            .put("sandbox", self.sandbox.slug())
            .put("policy", self.policy.slug())
            .flag("sandbox_approval", g.sandbox_approval)
            .flag("rules", g.rules)
            .flag("skill_approval", g.skill_approval)
            .flag("request_permissions", g.request_permissions)
            .flag("mcp_elicitations", g.mcp_elicitations)
            .list("picks", picks)
            .text()
    }

    /// Takes back [`CodexApprovals::kept`]: the setting first (a new setting forgets the
    /// picks), then the picks, if there is one per lesson call.
    pub fn restore(&mut self, r: &Read) {
        if let Some(m) = r.get("sandbox").and_then(SandboxMode::from_slug) {
            self.set_sandbox(m);
        }
        if let Some(p) = r
            .get("policy")
            .and_then(|s| Policy::ALL.into_iter().find(|p| p.slug() == s))
        {
            self.set_policy(p);
        }
        for (name, _) in CATEGORIES {
            if let Some(on) = r.flag(name) {
                self.set_category(name, on);
            }
        }
        let picks = r.list("picks", self.picks.len(), |w| match w {
            "shown" => Some(Pick::Shown),
            d => GUESSES
                .into_iter()
                .find(|g| g.as_str() == d)
                .map(Pick::Guess),
        });
        if let Some(p) = picks {
            self.picks = p;
        }
    }

    /// How many calls are revealed.
    pub fn revealed(&self) -> usize {
        self.picks.iter().flatten().count()
    }

    /// The config file for the setting, as `~/.codex/config.toml` would say it.
    pub fn config_toml(&self) -> String {
        let mut s = format!(
            "# ~/.codex/config.toml\nsandbox_mode    = \"{}\"\n",
            self.sandbox.slug()
        );
        if self.policy == Policy::Granular {
            s.push_str("\n[approval_policy.granular]\n");
            for (name, _) in CATEGORIES {
                s.push_str(&format!("{name:<19} = {}\n", self.category(name)));
            }
        } else {
            s.push_str(&format!("approval_policy = \"{}\"\n", self.policy.slug()));
        }
        s
    }

    /// "运行 · 8 个调用里已揭示 3 个" style progress line (announced).
    pub fn progress(&self) -> String {
        self.t(T::Progress)
            .replace("{k}", &self.revealed().to_string())
            .replace("{n}", &self.picks.len().to_string())
    }

    /// Why nobody was asked, when Granular's `false` turned a prompt into a rejection: the
    /// category's name.
    pub fn granular_false(v: &Verdict) -> Option<&'static str> {
        match v.reason.as_deref() {
            Some(REJECT_SANDBOX_APPROVAL_REASON) => Some("sandbox_approval"),
            Some(REJECT_RULES_APPROVAL_REASON) => Some("rules"),
            _ => None,
        }
    }
}

/// A command's facts in words (what codex-core knows about it; stated, not computed).
pub(crate) fn facts(lang: Lang, f: &Command) -> String {
    let t = move |k: T| k.get(lang);
    let f = *f;
    let mut v: Vec<&str> = Vec::new();
    match f.rule {
        Some(ExecDecision::Allow) => v.push(t(T::FRuleAllow)),
        Some(ExecDecision::Prompt) => v.push(t(T::FRulePrompt)),
        Some(ExecDecision::Forbidden) => v.push(t(T::FRuleForbidden)),
        None => v.push(t(T::FNoRule)),
    }
    if f.known_safe {
        v.push(t(T::FSafe));
    }
    if f.dangerous {
        v.push(t(T::FDangerous));
    }
    if f.writes_outside_workspace {
        v.push(t(T::FWritesOutside));
    } else if f.writes {
        v.push(t(T::FWrites));
    }
    if f.network {
        v.push(t(T::FNetwork));
    }
    if f.requests_escalation {
        v.push(t(T::FEscalation));
    }
    if !f.writes && !f.network {
        v.push(t(T::FNoWrite));
    }
    v.join(if lang == Lang::Zh { "、" } else { ", " })
}

/// An outcome in words, without the sandbox detail (the comparison table's Codex demos).
pub(crate) fn outcome_short(lang: Lang, o: Outcome) -> &'static str {
    match o {
        Outcome::Run => T::ORun.get(lang),
        Outcome::Ask => T::OAsk.get(lang),
        Outcome::AskAfterSandboxDenial => T::OAskAfter.get(lang),
        Outcome::SandboxDenied => T::OSandboxDenied.get(lang),
        Outcome::AskThenSandboxDenied => T::OAskThenDenied.get(lang),
        Outcome::Reject => T::OReject.get(lang),
    }
}

/// The outcome in words.
fn outcome_text(lang: Lang, v: &Verdict) -> &'static str {
    let k = match v.outcome {
        Outcome::Run if v.sandboxed => T::ORunSandboxed,
        Outcome::Run => T::ORunOutside,
        Outcome::Ask => T::OAsk,
        Outcome::AskAfterSandboxDenial => T::OAskAfter,
        Outcome::SandboxDenied => T::OSandboxDenied,
        Outcome::AskThenSandboxDenied => T::OAskThenDenied,
        Outcome::Reject => T::OReject,
    };
    k.get(lang)
}

fn guess_word(lang: Lang, d: Decision) -> &'static str {
    match d {
        Decision::Allow => T::GRun.get(lang),
        Decision::Ask => T::GAsk.get(lang),
        _ => T::GReject.get(lang),
    }
}

/// The scene (`data-scene="codex-approvals"`): the setting, its config file, and the calls with
/// their guesses and outcomes. A setting change re-renders the calls' results (the guesses are
/// asked again); the controls are built once, so focus stays on them.
#[component]
pub fn CodexApprovalsScene(
    /// The state to start from (`CodexApprovals::new(lang)`).
    init: CodexApprovals,
) -> impl IntoView {
    let lang = init.lang;
    let t = move |k: T| k.get(lang);
    let model = RwSignal::new(init);
    super::keep::choices(
        model,
        "choices",
        CodexApprovals::kept,
        CodexApprovals::restore,
    );
    let verdicts = Memo::new(move |_| model.with(CodexApprovals::verdicts));
    let progress = Memo::new(move |_| model.with(CodexApprovals::progress));
    super::host::announce(Memo::new(move |_| vec![progress.get()]));
    let sandboxes = Signal::derive(move || {
        SandboxMode::ALL
            .iter()
            .fold(Choices::default(), |c, m| c.with(*m, m.slug(), m.slug()))
            .choose(Some(model.with(|m| m.sandbox)))
    });
    let policies = Signal::derive(move || {
        Policy::ALL
            .iter()
            .fold(Choices::default(), |c, p| c.with(*p, p.slug(), p.slug()))
            .choose(Some(model.with(|m| m.policy)))
    });
    let granular_on = Memo::new(move |_| model.with(|m| m.policy == Policy::Granular));
    let categories = CATEGORIES
        .map(|(name, modelled)| {
            let label: &'static str = if modelled {
                name
            } else {
                match name {
                    "skill_approval" => T::CatSkill.get(lang),
                    "request_permissions" => T::CatRequest.get(lang),
                    _ => T::CatMcp.get(lang),
                }
            };
            view! {
                <Checkbox class="pl-ca-category" label
                    on=Signal::derive(move || model.with(|m| m.category(name)))
                    set=Callback::new(move |on: bool| model.update(|m| m.set_category(name, on)))/>
            }
        })
        .collect_view();
    // A row shows the learner's pick too: re-render on a guess, not only when verdicts change.
    let picks = Memo::new(move |_| model.with(|m| m.picks.clone()));
    let rows = move || {
        picks.track();
        verdicts.with(|vs| {
            let m = model.get_untracked();
            LESSON_CALLS
                .iter()
                .zip(vs)
                .enumerate()
                .map(|(i, (c, v))| call_row(&m, model, i, c, v))
                .collect_view()
        })
    };
    let pin = EngineId::Codex.pin().unwrap_or("Codex");
    view! {
        <h2 class="pl-title">{t(T::Title)}</h2>
        <p class="pl-intro">{t(T::Intro)}</p>
        <p class="pl-hint pl-ca-pin">{t(T::Pin).replace("{pin}", pin)}</p>
        <div class="pl-ca-setting">
            <div class="pl-ca-controls">
                <ChoiceButtons class="pl-ca-sandbox" label="sandbox_mode" choices=sandboxes
                    press=Callback::new(move |s: SandboxMode| model.update(|m| m.set_sandbox(s)))/>
                <ChoiceButtons class="pl-ca-policy" label="approval_policy" choices=policies
                    press=Callback::new(move |p: Policy| model.update(|m| m.set_policy(p)))/>
                <fieldset class="pl-ca-granular" hidden=move || !granular_on.get()>
                    <legend>"[approval_policy.granular]"</legend>
                    {categories}
                    <p class="pl-hint">{t(T::GranularHint)}</p>
                </fieldset>
                <div class="pl-controls">
                    <button type="button" class="pl-ca-misconception"
                        on:click=move |_| model.update(CodexApprovals::misconception)>{t(T::Misconception)}</button>
                </div>
            </div>
            <div>
                <p class="pl-label">{t(T::Config)}</p>
                <pre class="pl-ca-config"><code>{move || model.with(CodexApprovals::config_toml)}</code></pre>
            </div>
        </div>
        <p class="pl-hint">{t(T::HowTo)}</p>
        <Scroll label=t(T::Calls)>
            <table class="pl-ca-calls">
                <caption>{t(T::Calls)}</caption>
                <thead><tr>
                    <th scope="col">{t(T::ColCommand)}</th>
                    <th scope="col">{t(T::ColFacts)}</th>
                    <th scope="col">{t(T::ColGuess)}</th>
                    <th scope="col">{t(T::ColOutcome)}</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </Scroll>
        <div class="pl-controls">
            <button type="button" class="pl-ca-show-all"
                on:click=move |_| model.update(CodexApprovals::show_all)>{t(T::ShowAll)}</button>
        </div>
        <p class="pl-live pl-ca-progress" data-live="">{move || progress.get()}</p>
    }
}

/// One call: its command and facts, the guess buttons, and (once guessed or shown) the outcome.
fn call_row(
    m: &CodexApprovals,
    model: RwSignal<CodexApprovals>,
    i: usize,
    c: &LessonCall,
    v: &Verdict,
) -> impl IntoView {
    let lang = m.lang;
    let t = move |k: T| k.get(lang);
    let pick = m.picks.get(i).copied().flatten();
    let guesses = GUESSES
        .map(|d| {
            let pressed = match pick {
                Some(Pick::Guess(g)) if g == d => "true",
                _ => "false",
            };
            view! {
                <button type="button" class="pl-choice pl-ca-guess" data-guess=d.as_str() aria-pressed=pressed
                    on:click=move |_| model.update(|m| m.guess(i, d))>{guess_word(lang, d)}</button>
            }
        })
        .collect_view();
    let show = pick.is_none().then(|| {
        view! {
            <button type="button" class="pl-ca-show" on:click=move |_| model.update(|m| m.show(i))>{t(T::Show)}</button>
        }
    });
    let result = match pick {
        None => {
            view! { <td class="pl-ca-outcome"><span class="pl-hint">{t(T::GuessFirst)}</span></td> }
                .into_any()
        }
        Some(p) => {
            let d = v.decision();
            let mark = match p {
                Pick::Guess(g) if g == d => Some(
                    view! { <strong class="pl-ca-mark pl-v-allow">{t(T::Right).to_string()}</strong> },
                ),
                Pick::Guess(g) => Some(view! {
                    <strong class="pl-ca-mark pl-v-deny">{t(T::Wrong).replace("{g}", guess_word(lang, g))}</strong>
                }),
                Pick::Shown => None,
            };
            let reason = v.reason.clone().map(|r| {
                view! { <p class="pl-ca-reason"><small>{t(T::Reason)}" "<code>{r}</code></small></p> }
            });
            let surprise = CodexApprovals::granular_false(v).map(|name| {
                view! {
                    <p class="pl-ca-surprise" data-category=name>
                        <span aria-hidden="true">"⚠ "</span>{t(T::Surprise).replace("{c}", name)}
                    </p>
                }
            });
            let escalation = (v.outcome == Outcome::Reject
                && c.facts.requests_escalation
                && m.policy != Policy::Named(ApprovalPolicy::OnRequest))
            .then(|| view! { <p class="pl-ca-note">{t(T::EscalationNote)}</p> });
            // The lesson's "on-request asks at the edge" against the product, where they part.
            let differs = (v.outcome == Outcome::SandboxDenied
                && m.policy == Policy::Named(ApprovalPolicy::OnRequest))
            .then(|| {
                view! {
                    <p class="pl-ca-surprise pl-ca-differs">
                        <span aria-hidden="true">"⚠ "</span>{t(T::OnRequestDiffers)}
                    </p>
                }
            });
            view! {
                <td class="pl-ca-outcome" data-outcome=v.outcome.slug() data-verdict=d.as_str()>
                    {ui::verdict(d, guess_word(lang, d))}" "{mark}
                    <p>{outcome_text(lang, v)}</p>
                    {reason}{surprise}{differs}{escalation}
                </td>
            }
            .into_any()
        }
    };
    view! {
        <tr data-call=c.slug data-revealed=if pick.is_some() { "true" } else { "false" }>
            <th scope="row"><code>{c.command}</code></th>
            <td class="pl-ca-facts">{facts(lang, &c.facts)}</td>
            <td>
                <div class="pl-choices pl-ca-guesses" role="group"
                    aria-label=t(T::GuessFor).replace("{c}", c.command)>{guesses}</div>
                {show}
            </td>
            {result}
        </tr>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reload_brings_back_the_setting_and_what_was_done_with_each_call() {
        let mut s = CodexApprovals::new(Lang::Zh);
        s.misconception();
        s.guess(0, Decision::Ask);
        s.show(2);
        let mut again = CodexApprovals::new(Lang::Zh);
        again.restore(&Read::new(&s.kept()));
        assert_eq!(again.sandbox, s.sandbox);
        assert_eq!(again.policy, Policy::Granular);
        assert!(!again.granular.sandbox_approval && again.granular.rules);
        assert_eq!(again.picks, s.picks);
        // Picks for another number of calls (another version's lesson) are not taken back.
        let mut odd = CodexApprovals::new(Lang::Zh);
        odd.restore(&Read::new("policy=never\npicks=ask"));
        assert_eq!(odd.policy, Policy::Named(ApprovalPolicy::Never));
        assert!(odd.picks.iter().all(Option::is_none));
    }

    fn render(s: &CodexApprovals) -> String {
        let s = s.clone();
        super::super::html(move || view! { <CodexApprovalsScene init=s/> })
    }

    fn row<'a>(html: &'a str, slug: &str) -> &'a str {
        let at = html
            .find(&format!("<tr data-call=\"{slug}\""))
            .unwrap_or_else(|| panic!("{slug}"));
        let rest = &html[at..];
        &rest[..rest.find("</tr>").unwrap()]
    }

    #[test]
    fn nothing_is_revealed_before_a_guess() {
        let s = CodexApprovals::new(Lang::Zh);
        let html = render(&s);
        assert_eq!(html.matches("data-revealed=\"false\"").count(), 8);
        assert!(!html.contains("data-outcome="));
        assert!(!html.contains("pl-badge"));
        assert!(html.contains("sandbox_mode    = \"workspace-write\""));
        assert!(html.contains("approval_policy = \"on-request\""));
        assert!(html.contains("Codex 0.171.0"));
        assert!(html.contains("已揭示 0 / 8 个调用"));
    }

    #[test]
    fn the_same_calls_change_with_the_setting() {
        let mut s = CodexApprovals::new(Lang::Zh);
        // Inside the workspace sandbox the build runs; the push is blocked with nobody asked.
        s.guess(1, Decision::Ask);
        s.guess(3, Decision::Deny);
        let html = render(&s);
        let build = row(&html, "build");
        assert!(
            build.contains("data-outcome=\"run\" data-verdict=\"allow\""),
            "{build}"
        );
        assert!(build.contains("✗ 猜错了(你猜的是问人)"));
        let push = row(&html, "network");
        assert!(push.contains("data-outcome=\"sandbox-denied\""));
        assert!(push.contains("✓ 猜对了"));
        assert!(row(&html, "outside").contains("data-revealed=\"false\""));
        // A new setting asks again; danger-full-access runs the push.
        s.set_sandbox(SandboxMode::DangerFullAccess);
        assert_eq!(s.revealed(), 0);
        s.show_all();
        let html = render(&s);
        assert!(row(&html, "network").contains("data-outcome=\"run\""));
        assert!(row(&html, "forbidden-rule").contains("data-outcome=\"reject\""));
        // untrusted asks for anything not known-safe.
        s.set_policy(Policy::Named(ApprovalPolicy::Untrusted));
        s.show_all();
        let html = render(&s);
        assert!(row(&html, "read").contains("data-outcome=\"run\""));
        assert!(row(&html, "build").contains("data-outcome=\"ask\""));
        assert!(row(&html, "escalate").contains("data-outcome=\"reject\""));
        assert!(row(&html, "escalate").contains("pl-ca-note"));
    }

    #[test]
    fn on_request_says_where_the_product_parts_from_the_lesson_s_ask_at_the_edge() {
        let mut s = CodexApprovals::new(Lang::Zh);
        s.show(2);
        let html = render(&s);
        let outside = row(&html, "outside");
        assert!(
            outside.contains("data-outcome=\"sandbox-denied\""),
            "{outside}"
        );
        assert!(outside.contains("pl-ca-differs"));
        assert!(outside.contains("和课程的说法不同") && outside.contains("Codex 0.171.0"));
        // Nowhere else, and not under another policy.
        assert_eq!(html.matches("pl-ca-differs").count(), 1);
        s.set_policy(Policy::Named(ApprovalPolicy::Never));
        s.show_all();
        assert!(!render(&s).contains("pl-ca-differs"));
    }

    #[test]
    fn granular_false_rejects_without_a_prompt_and_says_so() {
        let mut s = CodexApprovals::new(Lang::En);
        s.guess(5, Decision::Ask);
        assert!(row(&render(&s), "dangerous").contains("data-outcome=\"ask\""));
        s.misconception();
        assert_eq!(s.revealed(), 0, "the guess was for on-request");
        assert!(render(&s).contains("sandbox_approval    = false"));
        s.guess(5, Decision::Ask);
        let html = render(&s);
        let r = row(&html, "dangerous");
        assert!(
            r.contains("data-outcome=\"reject\" data-verdict=\"deny\""),
            "{r}"
        );
        assert!(r.contains("✗ Wrong (you guessed ask)"));
        assert!(r.contains("data-category=\"sandbox_approval\""));
        assert!(r.contains("automatically rejected instead of shown to the user"));
        assert!(r.contains(REJECT_SANDBOX_APPROVAL_REASON));
        // The prompt rule still asks (`rules` is true) — until `rules` is false too.
        s.show(6);
        assert!(!row(&render(&s), "prompt-rule").contains("data-outcome=\"reject\""));
        s.set_category("rules", false);
        s.show(6);
        let html = render(&s);
        assert!(row(&html, "prompt-rule").contains("data-category=\"rules\""));
        // The unmodelled categories change nothing but are kept in the config.
        s.set_category("mcp_elicitations", false);
        assert!(s.config_toml().contains("mcp_elicitations    = false"));
    }
}
