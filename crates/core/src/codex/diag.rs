//! Positions and the error text of a failed load, shaped like the real CLI's.
//!
//! The real `codex-execpolicy` prints `Error: failed to parse policy at <file>`, a blank line,
//! `Caused by:` and the cause indented by four spaces. Starlark causes come with a traceback
//! (one frame per active call) and an annotated source snippet; validation causes (examples that
//! do not match) are a single line. [`LoadError`] keeps the parts so the message can be shown in
//! the CLI's form or as a short `file:line:col: message`.

use std::fmt;

/// A byte range in the source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub(crate) fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
}

/// What kind of failure, which decides how the cause is rendered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum DiagKind {
    /// Syntax error: `error: Parse error: …` + snippet.
    Parse,
    /// Static resolution error (`Variable `x` not found`): no traceback.
    Static,
    /// Runtime error with the call stack (caller name, call span) outermost first.
    Runtime(Vec<(String, Span)>),
    /// A runtime error that says what happened as data (a budget, a value too large), with
    /// the call stack. Boxed: a `Diag` is the error of every evaluation step's `Result`, and
    /// its size is in every frame of the interpreter's recursion (see `MAX_NESTING`).
    Over(Box<(Vec<(String, Span)>, LoadErrorKind)>),
}

/// An error inside one file, before it is attached to the file name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Diag {
    pub kind: DiagKind,
    pub span: Span,
    pub message: String,
}

impl Diag {
    pub(crate) fn parse(span: Span, message: impl Into<String>) -> Self {
        Diag {
            kind: DiagKind::Parse,
            span,
            message: format!("Parse error: {}", message.into()),
        }
    }

    pub(crate) fn stat(span: Span, message: impl Into<String>) -> Self {
        Diag {
            kind: DiagKind::Static,
            span,
            message: message.into(),
        }
    }

    /// A runtime error with the call stack (caller name, call span) outermost first.
    pub(crate) fn runtime(
        frames: Vec<(String, Span)>,
        span: Span,
        message: impl Into<String>,
    ) -> Self {
        Diag {
            kind: DiagKind::Runtime(frames),
            span,
            message: message.into(),
        }
    }

    /// The same runtime error, saying what happened as data (a budget, a value too large).
    /// An error that already says (see `Interp::err`, which may answer with the step budget's)
    /// keeps its own kind.
    pub(crate) fn with_load(mut self, load: LoadErrorKind) -> Self {
        if let DiagKind::Runtime(frames) = &mut self.kind {
            self.kind = DiagKind::Over(Box::new((std::mem::take(frames), load)));
        }
        self
    }

    /// What happened, as data.
    fn load(&self) -> LoadErrorKind {
        match &self.kind {
            DiagKind::Over(over) => over.1,
            _ => LoadErrorKind::Starlark,
        }
    }
}

/// What made a policy file fail to load, as data: the interpreter's budgets with their
/// numbers, so a page can say it in its own language without reading the English `message`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LoadErrorKind {
    /// The file needs more steps than its budget allows ([`super::Limits::steps`]).
    StepBudget {
        /// The budget: steps one file may take.
        steps: u64,
    },
    /// The file needs more memory than its budget allows ([`super::Limits::bytes`]).
    MemoryBudget {
        /// The budget, in bytes (see [`LoadErrorKind::megabytes`] for how the message says it).
        bytes: u64,
    },
    /// One string or list would be longer than permlab allows.
    TooLarge {
        /// Its length (bytes or elements).
        size: u64,
        /// The most one string or list may hold.
        max: u64,
    },
    /// A `match=`/`not_match=` example that does not agree with its rule.
    Validation,
    /// Any other error of the Starlark program (syntax, name, type…): only `message` says what.
    Starlark,
}

impl LoadErrorKind {
    /// `bytes` in megabytes as the memory budget's message writes them: `64`, or `0.500`
    /// below one.
    ///
    /// ```
    /// use permlab_core::codex::LoadErrorKind;
    /// assert_eq!(LoadErrorKind::megabytes(64 << 20), "64");
    /// assert_eq!(LoadErrorKind::megabytes(1 << 19), "0.500");
    /// ```
    pub fn megabytes(bytes: u64) -> String {
        if bytes >= 1 << 20 {
            format!("{}", bytes >> 20)
        } else {
            format!("{:.3}", bytes as f64 / (1 << 20) as f64)
        }
    }
}

