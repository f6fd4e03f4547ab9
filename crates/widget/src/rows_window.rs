//! Which rows of a big rule table are in the page.
//!
//! A 10 000-row `<table>` costs the browser a layout of every row on each reorder (about
//! 0.5 s on this machine kind, while the wasm's part is under 40 ms), and rendering it holds
//! tasks of 0.6 s. So past [`VIRTUAL_FROM`] rules only a window of [`WINDOW`] rows is
//! rendered, between two spacer rows as tall as the rows they stand for; the table's
//! `aria-rowcount` and each row's `aria-rowindex` tell assistive technology the real size and
//! place. The window follows the viewport (scrolling), the keyboard (a row focused, moved or
//! carried is brought into the window) and never drops the row that has the focus or is being
//! carried: that one is rendered next to the window when it lies outside it ("pinned"), since
//! removing a focused element sends the focus to `<body>`.
//!
//! Pure arithmetic, tested natively; `ui::table` does the DOM side.

/// Tables with more rules than this are windowed; smaller ones render every row.
pub const VIRTUAL_FROM: usize = 500;
/// Rows in the window: more than a tall screen shows, with room above and below.
pub const WINDOW: usize = 120;
/// Rows kept above the viewport's first row (so a short scroll up shows rows at once).
pub const OVERSCAN: usize = 40;
/// A row this close to the window's edge is brought towards its middle.
pub const MARGIN: usize = 8;

/// Whether a table of `n` rules is windowed.
pub fn is_virtual(n: usize) -> bool {
    n > VIRTUAL_FROM
}

/// What the table body holds, top to bottom: a spacer for `above` rows, the rows at
/// `rows` (positions, 0-based, in page order), a spacer for `below` rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Rows standing in the top spacer.
    pub above: usize,
    /// The rendered rows' positions.
    pub rows: Vec<usize>,
    /// Rows standing in the bottom spacer.
    pub below: usize,
}

/// The rows of a table of `n` rules to render.
///
/// `first` is the window's first row (windowed tables), `limit` how many rows a small table
/// has rendered so far (they come in slices), `pinned` the position of the row that must stay
/// (focused, carried or dragged).
///
/// ```
/// use permlab_widget::rows_window::{layout, Layout};
/// // A small table: every row up to the slice rendered so far, no spacers.
/// assert_eq!(layout(3, 0, 400, None), Layout { above: 0, rows: vec![0, 1, 2], below: 0 });
/// // 10 000 rules scrolled to row 5 000, the focused row 2 pinned above the window.
/// let l = layout(10_000, 5_000, 400, Some(2));
/// assert_eq!((l.above, l.rows[0], l.rows[1], l.rows.len(), l.below), (4_999, 2, 5_000, 121, 4_880));
/// ```
pub fn layout(n: usize, first: usize, limit: usize, pinned: Option<usize>) -> Layout {
    if !is_virtual(n) {
        return Layout {
            above: 0,
            rows: (0..n.min(limit)).collect(),
            below: 0,
        };
    }
    let start = first.min(n - WINDOW);
    let end = start + WINDOW;
    let mut rows: Vec<usize> = (start..end).collect();
    let (mut above, mut below) = (start, n - end);
    match pinned.filter(|&p| p < n) {
        Some(p) if p < start => {
            rows.insert(0, p);
            above -= 1;
        }
        Some(p) if p >= end => {
            rows.push(p);
            below -= 1;
        }
        _ => {}
    }
    Layout { above, rows, below }
}

/// The window's first row when the table body's top edge is `offset` pixels above the
/// viewport's top and a row is `row_h` pixels tall: [`OVERSCAN`] rows above what is seen.
///
/// ```
/// use permlab_widget::rows_window::first_for_offset;
/// assert_eq!(first_for_offset(-300.0, 40.0, 10_000), 0); // the table starts below the top
/// assert_eq!(first_for_offset(40.0 * 1_000.0, 40.0, 10_000), 960);
/// assert_eq!(first_for_offset(1e12, 40.0, 10_000), 10_000 - 120); // past the end
/// ```
pub fn first_for_offset(offset: f64, row_h: f64, n: usize) -> usize {
    if !is_virtual(n) || !offset.is_finite() || offset <= 0.0 || row_h <= 0.0 {
        return 0;
    }
    let seen = (offset / row_h).floor().min(n as f64) as usize;
    seen.saturating_sub(OVERSCAN).min(n - WINDOW)
}

