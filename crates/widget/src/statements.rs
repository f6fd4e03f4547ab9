//! One truth per fact: every place the widget states a Claude Code behaviour — a scene's claim,
//! a drift line, a settings note, a lint advice, a self-check label — listed with the case it
//! describes. Each test computes the engine's verdict for that case (the engine is held to the
//! CLI 2.1.332 recordings) and checks that the words learners read, in zh and en, say the same.
//! A wording or an engine change that makes them disagree fails here, by the statement's name.

use permlab_core::claude_code::drift::{self, DocDrift};
use permlab_core::claude_code::flow::{flow_with, seed_001};
use permlab_core::claude_code::table::lesson_context;
use permlab_core::claude_code::{evaluate, Mode, Note, Policy, Scope, SettingsFile, ToolCall};
use permlab_core::comparison::{cells, Dimension, Product};
use permlab_core::Decision;

use crate::scenes::claude_flow_text::T as Flow;
use crate::scenes::comparison_text as cmp;
use crate::text::i18n::Lang;

/// A settings file in a scope, the mode it starts in (or the one picked, as with
/// `--permission-mode`), and a Bash command: what the engine answers.
fn verdict(settings: &str, scope: Scope, mode: Option<Mode>, command: &str) -> Decision {
    let file = SettingsFile::from_json(settings, scope).unwrap();
    let policy = Policy::merge(&[file], true);
    let mode = mode.unwrap_or_else(|| policy.session_mode());
    evaluate(&policy, mode, &lesson_context(), &ToolCall::bash(command))
        .outcome
        .decision()
}

fn project(settings: &str, command: &str) -> Decision {
    verdict(settings, Scope::Project, None, command)
}

/// The notes a settings file gets, as (where, note).
fn notes(settings: &str, scope: Scope) -> Vec<(String, Note)> {
    SettingsFile::from_json(settings, scope)
        .unwrap()
        .warnings
        .into_iter()
        .map(|w| (w.at, w.note))
        .collect()
}

/// The text says each of `words` (a statement's key words, in its language).
fn says(text: &str, words: &[&str]) {
    for w in words {
        assert!(text.contains(w), "{w:?} is not in: {text}");
    }
}

/// A settings note worded in the widget's languages (zh: the widget's, en: the core's).
fn note_text(lang: Lang, at: &str, note: &Note, message: &str) -> String {
    let w = permlab_core::import::ImportWarning {
        at: at.into(),
        rule: None,
        message: message.into(),
        dropped: false,
        note: permlab_core::import::ImportNote::Settings(note.clone()),
    };
    lang.import_warning(&w)
}

fn note_of(settings: &str, scope: Scope, want: &Note) -> (String, String) {
    let file = SettingsFile::from_json(settings, scope).unwrap();
    let w = file
        .warnings
        .iter()
        .find(|w| &w.note == want)
        .unwrap_or_else(|| panic!("{settings}: no {want:?} note"));
    (
        note_text(Lang::Zh, &w.at, &w.note, &w.message),
        note_text(Lang::En, &w.at, &w.note, &w.message),
    )
}

const SANDBOX_ONLY: &str = r#"{"sandbox": {"enabled": true}}"#;
const SANDBOX_KEY: &str = r#"{"sandbox": {"enabled": true, "autoAllowBashIfSandboxed": true}}"#;
const DENY_CURL: &str = r#"{"permissions": {"deny": ["Bash(curl *)"]}}"#;

// ---- the comparison scene ---------------------------------------------------------------------

fn cell_index(d: Dimension, p: Product) -> usize {
    cells()
        .iter()
        .position(|c| c.dimension == d && c.product == p)
        .unwrap()
}

