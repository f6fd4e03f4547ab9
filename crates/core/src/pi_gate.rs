//! Pi's permission gate: the example extension `permission-gate.ts` of `badlogic/pi-mono`
//! (`packages/coding-agent/examples/extensions/permission-gate.ts` at `83378aad`, 2026-03-15).
//!
//! Pi's core has no gate at all; this extension adds one. It is a `tool_call` hook that looks at
//! the `bash` tool only and tests its command against three case-insensitive JavaScript regexes
//! ([`PATTERNS`]):
//!
//! ```text
//! /\brm\s+(-rf?|--recursive)/i, /\bsudo\b/i, /\b(chmod|chown)\b.*777/i
//! ```
//!
//! A match asks the user (`ctx.ui.select(…, ["Yes", "No"])`; anything but "Yes" blocks with
//! "Blocked by user"); without a UI (`!ctx.hasUI`, e.g. print mode) it blocks with
//! [`NO_UI_REASON`]. Every other command, and every other tool, runs: the hook returns
//! `undefined`. It never reads a rule table, so it is not one of the table engines
//! ([`crate::EngineId`]); [`tool_call`] is its whole interface.
//!
//! The three regexes are matched by hand, in one pass each (no `regex` crate in the wasm), with
//! exactly JavaScript's semantics for a regex *without* the `u` flag:
//!
//! - `\b` looks at ASCII word characters only (`[A-Za-z0-9_]`): `é`, `ſ` and `K` (Kelvin) are
//!   non-word characters, so `érm -rf` has a boundary before `rm`.
//! - `\s` is ECMAScript's WhiteSpace ∪ LineTerminator ([`is_js_space`]): tab, VT, FF, space,
//!   U+00A0, U+FEFF, the Unicode `Zs` characters (U+1680, U+2000–U+200A, U+202F, U+205F, U+3000)
//!   and `\n`, `\r`, U+2028, U+2029. U+180E (Mongolian vowel separator) and U+200B are not.
//! - `.` is anything but a line terminator (`\n`, `\r`, U+2028, U+2029).
//! - `i` canonicalises by `toUpperCase` but refuses a mapping from a non-ASCII character to an
//!   ASCII one (ECMA-262 Canonicalize, non-unicode case): `ſ` (→ `S`), `ı` (→ `I`) and `K`
//!   (lower-cases to `k`, upper-cases to itself) match nothing in these ASCII patterns. So the
//!   letters match ASCII letters case-insensitively and nothing else.
//!
//! Characters outside the BMP are two UTF-16 units in JavaScript; both are non-word,
//! non-space, non-terminator units, exactly like the one `char` here, so no pattern can tell.
//!
//! `fixtures/pi-gate/cases.json` holds the verdicts of the real regexes, run by `node` over
//! generated and corpus commands (`fixtures/pi-gate/make.mjs`); `tests/pi_gate.rs` checks every
//! one.
//!
//! ```
//! use permlab_core::pi_gate::{tool_call, GateVerdict};
//! use permlab_core::Decision;
//! assert_eq!(tool_call("bash", "sudo ls", true).decision, Decision::Ask);
//! assert_eq!(tool_call("bash", "sudo ls", false).decision, Decision::Deny);
//! assert_eq!(tool_call("bash", "cat sudoku_solver.py", true).decision, Decision::Allow);
//! assert_eq!(tool_call("write", "rm -rf /", true).decision, Decision::Allow); // bash only
//! let v: GateVerdict = tool_call("bash", "RM\u{a0}-R ~", true);
//! assert_eq!(v.pattern, Some(0)); // `i`, and U+00A0 is `\s`
//! ```

use crate::evaluation::Decision;
use crate::replay::Tally;
use crate::table::Call;

/// One of the extension's `dangerousPatterns`, as written in the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// The regex source between the slashes.
    pub source: &'static str,
    /// Its flags (`i` for all three).
    pub flags: &'static str,
}

/// `dangerousPatterns`, in source order (line 11).
pub const PATTERNS: [Pattern; 3] = [
    Pattern {
        source: r"\brm\s+(-rf?|--recursive)",
        flags: "i",
    },
    Pattern {
        source: r"\bsudo\b",
        flags: "i",
    },
    Pattern {
        source: r"\b(chmod|chown)\b.*777",
        flags: "i",
    },
];

/// The only tool the hook looks at: `if (event.toolName !== "bash") return undefined;`.
pub const TOOL: &str = "bash";

/// The block reason without a UI.
pub const NO_UI_REASON: &str = "Dangerous command blocked (no UI for confirmation)";

/// The block reason when the user answers anything but "Yes".
pub const USER_REASON: &str = "Blocked by user";

/// The choices of the confirmation prompt.
pub const CHOICES: [&str; 2] = ["Yes", "No"];

