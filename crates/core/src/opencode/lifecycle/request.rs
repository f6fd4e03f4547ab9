//! Permission requests and the user's replies (`opencode-lifecycle.md` §4–§5, §9).
//!
//! **Classic.** Each pattern of a request is evaluated on its own, last match wins over
//! `agent ruleset ++ session ruleset ++ approved` ([`Approvals::ask`]); any `deny` fails the
//! call at once, all `allow` runs it, otherwise the user is asked. Replies: `once` (this call
//! only), `always` (appends `{permission, pattern, allow}` to `approved` for every "always"
//! pattern, in memory until restart — after the config, so it **beats a configured deny**),
//! `reject` (the loop stops; with a message, the message goes to the model and the loop
//! continues).
//!
//! **Next.** Configured rules (`agent ++ session` here) are checked **alone first** and a
//! `deny` there wins; only then configured ++ saved approvals, last match. "Always" saves
//! the whole command to the database (it survives restarts). The reference does not state
//! the next runtime's texts for a deny or a reject; they are left out ([`Prompt::model_message`]
//! is `None` there).

use crate::opencode::evaluate::{evaluate, find_last};
use crate::opencode::wildcard::{matches, Platform};
use crate::opencode::{rules_to_value, Approvals, AskOutcome, Rule};
use crate::table::Action;

/// The user's answer to a prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// "Allow once".
    Once,
    /// "Allow always".
    Always,
    /// "Reject", optionally with feedback for the model.
    Reject(Option<String>),
}

impl Reply {
    /// `once`, `always`, `reject`.
    pub fn slug(&self) -> &'static str {
        match self {
            Reply::Once => "once",
            Reply::Always => "always",
            Reply::Reject(_) => "reject",
        }
    }
}

/// The TUI's three buttons.
pub const BUTTONS: [&str; 3] = ["Allow once", "Allow always", "Reject"];
/// The TUI's confirmation before "Allow always" (followed by the patterns).
pub const ALWAYS_CONFIRMATION: &str =
    "This will allow the following patterns until OpenCode is restarted";
/// What the model receives after a plain reject (classic).
pub const REJECTED: &str = "The user rejected permission to use this specific tool call.";

/// What the model receives after a reject with feedback (classic); the loop continues.
pub fn rejected_with_feedback(message: &str) -> String {
    format!(
        "The user rejected permission to use this specific tool call with the following feedback: {message}"
    )
}

/// What the model receives after a deny (classic `DeniedError`): every rule of the agent and
/// session rulesets whose permission matches, approvals excluded.
pub fn denied_message(relevant: &[Rule]) -> String {
    format!(
        "The user has specified a rule which prevents you from using this specific tool call. Here are some of the relevant rules {}",
        rules_to_value(relevant).to_json()
    )
}

/// Which ruleset a deciding rule sits in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// The agent's ruleset (defaults, built-ins, config).
    Agent,
    /// The session's ruleset.
    Session,
    /// An "always" approval (classic: in memory; next: saved).
    Approved,
    /// No rule matched: the synthesized `ask`.
    Default,
}

impl Layer {
    /// `agent`, `session`, `approved`, `default`.
    pub fn slug(self) -> &'static str {
        match self {
            Layer::Agent => "agent",
            Layer::Session => "session",
            Layer::Approved => "approved",
            Layer::Default => "default",
        }
    }
}

/// One pattern evaluated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternCheck {
    /// The requested pattern.
    pub pattern: String,
    /// The deciding rule (the synthesized `{permission, *, ask}` when none matched).
    pub rule: Rule,
    /// Where it sits.
    pub layer: Layer,
    /// Its position in that layer (`None` for the default).
    pub position: Option<usize>,
    /// Next runtime: decided by the configured rules checked alone (a configured deny).
    pub configured_alone: bool,
}

/// A permission request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// `external_directory` or `bash`.
    pub permission: String,
    /// The patterns evaluated.
    pub patterns: Vec<String>,
    /// What "Allow always" stores.
    pub always: Vec<String>,
}

/// The rulesets a request is evaluated against.
#[derive(Clone, Copy, Debug)]
pub struct Rulesets<'a> {
    /// The agent's ruleset.
    pub agent: &'a [Rule],
    /// The session's ruleset.
    pub session: &'a [Rule],
    /// Approvals ("always" replies so far).
    pub approved: &'a Approvals,
}

/// The outcome of evaluating a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Every pattern allowed: no prompt.
    Allow,
    /// A prompt is shown.
    Ask,
    /// A pattern is denied: the call fails, no prompt.
    Deny {
        /// The denied pattern.
        pattern: String,
        /// What the model receives (`None` where the reference does not state it).
        message: Option<String>,
    },
}

