//! The components. State lives in [`Ctx`] (signals over the plain [`Lab`]); every verdict, match
//! and cursor comes from [`compute`] (the core's engines). Handlers only change the `Lab`.

use std::collections::HashMap;
use std::time::Duration;

use leptos::ev;
use leptos::html;
use leptos::prelude::*;
use permlab_core::analysis::Disagreement;
use permlab_core::{claude_code, codex, Action, Call, Decision, EngineId, Evaluation, Reason};
use permlab_core::{Rule, RuleId, RuleTable};
use wasm_bindgen::JsCast;

use crate::compute;
use crate::i18n::{one_line, Lang, S};
use crate::persist::Snapshot;
use crate::presets::{self, Preset};
use crate::state::{Guess, Lab};
use crate::web;

/// How one widget instance is configured by its host element.
#[derive(Clone, Debug)]
pub struct Config {
    /// Page language.
    pub lang: Lang,
    /// URL-hash namespace (the host element's id).
    pub ns: String,
    /// Where the conformance fixtures are served (a URL prefix).
    pub fixtures: String,
    /// URL of the self-check worker's loader (a separate wasm, fetched on demand).
    pub selfcheck: String,
    /// A lesson table given by the host page (fixtures format), shown as the custom preset.
    pub lesson: Option<String>,
}

/// Rows rendered per frame for big tables.
const CHUNK: usize = 500;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Lift {
    id: RuleId,
    from: usize,
    to: usize,
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Drag {
    id: RuleId,
    from: usize,
    to: usize,
    pointer: i32,
    y0: f64,
    active: bool,
    moved: bool,
}

/// What one table row shows besides its rule: kept per row (see the sync effect in [`App`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct RowView {
    pos: usize,
    last: bool,
    cursor: Option<String>,
    decisive: Option<String>,
    lifted: bool,
    /// A drop indicator on this row: `Some(true)` below it, `Some(false)` above it.
    drop: Option<bool>,
}

/// The row signal for `id`, created (under the widget's owner, so it outlives any one row
/// view) on first use.
fn row_signal(ctx: Ctx, id: RuleId, pos: usize, n: usize) -> RwSignal<RowView> {
    if let Some(s) = ctx.rows.with_value(|m| m.get(&id).copied()) {
        return s;
    }
    let init = RowView {
        pos,
        last: pos + 1 == n,
        ..RowView::default()
    };
    let s = ctx.owner.with_value(|o| o.with(|| RwSignal::new(init)));
    ctx.rows.update_value(|m| {
        m.insert(id, s);
    });
    s
}

#[derive(Clone, Copy)]
enum Op {
    Move(usize, usize),
    Reverse,
    Undo,
    Reset,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum FocusOn {
    Grip,
    Up,
    Down,
}

/// The widget instance's signals (all `Copy`).
#[derive(Clone, Copy)]
struct Ctx {
    lang: Lang,
    lab: RwSignal<Lab>,
    preset: RwSignal<Preset>,
    calls: RwSignal<Vec<Call>>,
    custom: RwSignal<String>,
    codex: RwSignal<bool>,
    stepping: RwSignal<bool>,
    announce: RwSignal<String>,
    lift: RwSignal<Option<Lift>>,
    drag: RwSignal<Option<Drag>>,
    prev_matrix: RwSignal<Option<Vec<Vec<Decision>>>>,
    table: Memo<RuleTable>,
    call: Memo<Call>,
    shown: Memo<Vec<EngineId>>,
    evals: Memo<Vec<Evaluation>>,
    matrix: Memo<Vec<Vec<Decision>>>,
    rows: StoredValue<HashMap<RuleId, RwSignal<RowView>>>,
    owner: StoredValue<Owner>,
    cursors: Memo<Vec<(usize, EngineId)>>,
    decisive: Memo<Vec<(usize, EngineId)>>,
    target: Memo<Option<(usize, usize)>>,
    total_steps: Memo<usize>,
    root: NodeRef<html::Section>,
    reorder_pending: StoredValue<bool>,
    /// How many rows are in the DOM: big tables are rendered a chunk per frame.
    limit: RwSignal<usize>,
    /// Bumped whenever the table is replaced (not reordered): part of the row key.
    generation: StoredValue<u32>,
}

/// The engines that draw a cursor in the stepper.
fn cursor_engines(codex: bool) -> Vec<EngineId> {
    let mut v = vec![
        EngineId::FirstMatch,
        EngineId::OpenCode,
        EngineId::ClaudeCode,
    ];
    if codex {
        v.push(EngineId::Codex);
    }
    v
}

/// The cursor's glyph: a different shape per engine (colour is never the only cue).
fn cursor_glyph(e: EngineId) -> &'static str {
    match e {
        EngineId::FirstMatch => "▼",
        EngineId::OpenCode => "▲",
        EngineId::ClaudeCode => "◆",
        EngineId::Codex => "■",
        EngineId::CoreCoder => "●",
    }
}

fn initial(config: &Config, snap: &Snapshot) -> (Preset, String, RuleTable, Vec<Call>) {
    let mut preset = snap
        .preset
        .as_deref()
        .and_then(Preset::from_slug)
        .unwrap_or(if config.lesson.is_some() {
            Preset::Custom
        } else {
            Preset::Miniagent
        });
    let custom_text = snap
        .custom
        .clone()
        .or_else(|| config.lesson.clone())
        .unwrap_or_else(|| Preset::Miniagent.table().to_json());
    if preset == Preset::Custom {
        if let Ok((t, c)) = presets::parse_custom(&custom_text) {
            return (preset, custom_text, t, c);
        }
        preset = Preset::Miniagent;
    }
    (preset, custom_text, preset.table(), preset.calls())
}

