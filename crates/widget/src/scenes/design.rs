//! Scene `design-evaluator`: seed 001's closing section, the harness a learner builds
//! ([`permlab_core::design`] decides everything). The learner composes an evaluator from the
//! pieces the lessons showed — the order (top-down / bottom-up / grouped / strictest), the
//! fallback, the mode stage, `ask_or_deny` — picks the session (read-only, unattended), and
//! runs it on the ticket agent's tools or on the miniagent table. Each call is a question
//! first: the learner guesses the design's verdict, then sees it, the five real engines'
//! verdicts on the same table (and why those that differ do), and the one the design behaves
//! like. Nothing about a call's verdict is on the page before it is revealed.

use permlab_core::design::{
    agreement, compare, engine_modes, likeness, miniagent_writes, Comparison, Design, Order,
    Session, Stage, TicketAgent, MINIAGENT_CALLS,
};
use permlab_core::{Action, Call, Decision, EngineId, RuleTable};

use leptos::prelude::*;

use super::design_text::T;
use super::keep::{Kept, Read};
use super::ui::{self, Checkbox, ChoiceButtons, Choices, Scroll};
use crate::text::i18n::Lang;

/// Which table the design runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bench {
    /// Seed 001's ticket agent: its three lists and one call per tool (and one on no list).
    Ticket,
    /// The lesson's miniagent table with [`MINIAGENT_CALLS`].
    Miniagent,
}

impl Bench {
    /// `ticket` or `miniagent` (the buttons' `data-arg`).
    pub fn slug(self) -> &'static str {
        match self {
            Bench::Ticket => "ticket",
            Bench::Miniagent => "miniagent",
        }
    }
}

/// One of the two starting designs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// [`Design::SEED_001`].
    Seed,
    /// [`Design::NAIVE`].
    Naive,
}

impl Start {
    /// Both, in the buttons' order.
    pub const ALL: [Start; 2] = [Start::Seed, Start::Naive];

    /// `seed` or `naive` (the buttons' `data-arg`).
    pub fn slug(self) -> &'static str {
        match self {
            Start::Seed => "seed",
            Start::Naive => "naive",
        }
    }

    /// The design it starts from.
    pub fn design(self) -> Design {
        match self {
            Start::Seed => Design::SEED_001,
            Start::Naive => Design::NAIVE,
        }
    }
}

/// Every verdict a design or an engine gives (the kept text's words for them).
const DECISIONS: [Decision; 4] = [
    Decision::Allow,
    Decision::Ask,
    Decision::Deny,
    Decision::Unavailable,
];

/// What the learner did with a call's question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Guess {
    /// Guessed this verdict (then it was revealed).
    Said(Decision),
    /// Asked to see the answer without guessing.
    Skipped,
}

/// One real engine's answer on a revealed call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineLine {
    /// The engine.
    pub id: EngineId,
    /// Its verdict.
    pub decision: Decision,
    /// Whether it gives the design's verdict.
    pub agrees: bool,
    /// The session mode it ran in, if not its default ([`engine_modes`]).
    pub mode: Option<&'static str>,
    /// Why it decided so, in the page's language (the core's reason, worded).
    pub why: String,
}

/// A revealed call: the design's verdict and the comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Revealed {
    /// The design's verdict.
    pub verdict: Decision,
    /// How the design got there (the deciding row or the fallback, then the later stages).
    pub why: String,
    /// The previous design's verdict on this call, when it was another.
    pub was: Option<Decision>,
    /// The harness to name ([`Comparison::closest`]).
    pub closest: Option<EngineId>,
    /// Every real engine, in [`EngineId::ALL`] order.
    pub engines: Vec<EngineLine>,
}

/// One call's card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Card {
    /// The guess, once made (the call is then revealed).
    pub guess: Option<Guess>,
    /// The answers, only once revealed.
    pub revealed: Option<Revealed>,
}

/// The scene's state.
#[derive(Clone, Debug, PartialEq)]
pub struct Lab {
    lang: Lang,
    agent: TicketAgent,
    mini: RuleTable,
    /// The composed evaluator.
    pub design: Design,
    /// Who is there when the calls are made.
    pub session: Session,
    /// The table the design runs on.
    pub bench: Bench,
    /// Per call: the learner's guess, once revealed.
    pub guesses: Vec<Option<Guess>>,
    /// The design's verdicts before the last change of design or session (same table).
    previous: Option<Vec<Decision>>,
    /// The call revealed last (what the live region says).
    pub last: Option<usize>,
}

fn order_text(o: Order) -> T {
    match o {
        Order::TopDown => T::OTopDown,
        Order::BottomUp => T::OBottomUp,
        Order::Grouped => T::OGrouped,
        Order::Strictest => T::OStrictest,
    }
}

/// ① … ⑤ for the seed's steps.
fn circled(n: u8) -> String {
    char::from_u32(0x2460 + u32::from(n.clamp(1, 20)) - 1)
        .map(String::from)
        .unwrap_or_default()
}

impl Lab {
    /// The scene on the ticket agent, with the seed's `decide()`, attended.
    pub fn new(lang: Lang) -> Lab {
        let mut lab = Lab {
            lang,
            agent: TicketAgent::seed(),
            mini: RuleTable::from_json(crate::presets::MINIAGENT).unwrap_or_default(),
            design: Design::SEED_001,
            session: Session::ATTENDED,
            bench: Bench::Ticket,
            guesses: Vec::new(),
            previous: None,
            last: None,
        };
        lab.guesses = vec![None; lab.calls().len()];
        lab
    }

