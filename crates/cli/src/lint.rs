//! `permlab lint FILE… [--format F] [--target T] [--json]`: dead, shadowed and order-fragile
//! rules and misleading patterns in real configs, each shown by a call the engine decides.
//!
//! A file may be written `SCOPE:PATH` (`user:`, `project:`, `local:`, `managed:`) to give a
//! Claude Code settings file its layer; otherwise the layer comes from the file name.

use permlab_core::claude_code::Scope;
use permlab_core::import::Format;
use permlab_core::lint::{lint, Source};

use crate::args::Args;
use crate::{read_file, Failure};

fn format_flag(a: &Args, name: &str) -> Result<Option<Format>, Failure> {
    match a.value(name) {
        None => Ok(None),
        Some(v) => Format::from_slug(v).map(Some).ok_or_else(|| {
            Failure::usage(format!(
                "--{name} {v}: unknown harness; use claude-code, opencode or codex"
            ))
        }),
    }
}

/// Runs the linter; `Ok(true)` when nothing was found.
pub fn run(a: &Args) -> Result<bool, Failure> {
    if a.positional.is_empty() {
        return Err(Failure::usage(
            "lint needs at least one FILE (.claude/settings.json, opencode.json(c), agent .md, .rules)",
        ));
    }
    let format = format_flag(a, "format")?;
    let target = format_flag(a, "target")?;
    let mut sources = Vec::new();
    for arg in &a.positional {
        let (scope, path) = match arg.split_once(':') {
            Some((s, p)) if Scope::from_name(s).is_some() && !p.is_empty() => {
                (Scope::from_name(s), p)
            }
            _ => (None, arg.as_str()),
        };
        let text = read_file(path)?;
        sources.push(Source {
            name: path.to_string(),
            text,
            format,
            scope,
        });
    }
    let report = lint(&sources, target);
    if a.switch("json") {
        say!("{}", report.to_json());
    } else {
        for f in &report.findings {
            say!("{f}\n");
        }
        for n in &report.not_checked {
            say!("{n}\n");
        }
        let files = sources.len();
        say!(
            "{} finding{} in {files} file{}",
            report.findings.len(),
            if report.findings.len() == 1 { "" } else { "s" },
            if files == 1 { "" } else { "s" }
        );
    }
    if !report.errors.is_empty() {
        let msgs: Vec<String> = report.errors.iter().map(|e| e.to_string()).collect();
        return Err(Failure::input(msgs.join("\npermlab: ")));
    }
    Ok(report.findings.is_empty())
}
