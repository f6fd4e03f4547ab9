//! `permlab replay TRACE --rules FILE [--json]`: a recorded run's tool calls through every
//! engine and mode — counts and shares of allow / ask / deny / unavailable, then the calls the
//! engines disagree on.
//!
//! TRACE is JSON lines: `{"tool", "input"}` calls, a Claude Code `stream-json` transcript or a
//! Codex rollout (see `permlab_core::trace`). Lines that hold no call are skipped and counted;
//! unreadable lines are listed on stderr (and in `--json`) and the rest is still replayed. A
//! trace with no call at all is unusable input (exit 2).

use permlab_core::json::Value;
use permlab_core::replay::{replay, Replay, DECISIONS};
use permlab_core::trace::{self, Trace};
use permlab_core::RuleTable;

use crate::args::Args;
use crate::pi;
use crate::rules::load_table;
use crate::{read_file, Failure};

/// How many disagreements the text output lists before "… and N more".
const SHOWN: usize = 20;

/// How many characters of a call's input the text output shows.
const INPUT_WIDTH: usize = 60;

pub fn run(args: &Args) -> Result<bool, Failure> {
    let path = match args.positional.as_slice() {
        [one] => one.as_str(),
        [] => {
            return Err(Failure::usage(
                "replay needs a trace file, e.g. permlab replay run.jsonl --rules rules.json",
            ))
        }
        _ => return Err(Failure::usage("replay takes exactly one trace file")),
    };
    let pi_gate = pi::chosen(args.value("engine"));
    match args.value("engine") {
        None => {}
        Some(_) if pi_gate => {}
        Some(other) => {
            return Err(Failure::usage(format!(
                "replay runs every table engine at once; --engine takes only {} (Pi's gate), not \"{other}\"",
                pi::SLUG
            )))
        }
    }
    let table = if pi_gate {
        RuleTable::new([])
    } else {
        load_table(args.required("rules", "fixtures/rulesets/miniagent-standard.json")?)?
    };
    let text = read_file(path)?;
    let trace = trace::parse(&text);
    if trace.calls.is_empty() {
        let mut msg = format!(
            "{path}: no tool calls found in {} non-blank lines ({} skipped, {} unreadable)",
            trace.lines,
            trace.skipped,
            trace.malformed.len()
        );
        for m in trace.malformed.iter().take(5) {
            msg.push_str(&format!("\n  {m}"));
        }
        if trace.malformed.len() > 5 {
            msg.push_str(&format!("\n  … and {} more", trace.malformed.len() - 5));
        }
        msg.push_str(
            "\nexpected JSON lines of {\"tool\", \"input\"} calls, a Claude Code stream-json transcript or a Codex rollout",
        );
        return Err(Failure::input(msg));
    }
    for m in &trace.malformed {
        eprintln!("permlab: {path}: {m} (line skipped)");
    }
    if pi_gate {
        pi::replay(path, &trace, args.switch("json"));
        return Ok(true);
    }
    let result = replay(&table, &trace.common_calls());
    if args.switch("json") {
        say!("{}", to_json(path, &trace, &result).to_json_pretty());
    } else {
        print_text(path, &table, &trace, &result);
    }
    Ok(true)
}

