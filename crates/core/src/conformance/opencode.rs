//! Runner for `conformance/opencode.json` (format: the reference README, "opencode.json").
//!
//! Seven sections, each reported on its own: `wildcard`, `wildcard_win32`, `evaluate`,
//! `fromConfig`, `merge`, `agents`, `configLayers`. The environment (home, XDG data home, temp
//! dir) comes from the file's `meta`, so the runner works for any file of the same format.

use super::SectionReport;
use crate::error::Error;
use crate::json::Value;
use crate::opencode::layers::{merge_layers, user_rules};
use crate::opencode::wildcard::{matches_on, Platform};
use crate::opencode::{
    agent_ruleset, disabled, evaluate, from_config, merge, rules_from_value, rules_to_value, Agent,
    AgentEnv, OpenCodeEngine, PermissionConfig, Rule,
};

const ENGINE: &str = "opencode";

pub(crate) fn run(doc: &Value) -> Result<Vec<SectionReport>, Error> {
    let env = Env::from_meta(doc.get("meta"));
    let mut reports = Vec::new();
    for (section, platform) in [
        ("wildcard", Platform::Linux),
        ("wildcard_win32", Platform::Windows),
    ] {
        if let Some(cases) = doc.get(section) {
            reports.push(wildcard(section, platform, array(cases, section)?));
        }
    }
    if let Some(cases) = doc.get("evaluate") {
        reports.push(evaluate_section(array(cases, "evaluate")?));
    }
    if let Some(cases) = doc.get("fromConfig") {
        reports.push(from_config_section(&env, array(cases, "fromConfig")?));
    }
    if let Some(cases) = doc.get("merge") {
        reports.push(merge_section(array(cases, "merge")?));
    }
    if let Some(agents) = doc.get("agents") {
        reports.push(agents_section(&env, agents)?);
    }
    if let Some(cases) = doc.get("configLayers") {
        reports.push(layers_section(&env, array(cases, "configLayers")?));
    }
    Ok(reports)
}

/// The test environment of the file (`meta`), with the README's defaults.
struct Env {
    home: String,
    xdg_data_home: String,
    tmpdir: String,
}

impl Env {
    fn from_meta(meta: Option<&Value>) -> Env {
        let get = |key: &str, default: &str| {
            meta.and_then(|m| m.get(key))
                .and_then(Value::as_str)
                .unwrap_or(default)
                .to_string()
        };
        Env {
            home: get("homedir", "/home/tester"),
            xdg_data_home: get("xdg_data_home", "/home/tester/.local/share"),
            tmpdir: get("tmpdir", "/tmp"),
        }
    }

    fn agent_env(&self) -> AgentEnv {
        AgentEnv::new(
            &self.home,
            &self.xdg_data_home,
            &self.tmpdir,
            &format!("{}/project", self.home),
        )
    }
}

fn array<'a>(v: &'a Value, section: &str) -> Result<&'a [Value], Error> {
    v.as_array().ok_or_else(|| {
        Error::shape(
            section,
            format!("expected an array of cases, found {}", v.kind()),
        )
    })
}

/// A string for a failure line: quoted, escaped, cut to a readable length.
fn short(s: &str) -> String {
    let quoted = format!("{s:?}");
    if quoted.chars().count() <= 70 {
        return quoted;
    }
    let head: String = quoted.chars().take(60).collect();
    format!("{head}…\" ({} chars)", s.chars().count())
}

fn short_json(v: &Value) -> String {
    let text = v.to_json();
    if text.chars().count() <= 400 {
        return text;
    }
    let head: String = text.chars().take(390).collect();
    format!("{head}…")
}

fn str_field<'a>(case: &'a Value, name: &str) -> Option<&'a str> {
    case.get(name).and_then(Value::as_str)
}

fn wildcard(section: &str, platform: Platform, cases: &[Value]) -> SectionReport {
    let mut report = SectionReport::new(ENGINE, section);
    for (i, case) in cases.iter().enumerate() {
        let (Some(input), Some(pattern), Some(want)) = (
            str_field(case, "str"),
            str_field(case, "pattern"),
            case.get("match").and_then(Value::as_bool),
        ) else {
            report.fail(format!("[{i}]"), "{str, pattern, match}", short_json(case));
            continue;
        };
        let got = matches_on(platform, input, pattern);
        report.check(
            || format!("match({}, {})", short(input), short(pattern)),
            &want.to_string(),
            &got.to_string(),
        );
    }
    report
}

