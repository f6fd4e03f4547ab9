//! `Wildcard.match(input, pattern)`: the one matcher OpenCode uses for both a rule's
//! `permission` and its `pattern` (`packages/core/src/util/wildcard.ts` at v1.18.32).
//!
//! The source builds a JavaScript `RegExp` on every call:
//!
//! ```text
//! normalized = input.replaceAll("\\", "/")
//! escaped    = pattern.replaceAll("\\", "/")  .  escape . + ^ $ { } ( ) | [ ] \
//!              .  "*" -> ".*"  .  "?" -> "."
//! if escaped ends with " .*": replace that by "( .*)?"
//! new RegExp("^" + escaped + "$", win32 ? "si" : "s").test(normalized)
//! ```
//!
//! What that means, and what this port reproduces without a regex engine:
//!
//! - **Backslash is a path separator, never an escape**: it becomes `/` on both sides, so the
//!   pattern `a\b` matches `a/b` and `a\b`, and `a\*` means `a/` then a wildcard.
//! - **`*` is any run of UTF-16 code units**, `/` and newlines included (dotAll, no path
//!   awareness, `**` is just two stars). `?` is **exactly one UTF-16 code unit**: an emoji
//!   outside the BMP needs `??`. This is why the matcher works on UTF-16 units, not `char`s.
//! - **A final `" *"` is optional**: `git *` also matches `git`. Only a *final* space-star.
//! - **Anchored at both ends**; no multiline flag, so `ls` does not match `ls\n`.
//! - **Case**: sensitive on Linux and macOS; on Windows the regex gets the `i` flag, whose
//!   non-Unicode folding is reproduced by [`fold_unit`].
//!
//! The pattern is compiled once into literal segments separated by stars; matching anchors the
//! first and last segments and finds every middle segment at its leftmost position. For `*`/`?`
//! globs this greedy leftmost choice is exact (a star can always absorb what an earlier, later
//! occurrence would have skipped), and it never backtracks exponentially: the worst case is
//! `O(input × pattern)`, e.g. on `a*a*a*…b` against a long run of `a`.
//!
//! ```
//! use permlab_core::opencode::wildcard::{matches, matches_on, Platform};
//! assert!(matches("git status\nrm -rf /", "git *")); // newline injection through `*`
//! assert!(matches("git", "git *"));                  // the final " *" is optional
//! assert!(!matches("gitx", "git *"));
//! assert!(matches("a\\test_b.py", "a/test_*"));      // backslash becomes `/`
//! assert!(matches("😀", "??") && !matches("😀", "?")); // UTF-16 code units
//! assert!(!matches("Bash", "bash"));
//! assert!(matches_on(Platform::Windows, "Bash", "bash"));
//! ```

use std::fmt;

/// Which flags the source's `RegExp` gets: `process.platform === "win32"` adds `i`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Platform {
    /// Linux and macOS: case-sensitive (the conformance data's platform).
    #[default]
    Linux,
    /// Windows: JavaScript non-Unicode case-insensitive matching.
    Windows,
}

const BACKSLASH: u16 = b'\\' as u16;
const SLASH: u16 = b'/' as u16;
const STAR: u16 = b'*' as u16;
const QUESTION: u16 = b'?' as u16;
const SPACE: u16 = b' ' as u16;

/// One code unit as the `i` flag sees it without the `u` flag (ECMAScript `Canonicalize`):
/// upper-case it when that gives exactly one unit, but never fold a non-ASCII unit onto ASCII.
///
/// So `k` and `K` are equal, `ß` stays `ß` (its upper case is two letters), the Kelvin sign
/// `K` and dotless `ı` do not meet ASCII `k`/`i`, and surrogates never fold.
///
/// ```
/// use permlab_core::opencode::wildcard::fold_unit;
/// assert_eq!(fold_unit('a' as u16), 'A' as u16);
/// assert_eq!(fold_unit('é' as u16), 'É' as u16);
/// assert_eq!(fold_unit('ı' as u16), 'ı' as u16); // would fold to ASCII `I`
/// assert_eq!(fold_unit('ß' as u16), 'ß' as u16); // "SS" is two units
/// ```
pub fn fold_unit(unit: u16) -> u16 {
    if unit < 128 {
        return if (0x61..=0x7A).contains(&unit) {
            unit - 32
        } else {
            unit
        };
    }
    let Some(c) = char::from_u32(u32::from(unit)) else {
        return unit; // a surrogate: JavaScript leaves it alone
    };
    let mut upper = c.to_uppercase();
    match (upper.next(), upper.next()) {
        (Some(u), None) if (u as u32) <= 0xFFFF && (u as u32) >= 128 => u as u16,
        _ => unit,
    }
}

