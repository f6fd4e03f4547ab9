//! The behaviours the fifth recording of CLI 2.1.332 pinned (`scripts/recording/gen5.py`,
//! cases `rec5-*` of `fixtures/conformance/claude-code-recorded.json`), one test per
//! behaviour, each with the recorded example and the neighbour where it does not show.

use permlab_core::claude_code::{
    evaluate, Blocker, Context, Decider, Mode, Outcome, Policy, Scope, SettingsFile, ToolCall,
    Verdict,
};
use permlab_core::json::Value;

fn policy(settings: &str) -> Policy {
    Policy::merge(
        &[SettingsFile::from_json(settings, Scope::Project).unwrap()],
        true,
    )
}

fn rules(allow: &[&str], deny: &[&str], ask: &[&str]) -> String {
    let list =
        |v: &[&str]| Value::Array(v.iter().map(|s| Value::from(*s)).collect::<Vec<_>>()).to_json();
    format!(
        r#"{{"permissions": {{"allow": {}, "deny": {}, "ask": {}}}}}"#,
        list(allow),
        list(deny),
        list(ask)
    )
}

fn verdict(settings: &str, mode: Mode, call: &ToolCall) -> Verdict {
    evaluate(&policy(settings), mode, &Context::default(), call)
}

fn bash(settings: &str, mode: Mode, cmd: &str) -> Outcome {
    verdict(settings, mode, &ToolCall::bash(cmd)).outcome
}

fn file(tool: &str, rel: &str) -> ToolCall {
    ToolCall::with_field(tool, "file_path", &format!("/home/alice/proj/{rel}"))
}

const NONE: &str = r#"{"permissions": {}}"#;

#[test]
fn an_unknown_env_prefix_keeps_a_read_only_command_from_running_unprompted() {
    let cat_env = rules(&["Bash(cat .env)"], &[], &[]);
    assert_eq!(bash(&cat_env, Mode::Default, "cat .env"), Outcome::Allow);
    assert_eq!(bash(&cat_env, Mode::Default, "X=1 cat .env"), Outcome::Ask);
    for cmd in [
        "X=1 cat README.md",
        "FOO=bar git status",
        "DEBUG=1 ls",
        "ls | X=1 grep a",
    ] {
        assert_eq!(bash(NONE, Mode::Default, cmd), Outcome::Ask, "{cmd}");
    }
    assert_eq!(bash(NONE, Mode::DontAsk, "X=1 ls"), Outcome::Deny);
    let v = verdict(NONE, Mode::Default, &ToolCall::bash("X=1 cat README.md"));
    assert!(matches!(v.decider, Decider::Mode { why: Blocker::UnsafeEnv(ref n), .. } if n == "X"));
    // Variables an allow rule looks past keep it read-only.
    for cmd in [
        "LANG=C ls",
        "TZ=UTC cat README.md",
        "NODE_ENV=test git status",
    ] {
        assert_eq!(bash(NONE, Mode::Default, cmd), Outcome::Allow, "{cmd}");
    }
    // A bare `Bash` allow approves it, and so does a rule that spells the assignment out.
    assert_eq!(
        bash(&rules(&["Bash"], &[], &[]), Mode::Default, "X=1 ls"),
        Outcome::Allow
    );
    let spelled = rules(&["Bash(X=1 cat *)"], &[], &[]);
    assert_eq!(
        bash(&spelled, Mode::Default, "X=1 cat README.md"),
        Outcome::Allow
    );
    assert_eq!(
        bash(&rules(&["Bash(ls *)"], &[], &[]), Mode::Default, "X=1 ls"),
        Outcome::Ask
    );
}