/// The widget's root.
#[component]
pub fn App(config: Config) -> impl IntoView {
    let lang = config.lang;
    let ns = config.ns.clone();
    let snap = Snapshot::from_entries(&crate::hash::read(&web::location_hash(), &ns));
    let (preset0, custom0, table0, calls0) = initial(&config, &snap);
    let first_call = calls0
        .first()
        .cloned()
        .unwrap_or_else(|| Call::new("bash", "ls"));
    let mut lab0 = Lab::new(table0, first_call);
    if let Some(order) = &snap.order {
        lab0.restore_order(order);
    }
    if let Some(c) = &snap.call {
        lab0.set_call(c.clone());
    }
    for (e, g) in &snap.guesses {
        lab0.set_guess(*e, *g);
    }
    for e in &snap.revealed {
        lab0.reveal(*e);
    }
    lab0.set_step(snap.step, usize::MAX);

    let lab = RwSignal::new(lab0);
    let codex = RwSignal::new(snap.codex);
    let stepping = RwSignal::new(snap.stepping);
    let preset = RwSignal::new(preset0);
    let table = Memo::new(move |_| lab.with(|l| l.table().clone()));
    let call = Memo::new(move |_| lab.with(|l| l.call().clone()));
    let calls = RwSignal::new(calls0);
    let shown = Memo::new(move |_| preset.get().engines(codex.get()));
    let evals = Memo::new(move |_| table.with(|t| call.with(|c| compute::evaluate_all(t, c))));
    let matrix = Memo::new(move |_| table.with(|t| calls.with(|c| compute::matrix(t, c))));
    let total_steps = Memo::new(move |_| {
        let engines = cursor_engines(codex.get());
        evals.with(|v| {
            engines
                .iter()
                .filter_map(|e| compute::find(v, *e))
                .map(|e| e.steps.len())
                .max()
                .unwrap_or(0)
        })
    });
    let cursors = Memo::new(move |_| {
        if !stepping.get() {
            return Vec::new();
        }
        let k = lab.with(|l| l.step()).min(total_steps.get());
        if k == 0 {
            return Vec::new();
        }
        let engines = cursor_engines(codex.get());
        evals.with(|v| {
            engines
                .iter()
                .filter_map(|e| compute::find(v, *e))
                .filter_map(|e| {
                    let s = e.steps.get(k.min(e.steps.len()).checked_sub(1)?)?;
                    Some((s.row, e.engine))
                })
                .collect()
        })
    });
    let decisive = Memo::new(move |_| {
        let shown = shown.get();
        lab.with(|l| {
            evals.with(|v| {
                shown
                    .iter()
                    .filter(|e| l.is_revealed(**e))
                    .filter_map(|e| compute::find(v, *e))
                    .filter_map(|e| Some((e.rule?, e.engine)))
                    .collect()
            })
        })
    });
    let lift = RwSignal::new(None::<Lift>);
    let drag = RwSignal::new(None::<Drag>);
    let target = Memo::new(move |_| {
        if let Some(l) = lift.get() {
            return Some((l.from, l.to));
        }
        drag.get()
            .filter(|d| d.active && d.moved)
            .map(|d| (d.from, d.to))
    });
    let ctx = Ctx {
        lang,
        lab,
        preset,
        calls,
        custom: RwSignal::new(custom0),
        codex,
        stepping,
        announce: RwSignal::new(String::new()),
        lift,
        drag,
        prev_matrix: RwSignal::new(None),
        table,
        call,
        shown,
        evals,
        matrix,
        rows: StoredValue::new(HashMap::new()),
        owner: StoredValue::new(Owner::current().unwrap_or_default()),
        cursors,
        decisive,
        target,
        total_steps,
        root: NodeRef::new(),
        reorder_pending: StoredValue::new(false),
        limit: RwSignal::new(CHUNK),
        generation: StoredValue::new(0),
    };

    // Each row reads only its own signal: one shared memo read by 10 000 rows would make every
    // update quadratic (the reactive graph keeps subscribers in an ordered set).
    Effect::new(move |_| {
        let target = ctx.target.get();
        let limit = ctx.limit.get();
        ctx.cursors.with(|cursors| {
            ctx.decisive.with(|decisive| {
                ctx.table.with(|t| {
                    let n = t.len();
                    let at = |list: &[(usize, EngineId)], i: usize| {
                        let v: Vec<&str> = list
                            .iter()
                            .filter(|(r, _)| *r == i)
                            .map(|(_, e)| e.slug())
                            .collect();
                        (!v.is_empty()).then(|| v.join(" "))
                    };
                    // Only rows in the DOM (see `limit`) need their signal.
                    for (i, r) in t.rules().iter().enumerate().take(limit) {
                        let v = RowView {
                            pos: i,
                            last: i + 1 == n,
                            cursor: at(cursors, i),
                            decisive: at(decisive, i),
                            lifted: target.is_some_and(|(from, _)| from == i),
                            drop: target
                                .filter(|&(from, to)| to == i && from != to)
                                .map(|(from, to)| to > from),
                        };
                        let sig = row_signal(ctx, r.id, i, n);
                        if sig.with_untracked(|old| *old != v) {
                            sig.set(v);
                        }
                    }
                })
            })
        });
    });

    // A 10 000-row table is rendered CHUNK rows per frame, so the page keeps answering.
    Effect::new(move |_| {
        let n = ctx.table.with(RuleTable::len);
        if ctx.limit.get() < n {
            request_animation_frame(move || ctx.limit.update(|l| *l += CHUNK));
        }
    });

    // The URL hash follows the state (replaceState: no history entry per click).
    Effect::new(move |_| {
        let snap = lab.with(|l| {
            let p = preset.get();
            Snapshot {
                preset: Some(p.slug().to_string()),
                custom: (p == Preset::Custom)
                    .then(|| ctx.custom.get())
                    .filter(|c| c.len() <= 8_000),
                order: (l.is_reordered() && l.table().len() <= 500).then(|| l.order()),
                call: ctx
                    .calls
                    .with(|c| c.first() != Some(l.call()))
                    .then(|| l.call().clone()),
                guesses: l.guesses().map(|(e, g, _)| (e, g)).collect(),
                revealed: l.guesses().filter(|g| g.2).map(|g| g.0).collect(),
                stepping: stepping.get(),
                step: l.step(),
                codex: codex.get(),
            }
        });
        web::write_hash(&ns, &snap.to_entries());
    });

    // Performance marks for the reorder benchmark: set in `reorder`, closed once the verdicts
    // (panels and matrix) are recomputed.
    Effect::new(move |_| {
        matrix.track();
        evals.track();
        if ctx.reorder_pending.get_value() {
            ctx.reorder_pending.set_value(false);
            web::mark_end("pl-reorder");
            // …and once the DOM has been updated and a frame is about to be painted.
            request_animation_frame(|| web::mark_end("pl-reorder-frame"));
        }
    });

    // Pointer drags are followed on the window: the pointer leaves the grip at once.
    let _ = window_event_listener(ev::pointermove, move |e| pointer_move(ctx, &e));
    let _ = window_event_listener(ev::pointerup, move |e| pointer_up(ctx, &e, true));
    let _ = window_event_listener(ev::pointercancel, move |e| pointer_up(ctx, &e, false));

    let on_key = move |e: ev::KeyboardEvent| {
        if (e.ctrl_key() || e.meta_key())
            && !e.alt_key()
            && e.key().eq_ignore_ascii_case("z")
            && !web::in_text_field(&e)
        {
            e.prevent_default();
            reorder(ctx, Op::Undo);
        }
    };

    view! {
        <section class="pl-widget" lang=lang.tag() node_ref=ctx.root on:keydown=on_key>
            <h2 class="pl-title">{lang.s(S::Title)}</h2>
            <PresetBar ctx/>
            <CallEditor ctx/>
            <Toolbar ctx/>
            <p class="pl-announce" role="status" aria-live="polite" aria-atomic="true">
                {move || ctx.announce.get()}
            </p>
            <div class="pl-main">
                <RulesView ctx/>
                <div class="pl-side">
                    <Stepper ctx/>
                    <Guesses ctx/>
                </div>
            </div>
            <ReorderLog ctx/>
            <DisagreementBox ctx/>
            <FormulaView ctx/>
            <MatrixView ctx/>
            <TranslationsView ctx/>
            <SelfCheck ctx fixtures=config.fixtures.clone() worker=config.selfcheck.clone()/>
            <TableEditor ctx/>
        </section>
    }
}

