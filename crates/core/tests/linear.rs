//! Matching stays linear in the input for every engine: each test times the worst patterns we
//! found on an input of size n and of size 10n and checks the ratio (linear ≈ 10, quadratic
//! ≈ 100, a backtracking glob far more). Generous on a loaded machine: the minimum of several
//! runs, a bound of 20×, and up to three tries.

use std::time::{Duration, Instant};

use permlab_core::{engines, Call, EngineId, RuleTable};

/// The fastest of `runs` timings of `f`.
fn fastest(runs: usize, mut f: impl FnMut()) -> Duration {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap()
}

/// Times ten runs of `run` on an input of size n against one run on an input of size 10n (the
/// same amount of work if `run` is linear, so both samples are equally exposed to a busy
/// machine) and fails if 10n costs 20× or more of n. Inputs are built by `make`, outside the
/// timing. Grows `n` until one run takes at least 2 ms, so timer noise and fixed costs do not
/// dominate; a function still faster than that at a million is not worth timing.
fn assert_linear<I>(what: &str, mut n: usize, make: impl Fn(usize) -> I, run: impl Fn(&I)) {
    loop {
        let input = make(n);
        if fastest(1, || run(&input)) >= Duration::from_millis(2) {
            break;
        }
        if n >= 1 << 20 {
            println!("{what}: under 2 ms at n = {n}: constant time, not timed");
            return;
        }
        n *= 2;
    }
    let (a, b) = (make(n), make(10 * n));
    // Up to three measurements: another process taking a core during one of them can push a
    // linear ratio past 20× (seen at 20.7× with both cores busy), a quadratic one is ~100× in
    // every measurement.
    let mut tries = Vec::new();
    for _ in 0..3 {
        let small = fastest(5, || {
            for _ in 0..10 {
                run(&a)
            }
        });
        let large = fastest(5, || run(&b));
        let ratio = 10.0 * large.as_secs_f64() / small.as_secs_f64().max(1e-9);
        println!(
            "{what}: n = {n}: {:?} → 10n: {large:?}: {ratio:.1}×",
            small / 10
        );
        if ratio < 20.0 {
            return;
        }
        tries.push(format!("{ratio:.1}× ({:?} → {large:?})", small / 10));
    }
    panic!(
        "{what}: 10× the input took 20× the time or more in every try: {}",
        tries.join(", ")
    );
}

#[test]
fn opencode_wildcard_is_linear() {
    use permlab_core::opencode::wildcard::matches;
    // Many stars over a text that almost matches: a backtracking matcher explodes here.
    let pattern = "*a*a*a*a*a*a*a*a*b";
    assert_linear(
        "opencode wildcard",
        1000,
        |n| "a".repeat(n),
        |input| assert!(!matches(input, pattern)),
    );
}

#[test]
fn claude_code_wildcard_is_linear() {
    use permlab_core::claude_code::bash::wildcard;
    assert_linear(
        "claude code wildcard",
        1000,
        |n| format!("git {}", "a ".repeat(n / 2)),
        |input| assert!(!wildcard("git * a * a * a * a * a * b", input)),
    );
}

#[test]
fn claude_code_compound_commands_are_linear() {
    use permlab_core::claude_code::shell::parse;
    // Long compound commands and nested substitutions: split in linear time.
    assert_linear(
        "claude code compound",
        200,
        |n| "echo $(a $(b)) && git status; ".repeat(n),
        |input| assert!(!parse(input).commands.is_empty()),
    );
}

#[test]
fn corecoder_and_lcc_blacklists_are_linear() {
    use permlab_core::corecoder::check_dangerous;
    let make = |n: usize| format!("echo {}", "rm -r".repeat(n));
    assert_linear("corecoder blacklist", 1000, make, |input| {
        let _ = check_dangerous(input);
    });
    assert_linear("lcc blacklist", 1000, make, |input| {
        let _ = permlab_core::lcc::gate1(&["rm -rf /", "mkfs", "dd if="], input);
    });
}

#[test]
fn codex_prefix_rules_are_linear() {
    // n rules of one program and second token, none matching the command: every one is
    // tried. n vs 10n rules (building is outside the timing).
    let cmd: Vec<String> = ["git", "a", "zzz", "y"].map(String::from).to_vec();
    assert_linear(
        "codex prefix rules",
        2000,
        |n| {
            // Built from a table (Starlark-loading 100 000 rules in a debug build is slow).
            let rows: Vec<String> = (0..n).map(|i| format!("git a x{i} y")).collect();
            let table = RuleTable::new(
                rows.iter()
                    .map(|p| ("bash", p.as_str(), permlab_core::Action::Ask)),
            );
            permlab_core::codex::from_table(&table).0
        },
        |policy| assert!(policy.check(&cmd).decision.is_none()),
    );
}

