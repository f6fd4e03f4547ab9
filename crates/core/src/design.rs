//! # Design your own evaluator
//!
//! Seed 001 closes with a harness the learner writes for a customer-service ticket agent (five
//! tools, allow / ask / deny lists, and a `decide()` that checks ① deny ② ask ③ the mode ④ allow
//! ⑤ a fallback, with `ask_or_deny` turning an ask into a deny when nobody is there to answer).
//! This module lets a learner compose such an evaluator from the pieces the lessons showed and
//! see, call by call, which real harness it behaves like.
//!
//! A [`Design`] is four choices:
//!
//! - **order** ([`Order`]): top-down first match (the naive design), bottom-up last match
//!   (OpenCode), grouped deny → ask → allow (Claude Code, and the seed's `decide()`), or the
//!   strictest of all matches (Codex execpolicy);
//! - **fallback**: the verdict when no rule matches (the seed's ⑤: ask);
//! - **mode stage**: in a read-only session, a write that is not denied is asked (the seed's ③);
//! - **unattended → deny**: in an unattended session an ask becomes a deny (`ask_or_deny`,
//!   "类似 dontAsk").
//!
//! Rules match with the same wildcard as first-match and OpenCode (so only the order differs
//! between those three). [`Design::SEED_001`] is the seed's `decide()`.
//!
//! ```
//! use permlab_core::design::{Design, DesignEngine, Order, Session, TicketAgent};
//! use permlab_core::Decision;
//! let agent = TicketAgent::seed();
//! let e = DesignEngine::new(Design::SEED_001, &agent.table());
//! let refund = &agent.calls[3];
//! assert_eq!(refund.call.input, "refund(order=A1, amount=300)");
//! assert_eq!(e.decide(&refund.call, Session::ATTENDED, refund.writes).decision, Decision::Ask);
//! let night = Session { unattended: true, ..Session::ATTENDED };
//! assert_eq!(e.decide(&refund.call, night, refund.writes).decision, Decision::Deny);
//! ```

use crate::claude_code::{self, table::lesson_context, ClaudeCodeEngine};
use crate::corecoder::{self, CoreCoderEngine};
use crate::engines;
use crate::evaluation::{Decision, Engine, EngineId, Evaluation};
use crate::opencode::index::{Direction, Index};
use crate::opencode::wildcard::Platform;
use crate::table::{Action, Call, RuleTable};

/// Which matching rule decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Order {
    /// The first matching row, reading down (the naive first-match).
    TopDown,
    /// The last matching row (OpenCode's `findLast`).
    BottomUp,
    /// Any matching deny, else any ask, else any allow; the first of its group (Claude Code;
    /// the seed's ① ② ④).
    Grouped,
    /// The strictest action among all matches, deny > ask > allow (Codex's `.max()`).
    Strictest,
}

impl Order {
    /// Every order.
    pub const ALL: [Order; 4] = [
        Order::TopDown,
        Order::BottomUp,
        Order::Grouped,
        Order::Strictest,
    ];

    /// `top-down`, `bottom-up`, `grouped`, `strictest`.
    pub fn slug(self) -> &'static str {
        match self {
            Order::TopDown => "top-down",
            Order::BottomUp => "bottom-up",
            Order::Grouped => "grouped",
            Order::Strictest => "strictest",
        }
    }

    /// The order with this slug.
    pub fn from_slug(s: &str) -> Option<Order> {
        Order::ALL.into_iter().find(|o| o.slug() == s)
    }

    /// The real engine that reads a table this way.
    pub fn engine(self) -> EngineId {
        match self {
            Order::TopDown => EngineId::FirstMatch,
            Order::BottomUp => EngineId::OpenCode,
            Order::Grouped => EngineId::ClaudeCode,
            Order::Strictest => EngineId::Codex,
        }
    }
}

/// A composed evaluator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Design {
    /// Which matching rule decides.
    pub order: Order,
    /// The verdict when no rule matches.
    pub fallback: Action,
    /// ③: in a read-only session, a write that is not denied is asked.
    pub mode_stage: bool,
    /// `ask_or_deny`: in an unattended session, an ask becomes a deny.
    pub unattended_denies: bool,
}

impl Design {
    /// The seed's `decide()`: grouped, fallback ask, with the mode stage and `ask_or_deny`.
    pub const SEED_001: Design = Design {
        order: Order::Grouped,
        fallback: Action::Ask,
        mode_stage: true,
        unattended_denies: true,
    };

