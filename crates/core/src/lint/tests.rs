//! Each finding kind: a config that has it and one that does not, every demonstrating call
//! re-checked with the harness's engine; and the property that removing a rule reported dead
//! never changes a verdict.

use super::*;
use crate::claude_code::table::to_tool_call;
use crate::claude_code::{CompiledPolicy, Context, Mode, Policy, Scope, SettingsFile};
use crate::engines;
use crate::evaluation::Decision;
use crate::import::import;
use crate::opencode::{find_last, Platform};

/// The verdicts the harness's engine gives the finding's call, computed here independently
/// (OpenCode: one per ruleset the file defines, the top level and each agent's).
fn engine_verdicts(format: Format, text: &str, f: &Finding) -> Vec<Decision> {
    match (f.kind, format) {
        (Kind::Translation, _) => {
            let t = import(format, text).unwrap().table;
            vec![
                engines::build(f.harness.engine(), &t)
                    .decide(&f.call.call)
                    .0,
            ]
        }
        (_, Format::OpenCode) => {
            let sets = super::opencode::read(&Source::new("t", text)).unwrap();
            let top: Vec<_> = sets.top.iter().map(|w| w.rule.clone()).collect();
            let mut all = vec![top.clone()];
            for (_, a) in &sets.agents {
                let mut r = top.clone();
                r.extend(a.iter().map(|w| w.rule.clone()));
                all.push(r);
            }
            let mut out: Vec<Decision> = all
                .iter()
                .map(|rules| {
                    let c = &f.call.call;
                    // `bash`: the real bash tool's whole call, unless the ruleset hides it.
                    if c.tool == "bash" {
                        if crate::opencode::disabled("bash", rules) {
                            return Decision::Unavailable;
                        }
                        let place = crate::opencode::Place::of(&Default::default());
                        return crate::opencode::bash_call(rules, &c.input, &place)
                            .decision
                            .into();
                    }
                    find_last(
                        Platform::Linux,
                        &f.call.call.tool,
                        &f.call.call.input,
                        &[rules],
                    )
                    .map(|i| rules[i].action.into())
                    .unwrap_or(Decision::Ask)
                })
                .collect();
            // The public engine over the imported table agrees for the top level.
            let t = import(format, text).unwrap().table;
            let e = engines::build(crate::EngineId::OpenCode, &t)
                .decide(&f.call.call)
                .0;
            assert_eq!(e, out[0], "{f}");
            out.dedup();
            out
        }
        (_, Format::ClaudeCode) => {
            let file = SettingsFile::from_json(text, Scope::Project).unwrap();
            let policy = Policy::merge(&[file], true);
            let mode = policy.session_mode();
            let p = CompiledPolicy::new(policy, mode, Context::default());
            let v = p.evaluate(&to_tool_call(&f.call.call));
            vec![match v.outcome {
                crate::claude_code::Outcome::Allow => Decision::Allow,
                crate::claude_code::Outcome::Deny => Decision::Deny,
                crate::claude_code::Outcome::Unavailable => Decision::Unavailable,
                _ => Decision::Ask,
            }]
        }
        (_, Format::Codex) => {
            // A policy whose examples fail does not load; check the call without them.
            let mut p = crate::codex::Policy::empty();
            p.add_file_with_calls("t.rules", text).unwrap();
            let argv = crate::codex::shlex::rust_split(&f.call.call.input).unwrap();
            vec![match p.check(&argv).decision {
                Some(crate::codex::Decision::Allow) => Decision::Allow,
                Some(crate::codex::Decision::Forbidden) => Decision::Deny,
                _ => Decision::Ask,
            }]
        }
    }
}

fn run(format: Format, text: &str, target: Option<Format>) -> Vec<Finding> {
    let r = lint(
        &[Source {
            name: "t".into(),
            text: text.into(),
            format: Some(format),
            scope: None,
        }],
        target,
    );
    assert!(r.errors.is_empty(), "{:?}", r.errors);
    for f in &r.findings {
        let got = engine_verdicts(format, text, f);
        assert!(
            got.contains(&f.call.verdict),
            "the engine says {got:?}, not the finding's verdict: {f}"
        );
    }
    r.findings
}

