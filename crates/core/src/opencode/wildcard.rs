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
//!   outside the BMP needs `??`. So the matcher counts UTF-16 units, never `char`s.
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
//! Matching runs on UTF-8 bytes whenever that gives exactly the UTF-16 answer (no `?` in the
//! pattern, or an ASCII input), and on UTF-16 units otherwise; the property tests check both
//! against a plain dynamic-programming matcher over UTF-16 units.
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

use std::borrow::Cow;
use std::cell::OnceCell;
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

/// `text` as the regex sees it: `\` turned into `/`, and on Windows every unit folded. Folding
/// maps whole characters to whole characters, so the result is still a valid string.
fn normalize(text: &str, platform: Platform) -> Cow<'_, str> {
    match platform {
        Platform::Linux if !text.as_bytes().contains(&b'\\') => Cow::Borrowed(text),
        Platform::Linux => Cow::Owned(text.replace('\\', "/")),
        Platform::Windows => {
            let units: Vec<u16> = text
                .encode_utf16()
                .map(|u| fold_unit(if u == BACKSLASH { SLASH } else { u }))
                .collect();
            Cow::Owned(String::from_utf16_lossy(&units))
        }
    }
}

/// An input prepared once per evaluation and matched against many patterns.
///
/// Matching runs on UTF-8 bytes whenever that is exactly equivalent to the source's UTF-16
/// units: when the pattern has no `?` (literal runs are whole characters, and UTF-8 cannot match
/// a character in the middle of another one), or when the input is ASCII (one byte, one unit).
/// Only a `?` against non-ASCII input needs the UTF-16 view, built on first use.
pub(crate) struct Subject<'a> {
    text: Cow<'a, str>,
    ascii: bool,
    units: OnceCell<Vec<u16>>,
}

impl<'a> Subject<'a> {
    /// Prepares `text` for patterns compiled for `platform`.
    pub(crate) fn new(text: &'a str, platform: Platform) -> Self {
        let text = normalize(text, platform);
        Subject {
            ascii: text.is_ascii(),
            text,
            units: OnceCell::new(),
        }
    }

    /// The normalized text (the index key of a literal permission).
    pub(crate) fn bytes(&self) -> &[u8] {
        self.text.as_bytes()
    }

    /// The input's first word: its bytes up to the first space or `/` (all of it when there is
    /// none). A pattern with a [`Pattern::first_word`] can only match inputs with that word.
    pub(crate) fn first_word(&self) -> &[u8] {
        let b = self.bytes();
        let end = b
            .iter()
            .position(|&c| c == b' ' || c == b'/')
            .unwrap_or(b.len());
        &b[..end]
    }

    fn units(&self) -> &[u16] {
        self.units
            .get_or_init(|| self.text.encode_utf16().collect())
    }
}

/// A run of pattern elements between two stars.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Segment<T> {
    units: Vec<T>,
    /// Which elements are `?` (their value is ignored); empty when there is none.
    any: Vec<bool>,
}

impl<T: Copy + Eq> Segment<T> {
    fn len(&self) -> usize {
        self.units.len()
    }

    fn matches_at(&self, input: &[T], at: usize) -> bool {
        let Some(window) = input.get(at..at + self.len()) else {
            return false;
        };
        if self.any.is_empty() {
            return window == self.units.as_slice();
        }
        window
            .iter()
            .zip(&self.units)
            .zip(&self.any)
            .all(|((i, p), any)| *any || i == p)
    }

    /// Leftmost position in `from..=to - len` where the segment (non-empty) matches.
    fn find(&self, input: &[T], from: usize, to: usize) -> Option<usize> {
        let len = self.len();
        if to < from + len {
            return None;
        }
        if !self.any.is_empty() {
            return (from..=to - len).find(|&at| self.matches_at(input, at));
        }
        let first = self.units[0];
        let mut at = from;
        while at + len <= to {
            at += input[at..=to - len].iter().position(|&u| u == first)?;
            if input[at..at + len] == *self.units {
                return Some(at);
            }
            at += 1;
        }
        None
    }
}

/// A star-separated glob: `first *mid* … *last`, or one segment when there is no star.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Glob<T> {
    /// `first`, then the middle segments, then `last` (`None` when there is no star).
    first: Segment<T>,
    middle: Vec<Segment<T>>,
    last: Option<Segment<T>>,
}

/// One element of a pattern before it is split into segments.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Token<T> {
    /// A literal element.
    Lit(T),
    /// `?`, keeping its own element as a placeholder (never compared).
    Any(T),
    /// `*`.
    Star,
}

impl<T: Copy + Eq> Glob<T> {
    fn new(tokens: &[Token<T>]) -> Glob<T> {
        let mut segments: Vec<Segment<T>> = Vec::new();
        for part in tokens.split(|t| *t == Token::Star) {
            let is_any = |t: &Token<T>| matches!(t, Token::Any(_));
            segments.push(Segment {
                units: part
                    .iter()
                    .map(|t| match *t {
                        Token::Lit(u) | Token::Any(u) => u,
                        Token::Star => unreachable!("split at stars"),
                    })
                    .collect(),
                any: if part.iter().any(is_any) {
                    part.iter().map(is_any).collect()
                } else {
                    Vec::new()
                },
            });
        }
        let last = (segments.len() > 1).then(|| segments.pop()).flatten();
        let mut rest = segments.drain(..);
        let first = rest.next().expect("split yields at least one part");
        // A fresh vector: empty (no allocation) for the usual one- or two-part patterns.
        let middle: Vec<Segment<T>> = rest.collect();
        Glob {
            first,
            middle,
            last,
        }
    }