    fn t(&self, k: T) -> &'static str {
        k.get(self.lang)
    }

    /// The page's language.
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// The table of the bench.
    pub fn table(&self) -> RuleTable {
        match self.bench {
            Bench::Ticket => self.agent.table(),
            Bench::Miniagent => self.mini.clone(),
        }
    }

    /// The bench's calls, each with whether its tool writes.
    pub fn calls(&self) -> Vec<(Call, bool)> {
        match self.bench {
            Bench::Ticket => self
                .agent
                .calls
                .iter()
                .map(|c| (c.call.clone(), c.writes))
                .collect(),
            Bench::Miniagent => MINIAGENT_CALLS
                .iter()
                .map(|&(tool, input)| (Call::new(tool, input), miniagent_writes(tool)))
                .collect(),
        }
    }

    /// The design and every real engine on the bench's calls (the core's [`compare`]).
    pub fn comparisons(&self) -> Vec<Comparison> {
        compare(self.design, &self.table(), &self.calls(), self.session)
    }

    /// A change to the design or the session: a new question, so the guesses are cleared; the
    /// verdicts so far are kept to mark the ones that change.
    fn change(&mut self, f: impl FnOnce(&mut Lab)) {
        let (design, session) = (self.design, self.session);
        let before: Vec<Decision> = self
            .comparisons()
            .iter()
            .map(|c| c.design.decision)
            .collect();
        f(self);
        if (self.design, self.session) != (design, session) {
            self.previous = Some(before);
            self.guesses = vec![None; self.guesses.len()];
            self.last = None;
        }
    }

    /// One of the two starting designs.
    pub fn preset(&mut self, start: Start) {
        self.change(|l| l.design = start.design());
    }

    /// The starting design the design is, if any.
    pub fn current_preset(&self) -> Option<Start> {
        Start::ALL.into_iter().find(|s| s.design() == self.design)
    }

    /// The order.
    pub fn set_order(&mut self, o: Order) {
        self.change(|l| l.design.order = o);
    }

    /// The fallback.
    pub fn set_fallback(&mut self, a: Action) {
        self.change(|l| l.design.fallback = a);
    }

    /// The mode stage on or off.
    pub fn set_mode_stage(&mut self, on: bool) {
        self.change(|l| l.design.mode_stage = on);
    }

    /// `ask_or_deny` on or off.
    pub fn set_unattended_denies(&mut self, on: bool) {
        self.change(|l| l.design.unattended_denies = on);
    }

    /// A read-only session or not.
    pub fn set_readonly(&mut self, on: bool) {
        self.change(|l| l.session.readonly = on);
    }

    /// An unattended session or not.
    pub fn set_unattended(&mut self, on: bool) {
        self.change(|l| l.session.unattended = on);
    }

    /// The table; other calls, so nothing is compared with before.
    pub fn set_bench(&mut self, b: Bench) {
        if b != self.bench {
            self.bench = b;
            self.guesses = vec![None; self.calls().len()];
            self.previous = None;
            self.last = None;
        }
    }

    /// The learner's answer to call `i` (a guess or a skip): the call is revealed. A revealed
    /// call keeps its first answer.
    pub fn guess(&mut self, i: usize, g: Guess) {
        if let Some(slot @ None) = self.guesses.get_mut(i) {
            *slot = Some(g);
            self.last = Some(i);
        }
    }

    /// What a reload keeps: the bench, the design, the session, the answers given and the
    /// verdicts before the last change.
    pub fn kept(&self) -> String {
        let d = self.design;
        let guesses = self.guesses.iter().map(|g| {
            g.map(|g| match g {
                Guess::Skipped => "skip",
                Guess::Said(d) => d.as_str(),
            })
        });
        let previous = self.previous.iter().flatten().map(|d| Some(d.as_str()));
        Kept::default()
            .put("bench", self.bench.slug())
            .put("order", d.order.slug())
            .put("fallback", d.fallback)
            .flag("mode-stage", d.mode_stage)
            .flag("unattended-denies", d.unattended_denies)
            .flag("readonly", self.session.readonly)
            .flag("unattended", self.session.unattended)
            .list("guesses", guesses)
            .put(
                "last",
                self.last.map_or(String::from("-"), |i| i.to_string()),
            )
            .list("previous", previous)
            .text()
    }

    /// Takes back [`Lab::kept`]: the bench, design and session first (each clears the
    /// answers), then the answers if there is one per call of the bench.
    pub fn restore(&mut self, r: &Read) {
        if let Some(b) = [Bench::Ticket, Bench::Miniagent]
            .into_iter()
            .find(|b| r.get("bench") == Some(b.slug()))
        {
            self.set_bench(b);
        }
        if let Some(o) = r.get("order").and_then(Order::from_slug) {
            self.design.order = o;
        }
        if let Some(a) = r.get("fallback").and_then(|a| a.parse().ok()) {
            self.design.fallback = a;
        }
        if let Some(on) = r.flag("mode-stage") {
            self.design.mode_stage = on;
        }
        if let Some(on) = r.flag("unattended-denies") {
            self.design.unattended_denies = on;
        }
        if let Some(on) = r.flag("readonly") {
            self.session.readonly = on;
        }
        if let Some(on) = r.flag("unattended") {
            self.session.unattended = on;
        }
        let n = self.guesses.len();
        let decision = |w: &str| DECISIONS.into_iter().find(|x| x.as_str() == w);
        let guesses = r.list("guesses", n, |w| match w {
            "skip" => Some(Guess::Skipped),
            d => decision(d).map(Guess::Said),
        });
        // The verdicts before the last change (each revealed card says what changed).
        self.previous = r
            .list("previous", n, decision)
            .and_then(|p| p.into_iter().collect());
        if let Some(g) = guesses {
            self.guesses = g;
            self.last = r
                .number("last")
                .filter(|&i| self.guesses.get(i).is_some_and(Option::is_some));
        }
    }

    /// Reveals every call not yet revealed, as skipped.
    pub fn reveal_all(&mut self) {
        for g in self.guesses.iter_mut().filter(|g| g.is_none()) {
            *g = Some(Guess::Skipped);
        }
    }

    /// Whether every call is revealed.
    pub fn all_revealed(&self) -> bool {
        self.guesses.iter().all(Option::is_some)
    }

    /// How the design decided, in words: the deciding row (or the fallback), then the stages
    /// that changed the verdict, then the seed's step for a grouped design.
    fn design_why(&self, table: &RuleTable, c: &Comparison) -> String {
        let lang = self.lang;
        let v = c.design;
        let mut parts = vec![match v.row {
            Some(r) => lang.row(table, r),
            None => format!(
                "{} {}",
                self.t(T::NoMatch),
                lang.action(self.design.fallback)
            ),
        }];
        if v.asked_by_mode {
            parts.push(self.t(T::ByMode).to_string());
        }
        if v.stage == Stage::Unattended {
            parts.push(self.t(T::ByNight).to_string());
        }
        let mut why = parts.join(" → ");
        if let Some(n) = v.seed_step(self.design, table) {
            why.push(' ');
            why.push_str(&self.t(T::SeedStep).replace("{n}", &circled(n)));
        }
        why
    }

    /// Every call's card, computed from `comparisons` (of [`Lab::comparisons`]). A call not
    /// yet revealed carries no verdict at all.
    pub fn cards(&self, comparisons: &[Comparison]) -> Vec<Card> {
        let table = self.table();
        let modes = engine_modes(self.session);
        comparisons
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let guess = self.guesses.get(i).copied().flatten();
                let revealed = guess.map(|_| Revealed {
                    verdict: c.design.decision,
                    why: self.design_why(&table, c),
                    was: self
                        .previous
                        .as_ref()
                        .and_then(|p| p.get(i).copied())
                        .filter(|d| *d != c.design.decision),
                    closest: c.closest(self.design),
                    engines: c
                        .evaluations
                        .iter()
                        .map(|e| EngineLine {
                            id: e.engine,
                            decision: e.decision,
                            agrees: e.decision == c.design.decision,
                            mode: modes
                                .iter()
                                .find(|(id, _)| *id == e.engine)
                                .and_then(|m| m.1),
                            why: self.lang.explain(&table, e),
                        })
                        .collect(),
                });
                Card { guess, revealed }
            })
            .collect()
    }

    /// The agreement counts, once every call is revealed (before that they would give
    /// verdicts away).
    pub fn summary(&self, comparisons: &[Comparison]) -> Option<Vec<(EngineId, usize)>> {
        self.all_revealed()
            .then(|| agreement(self.design, comparisons))
    }

    /// "Over the 6 calls your design behaves most like first-match, OpenCode (6/6 agree)":
    /// every engine tied at the top is named (naming one would pick among equals).
    pub fn summary_line(&self, ranked: &[(EngineId, usize)], n: usize) -> String {
        match ranked.first() {
            Some(&(_, k)) if k > 0 => self
                .t(T::SummaryLine)
                .replace("{n}", &n.to_string())
                .replace("{e}", &self.top_names(ranked))
                .replace("{k}", &k.to_string()),
            _ => self.t(T::SummaryNone).replace("{n}", &n.to_string()),
        }
    }

    /// The engines tied at the top of `ranked`, in words.
    fn top_names(&self, ranked: &[(EngineId, usize)]) -> String {
        let top = ranked.first().map_or(0, |r| r.1);
        ranked
            .iter()
            .take_while(|r| r.1 == top)
            .map(|r| self.lang.engine(r.0))
            .collect::<Vec<_>>()
            .join(self.t(T::ListSep))
    }

    /// When the engine the design copies by construction is not among the ones its verdicts
    /// agree with most, says so next to the headline (a learner reads "behaves like
    /// first-match" as "is built like first-match" otherwise).
    pub fn structure_vs_verdicts(&self, ranked: &[(EngineId, usize)]) -> Option<String> {
        let top = ranked.first().filter(|r| r.1 > 0)?.1;
        let built = likeness(self.design).engine;
        if ranked.iter().any(|r| r.1 == top && r.0 == built) {
            return None;
        }
        Some(
            self.t(T::StructureVsVerdicts)
                .replace("{s}", self.lang.engine(built))
                .replace("{e}", &self.top_names(ranked)),
        )
    }

    /// The design's likeness by construction ([`likeness`]), in words.
    pub fn likeness_line(&self) -> String {
        let l = likeness(self.design);
        let mut s = self.t(T::Like).replace("{e}", self.lang.engine(l.engine));
        let words: Vec<&str> = l
            .differences
            .iter()
            .filter_map(|d| match *d {
                "fallback-allow" => Some(self.t(T::DFallbackAllow)),
                "fallback-deny" => Some(self.t(T::DFallbackDeny)),
                "mode-stage" => Some(self.t(T::DModeStage)),
                "unattended-denies" => Some(self.t(T::DUnattended)),
                _ => None,
            })
            .collect();
        if words.is_empty() {
            s.push_str(self.t(T::Same));
        } else {
            s.push_str(self.t(T::Adds));
            s.push_str(&words.join(if self.lang == Lang::Zh { "、" } else { ", " }));
        }
        s
    }

    /// The session's modes of the real engines, in words.
    pub fn modes_line(&self) -> String {
        let modes: Vec<String> = engine_modes(self.session)
            .into_iter()
            .filter_map(|(id, m)| m.map(|m| format!("{} {m}", self.lang.engine(id))))
            .collect();
        if modes.is_empty() {
            self.t(T::ModesDefault).to_string()
        } else {
            format!("{} {}", self.t(T::ModesAre), modes.join(", "))
        }
    }

    /// The design as the seed's pseudocode (Python-like, as the seed writes `decide()`), each
    /// piece commented in the page's language; only the chosen pieces appear.
    pub fn code(&self) -> String {
        let d = self.design;
        let c = |k: T| format!("  # {}", self.t(k));
        let mut lines = vec![
            "def decide(tool, args, session):".to_string(),
            "    call = tool.describe(args)".to_string(),
            "    hits = [r for r in RULES if matches(r, call)]".to_string(),
        ];
        lines.push(match d.order {
            Order::TopDown => format!("    rule = hits[0] if hits else None{}", c(T::CTop)),
            Order::BottomUp => format!("    rule = hits[-1] if hits else None{}", c(T::CBottom)),
            Order::Grouped => format!(
                "    rule = first_of(hits, \"deny\", \"ask\", \"allow\"){}",
                c(T::CGrouped)
            ),
            Order::Strictest => format!(
                "    rule = max(hits, key=strictness, default=None){}",
                c(T::CStrictest)
            ),
        });
        lines.push(format!(
            "    verdict = rule.action if rule else \"{}\"{}",
            d.fallback.as_str(),
            c(T::CFallback)
        ));
        if d.mode_stage {
            lines.push(format!(
                "    if session.mode == \"readonly\" and tool.writes and verdict != \"deny\":{}",
                c(T::CMode)
            ));
            lines.push("        verdict = \"ask\"".to_string());
        }
        if d.unattended_denies {
            lines.push(format!(
                "    if verdict == \"ask\" and session.unattended:{}",
                c(T::CUnattended)
            ));
            lines.push("        verdict = \"deny\"".to_string());
        }
        lines.push("    return verdict".to_string());
        lines.join("\n")
    }

    /// The live line for call `i` once revealed: "Call 4: your design ask; behaves like …".
    pub fn live_line(&self, cards: &[Card]) -> String {
        let Some(i) = self.last else {
            return String::new();
        };
        let Some(r) = cards.get(i).and_then(|c| c.revealed.as_ref()) else {
            return String::new();
        };
        let closest = match r.closest {
            Some(e) => format!("{} {}", self.t(T::Closest), self.lang.engine(e)),
            None => self.t(T::NoneAgrees).to_string(),
        };
        self.t(T::LiveCall)
            .replace("{i}", &(i + 1).to_string())
            .replace("{v}", self.lang.decision(r.verdict))
            .replace("{c}", &closest)
    }

    /// The tool's own label on a ticket call: the seed's name (zh), or "on no list".
    fn tool_label(&self, tool: &str) -> Option<String> {
        if self.bench != Bench::Ticket {
            return None;
        }
        match self.agent.tools.iter().find(|t| t.name == tool) {
            Some(t) => (self.lang == Lang::Zh).then(|| t.zh.clone()),
            None => Some(self.t(T::NotOnList).to_string()),
        }
    }

    /// The seed's reason for a ticket tool's list: its own words in zh, translated in en.
    fn list_reason(&self, tool: &str) -> String {
        match self.agent.tools.iter().find(|t| t.name == tool) {
            Some(t) if self.lang == Lang::Zh => t.reason_zh.clone(),
            Some(t) => self
                .t(match t.list {
                    Action::Allow => T::WhyAllow,
                    Action::Ask => T::WhyAsk,
                    Action::Deny => T::WhyDeny,
                })
                .to_string(),
            None => String::new(),
        }
    }
}