/// `git 'diff' -v` asks under `Bash(git diff *)`: the rule sees the quotes, and `-v` is no
/// option of `git diff`, so the read-only set does not take it either.
#[test]
fn a_quoted_subcommand_stays_read_only_but_an_unknown_git_diff_option_does_not() {
    let diff = rules(&["Bash(git diff *)"], &[], &[]);
    assert_eq!(bash(&diff, Mode::Default, "git diff -v"), Outcome::Allow);
    assert_eq!(bash(&diff, Mode::Default, "git 'diff' -v"), Outcome::Ask);
    assert_eq!(
        bash(&diff, Mode::Default, "git diff 'HEAD'"),
        Outcome::Allow
    );
    let quoted_rule = rules(&["Bash(git 'diff' *)"], &[], &[]);
    assert_eq!(
        bash(&quoted_rule, Mode::Default, "git 'diff' -v"),
        Outcome::Allow
    );
    for (cmd, want) in [
        ("git 'diff' -v", Outcome::Ask),
        ("git \"diff\" -v", Outcome::Ask),
        ("git diff -v", Outcome::Ask),
        ("git 'diff'", Outcome::Allow),
        ("git \"status\"", Outcome::Allow),
        ("git diff --stat", Outcome::Allow),
        ("git diff --cached", Outcome::Allow),
        ("git log --foo", Outcome::Ask),
        ("git show --foo", Outcome::Ask),
        ("git status -v", Outcome::Allow),
        ("git status --foo", Outcome::Ask),
        ("git log --graph --all", Outcome::Allow),
        ("git show --stat HEAD", Outcome::Allow),
        ("'ls' -la", Outcome::Allow),
    ] {
        assert_eq!(bash(NONE, Mode::Default, cmd), want, "{cmd}");
    }
    let npm = rules(&["Bash(npm test *)"], &[], &[]);
    assert_eq!(bash(&npm, Mode::Default, "npm 'test'"), Outcome::Ask);
}

#[test]
fn a_read_only_command_naming_a_path_outside_the_project_asks_unless_a_read_rule_covers_it() {
    for allow in [
        &[][..],
        &["Bash(cat *)"],
        &["Bash(cat /etc/hosts)"],
        &["Read"],
        &["Read(/etc/**)"],
    ] {
        let s = rules(allow, &[], &[]);
        assert_eq!(
            bash(&s, Mode::Default, "cat /etc/hosts"),
            Outcome::Ask,
            "{allow:?}"
        );
    }
    for cmd in [
        "ls /etc",
        "cat ../elsewhere/x.txt",
        "cat ~/elsewhere/x.txt",
        "sort /etc/hosts",
        "head -n 1 /etc/hosts",
        "find /etc -name hosts",
        "diff /etc/hosts a.txt",
        "stat /etc/hosts",
        "rg root /etc/passwd",
        "cut -d: -f1 /etc/passwd",
        "cat < /etc/hosts",
        "cat /etc/*.conf",
        "cat $HOME/x.txt",
    ] {
        assert_eq!(bash(NONE, Mode::Default, cmd), Outcome::Ask, "{cmd}");
    }
    for (allow, cmd) in [
        ("Bash(cp *)", "cp /etc/hosts x.txt"),
        ("Bash(tail *)", "tail -n 1 /etc/hosts"),
    ] {
        assert_eq!(
            bash(&rules(&[allow], &[], &[]), Mode::Default, cmd),
            Outcome::Ask,
            "{cmd}"
        );
    }
    let v = verdict(NONE, Mode::Default, &ToolCall::bash("cat /etc/hosts"));
    assert!(matches!(
        v.decider,
        Decider::Mode {
            why: Blocker::OutsideWorkingDirectory,
            ..
        }
    ));
    let etc = rules(&["Read(//etc/**)"], &[], &[]);
    for cmd in ["cat /etc/hosts", "ls /etc", "grep root /etc/passwd"] {
        assert_eq!(bash(&etc, Mode::Default, cmd), Outcome::Allow, "{cmd}");
    }
    assert_eq!(bash(&etc, Mode::DontAsk, "cat /etc/hosts"), Outcome::Allow);
    assert_eq!(
        bash(&rules(&["Bash"], &[], &[]), Mode::Default, "cat /etc/hosts"),
        Outcome::Allow
    );
    // Inside the project, or not a path a read-only command reads: no prompt.
    assert_eq!(
        bash(
            &rules(&["Bash(cat *)"], &[], &[]),
            Mode::Default,
            "cat README.md"
        ),
        Outcome::Allow
    );
    for cmd in [
        "echo /etc/hosts",
        "du -sh /etc",
        "tree /etc",
        "readlink /etc/hosts",
        "ls",
    ] {
        assert_eq!(bash(NONE, Mode::Default, cmd), Outcome::Allow, "{cmd}");
    }
    let npm = rules(&["Bash(npm test *)"], &[], &[]);
    assert_eq!(
        bash(&npm, Mode::Default, "npm test /etc/hosts"),
        Outcome::Allow
    );
}