    fn is_match(&self, input: &[T]) -> bool {
        let n = input.len();
        let Some(last) = &self.last else {
            return n == self.first.len() && self.first.matches_at(input, 0);
        };
        if n < self.first.len() + last.len() {
            return false;
        }
        let end = n - last.len();
        if !self.first.matches_at(input, 0) || !last.matches_at(input, end) {
            return false;
        }
        let mut at = self.first.len();
        for seg in &self.middle {
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

/// The regex `^A$`, or `^A( .*)?$` when the pattern ends with `" *"`, for one element type.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Program<T> {
    glob: Glob<T>,
    /// `A *` when the pattern ended with `" *"` (then `glob` is `A` without it).
    /// Boxed: most patterns have none, and a table of a million rows holds two patterns a row.
    with_tail: Option<Box<Glob<T>>>,
}

impl<T: Copy + Eq> Program<T> {
    fn new(tokens: &[Token<T>], space: T) -> Program<T> {
        match tokens {
            [head @ .., Token::Lit(s), Token::Star] if *s == space => Program {
                glob: Glob::new(head),
                with_tail: Some(Box::new(Glob::new(tokens))),
            },
            _ => Program {
                glob: Glob::new(tokens),
                with_tail: None,
            },
        }
    }

    fn is_match(&self, input: &[T]) -> bool {
        self.glob.is_match(input) || self.with_tail.as_ref().is_some_and(|g| g.is_match(input))
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
    /// The text after `\` → `/` and, on Windows, case folding.
    normalized: String,
    platform: Platform,
    /// The pattern over UTF-8 bytes of the normalized text (see [`Subject`]).
    bytes: Program<u8>,
    /// The pattern over UTF-16 units, only when it has a `?` (boxed: rare, and large).
    units: Option<Box<Program<u16>>>,
    /// The pattern has no `*` and no `?`: matching is comparing with `normalized`.
    literal: bool,
}

fn tokens<T>(elements: impl Iterator<Item = T>, star: T, question: T) -> Vec<Token<T>>
where
    T: Copy + Eq,
{
    elements
        .map(|u| {
            if u == star {
                Token::Star
            } else if u == question {
                Token::Any(u)
            } else {
                Token::Lit(u)
            }
        })
        .collect()
}

impl Pattern {
    /// Compiles `pattern` for `platform`. Every string is a valid pattern: the source escapes
    /// all other regex syntax, so `(a|b)`, `[abc]` and `a{2}` are plain text.
    pub fn new(pattern: &str, platform: Platform) -> Pattern {
        // Folding never produces or changes `*`, `?` or a space, so normalizing first is safe.
        let text = normalize(pattern, platform);
        let has_star = text.contains('*');
        let has_any = text.contains('?');
        let bytes = Program::new(&tokens(text.bytes(), b'*', b'?'), b' ');
        let units = has_any.then(|| {
            Box::new(Program::new(
                &tokens(text.encode_utf16(), u16::from(b'*'), u16::from(b'?')),
                u16::from(b' '),
            ))
        });
        Pattern {
            source: pattern.to_string(),
            platform,
            literal: !has_star && !has_any,
            bytes,
            units,
            normalized: text.into_owned(),
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
        self.literal
    }

    /// The normalized text of a literal pattern (see [`Pattern::is_literal`]).
    pub(crate) fn literal_key(&self) -> Option<&[u8]> {
        self.literal.then_some(self.normalized.as_bytes())
    }

    /// The pattern's first word, when its literal beginning fixes it: the normalized text before
    /// the first `*` or `?`, cut at its first space or `/` — only if that separator comes before
    /// any wildcard. `git push *` → `git`, `src/*` → `src`, `/etc/*` → `` (empty); `*.env`,
    /// `test_*` and `git` have none. Every input this pattern matches has the same first word
    /// (see [`Subject::first_word`]), which is what lets an index skip the other rows. The
    /// optional trailing `" *"` keeps this true: `git *` also matches `git`, whose first word is
    /// `git`.
    pub(crate) fn first_word(&self) -> Option<&[u8]> {
        let text = self.normalized.as_bytes();
        let literal_end = text
            .iter()
            .position(|&b| b == b'*' || b == b'?')
            .unwrap_or(text.len());
        let prefix = &text[..literal_end];
        let sep = prefix.iter().position(|&b| b == b' ' || b == b'/')?;
        Some(&prefix[..sep])
    }

    /// `Wildcard.match(input, pattern)`.
    pub fn is_match(&self, input: &str) -> bool {
        self.is_match_subject(&Subject::new(input, self.platform))
    }

    /// Matches an input prepared for this pattern's platform.
    pub(crate) fn is_match_subject(&self, input: &Subject<'_>) -> bool {
        if self.literal {
            return input.bytes() == self.normalized.as_bytes();
        }
        match &self.units {
            Some(units) if !input.ascii => units.is_match(input.units()),
            _ => self.bytes.is_match(input.bytes()),
        }
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
