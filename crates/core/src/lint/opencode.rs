//! OpenCode: last match wins. Dead (shadowed) rules, order-fragile pairs, and patterns that
//! read differently from what `Wildcard.match` does.

use super::glob::{text, witness, Lang, Search};
use super::locate::{self, Seg};
use super::{file_error, Demo, Facts, Finding, Kind, Place, RuleRef, Severity, Source};
use crate::error::Error;
use crate::evaluation::Decision;
use crate::import::{yaml, Format};
use crate::json::{self, Value};
use crate::opencode::wildcard::matches;
use crate::opencode::{find_last, from_config, PermissionConfig, PermissionEntry, Platform, Rule};
use crate::table::{Action, Call};

/// The home directory `~` expands to, as in the importer.
const HOME: &str = "/home/learner";

/// Permission names a demonstrating call prefers, when the rule's permission is a pattern.
const TOOLS: [&str; 12] = [
    "bash",
    "edit",
    "read",
    "glob",
    "grep",
    "list",
    "task",
    "webfetch",
    "websearch",
    "external_directory",
    "skill",
    "lsp",
];

/// Permissions whose patterns are paths.
const PATH_TOOLS: [&str; 6] = ["read", "edit", "external_directory", "list", "glob", "grep"];

/// One rule of the ruleset with where it is written.
pub(crate) struct Written {
    pub rule: Rule,
    pub place: Place,
    /// As written: `bash "git *": allow` / `edit: deny`.
    pub text: String,
    perm: Lang,
    pat: Lang,
}

/// The ruleset a file gives, each rule with its place: the top-level `permission` first, then
/// each `agent.<name>.permission` block (each linted as appended after the top level).
pub(crate) struct Rulesets {
    pub top: Vec<Written>,
    pub agents: Vec<(String, Vec<Written>)>,
}

pub(crate) fn read(src: &Source) -> Result<Rulesets, Error> {
    let body = src.text.strip_prefix('\u{feff}').unwrap_or(&src.text);
    let bom = src.text.len() - body.len();
    if body.starts_with("---") {
        let front = yaml::front_matter(body).map_err(|e| e.in_source(src.name.clone()))?;
        let top = match front.get("permission") {
            Some(p) => written(src, p, "permission", None, bom)?,
            None => Vec::new(),
        };
        return Ok(Rulesets {
            top,
            agents: Vec::new(),
        });
    }
    let value = json::parse_jsonc(body).map_err(|e| {
        file_error(
            &src.name,
            format!(
                "{}:{}: invalid JSONC: {}: fix the syntax there (OpenCode refuses the whole config)",
                e.position.line, e.position.column, e.message
            ),
        )
    })?;
    if value.as_object().is_none() {
        return Err(file_error(
            &src.name,
            format!("1:1: an opencode.json is an object, found {}", value.kind()),
        ));
    }
    let top = match value.get("permission") {
        Some(p) => written(src, p, "permission", Some(&["permission"]), bom)?,
        None => Vec::new(),
    };
    let mut agents = Vec::new();
    for key in ["agent", "mode"] {
        for (name, agent) in value
            .get(key)
            .and_then(Value::as_object)
            .unwrap_or_default()
        {
            if let Some(p) = agent.get("permission") {
                let path = [key, name.as_str(), "permission"];
                let rules = written(
                    src,
                    p,
                    &format!("{key}.{name}.permission"),
                    Some(&path),
                    bom,
                )?;
                agents.push((name.clone(), rules));
            }
        }
    }
    Ok(Rulesets { top, agents })
}