#[test]
fn a_backgrounded_read_only_command_asks_even_under_a_bare_bash_allow() {
    for allow in ["Bash", "Bash(*)"] {
        let s = rules(&[allow], &[], &[]);
        for cmd in [
            "ls &",
            "git status &",
            "cat README.md &",
            "ls & cat README.md",
            "ls & ls",
        ] {
            assert_eq!(bash(&s, Mode::Default, cmd), Outcome::Ask, "{allow} {cmd}");
        }
        // Anything that is not read-only: the bare allow approves it, `&` or not.
        for cmd in [
            "timeout 30 git &",
            "npm test &",
            "ls & npm test",
            "git status & npm test",
            "(ls &)",
            "X=1 ls &",
        ] {
            assert_eq!(
                bash(&s, Mode::Default, cmd),
                Outcome::Allow,
                "{allow} {cmd}"
            );
        }
    }
    let bare = rules(&["Bash"], &[], &[]);
    assert_eq!(bash(&bare, Mode::DontAsk, "ls &"), Outcome::Deny);
    assert_eq!(bash(NONE, Mode::BypassPermissions, "ls &"), Outcome::Allow);
}

#[test]
fn a_file_a_command_writes_inside_the_project_needs_only_the_rule_that_approved_it() {
    for mode in [Mode::DontAsk, Mode::Default] {
        let sed = rules(&["Bash(sed -i *)"], &[], &[]);
        assert_eq!(
            bash(&sed, mode, "sed -i 's/a/b/' a.txt"),
            Outcome::Allow,
            "{mode:?}"
        );
    }
    let dont_ask = |allow: &[&str], cmd: &str| bash(&rules(allow, &[], &[]), Mode::DontAsk, cmd);
    assert_eq!(dont_ask(&["Bash(tee *)"], "tee a.txt"), Outcome::Allow);
    assert_eq!(dont_ask(&["Bash(cp *)"], "cp a.txt b.txt"), Outcome::Allow);
    // Outside the project, through a redirection, or without a Bash rule: refused.
    assert_eq!(
        dont_ask(&["Bash(sed -i *)"], "sed -i 's/a/b/' ../elsewhere/x.txt"),
        Outcome::Deny
    );
    assert_eq!(
        dont_ask(&["Bash(tee *)"], "tee ../elsewhere/x.txt"),
        Outcome::Deny
    );
    assert_eq!(dont_ask(&["Bash(echo *)"], "echo x > a.txt"), Outcome::Deny);
    assert_eq!(
        dont_ask(&["Edit(./a.txt)"], "sed -i 's/a/b/' a.txt"),
        Outcome::Deny
    );
    assert_eq!(
        bash(
            &rules(&["Bash(echo *)"], &[], &[]),
            Mode::Default,
            "echo x > a.txt"
        ),
        Outcome::Ask
    );
    // The paths of `cp`, `mkdir`, `rm`… outside the project, however the command was approved.
    assert_eq!(
        dont_ask(&["Bash(cp *)"], "cp a.txt /tmp/x.txt"),
        Outcome::Deny
    );
    assert_eq!(
        dont_ask(&["Bash(mkdir *)"], "mkdir /tmp/newdir"),
        Outcome::Deny
    );
    assert_eq!(
        dont_ask(&["Bash(rm *)"], "rm ../elsewhere/x.txt"),
        Outcome::Deny
    );
    assert_eq!(dont_ask(&["Bash(mv *)"], "mv a.txt b.txt"), Outcome::Allow);
    assert_eq!(
        dont_ask(&["Bash(touch *)"], "touch new.txt"),
        Outcome::Allow
    );
    let env = rules(&["Bash(sed -i *)"], &["Edit(./.env)"], &[]);
    assert_eq!(
        bash(&env, Mode::DontAsk, "sed -i 's/a/b/' .env"),
        Outcome::Deny
    );
}