/// 1-based line and column (in characters) of byte `offset` in `src`.
pub(crate) fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(src.len());
    let mut line = 1;
    let mut col = 1;
    for (i, c) in src.char_indices() {
        if i >= offset {
            break;
        }
        if c == '\n' {
            line += 1;
            col = 1;
        } else {
            col += 1;
        }
    }
    (line, col)
}

fn line_text(src: &str, line: usize) -> &str {
    src.split('\n')
        .nth(line.saturating_sub(1))
        .unwrap_or("")
        .trim_end_matches('\r')
}

/// Why a policy file failed to load: the file, where, and the cause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// The policy's name as given to [`super::Policy::parse`] (a file name).
    pub file: String,
    /// 1-based line of the offending construct (the `prefix_rule(…)` call for validation errors).
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// The cause in one line, e.g. `invalid decision: Allow`.
    pub message: String,
    /// The cause as the real CLI renders it (Starlark traceback and snippet, or one line).
    pub cause: String,
    /// What happened, as data (a budget and its number, a value too large…).
    pub kind: LoadErrorKind,
}

impl LoadError {
    pub(crate) fn from_diag(file: &str, src: &str, d: &Diag) -> Self {
        let (line, column) = line_col(src, d.span.start);
        let snippet = snippet(file, src, d.span);
        let frames = match &d.kind {
            DiagKind::Parse | DiagKind::Static => None,
            DiagKind::Runtime(frames) => Some(frames),
            DiagKind::Over(over) => Some(&over.0),
        };
        let cause = match frames {
            None => format!("starlark error: error: {}\n{snippet}", d.message),
            Some(frames) => {
                let mut s = String::from("starlark error: ");
                if !frames.is_empty() {
                    s.push_str("Traceback (most recent call last):\n");
                    for (name, span) in frames {
                        let (l, _) = line_col(src, span.start);
                        s.push_str(&format!(
                            "  * {file}:{l}, in {name}\n      {}\n",
                            frame_line(line_text(src, l).trim())
                        ));
                    }
                }
                s.push_str(&format!("error: {}\n{snippet}", d.message));
                s
            }
        };
        LoadError {
            file: file.to_string(),
            line,
            column,
            message: d.message.clone(),
            cause,
            kind: d.load(),
        }
    }

    /// A validation error (an example that does not match): one line, no snippet, positioned at
    /// the `prefix_rule` call that declared the example.
    pub(crate) fn validation(file: &str, src: &str, span: Span, message: String) -> Self {
        let (line, column) = line_col(src, span.start);
        LoadError {
            file: file.to_string(),
            line,
            column,
            cause: message.clone(),
            message,
            kind: LoadErrorKind::Validation,
        }
    }

    /// 1-based line of the offending construct.
    pub fn line(&self) -> usize {
        self.line
    }

    /// 1-based column, in characters.
    pub fn column(&self) -> usize {
        self.column
    }

    /// The cause in one line, in English (what the CLI prints).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// What happened, as data.
    ///
    /// ```
    /// use permlab_core::codex::{LoadErrorKind, Limits, Policy};
    /// let tight = Limits { steps: 500, ..Limits::default() };
    /// let text = "x = [i for i in range(1000)]";
    /// let e = Policy::parse_with_limits("p.rules", text, &tight).unwrap_err();
    /// assert_eq!(e.kind(), LoadErrorKind::StepBudget { steps: 500 });
    /// let e = Policy::parse("p.rules", "prefix_rule(").unwrap_err();
    /// assert_eq!(e.kind(), LoadErrorKind::Starlark);
    /// ```
    pub fn kind(&self) -> LoadErrorKind {
        self.kind
    }

