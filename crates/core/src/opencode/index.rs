//! Rules compiled once and indexed by permission, so that asking about one call costs roughly
//! the number of rules *for that tool*, not the size of the table.
//!
//! A rule whose permission has no `*` or `?` matches exactly one requested permission (after
//! `\` → `/` and, on Windows, case folding), so it goes into a hash map keyed by those units.
//! Rules whose permission is itself a wildcard (`*`, `edit*`, `git *`) go into one shared list.
//! Both lists hold table positions in ascending order; a scan merges them by position, so the
//! order the harness sees is preserved exactly. Shared by OpenCode (scans from the end) and the
//! naive first-match engine (scans from the start): they differ only in direction.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::wildcard::{Pattern, Platform, Subject};

/// A small multiplicative hasher (the "Fx" hash of rustc): permission names are short and not
/// adversarial, and SipHash would be a large share of a 100 ns evaluation.
#[derive(Default)]
struct FxHasher(u64);

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        for &b in chunks.remainder() {
            self.add(u64::from(b));
        }
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// One row: its permission (tool) pattern and its input pattern, both compiled.
#[derive(Clone, Debug)]
pub(crate) struct CompiledRow {
    pub(crate) permission: Pattern,
    pub(crate) pattern: Pattern,
}

/// Compiled rows plus the by-permission index.
#[derive(Clone, Debug)]
pub(crate) struct Index {
    platform: Platform,
    rows: Vec<CompiledRow>,
    /// Rows whose permission is literal, keyed by its normalized text.
    by_permission: FxMap<Box<[u8]>, Vec<u32>>,
    /// Rows whose permission has a `*` or `?`.
    wild: Vec<u32>,
}

const NO_ROWS: &[u32] = &[];

/// Which way to scan.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Direction {
    /// From the last row up (OpenCode's `findLast`).
    LastMatch,
    /// From the first row down (the naive design).
    FirstMatch,
}

impl Index {
    /// Compiles `(permission, pattern)` rows in table order.
    pub(crate) fn new<'a>(
        platform: Platform,
        rows: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Index {
        let mut index = Index {
            platform,
            rows: Vec::new(),
            by_permission: FxMap::default(),
            wild: Vec::new(),
        };
        for (i, (permission, pattern)) in rows.into_iter().enumerate() {
            let row = CompiledRow {
                permission: Pattern::new(permission, platform),
                pattern: Pattern::new(pattern, platform),
            };
            let pos = i as u32;
            match row.permission.literal_key() {
                Some(key) => index.by_permission.entry(key.into()).or_default().push(pos),
                None => index.wild.push(pos),
            }
            index.rows.push(row);
        }
        index
    }

    pub(crate) fn len(&self) -> usize {
        self.rows.len()
    }

    /// Every row's match for a request: `(permission matched, pattern matched if it did)`.
    pub(crate) fn all_matches(&self, permission: &str, input: &str) -> Vec<(bool, Option<bool>)> {
        let perm = Subject::new(permission, self.platform);
        let input = Subject::new(input, self.platform);
        self.rows
            .iter()
            .map(|row| {
                let tool = row.permission.is_match_subject(&perm);
                (tool, tool.then(|| row.pattern.is_match_subject(&input)))
            })
            .collect()
    }

    /// The deciding row in `direction`, or `None`.
    pub(crate) fn find(
        &self,
        direction: Direction,
        permission: &str,
        input: &str,
    ) -> Option<usize> {
        let perm = Subject::new(permission, self.platform);
        let exact = self
            .by_permission
            .get(perm.bytes())
            .map_or(NO_ROWS, Vec::as_slice);
        if exact.is_empty() && self.wild.is_empty() {
            return None;
        }
        let input = Subject::new(input, self.platform);
        // Merge the two ascending position lists, walking in `direction`.
        let (mut a, mut b) = match direction {
            Direction::LastMatch => (exact.len(), self.wild.len()),
            Direction::FirstMatch => (0, 0),
        };
        loop {
            let (next_exact, next_wild) = match direction {
                Direction::LastMatch => (
                    a.checked_sub(1).map(|k| exact[k]),
                    b.checked_sub(1).map(|k| self.wild[k]),
                ),
                Direction::FirstMatch => (exact.get(a).copied(), self.wild.get(b).copied()),
            };
            let take_exact = match (next_exact, next_wild) {
                (None, None) => return None,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (Some(x), Some(w)) => (x > w) == (direction == Direction::LastMatch),
            };
            let step = |k: &mut usize| match direction {
                Direction::LastMatch => *k -= 1,
                Direction::FirstMatch => *k += 1,
            };
            if take_exact {
                step(&mut a);
                let i = next_exact? as usize;
                if self.rows[i].pattern.is_match_subject(&input) {
                    return Some(i);
                }
            } else {
                step(&mut b);
                let i = next_wild? as usize;
                let row = &self.rows[i];
                if row.permission.is_match_subject(&perm) && row.pattern.is_match_subject(&input) {
                    return Some(i);
                }
            }
        }
    }
}
