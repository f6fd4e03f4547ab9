//! The toolbar and the rule table: keyed rows, drag by pointer, keys and buttons.

use leptos::ev;
use leptos::html;
use leptos::prelude::*;
use permlab_core::{Action, RuleId};
use wasm_bindgen::JsCast;

use super::act::act;
use super::ctx::{cursor_glyph, next_frame, slugs, Ctx};
use super::roving;
use super::rows::{row_view, set_first};
use crate::browser::web;
use crate::model::Drag;
use crate::model::{GripKey, Msg, Region, Widget};
use crate::rows_window;
use crate::text::i18n::S;

/// Undo, reset, reverse, copy as JSON, show Codex.
#[component]
pub(crate) fn Toolbar(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let state = Memo::new(move |_| {
        ctx.read(Region::Toolbar, |w| {
            (
                w.lab().can_undo(),
                w.lab().is_reordered(),
                w.panels().others,
            )
        })
    });
    // The engines the lesson does not list, offered only on request (none: no offer).
    let others = Memo::new(move |_| ctx.read(Region::Others, Widget::others));
    let copied = Memo::new(move |_| ctx.read(Region::Copied, |w| w.panels().copied.clone()));
    let copy = move |_| {
        let text = ctx.peek(|w| w.table().to_json());
        leptos::task::spawn_local(async move {
            let r = web::copy_text(&text).await;
            act(ctx, Msg::Copied(r.map_err(|_| text)));
        });
    };
    // A button that disables itself (the last Undo, the reset back to the lesson's order) would
    // drop the focus to the page: it goes to the reverse button next to it instead.
    let reverse = NodeRef::<leptos::html::Button>::new();
    let keep_focus = move |spent: bool| {
        if spent {
            if let Some(b) = reverse.get_untracked() {
                let _ = b.focus();
            }
        }
    };
    view! {
        <div class="pl-toolbar pl-controls">
            <button type="button" class="pl-undo" disabled=move || !state.get().0
                aria-keyshortcuts="Control+Z Meta+Z"
                on:click=move |_| {
                    act(ctx, Msg::Undo);
                    keep_focus(!ctx.peek(|w| w.lab().can_undo()));
                }>"↶ "{lang.s(S::Undo)}</button>
            <button type="button" class="pl-reset" disabled=move || !state.get().1
                on:click=move |_| {
                    act(ctx, Msg::Reset);
                    keep_focus(!ctx.peek(|w| w.lab().is_reordered()));
                }>{lang.s(S::Reset)}</button>
            <button type="button" class="pl-reverse" node_ref=reverse
                on:click=move |_| { act(ctx, Msg::Reverse); }>"⇅ "{lang.s(S::Reverse)}</button>
            <button type="button" class="pl-copy" on:click=copy>{lang.s(S::CopyJson)}</button>
            <Show when=move || others.with(|o| !o.is_empty())>
                <label class="pl-checkbox">
                    <input type="checkbox" class="pl-codex-toggle" prop:checked=move || state.get().2
                        on:change=move |e| { act(ctx, Msg::Codex(event_target_checked(&e))); }/>
                    {move || others.with(|o| lang.show_others(o))}
                </label>
            </Show>
        </div>
        {move || copied.get().map(|r| match r {
            Ok(()) => view! { <p class="pl-copied" role="status">{lang.s(S::Copied)}</p> }.into_any(),
            Err(text) => view! {
                <div class="pl-copy-fallback">
                    <label>{lang.s(S::CopyFallback)}
                        <textarea class="pl-copy-text" readonly=true rows="6"
                            on:focus=move |e| {
                                if let Some(t) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok()) {
                                    t.select();
                                }
                            }
                            prop:value=text></textarea>
                    </label>
                </div>
            }.into_any(),
        })}
    }
}

