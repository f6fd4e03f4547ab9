//! Seed 000's timeline, "权限设计的演进": six permission designs, each pushed out by a real number
//! of the one before — with those numbers computed here wherever a ported algorithm can compute
//! them, next to the figure the seed states.
//!
//! | Stage ([`StageId`]) | The seed's claim | Computed here |
//! |---|---|---|
//! | `no-gate` | all 6 intentionally dangerous commands run | 6 of 6 (an empty blacklist) |
//! | `blacklist` | lcc s03 misses 4 of 6 dangerous, wrongly blocks 2 of 5 everyday | lcc: 4 of 6, **1 of 4**; CoreCoder: 3 of 6, 0 of 4 |
//! | `ask-every-time` | 74 of 139 calls ask under CoreCoder interactive (53 %); ~93 % approved | not here: needs the 26 runs ([`crate::replay`] computes it for any trace) |
//! | `rules` | first-match denies `python -m unittest -v test_dateparse.py` by #8 | first-match over the given table |
//! | `layered-model-approval` | the auto classifier misses 17 % (n = 52) | not computable (Anthropic's own report) |
//! | `sandbox` | the `shutil.rmtree` one-liner passes 4 of 4 blacklists | [`timeline`]: 2 of 2 (lcc, CoreCoder); [`timeline_with_pi`]: 4 of 4 (lcc s01, s03, CoreCoder, Pi) |
//!
//! [`timeline_with_pi`] also runs Pi's `permission-gate.ts` ([`Gate::Pi`], [`crate::pi_gate`])
//! in the `blacklist` stage: it misses 3 of 6 and wrongly blocks 0 of 4.
//!
//! The dangerous and everyday lists are the course's, kept once in [`crate::lcc`]
//! ([`COURSE_DANGEROUS`], [`COURSE_EVERYDAY`]). The course never lists its five everyday
//! commands; only four are known (`lcc.md` §5), and on them lcc wrongly blocks one
//! (`cat sudoku_solver.py`), not two. That is why the `blacklist` stage's second figure
//! [differs](Figure::differs): the page shows the computed one and says so.
//!
//! Both real blacklists run live: lcc's gate 1 ([`crate::lcc::gate1`], s01 and s03 share it)
//! reports every substring it finds; CoreCoder's `_check_dangerous`
//! ([`crate::corecoder::check_dangerous`]) reports the first regex that matches. A blacklist
//! only answers "blocked" or "runs": the stage is about what it misses, not about asking.
//!
//! Prose (zh/en) lives in the widget; this module holds slugs, numbers and commands.
//!
//! ```
//! use permlab_core::timeline::{screen_lists, Gate};
//! let lcc = screen_lists(Gate::Lcc);
//! assert_eq!(lcc.missed().count(), 4);
//! let fp: Vec<_> = lcc.wrongly_blocked().map(|s| (s.command, s.hits[0].entry)).collect();
//! assert_eq!(fp, [("cat sudoku_solver.py", "sudo")]);
//! ```

use crate::corecoder::{check_dangerous, DANGEROUS_PATTERNS};
use crate::engines;
use crate::evaluation::{Decision, EngineId};
use crate::lcc::{self, COURSE_DANGEROUS, COURSE_EVERYDAY};
use crate::table::{Call, RuleTable};

/// The six designs of the timeline, in the seed's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StageId {
    /// 起点: no gate, whatever the model sends runs.
    NoGate,
    /// 朴素: a substring or regex blacklist.
    Blacklist,
    /// 第一代: ask a human every time.
    AskEveryTime,
    /// 第二代: allow / ask / deny rules.
    Rules,
    /// 第三代: layered approval plus a model reviewer.
    LayeredModelApproval,
    /// 下一章: rules layered with an OS sandbox.
    Sandbox,
}

impl StageId {
    /// Every stage, in the seed's order.
    pub const ALL: [StageId; 6] = [
        StageId::NoGate,
        StageId::Blacklist,
        StageId::AskEveryTime,
        StageId::Rules,
        StageId::LayeredModelApproval,
        StageId::Sandbox,
    ];

