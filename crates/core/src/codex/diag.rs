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
}

impl LoadError {
    pub(crate) fn from_diag(file: &str, src: &str, d: &Diag) -> Self {
        let (line, column) = line_col(src, d.span.start);
        let snippet = snippet(file, src, d.span);
        let cause = match &d.kind {
            DiagKind::Parse | DiagKind::Static => {
                format!("starlark error: error: {}\n{snippet}", d.message)
            }
            DiagKind::Runtime(frames) => {
                let mut s = String::from("starlark error: ");
                if !frames.is_empty() {
                    s.push_str("Traceback (most recent call last):\n");
                    for (name, span) in frames {
                        let (l, _) = line_col(src, span.start);
                        s.push_str(&format!(
                            "  * {file}:{l}, in {name}\n      {}\n",
                            line_text(src, l).trim()
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
        }
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
    let (l2, c2) = line_col(src, last);
    let width = l2.to_string().len();
    let pad = " ".repeat(width);
    let num = |n: usize| format!("{n:<width$}");
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
            " ".repeat((c1 - 1).min(MAX_LINE_CHARS + 2))
        );
    }
    if l2 == l1 {
        let text = lines.next().unwrap_or("");
        let (_, end_col) = line_col(src, span.end.max(span.start));
        let carets = end_col.saturating_sub(c1).max(1);
        let (indent, carets) = if c1 > MAX_LINE_CHARS {
            (MAX_LINE_CHARS + 2, 1)
        } else {
            (c1 - 1, carets.min(MAX_LINE_CHARS + 1 - c1))
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
                "_".repeat(c1.min(MAX_LINE_CHARS))
            ));
            continue;
        }
        let mark = if k == 0 { '/' } else { '|' };
        out.push_str(&format!("{} | {mark} {}\n", num(l), clip_line(text)));
    }
    out.push_str(&format!(
        "{pad} | |{}^\n{pad} |",
        "_".repeat(c2.min(MAX_LINE_CHARS))
    ));
    out
}

/// The byte offset where the last character before `end` starts.
fn last_char_start(src: &str, end: usize) -> usize {
    let end = end.min(src.len());
    src.get(..end)
        .and_then(|s| s.char_indices().next_back())
        .map_or(0, |(i, _)| i)
}
