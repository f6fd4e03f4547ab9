//! Table-driven tests for the corners of `codex.md`: the loader's error kinds, prefix matching,
//! host executables, the shell split, the two shlex flavours and the lesson engine.

use super::shell::{commands_for_exec_policy, parse_plain_script};
use super::shlex::{python_split, rust_split, SplitError};
use super::*;
use crate::evaluation::Decision as Verdict;

fn argv(s: &str) -> Vec<String> {
    s.split(' ').map(String::from).collect()
}

fn toks(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn load(text: &str) -> Policy {
    match Policy::parse("policy.rules", text) {
        Ok(p) => p,
        Err(e) => panic!("{}", e.cli_text()),
    }
}

fn decide(p: &Policy, cmd: &[String]) -> Option<&'static str> {
    p.check(cmd).decision.map(Decision::as_str)
}

#[test]
fn load_errors_name_the_cause_and_position() {
    // (policy, substring of the message, line, column)
    let cases: &[(&str, &str, usize, usize)] = &[
        (r#"prefix_rule(pattern=["git"], decision="Allow")"#, "invalid decision: Allow", 1, 1),
        (r#"prefix_rule(pattern=["git"], decision="deny")"#, "invalid decision: deny", 1, 1),
        (r#"prefix_rule(pattern=["git"], decision="auto_review")"#, "invalid decision: auto_review", 1, 1),
        ("prefix_rule(pattern=[])", "pattern cannot be empty", 1, 1),
        (r#"prefix_rule(pattern=["git", []])"#, "pattern alternatives cannot be empty", 1, 1),
        (r#"prefix_rule(pattern=["git", 1])"#, "pattern element must be a string or list of strings (got int)", 1, 1),
        (r#"prefix_rule(pattern=["git", [1]])"#, "pattern alternative must be a string (got int)", 1, 1),
        (r#"prefix_rule(pattern="git status")"#, "Type of parameter `pattern` doesn't match, expected `list`, actual `string (repr: \"git status\")`", 1, 1),
        (r#"prefix_rule(pattern=("git",))"#, "expected `list`, actual `tuple", 1, 1),
        (r#"prefix_rule(decision="allow")"#, "Missing parameter `pattern`", 1, 1),
        (r#"prefix_rule(pattern=["git"], reviewer="user")"#, "Found `reviewer` extra named parameter(s)", 1, 1),
        (r#"prefix_rule(pattern=["git"], justification="  ")"#, "justification cannot be empty", 1, 1),
        (r#"prefix_rule(pattern=["git"], match=["git \"x"])"#, "example string has invalid shell syntax", 1, 1),
        (r#"prefix_rule(pattern=["git"], match=[""])"#, "example cannot be an empty string", 1, 1),
        (r##"prefix_rule(pattern=["git"], match=["# only a comment"])"##, "example cannot be an empty string", 1, 1),
        (r#"prefix_rule(pattern=["git"], match=[[]])"#, "example cannot be an empty list", 1, 1),
        (r#"prefix_rule(pattern=["git"], match=[1])"#, "example must be a string or list of strings (got int)", 1, 1),
        (r#"prefix_rule(pattern=["git", "push"], match=["git pull"])"#, "unmatched examples: [\"git pull\"]", 1, 1),
        (r#"prefix_rule(pattern=["git"], not_match=["git status"])"#, "expected example to not match rule `PrefixRuleMatch { matched_prefix: [\"git\"]", 1, 1),
        // Examples test only the rules of their own call, even when another rule would match.
        ("prefix_rule(pattern=[\"git\"])\nprefix_rule(pattern=[\"git\", \"push\"], match=[\"git status\"])", "unmatched examples: [\"git status\"]", 2, 1),
        ("allow_rule(pattern=[\"git\"])", "Variable `allow_rule` not found", 1, 1),
        ("x = 1\n\ndef f():\n    return undefined_name\n", "Variable `undefined_name` not found", 4, 12),
        ("prefix_rule(pattern=[\"git\"]", "Parse error", 1, 28),
        ("x = \"unfinished\n", "unfinished string literal", 1, 5),
        // codex 0.171.0 points at the line break before the badly indented line.
        ("if True:\n    x = 1\n  y = 2\n", "incorrect indentation", 2, 10),
        ("while True:\n    pass\n", "cannot use reserved keyword `while`", 1, 1),
        ("load(\"x.star\", \"y\")", "No imports are available, you tried `x.star`", 1, 1),
        ("x = 010", "integer cannot have leading 0, got `010`", 1, 5),
        ("x = 1_000", "Parse error", 1, 6),
        ("if True:\n\tprefix_rule(pattern=[\"a\"])", "tabs are not allowed", 1, 9),
        ("x = 1\nprint(x)", "Variable `print` not found, did you mean `int`?", 2, 1),
        ("x = [1, 2]\nfor i in x:\n    x.append(3)", "mutates an iterable for an iterator while iterating", 3, 5),
        ("x = {\"a\": 1}\nfor k in x:\n    x[\"b\"] = 2", "mutates an iterable", 3, 14),
        ("x = {1.0: \"a\", 1: \"b\"}", "Dictionary key repeated for `1`", 1, 16),
        ("def f(x, x):\n    pass", "duplicated parameter name", 1, 10),
        ("def f(x=1, y):\n    pass", "positional parameter after non positional", 1, 12),
        ("x = 1 / 0", "float division by zero: 1 / 0", 1, 5),
        ("x = 1 << -1", "Negative left shift", 1, 5),
        ("x = [3].count(3)", "has no attribute `count`", 1, 5),
        ("x = rf\"a\"", "Parse error", 1, 7),
        ("x = [1, 2, 3][1::9223372036854775807] + [1][::-9223372036854775807]\nfail(x)", "fail: [2, 1]", 2, 1),
        (r#"prefix_rule(pattern=["git"], decision=None)"#, "expected `str`, actual `NoneType (repr: None)`", 1, 1),
        // codex 0.171.0: `canonical_matching` takes a bool.
        (r#"prefix_rule(pattern=["git"], canonical_matching="yes")"#, "Type of parameter `canonical_matching` doesn't match, expected `bool`, actual `string (repr: \"yes\")`", 1, 1),
        ("x = f\"{}\"", "Parse error: unexpected f-string expression end '}', expected expression", 1, 8),
        (r#"network_rule(host="example.com", protocol="ftp", decision="deny")"#, "network_rule protocol must be one of", 1, 1),
        (r#"network_rule(host="https://example.com", protocol="https", decision="deny")"#, "without scheme or path", 1, 1),
        (r#"network_rule(host="*.example.com", protocol="https", decision="deny")"#, "wildcards are not allowed", 1, 1),
        (r#"network_rule(host="example.com", protocol="https", decision="Deny")"#, "invalid decision: Deny", 1, 1),
        (r#"host_executable(name="git", paths=["usr/bin/git"])"#, "must be absolute", 1, 1),
        (r#"host_executable(name="git", paths=["/usr/bin/gitx"])"#, "must have basename `git`", 1, 1),
        (r#"host_executable(name="a/git", paths=[])"#, "bare executable name", 1, 1),
        (r#"host_executable(name="", paths=[])"#, "name cannot be empty", 1, 1),
        // A runtime error inside a function is reported at the innermost call, with a traceback.
        ("def deny(*t):\n    prefix_rule(pattern=list(t), decision=\"nope\")\ndeny(\"rm\")\n", "invalid decision: nope", 2, 5),
        ("x = [1] + \"a\"", "Operation `+` not supported for types `list` and `string`", 1, 5),
        ("x = {}[\"k\"]", "Key `\"k\"` was not found", 1, 5),
        ("def f():\n    f()\nf()\n", "Starlark call stack overflow", 2, 5),
        ("for i in range(100000000):\n    pass\n", "too large", 1, 10),
        ("x = [1]\nfor i in range(1000000):\n    for j in range(1000000):\n        pass\n", "step budget", 3, 14),
    ];
    for (text, want, line, col) in cases {
        let err = match Policy::parse("policy.rules", text) {
            Ok(_) => panic!("should not load: {text}"),
            Err(e) => e,
        };
        assert!(
            err.message.contains(want) || err.cause.contains(want),
            "{text}\n  want {want}\n  got {}",
            err.cli_text()
        );
        assert_eq!((err.line, err.column), (*line, *col), "{text}: {}", err);
        assert!(err
            .cli_text()
            .starts_with("Error: failed to parse policy at policy.rules\n\nCaused by:\n    "));
        assert!(err.to_string().starts_with(&format!(
            "failed to parse policy at policy.rules:{line}:{col}: "
        )));
    }
}

#[test]
fn runtime_errors_in_functions_show_every_frame() {
    let text = "def deny(*t):\n    prefix_rule(pattern=list(t), decision=\"nope\")\ndeny(\"rm\")\n";
    let err = Policy::parse("p.rules", text).unwrap_err();
    assert!(
        err.cause
            .contains("  * p.rules:3, in <module>\n      deny(\"rm\")\n  * p.rules:2, in deny\n"),
        "{}",
        err.cause
    );
    let e: crate::Error = err.into();
    assert_eq!(e.source_name(), Some("p.rules"));
    assert!(
        e.to_string()
            .contains("line 2, column 5: invalid decision: nope"),
        "{e}"
    );
}

#[test]
fn a_failed_file_leaves_the_policy_unchanged() {
    let mut p = load(r#"prefix_rule(pattern=["ls"])"#);
    assert!(p
        .add_file(
            "bad.rules",
            "prefix_rule(pattern=[\"rm\"])\nprefix_rule(pattern=[])"
        )
        .is_err());
    assert_eq!(p.rules().len(), 1);
}

#[test]
fn starlark_features_used_by_real_policies() {
    let p = load(
        r#"
# comments, constants, loops, functions, f-strings and comprehensions
SAFE = ["ls", "pwd"] + ['whoami']
for tool in SAFE:
    prefix_rule(pattern=[tool])
def deny(*tokens, why=None):
    name = tokens[0]
    prefix_rule(pattern=list(tokens), decision="forbidden",
                justification=why or f"{name} is blocked")
deny("shutdown")
deny("git", "clean", "-fdx", why="loses files")
READ = {"cat": "allow", "rm": "prompt"}
[prefix_rule(pattern=[k], decision=v) for k, v in READ.items() if k != "cat"]
if len(SAFE) == 3 and "ls" in SAFE:
    prefix_rule(pattern=["echo"], decision="prompt" if True else "allow")
else:
    fail("unreachable")
x = r"C:\path"; y = """multi
line"""
prefix_rule(pattern=[" ".join(["a", "b"])], justification="%s-%d" % ("x", 3))
def rules(prog, *subs, decision="allow", why: str = "ok") -> None:
    mk = lambda sub: prefix_rule(pattern=[prog, sub], decision=decision, justification=why)
    for sub in subs:
        mk(sub)
rules("gh", "view", "list")
def strict(*, level):
    prefix_rule(pattern=["kubectl"], decision=level)
strict(level="forbidden")
if -7 // 2 == -4 and -7 % 2 == 1 and 7 % -2 == -1:
    prefix_rule(pattern=["floor"])
True = 1
nums = [str(7 / 2), str(6 / 2), str(1e20), str(0.1 + 0.2), str(123456789.0), str(1e-5), str(2.5e-7), str(~5), str(2 << 3), str(-8 >> 1), str(-7.5 // 2)]
prefix_rule(pattern=["nums"] + nums)
prefix_rule(pattern=["methods", "ab".elems()[1], "a-b".partition("-")[2], "x".removeprefix("y"), str("aXbX".count("X")), "hello world".title(), chr(65), str(ord("A")), str(hash("abc"))])
prefix_rule(pattern=[fr"raw\{True}"])
"#,
    );
    assert_eq!(decide(&p, &argv("pwd")), Some("allow"));
    assert_eq!(
        p.check(&argv("shutdown now")).matched_rules[0]
            .justification
            .as_deref(),
        Some("shutdown is blocked")
    );
    assert_eq!(
        p.check(&argv("git clean -fdx")).matched_rules[0]
            .justification
            .as_deref(),
        Some("loses files")
    );
    assert_eq!(decide(&p, &argv("rm x")), Some("prompt"));
    assert_eq!(decide(&p, &argv("cat x")), None);
    assert_eq!(decide(&p, &argv("echo")), Some("prompt"));
    assert_eq!(
        p.check(&toks(&["a b"])).matched_rules[0]
            .justification
            .as_deref(),
        Some("x-3")
    );
    assert_eq!(decide(&p, &argv("gh list")), Some("allow"));
    assert_eq!(decide(&p, &argv("floor")), Some("allow"));
    let nums = p.rules().iter().find(|r| r.first == "nums").unwrap();
    let shown: Vec<String> = nums
        .rest
        .iter()
        .map(|t| match t {
            PatternToken::Single(s) => s.clone(),
            PatternToken::Alts(a) => a.join("|"),
        })
        .collect();
    // starlark-rust's own output for these (checked against starlark 0.13).
    assert_eq!(
        shown,
        [
            "3.5",
            "3.0",
            "1e+20",
            "0.30000000000000004",
            "1.234568e+08",
            "0.00001",
            "2.5e-07",
            "-6",
            "16",
            "-4",
            "-4.0"
        ]
    );
    let m = p.rules().iter().find(|r| r.first == "methods").unwrap();
    assert_eq!(
        m.rest,
        ["b", "b", "x", "2", "Hello World", "A", "65", "96354"]
            .map(|s| PatternToken::Single(s.into()))
    );
    assert_eq!(p.rules().last().unwrap().first, "raw\\1");
    assert_eq!(decide(&p, &argv("kubectl get")), Some("forbidden"));
    assert!(
        Policy::parse("p.rules", "def f(*, a):\n    pass\nf(1)").is_err(),
        "keyword-only"
    );
}

#[test]
fn string_literals_decode_like_starlark() {
    let p = load("prefix_rule(pattern=['.\\\\mvnw.cmd', \"\\x41\\u00e9\\n\", '\\q'])");
    assert_eq!(p.rules()[0].first, ".\\mvnw.cmd");
    assert_eq!(
        p.rules()[0].rest,
        [
            PatternToken::Single("Aé\n".into()),
            PatternToken::Single("\\q".into())
        ]
    );
}

#[test]
fn prefix_matching_corners() {
    let p = load(
        r#"
prefix_rule(pattern=["git", ["push", "fetch"]], decision="prompt")
prefix_rule(pattern=["git", "push", "--force"], decision="forbidden")
prefix_rule(pattern=["rm", "-rf", "/"], decision="forbidden")
prefix_rule(pattern=[["python", "python3"], "-c"], decision="forbidden")
prefix_rule(pattern=["npm", ["install", "i"], ["-g", "--global"]], decision="prompt")
"#,
    );
    // (command tokens, decision)
    let cases: &[(&[&str], Option<&str>)] = &[
        // A later flag escapes the longer rule: only the shorter prompt rule matches.
        (
            &["git", "push", "origin", "main", "--force"],
            Some("prompt"),
        ),
        (&["git", "push", "-f"], Some("prompt")),
        (&["git", "push", "--force", "origin"], Some("forbidden")),
        // Options before the subcommand escape; matching is case-sensitive.
        (&["git", "--no-pager", "push"], None),
        (&["Git", "push"], None),
        // Flag spellings are different tokens; `/srv` is not `/`.
        (&["rm", "-fr", "/"], None),
        (&["rm", "-r", "-f", "/"], None),
        (&["rm", "-rf", "/srv"], None),
        (&["rm", "-rf", "/", "--no-preserve-root"], Some("forbidden")),
        // One token containing a space never matches two pattern tokens.
        (&["git", "push --force"], None),
        // An empty string is a token.
        (&["git", "push", ""], Some("prompt")),
        // Shorter than the pattern: no match.
        (&["rm", "-rf"], None),
        (&["python3", "-c", "pass"], Some("forbidden")),
        (&["python2", "-c", "pass"], None),
        (&["npm", "i", "--global"], Some("prompt")),
        (&["npm", "-g", "install"], None),
        (&[], None),
    ];
    for (cmd, want) in cases {
        assert_eq!(decide(&p, &toks(cmd)), *want, "{cmd:?}");
    }
    // The matched prefix is the command's own tokens, not the pattern's alternatives.
    let m = p.check(&toks(&["python3", "-c", "x"]));
    assert_eq!(m.matched_rules[0].matched_prefix, toks(&["python3", "-c"]));
}

#[test]
fn all_matches_are_kept_in_order_with_duplicates() {
    let p = load("prefix_rule(pattern=[\"ls\"])\nprefix_rule(pattern=[\"ls\"])\nprefix_rule(pattern=[\"ls\", \"-la\"], decision=\"prompt\")\n");
    let c = p.check(&argv("ls -la"));
    assert_eq!(c.matched_rules.len(), 3);
    assert_eq!(c.decision, Some(Decision::Prompt));
    assert_eq!(
        c.to_cli_json(),
        r#"{"matchedRules":[{"prefixRuleMatch":{"matchedPrefix":["ls"],"decision":"allow"}},{"prefixRuleMatch":{"matchedPrefix":["ls"],"decision":"allow"}},{"prefixRuleMatch":{"matchedPrefix":["ls","-la"],"decision":"prompt"}}],"decision":"prompt"}"#
    );
}

#[test]
fn files_load_in_order_and_the_strictest_wins_across_them() {
    let p = Policy::parse_files([
        (
            "a.rules",
            "prefix_rule(pattern=[\"git\"], decision=\"allow\")",
        ),
        (
            "b.rules",
            "prefix_rule(pattern=[\"git\", \"push\"], decision=\"forbidden\")",
        ),
    ])
    .unwrap();
    assert_eq!(decide(&p, &argv("git push --force")), Some("forbidden"));
    let err = Policy::parse_files([
        ("a.rules", "prefix_rule(pattern=[\"git\"])"),
        ("b.rules", "oops("),
    ])
    .unwrap_err();
    assert_eq!(err.file, "b.rules");
}

#[test]
fn an_empty_policy_matches_nothing() {
    let p = load("# no rules");
    assert_eq!(
        p.check(&argv("rm -rf /")).to_cli_json(),
        r#"{"matchedRules":[]}"#
    );
}

#[test]
fn host_executables_resolve_only_when_asked() {
    let p = load("prefix_rule(pattern=[\"git\", \"status\"], decision=\"prompt\")\nhost_executable(name=\"git\", paths=[\"/usr/bin/git\"])\nprefix_rule(pattern=[\"ls\"])\n");
    let on = MatchOptions {
        resolve_host_executables: true,
        cwd: Some("/home/tester/proj".into()),
        ..MatchOptions::default()
    };
    assert_eq!(decide(&p, &argv("/usr/bin/git status")), None);
    let c = p.check_with_options(&argv("/usr/bin/git status"), &on);
    assert_eq!(c.decision, Some(Decision::Prompt));
    assert_eq!(
        c.to_cli_json(),
        r#"{"matchedRules":[{"prefixRuleMatch":{"matchedPrefix":["git","status"],"decision":"prompt","resolvedProgram":"/usr/bin/git"}}],"decision":"prompt"}"#
    );
    // Not in the allowlist; `..` is normalized first.
    assert_eq!(
        p.check_with_options(&argv("/opt/bin/git status"), &on)
            .decision,
        None
    );
    assert_eq!(
        p.check_with_options(&argv("/usr/local/../bin/git status"), &on)
            .decision,
        Some(Decision::Prompt)
    );
    // No allowlist for `ls`: any absolute path resolves; a relative one needs the cwd.
    assert_eq!(
        p.check_with_options(&argv("/bin/ls"), &on).decision,
        Some(Decision::Allow)
    );
    assert_eq!(
        p.check_with_options(&argv("./ls"), &on).matched_rules[0]
            .resolved_program
            .as_deref(),
        Some("/home/tester/proj/ls")
    );
    let no_cwd = MatchOptions {
        resolve_host_executables: true,
        cwd: None,
        ..MatchOptions::default()
    };
    assert_eq!(p.check_with_options(&argv("./ls"), &no_cwd).decision, None);
}

#[test]
fn examples_resolve_relative_programs_by_basename() {
    load("prefix_rule(pattern=[\"mvnw\"], match=[\"./mvnw deploy\", \"bin/mvnw x\"])");
    assert!(Policy::parse("p.rules", "host_executable(name=\"mvnw\", paths=[\"/opt/mvnw\"])\nprefix_rule(pattern=[\"mvnw\"], match=[\"./mvnw deploy\"])").is_err());
}

#[test]
fn examples_may_rely_on_host_executables() {
    load("host_executable(name=\"git\", paths=[\"/usr/bin/git\"])\nprefix_rule(pattern=[\"git\"], match=[\"/usr/bin/git status\"], not_match=[\"/opt/git status\"])");
}

#[test]
fn network_rules_load_but_never_match_commands() {
    let p = load("network_rule(host=\"Example.COM:443\", protocol=\"https_connect\", decision=\"deny\", justification=\"no\")");
    assert_eq!(p.network_rules()[0].host, "example.com");
    assert_eq!(p.network_rules()[0].decision, Decision::Forbidden);
    assert_eq!(decide(&p, &argv("curl example.com")), None);
}

#[test]
fn python_split_agrees_with_python() {
    // Expected values printed by CPython's shlex.split.
    let ok: &[(&str, &[&str])] = &[
        ("rm -rf ~", &["rm", "-rf", "~"]),
        (
            "python3 -c \"import shutil; shutil.rmtree('/')\"",
            &["python3", "-c", "import shutil; shutil.rmtree('/')"],
        ),
        ("curl x | sh", &["curl", "x", "|", "sh"]),
        ("> /etc/passwd", &[">", "/etc/passwd"]),
        (":(){ :|:& };:", &[":(){", ":|:&", "};:"]),
        ("echo \"a\\$b\"", &["echo", "a\\$b"]),
        ("a#b #c", &["a#b", "#c"]),
        ("''", &[""]),
        ("a ''", &["a", ""]),
        ("a\\ b", &["a b"]),
        ("\"a\\\"b\"", &["a\"b"]),
        ("'a\\'", &["a\\"]),
        ("x\r\ny", &["x", "y"]),
        ("a\\\nb", &["a\nb"]),
        ("  lead  trail  ", &["lead", "trail"]),
        ("\"a\"'b'c", &["abc"]),
        ("echo \"x\\\\y\"", &["echo", "x\\y"]),
        ("tab\tsep", &["tab", "sep"]),
        ("emoji 😀 'ü b'", &["emoji", "😀", "ü b"]),
        ("a\"b c\"d", &["ab cd"]),
        ("\"\"", &[""]),
        ("ls 2> /dev/null", &["ls", "2>", "/dev/null"]),
        ("rm  -rf /", &["rm", "-rf", "/"]),
        ("", &[]),
    ];
    for (input, want) in ok {
        assert_eq!(
            python_split(input).as_deref(),
            Ok(toks(want).as_slice()),
            "{input:?}"
        );
    }
    let bad: &[(&str, SplitError)] = &[
        ("a\\", SplitError::NoEscapedCharacter),
        ("'abc", SplitError::NoClosingQuotation),
        ("\"abc", SplitError::NoClosingQuotation),
        ("\"abc\\", SplitError::NoEscapedCharacter),
        ("echo 'a", SplitError::NoClosingQuotation),
    ];
    for (input, want) in bad {
        assert_eq!(python_split(input).as_ref(), Err(want), "{input:?}");
    }
}

#[test]
fn rust_split_differs_from_python_where_the_crate_does() {
    let cases: &[(&str, Option<&[&str]>)] = &[
        ("git  reset  --soft", Some(&["git", "reset", "--soft"])),
        ("echo \"a\\$b\"", Some(&["echo", "a$b"])),
        ("a#b #c", Some(&["a#b"])),
        ("a\\\nb", Some(&["ab"])),
        ("x\r y", Some(&["x\r", "y"])),
        ("\".\\mvnw.cmd\" deploy", Some(&[".\\mvnw.cmd", "deploy"])),
        ("''", Some(&[""])),
        ("git \"unclosed", None),
        ("trailing\\", None),
    ];
    for (input, want) in cases {
        assert_eq!(rust_split(input), want.map(toks), "{input:?}");
    }
}

#[test]
fn shell_wrapper_split_corners() {
    // (script, Some(split) when plain, None when the whole argv is kept)
    let cases: &[(&str, Option<&[&[&str]]>)] = &[
        (
            "ls && pwd; echo 'hi there' | wc -l",
            Some(&[&["ls"], &["pwd"], &["echo", "hi there"], &["wc", "-l"]]),
        ),
        (
            "git commit -m \"line1\nline2\"",
            Some(&[&["git", "commit", "-m", "line1\nline2"]]),
        ),
        (
            "echo \"/usr\"'/'\"local\"/bin",
            Some(&[&["echo", "/usr/local/bin"]]),
        ),
        (
            "rg -n \"foo\" -g\"*.py\"",
            Some(&[&["rg", "-n", "foo", "-g*.py"]]),
        ),
        ("echo 123 456", Some(&[&["echo", "123", "456"]])),
        ("ls;", Some(&[&["ls"]])),
        ("ls &&\n pwd", Some(&[&["ls"], &["pwd"]])),
        ("echo a\\ b", Some(&[&["echo", "a\\ b"]])),
        (
            "echo \\$HOME \"\\$x\"",
            Some(&[&["echo", "\\$HOME", "\\$x"]]),
        ),
        ("echo \"\" x", Some(&[&["echo", "", "x"]])),
        ("echo \"\"''", None),
        ("echo \"hi ${USER}\"", None),
        ("echo \"$HOME\"", None),
        ("(ls)", None),
        ("ls || (pwd && echo hi)", None),
        ("ls > out.txt", None),
        ("echo hi & echo bye", None),
        ("echo $(pwd)", None),
        ("echo `pwd`", None),
        ("FOO=bar ls", None),
        ("ls &&", None),
        ("&& ls", None),
        ("ls ;; pwd", None),
        ("ls | | wc", None),
        ("\"git\" status", None),
        ("ls # comment", None),
        ("if true; then ls; fi", None),
        ("ls 2>/dev/null", None),
        ("", None),
    ];
    for (script, want) in cases {
        let got = parse_plain_script(script).filter(|c| !c.is_empty());
        let want: Option<Vec<Vec<String>>> = want.map(|cs| cs.iter().map(|c| toks(c)).collect());
        assert_eq!(got, want, "{script:?}");
    }
    let run = |v: &[&str]| commands_for_exec_policy(&toks(v));
    // Wrapper shapes: only [bash|zsh|sh (or a path), -c|-lc, script].
    assert_eq!(run(&["/bin/zsh", "-lc", "ls"]).commands, [toks(&["ls"])]);
    assert_eq!(run(&["bash.exe", "-c", "ls"]).commands, [toks(&["ls"])]);
    assert_eq!(
        run(&["bash", "-x", "-c", "ls"]).commands,
        [toks(&["bash", "-x", "-c", "ls"])]
    );
    assert_eq!(
        run(&["fish", "-c", "ls"]).commands,
        [toks(&["fish", "-c", "ls"])]
    );
    assert_eq!(
        run(&["bash", "-lc", "  \n\t  "]).commands,
        [toks(&["bash", "-lc", "  \n\t  "])]
    );
    // The heredoc path: one literal command, body and redirects dropped.
    let h = run(&["bash", "-lc", "python3 <<'PY'\nprint(1)\nPY"]);
    assert_eq!(
        (h.commands, h.used_complex_parsing),
        (vec![toks(&["python3"])], true)
    );
    let h = run(&["bash", "-lc", "cat <<EOF > out.txt\n$(rm -rf /)\nEOF"]);
    assert!(
        !h.used_complex_parsing,
        "a command substitution in the body is another command"
    );
    let h = run(&["bash", "-lc", "cat <<EOF | sh\nx\nEOF"]);
    assert!(!h.used_complex_parsing);
}

fn lesson_table() -> RuleTable {
    RuleTable::from_json(include_str!(
        "../../../../fixtures/rulesets/miniagent-standard.json"
    ))
    .unwrap()
}

#[test]
fn the_lesson_table_translates_only_shell_prefixes() {
    let (policy, skipped) = from_table(&lesson_table());
    assert_eq!(policy.rules().len(), 0);
    let rows: Vec<usize> = skipped.iter().map(|u| u.row).collect();
    assert_eq!(rows, (0..10).collect::<Vec<_>>());
    assert!(skipped[0].reason.contains("only sees shell commands"));
    assert!(skipped[7].reason.contains("literal first token"));
    assert!(
        skipped[8].reason.contains("glued to `unittest`"),
        "{}",
        skipped[8].reason
    );

    let table = RuleTable::new([
        ("bash", "git *", Action::Allow),
        ("bash", "git push *", Action::Ask),
        ("bash", "git push --force", Action::Deny),
        ("bash", "rm -rf /", Action::Deny),
        ("bash", "git * --force", Action::Deny),
        ("bash", "echo \"a", Action::Allow),
    ]);
    let (policy, skipped) = from_table(&table);
    assert_eq!(policy.rules().len(), 4);
    assert_eq!(
        policy.rules()[1].rest,
        [PatternToken::Single("push".into())]
    );
    assert_eq!(policy.rules()[1].decision, Decision::Prompt);
    assert_eq!(skipped.iter().map(|u| u.row).collect::<Vec<_>>(), [4, 5]);
    assert!(
        skipped[0].reason.contains("fixed token positions"),
        "{}",
        skipped[0].reason
    );
    assert!(skipped[1].reason.contains("No closing quotation"));
}

#[test]
fn the_engine_reports_the_strictest_row_and_is_honest_about_no_match() {
    let table = RuleTable::new([
        ("bash", "git *", Action::Allow),
        ("bash", "git push *", Action::Ask),
        ("edit_file", "*", Action::Allow),
        ("bash", "git push --force", Action::Deny),
        ("bash", "git push *", Action::Deny),
    ]);
    let e = CodexEngine::new(&table);
    let ev = e.evaluate(&Call::new("bash", "git push --force origin"));
    assert_eq!(ev.decision, Verdict::Deny);
    assert_eq!(
        ev.rule,
        Some(3),
        "the first row in table order with the strictest decision"
    );
    assert_eq!(ev.matches, [0, 1, 3, 4]);
    assert_eq!(
        ev.steps.iter().map(|s| s.row).collect::<Vec<_>>(),
        [0, 1, 3, 4]
    );
    assert!(ev.steps.iter().all(|s| s.tool_matched && !s.stop));
    assert_eq!(
        ev.reason,
        Reason::CodexStrictest {
            row: 3,
            action: Action::Deny,
            matched: 4
        }
    );
    assert_eq!(
        e.decide(&Call::new("bash", "git push --force origin")),
        (Verdict::Deny, Some(3))
    );

    // Later flags escape: the --force row does not match.
    let ev = e.evaluate(&Call::new("bash", "git status --force"));
    assert_eq!((ev.decision, ev.rule), (Verdict::Allow, Some(0)));

    let ev = e.evaluate(&Call::new("bash", "ls -la"));
    assert_eq!(
        (ev.decision, ev.rule, ev.reason.clone()),
        (Verdict::Ask, None, Reason::CodexNoRuleMatched)
    );
    assert!(ev.steps.iter().all(|s| s.pattern_matched == Some(false)));

    let ev = e.evaluate(&Call::new("edit_file", "src/main.rs"));
    assert_eq!(
        ev.reason,
        Reason::CodexNotACommand {
            tool: "edit_file".into()
        }
    );
    assert!(ev
        .steps
        .iter()
        .all(|s| !s.tool_matched && s.pattern_matched.is_none()));

    // An unterminated quote is not a plain script: codex-core checks the whole
    // `bash -lc <line>`, which only `bash` rows could match.
    let ev = e.evaluate(&Call::new("bash", "git push 'oops"));
    assert_eq!(ev.reason, Reason::CodexNoRuleMatched);
    assert_eq!(ev.parts[0].subject.text(), "bash -lc git push 'oops");
    assert_eq!(ev.decision, Verdict::Ask);
}

#[test]
fn course_commands_through_the_lesson_policy() {
    // codex.md §9: the lesson-style policy over the course's commands (shlex-split).
    let p = load(
        r#"
prefix_rule(pattern=["rm"], decision="prompt")
prefix_rule(pattern=["rm", ["-rf", "-fr"], ["/", "~"]], decision="forbidden")
prefix_rule(pattern=["sudo"], decision="forbidden")
prefix_rule(pattern=["dd"], decision="forbidden")
prefix_rule(pattern=["mkfs.ext4"], decision="forbidden")
prefix_rule(pattern=["git", "push"], decision="prompt")
prefix_rule(pattern=["git", "push", "--force"], decision="forbidden")
prefix_rule(pattern=[["python", "python3"], "-c"], decision="forbidden")
prefix_rule(pattern=["chmod"], decision="prompt")
prefix_rule(pattern=["curl"], decision="prompt")
prefix_rule(pattern=["git", ["status", "diff", "log"]])
prefix_rule(pattern=["python", "-m", "unittest"])
prefix_rule(pattern=[["cat", "ls"]])
"#,
    );
    let cases: &[(&str, Option<&str>)] = &[
        ("rm -rf /", Some("forbidden")),
        ("rm -rf ~", Some("forbidden")),
        (
            "python3 -c \"import shutil; shutil.rmtree('/')\"",
            Some("forbidden"),
        ),
        ("sudo ls", Some("forbidden")),
        ("git push --force", Some("forbidden")),
        ("mkfs.ext4 /dev/sda1", Some("forbidden")),
        ("dd if=/dev/zero of=/dev/sda", Some("forbidden")),
        ("chmod -R 777 /", Some("prompt")),
        ("curl x | sh", Some("prompt")),
        ("cat sudoku_solver.py", Some("allow")),
        ("ls -la", Some("allow")),
        ("git status", Some("allow")),
        ("python -m unittest -v test_dateparse.py", Some("allow")),
        (":(){ :|:& };:", None),
        ("> /etc/passwd", None),
    ];
    for (cmd, want) in cases {
        assert_eq!(decide(&p, &python_split(cmd).unwrap()), *want, "{cmd}");
    }
}

#[test]
fn rendered_rules_load_back_to_the_same_policy() {
    let p = load(
        r#"
prefix_rule(pattern=[["python", "python3"], "-c"], decision="forbidden", justification="no \"inline\"\ncode")
prefix_rule(pattern=["npm", ["i", "install"], "-g"], decision="prompt")
prefix_rule(pattern=["tab\there", "é😀", "back\\slash", "\x01"])
"#,
    );
    let again = load(&p.to_rules_text());
    assert_eq!(again.rules(), p.rules());

    let table = RuleTable::new([
        ("bash", "git push *", Action::Ask),
        ("bash", "python -m unittest*", Action::Allow),
        ("bash", "echo \"a b\" *", Action::Deny),
        ("read_file", "*", Action::Allow),
    ]);
    let (text, skipped) = to_rules(&table);
    assert_eq!(skipped.len(), 2);
    let loaded = load(&text);
    assert_eq!(loaded.rules(), from_table(&table).0.rules());
    assert!(
        text.contains(
            "# row 2: bash python -m unittest* → allow\n#   not expressible: the trailing `*`"
        ),
        "{text}"
    );
}

#[test]
fn multi_line_calls_render_like_starlark() {
    // Expected text printed by starlark-rust 0.13 for this file.
    let text = "prefix_rule(\n    pattern = [\"git\", \"push\"],\n    decision = \"Prompt\",\n)";
    let err = Policy::parse("policy.rules", text).unwrap_err();
    assert_eq!(
        err.cause,
        "starlark error: Traceback (most recent call last):\n  * policy.rules:1, in <module>\n      prefix_rule(\nerror: invalid decision: Prompt\n --> policy.rules:1:1\n  |\n1 | / prefix_rule(\n2 | |     pattern = [\"git\", \"push\"],\n3 | |     decision = \"Prompt\",\n4 | | )\n  | |_^\n  |"
    );
}

proptest::proptest! {
    /// The two-level index answers exactly what execpolicy's scan of the program's rules does,
    /// in the same order, including alternatives, duplicates and bare-program rules.
    #[test]
    fn the_index_agrees_with_the_scan(
        rules in proptest::collection::vec(
            (0..3usize, proptest::collection::vec(proptest::collection::vec(0..4usize, 1..3), 0..3)),
            0..40,
        ),
        cmds in proptest::collection::vec(proptest::collection::vec(0..5usize, 0..4), 1..20),
    ) {
        const WORDS: [&str; 5] = ["git", "push", "status", "-f", "x"];
        let mut text = String::new();
        for (first, rest) in &rules {
            let mut pattern = vec![format!("\"{}\"", WORDS[*first])];
            for alts in rest {
                let alts: Vec<String> = alts.iter().map(|a| format!("\"{}\"", WORDS[*a])).collect();
                pattern.push(if alts.len() == 1 { alts[0].clone() } else { format!("[{}]", alts.join(", ")) });
            }
            text.push_str(&format!("prefix_rule(pattern=[{}], decision=\"allow\")\n", pattern.join(", ")));
        }
        let policy = load(&text);
        for cmd in cmds {
            let cmd: Vec<String> = cmd.iter().map(|&w| WORDS[w].to_string()).collect();
            proptest::prop_assert_eq!(
                policy.matching_rule_indices(&cmd),
                policy.matching_rule_indices_by_scan(&cmd),
                "{:?}", cmd
            );
        }
    }
}

/// codex 0.171.0: an f-string hole holds any expression (`f"{t[0]} blocked"`), evaluated in
/// the enclosing scope; a name it uses must exist.
#[test]
fn f_strings_hold_expressions() {
    let text = "BLOCK = [(\"rm\", \"-rf\"), (\"git\", \"clean\")]\nfor t in BLOCK:\n    prefix_rule(pattern=list(t), decision=\"forbidden\", justification=f\"{t[0]} blocked ({len(t)} tokens, {'-'.join(t)})\")\n";
    let p = Policy::parse("policy.rules", text).unwrap();
    let j: Vec<&str> = p
        .rules()
        .iter()
        .map(|r| r.justification.as_deref().unwrap())
        .collect();
    assert_eq!(
        j,
        [
            "rm blocked (2 tokens, rm--rf)",
            "git blocked (2 tokens, git-clean)"
        ]
    );
    let err = Policy::parse("policy.rules", "prefix_rule(pattern=[f\"{nope[0]}\"])").unwrap_err();
    assert!(
        err.message.contains("Variable `nope` not found"),
        "{}",
        err.cli_text()
    );
}

/// codex 0.171.0's `canonical_matching=True`: full Unicode case folding of every token (the
/// examples too), nothing else; `False` and the default stay exact.
#[test]
fn canonical_matching_folds_case_only() {
    let p = Policy::parse(
        "policy.rules",
        "prefix_rule(pattern=[\"git\", [\"fetch\", \"pull\"]], decision=\"prompt\", canonical_matching=True, match=[\"GIT Pull\"], not_match=[\"gitx fetch\"])\nprefix_rule(pattern=[\"straße\"], canonical_matching=True)\nprefix_rule(pattern=[\"ls\"], canonical_matching=False)\n",
    )
    .unwrap();
    let d = |cmd: &[&str]| {
        let cmd: Vec<String> = cmd.iter().map(|s| s.to_string()).collect();
        p.check(&cmd).decision.map(|d| d.as_str())
    };
    assert_eq!(d(&["Git", "FETCH"]), Some("prompt"));
    assert_eq!(d(&["STRASSE"]), Some("allow"));
    assert_eq!(
        d(&["\u{ff27}\u{ff29}\u{ff34}", "fetch"]),
        None,
        "no NFKC: full-width letters miss"
    );
    assert_eq!(d(&["LS"]), None, "canonical_matching=False is exact");
    assert_eq!(d(&["ls"]), Some("allow"));
    let cmd: Vec<String> = ["GIT", "fetch", "origin"].map(String::from).to_vec();
    assert_eq!(
        p.check(&cmd).matched_rules_json(),
        r#"[{"prefixRuleMatch":{"matchedPrefix":["GIT","fetch"],"decision":"prompt"}}]"#,
        "the command's own tokens are reported"
    );
    // An example that does not fold to the pattern fails the load.
    let err = Policy::parse(
        "policy.rules",
        "prefix_rule(pattern=[\"rm\", \"-rf\"], canonical_matching=True, match=[\"rm -fr /\"])",
    )
    .unwrap_err();
    assert!(
        err.message.contains("expected every example to match"),
        "{}",
        err.cli_text()
    );
}

fn resolving(cwd: &str, home: Option<&str>) -> MatchOptions {
    MatchOptions {
        resolve_host_executables: true,
        cwd: Some(cwd.into()),
        home: home.map(str::to_string),
    }
}

fn resolved(p: &Policy, cmd: &[&str], options: &MatchOptions) -> Option<(Decision, String)> {
    let c = p.check_with_options(&toks(cmd), options);
    let m = c.matched_rules.first()?;
    Some((c.decision?, m.resolved_program.clone().unwrap_or_default()))
}

/// codex 0.171.0 (recorded): with host resolution, a canonical rule folds the basename of a
/// path program too; the directories are never folded, and nothing resolves without the flag.
#[test]
fn canonical_matching_folds_the_basename_of_a_resolved_program() {
    let p = load("prefix_rule(pattern=[\"ls\"], canonical_matching=True)\nprefix_rule(pattern=[\"terraform\"], canonical_matching=True, decision=\"prompt\")");
    let on = resolving("/work/proj", None);
    assert_eq!(
        resolved(&p, &["/usr/bin/LS"], &on),
        Some((Decision::Allow, "/usr/bin/LS".into()))
    );
    assert_eq!(
        decide(&p, &toks(&["/usr/bin/LS"])),
        None,
        "no flag, no resolution"
    );
    assert_eq!(
        resolved(&p, &["./TERRAFORM", "apply"], &on),
        Some((Decision::Prompt, "/work/proj/TERRAFORM".into()))
    );
    let c = p.check_with_options(&toks(&["/USR/BIN/ls", "-l"]), &on);
    assert_eq!(
        c.matched_rules_json(),
        r#"[{"prefixRuleMatch":{"matchedPrefix":["ls"],"decision":"allow","resolvedProgram":"/USR/BIN/ls"}}]"#
    );
    // An exact rule still compares the basename exactly.
    let exact = load("prefix_rule(pattern=[\"ls\"])");
    assert_eq!(resolved(&exact, &["/usr/bin/LS"], &on), None);
}

/// codex 0.171.0 (recorded): the allowlist declared for the program's own basename gates every
/// rule, and a canonical rule spelled otherwise is gated by its own name's allowlist too.
#[test]
fn canonical_rules_are_gated_by_the_allowlists_of_both_spellings() {
    let on = resolving("/", None);
    // `ls` lists /usr/bin/ls: `/usr/bin/LS` is not that path, `/bin/ls` is not either.
    let p = load("prefix_rule(pattern=[\"ls\"], canonical_matching=True)\nhost_executable(name=\"ls\", paths=[\"/usr/bin/ls\"])");
    assert_eq!(resolved(&p, &["/usr/bin/LS"], &on), None);
    assert_eq!(resolved(&p, &["/bin/ls"], &on), None);
    assert!(resolved(&p, &["/usr/bin/ls"], &on).is_some());
    // A rule written `LS` is not gated by the `ls` allowlist, but `/bin/ls` still is.
    let up = load("prefix_rule(pattern=[\"LS\"], canonical_matching=True)\nhost_executable(name=\"ls\", paths=[\"/usr/bin/ls\"])");
    assert!(resolved(&up, &["/bin/LS"], &on).is_some());
    assert!(resolved(&up, &["/bin/Ls"], &on).is_some());
    assert_eq!(resolved(&up, &["/bin/ls"], &on), None);
    // Two canonical rules: only the one whose name has no allowlist survives.
    let two = load("prefix_rule(pattern=[\"ls\"], canonical_matching=True, decision=\"prompt\")\nprefix_rule(pattern=[\"LS\"], canonical_matching=True)\nhost_executable(name=\"ls\", paths=[\"/usr/bin/ls\"])");
    assert_eq!(
        resolved(&two, &["/bin/LS"], &on),
        Some((Decision::Allow, "/bin/LS".into()))
    );
    assert_eq!(
        resolved(&two, &["/usr/bin/ls"], &on).map(|r| r.0),
        Some(Decision::Prompt)
    );
}

/// codex 0.171.0 (recorded): a canonical rule keeps its tokens as written; its repr in a
/// validation message shows them so.
#[test]
fn canonical_rules_keep_their_tokens_as_written() {
    let err = Policy::parse(
        "policy.rules",
        "prefix_rule(pattern=[\"LS\", \"X\"], canonical_matching=True, match=[\"ls y\"])",
    )
    .unwrap_err();
    assert!(
        err.message
            .contains(r#"first: \"LS\", rest: [Single(\"X\")]"#),
        "{}",
        err.message
    );
    assert_eq!(
        load("prefix_rule(pattern=[\"LS\"], canonical_matching=True)").rules()[0].first,
        "LS"
    );
}

/// codex 0.171.0 (recorded): a program `~` or `~/…` is expanded with HOME before it is
/// resolved; `~user/…` is a relative path; a relative HOME is taken against the directory.
#[test]
fn a_tilde_program_is_expanded_with_home() {
    let p = load("prefix_rule(pattern=[\"tool\"])\nprefix_rule(pattern=[\"alice\"])");
    let alice = resolving("/work", Some("/home/alice"));
    let at = |cmd: &str, o: &MatchOptions| resolved(&p, &[cmd, "x"], o).map(|r| r.1);
    assert_eq!(
        at("~/bin/tool", &alice).as_deref(),
        Some("/home/alice/bin/tool")
    );
    assert_eq!(at("~", &alice).as_deref(), Some("/home/alice"));
    assert_eq!(at("~/", &alice).as_deref(), Some("/home/alice"));
    assert_eq!(at("~/../tool", &alice).as_deref(), Some("/home/tool"));
    assert_eq!(
        at("~other/tool", &alice).as_deref(),
        Some("/work/~other/tool")
    );
    let trailing = resolving("/work", Some("/home/alice/"));
    assert_eq!(at("~/tool", &trailing).as_deref(), Some("/home/alice/tool"));
    let relative = resolving("/work", Some("rel/dir"));
    assert_eq!(
        at("~/tool", &relative).as_deref(),
        Some("/work/rel/dir/tool")
    );
    // Unknown HOME: not resolved.
    assert_eq!(at("~/bin/tool", &resolving("/work", None)), None);
    assert_eq!(
        decide(&p, &toks(&["~/bin/tool", "x"])),
        None,
        "no flag, no resolution"
    );
    // The allowlist compares the expanded path.
    let listed = load("prefix_rule(pattern=[\"tool\"])\nhost_executable(name=\"tool\", paths=[\"/home/alice/bin/tool\"])");
    assert!(resolved(&listed, &["~/bin/tool"], &alice).is_some());
    assert_eq!(resolved(&listed, &["~/tool"], &alice), None);
}

/// Examples resolve `~/` with the HOME given to the loader, like the CLI with its own HOME.
#[test]
fn examples_expand_tilde_with_the_loaders_home() {
    let text = "prefix_rule(pattern=[\"tool\"], match=[\"~/bin/tool x\"])\nhost_executable(name=\"tool\", paths=[\"/home/alice/bin/tool\"])";
    let env = |home: &str| MatchOptions {
        home: Some(home.into()),
        ..MatchOptions::default()
    };
    assert!(Policy::parse_files_with_env([("policy.rules", text)], &env("/home/alice")).is_ok());
    let err =
        Policy::parse_files_with_env([("policy.rules", text)], &env("/home/bob")).unwrap_err();
    assert!(
        err.message
            .ends_with(r#"unmatched examples: ["'~/bin/tool' x"]"#),
        "{}",
        err.message
    );
}

fn cause(text: &str) -> String {
    Policy::parse("policy.rules", text).unwrap_err().cause
}

/// codex 0.171.0 (recorded): a traceback frame's source line longer than 80 characters is cut
/// to 77 characters (not bytes) and `...`.
#[test]
fn traceback_source_lines_are_cut_after_77_characters() {
    let line = |n: usize, c: &str| {
        format!(
            "prefix_rule(pattern=[\"git\", \"{}\"], decision=\"n\")",
            c.repeat(n)
        )
    };
    let frame = |text: &str| cause(text).lines().nth(2).unwrap().trim().to_string();
    assert_eq!(
        frame(&line(34, "a")),
        line(34, "a"),
        "80 characters stay whole"
    );
    let cut = frame(&line(35, "a"));
    assert_eq!(cut.chars().count(), 80);
    assert!(cut.ends_with("aaa\"], decision=..."), "{cut}");
    let wide = frame(&line(60, "é"));
    assert_eq!(wide.chars().count(), 80, "{wide}");
    assert!(wide.ends_with("éé..."));
    // The source line under the error is never cut.
    assert!(cause(&line(35, "a")).contains(&line(35, "a")));
}

/// codex 0.171.0 (recorded): the line numbers of a snippet are right-aligned.
#[test]
fn the_line_number_gutter_is_right_aligned() {
    let text = format!(
        "{}prefix_rule(\n    pattern=[\"git\"],\n    decision=\"nope\",\n)",
        "# c\n".repeat(7)
    );
    let c = cause(&text);
    assert!(
        c.ends_with("  --> policy.rules:8:1\n   |\n 8 | / prefix_rule(\n 9 | |     pattern=[\"git\"],\n10 | |     decision=\"nope\",\n11 | | )\n   | |_^\n   |"),
        "{c}"
    );
}

/// codex 0.171.0 (recorded): an indented line where no block opens is an "unexpected new
/// indentation block", marked from the line start over the indentation.
#[test]
fn an_indented_line_is_an_unexpected_new_indentation_block() {
    for (text, line) in [
        ("x = 1\n    y = 2", 2),
        ("  x = 1", 1),
        ("def f():\n    x = 1\n        y = 2", 3),
    ] {
        let err = Policy::parse("policy.rules", text).unwrap_err();
        assert_eq!(
            err.message,
            "Parse error: unexpected new indentation block, expected expression"
        );
        assert_eq!((err.line, err.column), (line, 1), "{text:?}");
    }
    assert!(cause("x = 1\n    y = 2").ends_with("2 |     y = 2\n  | ^^^^\n  |"));
}

/// codex 0.171.0 (recorded): snippet markers count screen columns, two for a wide character.
#[test]
fn snippet_markers_count_screen_columns() {
    let c = cause("x = \"日本\" + 1");
    assert!(
        c.ends_with("1 | x = \"日本\" + 1\n  |     ^^^^^^^^^^\n  |"),
        "{c}"
    );
    // 45 characters, three of them full-width.
    let full = cause("prefix_rule(pattern=[\"ＧＩＴ\"], decision=\"nope\")");
    assert!(
        full.contains(&format!("\n  | {}\n", "^".repeat(48))),
        "{full}"
    );
}

/// What a file spends, in steps: the work counter the budgets use.
fn steps_of(text: &str) -> u64 {
    let mut p = Policy::empty();
    let (r, (steps, _)) = eval::run_file_spent("p.rules", text, &mut p, &Limits::DEFAULT);
    r.unwrap_or_else(|e| panic!("{}", e.message));
    steps
}

/// Work on big values is charged by the bytes and elements it touches, not per statement
/// (once, `hash` of a 1 MB string 30 000 times took 25 s as 30 000 steps). Counted, not
/// timed: the same file spends the same steps on any machine.
#[test]
fn text_work_costs_per_byte() {
    let base = "s = \"a\" * 640000\nu = \"a\" * 639999 + \"b\"\nL = [s] * 10\n";
    let plain = steps_of(base);
    let with = |op: &str| steps_of(&format!("{base}{op}\n")) - plain;
    // 640 000 bytes at one step per 64: 10 000 steps, plus the expression's own.
    assert!(
        (10_000..10_100).contains(&with("y = hash(s)")),
        "{}",
        with("y = hash(s)")
    );
    assert!((10_000..10_100).contains(&with("y = len(s)")));
    assert!((10_000..10_100).contains(&with("y = s == u")));
    assert!((10_000..10_100).contains(&with("y = s < u")));
    // Ten comparisons of equal-length texts: ten times one.
    assert!(
        (100_000..100_200).contains(&with("y = u in L")),
        "{}",
        with("y = u in L")
    );
    // The same text, or texts of different lengths, compare at once.
    assert!(with("y = s == s") < 10);
    assert!(with("y = s == u + \"c\"") < 10_100);
    assert!(with("y = s in L") < 10);
}

/// A result is measured and charged before it is built, and a pattern's strings before they
/// are copied: a prefix rule of 20 000 references to a 200 KB string (4 GB as tokens) is
/// refused at once, without the copies.
#[test]
fn big_results_are_refused_before_they_are_built() {
    let e = Policy::parse(
        "p.rules",
        "prefix_rule(pattern=[\"git\", [\"x\" * 200000] * 20000], decision=\"allow\")",
    )
    .unwrap_err();
    assert!(e.message.contains("memory budget"), "{}", e.message);
    let e = Policy::parse(
        "p.rules",
        "s = \"x\" * 1000000\nt = \"%s\" * 70\ny = t % tuple([s] * 70)",
    )
    .unwrap_err();
    assert!(e.message.contains("memory budget"), "{}", e.message);
}

/// Values nested far deeper than the stack allows to recurse are dropped with a loop
/// (once, `a = [a]` 200 000 times aborted the process). Run on a small stack, so that a
/// recursive drop would overflow it.
#[test]
fn deeply_nested_values_are_dropped_without_recursion() {
    let text = "def wrap(x):\n    return lambda: x\na = []\nfor i in range(30000):\n    a = [a]\n    a = (a,)\n    a = {\"k\": a}\n    a = [a].append\n    a = wrap(a)\n";
    let r = std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(move || {
            Policy::parse("p.rules", text)
                .map(drop)
                .map_err(|e| e.message)
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(r, Ok(()));
}
