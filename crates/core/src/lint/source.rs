//! The files a lint reads, how their format and scope are told from the name, and placing
//! an offset of one. A leaf under the linters, like `finding`.

use super::finding::Place;
use super::locate;
use crate::claude_code::Scope;
use crate::error::{Error, ErrorKind};
use crate::import::Format;

/// One file to lint.
#[derive(Clone, Debug)]
pub struct Source {
    /// Its name (shown in findings and errors).
    pub name: String,
    /// Its text.
    pub text: String,
    /// Its format; `None`: from the name and content ([`detect`]).
    pub format: Option<Format>,
    /// For Claude Code: its settings scope; `None`: from the name ([`claude_scope`]).
    pub scope: Option<Scope>,
}

impl Source {
    /// A file whose format and scope are detected.
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        Source {
            name: name.into(),
            text: text.into(),
            format: None,
            scope: None,
        }
    }
}

/// The format of a file from its name and text: `.rules` → Codex, `.md`/`.jsonc`/`opencode.json`
/// → OpenCode, other `.json` with `"permissions"` (or under a `claude` directory) → Claude
/// Code, any other JSON → OpenCode.
pub fn detect(name: &str, text: &str) -> Format {
    if name.ends_with(".rules") {
        Format::Codex
    } else if name.ends_with(".md") || name.ends_with(".jsonc") || name.ends_with("opencode.json") {
        Format::OpenCode
    } else if text.contains("\"permissions\"") || name.contains("claude") {
        Format::ClaudeCode
    } else {
        Format::OpenCode
    }
}

/// A Claude Code settings file's scope from its name: `managed-settings.json` → managed,
/// `settings.local.json` → local, a path under `~/.claude/` or a dotfiles `dot_claude/` →
/// user, anything else → project.
pub fn claude_scope(name: &str) -> Scope {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    if base.starts_with("managed-settings") {
        Scope::Managed
    } else if base.contains(".local.") {
        Scope::Local
    } else if name.starts_with("~/") || name.contains("dot_claude/") || name.contains("/home/") {
        Scope::User
    } else {
        Scope::Project
    }
}

/// An error for a file, positioned, with the fix.
pub(crate) fn file_error(name: &str, message: String) -> Error {
    Error::new(ErrorKind::Config(message)).in_source(name.to_string())
}

/// `place` for a byte offset of `src`.
pub(crate) fn place_at(src: &Source, offset: usize) -> Place {
    let (line, column) = locate::line_col(&src.text, offset);
    Place {
        file: src.name.clone(),
        line,
        column,
    }
}
