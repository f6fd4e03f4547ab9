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

use super::wildcard::{with_units, Pattern, Platform};

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
    by_permission: FxMap<Box<[u16]>, Vec<u32>>,
    wild: Vec<u32>,
}

const NO_ROWS: &[u32] = &[];

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
            match row.permission.literal_units() {
                Some(units) => index
                    .by_permission
                    .entry(units.into())
                    .or_default()
                    .push(pos),
                None => index.wild.push(pos),
            }
            index.rows.push(row);
        }
        index
    }

    pub(crate) fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether row `i` matches: `(permission matched, pattern matched if the permission did)`.
    pub(crate) fn row_matches(
        &self,
        i: usize,
        permission: &[u16],
        input: &[u16],
    ) -> (bool, Option<bool>) {
        let row = &self.rows[i];
        let tool = row.permission.is_match_units(permission);
        (tool, tool.then(|| row.pattern.is_match_units(input)))
    }

    /// Calls `f` with the permission and input prepared for this platform.
    pub(crate) fn prepared<R>(
        &self,
        permission: &str,
        input: &str,
        f: impl FnOnce(&[u16], &[u16]) -> R,
    ) -> R {
        with_units(permission, self.platform, |p| {
            with_units(input, self.platform, |i| f(p, i))
        })
    }

    /// The last row matching both, or `None` (OpenCode's `findLast`).
    pub(crate) fn find_last(&self, permission: &str, input: &str) -> Option<usize> {
        with_units(permission, self.platform, |perm| {
            let exact = self.by_permission.get(perm).map_or(NO_ROWS, Vec::as_slice);
            if exact.is_empty() && self.wild.is_empty() {
                return None;
            }
            with_units(input, self.platform, |inp| {
                let (mut a, mut b) = (exact.len(), self.wild.len());
                while a > 0 || b > 0 {
                    if b == 0 || (a > 0 && exact[a - 1] > self.wild[b - 1]) {
                        a -= 1;
                        let i = exact[a] as usize;
                        if self.rows[i].pattern.is_match_units(inp) {
                            return Some(i);
                        }
                    } else {
                        b -= 1;
                        let i = self.wild[b] as usize;
                        let row = &self.rows[i];
                        if row.permission.is_match_units(perm) && row.pattern.is_match_units(inp) {
                            return Some(i);
                        }
                    }
                }
                None
            })
        })
    }

    /// The first row matching both, or `None` (the naive top-down design).
    pub(crate) fn find_first(&self, permission: &str, input: &str) -> Option<usize> {
        with_units(permission, self.platform, |perm| {
            let exact = self.by_permission.get(perm).map_or(NO_ROWS, Vec::as_slice);
            if exact.is_empty() && self.wild.is_empty() {
                return None;
            }
            with_units(input, self.platform, |inp| {
                let (mut a, mut b) = (0, 0);
                while a < exact.len() || b < self.wild.len() {
                    if b == self.wild.len() || (a < exact.len() && exact[a] < self.wild[b]) {
                        let i = exact[a] as usize;
                        a += 1;
                        if self.rows[i].pattern.is_match_units(inp) {
                            return Some(i);
                        }
                    } else {
                        let i = self.wild[b] as usize;
                        b += 1;
                        let row = &self.rows[i];
                        if row.permission.is_match_units(perm) && row.pattern.is_match_units(inp) {
                            return Some(i);
                        }
                    }
                }
                None
            })
        })
    }
}
