//! Permission rule strings: `Tool`, `Tool(specifier)` and their many shapes (`claude-code.md`
//! §1, §4).
//!
//! A rule that Claude Code would skip at start-up is not an error here either: [`parse_rule`]
//! returns the reason as a warning (`Err(RuleWarning)`), the rest of the settings still apply.
//! Some rules warn and still take effect (an allow rule with a `*` before the subcommand);
//! those come back as `Ok` with [`ParsedRule::warning`] set.
//!
//! ```
//! use permlab_core::Action;
//! use permlab_core::claude_code::rule::{parse_rule, Specifier, ToolSelector};
//! let r = parse_rule("Bash(git push *)", Action::Deny).unwrap();
//! assert_eq!(r.tool, ToolSelector::Exact("Bash".into()));
//! assert!(matches!(r.spec, Specifier::Command(_)));
//! assert!(parse_rule("mcp__*", Action::Allow).is_err()); // unanchored allow glob: skipped
//! assert!(parse_rule("Bash(command:rm *)", Action::Deny).is_err()); // primary field: ignored
//! ```

use super::bash::CommandPattern;
use super::path::PathPattern;
use crate::table::Action;

/// Which tools a rule names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToolSelector {
    /// One tool by name (`Task` already rewritten to `Agent`).
    Exact(String),
    /// `mcp__server` or `mcp__server__*`: every tool of that MCP server.
    McpServer(String),
    /// A tool-name glob (`*`, `mcp__*`, `mcp__github__get_*`).
    Glob(String),
}

impl ToolSelector {
    /// Whether this selector names `tool` (a canonical tool name).
    pub fn names(&self, tool: &str) -> bool {
        match self {
            ToolSelector::Exact(name) => name == tool,
            ToolSelector::McpServer(server) => tool
                .strip_prefix("mcp__")
                .and_then(|r| r.strip_prefix(server.as_str()))
                .is_some_and(|r| r.is_empty() || r.starts_with("__")),
            ToolSelector::Glob(g) => super::bash::wildcard(g, tool),
        }
    }
}

/// What a rule's parentheses say, interpreted for its tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Specifier {
    /// No specifier (or `(*)`): every use of the tool.
    Bare,
    /// A command pattern (Bash, PowerShell, Monitor).
    Command(CommandPattern),
    /// A gitignore path (Read rules for reading tools, Edit rules for editing tools).
    Path(PathPattern),
    /// `WebFetch(domain:host)`.
    Domain(String),
    /// `Agent(type)`: the subagent type, `*` as wildcard.
    AgentType(String),
    /// `Skill(name)` / `Skill(name *)`.
    Skill(CommandPattern),
    /// `Tool(param:value)`: a top-level scalar input field, `*` as wildcard (deny/ask only).
    Param {
        /// Input field name.
        name: String,
        /// Literal value, `*` wildcard.
        value: String,
    },
}

/// A rule that took effect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedRule {
    /// The tools it names.
    pub tool: ToolSelector,
    /// What it says about their input.
    pub spec: Specifier,
    /// A start-up warning for a rule that still takes effect.
    pub warning: Option<RuleWarning>,
}

impl ParsedRule {
    /// A bare rule (or one that names tools by a glob): it covers every use of the tools it
    /// names. As a deny, it removes them from the model's context.
    pub fn is_bare(&self) -> bool {
        self.spec == Specifier::Bare
    }
}

/// Why a rule was skipped, or what Claude Code warns about a rule it keeps (its start-up
/// warning), as data: `Display` says it in English, a page words it in its own language.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RuleWarning {
    /// An empty string.
    Empty,
    /// `Tool(…` without the closing `)`.
    NoCloseParen,
    /// A `)` without `(`.
    CloseWithoutOpen,
    /// `(…)` with no tool name before it.
    NoToolName,
    /// A name with spaces (`Web Search`): a display label.
    DisplayLabel(String),
    /// A character that cannot be in a tool name.
    BadChar(char),
    /// `mcp__…(…)`.
    McpWithParens,
    /// A tool-name glob with `(…)`.
    GlobWithSpecifier,
    /// An allow glob not anchored at `mcp__<server>__`.
    UnanchoredAllowGlob(String),
    /// A tool Claude Code does not know.
    UnknownTool(String),
    /// `Tool()`.
    EmptyParens,
    /// `Tool(field:…)` on the tool's primary field.
    PrimaryParam {
        /// The field.
        param: String,
        /// The tool.
        tool: String,
        /// The value written.
        value: String,
    },
    /// A parameter rule in the allow list.
    ParamInAllow(String),
    /// `Bash(git * push)`-style allow: `*` before the subcommand.
    StarBeforeSubcommand,
    /// A path pattern that does not parse (the parser's English reason).
    BadPath(String),
    /// `!` in an allow rule.
    NegationInAllow,
    /// `WebFetch(…)` without `domain:host`.
    WebFetchDomain,
    /// `Glob(…)`, `Write(…)` and the like: accepted, never consulted.
    NeverConsulted {
        /// The tool written.
        tool: String,
        /// The tool whose rules are consulted instead.
        instead: &'static str,
    },
    /// A specifier on a tool that takes none.
    NoSpecifier(String),
}