/// Applies a reorder to the lab and records what the reorder log and the matrix need.
fn reorder(ctx: Ctx, op: Op) -> bool {
    web::mark_start("pl-reorder");
    let before = ctx.matrix.get_untracked();
    let shown = ctx.shown.get_untracked();
    let judge = move |t: &RuleTable, c: &Call| compute::judge(&shown, t, c);
    let mut changed = false;
    ctx.lab.update(|l| {
        changed = match op {
            Op::Move(from, to) => l.move_rule(from, to, &judge),
            Op::Reverse => {
                let n = l.table().len();
                l.reverse(&judge);
                n > 1
            }
            Op::Undo => l.undo(&judge),
            Op::Reset => {
                let r = l.is_reordered();
                l.reset(&judge);
                r
            }
        };
    });
    if changed {
        if ctx.stepping.get_untracked() {
            // New order, new cursor paths: an open stepper starts again at step 1.
            ctx.lab.update(|l| l.set_step(1, usize::MAX));
        }
        ctx.reorder_pending.set_value(true);
        ctx.prev_matrix.set(Some(before));
        if !matches!(op, Op::Move(..)) {
            // What happened and which verdicts flipped: the reorder log's newest line.
            let line = ctx.lab.with_untracked(|l| {
                l.log()
                    .last()
                    .map(|e| ctx.lang.log_entry(l.table(), e))
                    .unwrap_or_default()
            });
            ctx.announce.set(line);
        }
    }
    changed
}

/// Moves the row at `from` to `to` (0-based), announces it and keeps focus on the moved row.
fn move_row(ctx: Ctx, from: usize, to: usize, focus: FocusOn) {
    let Some(rule) = ctx.table.with_untracked(|t| t.rules().get(from).cloned()) else {
        return;
    };
    let n = ctx.table.with_untracked(RuleTable::len);
    if reorder(ctx, Op::Move(from, to)) {
        ctx.announce.set(ctx.lang.moved(&rule, from + 1, to + 1, n));
    }
    refocus(ctx, rule.id, focus);
}

fn refocus(ctx: Ctx, id: RuleId, focus: FocusOn) {
    request_animation_frame(move || {
        let Some(root) = ctx.root.get_untracked() else {
            return;
        };
        let class = match focus {
            FocusOn::Grip => "pl-grip",
            FocusOn::Up => "pl-up",
            FocusOn::Down => "pl-down",
        };
        let sel = |c: &str| format!("tr[data-rule-id=\"{}\"] .{c}", id.0);
        let el = root
            .query_selector(&sel(class))
            .ok()
            .flatten()
            .and_then(|e| e.dyn_into::<web_sys::HtmlButtonElement>().ok());
        let el = match el {
            Some(b) if !b.disabled() => Some(b),
            _ => root
                .query_selector(&sel("pl-grip"))
                .ok()
                .flatten()
                .and_then(|e| e.dyn_into::<web_sys::HtmlButtonElement>().ok()),
        };
        if let Some(el) = el {
            let _ = el.focus();
        }
    });
}

fn pointer_move(ctx: Ctx, e: &ev::PointerEvent) {
    let Some(d) = ctx.drag.get_untracked() else {
        return;
    };
    if e.pointer_id() != d.pointer {
        return;
    }
    let dy = f64::from(e.client_y()) - d.y0;
    if !d.active {
        // A touch that moves before the hold delay is a scroll: let the page have it.
        if dy.abs() > 8.0 {
            ctx.drag.set(None);
        }
        return;
    }
    if !d.moved && dy.abs() < 4.0 {
        return;
    }
    e.prevent_default();
    let Some(root) = ctx.root.get_untracked() else {
        return;
    };
    let to = web::drop_index(&root, f64::from(e.client_y()), d.from);
    if !d.moved || to != d.to {
        ctx.drag.set(Some(Drag {
            to,
            moved: true,
            ..d
        }));
    }
}

fn pointer_up(ctx: Ctx, e: &ev::PointerEvent, commit: bool) {
    let Some(d) = ctx.drag.get_untracked() else {
        return;
    };
    if e.pointer_id() != d.pointer {
        return;
    }
    ctx.drag.set(None);
    if commit && d.active && d.moved && d.to != d.from {
        move_row(ctx, d.from, d.to, FocusOn::Grip);
    }
}

#[component]
fn PresetBar(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let choose = move |p: Preset| {
        let (table, calls) = if p == Preset::Custom {
            match presets::parse_custom(&ctx.custom.get_untracked()) {
                Ok(x) => x,
                Err(_) => return,
            }
        } else {
            (p.table(), p.calls())
        };
        let first = calls
            .first()
            .cloned()
            .unwrap_or_else(|| Call::new("bash", "ls"));
        ctx.lift.set(None);
        ctx.drag.set(None);
        ctx.prev_matrix.set(None);
        ctx.limit.set(CHUNK);
        ctx.generation.update_value(|g| *g += 1);
        ctx.calls.set(calls);
        ctx.lab.set(Lab::new(table, first));
        ctx.preset.set(p);
    };
    let name = move |p: Preset| match p {
        Preset::Miniagent => lang.s(S::PresetMiniagent),
        Preset::Git => lang.s(S::PresetGit),
        Preset::Aws => lang.s(S::PresetAws),
        Preset::Custom => lang.s(S::PresetCustom),
    };
    view! {
        <div class="pl-presets pl-controls" role="group" aria-label=lang.s(S::Preset)>
            <span class="pl-label">{lang.s(S::Preset)}</span>
            {[Preset::Miniagent, Preset::Git, Preset::Aws, Preset::Custom]
                .into_iter()
                .map(|p| view! {
                    <button type="button" class="pl-preset" data-preset=p.slug()
                        aria-pressed=move || (ctx.preset.get() == p).to_string()
                        on:click=move |_| choose(p)>{name(p)}</button>
                })
                .collect_view()}
        </div>
    }
}

