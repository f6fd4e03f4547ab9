//! The built-in agents' rulesets and which tools each agent is shown (`agent.ts`,
//! `Permission.disabled`, v1.18.32).
//!
//! An agent's ruleset is one concatenation, and because the last match wins, each layer
//! overrides the ones before it:
//!
//! ```text
//! defaults ++ agent built-ins ++ user `permission` ++ `agent.<name>.permission`
//!          ++ {external_directory, <data>/tool-output/*, allow}
//! ```
//!
//! The defaults start with `* * allow`: with no config, `bash rm -rf /` is **allowed** in the
//! build agent. `.env` reads ask (`read *.env ask`), whatever the docs' "Defaults" say (deny).
//! The explore agent re-allows `read *` after its `* * deny`, so it reads `.env` without asking.
//!
//! ```
//! use permlab_core::Action;
//! use permlab_core::opencode::{agent_ruleset, evaluate, Agent, AgentEnv};
//! let env = AgentEnv::new("/home/tester", "/home/tester/.local/share", "/tmp", "/home/tester/project");
//! let build = agent_ruleset(Some(Agent::Build), &env, &[], &[]);
//! assert_eq!(build.len(), 15);
//! assert_eq!(evaluate("bash", "rm -rf /", &[&build]).action, Action::Allow);
//! assert_eq!(evaluate("read", "config/.env", &[&build]).action, Action::Ask);
//! let explore = agent_ruleset(Some(Agent::Explore), &env, &[], &[]);
//! assert_eq!(evaluate("read", ".env", &[&explore]).action, Action::Allow);
//! assert_eq!(evaluate("edit", "a.txt", &[&explore]).action, Action::Deny);
//! ```

use super::wildcard::matches;
use super::Rule;
use crate::table::Action::{self, Allow, Ask, Deny};

/// The built-in agents.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Agent {
    /// The default primary agent.
    Build,
    /// Read-only planning: edits denied except plan files.
    Plan,
    /// General-purpose subagent.
    General,
    /// Read-only exploration subagent (it may run bash).
    Explore,
    /// Context compaction (no tools).
    Compaction,
    /// Session titles (no tools).
    Title,
    /// Session summaries (no tools).
    Summary,
}

/// Whether an agent is offered to the user or only to other agents.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Selectable by the user.
    Primary,
    /// Called by other agents through `task`.
    Subagent,
}

impl Mode {
    /// `primary` or `subagent`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Primary => "primary",
            Mode::Subagent => "subagent",
        }
    }
}

impl Agent {
    /// Every built-in agent.
    pub const ALL: [Agent; 7] = [
        Agent::Build,
        Agent::Plan,
        Agent::General,
        Agent::Explore,
        Agent::Compaction,
        Agent::Title,
        Agent::Summary,
    ];

    /// The agent's name in configs (`agent.<name>`).
    pub fn name(self) -> &'static str {
        match self {
            Agent::Build => "build",
            Agent::Plan => "plan",
            Agent::General => "general",
            Agent::Explore => "explore",
            Agent::Compaction => "compaction",
            Agent::Title => "title",
            Agent::Summary => "summary",
        }
    }

    /// The built-in agent called `name`; `None` for agents defined in config.
    pub fn from_name(name: &str) -> Option<Agent> {
        Agent::ALL.into_iter().find(|a| a.name() == name)
    }

    /// Primary or subagent.
    pub fn mode(self) -> Mode {
        match self {
            Agent::General | Agent::Explore => Mode::Subagent,
            _ => Mode::Primary,
        }
    }
}

/// Where OpenCode's directories are: they appear inside the default rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentEnv {
    /// The home directory (for `~`/`$HOME` expansion in config patterns).
    pub home: String,
    /// `$XDG_DATA_HOME/opencode`.
    pub data_dir: String,
    /// The OS temp dir.
    pub tmp_dir: String,
    /// The project's worktree (the plan agent's plan-file rule is relative to it).
    pub worktree: String,
    /// Skill directories (each allowed as `<dir>/*` for `external_directory`).
    pub skill_dirs: Vec<String>,
    /// Reference directories (likewise).
    pub reference_dirs: Vec<String>,
    /// The text of the plan agent's worktree-relative edit rule, when it must be taken as
    /// recorded rather than computed from `worktree` (the conformance data does this).
    pub plan_edit_pattern: Option<String>,
}