    /// The stable slug (`no-gate`, `blacklist`, `ask-every-time`, `rules`,
    /// `layered-model-approval`, `sandbox`).
    pub fn slug(self) -> &'static str {
        match self {
            StageId::NoGate => "no-gate",
            StageId::Blacklist => "blacklist",
            StageId::AskEveryTime => "ask-every-time",
            StageId::Rules => "rules",
            StageId::LayeredModelApproval => "layered-model-approval",
            StageId::Sandbox => "sandbox",
        }
    }
}

/// A blacklist the timeline runs (or none at all, the first stage).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gate {
    /// No gate: nothing is ever blocked.
    None,
    /// learn-claude-code's gate 1, [`lcc::BLACKLIST`] (identical in s01 and s03).
    Lcc,
    /// CoreCoder 0.7.0's `_DANGEROUS_PATTERNS`.
    CoreCoder,
    /// Pi's `permission-gate.ts` extension ([`crate::pi_gate`]): a match asks (blocks without a
    /// UI); here "caught" means it does not run unseen.
    Pi,
}

impl Gate {
    /// Both real blacklists, lcc first (the seed's order).
    pub const REAL: [Gate; 2] = [Gate::Lcc, Gate::CoreCoder];

    /// The three ported blacklists, in the seed's order (lcc, CoreCoder, Pi). [`Gate::REAL`]
    /// stays the first two for the callers that predate Pi's port.
    pub const PORTED: [Gate; 3] = [Gate::Lcc, Gate::CoreCoder, Gate::Pi];

    /// `none`, `lcc`, `corecoder`, `pi`.
    pub fn slug(self) -> &'static str {
        match self {
            Gate::None => "none",
            Gate::Lcc => "lcc",
            Gate::CoreCoder => "corecoder",
            Gate::Pi => "pi",
        }
    }
}

/// The four blacklists seed 000 names in its `blacklist` stage ("lcc s01 / s03、CoreCoder bash
/// 正则、Pi permission-gate"), each with the gate that runs it: s01 and s03 share gate 1, so lcc
/// runs twice. The `sandbox` stage's "4 of 4" counts over these.
pub const SEED_BLACKLISTS: [(&str, Gate); 4] = [
    ("lcc-s01", Gate::Lcc),
    ("lcc-s03", Gate::Lcc),
    ("corecoder", Gate::CoreCoder),
    ("pi", Gate::Pi),
];

/// One blacklist entry that caught a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Its position (0-based) in the blacklist.
    pub index: usize,
    /// The entry as written: lcc's substring, CoreCoder's Python regex, or Pi's JavaScript regex
    /// source.
    pub entry: &'static str,
    /// CoreCoder's reason for the pattern (`None` for lcc and Pi, which give one message for
    /// all).
    pub reason: Option<&'static str>,
}

/// One command run through one blacklist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Screened {
    /// The command.
    pub command: &'static str,
    /// What caught it: every lcc entry it contains (in list order), or CoreCoder's first
    /// matching pattern. Empty: the command runs.
    pub hits: Vec<Hit>,
}

impl Screened {
    /// Whether the blacklist refuses the command.
    pub fn blocked(&self) -> bool {
        !self.hits.is_empty()
    }
}

/// What `gate` catches in `command`.
///
/// ```
/// use permlab_core::timeline::{screen, Gate};
/// assert_eq!(screen(Gate::CoreCoder, "rm -fr /")[0].index, 1); // misses #1, hits #2
/// assert!(screen(Gate::None, "rm -rf /").is_empty());
/// ```
pub fn screen(gate: Gate, command: &str) -> Vec<Hit> {
    match gate {
        Gate::None => Vec::new(),
        Gate::Lcc => lcc::gate1(&lcc::BLACKLIST, command)
            .matched
            .into_iter()
            .filter_map(|entry| {
                let index = lcc::BLACKLIST.iter().position(|e| *e == entry)?;
                Some(Hit {
                    index,
                    entry: lcc::BLACKLIST[index],
                    reason: None,
                })
            })
            .collect(),
        Gate::CoreCoder => check_dangerous(command)
            .map(|hit| Hit {
                index: hit.index,
                entry: DANGEROUS_PATTERNS[hit.index].regex,
                reason: Some(hit.reason),
            })
            .into_iter()
            .collect(),
        Gate::Pi => crate::pi_gate::dangerous(command)
            .map(|index| Hit {
                index,
                entry: crate::pi_gate::PATTERNS[index].source,
                reason: None,
            })
            .into_iter()
            .collect(),
    }
}

