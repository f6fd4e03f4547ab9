//! Table-driven checks of the documented (and the few inferred) corners of Claude Code's
//! permission evaluation that the conformance file does not spell out
//! (`reference/claude-code.md` section numbers in the comments). Where CLI 2.1.332 was
//! recorded deciding otherwise (`fixtures/conformance/claude-code-recorded.json`), the
//! recorded answer is asserted and the comment says so.

use permlab_core::claude_code::{
    evaluate, Context, Decider, Hook, Mode, Outcome, Policy, Scope, SettingsFile, Surface, ToolCall,
};
use permlab_core::json::{parse, Value};

fn policy(settings: &str) -> Policy {
    Policy::merge(
        &[SettingsFile::from_json(settings, Scope::Project).unwrap()],
        true,
    )
}

fn call(tool: &str, input: &str) -> ToolCall {
    ToolCall::new(tool, parse(input).unwrap())
}

fn run(settings: &str, mode: Mode, c: &ToolCall) -> Outcome {
    evaluate(&policy(settings), mode, &Context::default(), c).outcome
}

/// `verdict!(settings, mode, tool, input => outcome)`
macro_rules! verdict {
    ($settings:expr, $mode:ident, $tool:expr, $input:expr => $want:ident) => {{
        let c = call($tool, $input);
        assert_eq!(
            run($settings, Mode::$mode, &c),
            Outcome::$want,
            "{} {} {} in {}",
            $tool,
            $input,
            $settings,
            stringify!($mode)
        );
    }};
}

fn bash(cmd: &str) -> String {
    Value::Object(vec![("command".into(), Value::from(cmd))]).to_json()
}

macro_rules! bash {
    ($settings:expr, $mode:ident, $cmd:expr => $want:ident) => {
        verdict!($settings, $mode, "Bash", &bash($cmd) => $want)
    };
}

#[test]
fn compound_commands_2_2() {
    let allow_echo = r#"{"permissions": {"allow": ["Bash(echo *)"]}}"#;
    bash!(allow_echo, Default, "echo $(rm -rf x)" => Ask); // §10.2 fail closed
    bash!(allow_echo, Default, "echo a && echo b" => Allow);
    let allow_npm = r#"{"permissions": {"allow": ["Bash(npm *)"]}}"#;
    bash!(allow_npm, Default, "npm test &&" => Ask); // dangling operator
    bash!(allow_npm, Default, "git status && npm test" => Allow); // read-only part needs no rule
    bash!(allow_npm, Default, "npm test | tee log.txt" => Ask); // tee writes, default mode
    let deny_rm = r#"{"permissions": {"deny": ["Bash(rm *)"]}}"#;
    bash!(deny_rm, Default, "(cd build && rm -f a.o)" => Deny);
    bash!(deny_rm, Default, "echo `rm x`" => Deny);
    bash!(deny_rm, Default, "while true; do rm x; done" => Deny);
    bash!(deny_rm, Default, "ls |& rm x" => Deny);
    bash!(deny_rm, Default, "ls\nrm x" => Deny);
    bash!(deny_rm, BypassPermissions, "ls & rm x" => Deny);
}

#[test]
fn what_rules_cannot_see_2_4() {
    let deny_curl = r#"{"permissions": {"deny": ["Bash(curl *)"]}}"#;
    // Recorded (CLI 2.1.332): the name is normalised before deny rules match; the docs say Ask.
    bash!(deny_curl, Default, "/usr/bin/curl https://x" => Deny);
    bash!(deny_curl, Default, "./curl https://x" => Deny);
    bash!(deny_curl, Default, "\\curl https://x" => Deny);
    bash!(deny_curl, Default, "sh -c 'curl https://x'" => Ask);
    bash!(deny_curl, Default, "eval 'curl https://x'" => Ask);
    // … but allow rules see the command as written.
    let allow_curl = r#"{"permissions": {"allow": ["Bash(curl *)"]}}"#;
    bash!(allow_curl, Default, "/usr/bin/curl https://x" => Ask);
    let deny_push = r#"{"permissions": {"deny": ["Bash(git push *)"]}}"#;
    bash!(deny_push, Default, "git 'push' origin main" => Deny); // recorded; docs: Ask
    bash!(deny_push, Default, "git -c push.default=current push" => Ask);
    bash!(deny_push, Default, "git -C . push" => Ask);
    let deny_rm = r#"{"permissions": {"deny": ["Bash(rm *)"]}}"#;
    bash!(deny_rm, Default, "env FOO=1 rm -rf x" => Deny); // recorded
    bash!(deny_rm, Default, "sudo -u root rm -rf x" => Deny); // recorded
    bash!(deny_rm, Default, "d=rm; $d -rf x" => Deny); // recorded (`c=curl; $c …`)
    let devbox = r#"{"permissions": {"allow": ["Bash(devbox run *)"]}}"#;
    bash!(devbox, Default, "devbox run rm -rf ." => Allow);
}

