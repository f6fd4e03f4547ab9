//! Runner for `conformance/codex.json`: `cli` cases (one `codex-execpolicy check` run) and
//! `core_shell_wrapper` cases (codex-core's split + `check_multiple`).
//!
//! Cases live in one `cases` array with a `kind`; each kind is reported as its own section
//! (`cases/cli`, `cases/core_shell_wrapper`) so a regression names the layer it broke. A load
//! error is judged by the decision (`load_error`) and, in a recording of today's CLI
//! (`codex-real.json`, with `meta`), by the CLI's error text as well (lines compared without
//! trailing spaces); the pinned file's texts came from an older build and are informational.
//! A case's `cwd` is the CLI's working directory for resolving a relative program, its `home`
//! the CLI's HOME for a `~/` program.

use super::SectionReport;
use crate::codex::shell::ShellCheck;
use crate::codex::{Check, Decision, MatchOptions, Policy};
use crate::error::Error;
use crate::json::{self, Value};

pub(crate) fn run(doc: &Value) -> Result<Vec<SectionReport>, Error> {
    let Some(cases) = doc.get("cases").and_then(Value::as_array) else {
        return Err(Error::shape(
            "cases",
            "a codex conformance file needs a \"cases\" array",
        ));
    };
    // A recording of today's CLI (`meta.codex_version`, e.g. `codex-real.json`): its load
    // errors' stderr is compared too. The pinned file's texts come from an older build.
    let recorded = doc.get("meta").is_some();
    // A recording of whole `codex exec` runs (`codex-exec-recorded.json`): one policy for
    // every case, each case a script the model ran through the shell tool.
    let exec_policy = match doc.get("policy").and_then(Value::as_str) {
        Some(text) => Some(Policy::parse("policy.rules", text).map_err(|e| {
            Error::shape(
                "policy",
                format!("the recording's policy does not load: {e}"),
            )
        })?),
        None => None,
    };
    let mut reports: Vec<SectionReport> = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let kind = match (case.get("kind").and_then(Value::as_str), &exec_policy) {
            (Some(k), _) => k,
            (None, Some(_)) => "exec",
            (None, None) => "?",
        };
        let section = format!("cases/{kind}");
        let idx = match reports.iter().position(|r| r.section == section) {
            Some(idx) => idx,
            None => {
                reports.push(SectionReport::new("codex", &section));
                reports.len() - 1
            }
        };
        let report = &mut reports[idx];
        let result = match kind {
            "cli" => cli_case(case, recorded),
            "core_shell_wrapper" => shell_case(case),
            "exec" => match &exec_policy {
                Some(policy) => exec_case(policy, case),
                None => Err(("a \"policy\" at the top".into(), "none".into())),
            },
            other => Err((format!("unknown kind \"{other}\""), String::new())),
        };
        match result {
            Ok(()) => report.passed += 1,
            Err((expected, got)) => {
                let input = format!("[{i}] {}", short_input(case));
                report.fail(input, expected, got);
            }
        }
    }
    Ok(reports)
}

/// One recorded `codex exec` run: the script through codex-core's split and the strictest
/// decision ([`ShellCheck`]) must give what the real CLI did. `forbidden`: rejected naming the
/// forbidden program; `rejected`: a prompt, refused because `codex exec` runs with approval
/// policy never; `ran`: allowed by the rules, or matched by none (codex-core's heuristics then
/// ran it in the sandbox). `cli_error` runs (a flag the CLI refuses) decide nothing.
fn exec_case(policy: &Policy, case: &Value) -> CaseResult {
    let s = |k: &str| case.get(k).and_then(Value::as_str).unwrap_or("");
    let (script, outcome, output) = (s("script"), s("outcome"), s("tool_output"));
    let call = ["/bin/bash", "-lc", script].map(str::to_string);
    let check = ShellCheck::run(policy, &call, Some("/work"));
    let got = check.decision();
    let ok = match outcome {
        "cli_error" => true,
        "forbidden" => {
            let program = check
                .per_command
                .iter()
                .find(|c| c.check.decision == Some(Decision::Forbidden))
                .and_then(|c| c.command.first().cloned());
            got == Some(Decision::Forbidden)
                && program.is_some_and(|p| {
                    output.contains(&format!("policy forbids commands starting with `{p}`"))
                })
        }
        "rejected" => {
            got == Some(Decision::Prompt) && output.contains("approval required by policy")
        }
        "ran" => matches!(got, None | Some(Decision::Allow)),
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err((
            format!("{outcome} for {}", json::Value::from(script).to_json()),
            decision_json(got),
        ))
    }
}

