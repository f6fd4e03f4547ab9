//! Every real-world policy in the shared corpus (`/work/shared/corpus/codex/*.rules`, read in
//! place, never copied) either loads or fails with a message naming the file and a position.
//! Skipped with a notice when the corpus is not on this machine.

use permlab_core::codex::Policy;

const CORPUS: &str = "/work/shared/corpus/codex";

#[test]
fn corpus_policies_load_or_fail_with_file_and_position() {
    let Ok(dir) = std::fs::read_dir(CORPUS) else {
        eprintln!("skipped: {CORPUS} is not available");
        return;
    };
    let mut files: Vec<_> = dir
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "rules"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 20, "the corpus has 20 .rules files");
    let mut rejected = Vec::new();
    for path in &files {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("?")
            .to_string();
        let text = std::fs::read_to_string(path).expect("corpus files are UTF-8");
        match Policy::parse(&name, &text) {
            Ok(p) => assert!(!p.rules().is_empty(), "{name} loaded no rules"),
            Err(e) => {
                let short = e.to_string();
                assert!(
                    short.starts_with(&format!(
                        "failed to parse policy at {name}:{}:{}: ",
                        e.line, e.column
                    )),
                    "{short}"
                );
                assert!(e.line >= 1 && e.column >= 1);
                assert!(e.cli_text().starts_with(&format!(
                    "Error: failed to parse policy at {name}\n\nCaused by:\n"
                )));
                println!("{short}");
                rejected.push(name);
            }
        }
    }
    // 007 uses `decision="auto_review"` (newer than the pinned commit); 008's `match` examples
    // (`cat .env.local`) do not match its own rule `["cat", ".env"]`.
    assert_eq!(rejected, ["007.rules", "008.rules"]);
}
