//! One error type for everything a learner or course author can get wrong.
//!
//! Shaped like `globset::Error`: an [`Error`] carries an [`ErrorKind`] (matchable, non-exhaustive)
//! and, where it helps, *where* the problem is. Every message says how to fix the input, because
//! the person reading it is pasting a config into a lesson page, not debugging Rust.

use std::fmt;

use crate::json;

/// What went wrong. New kinds may be added without a breaking change.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The text is not valid JSON (or JSONC where that is accepted).
    Json(json::SyntaxError),
    /// The JSON is valid but a value has the wrong shape, e.g. a rule without `"tool"`.
    /// `path` is a JSON path such as `[3].action`.
    Shape {
        /// Where in the document, as a JSON path (`[3].action`, `permission.bash`).
        path: String,
        /// What was expected there and what was found, in English (what the CLI prints).
        message: String,
        /// The same as data, so a page can word it in its learner's language.
        problem: Problem,
    },
    /// An action that is not `allow`, `ask` or `deny`.
    UnknownAction(String),
    /// A tool call written in a form that cannot be read, e.g. `git push` without `tool:`.
    Call(CallProblem),
    /// A harness-specific configuration problem, phrased as that harness would report it.
    Config(String),
}

/// What is wrong at a [`ErrorKind::Shape`] error's path, as data (the English sentence is the
/// error's `message`). A page words these in its learner's language; `Other` is a problem only
/// the English message describes.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Problem {
    /// A value of the wrong JSON type there.
    WrongType {
        /// What belongs there.
        expected: Expected,
        /// What is there: a JSON kind as [`json::Value::kind`] says it (`"a number"`).
        found: &'static str,
    },
    /// An object without a field it needs.
    MissingField(String),
    /// An action that is not `allow`, `ask` or `deny`.
    UnknownAction(String),
    /// A YAML anchor (`&name`) or alias (`*name`, `<<: *name`) in an agent file's front
    /// matter: the reader does not follow them, and says so by name rather than with a
    /// puzzling indentation error.
    YamlReference {
        /// The 1-based line of the file.
        line: usize,
        /// The anchor or alias as written (`&strict`, `*strict`).
        text: String,
        /// An alias (`*name`); else an anchor (`&name`).
        alias: bool,
    },
    /// Only the English message says what.
    Other,
}

/// What belongs at a place (see [`Problem::WrongType`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Expected {
    /// A JSON array of rules.
    Rules,
    /// A rule object `{"tool", "pattern", "action"}`.
    Rule,
    /// A string.
    String,
    /// A call object `{"tool", "input"}`.
    Call,
    /// A JSON array.
    Array,
    /// A JSON object.
    Object,
    /// An array of strings.
    Strings,
    /// `true` or `false`.
    Bool,
}

impl Expected {
    /// In English, as the messages say it.
    pub fn en(self) -> &'static str {
        match self {
            Expected::Rules => "an array of rules",
            Expected::Rule => "a rule object {\"tool\", \"pattern\", \"action\"}",
            Expected::String => "a string",
            Expected::Call => "a call object",
            Expected::Array => "an array",
            Expected::Object => "an object",
            Expected::Strings => "an array of strings",
            Expected::Bool => "true or false",
        }
    }
}

/// Why a call written as `tool: input` cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CallProblem {
    /// No `:` at all (`git push`).
    NoColon(String),
    /// The tool name before `:` is empty or more than one word.
    ToolNotOneWord(String),
}

/// An error with an optional source name (a file name, "pasted config"…). Boxed: one pointer
/// in every `Result` that carries it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error(Box<Inner>);

#[derive(Clone, Debug, PartialEq, Eq)]
struct Inner {
    kind: ErrorKind,
    source_name: Option<String>,
    /// Where in an enclosing document, for kinds without a path of their own (a call that
    /// cannot be read, at `calls[2]`).
    at: Option<String>,
}

impl Error {
    /// A new error of `kind`.
    pub fn new(kind: ErrorKind) -> Self {
        Error(Box::new(Inner {
            kind,
            source_name: None,
            at: None,
        }))
    }

    /// A [`ErrorKind::Shape`] error at `path` that only `message` describes.
    pub fn shape(path: impl Into<String>, message: impl Into<String>) -> Self {
        Error::shape_as(path, Problem::Other, message)
    }

