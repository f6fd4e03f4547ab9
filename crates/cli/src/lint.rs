//! `permlab lint FILE… [--format F] [--target T] [--json]`: dead, shadowed and order-fragile
//! rules and misleading patterns in real configs, each shown by a call the engine decides.
//!
//! A file may be written `SCOPE:PATH` (`user:`, `project:`, `local:`, `managed:`) to give a
//! Claude Code settings file its layer; otherwise the layer comes from the file name.

use permlab_core::import::Format;
use permlab_core::lint::{lint, Source};

use crate::cli::LintArgs;
use crate::{read_file, Failure};

fn format_flag(value: Option<&str>, name: &str) -> Result<Option<Format>, Failure> {
    match value {
        None => Ok(None),
        Some(v) => Format::from_slug(v).map(Some).ok_or_else(|| {
            Failure::usage(format!(
                "--{name} {v}: unknown harness; use claude-code, opencode or codex"
            ))
        }),
    }
}

/// Runs the linter; `Ok(true)` when nothing was found.
pub fn run(a: &LintArgs) -> Result<bool, Failure> {
    if a.files.is_empty() {
        return Err(Failure::usage(
            "lint needs at least one FILE (.claude/settings.json, opencode.json(c), agent .md, .rules)",
        ));
    }
    let format = format_flag(a.format.as_deref(), "format")?;
    let target = format_flag(a.target.as_deref(), "target")?;
    let mut sources = Vec::new();
    for arg in &a.files {
        let (scope, path) = crate::scoped_path(arg);
        let text = read_file(path)?;
        sources.push(Source {
            name: path.to_string(),
            text,
            format,
            scope,
        });
    }
    let report = lint(&sources, target);
    if a.json {
        say!("{}", report.to_json());
    } else {
        for f in &report.findings {
            say!("{f}\n");
        }
        for n in &report.not_checked {
            say!("{n}\n");
        }
        // Only the files that were read count: a file the harness would refuse has no findings
        // to report, and "0 findings" would say it is clean.
        let unread = sources
            .iter()
            .filter(|s| {
                report
                    .errors
                    .iter()
                    .any(|e| e.source_name() == Some(s.name.as_str()))
            })
            .count();
        let files = sources.len() - unread;
        if files > 0 {
            let n = report.findings.len();
            say!(
                "{n} finding{} in {files} file{}{}",
                if n == 1 { "" } else { "s" },
                if files == 1 { "" } else { "s" },
                match unread {
                    0 => String::new(),
                    1 => "; 1 file could not be read (below)".to_string(),
                    k => format!("; {k} files could not be read (below)"),
                }
            );
        }
    }
    if !report.errors.is_empty() {
        let msgs: Vec<String> = report.errors.iter().map(|e| e.to_string()).collect();
        return Err(Failure::input(msgs.join("\npermlab: ")));
    }
    Ok(report.findings.is_empty())
}
