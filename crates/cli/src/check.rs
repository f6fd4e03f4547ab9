//! `permlab check LESSON.json...`: validate lessons and compare every author-written answer
//! with the engines.

use permlab_core::claude_code::drift::{self, DocDrift};
use permlab_core::claude_code::{ClaudeCodeEngine, Mode, Policy};
use permlab_core::lesson::{Lesson, Locator, Preset, Severity};
use permlab_core::{Call, Engine, EngineId, Evaluation, Reason};

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

/// A row written in Claude Code's syntax (`"tool": "Bash"`, `"pattern": "Bash(git *)"`): what
/// to write instead. The table's tools are the common ones (`bash`, `read_file`…); a `Bash`
/// row is another tool to OpenCode and first-match, and a `Bash(…)` pattern matches no command.
fn claude_syntax_in_row(tool: &str, pattern: &str) -> Option<String> {
    use permlab_core::import::claude_tool_row;
    let pat = pattern.trim();
    let open = pat.find('(');
    let in_pattern = match open {
        Some(o) if pat.ends_with(')') => {
            let name = &pat[..o];
            (permlab_core::claude_code::rule::known_tool(name)
                && name.starts_with(|c: char| c.is_ascii_uppercase()))
            .then_some(name)
        }
        _ => None,
    };
    if let Some(name) = in_pattern {
        let (t, p) = claude_tool_row(pat);
        return Some(format!(
            "\"pattern\": \"{pat}\" is a Claude Code rule ({name}(…)), not a pattern: no call matches it; write \"tool\": \"{t}\", \"pattern\": \"{p}\""
        ));
    }
    let claude_name = tool.starts_with(|c: char| c.is_ascii_uppercase())
        && permlab_core::claude_code::rule::known_tool(tool);
    if claude_name {
        let (t, _) = claude_tool_row(tool);
        if t != tool {
            return Some(format!(
                "\"tool\": \"{tool}\" is Claude Code's name for the tool; the table's tools are the common ones, which every engine reads: write \"tool\": \"{t}\""
            ));
        }
    }
    None
}

/// The recorded docs-versus-CLI cases a preset's Claude Code calls may be ([`drift`]): for a
/// native settings preset, its own settings; for a table, the settings the table translates
/// to, in the preset's mode (no sandbox).
struct Drift<'a> {
    preset: &'a Preset,
    /// The table's translated policy and mode, built on first use.
    table: Option<(Policy, Mode)>,
}

impl<'a> Drift<'a> {
    fn new(preset: &'a Preset) -> Self {
        Drift {
            preset,
            table: None,
        }
    }

    fn of(&mut self, call: &Call) -> Option<&'static DocDrift> {
        if call.tool != "bash" {
            return None;
        }
        if self.preset.imported.is_some() {
            return self.preset.claude_drift(call);
        }
        let preset = self.preset;
        let (policy, mode) = self.table.get_or_insert_with(|| {
            let engine = ClaudeCodeEngine::new(&preset.table);
            (
                engine.policy().clone(),
                preset.claude.mode.unwrap_or(Mode::Default),
            )
        });
        drift::for_settings(policy, *mode, &call.input)
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
        let at = |path: &str| {
            locator
                .locate(path)
                .map(|p| format!("{}:{}: ", p.line, p.column))
                .unwrap_or_default()
        };
        for (k, preset) in lesson.presets.iter().enumerate() {
            for (i, r) in preset.table.rules().iter().enumerate() {
                if preset.imported.is_some() {
                    break;
                }
                if let Some(fix) = claude_syntax_in_row(&r.tool, &r.pattern) {
                    say!(
                        "{path}:{}warning at presets[{k}].rules[{i}]: {fix}",
                        at(&format!("presets[{k}].rules[{i}]"))
                    );
                }
            }
        }
        let (mut checked, mut wrong) = (0, 0);
        for preset in &lesson.presets {
            // Each engine is compiled once per preset, not once per answer: a lesson of
            // 40 000 rules and 10 000 answers took minutes where `batch` takes a second.
            let mut built: Vec<(EngineId, Box<dyn Engine>)> = Vec::new();
            let mut drift = Drift::new(preset);
            for (i, call) in preset.calls.iter().enumerate() {
                for (engine_id, want) in &call.expect {
                    let engine = match built.iter().position(|(id, _)| id == engine_id) {
                        Some(n) => &built[n].1,
                        None => {
                            built.push((*engine_id, preset.engine(*engine_id)));
                            &built[built.len() - 1].1
                        }
                    };
                    checked += 1;
                    // Where Claude Code's docs and the recorded CLI disagree on this very
                    // case, the author is told both answers (the engine follows the CLI).
                    let drifted = match engine_id {
                        EngineId::ClaudeCode => drift.of(&call.call),
                        _ => None,
                    };
                    // The verdict alone first (what `batch` computes; it agrees with
                    // `evaluate`); the full trace only for a wrong answer, to say why.
                    let place = || at(&format!("{}[{i}].expect.{engine_id}", preset.calls_at));
                    if engine.decide(&call.call).0 != *want {
                        let e = engine.evaluate(&call.call);
                        let place = place();
                        wrong += 1;
                        let docs = match drifted {
                            Some(d) if d.docs == *want => format!(
                                "; {}: the answer follows the docs, the engine the recorded CLI",
                                d.label()
                            ),
                            Some(d) => format!("; {}", d.label()),
                            None => String::new(),
                        };
                        say!(
                            "{path}:{place}preset {}, call #{} `{}`, {}: expected {}, engines say {} ({}){docs}",
                            preset.id,
                            i + 1,
                            call.call,
                            engine_id,
                            want,
                            e.decision,
                            why(&e, &preset.table)
                        );
                    } else if let Some(d) = drifted {
                        let place = place();
                        say!(
                            "{path}:{place}note: preset {}, call #{} `{}`, {}: {} (the answer follows the recorded CLI; a reader of the docs expects {})",
                            preset.id,
                            i + 1,
                            call.call,
                            engine_id,
                            d.label(),
                            d.docs
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
