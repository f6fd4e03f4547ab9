//! Rules compiled once and indexed by permission, so that asking about one call costs roughly
//! the number of rules *for that tool*, not the size of the table.
//!
//! A rule whose permission has no `*` or `?` matches exactly one requested permission (after
//! `\` → `/` and, on Windows, case folding), so it goes into a hash map keyed by those units.
//! Rules whose permission is itself a wildcard (`*`, `edit*`, `git *`) go into one shared list.
//! Within one literal permission, rows are further split by their pattern's first word
//! ([`Pattern::first_word`]: `git push *` → `git`, `src/*` → `src`): a call only needs the rows
//! filed under its input's first word plus the rows whose pattern has none (`*`, `*.env`,
//! `test_*`). All lists hold table positions in ascending order; a scan merges them by position,
//! so the order the harness sees is preserved exactly. Shared by OpenCode (scans from the end) and the
//! naive first-match engine (scans from the start): they differ only in direction.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::wildcard::{Pattern, Platform, Subject};
use crate::evaluation::Step;

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

    /// The state, mixed (murmur3's finalizer): the multiply leaves the low bits, which pick
    /// the bucket, depending on the low bits of the input only, and a million keys like
    /// `cmd0`…`cmd999999` then crowd a few buckets (a 10⁶-row table took minutes to index).
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// One row: its permission (tool) pattern, by its place in [`Index::permissions`], and its
/// input pattern, compiled.
#[derive(Clone, Debug)]
pub(crate) struct CompiledRow {
    pub(crate) permission: u32,
    pub(crate) pattern: Pattern,
}

/// Compiled rows plus the by-permission index.
#[derive(Clone, Debug)]
pub(crate) struct Index {
    platform: Platform,
    rows: Vec<CompiledRow>,
    /// Each distinct permission pattern once: a table names a handful of tools, and a million
    /// rows compiled `bash` a million times.
    permissions: Vec<Pattern>,
    /// Rows whose permission is literal, keyed by its normalized text.
    by_permission: FxMap<Box<[u8]>, PermissionRows>,
    /// Rows whose permission has a `*` or `?`.
    wild: Vec<u32>,
}

