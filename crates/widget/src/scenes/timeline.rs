//! Scene `timeline`: seed 000's evolution of permission designs, six stages, each with the
//! seed's words and the figures [`permlab_core::timeline`] computes next to the seed's claims
//! (a differing figure is shown as computed, and said so).
//!
//! The blacklist stage runs the real blacklists live ([`timeline::screen_lists`]): lcc's gate
//! (s01 and s03 share it), CoreCoder's regexes and Pi's `permission-gate.ts` — the seed's four
//! blacklists ([`timeline::SEED_BLACKLISTS`]) — with every dangerous and everyday command's
//! verdict and the entry that caught it, and a field where the learner types a command of their
//! own. The figures are [`timeline::timeline_with_pi`]'s, so the sandbox stage's "4 of 4" is
//! counted over the four, blacklist by blacklist.

use permlab_core::corecoder::DANGEROUS_PATTERNS;
use permlab_core::lcc;
use permlab_core::timeline::{self, Amount, Figure, Gate, Screened, Stage, StageId};
use permlab_core::Decision;

use leptos::prelude::*;

use super::keep::{Kept, Read};
use super::timeline_text::T;
use super::ui::{self, Field, Move, Scroll, Stepper};
use crate::presets::Preset;
use crate::text::i18n::Lang;

/// The scene's state.
#[derive(Clone)]
pub struct Timeline {
    lang: Lang,
    /// The stage shown (0-based, [`StageId::ALL`] order).
    pub stage: usize,
    /// The learner's own command.
    pub command: String,
    stages: Vec<Stage>,
}

/// The stage's (tag, name, users, solved, stuck) texts.
fn stage_texts(id: StageId) -> [T; 5] {
    match id {
        StageId::NoGate => [T::S1Tag, T::S1Name, T::S1Users, T::S1Solved, T::S1Stuck],
        StageId::Blacklist => [T::S2Tag, T::S2Name, T::S2Users, T::S2Solved, T::S2Stuck],
        StageId::AskEveryTime => [T::S3Tag, T::S3Name, T::S3Users, T::S3Solved, T::S3Stuck],
        StageId::Rules => [T::S4Tag, T::S4Name, T::S4Users, T::S4Solved, T::S4Stuck],
        StageId::LayeredModelApproval => [T::S5Tag, T::S5Name, T::S5Users, T::S5Solved, T::S5Stuck],
        StageId::Sandbox => [T::S6Tag, T::S6Name, T::S6Users, T::S6Solved, T::S6Stuck],
    }
}

fn figure_label(slug: &str) -> Option<T> {
    Some(match slug {
        "dangerous-run" => T::FDangerousRun,
        "lcc-missed" => T::FLccMissed,
        "lcc-wrongly-blocked" => T::FLccWrong,
        "corecoder-missed" => T::FCcMissed,
        "corecoder-wrongly-blocked" => T::FCcWrong,
        "corecoder-asks" => T::FAsks,
        "prompts-approved" => T::FApproved,
        "first-match-denies-tests" => T::FFirstMatch,
        "classifier-misses" => T::FClassifier,
        "rmtree-passes" => T::FRmtree,
        "pi-missed" => T::FPiMissed,
        "pi-wrongly-blocked" => T::FPiWrong,
        _ => return None,
    })
}

fn note_text(slug: &str) -> Option<T> {
    Some(match slug {
        "only-four-everyday-known" => T::NoteFour,
        "needs-the-26-runs" => T::NoteRuns,
        "self-reported" => T::NoteSelf,
        _ => return None,
    })
}

/// A figure's amount as the page writes it: `1/4`, `17%(n = 52)`, `拒绝(#8)`.
pub fn amount(lang: Lang, a: Amount) -> String {
    match a {
        Amount::Count { n, of } => format!("{n}/{of}"),
        Amount::Percent {
            percent,
            sample: Some(s),
        } => match lang {
            Lang::Zh => format!("{percent}%(n = {s})"),
            Lang::En => format!("{percent}% (n = {s})"),
        },
        Amount::Percent { percent, .. } => format!("{percent}%"),
        Amount::Verdict { decision, row } => match (lang, row) {
            (Lang::Zh, Some(r)) => format!("{}(#{})", lang.decision(decision), r + 1),
            (Lang::En, Some(r)) => format!("{} (#{})", lang.decision(decision), r + 1),
            (_, None) => lang.decision(decision).to_string(),
        },
    }
}