impl AgentEnv {
    /// An environment from the home directory, `$XDG_DATA_HOME`, the temp dir and the worktree;
    /// no skill or reference directories.
    pub fn new(home: &str, xdg_data_home: &str, tmp_dir: &str, worktree: &str) -> Self {
        AgentEnv {
            home: home.to_string(),
            data_dir: join(xdg_data_home, "opencode"),
            tmp_dir: tmp_dir.to_string(),
            worktree: worktree.to_string(),
            skill_dirs: Vec::new(),
            reference_dirs: Vec::new(),
            plan_edit_pattern: None,
        }
    }

    /// `W`: the directories `external_directory` allows by default, each as `<dir>/*`.
    pub fn allowed_dirs(&self) -> Vec<String> {
        let mut w = vec![
            join(&join(&self.data_dir, "tool-output"), "*"),
            join(&join(&self.tmp_dir, "opencode"), "*"),
        ];
        w.extend(self.skill_dirs.iter().map(|d| join(d, "*")));
        w.extend(self.reference_dirs.iter().map(|d| join(d, "*")));
        w
    }

    fn tool_output(&self) -> String {
        join(&join(&self.data_dir, "tool-output"), "*")
    }
}

fn join(dir: &str, name: &str) -> String {
    format!("{}/{name}", dir.trim_end_matches('/'))
}

/// `path.posix.relative(from, to)` for absolute paths: the plan agent writes its data-dir plan
/// rule relative to the worktree, so its text depends on where the project lives.
///
/// ```
/// use permlab_core::opencode::agents::relative;
/// assert_eq!(relative("/home/u/proj", "/home/u/.local/share/opencode/plans/*.md"),
///            "../.local/share/opencode/plans/*.md");
/// assert_eq!(relative("/a/b", "/a/b"), "");
/// ```
pub fn relative(from: &str, to: &str) -> String {
    fn parts(p: &str) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for c in p.split('/') {
            match c {
                "" | "." => {}
                ".." => {
                    out.pop();
                }
                c => out.push(c),
            }
        }
        out
    }
    let (f, t) = (parts(from), parts(to));
    let common = f.iter().zip(&t).take_while(|(a, b)| a == b).count();
    let mut out: Vec<&str> = vec![".."; f.len() - common];
    out.extend(&t[common..]);
    out.join("/")
}

fn r(permission: &str, pattern: &str, action: Action) -> Rule {
    Rule::new(permission, pattern, action)
}

/// The rules every agent starts with (12 when there are no skill or reference directories).
pub fn defaults(env: &AgentEnv) -> Vec<Rule> {
    let mut rules = vec![
        r("*", "*", Allow),
        r("doom_loop", "*", Ask),
        r("external_directory", "*", Ask),
    ];
    rules.extend(
        env.allowed_dirs()
            .iter()
            .map(|w| r("external_directory", w, Allow)),
    );
    rules.extend([
        r("question", "*", Deny),
        r("plan_enter", "*", Deny),
        r("plan_exit", "*", Deny),
        r("read", "*", Allow),
        r("read", "*.env", Ask),
        r("read", "*.env.*", Ask),
        r("read", "*.env.example", Allow),
    ]);
    rules
}

