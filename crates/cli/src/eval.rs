//! `permlab eval --rules FILE --call 'tool: input' [--engine NAME|all] [--explain]`.

use permlab_core::{engines, Call, Decision, Evaluation, Reason, RuleTable};

use crate::args::Args;
use crate::pi;
use crate::rules::{self, load_table};
use crate::Failure;

pub fn run(args: &Args) -> Result<bool, Failure> {
    if pi::chosen(args.value("engine")) {
        let call_text = args.required("call", "'bash: sudo make install'")?;
        let call = Call::parse(call_text).map_err(Failure::input)?;
        pi::eval(&call, !args.switch("no-ui"), args.switch("explain"));
        return Ok(true);
    }
    if args.switch("no-ui") {
        return Err(Failure::usage(
            "--no-ui is for --engine pi-gate (Pi without a UI)",
        ));
    }
    let table = load_table(args.required("rules", "fixtures/rulesets/miniagent-standard.json")?)?;
    let call_text = args.required("call", "'bash: git push origin main'")?;
    let call = Call::parse(call_text).map_err(Failure::input)?;
    let ids = rules::engines(args.value("engine"))?;
    say!("call: {call}");
    say!("{:<12} {:<12} decisive rule", "engine", "verdict");
    for id in ids {
        let e = engines::build(id, &table).evaluate(&call);
        say!(
            "{:<12} {:<12} {}",
            id.slug(),
            e.decision.as_str(),
            decisive(&table, &e)
        );
        parts(&table, &e);
        if args.switch("explain") {
            explain(&table, &e);
        }
    }
    Ok(true)
}

fn row_text(table: &RuleTable, row: usize) -> String {
    match table.rules().get(row) {
        Some(r) => format!("#{} {} {:?} {}", row + 1, r.tool, r.pattern, r.action),
        None => format!("#{}", row + 1),
    }
}

fn decisive(table: &RuleTable, e: &Evaluation) -> String {
    match e.rule {
        Some(row) => row_text(table, row),
        None if e.decision == Decision::Unavailable => "— (tool removed)".to_string(),
        None => "— (no rule decided)".to_string(),
    }
}

/// A call the product split: each part, its verdict and row, and which part decided.
fn parts(table: &RuleTable, e: &Evaluation) {
    use permlab_core::evaluation::{Combine, Subject};
    let Some((k, how)) = e.decided_by else {
        return;
    };
    let how = match how {
        Combine::FirstNotAllowed => "asked in order; the first not allowed decides",
        Combine::Strictest => "each checked; the strictest decides",
    };
    say!(
        "    {} part{} ({how}):",
        e.parts.len(),
        if e.parts.len() == 1 { "" } else { "s" }
    );
    for (i, p) in e.parts.iter().enumerate() {
        let what = match &p.subject {
            Subject::Command(c) => format!("command {c:?}"),
            Subject::OutsideDirectory(d) => format!("outside directory {d:?} (external_directory)"),
        };
        let row = p
            .rule
            .map(|r| row_text(table, r))
            .unwrap_or_else(|| "no rule".into());
        say!(
            "    {} part {}: {what} → {} ({row})",
            if i == k { "▶" } else { " " },
            i + 1,
            p.decision.as_str()
        );
    }
}

fn explain(table: &RuleTable, e: &Evaluation) {
    for (k, s) in e.steps.iter().enumerate() {
        let mark = |b: Option<bool>| match b {
            Some(true) => "✓",
            Some(false) => "✗",
            None => "–",
        };
        let group = s.group.map(|g| format!("[{g} group] ")).unwrap_or_default();
        let part = s
            .part
            .map(|p| format!("[part {}] ", p + 1))
            .unwrap_or_default();
        say!(
            "    step {}: {part}{group}{} — tool {} pattern {}{}",
            k + 1,
            row_text(table, s.row),
            mark(Some(s.tool_matched)),
            mark(s.pattern_matched),
            if s.stop { " → stop" } else { "" }
        );
    }
    if !e.matches.is_empty() {
        let rows: Vec<String> = e.matches.iter().map(|r| format!("#{}", r + 1)).collect();
        say!("    matching rows: {}", rows.join(", "));
    }
    say!("    why: {}", reason(&e.reason));
    if e.inferred {
        say!("    (rests on a point inferred from the documentation)");
    }
}

fn reason(r: &Reason) -> String {
    // The widget renders reasons in zh/en; the CLI shows the structured value itself.
    format!("{r:?}")
}