impl Timeline {
    /// The scene at the first stage.
    pub fn new(lang: Lang) -> Timeline {
        Timeline {
            lang,
            stage: 0,
            command: String::new(),
            stages: timeline::timeline_with_pi(&Preset::Miniagent.table()),
        }
    }

    fn t(&self, k: T) -> &'static str {
        k.get(self.lang)
    }

    /// The last stage's index.
    pub const LAST: usize = StageId::ALL.len() - 1;

    /// Shows stage `i` (clamped).
    pub fn go(&mut self, i: usize) {
        self.stage = i.min(Self::LAST);
    }

    /// One stepper move.
    pub fn step(&mut self, m: Move) {
        self.stage = m.apply(self.stage, Self::LAST);
    }

    /// What a reload keeps besides the command: the stage shown.
    pub fn kept(&self) -> String {
        Kept::default().put("stage", self.stage).text()
    }

    /// Takes back [`Timeline::kept`].
    pub fn restore(&mut self, r: &Read) {
        if let Some(i) = r.number("stage") {
            self.go(i);
        }
    }

    /// The learner's command, as typed.
    pub fn set_command(&mut self, text: String) {
        self.command = text;
    }

    /// "第 2 / 6 个阶段:朴素 · 黑名单:子串或正则" (the stepper's line, announced).
    pub fn now(&self) -> String {
        let [tag, name, ..] = stage_texts(StageId::ALL[self.stage.min(Self::LAST)]);
        self.t(T::StepOf)
            .replace("{k}", &(self.stage + 1).to_string())
            .replace("{s}", &format!("{} · {}", self.t(tag), self.t(name)))
    }

    /// The stage shown.
    pub fn current(&self) -> Option<&Stage> {
        self.stages.get(self.stage)
    }

    /// The note under a figure: the differing sentence, else the figure's own note.
    pub fn note(&self, f: &Figure) -> Option<String> {
        self.differs_sentence(f)
            .or_else(|| f.note.and_then(note_text).map(|k| self.t(k).to_string()))
    }

    /// A footer tally: "漏拦 4/6" (dangerous) or "误拦 1/4" (everyday).
    pub fn tally(&self, t: &timeline::GateTally, dangerous: bool) -> String {
        if dangerous {
            format!(
                "{} {}/{}",
                self.t(T::Missed),
                t.missed().count(),
                t.dangerous.len()
            )
        } else {
            format!(
                "{} {}/{}",
                self.t(T::WronglyBlocked),
                t.wrongly_blocked().count(),
                t.everyday.len()
            )
        }
    }

    /// The sentence for a differing figure: "课程原文说 2/5,实际算出 1/4:…".
    pub fn differs_sentence(&self, f: &Figure) -> Option<String> {
        let (Some(c), Some(n)) = (f.claimed, f.computed) else {
            return None;
        };
        if !f.differs() {
            return None;
        }
        let mut s = self
            .t(T::Differs)
            .replace("{c}", &amount(self.lang, c))
            .replace("{n}", &amount(self.lang, n));
        if let Some(note) = f.note.and_then(note_text) {
            s.push_str(self.t(note));
        }
        Some(s)
    }
}