/// The scene (`data-scene="design-evaluator"`).
#[component]
pub fn DesignScene(
    /// The state to start from (`Lab::new(lang)`).
    init: Lab,
) -> impl IntoView {
    let lang = init.lang;
    let t = move |k: T| k.get(lang);
    let model = RwSignal::new(init);
    super::keep::choices(model, "choices", Lab::kept, Lab::restore);
    let comparisons = Memo::new(move |_| model.with(Lab::comparisons));
    let cards = Memo::new(move |_| comparisons.with(|c| model.with(|m| m.cards(c))));
    let summary = Memo::new(move |_| comparisons.with(|c| model.with(|m| m.summary(c))));
    let like_line = Memo::new(move |_| model.with(Lab::likeness_line));
    let summary_line = Memo::new(move |_| {
        summary.with(|s| match s {
            Some(r) => model.with(|m| m.summary_line(r, m.guesses.len())),
            None => String::new(),
        })
    });
    let live = Memo::new(move |_| cards.with(|c| model.with(|m| m.live_line(c))));
    super::host::announce(Memo::new(move |_| {
        vec![like_line.get(), live.get(), summary_line.get()]
    }));
    let presets = Signal::derive(move || {
        Choices::default()
            .with(Start::Seed, Start::Seed.slug(), t(T::PresetSeed))
            .with(Start::Naive, Start::Naive.slug(), t(T::PresetNaive))
            .choose(model.with(Lab::current_preset))
    });
    let bench = Memo::new(move |_| model.with(|m| m.bench));
    let benches = Signal::derive(move || {
        Choices::default()
            .with(Bench::Ticket, Bench::Ticket.slug(), t(T::BTicket))
            .with(Bench::Miniagent, Bench::Miniagent.slug(), t(T::BMini))
            .choose(Some(bench.get()))
    });
    view! {
        <h2 class="pl-title">{t(T::Title)}</h2>
        <p class="pl-intro">{t(T::Intro)}</p>
        <ChoiceButtons class="pl-dz-presets pl-controls" label=t(T::Presets) choices=presets
            press=Callback::new(move |s: Start| model.update(|m| m.preset(s)))/>
        <div class="pl-dz-setup">
            <DesignControls model/>
            <SessionControls model/>
        </div>
        <p class="pl-dz-likeness" data-engine=move || model.with(|m| likeness(m.design).engine.slug())
            data-live="">{move || like_line.get()}</p>
        <details class="pl-dz-code-box" open>
            <summary>{t(T::Code)}</summary>
            <pre class="pl-dz-code" lang="en">{move || model.with(Lab::code)}</pre>
        </details>
        <ChoiceButtons class="pl-dz-bench pl-controls" label=t(T::Bench) choices=benches
            press=Callback::new(move |b: Bench| model.update(|m| m.set_bench(b)))/>
        {move || { bench.track(); view! { <Rules model/> } }}
        <h3 class="pl-dz-calls-title">{t(T::Calls)}</h3>
        <p class="pl-hint">{t(T::CallsHint)}</p>
        <button type="button" class="pl-choice pl-dz-reveal-all pl-controls"
            aria-disabled=move || if model.with(Lab::all_revealed) { "true" } else { "false" }
            on:click=move |_| model.update(Lab::reveal_all)>{t(T::RevealAll)}</button>
        <For each=move || { let b = bench.get(); (0..model.with(|m| m.guesses.len())).map(move |i| (b, i)).collect::<Vec<_>>() }
            key=|k| *k
            children=move |(_, i)| view! { <CallCard model cards i/> }
            />
        <Summary model comparisons summary summary_line/>
    }
}