#[test]
fn comparison_says_bash_curl_stops_usr_bin_curl_but_not_sh_c() {
    let i = cell_index(Dimension::SafetyBoundary, Product::ClaudeCode);
    says(
        cmp::code(Lang::Zh, i),
        &[
            "Bash(curl *) 拦得住 /usr/bin/curl",
            "文档说拦不住",
            "sh -c 'curl …')绕得过,只会问人",
        ],
    );
    says(
        cmp::code(Lang::En, i),
        &[
            "Bash(curl *) stops /usr/bin/curl",
            "the docs say it does not",
            "(sh -c 'curl …') gets past and only asks",
        ],
    );
    assert_eq!(
        project(DENY_CURL, "/usr/bin/curl https://example.com"),
        Decision::Deny
    );
    assert_eq!(
        project(DENY_CURL, "sh -c 'curl https://example.com'"),
        Decision::Ask
    );
    // The drift the scene shows next to the /usr/bin/curl case is the recorded one.
    let d = cells()[i].demos.iter().find_map(|d| d.drift()).unwrap();
    assert_eq!((d.docs, d.cli), (Decision::Ask, Decision::Deny));
    assert_eq!(Lang::Zh.drift_label(d), "文档:问人 · CLI 2.1.332 实测:拒绝");
}

#[test]
fn comparison_says_the_default_mode_asks_and_only_dont_ask_denies() {
    let i = cell_index(Dimension::Philosophy, Product::ClaudeCode);
    says(
        cmp::code(Lang::Zh, i),
        &[
            "default 权限模式对没有规则放行的调用问人",
            "只有 dontAsk 权限模式默认拒绝",
        ],
    );
    says(
        cmp::code(Lang::En, i),
        &[
            "The default mode asks",
            "deny is the default only in dontAsk",
        ],
    );
    let s = r#"{"permissions": {"allow": ["Bash(npm test *)"]}}"#;
    for (mode, want) in [
        (Mode::Default, Decision::Ask),
        (Mode::AcceptEdits, Decision::Ask),
        (Mode::DontAsk, Decision::Deny),
    ] {
        assert_eq!(
            verdict(s, Scope::Project, Some(mode), "npm install left-pad"),
            want,
            "{mode:?}"
        );
    }
}

#[test]
fn every_comparison_case_with_a_drift_line_computes_the_clis_answer() {
    let mut shown = 0;
    for c in cells() {
        for d in &c.demos {
            if let Some(drift) = d.drift() {
                shown += 1;
                assert_eq!(
                    d.run(),
                    permlab_core::comparison::DemoResult::Decision(drift.cli),
                    "{d:?}"
                );
            }
        }
    }
    assert!(shown >= 1);
}

// ---- drift lines ------------------------------------------------------------------------------

