//! `permlab conformance FILE...`: runs conformance files and prints a tally per section.

use permlab_core::conformance;

use crate::{read_file, Failure};

/// How many failures to print per section before summarising the rest.
const SHOWN_FAILURES: usize = 20;

pub fn run(files: &[String]) -> Result<bool, Failure> {
    if files.is_empty() {
        return Err(Failure::usage(
            "give at least one conformance file, e.g. permlab conformance fixtures/conformance/opencode.json",
        ));
    }
    let (mut passed, mut failed, mut drift) = (0, 0, 0);
    for file in files {
        let text = read_file(file)?;
        let reports = conformance::run(&text).map_err(|e| Failure::input(e.in_source(file)))?;
        say!("{file}");
        for report in &reports {
            if report.section == "drift" {
                // Where the docs and the recorded CLI disagree: data, not a pass or a failure.
                say!(
                    "  {} drift: {} cases where the docs and CLI {} disagree",
                    report.engine,
                    report.drift.len(),
                    permlab_core::claude_code::drift::CLI_VERSION
                );
                for d in &report.drift {
                    say!(
                        "    {} — docs: {} · CLI {}: {}",
                        one_line(&d.input),
                        d.docs,
                        permlab_core::claude_code::drift::CLI_VERSION,
                        d.cli
                    );
                }
                drift += report.drift.len();
                continue;
            }
            say!(
                "  {} {}: {} passed, {} failed",
                report.engine,
                report.section,
                report.passed,
                report.failed()
            );
            for f in report.failures.iter().take(SHOWN_FAILURES) {
                say!("    input:    {}", one_line(&f.input));
                say!("    expected: {}", one_line(&f.expected));
                say!("    got:      {}", one_line(&f.got));
            }
            if report.failed() > SHOWN_FAILURES {
                say!(
                    "    … and {} more failures",
                    report.failed() - SHOWN_FAILURES
                );
            }
            passed += report.passed;
            failed += report.failed();
        }
    }
    if drift > 0 {
        say!("drift: {drift} cases (the docs say otherwise; the recorded CLI wins)");
    }
    say!("{passed} passed, {failed} failed");
    Ok(failed == 0)
}

/// Keeps each failure on one line: control characters are shown as escapes.
fn one_line(s: &str) -> String {
    s.chars()
        .flat_map(|c| match c {
            '\n' => "\\n".chars().collect::<Vec<_>>(),
            '\r' => "\\r".chars().collect(),
            '\t' => "\\t".chars().collect(),
            c if c.is_control() => format!("\\u{{{:x}}}", c as u32).chars().collect(),
            c => vec![c],
        })
        .collect()
}