/// The scene (`data-scene="timeline"`): the stage list, the stepper and the stage shown. A step
/// re-renders the stage's words and figures only; the blacklist lab (its tables and the
/// learner's field) is built once and hidden on the other stages, so the field keeps its text,
/// caret and undo history across steps.
#[component]
pub fn TimelineScene(
    /// The state to start from (`Timeline::new(lang)`).
    init: Timeline,
) -> impl IntoView {
    let lang = init.lang;
    let t = move |k: T| k.get(lang);
    let model = RwSignal::new(init);
    super::keep::text(
        model,
        "command",
        |m| m.command.clone(),
        Timeline::set_command,
    );
    super::keep::choices(model, "choices", Timeline::kept, Timeline::restore);
    let stage = Memo::new(move |_| model.with(|m| m.stage));
    let now = Memo::new(move |_| model.with(Timeline::now));
    let command = Memo::new(move |_| model.with(|m| m.command.clone()));
    let go = Callback::new(move |m: Move| model.update(|s| s.step(m)));
    let try_text = Memo::new(move |_| {
        model.with(|m| {
            if m.command.trim().is_empty() {
                return m.t(T::TryEmpty).to_string();
            }
            GATES
                .map(|(g, name)| {
                    let hits = timeline::screen(g, &m.command);
                    let word = if hits.is_empty() {
                        T::Runs
                    } else {
                        blocked_word(g)
                    };
                    format!("{}: {}", m.t(name), m.t(word))
                })
                .join(" · ")
        })
    });
    super::host::announce(Memo::new(move |_| {
        if stage.get() == 1 {
            vec![now.get(), try_text.get()]
        } else {
            vec![now.get()]
        }
    }));
    // The stage buttons are a roving group: ←/→/Home/End move the stage and the focus with it
    // (a learner's focus stays where the current stage is).
    let buttons: [NodeRef<leptos::html::Button>; StageId::ALL.len()] =
        std::array::from_fn(|_| NodeRef::new());
    let step_key = ui::on_step_key(go);
    let nav = StageId::ALL
        .into_iter()
        .enumerate()
        .map(|(i, id)| {
            let [tag, name, ..] = stage_texts(id);
            let here = (id == StageId::Rules)
                .then(|| view! { " "<em class="pl-tl-here">{t(T::Here)}</em> });
            view! {
                <li class=move || if stage.get() == i { "pl-tl-item pl-current" } else { "pl-tl-item" }>
                    <button type="button" class="pl-tl-stage" data-arg=i data-stage=id.slug()
                        node_ref=buttons[i]
                        aria-keyshortcuts="ArrowLeft ArrowRight Home End"
                        aria-current=move || (stage.get() == i).then_some("step")
                        on:click=move |_| model.update(|m| m.go(i))
                        on:keydown=move |e| {
                            step_key(e);
                            let now = stage.get_untracked();
                            if now != i {
                                if let Some(b) = buttons[now].get_untracked() {
                                    let _ = b.focus();
                                }
                            }
                        }>
                        <span class="pl-tl-tag">{t(tag)}</span>" "{t(name)}{here}
                    </button>
                </li>
            }
        })
        .collect_view();
    view! {
        <h2 class="pl-title">{t(T::Title)}</h2>
        <nav class="pl-tl-nav" aria-label=t(T::Stages)><ol class="pl-tl-list">{nav}</ol></nav>
        <Stepper lang label=t(T::Stages) k=stage last=Timeline::LAST now go/>
        <section class="pl-tl-detail" data-stage=move || StageId::ALL[stage.get()].slug()>
            {move || {
                stage.track();
                model.with_untracked(|m| m.current().map(|s| stage_view(m, s)))
            }}
            <Lab model command hidden=Signal::derive(move || StageId::ALL[stage.get()] != StageId::Blacklist)/>
        </section>
    }
}

