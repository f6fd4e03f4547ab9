//! Seed 002's worked example: `rm -rf /tmp/cache` under the seed's rule list.
//!
//! The seed's "Last-Match-Wins" panel lists, from first to last: configured `* * ask`,
//! `read * allow`, `bash rm * deny`; saved `bash * allow`, `bash rm -rf *` allow. Its tool
//! panel registers native `bash read edit write glob grep` and two MCP tools (real keys:
//! `github_pr`, `jira_issue`). The agent calls
//! `{"name": "bash", "input": {"command": "rm -rf /tmp/cache", "timeout": 120000}}`.
//!
//! Classic: `/tmp/cache` is outside the project, so the directory prompt comes first
//! (`* * ask` is the last rule matching `external_directory`); after "once" the saved
//! `bash rm -rf *` is the last match for the command and it runs: the model sees
//! `(no output)`. Next: no directory prompt (no `workdir`), and the configured `bash rm *`
//! deny wins, whatever the saved rules say.

use super::exec::Run;
use super::registry::{self, mcp_key, Source, ToolDef};
use super::{BashCall, Setup};
use crate::opencode::Rule;
use crate::table::Action;

/// A setup, a call and what the command does when it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    /// The session.
    pub setup: Setup,
    /// The call.
    pub call: BashCall,
    /// The run.
    pub run: Run,
}

/// Seed 002's example (see the module docs).
pub fn seed_002() -> Scenario {
    let configured = vec![
        Rule::new("*", "*", Action::Ask),
        Rule::new("read", "*", Action::Allow),
        Rule::new("bash", "rm *", Action::Deny),
    ];
    let mut setup = Setup::new(configured);
    setup.approvals.always("bash", &["*", "rm -rf *"]);
    setup.place.existing_dirs.push("/tmp/cache".into());
    setup.tools = registry::default_tools();
    setup.tools.push(ToolDef::new(
        &mcp_key("github", "pr"),
        Source::Mcp,
        "github",
    ));
    setup
        .tools
        .push(ToolDef::new(&mcp_key("jira", "issue"), Source::Mcp, "jira"));
    Scenario {
        setup,
        call: BashCall {
            tool: "bash".into(),
            command: "rm -rf /tmp/cache".into(),
            timeout: Some(120_000),
            workdir: None,
        },
        run: Run::exited("", 0),
    }
}

/// A build log shaped like the seed's output panel: 5000 lines, the seed's first five and
/// last five lines verbatim, lines 6–4995 filled in (`Compiling src/gen/file<N>.ts`; the
/// seed shows none of them, so the size is about 140 KB, not the seed's 120 KB).
pub fn seed_build_log() -> String {
    let mut lines: Vec<String> = [
        "Starting compilation...",
        "Compiling src/main.ts",
        "Compiling src/utils.ts",
        "Compiling src/tool/bash.ts",
        "Compiling src/tool/edit.ts",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    lines.extend((6..=4995).map(|n| format!("Compiling src/gen/file{n}.ts")));
    lines.extend(
        [
            "Bundling complete",
            "Writing dist/index.js",
            "Writing dist/index.d.ts",
            "Build successful",
            "Done in 12.3s",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    lines.join("\n")
}
