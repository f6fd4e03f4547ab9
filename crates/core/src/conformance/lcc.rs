//! Runner for `conformance/lcc.json` (format: the reference README, "lcc.json").
//!
//! Sections, each reported on its own:
//! - `cases`: gate 1 with the file's own `blacklist` (default: [`BLACKLIST`]); compares
//!   `blocked`, `matched_substrings` and `result` (`STUB-RAN` when the command reaches the
//!   shell).
//! - `gate3_timeout_and_truncation`: the simulated shell named by `stub` (`raise
//!   TimeoutExpired`, or `<N> chars of output`) through [`gate3`]; compares `result` or
//!   `result_len` (in code points, Python's `len`).
//! - `gate2_safe_path_s03`: [`safe_path`] against a fixed workspace ([`WORKSPACE`]).

use super::SectionReport;
use crate::error::Error;
use crate::json::Value;
use crate::lcc::{gate1, gate3, safe_path, ShellRun, BLACKLIST};

const ENGINE: &str = "lcc";

/// The workspace gate-2 cases are resolved against (any absolute directory works for the
/// reference data; its name matters only for paths that leave and re-enter it).
pub(crate) const WORKSPACE: &str = "/home/tester/project";

/// The placeholder result of a command that reached the shell.
const STUB_RAN: &str = "STUB-RAN";

pub(crate) fn run(doc: &Value) -> Result<Vec<SectionReport>, Error> {
    let blacklist: Vec<&str> = match doc.get("blacklist") {
        None => BLACKLIST.to_vec(),
        Some(list) => array(list, "blacklist")?
            .iter()
            .enumerate()
            .map(|(i, v)| {
                v.as_str().ok_or_else(|| {
                    Error::shape(
                        format!("blacklist[{i}]"),
                        format!("expected a string, found {}", v.kind()),
                    )
                })
            })
            .collect::<Result<_, _>>()?,
    };
    let mut reports = Vec::new();
    if let Some(cases) = doc.get("cases") {
        reports.push(gate1_section(&blacklist, array(cases, "cases")?));
    }
    if let Some(cases) = doc.get("gate3_timeout_and_truncation") {
        reports.push(gate3_section(array(cases, "gate3_timeout_and_truncation")?));
    }
    if let Some(cases) = doc.get("gate2_safe_path_s03") {
        reports.push(gate2_section(array(cases, "gate2_safe_path_s03")?));
    }
    Ok(reports)
}

fn array<'a>(value: &'a Value, section: &str) -> Result<&'a [Value], Error> {
    value.as_array().ok_or_else(|| {
        Error::shape(
            section,
            format!("expected an array, found {}", value.kind()),
        )
    })
}

fn field_json(case: &Value, name: &str) -> String {
    case.get(name)
        .map_or("<absent>".to_string(), Value::to_json)
}

fn gate1_section(blacklist: &[&str], cases: &[Value]) -> SectionReport {
    let mut report = SectionReport::new(ENGINE, "cases");
    for (i, case) in cases.iter().enumerate() {
        let Some(command) = case.get("command").and_then(Value::as_str) else {
            report.fail(format!("cases[{i}]"), "a \"command\" string", "none");
            continue;
        };
        let verdict = gate1(blacklist, command);
        let matched: Vec<Value> = verdict.matched.iter().map(|&m| m.into()).collect();
        let expected = format!(
            "blocked: {}, matched_substrings: {}, result: {}",
            field_json(case, "blocked"),
            field_json(case, "matched_substrings"),
            field_json(case, "result")
        );
        let got = format!(
            "blocked: {}, matched_substrings: {}, result: {}",
            verdict.blocked(),
            Value::Array(matched).to_json(),
            Value::from(verdict.result().unwrap_or(STUB_RAN)).to_json()
        );
        report.check(|| format!("cases[{i}] {command:?}"), &expected, &got);
    }
    report
}

/// Reads the README's stub notation.
fn stub_output(stub: &str) -> Option<Option<usize>> {
    if stub == "raise TimeoutExpired" {
        return Some(None);
    }
    let n = stub.strip_suffix(" chars of output")?;
    n.parse().ok().map(Some)
}

fn gate3_section(cases: &[Value]) -> SectionReport {
    let mut report = SectionReport::new(ENGINE, "gate3_timeout_and_truncation");
    for (i, case) in cases.iter().enumerate() {
        let stub = case.get("stub").and_then(Value::as_str).unwrap_or("");
        let input = || format!("gate3[{i}] stub {stub:?}");
        let Some(output) = stub_output(stub) else {
            report.fail(
                input(),
                "a stub \"raise TimeoutExpired\" or \"<N> chars of output\"",
                format!("{stub:?}"),
            );
            continue;
        };
        let printed = output.map(|n| "x".repeat(n));
        let run = match &printed {
            None => ShellRun::Timeout,
            Some(out) => ShellRun::Completed {
                stdout: out,
                stderr: "",
            },
        };
        let result = gate3(run);
        match (case.get("result"), case.get("result_len")) {
            (Some(want), _) => report.check(
                input,
                &want.to_json(),
                &Value::from(result.as_str()).to_json(),
            ),
            (None, Some(len)) => report.check(
                input,
                &format!("result_len {}", len.to_json()),
                &format!("result_len {}", result.chars().count()),
            ),
            (None, None) => {
                report.fail(input(), "\"result\" or \"result_len\"", "neither");
            }
        }
    }
    report
}

fn gate2_section(cases: &[Value]) -> SectionReport {
    let mut report = SectionReport::new(ENGINE, "gate2_safe_path_s03");
    for (i, case) in cases.iter().enumerate() {
        let Some(path) = case.get("path").and_then(Value::as_str) else {
            report.fail(format!("gate2[{i}]"), "a \"path\" string", "none");
            continue;
        };
        let expected = match case.get("allowed").and_then(Value::as_bool) {
            Some(true) => format!("allowed, resolved_rel {}", field_json(case, "resolved_rel")),
            Some(false) => format!("refused, error {}", field_json(case, "error")),
            None => format!("allowed {}", field_json(case, "allowed")),
        };
        let got = match safe_path(WORKSPACE, path) {
            Ok(p) => format!(
                "allowed, resolved_rel {}",
                Value::from(p.relative.as_str()).to_json()
            ),
            Err(e) => format!(
                "refused, error {}",
                Value::from(e.to_string().as_str()).to_json()
            ),
        };
        report.check(|| format!("gate2[{i}] {path:?}"), &expected, &got);
    }
    report
}
