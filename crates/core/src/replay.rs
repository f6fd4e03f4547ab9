//! Replaying a run's calls through every engine and mode: how often each would allow, ask, deny
//! or not even offer the tool, and on which calls the engines part ways.
//!
//! This is the seed's "139 次工具调用，在 CoreCoder 交互模式下有 74 次要停下来问 (53%)" kind of
//! figure, computed for any trace ([`crate::trace`]) and any rule table. Each engine is
//! compiled once ([`engines::build_all`], plus one compiled policy per extra mode) and then
//! asked only for its verdict ([`Engine::decide`]), so 10 000 calls take milliseconds.
//!
//! The lanes, in order: every [`EngineId`] as [`engines::build`] makes it (the lesson's
//! defaults: Claude Code in `default` mode, CoreCoder interactive), and right after Claude Code
//! and CoreCoder their other modes ([`claude_code::Mode`], `claude-code.md` §7;
//! [`corecoder::Mode`], `corecoder.md` §4). Claude Code's `auto` mode counts a call left to its
//! classifier as `ask` (a reviewer decides; see [`claude_code::Outcome`]).
//!
//! A call is a **disagreement** when the default-mode engines do not all give the same
//! [`Decision`]; `unavailable` (the tool was never offered) counts as different from `deny`.
//!
//! ```
//! use permlab_core::{Call, Decision, EngineId, RuleTable, replay::replay};
//! let table = RuleTable::from_json(include_str!("../../../fixtures/rulesets/miniagent-standard.json")).unwrap();
//! let calls = [Call::new("read_file", "a.py"), Call::new("bash", "python -m unittest")];
//! let r = replay(&table, &calls);
//! let cc = r.lane(EngineId::CoreCoder, Some("interactive")).unwrap();
//! assert_eq!((cc.tally.ask, cc.tally.percent(Decision::Ask)), (1, 50));
//! // Reading a.py: Codex asks (execpolicy only sees commands), the others allow.
//! assert_eq!(r.disagreements[0].verdicts.iter().filter(|v| v.0 == Decision::Allow).count(), 4);
//! assert_eq!(r.disagreements.len(), 2);
//! ```

use crate::claude_code::{self, table::lesson_context, ClaudeCodeEngine};
use crate::corecoder::{self, CoreCoderEngine};
use crate::engines;
use crate::evaluation::{Decision, Engine, EngineId};
use crate::table::{Call, RuleTable};

/// How many calls got each decision.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Ran without asking.
    pub allow: usize,
    /// A human (or auto mode's classifier) is asked.
    pub ask: usize,
    /// Refused.
    pub deny: usize,
    /// The tool was never offered to the model (Claude Code's bare deny).
    pub unavailable: usize,
}

impl Tally {
    /// Counts one decision.
    pub fn add(&mut self, d: Decision) {
        *self.get_mut(d) += 1;
    }

    fn get_mut(&mut self, d: Decision) -> &mut usize {
        match d {
            Decision::Allow => &mut self.allow,
            Decision::Ask => &mut self.ask,
            Decision::Deny => &mut self.deny,
            Decision::Unavailable => &mut self.unavailable,
        }
    }

    /// The count for `d`.
    pub fn get(&self, d: Decision) -> usize {
        match d {
            Decision::Allow => self.allow,
            Decision::Ask => self.ask,
            Decision::Deny => self.deny,
            Decision::Unavailable => self.unavailable,
        }
    }

    /// Every call counted.
    pub fn total(&self) -> usize {
        self.allow + self.ask + self.deny + self.unavailable
    }

    /// The share of `d`, 0.0 to 1.0 (0.0 when nothing was counted).
    pub fn share(&self, d: Decision) -> f64 {
        match self.total() {
            0 => 0.0,
            t => self.get(d) as f64 / t as f64,
        }
    }

    /// The share of `d` in whole percent, rounded half up, as the seed writes it (74 of 139 →
    /// 53).
    pub fn percent(&self, d: Decision) -> u32 {
        percent(self.get(d), self.total())
    }
}

/// `n` of `of` in whole percent, rounded half up; 0 when `of` is 0.
///
/// ```
/// assert_eq!(permlab_core::replay::percent(74, 139), 53);
/// assert_eq!(permlab_core::replay::percent(1, 8), 13); // 12.5 rounds up
/// ```
pub fn percent(n: usize, of: usize) -> u32 {
    if of == 0 {
        return 0;
    }
    ((n as u128 * 200 + of as u128) / (of as u128 * 2)) as u32
}