#[component]
fn CallEditor(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let tool = RwSignal::new(ctx.call.get_untracked().tool);
    let input = RwSignal::new(ctx.call.get_untracked().input);
    // Follow the lab when the call changes from elsewhere (preset, matrix row).
    Effect::new(move |_| {
        let c = ctx.call.get();
        if tool.get_untracked() != c.tool {
            tool.set(c.tool.clone());
        }
        if input.get_untracked() != c.input {
            input.set(c.input);
        }
    });
    let problem = Memo::new(move |_| {
        let t = tool.get();
        if t.trim().is_empty() {
            Some(lang.s(S::ToolEmpty))
        } else if t.chars().any(char::is_whitespace) {
            Some(lang.s(S::ToolSpace))
        } else {
            None
        }
    });
    let apply = move || {
        if problem.get_untracked().is_none() {
            let c = Call::new(tool.get_untracked(), input.get_untracked());
            ctx.lab.update(|l| l.set_call(c));
        }
    };
    // What some engine could not take from this input (the engines say so in their reason).
    let engine_notes = move || {
        ctx.evals.with(|v| {
            v.iter()
                .filter_map(|e| match &e.reason {
                    Reason::CodexUnsplittable { .. } => Some((e.engine, e.reason.clone())),
                    Reason::ClaudeCode(claude_code::eval::Decider::Mode {
                        why: claude_code::eval::Blocker::Unparseable(_),
                        ..
                    }) => Some((e.engine, e.reason.clone())),
                    _ => None,
                })
                .collect::<Vec<_>>()
        })
    };
    let select_value = move || {
        ctx.calls.with(|cs| {
            ctx.call
                .with(|c| cs.iter().position(|x| x == c))
                .map(|i| i.to_string())
                .unwrap_or_default()
        })
    };
    view! {
        <fieldset class="pl-call pl-controls">
            <legend>{lang.s(S::Call)}</legend>
            <label class="pl-field">
                <span>{lang.s(S::CallPreset)}</span>
                <select class="pl-call-select" prop:value=select_value
                    on:change=move |e| {
                        let v = event_target_value(&e);
                        if let Some(c) = v.parse::<usize>().ok().and_then(|i| ctx.calls.with_untracked(|cs| cs.get(i).cloned())) {
                            ctx.lab.update(|l| l.set_call(c));
                        }
                    }>
                    <option value="" disabled=true>"—"</option>
                    {move || ctx.calls.get().into_iter().enumerate().map(|(i, c)| view! {
                        <option value=i.to_string()>{one_line(&c.to_string())}</option>
                    }).collect_view()}
                </select>
            </label>
            <label class="pl-field pl-field-tool">
                <span>{lang.s(S::CallTool)}</span>
                <input class="pl-call-tool-input" type="text" spellcheck="false" autocomplete="off"
                    aria-invalid=move || problem.get().is_some().to_string()
                    prop:value=move || tool.get()
                    on:input=move |e| { tool.set(event_target_value(&e)); apply(); }/>
            </label>
            <label class="pl-field pl-field-input">
                <span>{lang.s(S::CallInput)}</span>
                <textarea class="pl-call-input-text" rows="1" spellcheck="false"
                    prop:value=move || input.get()
                    on:input=move |e| { input.set(event_target_value(&e)); apply(); }></textarea>
            </label>
            <p class="pl-call-error" role="alert">{move || problem.get()}</p>
            <ul class="pl-call-notes">
                {move || engine_notes().into_iter().map(|(e, r)| {
                    let text = ctx.table.with(|t| lang.reason(t, e, &r));
                    view! { <li><strong>{lang.engine(e)}</strong>": "{text}</li> }
                }).collect_view()}
            </ul>
        </fieldset>
        <p class="pl-call-now">
            <span class="pl-call-label">{lang.s(S::Call)}</span>
            <code class="pl-call-tool">{move || ctx.call.get().tool}</code>
            <code class="pl-call-input">{move || ctx.call.get().input}</code>
        </p>
    }
}

#[component]
fn Toolbar(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let copied = RwSignal::new(None::<Result<(), String>>);
    let copy = move |_| {
        let text = ctx.table.with_untracked(RuleTable::to_json);
        leptos::task::spawn_local(async move {
            let r = web::copy_text(&text).await;
            copied.set(Some(r.map_err(|_| text)));
        });
    };
    view! {
        <div class="pl-toolbar pl-controls">
            <button type="button" class="pl-undo" disabled=move || !ctx.lab.with(Lab::can_undo)
                aria-keyshortcuts="Control+Z Meta+Z"
                on:click=move |_| { reorder(ctx, Op::Undo); }>"↶ "{lang.s(S::Undo)}</button>
            <button type="button" class="pl-reset" disabled=move || !ctx.lab.with(Lab::is_reordered)
                on:click=move |_| { reorder(ctx, Op::Reset); }>{lang.s(S::Reset)}</button>
            <button type="button" class="pl-reverse"
                on:click=move |_| { reorder(ctx, Op::Reverse); }>"⇅ "{lang.s(S::Reverse)}</button>
            <button type="button" class="pl-copy" on:click=copy>{lang.s(S::CopyJson)}</button>
            <label class="pl-checkbox">
                <input type="checkbox" class="pl-codex-toggle" prop:checked=move || ctx.codex.get()
                    on:change=move |e| ctx.codex.set(event_target_checked(&e))/>
                {lang.s(S::ShowCodex)}
            </label>
        </div>
        {move || copied.get().map(|r| match r {
            Ok(()) => view! { <p class="pl-copied" role="status">{lang.s(S::Copied)}</p> }.into_any(),
            Err(text) => view! {
                <div class="pl-copy-fallback">
                    <label>{lang.s(S::CopyFallback)}
                        <textarea class="pl-copy-text" readonly=true rows="6"
                            on:focus=move |e| { if let Some(t) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok()) { t.select(); } }
                            prop:value=text></textarea>
                    </label>
                </div>
            }.into_any(),
        })}
    }
}

#[component]
fn RulesView(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    // Rows are keyed by rule id (stable across reorders) and the table's generation (a new
    // table from a preset or pasted JSON is new), so a key costs no string copies.
    view! {
        <div class="pl-table-wrap">
            <table class="pl-table">
                <caption>{lang.s(S::Caption)}</caption>
                <thead>
                    <tr>
                        <th scope="col" class="pl-controls pl-col-grip"><span class="pl-sr">{lang.s(S::Move)}</span></th>
                        <th scope="col" class="pl-col-pos">"#"</th>
                        <th scope="col" class="pl-cursor-col"><span class="pl-sr">{lang.s(S::Cursor)}</span></th>
                        <th scope="col" class="pl-col-tool">{lang.s(S::Tool)}</th>
                        <th scope="col">{lang.s(S::Pattern)}</th>
                        <th scope="col" class="pl-col-action">{lang.s(S::ActionCol)}</th>
                        <th scope="col" class="pl-controls pl-col-move"><span class="pl-sr">{lang.s(S::Move)}</span></th>
                    </tr>
                </thead>
                <tbody class="pl-rules">
                    <For each=move || {
                            let limit = ctx.limit.get();
                            let generation = ctx.generation.get_value();
                            ctx.table.with(|t| t.rules().iter().take(limit).enumerate().map(|(i, r)| (i, r.id, generation)).collect::<Vec<_>>())
                        }
                        key=|&(_, id, generation): &(usize, RuleId, u32)| (id, generation)
                        children=move |(i, _, _): (usize, RuleId, u32)| {
                            let rule = ctx.table.with_untracked(|t| t.rules().get(i).cloned());
                            rule.map(|rule| view! { <RuleRow ctx rule at=i/> })
                        }/>
                </tbody>
            </table>
        </div>
    }
}