/// What a built-in agent appends after [`defaults`].
pub fn builtins(agent: Agent, env: &AgentEnv) -> Vec<Rule> {
    match agent {
        Agent::Build => vec![r("question", "*", Allow), r("plan_enter", "*", Allow)],
        Agent::Plan => {
            let plans = join(&env.data_dir, "plans");
            let relative_plans = env
                .plan_edit_pattern
                .clone()
                .unwrap_or_else(|| relative(&env.worktree, &join(&plans, "*.md")));
            vec![
                r("question", "*", Allow),
                r("plan_exit", "*", Allow),
                r("task", "general", Deny),
                r("external_directory", &join(&plans, "*"), Allow),
                r("edit", "*", Deny),
                r("edit", ".opencode/plans/*.md", Allow),
                r("edit", &relative_plans, Allow),
            ]
        }
        Agent::General => vec![r("todowrite", "*", Deny)],
        Agent::Explore => {
            let mut rules = vec![r("*", "*", Deny)];
            rules.extend(
                [
                    "grep",
                    "glob",
                    "list",
                    "bash",
                    "webfetch",
                    "websearch",
                    "read",
                ]
                .iter()
                .map(|t| r(t, "*", Allow)),
            );
            rules.push(r("external_directory", "*", Ask));
            rules.extend(
                env.allowed_dirs()
                    .iter()
                    .map(|w| r("external_directory", w, Allow)),
            );
            rules
        }
        Agent::Compaction | Agent::Title | Agent::Summary => vec![r("*", "*", Deny)],
    }
}

/// An agent's complete ruleset: `defaults ++ built-ins ++ user ++ agent_block`, then the
/// tool-output allow unless that exact rule is already there as a deny. `agent` is `None` for
/// agents defined in config (they get no built-ins).
pub fn agent_ruleset(
    agent: Option<Agent>,
    env: &AgentEnv,
    user: &[Rule],
    agent_block: &[Rule],
) -> Vec<Rule> {
    let mut rules = defaults(env);
    if let Some(agent) = agent {
        rules.extend(builtins(agent, env));
    }
    rules.extend_from_slice(user);
    rules.extend_from_slice(agent_block);
    let tool_output = env.tool_output();
    let denied = rules.iter().any(|x| {
        x.permission == "external_directory" && x.pattern == tool_output && x.action == Deny
    });
    if !denied {
        rules.push(r("external_directory", &tool_output, Allow));
    }
    rules
}

/// The permission a tool is checked under for visibility: `edit`, `write` and `apply_patch` all
/// count as `edit`; the MCP resource tools as `read`; any other tool as itself.
///
/// The docs say `edit` also covers `multiedit`; this mapping does not.
pub fn tool_permission(tool: &str) -> &str {
    match tool {
        "edit" | "write" | "apply_patch" => "edit",
        "list_mcp_resources" | "list_mcp_resource_templates" | "read_mcp_resource" => "read",
        other => other,
    }
}

/// `disabled`: a tool is hidden from the model when the **last** rule whose permission matches
/// the tool's permission is `pattern === "*"` (compared as text, not matched) with `deny`.
///
/// ```
/// use permlab_core::Action;
/// use permlab_core::opencode::{disabled, Rule};
/// let rules = [Rule::new("edit", "*", Action::Deny), Rule::new("edit", "docs/*", Action::Allow)];
/// assert!(!disabled("write", &rules)); // the last edit rule is not `* deny`
/// assert!(disabled("write", &rules[..1]));
/// ```
pub fn disabled(tool: &str, ruleset: &[Rule]) -> bool {
    let permission = tool_permission(tool);
    ruleset
        .iter()
        .rev()
        .find(|x| matches(permission, &x.permission))
        .is_some_and(|x| x.pattern == "*" && x.action == Deny)
}