/// A blacklist over the course's dangerous and everyday lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GateTally {
    /// Which blacklist.
    pub gate: Gate,
    /// [`COURSE_DANGEROUS`], in order, each with what caught it.
    pub dangerous: Vec<Screened>,
    /// [`COURSE_EVERYDAY`], in order, each with what caught it.
    pub everyday: Vec<Screened>,
}

impl GateTally {
    /// Dangerous commands the blacklist lets through ("漏拦").
    pub fn missed(&self) -> impl Iterator<Item = &Screened> {
        self.dangerous.iter().filter(|s| !s.blocked())
    }

    /// Everyday commands it refuses ("误拦"), each with the entry responsible.
    pub fn wrongly_blocked(&self) -> impl Iterator<Item = &Screened> {
        self.everyday.iter().filter(|s| s.blocked())
    }
}

/// Runs `gate` over the course's dangerous and everyday lists.
pub fn screen_lists(gate: Gate) -> GateTally {
    let run = |list: &[&'static str]| {
        list.iter()
            .map(|&command| Screened {
                command,
                hits: screen(gate, command),
            })
            .collect()
    };
    GateTally {
        gate,
        dangerous: run(&COURSE_DANGEROUS),
        everyday: run(&COURSE_EVERYDAY),
    }
}

/// A number as the seed states it or as permlab computes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Amount {
    /// `n` of `of` (commands, calls, blacklists).
    Count {
        /// How many.
        n: usize,
        /// Out of how many.
        of: usize,
    },
    /// A percentage the source gives without its counts, with the sample size if stated.
    Percent {
        /// Whole percent.
        percent: u32,
        /// The sample size (`n = 52`), if stated.
        sample: Option<usize>,
    },
    /// One call's verdict under one engine, and the deciding row (0-based; the seed's `#8` is
    /// row 7).
    Verdict {
        /// The verdict.
        decision: Decision,
        /// The deciding row.
        row: Option<usize>,
    },
}

/// One figure of a stage: the seed's claim, the computed value, and why one may be missing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Figure {
    /// What is counted (`lcc-missed`, `lcc-wrongly-blocked`, `corecoder-asks`…).
    pub slug: &'static str,
    /// What the seed says, if it says it.
    pub claimed: Option<Amount>,
    /// What the ported algorithm gives, if it can be computed here.
    pub computed: Option<Amount>,
    /// Why the two may not line up, as a slug the widget words (`only-four-everyday-known`,
    /// `needs-the-26-runs`, `self-reported`, `pi-not-ported`).
    pub note: Option<&'static str>,
}

impl Figure {
    /// Both exist and differ: the page shows the computed one and says so.
    pub fn differs(&self) -> bool {
        matches!((self.claimed, self.computed), (Some(a), Some(b)) if a != b)
    }
}

/// One stage of the timeline with its figures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stage {
    /// Which stage.
    pub id: StageId,
    /// Its figures (possibly none).
    pub figures: Vec<Figure>,
}

/// The command the `rules` stage is about (run `pd-firstmatch-s1`, round 2).
pub const RULES_STAGE_CALL: (&str, &str) = ("bash", "python -m unittest -v test_dateparse.py");

/// The `shutil.rmtree` one-liner of the `sandbox` stage: every blacklist lets it run.
pub const RMTREE: &str = COURSE_DANGEROUS[2];

/// The seed's own figures, with what permlab computes next to each. `standard` is the table
/// the `rules` stage evaluates: miniagent's `rules-standard.json`
/// (`fixtures/rulesets/miniagent-standard.json`).
///
/// ```
/// use permlab_core::{RuleTable, timeline::{timeline, StageId}};
/// let t = RuleTable::from_json(include_str!("../../../fixtures/rulesets/miniagent-standard.json")).unwrap();
/// let stages = timeline(&t);
/// assert_eq!(stages.iter().map(|s| s.id).collect::<Vec<_>>(), StageId::ALL);
/// let differing: Vec<_> = stages.iter().flat_map(|s| &s.figures).filter(|f| f.differs()).map(|f| f.slug).collect();
/// assert_eq!(differing, ["lcc-wrongly-blocked", "rmtree-passes"]);
/// ```
pub fn timeline(standard: &RuleTable) -> Vec<Stage> {
    stages(standard, false)
}