#[component]
fn RuleRow(ctx: Ctx, rule: Rule, at: usize) -> impl IntoView {
    let lang = ctx.lang;
    let id = rule.id;
    let view = {
        let n = ctx.table.with_untracked(RuleTable::len);
        row_signal(ctx, id, at, n)
    };
    let pos = move || view.with(|v| v.pos);
    let total = move || ctx.table.with_untracked(RuleTable::len);
    let cursor = move || view.with(|v| v.cursor.clone());
    let decisive = move || view.with(|v| v.decisive.clone());
    let class = move || {
        view.with(|v| {
            let mut c = String::from("pl-rule");
            if v.decisive.is_some() {
                c.push_str(" pl-decisive");
            }
            if v.lifted {
                c.push_str(" pl-lifted");
            }
            match v.drop {
                Some(true) => c.push_str(" pl-drop-below"),
                Some(false) => c.push_str(" pl-drop-above"),
                None => {}
            }
            c
        })
    };
    let label = lang.rule(&rule);
    let grip_label = format!("{} #{}: {label}", lang.s(S::Grip), id.0);
    let up_label = format!("{} #{}", lang.s(S::Up), id.0);
    let down_label = format!("{} #{}", lang.s(S::Down), id.0);
    let on_key = move |e: ev::KeyboardEvent| {
        let key = e.key();
        let p = pos();
        let n = total();
        let lifted = ctx.lift.get_untracked().filter(|l| l.id == id);
        match key.as_str() {
            " " | "Enter" | "Spacebar" => {
                e.prevent_default();
                match lifted {
                    Some(l) => {
                        ctx.lift.set(None);
                        if l.to != l.from {
                            move_row(ctx, l.from, l.to, FocusOn::Grip);
                        } else {
                            ctx.announce.set(lang.s(S::Dropped).to_string());
                        }
                    }
                    None => {
                        ctx.lift.set(Some(Lift { id, from: p, to: p }));
                        let r = ctx.table.with_untracked(|t| t.rules().get(p).cloned());
                        if let Some(r) = r {
                            ctx.announce.set(lang.lifted(&r, p + 1, n));
                        }
                    }
                }
            }
            "ArrowUp" | "ArrowDown" | "Up" | "Down" => {
                let down = key.ends_with("Down");
                if let Some(l) = lifted {
                    e.prevent_default();
                    let to = if down {
                        (l.to + 1).min(n.saturating_sub(1))
                    } else {
                        l.to.saturating_sub(1)
                    };
                    ctx.lift.set(Some(Lift { to, ..l }));
                    ctx.announce.set(lang.target(to + 1, n));
                } else if e.alt_key() {
                    e.prevent_default();
                    let to = if down { p + 1 } else { p.wrapping_sub(1) };
                    if to < n {
                        move_row(ctx, p, to, FocusOn::Grip);
                    }
                }
            }
            "Escape" | "Esc" if lifted.is_some() => {
                e.prevent_default();
                ctx.lift.set(None);
                ctx.announce.set(lang.s(S::Cancelled).to_string());
            }
            _ => {}
        }
    };
    let on_down = move |e: ev::PointerEvent| {
        if !e.is_primary() || e.button() != 0 {
            return;
        }
        let touch = e.pointer_type() == "touch";
        if !touch {
            e.prevent_default();
        }
        let p = pos();
        let pointer = e.pointer_id();
        ctx.drag.set(Some(Drag {
            id,
            from: p,
            to: p,
            pointer,
            y0: f64::from(e.client_y()),
            active: !touch,
            moved: false,
        }));
        if let Some(t) = e
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        {
            // Synthetic events have no active pointer to capture: nothing to do then.
            let _ = t.set_pointer_capture(pointer);
        }
        if touch {
            // Hold to drag: a touch that moves first scrolls the page instead.
            set_timeout(
                move || {
                    ctx.drag.update(|d| {
                        if let Some(d) = d.as_mut().filter(|d| d.id == id && d.pointer == pointer) {
                            d.active = true;
                        }
                    })
                },
                Duration::from_millis(200),
            );
        }
    };
    let on_touchmove = move |e: ev::TouchEvent| {
        // Once a touch drag is live, the page must not scroll under it.
        if ctx
            .drag
            .get_untracked()
            .is_some_and(|d| d.id == id && d.active)
        {
            e.prevent_default();
        }
    };
    let action = rule.action;
    view! {
        <tr class=class data-rule-id=id.0.to_string() data-position=move || (pos() + 1).to_string()
            data-cursor=cursor data-decisive=decisive>
            <td class="pl-grip-cell pl-controls">
                <button type="button" class="pl-grip" aria-label=grip_label
                    aria-pressed=move || view.with(|v| v.lifted).to_string()
                    on:keydown=on_key on:pointerdown=on_down on:touchmove=on_touchmove>"⠿"</button>
            </td>
            <td class="pl-pos">{move || pos() + 1}</td>
            <td class="pl-cursor-cell" aria-hidden="true">
                {move || cursor().map(|c| c.split(' ').map(|slug| {
                    let e = EngineId::from_slug(slug).unwrap_or(EngineId::FirstMatch);
                    view! { <span class=format!("pl-cur pl-cur-{slug}")>{cursor_glyph(e)}</span> }
                }).collect_view())}
            </td>
            <td class="pl-tool"><code>{rule.tool.clone()}</code></td>
            <td class="pl-pattern"><code>{rule.pattern.clone()}</code></td>
            <td class=format!("pl-action pl-action-{}", action.as_str())>{lang.action(action)}</td>
            <td class="pl-move pl-controls">
                <button type="button" class="pl-up" aria-label=up_label disabled=move || pos() == 0
                    on:click=move |_| { let p = pos(); if p > 0 { move_row(ctx, p, p - 1, FocusOn::Up) } }>"↑"</button>
                <button type="button" class="pl-down" aria-label=down_label disabled=move || view.with(|v| v.last)
                    on:click=move |_| { let p = pos(); if p + 1 < total() { move_row(ctx, p, p + 1, FocusOn::Down) } }>"↓"</button>
            </td>
        </tr>
    }
}