/// `./x` is `x`: a name matches at any depth, `./dir/**` at any depth for deny and ask but
/// only at the top for allow; `/x` is anchored.
#[test]
fn a_dot_slash_path_rule_reaches_into_subdirectories() {
    let deny_env = rules(&[], &["Edit(./.env)"], &[]);
    assert_eq!(
        verdict(&deny_env, Mode::Default, &file("Write", "sub/.env")).outcome,
        Outcome::Deny
    );
    assert_eq!(
        bash(&deny_env, Mode::Default, "echo x > sub/.env"),
        Outcome::Deny
    );
    let deny_src = rules(&[], &["Read(./src/**)"], &[]);
    assert_eq!(
        verdict(
            &deny_src,
            Mode::Default,
            &file("Read", "packages/api/src/x.ts")
        )
        .outcome,
        Outcome::Deny
    );
    let allow_a = rules(&["Edit(./a.txt)"], &[], &[]);
    assert_eq!(
        verdict(&allow_a, Mode::Default, &file("Write", "sub/a.txt")).outcome,
        Outcome::Allow
    );
    let allow_lib = rules(&["Edit(./lib/**)"], &[], &[]);
    assert_eq!(
        verdict(&allow_lib, Mode::Default, &file("Write", "lib/x.ts")).outcome,
        Outcome::Allow
    );
    assert_eq!(
        verdict(
            &allow_lib,
            Mode::Default,
            &file("Write", "packages/api/lib/x.ts")
        )
        .outcome,
        Outcome::Ask
    );
    let ask_lib = rules(&[], &[], &["Read(./lib/**)"]);
    assert_eq!(
        verdict(
            &ask_lib,
            Mode::Default,
            &file("Read", "packages/api/lib/x.ts")
        )
        .outcome,
        Outcome::Ask
    );
    let slash = rules(&[], &["Read(/cfg.txt)"], &[]);
    assert_eq!(
        verdict(&slash, Mode::Default, &file("Read", "cfg.txt")).outcome,
        Outcome::Deny
    );
    assert_eq!(
        verdict(&slash, Mode::Default, &file("Read", "sub/cfg.txt")).outcome,
        Outcome::Allow
    );
    let two = rules(&[], &["Read(./src/lib/**)"], &[]);
    assert_eq!(
        verdict(
            &two,
            Mode::Default,
            &file("Read", "packages/api/src/lib/x.ts")
        )
        .outcome,
        Outcome::Allow
    );
}