impl Decision {
    /// `allow`, `ask`, `deny`.
    pub fn slug(&self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Ask => "ask",
            Decision::Deny { .. } => "deny",
        }
    }
}

fn attribute(sets: &Rulesets<'_>, permission: &str, pattern: &str) -> PatternCheck {
    let approved = sets.approved.rules();
    let rule = evaluate(permission, pattern, &[sets.agent, sets.session, approved]);
    let at = find_last(
        Platform::Linux,
        permission,
        pattern,
        &[sets.agent, sets.session, approved],
    );
    let (layer, position) = match at {
        None => (Layer::Default, None),
        Some(i) if i < sets.agent.len() => (Layer::Agent, Some(i)),
        Some(i) if i < sets.agent.len() + sets.session.len() => {
            (Layer::Session, Some(i - sets.agent.len()))
        }
        Some(i) => (
            Layer::Approved,
            Some(i - sets.agent.len() - sets.session.len()),
        ),
    };
    PatternCheck {
        pattern: pattern.to_string(),
        rule,
        layer,
        position,
        configured_alone: false,
    }
}

/// Classic: each pattern, last match over agent ++ session ++ approved, stopping at the first
/// deny. The decision is [`Approvals::ask`]'s.
pub fn classic(sets: &Rulesets<'_>, req: &Request) -> (Vec<PatternCheck>, Decision) {
    let mut checks = Vec::new();
    for p in &req.patterns {
        let c = attribute(sets, &req.permission, p);
        let deny = c.rule.action == Action::Deny;
        checks.push(c);
        if deny {
            break;
        }
    }
    let patterns: Vec<&str> = req.patterns.iter().map(String::as_str).collect();
    let decision = match sets
        .approved
        .ask(sets.agent, sets.session, &req.permission, &patterns)
    {
        AskOutcome::Allow => Decision::Allow,
        AskOutcome::Ask => Decision::Ask,
        AskOutcome::Deny {
            pattern, relevant, ..
        } => Decision::Deny {
            pattern,
            message: Some(denied_message(&relevant)),
        },
    };
    (checks, decision)
}

/// Next: configured rules alone first (a deny there wins), then configured ++ saved.
pub fn next(sets: &Rulesets<'_>, req: &Request) -> (Vec<PatternCheck>, Decision) {
    let mut checks = Vec::new();
    let mut ask = false;
    let none = Approvals::new();
    for p in &req.patterns {
        let alone = Rulesets {
            approved: &none,
            ..*sets
        };
        let first = attribute(&alone, &req.permission, p);
        if first.rule.action == Action::Deny {
            checks.push(PatternCheck {
                configured_alone: true,
                ..first
            });
            return (
                checks,
                Decision::Deny {
                    pattern: p.clone(),
                    message: None,
                },
            );
        }
        let c = attribute(sets, &req.permission, p);
        match c.rule.action {
            Action::Deny => {
                checks.push(c);
                return (
                    checks,
                    Decision::Deny {
                        pattern: p.clone(),
                        message: None,
                    },
                );
            }
            Action::Ask => ask = true,
            Action::Allow => {}
        }
        checks.push(c);
    }
    (checks, if ask { Decision::Ask } else { Decision::Allow })
}

/// A prompt shown to the user and what came of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prompt {
    /// The request.
    pub request: Request,
    /// The reply (`None`: not answered yet, the tool waits).
    pub reply: Option<Reply>,
    /// Rules appended to the approvals ("always").
    pub stored: Vec<Rule>,
    /// Classic "Allow always": the TUI's confirmation ([`ALWAYS_CONFIRMATION`]), shown above
    /// the patterns it will store.
    pub confirmation: Option<&'static str>,
    /// The call goes on.
    pub proceeds: bool,
    /// What the model receives instead of a result (reject), if stated.
    pub model_message: Option<String>,
    /// After a reject: the agent loop goes on (a reject with feedback, or
    /// `experimental.continue_loop_on_deny`).
    pub loop_continues: bool,
}

/// Applies `reply` to a prompt for `req`. `next`: the next runtime (saves whole commands,
/// states no messages). `continue_on_deny`: `experimental.continue_loop_on_deny`.
pub fn answer(
    req: &Request,
    reply: Option<Reply>,
    approved: &mut Approvals,
    next_runtime: bool,
    continue_on_deny: bool,
) -> Prompt {
    let mut p = Prompt {
        request: req.clone(),
        reply: reply.clone(),
        stored: Vec::new(),
        confirmation: None,
        proceeds: false,
        model_message: None,
        loop_continues: true,
    };
    match reply {
        None => {}
        Some(Reply::Once) => p.proceeds = true,
        Some(Reply::Always) => {
            let always: Vec<&str> = req.always.iter().map(String::as_str).collect();
            approved.always(&req.permission, &always);
            p.stored = always
                .iter()
                .map(|a| Rule::new(req.permission.as_str(), *a, Action::Allow))
                .collect();
            p.proceeds = true;
            if !next_runtime {
                p.confirmation = Some(ALWAYS_CONFIRMATION);
            }
        }
        Some(Reply::Reject(message)) => {
            if !next_runtime {
                p.model_message = Some(match &message {
                    Some(m) => rejected_with_feedback(m),
                    None => REJECTED.to_string(),
                });
            }
            p.loop_continues = message.is_some() || continue_on_deny;
        }
    }
    p
}