    /// How to fix the input, for the common causes (permlab's addition; the CLI has no hints).
    ///
    /// ```
    /// use permlab_core::codex::Policy;
    /// let e = Policy::parse("p.rules", r#"prefix_rule(pattern=["git"], decision="deny")"#).unwrap_err();
    /// assert!(e.hint().unwrap().contains("\"forbidden\""));
    /// ```
    pub fn hint(&self) -> Option<&'static str> {
        let m = self.message.as_str();
        Some(if m.starts_with("invalid decision") {
            "a decision is \"allow\", \"prompt\" or \"forbidden\" (lower case); \"deny\" is accepted only by network_rule"
        } else if m.contains("` not found") {
            "the policy built-ins are prefix_rule, network_rule and host_executable"
        } else if m.contains("Type of parameter `pattern`") {
            "write the pattern as a list of tokens, e.g. pattern=[\"git\", \"status\"]; it is never shell-split"
        } else if m.contains("unmatched examples") {
            "every match= example must match this prefix_rule's own pattern (other rules do not count)"
        } else if m.contains("to not match rule") {
            "a not_match= example matches this rule: drop the example or make the pattern more specific"
        } else if m.contains("extra named parameter") {
            "prefix_rule accepts pattern, decision, match, not_match and justification"
        } else if m.contains("pattern cannot be empty")
            || m.contains("alternatives cannot be empty")
        {
            "a pattern and each list of alternatives need at least one token"
        } else {
            return None;
        })
    }

    /// The whole text the real CLI prints on stderr:
    /// `Error: failed to parse policy at <file>\n\nCaused by:\n    <cause>`.
    pub fn cli_text(&self) -> String {
        let mut out = format!(
            "Error: failed to parse policy at {}\n\nCaused by:",
            self.file
        );
        for line in self.cause.lines() {
            out.push_str("\n    ");
            out.push_str(line);
        }
        out
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "failed to parse policy at {}:{}:{}: {}",
            self.file, self.line, self.column, self.message
        )
    }
}

impl std::error::Error for LoadError {}

impl From<LoadError> for crate::Error {
    fn from(e: LoadError) -> Self {
        let file = e.file.clone();
        let mut message = format!("line {}, column {}: {}", e.line, e.column, e.message);
        if let Some(h) = e.hint() {
            message.push_str(" — ");
            message.push_str(h);
        }
        crate::Error::new(crate::ErrorKind::Config(message)).in_source(file)
    }
}

/// A traceback frame's source line as starlark-rust prints it: a line of more than 80
/// characters is cut to its first 77 and `...`.
///
/// ```text
///   * policy.rules:2, in deny
///       prefix_rule(pattern=t, decision="forbidden", justification="bbbbbbbbbbbbbbbbb...
/// ```
fn frame_line(text: &str) -> std::borrow::Cow<'_, str> {
    const MAX: usize = 80;
    const KEEP: usize = MAX - 3;
    match (text.char_indices().nth(KEEP), text.chars().nth(MAX)) {
        (Some((cut, _)), Some(_)) => format!("{}...", &text[..cut]).into(),
        _ => text.into(),
    }
}

/// Spans over more lines than this are shown as their first [`HEAD_LINES`] and last
/// [`TAIL_LINES`] lines around a `… N lines …` marker: an unclosed `"""` spans the rest of
/// the file, and a message should not repeat a 200 KB file.
const MAX_SPAN_LINES: usize = 8;
const HEAD_LINES: usize = 3;
const TAIL_LINES: usize = 2;

/// Source lines longer than this many characters are cut, with ` …`.
const MAX_LINE_CHARS: usize = 240;

/// `text` cut to [`MAX_LINE_CHARS`] characters.
fn clip_line(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(MAX_LINE_CHARS) {
        Some((cut, _)) => format!("{} …", &text[..cut]).into(),
        None => text.into(),
    }
}

