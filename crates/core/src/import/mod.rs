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
mod opencode_config;
mod places;
pub mod yaml;

use crate::error::Error;
use crate::json::Value;
use crate::table::RuleTable;

pub use claude::claude_tool_row;
pub use places::{claude_rule_place, row_places};

/// Whether this build reads Codex `.rules` files (the `rules-files` feature: a Starlark
/// interpreter). Without it, [`import`] refuses them and says so.
pub const RULES_FILES: bool = cfg!(feature = "rules-files");

/// Which harness's file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// `.claude/settings.json` (strict JSON).
    ClaudeCode,
    /// `opencode.json` / `.jsonc`, or an agent markdown file with `permission:` front matter.
    OpenCode,
    /// A Codex execpolicy `.rules` file (Starlark).
    Codex,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 3] = [Format::ClaudeCode, Format::OpenCode, Format::Codex];

    /// `claude-code`, `opencode`, `codex` (the engine slugs).
    pub fn slug(self) -> &'static str {
        match self {
            Format::ClaudeCode => "claude-code",
            Format::OpenCode => "opencode",
            Format::Codex => "codex",
        }
    }

    /// The format with this slug.
    pub fn from_slug(s: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.slug() == s)
    }

    /// The engine that reads this format natively.
    pub fn engine(self) -> crate::EngineId {
        match self {
            Format::ClaudeCode => crate::EngineId::ClaudeCode,
            Format::OpenCode => crate::EngineId::OpenCode,
            Format::Codex => crate::EngineId::Codex,
        }
    }
}

/// A rule (or value) that was skipped or changed on import, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportWarning {
    /// Where in the file: a JSON path (`permissions.deny[2]`, `permission.bash`), or
    /// `file:line` for Codex.
    pub at: String,
    /// The rule as written, when the warning is about one rule.
    pub rule: Option<String>,
    /// Why, and what to write instead where there is something.
    pub message: String,
    /// The rule gave no row (it counts against [`Imported::rules_in`]).
    pub dropped: bool,
    /// What `message` says, as data (a page words it in its own language).
    pub note: ImportNote,
}

/// What an [`ImportWarning`] is about, as data.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ImportNote {
    /// Claude Code's settings reader warned about a value.
    Settings(crate::claude_code::Note),
    /// Claude Code skips this rule.
    ClaudeSkips(crate::claude_code::RuleWarning),
    /// Claude Code keeps the rule and warns about it at start-up.
    ClaudeWarns(crate::claude_code::RuleWarning),
    /// No row of the common table means the same to Claude Code; as a row the rule would
    /// read as `reads_as` (`None`: it has no row at all, `why` says why, in English).
    ClaudeNoSameRow {
        /// The rule a row would give back.
        reads_as: Option<String>,
        /// Why there is no row (English), when `reads_as` is `None`.
        why: String,
    },
    /// A settings file without `permissions`.
    ClaudeNoPermissions,
    /// An OpenCode agent's front matter without `permission:` (`other`: a key that looks
    /// like one, `permissions` or `tools`).
    OpencodeNoFrontMatterPermission {
        /// The look-alike key, if there is one.
        other: Option<String>,
    },
    /// An `opencode.json` without a top-level `permission`.
    OpencodeNoPermission,
    /// An agent's own rules (they apply to that agent only).
    OpencodeAgentRules(String),
    /// A repeated key: OpenCode keeps the last value at the first key's place.
    OpencodeDuplicateKey,
    /// A Codex rule with `canonical_matching=True`.
    CodexCanonical,
    /// A Codex rule whose alternatives expand to more than this many rows.
    CodexTooManyAlternatives(usize),
    /// A Codex token holding `*`, `?` or `[` (literal to execpolicy, a wildcard in a row).
    CodexLiteralWildcard,
    /// Only the English message says what.
    Other,
}

impl std::fmt::Display for ImportWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: ", self.at)?;
        if let Some(r) = &self.rule {
            write!(f, "`{r}`: ")?;
        }
        f.write_str(&self.message)?;
        if self.dropped {
            f.write_str(" (not imported)")?;
        }
        Ok(())
    }
}

/// A native config as the common table.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The format it was read as.
    pub format: Format,
    /// The rows.
    pub table: RuleTable,
    /// Per row: the native rule it came from (same path style as [`ImportWarning::at`]).
    pub origins: Vec<String>,
    /// Everything skipped or worth knowing.
    pub warnings: Vec<ImportWarning>,
    /// How many native rules the file holds (Claude Code rule strings, OpenCode
    /// permission/pattern entries, Codex stored prefix rules).
    pub rules_in: usize,
    /// For Claude Code: the settings file as Claude Code read it (mode, sandbox), so that the
    /// native engine can run with the options the table cannot carry.
    pub claude_settings: Option<crate::claude_code::SettingsFile>,
    /// For Codex: the origins (`prefix rule #N`) of the rules written with
    /// `canonical_matching=True`, so that the Codex engine over the table keeps their case
    /// folding (the table's patterns cannot say it). Empty for the other formats.
    pub canonical: Vec<String>,
}

impl Imported {
    /// Native rules that gave at least one row.
    pub fn rules_imported(&self) -> usize {
        let mut o: Vec<&str> = self.origins.iter().map(String::as_str).collect();
        o.sort_unstable();
        o.dedup();
        o.len()
    }

    /// Native rules that gave no row.
    pub fn rules_dropped(&self) -> usize {
        self.warnings.iter().filter(|w| w.dropped).count()
    }
}

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
