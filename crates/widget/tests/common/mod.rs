//! What the widget's integration tests share: the real configs of `../shared/corpus/` (read in
//! place, relative to the project root).

use std::path::PathBuf;

/// Every file of one corpus folder (`claude`, `opencode`, `codex`), sorted by name: its path
/// (for messages) and its text. The folder's README and `.tsv` indexes are left out.
pub fn corpus(folder: &str) -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpus")
        .join(folder);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| {
            panic!(
                "{} (the shared corpus must be next to the repo): {e}",
                dir.display()
            )
        })
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x != "tsv") && !p.ends_with("README.md"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect()
}
