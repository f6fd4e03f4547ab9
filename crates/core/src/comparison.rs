//! # Seed 002's three-product table, checked
//!
//! Seed 002 ("一次 Bash 命令的完整生命周期") ends with a table comparing OpenCode ("规则式"),
//! Claude Code ("白名单式") and Codex ("沙箱式") on seven dimensions. Several cells contradict
//! the code permlab ports: Claude Code is not an `allowedTools` whitelist with a default deny
//! (unmatched calls ask in the default mode; there are deny and ask lists evaluated first), and
//! OpenCode's configured deny *can* be overridden (rules and approvals are one list read
//! bottom-up). This module holds the table as data: for every cell the seed's claim, what the
//! pinned code does, a [`Status`], and runnable [`Demo`]s — a rule table and a call through a
//! real engine, or a Codex approvals case — that [`Demo::run`] evaluates and a test checks.
//!
//! Prose is short English here (the "what the code does" column); the widget words it in zh/en
//! and shows the demos live.
//!
//! ```
//! use permlab_core::comparison::{cells, Dimension, Product, Status};
//! let cell = cells().into_iter()
//!     .find(|c| c.dimension == Dimension::DenyOverride && c.product == Product::ClaudeCode)
//!     .unwrap();
//! assert_eq!(cell.claim_zh, "不在白名单即 deny");
//! assert_eq!(cell.status, Status::Wrong);
//! assert!(cell.demos.iter().all(|d| d.run() == d.expect()));
//! ```

use crate::claude_code::{self, table::lesson_context, ClaudeCodeEngine};
use crate::codex::approval::{self, ApprovalPolicy, Command, Outcome, SandboxMode};
use crate::codex::Decision as ExecDecision;
use crate::engines;
use crate::evaluation::{Decision, Engine, EngineId};
use crate::table::{Action, Call, RuleTable};

/// A column of the seed's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Product {
    /// OpenCode (规则式).
    OpenCode,
    /// Claude Code (白名单式).
    ClaudeCode,
    /// Codex (沙箱式).
    Codex,
}

impl Product {
    /// The three columns, in the seed's order.
    pub const ALL: [Product; 3] = [Product::OpenCode, Product::ClaudeCode, Product::Codex];

    /// `opencode`, `claude-code`, `codex`.
    pub fn slug(self) -> &'static str {
        match self {
            Product::OpenCode => "opencode",
            Product::ClaudeCode => "claude-code",
            Product::Codex => "codex",
        }
    }
}

/// A row of the seed's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dimension {
    /// 核心思想.
    CoreIdea,
    /// 粒度.
    Granularity,
    /// Per-Agent 差异.
    PerAgent,
    /// DENY 不可覆盖.
    DenyOverride,
    /// 用户记忆.
    UserMemory,
    /// 安全边界.
    SafetyBoundary,
    /// 哲学.
    Philosophy,
}

impl Dimension {
    /// The seven rows, in the seed's order.
    pub const ALL: [Dimension; 7] = [
        Dimension::CoreIdea,
        Dimension::Granularity,
        Dimension::PerAgent,
        Dimension::DenyOverride,
        Dimension::UserMemory,
        Dimension::SafetyBoundary,
        Dimension::Philosophy,
    ];

    /// The seed's row heading.
    pub fn zh(self) -> &'static str {
        match self {
            Dimension::CoreIdea => "核心思想",
            Dimension::Granularity => "粒度",
            Dimension::PerAgent => "Per-Agent 差异",
            Dimension::DenyOverride => "DENY 不可覆盖",
            Dimension::UserMemory => "用户记忆",
            Dimension::SafetyBoundary => "安全边界",
            Dimension::Philosophy => "哲学",
        }
    }

    /// A stable slug.
    pub fn slug(self) -> &'static str {
        match self {
            Dimension::CoreIdea => "core-idea",
            Dimension::Granularity => "granularity",
            Dimension::PerAgent => "per-agent",
            Dimension::DenyOverride => "deny-override",
            Dimension::UserMemory => "user-memory",
            Dimension::SafetyBoundary => "safety-boundary",
            Dimension::Philosophy => "philosophy",
        }
    }
}

