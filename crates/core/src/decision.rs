//! The verdict every engine gives a call: [`Decision`].

use std::fmt;

use crate::table::Action;

/// The outcome of one call under one engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// Runs without asking.
    Allow,
    /// A human is asked first.
    Ask,
    /// Refused.
    Deny,
    /// The tool is not offered to the model at all (Claude Code's bare `deny Bash`). The call
    /// could never have been made; the lesson shows this apart from an ordinary deny.
    Unavailable,
}

impl Decision {
    /// `allow`, `ask`, `deny` or `unavailable` (the widget's `data-verdict`).
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Ask => "ask",
            Decision::Deny => "deny",
            Decision::Unavailable => "unavailable",
        }
    }

    /// The decision a rule's action leads to directly.
    pub fn from_action(action: Action) -> Decision {
        match action {
            Action::Allow => Decision::Allow,
            Action::Ask => Decision::Ask,
            Action::Deny => Decision::Deny,
        }
    }
}

impl From<Action> for Decision {
    fn from(a: Action) -> Self {
        Decision::from_action(a)
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
