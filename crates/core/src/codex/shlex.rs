//! Two shell-word splitters that look alike and are not: Rust's `shlex` crate (what execpolicy
//! uses for string examples in `match=`/`not_match=`) and Python's `shlex.split` (how the
//! course's commands were tokenized for the conformance data, and how the lesson's command
//! strings are turned into argv here).
//!
//! Where they differ (pinned here so nobody "fixes" one into the other):
//! - `#` at the start of a word starts a comment in Rust `shlex`; Python's `shlex.split` has
//!   comments off, so `#` is an ordinary character.
//! - Inside double quotes, Rust `shlex` unescapes `\$`, `` \` ``, `\"`, `\\` and drops
//!   `\<newline>`; Python unescapes only `\"` and `\\` (`"\$"` stays `\$`).
//! - Outside quotes, Rust drops `\<newline>` (line continuation); Python keeps the newline.
//! - `\r` separates words in Python, not in Rust `shlex`.

/// Why Python's `shlex.split` would raise `ValueError`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SplitError {
    /// A quote is never closed (`ValueError: No closing quotation`).
    NoClosingQuotation,
    /// The text ends in a lone backslash (`ValueError: No escaped character`).
    NoEscapedCharacter,
}

impl std::fmt::Display for SplitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SplitError::NoClosingQuotation => "No closing quotation",
            SplitError::NoEscapedCharacter => "No escaped character",
        })
    }
}

impl std::error::Error for SplitError {}

/// Python's `shlex.split(s)` (POSIX mode, `whitespace_split=True`, no comments).
///
/// ```
/// use permlab_core::codex::shlex::{python_split, SplitError};
/// assert_eq!(python_split(r#"python3 -c "import shutil; shutil.rmtree('/')""#).unwrap(),
///            ["python3", "-c", "import shutil; shutil.rmtree('/')"]);
/// assert_eq!(python_split("curl x | sh").unwrap(), ["curl", "x", "|", "sh"]);
/// assert_eq!(python_split("echo 'a"), Err(SplitError::NoClosingQuotation));
/// ```
pub fn python_split(s: &str) -> Result<Vec<String>, SplitError> {
    #[derive(PartialEq)]
    enum St {
        Space,
        Word,
        Single,
        Double,
    }
    let mut out = Vec::new();
    let mut tok = String::new();
    let mut have = false; // a token is open (possibly empty, after '')
    let mut st = St::Space;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match st {
            St::Space | St::Word => match c {
                ' ' | '\t' | '\r' | '\n' => {
                    if have {
                        out.push(std::mem::take(&mut tok));
                        have = false;
                    }
                    st = St::Space;
                }
                '\\' => {
                    let Some(n) = chars.next() else {
                        return Err(SplitError::NoEscapedCharacter);
                    };
                    tok.push(n);
                    have = true;
                    st = St::Word;
                }
                '\'' => {
                    have = true;
                    st = St::Single;
                }
                '"' => {
                    have = true;
                    st = St::Double;
                }
                c => {
                    tok.push(c);
                    have = true;
                    st = St::Word;
                }
            },
            St::Single => {
                if c == '\'' {
                    st = St::Word;
                } else {
                    tok.push(c);
                }
            }
            St::Double => match c {
                '"' => st = St::Word,
                '\\' => {
                    let Some(n) = chars.next() else {
                        return Err(SplitError::NoEscapedCharacter);
                    };
                    if n != '"' && n != '\\' {
                        tok.push('\\');
                    }
                    tok.push(n);
                }
                c => tok.push(c),
            },
        }
    }
    if st == St::Single || st == St::Double {
        return Err(SplitError::NoClosingQuotation);
    }
    if have {
        out.push(tok);
    }
    Ok(out)
}

/// Rust `shlex::split` (crate `shlex` 1.x): `None` on broken quoting or a trailing backslash.
///
/// ```
/// use permlab_core::codex::shlex::rust_split;
/// assert_eq!(rust_split("git  reset  --soft").unwrap(), ["git", "reset", "--soft"]);
/// assert_eq!(rust_split("a # comment").unwrap(), ["a"]);
/// assert_eq!(rust_split("git \"unclosed"), None);
/// ```
pub fn rust_split(s: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut chars = s.chars().peekable();
    loop {
        // Skip whitespace and comments between words.
        loop {
            match chars.peek() {
                Some(' ') | Some('\t') | Some('\n') => {
                    chars.next();
                }
                Some('#') => {
                    for c in chars.by_ref() {
                        if c == '\n' {
                            break;
                        }
                    }
                }
                _ => break,
            }
        }
        if chars.peek().is_none() {
            return Some(out);
        }
        let mut word = String::new();
        while let Some(c) = chars.next() {
            match c {
                ' ' | '\t' | '\n' => break,
                '\'' => loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return None,
                    }
                },
                '"' => loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(e @ ('$' | '`' | '"' | '\\')) => word.push(e),
                            Some('\n') => {}
                            Some(e) => {
                                word.push('\\');
                                word.push(e);
                            }
                            None => return None,
                        },
                        Some(c) => word.push(c),
                        None => return None,
                    }
                },
                '\\' => match chars.next() {
                    Some('\n') => {}
                    Some(e) => word.push(e),
                    None => return None,
                },
                c => word.push(c),
            }
        }
        out.push(word);
    }
}

/// Rust `shlex::try_join`, close enough for messages: safe words as they are, others single
/// quoted (`'` written as `'"'"'`), the empty word as `''`.
pub fn try_join(words: &[String]) -> String {
    let quoted: Vec<String> = words
        .iter()
        .map(|w| {
            if w.is_empty() {
                "''".to_string()
            } else if w
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || ",._+:@%/-=".contains(c))
            {
                w.clone()
            } else {
                format!("'{}'", w.replace('\'', "'\"'\"'"))
            }
        })
        .collect();
    quoted.join(" ")
}