/// The design's pieces: order, fallback, mode stage, `ask_or_deny`.
#[component]
fn DesignControls(
    /// The scene's state.
    model: RwSignal<Lab>,
) -> impl IntoView {
    let lang = model.with_untracked(Lab::lang);
    let t = move |k: T| k.get(lang);
    let orders = Signal::derive(move || {
        Order::ALL
            .iter()
            .fold(Choices::default(), |c, o| {
                c.with(*o, o.slug(), t(order_text(*o)))
            })
            .choose(Some(model.with(|m| m.design.order)))
    });
    let fallbacks = Signal::derive(move || {
        Action::ALL
            .iter()
            .fold(Choices::default(), |c, a| {
                c.with(*a, a.as_str(), lang.action(*a))
            })
            .choose(Some(model.with(|m| m.design.fallback)))
    });
    view! {
        <fieldset class="pl-dz-design">
            <legend>{t(T::Yours)}</legend>
            <ChoiceButtons class="pl-dz-order" label=t(T::Order) choices=orders
                press=Callback::new(move |o: Order| model.update(|m| m.set_order(o)))/>
            <ChoiceButtons class="pl-dz-fallback" label=t(T::Fallback) choices=fallbacks
                press=Callback::new(move |a: Action| model.update(|m| m.set_fallback(a)))/>
            <Checkbox class="pl-dz-mode" label=t(T::ModeStage)
                on=Signal::derive(move || model.with(|m| m.design.mode_stage))
                set=Callback::new(move |v: bool| model.update(|m| m.set_mode_stage(v)))/>
            <Checkbox class="pl-dz-askordeny" label=t(T::AskOrDeny)
                on=Signal::derive(move || model.with(|m| m.design.unattended_denies))
                set=Callback::new(move |v: bool| model.update(|m| m.set_unattended_denies(v)))/>
        </fieldset>
    }
}