    /// The naive design of seed 000: top-down, fallback ask, nothing else.
    pub const NAIVE: Design = Design {
        order: Order::TopDown,
        fallback: Action::Ask,
        mode_stage: false,
        unattended_denies: false,
    };
}

/// Who is there when the call is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Session {
    /// `session.mode == "readonly"`.
    pub readonly: bool,
    /// `session.unattended` (a night batch: nobody to ask).
    pub unattended: bool,
}

impl Session {
    /// An agent at the desk, normal mode.
    pub const ATTENDED: Session = Session {
        readonly: false,
        unattended: false,
    };
}

/// Which stage of the design decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// A rule (its row).
    Rule(usize),
    /// No rule matched: the fallback.
    Fallback,
    /// ③ the mode stage turned the verdict into an ask.
    Mode,
    /// `ask_or_deny`: nobody to ask, so denied.
    Unattended,
}

/// The design's answer for one call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DesignVerdict {
    /// The verdict.
    pub decision: Decision,
    /// The deciding rule, if one matched (also when a later stage changed the verdict).
    pub row: Option<usize>,
    /// The stage that had the last word.
    pub stage: Stage,
    /// Whether the mode stage turned an allow into an ask (also when `ask_or_deny` then
    /// denied it), so a walk can say every stage that changed the verdict.
    pub asked_by_mode: bool,
}

impl DesignVerdict {
    /// For a grouped design, the step of the seed's `decide()` that answered: 1 deny, 2 ask,
    /// 3 the mode, 4 allow, 5 the fallback (`ask_or_deny` belongs to the step that called it).
    /// `None` for the other orders, whose walk is not the seed's.
    pub fn seed_step(&self, design: Design, actions: &RuleTable) -> Option<u8> {
        if design.order != Order::Grouped {
            return None;
        }
        let rule_step = |row: usize| match actions.rules()[row].action {
            Action::Deny => 1,
            Action::Ask => 2,
            Action::Allow => 4,
        };
        Some(match (self.stage, self.row) {
            (Stage::Rule(r), _) => rule_step(r),
            (Stage::Mode, _) => 3,
            (Stage::Fallback, _) => 5,
            (Stage::Unattended, Some(r)) if rule_step(r) != 4 => rule_step(r),
            // An allowed write asked by the mode stage, then denied: step 3.
            (Stage::Unattended, Some(_)) => 3,
            (Stage::Unattended, None) => 5,
        })
    }
}

/// Calls of the miniagent lesson for running a design on `miniagent-standard.json`: the test
/// command of run `pd-firstmatch-s1` (the `rules` stage), two of the course's commands, and
/// three file calls (each row group of the table once).
pub const MINIAGENT_CALLS: [(&str, &str); 6] = [
    ("bash", "python -m unittest -v test_dateparse.py"),
    ("bash", "rm -rf /"),
    ("bash", "cat sudoku_solver.py"),
    ("edit_file", "test_dateparse.py"),
    ("edit_file", "dateparse.py"),
    ("read_file", "README.md"),
];

/// A design compiled for one table.
#[derive(Clone, Debug)]
pub struct DesignEngine {
    design: Design,
    actions: Vec<Action>,
    index: Index,
}

impl DesignEngine {
    /// Compiles `table` for `design` (case-sensitive wildcard matching, as first-match).
    pub fn new(design: Design, table: &RuleTable) -> Self {
        DesignEngine {
            design,
            actions: table.rules().iter().map(|r| r.action).collect(),
            index: Index::new(
                Platform::Linux,
                table
                    .rules()
                    .iter()
                    .map(|r| (r.tool.as_str(), r.pattern.as_str())),
            ),
        }
    }

    /// The design.
    pub fn design(&self) -> Design {
        self.design
    }

    /// Decides `call` in `session`; `writes` says whether the tool has side effects (what the
    /// mode stage looks at).
    pub fn decide(&self, call: &Call, session: Session, writes: bool) -> DesignVerdict {
        let (matches, _, _) = self
            .index
            .trace(Direction::FirstMatch, &call.tool, &call.input);
        let act = |r: &usize| self.actions[*r];
        let row = match self.design.order {
            Order::TopDown => matches.first().copied(),
            Order::BottomUp => matches.last().copied(),
            Order::Grouped => [Action::Deny, Action::Ask, Action::Allow]
                .into_iter()
                .find_map(|a| matches.iter().find(|r| act(r) == a).copied()),
            Order::Strictest => matches.iter().copied().reduce(|best, r| {
                if act(&r).priority() > act(&best).priority() {
                    r
                } else {
                    best
                }
            }),
        };
        let (mut decision, mut stage) = match row {
            Some(r) => (Decision::from(self.actions[r]), Stage::Rule(r)),
            None => (Decision::from(self.design.fallback), Stage::Fallback),
        };
        let mut asked_by_mode = false;
        if self.design.mode_stage && session.readonly && writes && decision != Decision::Deny {
            if decision != Decision::Ask {
                stage = Stage::Mode;
                asked_by_mode = true;
            }
            decision = Decision::Ask;
        }
        if self.design.unattended_denies && session.unattended && decision == Decision::Ask {
            decision = Decision::Deny;
            stage = Stage::Unattended;
        }
        DesignVerdict {
            decision,
            row,
            stage,
            asked_by_mode,
        }
    }
}

