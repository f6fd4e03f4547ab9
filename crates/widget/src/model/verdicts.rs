//! The bridge to the core's engines: compiled once per table order and reused by the panels,
//! the matrix and the reorder log. Nothing here decides anything; it only asks the engines.

use std::cell::RefCell;
use std::rc::Rc;

use permlab_core::lesson::Preset as Native;
use permlab_core::{engines, Call, Decision, Engine, EngineId, Evaluation, RuleTable};

type Compiled = Rc<Vec<Box<dyn Engine>>>;

/// Every engine's evaluation of the current call and the lesson calls' matrix, with the
/// engines compiled for the last two orders (the one before a reorder and the one after: the
/// reorder log asks for both, then the panels ask for the new one). The compiled engines are
/// keyed by the table's value; a new table (another preset, another native config) starts a
/// new `Verdicts`.
#[derive(Default)]
pub struct Verdicts {
    /// Every engine's evaluation of the current call ([`EngineId::ALL`] order).
    pub evals: Vec<Evaluation>,
    /// The preset's calls × every engine.
    pub matrix: Vec<Vec<Decision>>,
    /// The matrix before the last reorder (its changed cells are marked).
    pub before: Option<Vec<Vec<Decision>>>,
    compiled: RefCell<Vec<(RuleTable, Compiled)>>,
}

impl std::fmt::Debug for Verdicts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Verdicts")
            .field("evals", &self.evals.len())
            .field("matrix", &self.matrix)
            .finish_non_exhaustive()
    }
}

impl Verdicts {
    /// The engine's evaluation of the current call.
    pub fn eval(&self, id: EngineId) -> Option<&Evaluation> {
        find(&self.evals, id)
    }

    /// Evaluates `call` with every engine (the matrix stays).
    pub fn judge_call(&mut self, table: &RuleTable, native: Option<&Native>, call: &Call) {
        self.evals = evaluate_all(&self.compiled(table, native), call);
    }

    /// Evaluates `call` and the preset's `calls` with every engine.
    pub fn judge_all(
        &mut self,
        table: &RuleTable,
        native: Option<&Native>,
        call: &Call,
        calls: &[Call],
    ) {
        let engines = self.compiled(table, native);
        self.evals = evaluate_all(&engines, call);
        self.matrix = matrix(&engines, calls);
    }

    /// The reorder log's judge: the verdicts of `shown` engines for `call`.
    pub fn judge(
        &self,
        shown: &[EngineId],
        native: Option<&Native>,
        table: &RuleTable,
        call: &Call,
    ) -> Vec<(EngineId, Decision)> {
        let engines = self.compiled(table, native);
        shown
            .iter()
            .filter_map(|id| engines.iter().find(|e| e.id() == *id))
            .map(|e| (e.id(), e.decide(call).0))
            .collect()
    }

    /// Every engine ([`EngineId::ALL`]) compiled for `table`: the common-table engines, or,
    /// for a lesson preset or an imported config, the engines that preset names (a harness's
    /// own config read by that harness's rules).
    fn compiled(&self, table: &RuleTable, native: Option<&Native>) -> Compiled {
        let mut cache = self.compiled.borrow_mut();
        if let Some((_, e)) = cache.iter().find(|(t, _)| t == table) {
            return e.clone();
        }
        let native = native.map(|n| reordered(n, table));
        let e: Compiled = Rc::new(
            EngineId::ALL
                .iter()
                .map(|&id| {
                    crate::browser::perf::mark_start(id.slug());
                    let e = match &native {
                        Some(n) => n.engine(id),
                        None => engines::build(id, table),
                    };
                    crate::browser::perf::mark_end(id.slug());
                    e
                })
                .collect(),
        );
        cache.insert(0, (table.clone(), e.clone()));
        cache.truncate(2);
        e
    }
}

/// `native` (a lesson preset or an imported config) with its rows in `table`'s order: the
/// imported rows' origins follow their rows, so a harness's own engine (Claude Code reading the
/// settings file itself) still points at the right row after a reorder.
fn reordered(native: &Native, table: &RuleTable) -> Native {
    let mut n = native.clone();
    if let Some(imp) = n.imported.as_mut() {
        let index: std::collections::HashMap<_, _> = native
            .table
            .rules()
            .iter()
            .enumerate()
            .map(|(i, r)| (r.id, i))
            .collect();
        imp.origins = table
            .rules()
            .iter()
            .map(|r| {
                index
                    .get(&r.id)
                    .and_then(|&i| native.imported.as_ref()?.origins.get(i).cloned())
                    .unwrap_or_default()
            })
            .collect();
    }
    n.table = table.clone();
    n
}

