//! A small JSON (and JSONC) reader and writer that keeps what the harnesses care about.
//!
//! Why not `serde_json`: it would triple the wasm bundle, and it throws away two things
//! this crate needs to be faithful:
//!
//! - **key order and duplicate keys, as written.** OpenCode turns `permission` objects into
//!   rule lists in the order the user wrote them, and a duplicated key keeps the position of
//!   its first occurrence with the value of its last (JavaScript object semantics). [`Value::Object`]
//!   therefore keeps every entry, in source order, duplicates included; each harness module
//!   decides what duplicates mean.
//! - **positions.** A course author who pastes a broken `settings.json` must be told the line and
//!   column, not just "expected value".
//!
//! [`parse`] is strict RFC 8259 JSON. [`parse_jsonc`] also accepts `//` and `/* */` comments and
//! trailing commas, as OpenCode's config loader does. Both accept a leading byte-order mark.
//!
//! ```
//! use permlab_core::json::{parse, Value};
//! let v = parse(r#"{"bash": {"*": "deny", "git *": "allow"}}"#).unwrap();
//! let bash = v.get("bash").unwrap().as_object().unwrap();
//! assert_eq!(bash[0].0, "*");
//! assert_eq!(bash[1].1.as_str(), Some("allow"));
//! assert_eq!(bash[1].1, Value::from("allow"));
//! ```

use std::fmt;

pub mod locate;

/// A parsed JSON value. Objects keep every entry in source order, duplicates included.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `null`
    Null,
    /// `true` or `false`
    Bool(bool),
    /// A number, with the text it was written as (so `1.0` and `1` stay distinguishable).
    Number(Number),
    /// A string, unescaped.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object: `(key, value)` entries in source order, duplicates kept.
    Object(Vec<(String, Value)>),
}

/// A JSON number: its value as `f64` and the exact source text.
#[derive(Clone, Debug)]
pub struct Number {
    /// The numeric value (JavaScript's view of it).
    pub value: f64,
    /// The text as written in the source, e.g. `"1e3"`.
    pub text: String,
}

impl PartialEq for Number {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl Value {
    /// The JSON type name as a learner reads it in an error message.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The number as `f64`, if this is one.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(n) => Some(n.value),
            _ => None,
        }
    }

    /// The elements, if this is an array.
    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The entries in source order (duplicates kept), if this is an object.
    pub fn as_object(&self) -> Option<&[(String, Value)]> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }

    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The value of `key` in an object. With duplicate keys the **last** wins, as in
    /// `JSON.parse` and `serde_json`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_object()?
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// Structural equality as the conformance files define it: object key order is
    /// irrelevant (duplicates resolved last-wins), arrays are ordered, numbers compare by value.
    pub fn same_as(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Object(a), Value::Object(b)) => {
                let keys_a = unique_keys(a);
                let keys_b = unique_keys(b);
                keys_a.len() == keys_b.len()
                    && keys_a.iter().all(|k| match (self.get(k), other.get(k)) {
                        (Some(x), Some(y)) => x.same_as(y),
                        _ => false,
                    })
            }
            (Value::Array(a), Value::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same_as(y))
            }
            _ => self == other,
        }
    }

    /// Compact JSON text (`JSON.stringify` without indentation), entries in stored order.
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        write_value(self, &mut out, None, 0);
        out
    }

    /// JSON text indented by two spaces per level.
    pub fn to_json_pretty(&self) -> String {
        let mut out = String::new();
        write_value(self, &mut out, Some(2), 0);
        out
    }
}

fn unique_keys(entries: &[(String, Value)]) -> Vec<&str> {
    let mut keys: Vec<&str> = Vec::new();
    for (k, _) in entries {
        if !keys.contains(&k.as_str()) {
            keys.push(k);
        }
    }
    keys
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::String(s.to_string())
    }
}

impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::String(s)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}

impl From<f64> for Value {
    fn from(v: f64) -> Self {
        Value::Number(Number {
            value: v,
            text: format_number(v),
        })
    }
}

