//! What an import gives: the format read, the rows, and what was skipped or changed. A leaf:
//! each importer builds these, and `import` only picks the importer.

use crate::table::RuleTable;

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