/// The annotated snippet starlark-rust prints under an error: ` --> file:l:c`, the source
/// line(s) and a marker under the span. A span over several lines (a multi-line
/// `prefix_rule(…)` call) is drawn with `/`, `|` and `|_^` in the margin, as annotate-snippets
/// does; a long span keeps its first and last lines only (permlab's bound, see
/// [`MAX_SPAN_LINES`]).
///
/// Linear in the span: the lines are read in one pass from the span's first line (reading
/// each line again from the top of the file made an unclosed `"""` quadratic).
fn snippet(file: &str, src: &str, span: Span) -> String {
    // An error at the very end of the input (an unclosed `(`): codex 0.171.0 prints the
    // position as 1:1 with no source line.
    if span.start >= src.len() && !src.is_empty() {
        return format!("--> {file}:1:1\n |\n |");
    }
    let (l1, c1) = line_col(src, span.start);
    let last = if span.end > span.start {
        last_char_start(src, span.end)
    } else {
        span.start
    };
    let (l2, _) = line_col(src, last);
    // Markers are drawn in screen columns: a wide character (`日`) takes two.
    let (s1, s2) = (screen_col(src, span.start), screen_col(src, last));
    let width = l2.to_string().len();
    let pad = " ".repeat(width);
    // The gutter is right-aligned, as annotate-snippets draws it (` 9 |` above `10 |`).
    let num = |n: usize| format!("{n:>width$}");
    let first_line_start = src
        .get(..span.start.min(src.len()))
        .and_then(|s| s.rfind('\n'))
        .map_or(0, |k| k + 1);
    let mut lines = src
        .get(first_line_start..)
        .unwrap_or("")
        .split('\n')
        .map(|l| l.trim_end_matches('\r'));
    // A zero-width span on a line break: the line, and no marker.
    if span.end == span.start && src.as_bytes().get(span.start) == Some(&b'\n') {
        return format!(
            "{pad}--> {file}:{l1}:{c1}\n{pad} |\n{} | {}\n{pad} | {}\n{pad} |",
            num(l1),
            clip_line(lines.next().unwrap_or("")),
            " ".repeat((s1 - 1).min(MAX_LINE_CHARS + 2))
        );
    }
    if l2 == l1 {
        let text = lines.next().unwrap_or("");
        let end_col = screen_col(src, span.end.max(span.start));
        let carets = end_col.saturating_sub(s1).max(1);
        let (indent, carets) = if c1 > MAX_LINE_CHARS {
            (MAX_LINE_CHARS + 2, 1)
        } else {
            (
                s1 - 1,
                carets.min((MAX_LINE_CHARS + 1).saturating_sub(s1).max(1)),
            )
        };
        return format!(
            "{pad}--> {file}:{l1}:{c1}\n{pad} |\n{} | {}\n{pad} | {}{}\n{pad} |",
            num(l1),
            clip_line(text),
            " ".repeat(indent),
            "^".repeat(carets)
        );
    }
    let count = l2 - l1 + 1;
    // A span starting inside its first line: the margin's line starts under the column.
    let inside = c1 > 1;
    let mut out = format!("{pad}--> {file}:{l1}:{c1}\n{pad} |\n");
    for (k, text) in lines.take(count).enumerate() {
        let l = l1 + k;
        if count > MAX_SPAN_LINES && k == HEAD_LINES {
            out.push_str(&format!(
                "{pad} | | … {} lines …\n",
                count - HEAD_LINES - TAIL_LINES
            ));
        }
        if count > MAX_SPAN_LINES && k >= HEAD_LINES && k < count - TAIL_LINES {
            continue;
        }
        if k == 0 && inside {
            out.push_str(&format!(
                "{} |   {}\n{pad} |  {}^\n",
                num(l),
                clip_line(text),
                "_".repeat(s1.min(MAX_LINE_CHARS))
            ));
            continue;
        }
        let mark = if k == 0 { '/' } else { '|' };
        out.push_str(&format!("{} | {mark} {}\n", num(l), clip_line(text)));
    }
    out.push_str(&format!(
        "{pad} | |{}^\n{pad} |",
        "_".repeat(s2.min(MAX_LINE_CHARS))
    ));
    out
}

/// 1-based screen column of byte `offset` in its line: the widths ([`char_width`]) of the
/// characters before it, plus one.
fn screen_col(src: &str, offset: usize) -> usize {
    let offset = offset.min(src.len());
    let offset = (0..=offset)
        .rev()
        .find(|&k| src.is_char_boundary(k))
        .unwrap_or(0);
    let line_start = src[..offset].rfind('\n').map_or(0, |k| k + 1);
    1 + src[line_start..offset]
        .chars()
        .map(char_width)
        .sum::<usize>()
}