#[test]
fn every_engine_is_linear_in_the_call() {
    let table = RuleTable::from_json(
        r#"[
          {"tool": "bash", "pattern": "*a*a*a*a*a*a*b", "action": "deny"},
          {"tool": "bash", "pattern": "git *", "action": "allow"},
          {"tool": "bash", "pattern": "rm -rf *", "action": "deny"},
          {"tool": "read_file", "pattern": "**/a/**/a/**/b", "action": "deny"}
        ]"#,
    )
    .unwrap();
    for id in EngineId::ALL {
        let engine = engines::build(id, &table);
        assert_linear(
            &format!("{id} bash"),
            500,
            |n| Call::new("bash", format!("git {}", "a ".repeat(n))),
            |call| drop(engine.evaluate(call)),
        );
        if id == EngineId::ClaudeCode {
            continue; // see claude_code_read_path_is_linear
        }
        assert_linear(
            &format!("{id} read_file"),
            200,
            |n| Call::new("read_file", "a/".repeat(n)),
            |call| drop(engine.evaluate(call)),
        );
    }
}

fn many_rules(n: usize) -> RuleTable {
    let rows: Vec<(String, String)> = (0..n)
        .map(|i| ("bash".to_string(), format!("tool{i} *")))
        .collect();
    RuleTable::new(
        rows.iter()
            .map(|(t, p)| (t.as_str(), p.as_str(), permlab_core::Action::Deny)),
    )
}

/// Claude Code's Read rule `**/a/**/a/**/b` against a path `a/a/a/…`: quadratic or worse
/// today (10× the path took ~80× the time, 2 000 segments: 1.7 s in a debug build). The
/// path matcher is `claude_code/path.rs`; un-ignore when it is made linear.
#[test]
#[ignore = "super-linear Claude Code path matching (claude_code/path.rs)"]
fn claude_code_read_path_is_linear() {
    let table = RuleTable::from_json(
        r#"[{"tool": "read_file", "pattern": "**/a/**/a/**/b", "action": "deny"}]"#,
    )
    .unwrap();
    let engine = engines::build(EngineId::ClaudeCode, &table);
    assert_linear(
        "claude-code read_file",
        200,
        |n| Call::new("read_file", "a/".repeat(n)),
        |call| drop(engine.evaluate(call)),
    );
}

#[test]
fn first_match_evaluation_is_linear_in_the_rules() {
    // first-match scans the rules in order: n rules vs 10n rules, none matching. The engines
    // are built outside the timing (see the next test for building).
    let call = Call::new("bash", "ls -la");
    assert_linear(
        "first-match evaluation over n rules",
        1000,
        |n| engines::build(EngineId::FirstMatch, &many_rules(n)),
        |engine| drop(engine.evaluate(&call)),
    );
}

/// Building the first-match (OpenCode-wildcard) index for n rules. Quadratic today: 10× the
/// rules took ~120× the time (8 000 rules: 1.1 s in a debug build). The index is
/// `opencode/index`; un-ignore when its build is made linear.
#[test]
#[ignore = "quadratic index build (opencode index)"]
fn first_match_build_is_linear_in_the_rules() {
    assert_linear("first-match build", 100, many_rules, |table| {
        drop(engines::build(EngineId::FirstMatch, table));
    });
}

/// The Claude Code shell parser is linear in what used to make it quadratic: leading
/// assignments (`A=1 A=1 … ls`), reserved words opening a body (`{ { … ls; }; }`) and
/// redirections between the words (`echo a >x a >x …`).
#[test]
fn claude_code_shell_parser_is_linear_in_assignments_braces_and_redirections() {
    use permlab_core::claude_code::shell::parse;
    assert_linear(
        "claude code shell: assignments",
        1000,
        |n| format!("{}ls", "A=1 ".repeat(n)),
        |input| assert_eq!(parse(input).commands.len(), 1),
    );
    assert_linear(
        "claude code shell: brace groups",
        1000,
        |n| format!("{}ls{}", "{ ".repeat(n), "; }".repeat(n)),
        |input| assert_eq!(parse(input).commands.len(), 1),
    );
    assert_linear(
        "claude code shell: redirections",
        1000,
        |n| format!("echo {}", "a >x ".repeat(n)),
        |input| assert_eq!(parse(input).commands.len(), 1),
    );
}

/// The whole Claude Code engine, not only its parser, on the same shapes. Both sizes are
/// over `MAX_COMMAND_CHARS` (a longer command takes another path: unparseable).
#[test]
fn claude_code_engine_is_linear_in_assignments_and_braces() {
    let table = RuleTable::from_json(
        r#"[{"tool": "bash", "pattern": "git *", "action": "allow"},
            {"tool": "bash", "pattern": "rm *", "action": "deny"}]"#,
    )
    .unwrap();
    let engine = engines::build(EngineId::ClaudeCode, &table);
    assert_linear(
        "claude code engine: assignments",
        4000,
        |n| Call::parse(&format!("bash: {}ls", "A=1 ".repeat(n))).unwrap(),
        |call| {
            engine.decide(call);
        },
    );
    assert_linear(
        "claude code engine: brace groups",
        4000,
        |n| Call::parse(&format!("bash: {}ls{}", "{ ".repeat(n), "; }".repeat(n))).unwrap(),
        |call| {
            engine.decide(call);
        },
    );
}
