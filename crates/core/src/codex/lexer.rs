//! Tokens of the Starlark subset `.rules` files are written in.
//!
//! Starlark is Python-shaped: indentation is syntax (INDENT/DEDENT tokens), newlines inside
//! brackets are ignored, `#` starts a comment. Strings come in every Python form the real
//! parser (starlark-rust) accepts: `'…'`, `"…"`, triple-quoted, raw `r"…"`, and f-strings
//! (`f"{name}"`, only bare identifiers inside the braces — `f"{t[0]}"` is a parse error).

use super::diag::{Diag, Span};

/// One piece of an f-string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum FPart {
    /// Literal text (`{{`/`}}` already unescaped).
    Lit(String),
    /// `{name}`: a variable, with the span of the name.
    Var(String, Span),
    /// `{expr}` (codex 0.171.0's starlark accepts any expression in a hole, `f"{t[0]} blocked"`):
    /// its source text and the byte offset of that text in the file, parsed by the parser.
    Expr(String, usize),
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    Ident(String),
    Int(i64),
    Float(f64),
    Str(String),
    FStr(Vec<FPart>),
    /// Keywords and punctuation, by their spelling.
    Op(&'static str),
    Newline,
    Indent,
    Dedent,
    Eof,
}

#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub tok: Tok,
    pub span: Span,
}

pub(crate) const KEYWORDS: &[&str] = &[
    "and", "break", "continue", "def", "elif", "else", "for", "if", "in", "lambda", "load", "not",
    "or", "pass", "return",
];

/// Words Starlark reserves (Python keywords it does not implement): using one is a parse error,
/// as in starlark-rust.
const RESERVED: &[&str] = &[
    "as", "assert", "async", "await", "class", "del", "except", "finally", "from", "global",
    "import", "is", "nonlocal", "raise", "try", "while", "with", "yield",
];

// Longest first, so `**=` wins over `**` and `*`.
const PUNCT: &[&str] = &[
    "//=", "<<=", ">>=", "**", "//", "<<", ">>", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=",
    "%=", "|=", "&=", "^=", "->", "(", ")", "[", "]", "{", "}", ",", ":", ".", ";", "=", "<", ">",
    "+", "-", "*", "/", "%", "|", "&", "^", "~",
];

fn keyword(word: &str) -> Option<&'static str> {
    KEYWORDS.iter().find(|k| **k == word).copied()
}

pub(crate) fn lex(src: &str) -> Result<Vec<Token>, Diag> {
    Lexer {
        src,
        pos: 0,
        depth: 0,
        indents: vec![0],
        out: Vec::new(),
    }
    .run()
}

struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    /// Bracket nesting: newlines and indentation are ignored inside brackets.
    depth: usize,
    indents: Vec<usize>,
    out: Vec<Token>,
}