fn rules_field(case: &Value, name: &str) -> Result<Vec<Rule>, String> {
    match case.get(name) {
        Some(v) => rules_from_value(v).map_err(|e| e.to_string()),
        None => Err(format!("no \"{name}\"")),
    }
}

fn evaluate_section(cases: &[Value]) -> SectionReport {
    let mut report = SectionReport::new(ENGINE, "evaluate");
    for (i, case) in cases.iter().enumerate() {
        let (Some(permission), Some(pattern), Some(matched)) = (
            str_field(case, "permission"),
            str_field(case, "pattern"),
            case.get("matched"),
        ) else {
            report.fail(
                format!("[{i}]"),
                "{permission, pattern, rules, matched}",
                short_json(case),
            );
            continue;
        };
        let rules = match rules_field(case, "rules") {
            Ok(r) => r,
            Err(e) => {
                report.fail(format!("[{i}].rules"), "a ruleset", e);
                continue;
            }
        };
        let input = || {
            format!(
                "evaluate({}, {}, {} rules)",
                short(permission),
                short(pattern),
                rules.len()
            )
        };
        // The reference port (compiles per call, like the source) and the compiled engine must
        // both agree with OpenCode.
        let slow = evaluate(permission, pattern, &[&rules]);
        let engine = OpenCodeEngine::from_rules(rules.clone());
        let fast = engine.evaluate_rule(permission, pattern);
        // The widget's trace must land on the same row as the fast path.
        let traced = engine.trace(permission, pattern).rule;
        let action_ok = str_field(case, "action").is_none_or(|a| a == slow.action.as_str());
        if slow != fast || traced != engine.find_last(permission, pattern) {
            report.fail(
                input(),
                short_json(matched),
                format!("evaluate: {:?}; engine: {:?}", slow, fast),
            );
        } else if !action_ok || !slow.to_value().same_as(matched) {
            report.fail(input(), short_json(matched), slow.to_value().to_json());
        } else {
            report.passed += 1;
        }
    }
    report
}

/// The error's paths (`permission.bash`…), in order: what the README asks a runner to match.
fn error_paths(message: &str) -> Vec<String> {
    let body = message
        .strip_prefix("ConfigInvalidError: ")
        .unwrap_or(message);
    body.split("; ")
        .filter_map(|part| part.split_once(": Expected").map(|(p, _)| p.to_string()))
        .collect()
}

fn from_config_section(env: &Env, cases: &[Value]) -> SectionReport {
    let mut report = SectionReport::new(ENGINE, "fromConfig");
    for (i, case) in cases.iter().enumerate() {
        let source = str_field(case, "source");
        let Some(config) = case.get("config") else {
            report.fail(format!("[{i}]"), "{config, via, rules}", short_json(case));
            continue;
        };
        let input = || match source {
            Some(s) => format!("[{i}] decode({})", short(s)),
            None => format!(
                "[{i}] {}({})",
                str_field(case, "via").unwrap_or("?"),
                short_json(config)
            ),
        };
        let decoded = match source {
            Some(text) => PermissionConfig::parse(text),
            None => PermissionConfig::decode(config),
        };
        match (case.get("rules"), decoded) {
            (Some(Value::Null), Ok(c)) => report.fail(
                input(),
                format!("error {:?}", str_field(case, "error").unwrap_or("")),
                rules_to_value(&from_config(&c, &env.home)).to_json(),
            ),
            (Some(Value::Null), Err(e)) => {
                let got = e.to_string();
                let want = str_field(case, "error").unwrap_or("");
                if want.is_empty() || got == want || error_paths(&got) == error_paths(want) {
                    report.passed += 1;
                } else {
                    report.fail(input(), want, got);
                }
            }
            (Some(want), Ok(c)) => {
                let got = rules_to_value(&from_config(&c, &env.home));
                if got.same_as(want) {
                    report.passed += 1;
                } else {
                    report.fail(input(), short_json(want), short_json(&got));
                }
            }
            (Some(want), Err(e)) => report.fail(input(), short_json(want), e.to_string()),
            (None, _) => report.fail(input(), "a \"rules\" field", "none"),
        }
    }
    report
}