/// Appends `text` as the matcher sees it: UTF-16 units, `\` turned into `/`, folded on Windows.
pub(crate) fn push_units(text: &str, platform: Platform, out: &mut Vec<u16>) {
    out.extend(text.encode_utf16().map(|u| normalize_unit(u, platform)));
}

fn normalize_unit(u: u16, platform: Platform) -> u16 {
    let u = if u == BACKSLASH { SLASH } else { u };
    match platform {
        Platform::Linux => u,
        Platform::Windows => fold_unit(u),
    }
}

/// Calls `f` with `text` as prepared units, on the stack when it is short: the fast path of
/// the engines must not allocate per call.
pub(crate) fn with_units<R>(text: &str, platform: Platform, f: impl FnOnce(&[u16]) -> R) -> R {
    const STACK: usize = 192;
    // A UTF-8 string never has more UTF-16 units than bytes.
    if text.len() <= STACK {
        let mut buf = [0u16; STACK];
        let mut n = 0;
        for u in text.encode_utf16() {
            buf[n] = normalize_unit(u, platform);
            n += 1;
        }
        f(&buf[..n])
    } else {
        let mut v = Vec::with_capacity(text.len());
        push_units(text, platform, &mut v);
        f(&v)
    }
}

/// A run of pattern units between two stars. `None` is a `?`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Segment {
    units: Vec<u16>,
    /// Positions of `?` within `units` (their unit value is ignored), empty for plain text.
    any: Vec<bool>,
}

impl Segment {
    fn has_any(&self) -> bool {
        !self.any.is_empty()
    }

    fn len(&self) -> usize {
        self.units.len()
    }

    fn matches_at(&self, input: &[u16], at: usize) -> bool {
        let Some(window) = input.get(at..at + self.len()) else {
            return false;
        };
        if !self.has_any() {
            return window == self.units.as_slice();
        }
        window
            .iter()
            .zip(&self.units)
            .zip(&self.any)
            .all(|((i, p), any)| *any || i == p)
    }

    /// Leftmost position in `from..=to - len` where the segment matches.
    fn find(&self, input: &[u16], from: usize, to: usize) -> Option<usize> {
        let len = self.len();
        if to < from + len {
            return None;
        }
        if !self.has_any() {
            let first = self.units[0];
            let mut at = from;
            while at + len <= to {
                let off = input[at..=to - len].iter().position(|&u| u == first)?;
                at += off;
                if input[at..at + len] == *self.units {
                    return Some(at);
                }
                at += 1;
            }
            return None;
        }
        (from..=to - len).find(|&at| self.matches_at(input, at))
    }
}

/// A star-separated glob: `first *mid* … *last`, or one segment when there is no star.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Glob {
    /// Segments between stars; `segments.len() == stars + 1` (empty segments kept).
    segments: Vec<Segment>,
}

impl Glob {
    fn from_tokens(tokens: &[u16], any_mask: &[bool]) -> Glob {
        let mut segments = vec![Segment {
            units: Vec::new(),
            any: Vec::new(),
        }];
        for (&t, &is_any) in tokens.iter().zip(any_mask) {
            let seg = segments.last_mut().expect("at least one segment");
            if t == STAR && !is_any {
                segments.push(Segment {
                    units: Vec::new(),
                    any: Vec::new(),
                });
            } else {
                seg.units.push(t);
                seg.any.push(is_any);
            }
        }
        for s in &mut segments {
            if !s.any.iter().any(|&a| a) {
                s.any.clear();
            }
        }
        Glob { segments }
    }

