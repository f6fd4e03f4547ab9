//! The rows' marks (cursors, decisive rows, the carried row and its drop place), set row by
//! row: after every action only the rows whose view changed are touched.

use leptos::prelude::*;

use super::ctx::{next_frame, Ctx, RowView, Shown};
use super::focus::{focus_of, refocus};
use crate::model::Widget;
use crate::rows_window;

/// The marks per row the widget's state asks for (only rows with a mark).
fn marks(w: &Widget) -> Vec<(usize, RowView)> {
    let mut out: Vec<(usize, RowView)> = Vec::new();
    let n = w.table().len();
    let slot = |out: &mut Vec<(usize, RowView)>, i: usize| -> usize {
        match out.iter().position(|(r, _)| *r == i) {
            Some(k) => k,
            None => {
                out.push((
                    i,
                    RowView {
                        pos: i,
                        last: i + 1 == n,
                        ..RowView::default()
                    },
                ));
                out.len() - 1
            }
        }
    };
    for (i, e) in w.cursors() {
        let k = slot(&mut out, i);
        out[k].1.cursor.push(e);
    }
    for (i, e) in w.decisive() {
        let k = slot(&mut out, i);
        out[k].1.decisive.push(e);
    }
    if let Some((from, to)) = w.target() {
        let k = slot(&mut out, from);
        out[k].1.lifted = true;
        if to != from {
            let k = slot(&mut out, to);
            out[k].1.drop = Some(to > from);
        }
    }
    permlab_core::sort::by_rank(&mut out, |m| m.0 as u64);
    out
}

/// The view of row `i` (marks from `marked`).
pub(crate) fn row_view(marked: &[(usize, RowView)], i: usize, n: usize) -> RowView {
    marked
        .iter()
        .find(|(r, _)| *r == i)
        .map(|(_, v)| v.clone())
        .unwrap_or(RowView {
            pos: i,
            last: i + 1 == n,
            ..RowView::default()
        })
}

/// Sets the row signals whose view changed since the last call: rows whose rule moved, and
/// rows whose marks came or went. Nothing else in the table runs.
pub(crate) fn sync_rows(ctx: Ctx) {
    let (load_rev, order, marked) = ctx.peek(|w| {
        (
            w.course().loads,
            w.table().rules().iter().map(|r| r.id).collect::<Vec<_>>(),
            marks(w),
        )
    });
    let n = order.len();
    let touch: Vec<usize> = ctx.shown.with_value(|before| {
        let mut touch: Vec<usize> = Vec::new();
        if before.load_rev == load_rev && before.order.len() == n {
            touch.extend((0..n).filter(|&i| before.order[i] != order[i]));
        }
        touch.extend(before.marked.iter().map(|m| m.0));
        touch.extend(marked.iter().map(|m| m.0));
        touch.sort_unstable();
        touch.dedup();
        touch
    });
    let changed: Vec<(RwSignal<RowView>, RowView)> = ctx.rows.with_value(|rows| {
        touch
            .into_iter()
            .filter_map(|i| {
                let sig = *rows.get(&(load_rev, *order.get(i)?))?;
                let v = row_view(&marked, i, n);
                sig.with_untracked(|old| *old != v).then_some((sig, v))
            })
            .collect()
    });
    ctx.shown.set_value(Shown {
        load_rev,
        order,
        marked,
    });
    for (sig, v) in changed {
        sig.set(v);
    }
}

/// Moves a windowed table's window to start at row `first`. The row with the focus stays in
/// the page (it is pinned), but the keyed list may re-insert it, and an inserted node loses
/// the focus: it is given back as after a move ([`refocus`]).
pub(crate) fn set_first(ctx: Ctx, first: usize) {
    if first == ctx.first.get_untracked() {
        return;
    }
    let key = document()
        .active_element()
        .filter(|el| {
            ctx.root
                .get_untracked()
                .is_some_and(|r| r.contains(Some(el)))
        })
        .and_then(|el| focus_of(&el));
    ctx.first.set(first);
    if let Some(f) = key {
        refocus(ctx, f);
    }
}

/// Brings the row at position `pos` (a row just moved or focused, a carried row's drop
/// target) into view: a windowed table first moves its window there if the row is not well
/// inside it; once rendered, the page scrolls the least that shows the row (nothing when it
/// is in view).
pub(crate) fn show_position(ctx: Ctx, pos: usize) {
    let n = ctx.peek(|w| w.table().len());
    set_first(
        ctx,
        rows_window::first_showing(pos, ctx.first.get_untracked(), n),
    );
    next_frame(ctx, move || {
        let Some(root) = ctx.root.get_untracked() else {
            return;
        };
        let sel = format!("tr[data-position=\"{}\"]", pos + 1);
        if let Some(el) = root.query_selector(&sel).ok().flatten() {
            let r = el.get_bounding_client_rect();
            let h = window()
                .inner_height()
                .ok()
                .and_then(|v| v.as_f64())
                .unwrap_or(0.0);
            let dy = if r.top() < 0.0 {
                r.top()
            } else if r.bottom() > h {
                (r.bottom() - h).min(r.top())
            } else {
                0.0
            };
            if dy != 0.0 {
                window().scroll_by_with_x_and_y(0.0, dy);
            }
        }
    });
}
