//! Scene `comparison`: seed 002's three-product table (OpenCode / Claude Code / Codex), each of
//! its 21 cells checked against the pinned code ([`permlab_core::comparison::cells`]): the
//! seed's claim, what the code does, a status, and the cases that show it — each runnable here
//! with a button that runs it through the ported engine (or Codex's approvals) and shows the
//! verdict next to what the cell says.
//!
//! The overview repeats the seed's table with each cell's status; the sections below give each
//! row's three cells in full. A case's verdict appears only after its button is pressed.

use permlab_core::comparison::{cells, Cell, Demo, DemoResult, Dimension, Product, Status};

use leptos::prelude::*;

use super::comparison_text::{self as text, T};
use super::ui::{self, Scroll};
use crate::text::i18n::Lang;

/// The scene's state: the cells and which cases have been run.
#[derive(Clone)]
pub struct Comparison {
    lang: Lang,
    cells: Vec<Cell>,
    /// Per cell, per case: run yet?
    pub ran: Vec<Vec<bool>>,
}

fn status_text(s: Status) -> T {
    match s {
        Status::Holds => T::Holds,
        Status::Partly => T::Partly,
        Status::Wrong => T::Wrong,
        Status::NotChecked => T::NotChecked,
    }
}

fn status_icon(s: Status) -> &'static str {
    match s {
        Status::Holds => "✓",
        Status::Partly => "≈",
        Status::Wrong => "✗",
        Status::NotChecked => "—",
    }
}

fn product_name(p: Product) -> &'static str {
    match p {
        Product::OpenCode => "OpenCode",
        Product::ClaudeCode => "Claude Code",
        Product::Codex => "Codex",
    }
}

impl Comparison {
    /// The table, nothing run.
    pub fn new(lang: Lang) -> Comparison {
        let cells = cells();
        let ran = cells.iter().map(|c| vec![false; c.demos.len()]).collect();
        Comparison { lang, cells, ran }
    }

    /// Runs case `k` of cell `i` (its verdict is shown from now on).
    pub fn run(&mut self, i: usize, k: usize) {
        if let Some(r) = self.ran.get_mut(i).and_then(|c| c.get_mut(k)) {
            *r = true;
        }
    }

    /// How many cases have been run, of how many.
    pub fn progress(&self) -> (usize, usize) {
        let all = self.ran.iter().flatten();
        (all.clone().filter(|r| **r).count(), all.count())
    }

    /// "已运行 3 / 30 个例子" (announced).
    pub fn progress_line(&self) -> String {
        let (k, n) = self.progress();
        T::Progress
            .get(self.lang)
            .replace("{k}", &k.to_string())
            .replace("{n}", &n.to_string())
    }
}

/// The scene (`data-scene="comparison"`).
#[component]
pub fn ComparisonScene(
    /// The state to start from (`Comparison::new(lang)`).
    init: Comparison,
) -> impl IntoView {
    let lang = init.lang;
    let t = move |k: T| k.get(lang);
    let all = init.cells.clone();
    let model = RwSignal::new(init);
    let progress = Memo::new(move |_| model.with(Comparison::progress_line));
    super::host::announce(Memo::new(move |_| vec![progress.get()]));
    let heads = Vec::from(Product::ALL.map(|p| view! { <th scope="col">{product_name(p)}</th> }));
    let overview = Dimension::ALL
        .iter()
        .enumerate()
        .map(|(r, d)| {
            let row = (0..3)
                .map(|c| {
                    let cell = &all[r * 3 + c];
                    view! {
                        <td data-status=cell.status.slug()>
                            <span class="pl-cmp-claim">{claim(lang, r * 3 + c, cell)}</span>" "
                            <span class=format!("pl-cmp-status pl-cmp-{}", cell.status.slug())>
                                <span aria-hidden="true">{status_icon(cell.status)}" "</span>{t(status_text(cell.status))}
                            </span>
                        </td>
                    }
                })
                .collect_view();
            view! { <tr data-dimension=d.slug()><th scope="row">{text::dimension(lang, *d)}</th>{row}</tr> }
        })
        .collect_view();
    let sections = Dimension::ALL
        .iter()
        .enumerate()
        .map(|(r, d)| {
            let cards = (0..3)
                .map(|c| cell_view(lang, model, r * 3 + c, &all[r * 3 + c]))
                .collect_view();
            view! {
                <section class="pl-cmp-row" data-dimension=d.slug()>
                    <h3>{text::dimension(lang, *d)}</h3>
                    <div class="pl-cmp-cells">{cards}</div>
                </section>
            }
        })
        .collect_view();
    let (wrong, partly) = (
        all.iter().filter(|c| c.status == Status::Wrong).count(),
        all.iter().filter(|c| c.status == Status::Partly).count(),
    );
    let tally = t(T::Tally)
        .replace("{n}", &all.len().to_string())
        .replace("{w}", &wrong.to_string())
        .replace("{p}", &partly.to_string());
    view! {
        <h2 class="pl-title">{t(T::Title)}</h2>
        <p class="pl-intro">{t(T::Intro)}</p>
        <p class="pl-cmp-tally">{tally}</p>
        <Scroll label=t(T::Overview)>
            <table class="pl-cmp-overview">
                <caption>{t(T::Overview)}</caption>
                <thead><tr><th scope="col">{t(T::ColDimension)}</th>{heads}</tr></thead>
                <tbody>{overview}</tbody>
            </table>
        </Scroll>
        {sections}
        <p class="pl-live pl-cmp-progress" data-live="">{move || progress.get()}</p>
    }
}