/// The window's first row so that position `pos` is in it, at least [`MARGIN`] rows from
/// its edges (unless the table's own edge is nearer): `first` itself when it already is.
///
/// ```
/// use permlab_widget::rows_window::first_showing;
/// assert_eq!(first_showing(50, 0, 10_000), 0); // already well inside
/// assert_eq!(first_showing(115, 0, 10_000), 115 - 40); // near the bottom edge: moved
/// assert_eq!(first_showing(9_999, 0, 10_000), 10_000 - 120); // the last row
/// assert_eq!(first_showing(3, 500, 10_000), 0); // the first rows
/// ```
pub fn first_showing(pos: usize, first: usize, n: usize) -> usize {
    if !is_virtual(n) {
        return 0;
    }
    let first = first.min(n - WINDOW);
    let lo = if first == 0 { 0 } else { first + MARGIN };
    let hi = if first + WINDOW == n {
        n
    } else {
        first + WINDOW - MARGIN
    };
    if (lo..hi).contains(&pos) {
        return first;
    }
    pos.saturating_sub(OVERSCAN).min(n - WINDOW)
}

/// Where a dragged row at `from` lands among the other rendered rows (`others`: their
/// positions in page order) when `above` of them lie above the pointer: right after the last
/// of those, or before the first when none does. The answer is the row's position after the
/// move.
///
/// ```
/// use permlab_widget::rows_window::landing;
/// // Rows 0..5, row 1 dragged below row 3: it becomes position 3.
/// assert_eq!(landing(&[0, 2, 3, 4], 3, 1), 3);
/// // Row 4 dragged above row 1: position 1.
/// assert_eq!(landing(&[0, 1, 2, 3], 1, 4), 1);
/// // A window from row 5 000, row 5 010 dragged above its first row: position 5 000.
/// assert_eq!(landing(&[5_000, 5_001, 5_002], 0, 5_010), 5_000);
/// ```
pub fn landing(others: &[usize], above: usize, from: usize) -> usize {
    match above.checked_sub(1).and_then(|k| others.get(k)) {
        Some(&q) if q < from => q + 1,
        Some(&q) => q,
        None => match others.first() {
            Some(&q) if q < from => q,
            Some(&q) => q - 1,
            None => from,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_at_the_threshold_renders_every_row() {
        let l = layout(VIRTUAL_FROM, 0, VIRTUAL_FROM, Some(3));
        assert_eq!(l.rows.len(), VIRTUAL_FROM);
        assert_eq!((l.above, l.below), (0, 0));
        assert!(is_virtual(VIRTUAL_FROM + 1));
    }

    #[test]
    fn every_position_is_counted_once() {
        // Rendered rows plus the rows the spacers stand for are the table, for any window
        // and any pinned row.
        for n in [VIRTUAL_FROM + 1, 1_000, 10_000] {
            for first in [0, 1, 57, n / 2, n - WINDOW, n, usize::MAX] {
                for pinned in [
                    None,
                    Some(0),
                    Some(first.min(n - 1)),
                    Some(n / 3),
                    Some(n - 1),
                ] {
                    let l = layout(n, first, 0, pinned);
                    assert_eq!(
                        l.above + l.rows.len() + l.below,
                        n,
                        "{n} {first} {pinned:?}"
                    );
                    let mut seen = l.rows.clone();
                    seen.sort_unstable();
                    seen.dedup();
                    assert_eq!(seen.len(), l.rows.len());
                    if let Some(p) = pinned {
                        assert!(l.rows.contains(&p));
                    }
                }
            }
        }
    }

    #[test]
    fn landing_agrees_with_a_move_in_a_full_table() {
        // Every drop slot of a 6-row table: landing after `above` other rows is where a
        // remove-then-insert puts the row.
        for from in 0..6 {
            let others: Vec<usize> = (0..6).filter(|&p| p != from).collect();
            for above in 0..=others.len() {
                let mut order: Vec<usize> = others.clone();
                order.insert(above, from);
                let want = order.iter().position(|&p| p == from).unwrap();
                assert_eq!(
                    landing(&others, above, from),
                    want,
                    "from {from} above {above}"
                );
            }
        }
    }

    #[test]
    fn a_pinned_row_below_the_window_comes_last() {
        let l = layout(10_000, 0, 0, Some(9_000));
        assert_eq!(*l.rows.last().unwrap(), 9_000);
        assert_eq!(l.rows[WINDOW - 1], WINDOW - 1);
        assert_eq!((l.above, l.below), (0, 10_000 - WINDOW - 1));
    }

    #[test]
    fn the_window_follows_a_row_moved_one_step_at_a_time() {
        // Alt+↓ from the top to the bottom of 10 000 rules: the carried row is always in the
        // window, away from its edges.
        let n = 10_000;
        let mut first = 0;
        for pos in 0..n {
            first = first_showing(pos, first, n);
            let l = layout(n, first, 0, None);
            let at = l
                .rows
                .iter()
                .position(|&r| r == pos)
                .expect("in the window");
            assert!(at >= MARGIN.min(pos) && l.rows.len() - at > MARGIN.min(n - pos - 1));
        }
    }
}