#[test]
fn wrappers_and_env_2_3() {
    let allow_grep = r#"{"permissions": {"allow": ["Bash(grep *)", "Bash(npm test)"]}}"#;
    bash!(allow_grep, Default, "xargs -n1 grep x" => Ask);
    bash!(allow_grep, Default, "timeout 30 npm test" => Allow);
    bash!(allow_grep, Default, "LANG=C NO_COLOR=1 npm test" => Allow);
    bash!(allow_grep, Default, "FOO=1 npm test" => Ask);
    bash!(allow_grep, DontAsk, "FOO=1 npm test" => Deny);
    bash!(allow_grep, Default, "command -v npm" => Ask);
    let find = r#"{"permissions": {"allow": ["Bash(find *)"]}}"#;
    bash!(find, Default, "find . -name x -delete" => Ask);
    bash!(find, Default, "find . -exec rm {} ;" => Ask);
}

#[test]
fn read_only_baseline_2_5() {
    let none = r#"{"permissions": {}}"#;
    bash!(none, Default, "ls *.ts" => Allow);
    bash!(none, Plan, "git log --oneline" => Allow);
    bash!(none, Default, "cat README.md | grep x | wc -l" => Allow);
    bash!(none, Default, "cd /tmp" => Ask); // cd outside working dirs
    bash!(none, Default, "PATH=/tmp ls" => Ask);
    bash!(none, Default, "git push" => Ask);
    bash!(none, DontAsk, "git push" => Deny);
    bash!(none, Auto, "npm install" => Classifier);
    let ask_ls = r#"{"permissions": {"ask": ["Bash(ls *)"]}}"#;
    bash!(ask_ls, Default, "ls" => Ask); // an ask rule overrides the read-only set
}

#[test]
fn redirects_2_6() {
    let none = r#"{"permissions": {}}"#;
    bash!(none, Default, "ls > out.txt" => Ask);
    bash!(none, AcceptEdits, "ls > out.txt" => Allow);
    bash!(none, AcceptEdits, "ls > /tmp/out.txt" => Ask);
    bash!(none, AcceptEdits, "ls > *.txt" => Ask);
    bash!(none, Default, "ls 2>&1" => Allow);
    let deny_env = r#"{"permissions": {"deny": ["Read(./.env)", "Edit(./docs/**)"]}}"#;
    bash!(deny_env, Default, "wc -l < .env" => Deny);
    bash!(deny_env, Default, "head -n 5 .env" => Deny);
    bash!(deny_env, Default, "echo x | tee docs/a.md" => Deny);
    bash!(deny_env, Default, "echo x >> .env" => Deny); // a Read deny also blocks writes
    let deny_ssh = r#"{"permissions": {"deny": ["Read(~/.ssh/**)", "Read(*.env)"]}}"#;
    bash!(deny_ssh, Default, "cat ~/.ssh/id_rsa" => Deny);
    bash!(deny_ssh, Default, "tail -n 3 *.env" => Deny); // a glob is matched literally
    let allow_edit = r#"{"permissions": {"allow": ["Edit(./logs/**)", "Bash(make)"]}}"#;
    bash!(allow_edit, Default, "make > logs/build.txt" => Allow);
}