/// The decisions in display order.
pub const DECISIONS: [Decision; 4] = [
    Decision::Allow,
    Decision::Ask,
    Decision::Deny,
    Decision::Unavailable,
];

/// One engine in one mode, and its tally over the trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lane {
    /// The engine.
    pub engine: EngineId,
    /// The mode's slug (`default`, `acceptEdits`…; `interactive`, `print`…), `None` for engines
    /// without modes.
    pub mode: Option<&'static str>,
    /// Whether this is the engine as [`engines::build`] makes it (the lesson's default mode):
    /// the lanes compared for disagreements.
    pub primary: bool,
    /// Its decisions over every call.
    pub tally: Tally,
}

/// A call the default-mode engines decide differently.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The call's position (0-based) in the replayed list.
    pub index: usize,
    /// The call.
    pub call: Call,
    /// Each engine's decision and decisive row, in [`Replay::engines`] order.
    pub verdicts: Vec<(Decision, Option<usize>)>,
}

/// The result of a replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// How many calls were replayed.
    pub calls: usize,
    /// The engines compared for disagreements, in order.
    pub engines: Vec<EngineId>,
    /// Every engine and mode with its tally (see the module docs for the order).
    pub lanes: Vec<Lane>,
    /// The calls where the default-mode engines disagree, in call order.
    pub disagreements: Vec<Disagreement>,
}

impl Replay {
    /// The lane of `engine` in `mode` (`None` for an engine without modes).
    pub fn lane(&self, engine: EngineId, mode: Option<&str>) -> Option<&Lane> {
        self.lanes
            .iter()
            .find(|l| l.engine == engine && l.mode == mode)
    }

    /// The disagreements among `among` only (each a subset of [`Replay::disagreements`]: a
    /// call the subset splits on is one every engine splits on). The replay scene counts
    /// among [`TABLE_READERS`], because CoreCoder ignores the rules and Codex's prefix rules
    /// express few of a wildcard table's rows: with them every call "disagrees", which says
    /// nothing about the table.
    ///
    /// ```
    /// use permlab_core::{Call, EngineId, RuleTable, replay::{replay, TABLE_READERS}};
    /// let table = RuleTable::from_json(include_str!("../../../fixtures/rulesets/miniagent-standard.json")).unwrap();
    /// let r = replay(&table, &[Call::new("read_file", "a.py"), Call::new("bash", "python -m unittest")]);
    /// assert_eq!(r.disagreements.len(), 2);
    /// let among: Vec<_> = r.disagreements_among(&TABLE_READERS).iter().map(|d| d.index).collect();
    /// assert_eq!(among, [1]); // reading a.py: the three table readers all allow
    /// ```
    pub fn disagreements_among(&self, among: &[EngineId]) -> Vec<&Disagreement> {
        let at: Vec<usize> = among
            .iter()
            .filter_map(|e| self.engines.iter().position(|x| x == e))
            .collect();
        self.disagreements
            .iter()
            .filter(|d| {
                let mut vs = at.iter().filter_map(|&k| d.verdicts.get(k)).map(|v| v.0);
                vs.next().is_some_and(|first| vs.any(|v| v != first))
            })
            .collect()
    }
}

/// The engines that decide from the table's allow / ask / deny rows as written (wildcards and
/// all): first-match, OpenCode, Claude Code. CoreCoder ignores the rules; Codex reads only
/// the rows it can translate into prefix rules (see [`crate::codex::CodexEngine::untranslatable`]).
pub const TABLE_READERS: [EngineId; 3] = [
    EngineId::FirstMatch,
    EngineId::OpenCode,
    EngineId::ClaudeCode,
];

/// The lanes' modes: the default first (built by [`engines::build`]), then the others.
fn modes(id: EngineId) -> Vec<&'static str> {
    match id {
        EngineId::ClaudeCode => claude_code::Mode::ALL.map(|m| m.as_str()).to_vec(),
        EngineId::CoreCoder => corecoder::Mode::ALL.map(|m| m.slug()).to_vec(),
        _ => Vec::new(),
    }
}

fn build_mode(id: EngineId, mode: &str, table: &RuleTable) -> Option<Box<dyn Engine>> {
    match id {
        EngineId::ClaudeCode => claude_code::Mode::parse(mode).map(|m| {
            Box::new(ClaudeCodeEngine::with(table, m, lesson_context())) as Box<dyn Engine>
        }),
        EngineId::CoreCoder => corecoder::Mode::from_slug(mode)
            .map(|m| Box::new(CoreCoderEngine::new(table).with_mode(m)) as Box<dyn Engine>),
        _ => None,
    }
}

