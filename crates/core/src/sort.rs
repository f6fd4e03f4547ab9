//! Stable sorting through one compiled sort.
//!
//! `slice::sort_by_key` is compiled once per element type and key: each copy of the standard
//! library's stable sort is about 5 KB of wasm, and the page's bundle carried one per call site
//! (docs/DESIGN.md, "Bundles"). [`by_rank`] sorts `(rank, index)` pairs instead — one sort for
//! the whole program — and then moves the elements into that order. It is stable: the index
//! breaks ties between equal ranks, so they keep their order.

/// Sorts `v` by `rank`, stably (equal ranks keep their order).
///
/// ```
/// let mut v = vec!["bb", "a", "cc", "d"];
/// permlab_core::sort::by_rank(&mut v, |s| s.len() as u64);
/// assert_eq!(v, ["a", "d", "bb", "cc"]);
/// ```
pub fn by_rank<T>(v: &mut Vec<T>, rank: impl Fn(&T) -> u64) {
    let order = order_of(v.iter().map(rank).collect());
    let mut slots: Vec<Option<T>> = v.drain(..).map(Some).collect();
    v.extend(order.into_iter().filter_map(|i| slots[i].take()));
}

/// The indices of `ranks` in rank order, ties in index order. Not generic: the one
/// instantiation of the sort.
#[inline(never)]
fn order_of(ranks: Vec<u64>) -> Vec<usize> {
    let mut keyed: Vec<(u64, usize)> = ranks.into_iter().zip(0..).collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|(_, i)| i).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The same order as the standard library's stable sort, for any ranks.
        #[test]
        fn agrees_with_the_stable_sort(ranks in proptest::collection::vec(0u64..6, 0..40)) {
            let mut ours: Vec<(u64, usize)> = ranks.iter().copied().zip(0..).collect();
            let mut std = ours.clone();
            by_rank(&mut ours, |p| p.0);
            std.sort_by_key(|p| p.0);
            prop_assert_eq!(ours, std);
        }
    }

    #[test]
    fn equal_ranks_keep_their_order() {
        let mut v = vec![('b', 1), ('a', 0), ('c', 1), ('d', 0)];
        by_rank(&mut v, |p| p.1);
        assert_eq!(v, [('a', 0), ('d', 0), ('b', 1), ('c', 1)]);
    }
}