fn written(
    src: &Source,
    value: &Value,
    at: &str,
    json_path: Option<&[&str]>,
    bom: usize,
) -> Result<Vec<Written>, Error> {
    let config = PermissionConfig::decode_at(value, at).map_err(|e| {
        let pos = json_path.map(|p| {
            let segs: Vec<Seg> = p.iter().map(|k| Seg::Key(k)).collect();
            locate::line_col(&src.text, bom + locate::offset(&src.text[bom..], &segs, true))
        });
        let (l, c) = pos.unwrap_or((1, 1));
        file_error(
            &src.name,
            format!("{l}:{c}: {e} (OpenCode refuses the whole config: an action is \"allow\", \"ask\" or \"deny\", a tool takes an action or an object of pattern → action)"),
        )
    })?;
    let rules = from_config(&config, HOME);
    let mut out = Vec::with_capacity(rules.len());
    let mut it = rules.into_iter();
    for (key, entry) in &config.entries {
        let keys: Vec<(Option<&str>, Action)> = match entry {
            PermissionEntry::Action(a) => vec![(None, *a)],
            PermissionEntry::Patterns(p) => p.iter().map(|(k, a)| (Some(k.as_str()), *a)).collect(),
        };
        for (pat_key, action) in keys {
            let Some(rule) = it.next() else { break };
            let (line, column) = match json_path {
                Some(p) => {
                    let mut segs: Vec<Seg> = p.iter().map(|k| Seg::Key(k)).collect();
                    // `"permission": "allow"` is one rule `* *`: point at the value.
                    if !matches!(value, Value::String(_)) {
                        segs.push(Seg::Key(key));
                    }
                    if let Some(k) = pat_key {
                        segs.push(Seg::Key(k));
                    }
                    let off = locate::offset(&src.text[bom..], &segs, true);
                    locate::line_col(&src.text, bom + off)
                }
                None => match pat_key {
                    Some(k) => locate::yaml_key(&src.text, Some(key), k),
                    None => locate::yaml_key(&src.text, None, key),
                },
            };
            let text = match pat_key {
                Some(k) => format!("{key} {}: {action}", json::Value::from(k).to_json()),
                None => format!("{key}: {action}"),
            };
            out.push(Written {
                perm: Lang::opencode(&rule.permission),
                pat: Lang::opencode(&rule.pattern),
                rule,
                place: Place {
                    file: src.name.clone(),
                    line,
                    column,
                },
                text,
            });
        }
    }
    Ok(out)
}

fn rule_ref(w: &Written) -> RuleRef {
    RuleRef {
        place: w.place.clone(),
        text: w.text.clone(),
        action: w.rule.action,
    }
}

/// OpenCode's verdict for a call: for `bash`, what the real bash tool decides for the whole
/// call (outside directories first, one pattern per command, the first request that is not
/// allowed); for other tools the last matching rule's action, or the default ask.
pub(crate) fn decide(rules: &[Rule], perm: &str, input: &str) -> (Action, Option<usize>) {
    if perm == "bash" {
        let place = crate::opencode::Place::of(&crate::context::CallContext::default());
        let d = crate::opencode::bash_call(rules, input, &place);
        return (d.decision, d.deciding_rule());
    }
    match find_last(Platform::Linux, perm, input, &[rules]) {
        Some(i) => (rules[i].action, Some(i)),
        None => (Action::Ask, None),
    }
}

fn decided_by(all: &[&Written], d: Option<usize>) -> String {
    match d {
        Some(i) => format!("rule `{}`", all[i].text),
        None => "no rule: the default ask".into(),
    }
}

fn demo(all: &[&Written], rules: &[Rule], perm: &str, input: &str) -> Demo {
    let (action, d) = decide(rules, perm, input);
    // A `bash` hidden from the model (`Permission.disabled`) cannot be called at all.
    let hidden = perm == "bash" && crate::opencode::disabled("bash", rules);
    Demo {
        call: Call::new(perm, input),
        native: format!("{perm}: {input}"),
        verdict: if hidden {
            Decision::Unavailable
        } else {
            action.into()
        },
        decided_by: decided_by(all, d),
    }
}

fn some_text(s: Search) -> Option<String> {
    match s {
        Search::Found(u) => text(&u),
        _ => None,
    }
}

