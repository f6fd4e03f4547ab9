//! The hand-written blacklist matchers against two oracles.
//!
//! 1. **Rust's `regex` crate** (and `fancy-regex` for pattern #2, whose lookaheads `regex`
//!    cannot compile), running the file's regexes verbatim on generated commands. The claim
//!    "Python `re` and Rust `regex` agree on these patterns" holds only on part of Unicode, so
//!    the generator draws from characters where the two agree: ASCII without U+001C..U+001F,
//!    a few letters and Unicode spaces. `disagreements_with_the_regex_crate` pins, for each
//!    pattern, a command where they do *not* agree, with CPython's verdict (which ours follows).
//! 2. **CPython 3.11 itself**, through `tests/data/corecoder_blacklist_cpython.json`: commands
//!    generated and judged by `tests/data/gen_corecoder_blacklist_cpython.py` (re-run it to
//!    regenerate), including the characters where `regex` and Python differ.

use permlab_core::corecoder::{check_dangerous, DANGEROUS_PATTERNS};
use proptest::prelude::*;

/// One pattern as the `regex` crate (or, for #2, `fancy-regex`) compiles it, verbatim.
enum Oracle {
    Regex(regex::Regex),
    Fancy(fancy_regex::Regex),
}

impl Oracle {
    fn is_match(&self, s: &str) -> bool {
        match self {
            Oracle::Regex(re) => re.is_match(s),
            Oracle::Fancy(re) => re.is_match(s).expect("no backtrack limit hit"),
        }
    }
}

/// The ten oracles, compiled once.
fn oracles() -> &'static [Oracle] {
    static ORACLES: std::sync::OnceLock<Vec<Oracle>> = std::sync::OnceLock::new();
    ORACLES.get_or_init(|| {
        DANGEROUS_PATTERNS
            .iter()
            .map(|p| match regex::Regex::new(p.regex) {
                Ok(re) => Oracle::Regex(re),
                Err(_) => Oracle::Fancy(fancy_regex::Regex::new(p.regex).expect("compiles")),
            })
            .collect()
    })
}

#[test]
fn only_pattern_2_needs_fancy_regex() {
    let unsupported: Vec<usize> = DANGEROUS_PATTERNS
        .iter()
        .enumerate()
        .filter(|(_, p)| regex::Regex::new(p.regex).is_err())
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(unsupported, [2]);
}

/// `(pattern index, command, CPython's verdict)`: for every pattern, commands on which Python's
/// `re` and Rust's `regex` disagree (verdicts computed with CPython 3.11). The differences:
/// Python's `\s` includes U+001C..U+001F; Python's `\w` includes other numbers (`²`) but not
/// combining marks (U+0301) nor connector punctuation other than `_` (U+203F).
const DISAGREE: &[(usize, &str, bool)] = &[
    (0, "rm -r² /", true),
    (0, "rm\u{1c}-rf /", true),
    (0, "\u{301}rm -rf /", true),
    (1, "rm\u{1c}-rf", true),
    (1, "rm -x²r -f", true),
    (2, "rm --recursive --force²", false),
    (2, "rm --force --recursive\u{203f}", true),
    (3, "mkfs²", false),
    (3, "\u{301}mkfs", true),
    (4, "dd\u{1c}of=/dev/sda", true),
    (5, ">\u{1c}/dev/sda", true),
    (6, "chmod\u{1c}777 /", true),
    (7, ":()\u{1c}{ :|: }", true),
    (8, "curl x | sh²", false),
    (8, "curl\u{301} x | sh", true),
    (9, "wget x | sh²", false),
    (9, "wget x |\u{1f}sh", true),
];

#[test]
fn disagreements_with_the_regex_crate() {
    let oracle = oracles();
    for pattern in 0..DANGEROUS_PATTERNS.len() {
        assert!(
            DISAGREE.iter().any(|d| d.0 == pattern),
            "no witness for #{}",
            pattern + 1
        );
    }
    for &(i, command, python) in DISAGREE {
        assert_eq!(
            DANGEROUS_PATTERNS[i].is_match(command),
            python,
            "ours vs CPython, #{} on {command:?}",
            i + 1
        );
        assert_ne!(
            oracle[i].is_match(command),
            python,
            "#{} on {command:?}: expected the regex crate to differ",
            i + 1
        );
    }
}

/// Pieces that make the patterns fire, half-fire or just miss.
const TOKENS: &[&str] = &[
    "rm",
    "rm ",
    " rm",
    "/bin/rm",
    "rmdir",
    "-r",
    "-rf",
    "-fr",
    "-Rf",
    "-f",
    "-x",
    "-",
    "--",
    "--recursive",
    "--force",
    "--forceful",
    "/",
    "~",
    "$HOME",
    "$HOMEDIR",
    "/tmp",
    "build/",
    "mkfs",
    "mkfs.ext4",
    "dd",
    "add",
    "of=/dev/",
    "of=/dev/sda",
    "if=/dev/zero",
    ">",
    "2>",
    ">>",
    "/dev/sd",
    "/dev/sda",
    "/dev/sdA",
    "chmod",
    "777",
    "7777",
    "-R",
    "-Rv",
    ":()",
    "{",
    "}",
    ":|:",
    "&",
    ";",
    ":",
    "(",
    ")",
    "curl",
    "wget",
    "|",
    "||",
    "sudo",
    "bash",
    "bashrc",
    "sh",
    "ba",
    "zsh",
    "shell",
    "x",
    "_",
    "a",
    "1",
    "é",
    "中",
    "\u{a0}",
    "\u{3000}",
    " ",
    "  ",
    "\t",
    "\n",
    "\r",
    "\u{2028}",
];

fn command() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..12).prop_map(|t| t.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn agrees_with_the_regex_crate(cmd in command()) {
        let oracle = oracles();
        for (i, p) in DANGEROUS_PATTERNS.iter().enumerate() {
            prop_assert_eq!(p.is_match(&cmd), oracle[i].is_match(&cmd), "#{} {:?}", i + 1, cmd);
        }
    }
}

#[test]
fn agrees_with_cpython_on_the_recorded_corpus() {
    let text = include_str!("data/corecoder_blacklist_cpython.json");
    let corpus: serde_json::Value = serde_json::from_str(text).unwrap();
    let cases = corpus["cases"].as_array().unwrap();
    assert!(cases.len() >= 1000);
    let mut bad = Vec::new();
    for case in cases {
        let command = case[0].as_str().unwrap();
        let want = case[1].as_u64().map(|i| i as usize);
        let got = check_dangerous(command).map(|h| h.index);
        if got != want {
            bad.push(format!("{command:?}: CPython {want:?}, ours {got:?}"));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} differ:\n{}",
        bad.len(),
        cases.len(),
        bad.join("\n")
    );
}