/// [`timeline`] with Pi's gate ported: the `blacklist` stage gains `pi-missed` and
/// `pi-wrongly-blocked`, and the `sandbox` stage's `rmtree-passes` counts over the seed's four
/// blacklists ([`SEED_BLACKLISTS`]) — 4 of 4, as the seed says, with no note.
///
/// ```
/// use permlab_core::{RuleTable, timeline::{timeline_with_pi, Amount}};
/// let t = RuleTable::from_json(include_str!("../../../fixtures/rulesets/miniagent-standard.json")).unwrap();
/// let stages = timeline_with_pi(&t);
/// let f = |slug: &str| stages.iter().flat_map(|s| &s.figures).find(|f| f.slug == slug).unwrap().clone();
/// assert_eq!(f("rmtree-passes").computed, Some(Amount::Count { n: 4, of: 4 }));
/// assert_eq!(f("rmtree-passes").note, None);
/// assert_eq!(f("pi-missed").computed, Some(Amount::Count { n: 3, of: 6 }));
/// let differing: Vec<_> = stages.iter().flat_map(|s| &s.figures).filter(|f| f.differs()).map(|f| f.slug).collect();
/// assert_eq!(differing, ["lcc-wrongly-blocked"]);
/// ```
pub fn timeline_with_pi(standard: &RuleTable) -> Vec<Stage> {
    stages(standard, true)
}