/// A permission name in `a` (and in `b` when given), a known tool name when one fits.
fn permission_in(a: &Lang, b: Option<&Lang>) -> Option<String> {
    if let Some(t) = TOOLS
        .iter()
        .find(|t| a.matches(t) && b.is_none_or(|b| b.matches(t)))
    {
        return Some(t.to_string());
    }
    let any = Lang::opencode("?*");
    some_text(witness(a, b.unwrap_or(&any), true))
}

/// Whether `w` covers `v` (matches every call `v` matches); `None`: unsure.
fn covers(w: &Written, v: &Written) -> Option<bool> {
    match w.perm.includes(&v.perm)? {
        false => Some(false),
        true => w.pat.includes(&v.pat),
    }
}

pub(crate) fn lint(src: &Source) -> Result<Vec<Finding>, Error> {
    let sets = read(src)?;
    let mut out = Vec::new();
    let top: Vec<&Written> = sets.top.iter().collect();
    lint_ruleset(&top, 0, &mut out);
    for (name, agent) in &sets.agents {
        let mut all = top.clone();
        all.extend(agent.iter());
        let start = out.len();
        lint_ruleset(&all, top.len(), &mut out);
        for f in &mut out[start..] {
            f.facts.agent = Some(name.clone());
        }
    }
    Ok(out)
}

/// The rules an OpenCode ruleset would report dead, by position (for tests and the widget).
#[cfg(test)]
pub(crate) fn dead_positions(src: &Source) -> Result<Vec<usize>, Error> {
    let sets = read(src)?;
    let top: Vec<&Written> = sets.top.iter().collect();
    let mut out = Vec::new();
    lint_ruleset(&top, 0, &mut out);
    Ok(out
        .iter()
        .filter(|f| f.kind == Kind::DeadRule)
        .filter_map(|f| {
            top.iter()
                .position(|w| w.place == f.place && w.text == f.rules[0].text)
        })
        .collect())
}

fn lint_ruleset(all: &[&Written], own: usize, out: &mut Vec<Finding>) {
    let rules: Vec<Rule> = all.iter().map(|w| w.rule.clone()).collect();
    let mut dead = vec![false; all.len()];
    #[allow(clippy::needless_range_loop)] // `i` also indexes `all` inside `dead_rule`
    for i in own..all.len() {
        if let Some(f) = dead_rule(all, &rules, i) {
            dead[i] = true;
            out.push(f);
        }
    }
    for i in own..all.len() {
        for j in i + 1..all.len() {
            if dead[i] || dead[j] || all[i].rule.action == all[j].rule.action {
                continue;
            }
            if let Some(f) = fragile(all, &rules, i, j) {
                out.push(f);
            }
        }
    }
    for (i, &d) in dead.iter().enumerate().skip(own) {
        if d {
            continue;
        }
        out.extend(hazards(all, &rules, i));
    }
}