impl Lexer<'_> {
    fn peek(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    fn peek_at(&self, n: usize) -> Option<char> {
        self.src[self.pos..].chars().nth(n)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn push(&mut self, tok: Tok, start: usize) {
        self.out.push(Token {
            tok,
            span: Span::new(start, self.pos),
        });
    }

    fn err(&self, start: usize, msg: impl Into<String>) -> Diag {
        Diag::parse(Span::new(start, self.pos.max(start)), msg)
    }

    fn run(mut self) -> Result<Vec<Token>, Diag> {
        let mut at_line_start = true;
        loop {
            if at_line_start && self.depth == 0 {
                at_line_start = false;
                // Measure indentation; blank and comment-only lines do not count.
                let start = self.pos;
                let mut width = 0usize;
                let mut tab = None;
                while let Some(c) = self.peek() {
                    match c {
                        ' ' => width += 1,
                        // starlark-rust refuses tabs in indentation (blank lines aside).
                        '\t' => {
                            tab.get_or_insert(self.pos);
                            width += 1;
                        }
                        '\x0c' => width = 0,
                        _ => break,
                    }
                    self.bump();
                }
                match self.peek() {
                    None => break,
                    Some('\n') | Some('#') => {}
                    Some('\r') if self.peek_at(1) == Some('\n') => {}
                    Some(_) => {
                        // codex 0.171.0 points both errors at the line break before the line.
                        let newline = start
                            .checked_sub(1)
                            .filter(|&k| self.src.as_bytes().get(k) == Some(&b'\n'));
                        if let Some(at) = tab {
                            let span = match newline {
                                Some(k) => Span::new(k, k),
                                None => Span::new(at, at + 1),
                            };
                            return Err(Diag::parse(span, "tabs are not allowed"));
                        }
                        let current = *self.indents.last().unwrap_or(&0);
                        if width > current {
                            self.indents.push(width);
                            self.push(Tok::Indent, start);
                        } else {
                            while width < *self.indents.last().unwrap_or(&0) {
                                self.indents.pop();
                                self.push(Tok::Dedent, self.pos);
                            }
                            if width != *self.indents.last().unwrap_or(&0) {
                                if let Some(k) = newline {
                                    return Err(Diag::parse(
                                        Span::new(k, self.pos),
                                        "incorrect indentation",
                                    ));
                                }
                                return Err(self.err(start, "incorrect indentation"));
                            }
                        }
                    }
                }
            }
            let Some(c) = self.peek() else { break };
            let start = self.pos;
            match c {
                ' ' | '\t' | '\x0c' | '\r' => {
                    self.bump();
                }
                '\\' if matches!(self.peek_at(1), Some('\n')) => {
                    self.bump();
                    self.bump();
                }
                '\\' if self.peek_at(1) == Some('\r') && self.peek_at(2) == Some('\n') => {
                    self.pos += 3;
                }
                '\n' => {
                    self.bump();
                    if self.depth == 0 {
                        let last_is_line_end = matches!(
                            self.out.last().map(|t| &t.tok),
                            None | Some(Tok::Newline) | Some(Tok::Indent) | Some(Tok::Dedent)
                        );
                        if !last_is_line_end {
                            self.push(Tok::Newline, start);
                        }
                        at_line_start = true;
                    }
                }
                '#' => {
                    while let Some(c) = self.peek() {
                        if c == '\n' {
                            break;
                        }
                        self.bump();
                    }
                }
                '0'..='9' => self.number(start)?,
                '"' | '\'' => {
                    let s = self.string(start, false)?;
                    self.push(Tok::Str(s), start);
                }
                c if c == '_' || c.is_alphabetic() => {
                    // String prefixes: r"…", f"…", rf"…"/fr"…" (any case).
                    let mut word = String::new();
                    while let Some(c) = self.peek() {
                        if c == '_' || c.is_alphanumeric() {
                            word.push(c);
                            self.bump();
                        } else {
                            break;
                        }
                    }
                    let quote_next = matches!(self.peek(), Some('"') | Some('\''));
                    // Only `r"…"`, `f"…"` and `fr"…"`: starlark-rust has no `rf`, `b` or `u` prefixes
                    // (those read as a name followed by a string, a parse error).
                    if quote_next && matches!(word.as_str(), "r" | "f" | "fr") {
                        // `fr"…"` is a raw f-string; `rf"…"` is not accepted.
                        let raw = word != "f";
                        let body_start = self.pos;
                        let s = self.string(body_start, raw)?;
                        if word.starts_with('f') {
                            let parts =
                                fstring_parts(&s, body_start, self.src).map_err(|(at, msg)| {
                                    if msg.starts_with("Not a valid identifier") {
                                        Diag::stat(Span::new(at, at + 1), msg)
                                    } else {
                                        Diag::parse(Span::new(at, at + 1), msg)
                                    }
                                })?;
                            self.push(Tok::FStr(parts), start);
                        } else {
                            self.push(Tok::Str(s), start);
                        }
                    } else if let Some(k) = keyword(&word) {
                        self.push(Tok::Op(k), start);
                    } else if RESERVED.contains(&word.as_str()) {
                        return Err(
                            self.err(start, format!("cannot use reserved keyword `{word}`"))
                        );
                    } else {
                        self.push(Tok::Ident(word), start);
                    }
                }
                _ => {
                    let rest = &self.src[self.pos..];
                    let Some(p) = PUNCT.iter().find(|p| rest.starts_with(**p)) else {
                        self.bump();
                        return Err(self.err(start, format!("unexpected character {c:?}")));
                    };
                    self.pos += p.len();
                    match *p {
                        "(" | "[" | "{" => self.depth += 1,
                        ")" | "]" | "}" => self.depth = self.depth.saturating_sub(1),
                        _ => {}
                    }
                    self.push(Tok::Op(p), start);
                }
            }
        }
        if !matches!(
            self.out.last().map(|t| &t.tok),
            None | Some(Tok::Newline) | Some(Tok::Dedent)
        ) {
            self.push(Tok::Newline, self.pos);
        }
        while self.indents.len() > 1 {
            self.indents.pop();
            self.push(Tok::Dedent, self.pos);
        }
        self.push(Tok::Eof, self.pos);
        Ok(self.out)
    }

    fn number(&mut self, start: usize) -> Result<(), Diag> {
        let rest = &self.src[self.pos..];
        let radix = match rest.get(..2) {
            Some("0x" | "0X") => 16,
            Some("0o" | "0O") => 8,
            Some("0b" | "0B") => 2,
            _ => 10,
        };
        if radix != 10 {
            self.pos += 2;
            let digits_start = self.pos;
            while self.peek().is_some_and(|c| c.is_digit(radix)) {
                self.bump();
            }
            let digits = &self.src[digits_start..self.pos];
            return match i64::from_str_radix(digits, radix) {
                Ok(n) => {
                    self.push(Tok::Int(n), start);
                    Ok(())
                }
                Err(_) => Err(self.err(
                    start,
                    format!("invalid integer literal `{}`", &self.src[start..self.pos]),
                )),
            };
        }
        // Decimal: digits, then an optional fraction and exponent (a float). No `_` separators
        // (starlark-rust reads `1_000` as `1` followed by the name `_000`).
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.bump();
        }
        let int_end = self.pos;
        let mut float = false;
        if self.peek() == Some('.')
            && self
                .peek_at(1)
                .is_some_and(|c| c.is_ascii_digit() || !c.is_alphabetic() && c != '.')
        {
            float = true;
            self.bump();
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.bump();
            }
        }
        if matches!(self.peek(), Some('e' | 'E')) {
            let save = self.pos;
            self.bump();
            if matches!(self.peek(), Some('+' | '-')) {
                self.bump();
            }
            if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                float = true;
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.bump();
                }
            } else {
                self.pos = save;
            }
        }
        let text = &self.src[start..self.pos];
        if float {
            let v: f64 = text
                .parse()
                .map_err(|_| self.err(start, format!("invalid float literal `{text}`")))?;
            self.push(Tok::Float(v), start);
            return Ok(());
        }
        let digits = &self.src[start..int_end];
        if digits.len() > 1 && digits.starts_with('0') {
            return Err(self.err(
                start,
                format!("integer cannot have leading 0, got `{digits}`"),
            ));
        }
        match digits.parse::<i64>() {
            Ok(n) => {
                self.push(Tok::Int(n), start);
                Ok(())
            }
            Err(_) => Err(self.err(
                start,
                format!("integer literal `{digits}` is too large for permlab (64-bit)"),
            )),
        }
    }

    /// Reads a string literal starting at the opening quote; returns its value.
    fn string(&mut self, start: usize, raw: bool) -> Result<String, Diag> {
        let Some(q) = self.bump() else {
            return Err(self.err(start, "unfinished string literal"));
        };
        let triple = self.peek() == Some(q) && self.peek_at(1) == Some(q);
        if triple {
            self.bump();
            self.bump();
        }
        let mut out = String::new();
        loop {
            let Some(c) = self.bump() else {
                return Err(self.err(start, "unfinished string literal"));
            };
            if c == q {
                if !triple {
                    return Ok(out);
                }
                if self.peek() == Some(q) && self.peek_at(1) == Some(q) {
                    self.bump();
                    self.bump();
                    return Ok(out);
                }
                out.push(c);
                continue;
            }
            if c == '\n' && !triple {
                // The marker covers the literal up to the end of its line (codex 0.171.0).
                return Err(Diag::parse(
                    Span::new(start, self.pos - 1),
                    "unfinished string literal",
                ));
            }
            if c != '\\' {
                out.push(c);
                continue;
            }
            let Some(e) = self.bump() else {
                return Err(self.err(start, "unfinished string literal"));
            };
            if raw {
                // Raw strings keep the backslash, except before the quote character, which
                // starlark-rust keeps alone (`r"a\"b"` is `a"b`, unlike Python).
                if e != q {
                    out.push('\\');
                }
                out.push(e);
                continue;
            }
            match e {
                '\n' => {}
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                'a' => out.push('\x07'),
                'b' => out.push('\x08'),
                'f' => out.push('\x0c'),
                'v' => out.push('\x0b'),
                '\\' | '\'' | '"' => out.push(e),
                '0'..='7' => {
                    let mut v = e as u32 - '0' as u32;
                    for _ in 0..2 {
                        match self.peek() {
                            Some(d @ '0'..='7') => {
                                v = v * 8 + (d as u32 - '0' as u32);
                                self.bump();
                            }
                            _ => break,
                        }
                    }
                    out.push(
                        char::from_u32(v).ok_or_else(|| self.err(start, "invalid octal escape"))?,
                    );
                }
                'x' | 'u' | 'U' => {
                    let n = match e {
                        'x' => 2,
                        'u' => 4,
                        _ => 8,
                    };
                    let mut v = 0u32;
                    for _ in 0..n {
                        let d = self.bump().and_then(|d| d.to_digit(16));
                        let Some(d) = d else {
                            return Err(self.err(start, format!("invalid \\{e} escape sequence")));
                        };
                        v = v.saturating_mul(16).saturating_add(d);
                    }
                    out.push(
                        char::from_u32(v)
                            .ok_or_else(|| self.err(start, "escape is not a valid character"))?,
                    );
                }
                // Like Python, an unknown escape keeps its backslash (`".\\mvnw.cmd"` is common).
                other => {
                    out.push('\\');
                    out.push(other);
                }
            }
        }
    }
}

