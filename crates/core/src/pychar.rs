//! Python's idea of "whitespace" and "word character", for ports of Python harnesses.
//!
//! CoreCoder's blacklist (`re.search` on a `str`) and learn-claude-code's output handling
//! (`str.strip()`) are Python code: their `\s`, `\w`, `\b` and `strip()` are Unicode-aware but
//! not the same sets as Rust's `char::is_whitespace` or the `regex` crate's `\w`.
//!
//! - **Whitespace** (`\s`, `str.isspace`, `str.strip`): exactly the 29 characters listed in
//!   [`is_space`]. Rust's `char::is_whitespace` lacks U+001C..U+001F (the ASCII "information
//!   separators"), which Python counts as whitespace. Measured with CPython 3.11 over all code
//!   points; the set has been stable across CPython 3 releases.
//! - **Word characters** (`\w`, `\b`): Python uses `str.isalnum() or c == "_"`, where `isalpha`
//!   means general category L* and `isnumeric` means any numeric type. We use
//!   `char::is_alphanumeric`, which agrees on every code point *except* the marks and symbols
//!   with Unicode's `Other_Alphabetic` property (e.g. U+093E DEVANAGARI VOWEL SIGN AA, U+24B6 Ⓐ):
//!   1 442 assigned code points in Unicode 14, word characters for Rust, not for Python. A
//!   table would cost ~2 KB of wasm for characters no shell command puts next to `rm`; we
//!   accept the difference and pin it in a test. Characters newer than the Python's Unicode
//!   database differ too, in whichever direction that Python's version dictates.

/// Python's `str.isspace()` for one character, which is also `re`'s `\s` on `str` patterns.
pub(crate) fn is_space(c: char) -> bool {
    matches!(
        c,
        '\t'..='\r'
            | '\u{1c}'..='\u{20}'
            | '\u{85}'
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200a}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{3000}'
    )
}

/// `re`'s `\w` on `str` patterns (see the module docs for the one known difference).
pub(crate) fn is_word(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// Python's `str.strip()` with no argument: removes [`is_space`] characters at both ends.
pub(crate) fn strip(s: &str) -> &str {
    s.trim_matches(is_space)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whitespace_is_pythons_set() {
        // The full list printed by CPython 3.11:
        // [c for c in range(0x110000) if re.match(r'\s', chr(c))]
        let python: [u32; 29] = [
            0x9, 0xa, 0xb, 0xc, 0xd, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000,
            0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028,
            0x2029, 0x202f, 0x205f, 0x3000,
        ];
        let ours: Vec<u32> = (0..=0x10ffffu32)
            .filter_map(char::from_u32)
            .filter(|&c| is_space(c))
            .map(|c| c as u32)
            .collect();
        assert_eq!(ours, python);
        // Where Rust's own notion differs: the information separators.
        assert!(is_space('\u{1f}') && !'\u{1f}'.is_whitespace());
    }

    #[test]
    fn word_characters() {
        for c in ['a', 'Z', '0', '_', 'é', '中', '²', '½', 'Ⅻ'] {
            assert!(is_word(c), "{c:?}");
        }
        for c in [
            '-', '/', ' ', '$', '~', '.', '\u{301}', '\u{203f}', '\u{200d}',
        ] {
            assert!(!is_word(c), "{c:?}");
        }
        // The pinned difference: Python's `\w` does not match U+093E (category Mc); ours does.
        assert!(is_word('\u{93e}'));
    }

    #[test]
    fn strip_is_pythons() {
        assert_eq!(strip("\u{1c} x \u{3000}\n"), "x");
        assert_eq!(strip("\u{200b}x"), "\u{200b}x"); // ZERO WIDTH SPACE is not whitespace
    }
}
