//! `permlab lint` over every real config of the shared corpus (`../shared/corpus/{claude,
//! opencode,codex}/`): nothing crashes, every file either lints or is refused with a positioned
//! message (the unit test `lint::tests::corpus_findings_are_confirmed_by_the_engines`
//! re-runs each call, with every `--target` too). Prints the tally of findings per harness and kind
//! (`cargo test -p permlab-core --test lint_corpus -- --nocapture`).

use std::collections::BTreeMap;
use std::path::PathBuf;

use permlab_core::lint::{lint, Source};

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
}

#[test]
fn every_corpus_config_lints_without_a_crash() {
    let mut files = 0;
    let mut refused = Vec::new();
    let mut tally: BTreeMap<(String, String, String), usize> = BTreeMap::new();

    for dir in ["claude", "opencode", "codex"] {
        let mut names: Vec<PathBuf> = std::fs::read_dir(corpus().join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| !p.to_string_lossy().ends_with(".tsv"))
            .collect();
        names.sort();
        for path in names {
            files += 1;
            let name = format!("{dir}/{}", path.file_name().unwrap().to_string_lossy());
            let text = std::fs::read_to_string(&path).unwrap();
            let report = lint(&[Source::new(name.clone(), text)], None);
            for e in &report.errors {
                let msg = e.to_string();
                // Refusals name the file and a line:column.
                assert!(msg.starts_with(&format!("{name}: ")), "{msg}");
                assert!(
                    msg[name.len() + 2..]
                        .chars()
                        .next()
                        .unwrap()
                        .is_ascii_digit(),
                    "{msg}"
                );
                refused.push(name.clone());
            }
            for f in &report.findings {
                assert!(f.place.line >= 1 && f.place.column >= 1, "{f}");
                assert!(!f.rules.is_empty() && !f.fix.is_empty(), "{f}");
                *tally
                    .entry((
                        f.harness.slug().to_string(),
                        f.kind.slug().to_string(),
                        f.severity.as_str().to_string(),
                    ))
                    .or_default() += 1;
            }
        }
    }
    assert_eq!(files, 140);
    // The three files the corpus README (and the real harnesses) call broken.
    assert_eq!(
        refused,
        ["claude/022.json", "claude/066.json", "codex/007.rules"]
    );
    println!("findings per harness and kind over {files} corpus files:");
    let mut total = 0;
    for ((h, k, s), n) in &tally {
        println!("  {h:12} {k:20} {s:8} {n:5}");
        total += n;
    }
    println!("  total {total}; refused: {refused:?}");

    assert!(total > 0);
}