/// The rule table: a keyed `<For>` of [`RuleRow`]s (key: load number and rule id) — every
/// row of a small table (the first `limit` while they come in slices), a window of a big one
/// between two spacer rows (see [`crate::rows_window`]).
#[component]
pub(crate) fn RuleTable(ctx: Ctx) -> impl IntoView {
    let lang = ctx.lang;
    let order = Memo::new(move |_| {
        ctx.read(Region::Rows, |w| {
            (
                w.course().loads,
                w.table().rules().iter().map(|r| r.id).collect::<Vec<_>>(),
            )
        })
    });
    let n = Memo::new(move |_| order.with(|(_, ids)| ids.len()));
    let windowed = move || rows_window::is_virtual(n.get());
    // The row that stays in the page wherever the window is: carried, dragged or focused.
    let pinned = Memo::new(move |_| {
        let id = ctx.read(Region::Carried, |w| {
            w.carry()
                .lift
                .map(|l| l.id)
                .or(w.carry().drag.map(|d| d.id))
        });
        let id = id.or_else(|| ctx.focused.get())?;
        order.with(|(_, ids)| ids.iter().position(|r| *r == id))
    });
    let layout = Memo::new(move |_| {
        rows_window::layout(n.get(), ctx.first.get(), ctx.limit.get(), pinned.get())
    });
    // One Tab stop for the table (see `roving`): re-checked after the rows change; a
    // windowed table measures its rows for the spacers.
    let tbody = NodeRef::<html::Tbody>::new();
    Effect::new(move |_| {
        order.track();
        layout.track();
        next_frame(ctx, move || {
            if let Some(b) = tbody.try_get_untracked().flatten() {
                roving::keep_entry(&b);
                if rows_window::is_virtual(n.get_untracked()) {
                    measure_rows(ctx, &b);
                }
            }
        });
    });
    follow_scroll(ctx, tbody, n);
    let spacer = move |rows: usize| {
        view! {
            <tr class="pl-spacer" aria-hidden="true"
                style:height=move || format!("{}px", rows as f64 * ctx.row_h.get())>
                <td colspan="7"></td>
            </tr>
        }
    };
    let th = move |class: &'static str, label: &'static str| {
        view! { <th scope="col" class=class><span class="pl-sr">{label}</span></th> }
    };
    view! {
        <table class="pl-table" aria-rowcount=move || windowed().then(|| (n.get() + 1).to_string())>
            // The how-to part is its own span: print drops it (paper cannot be dragged).
            <caption>{lang.s(S::CaptionName)}<span class="pl-caption-hint">{lang.s(S::CaptionHint)}</span>
                {move || windowed().then(|| {
                    let total = n.get();
                    let start = ctx.first.get().min(total.saturating_sub(rows_window::WINDOW));
                    view! {
                        <span class="pl-rows-shown">
                            {lang.rows_shown(start + 1, start + rows_window::WINDOW, total)}
                        </span>
                    }
                })}
            </caption>
            <thead>
                <tr aria-rowindex=move || windowed().then_some("1")>
                    {th("pl-controls pl-col-grip", lang.s(S::Move))}
                    <th scope="col" class="pl-col-pos">"#"</th>
                    {th("pl-cursor-col", lang.s(S::Cursor))}
                    <th scope="col" class="pl-col-tool">{lang.s(S::Tool)}</th>
                    <th scope="col">{lang.s(S::Pattern)}</th>
                    <th scope="col" class="pl-col-action">{lang.s(S::ActionCol)}</th>
                    {th("pl-controls pl-col-move", lang.s(S::Move))}
                </tr>
            </thead>
            <tbody class="pl-rules" node_ref=tbody
                on:keydown=move |e| roving::on_keydown(ctx, &e)
                on:focusin=move |e| roving::on_focusin(ctx, &e)
                on:focusout=move |e| roving::on_focusout(ctx, &e)>
                <Show when=move || layout.with(|l| l.above > 0)>
                    {move || spacer(layout.with(|l| l.above))}
                </Show>
                <For each=move || {
                        order.with(|(rev, ids)| layout.with(|l| {
                            l.rows.iter().filter_map(|&i| Some((i, *ids.get(i)?, *rev))).collect::<Vec<_>>()
                        }))
                    }
                    key=|&(_, id, rev): &(usize, RuleId, u32)| (rev, id)
                    children=move |(i, id, rev): (usize, RuleId, u32)| view! { <RuleRow ctx id rev at=i/> }/>
                <Show when=move || layout.with(|l| l.below > 0)>
                    {move || spacer(layout.with(|l| l.below))}
                </Show>
            </tbody>
        </table>
    }
}

/// A windowed table's row height: the rendered rows' height over their number (the spacers
/// stand for that many pixels a row). Rows taller than one line (patterns that wrap) count as
/// they are.
fn measure_rows(ctx: Ctx, tbody: &web_sys::Element) {
    let Ok(rows) = tbody.query_selector_all("tr[data-position]") else {
        return;
    };
    let total: f64 = (0..rows.length())
        .filter_map(|i| rows.item(i)?.dyn_into::<web_sys::Element>().ok())
        .map(|r| r.get_bounding_client_rect().height())
        .sum();
    if rows.length() == 0 || total <= 0.0 {
        return;
    }
    let h = total / f64::from(rows.length());
    if (h - ctx.row_h.get_untracked()).abs() > 0.5 {
        ctx.row_h.set(h);
    }
}

