//! The reference's worked examples (`opencode-lifecycle.md` §8) and seed 002's example, on
//! both runtimes.

use super::exec::{Run, RunEnd};
use super::parse::{commands, TokenKind};
use super::request::{Layer, Reply};
use super::*;
use crate::table::Action;

fn texts(cmd: &str) -> Vec<String> {
    commands(cmd)
        .iter()
        .map(|c| c.pattern_text().to_string())
        .collect()
}

fn classic(setup: &Setup, call: &BashCall, answers: &[Reply]) -> Lifecycle {
    lifecycle(Runtime::Classic, setup, call, answers, &Run::exited("", 0))
}

fn request(l: &Lifecycle, kind: StageKind) -> (Vec<String>, Vec<String>) {
    let p = l.permission(kind).expect("the stage made a request");
    (p.request.patterns.clone(), p.request.always.clone())
}

fn build(config: &str) -> Setup {
    Setup::build_agent(config).expect("the config is valid")
}

#[test]
fn parse_reference_example() {
    let cmd = "cat /etc/hostname | grep -c x > /tmp/o.txt; (cd /var && ls) && echo \"$(whoami)\"";
    let mut setup = build(r#"{"permission": {"bash": {"*": "ask"}}}"#);
    setup.place.existing_dirs.push("/var".into());
    let l = classic(&setup, &BashCall::new(cmd), &[]);
    assert_eq!(
        request(&l, StageKind::ExternalDirectory).0,
        ["/etc/*", "/var/*"]
    );
    // Waiting at the directory prompt; the bash request as parsed:
    let Some(Detail::Parse(p)) = &l.stage(StageKind::Parse).detail else {
        panic!("parse stage");
    };
    assert_eq!(
        p.patterns,
        [
            "cat /etc/hostname",
            "grep -c x",
            "ls",
            "echo \"$(whoami)\"",
            "whoami"
        ]
    );
    assert_eq!(p.always, ["cat *", "grep *", "ls *", "echo *", "whoami *"]);
    assert_eq!(l.end, End::Waiting);
    assert_eq!(l.stopped_at(), Some(StageKind::ExternalDirectory));
    assert_eq!(l.stage(StageKind::Command).status, Status::NotReached);
    assert_eq!(l.stage(StageKind::Confirmation).status, Status::Waiting);
}

#[test]
fn parse_nodes_and_tokens() {
    assert_eq!(texts("ls -la > /etc/passwd"), ["ls -la > /etc/passwd"]);
    assert_eq!(texts("a | b > f"), ["a", "b"]);
    assert_eq!(texts("a > f | b"), ["a > f", "b"]);
    assert_eq!(texts("x > f && y"), ["x > f", "y"]);
    assert_eq!(texts("echo a > f b"), ["echo a > f b"]);
    assert_eq!(texts("FOO=1 npm test"), ["FOO=1 npm test"]);
    assert_eq!(texts("FOO=1"), Vec::<String>::new());
    assert_eq!(texts("export A=1 && unset B; local c; rm x"), ["rm x"]);
    assert_eq!(texts("[ -f x ] && rm x"), ["rm x"]);
    assert_eq!(
        texts("[[ $(id -u) == 0 ]] || sudo ls"),
        ["id -u", "sudo ls"]
    );
    assert_eq!(texts("for f in *.o; do rm $f; done"), ["rm $f"]);
    assert_eq!(texts("for f in $(ls); do echo $f; done"), ["ls", "echo $f"]);
    assert_eq!(
        texts("if test -d x; then rm -r x; elif true; then :; else echo no; fi"),
        ["test -d x", "rm -r x", "true", ":", "echo no"]
    );
    assert_eq!(
        texts("while read l; do echo \"$l\"; done < in.txt"),
        ["read l", "echo \"$l\""]
    );
    assert_eq!(
        texts("case $x in a|b) echo ab;; *) rm -rf /;; esac"),
        ["echo ab", "rm -rf /"]
    );
    assert_eq!(texts("f() { rm -rf /; }; f"), ["rm -rf /", "f"]);
    assert_eq!(texts("function g { ls; }"), ["ls"]);
    assert_eq!(texts("{ a; b; } > log"), ["a", "b"]);
    assert_eq!(
        texts("echo `date` $(uname -a)"),
        ["echo `date` $(uname -a)", "date", "uname -a"]
    );
    assert_eq!(
        texts("diff <(ls a) <(ls b)"),
        ["diff <(ls a) <(ls b)", "ls a", "ls b"]
    );
    assert_eq!(texts("cat <<< \"hi\" | wc"), ["cat <<< \"hi\"", "wc"]);
    assert_eq!(
        texts("cat <<EOF > out\nhello $(x)\nEOF\nls"),
        ["cat <<EOF > out\nhello $(x)\nEOF", "x", "ls"]
    );
    assert_eq!(texts("cat <<'EOF'\n$(x)\nEOF"), ["cat <<'EOF'\n$(x)\nEOF"]);
    assert_eq!(
        texts("cat <<-EOF\n\t`y`\n\tEOF\necho"),
        ["cat <<-EOF\n\t`y`\n\tEOF", "y", "echo"]
    );
    assert_eq!(texts("ls # rm -rf /\necho ok"), ["ls", "echo ok"]);
    assert_eq!(
        texts("! grep -q x f && echo missing"),
        ["grep -q x f", "echo missing"]
    );
    assert_eq!(texts("sleep 3; echo late"), ["sleep 3", "echo late"]);
    assert_eq!(texts("a &\nb"), ["a", "b"]);
    assert_eq!(texts("a \\\n  b"), ["a \\\n  b"]);
    assert_eq!(texts("(( i++ )) && ls"), ["ls"]);
    assert_eq!(
        texts("echo \"a $(echo \"b $(whoami)\")\""),
        [
            "echo \"a $(echo \"b $(whoami)\")\"",
            "echo \"b $(whoami)\"",
            "whoami",
        ]
    );
    // Quotes are kept: the pattern is the text as written.
    assert_eq!(texts("git 'push' origin"), ["git 'push' origin"]);

    let c = &commands("FOO=1 rm -rf \"/opt/a b\" '/x' a\"b\" $HOME/x $V ${W} 5 -9 $(pwd) > f")[0];
    let kinds: Vec<(&str, TokenKind)> =
        c.tokens.iter().map(|t| (t.text.as_str(), t.kind)).collect();
    assert_eq!(
        kinds,
        [
            ("rm", TokenKind::CommandName),
            ("-rf", TokenKind::Word),
            ("\"/opt/a b\"", TokenKind::String),
            ("'/x'", TokenKind::RawString),
            ("a\"b\"", TokenKind::Concatenation),
            ("$HOME/x", TokenKind::Concatenation),
        ]
    );
    let c = &commands("find . -exec rm {} \\; {a,b} a[1] x")[0];
    let kinds: Vec<(&str, TokenKind)> =
        c.tokens.iter().map(|t| (t.text.as_str(), t.kind)).collect();
    assert_eq!(
        kinds,
        [
            ("find", TokenKind::CommandName),
            (".", TokenKind::Word),
            ("-exec", TokenKind::Word),
            ("rm", TokenKind::Word),
            ("{}", TokenKind::Word),
            ("\\;", TokenKind::Word),
            ("{a,b}", TokenKind::Concatenation),
            ("a[1]", TokenKind::Concatenation),
            ("x", TokenKind::Word),
        ]
    );
}

#[test]
fn parse_survives_hostile_input() {
    let deep = "$(".repeat(10_000) + &")".repeat(10_000);
    let _ = commands(&deep);
    let deep = "(".repeat(10_000);
    let _ = commands(&deep);
    let deep = "\"$(".repeat(5_000);
    let _ = commands(&deep);
    for unit in [
        "$\"",
        "! ",
        "${",
        "\"${",
        "$($\"",
        "`$(",
        "{ ",
        "if ",
        "function f ",
        "f() ",
    ] {
        let _ = commands(&unit.repeat(50_000));
    }
    for s in [
        "",
        "'",
        "\"",
        "`",
        "$(",
        "${",
        "<<",
        "<<EOF",
        "|",
        "&&",
        ";;",
        "))",
        "}",
        "fi",
        "done",
        "case",
        "case x in",
        "for",
        "if",
        "function",
        "\\",
        "é\\",
        "日本\\é",
        "a\\",
        "<(",
        "2>",
        ">&-",
        "[[",
        "[ x",
        "{",
        "!",
        "x=",
        "x[1]=2",
        "$'\\'",
        "echo `a\\`b`",
    ] {
        let _ = commands(s);
        let _ = lifecycle(
            Runtime::Classic,
            &Setup::new(Vec::new()),
            &BashCall::new(s),
            &[Reply::Always, Reply::Always],
            &Run::exited(s, 0),
        );
    }
    for s in [
        "`for x in `",
        "`case a in `",
        "`[[ `",
        "`[ `",
        "`export `",
        "`case a in (`",
        "`function `",
    ] {
        let _ = commands(s);
        let _ = commands(&s.repeat(1000));
    }
    // The recording (opencode-bash-real.json, reference/opencode-bash.md "syntax errors"): an
    // unclosed `'` is an ERROR node from the quote on, the command ends before it.
    assert_eq!(texts("echo 'unclosed"), ["echo"]);
}

/// §8: `rm -rf /tmp/cache`, default build agent, no permission config.
#[test]
fn rm_tmp_cache_default_build_agent() {
    let mut setup = build("");
    setup.place.existing_dirs.push("/tmp/cache".into());
    let call = BashCall::new("rm -rf /tmp/cache");
    let waiting = classic(&setup, &call, &[]);
    assert_eq!(
        request(&waiting, StageKind::ExternalDirectory),
        (
            vec!["/tmp/cache/*".to_string()],
            vec!["/tmp/cache/*".to_string()]
        )
    );
    assert_eq!(waiting.end, End::Waiting);
    assert_eq!(waiting.model_receives, None);

    let once = classic(&setup, &call, &[Reply::Once]);
    assert_eq!(
        request(&once, StageKind::Command),
        (
            vec!["rm -rf /tmp/cache".to_string()],
            vec!["rm *".to_string()]
        )
    );
    let cmd = once.permission(StageKind::Command).unwrap();
    assert_eq!(cmd.decision, request::Decision::Allow);
    assert_eq!(cmd.checks[0].rule, Rule::new("*", "*", Action::Allow));
    assert_eq!(
        (cmd.checks[0].layer, cmd.checks[0].position),
        (Layer::Agent, Some(0))
    );
    assert_eq!(once.end, End::Completed);
    assert_eq!(once.model_receives.as_deref(), Some("(no output)"));
    let Some(Detail::Execution(e)) = &once.stage(StageKind::Execution).detail else {
        panic!("execution");
    };
    assert_eq!(
        (e.timeout_ms, e.timer_ms, e.exit),
        (120_000, 120_100, Some(0))
    );
    let Some(Detail::Output(o)) = &once.stage(StageKind::Output).detail else {
        panic!("output");
    };
    assert!(!o.truncated);

    let reject = classic(&setup, &call, &[Reply::Reject(None)]);
    assert_eq!(reject.end, End::Rejected);
    assert_eq!(reject.model_receives.as_deref(), Some(request::REJECTED));
    assert!(!reject.loop_continues);
    assert_eq!(reject.stage(StageKind::Command).status, Status::NotReached);

    // Without the directory: its parent.
    setup.place.existing_dirs.retain(|d| d != "/tmp/cache");
    assert_eq!(
        request(&classic(&setup, &call, &[]), StageKind::ExternalDirectory).0,
        ["/tmp/*"]
    );
}

#[test]
fn allow_always_twice_then_no_prompt() {
    let mut setup = build(r#"{"permission": {"bash": {"*": "ask"}}}"#);
    setup.place.existing_dirs.push("/tmp/cache".into());
    let first = classic(
        &setup,
        &BashCall::new("rm -rf /tmp/cache/old"),
        &[Reply::Always, Reply::Always],
    );
    assert_eq!(first.end, End::Completed);
    assert_eq!(
        request(&first, StageKind::ExternalDirectory).0,
        ["/tmp/cache/*"]
    );
    assert_eq!(
        request(&first, StageKind::Command),
        (
            vec!["rm -rf /tmp/cache/old".to_string()],
            vec!["rm *".to_string()]
        )
    );
    assert_eq!(
        first.approvals.rules(),
        [
            Rule::new("external_directory", "/tmp/cache/*", Action::Allow),
            Rule::new("bash", "rm *", Action::Allow),
        ]
    );
    let Some(Detail::Confirmation(prompts)) = &first.stage(StageKind::Confirmation).detail else {
        panic!("confirmation");
    };
    assert_eq!(prompts.len(), 2);
    setup.approvals = first.approvals.clone();
    for later in ["rm -rf /tmp/cache/older", "rm -rf /tmp/cache"] {
        let l = classic(&setup, &BashCall::new(later), &[]);
        assert_eq!(l.end, End::Completed, "{later}");
        assert_eq!(l.stage(StageKind::Confirmation).status, Status::Skipped);
    }
}

#[test]
fn denies() {
    // The directory prompt comes first; after "once", the deny with the rule list.
    let setup = build(r#"{"permission": {"bash": {"rm *": "deny"}}}"#);
    let call = BashCall::new("rm -rf /tmp/cache");
    let l = classic(&setup, &call, &[]);
    assert_eq!(request(&l, StageKind::ExternalDirectory).0, ["/tmp/*"]);
    let l = classic(&setup, &call, &[Reply::Once]);
    assert_eq!(l.end, End::Denied);
    assert_eq!(l.stopped_at(), Some(StageKind::Command));
    assert_eq!(
        l.model_receives.as_deref(),
        Some(
            "The user has specified a rule which prevents you from using this specific tool call. \
             Here are some of the relevant rules [{\"permission\":\"*\",\"pattern\":\"*\",\"action\":\"allow\"},\
             {\"permission\":\"bash\",\"pattern\":\"rm *\",\"action\":\"deny\"}]"
        )
    );
    assert!(l.loop_continues);
    assert_eq!(l.stage(StageKind::Confirmation).status, Status::Pass);

    // Denied at the directory step: no bash prompt.
    let setup = build(r#"{"permission": {"external_directory": {"/etc/*": "deny"}}}"#);
    let l = classic(&setup, &BashCall::new("cat /etc/hostname"), &[]);
    assert_eq!(l.end, End::Denied);
    assert_eq!(l.stopped_at(), Some(StageKind::ExternalDirectory));
    assert_eq!(l.stage(StageKind::Command).status, Status::NotReached);

    // Denied at once, no prompt, though `echo hi` needed asking.
    let setup = build(r#"{"permission": {"bash": {"*": "ask", "git push *": "deny"}}}"#);
    let l = classic(
        &setup,
        &BashCall::new("echo hi && git push origin main"),
        &[],
    );
    assert_eq!(l.end, End::Denied);
    assert_eq!(l.stage(StageKind::Confirmation).status, Status::NotReached);
    let p = l.permission(StageKind::Command).unwrap();
    assert_eq!(p.checks.len(), 2);
    assert_eq!(p.checks[0].rule.action, Action::Ask);
}

#[test]
fn approval_beats_configured_deny_in_classic_only() {
    let mut setup = build(r#"{"permission": {"bash": {"*": "ask", "git push --force*": "deny"}}}"#);
    let force = BashCall::new("git push --force origin");
    assert_eq!(classic(&setup, &force, &[]).end, End::Denied);
    let push = classic(&setup, &BashCall::new("git push origin"), &[Reply::Always]);
    assert_eq!(
        push.approvals.rules(),
        [Rule::new("bash", "git push *", Action::Allow)]
    );
    setup.approvals = push.approvals.clone();
    let l = classic(&setup, &force, &[]);
    assert_eq!(l.end, End::Completed);
    assert_eq!(
        l.permission(StageKind::Command).unwrap().checks[0].layer,
        Layer::Approved
    );

    // Next: "always" saved the whole command, and the configured deny wins anyway.
    let mut setup2 =
        build(r#"{"permission": {"bash": {"*": "ask", "git push --force*": "deny"}}}"#);
    let push = lifecycle(
        Runtime::Next,
        &setup2,
        &BashCall::new("git push origin"),
        &[Reply::Always],
        &Run::exited("", 0),
    );
    assert_eq!(
        push.approvals.rules(),
        [Rule::new("bash", "git push origin", Action::Allow)]
    );
    setup2.approvals = setup.approvals.clone();
    let n = lifecycle(Runtime::Next, &setup2, &force, &[], &Run::exited("", 0));
    assert_eq!(n.end, End::Denied);
    assert!(n.permission(StageKind::Command).unwrap().checks[0].configured_alone);
    assert_eq!(n.model_receives, None);
}

#[test]
fn working_directory_and_cd() {
    let setup = build(r#"{"permission": {"bash": {"*": "ask"}}}"#);
    let mut ls = BashCall::new("ls");
    ls.workdir = Some("/tmp".into());
    let l = classic(&setup, &ls, &[]);
    assert_eq!(request(&l, StageKind::ExternalDirectory).0, ["/tmp/*"]);
    let cd = classic(&setup, &BashCall::new("cd /tmp"), &[Reply::Once]);
    assert_eq!(request(&cd, StageKind::ExternalDirectory).0, ["/tmp/*"]);
    assert_eq!(cd.stage(StageKind::Command).status, Status::Skipped);
    assert_eq!(cd.end, End::Completed);
    // Pre-approved temp dir.
    let t = classic(&build(""), &BashCall::new("touch /tmp/opencode/f.txt"), &[]);
    assert_eq!(t.end, End::Completed);
    assert_eq!(t.stage(StageKind::Confirmation).status, Status::Skipped);
    let p = t.permission(StageKind::ExternalDirectory).unwrap();
    assert_eq!(p.request.patterns, ["/tmp/opencode/*"]);
    assert_eq!(
        p.checks[0].rule,
        Rule::new("external_directory", "/tmp/opencode/*", Action::Allow)
    );
    // Not checked: sudo's arguments.
    let s = classic(&build(""), &BashCall::new("sudo rm -rf /"), &[]);
    assert_eq!(
        s.stage(StageKind::ExternalDirectory).status,
        Status::Skipped
    );
    assert_eq!(
        request(&s, StageKind::Command),
        (
            vec!["sudo rm -rf /".to_string()],
            vec!["sudo *".to_string()]
        )
    );
    // Next: only an outside workdir asks; outside path arguments are warnings.
    let n = lifecycle(
        Runtime::Next,
        &setup,
        &BashCall::new("cat /etc/hostname"),
        &[],
        &Run::exited("", 0),
    );
    assert_eq!(
        n.stage(StageKind::ExternalDirectory).status,
        Status::Skipped
    );
    let Some(Detail::Parse(p)) = &n.stage(StageKind::Parse).detail else {
        panic!("parse");
    };
    assert_eq!(
        (p.patterns.clone(), p.advisory_dirs.clone()),
        (
            vec!["cat /etc/hostname".to_string()],
            vec!["/etc".to_string()]
        )
    );
    let n = lifecycle(Runtime::Next, &setup, &ls, &[], &Run::exited("", 0));
    assert_eq!(request(&n, StageKind::ExternalDirectory).0, ["/tmp/*"]);
}

#[test]
fn arguments_and_execution() {
    let setup = build("");
    let mut call = BashCall::new("ls");
    call.timeout = Some(-5);
    let l = classic(&setup, &call, &[]);
    assert_eq!(l.end, End::ArgumentError);
    assert_eq!(
        l.model_receives.as_deref(),
        Some("The bash tool was called with invalid arguments: SchemaError(Expected a value greater than 0, got -5\n  at [\"timeout\"]).\nPlease rewrite the input so it satisfies the expected schema.")
    );
    // A timeout: `(no output)` plus the note; exit null.
    call.command = "sleep 3; echo late".into();
    call.timeout = Some(1000);
    let run = Run {
        output: String::new(),
        end: RunEnd::TimedOut,
    };
    let l = lifecycle(Runtime::Classic, &setup, &call, &[], &run);
    assert_eq!(
        l.model_receives.as_deref(),
        Some("(no output)\n\n<shell_metadata>\nshell tool terminated command after exceeding timeout 1000 ms. If this command is expected to take longer and is not waiting for interactive input, retry with a larger timeout value in milliseconds.\n</shell_metadata>")
    );
    let Some(Detail::Execution(e)) = &l.stage(StageKind::Execution).detail else {
        panic!("execution");
    };
    assert_eq!(
        (e.timer_ms, e.force_kill_after_ms, e.exit),
        (1100, 3000, None)
    );
    let aborted = Run {
        output: "x\n".into(),
        end: RunEnd::Aborted,
    };
    let l = lifecycle(Runtime::Classic, &setup, &call, &[], &aborted);
    assert!(l
        .model_receives
        .unwrap()
        .ends_with("\n\n<shell_metadata>\nUser aborted the command\n</shell_metadata>"));
    // The exit code is never shown to the classic model; the next runtime tells it.
    let out = Run::exited("out\nerr\n", 3);
    let c = lifecycle(
        Runtime::Classic,
        &setup,
        &BashCall::new("echo out; echo err >&2; exit 3"),
        &[],
        &out,
    );
    assert_eq!(c.model_receives.as_deref(), Some("out\nerr\n"));
    let n = lifecycle(
        Runtime::Next,
        &setup,
        &BashCall::new("echo out; echo err >&2; exit 3"),
        &[],
        &out,
    );
    let Some(Detail::Output(o)) = &n.stage(StageKind::Output).detail else {
        panic!("output");
    };
    assert_eq!(o.exit_note.as_deref(), Some("Command exited with code 3."));
    // Environment default (classic only) and the next runtime's maximum.
    let mut env = setup.clone();
    env.env_default_timeout = Some("5000".into());
    let l = classic(&env, &BashCall::new("ls"), &[]);
    let Some(Detail::Arguments(a)) = &l.stage(StageKind::Arguments).detail else {
        panic!("arguments");
    };
    assert_eq!(
        (a.timeout_ms, a.timeout_source, a.max_timeout_ms),
        (5000, exec::TimeoutSource::Environment, None)
    );
    let mut long = BashCall::new("ls");
    long.timeout = Some(700_000);
    let n = lifecycle(Runtime::Next, &setup, &long, &[], &Run::exited("", 0));
    let Some(Detail::Arguments(a)) = &n.stage(StageKind::Arguments).detail else {
        panic!("arguments");
    };
    assert_eq!((a.max_timeout_ms, a.over_max), (Some(600_000), true));
}

#[test]
fn tool_lookup() {
    // `bash: deny` hides the tool: the call goes to `invalid`.
    let setup = build(r#"{"permission": {"bash": "deny"}}"#);
    let l = classic(&setup, &BashCall::new("ls"), &[]);
    assert_eq!(l.end, End::Invalid);
    assert!(l.model_receives.unwrap().starts_with(
        "The arguments provided to the tool are invalid: Model tried to call unavailable tool 'bash'. Available tools: edit, glob, "
    ));
    // A custom file replaces the built-in in classic: its own code runs.
    let mut custom = build("");
    custom.tools.push(registry::ToolDef::new(
        "bash",
        registry::Source::CustomFile,
        ".opencode/tool/bash.js",
    ));
    let l = classic(&custom, &BashCall::new("ls"), &[]);
    assert_eq!(l.end, End::CustomTool);
    let Some(Detail::Lookup(k)) = &l.stage(StageKind::ToolLookup).detail else {
        panic!("lookup");
    };
    assert_eq!(k.others.len(), 1);
    // Wrong case repaired.
    let mut call = BashCall::new("ls");
    call.tool = "Bash".into();
    assert_eq!(classic(&build(""), &call, &[]).end, End::Completed);
}

/// Seed 002's `rm -rf /tmp/cache`, end to end on both runtimes.
#[test]
fn seed_002_end_to_end() {
    let s = seed_002();
    // Classic.
    let waiting = lifecycle(Runtime::Classic, &s.setup, &s.call, &[], &s.run);
    assert_eq!(waiting.end, End::Waiting);
    let dir = waiting.permission(StageKind::ExternalDirectory).unwrap();
    assert_eq!(dir.request.patterns, ["/tmp/cache/*"]);
    assert_eq!(dir.checks[0].rule, Rule::new("*", "*", Action::Ask));
    let once = lifecycle(Runtime::Classic, &s.setup, &s.call, &[Reply::Once], &s.run);
    assert_eq!(once.end, End::Completed);
    let cmd = once.permission(StageKind::Command).unwrap();
    assert_eq!(cmd.request.always, ["rm *"]);
    assert_eq!(
        cmd.checks[0].rule,
        Rule::new("bash", "rm -rf *", Action::Allow)
    );
    assert_eq!(
        (cmd.checks[0].layer, cmd.checks[0].position),
        (Layer::Approved, Some(1))
    );
    assert_eq!(once.model_receives.as_deref(), Some("(no output)"));
    let Some(Detail::Arguments(a)) = &once.stage(StageKind::Arguments).detail else {
        panic!("arguments");
    };
    assert_eq!(
        (a.timeout_ms, a.timeout_source),
        (120_000, exec::TimeoutSource::Argument)
    );
    let always = lifecycle(
        Runtime::Classic,
        &s.setup,
        &s.call,
        &[Reply::Always],
        &s.run,
    );
    assert_eq!(
        always.approvals.rules().last(),
        Some(&Rule::new(
            "external_directory",
            "/tmp/cache/*",
            Action::Allow
        ))
    );
    let reject = lifecycle(
        Runtime::Classic,
        &s.setup,
        &s.call,
        &[Reply::Reject(Some("keep the cache".into()))],
        &s.run,
    );
    assert_eq!(reject.end, End::Rejected);
    assert!(reject.loop_continues);
    // Next.
    let n = lifecycle(Runtime::Next, &s.setup, &s.call, &[], &s.run);
    assert_eq!(n.end, End::Denied);
    assert_eq!(
        n.stage(StageKind::ExternalDirectory).status,
        Status::Skipped
    );
    let cmd = n.permission(StageKind::Command).unwrap();
    assert_eq!(cmd.request.patterns, ["rm -rf /tmp/cache"]);
    assert_eq!(cmd.checks[0].rule, Rule::new("bash", "rm *", Action::Deny));
    assert!(cmd.checks[0].configured_alone);
    let Some(Detail::Lookup(k)) = &n.stage(StageKind::ToolLookup).detail else {
        panic!("lookup");
    };
    assert_eq!(k.active.as_ref().unwrap().source, registry::Source::BuiltIn);
    // Without the configured deny, the next runtime runs it too.
    let mut s2 = s.clone();
    s2.setup.agent_rules.pop();
    let n = lifecycle(Runtime::Next, &s2.setup, &s2.call, &[], &s2.run);
    assert_eq!(n.end, End::Completed);
    assert_eq!(
        n.permission(StageKind::Command).unwrap().checks[0].rule,
        Rule::new("bash", "rm -rf *", Action::Allow)
    );
}

/// The seed's output panel: 5000 lines, kept as the tail (classic) or head + tail (next).
#[test]
fn seed_002_output() {
    let mut s = seed_002();
    s.setup.agent_rules.pop();
    let log = seed_build_log();
    assert_eq!(log.split('\n').count(), 5000);
    s.run = Run::exited(&log, 0);
    let c = lifecycle(Runtime::Classic, &s.setup, &s.call, &[Reply::Once], &s.run);
    let Some(Detail::Output(o)) = &c.stage(StageKind::Output).detail else {
        panic!("output");
    };
    let t = o.classic.as_ref().unwrap();
    assert!(t.truncated);
    assert!(
        t.kept_bytes <= 51_200 && t.kept_lines < 2000,
        "{} lines",
        t.kept_lines
    );
    assert!(o.text.starts_with("...output truncated...\n\nFull output saved to: /home/user/.local/share/opencode/tool-output/tool_01\n\n"));
    assert!(o.text.ends_with("Done in 12.3s"));
    let n = lifecycle(Runtime::Next, &s.setup, &s.call, &[], &s.run);
    let Some(Detail::Output(o)) = &n.stage(StageKind::Output).detail else {
        panic!("output");
    };
    let ht = o.next.as_ref().unwrap();
    assert_eq!((ht.head_lines, ht.tail_lines), (998, 998));
    assert!(o.text.starts_with("Starting compilation...\n"));
}

#[test]
fn seed_claims() {
    use SeedMatch::*;
    let by_stage: Vec<(&str, SeedMatch)> = StageKind::ORDER
        .iter()
        .map(|k| (k.slug(), k.seed_matches()))
        .collect();
    assert_eq!(
        by_stage,
        [
            ("tool-lookup", Neither),
            ("arguments", Both),
            ("parse", Next),
            ("external-directory", Both),
            ("command", Neither),
            ("confirmation", Both),
            ("execution", Both),
            ("output", Neither),
        ]
    );
    let next_only: Vec<&str> = StageKind::ORDER
        .iter()
        .flat_map(|k| k.claims())
        .filter(|c| c.matches == Next)
        .map(|c| c.claim)
        .collect();
    assert_eq!(
        next_only,
        [
            "same-name-tools-stack",
            "scope-exit-pops",
            "resource-is-whole-command",
            "configured-deny-not-overridable",
            "always-saved-per-project-database",
            "head-tail-sampling",
        ]
    );
    let l = lifecycle(
        Runtime::Classic,
        &Setup::new(Vec::new()),
        &BashCall::new("ls"),
        &[],
        &Run::exited("", 0),
    );
    assert_eq!(l.stages.len(), 8);
    assert!(l
        .stages
        .iter()
        .zip(StageKind::ORDER)
        .all(|(s, k)| s.kind == k));
    let steps: Vec<Option<u8>> = StageKind::ORDER.iter().map(|k| k.seed_step()).collect();
    assert_eq!(
        steps,
        [
            Some(1),
            None,
            None,
            Some(2),
            Some(3),
            Some(4),
            Some(5),
            Some(6)
        ]
    );
}

/// Whatever the command and the replies, the eight stages come in order, everything after
/// the stop is not reached, and a completed call has output.
#[test]
fn stages_are_always_whole_and_ordered() {
    let commands = [
        "rm -rf /tmp/cache",
        "ls",
        "cd /tmp",
        "cat /etc/hostname && git push origin main",
        "echo $(rm -rf ~/x) > /tmp/y",
        "",
    ];
    let answer_sets: [&[Reply]; 5] = [
        &[],
        &[Reply::Once],
        &[Reply::Always, Reply::Always],
        &[Reply::Once, Reply::Reject(None)],
        &[Reply::Reject(Some("no".into()))],
    ];
    let configs = [
        "",
        r#"{"permission": {"bash": {"*": "ask", "git push *": "deny"}}}"#,
        r#"{"permission": "deny"}"#,
    ];
    for config in configs {
        let mut setup = build(config);
        for auto in [false, true] {
            setup.auto_approve = auto;
            for cmd in commands {
                for answers in answer_sets {
                    for runtime in [Runtime::Classic, Runtime::Next] {
                        let l = lifecycle(
                            runtime,
                            &setup,
                            &BashCall::new(cmd),
                            answers,
                            &Run::exited("ok", 0),
                        );
                        let kinds: Vec<StageKind> = l.stages.iter().map(|s| s.kind).collect();
                        assert_eq!(kinds, StageKind::ORDER, "{cmd:?} {answers:?} {runtime:?}");
                        let stop = l
                            .stages
                            .iter()
                            .position(|s| matches!(s.status, Status::Stopped | Status::Waiting));
                        match stop {
                            Some(k) => {
                                assert_ne!(l.end, End::Completed);
                                for s in &l.stages[k + 1..] {
                                    // ④ still lists a prompt answered before a deny.
                                    let shown = s.kind == StageKind::Confirmation
                                        && s.status == Status::Pass;
                                    assert!(
                                        shown
                                            || matches!(
                                                s.status,
                                                Status::NotReached
                                                    | Status::Stopped
                                                    | Status::Waiting
                                            ),
                                        "{cmd:?} {answers:?} {runtime:?}: {:?} after the stop",
                                        s.kind
                                    );
                                }
                            }
                            None => {
                                assert_eq!(
                                    l.end,
                                    End::Completed,
                                    "{cmd:?} {answers:?} {runtime:?}"
                                );
                                assert_eq!(l.model_receives.as_deref(), Some("ok"));
                            }
                        }
                        if auto {
                            assert_ne!(l.end, End::Waiting);
                        }
                    }
                }
            }
        }
    }
    assert_eq!(Runtime::default(), Runtime::Classic);
}

/// A deterministic fuzz over shell punctuation: never a panic, never a hang, and every node's
/// text is a piece of the input.
#[test]
fn parse_fuzz() {
    let alphabet: Vec<char> = "ab $(){}[]`'\"\\|&;<>#!\n=~*-09ifdoneécase"
        .chars()
        .collect();
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize
    };
    for _ in 0..20_000 {
        let len = next() % 40;
        let s: String = (0..len)
            .map(|_| alphabet[next() % alphabet.len()])
            .collect();
        for c in commands(&s) {
            assert!(
                s.contains(c.pattern_text()),
                "{s:?}: {:?}",
                c.pattern_text()
            );
            for t in &c.tokens {
                assert!(s.contains(&t.text), "{s:?}: {:?}", t.text);
            }
        }
    }
}
