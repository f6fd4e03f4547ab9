//! Property tests for the Claude Code engine:
//! - the path matcher agrees with `globset` (gitignore-style options) on generated globs;
//! - a verdict never depends on the order of the rules;
//! - no input (settings JSON, rule strings, Bash commands) makes the engine panic.

use globset::GlobBuilder;
use permlab_core::claude_code::path::Glob;
use permlab_core::claude_code::{
    evaluate, shell, Context, Mode, Policy, Scope, SettingsFile, ToolCall,
};
use permlab_core::json::{self, Value};
use proptest::prelude::*;

fn segment_pattern() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec![
            "a", "b", ".", "*", "?", "[ab]", "[!a]", "[a-c]", "x", "\\*",
        ]),
        1..4,
    )
    .prop_map(|t| t.concat())
}

fn glob_pattern() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![4 => segment_pattern(), 1 => Just("**".to_string())],
        1..5,
    )
    .prop_map(|s| s.join("/"))
}

fn path() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(vec!["a", "b", "ab", ".a", "ba", "x", "*", "aa.b", "c"]),
        1..5,
    )
    .prop_map(|s| s.join("/"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn path_matcher_agrees_with_globset(pattern in glob_pattern(), p in path()) {
        let Ok(oracle) = GlobBuilder::new(&pattern)
            .literal_separator(true)
            .backslash_escape(true)
            .build()
        else {
            return Ok(()); // globset rejects it (e.g. `a**`): nothing to compare
        };
        let ours = Glob::new(&pattern).expect("globset accepted it, so must we");
        prop_assert_eq!(ours.matches(&p), oracle.compile_matcher().is_match(&p), "pattern {} path {}", pattern, p);
    }
}

const RULE_POOL: [&str; 24] = [
    "Bash",
    "Bash(*)",
    "Bash(git *)",
    "Bash(git push *)",
    "Bash(npm run *)",
    "Bash(rm *)",
    "Bash(ls:*)",
    "Bash(* --help *)",
    "Read(./.env)",
    "Read(*.env)",
    "Read(!sample.env)",
    "Edit(src/**)",
    "Edit(**/test_*)",
    "Read(~/.ssh/**)",
    "WebFetch(domain:*.example.com)",
    "mcp__github",
    "mcp__github__get_*",
    "*",
    "Agent(Explore)",
    "Skill(deploy *)",
    "Bash(run_in_background:true)",
    "Write",
    "Edit",
    "Read",
];

fn calls() -> Vec<ToolCall> {
    let mut out: Vec<ToolCall> = [
        "git push origin main",
        "git status && npm run build",
        "rm -rf build",
        "ls -la",
        "cat .env",
        "npm test --help x",
        "echo x > src/a.txt",
        "FOO=1 git log",
        "cd src && git status",
        "rm -rf /",
    ]
    .iter()
    .map(|c| ToolCall::bash(c))
    .collect();
    for (tool, field, v) in [
        ("Read", "file_path", "/home/alice/proj/sample.env"),
        ("Read", "file_path", "/home/alice/proj/prod.env"),
        ("Edit", "file_path", "/home/alice/proj/src/a.rs"),
        ("Write", "file_path", "/home/alice/proj/x/test_a.py"),
        ("Read", "file_path", "/home/alice/.ssh/id_rsa"),
        ("WebFetch", "url", "https://a.example.com/"),
        ("mcp__github__get_issue", "x", "1"),
        ("Agent", "subagent_type", "Explore"),
        ("Skill", "skill", "deploy"),
    ] {
        out.push(ToolCall::with_field(tool, field, v));
    }
    out
}

fn settings(allow: &[usize], ask: &[usize], deny: &[usize]) -> SettingsFile {
    // The one documented order dependence: a `!` rule carves out of *earlier* rules of the
    // same source (gitignore semantics). Keep carve-outs after the others; every other
    // permutation must leave the verdict unchanged.
    let list = |ids: &[usize]| {
        let (mut plain, neg): (Vec<String>, Vec<String>) = ids
            .iter()
            .map(|&i| RULE_POOL[i].to_string())
            .partition(|r| !r.contains("(!"));
        plain.extend(neg);
        plain
    };
    let mut f = SettingsFile::empty(Scope::Project);
    f.allow = list(allow);
    f.ask = list(ask);
    f.deny = list(deny);
    f
}

fn rules() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(0..RULE_POOL.len(), 0..5)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn verdict_never_depends_on_rule_order(allow in rules(), ask in rules(), deny in rules(), mode in 0..6usize, seed in any::<u64>()) {
        let mode = Mode::ALL[mode];
        let shuffle = |v: &[usize], s: u64| {
            let mut v = v.to_vec();
            v.reverse();
            if !v.is_empty() {
                let k = (s as usize) % v.len();
                v.rotate_left(k);
            }
            v
        };
        let a = Policy::merge(&[settings(&allow, &ask, &deny)], true);
        let b = Policy::merge(&[settings(&shuffle(&allow, seed), &shuffle(&ask, seed >> 7), &shuffle(&deny, seed >> 13))], true);
        let ctx = Context::default();
        for c in calls() {
            let va = evaluate(&a, mode, &ctx, &c);
            let vb = evaluate(&b, mode, &ctx, &c);
            prop_assert_eq!(va.outcome, vb.outcome, "{:?} {:?}", c.tool, c.input.to_json());
        }
    }

    #[test]
    fn no_panic_on_any_bash_command(cmd in "[ a-z$()`'\"\\\\;&|<>\n#{}*?=~/.0-9-]{0,60}") {
        let parsed = shell::parse(&cmd);
        for c in &parsed.commands {
            let _ = c.text();
        }
        let p = Policy::merge(&[settings(&[2, 5, 11], &[3], &[8, 5])], true);
        for mode in Mode::ALL {
            let _ = evaluate(&p, mode, &Context::default(), &ToolCall::bash(&cmd));
        }
    }

    #[test]
    fn no_panic_on_any_rule_string(rule in "[A-Za-z_*():~/.! -]{0,24}", cmd in "[a-z *./-]{0,20}") {
        for key in ["allow", "ask", "deny"] {
            let text = format!("{{\"permissions\": {{\"{key}\": [{}]}}}}", Value::from(rule.as_str()).to_json());
            let f = SettingsFile::from_json(&text, Scope::User).expect("valid JSON");
            let p = Policy::merge(&[f], true);
            for c in [ToolCall::bash(&cmd), ToolCall::with_field("Read", "file_path", &cmd), ToolCall::with_field("WebFetch", "url", &cmd)] {
                let _ = evaluate(&p, Mode::Default, &Context::default(), &c);
            }
        }
    }

    #[test]
    fn no_panic_on_any_settings_json(tokens in prop::collection::vec(prop::sample::select(vec![
        "{", "}", "[", "]", ",", ":", "\"permissions\"", "\"allow\"", "\"deny\"", "\"ask\"", "\"defaultMode\"",
        "\"sandbox\"", "\"enabled\"", "true", "1", "null", "\"Bash(ls *)\"", "\"Read(./x)\"", "\"plan\"",
        "\"additionalDirectories\"", "\"/tmp\"", "\"allowManagedPermissionRulesOnly\"",
    ]), 0..40)) {
        let text = tokens.concat();
        if let Ok(v) = json::parse(&text) {
            for scope in [Scope::Managed, Scope::Project] {
                if let Ok(f) = SettingsFile::from_value(&v, scope) {
                    let p = Policy::merge(&[f], false);
                    for c in calls() {
                        let _ = evaluate(&p, p.default_mode.unwrap_or(Mode::Default), &Context::default(), &c);
                    }
                }
            }
        }
    }
}

