//! `--engine pi-gate`: Pi's permission gate ([`permlab_core::pi_gate`]) in `eval`, `batch` and
//! `replay`. The gate reads no rule table, so `--rules` is not needed (and ignored if given);
//! `--no-ui` runs it as Pi does without a UI (print mode), where a dangerous command is denied
//! instead of asked.

use permlab_core::json::{self, Value};
use permlab_core::pi_gate::{self, GateVerdict, PATTERNS};
use permlab_core::replay::DECISIONS;
use permlab_core::trace::Trace;
use permlab_core::Call;

/// The engine name on the command line.
pub const SLUG: &str = "pi-gate";

/// Whether `--engine` names Pi's gate.
pub fn chosen(engine: Option<&str>) -> bool {
    engine == Some(SLUG)
}

fn pattern_text(k: usize) -> String {
    format!("/{}/{}", PATTERNS[k].source, PATTERNS[k].flags)
}

/// One `eval` line (and, with `--explain`, why).
pub fn eval(call: &Call, has_ui: bool, explain: bool) {
    let v = pi_gate::tool_call(&call.tool, &call.input, has_ui);
    say!("call: {call}");
    say!("{:<12} {:<12} decisive pattern", "engine", "verdict");
    let decisive = match v.pattern {
        Some(k) => format!("#{} {}", k + 1, pattern_text(k)),
        None => "— (no pattern matched)".to_string(),
    };
    say!("{:<12} {:<12} {decisive}", SLUG, v.decision.as_str());
    if explain {
        let why = if call.tool != pi_gate::TOOL {
            format!("the hook only looks at the {} tool", pi_gate::TOOL)
        } else if v.pattern.is_none() {
            "none of the three patterns matches: the hook returns undefined and the command runs"
                .to_string()
        } else if has_ui {
            format!(
                "dangerous: Pi asks {}; anything but \"Yes\" blocks with {}",
                pi_gate::CHOICES
                    .iter()
                    .map(|c| crate::words::quoted(c))
                    .collect::<Vec<_>>()
                    .join(" / "),
                crate::words::quoted(pi_gate::USER_REASON)
            )
        } else {
            format!(
                "dangerous and no UI: blocked with {}",
                crate::words::quoted(pi_gate::NO_UI_REASON)
            )
        };
        say!("    why: {why}");
    }
}

/// One `batch` output line: `{"decision": …, "pattern": k|null}` plus `"reason"` on a deny.
pub fn batch_line(v: &GateVerdict, out: &mut String) {
    out.clear();
    out.push_str("{\"decision\":");
    json::write_string(v.decision.as_str(), out);
    out.push_str(",\"pattern\":");
    match v.pattern {
        // Counted from 1, as `eval` shows it (#1).
        Some(k) => out.push_str(&(k + 1).to_string()),
        None => out.push_str("null"),
    }
    if let Some(r) = v.reason {
        out.push_str(",\"reason\":");
        json::write_string(r, out);
    }
    out.push('}');
}

/// `replay TRACE --engine pi-gate`: the tallies with and without a UI, then the caught calls.
pub fn replay(path: &str, trace: &Trace, as_json: bool) {
    let calls = trace.common_calls();
    let r = pi_gate::replay(&calls);
    let line_of = |i: usize| trace.calls.get(i).map_or(0, |c| c.line);
    if as_json {
        let lane = |mode: &str, t: &permlab_core::replay::Tally| {
            let mut e: Vec<(String, Value)> = vec![
                ("engine".into(), Value::from(SLUG)),
                ("mode".into(), Value::from(mode)),
                ("total".into(), Value::from(t.total())),
            ];
            for d in DECISIONS {
                e.push((d.as_str().into(), Value::from(t.get(d))));
            }
            Value::Object(e)
        };
        let caught = r
            .caught
            .iter()
            .map(|&(i, k)| {
                Value::Object(vec![
                    ("index".into(), Value::from(i + 1)),
                    ("line".into(), Value::from(line_of(i))),
                    ("tool".into(), Value::from(calls[i].tool.as_str())),
                    ("input".into(), Value::from(calls[i].input.as_str())),
                    ("pattern".into(), Value::from(k + 1)),
                ])
            })
            .collect();
        let doc = Value::Object(vec![
            ("trace".into(), Value::from(path)),
            ("calls".into(), Value::from(calls.len())),
            (
                "lanes".into(),
                Value::Array(vec![lane("ui", &r.ui), lane("no-ui", &r.no_ui)]),
            ),
            ("caught".into(), Value::Array(caught)),
        ]);
        say!("{}", doc.to_json_pretty());
        return;
    }
    say!("trace: {path}: {} tool calls", calls.len());
    say!("rules: none (Pi's gate reads no table)");
    say!("");
    let mut header = format!("{:<12} {:<18}", "engine", "mode");
    for d in DECISIONS {
        header.push_str(&format!(" {:>16}", d.as_str()));
    }
    say!("{header}");
    for (mode, t) in [("ui", &r.ui), ("no-ui", &r.no_ui)] {
        let mut line = format!("{SLUG:<12} {mode:<18}");
        for d in DECISIONS {
            let cell = format!("{} ({}%)", t.get(d), t.percent(d));
            line.push_str(&format!(" {cell:>16}"));
        }
        say!("{}", line.trim_end());
    }
    say!("");
    say!("caught: {} of {} calls", r.caught.len(), calls.len());
    for &(i, k) in &r.caught {
        say!(
            "  #{} (line {}) {}: {}  — {}",
            i + 1,
            line_of(i),
            calls[i].tool,
            crate::replay::clip(&calls[i].input),
            pattern_text(k)
        );
    }
}