/// The rules whose permission matches `permission` in agent ++ session (the deny message's
/// list).
pub fn relevant(sets: &Rulesets<'_>, permission: &str) -> Vec<Rule> {
    sets.agent
        .iter()
        .chain(sets.session)
        .filter(|r| matches(permission, &r.permission))
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Action::*;

    fn req(patterns: &[&str], always: &[&str]) -> Request {
        Request {
            permission: "bash".into(),
            patterns: patterns.iter().map(|s| s.to_string()).collect(),
            always: always.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// The reference's §5 example: an "always" on `git push origin` beats the configured
    /// deny in the classic runtime, not in the next one.
    #[test]
    fn approval_against_configured_deny() {
        let agent = [
            Rule::new("bash", "*", Ask),
            Rule::new("bash", "git push --force*", Deny),
        ];
        let mut approved = Approvals::new();
        let force = req(&["git push --force origin"], &["git push *"]);
        let sets = Rulesets {
            agent: &agent,
            session: &[],
            approved: &approved,
        };
        let (_, d) = classic(&sets, &force);
        assert_eq!(d.slug(), "deny");
        let push = req(&["git push origin"], &["git push *"]);
        let p = answer(&push, Some(Reply::Always), &mut approved, false, false);
        assert_eq!(p.stored, [Rule::new("bash", "git push *", Allow)]);
        assert_eq!(
            p.confirmation,
            Some("This will allow the following patterns until OpenCode is restarted")
        );
        let sets = Rulesets {
            agent: &agent,
            session: &[],
            approved: &approved,
        };
        let (checks, d) = classic(&sets, &force);
        assert_eq!(d, Decision::Allow);
        assert_eq!(
            (checks[0].layer, checks[0].position),
            (Layer::Approved, Some(0))
        );
        let (checks, d) = next(&sets, &force);
        assert_eq!(d.slug(), "deny");
        assert!(checks[0].configured_alone);
        assert_eq!(checks[0].rule, agent[1]);
    }

    #[test]
    fn a_deny_anywhere_wins_without_a_prompt() {
        let agent = [
            Rule::new("bash", "*", Ask),
            Rule::new("bash", "git push *", Deny),
        ];
        let approved = Approvals::new();
        let sets = Rulesets {
            agent: &agent,
            session: &[],
            approved: &approved,
        };
        let r = req(
            &["echo hi", "git push origin main"],
            &["echo *", "git push *"],
        );
        let (checks, d) = classic(&sets, &r);
        assert_eq!(checks.len(), 2);
        assert_eq!(
            d,
            Decision::Deny {
                pattern: "git push origin main".into(),
                message: Some(
                    "The user has specified a rule which prevents you from using this specific tool call. \
                     Here are some of the relevant rules [{\"permission\":\"bash\",\"pattern\":\"*\",\"action\":\"ask\"},\
                     {\"permission\":\"bash\",\"pattern\":\"git push *\",\"action\":\"deny\"}]"
                        .into()
                )
            }
        );
        assert_eq!(relevant(&sets, "bash").len(), 2);
    }

    #[test]
    fn replies() {
        let r = req(&["ls"], &["ls *"]);
        let mut a = Approvals::new();
        let p = answer(&r, Some(Reply::Reject(None)), &mut a, false, false);
        assert_eq!(p.model_message.as_deref(), Some(REJECTED));
        assert!(!p.loop_continues && !p.proceeds);
        let p = answer(&r, Some(Reply::Reject(None)), &mut a, false, true);
        assert!(p.loop_continues);
        let p = answer(
            &r,
            Some(Reply::Reject(Some("use ls -la".into()))),
            &mut a,
            false,
            false,
        );
        assert_eq!(
            p.model_message.as_deref(),
            Some("The user rejected permission to use this specific tool call with the following feedback: use ls -la")
        );
        assert!(p.loop_continues);
        let p = answer(&r, Some(Reply::Once), &mut a, false, false);
        assert!(p.proceeds && p.stored.is_empty() && a.rules().is_empty());
        let p = answer(&r, None, &mut a, false, false);
        assert!(!p.proceeds && p.reply.is_none());
        let p = answer(&r, Some(Reply::Reject(None)), &mut a, true, false);
        assert_eq!(p.model_message, None);
    }
}
