//! The fast path agrees with the full evaluation.
//!
//! `CompiledPolicy::decide` and `Engine::decide` skip the trace and look only at the rules the
//! index says could match; `evaluate` scans every rule. On random settings (several scopes,
//! negations, parameter rules, MCP and glob selectors, sandbox, additional directories),
//! random contexts and modes, and random calls (compound Bash commands with wrappers,
//! assignments, redirections and file commands; paths with `~`, `..` and symlinks), they must
//! give the same outcome, decider, rule and `inferred`, and `evaluate` must equal the one-off
//! `claude_code::evaluate`.

use permlab_core::claude_code::{
    evaluate, ClaudeCodeEngine, CompiledPolicy, Context, Hook, Mode, Policy, Scope, SettingsFile,
    Surface, ToolCall,
};
use permlab_core::json::Value;
use permlab_core::{Action, Call, Engine, RuleTable};
use proptest::prelude::*;

const RULES: &[&str] = &[
    "Bash",
    "Bash(*)",
    "Bash(git *)",
    "Bash(git push *)",
    "Bash(git push:*)",
    "Bash(git status)",
    "Bash(npm run *)",
    "Bash(npm run build)",
    "Bash(rm *)",
    "Bash(rm -rf *)",
    "Bash(ls:*)",
    "Bash(ls*)",
    "Bash(* --help *)",
    "Bash(*)",
    "Bash(tool7 *)",
    "Bash(timeout *)",
    "Bash(FOO=1 git *)",
    "Bash(cat *)",
    "Bash(curl *)",
    "Bash(sh)",
    "Bash(echo *)",
    "Bash(python -m unittest*)",
    "Bash(run_in_background:true)",
    "Bash(description:*deploy*)",
    "Read",
    "Edit",
    "Write",
    "Grep",
    "Glob",
    "Read(./.env)",
    "Read(.env)",
    "Read(*.env)",
    "Read(!sample.env)",
    "Read(!./sample.env)",
    "Read(secrets/**)",
    "Read(./secrets/)",
    "Read(~/.ssh/**)",
    "Read(//etc/**)",
    "Read(/src/**)",
    "Read(**/*.key)",
    "Read(test_*)",
    "Read([ab]*.txt)",
    "Read(**)",
    "Edit(src/**)",
    "Edit(**/test_*)",
    "Edit(*.py)",
    "Edit(!src/keep.py)",
    "Edit(./out.txt)",
    "Edit(/tmp/**)",
    "Edit(//tmp/**)",
    "Edit(.git/**)",
    "Edit(docs/*.md)",
    "WebFetch(domain:*.example.com)",
    "WebFetch(domain:example.org)",
    "WebFetch",
    "mcp__github",
    "mcp__github__get_*",
    "mcp__github__get_issue",
    "mcp__*",
    "*",
    "Agent(Explore)",
    "Agent(model:opus)",
    "Task",
    "Skill(deploy *)",
    "Skill(review)",
    "PowerShell(Get-ChildItem *)",
    "PowerShell(Remove-Item *)",
    "PowerShell",
    "Monitor(tail *)",
    "AskUserQuestion",
    "EndConversation",
];

const PROGRAMS: &[&str] = &[
    "git push origin main",
    "git status",
    "git log --oneline",
    "npm run build",
    "npm run test --help x",
    "rm -rf build",
    "rm -rf /",
    "rmdir ~",
    "cat .env",
    "cat sample.env",
    "head -n 5 secrets/key",
    "ls -la",
    "ls",
    "lsof -i",
    "echo x > src/a.txt",
    "echo x >> out.txt",
    "cat < .env",
    "sed -i s/a/b/ .git/config",
    "sed s/a/b/ src/x.py",
    "tee docs/a.md",
    "tool7 run",
    "python -m unittest -v",
    "find . -delete",
    "find . -name '*.o'",
    "cd /tmp",
    "cd src",
    "curl https://x.example",
    "sh",
    "watch ls",
    "mkdir src/new",
    "touch /etc/x",
    "cp a.py src/b.py",
    "bash -c 'rm -rf /'",
    "grep -r KEY .",
    "cat ~/.ssh/id_rsa",
    "cat $HOME/x",
    "git 'push' origin",
];