/// The rows of one literal permission.
#[derive(Clone, Debug, Default)]
struct PermissionRows {
    /// Rows whose pattern fixes its first word, by that word.
    by_word: FxMap<Box<[u8]>, Vec<u32>>,
    /// Rows whose pattern does not.
    any_word: Vec<u32>,
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
        let rows = rows.into_iter();
        let mut index = Index {
            platform,
            rows: Vec::with_capacity(rows.size_hint().0),
            permissions: Vec::new(),
            by_permission: FxMap::default(),
            wild: Vec::new(),
        };
        let mut permission_ids: FxMap<&str, u32> = FxMap::default();
        for (i, (permission, pattern)) in rows.enumerate() {
            let id = *permission_ids.entry(permission).or_insert_with(|| {
                index.permissions.push(Pattern::new(permission, platform));
                (index.permissions.len() - 1) as u32
            });
            let row = CompiledRow {
                permission: id,
                pattern: Pattern::new(pattern, platform),
            };
            let pos = i as u32;
            match index.permissions[id as usize].literal_key() {
                Some(key) => {
                    // Keys are boxed only when new (a million rows of one tool: one key).
                    if !index.by_permission.contains_key(key) {
                        index
                            .by_permission
                            .insert(key.into(), PermissionRows::default());
                    }
                    let rows = index.by_permission.get_mut(key).expect("inserted above");
                    match row.pattern.first_word() {
                        Some(word) => {
                            if !rows.by_word.contains_key(word) {
                                rows.by_word.insert(word.into(), Vec::new());
                            }
                            rows.by_word
                                .get_mut(word)
                                .expect("inserted above")
                                .push(pos);
                        }
                        None => rows.any_word.push(pos),
                    }
                }
                None => index.wild.push(pos),
            }
            index.rows.push(row);
        }
        index
    }

    /// Every row's match for a request: `(permission matched, pattern matched if it did)`.
    pub(crate) fn all_matches(&self, permission: &str, input: &str) -> Vec<(bool, Option<bool>)> {
        let perm = Subject::new(permission, self.platform);
        let input = Subject::new(input, self.platform);
        self.rows
            .iter()
            .map(|row| {
                let tool = self.permissions[row.permission as usize].is_match_subject(&perm);
                (tool, tool.then(|| row.pattern.is_match_subject(&input)))
            })
            .collect()
    }

    /// The walk a trace shows: every matching row (table order), the deciding row in
    /// `direction`, and the rows visited from the start of the walk up to and including it (the
    /// whole table when nothing matches).
    pub(crate) fn trace(
        &self,
        direction: Direction,
        permission: &str,
        input: &str,
    ) -> (Vec<usize>, Option<usize>, Vec<Step>) {
        let matched = self.all_matches(permission, input);
        let matches: Vec<usize> = (0..matched.len())
            .filter(|&i| matched[i].1 == Some(true))
            .collect();
        let rule = match direction {
            Direction::LastMatch => matches.last().copied(),
            Direction::FirstMatch => matches.first().copied(),
        };
        let order: Box<dyn Iterator<Item = usize>> = match direction {
            Direction::LastMatch => Box::new((0..matched.len()).rev()),
            Direction::FirstMatch => Box::new(0..matched.len()),
        };
        let mut steps = Vec::new();
        for i in order {
            let (tool_matched, pattern_matched) = matched[i];
            let stop = Some(i) == rule;
            steps.push(Step {
                row: i,
                group: None,
                tool_matched,
                pattern_matched,
                stop,
                part: None,
            });
            if stop {
                break;
            }
        }
        (matches, rule, steps)
    }

    /// The deciding row in `direction`, or `None`.
    pub(crate) fn find(
        &self,
        direction: Direction,
        permission: &str,
        input: &str,
    ) -> Option<usize> {
        let perm = Subject::new(permission, self.platform);
        let rows = self.by_permission.get(perm.bytes());
        if rows.is_none() && self.wild.is_empty() {
            return None;
        }
        let input = Subject::new(input, self.platform);
        let (by_word, any_word) = match rows {
            Some(r) => (
                r.by_word
                    .get(input.first_word())
                    .map_or(NO_ROWS, Vec::as_slice),
                r.any_word.as_slice(),
            ),
            None => (NO_ROWS, NO_ROWS),
        };
        // Three ascending position lists, merged while walking in `direction`: rows of this
        // permission filed under the input's first word, rows of this permission with no first
        // word, and rows whose permission is a wildcard (which must check the permission too).
        let lists = [by_word, any_word, self.wild.as_slice()];
        let mut cursor = match direction {
            Direction::LastMatch => lists.map(<[u32]>::len),
            Direction::FirstMatch => [0; 3],
        };
        loop {
            let mut best: Option<(usize, u32)> = None;
            for (k, list) in lists.iter().enumerate() {
                let head = match direction {
                    Direction::LastMatch => cursor[k].checked_sub(1).map(|c| list[c]),
                    Direction::FirstMatch => list.get(cursor[k]).copied(),
                };
                if let Some(pos) = head {
                    let better = best.is_none_or(|(_, b)| match direction {
                        Direction::LastMatch => pos > b,
                        Direction::FirstMatch => pos < b,
                    });
                    if better {
                        best = Some((k, pos));
                    }
                }
            }
            let (k, pos) = best?;
            match direction {
                Direction::LastMatch => cursor[k] -= 1,
                Direction::FirstMatch => cursor[k] += 1,
            }
            let row = &self.rows[pos as usize];
            let permission_ok =
                k < 2 || self.permissions[row.permission as usize].is_match_subject(&perm);
            if permission_ok && row.pattern.is_match_subject(&input) {
                return Some(pos as usize);
            }
        }
    }
}