#[test]
fn an_unclosed_substitution_prompts_even_in_bypass_while_deny_rules_see_inside_it() {
    for mode in [Mode::Default, Mode::AcceptEdits, Mode::BypassPermissions] {
        assert_eq!(bash(NONE, mode, "echo $(ls"), Outcome::Ask, "{mode:?}");
    }
    assert_eq!(
        bash(&rules(&["Bash"], &[], &[]), Mode::Default, "echo $(ls"),
        Outcome::Ask
    );
    // No prompt in dontAsk or auto mode: "denied by a built-in Claude Code safety check".
    assert_eq!(bash(NONE, Mode::DontAsk, "echo $(ls"), Outcome::Deny);
    assert_eq!(bash(NONE, Mode::Auto, "echo $(ls"), Outcome::Deny);
    let deny_rm = rules(&[], &["Bash(rm *)"], &[]);
    for cmd in [
        "echo $(rm -rf build",
        "echo `rm -rf build",
        "rm -rf build '",
        "rm -rf build (",
    ] {
        assert_eq!(bash(&deny_rm, Mode::Default, cmd), Outcome::Deny, "{cmd}");
    }
    let deny_curl = rules(&[], &["Bash(curl *)"], &[]);
    assert_eq!(
        bash(
            &deny_curl,
            Mode::Default,
            "echo \"$(curl https://example.com"
        ),
        Outcome::Deny
    );
    // An unclosed double quote, backtick or `(` is only unparseable: it asks, but bypass and
    // a bare allow approve it.
    for cmd in ["echo \"abc", "ls (", "echo `ls", "(ls"] {
        assert_eq!(bash(NONE, Mode::Default, cmd), Outcome::Ask, "{cmd}");
        assert_eq!(
            bash(NONE, Mode::BypassPermissions, cmd),
            Outcome::Allow,
            "{cmd}"
        );
    }
    assert_eq!(
        bash(&rules(&["Bash"], &[], &[]), Mode::Default, "echo \"abc"),
        Outcome::Allow
    );
    let npm = rules(&["Bash(npm test *)"], &[], &[]);
    assert_eq!(bash(&npm, Mode::Default, "npm test \""), Outcome::Ask);
    assert_eq!(bash(&npm, Mode::Default, "npm test $("), Outcome::Ask);
}

/// The quote runs to the end of the command, which is parsed as that: `cat 'README.md` runs as
/// a read-only command, and the `rm` of `echo 'a; rm -rf build` is inside the quote.
#[test]
fn an_unclosed_single_quote_runs_to_the_end_of_the_command() {
    assert_eq!(bash(NONE, Mode::Default, "cat 'README.md"), Outcome::Allow);
    assert_eq!(bash(NONE, Mode::Default, "cat \"README.md"), Outcome::Ask);
    let npm = rules(&["Bash(npm test *)"], &[], &[]);
    assert_eq!(bash(&npm, Mode::Default, "npm test 'x"), Outcome::Allow);
    assert_eq!(
        bash(&npm, Mode::Default, "npm test; echo 'x"),
        Outcome::Allow
    );
    assert_eq!(bash(&npm, Mode::Default, "npm test \"x"), Outcome::Ask);
    let deny_rm = rules(&[], &["Bash(rm *)"], &[]);
    assert_eq!(
        bash(&deny_rm, Mode::Default, "echo 'a; rm -rf build"),
        Outcome::Allow
    );
    assert_eq!(
        bash(&deny_rm, Mode::Default, "echo \"a; rm -rf build"),
        Outcome::Ask
    );
}

/// The compound-commands lesson: its eight calls get the recorded answers.
#[test]
fn the_compound_commands_lesson_gets_the_recorded_answers() {
    let s = rules(
        &["Bash(git *)", "Bash(npm test *)"],
        &["Bash(curl *)"],
        &["Bash(rm *)"],
    );
    for (cmd, want) in [
        ("git status && npm test", Outcome::Allow),
        ("git status; curl https://example.com", Outcome::Deny),
        ("git log | curl -d @- https://example.com", Outcome::Deny),
        (
            "git commit -m \"$(curl https://example.com)\"",
            Outcome::Deny,
        ),
        ("npm test > /tmp/test.log", Outcome::Ask),
        ("DEBUG=1 curl https://example.com", Outcome::Deny),
        ("git status && rm -rf ../old", Outcome::Ask),
        ("rm -rf build; git push", Outcome::Ask),
    ] {
        assert_eq!(bash(&s, Mode::Default, cmd), want, "{cmd}");
    }
}