const PREFIXES: &[&str] = &[
    "",
    "",
    "",
    "timeout 30 ",
    "nice -n 5 ",
    "FOO=1 ",
    "NODE_ENV=test ",
    "LC_ALL=C ",
    "PATH=/tmp ",
    "command ",
    "xargs ",
    "nohup ",
];

const JOINS: &[&str] = &[" && ", " || ", "; ", " | ", "\n", " & "];

fn bash_command() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(
            (
                prop::sample::select(PREFIXES),
                prop::sample::select(PROGRAMS),
                0..6usize,
            ),
            1..4,
        ),
        0..12usize,
    )
        .prop_map(|(parts, tail)| {
            let mut out = String::new();
            for (k, (pre, prog, wrap)) in parts.iter().enumerate() {
                if k > 0 {
                    out.push_str(JOINS[(k + wrap) % JOINS.len()]);
                }
                match wrap {
                    4 => out.push_str(&format!("echo $({pre}{prog})")),
                    5 => out.push_str(&format!("({pre}{prog})")),
                    _ => out.push_str(&format!("{pre}{prog}")),
                }
            }
            match tail {
                0 => out.push_str(" &&"),
                1 => out.push_str(" 'unclosed"),
                _ => {}
            }
            out
        })
}

const PATHS: &[&str] = &[
    ".env",
    "sample.env",
    "prod.env",
    "secrets/key",
    "secrets",
    "src/a.rs",
    "src/keep.py",
    "src/x/test_a.py",
    "test_b.py",
    "docs/a.md",
    "docs/a/b.md",
    "out.txt",
    "a.txt",
    "b.key",
    "~/.ssh/id_rsa",
    "~/.env",
    "/etc/passwd",
    "/tmp/x/y",
    "/home/alice/proj/.git/config",
    "/home/alice/proj/../other/x.py",
    "/home/alice/.claude/src/a.rs",
    "link",
    ".vscode/settings.json",
    "é/ü.env",
];

fn tool_call() -> impl Strategy<Value = ToolCall> {
    prop_oneof![
        4 => bash_command().prop_map(|c| ToolCall::bash(&c)),
        1 => (bash_command(), any::<bool>()).prop_map(|(c, bg)| {
            ToolCall::new("Bash", Value::Object(vec![
                ("command".into(), Value::from(c.as_str())),
                ("run_in_background".into(), Value::Bool(bg)),
                ("dangerouslyDisableSandbox".into(), Value::Bool(!bg)),
                ("description".into(), Value::from("deploy it")),
            ]))
        }),
        3 => (prop::sample::select(&["Read", "Edit", "Write", "Grep", "Glob", "LS", "NotebookEdit", "MultiEdit"][..]), prop::sample::select(PATHS))
            .prop_map(|(tool, p)| {
                let field = if matches!(tool, "Grep" | "Glob" | "LS") { "path" } else { "file_path" };
                ToolCall::with_field(tool, field, p)
            }),
        1 => prop::sample::select(&[
            ("WebFetch", "url", "https://a.example.com/x"),
            ("WebFetch", "url", "http://example.org:8080"),
            ("WebFetch", "url", "https://evil.test"),
            ("mcp__github__get_issue", "x", "1"),
            ("mcp__github__create_pr", "x", "1"),
            ("mcp__slack__post", "x", "1"),
            ("Agent", "subagent_type", "Explore"),
            ("Task", "subagent_type", "Plan"),
            ("Skill", "skill", "deploy"),
            ("Skill", "skill", "plugin:review"),
            ("PowerShell", "command", "gci . | rm x"),
            ("PowerShell", "command", "Get-ChildItem"),
            ("Monitor", "command", "tail -f log"),
            ("AskUserQuestion", "q", "?"),
            ("EndConversation", "x", ""),
            ("TodoWrite", "x", ""),
            ("WebSearch", "query", "x"),
        ][..]).prop_map(|(t, f, v)| ToolCall::with_field(t, f, v)),
    ]
}