fn merge_section(cases: &[Value]) -> SectionReport {
    let mut report = SectionReport::new(ENGINE, "merge");
    for (i, case) in cases.iter().enumerate() {
        let sets: Result<Vec<Vec<Rule>>, String> =
            match case.get("rulesets").and_then(Value::as_array) {
                Some(items) => items
                    .iter()
                    .map(|v| rules_from_value(v).map_err(|e| e.to_string()))
                    .collect(),
                None => Err("no \"rulesets\" array".to_string()),
            };
        let (sets, Some(want)) = (sets, case.get("rules")) else {
            report.fail(format!("[{i}]"), "{rulesets, rules}", short_json(case));
            continue;
        };
        match sets {
            Ok(sets) => {
                let refs: Vec<&[Rule]> = sets.iter().map(Vec::as_slice).collect();
                let got = rules_to_value(&merge(&refs));
                if got.same_as(want) {
                    report.passed += 1;
                } else {
                    report.fail(format!("[{i}] merge"), short_json(want), short_json(&got));
                }
            }
            Err(e) => report.fail(format!("[{i}].rulesets"), "rulesets", e),
        }
    }
    report
}

fn agents_section(env: &Env, agents: &Value) -> Result<SectionReport, Error> {
    let mut report = SectionReport::new(ENGINE, "agents");
    let Some(entries) = agents.as_object() else {
        return Err(Error::shape(
            "agents",
            format!(
                "expected an object keyed by agent name, found {}",
                agents.kind()
            ),
        ));
    };
    for (name, spec) in entries {
        let Some(agent) = Agent::from_name(name) else {
            report.fail(
                format!("agent {name}"),
                "a built-in agent",
                "unknown agent name",
            );
            continue;
        };
        let expected = match rules_field(spec, "permission") {
            Ok(r) => r,
            Err(e) => {
                report.fail(format!("agents.{name}.permission"), "a ruleset", e);
                continue;
            }
        };
        let mut agent_env = env.agent_env();
        if agent == Agent::Plan {
            // Relative to wherever the project lived when the data was recorded: take it as is.
            agent_env.plan_edit_pattern = expected
                .iter()
                .rev()
                .find(|r| r.permission == "edit")
                .map(|r| r.pattern.clone());
        }
        let got = agent_ruleset(Some(agent), &agent_env, &[], &[]);
        if let Some(mode) = str_field(spec, "mode") {
            report.check(|| format!("{name}.mode"), mode, agent.mode().as_str());
        }
        if got == expected {
            report.passed += 1;
        } else {
            report.fail(
                format!("{name}.permission"),
                short_json(&rules_to_value(&expected)),
                short_json(&rules_to_value(&got)),
            );
        }
        for (tool, visible) in spec
            .get("tools")
            .and_then(Value::as_object)
            .unwrap_or_default()
        {
            let want = visible.as_bool().map_or("?".to_string(), |b| b.to_string());
            let got_visible = !disabled(tool, &got);
            report.check(
                || format!("{name}.tools.{tool} visible"),
                &want,
                &got_visible.to_string(),
            );
        }
    }
    Ok(report)
}

fn layers_section(env: &Env, cases: &[Value]) -> SectionReport {
    let mut report = SectionReport::new(ENGINE, "configLayers");
    for (i, case) in cases.iter().enumerate() {
        let name = str_field(case, "name").unwrap_or("?").to_string();
        let (Some(project), Some(want_full), Some(want_rules)) =
            (case.get("project"), case.get("full"), case.get("rules"))
        else {
            report.fail(
                format!("[{i}] {name}"),
                "{global, project, rules, full}",
                short_json(case),
            );
            continue;
        };
        let mut layers: Vec<&Value> = Vec::new();
        if let Some(global) = case.get("global").filter(|g| !g.is_null()) {
            layers.push(global);
        }
        layers.push(project);
        let merged = merge_layers(&layers);
        match user_rules(&merged, "build", &env.home) {
            Ok((user, block)) => {
                let full = agent_ruleset(Some(Agent::Build), &env.agent_env(), &user, &block);
                let full = rules_to_value(&full);
                if full.same_as(want_full) {
                    report.passed += 1;
                } else {
                    report.fail(
                        format!("{name}: full"),
                        short_json(want_full),
                        short_json(&full),
                    );
                }
                let user_part = rules_to_value(&merge(&[&user, &block]));
                if user_part.same_as(want_rules) {
                    report.passed += 1;
                } else {
                    report.fail(
                        format!("{name}: rules"),
                        short_json(want_rules),
                        short_json(&user_part),
                    );
                }
            }
            Err(e) => report.fail(name.clone(), short_json(want_full), e.to_string()),
        }
    }
    report
}