/// A stage's heading, facts, figures and (the rules stage) the call it decides.
fn stage_view(m: &Timeline, stage: &Stage) -> impl IntoView {
    let lang = m.lang;
    let t = move |k: T| k.get(lang);
    let [tag, name, users, solved, stuck] = stage_texts(stage.id);
    let facts = [(T::Users, users), (T::Solved, solved), (T::Stuck, stuck)]
        .map(|(k, v)| view! { <dt>{t(k)}</dt><dd>{t(v)}</dd> });
    let figures = (!stage.figures.is_empty()).then(|| {
        let rows = stage
            .figures
            .iter()
            .map(|f| {
                let claimed = f.claimed.map_or_else(|| t(T::NotClaimed).into(), |a| amount(lang, a));
                let computed = match f.computed {
                    Some(a) => view! { <strong>{amount(lang, a)}</strong> }.into_any(),
                    None => t(T::NotComputed).into_any(),
                };
                let differs = f.differs();
                let note = m.note(f).map(|note| {
                    view! {
                        <tr class="pl-tl-note-row"><td colspan="3">
                            <p class=if differs { "pl-tl-note pl-differs" } else { "pl-tl-note" }>
                                {differs.then(|| view! { <span aria-hidden="true">"⚠ "</span> })}{note}
                            </p>
                        </td></tr>
                    }
                });
                view! {
                    <tr data-figure=f.slug data-differs=if differs { "true" } else { "false" }>
                        <th scope="row">{figure_label(f.slug).map_or(f.slug, t)}</th>
                        <td class="pl-claimed">{claimed}</td>
                        <td class="pl-computed">{computed}</td>
                    </tr>
                    {note}
                }
            })
            .collect_view();
        view! {
            <div class="pl-scroll"><table class="pl-tl-figures">
                <caption>{t(T::Figures)}</caption>
                <thead><tr>
                    <th scope="col">{t(T::ColWhat)}</th><th scope="col">{t(T::ColClaimed)}</th>
                    <th scope="col">{t(T::ColComputed)}</th>
                </tr></thead>
                <tbody>{rows}</tbody>
            </table></div>
        }
    });
    let rules = (stage.id == StageId::Rules)
        .then(|| match stage.figures.first().and_then(|f| f.computed) {
            Some(Amount::Verdict { decision, row }) => {
                let (tool, input) = timeline::RULES_STAGE_CALL;
                Some(view! {
                    <p class="pl-tl-rules">
                        {t(T::RulesNow)}" "<code>{format!("{tool}: {input}")}</code>" → "
                        {ui::verdict(decision, amount(lang, Amount::Verdict { decision, row }))}
                    </p>
                })
            }
            _ => None,
        })
        .flatten();
    let four = (stage.id == StageId::Sandbox).then(|| {
        let items = timeline::SEED_BLACKLISTS
            .iter()
            .map(|&(slug, gate)| {
                let hits = timeline::screen(gate, timeline::RMTREE);
                view! {
                    <li data-blacklist=slug data-gate=gate.slug() data-blocked=if hits.is_empty() { "false" } else { "true" }>
                        <strong>{t(blacklist_name(slug))}</strong>": "{hits_view(lang, gate, &hits)}
                    </li>
                }
            })
            .collect_view();
        view! {
            <div class="pl-tl-four">
                <p>{t(T::FourIntro)}" "<code>{timeline::RMTREE}</code></p>
                <ul class="pl-tl-four-list">{items}</ul>
            </div>
        }
    });
    view! {
        <h3><span class="pl-tl-tag">{t(tag)}</span>" "{t(name)}</h3>
        <dl class="pl-tl-facts">{facts}</dl>
        {figures}
        {rules}
        {four}
    }
}

/// The three ported gates (the seed's four blacklists: lcc s01 and s03 share gate 1), with
/// their column names.
const GATES: [(Gate, T); 3] = [
    (Gate::Lcc, T::LccName),
    (Gate::CoreCoder, T::CcName),
    (Gate::Pi, T::PiName),
];

/// What a caught command gets: lcc and CoreCoder refuse it; Pi's gate asks (and blocks only
/// without a UI).
fn blocked_word(gate: Gate) -> T {
    if gate == Gate::Pi {
        T::PiAsks
    } else {
        T::Blocked
    }
}

/// A seed blacklist's name ([`timeline::SEED_BLACKLISTS`] slugs).
fn blacklist_name(slug: &str) -> T {
    match slug {
        "lcc-s01" => T::LccS01,
        "lcc-s03" => T::LccS03,
        "corecoder" => T::CcName,
        _ => T::PiName,
    }
}