/// What the hook decides for one call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GateVerdict {
    /// [`Decision::Ask`] (a dangerous command, with a UI), [`Decision::Deny`] (one without a
    /// UI) or [`Decision::Allow`] (everything else: the hook returns `undefined`).
    pub decision: Decision,
    /// The first pattern that matched (`dangerousPatterns.some` stops there), as an index into
    /// [`PATTERNS`].
    pub pattern: Option<usize>,
    /// The block reason, for a deny.
    pub reason: Option<&'static str>,
}

/// The hook on one tool call. `has_ui` is Pi's `ctx.hasUI` (false in print / RPC-less runs).
pub fn tool_call(tool: &str, command: &str, has_ui: bool) -> GateVerdict {
    let pattern = if tool == TOOL {
        dangerous(command)
    } else {
        None
    };
    let (decision, reason) = match pattern {
        None => (Decision::Allow, None),
        Some(_) if has_ui => (Decision::Ask, None),
        Some(_) => (Decision::Deny, Some(NO_UI_REASON)),
    };
    GateVerdict {
        decision,
        pattern,
        reason,
    }
}

/// The prompt's answer: "Yes" lets the command run, anything else (including dismissing the
/// prompt, `undefined`) blocks it with [`USER_REASON`].
pub fn answer(choice: Option<&str>) -> GateVerdict {
    let yes = choice == Some(CHOICES[0]);
    GateVerdict {
        decision: if yes { Decision::Allow } else { Decision::Deny },
        pattern: None,
        reason: if yes { None } else { Some(USER_REASON) },
    }
}

/// The first of [`PATTERNS`] that `command` matches (`dangerousPatterns.some(p => p.test(c))`).
///
/// ```
/// use permlab_core::pi_gate::dangerous;
/// assert_eq!(dangerous("chown -R me:me . && chmod 777 x"), Some(2));
/// assert_eq!(dangerous("chmod 0777 x"), Some(2)); // `.*777` needs no boundary before 777
/// assert_eq!(dangerous("chmod\n777 x"), None);    // `.` stops at a line terminator
/// assert_eq!(dangerous("rm -fr /"), None);        // `-rf?` must start `-r`
/// ```
pub fn dangerous(command: &str) -> Option<usize> {
    (0..PATTERNS.len()).find(|&k| matches(k, command))
}

/// Whether pattern `index` of [`PATTERNS`] matches somewhere in `command` (`RegExp.test`).
///
/// # Panics
/// If `index` is not 0, 1 or 2.
pub fn matches(index: usize, command: &str) -> bool {
    let text: Vec<char> = command.chars().collect();
    match index {
        0 => rm_recursive(&text),
        1 => sudo(&text),
        2 => chmod_777(&text),
        _ => panic!("pi_gate::matches: no pattern #{index} (there are 3)"),
    }
}

/// A run's calls through the gate, with a UI and without one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PiReplay {
    /// Verdicts in an interactive session (`ctx.hasUI`): allow or ask.
    pub ui: Tally,
    /// Verdicts without a UI (print mode): allow or deny.
    pub no_ui: Tally,
    /// The calls the gate catches: (position in the run, pattern index).
    pub caught: Vec<(usize, usize)>,
}

/// Runs every call of a trace through the gate, both ways.
///
/// ```
/// use permlab_core::{pi_gate, Call};
/// let calls = [Call::new("bash", "sudo make install"), Call::new("bash", "ls"), Call::new("read", "sudo")];
/// let r = pi_gate::replay(&calls);
/// assert_eq!((r.ui.ask, r.ui.allow, r.no_ui.deny), (1, 2, 1));
/// assert_eq!(r.caught, [(0, 1)]);
/// ```
pub fn replay(calls: &[Call]) -> PiReplay {
    let mut r = PiReplay::default();
    for (i, call) in calls.iter().enumerate() {
        let ui = tool_call(&call.tool, &call.input, true);
        r.ui.add(ui.decision);
        r.no_ui
            .add(tool_call(&call.tool, &call.input, false).decision);
        if let Some(p) = ui.pattern {
            r.caught.push((i, p));
        }
    }
    r
}

/// `\w` without the `u` flag: `[A-Za-z0-9_]`.
fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// A line terminator: what `.` does not match.
pub fn is_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

/// JavaScript's `\s`: WhiteSpace (TAB, VT, FF, SP, NBSP, ZWNBSP, and every `Zs`) plus
/// LineTerminator.
pub fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\u{b}' | '\u{c}' | ' ' | '\u{a0}' | '\u{feff}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}' | '\u{202f}' | '\u{205f}' | '\u{3000}'
    ) || is_line_terminator(c)
}

/// A word boundary before position `at` (`\b`): exactly one of the characters either side is a
/// word character (outside the text counts as non-word).
fn boundary(text: &[char], at: usize) -> bool {
    let before = at > 0 && is_word(text[at - 1]);
    let after = text.get(at).is_some_and(|&c| is_word(c));
    before != after
}

/// `text[at..]` starts with the ASCII `word`, letters compared case-insensitively as the `i`
/// flag does without `u` (only ASCII letters fold onto ASCII letters).
fn starts_with_folded(text: &[char], at: usize, word: &str) -> bool {
    let mut k = at;
    for w in word.chars() {
        match text.get(k) {
            Some(&c) if c.is_ascii() && c.eq_ignore_ascii_case(&w) => k += 1,
            _ => return false,
        }
    }
    true
}

