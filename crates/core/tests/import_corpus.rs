//! Imports every file of the shared corpus (read in place, never copied) and checks that each
//! one either loads, with every native rule accounted for (a row or a dropped-rule warning), or
//! is rejected with a message naming the file and the position. Skips when the corpus is absent.

use std::path::Path;

use permlab_core::import::{import, Format};

const CORPUS: &str = "/work/shared/corpus";

fn run(folder: &str, format: Format) -> Option<(usize, usize, usize)> {
    let dir = Path::new(CORPUS).join(folder);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipped: {} is absent", dir.display());
        return None;
    };
    let mut files: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| !n.ends_with(".tsv") && !n.starts_with('.'))
        })
        .collect();
    files.sort();
    let (mut loaded, mut warned, mut rejected) = (0, 0, 0);
    let (mut rules_in, mut rows, mut dropped) = (0, 0, 0);
    for path in &files {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).expect("corpus files are UTF-8");
        match import(format, &text) {
            Ok(i) => {
                assert_eq!(
                    i.rules_imported() + i.rules_dropped(),
                    i.rules_in,
                    "{name}: {} native rules, {} gave rows, {} reported dropped",
                    i.rules_in,
                    i.rules_imported(),
                    i.rules_dropped()
                );
                assert_eq!(i.origins.len(), i.table.len(), "{name}");
                rules_in += i.rules_in;
                rows += i.table.len();
                dropped += i.rules_dropped();
                if i.warnings.is_empty() {
                    loaded += 1;
                } else {
                    warned += 1;
                }
            }
            Err(e) => {
                let msg = e.in_source(&name).to_string();
                assert!(msg.starts_with(&name), "{msg}");
                assert!(
                    msg.contains("line ")
                        || msg.split(':').any(|s| s.trim().parse::<u32>().is_ok())
                        || msg.contains(": permission"),
                    "{name}: the message names no position: {msg}"
                );
                eprintln!("rejected {msg}");
                rejected += 1;
            }
        }
    }
    println!(
        "{folder}: {} files: {loaded} loaded, {warned} loaded with warnings, {rejected} rejected; \
         in the loaded files {rules_in} native rules gave {rows} rows, {dropped} were not imported",
        files.len()
    );
    Some((files.len(), loaded + warned, rejected))
}

#[test]
fn claude_corpus() {
    if let Some((n, _, _)) = run("claude", Format::ClaudeCode) {
        assert_eq!(n, 80);
    }
}

#[test]
fn opencode_corpus() {
    if let Some((n, _, _)) = run("opencode", Format::OpenCode) {
        assert_eq!(n, 40);
    }
}

#[test]
fn codex_corpus() {
    if let Some((n, _, _)) = run("codex", Format::Codex) {
        assert_eq!(n, 20);
    }
}

/// Calls of every common tool, for comparing the native reading with the imported table.
const PROBES: [(&str, &str); 16] = [
    ("bash", "git push --force origin main"),
    ("bash", "git push origin main"),
    ("bash", "git status"),
    ("bash", "npm run test -- auth"),
    ("bash", "npm install lodash"),
    ("bash", "cat .env"),
    ("bash", "rm -rf build"),
    ("bash", "curl https://example.com"),
    ("bash", "python -m pytest tests/"),
    ("bash", "ls -la"),
    ("read_file", ".env"),
    ("read_file", "src/main.rs"),
    ("edit_file", "src/auth.ts"),
    ("write_file", "notes.md"),
    ("grep", "TODO"),
    ("bash", "docker compose up -d"),
];

/// Claude Code: the imported table through `engines::build` gives what Claude Code itself
/// gives for the settings file's rules (default mode, no sandbox, trusted workspace, the lesson's context), for
/// every loadable corpus file and every probe.
#[test]
fn claude_corpus_tables_evaluate_like_the_native_settings() {
    use permlab_core::claude_code::{eval, table, Mode, Policy};
    use permlab_core::{engines, Call, EngineId};
    let dir = Path::new(CORPUS).join("claude");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipped: {} is absent", dir.display());
        return;
    };
    let mut compared = 0;
    for path in entries.filter_map(Result::ok).map(|e| e.path()) {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(i) = import(Format::ClaudeCode, &text) else {
            continue;
        };
        let settings = i.claude_settings.clone().unwrap();
        let mut policy = Policy::merge(&[settings], true);
        // The sandbox and the mode are session options a table cannot carry (a lesson sets them
        // per preset): compare the rules alone.
        policy.sandbox_enabled = false;
        let engine = engines::build(EngineId::ClaudeCode, &i.table);
        for (tool, input) in PROBES {
            let call = Call::new(tool, input);
            let native = eval::evaluate(
                &policy,
                Mode::Default,
                &table::lesson_context(),
                &table::to_tool_call(&call),
            );
            assert_eq!(
                engine.evaluate(&call).decision,
                native.outcome.decision(),
                "{}: {call}",
                path.display()
            );
            compared += 1;
        }
    }
    println!("claude: {compared} verdicts compared");
}

/// OpenCode: the table's rows are the config's rules in OpenCode's order, so the engine over
/// the table is OpenCode's own evaluator over `fromConfig`.
#[test]
fn opencode_corpus_tables_keep_opencodes_order() {
    use permlab_core::opencode::{from_config, OpenCodeEngine, PermissionConfig};
    use permlab_core::{engines, json, Call, Engine, EngineId};
    let dir = Path::new(CORPUS).join("opencode");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipped: {} is absent", dir.display());
        return;
    };
    let mut compared = 0;
    for path in entries.filter_map(Result::ok).map(|e| e.path()) {
        let name = path.display().to_string();
        if !(name.ends_with(".json") || name.ends_with(".jsonc")) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let Ok(i) = import(Format::OpenCode, &text) else {
            continue;
        };
        let Some(p) = json::parse_jsonc(&text).unwrap().get("permission").cloned() else {
            continue;
        };
        let native = OpenCodeEngine::from_rules(from_config(
            &PermissionConfig::decode(&p).unwrap(),
            "/home/learner",
        ));
        let engine = engines::build(EngineId::OpenCode, &i.table);
        for (tool, input) in PROBES.iter().chain(&[
            ("edit", "src/a.ts"),
            ("read", ".env"),
            ("webfetch", "https://x.dev"),
        ]) {
            let call = Call::new(*tool, *input);
            assert_eq!(engine.decide(&call), native.decide(&call), "{name}: {call}");
            compared += 1;
        }
    }
    println!("opencode: {compared} verdicts compared");
}
