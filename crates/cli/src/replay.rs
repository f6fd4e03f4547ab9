//! `permlab replay TRACE --rules FILE [--json]`: a recorded run's tool calls through every
//! engine and mode — counts and shares of allow / ask / deny / unavailable, then the calls the
//! engines disagree on.
//!
//! TRACE is JSON lines: `{"tool", "input"}` calls, a Claude Code `stream-json` transcript or a
//! Codex rollout (see `permlab_core::trace`). Lines that hold no call are skipped and counted;
//! unreadable lines are listed on stderr (and in `--json`) and the rest is still replayed. A
//! trace with no call at all is unusable input (exit 2).

use std::io::{BufWriter, Write};

use permlab_core::json::Value;
use permlab_core::replay::{Replayer, DECISIONS};
use permlab_core::trace::{self, Trace};
use permlab_core::RuleTable;

use crate::cli::{required, ReplayArgs};
use crate::pi;
use crate::rules::load_table;
use crate::{read_file, Failure};

/// How many disagreements the text output lists before "… and N more".
const SHOWN: usize = 20;

/// How many characters of a call's input the text output shows.
const INPUT_WIDTH: usize = 60;

pub fn run(args: &ReplayArgs) -> Result<bool, Failure> {
    let path = match args.trace.as_slice() {
        [one] => one.as_str(),
        [] => {
            return Err(Failure::usage(
                "replay needs a trace file, e.g. permlab replay run.jsonl --rules rules.json",
            ))
        }
        _ => return Err(Failure::usage("replay takes exactly one trace file")),
    };
    let pi_gate = pi::chosen(args.engine.as_deref());
    match args.engine.as_deref() {
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
        load_table(required(
            &args.rules,
            "rules",
            "fixtures/rulesets/miniagent-standard.json",
        )?)?
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
        warn!("permlab: {path}: {m} (line skipped)");
    }
    if pi_gate {
        pi::replay(path, &trace, args.json);
        return Ok(true);
    }
    // One pass counts; the disagreements are kept as positions only and their verdicts
    // recomputed when they are printed (a million-call trace held them all, with a copy of
    // every call, and then a JSON tree of them).
    let mut r = Replayer::new(&table);
    let mut disagreements = Vec::new();
    for (index, c) in trace.calls.iter().enumerate() {
        if r.add(&c.call).is_some() {
            disagreements.push(index);
        }
    }
    if args.json {
        write_json(path, &trace, &r, &disagreements).map_err(crate::stdout_failed)?;
    } else {
        print_text(path, &table, &trace, &r, &disagreements);
    }
    Ok(true)
}

fn print_text(path: &str, table: &RuleTable, trace: &Trace, r: &Replayer, disagreements: &[usize]) {
    let formats: Vec<String> = trace
        .formats()
        .iter()
        .map(|(f, n)| format!("{}: {n}", f.slug()))
        .collect();
    say!(
        "trace: {path}: {} tool calls ({}), {} other lines skipped, {} unreadable",
        r.calls(),
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
    for lane in r.lanes() {
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
        disagreements.len(),
        r.calls(),
        r.engines()
            .iter()
            .map(|e| e.slug())
            .collect::<Vec<_>>()
            .join(", ")
    );
    for &index in disagreements.iter().take(SHOWN) {
        let c = &trace.calls[index];
        say!(
            "  #{} (line {}) {}: {}",
            index + 1,
            c.line,
            c.call.tool,
            clip(&c.call.input)
        );
        let verdicts: Vec<String> = r
            .engines()
            .iter()
            .zip(&r.verdicts(&c.call))
            .map(|(e, (decision, row))| match row {
                Some(row) => format!("{}={} #{}", e.slug(), decision.as_str(), row + 1),
                None => format!("{}={}", e.slug(), decision.as_str()),
            })
            .collect();
        say!("      {}", verdicts.join("  "));
    }
    if disagreements.len() > SHOWN {
        say!("  … and {} more", disagreements.len() - SHOWN);
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

/// Writes the `--json` document: everything but the disagreements as one small tree, then the
/// disagreements one at a time, laid out exactly as [`Value::to_json_pretty`] would.
fn write_json(
    path: &str,
    trace: &Trace,
    r: &Replayer,
    disagreements: &[usize],
) -> std::io::Result<()> {
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
        .lanes()
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
    let disagreement = |index: usize| {
        let c = &trace.calls[index];
        let verdicts = r
            .engines()
            .iter()
            .zip(r.verdicts(&c.call))
            .map(|(e, (decision, row))| {
                (
                    e.slug().to_string(),
                    obj(vec![
                        ("decision", Value::from(decision.as_str())),
                        ("rule", row.map_or(Value::Null, |r| Value::from(r + 1))),
                    ]),
                )
            })
            .collect();
        obj(vec![
            ("index", Value::from(index + 1)),
            ("line", Value::from(c.line)),
            ("tool", Value::from(c.call.tool.as_str())),
            ("input", Value::from(c.call.input.as_str())),
            ("verdicts", Value::Object(verdicts)),
        ])
    };
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
    let head = obj(vec![
        ("trace", Value::from(path)),
        ("calls", Value::from(r.calls())),
        ("formats", Value::Object(formats)),
        ("skipped", Value::from(trace.skipped)),
        ("malformed", Value::Array(malformed)),
        ("lanes", Value::Array(lanes)),
    ])
    .to_json_pretty();
    let mut out = BufWriter::new(std::io::stdout().lock());
    // `head` ends with "\n}": the disagreements go in before it, at depth 1.
    out.write_all(head.strip_suffix("\n}").unwrap_or(&head).as_bytes())?;
    out.write_all(b",\n  \"disagreements\": [")?;
    for (k, &index) in disagreements.iter().enumerate() {
        out.write_all(if k == 0 { b"\n    " } else { b",\n    " })?;
        let item = disagreement(index).to_json_pretty();
        for (n, line) in item.split('\n').enumerate() {
            if n > 0 {
                out.write_all(b"\n    ")?;
            }
            out.write_all(line.as_bytes())?;
        }
    }
    if !disagreements.is_empty() {
        out.write_all(b"\n  ")?;
    }
    out.write_all(b"]\n}\n")?;
    out.flush()
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