#[component]
fn Stepper(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let set = move |k: usize| {
        let n = ctx.total_steps.get_untracked();
        ctx.lab.update(|l| l.set_step(k, n));
    };
    let k = move || ctx.lab.with(|l| l.step()).min(ctx.total_steps.get());
    let on_key = move |e: ev::KeyboardEvent| match e.key().as_str() {
        "ArrowLeft" | "Left" => {
            e.prevent_default();
            set(k().saturating_sub(1).max(1));
        }
        "ArrowRight" | "Right" => {
            e.prevent_default();
            set(k() + 1);
        }
        _ => {}
    };
    let toggle = move |_| {
        let open = !ctx.stepping.get_untracked();
        ctx.stepping.set(open);
        if open {
            set(1);
        }
    };
    let lines = move || {
        let k = k();
        let engines = cursor_engines(ctx.codex.get());
        ctx.table.with(|t| {
            ctx.evals.with(|v| {
                engines
                    .iter()
                    .filter_map(|e| compute::find(v, *e))
                    .map(|e| {
                        let text = if k == 0 {
                            lang.s(S::NotStarted).to_string()
                        } else if e.steps.is_empty() {
                            lang.reason(t, e.engine, &e.reason)
                        } else {
                            lang.step(t, &e.steps[k.min(e.steps.len()) - 1])
                        };
                        (e.engine, text)
                    })
                    .collect::<Vec<_>>()
            })
        })
    };
    view! {
        <section class="pl-stepper">
            <button type="button" class="pl-step-toggle pl-controls" aria-expanded=move || ctx.stepping.get().to_string()
                on:click=toggle>{move || if ctx.stepping.get() { lang.s(S::StepperClose) } else { lang.s(S::StepperOpen) }}</button>
            <Show when=move || ctx.stepping.get()>
                <div class="pl-stepper-body" role="group" aria-label=lang.s(S::StepperOpen) on:keydown=on_key>
                    <div class="pl-step-buttons pl-controls">
                        <button type="button" class="pl-step-first" on:click=move |_| set(1)>"« "{lang.s(S::First)}</button>
                        <button type="button" class="pl-step-prev" on:click=move |_| set(k().saturating_sub(1).max(1))>"◀ "{lang.s(S::Prev)}</button>
                        <button type="button" class="pl-step-next" aria-keyshortcuts="ArrowRight" on:click=move |_| set(k() + 1)>{lang.s(S::Next)}" ▶"</button>
                        <button type="button" class="pl-step-last" on:click=move |_| set(ctx.total_steps.get_untracked())>{lang.s(S::Last)}" »"</button>
                    </div>
                    <p class="pl-step-count" aria-live="polite">{move || lang.step_of(k(), ctx.total_steps.get())}
                        <span class="pl-hint">" · "{lang.s(S::StepHint)}</span></p>
                    <ul class="pl-step-lines">
                        {move || lines().into_iter().map(|(e, text)| view! {
                            <li class="pl-step-line" data-engine-step=e.slug()>
                                <span class=format!("pl-cur pl-cur-{}", e.slug()) aria-hidden="true">{cursor_glyph(e)}</span>
                                <strong>{lang.engine(e)}</strong>": "<span class="pl-step-text">{text}</span>
                            </li>
                        }).collect_view()}
                    </ul>
                </div>
            </Show>
        </section>
    }
}

#[component]
fn Guesses(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    view! {
        <section class="pl-guesses">
            <h3>{lang.s(S::GuessTitle)}</h3>
            <div class="pl-engines">
                {move || ctx.shown.get().into_iter().map(|e| view! { <EnginePanel ctx id=e/> }).collect_view()}
            </div>
            <button type="button" class="pl-try-again pl-controls" on:click=move |_| ctx.lab.update(Lab::try_again)>
                "↺ "{lang.s(S::TryAgain)}</button>
        </section>
    }
}

#[component]
fn EnginePanel(ctx: Ctx, id: EngineId) -> impl IntoView {
    let lang = ctx.lang;
    let revealed = move || ctx.lab.with(|l| l.is_revealed(id));
    let guess = move || ctx.lab.with(|l| l.guess(id));
    let decision = move || {
        ctx.evals
            .with(|v| compute::find(v, id).map(|e| e.decision))
            .unwrap_or(Decision::Ask)
    };
    let verdict_attr = move || revealed().then(|| decision().as_str());
    let heading = format!("pl-h-{}", id.slug());
    let result = move || {
        if !revealed() {
            return None;
        }
        let d = decision();
        let (why, inferred) = ctx.table.with(|t| {
            ctx.evals.with(|v| {
                compute::find(v, id)
                    .map(|e| (lang.reason(t, id, &e.reason), e.inferred))
                    .unwrap_or_default()
            })
        });
        let mark = match guess() {
            Some(Guess::Verdict(g)) if g == d => ("pl-right", format!("✓ {}", lang.s(S::Right))),
            Some(Guess::Verdict(g)) => (
                "pl-wrong",
                format!(
                    "✗ {}({} {})",
                    lang.s(S::Wrong),
                    lang.s(S::YouGuessed),
                    lang.decision(g)
                ),
            ),
            _ => ("pl-skipped", format!("– {}", lang.s(S::Skipped))),
        };
        Some(view! {
            <div class="pl-result">
                <p class=format!("pl-verdict pl-v-{}", d.as_str())>
                    <span class="pl-label">{lang.s(S::Verdict)}": "</span><strong>{lang.decision(d)}</strong>
                </p>
                <p class=format!("pl-mark {}", mark.0)>{mark.1}</p>
                <p class="pl-why">{why}{inferred.then(|| lang.s(S::Inferred))}</p>
            </div>
        })
    };
    let guess_button = move |a: Action| {
        let d: Decision = a.into();
        view! {
            <button type="button" class=format!("pl-guess-btn pl-g-{}", a.as_str()) data-guess=a.as_str()
                aria-pressed=move || (guess() == Some(Guess::Verdict(d))).to_string()
                disabled=revealed
                on:click=move |_| ctx.lab.update(|l| l.set_guess(id, Guess::Verdict(d)))>{lang.action(a)}</button>
        }
    };
    view! {
        <section class="pl-engine" data-engine=id.slug() data-verdict=verdict_attr aria-labelledby=heading.clone()>
            <h4 id=heading.clone()>{lang.engine(id)}<small class="pl-gist">{lang.engine_gist(id)}</small></h4>
            <div class="pl-guess pl-controls" role="group" aria-label=format!("{}: {}", lang.s(S::YourGuess), lang.engine(id))>
                {guess_button(Action::Allow)}
                {guess_button(Action::Ask)}
                {guess_button(Action::Deny)}
                <button type="button" class="pl-skip" disabled=revealed
                    aria-pressed=move || (guess() == Some(Guess::Skip)).to_string()
                    on:click=move |_| ctx.lab.update(|l| l.set_guess(id, Guess::Skip))>{lang.s(S::Skip)}</button>
            </div>
            <Show when=move || !revealed()>
                <button type="button" class="pl-reveal pl-controls" disabled=move || guess().is_none()
                    on:click=move |_| ctx.lab.update(|l| { l.reveal(id); })>{lang.s(S::Reveal)}</button>
                <Show when=move || guess().is_none()>
                    <p class="pl-locked pl-controls">{lang.s(S::RevealLocked)}</p>
                </Show>
            </Show>
            {result}
        </section>
    }
}

#[component]
fn ReorderLog(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let entries = move || {
        ctx.lab.with(|l| {
            l.log()
                .iter()
                .map(|e| lang.log_entry(l.table(), e))
                .collect::<Vec<_>>()
        })
    };
    view! {
        <section class="pl-log">
            <h3>{lang.s(S::Log)}</h3>
            <Show when=move || ctx.lab.with(|l| l.log().is_empty())>
                <p class="pl-log-empty">{lang.s(S::LogEmpty)}</p>
            </Show>
            <ol class="pl-log-list">
                {move || entries().into_iter().map(|t| view! { <li class="pl-log-entry">{t}</li> }).collect_view()}
            </ol>
        </section>
    }
}

