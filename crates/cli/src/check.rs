//! `permlab check LESSON.json...`: validate lessons and compare every author-written answer
//! with the engines.

use permlab_core::lesson::{Lesson, Locator, Severity};
use permlab_core::{Evaluation, Reason};

use crate::{read_file, Failure};

fn rule_text(table: &permlab_core::RuleTable, row: usize) -> String {
    match table.rules().get(row) {
        Some(r) => format!("rule #{} {} {} {}", row + 1, r.tool, r.pattern, r.action),
        None => "a rule outside the table".into(),
    }
}

fn why(e: &Evaluation, table: &permlab_core::RuleTable) -> String {
    match (&e.reason, e.rule) {
        (Reason::ToolRemoved { row }, _) => format!("{} removes the tool", rule_text(table, *row)),
        (_, Some(row)) => rule_text(table, row),
        (r, None) => crate::words::reason(r),
    }
}

/// Runs the check; `Ok(false)` when a lesson is invalid or an answer is wrong.
pub fn run(files: &[String]) -> Result<bool, Failure> {
    if files.is_empty() {
        return Err(Failure::usage("check needs at least one LESSON.json"));
    }
    let mut ok = true;
    for path in files {
        let text = read_file(path)?;
        let loaded = Lesson::parse(&text);
        for p in &loaded.problems {
            say!("{path}: {p}");
        }
        if loaded
            .problems
            .iter()
            .any(|p| p.severity == Severity::Error)
        {
            ok = false;
            say!("{path}: invalid lesson");
            continue;
        }
        let Some(lesson) = loaded.lesson else {
            ok = false;
            continue;
        };
        // One index of the text for all the wrong answers (locating each from the top made
        // `check` quadratic in their number).
        let locator = Locator::new(&text);
        let (mut checked, mut wrong) = (0, 0);
        for preset in &lesson.presets {
            for (i, call) in preset.calls.iter().enumerate() {
                for (engine_id, want) in &call.expect {
                    let e = preset.evaluate(*engine_id, &call.call);
                    checked += 1;
                    if e.decision != *want {
                        wrong += 1;
                        let at = locator
                            .locate(&format!("{}[{i}].expect.{engine_id}", preset.calls_at))
                            .map(|p| format!("{}:{}: ", p.line, p.column))
                            .unwrap_or_default();
                        say!(
                            "{path}:{at}preset {}, call #{} `{}`, {}: expected {}, engines say {} ({})",
                            preset.id,
                            i + 1,
                            call.call,
                            engine_id,
                            want,
                            e.decision,
                            why(&e, &preset.table)
                        );
                    }
                }
            }
        }
        if wrong > 0 {
            ok = false;
        }
        say!(
            "{path}: {} presets, {checked} answers checked, {wrong} wrong",
            lesson.presets.len()
        );
    }
    Ok(ok)
}
