//! What running a conformance file reports: per section, the passes, the failures and the
//! drift cases. A leaf: every engine's runner fills these in, and `conformance` collects them.

/// One case whose result differs from the expected value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The case's input, shortly (e.g. `match("git status", "git *")`).
    pub input: String,
    /// The expected value, as JSON or short text.
    pub expected: String,
    /// What permlab computed.
    pub got: String,
}

/// One case where the documentation and the recorded CLI disagree (a `drift` section): not a
/// failure, the engine follows the CLI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DriftCase {
    /// The case's id and call, shortly.
    pub input: String,
    /// What the docs state (`allow`, `ask`, `deny`).
    pub docs: String,
    /// What the real CLI did (and permlab computes).
    pub cli: String,
}

/// The tally for one section of one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SectionReport {
    /// The file's engine (`opencode`, `codex`…).
    pub engine: String,
    /// The section (`wildcard`, `evaluate`, `cases`…).
    pub section: String,
    /// Cases that agree with the expected value.
    pub passed: usize,
    /// Every case that does not.
    pub failures: Vec<Failure>,
    /// A `drift` section: the cases where the docs and the recorded CLI disagree (each also
    /// counted in `passed`; empty in every other section).
    pub drift: Vec<DriftCase>,
}

impl SectionReport {
    /// An empty report for `engine`'s `section`.
    pub fn new(engine: &str, section: &str) -> Self {
        SectionReport {
            engine: engine.to_string(),
            section: section.to_string(),
            passed: 0,
            failures: Vec::new(),
            drift: Vec::new(),
        }
    }

    /// Records one case: a pass when `expected` and `got` are equal, else a failure.
    pub fn check(&mut self, input: impl FnOnce() -> String, expected: &str, got: &str) {
        if expected == got {
            self.passed += 1;
        } else {
            self.fail(input(), expected, got);
        }
    }

    /// Records one failed case.
    pub fn fail(&mut self, input: String, expected: impl Into<String>, got: impl Into<String>) {
        self.failures.push(Failure {
            input,
            expected: expected.into(),
            got: got.into(),
        });
    }

    /// Number of failed cases.
    pub fn failed(&self) -> usize {
        self.failures.len()
    }
}