#[test]
fn paths_3() {
    let s = r#"{"permissions": {"deny": ["Read(//etc/**)", "Read(src/**)"], "allow": ["Edit(src/**)"]}}"#;
    verdict!(s, Default, "Read", r#"{"file_path": "/etc/passwd"}"#=> Deny);
    verdict!(s, Default, "Read", r#"{"file_path": "/home/alice/proj/a/src/x.rs"}"#=> Deny); // deny: any depth
    verdict!(s, Default, "Edit", r#"{"file_path": "/home/alice/proj/src/x.rs"}"#=> Deny); // Read deny blocks Edit
    let a = r#"{"permissions": {"allow": ["Edit(src/**)"]}}"#;
    verdict!(a, Default, "Edit", r#"{"file_path": "/home/alice/proj/src/x.rs"}"#=> Allow);
    verdict!(a, Default, "Edit", r#"{"file_path": "/home/alice/proj/a/src/x.rs"}"#=> Ask); // allow: anchored
    verdict!(a, Plan, "Edit", r#"{"file_path": "/home/alice/proj/src/x.rs"}"#=> Ask); // plan never auto-approves edits
    verdict!(a, Default, "Read", r#"{"file_path": "/etc/hosts"}"#=> Ask);
    verdict!(a, DontAsk, "Read", r#"{"file_path": "/etc/hosts"}"#=> Deny);
    verdict!(a, Default, "Grep", r#"{"pattern": "x", "path": "/etc"}"#=> Ask);
    let w = r#"{"permissions": {"deny": ["Write"], "allow": ["Write(src/**)"]}}"#;
    verdict!(w, Default, "Write", r#"{"file_path": "/home/alice/proj/src/a"}"#=> Unavailable);
    verdict!(w, AcceptEdits, "Edit", r#"{"file_path": "/home/alice/proj/src/a"}"#=> Allow);
    let protected = r#"{"permissions": {}}"#;
    verdict!(protected, Auto, "Edit", r#"{"file_path": "/home/alice/proj/.git/config"}"#=> Classifier);
    verdict!(protected, DontAsk, "Edit", r#"{"file_path": "/home/alice/proj/.bashrc"}"#=> Deny);
    verdict!(protected, AcceptEdits, "Edit", r#"{"file_path": "/home/alice/proj/.claude/worktrees/a/b.rs"}"#=> Allow);
    verdict!(protected, Auto, "Edit", r#"{"file_path": "/home/alice/proj/src/a.rs"}"#=> Allow);
}

#[test]
fn other_tools_4() {
    let web = r#"{"permissions": {"allow": ["WebFetch(domain:*.example.com)"], "deny": ["WebFetch(domain:evil.*)"]}}"#;
    verdict!(web, Default, "WebFetch", r#"{"url": "https://a.b.example.com/x"}"#=> Allow);
    verdict!(web, Default, "WebFetch", r#"{"url": "https://example.com/x"}"#=> Ask);
    verdict!(web, Default, "WebFetch", r#"{"url": "https://EVIL.org./x"}"#=> Deny);
    let web_star = r#"{"permissions": {"deny": ["WebFetch(domain:*)"]}}"#;
    verdict!(web_star, Default, "WebFetch", r#"{"url": "https://x.org"}"#=> Deny); // refused, not removed
    let mcp = r#"{"permissions": {"deny": ["mcp__github"]}}"#;
    verdict!(mcp, Default, "mcp__github__get_issue", "{}" => Unavailable);
    verdict!(mcp, Default, "mcp__gitlab__get_issue", "{}" => Ask);
    let all = r#"{"permissions": {"deny": ["*"]}}"#;
    verdict!(all, BypassPermissions, "Read", r#"{"file_path": "/home/alice/proj/a"}"#=> Unavailable);
    verdict!(all, Default, "EndConversation", "{}" => Unavailable); // no other tool remains
    verdict!(r#"{"permissions": {"deny": ["EndConversation", "mcp__*"]}}"#, Default, "EndConversation", "{}" => Allow);
    let skill = r#"{"permissions": {"allow": ["Skill(anthropic *)"], "deny": ["Skill(pdf)"]}}"#;
    verdict!(skill, Default, "Skill", r#"{"skill": "anthropic-skills:pdf"}"#=> Deny); // deny catches qualified names
                                                                                      // Recorded (CLI 2.1.332): a skill whose SKILL.md has no `allowed-tools` needs no rule.
    verdict!(skill, Default, "Skill", r#"{"skill": "anthropic-skills:docx"}"#=> Allow);
    verdict!(skill, Default, "Skill", r#"{"skill": "anthropic", "args": "x"}"#=> Allow);
    let with_tools = Context {
        skill_allowed_tools: true,
        ..Context::default()
    };
    let docx = call("Skill", r#"{"skill": "anthropic-skills:docx"}"#);
    assert_eq!(
        evaluate(&policy(skill), Mode::Default, &with_tools, &docx).outcome,
        Outcome::Ask,
        "allow: own name only"
    );
    let ask_skill = r#"{"permissions": {"ask": ["Skill(commit)"]}}"#;
    let commit = call("Skill", r#"{"skill": "commit"}"#);
    assert_eq!(run(ask_skill, Mode::Default, &commit), Outcome::Allow); // recorded
    assert_eq!(
        evaluate(&policy(ask_skill), Mode::Default, &with_tools, &commit).outcome,
        Outcome::Ask
    );
    let agent = r#"{"permissions": {"ask": ["Agent(*)"]}}"#;
    verdict!(agent, Default, "Task", r#"{"subagent_type": "Explore"}"#=> Ask);
    let ps = r#"{"permissions": {"allow": ["PowerShell(Get-ChildItem *)"], "deny": ["PowerShell(Remove-Item *)"]}}"#;
    verdict!(ps, Default, "PowerShell", r#"{"command": "gci; ri x"}"#=> Deny);
    verdict!(ps, Default, "PowerShell", r#"{"command": "GCI C:\\x | gci"}"#=> Allow);
    let mon = r#"{"permissions": {"allow": ["Monitor(tail -f *)"]}}"#;
    verdict!(mon, Default, "Monitor", r#"{"command": "tail -f log"}"#=> Allow);
    verdict!(mon, Auto, "Monitor", r#"{"command": "tail -f log"}"#=> Classifier);
    // dropped in auto
}

#[test]
fn critical_paths_7() {
    let allow_rm = r#"{"permissions": {"allow": ["Bash(rm *)"]}}"#;
    for cmd in [
        "rm -rf /",
        "rm -rf ~",
        "rm -rf $HOME",
        "rm -rf \"$DIR\"/*",
        "rm -rf /usr",
        "rm -rf ..",
        "rm -rf .",
        "(rm -rf /)",
        "bash -c 'rm -rf /'",
        "rmdir /home",
    ] {
        bash!(allow_rm, Default, cmd => Ask);
        bash!(allow_rm, BypassPermissions, cmd => Ask);
        bash!(allow_rm, DontAsk, cmd => Deny);
    }
    bash!(allow_rm, Default, "rm -rf build" => Allow);
    let deny_rm = r#"{"permissions": {"deny": ["Bash(rm *)"]}}"#;
    bash!(deny_rm, BypassPermissions, "rm -rf /" => Deny); // a matching deny still denies
    let c = call("Bash", &bash("rm -rf /"));
    let p = policy("{}");
    let ctx = Context {
        interactive: false,
        ..Context::default()
    };
    assert_eq!(evaluate(&p, Mode::Auto, &ctx, &c).outcome, Outcome::Deny);
    assert_eq!(
        evaluate(&p, Mode::Auto, &Context::default(), &c).outcome,
        Outcome::Ask
    );
}

#[test]
fn auto_mode_drops_broad_allows_5() {
    for rule in ["Bash", "Bash(python*)", "Bash(npm run *)", "Bash(node *)"] {
        let s = format!(r#"{{"permissions": {{"allow": ["{rule}"]}}}}"#);
        bash!(&s, Auto, "python x.py" => Classifier);
        let _ = rule;
    }
    bash!(r#"{"permissions": {"allow": ["Bash(python*)"]}}"#, Default, "python x.py" => Allow);
}

#[test]
fn sandbox_8() {
    // Recorded (CLI 2.1.332): without `autoAllowBashIfSandboxed: true` written, nothing is
    // auto-allowed (the docs say it defaults to true).
    let unset = r#"{"permissions": {}, "sandbox": {"enabled": true}}"#;
    bash!(unset, Default, "npm install" => Ask);
    let s = r#"{"permissions": {}, "sandbox": {"enabled": true, "autoAllowBashIfSandboxed": true, "excludedCommands": ["docker *"]}}"#;
    bash!(s, Default, "npm install" => Allow);
    bash!(s, Plan, "npm install" => Ask);
    bash!(s, Default, "docker run x" => Ask);
    bash!(s, Default, "ls && docker run x" => Ask);
    bash!(s, Default, "ls && docker ps" => Allow); // excluded, but read-only (recorded)
    bash!(s, DontAsk, "npm install" => Allow); // inferred
    let c = call(
        "Bash",
        r#"{"command": "npm test", "dangerouslyDisableSandbox": true}"#,
    );
    assert_eq!(run(s, Mode::Default, &c), Outcome::Ask);
    let ctx = Context {
        sandboxable: false,
        ..Context::default()
    };
    assert_eq!(
        evaluate(
            &policy(s),
            Mode::Default,
            &ctx,
            &call("Bash", &bash("npm test"))
        )
        .outcome,
        Outcome::Ask
    );
}

#[test]
fn scopes_and_trust_9() {
    let project = SettingsFile::from_json(
        r#"{"permissions": {"allow": ["Bash(npm test)"], "ask": ["Bash(git push *)"]}}"#,
        Scope::Project,
    )
    .unwrap();
    let local = SettingsFile::from_json(
        r#"{"permissions": {"allow": ["Bash(git push *)"]}}"#,
        Scope::Local,
    )
    .unwrap();
    let untrusted = Policy::merge(&[project.clone(), local.clone()], false);
    let trusted = Policy::merge(&[project, local], true);
    let ctx = Context::default();
    let npm = call("Bash", &bash("npm test"));
    assert_eq!(
        evaluate(&untrusted, Mode::Default, &ctx, &npm).outcome,
        Outcome::Ask
    );
    assert_eq!(
        evaluate(&trusted, Mode::Default, &ctx, &npm).outcome,
        Outcome::Allow
    );
    // A local allow does not beat a project ask.
    let push = call("Bash", &bash("git push origin"));
    assert_eq!(
        evaluate(&trusted, Mode::Default, &ctx, &push).outcome,
        Outcome::Ask
    );
    assert_eq!(
        evaluate(&untrusted, Mode::Default, &ctx, &push).outcome,
        Outcome::Ask
    );
    // Scalars: the highest scope wins.
    let user = SettingsFile::from_json(r#"{"permissions": {"defaultMode": "plan"}}"#, Scope::User)
        .unwrap();
    let cli = SettingsFile::from_json(
        r#"{"permissions": {"defaultMode": "acceptEdits"}}"#,
        Scope::Cli,
    )
    .unwrap();
    assert_eq!(
        Policy::merge(&[user, cli], true).default_mode,
        Some(Mode::AcceptEdits)
    );
}

#[test]
fn hooks_and_sdk_5_6() {
    let p = policy(r#"{"permissions": {}}"#);
    let sdk = Context {
        surface: Surface::Sdk,
        ..Context::default()
    };
    let v = evaluate(&p, Mode::Default, &sdk, &call("Bash", &bash("npm test")));
    assert_eq!(v.outcome, Outcome::Ask);
    assert!(matches!(v.decider, Decider::Callback { .. }));
    let v = evaluate(
        &p,
        Mode::Plan,
        &Context {
            auto_mode_available: Some(true),
            ..Context::default()
        },
        &call("Edit", r#"{"file_path": "/home/alice/proj/a"}"#),
    );
    // Recorded (CLI 2.1.332): plan-mode edits ask even with auto mode available; Bash goes
    // to the classifier.
    assert_eq!(v.outcome, Outcome::Ask);
    let v = evaluate(
        &p,
        Mode::Plan,
        &Context {
            auto_mode_available: Some(true),
            ..Context::default()
        },
        &call("Bash", &bash("npm test")),
    );
    assert_eq!(v.outcome, Outcome::Classifier);
    let ctx = Context {
        hook: Some(Hook::Allow),
        ..Context::default()
    };
    let v = evaluate(&p, Mode::DontAsk, &ctx, &call("Bash", &bash("npm test")));
    assert_eq!((v.outcome, v.decider), (Outcome::Allow, Decider::HookAllow));
    let v = evaluate(&p, Mode::Default, &ctx, &call("Bash", &bash("rm -rf /")));
    assert_eq!(
        v.outcome,
        Outcome::Ask,
        "a hook allow does not override critical-path rm"
    );
    let v = evaluate(&p, Mode::Default, &ctx, &call("AskUserQuestion", "{}"));
    assert_eq!(v.outcome, Outcome::Ask);
    let mcp = policy(r#"{"permissions": {"allow": ["mcp__slack"]}}"#);
    let ui = Context {
        requires_user_interaction: true,
        ..Context::default()
    };
    for (mode, want) in [
        (Mode::Default, Outcome::Ask),
        (Mode::BypassPermissions, Outcome::Ask),
        (Mode::DontAsk, Outcome::Deny),
    ] {
        assert_eq!(
            evaluate(&mcp, mode, &ui, &call("mcp__slack__post", "{}")).outcome,
            want
        );
    }
    assert_eq!(
        evaluate(
            &mcp,
            Mode::Default,
            &Context::default(),
            &call("mcp__slack__post", "{}")
        )
        .outcome,
        Outcome::Allow
    );
}

#[test]
fn warnings_are_reported_and_the_rest_applies() {
    let p = policy(
        r#"{"permissions": {"allow": ["Bash(ls", "mcp__*", "Bash(npm test)", 3, "Stop Task"], "deny": ["Bash(command:rm *)"], "defaultMode": "yolo"}}"#,
    );
    assert_eq!(p.rules.len(), 1);
    let texts: Vec<String> = p.warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(texts.len(), 6, "{texts:#?}");
    assert!(texts
        .iter()
        .any(|t| t.contains("permissions.allow[3]") && t.contains("a rule is a string")));
    assert!(texts.iter().any(|t| t.contains("unknown mode \"yolo\"")));
    assert!(texts
        .iter()
        .any(|t| t.contains("`Bash(command:rm *)`") && t.contains("primary field")));
}

#[test]
fn inferred_verdicts_are_flagged() {
    let cases = [
        (
            r#"{"permissions": {"deny": ["Skill(deploy *)"]}}"#,
            call("Skill", r#"{"skill": "deploy"}"#),
            true,
        ),
        (
            r#"{"permissions": {"deny": ["Skill(deploy *)"]}}"#,
            call("Skill", r#"{"skill": "deploy", "args": "prod"}"#),
            false,
        ),
        ("{}", call("Bash", &bash("git status")), true), // inferred git read-only forms (§10.1)
        ("{}", call("Bash", &bash("ls -la")), false),
        ("{}", call("Bash", &bash("ls > out.txt")), true), // redirects in default mode (§10.4)
        ("{}", call("Bash", &bash("npm install")), false),
        (
            "{}",
            call("Bash", &bash("git status && npm install")),
            false,
        ), // asks: not resting on git forms
        (
            r#"{"permissions": {"allow": ["Bash(npm test)"]}}"#,
            call("Bash", &bash("ls && npm test")),
            true,
        ), // §2.2
        (
            r#"{"permissions": {"allow": ["Bash(npm test)"]}}"#,
            call("Bash", &bash("npm test")),
            false,
        ),
        (
            r#"{"permissions": {"allow": ["Bash(echo *)"]}}"#,
            call("Bash", &bash("echo $(rm x)")),
            true,
        ), // §10.2
        (
            r#"{"permissions": {"allow": ["Bash(npm test)"]}}"#,
            call("Bash", &bash("LC_TIME=C npm test")),
            true,
        ),
        (
            r#"{"permissions": {"allow": ["Bash(npm test)"]}}"#,
            call("Bash", &bash("TZ=UTC npm test")),
            false,
        ), // recorded
        ("{}", call("Bash", &bash("tac a.txt")), true), // read-only by kinship, not recorded
        ("{}", call("Bash", &bash("whoami")), false),   // recorded
    ];
    for (settings, c, inferred) in cases {
        let v = evaluate(&policy(settings), Mode::Default, &Context::default(), &c);
        assert_eq!(v.inferred, inferred, "{settings} {}", c.input.to_json());
    }
}
