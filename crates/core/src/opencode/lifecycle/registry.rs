//! Tool lookup: which definition answers a call of `bash` (`opencode-lifecycle.md` §1, §9).
//!
//! **Classic runtime** (every normal prompt): the registry lists built-ins, then custom tool
//! files, then plugin tools; each LLM step builds a plain object keyed by tool id from that
//! list and then the MCP tools (`<server>_<tool>`). A later definition of the same name
//! **silently replaces** the earlier one and nothing is kept underneath: precedence MCP >
//! plugin > custom file > built-in, and nothing is ever restored.
//!
//! **Next runtime** (the v2 core, `POST /api/session/:id/prompt`, which the seed describes):
//! a list of registrations per name; the newest (`.at(-1)`) is active; when the scope that
//! registered one closes, its entry is removed **by token** and the previous one is active
//! again. Removal by token is not strict LIFO: closing an older scope removes its entry from
//! the middle of the stack.
//!
//! ```
//! use permlab_core::opencode::lifecycle::registry::{classic_resolve, NextRegistry, Source, ToolDef};
//! let defs = [ToolDef::new("bash", Source::BuiltIn, "built-in"),
//!             ToolDef::new("bash", Source::CustomFile, ".opencode/tool/bash.js")];
//! let r = classic_resolve(&defs, "bash");
//! assert_eq!(r.active.unwrap().source, Source::CustomFile);
//! assert_eq!(r.replaced.len(), 1);
//!
//! let mut next = NextRegistry::new();
//! next.register(ToolDef::new("bash", Source::BuiltIn, "built-in"));
//! let inner = next.register(ToolDef::new("bash", Source::Plugin, "plugin"));
//! assert_eq!(next.active("bash").unwrap().source, Source::Plugin);
//! next.close(inner);
//! assert_eq!(next.active("bash").unwrap().source, Source::BuiltIn);
//! ```

use crate::opencode::agents::disabled;
use crate::opencode::Rule;

/// The built-in tools, in registry order (flag-gated `execute`, `lsp`, `plan` left out).
/// `apply_patch` is offered to GPT models only, `edit`/`write` to the others, `websearch` to
/// the opencode provider or with Exa/Parallel.
pub const BUILT_INS: [&str; 14] = [
    "invalid",
    "question",
    "bash",
    "read",
    "glob",
    "grep",
    "edit",
    "write",
    "task",
    "webfetch",
    "todowrite",
    "websearch",
    "skill",
    "apply_patch",
];

/// The built-ins a non-GPT model sees from a provider other than opencode (no `apply_patch`,
/// no `websearch`).
pub fn default_tools() -> Vec<ToolDef> {
    BUILT_INS
        .iter()
        .filter(|t| !matches!(**t, "apply_patch" | "websearch"))
        .map(|t| ToolDef::new(t, Source::BuiltIn, "built-in"))
        .collect()
}

/// Where a tool definition comes from, in the classic runtime's precedence order (later
/// overrides earlier).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Source {
    /// Shipped with OpenCode.
    BuiltIn,
    /// `{tool,tools}/*.{js,ts}` in a config directory.
    CustomFile,
    /// A plugin's `tool` map.
    Plugin,
    /// An MCP server's tool, keyed `<server>_<tool>`.
    Mcp,
}

impl Source {
    /// `built-in`, `custom-file`, `plugin`, `mcp`.
    pub fn slug(self) -> &'static str {
        match self {
            Source::BuiltIn => "built-in",
            Source::CustomFile => "custom-file",
            Source::Plugin => "plugin",
            Source::Mcp => "mcp",
        }
    }
}

/// One tool definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolDef {
    /// The tool id the model calls.
    pub name: String,
    /// Its source.
    pub source: Source,
    /// Where exactly (file, plugin or server name), for display.
    pub origin: String,
}

impl ToolDef {
    /// A definition.
    pub fn new(name: &str, source: Source, origin: &str) -> ToolDef {
        ToolDef {
            name: name.to_string(),
            source,
            origin: origin.to_string(),
        }
    }
}