impl From<usize> for Value {
    fn from(v: usize) -> Self {
        Value::Number(Number {
            value: v as f64,
            text: v.to_string(),
        })
    }
}

fn format_number(v: f64) -> String {
    if v.is_finite() && v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else if v.is_finite() {
        format!("{v}")
    } else {
        "null".to_string()
    }
}

/// Appends `s` as a JSON string literal (with quotes) to `out`.
///
/// Escapes what `JSON.stringify` escapes: `"`, `\`, and control characters below U+0020.
pub fn write_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn write_value(v: &Value, out: &mut String, indent: Option<usize>, depth: usize) {
    let newline = |out: &mut String, depth: usize| {
        if let Some(n) = indent {
            out.push('\n');
            out.extend(std::iter::repeat_n(' ', n * depth));
        }
    };
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.text),
        Value::String(s) => write_string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                write_value(item, out, indent, depth + 1);
            }
            if !items.is_empty() {
                newline(out, depth);
            }
            out.push(']');
        }
        Value::Object(entries) => {
            out.push('{');
            for (i, (k, item)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                write_string(k, out);
                out.push(':');
                if indent.is_some() {
                    out.push(' ');
                }
                write_value(item, out, indent, depth + 1);
            }
            if !entries.is_empty() {
                newline(out, depth);
            }
            out.push('}');
        }
    }
}

/// Where a JSON syntax error is: 1-based line and column (in characters), and byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub column: usize,
    /// Byte offset into the text.
    pub offset: usize,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// A JSON syntax error: where, and what was expected there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// Where the parser stopped.
    pub position: Position,
    /// What it expected, phrased as a fix ("expected `,` or `}` after an object entry"), in
    /// English (the CLI's text).
    pub message: String,
    /// The same problem as data, so a page in another language can word it itself.
    pub kind: SyntaxKind,
}

/// What the parser found where it stopped ([`SyntaxKind`]'s `found`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// The text ended.
    End,
    /// A visible character.
    Char(char),
    /// A control or whitespace character, shown by its code point (`U+0009`).
    Code(u32),
}

/// Every JSON syntax error as data: the parser's English `message` and a translated message are
/// both worded from it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SyntaxKind {
    /// The text is empty (or only whitespace and comments).
    Empty,
    /// Something follows the single top-level value.
    TrailingData {
        /// What follows.
        found: Found,
    },
    /// A `/*` comment without `*/`.
    UnclosedComment,
    /// A single-quoted string.
    SingleQuote,
    /// A comment in strict JSON.
    Comment,
    /// A value was expected.
    ExpectedValue {
        /// What is there instead.
        found: Found,
    },
    /// A misspelt `true`, `false` or `null`.
    Keyword {
        /// The keyword it starts like.
        word: &'static str,
        /// What is there.
        found: Found,
    },
    /// Nesting deeper than [`Limits::depth`].
    TooDeep {
        /// The limit.
        limit: usize,
    },
    /// A text longer than [`Limits::bytes`].
    TooLarge {
        /// The text's length.
        bytes: usize,
        /// The limit.
        limit: usize,
    },
    /// A number without its digits (`-`, `1.`, `1e`), or one that cannot be read.
    Number,
    /// `\u` without four hex digits.
    Hex4,
    /// A string without its closing `"`.
    UnclosedString,
    /// An unknown escape such as `\q`.
    UnknownEscape,
    /// A raw newline or tab inside a string.
    ControlChar,
    /// A `,` right before the closing bracket (`]` or `}`).
    TrailingComma {
        /// The bracket.
        close: char,
    },
    /// After an element or entry, neither `,` nor the closing bracket.
    ExpectedCommaOr {
        /// The bracket (`]` or `}`).
        close: char,
        /// What is there.
        found: Found,
    },
    /// An object key that is not a double-quoted string.
    ExpectedKey {
        /// What is there.
        found: Found,
    },
    /// A key without its `:`.
    ExpectedColon {
        /// The key.
        key: String,
        /// What is there.
        found: Found,
    },
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.position, self.message)
    }
}