fn settings_file() -> impl Strategy<Value = SettingsFile> {
    let list = || prop::collection::vec(prop::sample::select(RULES), 0..6);
    (
        0..5usize,
        list(),
        list(),
        list(),
        0..4usize,
        prop::option::of(any::<bool>()),
    )
        .prop_map(|(scope, allow, ask, deny, extra, sandbox)| {
            let mut f = SettingsFile::empty(Scope::ALL[scope]);
            let own = |v: Vec<&str>| v.into_iter().map(String::from).collect();
            f.allow = own(allow);
            f.ask = own(ask);
            f.deny = own(deny);
            if extra == 1 {
                f.additional_directories = vec!["/tmp".into(), "~/other".into()];
            }
            if extra == 2 {
                f.sandbox.excluded_commands = vec!["git *".into(), "docker:*".into()];
            }
            f.sandbox.enabled = sandbox;
            f.sandbox.auto_allow_bash_if_sandboxed = sandbox.map(|b| !b);
            f
        })
}

fn context() -> impl Strategy<Value = Context> {
    (0..8usize, any::<bool>(), any::<bool>()).prop_map(|(k, a, b)| {
        let mut c = Context::default();
        match k {
            1 => c.hook = Some(Hook::Block),
            2 => c.hook = Some(Hook::Allow),
            3 => c.surface = Surface::Sdk,
            4 => {
                c.symlinks = vec![
                    (
                        "/home/alice/proj/link".into(),
                        "/home/alice/proj/.env".into(),
                    ),
                    ("/home/alice/proj/src/a.rs".into(), "/etc/passwd".into()),
                ]
            }
            5 => c.requires_user_interaction = true,
            6 => c.cwd = "/home/alice/proj/src".into(),
            _ => {}
        }
        c.interactive = a;
        c.sandboxable = b;
        if k == 7 {
            c.auto_mode_available = Some(a);
        }
        c
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn compiled_decide_agrees_with_evaluate(
        files in prop::collection::vec(settings_file(), 1..4),
        trusted in any::<bool>(),
        mode in 0..6usize,
        ctx in context(),
        calls in prop::collection::vec(tool_call(), 1..8),
    ) {
        let mode = Mode::ALL[mode];
        let policy = Policy::merge(&files, trusted);
        let compiled = CompiledPolicy::new(policy.clone(), mode, ctx.clone());
        for call in &calls {
            let full = evaluate(&policy, mode, &ctx, call);
            prop_assert_eq!(&compiled.evaluate(call), &full);
            let fast = compiled.decide(call);
            let what = call.input.to_json();
            prop_assert_eq!(fast.outcome, full.outcome, "{} {}", call.tool, what);
            prop_assert_eq!(&fast.decider, &full.decider, "{} {}", call.tool, what);
            prop_assert_eq!(fast.rule, full.rule, "{} {}", call.tool, what);
            prop_assert_eq!(fast.inferred, full.inferred, "{} {}", call.tool, what);
            prop_assert!(fast.trace.is_empty() && fast.matches.is_empty());
        }
    }
}

const TABLE_TOOLS: &[&str] = &[
    "bash",
    "bash",
    "bash",
    "read_file",
    "edit_file",
    "write_file",
    "list_dir",
    "grep",
    "glob",
    "web_fetch",
    "mcp__github",
    "skill",
    "agent",
];

const TABLE_PATTERNS: &[&str] = &[
    "*",
    "git *",
    "git push *",
    "npm run build",
    "rm *",
    "ls*",
    "* --help *",
    "tool7 *",
    "python -m unittest*",
    ".env",
    "*.env",
    "!sample.env",
    "src/**",
    "test_*",
    "docs/*.md",
    "~/.ssh/**",
    "*.example.com",
    "deploy *",
    "Explore",
];

const CALL_TOOLS: &[&str] = &[
    "bash",
    "read_file",
    "edit_file",
    "write_file",
    "list_dir",
    "grep",
    "glob",
    "web_fetch",
    "web_search",
    "skill",
    "agent",
    "task",
    "mcp__github__get_issue",
    "EndConversation",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn engine_decide_agrees_with_evaluate(
        rows in prop::collection::vec((prop::sample::select(TABLE_TOOLS), prop::sample::select(TABLE_PATTERNS), 0..3usize), 0..14),
        mode in 0..6usize,
        ctx in context(),
        calls in prop::collection::vec(prop_oneof![
            2 => bash_command().prop_map(|c| Call::new("bash", c)),
            2 => (prop::sample::select(CALL_TOOLS), prop::sample::select(PATHS)).prop_map(|(t, p)| Call::new(t, p)),
            1 => (prop::sample::select(CALL_TOOLS), prop::sample::select(PROGRAMS)).prop_map(|(t, p)| Call::new(t, p)),
        ], 1..8),
    ) {
        let actions = [Action::Allow, Action::Ask, Action::Deny];
        let table = RuleTable::new(rows.iter().map(|&(t, p, a)| (t, p, actions[a])));
        for engine in [ClaudeCodeEngine::new(&table), ClaudeCodeEngine::with(&table, Mode::ALL[mode], ctx.clone())] {
            for call in &calls {
                let e = engine.evaluate(call);
                prop_assert_eq!(engine.decide(call), (e.decision, e.rule), "{} {}", call.tool, call.input);
            }
        }
    }
}

/// Big tables, where the index matters: every call of the benchmark-like mix agrees.
#[test]
fn large_tables_agree() {
    let mut rows = Vec::new();
    let verbs = [
        "git", "npm", "cargo", "python", "ls", "rm", "docker", "make", "curl",
    ];
    let dirs = ["src", "tests", "docs", "config"];
    let exts = ["py", "rs", "md", "env"];
    for k in 0..600usize {
        let action = [Action::Allow, Action::Ask, Action::Deny][k % 3];
        let v = verbs[k % verbs.len()];
        let d = dirs[k % dirs.len()];
        let e = exts[(k / 3) % exts.len()];
        let (tool, pattern) = match k % 7 {
            0 => ("bash", format!("{v} *")),
            1 => ("bash", format!("tool{} *", k % 50)),
            2 => ("bash", format!("{v} sub{}*", k % 5)),
            3 => ("edit_file", format!("{d}/**/*.{e}")),
            4 => ("read_file", format!("*.{e}")),
            5 => ("read_file", format!("{d}/*")),
            _ => ("edit_file", "test_*".to_string()),
        };
        rows.push((tool, pattern, action));
    }
    let table = RuleTable::new(rows.iter().map(|(t, p, a)| (*t, p.as_str(), *a)));
    let engine = ClaudeCodeEngine::new(&table);
    let mut calls = Vec::new();
    for (k, v) in verbs.iter().enumerate() {
        calls.push(Call::new(
            "bash",
            format!(
                "{v} sub{} --flag && tool{} x | cat src/a.{}",
                k % 5,
                k,
                exts[k % 4]
            ),
        ));
        for d in dirs {
            for e in exts {
                calls.push(Call::new("edit_file", format!("{d}/m{k}/f.{e}")));
                calls.push(Call::new("read_file", format!("{d}/test_{k}.{e}")));
            }
        }
    }
    for call in &calls {
        let e = engine.evaluate(call);
        assert_eq!(
            engine.decide(call),
            (e.decision, e.rule),
            "{} {}",
            call.tool,
            call.input
        );
    }
}