impl std::fmt::Display for RuleWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use RuleWarning::*;
        match self {
            Empty => write!(f, "empty rule"),
            NoCloseParen => write!(f, "missing `)` at the end: write `Tool(specifier)`"),
            CloseWithoutOpen => write!(f, "`)` without `(`: write `Tool(specifier)`"),
            NoToolName => write!(f, "no tool name before `(`"),
            DisplayLabel(n) => write!(f, "`{n}` is a display label, not a tool name: this rule never matches"),
            BadChar(c) => write!(f, "`{c}` cannot appear in a tool name"),
            McpWithParens => write!(f, "MCP rules with parentheses are skipped in settings files"),
            GlobWithSpecifier => write!(f, "a tool-name glob takes no specifier"),
            UnanchoredAllowGlob(g) => write!(f, "allow glob `{g}` is not anchored at a literal `mcp__<server>__` prefix: skipped, it approves nothing"),
            UnknownTool(n) => write!(f, "unknown tool `{n}`"),
            EmptyParens => write!(f, "empty `()` reads as the bare tool"),
            PrimaryParam { param, tool, value } => write!(f, "a parameter rule on `{param}`, the tool's primary field, is ignored: write `{tool}({value})`"),
            ParamInAllow(p) => write!(f, "parameter rules (`{p}:…`) work only in deny and ask lists"),
            StarBeforeSubcommand => write!(f, "a `*` before the subcommand also matches options such as `git -c …`; the rule still matches"),
            BadPath(e) => write!(f, "bad path pattern: {e}"),
            NegationInAllow => write!(f, "`!` negation only carves out of deny and ask rules"),
            WebFetchDomain => write!(f, "WebFetch rules take `domain:host`"),
            NeverConsulted { tool, instead } => write!(f, "`{tool}(…)` rules are accepted but never consulted: use `{instead}(…)`"),
            NoSpecifier(n) => write!(f, "`{n}` takes no specifier: write the bare `{n}`"),
        }
    }
}

/// Tools Claude Code knows; deny/ask rules naming anything else draw a start-up warning.
pub const KNOWN_TOOLS: [&str; 36] = [
    "Agent",
    "AskUserQuestion",
    "Bash",
    "BashOutput",
    "Cd",
    "CronCreate",
    "CronDelete",
    "Edit",
    "EndConversation",
    "EnterPlanMode",
    "EnterWorktree",
    "ExitPlanMode",
    "ExitWorktree",
    "Glob",
    "Grep",
    "KillShell",
    "LS",
    "LSP",
    "Monitor",
    "MultiEdit",
    "NotebookEdit",
    "NotebookRead",
    "PowerShell",
    "Read",
    "Skill",
    "SlashCommand",
    "TaskCreate",
    "TaskGet",
    "TaskList",
    "TaskOutput",
    "TaskStop",
    "TaskUpdate",
    "TodoRead",
    "TodoWrite",
    "WebFetch",
    "WebSearch",
];

/// Tools whose specifier is accepted but never consulted (§3): use `Edit(…)`/`Read(…)`.
const NEVER_CONSULTED: [&str; 6] = ["Write", "NotebookEdit", "Glob", "MultiEdit", "Grep", "LS"];

/// Input fields each tool takes; a `name:value` specifier is a parameter rule only when
/// `name` is one of them (so `Bash(git:* push)` stays a command pattern).
fn params(tool: &str) -> &'static [&'static str] {
    match tool {
        "Bash" => &[
            "command",
            "timeout",
            "description",
            "run_in_background",
            "dangerouslyDisableSandbox",
        ],
        "PowerShell" => &[
            "command",
            "timeout",
            "description",
            "run_in_background",
            "dangerouslyDisableSandbox",
        ],
        "Monitor" => &["command", "description", "timeout"],
        "Agent" => &[
            "subagent_type",
            "description",
            "prompt",
            "model",
            "isolation",
            "run_in_background",
            "name",
            "team_name",
            "mode",
        ],
        "Read" => &["file_path", "offset", "limit", "pages"],
        "Edit" => &["file_path", "old_string", "new_string", "replace_all"],
        "Write" => &["file_path", "content"],
        "WebFetch" => &["url", "prompt"],
        "WebSearch" => &["query", "allowed_domains", "blocked_domains"],
        "Skill" => &["skill", "args"],
        "Grep" => &["pattern", "path", "glob", "type", "output_mode"],
        "Glob" => &["pattern", "path"],
        _ => &[],
    }
}