impl std::error::Error for SyntaxError {}

/// Nesting deeper than this is rejected instead of overflowing the stack on hostile input.
pub const MAX_DEPTH: usize = 256;

/// Texts longer than this (in bytes) are rejected before parsing: 64 MiB, 170× the largest
/// JSON file permlab ships (`fixtures/conformance/opencode.json`, 377 KB) and thousands of
/// times any settings file of the shared corpus; a 10 MB paste still parses (in linear time).
pub const MAX_BYTES: usize = 64 << 20;

/// How deep and how large a JSON text may be ([`parse_with_limits`]).
///
/// ```
/// use permlab_core::json::{parse_with_limits, Limits};
/// let deep = format!("{}{}", "[".repeat(10), "]".repeat(10));
/// assert!(parse_with_limits(&deep, false, &Limits { depth: 10, ..Limits::default() }).is_ok());
/// let err = parse_with_limits(&deep, false, &Limits { depth: 9, ..Limits::default() }).unwrap_err();
/// assert!(err.message.contains("Limits::depth"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Deepest nesting of arrays and objects ([`MAX_DEPTH`] by default).
    pub depth: usize,
    /// Longest text, in bytes ([`MAX_BYTES`] by default).
    pub bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: MAX_DEPTH,
            bytes: MAX_BYTES,
        }
    }
}

/// Parses JSON (or JSONC when `jsonc`) within `limits`.
pub fn parse_with_limits(text: &str, jsonc: bool, limits: &Limits) -> Result<Value, SyntaxError> {
    let mut p = Parser::new(text, jsonc);
    p.max_depth = limits.depth;
    if text.len() > limits.bytes {
        return Err(SyntaxError {
            position: Position {
                line: 1,
                column: 1,
                offset: 0,
            },
            message: format!(
                "this text is {} bytes, more than permlab's limit of {} bytes for one JSON document \
                 (json::Limits::bytes): split it, or raise the limit",
                text.len(),
                limits.bytes
            ),
            kind: SyntaxKind::TooLarge {
                bytes: text.len(),
                limit: limits.bytes,
            },
        });
    }
    p.parse_document()
}

/// Parses strict JSON.
///
/// ```
/// let err = permlab_core::json::parse("[1, 2,]").unwrap_err();
/// assert_eq!(err.position.column, 6); // the comma
/// assert!(err.message.contains("trailing comma"));
/// ```
pub fn parse(text: &str) -> Result<Value, SyntaxError> {
    parse_with_limits(text, false, &Limits::default())
}