#[component]
fn DisagreementBox(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let data = move || {
        ctx.table.with(|t| {
            ctx.evals.with(|v| {
                let oc = compute::find(v, EngineId::OpenCode)?;
                let cc = compute::find(v, EngineId::ClaudeCode)?;
                let d = Disagreement::new(t, &oc.matches);
                let show = |x: Option<(usize, Action)>| match x {
                    Some((row, a)) => format!("{} ← {}", lang.action(a), lang.row_ref(t, row)),
                    None => lang.s(S::NoMatch).to_string(),
                };
                Some((
                    show(d.last),
                    show(d.strongest),
                    d.differ(),
                    oc.decision,
                    cc.decision,
                    d.strongest.map(|(_, a)| Decision::from(a)),
                ))
            })
        })
    };
    view! {
        <aside class="pl-disagree" aria-labelledby="pl-disagree-h">
            <h3 id="pl-disagree-h">"⚠ "{lang.s(S::Disagree)}</h3>
            {move || data().map(|(last, strongest, differ, oc, cc, strong)| {
                let verdict = lang.s(if differ { S::Differ } else { S::Coincide });
                let actual = format!("{} OpenCode → {}; Claude Code → {}",
                    lang.s(S::Actual), lang.decision(oc), lang.decision(cc));
                let caveat = (strong.is_some() && strong != Some(cc)).then_some(lang.s(S::Caveat));
                view! {
                    <dl class="pl-disagree-list" data-differ=differ.to_string()>
                        <dt>{lang.s(S::LastMatch)}</dt><dd class="pl-last">{last}</dd>
                        <dt>{lang.s(S::Strongest)}</dt><dd class="pl-strongest">{strongest}</dd>
                    </dl>
                    <p class="pl-disagree-verdict"><strong>{verdict}</strong></p>
                    <p class="pl-disagree-actual">{actual}</p>
                    {caveat.map(|c| view! { <p class="pl-disagree-caveat">{c}</p> })}
                }
            })}
        </aside>
    }
}

fn term_help(lang: Lang, i: usize) -> &'static str {
    lang.s(match i {
        0 => S::TermFindLast,
        1 => S::TermPermission,
        2 => S::TermPattern,
        3 => S::TermDefault,
        _ => S::TermAnd,
    })
}

#[component]
fn FormulaView(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let open = RwSignal::new(None::<usize>);
    let term = move |i: usize, text: &'static str| {
        view! {
            <button type="button" class="pl-term" data-term=i.to_string()
                aria-expanded=move || (open.get() == Some(i)).to_string()
                aria-controls="pl-term-help"
                on:click=move |_| open.update(|o| *o = if *o == Some(i) { None } else { Some(i) })>{text}</button>
        }
    };
    view! {
        <section class="pl-formula-box">
            <h3>{lang.s(S::Formula)}</h3>
            <pre class="pl-formula"><code>"rules."{term(0, "findLast")}"(r => "{term(1, "match(permission, r.permission)")}" "{term(4, "&&")}" "{term(2, "match(pattern, r.pattern)")}") "{term(3, "?? ask")}</code></pre>
            <p class="pl-hint">{lang.s(S::FormulaHint)}</p>
            <p id="pl-term-help" class="pl-term-help" aria-live="polite">{move || open.get().map(|i| term_help(lang, i))}</p>
        </section>
    }
}

#[component]
fn MatrixView(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let icon = |d: Decision| match d {
        Decision::Allow => "✓",
        Decision::Ask => "?",
        Decision::Deny => "✗",
        Decision::Unavailable => "⊘",
    };
    let rows = move || {
        let m = ctx.matrix.get();
        let prev = ctx.prev_matrix.get();
        let current = ctx.call.get();
        ctx.calls.get().into_iter().enumerate().map(|(i, c)| {
            let is_current = c == current;
            let label = one_line(&c.to_string());
            let cells = EngineId::ALL.iter().enumerate().map(|(j, e)| {
                let d = m.get(i).and_then(|r| r.get(j)).copied().unwrap_or(Decision::Ask);
                let changed = prev.as_ref().and_then(|p| p.get(i)?.get(j).copied()).is_some_and(|p| p != d);
                view! {
                    <td class=format!("pl-cell pl-v-{}{}", d.as_str(), if changed { " pl-changed" } else { "" })
                        data-engine=e.slug() data-verdict=d.as_str() data-changed=changed.then_some("true")>
                        <span aria-hidden="true">{icon(d)}" "</span>{lang.decision(d)}
                        {changed.then(|| view! { <span class="pl-changed-mark" title=lang.s(S::ChangedMark)>" ● "<span class="pl-sr">{lang.s(S::ChangedMark)}</span></span> })}
                    </td>
                }
            }).collect_view();
            let c2 = c.clone();
            view! {
                <tr class=if is_current { "pl-current" } else { "" } data-call=i.to_string()>
                    <th scope="row"><button type="button" class="pl-call-pick" aria-pressed=is_current.to_string()
                        on:click=move |_| { let c = c2.clone(); ctx.lab.update(|l| l.set_call(c)); }><code>{label}</code></button></th>
                    {cells}
                </tr>
            }
        }).collect_view()
    };
    view! {
        <section class="pl-matrix-box">
            <h3>{lang.s(S::Matrix)}</h3>
            <div class="pl-scroll">
                <table class="pl-matrix">
                    <thead><tr>
                        <th scope="col">{lang.s(S::Call)}</th>
                        {EngineId::ALL.iter().map(|e| view! { <th scope="col">{lang.engine(*e)}</th> }).collect_view()}
                    </tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
        </section>
    }
}

