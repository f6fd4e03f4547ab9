//! The permission requests the bash tool makes for one call, and how `Permission.ask`
//! decides them. [`bash_call`](super::bash_call) runs this over a ruleset and
//! [`OpenCodeEngine`](crate::opencode::OpenCodeEngine) over its index; it needs neither.

use crate::opencode::agents::disabled;
use crate::opencode::lifecycle::parse_classic;
use crate::opencode::lifecycle::paths::{self, Place};
use crate::opencode::Rule;
use crate::table::Action;

/// Which permission a request asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RequestKind {
    /// `external_directory`: directories outside the project (`<dir>/*`), asked first.
    ExternalDirectory,
    /// `bash`: one pattern per sub-command.
    Bash,
}

impl RequestKind {
    /// `external_directory`, `bash`.
    pub fn name(self) -> &'static str {
        match self {
            RequestKind::ExternalDirectory => "external_directory",
            RequestKind::Bash => "bash",
        }
    }
}

/// One permission request the bash tool makes, with what `Permission.ask` does with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AskedRequest {
    /// The permission asked.
    pub permission: RequestKind,
    /// The patterns evaluated (duplicates merged, in order of appearance).
    pub patterns: Vec<String>,
    /// What "Allow always" would save.
    pub always: Vec<String>,
    /// One per pattern, same order.
    pub checks: Vec<PatternCheck>,
    /// Deny if any pattern denies, else ask if any asks, else allow.
    pub action: Action,
}

/// One pattern of a request, evaluated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternCheck {
    /// The pattern.
    pub pattern: String,
    /// Index of the last matching rule; `None`: no rule matched (ask).
    pub rule: Option<usize>,
    /// That rule's action (ask when none matched).
    pub action: Action,
}

/// What the real bash tool decides for one call before any user input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BashDecision {
    /// The requests, in the order the tool asks; the list ends after the first deny.
    pub requests: Vec<AskedRequest>,
    /// The action of the first request that is not allow; allow when there is none.
    pub decision: Action,
    /// The index in `requests` of that request.
    pub decided_by: Option<usize>,
    /// `Permission.disabled(["bash"], rules)`: the model is not offered `bash` at all.
    pub hidden: bool,
}

pub(crate) fn decide(
    rules: &[Rule],
    find: impl Fn(&str, &str) -> Option<usize>,
    command: &str,
    place: &Place,
) -> BashDecision {
    let parsing = parse_classic(command, place);
    let dirs: Vec<String> = parsing.dirs.iter().map(|d| paths::dir_pattern(d)).collect();
    let asked = [
        (RequestKind::ExternalDirectory, dirs.clone(), dirs),
        (RequestKind::Bash, parsing.patterns, parsing.always),
    ];
    let mut requests = Vec::new();
    let mut decided_by = None;
    for (permission, patterns, always) in asked {
        if patterns.is_empty() {
            continue;
        }
        let checks: Vec<PatternCheck> = patterns
            .iter()
            .map(|p| {
                let rule = find(permission.name(), p);
                PatternCheck {
                    pattern: p.clone(),
                    rule,
                    action: rule.map_or(Action::Ask, |i| rules[i].action),
                }
            })
            .collect();
        let action = request_action(&checks);
        if decided_by.is_none() && action != Action::Allow {
            decided_by = Some(requests.len());
        }
        requests.push(AskedRequest {
            permission,
            patterns,
            always,
            checks,
            action,
        });
        if action == Action::Deny {
            break;
        }
    }
    BashDecision {
        decision: decided_by.map_or(Action::Allow, |i| requests[i].action),
        decided_by,
        requests,
        hidden: disabled("bash", rules),
    }
}

/// `Permission.ask` on one request: deny if any pattern denies, else ask if any asks.
fn request_action(checks: &[PatternCheck]) -> Action {
    if checks.iter().any(|c| c.action == Action::Deny) {
        Action::Deny
    } else if checks.iter().any(|c| c.action == Action::Ask) {
        Action::Ask
    } else {
        Action::Allow
    }
}