/// "Blocked by `sudo`, `reboot` (reason)" (Pi: "asks, by …") or "Runs".
fn hits_view(lang: Lang, gate: Gate, hits: &[timeline::Hit]) -> impl IntoView {
    let t = move |k: T| k.get(lang);
    if hits.is_empty() {
        return ui::verdict(Decision::Allow, t(T::Runs)).into_any();
    }
    let list = hits
        .iter()
        .enumerate()
        .map(|(i, hit)| {
            view! {
                {(i > 0).then_some(", ")}
                <code data-entry=hit.index>{hit.entry}</code>
                {hit.reason.map(|r| format!(" ({r})"))}
            }
        })
        .collect_view();
    let (d, word) = if gate == Gate::Pi {
        (Decision::Ask, T::PiAsks)
    } else {
        (Decision::Deny, T::Blocked)
    };
    view! {
        {ui::verdict(d, t(word))}
        " "<span class="pl-hit">{t(T::By)}" "{list}</span>
    }
    .into_any()
}

/// One of the two lists (dangerous / everyday) through the three ported gates.
fn gate_table(m: &Timeline, dangerous: bool) -> impl IntoView {
    let lang = m.lang;
    let t = move |k: T| k.get(lang);
    let tallies = Gate::PORTED.map(timeline::screen_lists);
    let list_of = move |g: &timeline::GateTally| {
        if dangerous {
            g.dangerous.clone()
        } else {
            g.everyday.clone()
        }
    };
    let lists = tallies.each_ref().map(list_of);
    let rows = lists[0]
        .iter()
        .enumerate()
        .map(|(i, first)| {
            let cells = tallies
                .iter()
                .zip(&lists)
                .filter_map(|(g, l)| l.get(i).map(|s| cell(lang, g.gate, s, dangerous)))
                .collect_view();
            view! {
                <tr data-command=first.command>
                    <th scope="row"><code>{first.command}</code></th>
                    {cells}
                </tr>
            }
        })
        .collect_view();
    let foot = tallies
        .iter()
        .map(|g| view! { <td data-gate=g.gate.slug() class="pl-tl-tally">{m.tally(g, dangerous)}</td> })
        .collect_view();
    let title = t(if dangerous { T::Dangerous } else { T::Everyday });
    view! {
        <Scroll label=title>
            <table class="pl-tl-gates" data-list=if dangerous { "dangerous" } else { "everyday" }>
                <caption>{title}</caption>
                <thead><tr>
                    <th scope="col">{t(T::ColCommand)}</th><th scope="col">{t(T::LccName)}</th>
                    <th scope="col">{t(T::CcName)}</th><th scope="col">{t(T::PiName)}</th>
                </tr></thead>
                <tbody>{rows}</tbody>
                <tfoot><tr><th scope="row">{t(T::Total)}</th>{foot}</tr></tfoot>
            </table>
        </Scroll>
    }
}

fn cell(lang: Lang, gate: Gate, s: &Screened, dangerous: bool) -> impl IntoView {
    let blocked = s.blocked();
    let mark = match (dangerous, blocked) {
        (true, false) => Some(("missed", T::Missed)),
        (false, true) => Some(("wrongly-blocked", T::WronglyBlocked)),
        _ => None,
    };
    view! {
        <td class="pl-gate-cell" data-gate=gate.slug() data-blocked=if blocked { "true" } else { "false" }
            data-mark=mark.map(|m| m.0)>
            {hits_view(lang, gate, &s.hits)}
            {mark.map(|(slug, k)| view! {
                <strong class=format!("pl-tl-mark pl-tl-mark-{slug}")>
                    <span aria-hidden="true">" ⚠ "</span>{k.get(lang)}
                </strong>
            })}
        </td>
    }
}