/// The session: read-only, unattended, and the modes the real engines run in for it.
#[component]
fn SessionControls(
    /// The scene's state.
    model: RwSignal<Lab>,
) -> impl IntoView {
    let lang = model.with_untracked(Lab::lang);
    let t = move |k: T| k.get(lang);
    view! {
        <fieldset class="pl-dz-session">
            <legend>{t(T::Session)}</legend>
            <Checkbox class="pl-dz-readonly" label=t(T::Readonly)
                on=Signal::derive(move || model.with(|m| m.session.readonly))
                set=Callback::new(move |v: bool| model.update(|m| m.set_readonly(v)))/>
            <Checkbox class="pl-dz-night" label=t(T::Night)
                on=Signal::derive(move || model.with(|m| m.session.unattended))
                set=Callback::new(move |v: bool| model.update(|m| m.set_unattended(v)))/>
            <p class="pl-hint pl-dz-modes">{move || model.with(Lab::modes_line)}</p>
        </fieldset>
    }
}

/// The bench's rule table (rebuilt when the bench changes).
#[component]
fn Rules(
    /// The scene's state.
    model: RwSignal<Lab>,
) -> impl IntoView {
    let (lang, table, bench) = model.with_untracked(|m| (m.lang, m.table(), m.bench));
    let t = move |k: T| k.get(lang);
    let ticket = bench == Bench::Ticket;
    let writes = move |tool: &str| -> bool {
        if ticket {
            model.with_untracked(|m| m.agent.tools.iter().any(|x| x.name == tool && x.writes))
        } else {
            miniagent_writes(tool)
        }
    };
    let rows = table
        .rules()
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let w = writes(&r.tool);
            let (label, why) = model.with_untracked(|m| {
                (m.tool_label(&r.tool), ticket.then(|| m.list_reason(&r.tool)))
            });
            view! {
                <tr data-row=i + 1>
                    <td>{format!("#{}", i + 1)}</td>
                    <td><code>{r.tool.clone()}</code>{label.map(|l| view! { " "<small>{l}</small> })}</td>
                    <td><code>{r.pattern.clone()}</code></td>
                    <td>{ui::verdict(r.action.into(), lang.action(r.action))}</td>
                    <td>{t(if w { T::Writes } else { T::ReadOnly })}</td>
                    {why.map(|w| view! { <td>{w}</td> })}
                </tr>
            }
        })
        .collect_view();
    view! {
        <Scroll label=t(if ticket { T::RulesTicket } else { T::RulesMini })>
            <table class="pl-dz-rules" data-bench=bench.slug()>
                <caption>{t(if ticket { T::RulesTicket } else { T::RulesMini })}</caption>
                <thead><tr>
                    <th scope="col">"#"</th>
                    <th scope="col">{t(T::ColTool)}</th>
                    <th scope="col">{t(T::ColPattern)}</th>
                    <th scope="col">{t(T::ColAction)}</th>
                    <th scope="col">{t(T::ColWrites)}</th>
                    {ticket.then(|| view! { <th scope="col">{t(T::ColWhy)}</th> })}
                </tr></thead>
                <tbody>{rows}</tbody>
            </table>
        </Scroll>
    }
}

