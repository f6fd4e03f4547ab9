//! How much work and memory one `.rules` file may ask for.
//!
//! Starlark programs always terminate, but "terminates" is not "terminates soon": a file can
//! loop over a million-element list and insert into another on every turn, or repeat a string
//! until it fills the machine. The real `codex execpolicy check` (0.171.0, starlark-rust 0.13)
//! sets no limit at all: such a file runs until it is done or the operating system stops it.
//! permlab runs the same files in a lesson page and its worker, where a hang or an aborted
//! allocation loses the learner's work, so the interpreter counts as it goes and stops with an
//! error at the construct that went over.
//!
//! Two counters, both cumulative over the whole file (what was spent, never refunded):
//! - **steps**: one per expression evaluated and per loop turn, plus one per four values a
//!   comparison visits (`x in list`, a dict lookup, `sorted`, `==` between nested lists: see
//!   `value::walk`), one per 16 values copied or shifted (a list for a `for`, a `range`,
//!   `list.insert`) and one per 64 bytes a string operation scans. Wall time is proportional
//!   to steps.
//! - **bytes**: what every value the file builds costs (16 bytes a list slot, the length of a
//!   string, the tokens of every rule a `prefix_rule` adds and of every `match=` example). It
//!   is charged *before* the allocation, so a bomb never reaches the allocator.

use std::cell::Cell;

use super::super::diag::{Diag, LoadErrorKind, Span};

/// Work and memory limits for loading one `.rules` file (see [`crate::codex::Policy::parse_with_limits`]).
///
/// The defaults are far above what real policies need. Measured on the shared corpus
/// (`corpus/codex/*.rules`, by `codex_limits_cover_the_corpus` in `tests/fuzz.rs`): the
/// hungriest files that load need 913 steps (`002.rules`) and 9 927 bytes (`013.rules`); the
/// defaults are 2 000 000 steps (≈ 2 000×) and 64 MB (≈ 6 700×). 2 million steps take well
/// under a second in a release build, so a hostile file ends with an error quickly, never a
/// hang, and the memory a file holds stays within a small multiple of 64 MB. The byte count
/// is cumulative (nothing is refunded when a value is dropped), so a loop that rebuilds a big
/// list on every turn also runs out.
///
/// ```
/// use permlab_core::codex::{Limits, Policy};
/// let text = "x = [i for i in range(1000)]\nprefix_rule(pattern=[\"ls\"])";
/// assert!(Policy::parse_with_limits("p.rules", text, &Limits::default()).is_ok());
/// let tight = Limits { steps: 500, ..Limits::default() };
/// let err = Policy::parse_with_limits("p.rules", text, &tight).unwrap_err();
/// assert!(err.message.contains("needs more than 500 steps"), "{}", err.message);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Steps one file may take (expression evaluations, loop turns, elements walked).
    pub steps: u64,
    /// Bytes one file may allocate in total (strings, list and dict slots, rules, examples).
    pub bytes: u64,
}

impl Limits {
    /// The default limits: 2 million steps and 64 MB.
    pub const DEFAULT: Limits = Limits {
        steps: 2_000_000,
        bytes: 64 << 20,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

/// Bytes one value slot costs (a list element, half a dict entry).
pub(super) const SLOT: u64 = 16;

/// What a running file has spent, against its [`Limits`]. Cells, so that `&self` helpers can
/// charge without threading `&mut` through every evaluation function.
pub(super) struct Budget {
    pub(super) limits: Limits,
    steps: Cell<u64>,
    bytes: Cell<u64>,
}

impl Budget {
    pub(super) fn new(limits: Limits) -> Self {
        Budget {
            limits,
            steps: Cell::new(0),
            bytes: Cell::new(0),
        }
    }

    /// Steps still allowed.
    pub(super) fn left_steps(&self) -> u64 {
        self.limits.steps.saturating_sub(self.steps.get())
    }

    /// Steps and bytes spent so far.
    pub(super) fn spent(&self) -> (u64, u64) {
        (self.steps.get(), self.bytes.get())
    }

    /// Charges `n` steps; the error names the limit and how to raise it.
    pub(super) fn steps(&self, n: u64, span: Span, frames: &[(String, Span)]) -> Result<(), Diag> {
        let total = self.steps.get().saturating_add(n);
        self.steps.set(total);
        if total > self.limits.steps {
            return Err(over(
                span,
                frames,
                LoadErrorKind::StepBudget {
                    steps: self.limits.steps,
                },
                format!(
                    "this policy needs more than {} steps, permlab's step budget for one file (a loop too large, \
                     or a long list walked on every turn?); `codex execpolicy check` has no budget and keeps running. \
                     Shorten the loop, or raise `Limits::steps` (Policy::parse_with_limits)",
                    self.limits.steps
                ),
            ));
        }
        Ok(())
    }

    /// Steps for scanning `len` bytes of text (one per 64 bytes, at least one).
    pub(super) fn scan(
        &self,
        len: usize,
        span: Span,
        frames: &[(String, Span)],
    ) -> Result<(), Diag> {
        self.steps(1 + len as u64 / 64, span, frames)
    }

    /// Charges `n` bytes before they are allocated.
    pub(super) fn bytes(&self, n: u64, span: Span, frames: &[(String, Span)]) -> Result<(), Diag> {
        let total = self.bytes.get().saturating_add(n);
        self.bytes.set(total);
        if total > self.limits.bytes {
            return Err(over(
                span,
                frames,
                LoadErrorKind::MemoryBudget {
                    bytes: self.limits.bytes,
                },
                format!(
                    "this policy needs more than {} MB, permlab's memory budget for one file (a string or list \
                     repeated, joined or grown too far?); `codex execpolicy check` has no budget and keeps allocating \
                     until the system stops it. Build smaller values, or raise `Limits::bytes` (Policy::parse_with_limits)",
                    LoadErrorKind::megabytes(self.limits.bytes)
                ),
            ));
        }
        Ok(())
    }
}

fn over(span: Span, frames: &[(String, Span)], kind: LoadErrorKind, message: String) -> Diag {
    Diag::runtime(frames.to_vec(), span, message).with_load(kind)
}
