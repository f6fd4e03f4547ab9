//! # Import: a harness's own config file → the lesson's common rule table
//!
//! A learner pastes the file they already have (`.claude/settings.json`, `opencode.json`, an
//! OpenCode agent's markdown, a Codex `.rules` file); the lesson shows it as a tool · pattern ·
//! action table and runs every engine over it. Each importer reuses the harness's own parser
//! (never a second reading of the format), and the rows it emits are ones the harness's engine
//! reads back to the *same* rule, so the native engine gives the native verdict:
//!
//! - Claude Code: every rule string is parsed by [`claude_code::rule::parse_rule`], written as a
//!   row, translated back by [`claude_code::translate`] and parsed again; a row is kept only when
//!   both parses agree. Rows are written deny, ask, allow (Claude Code is order-insensitive, and
//!   that order also reads top-down).
//! - OpenCode: [`opencode::PermissionConfig`] decodes, [`opencode::from_config`] gives the rules in
//!   OpenCode's own order, which is kept (last match wins there).
//! - Codex: [`codex::Policy::parse`] loads; each prefix rule becomes `bash` rows `tok1 tok2 *`
//!   (alternatives expanded). Row order is irrelevant to Codex (strictest match wins).
//!
//! Nothing is dropped silently: every native rule either gives rows (their [`Imported::origins`]
//! name it) or a [`ImportWarning`] with `dropped: true`. A file the harness itself would refuse
//! is an [`Error`] naming the position.
//!
//! ```
//! use permlab_core::import::{import, Format};
//! let i = import(Format::ClaudeCode, r#"{"permissions": {"allow": ["Bash(git *)"], "deny": ["Bash(git push *)", "Fetch(x)"]}}"#).unwrap();
//! assert_eq!(i.table.to_json(), "[\n  {\"tool\": \"bash\", \"pattern\": \"git push *\", \"action\": \"deny\"},\n  {\"tool\": \"bash\", \"pattern\": \"git *\", \"action\": \"allow\"}\n]");
//! assert_eq!(i.rules_in, 3);
//! assert!(i.warnings[0].dropped); // `Fetch(x)` names no Claude Code tool
//! ```

mod claude;
mod codex_rules;
mod imported;
mod opencode_config;
mod places;
pub mod yaml;

use crate::error::Error;
use crate::json::Value;

pub use claude::claude_tool_row;
pub use imported::{Format, ImportNote, ImportWarning, Imported};
pub use places::{claude_rule_place, row_places, ClaudeRulePlaces};

/// Whether this build reads Codex `.rules` files (the `rules-files` feature: a Starlark
/// interpreter). Without it, [`import`] refuses them and says so.
pub const RULES_FILES: bool = cfg!(feature = "rules-files");

/// Imports the text of a file of `format`. For OpenCode, text starting with `---` is read as an
/// agent markdown file, anything else as JSONC.
pub fn import(format: Format, text: &str) -> Result<Imported, Error> {
    match format {
        Format::ClaudeCode => claude::import_text(text, crate::claude_code::Scope::Project),
        Format::OpenCode => opencode_config::import_text(text),
        Format::Codex => codex_rules::import_text("rules", text),
    }
}

/// Imports a Claude Code settings file that sits at `scope` (what [`import`] does with the
/// project scope): the layers of one session, each read as Claude Code reads a file there.
pub fn import_claude_code(text: &str, scope: crate::claude_code::Scope) -> Result<Imported, Error> {
    claude::import_text(text, scope)
}

/// Imports an already parsed JSON document (Claude Code settings or an `opencode.json`
/// object). Codex files are not JSON: an error says to give the text.
pub fn import_value(format: Format, value: &Value) -> Result<Imported, Error> {
    match format {
        Format::ClaudeCode => claude::import_value(value, crate::claude_code::Scope::Project),
        Format::OpenCode => opencode_config::import_value(value),
        Format::Codex => Err(Error::shape(
            "",
            "a Codex .rules file is Starlark, not JSON: give its text as a string",
        )),
    }
}

/// Imports the file `name`, guessing the format from the name: `.rules` → Codex, `.md` →
/// OpenCode agent, `.json`/`.jsonc` → Claude Code when the object has `permissions`, OpenCode
/// otherwise. Errors carry `name`.
pub fn import_file(name: &str, text: &str) -> Result<Imported, Error> {
    let format = if name.ends_with(".rules") {
        Format::Codex
    } else if name.ends_with(".md") || name.ends_with(".jsonc") {
        Format::OpenCode
    } else if text.contains("\"permissions\"") {
        Format::ClaudeCode
    } else {
        Format::OpenCode
    };
    match format {
        Format::Codex => codex_rules::import_text(name, text),
        f => import(f, text),
    }
    .map_err(|e| e.in_source(name))
}

#[cfg(test)]
mod tests;