/// The tools of `tools` that the agent with `ruleset` is shown (`visibleTools`).
pub fn visible_tools<'a>(tools: &[&'a str], ruleset: &[Rule]) -> Vec<&'a str> {
    tools
        .iter()
        .copied()
        .filter(|t| !disabled(t, ruleset))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::opencode::evaluate;

    fn env() -> AgentEnv {
        AgentEnv::new(
            "/home/tester",
            "/home/tester/.local/share",
            "/tmp",
            "/home/tester/project",
        )
    }

    fn decide(agent: Agent, permission: &str, pattern: &str) -> Action {
        evaluate(
            permission,
            pattern,
            &[&agent_ruleset(Some(agent), &env(), &[], &[])],
        )
        .action
    }

    #[test]
    fn env_reads() {
        for agent in [Agent::Build, Agent::General, Agent::Plan] {
            for p in [
                ".env",
                "foo.env",
                "config/.env",
                ".env.local",
                ".env.example.bak",
                "/home/tester/.env",
                "C:\\proj\\.env",
            ] {
                assert_eq!(decide(agent, "read", p), Ask, "{agent:?} {p}");
            }
            for p in [".env.example", "a.env.example", ".envrc", "env", "FOO.ENV"] {
                assert_eq!(decide(agent, "read", p), Allow, "{agent:?} {p}");
            }
        }
    }

    #[test]
    fn build_and_plan() {
        assert_eq!(decide(Agent::Build, "bash", "rm -rf /"), Allow);
        assert_eq!(decide(Agent::Build, "doom_loop", "x"), Ask);
        assert_eq!(decide(Agent::Build, "external_directory", "/etc/*"), Ask);
        assert_eq!(
            decide(Agent::Build, "external_directory", "/tmp/opencode/x/*"),
            Allow
        );
        assert_eq!(decide(Agent::Plan, "edit", "src/a.rs"), Deny);
        assert_eq!(
            decide(Agent::Plan, "edit", ".opencode/plans/sub/p.md"),
            Allow
        );
        assert_eq!(
            decide(Agent::Plan, "edit", "../.local/share/opencode/plans/p.md"),
            Allow
        );
        assert_eq!(decide(Agent::Plan, "task", "general"), Deny);
        assert_eq!(decide(Agent::Plan, "task", "explore"), Allow);
    }

    #[test]
    fn explore() {
        for t in [
            "bash",
            "read",
            "grep",
            "glob",
            "list",
            "webfetch",
            "websearch",
        ] {
            assert_eq!(decide(Agent::Explore, t, "x"), Allow, "{t}");
        }
        for t in [
            "edit",
            "task",
            "todowrite",
            "doom_loop",
            "lsp",
            "skill",
            "plan_enter",
            "mcp_x",
        ] {
            assert_eq!(decide(Agent::Explore, t, "x"), Deny, "{t}");
        }
    }

    #[test]
    fn a_tool_output_deny_suppresses_the_final_allow() {
        let user = [Rule::new(
            "external_directory",
            "/home/tester/.local/share/opencode/tool-output/*",
            Deny,
        )];
        let rules = agent_ruleset(Some(Agent::Build), &env(), &user, &[]);
        assert_eq!(rules.last(), user.last());
    }

    #[test]
    fn tool_visibility() {
        let tools = [
            "invalid",
            "question",
            "bash",
            "read",
            "edit",
            "write",
            "apply_patch",
            "multiedit",
            "task",
            "todowrite",
            "skill",
            "read_mcp_resource",
        ];
        let visible = |agent| visible_tools(&tools, &agent_ruleset(Some(agent), &env(), &[], &[]));
        assert_eq!(visible(Agent::Build), tools);
        assert_eq!(visible(Agent::Plan), tools);
        assert_eq!(
            visible(Agent::General),
            [
                "invalid",
                "bash",
                "read",
                "edit",
                "write",
                "apply_patch",
                "multiedit",
                "task",
                "skill",
                "read_mcp_resource"
            ]
        );
        // `multiedit` is checked as itself, not as `edit`: explore's `* * deny` hides it anyway.
        assert_eq!(
            visible(Agent::Explore),
            ["bash", "read", "read_mcp_resource"]
        );
        assert!(visible(Agent::Title).is_empty());
        // Only a `*` pattern written as text hides a tool; `**` or `*` via matching does not.
        let rules = [Rule::new("bash", "**", Deny)];
        assert!(!disabled("bash", &rules));
        assert!(disabled("write", &[Rule::new("ed*", "*", Deny)]));
        assert!(!disabled("multiedit", &[Rule::new("edit", "*", Deny)]));
    }

    #[test]
    fn custom_agents_get_defaults_only() {
        assert_eq!(agent_ruleset(None, &env(), &[], &[]).len(), 13);
    }
}