/// Every finding on every corpus config (and with each `--target`): its call, re-run through
/// the harness's engine here, gets the verdict the finding states.
#[test]
fn corpus_findings_are_confirmed_by_the_engines() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let mut checked = 0;
    let mut moved: std::collections::BTreeMap<&str, usize> = Default::default();
    for (dir, format) in [
        ("claude", Format::ClaudeCode),
        ("opencode", Format::OpenCode),
        ("codex", Format::Codex),
    ] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = e.unwrap().path();
            if path.to_string_lossy().ends_with(".tsv") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            // (A target equal to the source gives no translation findings: skipped.)
            for target in [
                None,
                Some(Format::ClaudeCode),
                Some(Format::OpenCode),
                Some(Format::Codex),
            ]
            .into_iter()
            .filter(|t| *t != Some(format))
            {
                let r = lint(
                    &[Source {
                        name: "t".into(),
                        text: text.clone(),
                        format: Some(format),
                        scope: Some(Scope::Project),
                    }],
                    target,
                );
                for f in &r.findings {
                    if let Some(t) = target {
                        if f.kind != Kind::Translation {
                            continue;
                        }
                        assert_eq!(f.harness, t);
                        *moved.entry(t.slug()).or_default() += 1;
                    }
                    let got = engine_verdicts(format, &text, f);
                    assert!(
                        got.contains(&f.call.verdict),
                        "{}: engine says {got:?}: {f}",
                        path.display()
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1000, "{checked}");
    println!("{checked} corpus findings re-checked; translation hazards by target: {moved:?}");
}

struct Case {
    kind: Kind,
    format: Format,
    has: &'static str,
    hasnt: &'static str,
    /// The demonstrating call's input must be this.
    call: &'static str,
}

const CASES: &[Case] = &[
    Case {
        kind: Kind::DeadRule,
        format: Format::OpenCode,
        has: r#"{"permission": {"bash": {"rm *": "deny", "*": "allow"}}}"#,
        hasnt: r#"{"permission": {"bash": {"*": "allow", "rm *": "deny"}}}"#,
        call: "rm",
    },
    Case {
        kind: Kind::DeadRule,
        format: Format::OpenCode,
        // Shadowed by a later rule of a wider permission.
        has: r#"{"permission": {"edit": {"src/*": "deny"}, "*": "allow"}}"#,
        hasnt: r#"{"permission": {"*": "allow", "edit": {"src/*": "deny"}}}"#,
        call: "src/x",
    },
    Case {
        kind: Kind::OrderFragile,
        format: Format::OpenCode,
        has: r#"{"permission": {"bash": {"git *": "allow", "* --force": "deny"}}}"#,
        hasnt: r#"{"permission": {"bash": {"git *": "allow", "git push *": "deny"}}}"#,
        call: "git --force",
    },
    Case {
        kind: Kind::NoSpaceStar,
        format: Format::OpenCode,
        has: r#"{"permission": {"bash": {"*": "allow", "yarn": "deny"}}}"#,
        hasnt: r#"{"permission": {"bash": {"*": "allow", "yarn *": "deny"}}}"#,
        call: "yarn test",
    },
    Case {
        kind: Kind::StarCrossesSlash,
        format: Format::OpenCode,
        has: r#"{"permission": {"edit": {"*": "ask", "src/*": "allow"}}}"#,
        hasnt: r#"{"permission": {"edit": {"*": "ask", "src/*": "deny"}}}"#,
        call: "src/a/b",
    },
    Case {
        kind: Kind::Globstar,
        format: Format::OpenCode,
        has: "---\ndescription: reviewer\npermission:\n  read:\n    \"**/.env\": deny\n---\nbody\n",
        hasnt: "---\ndescription: reviewer\npermission:\n  read:\n    \"*.env\": deny\n---\nbody\n",
        call: ".env",
    },
    Case {
        kind: Kind::QuestionMark,
        format: Format::OpenCode,
        has: r#"{"permission": {"edit": {"*": "ask", "notes/?.md": "allow"}}}"#,
        hasnt: r#"{"permission": {"edit": {"*": "ask", "notes/*.md": "allow"}}}"#,
        call: "notes/😀.md",
    },
    Case {
        kind: Kind::DeadRule,
        format: Format::ClaudeCode,
        has: r#"{"permissions": {"allow": ["Bash(aws s3 ls)"], "deny": ["Bash(aws *)"]}}"#,
        hasnt: r#"{"permissions": {"allow": ["Bash(aws s3 ls)"], "deny": ["Bash(aws s3 rm *)"]}}"#,
        call: "aws s3 ls",
    },
    Case {
        kind: Kind::DeadRule,
        format: Format::ClaudeCode,
        // An allow under an ask.
        has: r#"{"permissions": {"allow": ["Bash(npm publish --dry-run)"], "ask": ["Bash(npm publish:*)"]}}"#,
        hasnt: r#"{"permissions": {"allow": ["Bash(npm publish --dry-run)"], "ask": ["Bash(npm publish)"]}}"#,
        call: "npm publish --dry-run",
    },
    Case {
        kind: Kind::ColonStar,
        format: Format::ClaudeCode,
        has: r#"{"permissions": {"deny": ["Bash(git:* push)"]}}"#,
        hasnt: r#"{"permissions": {"deny": ["Bash(git push:*)"]}}"#,
        call: "git push",
    },
    Case {
        kind: Kind::TrailingStar,
        format: Format::ClaudeCode,
        has: r#"{"permissions": {"allow": ["Bash(ssh * uptime *)"]}}"#,
        hasnt: r#"{"permissions": {"allow": ["Bash(ssh * uptime *)", "Bash(ssh * uptime)"]}}"#,
        call: "ssh x uptime",
    },
    Case {
        kind: Kind::BareDeny,
        format: Format::ClaudeCode,
        has: r#"{"permissions": {"allow": ["Bash(npm test)"], "deny": ["Bash"]}}"#,
        hasnt: r#"{"permissions": {"allow": ["Bash(npm test)"], "deny": ["Bash(rm *)"]}}"#,
        call: "npm test",
    },
    Case {
        kind: Kind::PathAnchor,
        format: Format::ClaudeCode,
        has: r#"{"permissions": {"deny": ["Read(/etc/shadow)"]}}"#,
        hasnt: r#"{"permissions": {"deny": ["Read(//etc/shadow)"]}}"#,
        call: "/etc/shadow",
    },
    Case {
        kind: Kind::OutsideCwd,
        format: Format::ClaudeCode,
        has: r#"{"permissions": {"deny": ["Read(**/.secrets*)"]}}"#,
        hasnt: r#"{"permissions": {"deny": ["Read(//**/.secrets*)"]}}"#,
        call: "/home/alice/.secretsx",
    },
    Case {
        kind: Kind::WrapperBypass,
        format: Format::ClaudeCode,
        has: r#"{"permissions": {"deny": ["Bash(curl *)"]}}"#,
        hasnt: r#"{"permissions": {"deny": ["Bash(*curl*)"]}}"#,
        call: "sh -c 'curl'",
    },
    Case {
        kind: Kind::DeadRule,
        format: Format::Codex,
        has: "prefix_rule(pattern=[\"git\"], decision=\"prompt\")\nprefix_rule(pattern=[\"git\", \"status\"], decision=\"allow\")\n",
        hasnt: "prefix_rule(pattern=[\"git\", \"push\"], decision=\"prompt\")\nprefix_rule(pattern=[\"git\", \"status\"], decision=\"allow\")\n",
        call: "git status",
    },
    Case {
        kind: Kind::FlagAfterPrefix,
        format: Format::Codex,
        has: "prefix_rule(pattern=[\"git\", \"push\", \"--force\"], decision=\"forbidden\")\n",
        hasnt: "prefix_rule(pattern=[\"git\", \"push\"], decision=\"forbidden\")\n",
        call: "git push origin --force",
    },
    Case {
        kind: Kind::TokenWithSpace,
        format: Format::Codex,
        has: "prefix_rule(pattern=[\"git\", \"push --force\"], decision=\"forbidden\")\n",
        hasnt: "prefix_rule(pattern=[\"bash\", \"-lc\", \"git push --force\"], decision=\"forbidden\")\n",
        call: "git push --force",
    },
    Case {
        kind: Kind::FailingExample,
        format: Format::Codex,
        has: "prefix_rule(\n    pattern=[\"cat\", \".env\"],\n    decision=\"forbidden\",\n    match=[\"cat .env.local\"],\n)\n",
        hasnt: "prefix_rule(\n    pattern=[\"cat\", \".env\"],\n    decision=\"forbidden\",\n    match=[\"cat .env -n\"],\n)\n",
        call: "cat .env.local",
    },
];

#[test]
fn each_kind_is_found_where_it_is_and_only_there() {
    for (n, c) in CASES.iter().enumerate() {
        let found = run(c.format, c.has, None);
        let f = found
            .iter()
            .find(|f| f.kind == c.kind)
            .unwrap_or_else(|| panic!("case {n}: no {:?} in {}: {found:#?}", c.kind, c.has));
        assert_eq!(f.call.call.input, c.call, "case {n}: {f}");
        assert_eq!(f.harness, c.format);
        assert!(f.place.line >= 1 && f.place.column >= 1);
        let clean = run(c.format, c.hasnt, None);
        assert!(
            clean.iter().all(|f| f.kind != c.kind),
            "case {n}: unexpected {:?} in {}: {clean:#?}",
            c.kind,
            c.hasnt
        );
    }
}

#[test]
fn every_kind_but_translation_has_a_case() {
    for k in Kind::ALL {
        if k != Kind::Translation {
            assert!(CASES.iter().any(|c| c.kind == k), "{k:?}");
        }
    }
}

#[test]
fn translation_hazards_need_a_target_and_name_the_changed_rule() {
    // The lesson's table: `bash *: deny` then the unittest allows. In Claude Code the row
    // becomes a bare `deny Bash`, which removes the tool: the allows can never apply.
    let text = r#"{"permission": {"bash": {"*": "deny", "python -m unittest *": "allow"}}}"#;
    assert!(run(Format::OpenCode, text, None)
        .iter()
        .all(|f| f.kind != Kind::Translation));
    let found = run(Format::OpenCode, text, Some(Format::ClaudeCode));
    let t: Vec<&Finding> = found
        .iter()
        .filter(|f| f.kind == Kind::Translation)
        .collect();
    assert!(!t.is_empty(), "{found:#?}");
    let f = t
        .iter()
        .find(|f| f.call.call.input.starts_with("python -m unittest"))
        .expect("the unittest call changes");
    assert_eq!(f.call.verdict, Decision::Unavailable);
    assert_eq!(f.harness, Format::ClaudeCode);
    // A config that means the same in both: no hazard.
    let same = r#"{"permission": {"bash": {"git push *": "deny"}}}"#;
    assert!(run(Format::OpenCode, same, Some(Format::ClaudeCode))
        .iter()
        .all(|f| f.kind != Kind::Translation));
}

#[test]
fn positions_point_at_the_rule() {
    let text = "{\n  \"permissions\": {\n    \"allow\": [\n      42,\n      \"Bash(aws s3 ls)\"\n    ],\n    \"deny\": [\"Bash(aws *)\"]\n  }\n}";
    let found = run(Format::ClaudeCode, text, None);
    let f = found.iter().find(|f| f.kind == Kind::DeadRule).unwrap();
    assert_eq!((f.place.line, f.place.column), (5, 7));
    assert_eq!((f.rules[1].place.line, f.rules[1].place.column), (7, 14));
    let oc = "{\n  // comment \"bash\"\n  \"permission\": {\n    \"bash\": {\n      \"rm *\": \"deny\",\n      \"*\": \"allow\",\n    },\n  },\n}";
    let found = run(Format::OpenCode, oc, None);
    assert_eq!((found[0].place.line, found[0].place.column), (5, 7));
}

#[test]
fn claude_layers_merge_and_findings_cross_files() {
    let user = Source {
        name: "user.json".into(),
        text: r#"{"permissions": {"allow": ["Bash(git push origin main)"]}}"#.into(),
        format: Some(Format::ClaudeCode),
        scope: Some(Scope::User),
    };
    let project = Source {
        name: "project.json".into(),
        text: r#"{"permissions": {"deny": ["Bash(git push *)"]}}"#.into(),
        format: Some(Format::ClaudeCode),
        scope: Some(Scope::Project),
    };
    let r = lint(&[user, project], None);
    let f = r
        .findings
        .iter()
        .find(|f| f.kind == Kind::DeadRule)
        .unwrap();
    assert_eq!(f.place.file, "user.json");
    assert_eq!(f.rules[1].place.file, "project.json");
}

#[test]
fn unreadable_input_is_an_error_with_its_position() {
    let r = lint(
        &[Source::new(
            "s.json",
            "{\"permissions\": {\"allow\": [\"Bash\",]}}",
        )],
        None,
    );
    assert!(r.findings.is_empty());
    let e = r.errors[0].to_string();
    assert!(e.starts_with("s.json: 1:34: invalid JSON"), "{e}");
    let r = lint(
        &[Source::new(
            "p.rules",
            "prefix_rule(pattern=[\"git\"], decision=\"Allow\")",
        )],
        None,
    );
    assert!(
        r.errors[0].to_string().contains("1:1: invalid decision"),
        "{}",
        r.errors[0]
    );
    let r = lint(
        &[Source::new(
            "opencode.json",
            "{\"permission\": {\"bash\": \"Allow\"}}",
        )],
        None,
    );
    assert!(
        r.errors[0].to_string().starts_with("opencode.json: 1:2"),
        "{}",
        r.errors[0]
    );
}

#[test]
fn json_output_is_valid_and_complete() {
    let r = lint(
        &[Source::new(
            "o.json",
            r#"{"permission": {"bash": {"rm *": "deny", "*": "allow"}}}"#,
        )],
        None,
    );
    let v = crate::json::parse(&r.to_json()).unwrap();
    let f = &v.get("findings").unwrap().as_array().unwrap()[0];
    assert_eq!(f.get("kind").unwrap().as_str(), Some("dead-rule"));
    assert_eq!(
        f.get("call").unwrap().get("input").unwrap().as_str(),
        Some("rm")
    );
    assert_eq!(
        f.get("call").unwrap().get("verdict").unwrap().as_str(),
        Some("allow")
    );
    assert_eq!(f.get("rules").unwrap().as_array().unwrap().len(), 2);
}

mod props {
    use super::*;
    use proptest::prelude::*;
    use std::sync::OnceLock;

    const OC: &[&str] = &[
        r#"{"permission": {"bash": {"rm *": "deny", "git push *": "ask", "git *": "allow", "*": "allow", "rm -rf *": "deny", "npm": "allow", "npm *": "ask", "npm test*": "allow"}, "edit": {"src/*": "deny", "*": "ask", "src/gen/*": "allow"}, "*": {"*": "ask"}, "read": "allow"}}"#,
        r#"{"permission": {"bash": {"git status": "allow", "git status *": "allow", "git *": "ask", "git log*": "allow", "*": "deny", "ls *": "allow", "ls": "allow"}, "edit": {"*.md": "allow", "docs/*.md": "allow", "*": "deny"}}}"#,
        r#"{"permission": {"edit": {"**/.env": "deny", "*.env": "deny", "*": "allow"}, "bash": {"? *": "deny", "a*": "allow", "ab *": "ask", "*": "ask"}}}"#,
    ];

    struct Oc {
        rules: Vec<crate::opencode::Rule>,
        dead: Vec<usize>,
        words: Vec<String>,
    }

    /// Real configs of the corpus that have dead rules, besides the hand-written ones.
    fn corpus(files: &[&str]) -> Vec<String> {
        let root =
            std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
        files
            .iter()
            .map(|f| std::fs::read_to_string(root.join(f)).unwrap())
            .collect()
    }

    fn oc() -> &'static Vec<Oc> {
        static C: OnceLock<Vec<Oc>> = OnceLock::new();
        C.get_or_init(|| {
            let mut texts: Vec<String> = OC.iter().map(|t| t.to_string()).collect();
            texts.extend(corpus(&[
                "opencode/003.json",
                "opencode/004.jsonc",
                "opencode/005.md",
                "opencode/020.json",
                "opencode/035.jsonc",
            ]));
            texts
                .iter()
                .map(|t| {
                    let src = Source {
                        name: "o".into(),
                        text: t.clone(),
                        format: Some(Format::OpenCode),
                        scope: None,
                    };
                    let dead = super::super::opencode::dead_positions(&src).unwrap();
                    let rules: Vec<_> = super::super::opencode::read(&src)
                        .unwrap()
                        .top
                        .into_iter()
                        .map(|w| w.rule)
                        .collect();
                    let mut words: Vec<String> = rules
                        .iter()
                        .flat_map(|r| r.pattern.split(['*', '?', ' ', '/']).map(str::to_string))
                        .filter(|w| !w.is_empty())
                        .collect();
                    words.extend(["x", "-rf", "push", "test", "src", ".env"].map(String::from));
                    Oc { rules, dead, words }
                })
                .collect()
        })
    }

    fn input(words: &[String], picks: &[(usize, u8)]) -> String {
        let mut s = String::new();
        for &(w, sep) in picks {
            s.push_str(&words[w % words.len()]);
            s.push_str(["", " ", "/", "."][sep as usize % 4]);
        }
        s
    }

    #[test]
    fn the_property_configs_have_dead_rules() {
        assert!(oc().iter().all(|c| !c.dead.is_empty()));
        assert!(cc().iter().all(|c| !c.dead.is_empty()));
        let n: usize = oc().iter().map(|c| c.dead.len()).sum();
        assert!(n > 100, "{n}");
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 10_000, ..ProptestConfig::default() })]

        /// OpenCode: removing a rule reported dead never changes any verdict.
        #[test]
        fn opencode_dead_rules_decide_nothing(
            which in any::<usize>(),
            pick in any::<usize>(),
            perm in prop::sample::select(vec!["bash", "edit", "read", "task", "x"]),
            picks in prop::collection::vec((0usize..64, 0u8..4), 0..5),
        ) {
            let c = &oc()[which % oc().len()];
            let inp = input(&c.words, &picks);
            let verdict = |rules: &[crate::opencode::Rule]| {
                find_last(Platform::Linux, perm, &inp, &[rules]).map(|i| rules[i].action)
            };
            let before = verdict(&c.rules);
            // One dead rule (a different one each case), then all of them at once.
            let d = c.dead[pick % c.dead.len()];
            let mut fewer = c.rules.clone();
            fewer.remove(d);
            prop_assert_eq!(before, verdict(&fewer), "removing #{} changed {}: {}", d, perm, inp);
            // All of them at once, too: the last matching rule is never a dead one.
            let alive: Vec<_> = c.rules.iter().enumerate().filter(|(i, _)| !c.dead.contains(i)).map(|(_, r)| r.clone()).collect();
            prop_assert_eq!(before, verdict(&alive));
        }

        /// Claude Code: removing a rule reported dead never changes any verdict.
        #[test]
        fn claude_dead_rules_decide_nothing(
            which in any::<usize>(),
            tool in 0usize..3,
            picks in prop::collection::vec((0usize..64, 0u8..4), 0..5),
            joiner in prop::sample::select(vec!["", " && ", "; ", " | "]),
            more in prop::collection::vec((0usize..64, 0u8..4), 0..3),
        ) {
            let c = &cc()[which % cc().len()];
            let inp = input(&c.words, &picks);
            let call = match tool {
                0 => {
                    let second = if joiner.is_empty() { String::new() } else { format!("{joiner}{}", input(&c.words, &more)) };
                    crate::claude_code::ToolCall::bash(&format!("{inp}{second}"))
                }
                1 => crate::claude_code::ToolCall::with_field("Read", "file_path", &format!("/home/alice/proj/{inp}")),
                _ => crate::claude_code::ToolCall::with_field("Edit", "file_path", &format!("/home/alice/proj/{inp}")),
            };
            let before = c.full.decide(&call).outcome;
            for (d, fewer) in c.dead.iter().zip(&c.without) {
                prop_assert_eq!(before, fewer.decide(&call).outcome, "removing #{} changed {:?}", d, call);
            }
            prop_assert_eq!(before, c.alive.decide(&call).outcome);
        }
    }

    const CC: &[&str] = &[
        r#"{"permissions": {"allow": ["Bash(aws s3 ls)", "Bash(aws *)", "Bash(npm run build)", "Bash(git push origin main)", "Read(./secrets/**)", "Bash(ls*)"], "ask": ["Bash(npm run *)", "Bash(git push:*)"], "deny": ["Bash(aws s3 *)", "Read(./secrets/**)", "Bash(rm *)"]}}"#,
        r#"{"permissions": {"allow": ["Bash(npm test)", "Bash(npm publish --dry-run)", "Edit(src/**)", "WebFetch(domain:example.com)"], "ask": ["Bash(npm publish:*)", "Bash(npm test)", "Edit(src/**)"], "deny": ["WebFetch(domain:*)", "Bash(sudo *)"]}}"#,
    ];

    struct Cc {
        dead: Vec<usize>,
        words: Vec<String>,
        /// The session compiled whole, without each dead rule, and without all of them.
        full: CompiledPolicy,
        without: Vec<CompiledPolicy>,
        alive: CompiledPolicy,
    }

    fn cc() -> &'static Vec<Cc> {
        static C: OnceLock<Vec<Cc>> = OnceLock::new();
        C.get_or_init(|| {
            let mut texts: Vec<String> = CC.iter().map(|t| t.to_string()).collect();
            texts.extend(corpus(&["claude/060.json"]));
            texts
                .iter()
                .map(|t| {
                    let src = Source::new("settings.json", t.clone());
                    let (s, e) = super::super::claude_code::session(&[&src]);
                    assert!(e.is_empty());
                    let s = s.unwrap();
                    let dead = super::super::claude_code::dead_positions(&s);
                    let mut words: Vec<String> = s
                        .policy
                        .rules
                        .iter()
                        .flat_map(|r| {
                            r.text
                                .split(['(', ')', '*', ' ', ':', '/'])
                                .map(str::to_string)
                                .collect::<Vec<_>>()
                        })
                        .filter(|w| !w.is_empty())
                        .collect();
                    words.extend(["x", "-rf", "main", "secrets", "src"].map(String::from));
                    let compile =
                        |p: Policy| CompiledPolicy::new(p, Mode::Default, Context::default());
                    let without = dead
                        .iter()
                        .map(|&d| {
                            let mut p = s.policy.clone();
                            p.rules.remove(d);
                            compile(p)
                        })
                        .collect();
                    let mut alive = s.policy.clone();
                    alive.rules = s
                        .policy
                        .rules
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| !dead.contains(i))
                        .map(|(_, r)| r.clone())
                        .collect();
                    Cc {
                        full: compile(s.policy.clone()),
                        without,
                        alive: compile(alive),
                        dead,
                        words,
                    }
                })
                .collect()
        })
    }
}

