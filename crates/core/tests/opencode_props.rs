//! Property tests for the OpenCode and first-match engines and `Wildcard.match`.

use permlab_core::first_match::FirstMatchEngine;
use permlab_core::opencode::wildcard::{fold_unit, matches, matches_on, Platform};
use permlab_core::opencode::{
    bash_call, evaluate, find_last, lesson_place, OpenCodeEngine, Rule, Scope,
};
use permlab_core::{Action, Call, Decision, Engine, RuleTable};
use proptest::prelude::*;

/// A deliberately simple `Wildcard.match`: the regex `^P$` (or `^P( .*)?$`) as a DP table over
/// UTF-16 units. Nothing shared with the port but the spec.
fn naive(input: &str, pattern: &str, windows: bool) -> bool {
    let prep = |s: &str| -> Vec<u16> {
        s.encode_utf16()
            .map(|u| if u == b'\\' as u16 { b'/' as u16 } else { u })
            .collect()
    };
    let (s, p) = (prep(input), prep(pattern));
    let eq = |a: u16, b: u16| {
        if windows {
            fold_unit(a) == fold_unit(b)
        } else {
            a == b
        }
    };
    let star = b'*' as u16;
    let q = b'?' as u16;
    let dp = |p: &[u16]| -> bool {
        // m[i][j]: p[..i] matches s[..j]
        let mut m = vec![vec![false; s.len() + 1]; p.len() + 1];
        m[0][0] = true;
        for i in 1..=p.len() {
            for j in 0..=s.len() {
                m[i][j] = if p[i - 1] == star {
                    m[i - 1][j] || (j > 0 && m[i][j - 1])
                } else {
                    j > 0 && m[i - 1][j - 1] && (p[i - 1] == q || eq(p[i - 1], s[j - 1]))
                };
            }
        }
        m[p.len()][s.len()]
    };
    if p.ends_with(&[b' ' as u16, star]) {
        dp(&p[..p.len() - 2]) || dp(&p)
    } else {
        dp(&p)
    }
}

fn text(alphabet: &'static [&'static str], max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(alphabet), 0..max).prop_map(|v| v.concat())
}

const PATTERN_ALPHABET: &[&str] = &[
    "a", "b", "A", "*", "?", " ", "\\", "/", "\n", "😀", "é", "É", ".", "ß",
];
const INPUT_ALPHABET: &[&str] = &[
    "a", "b", "A", "*", "?", " ", "\\", "/", "\n", "😀", "é", "É", ".", "ß", "\u{d7ff}",
];

const TOOLS: &[&str] = &[
    "bash", "edit", "read", "*", "ed*", "bash *", "?ash", "Bash", "ba\\sh",
];
const CALL_TOOLS: &[&str] = &[
    "bash", "edit", "read", "bash x", "Bash", "ba/sh", "edits", "",
];
const PATTERNS: &[&str] = &[
    "*",
    "git *",
    "git push *",
    "a*",
    "*b",
    "a?b",
    "",
    "ab",
    "git",
    "*.env",
    "a\\b",
    "a/*",
    "a/b *",
    "a\\b *",
    "/x/*",
    " *",
    "git push",
    "git  *",
    "GIT *",
];
const INPUTS: &[&str] = &[
    "git",
    "git push",
    "git push x",
    "gitx",
    "ab",
    "a/b",
    "axb",
    "",
    "x.env",
    "a\\b",
    "b",
    "a/b c",
    "a\\b c",
    "git ",
    "git  x",
    "/x/y",
    " x",
    "GIT push",
    "git push; rm -rf /tmp/x",
    "cd /tmp && git push",
    "x | git",
    "A=1",
    "echo \"$(git push)\"",
];

fn action() -> impl Strategy<Value = Action> {
    prop::sample::select(vec![Action::Allow, Action::Ask, Action::Deny])
}

fn table() -> impl Strategy<Value = RuleTable> {
    prop::collection::vec(
        (
            prop::sample::select(TOOLS),
            prop::sample::select(PATTERNS),
            action(),
        ),
        0..14,
    )
    .prop_map(RuleTable::new)
}

fn call() -> impl Strategy<Value = Call> {
    (
        prop::sample::select(CALL_TOOLS),
        prop::sample::select(INPUTS),
    )
        .prop_map(|(t, i)| Call::new(t, i))
}