/// Every engine's full evaluation of `call`, in [`EngineId::ALL`] order.
fn evaluate_all(engines: &[Box<dyn Engine>], call: &Call) -> Vec<Evaluation> {
    engines.iter().map(|e| e.evaluate(call)).collect()
}

/// The verdicts of `calls` × every engine.
fn matrix(engines: &[Box<dyn Engine>], calls: &[Call]) -> Vec<Vec<Decision>> {
    calls
        .iter()
        .map(|c| engines.iter().map(|e| e.decide(c).0).collect())
        .collect()
}

/// The engine's evaluation in a list of evaluations.
pub fn find(evals: &[Evaluation], id: EngineId) -> Option<&Evaluation> {
    evals.iter().find(|e| e.engine == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::Preset;
    use crate::state::Lab;

    #[test]
    fn keyboard_lesson_move_flips_first_match_only() {
        // Rule #8 (bash * deny) to the bottom: first-match flips deny → allow for the test
        // command, OpenCode allow → deny; Claude Code's verdict (the tool is removed) stays.
        let table = Preset::Miniagent.table();
        let call = Preset::Miniagent.calls()[0].clone();
        let shown = Preset::Miniagent.engines(false);
        let mut lab = Lab::new(table, call);
        let v = Verdicts::default();
        let j = |t: &RuleTable, c: &Call| v.judge(&shown, None, t, c);
        assert!(lab.move_rule(7, 9, &j));
        let entry = &lab.log()[0];
        let flipped: Vec<EngineId> = entry.flipped.iter().map(|c| c.engine).collect();
        assert_eq!(flipped, [EngineId::FirstMatch, EngineId::OpenCode]);
        let mut v = Verdicts::default();
        v.judge_call(lab.table(), None, lab.call());
        let evals = v.evals;
        assert_eq!(
            find(&evals, EngineId::FirstMatch).unwrap().decision,
            Decision::Allow
        );
        assert_eq!(
            find(&evals, EngineId::ClaudeCode).unwrap().decision,
            Decision::Unavailable
        );
    }

    #[test]
    fn matrix_has_a_cell_per_call_and_engine() {
        let t = Preset::Git.table();
        let mut v = Verdicts::default();
        v.judge_all(&t, None, &Preset::Git.calls()[0], &Preset::Git.calls());
        let m = v.matrix;
        assert_eq!(m.len(), Preset::Git.calls().len());
        assert!(m.iter().all(|r| r.len() == EngineId::ALL.len()));
    }

    /// Where the time goes on a big table (run with `--ignored --nocapture`).
    #[test]
    #[ignore]
    fn big_table_timing() {
        use permlab_core::Action;
        let tools = ["bash", "read_file", "edit_file", "write_file", "grep"];
        let rows: Vec<(String, String, Action)> = (0..10_000)
            .map(|i| {
                let p = if i % 7 == 0 {
                    "*".to_string()
                } else {
                    format!("cmd{} *", i % 13)
                };
                let a = [Action::Allow, Action::Ask, Action::Deny][i % 3];
                (tools[i % 5].to_string(), p, a)
            })
            .collect();
        let t = RuleTable::new(rows.iter().map(|(a, b, c)| (a.as_str(), b.as_str(), *c)));
        let call = Call::new("bash", "cmd3 arg");
        for id in EngineId::ALL {
            let t0 = std::time::Instant::now();
            let e = engines::build(id, &t);
            let t1 = t0.elapsed();
            let ev = e.evaluate(&call);
            eprintln!(
                "{id}: build {:?}, evaluate {:?} ({} steps)",
                t1,
                t0.elapsed() - t1,
                ev.steps.len()
            );
        }
        let t0 = std::time::Instant::now();
        let _ = permlab_core::claude_code::translate(&t);
        eprintln!("claude translate {:?}", t0.elapsed());
        let t0 = std::time::Instant::now();
        let _ = crate::presets::opencode_permission(&t);
        eprintln!("opencode object {:?}", t0.elapsed());
        let t0 = std::time::Instant::now();
        let _ = permlab_core::codex::to_rules(&t);
        eprintln!("codex rules {:?}", t0.elapsed());
    }
}