#[component]
fn TranslationsView(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let open = RwSignal::new(false);
    let blocks = move || {
        if !open.get() {
            return None;
        }
        Some(ctx.table.with(|t| {
            let cc = claude_code::translate(t);
            let mut cc_flags: Vec<(usize, String)> = cc
                .untranslatable
                .iter()
                .map(|u| (u.row, u.reason.clone()))
                .collect();
            for (row, (r, a)) in cc.rules.iter().zip(&cc.actions).enumerate() {
                if let (Some(r), Action::Deny) = (r, a) {
                    if !r.contains('(') {
                        cc_flags.push((row, format!("deny {r} — {}", lang.s(S::RemovesTool))));
                    }
                }
            }
            cc_flags.extend(cc.notes.iter().cloned());
            cc_flags.sort_by_key(|f| f.0);
            let (oc, oc_flags) = presets::opencode_permission(t);
            let (cx, cx_flags) = codex::to_rules(t);
            let list = |flags: Vec<(usize, String)>| {
                flags
                    .into_iter()
                    .map(|(row, why)| {
                        let r = lang.row(t, row);
                        view! { <li class="pl-flag" data-row=(row + 1).to_string()><span aria-hidden="true">"⚠ "</span><code>{r}</code>" — "{why}</li> }
                    })
                    .collect_view()
            };
            view! {
                <div class="pl-translation" data-harness="claude-code">
                    <h4>"Claude Code · .claude/settings.json"</h4>
                    <pre><code>{cc.to_settings_json()}</code></pre>
                    <ul class="pl-flags">{list(cc_flags)}</ul>
                </div>
                <div class="pl-translation" data-harness="opencode">
                    <h4>"OpenCode · opencode.json"</h4>
                    <pre><code>{oc}</code></pre>
                    <ul class="pl-flags">{list(oc_flags.into_iter().map(|f| (f.row, f.reason)).collect())}</ul>
                </div>
                <div class="pl-translation" data-harness="codex">
                    <h4>"Codex · .codex/rules/default.rules"</h4>
                    <pre><code>{cx}</code></pre>
                    <ul class="pl-flags">{list(cx_flags.into_iter().map(|f| (f.row, f.reason)).collect())}</ul>
                </div>
            }
        }))
    };
    view! {
        <details class="pl-translations" on:toggle=move |e| {
            if let Some(d) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok()) { open.set(d.open()); }
        }>
            <summary>{lang.s(S::Translations)}</summary>
            {blocks}
        </details>
    }
}

/// Reads one worker message (see `src/bin/selfcheck.rs`).
fn parse_check(text: &str) -> CheckResult {
    use permlab_core::json::{self, Value};
    let Ok(v) = json::parse(text) else {
        return ("?".into(), Err(text.to_string()));
    };
    let name = v
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("?")
        .to_string();
    if v.get("ok").and_then(Value::as_bool) != Some(true) {
        let e = v
            .get("error")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string();
        return (name, Err(e));
    }
    let sections = v
        .get("sections")
        .and_then(Value::as_array)
        .unwrap_or(&[])
        .iter()
        .filter_map(|s| {
            let s = s.as_array()?;
            Some((
                s.first()?.as_str()?.to_string(),
                s.get(1)?.as_f64()? as usize,
                s.get(2)?.as_f64()? as usize,
            ))
        })
        .collect();
    (name, Ok(sections))
}

/// One engine's self-check result: sections (name, passed, total) or why it could not run.
type CheckResult = (String, Result<Vec<(String, usize, usize)>, String>);

#[component]
fn SelfCheck(ctx: Ctx, fixtures: String, worker: String) -> impl IntoView {
    let lang = ctx.lang;
    let results = RwSignal::new(Vec::<CheckResult>::new());
    let running = RwSignal::new(false);
    let run = move |_| {
        if running.get_untracked() {
            return;
        }
        running.set(true);
        results.set(Vec::new());
        let base = web::absolute_url(&fixtures);
        let script = web::absolute_url(&worker);
        let handle = std::rc::Rc::new(std::cell::RefCell::new(None::<web_sys::Worker>));
        let h2 = handle.clone();
        let started = web::run_worker(&script, &base, move |msg| match msg {
            Ok(text) if text == "done" => {
                running.set(false);
                if let Some(w) = h2.borrow_mut().take() {
                    w.terminate();
                }
            }
            Ok(text) => results.update(|v| v.push(parse_check(&text))),
            Err(e) => {
                running.set(false);
                results.update(|v| v.push((lang.s(S::LoadFailed).to_string(), Err(e))));
            }
        });
        match started {
            Ok(w) => *handle.borrow_mut() = Some(w),
            Err(e) => {
                running.set(false);
                results.set(vec![(lang.s(S::LoadFailed).to_string(), Err(e))]);
            }
        }
    };
    view! {
        <section class="pl-selfcheck">
            <h3>{lang.s(S::SelfCheck)}</h3>
            <button type="button" class="pl-run-check pl-controls" disabled=move || running.get() on:click=run>
                {move || if running.get() { lang.s(S::Running) } else { lang.s(S::RunSelfCheck) }}</button>
            <ul class="pl-check-results" aria-live="polite">
                {move || results.get().into_iter().map(|(name, r)| match r {
                    Ok(sections) => {
                        let passed: usize = sections.iter().map(|s| s.1).sum();
                        let total: usize = sections.iter().map(|s| s.2).sum();
                        let ok = passed == total;
                        let detail = sections.iter().map(|(s, p, t)| format!("{s} {p}/{t}")).collect::<Vec<_>>().join(" · ");
                        view! {
                            <li class="pl-check" data-check=name.clone() data-ok=ok.to_string()>
                                <span aria-hidden="true">{if ok { "✓ " } else { "✗ " }}</span>
                                <strong>{name.clone()}</strong>": "
                                <span class="pl-check-tally">{format!("{passed}/{total}")}</span>" "{lang.s(S::AgreeWith)}
                                <small class="pl-check-detail">" ("{detail}")"</small>
                            </li>
                        }.into_any()
                    }
                    Err(e) => view! {
                        <li class="pl-check" data-check=name.clone() data-ok="false">"✗ "<strong>{name.clone()}</strong>": "{e}</li>
                    }.into_any(),
                }).collect_view()}
            </ul>
        </section>
    }
}

#[component]
fn TableEditor(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let text = RwSignal::new(String::new());
    let error = RwSignal::new(None::<String>);
    let parse = move || {
        web::mark_start("pl-parse");
        let r = presets::parse_custom(&text.get_untracked());
        web::mark_end("pl-parse");
        r
    };
    let apply = move |_| match parse() {
        Ok((table, calls)) => {
            error.set(None);
            let first = calls
                .first()
                .cloned()
                .unwrap_or_else(|| Call::new("bash", "ls"));
            ctx.custom.set(text.get_untracked());
            ctx.lift.set(None);
            ctx.prev_matrix.set(None);
            ctx.limit.set(CHUNK);
            ctx.generation.update_value(|g| *g += 1);
            ctx.calls.set(calls);
            ctx.lab.set(Lab::new(table, first));
            ctx.preset.set(Preset::Custom);
        }
        Err(e) => error.set(Some(e)),
    };
    view! {
        <details class="pl-editor pl-controls" on:toggle=move |e| {
            if let Some(d) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok()) {
                if d.open() && text.get_untracked().is_empty() { text.set(ctx.table.with_untracked(RuleTable::to_json)); }
            }
        }>
            <summary>{lang.s(S::EditTable)}</summary>
            <label class="pl-field">
                <span class="pl-sr">{lang.s(S::EditTable)}</span>
                <textarea class="pl-table-json" rows="8" spellcheck="false" prop:value=move || text.get()
                    on:input=move |e| text.set(event_target_value(&e))></textarea>
            </label>
            <button type="button" class="pl-apply" on:click=apply>{lang.s(S::Apply)}</button>
            <p class="pl-table-error" role="alert">{move || error.get().map(|e| format!("{}: {e}", lang.s(S::TableError)))}</p>
        </details>
    }
}