/// One tool of the ticket agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TicketTool {
    /// Its name in the table (`query_ticket`…).
    pub name: String,
    /// The seed's name (查询工单…).
    pub zh: String,
    /// Whether it has side effects (what the mode stage looks at).
    pub writes: bool,
    /// The seed's list it is on.
    pub list: Action,
    /// The seed's reason for that list.
    pub reason_zh: String,
}

/// One call of the ticket agent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TicketCall {
    /// The call (`tool.describe(args)` as the input).
    pub call: Call,
    /// Whether its tool writes.
    pub writes: bool,
    /// Whether the input is the seed's own example (`refund(order=A1, amount=300)`); the others
    /// are written in the same style.
    pub from_seed: bool,
}

/// Seed 001's ticket agent: its five tools, its three lists as a table, and one call per tool
/// (plus one tool on no list, to show the fallback). Read from `fixtures/design/ticket-agent.json`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TicketAgent {
    /// The five tools, in the seed's order.
    pub tools: Vec<TicketTool>,
    /// The calls.
    pub calls: Vec<TicketCall>,
}

/// The fixture's text.
pub const TICKET_AGENT_JSON: &str = include_str!("../../../fixtures/design/ticket-agent.json");

impl TicketAgent {
    /// The seed's agent, from [`TICKET_AGENT_JSON`].
    ///
    /// # Panics
    /// Never on the shipped fixture (a test reads it).
    pub fn seed() -> TicketAgent {
        TicketAgent::from_json(TICKET_AGENT_JSON).expect("fixtures/design/ticket-agent.json")
    }

    /// Reads a ticket-agent fixture; the error names the field.
    pub fn from_json(text: &str) -> Result<TicketAgent, String> {
        let doc = crate::json::parse(text).map_err(|e| format!("invalid JSON: {}", e.message))?;
        let arr = |k: &str| {
            doc.get(k)
                .and_then(|v| v.as_array())
                .ok_or(format!("\"{k}\": expected an array"))
        };
        let mut tools = Vec::new();
        for (i, t) in arr("tools")?.iter().enumerate() {
            let s = |k: &str| {
                t.get(k)
                    .and_then(|v| v.as_str())
                    .ok_or(format!("tools[{i}].{k}: expected a string"))
            };
            let list = match s("list")? {
                "allow" => Action::Allow,
                "ask" => Action::Ask,
                "deny" => Action::Deny,
                other => {
                    return Err(format!(
                        "tools[{i}].list: {other:?}: use allow, ask or deny"
                    ))
                }
            };
            tools.push(TicketTool {
                name: s("name")?.to_string(),
                zh: s("zh")?.to_string(),
                writes: t
                    .get("writes")
                    .and_then(|v| v.as_bool())
                    .ok_or(format!("tools[{i}].writes: expected true or false"))?,
                list,
                reason_zh: s("reason_zh")?.to_string(),
            });
        }
        let mut calls = Vec::new();
        for (i, c) in arr("calls")?.iter().enumerate() {
            let call = Call::from_value(c).map_err(|e| format!("calls[{i}]: {e}"))?;
            let writes = match tools.iter().find(|t| t.name == call.tool) {
                Some(t) => t.writes,
                None => c
                    .get("writes")
                    .and_then(|v| v.as_bool())
                    .ok_or(format!("calls[{i}]: a tool on no list needs \"writes\""))?,
            };
            let from_seed = c
                .get("from_seed")
                .and_then(|v| v.as_bool())
                .unwrap_or(false);
            calls.push(TicketCall {
                call,
                writes,
                from_seed,
            });
        }
        Ok(TicketAgent { tools, calls })
    }

