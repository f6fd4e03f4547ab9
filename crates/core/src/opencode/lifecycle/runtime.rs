//! Which of OpenCode's two runtimes a call runs on. A leaf: the stages say which runtime each
//! seed claim holds for, and the lifecycle records the runtime it ran.

/// Which of OpenCode's two runtimes runs the call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Runtime {
    /// The classic path every normal prompt takes (default).
    Classic,
    /// The v2 core seed 002 describes.
    Next,
}

impl Default for Runtime {
    /// The classic runtime: the one every normal prompt takes.
    fn default() -> Self {
        Runtime::Classic
    }
}

impl Runtime {
    /// `classic`, `next`.
    pub fn slug(self) -> &'static str {
        match self {
            Runtime::Classic => "classic",
            Runtime::Next => "next",
        }
    }
}