fn dead_rule(all: &[&Written], rules: &[Rule], i: usize) -> Option<Finding> {
    let v = all[i];
    let later: Vec<usize> = (i + 1..all.len())
        .filter(|&j| all[j].perm.includes(&v.perm) == Some(true))
        .collect();
    if later.is_empty() {
        return None;
    }
    let single = later
        .iter()
        .rev()
        .copied()
        .find(|&j| covers(all[j], v) == Some(true));
    let cover: Vec<usize> = match single {
        Some(j) => vec![j],
        None => {
            let mut union = Lang::opencode("");
            let mut first = true;
            for &j in &later {
                union = if first {
                    all[j].pat.clone()
                } else {
                    union.or(&all[j].pat)
                };
                first = false;
            }
            if union.includes(&v.pat) != Some(true) {
                return None;
            }
            later
                .iter()
                .copied()
                .filter(|&j| matches!(witness(&v.pat, &all[j].pat, true), Search::Found(_)))
                .collect()
        }
    };
    let perm = permission_in(&v.perm, None)?;
    let input = super::glob::natural(&v.rule.pattern.replace('\\', "/"), &v.pat)
        .or_else(|| some_text(witness(&v.pat, &Lang::opencode("*"), true)))?;
    // The engine must agree: the rule matches the call, and a later rule decides it.
    let (action, d) = decide(rules, &perm, &input);
    if !(matches(&perm, &v.rule.permission) && matches(&input, &v.rule.pattern)) {
        return None;
    }
    let decider = d.filter(|&k| k > i)?;
    let same = cover.iter().all(|&j| all[j].rule.action == v.rule.action);
    let names: Vec<String> = cover
        .iter()
        .map(|&j| format!("`{}`", all[j].text))
        .collect();
    let mut refs = vec![rule_ref(v)];
    refs.extend(cover.iter().map(|&j| rule_ref(all[j])));
    let message = if same {
        format!(
            "`{}` never decides: the later {} match{} every call it matches with the same action (OpenCode: the last match wins), so it is redundant",
            v.text,
            names.join(", "),
            if names.len() == 1 { "es" } else { "" }
        )
    } else {
        format!(
            "`{}` never applies: the later {} match{} every call it matches (OpenCode: the last match wins), so `{perm}: {input}` gets {} instead of {}",
            v.text,
            names.join(", "),
            if names.len() == 1 { "es" } else { "" },
            action,
            v.rule.action
        )
    };
    let fix = if same {
        "delete it".to_string()
    } else {
        format!(
            "move `{}` after {} (broad rules such as `\"*\"` go first), or delete it",
            v.text,
            names.join(", ")
        )
    };
    let _ = decider;
    Some(Finding {
        kind: Kind::DeadRule,
        severity: if same {
            Severity::Note
        } else {
            Severity::Warning
        },
        harness: Format::OpenCode,
        place: v.place.clone(),
        rules: refs,
        message,
        call: demo(all, rules, &perm, &input),
        fix,
        facts: Facts::default(),
    })
}

fn fragile(all: &[&Written], rules: &[Rule], i: usize, j: usize) -> Option<Finding> {
    let (a, b) = (all[i], all[j]);
    if a.rule.permission != b.rule.permission
        && !a.rule.permission.contains(['*', '?'])
        && !b.rule.permission.contains(['*', '?'])
    {
        return None;
    }
    // Neither may cover the other: then order is the idiom (general first) or the rule is dead.
    if covers(a, b)? || covers(b, a)? {
        return None;
    }
    let perm = permission_in(&a.perm, Some(&b.perm))?;
    let input = some_text(witness(&a.pat, &b.pat, true))?;
    let (now, d) = decide(rules, &perm, &input);
    let mut swapped = rules.to_vec();
    swapped.swap(i, j);
    let (then, _) = decide(&swapped, &perm, &input);
    if now == then || d != Some(j) {
        return None;
    }
    Some(Finding {
        kind: Kind::OrderFragile,
        severity: Severity::Warning,
        harness: Format::OpenCode,
        place: b.place.clone(),
        rules: vec![rule_ref(b), rule_ref(a)],
        message: format!(
            "`{}` and `{}` overlap and neither covers the other, so their order decides: `{perm}: {input}` is {now} as written and would be {then} with the two swapped",
            a.text, b.text
        ),
        call: demo(all, rules, &perm, &input),
        fix: format!(
            "decide which should win where they overlap and add a rule for the overlap after both (e.g. `{perm} {}: {now}`), so that moving one no longer flips it",
            json::Value::from(input.as_str()).to_json()
        ),
        facts: Facts {
            other: Some(then.into()),
            write: vec![format!(
                "{perm} {}: {now}",
                json::Value::from(input.as_str()).to_json()
            )],
            ..Facts::default()
        },
    })
}