/// The settings a drift record names (its rules, mode and sandbox), as a settings file.
fn drift_settings(d: &DocDrift) -> Option<String> {
    let mut lists: [Vec<String>; 3] = Default::default();
    if d.rules != "(no rules)" {
        for r in d.rules.split("; ") {
            let (group, rule) = r.split_once(' ')?;
            let k = ["allow", "ask", "deny"].iter().position(|g| *g == group)?;
            lists[k].push(format!("{rule:?}"));
        }
    }
    let mut sandbox = String::new();
    if d.sandbox != "off" {
        let mut parts = vec![r#""enabled": true"#.to_string()];
        for p in d.sandbox.split("; ").skip(1) {
            match p {
                "autoAllowBashIfSandboxed" => {
                    parts.push(r#""autoAllowBashIfSandboxed": true"#.into())
                }
                "allowUnsandboxedCommands: false" => {
                    parts.push(r#""allowUnsandboxedCommands": false"#.into())
                }
                other => {
                    let list = other.strip_prefix("excludedCommands: ")?;
                    let items: Vec<String> = list.split(", ").map(|x| format!("{x:?}")).collect();
                    parts.push(format!(r#""excludedCommands": [{}]"#, items.join(", ")));
                }
            }
        }
        sandbox = format!(r#", "sandbox": {{{}}}"#, parts.join(", "));
    }
    Some(format!(
        r#"{{"permissions": {{"allow": [{}], "ask": [{}], "deny": [{}]}}{sandbox}}}"#,
        lists[0].join(", "),
        lists[1].join(", "),
        lists[2].join(", ")
    ))
}

/// A lesson shows a drift line wherever its settings are a drift record's rules, mode and
/// sandbox: from those alone, the engine computes the CLI's answer (so the line never sits
/// next to a different verdict). Records whose case also set the session's context (a
/// hook, auto mode being available, the model's sandbox escape) are not lesson settings.
#[test]
fn a_drift_line_sits_next_to_the_verdict_the_cli_gave() {
    let needs_context = [
        "sbx-strict-ignores-escape-hatch",
        "sbx-plan-no-widening~auto-mode-on",
    ];
    let mut checked = 0;
    for d in drift::all() {
        let Some(command) = d.call.strip_prefix("Bash: ") else {
            continue;
        };
        if needs_context.contains(&d.id) {
            continue;
        }
        let settings = drift_settings(d).unwrap();
        let mode = Mode::parse(d.mode).unwrap();
        assert_eq!(
            verdict(&settings, Scope::Project, Some(mode), command),
            d.cli,
            "{}: {settings} {command}",
            d.id
        );
        for lang in [Lang::Zh, Lang::En] {
            let label = lang.drift_label(d);
            says(
                &label,
                &[lang.decision(d.docs), lang.decision(d.cli), "2.1.332"],
            );
        }
        checked += 1;
    }
    assert!(checked >= 15, "{checked}");
}

// ---- settings notes ---------------------------------------------------------------------------

#[test]
fn a_sandbox_without_the_auto_allow_key_asks_as_its_note_says() {
    let (zh, en) = note_of(SANDBOX_ONLY, Scope::Project, &Note::SandboxWithoutAutoAllow);
    says(
        &zh,
        &[
            "写明 `autoAllowBashIfSandboxed: true` 才自动放行",
            "照常问人",
            "文档说",
        ],
    );
    says(
        &en,
        &[
            "only with `autoAllowBashIfSandboxed: true` written out",
            "they ask",
            "the docs say",
        ],
    );
    for command in ["/bin/rm -rf build", "npm test", "node scripts/sync.js"] {
        assert_eq!(project(SANDBOX_ONLY, command), Decision::Ask, "{command}");
        assert_eq!(project(SANDBOX_KEY, command), Decision::Allow, "{command}");
        assert_eq!(project("{}", command), Decision::Ask, "{command}");
    }
    // With the key written out there is nothing to say.
    assert!(notes(SANDBOX_KEY, Scope::Project).is_empty());
}

#[test]
fn an_excluded_command_is_not_auto_allowed_as_its_note_says() {
    let s = r#"{"sandbox": {"enabled": true, "autoAllowBashIfSandboxed": true, "excludedCommands": ["npm *"]}}"#;
    let (zh, en) = note_of(s, Scope::Project, &Note::ExcludedFromSandbox);
    says(&zh, &["沙箱外执行", "不会自动放行"]);
    says(&en, &["outside the sandbox", "never auto-allows them"]);
    assert_eq!(project(s, "npm test"), Decision::Ask);
    assert_eq!(project(s, "node scripts/sync.js"), Decision::Allow);
}

#[test]
fn a_project_bypass_mode_does_not_take_effect_as_its_note_says() {
    for mode in ["bypassPermissions", "auto"] {
        let s = format!(r#"{{"permissions": {{"defaultMode": "{mode}"}}}}"#);
        for scope in [Scope::Project, Scope::Local] {
            let parsed = Mode::parse(mode).unwrap();
            let (zh, en) = note_of(&s, scope, &Note::ModeNotFromProject(parsed));
            says(
                &zh,
                &[
                    "不生效",
                    "从 default 权限模式开始",
                    "用户设置",
                    "--permission-mode",
                ],
            );
            says(
                &en,
                &[
                    "does not take effect",
                    "starts in default",
                    "user settings",
                    "--permission-mode",
                ],
            );
            assert_eq!(verdict(&s, scope, None, "npm test"), Decision::Ask);
        }
    }
    let bypass = r#"{"permissions": {"defaultMode": "bypassPermissions"}}"#;
    assert!(notes(bypass, Scope::User).is_empty());
    assert_eq!(
        verdict(bypass, Scope::User, None, "npm test"),
        Decision::Allow
    );
}

#[test]
fn a_key_no_verdict_depends_on_changes_no_verdict() {
    let with = r#"{"permissions": {"deny": ["Bash(curl *)"], "foo": 1}, "hooks": {"PreToolUse": []}, "model": "x", "sandbox": {"enabled": true, "autoAllowBashIfSandboxed": true, "network": {"allowedDomains": ["a.org"]}}}"#;
    let without = r#"{"permissions": {"deny": ["Bash(curl *)"]}, "sandbox": {"enabled": true, "autoAllowBashIfSandboxed": true}}"#;
    let got: Vec<String> = notes(with, Scope::Project)
        .into_iter()
        .filter(|(_, n)| *n == Note::NotModelled)
        .map(|(at, _)| at)
        .collect();
    assert_eq!(got, ["permissions.foo", "sandbox.network", "hooks, model"]);
    let (zh, en) = note_of(with, Scope::Project, &Note::NotModelled);
    says(&zh, &["这里的判定不考虑它们"]);
    says(&en, &["no verdict here takes them into account"]);
    for command in [
        "curl https://a.org",
        "npm test",
        "sh -c 'curl https://a.org'",
    ] {
        assert_eq!(
            project(with, command),
            project(without, command),
            "{command}"
        );
    }
}

// ---- the claude-flow scene --------------------------------------------------------------------

#[test]
fn the_flow_scene_says_the_seeds_sandboxed_command_needs_the_key() {
    let seed = seed_001().unwrap();
    let sync = ToolCall::bash("node scripts/sync.js");
    let (off, on) = (
        flow_with(&seed.settings, seed.mode, true, false, &sync).outcome,
        flow_with(&seed.settings, seed.mode, true, true, &sync).outcome,
    );
    assert_eq!(
        (off.decision(), on.decision()),
        (Decision::Ask, Decision::Allow)
    );
    says(
        Flow::NeedsKey.get(Lang::Zh),
        &[
            "要写明 autoAllowBashIfSandboxed: true 才放行",
            "课程的配置没写",
        ],
    );
    says(
        Flow::NeedsKey.get(Lang::En),
        &["only with autoAllowBashIfSandboxed: true written out"],
    );
    says(Flow::AutoAllow.get(Lang::Zh), &["不写就不自动放行"]);
    says(
        Flow::AutoAllow.get(Lang::En),
        &["without it nothing is auto-allowed"],
    );
    // The seed's table says the docs' answer (it runs, in the sandbox); the CLI asks.
    let r = seed
        .requests
        .iter()
        .find(|r| r.call.input == "node scripts/sync.js")
        .unwrap();
    assert_eq!((r.seed_says(), r.expect), (Decision::Allow, Decision::Ask));
    assert_eq!(r.drift.map(|d| d.sandbox), Some("on"));
    // Every other request: the seed, the docs and the CLI agree, and so does the engine.
    for r in &seed.requests {
        let f = flow_with(&seed.settings, seed.mode, true, false, &r.tool_call);
        assert_eq!(f.outcome.decision(), r.expect, "{}", r.call.input);
        if r.drift.is_none() {
            assert_eq!(r.seed_says(), r.expect, "{}", r.call.input);
        }
    }
}

#[test]
fn the_flow_scene_says_a_picked_bypass_is_not_the_project_settings_one() {
    says(
        Flow::ModeNotFromProject.get(Lang::Zh),
        &["--permission-mode", "不生效", "会话从 default 开始"],
    );
    says(
        Flow::ModeNotFromProject.get(Lang::En),
        &[
            "--permission-mode",
            "does not take effect",
            "starts in default",
        ],
    );
    let seed = seed_001().unwrap();
    let npm = ToolCall::bash("npm install left-pad");
    let picked = flow_with(&seed.settings, Mode::BypassPermissions, false, false, &npm);
    // npm install is an ask rule of the seed: bypass still asks; an unmatched command runs.
    assert_eq!(picked.outcome.decision(), Decision::Ask);
    let sync = ToolCall::bash("node scripts/sync.js");
    let picked = flow_with(&seed.settings, Mode::BypassPermissions, false, false, &sync);
    assert_eq!(picked.outcome.decision(), Decision::Allow);
    says(Flow::DBypass.get(Lang::Zh), &["一律放行"]);
    let written = r#"{"permissions": {"defaultMode": "bypassPermissions"}}"#;
    assert_eq!(project(written, "node scripts/sync.js"), Decision::Ask);
}

#[test]
fn the_flow_scene_says_which_curl_forms_the_deny_stops() {
    says(
        Flow::NotBoundary.get(Lang::Zh),
        &["Bash(curl *) 拦得住它们", "sh -c 'curl …')仍然绕得过"],
    );
    says(
        Flow::NotBoundary.get(Lang::En),
        &[
            "Bash(curl *) stops them",
            "(sh -c 'curl …') still gets past",
        ],
    );
    for stopped in [
        "/usr/bin/curl https://example.com",
        "\\curl https://example.com",
        "\"curl\" https://example.com",
    ] {
        assert_eq!(project(DENY_CURL, stopped), Decision::Deny, "{stopped}");
    }
    for past in permlab_core::claude_code::flow::GETS_PAST_CURL_DENY {
        assert_ne!(project(DENY_CURL, past), Decision::Deny, "{past}");
    }
    // The drift line next to each boundary example, under the seed's settings, sits next to
    // the verdict the CLI gave.
    let seed = seed_001().unwrap();
    let scene = crate::scenes::claude_flow::ClaudeFlow::new(Lang::Zh);
    let mut shown = 0;
    for c in permlab_core::claude_code::flow::NOT_A_BOUNDARY {
        if let Some(d) = scene.boundary_drift(c) {
            shown += 1;
            let f = flow_with(&seed.settings, seed.mode, true, false, &ToolCall::bash(c));
            assert_eq!(f.outcome.decision(), d.cli, "{c}");
        }
    }
    assert_eq!(shown, 2, "/usr/bin/curl and sh -c 'curl …'");
}

#[test]
fn the_flow_scene_says_the_sandbox_auto_allows_only_with_its_key() {
    says(
        Flow::DSandbox.get(Lang::Zh),
        &["autoAllowBashIfSandboxed", "自动放行"],
    );
    let seed = seed_001().unwrap();
    let f = flow_with(
        &seed.settings,
        seed.mode,
        true,
        true,
        &ToolCall::bash("node scripts/sync.js"),
    );
    assert_eq!(
        f.stage(f.decided_by).decider,
        Some(permlab_core::claude_code::Decider::Sandbox)
    );
}

// ---- lint advice ------------------------------------------------------------------------------

#[test]
fn wrapper_advice_follows_the_sandbox_and_the_rule() {
    let configs = [
        (
            r#"{"permissions": {"deny": ["Bash(curl *)"]}}"#,
            "off",
            Decision::Ask,
        ),
        (
            r#"{"permissions": {"deny": ["Bash(curl *)"]}, "sandbox": {"enabled": true}}"#,
            "on",
            Decision::Ask,
        ),
        (
            r#"{"permissions": {"deny": ["Bash(curl *)"]}, "sandbox": {"enabled": true, "autoAllowBashIfSandboxed": true}}"#,
            "on-auto-allow",
            Decision::Allow,
        ),
    ];
    for (text, state, want) in configs {
        let found = crate::worker::lint(permlab_core::import::Format::ClaudeCode, text)
            .unwrap()
            .findings;
        let f = found
            .iter()
            .find(|f| f.kind == permlab_core::lint::Kind::WrapperBypass)
            .unwrap_or_else(|| panic!("{text}: {found:?}"));
        assert_eq!(f.sandbox.map(|x| x.slug()), Some(state));
        assert!(f.input.starts_with("sh -c 'curl"), "{}", f.input);
        assert_eq!(
            f.write,
            ["Bash(sh -c *curl*)"],
            "only the form that got past"
        );
        // The demonstrating call is what the engine answers under that config.
        assert_eq!(f.verdict, want);
        assert_eq!(project(text, &f.input), want);
        let zh = crate::text::lint_text::word(Lang::Zh, f);
        let en = crate::text::lint_text::word(Lang::En, f);
        assert_eq!(zh.fix.contains("打开沙箱"), state == "off", "{}", zh.fix);
        assert_eq!(
            en.fix.contains("turn on the sandbox"),
            state == "off",
            "{}",
            en.fix
        );
        for w in [&zh, &en] {
            assert!(!w.fix.contains("Read/Edit"), "{}", w.fix);
            assert!(!w.fix.contains("/usr/bin/"), "{}", w.fix);
        }
        match want {
            Decision::Allow => {
                says(&zh.fix, &["不问就会运行"]);
                says(&en.fix, &["runs without a prompt"]);
            }
            _ if state == "on" => {
                says(&zh.fix, &["被批准后在沙箱里运行"]);
                says(&en.fix, &["once approved"]);
            }
            _ => {}
        }
    }
}

// ---- self-check labels ------------------------------------------------------------------------

fn fixture_text(file: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../fixtures/conformance/{file}.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

#[test]
fn each_self_check_line_names_the_source_its_file_states() {
    use crate::protocol::{Basis, FIXTURES};
    for f in FIXTURES {
        for file in f.files {
            let doc = permlab_core::json::parse(&fixture_text(file)).unwrap();
            let source = doc
                .get("source")
                .and_then(permlab_core::json::Value::as_str)
                .unwrap_or("")
                .to_lowercase();
            let stated = if source.contains("documentation") {
                Basis::Docs
            } else if source.contains("black-box") {
                Basis::Recorded
            } else {
                assert!(source.contains("running the real"), "{file}: {source}");
                Basis::Source
            };
            assert_eq!(f.basis, stated, "{file}");
        }
        let label = Lang::Zh.check_line(f.key, &[]).label;
        says(
            &label,
            &[match f.basis {
                Basis::Recorded => "实测录制",
                Basis::Source => "源码",
                Basis::Docs => "文档",
            }],
        );
        for w in ["json", ".rs", "seed", "issue"] {
            assert!(!label.contains(w), "{label}");
        }
    }
}

#[test]
fn the_docs_line_counts_where_the_docs_and_the_cli_differ_apart() {
    let reports = permlab_core::conformance::run(&fixture_text("claude-code")).unwrap();
    let sections: Vec<(String, usize, usize)> = reports
        .iter()
        .map(|r| (r.section.clone(), r.passed, r.passed + r.failed()))
        .collect();
    let drifted = reports
        .iter()
        .find(|r| r.section == "drift")
        .map_or(0, |r| r.drift.len());
    assert!(drifted > 0);
    let cases = reports.iter().find(|r| r.section == "cases").unwrap();
    for lang in [Lang::Zh, Lang::En] {
        let line = lang.check_line("claude-code-docs", &sections);
        assert_eq!(
            (line.passed, line.total),
            (cases.passed, cases.passed + cases.failed())
        );
        says(&line.drift.unwrap(), &[&drifted.to_string()]);
    }
    assert_eq!(
        Lang::Zh.check_line("claude-code-docs", &sections).agree,
        "与文档所写一致"
    );
    let recorded = Lang::Zh.check_line("claude-code-cli", &sections);
    assert_eq!(recorded.agree, "与实测一致");
}