fn print_text(path: &str, table: &RuleTable, trace: &Trace, r: &Replay) {
    let formats: Vec<String> = trace
        .formats()
        .iter()
        .map(|(f, n)| format!("{}: {n}", f.slug()))
        .collect();
    say!(
        "trace: {path}: {} tool calls ({}), {} other lines skipped, {} unreadable",
        r.calls,
        formats.join(", "),
        trace.skipped,
        trace.malformed.len()
    );
    say!("rules: {} rows", table.len());
    say!("");
    let mut header = format!("{:<12} {:<18}", "engine", "mode");
    for d in DECISIONS {
        header.push_str(&format!(" {:>16}", d.as_str()));
    }
    say!("{header}");
    for lane in &r.lanes {
        let mut line = format!(
            "{:<12} {:<18}",
            lane.engine.slug(),
            lane.mode.unwrap_or("—")
        );
        for d in DECISIONS {
            let cell = format!("{} ({}%)", lane.tally.get(d), lane.tally.percent(d));
            line.push_str(&format!(" {cell:>16}"));
        }
        say!("{}", line.trim_end());
    }
    say!("");
    say!(
        "disagreements: {} of {} calls (engines in their default mode: {})",
        r.disagreements.len(),
        r.calls,
        r.engines
            .iter()
            .map(|e| e.slug())
            .collect::<Vec<_>>()
            .join(", ")
    );
    for d in r.disagreements.iter().take(SHOWN) {
        let line = trace.calls.get(d.index).map_or(0, |c| c.line);
        say!(
            "  #{} (line {line}) {}: {}",
            d.index + 1,
            d.call.tool,
            clip(&d.call.input)
        );
        let verdicts: Vec<String> = r
            .engines
            .iter()
            .zip(&d.verdicts)
            .map(|(e, (decision, row))| match row {
                Some(row) => format!("{}={} #{}", e.slug(), decision.as_str(), row + 1),
                None => format!("{}={}", e.slug(), decision.as_str()),
            })
            .collect();
        say!("      {}", verdicts.join("  "));
    }
    if r.disagreements.len() > SHOWN {
        say!("  … and {} more", r.disagreements.len() - SHOWN);
    }
}

/// The input on one line, cut to [`INPUT_WIDTH`] characters.
pub fn clip(input: &str) -> String {
    let one_line: String = input
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    match one_line.char_indices().nth(INPUT_WIDTH) {
        Some((cut, _)) => format!("{}…", &one_line[..cut]),
        None => one_line,
    }
}

fn to_json(path: &str, trace: &Trace, r: &Replay) -> Value {
    let obj = |entries: Vec<(&str, Value)>| {
        Value::Object(
            entries
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        )
    };
    let opt = |s: Option<&str>| s.map_or(Value::Null, Value::from);
    let lanes = r
        .lanes
        .iter()
        .map(|l| {
            let mut e = vec![
                ("engine", Value::from(l.engine.slug())),
                ("mode", opt(l.mode)),
                ("primary", Value::from(l.primary)),
                ("total", Value::from(l.tally.total())),
            ];
            for d in DECISIONS {
                e.push((d.as_str(), Value::from(l.tally.get(d))));
            }
            let shares = DECISIONS
                .iter()
                .map(|&d| {
                    (
                        d.as_str().to_string(),
                        Value::from(l.tally.percent(d) as usize),
                    )
                })
                .collect();
            e.push(("percent", Value::Object(shares)));
            obj(e)
        })
        .collect();
    let disagreements = r
        .disagreements
        .iter()
        .map(|d| {
            let verdicts = r
                .engines
                .iter()
                .zip(&d.verdicts)
                .map(|(e, (decision, row))| {
                    (
                        e.slug().to_string(),
                        obj(vec![
                            ("decision", Value::from(decision.as_str())),
                            ("rule", row.map_or(Value::Null, Value::from)),
                        ]),
                    )
                })
                .collect();
            obj(vec![
                ("index", Value::from(d.index)),
                (
                    "line",
                    Value::from(trace.calls.get(d.index).map_or(0, |c| c.line)),
                ),
                ("tool", Value::from(d.call.tool.as_str())),
                ("input", Value::from(d.call.input.as_str())),
                ("verdicts", Value::Object(verdicts)),
            ])
        })
        .collect();
    let formats = trace
        .formats()
        .iter()
        .map(|(f, n)| (f.slug().to_string(), Value::from(*n)))
        .collect();
    let malformed = trace
        .malformed
        .iter()
        .map(|m| {
            obj(vec![
                ("line", Value::from(m.line)),
                ("message", Value::from(m.message.as_str())),
            ])
        })
        .collect();
    obj(vec![
        ("trace", Value::from(path)),
        ("calls", Value::from(r.calls)),
        ("formats", Value::Object(formats)),
        ("skipped", Value::from(trace.skipped)),
        ("malformed", Value::Array(malformed)),
        ("lanes", Value::Array(lanes)),
        ("disagreements", Value::Array(disagreements)),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_keeps_whole_characters_on_one_line() {
        assert_eq!(clip("a\nb"), "a b");
        let long = "é".repeat(70);
        assert_eq!(clip(&long).chars().count(), INPUT_WIDTH + 1);
    }
}