    fn is_match(&self, input: &[u16]) -> bool {
        let n = input.len();
        let (first, rest) = self.segments.split_first().expect("at least one segment");
        let Some((last, middle)) = rest.split_last() else {
            return n == first.len() && first.matches_at(input, 0);
        };
        if n < first.len() + last.len() {
            return false;
        }
        let end = n - last.len();
        if !first.matches_at(input, 0) || !last.matches_at(input, end) {
            return false;
        }
        let mut at = first.len();
        for seg in middle {
            if seg.len() == 0 {
                continue;
            }
            match seg.find(input, at, end) {
                Some(found) => at = found + seg.len(),
                None => return false,
            }
        }
        true
    }
}

/// A compiled `Wildcard.match` pattern: compile once, match many inputs.
///
/// ```
/// use permlab_core::opencode::wildcard::{Pattern, Platform};
/// let p = Pattern::new("src/*", Platform::Linux);
/// assert!(p.is_match("src/a/b/c"));   // `*` crosses `/`
/// assert!(p.is_match("src/"));
/// assert!(!p.is_match("src"));
/// assert!(Pattern::new("ls *", Platform::Linux).is_match("ls"));
/// assert!(!Pattern::new("ls *", Platform::Linux).is_match("ls\t-la"));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Pattern {
    source: String,
    platform: Platform,
    glob: Glob,
    /// The same glob plus `" *"`, when the pattern ended with `" *"` (then `glob` lacks it):
    /// the regex `^A( .*)?$` accepts `A` or `A *`.
    with_tail: Option<Glob>,
    /// The prepared units when the pattern has no `*` and no `?` (a plain string compare).
    literal: Option<Vec<u16>>,
}

impl Pattern {
    /// Compiles `pattern` for `platform`. Every string is a valid pattern: the source escapes
    /// all other regex syntax, so `(a|b)`, `[abc]` and `a{2}` are plain text.
    pub fn new(pattern: &str, platform: Platform) -> Pattern {
        let mut tokens = Vec::with_capacity(pattern.len());
        let mut any_mask = Vec::with_capacity(pattern.len());
        for u in pattern.encode_utf16() {
            // `*` and `?` are recognised before folding; folding never produces them.
            any_mask.push(u == QUESTION);
            tokens.push(if u == STAR || u == QUESTION {
                u
            } else {
                normalize_unit(u, platform)
            });
        }
        let literal = (!tokens.iter().any(|&u| u == STAR || u == QUESTION)).then(|| tokens.clone());
        let tail = tokens.len() >= 2
            && tokens[tokens.len() - 1] == STAR
            && tokens[tokens.len() - 2] == SPACE
            && !any_mask[tokens.len() - 1];
        let (glob, with_tail) = if tail {
            let cut = tokens.len() - 2;
            (
                Glob::from_tokens(&tokens[..cut], &any_mask[..cut]),
                Some(Glob::from_tokens(&tokens, &any_mask)),
            )
        } else {
            (Glob::from_tokens(&tokens, &any_mask), None)
        };
        Pattern {
            source: pattern.to_string(),
            platform,
            glob,
            with_tail,
            literal,
        }
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The platform it was compiled for.
    pub fn platform(&self) -> Platform {
        self.platform
    }

    /// Whether the pattern has no `*` and no `?`, i.e. it matches one string only (up to `\`/`/`
    /// and, on Windows, case).
    pub fn is_literal(&self) -> bool {
        self.literal.is_some()
    }

    /// The prepared units of a literal pattern (see [`Pattern::is_literal`]).
    pub(crate) fn literal_units(&self) -> Option<&[u16]> {
        self.literal.as_deref()
    }

    /// `Wildcard.match(input, pattern)`.
    pub fn is_match(&self, input: &str) -> bool {
        with_units(input, self.platform, |units| self.is_match_units(units))
    }

    /// Matches input already prepared for this pattern's platform (see `push_units`).
    pub(crate) fn is_match_units(&self, input: &[u16]) -> bool {
        if let Some(lit) = &self.literal {
            return input == lit.as_slice();
        }
        self.glob.is_match(input) || self.with_tail.as_ref().is_some_and(|g| g.is_match(input))
    }
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Pattern").field(&self.source).finish()
    }
}

/// `Wildcard.match(input, pattern)` with Linux semantics (case-sensitive), as in the
/// conformance data. Compiles the pattern on every call, like the source; engines compile once.
pub fn matches(input: &str, pattern: &str) -> bool {
    matches_on(Platform::Linux, input, pattern)
}