    /// A [`ErrorKind::Shape`] error at `path`: `problem` as data, `message` in English.
    pub fn shape_as(path: impl Into<String>, problem: Problem, message: impl Into<String>) -> Self {
        Error::new(ErrorKind::Shape {
            path: path.into(),
            message: message.into(),
            problem,
        })
    }

    /// `path` holds `found` where `expected` belongs ("expected a string, found a number").
    ///
    /// ```
    /// use permlab_core::{Error, error::Expected, json::Value};
    /// let e = Error::wrong_type("[0].tool", Expected::String, &Value::from(1.0));
    /// assert_eq!(e.to_string(), "at [0].tool: expected a string, found a number");
    /// ```
    pub fn wrong_type(path: impl Into<String>, expected: Expected, found: &json::Value) -> Self {
        let found = found.kind();
        Error::shape_as(
            path,
            Problem::WrongType { expected, found },
            format!("expected {}, found {found}", expected.en()),
        )
    }

    /// Names the file (or other source) the error came from, for the message.
    pub fn in_source(mut self, name: impl Into<String>) -> Self {
        self.0.source_name = Some(name.into());
        self
    }

    /// The same error inside an enclosing document, at `prefix` (a JSON path such as
    /// `calls[2]`): a shape error's path grows at the front, another kind gets `prefix` as its
    /// place ([`Error::at`]).
    ///
    /// ```
    /// use permlab_core::{Call, RuleTable};
    /// let e = RuleTable::from_json(r#"[{"tool": 1}]"#).unwrap_err().under("rules");
    /// assert_eq!(e.to_string(), "at rules[0].tool: expected a string, found a number");
    /// let e = Call::parse("git push").unwrap_err().under("calls[2]");
    /// assert_eq!(e.at(), Some("calls[2]"));
    /// assert!(e.to_string().starts_with("at calls[2]: cannot read the call"));
    /// ```
    pub fn under(mut self, prefix: &str) -> Self {
        let join = |path: &str| match path.chars().next() {
            None => prefix.to_string(),
            Some('[') => format!("{prefix}{path}"),
            Some(_) if prefix.is_empty() => path.to_string(),
            Some(_) => format!("{prefix}.{path}"),
        };
        match &mut self.0.kind {
            ErrorKind::Shape { path, .. } => *path = join(path),
            _ => self.0.at = Some(join(self.0.at.as_deref().unwrap_or(""))),
        }
        self
    }

    /// The place of an error whose kind has no path of its own (see [`Error::under`]).
    pub fn at(&self) -> Option<&str> {
        self.0.at.as_deref().filter(|a| !a.is_empty())
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }

    /// The file or source name, if one was attached.
    pub fn source_name(&self) -> Option<&str> {
        self.0.source_name.as_deref()
    }
}

impl From<json::SyntaxError> for Error {
    fn from(e: json::SyntaxError) -> Self {
        Error::new(ErrorKind::Json(e))
    }
}

impl Error {
    /// What went wrong, in English, without the source name or the place (the `Display` text
    /// is `source: at place: ` and this).
    pub fn what(&self) -> String {
        match &self.0.kind {
            ErrorKind::Json(e) => format!("invalid JSON at {e}"),
            ErrorKind::Shape { path, message, .. } if path.is_empty() => message.clone(),
            ErrorKind::Shape { path, message, .. } => format!("at {path}: {message}"),
            ErrorKind::UnknownAction(a) => {
                format!("unknown action \"{a}\": use \"allow\", \"ask\" or \"deny\" (lower case)")
            }
            ErrorKind::Call(CallProblem::NoColon(text)) => format!(
                "cannot read the call \"{text}\": write it as `tool: input`, e.g. `bash: git status`"
            ),
            ErrorKind::Call(CallProblem::ToolNotOneWord(text)) => format!(
                "cannot read the call \"{text}\": the tool name before `:` must be one word, e.g. `bash: git status`"
            ),
            ErrorKind::Config(m) => m.clone(),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(name) = &self.0.source_name {
            write!(f, "{name}: ")?;
        }
        if let Some(at) = self.at() {
            write!(f, "at {at}: ")?;
        }
        f.write_str(&self.what())
    }
}

impl std::error::Error for Error {}