/// The blacklist stage's lab: both lists through the three gates, their entries, and a field
/// for a command of the learner's own (judged as it is typed).
#[component]
fn Lab(
    /// The scene's state.
    model: RwSignal<Timeline>,
    /// The learner's command (what the result follows).
    command: Memo<String>,
    /// Hidden on the other stages (kept, so the field keeps its undo history).
    #[prop(into)]
    hidden: Signal<bool>,
) -> impl IntoView {
    let m = model.get_untracked();
    let lang = m.lang;
    let t = move |k: T| k.get(lang);
    let lcc = lcc::BLACKLIST
        .iter()
        .map(|e| view! { <li><code>{*e}</code></li> })
        .collect_view();
    let cc = DANGEROUS_PATTERNS
        .iter()
        .map(|p| view! { <li><code>{p.regex}</code>" "<small>{p.reason}</small></li> })
        .collect_view();
    let pi = permlab_core::pi_gate::PATTERNS
        .iter()
        .map(|p| view! { <li><code>{format!("/{}/{}", p.source, p.flags)}</code></li> })
        .collect_view();
    // The field is read only when the scene starts: typing never writes it back.
    let start = m.command.clone();
    let result = move || {
        let c = command.get();
        if c.trim().is_empty() {
            return view! { <p class="pl-hint">{t(T::TryEmpty)}</p> }.into_any();
        }
        let items = GATES
            .map(|(gate, name)| {
                let hits = timeline::screen(gate, &c);
                view! {
                    <li data-gate=gate.slug() data-blocked=if hits.is_empty() { "false" } else { "true" }>
                        <strong>{t(name)}</strong>": "{hits_view(lang, gate, &hits)}
                    </li>
                }
            });
        view! { <ul class="pl-tl-try-list">{items}</ul> }.into_any()
    };
    view! {
        <section class="pl-tl-lab" hidden=move || hidden.get()>
            <h3>{t(T::Lab)}</h3>
            <p class="pl-hint">{t(T::LabIntro)}</p>
            {gate_table(&m, true)}
            {gate_table(&m, false)}
            <div class="pl-tl-entries">
                <div>
                    <h4>{format!("{} · {}", t(T::Entries), t(T::LccName))}</h4>
                    <ol class="pl-tl-entry-list">{lcc}</ol>
                </div>
                <div>
                    <h4>{format!("{} · {}", t(T::Entries), t(T::CcName))}</h4>
                    <ol class="pl-tl-entry-list">{cc}</ol>
                </div>
                <div>
                    <h4>{format!("{} · {}", t(T::Entries), t(T::PiName))}</h4>
                    <ol class="pl-tl-entry-list">{pi}</ol>
                    <p class="pl-hint">{t(T::PiNote)}</p>
                </div>
            </div>
            <div class="pl-tl-try">
                <h4>{t(T::Try)}</h4>
                <Field class="pl-tl-command" label=t(T::TryLabel) value=Signal::stored(start)
                    input=Callback::new(move |v: String| model.update(|m| m.set_command(v)))/>
                <div class="pl-tl-try-result" data-live="">{result}</div>
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reload_brings_back_the_stage_shown_and_ignores_an_unreadable_one() {
        let mut t = Timeline::new(Lang::Zh);
        t.go(4);
        let mut again = Timeline::new(Lang::Zh);
        again.restore(&Read::new(&t.kept()));
        assert_eq!(again.stage, 4);
        let mut odd = Timeline::new(Lang::Zh);
        odd.restore(&Read::new("stage=99"));
        assert_eq!(odd.stage, Timeline::LAST);
        odd.restore(&Read::new("stage=two\nnonsense"));
        assert_eq!(odd.stage, Timeline::LAST);
    }

    fn render(t: &Timeline) -> String {
        let t = t.clone();
        super::super::html(move || view! { <TimelineScene init=t/> })
    }

    #[test]
    fn the_blacklist_stage_shows_the_computed_figures_and_says_where_they_differ() {
        let mut t = Timeline::new(Lang::Zh);
        t.step(Move::Next);
        assert_eq!(t.stage, 1);
        assert_eq!(t.now(), "第 2 / 6 个阶段:朴素 · 黑名单:子串或正则");
        let html = render(&t);
        assert!(html.contains("第 2 / 6 个阶段:朴素 · 黑名单:子串或正则"));
        assert!(html.contains("课程原文说 2/5,实际算出 1/4:课程没有列出它的 5 条日常命令"));
        assert!(html.contains("data-figure=\"lcc-missed\" data-differs=\"false\""));
        assert!(html.contains("data-figure=\"lcc-wrongly-blocked\" data-differs=\"true\""));
        // lcc: 4 missed, sudoku wrongly blocked by `sudo`; CoreCoder: 3 missed, none wrong.
        assert_eq!(
            html.matches("data-gate=\"lcc\" data-blocked=\"false\" data-mark=\"missed\"")
                .count(),
            4
        );
        assert_eq!(
            html.matches("data-gate=\"corecoder\" data-blocked=\"false\" data-mark=\"missed\"")
                .count(),
            3
        );
        assert_eq!(html.matches("data-mark=\"wrongly-blocked\"").count(), 1);
        assert!(html.contains(
            "<tr data-command=\"cat sudoku_solver.py\"><th scope=\"row\"><code>cat sudoku_solver.py</code></th><td data-gate=\"lcc\" data-blocked=\"true\" data-mark=\"wrongly-blocked\" class=\"pl-gate-cell\">"
        ));
        assert!(html.contains("<code data-entry=\"1\">sudo</code>"));
        assert!(html.contains("(raw disk write)"));
        assert!(html.contains("漏拦 4/6") && html.contains("漏拦 3/6"));
        assert!(html.contains("误拦 1/4") && html.contains("误拦 0/4"));
        // Pi's gate, the third column: misses 3 of 6 (`\bsudo\b` spares sudoku), asks for the rest.
        assert!(html.contains("data-figure=\"pi-missed\" data-differs=\"false\""));
        assert_eq!(
            html.matches("data-gate=\"pi\" data-blocked=\"false\" data-mark=\"missed\"")
                .count(),
            3
        );
        assert!(html.contains("问人(没有界面时拦下)"));
        assert!(html.contains("/\\bsudo\\b/i"));
        assert!(!html.contains("没有移植"));
        // The lab is shown on this stage only (and kept, hidden, on the others).
        assert!(html.contains("<section class=\"pl-tl-lab\">"));
        t.go(0);
        assert!(render(&t).contains("<section hidden class=\"pl-tl-lab\">"));
    }

    #[test]
    fn a_typed_command_is_judged_by_both_blacklists() {
        let mut t = Timeline::new(Lang::En);
        t.go(1);
        t.set_command("rm -fr /".into());
        let html = render(&t);
        assert!(html.contains("<li data-gate=\"lcc\" data-blocked=\"false\">"));
        assert!(html.contains("<li data-gate=\"corecoder\" data-blocked=\"true\">"));
        assert!(html.contains("(force recursive delete)"));
        t.set_command("sudo reboot".into());
        let html = render(&t);
        assert!(html.contains("<code data-entry=\"1\">sudo</code>"));
        assert!(html.contains("<code data-entry=\"3\">reboot</code>"));
        t.set_command("  ".into());
        assert!(render(&t).contains("pl-tl-try-result"));
    }

    #[test]
    fn stepping_through_every_stage() {
        let mut t = Timeline::new(Lang::En);
        t.step(Move::Prev);
        assert_eq!(t.stage, 0, "no step before the first");
        t.step(Move::Last);
        assert_eq!(t.stage, 5);
        t.step(Move::Next);
        assert_eq!(t.stage, 5, "no step after the last");
        let html = render(&t);
        // Four blacklists, Pi's included: 4 of 4 as the seed says, and no "not ported" line.
        assert!(html.contains("data-figure=\"rmtree-passes\" data-differs=\"false\""));
        assert!(html.contains("<strong>4/4</strong>"));
        assert!(!html.contains("not ported") && !html.contains("Pi's is not"));
        assert_eq!(html.matches("<li data-blacklist=").count(), 4);
        assert!(html.contains("<li data-blacklist=\"pi\" data-gate=\"pi\" data-blocked=\"false\">"));
        assert!(html.contains("aria-current=\"step\""));
        t.step(Move::Prev);
        t.step(Move::Prev);
        let html = render(&t);
        assert!(html.contains("data-stage=\"rules\""));
        assert!(html.contains("deny (#8)"));
        t.step(Move::First);
        assert_eq!(t.stage, 0);
        assert!(render(&t).contains("<strong>6/6</strong>"));
        t.go(99);
        assert_eq!(t.stage, 5);
    }
}