/// One call: the question (guess buttons, kept as the same nodes so focus stays), then the
/// answers once revealed.
#[component]
fn CallCard(
    /// The scene's state.
    model: RwSignal<Lab>,
    /// Every call's card.
    cards: Memo<Vec<Card>>,
    /// The call's index.
    i: usize,
) -> impl IntoView {
    let (lang, call, writes, label, from_seed) = model.with_untracked(|m| {
        let (call, writes) = m
            .calls()
            .get(i)
            .cloned()
            .unwrap_or_else(|| (Call::new("", ""), false));
        let from_seed =
            m.bench == Bench::Ticket && m.agent.calls.get(i).is_some_and(|c| c.from_seed);
        let label = m.tool_label(&call.tool);
        (m.lang, call, writes, label, from_seed)
    });
    let t = move |k: T| k.get(lang);
    let card = Memo::new(move |_| cards.with(|c| c.get(i).cloned()));
    let guess = Memo::new(move |_| card.with(|c| c.as_ref().and_then(|c| c.guess)));
    let revealed = Memo::new(move |_| card.with(|c| c.as_ref().and_then(|c| c.revealed.clone())));
    let done = move || {
        if guess.get().is_some() {
            "true"
        } else {
            "false"
        }
    };
    let buttons = [Decision::Allow, Decision::Ask, Decision::Deny].map(|d| {
        let pressed = move || if guess.get() == Some(Guess::Said(d)) { "true" } else { "false" };
        view! {
            <button type="button" class="pl-choice pl-dz-guess" data-arg=d.as_str() aria-pressed=pressed
                aria-disabled=done on:click=move |_| model.update(|m| m.guess(i, Guess::Said(d)))>
                <span aria-hidden="true">{ui::icon(d)}" "</span>{lang.decision(d)}
            </button>
        }
    });
    let group = format!("{} {} · {}", t(T::GuessLabel), i + 1, call.input);
    let answer = move || {
        revealed.get().map(|r| {
            let verdict_word = lang.decision(r.verdict);
            let judged = guess.get().map(|g| match g {
                Guess::Said(d) => {
                    let head = t(T::YouGuessed).replace("{g}", lang.decision(d));
                    let ok = d == r.verdict;
                    view! {
                        <p class="pl-dz-judged" data-correct=if ok { "true" } else { "false" }>
                            {head}" "<strong>{t(if ok { T::Right } else { T::Wrong })}</strong>
                        </p>
                    }
                    .into_any()
                }
                Guess::Skipped => view! { <p class="pl-dz-judged" data-correct="skipped">{t(T::Skipped)}</p> }.into_any(),
            });
            let was = r.was.map(|w| {
                view! { " "<small class="pl-dz-was" data-was=w.as_str()>{t(T::Was).replace("{v}", lang.decision(w))}</small> }
            });
            let agreeing: Vec<&'static str> = r
                .engines
                .iter()
                .filter(|e| e.agrees && Some(e.id) != r.closest)
                .map(|e| lang.engine(e.id))
                .collect();
            let closest = match r.closest {
                Some(e) => view! {
                    <p class="pl-dz-closest" data-engine=e.slug()>
                        {t(T::Closest)}" "<strong>{lang.engine(e)}</strong>
                        {(!agreeing.is_empty()).then(|| format!("({}{})", t(T::AlsoAgree), agreeing.join(", ")))}
                    </p>
                }
                .into_any(),
                None => view! { <p class="pl-dz-closest" data-engine="none">{t(T::NoneAgrees)}</p> }.into_any(),
            };
            let differ = r.engines.iter().filter(|e| !e.agrees).count();
            let engines = r
                .engines
                .iter()
                .map(|e| {
                    let name = match e.mode {
                        Some(m) => format!("{} ({m})", lang.engine(e.id)),
                        None => lang.engine(e.id).to_string(),
                    };
                    view! {
                        <li data-engine=e.id.slug() data-verdict=e.decision.as_str()
                            data-agrees=if e.agrees { "true" } else { "false" }>
                            <span class="pl-dz-engine">{name}</span>": "
                            {ui::verdict(e.decision, lang.decision(e.decision))}
                            {(!e.agrees).then(|| view! { " "<small class="pl-dz-why">{e.why.clone()}</small> })}
                        </li>
                    }
                })
                .collect_view();
            view! {
                {judged}
                <p class="pl-dz-verdict" data-verdict=r.verdict.as_str()
                    data-changed=if r.was.is_some() { "true" } else { "false" }>
                    {t(T::Mine)}" "{ui::verdict(r.verdict, verdict_word)}{was}
                    " "<small class="pl-dz-why">{r.why.clone()}</small>
                </p>
                {closest}
                <p class="pl-dz-differ-title">{t(if differ == 0 { T::AllAgree } else { T::Differ })}</p>
                <ul class="pl-dz-engines" aria-label=t(T::Engines)>{engines}</ul>
            }
        })
    };
    view! {
        <article class="pl-dz-call" data-call=i data-revealed=done>
            <p class="pl-dz-call-head">
                <span class="pl-dz-n">{format!("{}.", i + 1)}</span>" "
                <code class="pl-dz-input">{call.tool.clone()}": "{call.input.clone()}</code>
                {label.map(|l| view! { " "<small>{l}</small> })}
                " "<small class="pl-dz-writes">{format!("({})", t(if writes { T::Writes } else { T::ReadOnly }))}</small>
                {from_seed.then(|| view! { " "<small class="pl-dz-seed">{format!("· {}", t(T::FromSeed))}</small> })}
            </p>
            <div class="pl-choices pl-dz-guesses pl-controls" role="group" aria-label=group>
                <span class="pl-label">{t(T::GuessLabel)}</span>
                {buttons}
                <button type="button" class="pl-choice pl-dz-skip" data-arg="skip" aria-disabled=done
                    aria-pressed=move || if guess.get() == Some(Guess::Skipped) { "true" } else { "false" }
                    on:click=move |_| model.update(|m| m.guess(i, Guess::Skipped))>{t(T::Skip)}</button>
            </div>
            <div class="pl-dz-answer">{answer}</div>
        </article>
    }
}

