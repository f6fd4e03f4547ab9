//! Crafted inputs that used to take quadratic time: each is timed at two sizes, 10×
//! apart, and the ratio of the fastest of several runs must stay under 20× (linear work gives
//! ~10×; the former algorithms gave 40× and more at these sizes). Ratios, not clocks: a slow
//! machine slows both sizes alike.

use std::time::{Duration, Instant};

use permlab_core::codex::Policy;
use permlab_core::{engines, Call, Decision, EngineId, RuleTable};

/// The time of one `f()`: the fastest of `runs` samples of `reps` calls each. The small size
/// of a pair runs 10× as many calls per sample, so that both samples last about as long and
/// meet the same preemption on a busy machine (a 1 ms sample slips between other processes,
/// a 20 ms one does not).
fn fastest(runs: usize, reps: u32, mut f: impl FnMut()) -> Duration {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..reps {
                f();
            }
            t.elapsed() / reps
        })
        .min()
        .unwrap()
}

fn ratio(small: Duration, large: Duration) -> f64 {
    large.as_secs_f64() / small.as_secs_f64().max(1e-6)
}

/// 18.1: a `read_file` path of `a/` × N under a `Read(x)` deny (a rule with a bare name, which
/// matches at any depth and through every ancestor) is read in one pass.
#[test]
fn claude_code_path_matching_is_linear_in_the_path() {
    let table =
        RuleTable::from_json(r#"[{"tool": "read_file", "pattern": "x", "action": "deny"}]"#)
            .unwrap();
    let engine = engines::build(EngineId::ClaudeCode, &table);
    // `evaluate` (what `permlab eval` and the page run) also lists every matching rule, with
    // no index to skip the rule: the path matcher itself must be linear.
    let time = |n: usize, reps: u32| {
        let call = Call::new("read_file", "a/".repeat(n));
        fastest(5, reps, || {
            let e = engine.evaluate(&call);
            assert_ne!(e.decision, Decision::Deny, "no segment is x");
            assert!(e.matches.is_empty());
        })
    };
    // The deny still reaches the bottom of a deep path.
    let deep = Call::new("read_file", format!("{}x", "a/".repeat(20_000)));
    assert_eq!(engine.decide(&deep).0, Decision::Deny);
    let deep_dir = Call::new(
        "read_file",
        format!("{}x/{}b", "a/".repeat(10_000), "a/".repeat(10_000)),
    );
    assert_eq!(engine.decide(&deep_dir).0, Decision::Deny);
    let (small, large) = (time(2_000, 10), time(20_000, 1));
    let r = ratio(small, large);
    eprintln!("read_file a/×2000: {small:?}, ×20000: {large:?}, ratio {r:.1}");
    assert!(r < 20.0, "10× the path took {r:.1}× the time");
}

/// An unclosed `"""` followed by `lines` short lines.
fn unclosed(lines: usize) -> String {
    format!(
        "prefix_rule(pattern=[\"git\"], decision=\"allow\", justification=\"\"\"\n{}",
        "x\n".repeat(lines)
    )
}

/// 18.4: an unclosed `"""` spans the rest of the file; its error is built in one pass and
/// shows a bounded excerpt of the span, not the whole file.
#[test]
fn codex_unclosed_string_error_is_linear_and_bounded() {
    let time = |lines: usize, reps: u32| {
        let text = unclosed(lines);
        fastest(3, reps, || {
            Policy::parse("big.rules", &text).unwrap_err();
        })
    };
    let e = Policy::parse("big.rules", &unclosed(100_000)).unwrap_err();
    assert_eq!((e.line, e.column), (1, 62), "{e}");
    let cause = e.cli_text();
    assert!(
        cause.len() < 2_000,
        "{} bytes:\n{}",
        cause.len(),
        &cause[..2_000]
    );
    assert!(cause.contains("… 99996 lines …"), "{cause}");
    assert!(
        cause.contains("100001 | | x"),
        "the last lines are kept: {cause}"
    );
    let (small, large) = (time(10_000, 10), time(100_000, 1));
    let r = ratio(small, large);
    eprintln!("unclosed \"\"\" 20 KB: {small:?}, 200 KB: {large:?}, ratio {r:.1}");
    assert!(r < 20.0, "10× the file took {r:.1}× the time");
}

/// A short multi-line span is still drawn whole, as starlark-rust draws it.
#[test]
fn codex_short_spans_are_drawn_whole() {
    let e = Policy::parse("p.rules", &unclosed(3)).unwrap_err();
    let cause = e.cli_text();
    assert!(!cause.contains(" lines …"), "{cause}");
    assert_eq!(cause.matches("| | x").count(), 3, "{cause}");
}

/// 18.5: locating every wrong answer of a lesson is linear in their number.
#[test]
fn locating_many_paths_is_linear() {
    use permlab_core::lesson::Locator;
    let lesson = |n: usize| {
        let calls: Vec<String> = (0..n)
            .map(|i| format!("{{\"tool\": \"bash\", \"input\": \"ls {i}\", \"expect\": {{\"opencode\": \"deny\"}}}}"))
            .collect();
        format!(
            "{{\"presets\": [{{\"calls\": [\n{}\n]}}]}}",
            calls.join(",\n")
        )
    };
    let time = |n: usize, reps: u32| {
        let text = lesson(n);
        fastest(3, reps, || {
            let at = Locator::new(&text);
            for i in 0..n {
                let p = at
                    .locate(&format!("presets[0].calls[{i}].expect.opencode"))
                    .unwrap();
                assert_eq!(p.line, i + 2);
            }
        })
    };
    let (small, large) = (time(1_000, 10), time(10_000, 1));
    let r = ratio(small, large);
    eprintln!("locate 1000 answers: {small:?}, 10000: {large:?}, ratio {r:.1}");
    assert!(r < 20.0, "10× the answers took {r:.1}× the time");
}

/// The linter's covers proofs on long patterns. Each shape is linted at two sizes
/// 10× apart; a pattern past the linter's budgets (`lint::glob::MAX_STARS`,
/// `MAX_PATTERN_UNITS`, the work per search and per run) is skipped with a note, so the
/// larger size never stalls. Before the budgets, one allow rule of 500 `*` took 25 s.
#[test]
fn lint_is_near_linear_in_the_pattern() {
    use permlab_core::import::Format;
    use permlab_core::lint::lint_text_checked;
    let claude = |allow: String| {
        let denies: Vec<String> = (0..20).map(|i| format!("\"Bash(rm{i} *)\"")).collect();
        format!(
            "{{\"permissions\": {{\"allow\": [\"Bash({allow})\"], \"deny\": [{}]}}}}",
            denies.join(", ")
        )
    };
    /// A config of size `n`.
    type Make = Box<dyn Fn(usize) -> String>;
    let shapes: [(&str, Format, usize, Make); 4] = [
        (
            "claude code: words with a star",
            Format::ClaudeCode,
            15,
            Box::new(move |n| claude((0..n).map(|i| format!("w{}* ", i % 7)).collect())),
        ),
        (
            "claude code: a long literal (searched at both sizes)",
            Format::ClaudeCode,
            90,
            Box::new(move |n| claude(format!("git {} *", "ab".repeat(n)))),
        ),
        (
            "opencode: a **/ chain",
            Format::OpenCode,
            15,
            Box::new(|n| {
                format!(
                    "{{\"permission\": {{\"read\": {{\"{}.env\": \"allow\", \"*.env\": \"deny\", \"src/**\": \"ask\"}}}}}}",
                    "**/".repeat(n)
                )
            }),
        ),
        (
            "opencode: stars between letters",
            Format::OpenCode,
            15,
            Box::new(|n| {
                format!(
                    "{{\"permission\": {{\"bash\": {{\"{}\": \"allow\", \"git *\": \"deny\", \"*\": \"ask\"}}}}}}",
                    "a*".repeat(n)
                )
            }),
        ),
    ];
    for (what, format, n, make) in shapes {
        let (a, b) = (make(n), make(10 * n));
        let small = fastest(5, 10, || {
            let _ = lint_text_checked(format, &a);
        });
        let large = fastest(5, 1, || {
            let _ = lint_text_checked(format, &b);
        });
        let r = ratio(small, large);
        eprintln!("lint {what}: n = {n}: {small:?}, 10n: {large:?}, ratio {r:.1}");
        assert!(
            r < 20.0,
            "lint {what}: 10× the pattern took {r:.1}× the time"
        );
        assert!(
            large < Duration::from_secs(2),
            "lint {what} at 10n took {large:?}"
        );
    }
}

/// Linting a Codex policy is near-linear in its rules (a 20 000-rule paste took
/// 14 s; 20 000 alternatives, each a rule, 23 s): a rule is compared only with the rules
/// that could cover it, and a demonstrating call is decided through the policy's index.
#[test]
fn codex_lint_is_near_linear_in_the_rules() {
    use permlab_core::import::Format;
    use permlab_core::lint::lint_text_checked;
    let many = |n: usize| -> String {
        (0..n)
            .map(|i| format!("prefix_rule(pattern = [\"git\", \"a{i}\"], decision = \"allow\")\n"))
            .collect()
    };
    let alts = |n: usize| -> String {
        let a: Vec<String> = (0..n).map(|i| format!("\"a{i}\"")).collect();
        format!(
            "prefix_rule(pattern = [[{}], \"x\"], decision = \"allow\")\nprefix_rule(pattern = [[{}]], decision = \"forbidden\")\n",
            a.join(", "),
            a.join(", ")
        )
    };
    for (what, make) in [
        ("rules", &many as &dyn Fn(usize) -> String),
        ("alternatives", &alts),
    ] {
        let (a, b) = (make(200), make(2000));
        // Up to three tries: a busy core can push one measurement past 20×; the quadratic
        // comparison was far past it in every one.
        let mut ratios = Vec::new();
        for _ in 0..3 {
            let small = fastest(5, 10, || {
                let _ = lint_text_checked(Format::Codex, &a);
            });
            let large = fastest(3, 1, || {
                let _ = lint_text_checked(Format::Codex, &b);
            });
            let r = ratio(small, large);
            eprintln!("codex lint, 200 → 2000 {what}: {small:?}, {large:?}, ratio {r:.1}");
            ratios.push(r);
            if r < 20.0 {
                break;
            }
        }
        assert!(
            ratios.iter().any(|r| *r < 20.0),
            "codex lint: 10× the {what} took {ratios:.1?}× the time"
        );
    }
}