/// The seed's claim: verbatim in zh, translated in en.
fn claim(lang: Lang, i: usize, c: &Cell) -> &'static str {
    match lang {
        Lang::Zh => c.claim_zh,
        Lang::En => text::CLAIM_EN[i],
    }
}

/// One cell: the claim, its status, what the code does, the source and the cases.
fn cell_view(lang: Lang, model: RwSignal<Comparison>, i: usize, c: &Cell) -> impl IntoView {
    let t = move |k: T| k.get(lang);
    let demos = (!c.demos.is_empty()).then(|| {
        let items = c
            .demos
            .iter()
            .enumerate()
            .map(|(k, d)| demo_view(lang, model, i, k, d))
            .collect_view();
        view! { <ol class="pl-cmp-demos">{items}</ol> }
    });
    view! {
        <article class="pl-cmp-cell" data-product=c.product.slug() data-dimension=c.dimension.slug()
            data-status=c.status.slug()>
            <h4>{product_name(c.product)}</h4>
            <p><span class="pl-label">{t(T::SeedSays)}</span>" "<q class="pl-cmp-claim">{claim(lang, i, c)}</q></p>
            <p class=format!("pl-cmp-status pl-cmp-{}", c.status.slug())>
                <strong><span aria-hidden="true">{status_icon(c.status)}" "</span>{t(status_text(c.status))}</strong>
            </p>
            <p><span class="pl-label">{t(T::CodeDoes)}</span>" "{text::code(lang, i)}</p>
            <p class="pl-hint pl-cmp-basis"><small>{t(T::Source)}" "{text::basis(lang, c.product, !c.demos.is_empty())}</small></p>
            {demos}
        </article>
    }
}