    /// The three lists as a rule table: one `tool * action` row per tool, allow list first (the
    /// seed's table order). Each tool is on one list, so no order changes a verdict here.
    pub fn table(&self) -> RuleTable {
        RuleTable::new(self.tools.iter().map(|t| (t.name.as_str(), "*", t.list)))
    }
}

/// Whether a miniagent tool writes: everything but `read_file`, `list_dir` and `grep`.
pub fn miniagent_writes(tool: &str) -> bool {
    !matches!(tool, "read_file" | "list_dir" | "grep")
}

/// One call compared with the real harnesses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// The design's verdict.
    pub design: DesignVerdict,
    /// Every real engine's verdict on the same table, in [`EngineId::ALL`] order, in the
    /// session's nearest mode ([`engine_modes`]).
    /// Engines that cannot express a row say so by their verdict: on the ticket agent's tools
    /// Claude Code drops the rows (its rules name its own tools or `mcp__server__tool`) and
    /// Codex never sees a non-shell call, so both ask.
    pub engines: Vec<(EngineId, Decision)>,
    /// Each real engine's full evaluation, in the same order (its reason says *why* it
    /// differs, e.g. Codex's "not a shell command"), so the widget explains without deciding.
    pub evaluations: Vec<Evaluation>,
}

impl Comparison {
    /// The engines that give the design's verdict ("behaves like").
    pub fn agree(&self) -> Vec<EngineId> {
        self.engines
            .iter()
            .filter(|(_, d)| *d == self.design.decision)
            .map(|(e, _)| *e)
            .collect()
    }

    /// The engines that answer otherwise, with their answer ("where it differs").
    pub fn differ(&self) -> Vec<(EngineId, Decision)> {
        self.engines
            .iter()
            .filter(|(_, d)| *d != self.design.decision)
            .copied()
            .collect()
    }

    /// The one harness to name for this call: among the engines that agree, the one the
    /// design is built like ([`Order::engine`]) if it agrees, else the first in
    /// [`EngineId::ALL`] order; `None` when no real engine gives the design's verdict.
    /// Preferring the order's engine keeps the name stable when several engines happen to
    /// agree (every engine asks for a call nothing matches).
    ///
    /// ```
    /// use permlab_core::design::{compare, Design, Order, Session, TicketAgent};
    /// use permlab_core::EngineId;
    /// let a = TicketAgent::seed();
    /// let calls: Vec<_> = a.calls.iter().map(|c| (c.call.clone(), c.writes)).collect();
    /// let cs = compare(Design::SEED_001, &a.table(), &calls, Session::ATTENDED);
    /// // refund: every engine asks, and the design is grouped like Claude Code.
    /// assert_eq!(cs[3].closest(Design::SEED_001), Some(EngineId::ClaudeCode));
    /// // query_ticket: Claude Code cannot write a rule for this tool and asks; first-match allows.
    /// assert_eq!(cs[0].closest(Design::SEED_001), Some(EngineId::FirstMatch));
    /// ```
    pub fn closest(&self, design: Design) -> Option<EngineId> {
        let agree = self.agree();
        let own = design.order.engine();
        if agree.contains(&own) {
            Some(own)
        } else {
            agree.first().copied()
        }
    }

    /// The evaluation of engine `id`, if it was run.
    pub fn evaluation(&self, id: EngineId) -> Option<&Evaluation> {
        self.evaluations.iter().find(|e| e.engine == id)
    }
}

/// How often each real engine gave the design's verdict over `comparisons`, most first (ties:
/// the engine the design is built like first, then [`EngineId::ALL`] order). The first entry
/// is the harness the design behaves most like on these calls.
///
/// ```
/// use permlab_core::design::{agreement, compare, Design, Session, TicketAgent};
/// use permlab_core::EngineId;
/// let a = TicketAgent::seed();
/// let calls: Vec<_> = a.calls.iter().map(|c| (c.call.clone(), c.writes)).collect();
/// let cs = compare(Design::SEED_001, &a.table(), &calls, Session::ATTENDED);
/// let ranked = agreement(Design::SEED_001, &cs);
/// assert_eq!(ranked[0], (EngineId::FirstMatch, 6));
/// assert_eq!(ranked[2], (EngineId::ClaudeCode, 3));
/// ```
pub fn agreement(design: Design, comparisons: &[Comparison]) -> Vec<(EngineId, usize)> {
    let own = design.order.engine();
    let mut counts: Vec<(EngineId, usize)> = EngineId::ALL
        .iter()
        .map(|&id| {
            let n = comparisons
                .iter()
                .filter(|c| c.agree().contains(&id))
                .count();
            (id, n)
        })
        .collect();
    // A stable sort keeps ALL order among equals; the design's own engine goes first of them.
    crate::sort::by_rank(&mut counts, |&(id, n)| {
        (u64::MAX - 2 * n as u64) - u64::from(id == own)
    });
    counts
}