fn hazards(all: &[&Written], rules: &[Rule], i: usize) -> Vec<Finding> {
    let w = all[i];
    let (perm, pat, action) = (
        w.rule.permission.as_str(),
        w.rule.pattern.as_str(),
        w.rule.action,
    );
    let mut out = Vec::new();
    let mut push = |kind, severity, message: String, input: String, fix: String, facts| {
        out.push(Finding {
            kind,
            severity,
            harness: Format::OpenCode,
            place: w.place.clone(),
            rules: vec![rule_ref(w)],
            message,
            call: demo(all, rules, perm, &input),
            fix,
            facts,
        })
    };
    let write = |w: String| Facts {
        write: vec![w],
        ..Facts::default()
    };
    let literal_perm = !perm.contains(['*', '?']);
    // `"yarn": "deny"`: an exact command, not a prefix.
    if perm == "bash" && !pat.is_empty() && !pat.contains(['*', '?']) && !pat.ends_with(' ') {
        let input = if pat.contains(' ') {
            format!("{pat} --verbose")
        } else {
            format!("{pat} test")
        };
        let (got, _) = decide(rules, perm, &input);
        if got != action && !matches(&input, pat) {
            push(
                Kind::NoSpaceStar,
                Severity::Warning,
                format!(
                    "`{}` matches only the exact command `{pat}` (no ` *`): `{input}` is not matched and gets {got}",
                    w.text
                ),
                input,
                format!("write `\"{pat} *\": \"{action}\"` (matches `{pat}` and `{pat} …`)"),
                Facts {
                    part: Some(pat.to_string()),
                    ..write(format!("\"{pat} *\": \"{action}\""))
                },
            );
        }
    }
    // `*` crosses `/`.
    if literal_perm
        && PATH_TOOLS.contains(&perm)
        && action == Action::Allow
        && pat.contains('*')
        && pat.contains('/')
        && !pat.contains("**")
    {
        let input = pat.replacen('*', "a/b", 1).replace(['*', '?'], "x");
        if matches(&input, pat) && decide(rules, perm, &input).1 == Some(i) {
            let deeper = pat.replacen('*', "*/*", 1);
            push(
                Kind::StarCrossesSlash,
                Severity::Warning,
                format!(
                    "`*` crosses `/` in OpenCode: `{}` also allows `{input}`, at any depth",
                    w.text
                ),
                input,
                format!(
                    "if one level is meant, add `\"{deeper}\": \"ask\"` after it (OpenCode has no single-segment wildcard)"
                ),
                write(format!("\"{deeper}\": \"ask\"")),
            );
        }
    }
    // `**/` is not a globstar.
    if let Some(pos) = find_globstar(pat) {
        let input = format!("{}{}", &pat[..pos], &pat[pos + 3..]).replace(['*', '?'], "x");
        let (got, _) = decide(rules, perm, &input);
        if !matches(&input, pat)
            && got != action
            && permission_in(&w.perm, None).as_deref() == Some(perm)
        {
            push(
                Kind::Globstar,
                Severity::Warning,
                format!(
                    "`**` is just two `*` in OpenCode, so `{}` needs a `/` there: `{input}` is not matched and gets {got}",
                    w.text
                ),
                input.clone(),
                format!("add `\"{}\": \"{action}\"` for the top level too", &format!("{}{}", &pat[..pos], &pat[pos + 3..])),
                write(format!("\"{}{}\": \"{action}\"", &pat[..pos], &pat[pos + 3..])),
            );
        }
    }
    // `?` is one UTF-16 unit.
    if pat.contains('?') && literal_perm {
        let input = pat.replacen('?', "😀", 1).replace(['*', '?'], "x");
        let (got, _) = decide(rules, perm, &input);
        if !matches(&input, pat) && got != action {
            push(
                Kind::QuestionMark,
                Severity::Note,
                format!(
                    "`?` matches exactly one UTF-16 code unit in OpenCode (and also `/`): `{input}` (an emoji is two units) is not matched by `{}` and gets {got}",
                    w.text
                ),
                input,
                "use `*` where any character may stand, or `??` for a character outside the BMP".into(),
                Facts::default(),
            );
        }
    }
    out
}

/// Where a `**/` starts that stands for "any directory": at the start or after a `/`.
fn find_globstar(pat: &str) -> Option<usize> {
    let p = pat.replace('\\', "/");
    let mut from = 0;
    while let Some(k) = p[from..].find("**/") {
        let at = from + k;
        if at == 0 || p.as_bytes()[at - 1] == b'/' {
            return Some(at);
        }
        from = at + 3;
    }
    None
}