/// How the seed's claim fares against the pinned code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The code does what the cell says.
    Holds,
    /// Partly right: true in one configuration or for one part of the mechanism.
    Partly,
    /// The code contradicts it.
    Wrong,
    /// No ported code path can check it (the demos, if any, show the nearest checkable fact).
    NotChecked,
}

impl Status {
    /// `holds`, `partly`, `wrong`, `not-checked`.
    pub fn slug(self) -> &'static str {
        match self {
            Status::Holds => "holds",
            Status::Partly => "partly",
            Status::Wrong => "wrong",
            Status::NotChecked => "not-checked",
        }
    }
}

/// A runnable case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Demo {
    /// A rule table and a call through one of the table engines (the widget's own).
    Table {
        /// The engine.
        engine: EngineId,
        /// Claude Code's permission mode (`default` when `None`); other engines ignore it.
        mode: Option<claude_code::Mode>,
        /// The rows (tool, pattern, action), in order.
        rules: Vec<(&'static str, &'static str, Action)>,
        /// The call.
        call: (&'static str, &'static str),
        /// What the engine answers.
        expect: Decision,
    },
    /// One command through Codex's approvals ([`approval::decide`]).
    CodexApprovals {
        /// `sandbox_mode`.
        sandbox: SandboxMode,
        /// `approval_policy`.
        policy: ApprovalPolicy,
        /// The command's facts.
        command: Command,
        /// What Codex does.
        expect: Outcome,
    },
}

/// A demo's result, comparable with [`Demo::expect`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DemoResult {
    /// A table engine's verdict.
    Decision(Decision),
    /// Codex's outcome.
    Outcome(Outcome),
}

impl Demo {
    /// The table of a [`Demo::Table`].
    pub fn table(&self) -> Option<RuleTable> {
        match self {
            Demo::Table { rules, .. } => Some(RuleTable::new(rules.iter().copied())),
            Demo::CodexApprovals { .. } => None,
        }
    }

    /// Runs it through the ported code.
    pub fn run(&self) -> DemoResult {
        match self {
            Demo::Table {
                engine,
                mode,
                rules,
                call,
                ..
            } => {
                let table = RuleTable::new(rules.iter().copied());
                let e: Box<dyn Engine> = match (engine, mode) {
                    (EngineId::ClaudeCode, Some(m)) => {
                        Box::new(ClaudeCodeEngine::with(&table, *m, lesson_context()))
                    }
                    _ => engines::build(*engine, &table),
                };
                DemoResult::Decision(e.decide(&Call::new(call.0, call.1)).0)
            }
            Demo::CodexApprovals {
                sandbox,
                policy,
                command,
                ..
            } => DemoResult::Outcome(approval::decide(*sandbox, *policy, command).outcome),
        }
    }

    /// Where the docs and the recorded CLI disagree on this case (a Claude Code table case
    /// whose rules, mode and call are a recorded case's, no sandbox): the scene shows both
    /// answers next to the engine's.
    ///
    /// ```
    /// use permlab_core::comparison::{cells, Dimension, Product};
    /// let cell = cells().into_iter()
    ///     .find(|c| c.dimension == Dimension::SafetyBoundary && c.product == Product::ClaudeCode)
    ///     .unwrap();
    /// let d = cell.demos.iter().find_map(|d| d.drift()).unwrap();
    /// assert_eq!(d.label(), "docs: ask · CLI 2.1.332: deny");
    /// ```
    pub fn drift(&self) -> Option<&'static claude_code::drift::DocDrift> {
        let Demo::Table {
            engine: EngineId::ClaudeCode,
            mode,
            rules,
            call: ("bash", command),
            ..
        } = self
        else {
            return None;
        };
        let table = RuleTable::new(rules.iter().copied());
        let settings = claude_code::translate(&table);
        let mut text: [Vec<String>; 3] = Default::default();
        for (rule, (_, _, action)) in settings.rules.iter().zip(rules.iter()) {
            let k = match action {
                Deny => 0,
                Ask => 1,
                Allow => 2,
            };
            text[k].push(format!("{} {}", action.as_str(), rule.as_deref()?));
        }
        let text = text.concat().join("; ");
        let text = if text.is_empty() {
            "(no rules)".to_string()
        } else {
            text
        };
        let mode = mode.unwrap_or(claude_code::Mode::Default);
        claude_code::drift::all().iter().find(|d| {
            d.rules == text
                && d.mode == mode.as_str()
                && d.sandbox == "off"
                && d.call.strip_prefix("Bash: ") == Some(*command)
        })
    }

    /// What the cell says the code answers.
    pub fn expect(&self) -> DemoResult {
        match self {
            Demo::Table { expect, .. } => DemoResult::Decision(*expect),
            Demo::CodexApprovals { expect, .. } => DemoResult::Outcome(*expect),
        }
    }
}