/// The key of an MCP tool: `<server>_<tool>`, characters outside `[A-Za-z0-9_-]` → `_`
/// (so `github` + `pr` is `github_pr`, never `mcp_github_pr`).
///
/// ```
/// use permlab_core::opencode::lifecycle::registry::mcp_key;
/// assert_eq!(mcp_key("github", "pr"), "github_pr");
/// assert_eq!(mcp_key("my.server", "get item"), "my_server_get_item");
/// ```
pub fn mcp_key(server: &str, tool: &str) -> String {
    format!("{server}_{tool}")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Which definition answers a name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolution {
    /// The active definition (`None`: no tool of that name).
    pub active: Option<ToolDef>,
    /// Classic: the definitions it replaced, gone for good.
    pub replaced: Vec<ToolDef>,
}

/// Classic runtime: the last definition in precedence order (built-in, custom file, plugin,
/// MCP; registration order within a source) wins; the others are replaced.
pub fn classic_resolve(defs: &[ToolDef], name: &str) -> Resolution {
    let mut same: Vec<&ToolDef> = defs.iter().filter(|d| d.name == name).collect();
    crate::sort::by_rank(&mut same, |d| d.source as u64);
    let active = same.pop().cloned();
    Resolution {
        active,
        replaced: same.into_iter().cloned().collect(),
    }
}

/// Classic runtime: a tool the model may call is offered unless the last rule matching its
/// permission is `* deny` ([`disabled`]); a call of an unoffered tool goes to `invalid`.
/// Returns the name the call resolves to (a wrong-case name is repaired), or the text the
/// model receives from `invalid`.
pub fn classic_lookup(defs: &[ToolDef], rules: &[Rule], requested: &str) -> Result<String, String> {
    let offered: Vec<&str> = {
        let mut names: Vec<&str> = defs.iter().map(|d| d.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        names.retain(|n| !disabled(n, rules));
        names
    };
    let name = if offered.contains(&requested) {
        Some(requested.to_string())
    } else {
        let lower = requested.to_lowercase();
        offered.contains(&lower.as_str()).then_some(lower)
    };
    name.ok_or_else(|| unavailable_message(requested, &offered))
}

/// What the hidden `invalid` tool returns for a call of an unavailable tool. The list is the
/// offered tools sorted by name, `invalid` included (inferred from the reference's example,
/// `Available tools: edit, glob, …`).
pub fn unavailable_message(requested: &str, offered: &[&str]) -> String {
    format!(
        "The arguments provided to the tool are invalid: Model tried to call unavailable tool '{requested}'. Available tools: {}.",
        offered.join(", ")
    )
}

/// Next runtime: registrations per name, the newest active; closing a scope removes its
/// registration by token.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NextRegistry {
    entries: Vec<(usize, ToolDef)>,
    next_token: usize,
}

/// Identifies one registration (its scope closes it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RegToken(usize);

impl NextRegistry {
    /// Empty.
    pub fn new() -> Self {
        Self::default()
    }

    /// Pushes `def` on its name's stack.
    pub fn register(&mut self, def: ToolDef) -> RegToken {
        let t = self.next_token;
        self.next_token += 1;
        self.entries.push((t, def));
        RegToken(t)
    }

    /// The registering scope closed: its entry goes, wherever it is in the stack. `false`
    /// when it was already gone.
    pub fn close(&mut self, token: RegToken) -> bool {
        let before = self.entries.len();
        self.entries.retain(|(t, _)| *t != token.0);
        self.entries.len() != before
    }

    /// `.at(-1)` of `name`'s stack.
    pub fn active(&self, name: &str) -> Option<&ToolDef> {
        self.stack(name).pop()
    }

    /// `name`'s stack, oldest first.
    pub fn stack(&self, name: &str) -> Vec<&ToolDef> {
        self.entries
            .iter()
            .filter(|(_, d)| d.name == name)
            .map(|(_, d)| d)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Action;

    #[test]
    fn classic_precedence_whatever_the_order_of_registration() {
        let defs = [
            ToolDef::new("bash", Source::Plugin, "p"),
            ToolDef::new("bash", Source::BuiltIn, "b"),
            ToolDef::new("bash", Source::CustomFile, "c"),
        ];
        let r = classic_resolve(&defs, "bash");
        assert_eq!(r.active.unwrap().source, Source::Plugin);
        let lost: Vec<Source> = r.replaced.iter().map(|d| d.source).collect();
        assert_eq!(lost, [Source::BuiltIn, Source::CustomFile]);
        assert_eq!(classic_resolve(&defs, "nope").active, None);
    }

    #[test]
    fn next_removal_by_token_is_not_lifo() {
        let mut r = NextRegistry::new();
        let a = r.register(ToolDef::new("bash", Source::BuiltIn, "A"));
        let b = r.register(ToolDef::new("bash", Source::Plugin, "B"));
        let c = r.register(ToolDef::new("bash", Source::CustomFile, "C"));
        assert_eq!(r.active("bash").unwrap().origin, "C");
        assert!(r.close(b));
        assert_eq!(r.active("bash").unwrap().origin, "C");
        assert!(r.close(c));
        assert_eq!(r.active("bash").unwrap().origin, "A");
        assert!(!r.close(b));
        assert!(r.close(a));
        assert_eq!(r.active("bash"), None);
    }

    #[test]
    fn a_bash_deny_hides_the_tool() {
        let defs = default_tools();
        let rules = [
            Rule::new("*", "*", Action::Allow),
            Rule::new("bash", "*", Action::Deny),
        ];
        let err = classic_lookup(&defs, &rules, "bash").unwrap_err();
        assert_eq!(
            err,
            "The arguments provided to the tool are invalid: Model tried to call unavailable tool 'bash'. \
             Available tools: edit, glob, grep, invalid, question, read, skill, task, todowrite, webfetch, write."
        );
        assert_eq!(
            classic_lookup(&defs, &rules[..1], "Bash"),
            Ok("bash".to_string())
        );
        // A pattern other than `*` does not hide the tool.
        let rules = [Rule::new("bash", "rm *", Action::Deny)];
        assert_eq!(
            classic_lookup(&defs, &rules, "bash"),
            Ok("bash".to_string())
        );
    }
}