/// A short description of a case: its command and, when present, its note.
fn short_input(case: &Value) -> String {
    let cmd = case.get("command").map(Value::to_json).unwrap_or_default();
    match case.get("note").and_then(Value::as_str) {
        Some(n) => format!("{cmd} ({n})"),
        None => cmd,
    }
}

type CaseResult = Result<(), (String, String)>;

fn strings(v: Option<&Value>) -> Option<Vec<String>> {
    v?.as_array()?
        .iter()
        .map(|s| s.as_str().map(str::to_string))
        .collect()
}

fn decision_json(d: Option<Decision>) -> String {
    match d {
        Some(d) => format!("\"{}\"", d.as_str()),
        None => "null".to_string(),
    }
}

fn same(label: &str, expected: Option<&Value>, got_json: &str) -> CaseResult {
    let got = json::parse(got_json).map_err(|e| (label.to_string(), format!("internal: {e}")))?;
    match expected {
        Some(e) if e.same_as(&got) => Ok(()),
        Some(e) => Err((
            format!("{label} = {}", e.to_json()),
            format!("{label} = {got_json}"),
        )),
        None => Err((format!("{label} present"), "missing in case".to_string())),
    }
}

/// The policy files of a case, named as in its `argv` (`--rules <file>`).
fn load(case: &Value) -> Result<Result<Policy, String>, (String, String)> {
    let texts: Vec<String> = if let Some(p) = case.get("policy").and_then(Value::as_str) {
        vec![p.to_string()]
    } else if let Some(ps) = strings(case.get("policies")) {
        ps
    } else {
        return Err(("a \"policy\" or \"policies\"".into(), "neither".into()));
    };
    let argv = strings(case.get("argv")).unwrap_or_default();
    let mut names: Vec<String> = argv
        .windows(2)
        .filter(|w| w[0] == "--rules")
        .map(|w| w[1].clone())
        .collect();
    if names.len() != texts.len() {
        names = if texts.len() == 1 {
            vec!["policy.rules".to_string()]
        } else {
            (0..texts.len())
                .map(|i| format!("policy{i}.rules"))
                .collect()
        };
    }
    let files = names
        .iter()
        .map(String::as_str)
        .zip(texts.iter().map(String::as_str));
    // Examples resolve `./x` and `~/x` like the CLI did: in its directory, with its HOME.
    let env = MatchOptions {
        cwd: case.get("cwd").and_then(Value::as_str).map(str::to_string),
        home: case.get("home").and_then(Value::as_str).map(str::to_string),
        ..MatchOptions::default()
    };
    Ok(Policy::parse_files_with_env(files, &env).map_err(|e| e.cli_text()))
}