/// Splits an f-string body into literal text and `{identifier}` holes. `body_start` is the byte
/// offset of the opening quote (used to position errors approximately).
fn fstring_parts(s: &str, body_start: usize, _src: &str) -> Result<Vec<FPart>, (usize, String)> {
    let mut parts = Vec::new();
    let mut lit = String::new();
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '{' if chars.peek().map(|p| p.1) == Some('{') => {
                chars.next();
                lit.push('{');
            }
            '}' if chars.peek().map(|p| p.1) == Some('}') => {
                chars.next();
                lit.push('}');
            }
            '{' => {
                let mut name = String::new();
                let mut closed = false;
                // Brackets and quotes inside the hole do not end it (`{d["}"]}`).
                let mut depth = 0usize;
                let mut quote: Option<char> = None;
                for (_, c) in chars.by_ref() {
                    match (quote, c) {
                        (Some(q), c) if c == q => quote = None,
                        (Some(_), _) => {}
                        (None, '"' | '\'') => quote = Some(c),
                        (None, '(' | '[' | '{') => depth += 1,
                        (None, ')' | ']') => depth = depth.saturating_sub(1),
                        (None, '}') if depth == 0 => {
                            closed = true;
                            break;
                        }
                        (None, '}') => depth -= 1,
                        _ => {}
                    }
                    name.push(c);
                }
                let trimmed = name.trim();
                let ident_ok = !trimmed.is_empty()
                    && trimmed
                        .chars()
                        .next()
                        .is_some_and(|c| c == '_' || c.is_alphabetic())
                    && trimmed.chars().all(|c| c == '_' || c.is_alphanumeric());
                if !closed {
                    return Err((body_start + i, "unclosed `{` in f-string".to_string()));
                }
                // Positions assume no escapes before the hole (exact for ordinary f-strings).
                let name_at = body_start + 1 + i + 1 + (name.len() - name.trim_start().len());
                if trimmed.is_empty() {
                    // codex 0.171.0's text for `f"{}"`.
                    return Err((
                        name_at,
                        "unexpected f-string expression end '}', expected expression".to_string(),
                    ));
                }
                if !lit.is_empty() {
                    parts.push(FPart::Lit(std::mem::take(&mut lit)));
                }
                if ident_ok {
                    parts.push(FPart::Var(
                        trimmed.to_string(),
                        Span::new(name_at, name_at + trimmed.len()),
                    ));
                } else {
                    parts.push(FPart::Expr(trimmed.to_string(), name_at));
                }
            }
            '}' => return Err((body_start + i, "single `}` in f-string".to_string())),
            c => lit.push(c),
        }
    }
    if !lit.is_empty() || parts.is_empty() {
        parts.push(FPart::Lit(lit));
    }
    Ok(parts)
}