/// The field a tool's ordinary specifier already matches; a parameter rule on it is ignored.
fn primary_field(tool: &str) -> Option<&'static str> {
    match tool {
        "Bash" | "PowerShell" | "Monitor" => Some("command"),
        "Read" | "Edit" | "Write" => Some("file_path"),
        "WebFetch" => Some("url"),
        "Agent" => Some("subagent_type"),
        "Skill" => Some("skill"),
        _ => None,
    }
}

/// Whether `name` is a tool Claude Code knows (MCP tools are always accepted).
pub fn known_tool(name: &str) -> bool {
    name.starts_with("mcp__") || name == "Write" || name == "Task" || KNOWN_TOOLS.contains(&name)
}

/// Parses one rule string of list `group`.
pub fn parse_rule(text: &str, group: Action) -> Result<ParsedRule, RuleWarning> {
    let warn = |w: RuleWarning| Err(w);
    let text = text.trim();
    if text.is_empty() {
        return warn(RuleWarning::Empty);
    }
    let (name, spec) = match text.find('(') {
        Some(open) => {
            if !text.ends_with(')') {
                return warn(RuleWarning::NoCloseParen);
            }
            (&text[..open], Some(&text[open + 1..text.len() - 1]))
        }
        None => {
            if text.contains(')') {
                return warn(RuleWarning::CloseWithoutOpen);
            }
            (text, None)
        }
    };
    if name.is_empty() {
        return warn(RuleWarning::NoToolName);
    }
    if name.chars().any(char::is_whitespace) {
        return warn(RuleWarning::DisplayLabel(name.to_string()));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '*' | '.')))
    {
        return warn(RuleWarning::BadChar(bad));
    }
    let name = if name == "Task" { "Agent" } else { name };

    // MCP tools and tool-name globs.
    if name.starts_with("mcp__") || name.contains('*') {
        if spec.is_some() {
            return warn(if name.starts_with("mcp__") {
                RuleWarning::McpWithParens
            } else {
                RuleWarning::GlobWithSpecifier
            });
        }
        let tool = mcp_or_glob(name);
        if let ToolSelector::Glob(g) = &tool {
            if group == Action::Allow && !anchored_allow_glob(g) {
                return warn(RuleWarning::UnanchoredAllowGlob(g.clone()));
            }
        }
        return Ok(ParsedRule {
            tool,
            spec: Specifier::Bare,
            warning: None,
        });
    }

    let unknown = (!known_tool(name) && group != Action::Allow)
        .then(|| RuleWarning::UnknownTool(name.into()));
    let tool = ToolSelector::Exact(name.to_string());
    let Some(spec) = spec else {
        return Ok(ParsedRule {
            tool,
            spec: Specifier::Bare,
            warning: unknown,
        });
    };
    if spec.is_empty() || spec == "*" {
        let warning = spec.is_empty().then_some(RuleWarning::EmptyParens);
        return Ok(ParsedRule {
            tool,
            spec: Specifier::Bare,
            warning: warning.or(unknown),
        });
    }

    // Parameter rules: `Tool(param:value)` on a field the tool takes.
    if let Some((param, value)) = spec.split_once(':') {
        let param = param.trim();
        if params(name).contains(&param) && !(name == "WebFetch" && param == "domain") {
            if primary_field(name) == Some(param) {
                return warn(RuleWarning::PrimaryParam {
                    param: param.to_string(),
                    tool: name.to_string(),
                    value: value.trim().to_string(),
                });
            }
            if group == Action::Allow {
                return warn(RuleWarning::ParamInAllow(param.to_string()));
            }
            return Ok(ParsedRule {
                tool,
                spec: Specifier::Param {
                    name: param.to_string(),
                    value: value.trim().to_string(),
                },
                warning: None,
            });
        }
    }

    let spec = match name {
        "Bash" | "Monitor" => {
            let p = CommandPattern::new(spec, false);
            let warning = (group == Action::Allow && p.star_before_subcommand())
                .then_some(RuleWarning::StarBeforeSubcommand);
            return Ok(ParsedRule {
                tool,
                spec: Specifier::Command(p),
                warning,
            });
        }
        "PowerShell" => {
            let canonical = super::bash::powershell_parts(spec)
                .and_then(|p| p.into_iter().next())
                .unwrap_or_else(|| spec.to_string());
            // Keep a trailing ` *` / `:*` exactly as written.
            let canonical = if spec.ends_with(" *") && !canonical.ends_with(" *") {
                format!("{canonical} *")
            } else {
                canonical
            };
            Specifier::Command(CommandPattern::new(&canonical, true))
        }
        "Read" | "Edit" => {
            let p = PathPattern::parse(spec, group != Action::Allow)
                .map_err(|e| RuleWarning::BadPath(e.to_string()))?;
            if p.negated && group == Action::Allow {
                return warn(RuleWarning::NegationInAllow);
            }
            Specifier::Path(p)
        }
        "WebFetch" => match spec.strip_prefix("domain:") {
            Some(d) if !d.trim().is_empty() => Specifier::Domain(d.trim().to_lowercase()),
            _ => return warn(RuleWarning::WebFetchDomain),
        },
        "Agent" => Specifier::AgentType(spec.to_string()),
        "Skill" => Specifier::Skill(CommandPattern::new(spec, false)),
        n if NEVER_CONSULTED.contains(&n) => {
            return warn(RuleWarning::NeverConsulted {
                tool: n.to_string(),
                instead: if matches!(n, "Glob" | "Grep" | "LS") {
                    "Read"
                } else {
                    "Edit"
                },
            })
        }
        n if known_tool(n) => return warn(RuleWarning::NoSpecifier(n.to_string())),
        n => return warn(RuleWarning::UnknownTool(n.to_string())),
    };
    Ok(ParsedRule {
        tool,
        spec,
        warning: unknown,
    })
}

