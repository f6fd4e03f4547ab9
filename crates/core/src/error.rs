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
        /// What was expected there and what was found.
        message: String,
    },
    /// An action that is not `allow`, `ask` or `deny`.
    UnknownAction(String),
    /// A tool call written in a form that cannot be read, e.g. `git push` without `tool:`.
    Call(String),
    /// A harness-specific configuration problem, phrased as that harness would report it.
    Config(String),
}

/// An error with an optional source name (a file name, "pasted config"…).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    source_name: Option<String>,
}

impl Error {
    /// A new error of `kind`.
    pub fn new(kind: ErrorKind) -> Self {
        Error {
            kind,
            source_name: None,
        }
    }

    /// A [`ErrorKind::Shape`] error at `path`.
    pub fn shape(path: impl Into<String>, message: impl Into<String>) -> Self {
        Error::new(ErrorKind::Shape {
            path: path.into(),
            message: message.into(),
        })
    }

    /// Names the file (or other source) the error came from, for the message.
    pub fn in_source(mut self, name: impl Into<String>) -> Self {
        self.source_name = Some(name.into());
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// The file or source name, if one was attached.
    pub fn source_name(&self) -> Option<&str> {
        self.source_name.as_deref()
    }
}

impl From<json::SyntaxError> for Error {
    fn from(e: json::SyntaxError) -> Self {
        Error::new(ErrorKind::Json(e))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(name) = &self.source_name {
            write!(f, "{name}: ")?;
        }
        match &self.kind {
            ErrorKind::Json(e) => write!(f, "invalid JSON at {e}"),
            ErrorKind::Shape { path, message } if path.is_empty() => write!(f, "{message}"),
            ErrorKind::Shape { path, message } => write!(f, "at {path}: {message}"),
            ErrorKind::UnknownAction(a) => write!(
                f,
                "unknown action \"{a}\": use \"allow\", \"ask\" or \"deny\" (lower case)"
            ),
            ErrorKind::Call(m) => write!(f, "{m}"),
            ErrorKind::Config(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for Error {}