/// `\brm\s+(-rf?|--recursive)`. After `rm`, `\s+` must be followed by `-`, which is not a
/// space, so only the whole run of spaces can be followed by the alternation; and `-rf?` is
/// satisfied by `-r` alone. The runs scanned for different `rm`s do not overlap: linear.
fn rm_recursive(text: &[char]) -> bool {
    let mut i = 0;
    while i + 2 <= text.len() {
        if boundary(text, i) && starts_with_folded(text, i, "rm") {
            let mut j = i + 2;
            while j < text.len() && is_js_space(text[j]) {
                j += 1;
            }
            if j > i + 2
                && (starts_with_folded(text, j, "-r") || starts_with_folded(text, j, "--recursive"))
            {
                return true;
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    false
}

/// `\bsudo\b`.
fn sudo(text: &[char]) -> bool {
    (0..text.len())
        .any(|i| boundary(text, i) && starts_with_folded(text, i, "sudo") && boundary(text, i + 4))
}

/// `\b(chmod|chown)\b.*777`: a `chmod`/`chown` word, then `777` later on the same line (`.*`
/// crosses anything but a line terminator; the `777` needs no boundary of its own). One pass:
/// remember whether the current line has had such a word, answer at the first `777` after it.
fn chmod_777(text: &[char]) -> bool {
    let mut armed = false;
    let mut i = 0;
    while i < text.len() {
        if is_line_terminator(text[i]) {
            armed = false;
            i += 1;
            continue;
        }
        if armed && text[i] == '7' && text.get(i + 1) == Some(&'7') && text.get(i + 2) == Some(&'7')
        {
            return true;
        }
        if boundary(text, i)
            && (starts_with_folded(text, i, "chmod") || starts_with_folded(text, i, "chown"))
            && boundary(text, i + 5)
        {
            armed = true;
            i += 5;
            continue;
        }
        i += 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_patterns() {
        let cases: [(&str, Option<usize>); 22] = [
            ("rm -rf /", Some(0)),
            ("rm -r dir", Some(0)),
            ("rm --recursive dir", Some(0)),
            ("rm -fr /", None),
            ("rm -f x", None),
            ("rm x -rf", None),
            ("form -rf", None),
            ("_rm -rf", None),
            ("x/rm -rf", Some(0)),
            ("rm-rf", None),
            ("RM\t\t-RF", Some(0)),
            ("rm\u{2028}-r", Some(0)),
            ("rm\u{200b}-r", None),
            ("rm\u{180e}-r", None),
            ("sudo", Some(1)),
            ("sudoers", None),
            ("visudo", None),
            ("é sudo-x", Some(1)),
            ("chmod 777 f", Some(2)),
            ("chmod777 f", None),
            ("xchmod 777", None),
            ("chmod -R a+x f\nchmod 777 g", Some(2)),
        ];
        for (c, want) in cases {
            assert_eq!(dangerous(c), want, "{c:?}");
        }
    }

    #[test]
    fn case_folding_is_ascii_only() {
        assert_eq!(dangerous("SuDo ls"), Some(1));
        assert_eq!(dangerous("\u{17f}udo ls"), None); // ſ upper-cases to S, refused
        assert_eq!(dangerous("chmod 777"), Some(2));
        assert_eq!(dangerous("\u{212a}"), None);
        // Kelvin sign is not a word character: a boundary follows it.
        assert_eq!(dangerous("\u{212a}sudo"), Some(1));
    }

    #[test]
    fn line_terminators_stop_dot_star() {
        for t in ['\n', '\r', '\u{2028}', '\u{2029}'] {
            assert_eq!(dangerous(&format!("chmod{t}777")), None, "{t:?}");
        }
        assert_eq!(dangerous("chmod\u{85}777"), Some(2)); // NEL is not a terminator
    }

    #[test]
    fn the_hook() {
        assert_eq!(
            tool_call("bash", "sudo ls", false),
            GateVerdict {
                decision: Decision::Deny,
                pattern: Some(1),
                reason: Some(NO_UI_REASON)
            }
        );
        assert_eq!(
            tool_call("Bash", "sudo ls", false).decision,
            Decision::Allow
        );
        assert_eq!(answer(Some("Yes")).decision, Decision::Allow);
        assert_eq!(answer(Some("No")).reason, Some(USER_REASON));
        assert_eq!(answer(None).decision, Decision::Deny);
    }

    #[test]
    fn linear_on_adversarial_input() {
        // Many `chmod`s and long space runs: each character is looked at a bounded number of
        // times, so this finishes at once (a backtracking matcher would not).
        let s = "chmod ".repeat(20_000) + "77";
        assert_eq!(dangerous(&s), None);
        let s = "rm".to_string() + &" ".repeat(100_000) + "x";
        assert_eq!(dangerous(&s), None);
    }
}