/// The window of a big table follows the viewport: on every scroll (the page's or any
/// scrolling ancestor's, caught in the capture phase) and resize, at most once a frame.
fn follow_scroll(ctx: Ctx, tbody: NodeRef<html::Tbody>, n: Memo<usize>) {
    let queued = std::rc::Rc::new(std::cell::Cell::new(false));
    let on_scroll = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(move || {
        if queued.get() || !ctx.alive() || !rows_window::is_virtual(n.get_untracked()) {
            return;
        }
        queued.set(true);
        let queued = queued.clone();
        next_frame(ctx, move || {
            queued.set(false);
            let Some(b) = tbody.try_get_untracked().flatten() else {
                return;
            };
            let offset = -b.get_bounding_client_rect().top();
            let first =
                rows_window::first_for_offset(offset, ctx.row_h.get_untracked(), n.get_untracked());
            set_first(ctx, first);
        });
    });
    let opts = web_sys::AddEventListenerOptions::new();
    opts.set_capture(true);
    opts.set_passive(true);
    let w = window();
    for kind in ["scroll", "resize"] {
        let _ = w.add_event_listener_with_callback_and_add_event_listener_options(
            kind,
            on_scroll.as_ref().unchecked_ref(),
            &opts,
        );
    }
    let f = send_wrapper::SendWrapper::new(on_scroll);
    on_cleanup(move || {
        let w = window();
        for kind in ["scroll", "resize"] {
            let _ = w.remove_event_listener_with_callback_and_bool(
                kind,
                f.as_ref().unchecked_ref(),
                true,
            );
        }
    });
}

