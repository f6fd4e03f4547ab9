//! `--target`: rules whose meaning changes when a config moves to another harness.
//!
//! The config is imported into the lesson's common table (the importer keeps only rows its own
//! harness reads back as the same rule), then each row's demonstrating calls go through the
//! native engine and the target's engine over that same table — the target reading it through
//! the core's translation ([`crate::claude_code::translate`], [`crate::codex::from_table`]).
//! A row is reported when the two engines disagree on a call that row decides in either.

use super::glob::{text, witness, Lang, Search};
use super::{place_at, Demo, Facts, Finding, Kind, Place, RuleRef, Severity, Source};
use crate::engines;
use crate::import::{import, Format};
use crate::table::Call;

fn calls_for(from: Format, tool: &str, pattern: &str) -> Vec<Call> {
    // A Claude Code path rule names files through its anchors (`//`, `~/`, `./`): the call is
    // a file it means, in the lesson's environment the engines run in.
    if from == Format::ClaudeCode && matches!(tool, "read_file" | "edit_file" | "write_file") {
        let ctx = crate::claude_code::table::lesson_context();
        return super::claude_code::absolute(pattern, crate::claude_code::Scope::Project, &ctx)
            .map(|p| vec![Call::new(tool, p)])
            .unwrap_or_default();
    }
    let lang = Lang::opencode(pattern);
    let mut out = Vec::new();
    if let Search::Found(u) = witness(&lang, &Lang::opencode("?*"), true) {
        if let Some(t) = text(&u) {
            out.push(t);
        }
    }
    if let Some(head) = pattern.strip_suffix(" *") {
        if !head.contains(['*', '?']) {
            out.push(format!("{head} -v"));
        }
    }
    out.into_iter().map(|w| Call::new(tool, w)).collect()
}

pub(crate) fn lint(src: &Source, from: Format, to: Format) -> Vec<Finding> {
    if from == to {
        return Vec::new();
    }
    let Ok(imported) =
        import(from, &src.text).or_else(|_| crate::import::import_file(&src.name, &src.text))
    else {
        return Vec::new();
    };
    let table = &imported.table;
    // Places per row, from the harness's own reader.
    let places: Vec<Place> = match from {
        Format::OpenCode => match super::opencode::read(src) {
            Ok(sets) if sets.top.len() == table.len() => {
                sets.top.iter().map(|w| w.place.clone()).collect()
            }
            _ => vec![place_at(src, 0); table.len()],
        },
        Format::ClaudeCode => crate::import::row_places(&imported, &src.name, &src.text)
            .into_iter()
            .map(|p| p.unwrap_or_else(|| place_at(src, 0)))
            .collect(),
        Format::Codex => codex_places(src, &imported.origins),
    };
    let native = engines::build(from.engine(), table);
    let target = engines::build(to.engine(), table);
    let claude_t = crate::claude_code::translate(table);
    let codex_t = crate::codex::from_table(table).1;
    let mut out = Vec::new();
    for (row, r) in table.rules().iter().enumerate() {
        for call in calls_for(from, &r.tool, &r.pattern) {
            let (nd, nr) = native.decide(&call);
            let (td, tr) = target.decide(&call);
            if nd == td || (nr != Some(row) && tr != Some(row)) {
                continue;
            }
            let why = match to {
                Format::ClaudeCode => {
                    let t = claude_t.rules.get(row).cloned().flatten();
                    let mut w = match t {
                        Some(t) => format!("in Claude Code the row reads `{} {t}`", r.action),
                        None => claude_t
                            .untranslatable
                            .iter()
                            .find(|u| u.row == row)
                            .map(|u| u.reason.clone())
                            .unwrap_or_default(),
                    };
                    if let Some((_, n)) = claude_t.notes.iter().find(|(k, _)| *k == row) {
                        w.push_str(&format!("; {n}"));
                    }
                    w
                }
                Format::Codex => codex_t
                    .iter()
                    .find(|u| u.row == row)
                    .map(|u| u.reason.clone())
                    .unwrap_or_else(|| "Codex takes the strictest matching prefix".into()),
                Format::OpenCode => match tr {
                    None => "OpenCode's wildcard reads the pattern literally and no rule matches: the default ask".into(),
                    Some(k) if k != row => format!(
                        "OpenCode takes the last matching rule, here row {} `{} {} {}`",
                        k + 1,
                        table.rules()[k].tool,
                        table.rules()[k].pattern,
                        table.rules()[k].action
                    ),
                    Some(_) => "OpenCode takes the last matching rule, whatever its action".into(),
                },
            };
            let rule_text = format!("{} {} {}", r.tool, r.pattern, r.action);
            let native_call = format!("{}: {}", call.tool, call.input);
            out.push(Finding {
                kind: Kind::Translation,
                severity: Severity::Warning,
                harness: to,
                place: places.get(row).cloned().unwrap_or_else(|| place_at(src, 0)),
                rules: vec![RuleRef {
                    place: places.get(row).cloned().unwrap_or_else(|| place_at(src, 0)),
                    text: rule_text.clone(),
                    action: r.action,
                }],
                message: format!(
                    "moved to {}, `{rule_text}` changes meaning: `{native_call}` is {nd} in {} but {td} in {}{}",
                    to.slug(),
                    from.slug(),
                    to.slug(),
                    if why.is_empty() { String::new() } else { format!(" ({why})") }
                ),
                call: Demo {
                    call: call.clone(),
                    native: native_call.clone(),
                    verdict: td,
                    decided_by: match tr {
                        Some(k) => format!("row {} `{} {} {}` in {}", k + 1, table.rules()[k].tool, table.rules()[k].pattern, table.rules()[k].action, to.slug()),
                        None => format!("no rule in {}", to.slug()),
                    },
                },
                fix: format!(
                    "write this rule in {}'s own terms after moving (check `{native_call}` there), rather than copying it row for row",
                    to.slug()
                ),
                facts: Facts {
                    other: Some(nd),
                    from: Some(from),
                    ..Facts::default()
                },
            });
            break;
        }
    }
    out
}

#[cfg(feature = "rules-files")]
fn codex_places(src: &Source, origins: &[String]) -> Vec<Place> {
    let mut p = crate::codex::Policy::empty();
    let offsets: Vec<usize> = match p.add_file_with_calls(&src.name, &src.text) {
        Ok((calls, _)) => calls
            .iter()
            .flat_map(|c| c.rules.clone().map(move |_| c.offset))
            .collect(),
        Err(_) => Vec::new(),
    };
    origins
        .iter()
        .map(|o| {
            let n = o
                .strip_prefix("prefix rule #")
                .and_then(|n| n.parse::<usize>().ok())
                .unwrap_or(1);
            place_at(src, offsets.get(n - 1).copied().unwrap_or(0))
        })
        .collect()
}

#[cfg(not(feature = "rules-files"))]
fn codex_places(src: &Source, origins: &[String]) -> Vec<Place> {
    vec![place_at(src, 0); origins.len()]
}
