//! `permlab batch --engine NAME --rules FILE`: JSON lines of calls on stdin, one JSON line of
//! verdict per call on stdout, in order. Patterns are compiled once for the whole stream.

use std::io::{BufRead, BufWriter, Write};

use permlab_core::json;
use permlab_core::{engines, pi_gate, Call, Decision};

use crate::cli::{required, BatchArgs};
use crate::pi;
use crate::rules::{load_table, one_engine};
use crate::Failure;

pub fn run(args: &BatchArgs) -> Result<bool, Failure> {
    let pi_gate = pi::chosen(args.engine.as_deref());
    if args.no_ui && !pi_gate {
        return Err(Failure::usage(
            "--no-ui is for --engine pi-gate (Pi without a UI)",
        ));
    }
    if pi_gate {
        return each_call(|call, line| {
            pi::batch_line(
                &pi_gate::tool_call(&call.tool, &call.input, !args.no_ui),
                line,
            )
        });
    }
    let id = one_engine(args.engine.as_deref())?;
    let table = load_table(required(
        &args.rules,
        "rules",
        "fixtures/rulesets/miniagent-standard.json",
    )?)?;
    let engine = engines::build(id, &table);
    each_call(|call, line_text| {
        let (decision, rule) = engine.decide(call);
        line_text.clear();
        line_text.push_str("{\"decision\":");
        let shown = if decision == Decision::Unavailable {
            Decision::Deny
        } else {
            decision
        };
        json::write_string(shown.as_str(), line_text);
        line_text.push_str(",\"rule\":");
        match rule {
            // Counted from 1, as `eval`, `check` and the page's `evaluate()` count rows.
            Some(r) => line_text.push_str(&(r + 1).to_string()),
            None => line_text.push_str("null"),
        }
        if decision == Decision::Unavailable {
            line_text.push_str(",\"unavailable\":true");
        }
        line_text.push('}');
    })
}

/// Reads the calls of stdin, writes the line `verdict` makes of each.
fn each_call(mut verdict: impl FnMut(&Call, &mut String)) -> Result<bool, Failure> {
    let stdin = std::io::stdin().lock();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut line_text = String::new();
    for (n, line) in stdin.lines().enumerate() {
        let line =
            line.map_err(|e| Failure::input(format!("stdin: line {}: cannot read: {e}", n + 1)))?;
        if line.trim().is_empty() {
            continue;
        }
        let at = |msg: String| Failure::input(format!("stdin: line {}: {msg}", n + 1));
        let value = json::parse(&line).map_err(|e| {
            at(format!(
                "invalid JSON at column {}: {}",
                e.position.column, e.message
            ))
        })?;
        let call = Call::from_value(&value).map_err(|e| at(e.to_string()))?;
        verdict(&call, &mut line_text);
        writeln!(out, "{line_text}").map_err(crate::stdout_failed)?;
    }
    out.flush().map_err(crate::stdout_failed)?;
    Ok(true)
}