/// One rule: grip, position, cursors, tool, pattern, action, ↑/↓.
///
/// `id` is the rule, `rev` the table's load number, `at` its position when the row is created;
/// afterwards the row follows its own [`RowView`] signal (set by [`sync_rows`]).
#[component]
pub(crate) fn RuleRow(ctx: Ctx, id: RuleId, rev: u32, at: usize) -> impl IntoView {
    let lang = ctx.lang;
    let (rule, n) = ctx.peek(|w| (w.table().rules().get(at).cloned(), w.table().len()));
    let rule = rule.unwrap_or_else(|| permlab_core::Rule {
        id,
        tool: String::new(),
        pattern: String::new(),
        action: Action::Ask,
    });
    let init = ctx.shown.with_value(|s| row_view(&s.marked, at, n));
    let view = RwSignal::new(init);
    ctx.rows.update_value(|m| {
        m.insert((rev, id), view);
    });
    on_cleanup(move || {
        ctx.rows.update_value(|m| {
            if m.get(&(rev, id)) == Some(&view) {
                m.remove(&(rev, id));
            }
        });
    });
    let pos = move || view.with(|v| v.pos);
    let class = move || {
        view.with(|v| {
            let mut c = String::from("pl-rule");
            // Stripes by position, not by `nth-child` (a windowed table's spacer row and moving
            // window would swap them while scrolling).
            if v.pos % 2 == 1 {
                c.push_str(" pl-alt");
            }
            if !v.decisive.is_empty() {
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
        let key = GripKey::from_dom(&e.key());
        if key.is_some_and(|k| act(ctx, Msg::GripKey(id, k, e.alt_key()))) {
            e.prevent_default();
        }
    };
    let on_down = move |e: ev::PointerEvent| {
        if !e.is_primary() || e.button() != 0 {
            return;
        }
        // The grip drags at once, by mouse, pen or finger alike: its `touch-action: none` keeps
        // a swipe that starts on it from scrolling the page (a swipe anywhere else scrolls).
        e.prevent_default();
        let pointer = e.pointer_id();
        let from = view.with_untracked(|v| v.pos);
        act(
            ctx,
            Msg::DragStart(Drag {
                id,
                from,
                to: from,
                pointer,
                y0: f64::from(e.client_y()),
                moved: false,
            }),
        );
        if let Some(t) = e
            .current_target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        {
            // Synthetic events have no active pointer to capture: nothing to do then.
            let _ = t.set_pointer_capture(pointer);
        }
    };
    let action = rule.action;
    // A windowed table says each row's place (the header is row 1).
    let windowed = rows_window::is_virtual(n);
    view! {
        <tr class=class data-rule-id=id.0.to_string() data-position=move || (pos() + 1).to_string()
            aria-rowindex=move || windowed.then(|| (pos() + 2).to_string())
            data-cursor=move || view.with(|v| slugs(&v.cursor)) data-decisive=move || view.with(|v| slugs(&v.decisive))>
            <td class="pl-grip-cell pl-controls">
                <button type="button" class="pl-grip" tabindex="-1" aria-label=grip_label
                    aria-pressed=move || view.with(|v| v.lifted).to_string()
                    on:keydown=on_key on:pointerdown=on_down>"⠿"</button>
            </td>
            // The rule's name (its lesson number), which it keeps wherever it moves, then a ★
            // per revealed engine it decided for, marked with that engine's cursor shape (two
            // ★ on two rows tell whose each is; a screen reader hears the engine).
            <td class="pl-pos">{id.0}
                {move || view.with(|v| v.decisive.clone()).into_iter().map(|e| view! {
                    <span class="pl-star" data-engine=e.slug() title=format!("{} {}", lang.s(S::LegendDecisive), lang.engine(e))>
                        <span aria-hidden="true">"★"<span class=format!("pl-cur pl-cur-{}", e.slug())>{cursor_glyph(e)}</span></span>
                        <span class="pl-sr">{format!(" ({} {})", lang.s(S::LegendDecisive), lang.engine(e))}</span>
                    </span>
                }).collect_view()}
            </td>
            // The cursors on this row: the shape for the eye, the engine for a screen reader
            // (the column has a header, so its cells are read).
            <td class="pl-cursor-cell">
                {move || view.with(|v| v.cursor.clone()).into_iter().map(|e| view! {
                    <span class=format!("pl-cur pl-cur-{}", e.slug()) aria-hidden="true">{cursor_glyph(e)}</span>
                    <span class="pl-sr">{format!("{} {} ", lang.engine(e), lang.s(S::LegendCursor))}</span>
                }).collect_view()}
            </td>
            <td class="pl-tool"><code>{rule.tool.clone()}</code></td>
            <td class="pl-pattern"><code>{rule.pattern.clone()}</code></td>
            <td class=format!("pl-action pl-action-{}", action.as_str())>{lang.action(action)}</td>
            <td class="pl-move pl-controls">
                <button type="button" class="pl-up" tabindex="-1" aria-label=up_label disabled=move || pos() == 0
                    on:click=move |e| step_in_place(ctx, &e, id, false)>"↑"</button>
                <button type="button" class="pl-down" tabindex="-1" aria-label=down_label disabled=move || view.with(|v| v.last)
                    on:click=move |e| step_in_place(ctx, &e, id, true)>"↓"</button>
            </td>
        </tr>
    }
}

/// ↑/↓ move the rule one row and keep its button where it was on screen (the page scrolls by
/// the row's move): a second click at the same spot moves the same rule again, as the lesson's
/// "点它的 ↓ 两次" asks, by mouse and by tap alike.
fn step_in_place(ctx: Ctx, e: &ev::MouseEvent, id: RuleId, down: bool) {
    let top = |el: &web_sys::Element| el.get_bounding_client_rect().top();
    let before = e
        .current_target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .map(|el| top(&el));
    act(ctx, Msg::Step(id, down));
    let Some(before) = before else { return };
    let class = if down { "pl-down" } else { "pl-up" };
    next_frame(ctx, move || {
        let Some(root) = ctx.root.get_untracked() else {
            return;
        };
        let sel = format!("tr[data-rule-id=\"{}\"] .{class}", id.0);
        if let Some(el) = root.query_selector(&sel).ok().flatten() {
            let dy = top(&el) - before;
            if dy.abs() >= 1.0 {
                window().scroll_by_with_x_and_y(0.0, dy);
            }
        }
    });
}

pub(crate) fn pointer_move(ctx: Ctx, e: &ev::PointerEvent) {
    let Some(d) = ctx.peek(|w| w.carry().drag) else {
        return;
    };
    if e.pointer_id() != d.pointer {
        return;
    }
    let dy = f64::from(e.client_y()) - d.y0;
    if !d.moved && dy.abs() < 4.0 {
        return;
    }
    e.prevent_default();
    let Some(root) = ctx.root.get_untracked() else {
        return;
    };
    let to = web::drop_index(&root, f64::from(e.client_y()), d.from);
    if !d.moved || to != d.to {
        act(ctx, Msg::DragOver(to));
    }
}

pub(crate) fn pointer_up(ctx: Ctx, e: &ev::PointerEvent, commit: bool) {
    let Some(d) = ctx.peek(|w| w.carry().drag) else {
        return;
    };
    if e.pointer_id() != d.pointer {
        return;
    }
    // The row lands where the pointer is lifted: a fast swipe's last moves may reach the page
    // coalesced into fewer events, or not before the lift.
    if commit {
        pointer_move(ctx, e);
    }
    act(ctx, Msg::DragEnd(commit));
}