/// A rule of 500 `*` (a paste that took 25 s to lint) is linted at once: its proofs are
/// skipped and reported where it is written, and the rest of the file is still linted.
#[test]
fn a_pattern_too_complex_is_noted_not_checked() {
    use super::glob::TooComplex;
    let stars = "x* ".repeat(500);
    let text = format!(
        "{{\"permissions\": {{\n  \"allow\": [\"Bash({stars})\", \"Bash(git push *)\"],\n  \"deny\": [\"Bash(git *)\", \"Bash(x *)\"]\n}}}}"
    );
    let start = std::time::Instant::now();
    let (found, skipped) = super::lint_text_checked(Format::ClaudeCode, &text).unwrap();
    assert!(start.elapsed() < std::time::Duration::from_secs(10));
    assert_eq!(skipped.len(), 1, "{skipped:?}");
    assert_eq!(skipped[0].why, TooComplex::Pattern);
    assert_eq!(skipped[0].pattern, stars);
    assert_eq!((skipped[0].place.line, skipped[0].place.column), (2, 19));
    assert!(skipped[0]
        .to_string()
        .contains("not checked: pattern too complex"));
    // `git push *` is still found dead under the `git *` deny.
    assert!(
        found
            .iter()
            .any(|f| f.kind == Kind::DeadRule && f.rules[0].text.contains("git push")),
        "{found:#?}"
    );
}