/// `Wildcard.match(input, pattern)` as it behaves on `platform`.
///
/// ```
/// use permlab_core::opencode::wildcard::{matches_on, Platform::*};
/// assert!(matches_on(Windows, "C:\\Windows\\x", "c:/windows/*"));
/// assert!(!matches_on(Linux, "C:\\Windows\\x", "c:/windows/*"));
/// assert!(!matches_on(Windows, "İ", "i")); // non-ASCII never folds onto ASCII
/// ```
pub fn matches_on(platform: Platform, input: &str, pattern: &str) -> bool {
    Pattern::new(pattern, platform).is_match(input)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One line per row of the consequences table in opencode.md §2.
    macro_rules! wc {
        ($pattern:expr => yes $($yes:expr),* ; no $($no:expr),*) => {{
            $( assert!(matches($yes, $pattern), "{:?} should match {:?}", $yes, $pattern); )*
            $( assert!(!matches($no, $pattern), "{:?} should not match {:?}", $no, $pattern); )*
        }};
    }

    #[test]
    fn consequences_table() {
        wc!("src/*" => yes "src/a/b/c", "src/"; no "src");
        wc!("git *" => yes "git", "git status", "git status\nrm -rf /", "git status\r\n";
            no "gitx", "rm -rf /\ngit status");
        wc!("ls *" => yes "ls", "ls ", "ls -la"; no "lsx", "ls\t-la", "ls\n-la", "ls\n");
        wc!("ls*" => yes "lstmeval", "ls\n"; no);
        wc!("ls  *" => yes "ls "; no "ls");
        wc!(" *" => yes "", " x"; no);
        wc!("git * *" => yes "git "; no);
        wc!("ls *x" => yes "ls x"; no "ls");
        wc!("**/.env" => yes "/.env", "a/.env"; no ".env");
        wc!("**/*.env" => yes "src/.env", "a/b/c/.env"; no ".env");
        wc!("file?.txt" => yes "file/.txt"; no "file12.txt");
        wc!("??" => yes "😀"; no);
        wc!("?" => yes "\n", "\r", " ", "日"; no "", "ab", "😀");
        wc!("a.b" => yes "a.b"; no "axb");
        wc!("(a|b)" => yes "(a|b)"; no "a");
        wc!("[abc]" => yes "[abc]"; no "a");
        wc!("a{2}" => yes "a{2}"; no "aa");
        wc!("$HOME" => yes "$HOME"; no "/home/tester");
        wc!("" => yes ""; no " ", "x");
        wc!("ls" => yes "ls"; no "ls\n");
        wc!("~/*" => yes "~/x"; no "/home/tester/x");
        wc!("$HOME/*" => yes "$HOME/x"; no "/home/tester/x");
        wc!("*test_*" => yes "D:\\proj\\test_x.py"; no);
        wc!("test_*" => yes; no "a\\test_b.py");
        // Backslash is a separator on both sides, never an escape.
        wc!("a\\b" => yes "a/b", "a\\b"; no "ab");
        wc!("\\d" => yes "/d"; no "d");
        wc!("a\\*" => yes "a/", "a/xyz", "a\\xyz"; no "a*x", "ax");
        // Decomposed characters need one `?` per unit.
        wc!("caf?" => yes "café"; no "cafe\u{301}");
        wc!("caf??" => yes "cafe\u{301}"; no);
    }

    #[test]
    fn trailing_space_star_applies_to_permissions_too() {
        assert!(matches("git", "git *"));
        assert!(!matches("git", "git*x"));
    }

    #[test]
    fn windows_folding() {
        let w = |s, p| matches_on(Platform::Windows, s, p);
        assert!(w("RM -rf /", "rm *"));
        assert!(w("Bash", "bash"));
        assert!(w("C:\\Windows\\x", "c:/windows/*"));
        assert!(w("ÉTÉ", "été"));
        assert!(!w("İ", "i"));
        assert!(!w("\u{212a}", "k")); // Kelvin sign upper-cases to itself, not to ASCII K
        assert!(!w("ss", "ß"));
        assert!(w("😀", "??"));
    }

    #[test]
    fn long_inputs_do_not_blow_up() {
        let input = "a".repeat(10_000);
        let pattern = format!("{}b", "a*".repeat(50));
        assert!(!matches(&input, &pattern));
        assert!(matches(&format!("{input}b"), &pattern));
    }
}
