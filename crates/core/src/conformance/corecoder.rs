//! Runner for `conformance/corecoder.json` (format: the reference README, "corecoder.json").
//!
//! Sections, each reported on its own:
//! - `read_only_tools`: the file's list equals [`READ_ONLY`] (as a set).
//! - `cases`: every permission case, derived on its own (the "always" set rebuilt from
//!   `always_set_after`) and, for cases of a scripted `session`, also by replaying the session
//!   from an empty "always" set; a case passes only if both agree with the file.
//! - `bash_blacklist_patterns`: the file's regexes and reasons equal our hand-ported
//!   [`DANGEROUS_PATTERNS`], in order. The matchers are hand-written, so a file with other
//!   patterns cannot be run: this section then says so case by case.
//! - `bash_blacklist`, `bash_blacklist_extra` and any other `bash_blacklist*` array:
//!   `{command, blocked, reason}` through [`check_dangerous`].

use super::SectionReport;
use crate::corecoder::{
    check_dangerous, Answer, CallResult, Mode, Permission, Session, DANGEROUS_PATTERNS, READ_ONLY,
};
use crate::error::Error;
use crate::json::Value;

const ENGINE: &str = "corecoder";

pub(crate) fn run(doc: &Value) -> Result<Vec<SectionReport>, Error> {
    let mut reports = Vec::new();
    if let Some(tools) = doc.get("read_only_tools") {
        reports.push(read_only_section(tools)?);
    }
    if let Some(cases) = doc.get("cases") {
        reports.push(cases_section(array(cases, "cases")?));
    }
    if let Some(patterns) = doc.get("bash_blacklist_patterns") {
        reports.push(patterns_section(array(
            patterns,
            "bash_blacklist_patterns",
        )?));
    }
    for (key, value) in doc.as_object().unwrap_or_default() {
        if key.starts_with("bash_blacklist") && key != "bash_blacklist_patterns" {
            reports.push(blacklist_section(key, array(value, key)?));
        }
    }
    Ok(reports)
}

fn array<'a>(value: &'a Value, section: &str) -> Result<&'a [Value], Error> {
    value.as_array().ok_or_else(|| {
        Error::shape(
            section,
            format!("expected an array of cases, found {}", value.kind()),
        )
    })
}

fn read_only_section(tools: &Value) -> Result<SectionReport, Error> {
    let mut report = SectionReport::new(ENGINE, "read_only_tools");
    let mut listed: Vec<&str> = array(tools, "read_only_tools")?
        .iter()
        .filter_map(Value::as_str)
        .collect();
    listed.sort_unstable();
    let mut ours = READ_ONLY.to_vec();
    ours.sort_unstable();
    report.check(
        || "read_only_tools".to_string(),
        &format!("{listed:?}"),
        &format!("{ours:?}"),
    );
    Ok(report)
}

/// The compared fields of one permission case, computed or expected.
const FIELDS: [&str; 7] = [
    "asked",
    "ask_verdict",
    "decision",
    "refusal",
    "bash_blacklist",
    "outcome",
    "always_set_after",
];

/// One case's inputs, read from the file.
struct Case<'a> {
    tool: &'a str,
    command: Option<&'a str>,
    mode: Mode,
    plan_mode: bool,
    answer: Option<&'a str>,
    session: Option<(&'a str, usize)>,
    expected: &'a Value,
}