fn cli_case(case: &Value, recorded: bool) -> CaseResult {
    let command = strings(case.get("command"))
        .ok_or(("a \"command\" token list".to_string(), "none".to_string()))?;
    let expected_decision = case.get("decision").cloned().unwrap_or(Value::Null);
    let policy = match load(case)? {
        Ok(p) => p,
        Err(text) => {
            return if expected_decision.as_str() == Some("load_error") {
                // Recordings of the real CLI carry its stderr: the text must agree too.
                match case.get("error").and_then(Value::as_str) {
                    Some(want) if recorded && trim_lines(want) != trim_lines(&text) => Err((
                        format!("error = {}", want.trim_end()),
                        format!("error = {}", text.trim_end()),
                    )),
                    _ => Ok(()),
                }
            } else {
                Err((
                    format!("decision = {}", expected_decision.to_json()),
                    format!("load_error: {}", text.lines().last().unwrap_or("").trim()),
                ))
            };
        }
    };
    if expected_decision.as_str() == Some("load_error") {
        return Err(("load_error".to_string(), "the policy loaded".to_string()));
    }
    let resolve = strings(case.get("argv"))
        .unwrap_or_default()
        .iter()
        .any(|a| a == "--resolve-host-executables");
    let check: Check = policy.check_with_options(
        &command,
        &MatchOptions {
            resolve_host_executables: resolve,
            // Recordings give the CLI's working directory where a relative program resolves,
            // and its HOME where a `~/` program does.
            cwd: case.get("cwd").and_then(Value::as_str).map(str::to_string),
            home: case.get("home").and_then(Value::as_str).map(str::to_string),
        },
    );
    same(
        "decision",
        Some(&expected_decision),
        &decision_json(check.decision),
    )?;
    same(
        "matched_rules",
        case.get("matched_rules"),
        &check.matched_rules_json(),
    )?;
    let stdout = check.to_cli_json();
    match case.get("stdout").and_then(Value::as_str) {
        Some(s) if s == stdout => {}
        Some(s) => return Err((format!("stdout = {s}"), format!("stdout = {stdout}"))),
        None => return Err(("a \"stdout\" string".into(), "none".into())),
    }
    if let Some(code) = case.get("exit_code").and_then(Value::as_f64) {
        if code != 0.0 {
            return Err((format!("exit_code = {code}"), "exit_code = 0".to_string()));
        }
    }
    Ok(())
}

/// Text compared line by line without trailing spaces (the CLI pads some source lines).
fn trim_lines(s: &str) -> String {
    s.trim_end()
        .lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
}

fn argv_json(v: &[String]) -> String {
    Value::Array(v.iter().map(|s| Value::from(s.as_str())).collect()).to_json()
}

fn shell_case(case: &Value) -> CaseResult {
    let command = strings(case.get("command"))
        .ok_or(("a \"command\" token list".to_string(), "none".to_string()))?;
    let policy = match load(case)? {
        Ok(p) => p,
        Err(text) => return Err(("a loadable policy".to_string(), text)),
    };
    let result = ShellCheck::run(&policy, &command, None);
    let split: Vec<String> = result.split.commands.iter().map(|c| argv_json(c)).collect();
    same(
        "split_commands",
        case.get("split_commands"),
        &format!("[{}]", split.join(",")),
    )?;
    same(
        "used_complex_parsing",
        case.get("used_complex_parsing"),
        if result.split.used_complex_parsing {
            "true"
        } else {
            "false"
        },
    )?;
    let per: Vec<String> = result
        .per_command
        .iter()
        .map(|c| {
            format!(
                "{{\"command\":{},\"decision\":{},\"matchedRules\":{}}}",
                argv_json(&c.command),
                decision_json(c.check.decision),
                c.check.matched_rules_json()
            )
        })
        .collect();
    same(
        "per_command",
        case.get("per_command"),
        &format!("[{}]", per.join(",")),
    )?;
    same(
        "decision",
        case.get("decision"),
        &decision_json(result.decision()),
    )?;
    let unmatched: Vec<String> = result
        .unmatched_commands()
        .iter()
        .map(|c| argv_json(c))
        .collect();
    same(
        "unmatched_commands",
        case.get("unmatched_commands"),
        &format!("[{}]", unmatched.join(",")),
    )?;
    same(
        "decision_if_unmatched_allow",
        case.get("decision_if_unmatched_allow"),
        &decision_json(Some(result.decision_with_fallback(Decision::Allow))),
    )?;
    same(
        "decision_if_unmatched_prompt",
        case.get("decision_if_unmatched_prompt"),
        &decision_json(Some(result.decision_with_fallback(Decision::Prompt))),
    )?;
    Ok(())
}
