//! What every CLI test file needs: run the built `permlab`, read its output, write an input
//! file. (Each file under `tests/` is its own crate; this module is compiled into each one
//! that says `mod common;`, so a file may use only some of it.)
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Runs the `permlab` binary of this build with `args` (no stdin) and waits for it.
pub fn permlab<S: AsRef<OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_permlab"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("permlab runs")
}

/// Output bytes as text (lossy: the tests look for phrases, not exact bytes).
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A scratch directory of this test file and process: `permlab-<file>-test-<pid>`.
pub fn temp_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "permlab-{}-test-{}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `content` to `name` in [`temp_dir`] and returns its path. The file is written
/// aside and renamed into place: tests of one file run in parallel, and one that rewrites a
/// shared input (`A.json`) must never let another read it half-written (empty).
pub fn temp_file(name: &str, content: &str) -> String {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let path = temp_dir().join(name);
    // A name may have a directory (`broken/settings.json`): two tests that need the same file
    // name with different contents each take their own directory (tests run in parallel).
    let dir = path.parent().unwrap().to_path_buf();
    std::fs::create_dir_all(&dir).unwrap();
    let file = path.file_name().unwrap().to_string_lossy();
    let aside = dir.join(format!(".{file}.{}", NEXT.fetch_add(1, Ordering::Relaxed)));
    std::fs::write(&aside, content).unwrap();
    std::fs::rename(&aside, &path).unwrap();
    path.to_string_lossy().into_owned()
}