/// Parses JSONC: JSON plus `//` and `/* */` comments and trailing commas.
///
/// ```
/// let v = permlab_core::json::parse_jsonc("{\n // why\n \"a\": [1,],\n}").unwrap();
/// assert_eq!(v.get("a").unwrap().as_array().unwrap().len(), 1);
/// ```
pub fn parse_jsonc(text: &str) -> Result<Value, SyntaxError> {
    parse_with_limits(text, true, &Limits::default())
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    jsonc: bool,
    depth: usize,
    max_depth: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str, jsonc: bool) -> Self {
        let pos = if text.starts_with('\u{feff}') { 3 } else { 0 };
        Parser {
            text,
            bytes: text.as_bytes(),
            pos,
            jsonc,
            depth: 0,
            max_depth: MAX_DEPTH,
        }
    }

    fn position_at(&self, offset: usize) -> Position {
        let before = &self.text[..offset.min(self.text.len())];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        Position {
            line,
            column,
            offset,
        }
    }

    fn error_at(&self, offset: usize, kind: SyntaxKind, message: impl Into<String>) -> SyntaxError {
        SyntaxError {
            position: self.position_at(offset),
            message: message.into(),
            kind,
        }
    }

    fn found_here(&self) -> Found {
        match self.text[self.pos..].chars().next() {
            None => Found::End,
            Some(c) if c.is_control() || c.is_whitespace() => Found::Code(c as u32),
            Some(c) => Found::Char(c),
        }
    }

    fn describe_here(&self) -> String {
        match self.found_here() {
            Found::End => "the end of the text".to_string(),
            Found::Code(c) => format!("U+{c:04X}"),
            Found::Char(c) => format!("`{c}`"),
        }
    }

    fn skip_ws(&mut self) -> Result<(), SyntaxError> {
        loop {
            match self.bytes.get(self.pos) {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.pos += 1,
                Some(b'/') if self.jsonc => match self.bytes.get(self.pos + 1) {
                    Some(b'/') => {
                        while let Some(&b) = self.bytes.get(self.pos) {
                            if b == b'\n' {
                                break;
                            }
                            self.pos += 1;
                        }
                    }
                    Some(b'*') => {
                        let start = self.pos;
                        match self.text[self.pos + 2..].find("*/") {
                            Some(end) => self.pos += 2 + end + 2,
                            None => {
                                return Err(self.error_at(
                                    start,
                                    SyntaxKind::UnclosedComment,
                                    "this `/*` comment is never closed: add `*/`",
                                ))
                            }
                        }
                    }
                    _ => return Ok(()),
                },
                _ => return Ok(()),
            }
        }
    }

    fn parse_document(mut self) -> Result<Value, SyntaxError> {
        self.skip_ws()?;
        if self.pos >= self.bytes.len() {
            return Err(self.error_at(
                self.pos,
                SyntaxKind::Empty,
                "the text is empty: expected a JSON value",
            ));
        }
        let v = self.parse_value()?;
        self.skip_ws()?;
        if self.pos < self.bytes.len() {
            return Err(self.error_at(
                self.pos,
                SyntaxKind::TrailingData {
                    found: self.found_here(),
                },
                format!(
                    "unexpected {} after the JSON value: remove it, or wrap both values in an array",
                    self.describe_here()
                ),
            ));
        }
        Ok(v)
    }

    fn parse_value(&mut self) -> Result<Value, SyntaxError> {
        match self.bytes.get(self.pos) {
            Some(b'{') => self.nested(Self::parse_object),
            Some(b'[') => self.nested(Self::parse_array),
            Some(b'"') => Ok(Value::String(self.parse_string()?)),
            Some(b'-' | b'0'..=b'9') => self.parse_number(),
            Some(b't') => self.keyword("true", Value::Bool(true)),
            Some(b'f') => self.keyword("false", Value::Bool(false)),
            Some(b'n') => self.keyword("null", Value::Null),
            Some(b'\'') => Err(self.error_at(
                self.pos,
                SyntaxKind::SingleQuote,
                "strings must use double quotes `\"`, not single quotes",
            )),
            Some(b'/') if !self.jsonc => Err(self.error_at(
                self.pos,
                SyntaxKind::Comment,
                "comments are not allowed in JSON (this file format does not accept them)",
            )),
            _ => Err(self.error_at(
                self.pos,
                SyntaxKind::ExpectedValue {
                    found: self.found_here(),
                },
                format!("expected a JSON value, found {}", self.describe_here()),
            )),
        }
    }

    fn nested(
        &mut self,
        f: fn(&mut Self) -> Result<Value, SyntaxError>,
    ) -> Result<Value, SyntaxError> {
        self.depth += 1;
        if self.depth > self.max_depth {
            return Err(self.error_at(
                self.pos,
                SyntaxKind::TooDeep {
                    limit: self.max_depth,
                },
                format!(
                    "nesting deeper than {} levels is not supported (json::Limits::depth): \
                     flatten the document, or raise the limit",
                    self.max_depth
                ),
            ));
        }
        let v = f(self);
        self.depth -= 1;
        v
    }

    fn keyword(&mut self, word: &'static str, v: Value) -> Result<Value, SyntaxError> {
        if self.text[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(v)
        } else {
            Err(self.error_at(
                self.pos,
                SyntaxKind::Keyword {
                    word,
                    found: self.found_here(),
                },
                format!(
                    "expected a JSON value, found {} (did you mean `{word}`? strings need double quotes)",
                    self.describe_here()
                ),
            ))
        }
    }

    fn parse_number(&mut self) -> Result<Value, SyntaxError> {
        let start = self.pos;
        let b = self.bytes;
        let mut p = self.pos;
        if b.get(p) == Some(&b'-') {
            p += 1;
        }
        match b.get(p) {
            Some(b'0') => p += 1,
            Some(b'1'..=b'9') => {
                while matches!(b.get(p), Some(b'0'..=b'9')) {
                    p += 1;
                }
            }
            _ => {
                return Err(self.error_at(p, SyntaxKind::Number, "expected a digit in this number"))
            }
        }
        if b.get(p) == Some(&b'.') {
            p += 1;
            if !matches!(b.get(p), Some(b'0'..=b'9')) {
                return Err(self.error_at(
                    p,
                    SyntaxKind::Number,
                    "expected a digit after the decimal point",
                ));
            }
            while matches!(b.get(p), Some(b'0'..=b'9')) {
                p += 1;
            }
        }
        if matches!(b.get(p), Some(b'e' | b'E')) {
            p += 1;
            if matches!(b.get(p), Some(b'+' | b'-')) {
                p += 1;
            }
            if !matches!(b.get(p), Some(b'0'..=b'9')) {
                return Err(self.error_at(
                    p,
                    SyntaxKind::Number,
                    "expected a digit in the exponent",
                ));
            }
            while matches!(b.get(p), Some(b'0'..=b'9')) {
                p += 1;
            }
        }
        self.pos = p;
        let text = &self.text[start..p];
        let value = text
            .parse::<f64>()
            .map_err(|_| self.error_at(start, SyntaxKind::Number, "this number cannot be read"))?;
        Ok(Value::Number(Number {
            value,
            text: text.to_string(),
        }))
    }

    fn hex4(&mut self) -> Result<u32, SyntaxError> {
        let digits = self.text.get(self.pos..self.pos + 4).unwrap_or("");
        if digits.len() == 4 && digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            self.pos += 4;
            Ok(u32::from_str_radix(digits, 16).expect("checked hex digits"))
        } else {
            Err(self.error_at(
                self.pos,
                SyntaxKind::Hex4,
                "`\\u` must be followed by four hex digits",
            ))
        }
    }

    fn parse_string(&mut self) -> Result<String, SyntaxError> {
        let start = self.pos;
        self.pos += 1;
        let mut out = String::new();
        loop {
            let run_start = self.pos;
            while let Some(&b) = self.bytes.get(self.pos) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            out.push_str(&self.text[run_start..self.pos]);
            match self.bytes.get(self.pos) {
                None => {
                    return Err(self.error_at(start, SyntaxKind::UnclosedString, "this string is never closed: add a `\"`"))
                }
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    let esc = self.bytes.get(self.pos).copied();
                    self.pos += 1;
                    match esc {
                        Some(b'"') => out.push('"'),
                        Some(b'\\') => out.push('\\'),
                        Some(b'/') => out.push('/'),
                        Some(b'b') => out.push('\u{8}'),
                        Some(b'f') => out.push('\u{c}'),
                        Some(b'n') => out.push('\n'),
                        Some(b'r') => out.push('\r'),
                        Some(b't') => out.push('\t'),
                        Some(b'u') => {
                            let hi = self.hex4()?;
                            let c = if (0xD800..0xDC00).contains(&hi)
                                && self.text[self.pos..].starts_with("\\u")
                            {
                                let save = self.pos;
                                self.pos += 2;
                                let lo = self.hex4()?;
                                if (0xDC00..0xE000).contains(&lo) {
                                    char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00))
                                } else {
                                    self.pos = save;
                                    None
                                }
                            } else {
                                char::from_u32(hi)
                            };
                            // A lone surrogate cannot live in a Rust string; U+FFFD keeps the
                            // text readable instead of rejecting the whole file.
                            out.push(c.unwrap_or('\u{fffd}'));
                        }
                        _ => {
                            return Err(self.error_at(
                                self.pos - 2,
                                SyntaxKind::UnknownEscape,
                                "unknown escape: use one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX (write a backslash as \\\\)",
                            ))
                        }
                    }
                }
                Some(_) => {
                    return Err(self.error_at(
                        self.pos,
                        SyntaxKind::ControlChar,
                        "a raw control character (such as a newline or tab) is not allowed inside a string: write it as \\n or \\t",
                    ))
                }
            }
        }
    }

    fn parse_array(&mut self) -> Result<Value, SyntaxError> {
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_ws()?;
        if self.bytes.get(self.pos) == Some(&b']') {
            self.pos += 1;
            return Ok(Value::Array(items));
        }
        loop {
            self.skip_ws()?;
            items.push(self.parse_value()?);
            self.skip_ws()?;
            match self.bytes.get(self.pos) {
                Some(b',') => {
                    let comma = self.pos;
                    self.pos += 1;
                    self.skip_ws()?;
                    if self.bytes.get(self.pos) == Some(&b']') {
                        if self.jsonc {
                            self.pos += 1;
                            return Ok(Value::Array(items));
                        }
                        return Err(self.error_at(
                            comma,
                            SyntaxKind::TrailingComma { close: ']' },
                            "trailing comma before `]`: remove the last `,`",
                        ));
                    }
                }
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Value::Array(items));
                }
                _ => {
                    return Err(self.error_at(
                        self.pos,
                        SyntaxKind::ExpectedCommaOr {
                            close: ']',
                            found: self.found_here(),
                        },
                        format!(
                            "expected `,` or `]` after an array element, found {}",
                            self.describe_here()
                        ),
                    ))
                }
            }
        }
    }

    fn parse_object(&mut self) -> Result<Value, SyntaxError> {
        self.pos += 1;
        let mut entries = Vec::new();
        self.skip_ws()?;
        if self.bytes.get(self.pos) == Some(&b'}') {
            self.pos += 1;
            return Ok(Value::Object(entries));
        }
        loop {
            self.skip_ws()?;
            if self.bytes.get(self.pos) != Some(&b'"') {
                return Err(self.error_at(
                    self.pos,
                    SyntaxKind::ExpectedKey {
                        found: self.found_here(),
                    },
                    format!(
                        "expected a key in double quotes, found {}",
                        self.describe_here()
                    ),
                ));
            }
            let key = self.parse_string()?;
            self.skip_ws()?;
            if self.bytes.get(self.pos) != Some(&b':') {
                return Err(self.error_at(
                    self.pos,
                    SyntaxKind::ExpectedColon {
                        key: key.clone(),
                        found: self.found_here(),
                    },
                    format!(
                        "expected `:` after the key \"{key}\", found {}",
                        self.describe_here()
                    ),
                ));
            }
            self.pos += 1;
            self.skip_ws()?;
            let value = self.parse_value()?;
            entries.push((key, value));
            self.skip_ws()?;
            match self.bytes.get(self.pos) {
                Some(b',') => {
                    let comma = self.pos;
                    self.pos += 1;
                    self.skip_ws()?;
                    if self.bytes.get(self.pos) == Some(&b'}') {
                        if self.jsonc {
                            self.pos += 1;
                            return Ok(Value::Object(entries));
                        }
                        return Err(self.error_at(
                            comma,
                            SyntaxKind::TrailingComma { close: '}' },
                            "trailing comma before `}`: remove the last `,`",
                        ));
                    }
                }
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Value::Object(entries));
                }
                _ => {
                    return Err(self.error_at(
                        self.pos,
                        SyntaxKind::ExpectedCommaOr {
                            close: '}',
                            found: self.found_here(),
                        },
                        format!(
                            "expected `,` or `}}` after an object entry, found {}",
                            self.describe_here()
                        ),
                    ))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn to_serde(v: &Value) -> serde_json::Value {
        serde_json::from_str(&v.to_json()).unwrap()
    }

    #[test]
    fn every_conformance_file_reads_like_serde_json() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/conformance");
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            let ours = parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let theirs: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(to_serde(&ours), theirs, "{}", path.display());
        }
    }

    #[test]
    fn keeps_order_and_duplicates() {
        let v = parse(r#"{"b":1,"a":2,"b":3}"#).unwrap();
        let keys: Vec<_> = v
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, _)| k.as_str())
            .collect();
        assert_eq!(keys, ["b", "a", "b"]);
        assert_eq!(v.get("b").unwrap().as_f64(), Some(3.0));
    }

    #[test]
    fn escapes_round_trip() {
        let s = "a\"b\\c\n\t\u{0}\u{2028}\u{feff}日本😀";
        let mut out = String::new();
        write_string(s, &mut out);
        assert_eq!(parse(&out).unwrap(), Value::String(s.into()));
        assert_eq!(
            parse(r#""\ud83d\ude00""#).unwrap(),
            Value::String("😀".into())
        );
        assert_eq!(
            parse(r#""\ud800""#).unwrap(),
            Value::String("\u{fffd}".into())
        );
    }

    #[test]
    fn errors_say_where_and_what() {
        let cases = [
            ("", 1, 1, "empty"),
            ("{\"a\": 1,}", 1, 8, "trailing comma"),
            ("{\n  \"a\" 1}", 2, 7, "expected `:`"),
            ("[1 2]", 1, 4, "expected `,` or `]`"),
            ("{'a': 1}", 1, 2, "double quotes"),
            ("\"abc", 1, 1, "never closed"),
            ("// c\n{}", 1, 1, "comments"),
            ("[tru]", 1, 2, "true"),
            ("{} x", 1, 4, "after the JSON value"),
            ("\"a\nb\"", 1, 3, "control character"),
        ];
        for (text, line, column, needle) in cases {
            let e = parse(text).unwrap_err();
            assert_eq!(
                (e.position.line, e.position.column),
                (line, column),
                "{text:?}: {e}"
            );
            assert!(e.message.contains(needle), "{text:?}: {e}");
        }
    }

    #[test]
    fn jsonc_accepts_comments_and_trailing_commas() {
        let v =
            parse_jsonc("\u{feff}/* head */ {\"a\": [1, 2,], // tail\n \"b\": {\"c\": null,},}")
                .unwrap();
        assert_eq!(v.get("a").unwrap().as_array().unwrap().len(), 2);
        assert!(parse_jsonc("/* open")
            .unwrap_err()
            .message
            .contains("never closed"));
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let text = "[".repeat(100_000);
        assert!(parse(&text).unwrap_err().message.contains("nesting"));
    }

    #[test]
    fn same_as_ignores_key_order() {
        let a = parse(r#"{"x": [1, {"p": "q", "r": null}], "y": true}"#).unwrap();
        let b = parse(r#"{"y": true, "x": [1.0, {"r": null, "p": "q"}]}"#).unwrap();
        let c = parse(r#"{"y": true, "x": [{"r": null, "p": "q"}, 1]}"#).unwrap();
        assert!(a.same_as(&b));
        assert!(!a.same_as(&c));
    }

    proptest::proptest! {
        #[test]
        fn never_panics(s in "\\PC{0,64}") {
            let _ = parse(&s);
            let _ = parse_jsonc(&s);
        }

        #[test]
        fn strings_round_trip(s in "\\PC{0,64}") {
            let v = Value::String(s.clone());
            proptest::prop_assert_eq!(parse(&v.to_json()).unwrap(), v);
        }
    }
}
