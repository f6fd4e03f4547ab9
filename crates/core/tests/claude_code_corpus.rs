//! Loads every real-world settings file of `../shared/corpus/claude/` (read in place, never
//! copied into the repository). Each file either loads, with every unusable rule reported, or
//! is rejected with a message naming the file and the position. No file may panic.

use std::path::Path;

use permlab_core::claude_code::{evaluate, Context, Mode, Policy, Scope, SettingsFile, ToolCall};

const CORPUS: &str = "/work/shared/corpus/claude";

#[test]
fn corpus_loads_or_is_rejected_with_a_position() {
    let dir = Path::new(CORPUS);
    if !dir.is_dir() {
        println!("skipped: {CORPUS} is absent on this machine");
        return;
    }
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".json"))
        .collect();
    names.sort();
    assert_eq!(names.len(), 80, "the corpus has 80 files");
    let (mut loaded, mut with_warnings, mut rejected) = (0, 0, Vec::new());
    let mut rules = 0;
    let calls = [
        ToolCall::bash("git status && npm test"),
        ToolCall::bash("rm -rf build"),
        ToolCall::with_field("Read", "file_path", "/home/alice/proj/.env"),
        ToolCall::with_field("Edit", "file_path", "/home/alice/proj/src/a.rs"),
        ToolCall::with_field("WebFetch", "url", "https://github.com/x"),
    ];
    for name in &names {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        match SettingsFile::from_json(&text, Scope::Project) {
            Ok(f) => {
                let p = Policy::merge(&[f], true);
                rules += p.rules.len() + p.ignored.len();
                // Every skipped rule carries its reason.
                for (rule, _, _, why) in &p.ignored {
                    assert!(!why.is_empty(), "{name}: `{rule}` skipped without a reason");
                }
                for w in &p.warnings {
                    assert!(!w.message.is_empty());
                }
                if p.warnings.is_empty() {
                    loaded += 1;
                } else {
                    with_warnings += 1;
                    for w in p.warnings.iter().take(3) {
                        println!("  {name}: {w}");
                    }
                }
                for c in &calls {
                    let _ = evaluate(
                        &p,
                        p.default_mode.unwrap_or(Mode::Default),
                        &Context::default(),
                        c,
                    );
                }
            }
            Err(e) => {
                let message = e.in_source(name.clone()).to_string();
                assert!(
                    message.starts_with(name.as_str()) && message.contains("line "),
                    "{message}"
                );
                println!("  rejected {message}");
                rejected.push(name.clone());
            }
        }
    }
    println!(
        "claude corpus: {} files, {loaded} loaded, {with_warnings} loaded with warnings, {} rejected ({rules} rules)",
        names.len(),
        rejected.len()
    );
    assert_eq!(rejected, ["022.json", "066.json"]);
}