fn mcp_or_glob(name: &str) -> ToolSelector {
    if let Some(rest) = name.strip_prefix("mcp__") {
        if !rest.contains('*') {
            if !rest.contains("__") {
                return ToolSelector::McpServer(rest.to_string());
            }
            return ToolSelector::Exact(name.to_string());
        }
        if let Some(server) = rest.strip_suffix("__*") {
            if !server.is_empty() && !server.contains('*') && !server.contains("__") {
                return ToolSelector::McpServer(server.to_string());
            }
        }
    }
    ToolSelector::Glob(name.to_string())
}

/// An allow glob counts only after a literal `mcp__<server>__` prefix.
fn anchored_allow_glob(g: &str) -> bool {
    let Some(rest) = g.strip_prefix("mcp__") else {
        return false;
    };
    match (rest.find("__"), rest.find('*')) {
        (Some(sep), Some(star)) => sep > 0 && sep < star,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_shapes() {
        use Action::*;
        let ok: &[(&str, Action)] = &[
            ("Bash", Allow),
            ("Bash(*)", Deny),
            ("Bash(ls:*)", Allow),
            ("Bash(git:* push)", Allow),
            ("mcp__github", Allow),
            ("mcp__github__get_issue", Allow),
            ("mcp__github__*", Allow),
            ("mcp__github__get_*", Allow),
            ("mcp__*", Deny),
            ("*", Ask),
            ("WebFetch(domain:example.com)", Allow),
            ("Agent(Explore)", Deny),
            ("Task(Explore)", Deny),
            ("Skill(review-pr *)", Allow),
            ("Bash(run_in_background:true)", Deny),
            ("Agent(model : opus)", Ask),
            ("PowerShell(Get-ChildItem *)", Allow),
            ("Read(./.env)", Deny),
            ("Edit(//tmp/**)", Allow),
            ("Write", Deny),
            ("Bash(echo (a))", Allow),
        ];
        for (text, group) in ok {
            assert!(parse_rule(text, *group).is_ok(), "{text}");
        }
        let skipped: &[(&str, Action)] = &[
            ("", Allow),
            ("Bash(ls", Allow),
            ("mcp__*", Allow),
            ("*", Allow),
            ("B*", Allow),
            ("mcp__github(x)", Deny),
            ("Bash(command:rm *)", Deny),
            ("Bash(run_in_background:true)", Allow),
            ("Stop Task", Deny),
            ("Web Search(*)", Allow),
            ("Write(src/**)", Allow),
            ("WebFetch(example.com)", Allow),
            ("WebSearch(rust)", Allow),
            ("Read(!a.env)", Allow),
            ("Read([abc)", Deny),
        ];
        for (text, group) in skipped {
            assert!(parse_rule(text, *group).is_err(), "{text}");
        }
    }

    #[test]
    fn task_is_agent_and_mcp_selectors() {
        let r = parse_rule("Task(Explore)", Action::Deny).unwrap();
        assert_eq!(r.tool, ToolSelector::Exact("Agent".into()));
        let s = parse_rule("mcp__puppeteer", Action::Allow).unwrap().tool;
        assert!(s.names("mcp__puppeteer__navigate"));
        assert!(!s.names("mcp__puppeteerx__navigate"));
        let g = parse_rule("mcp__github__get_*", Action::Allow)
            .unwrap()
            .tool;
        assert!(g.names("mcp__github__get_issue"));
        assert!(!g.names("mcp__github__create_issue"));
    }

    #[test]
    fn warned_but_active() {
        let r = parse_rule("Bash(git * main)", Action::Allow).unwrap();
        assert!(r.warning.is_some());
        assert!(parse_rule("Foo", Action::Deny).unwrap().warning.is_some());
    }
}