/// A case: what goes in, a button, and (once run) the engine's verdict next to the expected one.
fn demo_view(
    lang: Lang,
    model: RwSignal<Comparison>,
    i: usize,
    k: usize,
    d: &Demo,
) -> impl IntoView {
    let t = move |k: T| k.get(lang);
    let setup = match d {
        Demo::Table {
            engine,
            mode,
            rules,
            call,
            ..
        } => {
            let rows = if rules.is_empty() {
                view! { <p class="pl-hint">{t(T::NoRules)}</p> }.into_any()
            } else {
                let items = rules
                    .iter()
                    .map(|(tool, pattern, action)| {
                        view! { <li><code>{format!("{tool} {pattern}")}</code>" "{lang.action(*action)}</li> }
                    })
                    .collect_view();
                view! { <ol class="pl-cmp-rules">{items}</ol> }.into_any()
            };
            let mode = mode.map(|m| format!(" · {} {}", t(T::Mode), m.as_str()));
            view! {
                <p>
                    <strong>{lang.engine(*engine)}</strong>{mode}" · "{t(T::Call)}" "
                    <code>{format!("{}: {}", call.0, call.1)}</code>
                </p>
                {rows}
            }
            .into_any()
        }
        Demo::CodexApprovals {
            sandbox,
            policy,
            command,
            ..
        } => view! {
            <p>
                <strong>"Codex"</strong>" · "<code>{format!("sandbox_mode = \"{}\"", sandbox.slug())}</code>
                " · "<code>{format!("approval_policy = \"{}\"", policy.slug())}</code>
            </p>
            <p>{t(T::Command)}" "{super::codex_approvals::facts(lang, command)}</p>
        }
        .into_any(),
    };
    let ran = Memo::new(move |_| model.with(|m| m.ran[i][k]));
    let d2 = d.clone();
    let result = move || {
        ran.get().then(|| {
            let got = d2.run();
            let holds = got == d2.expect();
            let verdict = match got {
                DemoResult::Decision(dec) => ui::verdict(dec, lang.decision(dec)).into_any(),
                DemoResult::Outcome(o) => view! {
                    {ui::verdict(o.decision(), lang.decision(o.decision()))}" "
                    {super::codex_approvals::outcome_short(lang, o)}
                }
                .into_any(),
            };
            let drift = d2.drift().map(|d| {
                view! {
                    <p class="pl-cmp-drift" data-docs=d.docs.as_str() data-cli=d.cli.as_str()>
                        {t(T::Drift)}" "<strong>{lang.drift_label(d)}</strong>
                    </p>
                }
            });
            view! {
                <p class="pl-cmp-result" data-matches=if holds { "true" } else { "false" }>
                    {t(T::Engine)}" "{verdict}" "
                    <small>{t(if holds { T::AsSaid } else { T::NotAsSaid })}</small>
                </p>
                {drift}
            }
        })
    };
    view! {
        <li class="pl-cmp-demo" data-demo=k>
            {setup}
            <button type="button" class="pl-cmp-run" aria-disabled=move || if ran.get() { "true" } else { "false" }
                on:click=move |_| model.update(|m| m.run(i, k))>{t(T::Run)}</button>
            <div class="pl-cmp-out">{result}</div>
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(s: &Comparison) -> String {
        let s = s.clone();
        super::super::html(move || view! { <ComparisonScene init=s/> })
    }

    #[test]
    fn every_cell_with_its_claim_status_and_cases() {
        let mut s = Comparison::new(Lang::Zh);
        let html = render(&s);
        assert_eq!(html.matches("class=\"pl-cmp-cell\"").count(), 21);
        for c in cells() {
            assert!(html.contains(c.claim_zh), "{}", c.claim_zh);
        }
        assert!(html.contains("21 个单元格里 6 个与代码不符"));
        // Nothing is run before its button: no verdict is shown.
        assert!(!html.contains("pl-cmp-result"));
        let (_, n) = s.progress();
        for (i, c) in s.cells.clone().iter().enumerate() {
            for k in 0..c.demos.len() {
                s.run(i, k);
            }
        }
        assert_eq!(s.progress(), (n, n));
        let html = render(&s);
        assert_eq!(html.matches("data-matches=\"true\"").count(), n);
        assert!(!html.contains("data-matches=\"false\""));
        // The seed's own five rules: OpenCode allows rm -rf /tmp/cache (its deny claim fails).
        assert!(html.contains("bash: rm -rf /tmp/cache"));
        // /usr/bin/curl: the docs' answer next to the recorded CLI's, which the engine gives.
        assert_eq!(html.matches("class=\"pl-cmp-drift\"").count(), 1);
        assert!(html.contains("data-docs=\"ask\" data-cli=\"deny\""));
        assert!(html.contains("文档:问人 · CLI 2.1.332 实测:拒绝"));
        // Each cell names its basis in the learner's words, never a file.
        for file in [
            "claude-code.md",
            "opencode.md",
            ".rs ",
            "exec_policy",
            "seed 0",
            "permlab ",
        ] {
            assert!(!html.contains(file), "{file}");
        }
    }

    #[test]
    fn english_words_every_cell() {
        let html = render(&Comparison::new(Lang::En));
        for (i, _) in cells().iter().enumerate() {
            assert!(html.contains(text::CLAIM_EN[i]), "{i}");
        }
        assert!(html.contains("DENY cannot be overridden"));
        assert!(!html.contains("白名单"));
    }
}