impl<'a> Case<'a> {
    fn read(case: &'a Value) -> Result<Case<'a>, String> {
        let tool = case
            .get("tool")
            .and_then(Value::as_str)
            .ok_or("no \"tool\" string")?;
        let mode = case
            .get("mode")
            .and_then(Value::as_str)
            .ok_or("no \"mode\" string")?;
        let mode = Mode::from_slug(mode).ok_or_else(|| {
            format!("unknown mode \"{mode}\": expected interactive, print, yes or print+yes")
        })?;
        let answers = case
            .get("answers")
            .and_then(Value::as_array)
            .ok_or("no \"answers\" array")?;
        let answer = match answers.first() {
            None => None,
            Some(a) => Some(a.as_str().ok_or("\"answers\" must hold strings")?),
        };
        let session = match (case.get("session"), case.get("step")) {
            (Some(Value::String(name)), Some(step)) => {
                let step = step
                    .as_f64()
                    .filter(|s| *s >= 0.0 && s.fract() == 0.0)
                    .ok_or("\"step\" must be a non-negative integer")?;
                Some((name.as_str(), step as usize))
            }
            (None, _) => None,
            _ => return Err("\"session\" needs a name and a \"step\"".to_string()),
        };
        Ok(Case {
            tool,
            command: case
                .get("args")
                .and_then(|a| a.get("command"))
                .and_then(Value::as_str),
            mode,
            plan_mode: case
                .get("plan_mode")
                .and_then(Value::as_bool)
                .unwrap_or(false),
            answer,
            session,
            expected: case,
        })
    }

    fn label(&self) -> String {
        let mut s = self.tool.to_string();
        if let Some(c) = self.command {
            s.push_str(&format!("({c:?})"));
        }
        s.push_str(&format!(" mode={}", self.mode.slug()));
        if self.plan_mode {
            s.push_str(" plan");
        }
        if let Some(a) = self.answer {
            s.push_str(&format!(" answer={a:?}"));
        }
        if let Some((name, step)) = self.session {
            s.push_str(&format!(" session={name}#{step}"));
        }
        s
    }

    /// The "always" set before the call, derived from the expected state after it.
    fn always_before(&self) -> Vec<String> {
        let after = self
            .expected
            .get("always_set_after")
            .and_then(Value::as_array)
            .unwrap_or_default();
        let answered_always =
            self.expected.get("ask_verdict").and_then(Value::as_str) == Some("always");
        after
            .iter()
            .filter_map(Value::as_str)
            .filter(|t| !(answered_always && *t == self.tool))
            .map(str::to_string)
            .collect()
    }

    /// Runs the call in `session`; `Err` when CoreCoder prompts but the case has no answer.
    fn run_in(&self, session: &mut Session) -> Result<CallResult, String> {
        let mut unanswered = false;
        session.plan_mode = self.plan_mode;
        let result = session.call(self.tool, self.command, |_| match self.answer {
            Some(a) => Answer::from_script(a),
            None => {
                unanswered = true;
                Answer::Eof
            }
        });
        if unanswered {
            return Err("CoreCoder prompts here, but the case scripts no answer".to_string());
        }
        Ok(result)
    }

    fn compare(&self, result: &CallResult, session: &Session) -> Result<(), (String, String)> {
        let always: Vec<Value> = session
            .permission
            .iter()
            .flat_map(Permission::always)
            .map(Value::from)
            .collect();
        let got: Vec<(&str, Value)> = vec![
            ("asked", Value::Bool(result.asked.is_some())),
            (
                "ask_verdict",
                result.asked.map_or(Value::Null, |v| v.as_str().into()),
            ),
            (
                "decision",
                if result.check.allowed_to_run() {
                    "allow"
                } else {
                    "deny"
                }
                .into(),
            ),
            (
                "refusal",
                result.refusal.as_deref().map_or(Value::Null, Value::from),
            ),
            (
                "bash_blacklist",
                result.blacklist.map_or(Value::Null, |h| h.reason.into()),
            ),
            ("outcome", result.outcome.as_str().into()),
            ("always_set_after", Value::Array(always)),
        ];
        let mut expected_parts = Vec::new();
        let mut got_parts = Vec::new();
        for (field, value) in &got {
            let want = self.expected.get(field).unwrap_or(&Value::Null);
            if !want.same_as(value) {
                expected_parts.push(format!("{field}: {}", want.to_json()));
                got_parts.push(format!("{field}: {}", value.to_json()));
            }
        }
        debug_assert_eq!(got.len(), FIELDS.len());
        if expected_parts.is_empty() {
            Ok(())
        } else {
            Err((expected_parts.join(", "), got_parts.join(", ")))
        }
    }
}

/// Runs one case on its own (state derived from the case).
fn run_alone(case: &Case<'_>) -> Result<(), (String, String)> {
    let mut permission = Permission::new(case.mode);
    for tool in case.always_before() {
        permission.grant_always(tool);
    }
    let mut session = Session {
        plan_mode: case.plan_mode,
        permission: Some(permission),
    };
    let result = case
        .run_in(&mut session)
        .map_err(|e| ("a scripted answer".to_string(), e))?;
    case.compare(&result, &session)
}

fn cases_section(cases: &[Value]) -> SectionReport {
    let mut report = SectionReport::new(ENGINE, "cases");
    let read: Vec<Result<Case<'_>, String>> = cases.iter().map(Case::read).collect();

    // Replays: session name → (its session state, its mode, the next expected step).
    let mut replays: Vec<(&str, Session, Mode, usize)> = Vec::new();
    let mut replay_result: Vec<Option<Result<(), (String, String)>>> = vec![None; cases.len()];
    for (i, case) in read.iter().enumerate() {
        let Ok(case) = case else { continue };
        let Some((name, step)) = case.session else {
            continue;
        };
        let slot = match replays.iter().position(|r| r.0 == name) {
            Some(k) => k,
            None => {
                replays.push((name, Session::new(case.mode), case.mode, 0));
                replays.len() - 1
            }
        };
        let (_, session, mode, next) = &mut replays[slot];
        replay_result[i] = Some(if step != *next {
            Err((
                format!("step {next}"),
                format!("step {step}: session steps must be listed in order"),
            ))
        } else if case.mode != *mode {
            Err((
                format!("mode {}", mode.slug()),
                format!("mode {}: a session keeps its mode", case.mode.slug()),
            ))
        } else {
            *next += 1;
            case.run_in(session)
                .map_err(|e| ("a scripted answer".to_string(), e))
                .and_then(|r| case.compare(&r, session))
        });
    }

    for (i, case) in read.iter().enumerate() {
        let case = match case {
            Ok(case) => case,
            Err(e) => {
                report.fail(format!("cases[{i}]"), "a well-formed case", e.clone());
                continue;
            }
        };
        let alone = run_alone(case);
        let replayed = replay_result[i].clone().unwrap_or(Ok(()));
        match (alone, replayed) {
            (Ok(()), Ok(())) => report.passed += 1,
            (Err((want, got)), _) => report.fail(format!("cases[{i}] {}", case.label()), want, got),
            (Ok(()), Err((want, got))) => report.fail(
                format!("cases[{i}] {} (session replayed)", case.label()),
                want,
                got,
            ),
        }
    }
    report
}

fn patterns_section(patterns: &[Value]) -> SectionReport {
    let mut report = SectionReport::new(ENGINE, "bash_blacklist_patterns");
    let count = patterns.len().max(DANGEROUS_PATTERNS.len());
    for i in 0..count {
        let file = patterns.get(i).map(|p| {
            format!(
                "{} -> {}",
                p.get("regex")
                    .and_then(Value::as_str)
                    .unwrap_or("<no regex>"),
                p.get("reason")
                    .and_then(Value::as_str)
                    .unwrap_or("<no reason>")
            )
        });
        let ours = DANGEROUS_PATTERNS
            .get(i)
            .map(|p| format!("{} -> {}", p.regex, p.reason));
        report.check(
            || format!("pattern #{}", i + 1),
            file.as_deref().unwrap_or("<absent>"),
            ours.as_deref()
                .unwrap_or("<absent: only 10 patterns are ported>"),
        );
    }
    report
}

fn blacklist_section(section: &str, cases: &[Value]) -> SectionReport {
    let mut report = SectionReport::new(ENGINE, section);
    for (i, case) in cases.iter().enumerate() {
        let Some(command) = case.get("command").and_then(Value::as_str) else {
            report.fail(
                format!("{section}[{i}]"),
                "a \"command\" string",
                "none".to_string(),
            );
            continue;
        };
        let hit = check_dangerous(command);
        let expected = format!(
            "blocked: {}, reason: {}",
            case.get("blocked")
                .map_or("<absent>".into(), Value::to_json),
            case.get("reason").map_or("<absent>".into(), Value::to_json),
        );
        let got = format!(
            "blocked: {}, reason: {}",
            hit.is_some(),
            hit.map_or(Value::Null, |h| h.reason.into()).to_json()
        );
        report.check(|| format!("{section}[{i}] {command:?}"), &expected, &got);
    }
    report
}