/// The mode each real engine runs in for `session`, the nearest it has to the seed's session:
/// unattended → Claude Code `dontAsk` (anything that would prompt is denied) and CoreCoder
/// `-p`; read-only → Claude Code `plan` and CoreCoder's `/plan` (edits are not approved). A
/// read-only unattended session is Claude Code `dontAsk` (it has one mode at a time, and with
/// nobody there a `plan` prompt would wait forever) and CoreCoder `-p` with `/plan`.
/// First-match, OpenCode and Codex execpolicy have no session switch: `None`.
pub fn engine_modes(session: Session) -> Vec<(EngineId, Option<&'static str>)> {
    EngineId::ALL
        .iter()
        .map(|&id| {
            let mode = match id {
                EngineId::ClaudeCode if session.unattended => Some("dontAsk"),
                EngineId::ClaudeCode if session.readonly => Some("plan"),
                EngineId::CoreCoder => match (session.unattended, session.readonly) {
                    (true, true) => Some("-p + /plan"),
                    (true, false) => Some("-p"),
                    (false, true) => Some("/plan"),
                    (false, false) => None,
                },
                _ => None,
            };
            (id, mode)
        })
        .collect()
}

/// The real engines for `session` (see [`engine_modes`]).
fn real_engines(table: &RuleTable, session: Session) -> Vec<Box<dyn Engine>> {
    EngineId::ALL
        .iter()
        .map(|&id| match id {
            EngineId::ClaudeCode if session.unattended || session.readonly => {
                let mode = if session.unattended {
                    claude_code::Mode::DontAsk
                } else {
                    claude_code::Mode::Plan
                };
                Box::new(ClaudeCodeEngine::with(table, mode, lesson_context())) as Box<dyn Engine>
            }
            EngineId::CoreCoder => {
                let mode = if session.unattended {
                    corecoder::Mode::Print
                } else {
                    corecoder::Mode::Interactive
                };
                Box::new(
                    CoreCoderEngine::new(table)
                        .with_mode(mode)
                        .with_plan_mode(session.readonly),
                )
            }
            _ => engines::build(id, table),
        })
        .collect()
}

/// Runs `design` and every real engine over `calls` (each with whether its tool writes).
///
/// ```
/// use permlab_core::design::{compare, miniagent_writes, Design, Session};
/// use permlab_core::{Call, EngineId, RuleTable};
/// let t = RuleTable::from_json(include_str!("../../../fixtures/rulesets/miniagent-standard.json")).unwrap();
/// let call = Call::new("bash", "python -m unittest -v test_dateparse.py");
/// let c = &compare(Design::NAIVE, &t, &[(call, true)], Default::default())[0];
/// assert_eq!(c.agree(), [EngineId::FirstMatch]); // row #8 denies, as first-match does
/// ```
pub fn compare(
    design: Design,
    table: &RuleTable,
    calls: &[(Call, bool)],
    session: Session,
) -> Vec<Comparison> {
    let mine = DesignEngine::new(design, table);
    let real = real_engines(table, session);
    calls
        .iter()
        .map(|(call, writes)| {
            let evaluations: Vec<Evaluation> = real.iter().map(|e| e.evaluate(call)).collect();
            Comparison {
                design: mine.decide(call, session, *writes),
                engines: evaluations.iter().map(|e| (e.engine, e.decision)).collect(),
                evaluations,
            }
        })
        .collect()
}

impl Default for Session {
    fn default() -> Self {
        Session::ATTENDED
    }
}

/// How close a design is to a real harness by construction, and what sets it apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Likeness {
    /// The engine whose order the design uses.
    pub engine: EngineId,
    /// What the design does that this engine does not (slugs the widget words):
    /// `fallback-allow` / `fallback-deny` (the engine asks when nothing matches; Codex leaves it
    /// to its heuristics), `mode-stage` (Claude Code's `plan` mode is the nearest),
    /// `unattended-denies` (Claude Code's `dontAsk`, CoreCoder's `-p`), `no-unattended-deny`
    /// (asks would wait for nobody).
    pub differences: Vec<&'static str>,
}