/// A replay fed one call at a time: the lanes' tallies grow with each call, and nothing of the
/// calls is kept, so a trace of millions of calls can be streamed through it (the CLI's
/// `replay` lists the disagreements in a second pass, [`Replayer::verdicts`], instead of
/// holding them all).
///
/// ```
/// use permlab_core::{Call, EngineId, RuleTable, replay::Replayer};
/// let table = RuleTable::from_json(include_str!("../../../fixtures/rulesets/miniagent-standard.json")).unwrap();
/// let mut r = Replayer::new(&table);
/// assert!(r.add(&Call::new("read_file", "a.py")).is_some()); // Codex asks, the others allow
/// assert_eq!(r.calls(), 1);
/// assert_eq!(r.lanes()[0].engine, EngineId::FirstMatch);
/// ```
pub struct Replayer {
    ids: Vec<EngineId>,
    primary: Vec<Box<dyn Engine>>,
    extra: Vec<(EngineId, &'static str, Box<dyn Engine>)>,
    lanes: Vec<Lane>,
    /// Per lane: (primary index, extra index).
    order: Vec<(usize, Option<usize>)>,
    calls: usize,
    verdicts: Vec<(Decision, Option<usize>)>,
}

impl Replayer {
    /// Compiles every engine and mode over `table` (see the module docs for the lanes).
    pub fn new(table: &RuleTable) -> Self {
        let ids = EngineId::ALL.to_vec();
        let primary = engines::build_all(&ids, table);
        let mut extra: Vec<(EngineId, &'static str, Box<dyn Engine>)> = Vec::new();
        for &id in &ids {
            for &mode in modes(id).iter().skip(1) {
                if let Some(e) = build_mode(id, mode, table) {
                    extra.push((id, mode, e));
                }
            }
        }
        let mut lanes: Vec<Lane> = Vec::new();
        let mut order: Vec<(usize, Option<usize>)> = Vec::new();
        for (k, &id) in ids.iter().enumerate() {
            let ms = modes(id);
            lanes.push(Lane {
                engine: id,
                mode: ms.first().copied(),
                primary: true,
                tally: Tally::default(),
            });
            order.push((k, None));
            for (j, (eid, mode, _)) in extra.iter().enumerate() {
                if *eid == id {
                    lanes.push(Lane {
                        engine: id,
                        mode: Some(mode),
                        primary: false,
                        tally: Tally::default(),
                    });
                    order.push((k, Some(j)));
                }
            }
        }
        Replayer {
            verdicts: Vec::with_capacity(ids.len()),
            ids,
            primary,
            extra,
            lanes,
            order,
            calls: 0,
        }
    }

    /// Counts `call` in every lane; when the default-mode engines disagree on it, their
    /// verdicts (decision and decisive row), in [`Replayer::engines`] order.
    pub fn add(&mut self, call: &Call) -> Option<&[(Decision, Option<usize>)]> {
        self.calls += 1;
        self.verdicts.clear();
        self.verdicts
            .extend(self.primary.iter().map(|e| e.decide(call)));
        for (lane, &(k, j)) in self.lanes.iter_mut().zip(&self.order) {
            let d = match j {
                None => self.verdicts[k].0,
                Some(j) => self.extra[j].2.decide(call).0,
            };
            lane.tally.add(d);
        }
        self.verdicts
            .windows(2)
            .any(|w| w[0].0 != w[1].0)
            .then_some(self.verdicts.as_slice())
    }

    /// The default-mode engines' verdicts on `call`, without counting it.
    pub fn verdicts(&self, call: &Call) -> Vec<(Decision, Option<usize>)> {
        self.primary.iter().map(|e| e.decide(call)).collect()
    }

    /// How many calls were counted.
    pub fn calls(&self) -> usize {
        self.calls
    }

    /// The engines compared for disagreements, in order.
    pub fn engines(&self) -> &[EngineId] {
        &self.ids
    }

    /// Every engine and mode with its tally so far.
    pub fn lanes(&self) -> &[Lane] {
        &self.lanes
    }
}

/// Replays `calls` through every engine and mode over `table`.
pub fn replay(table: &RuleTable, calls: &[Call]) -> Replay {
    let mut r = Replayer::new(table);
    let mut disagreements = Vec::new();
    for (index, call) in calls.iter().enumerate() {
        if let Some(verdicts) = r.add(call) {
            disagreements.push(Disagreement {
                index,
                call: call.clone(),
                verdicts: verdicts.to_vec(),
            });
        }
    }
    Replay {
        calls: r.calls,
        engines: r.ids,
        lanes: r.lanes,
        disagreements,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standard() -> RuleTable {
        RuleTable::from_json(include_str!(
            "../../../fixtures/rulesets/miniagent-standard.json"
        ))
        .unwrap()
    }

    #[test]
    fn lanes_in_order() {
        let r = replay(&standard(), &[]);
        let got: Vec<_> = r
            .lanes
            .iter()
            .map(|l| (l.engine.slug(), l.mode, l.primary))
            .collect();
        assert_eq!(
            got,
            [
                ("first-match", None, true),
                ("opencode", None, true),
                ("claude-code", Some("default"), true),
                ("claude-code", Some("acceptEdits"), false),
                ("claude-code", Some("plan"), false),
                ("claude-code", Some("auto"), false),
                ("claude-code", Some("dontAsk"), false),
                ("claude-code", Some("bypassPermissions"), false),
                ("corecoder", Some("interactive"), true),
                ("corecoder", Some("print"), false),
                ("corecoder", Some("yes"), false),
                ("corecoder", Some("print+yes"), false),
                ("codex", None, true),
            ]
        );
        assert!(r.lanes.iter().all(|l| l.tally.total() == 0));
        assert_eq!(r.lanes[0].tally.percent(Decision::Ask), 0);
    }

    #[test]
    fn seed_table_tallies() {
        let calls = [
            Call::new("read_file", "dateparse.py"),
            Call::new("edit_file", "dateparse.py"),
            Call::new("edit_file", "test_dateparse.py"),
            Call::new("bash", "python -m unittest -v test_dateparse.py"),
            Call::new("bash", "rm -rf /"),
            Call::new("list_dir", "."),
        ];
        let r = replay(&standard(), &calls);
        let t = |e, m| r.lane(e, m).unwrap().tally;
        let tally = |allow, ask, deny, unavailable| Tally {
            allow,
            ask,
            deny,
            unavailable,
        };
        assert_eq!(t(EngineId::FirstMatch, None), tally(4, 0, 2, 0)); // `edit_file *` first: test edits pass
                                                                      // OpenCode's bash tool asks about the outside directory of `rm -rf /` (`/*`) before
                                                                      // any `bash` rule: no row answers `external_directory`, so it asks.
        assert_eq!(t(EngineId::OpenCode, None), tally(4, 1, 1, 0));
        assert_eq!(t(EngineId::ClaudeCode, Some("default")), tally(3, 0, 1, 2));
        assert_eq!(
            t(EngineId::CoreCoder, Some("interactive")),
            tally(1, 5, 0, 0)
        );
        assert_eq!(t(EngineId::CoreCoder, Some("print")), tally(1, 0, 5, 0));
        assert_eq!(t(EngineId::CoreCoder, Some("yes")), tally(6, 0, 0, 0));
        // Every call is decided differently by someone.
        assert_eq!(r.disagreements.len(), 6);
        let d = &r.disagreements[3];
        assert_eq!(d.index, 3);
        assert_eq!(
            d.verdicts,
            [
                (Decision::Deny, Some(7)),
                (Decision::Allow, Some(8)),
                (Decision::Unavailable, Some(7)),
                (Decision::Ask, None),
                (Decision::Ask, None),
            ]
        );
    }

    #[test]
    fn agreeing_calls_are_not_listed() {
        let t = RuleTable::new([("bash", "*", crate::Action::Ask)]);
        let r = replay(&t, &[Call::new("bash", "ls -la")]);
        // first-match, OpenCode, Claude Code (ask rule), CoreCoder and Codex (prefix `*`? no:
        // Codex cannot express `*`, so it asks by default) all ask.
        assert!(r.disagreements.is_empty(), "{:?}", r.disagreements);
    }

    #[test]
    fn ten_thousand_calls() {
        let calls: Vec<Call> = (0..10_000)
            .map(|i| match i % 4 {
                0 => Call::new("bash", format!("git log -n {i}")),
                1 => Call::new("read_file", format!("src/f{i}.py")),
                2 => Call::new("edit_file", format!("test_{i}.py")),
                _ => Call::new("grep", "TODO"),
            })
            .collect();
        let r = replay(&standard(), &calls);
        assert!(r.lanes.iter().all(|l| l.tally.total() == 10_000));
        assert_eq!(
            r.lane(EngineId::CoreCoder, Some("interactive"))
                .unwrap()
                .tally
                .ask,
            5_000
        );
    }
}