/// The agreement over all calls, once every call is revealed.
#[component]
fn Summary(
    /// The scene's state.
    model: RwSignal<Lab>,
    /// The comparisons (for the call count).
    comparisons: Memo<Vec<Comparison>>,
    /// The ranking, once every call is revealed.
    summary: Memo<Option<Vec<(EngineId, usize)>>>,
    /// Its headline.
    summary_line: Memo<String>,
) -> impl IntoView {
    let lang = model.with_untracked(Lab::lang);
    let t = move |k: T| k.get(lang);
    let body = move || match summary.get() {
        None => view! { <p class="pl-hint">{t(T::SummaryWait)}</p> }.into_any(),
        Some(ranked) => {
            let n = comparisons.with(Vec::len);
            let top = ranked
                .first()
                .filter(|(_, k)| *k > 0)
                .map(|(e, _)| e.slug())
                .unwrap_or("none");
            let rows = ranked
                .iter()
                .map(|&(e, k)| {
                    view! {
                        <tr data-engine=e.slug() data-agree=k>
                            <th scope="row">{lang.engine(e)}</th>
                            <td>{format!("{k} / {n}")}</td>
                        </tr>
                    }
                })
                .collect_view();
            let ticket = model.with(|m| m.bench == Bench::Ticket);
            let structure = model.with(|m| m.structure_vs_verdicts(&ranked));
            // The headline's caveats come right under it, before the table of counts.
            view! {
                <p class="pl-live pl-dz-summary-line" data-closest=top data-live="">{move || summary_line.get()}</p>
                {structure.map(|s| view! { <p class="pl-dz-structure">{s}</p> })}
                {ticket.then(|| view! { <p class="pl-hint pl-dz-note">{t(T::TicketNote)}</p> })}
                <Scroll label=t(T::AgreeCaption)>
                    <table class="pl-dz-agree">
                        <caption>{t(T::AgreeCaption)}</caption>
                        <thead><tr><th scope="col">{t(T::ColEngine)}</th><th scope="col">{t(T::ColAgree)}</th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </Scroll>
            }
            .into_any()
        }
    };
    view! {
        <section class="pl-dz-summary" data-ready=move || if summary.with(Option::is_some) { "true" } else { "false" }>
            <h3>{t(T::Summary)}</h3>
            {body}
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reload_brings_back_the_design_the_session_and_the_answers() {
        let mut l = Lab::new(Lang::Zh);
        l.set_bench(Bench::Miniagent);
        l.preset(Start::Naive);
        l.set_fallback(Action::Deny);
        l.set_unattended(true);
        l.guess(1, Guess::Said(Decision::Deny));
        l.guess(0, Guess::Skipped);
        let mut again = Lab::new(Lang::Zh);
        again.restore(&Read::new(&l.kept()));
        assert_eq!(
            (again.bench, again.design, again.session),
            (l.bench, l.design, l.session)
        );
        assert_eq!(again.guesses, l.guesses);
        assert_eq!(again.last, Some(0));
        assert_eq!(again.previous, l.previous);
        assert!(again.previous.is_some());
        let mut odd = Lab::new(Lang::Zh);
        odd.restore(&Read::new("order=sideways\nguesses=deny\nlast=0"));
        assert_eq!(odd.design, Design::SEED_001);
        assert!(odd.guesses.iter().all(Option::is_none) && odd.last.is_none());
    }

    fn render(l: &Lab) -> String {
        let l = l.clone();
        super::super::html(move || view! { <DesignScene init=l/> })
    }

    fn verdicts(l: &Lab) -> Vec<Decision> {
        let cs = l.comparisons();
        l.cards(&cs)
            .iter()
            .map(|c| c.revealed.as_ref().unwrap().verdict)
            .collect()
    }

    #[test]
    fn nothing_is_given_away_before_a_reveal() {
        let l = Lab::new(Lang::Zh);
        let html = render(&l);
        assert!(html.contains("设计你自己的求值器"));
        assert!(html.contains("refund(order=A1, amount=300)"));
        // No call carries a verdict, a closest harness or a summary yet.
        assert!(!html.contains("pl-dz-verdict"), "{html}");
        assert!(!html.contains("pl-dz-closest"));
        assert!(!html.contains("data-closest"));
        assert!(html.contains("data-ready=\"false\""));
        assert_eq!(html.matches("data-revealed=\"false\"").count(), 6);
        // The rule table's actions are the inputs, shown.
        assert!(html.contains("data-row=\"5\""));
        assert!(html.contains("不可逆，Agent 不应该有这个能力"));
        let cs = l.comparisons();
        assert!(l.cards(&cs).iter().all(|c| c.revealed.is_none()));
        assert_eq!(l.summary(&cs), None);
    }

    #[test]
    fn the_seeds_decide_on_the_ticket_agent() {
        let mut l = Lab::new(Lang::Zh);
        l.guess(3, Guess::Said(Decision::Ask));
        let html = render(&l);
        assert!(html.contains("data-call=\"3\" data-revealed=\"true\""));
        assert!(html.contains("data-correct=\"true\""));
        assert!(
            html.contains("#4 refund * 问人 (课文 decide() 的第 ② 步)"),
            "{html}"
        );
        // Every engine asks for the refund; the grouped design names Claude Code.
        assert!(html.contains("data-engine=\"claude-code\" class=\"pl-dz-closest\""));
        assert!(html.contains("五家都这么判"));
        l.reveal_all();
        use Decision::*;
        assert_eq!(verdicts(&l), [Allow, Allow, Ask, Ask, Deny, Ask]);
        let html = render(&l);
        assert!(html.contains("data-ready=\"true\""));
        assert!(
            html.contains("6 个调用里,你的设计最像 first-match、OpenCode(6/6 一致)"),
            "{html}"
        );
        // Built like Claude Code (grouped), agreeing most with first-match and OpenCode: said
        // under the headline, with the ticket table's note, before the counts.
        let head = &html[html.find("pl-dz-summary-line").unwrap()..];
        let structure = head
            .find("按结构,你的设计用 Claude Code 的顺序读表")
            .unwrap();
        let note = head.find("pl-dz-note").unwrap();
        assert!(
            structure < note && note < head.find("pl-dz-agree").unwrap(),
            "{head}"
        );
        assert!(html.contains("data-closest=\"first-match\""));
        // query_ticket: Claude Code cannot write the rule and asks; the reason is said.
        let cs = l.comparisons();
        let q = &l.cards(&cs)[0];
        let cc = &q.revealed.as_ref().unwrap().engines[2];
        assert_eq!(
            (cc.id, cc.decision, cc.agrees),
            (EngineId::ClaudeCode, Ask, false)
        );
        assert!(!cc.why.is_empty());
        assert!(html.contains("Claude Code 的规则只能写它自己的工具"));
    }

    #[test]
    fn composing_another_design_changes_verdicts_and_the_closest_harness() {
        let mut l = Lab::new(Lang::En);
        l.set_bench(Bench::Miniagent);
        l.preset(Start::Naive);
        l.reveal_all();
        use Decision::*;
        assert_eq!(verdicts(&l), [Deny, Deny, Deny, Allow, Allow, Allow]);
        let cs = l.comparisons();
        assert_eq!(
            l.cards(&cs)[0].revealed.as_ref().unwrap().closest,
            Some(EngineId::FirstMatch)
        );
        // Bottom-up: a new question (covered again), then the test command flips to allow.
        l.set_order(Order::BottomUp);
        assert!(l.guesses.iter().all(Option::is_none));
        assert_eq!(l.current_preset(), None);
        l.guess(0, Guess::Said(Allow));
        let html = render(&l);
        assert!(
            html.contains("data-verdict=\"allow\" data-changed=\"true\" class=\"pl-dz-verdict\""),
            "{html}"
        );
        assert!(html.contains("previous design: deny"));
        assert!(html.contains("#9 bash python -m unittest* allow"));
        assert!(html.contains("data-engine=\"opencode\" class=\"pl-dz-closest\""));
        assert!(html.contains(
            "By construction it reads the table in OpenCode's order; the other pieces are the same"
        ));
        l.reveal_all();
        assert_eq!(verdicts(&l), [Allow, Deny, Deny, Deny, Allow, Allow]);
        let html = render(&l);
        assert!(
            // 5/6: on `rm -rf /` OpenCode's bash tool asks about the outside directory first.
            html.contains("Over the 6 calls your design behaves most like OpenCode (5/6 agree)"),
            "{html}"
        );
    }

    #[test]
    fn sessions_reach_the_mode_stage_and_ask_or_deny() {
        let mut l = Lab::new(Lang::En);
        l.set_unattended(true);
        l.reveal_all();
        use Decision::*;
        assert_eq!(verdicts(&l), [Allow, Allow, Deny, Deny, Deny, Deny]);
        let cs = l.comparisons();
        let refund = l.cards(&cs)[3].revealed.clone().unwrap();
        assert!(
            refund.why.contains("unattended, nobody to ask → deny"),
            "{}",
            refund.why
        );
        assert_eq!(refund.was, Some(Ask));
        assert_eq!(refund.closest, Some(EngineId::ClaudeCode));
        assert_eq!(refund.engines[2].mode, Some("dontAsk"));
        assert!(l.modes_line().contains("Claude Code dontAsk, CoreCoder -p"));
        // Read-only on miniagent: the allowed edit asks through ③.
        let mut l = Lab::new(Lang::Zh);
        l.set_bench(Bench::Miniagent);
        l.set_readonly(true);
        l.guess(4, Guess::Skipped);
        let cs = l.comparisons();
        let edit = l.cards(&cs)[4].revealed.clone().unwrap();
        assert_eq!(edit.verdict, Ask);
        assert!(
            edit.why
                .contains("#4 edit_file * 放行 → ③ 只读会话里的写操作 → 问人"),
            "{}",
            edit.why
        );
        assert_eq!(edit.closest, Some(EngineId::ClaudeCode));
    }

    #[test]
    fn a_fallback_deny_no_engine_shares() {
        let mut l = Lab::new(Lang::Zh);
        l.set_fallback(Action::Deny);
        l.guess(5, Guess::Said(Decision::Ask));
        let html = render(&l);
        assert!(html.contains("data-correct=\"false\""));
        assert!(html.contains("data-engine=\"none\" class=\"pl-dz-closest\""));
        assert!(html.contains("没有规则命中 → 兜底 拒绝"));
        assert!(l.likeness_line().contains("没命中就拒绝"));
        assert!(l
            .code()
            .contains("verdict = rule.action if rule else \"deny\""));
    }

    #[test]
    fn the_code_follows_the_pieces() {
        let mut l = Lab::new(Lang::En);
        let seed = l.code();
        assert!(seed.contains("first_of(hits, \"deny\", \"ask\", \"allow\")"));
        assert!(seed.contains("if session.mode == \"readonly\" and tool.writes"));
        assert!(seed.contains("if verdict == \"ask\" and session.unattended:"));
        l.preset(Start::Naive);
        let naive = l.code();
        assert!(naive.contains("rule = hits[0] if hits else None"));
        assert!(!naive.contains("session.mode"));
        assert!(!naive.contains("session.unattended"));
        l.set_order(Order::Strictest);
        assert!(l.code().contains("max(hits, key=strictness"));
    }

    #[test]
    fn answers_stick_and_unknown_names_change_nothing() {
        let mut l = Lab::new(Lang::En);
        l.guess(0, Guess::Said(Decision::Deny));
        l.guess(0, Guess::Said(Decision::Allow));
        assert_eq!(l.guesses[0], Some(Guess::Said(Decision::Deny)));
        l.guess(99, Guess::Skipped);
        let before = l.clone();
        // Re-setting the same value is no new question.
        l.set_order(Order::Grouped);
        l.set_mode_stage(true);
        assert_eq!(l, before);
    }

    #[test]
    fn hostile_text_is_text() {
        // The scene's texts come from fixtures, but every one is a text node: a tag in the
        // seed's reason would be shown, not parsed.
        let mut l = Lab::new(Lang::Zh);
        l.agent.tools[0].reason_zh = "<img src=x onerror=alert(1)>".into();
        l.agent.calls[0].call.input = "<script>alert(1)</script>".into();
        let html = render(&l);
        assert!(!html.contains("<img"));
        assert!(!html.contains("<script>"));
        assert!(html.contains("&lt;img"));
    }
}