/// The real engine the design is built like: the one with its order, and the pieces that
/// differ.
///
/// ```
/// use permlab_core::design::{likeness, Design};
/// use permlab_core::EngineId;
/// let l = likeness(Design::SEED_001);
/// assert_eq!(l.engine, EngineId::ClaudeCode);
/// assert_eq!(l.differences, ["mode-stage", "unattended-denies"]);
/// ```
pub fn likeness(design: Design) -> Likeness {
    let mut differences = Vec::new();
    match design.fallback {
        Action::Ask => {}
        Action::Allow => differences.push("fallback-allow"),
        Action::Deny => differences.push("fallback-deny"),
    }
    if design.mode_stage {
        differences.push("mode-stage");
    }
    if design.unattended_denies {
        differences.push("unattended-denies");
    }
    Likeness {
        engine: design.order.engine(),
        differences,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn miniagent() -> RuleTable {
        RuleTable::from_json(include_str!(
            "../../../fixtures/rulesets/miniagent-standard.json"
        ))
        .unwrap()
    }

    #[test]
    fn the_seed_fixture() {
        let a = TicketAgent::seed();
        let names: Vec<_> = a.tools.iter().map(|t| (t.name.as_str(), t.list)).collect();
        assert_eq!(
            names,
            [
                ("query_ticket", Action::Allow),
                ("search_kb", Action::Allow),
                ("reply_customer", Action::Ask),
                ("refund", Action::Ask),
                ("delete_ticket", Action::Deny),
            ]
        );
        assert_eq!(a.calls.iter().filter(|c| c.from_seed).count(), 1);
        assert_eq!(a.table().len(), 5);
    }

    #[test]
    fn the_seeds_decide_step_by_step() {
        let a = TicketAgent::seed();
        let e = DesignEngine::new(Design::SEED_001, &a.table());
        let run = |s: Session| -> Vec<(Decision, Stage)> {
            a.calls
                .iter()
                .map(|c| {
                    let v = e.decide(&c.call, s, c.writes);
                    (v.decision, v.stage)
                })
                .collect()
        };
        use Decision::*;
        // query, search, reply, refund, delete, escalate (on no list)
        assert_eq!(
            run(Session::ATTENDED),
            [
                (Allow, Stage::Rule(0)),
                (Allow, Stage::Rule(1)),
                (Ask, Stage::Rule(2)),
                (Ask, Stage::Rule(3)),
                (Deny, Stage::Rule(4)),
                (Ask, Stage::Fallback),
            ]
        );
        let readonly = Session {
            readonly: true,
            unattended: false,
        };
        assert_eq!(run(readonly)[5], (Ask, Stage::Fallback));
        let night = Session {
            readonly: false,
            unattended: true,
        };
        let d: Vec<_> = run(night).into_iter().map(|(d, _)| d).collect();
        assert_eq!(d, [Allow, Allow, Deny, Deny, Deny, Deny]);
        assert_eq!(run(night)[3].1, Stage::Unattended);
    }

    #[test]
    fn seed_steps() {
        let a = TicketAgent::seed();
        let t = a.table();
        let e = DesignEngine::new(Design::SEED_001, &t);
        let steps = |s: Session| -> Vec<Option<u8>> {
            a.calls
                .iter()
                .map(|c| {
                    e.decide(&c.call, s, c.writes)
                        .seed_step(Design::SEED_001, &t)
                })
                .collect()
        };
        let s = |v: [u8; 6]| v.map(Some).to_vec();
        assert_eq!(steps(Session::ATTENDED), s([4, 4, 2, 2, 1, 5]));
        let night = Session {
            readonly: false,
            unattended: true,
        };
        assert_eq!(steps(night), s([4, 4, 2, 2, 1, 5]));
        let naive = DesignEngine::new(Design::NAIVE, &t).decide(&a.calls[0].call, night, false);
        assert_eq!(naive.seed_step(Design::NAIVE, &t), None);
    }

    #[test]
    fn miniagent_calls_split_the_orders() {
        let t = miniagent();
        let verdicts = |order| -> Vec<Decision> {
            let e = DesignEngine::new(
                Design {
                    order,
                    ..Design::NAIVE
                },
                &t,
            );
            MINIAGENT_CALLS
                .iter()
                .map(|&(tool, input)| {
                    e.decide(
                        &Call::new(tool, input),
                        Session::ATTENDED,
                        miniagent_writes(tool),
                    )
                    .decision
                })
                .collect()
        };
        use Decision::*;
        assert_eq!(
            verdicts(Order::TopDown),
            [Deny, Deny, Deny, Allow, Allow, Allow]
        );
        assert_eq!(
            verdicts(Order::BottomUp),
            [Allow, Deny, Deny, Deny, Allow, Allow]
        );
        assert_eq!(
            verdicts(Order::Grouped),
            [Deny, Deny, Deny, Deny, Allow, Allow]
        );
        assert_eq!(verdicts(Order::Strictest), verdicts(Order::Grouped));
    }

    #[test]
    fn mode_stage_asks_allowed_writes() {
        let t = RuleTable::new([("refund", "*", Action::Allow)]);
        let call = Call::new("refund", "refund(order=A1, amount=300)");
        let ro = Session {
            readonly: true,
            unattended: false,
        };
        let with = DesignEngine::new(Design::SEED_001, &t).decide(&call, ro, true);
        assert_eq!((with.decision, with.stage), (Decision::Ask, Stage::Mode));
        assert!(with.asked_by_mode);
        let night = Session {
            readonly: true,
            unattended: true,
        };
        let both = DesignEngine::new(Design::SEED_001, &t).decide(&call, night, true);
        assert_eq!(
            (both.decision, both.stage),
            (Decision::Deny, Stage::Unattended)
        );
        assert!(both.asked_by_mode, "③ asked, then ask_or_deny denied");
        let without = DesignEngine::new(
            Design {
                mode_stage: false,
                ..Design::SEED_001
            },
            &t,
        )
        .decide(&call, ro, true);
        assert_eq!(without.decision, Decision::Allow);
    }

    #[test]
    fn each_order_agrees_with_its_engine_on_miniagent() {
        let t = miniagent();
        let calls: Vec<(Call, bool)> = [
            ("bash", "python -m unittest -v test_dateparse.py"),
            ("bash", "rm -rf /"),
            ("edit_file", "test_dateparse.py"),
            ("edit_file", "dateparse.py"),
            ("read_file", "README.md"),
        ]
        .into_iter()
        .map(|(tool, input)| (Call::new(tool, input), miniagent_writes(tool)))
        .collect();
        for (order, engine) in [
            (Order::TopDown, EngineId::FirstMatch),
            (Order::BottomUp, EngineId::OpenCode),
        ] {
            let d = Design {
                order,
                ..Design::NAIVE
            };
            for (c, (call, _)) in compare(d, &t, &calls, Session::ATTENDED).iter().zip(&calls) {
                // `rm -rf /` reaches outside the project: OpenCode's bash tool asks about `/*`
                // before any bash rule, which no order of one table models.
                if engine == EngineId::OpenCode && call.input == "rm -rf /" {
                    assert!(!c.agree().contains(&engine), "{order:?}: {c:?}");
                    continue;
                }
                assert!(c.agree().contains(&engine), "{order:?}: {c:?}");
            }
        }
        // Top-down and bottom-up disagree on the test command; grouped and strictest deny it.
        let verdicts: Vec<Decision> = Order::ALL
            .iter()
            .map(|&order| {
                DesignEngine::new(
                    Design {
                        order,
                        ..Design::NAIVE
                    },
                    &t,
                )
                .decide(&calls[0].0, Session::ATTENDED, true)
                .decision
            })
            .collect();
        assert_eq!(
            verdicts,
            [
                Decision::Deny,
                Decision::Allow,
                Decision::Deny,
                Decision::Deny
            ]
        );
    }

    #[test]
    fn ticket_agent_behaves_like() {
        // Claude Code and Codex do not know the ticket tools: Claude Code's rules name its own
        // tools (or `mcp__server__tool`), Codex's execpolicy only sees shell commands. Over this
        // table they ask for everything, so the seed's design matches first-match and OpenCode
        // call by call, and Claude Code only by construction ([`likeness`]).
        use EngineId::*;
        let a = TicketAgent::seed();
        let calls: Vec<(Call, bool)> = a.calls.iter().map(|c| (c.call.clone(), c.writes)).collect();
        let agree: Vec<Vec<EngineId>> =
            compare(Design::SEED_001, &a.table(), &calls, Session::ATTENDED)
                .iter()
                .map(Comparison::agree)
                .collect();
        let all = EngineId::ALL.to_vec();
        assert_eq!(
            agree,
            [
                vec![FirstMatch, OpenCode],
                vec![FirstMatch, OpenCode],
                all.clone(),
                all.clone(),
                vec![FirstMatch, OpenCode],
                all,
            ]
        );
    }

    #[test]
    fn unattended_compares_with_the_unattended_modes() {
        let a = TicketAgent::seed();
        let calls: Vec<(Call, bool)> = a.calls.iter().map(|c| (c.call.clone(), c.writes)).collect();
        let night = Session {
            readonly: false,
            unattended: true,
        };
        let cs = compare(Design::SEED_001, &a.table(), &calls, night);
        // refund: the design denies; Claude Code in dontAsk denies too, OpenCode would ask.
        let refund = &cs[3];
        assert_eq!(refund.design.decision, Decision::Deny);
        assert!(refund.agree().contains(&EngineId::ClaudeCode));
        assert!(refund
            .differ()
            .contains(&(EngineId::OpenCode, Decision::Ask)));
    }

    #[test]
    fn closest_and_agreement_follow_the_order_on_miniagent() {
        let t = miniagent();
        let calls: Vec<(Call, bool)> = MINIAGENT_CALLS
            .iter()
            .map(|&(tool, input)| (Call::new(tool, input), miniagent_writes(tool)))
            .collect();
        let bottom_up = Design {
            order: Order::BottomUp,
            ..Design::NAIVE
        };
        let cs = compare(bottom_up, &t, &calls, Session::ATTENDED);
        // The test command: bottom-up allows (row #9), as OpenCode does; first-match denies.
        assert_eq!(cs[0].design.decision, Decision::Allow);
        assert_eq!(cs[0].closest(bottom_up), Some(EngineId::OpenCode));
        assert!(cs[0]
            .differ()
            .contains(&(EngineId::FirstMatch, Decision::Deny)));
        // 5 of 6: on `rm -rf /` OpenCode asks about the outside directory first.
        assert_eq!(agreement(bottom_up, &cs)[0], (EngineId::OpenCode, 5));
        let top_down = Design {
            order: Order::TopDown,
            ..Design::NAIVE
        };
        let cs = compare(top_down, &t, &calls, Session::ATTENDED);
        assert_eq!(cs[0].closest(top_down), Some(EngineId::FirstMatch));
        assert_eq!(agreement(top_down, &cs)[0], (EngineId::FirstMatch, 6));
        // Each comparison carries the engines' reasons, in ALL order.
        let ids: Vec<EngineId> = cs[0].evaluations.iter().map(|e| e.engine).collect();
        assert_eq!(ids, EngineId::ALL);
        assert_eq!(
            cs[0].evaluation(EngineId::FirstMatch).unwrap().rule,
            Some(7)
        );
    }

    #[test]
    fn no_engine_agrees_with_a_fallback_deny_on_an_unlisted_tool() {
        let a = TicketAgent::seed();
        let d = Design {
            fallback: Action::Deny,
            ..Design::SEED_001
        };
        let calls: Vec<(Call, bool)> = a.calls.iter().map(|c| (c.call.clone(), c.writes)).collect();
        let cs = compare(d, &a.table(), &calls, Session::ATTENDED);
        // escalate_ticket is on no list: the design denies, every real engine asks.
        assert_eq!(cs[5].design.decision, Decision::Deny);
        assert_eq!(cs[5].closest(d), None);
        assert_eq!(cs[5].differ().len(), 5);
    }

    #[test]
    fn readonly_runs_the_engines_in_their_plan_modes() {
        let t = miniagent();
        let calls = [(Call::new("edit_file", "dateparse.py"), true)];
        let ro = Session {
            readonly: true,
            unattended: false,
        };
        let c = &compare(Design::SEED_001, &t, &calls, ro)[0];
        // The mode stage asks the allowed edit; Claude Code's plan mode asks it too, CoreCoder's
        // /plan refuses it; OpenCode has no session switch and allows it.
        assert_eq!(c.design.decision, Decision::Ask);
        assert_eq!(c.design.stage, Stage::Mode);
        let by = |id| c.engines.iter().find(|(e, _)| *e == id).unwrap().1;
        assert_eq!(by(EngineId::ClaudeCode), Decision::Ask);
        assert_eq!(by(EngineId::CoreCoder), Decision::Deny);
        assert_eq!(by(EngineId::OpenCode), Decision::Allow);
        assert_eq!(c.closest(Design::SEED_001), Some(EngineId::ClaudeCode));
        let modes = engine_modes(ro);
        assert_eq!(modes[2], (EngineId::ClaudeCode, Some("plan")));
        assert_eq!(modes[3], (EngineId::CoreCoder, Some("/plan")));
        let night = Session {
            readonly: true,
            unattended: true,
        };
        assert_eq!(engine_modes(night)[2].1, Some("dontAsk"));
        assert_eq!(engine_modes(Session::ATTENDED)[2].1, None);
    }
}