fn stages(standard: &RuleTable, with_pi: bool) -> Vec<Stage> {
    let count = |n: usize, of: usize| Some(Amount::Count { n, of });
    let none = screen_lists(Gate::None);
    let lcc = screen_lists(Gate::Lcc);
    let cc = screen_lists(Gate::CoreCoder);
    let pi = screen_lists(Gate::Pi);
    let figure = |slug, claimed, computed, note| Figure {
        slug,
        claimed,
        computed,
        note,
    };
    let (tool, input) = RULES_STAGE_CALL;
    let (decision, row) =
        engines::build(EngineId::FirstMatch, standard).decide(&Call::new(tool, input));
    let rmtree_passes = Gate::REAL
        .iter()
        .filter(|&&g| screen(g, RMTREE).is_empty())
        .count();
    let rmtree_passes_seed = SEED_BLACKLISTS
        .iter()
        .filter(|&&(_, g)| screen(g, RMTREE).is_empty())
        .count();
    StageId::ALL
        .into_iter()
        .map(|id| {
            let figures = match id {
                StageId::NoGate => vec![figure(
                    "dangerous-run",
                    count(6, 6),
                    count(none.missed().count(), none.dangerous.len()),
                    None,
                )],
                StageId::Blacklist => {
                    let mut v = vec![
                        figure(
                            "lcc-missed",
                            count(4, 6),
                            count(lcc.missed().count(), lcc.dangerous.len()),
                            None,
                        ),
                        figure(
                            "lcc-wrongly-blocked",
                            count(2, 5),
                            count(lcc.wrongly_blocked().count(), lcc.everyday.len()),
                            Some("only-four-everyday-known"),
                        ),
                        figure(
                            "corecoder-missed",
                            None,
                            count(cc.missed().count(), cc.dangerous.len()),
                            None,
                        ),
                        figure(
                            "corecoder-wrongly-blocked",
                            None,
                            count(cc.wrongly_blocked().count(), cc.everyday.len()),
                            None,
                        ),
                    ];
                    if with_pi {
                        v.push(figure(
                            "pi-missed",
                            None,
                            count(pi.missed().count(), pi.dangerous.len()),
                            None,
                        ));
                        v.push(figure(
                            "pi-wrongly-blocked",
                            None,
                            count(pi.wrongly_blocked().count(), pi.everyday.len()),
                            None,
                        ));
                    }
                    v
                }
                StageId::AskEveryTime => vec![
                    figure(
                        "corecoder-asks",
                        count(74, 139),
                        None,
                        Some("needs-the-26-runs"),
                    ),
                    figure(
                        "prompts-approved",
                        Some(Amount::Percent {
                            percent: 93,
                            sample: None,
                        }),
                        None,
                        Some("self-reported"),
                    ),
                ],
                StageId::Rules => vec![figure(
                    "first-match-denies-tests",
                    Some(Amount::Verdict {
                        decision: Decision::Deny,
                        row: Some(7),
                    }),
                    Some(Amount::Verdict { decision, row }),
                    None,
                )],
                StageId::LayeredModelApproval => vec![figure(
                    "classifier-misses",
                    Some(Amount::Percent {
                        percent: 17,
                        sample: Some(52),
                    }),
                    None,
                    Some("self-reported"),
                )],
                StageId::Sandbox if with_pi => vec![figure(
                    "rmtree-passes",
                    count(4, 4),
                    count(rmtree_passes_seed, SEED_BLACKLISTS.len()),
                    None,
                )],
                StageId::Sandbox => vec![figure(
                    "rmtree-passes",
                    count(4, 4),
                    count(rmtree_passes, Gate::REAL.len()),
                    Some("pi-not-ported"),
                )],
            };
            Stage { id, figures }
        })
        .collect()
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

    fn commands<'a>(it: impl Iterator<Item = &'a Screened>) -> Vec<&'static str> {
        it.map(|s| s.command).collect()
    }

    #[test]
    fn lcc_on_the_course_lists() {
        let t = screen_lists(Gate::Lcc);
        assert_eq!(
            commands(t.missed()),
            [
                "rm -rf ~",
                "python3 -c \"import shutil; shutil.rmtree('/')\"",
                "git push --force",
                "dd if=/dev/zero of=/dev/sda",
            ]
        );
        assert_eq!(commands(t.wrongly_blocked()), ["cat sudoku_solver.py"]);
        let hits: Vec<_> = t.dangerous.iter().map(|s| s.hits.clone()).collect();
        assert_eq!(hits[0][0].entry, "rm -rf /");
        assert_eq!(hits[3][0].entry, "sudo");
        assert_eq!(hits[3][0].index, 1);
        // Agrees with lcc's own tally.
        let own = lcc::tally(&lcc::BLACKLIST, &COURSE_DANGEROUS, &COURSE_EVERYDAY);
        assert_eq!(commands(t.missed()), own.missed);
        assert_eq!(commands(t.wrongly_blocked()), own.false_positives);
    }

    #[test]
    fn corecoder_on_the_course_lists() {
        let t = screen_lists(Gate::CoreCoder);
        assert_eq!(
            commands(t.missed()),
            [
                "python3 -c \"import shutil; shutil.rmtree('/')\"",
                "sudo ls",
                "git push --force",
            ]
        );
        assert_eq!(t.wrongly_blocked().count(), 0);
        let caught: Vec<_> = t
            .dangerous
            .iter()
            .filter(|s| s.blocked())
            .map(|s| (s.command, s.hits[0].index, s.hits[0].reason.unwrap()))
            .collect();
        assert_eq!(
            caught,
            [
                ("rm -rf /", 0, "recursive delete on home/root"),
                ("rm -rf ~", 0, "recursive delete on home/root"),
                ("dd if=/dev/zero of=/dev/sda", 4, "raw disk write"),
            ]
        );
        assert!(t.dangerous.iter().all(|s| s
            .hits
            .iter()
            .all(|h| h.entry == DANGEROUS_PATTERNS[h.index].regex)));
    }

    #[test]
    fn rmtree_passes_both_real_blacklists() {
        assert!(RMTREE.contains("shutil.rmtree('/')"));
        for gate in Gate::REAL {
            assert!(screen(gate, RMTREE).is_empty(), "{gate:?}");
        }
    }

    #[test]
    fn pi_on_the_course_lists() {
        let t = screen_lists(Gate::Pi);
        assert_eq!(
            commands(t.missed()),
            [
                "python3 -c \"import shutil; shutil.rmtree('/')\"",
                "git push --force",
                "dd if=/dev/zero of=/dev/sda",
            ]
        );
        // `\bsudo\b` has a boundary after `sudo`: `sudoku` is not caught, unlike lcc.
        assert_eq!(t.wrongly_blocked().count(), 0);
        let caught: Vec<_> = t
            .dangerous
            .iter()
            .filter(|s| s.blocked())
            .map(|s| (s.command, s.hits[0].entry))
            .collect();
        assert_eq!(
            caught,
            [
                ("rm -rf /", r"\brm\s+(-rf?|--recursive)"),
                ("rm -rf ~", r"\brm\s+(-rf?|--recursive)"),
                ("sudo ls", r"\bsudo\b"),
            ]
        );
    }

    #[test]
    fn with_pi_only_adds_figures() {
        let old = timeline(&standard());
        let new = timeline_with_pi(&standard());
        let slugs = |st: &[Stage]| -> Vec<&str> {
            st.iter()
                .flat_map(|s| s.figures.iter().map(|f| f.slug))
                .collect()
        };
        let mut want = slugs(&old);
        want.insert(5, "pi-missed");
        want.insert(6, "pi-wrongly-blocked");
        assert_eq!(slugs(&new), want);
        let rm = new[5].figures[0].clone();
        assert_eq!(rm.computed, Some(Amount::Count { n: 4, of: 4 }));
        assert!(!rm.differs());
        assert!(new
            .iter()
            .flat_map(|s| &s.figures)
            .all(|f| f.note != Some("pi-not-ported")));
        // A command Pi catches but the others miss would not pass all four.
        assert!(SEED_BLACKLISTS
            .iter()
            .any(|&(_, g)| !screen(g, "chmod -R 777 /").is_empty()));
    }

    #[test]
    fn no_gate_lets_everything_run() {
        let t = screen_lists(Gate::None);
        assert_eq!(t.missed().count(), 6);
        assert_eq!(t.wrongly_blocked().count(), 0);
    }

    #[test]
    fn every_figure_pinned() {
        let c = |n, of| Some(Amount::Count { n, of });
        let stages = timeline(&standard());
        type Row = (
            &'static str,
            &'static str,
            Option<Amount>,
            Option<Amount>,
            bool,
        );
        let got: Vec<Row> = stages
            .iter()
            .flat_map(|s| {
                s.figures
                    .iter()
                    .map(move |f| (s.id.slug(), f.slug, f.claimed, f.computed, f.differs()))
            })
            .collect();
        let verdict = Some(Amount::Verdict {
            decision: Decision::Deny,
            row: Some(7),
        });
        let want = vec![
            ("no-gate", "dangerous-run", c(6, 6), c(6, 6), false),
            ("blacklist", "lcc-missed", c(4, 6), c(4, 6), false),
            ("blacklist", "lcc-wrongly-blocked", c(2, 5), c(1, 4), true),
            ("blacklist", "corecoder-missed", None, c(3, 6), false),
            (
                "blacklist",
                "corecoder-wrongly-blocked",
                None,
                c(0, 4),
                false,
            ),
            ("ask-every-time", "corecoder-asks", c(74, 139), None, false),
            (
                "ask-every-time",
                "prompts-approved",
                Some(Amount::Percent {
                    percent: 93,
                    sample: None,
                }),
                None,
                false,
            ),
            ("rules", "first-match-denies-tests", verdict, verdict, false),
            (
                "layered-model-approval",
                "classifier-misses",
                Some(Amount::Percent {
                    percent: 17,
                    sample: Some(52),
                }),
                None,
                false,
            ),
            ("sandbox", "rmtree-passes", c(4, 4), c(2, 2), true),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn rules_figure_follows_the_table() {
        let mut t = standard();
        t.move_rule(7, 9); // `bash * deny` last: first-match now allows via #9
        let stages = timeline(&t);
        let f = &stages[3].figures[0];
        assert_eq!(
            f.computed,
            Some(Amount::Verdict {
                decision: Decision::Allow,
                row: Some(7)
            })
        );
        assert!(f.differs());
    }

    #[test]
    fn slugs_are_distinct() {
        let mut s: Vec<_> = StageId::ALL.iter().map(|s| s.slug()).collect();
        s.dedup();
        assert_eq!(s.len(), 6);
    }
}