fn to_rules(t: &RuleTable) -> Vec<Rule> {
    t.rules()
        .iter()
        .map(|r| Rule::new(&r.tool, &r.pattern, r.action))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn wildcard_agrees_with_a_naive_dp(input in text(INPUT_ALPHABET, 9), pattern in text(PATTERN_ALPHABET, 7)) {
        prop_assert_eq!(matches(&input, &pattern), naive(&input, &pattern, false), "{:?} {:?}", input, pattern);
        prop_assert_eq!(matches_on(Platform::Windows, &input, &pattern), naive(&input, &pattern, true));
    }

    #[test]
    fn wildcard_agrees_on_pattern_derived_inputs(
        body in text(PATTERN_ALPHABET, 7),
        tail in any::<bool>(),
        strip in any::<bool>(),
        fill in text(INPUT_ALPHABET, 3),
    ) {
        // Inputs built from the pattern match far more often than random ones; patterns often
        // end with the optional " *", and inputs often leave it out.
        let pattern = if tail { format!("{body} *") } else { body };
        let shown = if strip { pattern.strip_suffix(" *").unwrap_or(&pattern) } else { &pattern };
        let input = shown.replace("??", if tail { "😀" } else { "ab" }).replace('*', &fill).replace('?', "é");
        prop_assert_eq!(matches(&input, &pattern), naive(&input, &pattern, false), "{:?} {:?}", input, pattern);
    }

    #[test]
    fn first_match_on_the_reversed_table_is_last_match(t in table(), c in call()) {
        let n = t.len();
        let mut reversed = t.clone();
        reversed.reverse();
        let last = OpenCodeEngine::new(&t).scoped(Scope::Evaluate).evaluate(&c);
        let first = FirstMatchEngine::new(&reversed).evaluate(&c);
        prop_assert_eq!(last.decision, first.decision);
        prop_assert_eq!(last.rule, first.rule.map(|i| n - 1 - i));
        prop_assert_eq!(last.steps.len(), first.steps.len());
        let mut mirrored: Vec<usize> = first.matches.iter().map(|i| n - 1 - i).collect();
        mirrored.reverse();
        prop_assert_eq!(last.matches, mirrored);
    }

    #[test]
    fn reversing_twice_is_identity(t in table(), c in call()) {
        let mut twice = t.clone();
        twice.reverse();
        twice.reverse();
        prop_assert_eq!(&twice, &t);
        prop_assert_eq!(OpenCodeEngine::new(&twice).scoped(Scope::Evaluate).evaluate(&c), OpenCodeEngine::new(&t).scoped(Scope::Evaluate).evaluate(&c));
    }

    #[test]
    fn moving_a_non_matching_rule_changes_nothing(t in table(), c in call(), from in 0usize..14, to in 0usize..14) {
        prop_assume!(!t.is_empty());
        let (from, to) = (from % t.len(), to % t.len());
        let before = OpenCodeEngine::new(&t).scoped(Scope::Evaluate).evaluate(&c);
        prop_assume!(!before.matches.contains(&from));
        let mut moved = t.clone();
        moved.move_rule(from, to);
        let after = OpenCodeEngine::new(&moved).scoped(Scope::Evaluate).evaluate(&c);
        prop_assert_eq!(before.decision, after.decision);
        let id = |tab: &RuleTable, row: Option<usize>| row.map(|r| tab.rules()[r].id);
        prop_assert_eq!(id(&t, before.rule), id(&moved, after.rule));
    }

    #[test]
    fn fast_decide_equals_evaluate(t in table(), c in call()) {
        let rules = to_rules(&t);
        let reference = evaluate(&c.tool, &c.input, &[&rules]);
        let position = find_last(Platform::Linux, &c.tool, &c.input, &[&rules]);
        let engine = OpenCodeEngine::new(&t).scoped(Scope::Evaluate);
        let (decision, row) = engine.decide(&c);
        prop_assert_eq!(row, position);
        prop_assert_eq!(decision, Decision::from(reference.action));
        prop_assert_eq!(engine.evaluate_rule(&c.tool, &c.input), reference);
        let trace = engine.evaluate(&c);
        prop_assert_eq!((trace.decision, trace.rule), (decision, row));
        let fm = FirstMatchEngine::new(&t);
        let e = fm.evaluate(&c);
        prop_assert_eq!(fm.decide(&c), (e.decision, e.rule));
        prop_assert_eq!(e.rule, e.matches.first().copied());
    }

    /// The whole call: the fast path and the traced one agree, the verdict is the real bash
    /// tool's ([`bash_call`]), and a call split into parts names the part that decided.
    #[test]
    fn whole_call_decide_equals_evaluate_and_the_bash_tool(t in table(), c in call()) {
        let engine = OpenCodeEngine::new(&t);
        let e = engine.evaluate(&c);
        prop_assert_eq!(engine.decide(&c), (e.decision, e.rule));
        if c.tool == "bash" && engine.hidden_by().is_none() {
            let d = bash_call(&to_rules(&t), &c.input, &lesson_place());
            prop_assert_eq!(e.decision, Decision::from(d.decision));
        }
        if let Some((k, _)) = e.decided_by {
            prop_assert_eq!(e.parts[k].rule, e.rule);
            prop_assert_eq!(e.parts[k].decision, e.decision);
        }
        prop_assert!(e.steps.iter().all(|s| s.part.is_none_or(|k| k < e.parts.len())));
    }

    /// The index files rows by their pattern's first word; random wildcard text (spaces, `/`,
    /// `\\`, `?`, astral and foldable characters) must not find a row the plain scan would not.
    #[test]
    fn the_word_index_agrees_with_the_scan_on_random_patterns(
        rows in prop::collection::vec(
            (prop::sample::select(&["bash", "Bash", "*"][..]), text(PATTERN_ALPHABET, 6), action()),
            0..12,
        ),
        input in text(INPUT_ALPHABET, 7),
        tool in prop::sample::select(&["bash", "BASH"][..]),
    ) {
        let t = RuleTable::new(rows.iter().map(|(tool, p, a)| (*tool, p.as_str(), *a)));
        let rules = to_rules(&t);
        for platform in [Platform::Linux, Platform::Windows] {
            let position = find_last(platform, tool, &input, &[&rules]);
            prop_assert_eq!(OpenCodeEngine::with_platform(&t, platform).scoped(Scope::Evaluate).decide(&Call::new(tool, input.as_str())).1, position);
        }
        let first = rules.iter().position(|r| {
            permlab_core::opencode::wildcard::matches(tool, &r.permission)
                && permlab_core::opencode::wildcard::matches(&input, &r.pattern)
        });
        prop_assert_eq!(FirstMatchEngine::new(&t).decide(&Call::new(tool, input.as_str())).1, first);
    }

    #[test]
    fn windows_engine_equals_windows_evaluate(t in table(), c in call()) {
        let rules = to_rules(&t);
        let position = find_last(Platform::Windows, &c.tool, &c.input, &[&rules]);
        prop_assert_eq!(OpenCodeEngine::with_platform(&t, Platform::Windows).scoped(Scope::Evaluate).decide(&c).1, position);
    }
}