const ROW_POOL: [(&str, &str); 14] = [
    ("bash", "*"),
    ("bash", "python -m unittest*"),
    ("bash", "git push *"),
    ("bash", "git *"),
    ("bash", "rm *"),
    ("read_file", "*"),
    ("read_file", ".env"),
    ("edit_file", "*"),
    ("edit_file", "test_*"),
    ("write_file", "test_*"),
    ("write_file", "*"),
    ("list_dir", "*"),
    ("grep", "*"),
    ("web_fetch", "*.example.com"),
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The lesson's claim: dragging rows around never changes a Claude Code verdict.
    #[test]
    fn engine_verdicts_survive_any_reorder(rows in prop::collection::vec((0..ROW_POOL.len(), 0..3usize), 0..10), seed in any::<u64>()) {
        use permlab_core::{Action, Call, Engine, RuleTable};
        use permlab_core::claude_code::ClaudeCodeEngine;
        let actions = [Action::Allow, Action::Ask, Action::Deny];
        let table = RuleTable::new(rows.iter().map(|&(r, a)| (ROW_POOL[r].0, ROW_POOL[r].1, actions[a])));
        let mut moved = table.clone();
        moved.reverse();
        if !moved.is_empty() {
            let n = moved.len();
            moved.move_rule((seed as usize) % n, (seed as usize >> 8) % n);
        }
        let (a, b) = (ClaudeCodeEngine::new(&table), ClaudeCodeEngine::new(&moved));
        for (tool, input) in [
            ("bash", "python -m unittest -v test_x.py"), ("bash", "git push origin main"), ("bash", "git status"),
            ("bash", "rm -rf build"), ("read_file", ".env"), ("edit_file", "test_a.py"), ("write_file", "a.py"),
            ("list_dir", "."), ("grep", "TODO"), ("web_fetch", "https://a.example.com/x"),
        ] {
            let call = Call::new(tool, input);
            let (ea, eb) = (a.evaluate(&call), b.evaluate(&call));
            prop_assert_eq!(ea.decision, eb.decision, "{} {}", tool, input);
            // The same rules match, wherever they moved.
            let ids = |t: &RuleTable, rows: &[usize]| {
                let mut v: Vec<_> = rows.iter().map(|&r| t.rules()[r].id).collect();
                v.sort();
                v
            };
            prop_assert_eq!(ids(&table, &ea.matches), ids(&moved, &eb.matches));
        }
    }
}