/// How many terminal columns a character takes, as annotate-snippets counts them (the
/// `unicode-width` tables, here reduced to their main blocks): two for East Asian wide and
/// full-width characters and most emoji, none for combining marks and zero-width characters,
/// one otherwise.
fn char_width(c: char) -> usize {
    let u = c as u32;
    let zero = matches!(u,
        0x0300..=0x036F | 0x0483..=0x0489 | 0x0591..=0x05BD | 0x0610..=0x061A | 0x064B..=0x065F
        | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x200B..=0x200F | 0x20D0..=0x20FF
        | 0xFE00..=0xFE0F | 0xFE20..=0xFE2F);
    if zero {
        return 0;
    }
    let wide = matches!(u,
        0x1100..=0x115F | 0x231A..=0x231B | 0x2329..=0x232A | 0x23E9..=0x23EC | 0x23F0 | 0x23F3
        | 0x25FD..=0x25FE | 0x2614..=0x2615 | 0x2648..=0x2653 | 0x267F | 0x2693 | 0x26A1
        | 0x26AA..=0x26AB | 0x26BD..=0x26BE | 0x26C4..=0x26C5 | 0x26CE | 0x26D4 | 0x26EA
        | 0x26F2..=0x26F3 | 0x26F5 | 0x26FA | 0x26FD | 0x2705 | 0x270A..=0x270B | 0x2728
        | 0x274C | 0x274E | 0x2753..=0x2755 | 0x2757 | 0x2795..=0x2797 | 0x27B0 | 0x27BF
        | 0x2B1B..=0x2B1C | 0x2B50 | 0x2B55 | 0x2E80..=0x303E | 0x3041..=0x33FF
        | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xA000..=0xA4CF | 0xA960..=0xA97F
        | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFE10..=0xFE19 | 0xFE30..=0xFE6F
        | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6 | 0x16FE0..=0x18CFF | 0x1B000..=0x1B2FF
        | 0x1F004 | 0x1F0CF | 0x1F18E | 0x1F191..=0x1F19A | 0x1F200..=0x1F2FF
        | 0x1F300..=0x1F320 | 0x1F32D..=0x1F335 | 0x1F337..=0x1F37C | 0x1F37E..=0x1F393
        | 0x1F3A0..=0x1F3CA | 0x1F3CF..=0x1F3D3 | 0x1F3E0..=0x1F3F0 | 0x1F3F4 | 0x1F3F8..=0x1F43E
        | 0x1F440 | 0x1F442..=0x1F4FC | 0x1F4FF..=0x1F53D | 0x1F54B..=0x1F54E | 0x1F550..=0x1F567
        | 0x1F57A | 0x1F595..=0x1F596 | 0x1F5A4 | 0x1F5FB..=0x1F64F | 0x1F680..=0x1F6C5
        | 0x1F6CC | 0x1F6D0..=0x1F6D2 | 0x1F6D5..=0x1F6D7 | 0x1F6DC..=0x1F6DF | 0x1F6EB..=0x1F6EC
        | 0x1F6F4..=0x1F6FC | 0x1F7E0..=0x1F7EB | 0x1F7F0 | 0x1F90C..=0x1F93A | 0x1F93C..=0x1F945
        | 0x1F947..=0x1F9FF | 0x1FA70..=0x1FAFF | 0x20000..=0x2FFFD | 0x30000..=0x3FFFD);
    if wide {
        2
    } else {
        1
    }
}

/// The byte offset where the last character before `end` starts.
fn last_char_start(src: &str, end: usize) -> usize {
    let end = end.min(src.len());
    src.get(..end)
        .and_then(|s| s.char_indices().next_back())
        .map_or(0, |(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::LoadErrorKind;
    use crate::codex::{Limits, Policy};

    /// The budgets' errors carry their numbers as data; the `Display` text is unchanged.
    #[test]
    fn budget_errors_carry_their_numbers() {
        let e = Policy::parse(
            "rules",
            "x = [1]\nfor i in range(1000000):\n    for j in range(1000000):\n        pass\n",
        )
        .unwrap_err();
        assert_eq!(
            e.kind(),
            LoadErrorKind::StepBudget {
                steps: Limits::DEFAULT.steps
            }
        );
        assert!(e
            .to_string()
            .starts_with("failed to parse policy at rules:3:14: this policy needs more than 2000000 steps, permlab's step budget"));
        let e = Policy::parse(
            "rules",
            "prefix_rule(pattern=[\"git\", [\"x\" * 200000] * 20000], decision=\"allow\")",
        )
        .unwrap_err();
        assert_eq!(
            e.kind(),
            LoadErrorKind::MemoryBudget {
                bytes: Limits::DEFAULT.bytes
            }
        );
        assert!(e
            .message()
            .starts_with("this policy needs more than 64 MB,"));
        let e = Policy::parse("rules", "for i in range(100000000):\n    pass\n").unwrap_err();
        assert_eq!(
            e.kind(),
            LoadErrorKind::TooLarge {
                size: 100000000,
                max: 1000000
            },
            "{e}"
        );
        assert_eq!((e.line(), e.column()), (1, 10));
        let e = Policy::parse(
            "rules",
            "prefix_rule(pattern=[\"git\"], match=[\"ls\"], decision=\"allow\")",
        )
        .unwrap_err();
        assert_eq!(e.kind(), LoadErrorKind::Validation, "{e}");
        let e = Policy::parse(
            "rules",
            "prefix_rule(pattern=[\"git\"], decision=\"Allow\")",
        )
        .unwrap_err();
        assert_eq!(e.kind(), LoadErrorKind::Starlark, "{e}");
    }
}