/// One cell of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// Its row.
    pub dimension: Dimension,
    /// Its column.
    pub product: Product,
    /// The seed's text, verbatim.
    pub claim_zh: &'static str,
    /// What the pinned code does (English; the widget words it).
    pub code: &'static str,
    /// The verdict on the claim.
    pub status: Status,
    /// Where in the ported code (or reference) the behaviour lives.
    pub source: &'static str,
    /// Cases that show it.
    pub demos: Vec<Demo>,
}

use Action::{Allow, Ask, Deny};
use Dimension as D;
use Product as P;

fn table(
    engine: EngineId,
    rules: &[(&'static str, &'static str, Action)],
    call: (&'static str, &'static str),
    expect: Decision,
) -> Demo {
    Demo::Table {
        engine,
        mode: None,
        rules: rules.to_vec(),
        call,
        expect,
    }
}

fn codex(sandbox: SandboxMode, policy: ApprovalPolicy, command: Command, expect: Outcome) -> Demo {
    Demo::CodexApprovals {
        sandbox,
        policy,
        command,
        expect,
    }
}

/// The seed's own rule list of its "Last-Match-Wins" step: three configured rules, then two
/// saved ones (`[...configuredRules, ...savedRules]`).
pub const SEED_RULES: [(&str, &str, Action); 5] = [
    ("*", "*", Ask),
    ("read", "*", Allow),
    ("bash", "rm *", Deny),
    ("bash", "*", Allow),
    ("bash", "rm -rf *", Allow),
];

/// The seed's call: `bash: rm -rf /tmp/cache`.
pub const SEED_CALL: (&str, &str) = ("bash", "rm -rf /tmp/cache");

/// The 21 cells, row by row (the seed's order), OpenCode · Claude Code · Codex in each row.
pub fn cells() -> Vec<Cell> {
    use EngineId::{ClaudeCode as CC, Codex as CX, OpenCode as OC};
    use SandboxMode::{DangerFullAccess, WorkspaceWrite};
    let ww = WorkspaceWrite;
    let on_request = ApprovalPolicy::OnRequest;
    let cmd = Command::default();
    vec![
        Cell {
            dimension: D::CoreIdea,
            product: P::OpenCode,
            claim_zh: "规则匹配 (Last-Match-Wins)",
            code: "Rules and approvals form one list; findLast picks the last match.",
            status: Status::Holds,
            source: "opencode evaluate (reference opencode.md §3); permlab opencode::evaluate",
            demos: vec![table(
                OC,
                &[("bash", "*", Deny), ("bash", "git *", Allow)],
                ("bash", "git status"),
                Decision::Allow,
            )],
        },
        Cell {
            dimension: D::CoreIdea,
            product: P::ClaudeCode,
            claim_zh: "白名单枚举 (allowedTools)",
            code: "allow / ask / deny lists, checked deny → ask → allow; what none matches goes to the permission mode.",
            status: Status::Wrong,
            source: "reference claude-code.md (deny → ask → allow, then the mode); permlab claude_code",
            demos: vec![
                table(
                    CC,
                    &[("bash", "git *", Allow), ("bash", "git push *", Deny)],
                    ("bash", "git push origin main"),
                    Decision::Deny,
                ),
                table(
                    CC,
                    &[("bash", "npm test *", Allow)],
                    ("bash", "npm install left-pad"),
                    Decision::Ask,
                ),
            ],
        },
        Cell {
            dimension: D::CoreIdea,
            product: P::Codex,
            claim_zh: "沙箱隔离 (Docker/Firewall)",
            code: "An OS sandbox (Seatbelt, Landlock/bubblewrap), not Docker, plus execpolicy prefix rules and an approval policy.",
            status: Status::Partly,
            source: "codex-rs/core tools/orchestrator.rs ToolOrchestrator::run; execpolicy (permlab codex)",
            demos: vec![
                codex(ww, on_request, Command { network: true, ..cmd }, Outcome::SandboxDenied),
                table(
                    CX,
                    &[("bash", "rm -rf *", Deny)],
                    SEED_CALL,
                    Decision::Deny,
                ),
            ],
        },
        Cell {
            dimension: D::Granularity,
            product: P::OpenCode,
            claim_zh: "action + resource glob",
            code: "permission + pattern, both Wildcard.match globs (`*` also crosses `/` and newlines).",
            status: Status::Holds,
            source: "opencode util/wildcard.ts (permlab opencode::wildcard)",
            demos: vec![table(
                OC,
                &[("bash", "*", Ask), ("bash", "git status*", Allow)],
                ("bash", "git status --short"),
                Decision::Allow,
            )],
        },
        Cell {
            dimension: D::Granularity,
            product: P::ClaudeCode,
            claim_zh: "tool name 级别",
            code: "Rules take specifiers below the tool name: Bash(npm test *), Read(./.env), WebFetch(domain:…).",
            status: Status::Wrong,
            source: "reference claude-code.md §2 (rule syntax)",
            demos: vec![
                table(
                    CC,
                    &[("bash", "npm test *", Allow)],
                    ("bash", "npm test -- --watch"),
                    Decision::Allow,
                ),
                table(
                    CC,
                    &[("bash", "npm test *", Allow)],
                    ("bash", "npm publish"),
                    Decision::Ask,
                ),
            ],
        },
        Cell {
            dimension: D::Granularity,
            product: P::Codex,
            claim_zh: "环境级别",
            code: "The sandbox is per session (sandbox_mode), but execpolicy rules match argv prefixes per command.",
            status: Status::Partly,
            source: "codex-rs/execpolicy policy.rs (permlab codex::Policy)",
            demos: vec![
                table(
                    CX,
                    &[("bash", "git push *", Deny)],
                    ("bash", "git push origin main"),
                    Decision::Deny,
                ),
                table(
                    CX,
                    &[("bash", "git push *", Deny)],
                    ("bash", "git status"),
                    Decision::Ask,
                ),
            ],
        },
        Cell {
            dimension: D::PerAgent,
            product: P::OpenCode,
            claim_zh: "build/plan/explore 各有 Ruleset",
            code: "Each built-in agent appends its own rules to the defaults (plan: edit * deny except plan files; explore: * deny then read-only tools).",
            status: Status::Holds,
            source: "opencode agent/agent.ts (permlab opencode::agents::builtins)",
            demos: vec![
                table(
                    OC,
                    &[("edit", "*", Deny), ("edit", ".opencode/plans/*.md", Allow)],
                    ("edit", "src/main.ts"),
                    Decision::Deny,
                ),
                table(
                    OC,
                    &[("edit", "*", Deny), ("edit", ".opencode/plans/*.md", Allow)],
                    ("edit", ".opencode/plans/refactor.md"),
                    Decision::Allow,
                ),
            ],
        },
        Cell {
            dimension: D::PerAgent,
            product: P::ClaudeCode,
            claim_zh: "不区分 Agent",
            code: "Subagents inherit the session's rules and mode (seed 001: 子 Agent 默认继承父会话的模式); a subagent file may narrow its tools. Not ported.",
            status: Status::NotChecked,
            source: "seed 001; Claude Code docs (subagents) — no ported code path",
            demos: Vec::new(),
        },
        Cell {
            dimension: D::PerAgent,
            product: P::Codex,
            claim_zh: "不适用（统一沙箱）",
            code: "One sandbox_mode and approval_policy per session (config profiles switch both). Not ported.",
            status: Status::NotChecked,
            source: "no ported code path",
            demos: Vec::new(),
        },
        Cell {
            dimension: D::DenyOverride,
            product: P::OpenCode,
            claim_zh: "configured DENY 优先",
            code: "On the classic runtime (the TUI, `opencode run`, the web app) saved rules come after configured ones in the same findLast list, so a saved allow beats a configured deny — with the seed's own five rules the bash tool first asks about /tmp, a directory outside the project (by `* * ask`), then allows rm -rf /tmp/cache by #4, never by the configured deny; inside the project, rm -rf build is allowed by #4 at once. Only the v2 runtime shipped alongside (reached by POST /api/session/:id/prompt alone) checks the configured rules alone first, where any deny wins: the seed describes that one.",
            status: Status::Partly,
            source: "opencode permission evaluate over [...configured, ...approved] (reference opencode.md §6: approvals beat config denies); v2: reference opencode-lifecycle.md §9",
            demos: vec![
                table(OC, &SEED_RULES, SEED_CALL, Decision::Ask),
                table(OC, &SEED_RULES, ("bash", "rm -rf build"), Decision::Allow),
                table(
                    OC,
                    &[("bash", "*", Ask), ("bash", "git push --force*", Deny), ("bash", "git push *", Allow)],
                    ("bash", "git push --force origin"),
                    Decision::Allow,
                ),
            ],
        },
        Cell {
            dimension: D::DenyOverride,
            product: P::ClaudeCode,
            claim_zh: "不在白名单即 deny",
            code: "Not allowed → the mode decides: `default` asks; only `dontAsk` turns it into a deny. A deny anywhere cannot be overridden by any allow.",
            status: Status::Wrong,
            source: "reference claude-code.md (modes; settings precedence §9)",
            demos: vec![
                table(
                    CC,
                    &[("bash", "npm test *", Allow)],
                    ("bash", "npm install left-pad"),
                    Decision::Ask,
                ),
                Demo::Table {
                    engine: CC,
                    mode: Some(claude_code::Mode::DontAsk),
                    rules: vec![("bash", "npm test *", Allow)],
                    call: ("bash", "npm install left-pad"),
                    expect: Decision::Deny,
                },
                table(
                    CC,
                    &[("bash", "rm *", Deny), ("bash", "rm -rf /tmp/cache", Allow)],
                    SEED_CALL,
                    Decision::Deny,
                ),
            ],
        },
        Cell {
            dimension: D::DenyOverride,
            product: P::Codex,
            claim_zh: "网络/文件系统隔离",
            code: "The sandbox blocks the network and writes outside the workspace, but an explicit allow rule or an approved escalation runs the command outside it; a forbidden rule is never overridden.",
            status: Status::Partly,
            source: "codex-rs/core exec_policy.rs create_exec_approval_requirement_for_command; tools/sandboxing.rs sandbox_override_for_first_attempt",
            demos: vec![
                codex(ww, on_request, Command { network: true, ..cmd }, Outcome::SandboxDenied),
                codex(
                    ww,
                    on_request,
                    Command { network: true, rule: Some(ExecDecision::Allow), ..cmd },
                    Outcome::Run,
                ),
                codex(
                    DangerFullAccess,
                    on_request,
                    Command { rule: Some(ExecDecision::Forbidden), ..cmd },
                    Outcome::Reject,
                ),
            ],
        },
        Cell {
            dimension: D::UserMemory,
            product: P::OpenCode,
            claim_zh: "SQLite per-project \"Always Allow\"",
            code: "\"Always\" appends `<arity prefix> *` allow rules to an in-memory list shared by the project's sessions; at v1.18.32 it is not loaded from or saved to the database.",
            status: Status::Partly,
            source: "reference opencode.md §6 (`approved` lives in memory only)",
            demos: vec![table(
                OC,
                &[("bash", "*", Ask), ("bash", "git push *", Allow)],
                ("bash", "git push origin main"),
                Decision::Allow,
            )],
        },
        Cell {
            dimension: D::UserMemory,
            product: P::ClaudeCode,
            claim_zh: "~/.claude/settings allowedTools",
            code: "\"Don't ask again\" writes a permissions.allow rule to the project's .claude/settings.local.json; allowedTools is the SDK/CLI flag. Not ported.",
            status: Status::NotChecked,
            source: "reference claude-code.md §9 (settings sources)",
            demos: Vec::new(),
        },
        Cell {
            dimension: D::UserMemory,
            product: P::Codex,
            claim_zh: "无需（沙箱兜底）",
            code: "Approvals are remembered: \"approve for session\" caches them, and an approved amendment appends an allow prefix_rule to ~/.codex/rules/default.rules, which then allows the command (and runs it outside the sandbox).",
            status: Status::Wrong,
            source: "codex-rs/core exec_policy.rs append_amendment_and_update, default_policy_path; tools/sandboxing.rs with_cached_approval",
            demos: vec![
                table(
                    CX,
                    &[("bash", "cargo build *", Allow)],
                    ("bash", "cargo build --release"),
                    Decision::Allow,
                ),
                codex(
                    ww,
                    on_request,
                    Command { network: true, rule: Some(ExecDecision::Allow), ..cmd },
                    Outcome::Run,
                ),
            ],
        },
        Cell {
            dimension: D::SafetyBoundary,
            product: P::OpenCode,
            claim_zh: "规则完备性依赖配置",
            code: "Without a matching rule every call asks; the verdict is only as good as the list and its order — a last `bash *` deny even hides the bash tool altogether.",
            status: Status::Holds,
            source: "opencode evaluate (default ask), Permission.disabled",
            demos: vec![
                table(OC, &[], SEED_CALL, Decision::Ask),
                table(
                    OC,
                    &[("bash", "git *", Allow), ("bash", "*", Deny)],
                    ("bash", "git status"),
                    Decision::Unavailable,
                ),
            ],
        },
        Cell {
            dimension: D::SafetyBoundary,
            product: P::ClaudeCode,
            claim_zh: "白名单简单但粗粒度",
            code: "Not only a whitelist, and not coarse: deny and ask lists with command specifiers. Rules see the command's words: CLI 2.1.332 drops the path, so Bash(curl *) stops /usr/bin/curl (the docs say it does not), but a command hidden in an argument (sh -c 'curl …') gets past and only asks, so the sandbox is the boundary.",
            status: Status::Wrong,
            source: "Claude Code CLI 2.1.332, recorded (rec-path-usr-bin-curl, limits-curl-sh-c); docs 2026-10-08 §2.4",
            demos: vec![
                table(
                    CC,
                    &[("bash", "git *", Allow), ("bash", "git push *", Ask)],
                    ("bash", "git push origin main"),
                    Decision::Ask,
                ),
                table(
                    CC,
                    &[("bash", "curl *", Deny)],
                    ("bash", "/usr/bin/curl https://example.com"),
                    Decision::Deny,
                ),
                table(
                    CC,
                    &[("bash", "curl *", Deny)],
                    ("bash", "sh -c 'curl https://example.com'"),
                    Decision::Ask,
                ),
            ],
        },
        Cell {
            dimension: D::SafetyBoundary,
            product: P::Codex,
            claim_zh: "容器隔离最强但灵活性低",
            code: "An OS sandbox, not a container, and flexible: three sandbox modes, five approval policies, prefix rules that can lift a command out of the sandbox.",
            status: Status::Partly,
            source: "codex-rs/core tools/sandboxing.rs; exec_policy.rs",
            demos: vec![
                codex(ww, on_request, Command { writes: true, ..cmd }, Outcome::Run),
                codex(
                    DangerFullAccess,
                    on_request,
                    Command { writes: true, writes_outside_workspace: true, network: true, ..cmd },
                    Outcome::Run,
                ),
            ],
        },
        Cell {
            dimension: D::Philosophy,
            product: P::OpenCode,
            claim_zh: "默认 ASK，精细控制",
            code: "No match → ask (a synthesized `* * ask`).",
            status: Status::Holds,
            source: "opencode evaluate (reference opencode.md §3)",
            demos: vec![table(
                OC,
                &[("bash", "git *", Allow)],
                ("bash", "ls -la"),
                Decision::Ask,
            )],
        },
        Cell {
            dimension: D::Philosophy,
            product: P::ClaudeCode,
            claim_zh: "默认 DENY，显式允许",
            code: "The default mode asks for what no rule allows; deny is the default only in dontAsk.",
            status: Status::Wrong,
            source: "reference claude-code.md (modes)",
            demos: vec![table(
                CC,
                &[("bash", "npm test *", Allow)],
                ("bash", "npm install left-pad"),
                Decision::Ask,
            )],
        },
        Cell {
            dimension: D::Philosophy,
            product: P::Codex,
            claim_zh: "默认 ALLOW，环境兜底",
            code: "Under on-request an ordinary unmatched command runs in the sandbox without asking, but a dangerous one asks, `untrusted` asks for anything not known-safe, and Granular `false` rejects.",
            status: Status::Partly,
            source: "codex-rs/core exec_policy.rs render_decision_for_unmatched_command",
            demos: vec![
                codex(ww, on_request, Command { writes: true, ..cmd }, Outcome::Run),
                codex(ww, on_request, Command { dangerous: true, ..cmd }, Outcome::Ask),
                codex(ww, ApprovalPolicy::Untrusted, Command { writes: true, ..cmd }, Outcome::Ask),
            ],
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_demo_runs_as_the_cell_says() {
        let mut wrong = Vec::new();
        for c in cells() {
            for d in &c.demos {
                if d.run() != d.expect() {
                    wrong.push(format!(
                        "{} / {}: {d:?} gives {:?}",
                        c.dimension.slug(),
                        c.product.slug(),
                        d.run()
                    ));
                }
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn the_table_is_complete() {
        let cs = cells();
        assert_eq!(cs.len(), 21);
        for (k, c) in cs.iter().enumerate() {
            assert_eq!(c.dimension, Dimension::ALL[k / 3]);
            assert_eq!(c.product, Product::ALL[k % 3]);
            // A checked cell has a case; an unchecked one says why in `code`.
            assert_eq!(c.demos.is_empty(), c.status == Status::NotChecked, "{c:?}");
        }
        let wrong = cs.iter().filter(|c| c.status == Status::Wrong).count();
        assert_eq!(wrong, 6);
    }

    #[test]
    fn the_seeds_own_rules_contradict_its_deny_claim() {
        // findLast over [...configured, ...saved]: #4 (saved `bash rm -rf * allow`) decides the
        // bash request; before it the tool asks about the outside directory (`* * ask`): /tmp,
        // since /tmp/cache is not among the default context's directories.
        let t = RuleTable::new(SEED_RULES);
        let e =
            engines::build(EngineId::OpenCode, &t).evaluate(&Call::new(SEED_CALL.0, SEED_CALL.1));
        assert_eq!((e.decision, e.rule), (Decision::Ask, Some(0)));
        assert_eq!(
            e.parts[0].subject,
            crate::evaluation::Subject::OutsideDirectory("/tmp/*".into())
        );
        assert_eq!(
            (e.parts[1].decision, e.parts[1].rule),
            (Decision::Allow, Some(4))
        );
    }

    #[test]
    fn plan_agent_rows_are_opencodes() {
        use crate::opencode::agents::{builtins, Agent, AgentEnv};
        let env = AgentEnv::new("/home/u", "/home/u/.local/share", "/tmp", "/home/u/p");
        let plan = builtins(Agent::Plan, &env);
        let cell = cells()
            .into_iter()
            .find(|c| c.dimension == Dimension::PerAgent && c.product == Product::OpenCode)
            .unwrap();
        for d in &cell.demos {
            let Demo::Table { rules, .. } = d else {
                panic!()
            };
            for &(tool, pattern, action) in rules {
                assert!(
                    plan.iter().any(|r| r.permission == tool
                        && r.pattern == pattern
                        && r.action == action),
                    "{tool} {pattern} {action:?} is not a plan-agent rule"
                );
            }
        }
    }
}
