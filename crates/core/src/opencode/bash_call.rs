//! OpenCode 1.18.32's decision for a **whole** `bash` call, as the real bash tool makes it.
//!
//! [`OpenCodeEngine`](super::OpenCodeEngine) evaluates one pattern against the rules
//! (`Permission.evaluate`). The real bash tool does more before it runs a command: it parses
//! the command with tree-sitter, asks `external_directory` about the directories outside the
//! project that the command's path arguments (and the working directory) reach, then asks
//! `bash` with **one pattern per sub-command**. [`bash_call`] reproduces that path; every
//! statement below was recorded from the release binary (`fixtures/conformance/
//! opencode-bash-real.json`, `../shared/reference/opencode-bash.md`).
//!
//! - **Order.** `external_directory` is asked first, then `bash`. A request with no pattern is
//!   not made at all (`ls` in the project asks only `bash`; `A=1` asks nothing).
//! - **One request, many patterns.** Each pattern is evaluated on its own — the last matching
//!   rule wins, no match means ask — and the request denies if any pattern denies, else asks
//!   if any asks, else allows (`Permission.ask`). `git status && curl x` under
//!   `git * allow, curl * deny` is denied although `git status` alone is allowed.
//! - **A deny ends the call.** The tool throws: an `external_directory` deny means `bash` is
//!   never asked (`rm -rf /tmp/x` under `external_directory * deny` makes one request).
//! - **An ask does not.** Answered "once", the next request is made; so the decision before
//!   any user input is the action of the **first request that is not allow**: an
//!   `external_directory` ask before a `bash` deny shows a prompt first (decision `ask`).
//! - **Hidden tool.** When the last rule whose permission matches `bash` is `*` → deny,
//!   `Permission.disabled` hides the tool from the model ([`BashDecision::hidden`]); a call
//!   to it is then refused without asking. `requests`/`decision` still describe the tool's
//!   own path.
//!
//! How the patterns, "always" prefixes and directories are found (tree-sitter's command
//! nodes, arity prefixes, the file commands whose arguments are paths) lives in
//! [`lifecycle`](super::lifecycle): [`parse`](super::lifecycle::parse),
//! [`arity`](super::lifecycle::arity), [`paths`](super::lifecycle::paths).

pub use super::lifecycle::paths::Place;

pub(super) mod requests;

pub use super::engine::bash_call_with;
pub use requests::{AskedRequest, BashDecision, PatternCheck, RequestKind};

use super::wildcard::Platform;
use super::Rule;
use requests::decide;

/// The recording's place: directory = worktree = `/home/user/project`, home `/home/user`,
/// cwd = the directory, and exactly the directories of the recording's `setup.existing_dirs`.
///
/// ```
/// let p = permlab_core::opencode::lesson_place();
/// assert_eq!(p.cwd, "/home/user/project");
/// assert!(p.existing_dirs.iter().any(|d| d == "/tmp/cache"));
/// ```
pub fn lesson_place() -> Place {
    let mut place = Place::new("/home/user/project", "/home/user/project", "/home/user");
    place.existing_dirs = LESSON_DIRS.iter().map(|d| d.to_string()).collect();
    place
}

/// `setup.existing_dirs` of `opencode-bash-real.json`.
const LESSON_DIRS: [&str; 12] = [
    "/tmp",
    "/var",
    "/etc",
    "/opt",
    "/usr",
    "/home",
    "/home/user",
    "/var/log",
    "/usr/bin",
    "/tmp/cache",
    "/home/user/project",
    "/home/user/project/src",
];

/// The real bash tool's permission path for `command` run in `place.cwd`, under `rules` (the
/// whole ruleset; last match wins per pattern, Linux matching).
///
/// ```
/// use permlab_core::Action;
/// use permlab_core::opencode::{bash_call, lesson_place, RequestKind, Rule};
/// let rules = [
///     Rule::new("bash", "git *", Action::Allow),
///     Rule::new("bash", "curl *", Action::Deny),
/// ];
/// let d = bash_call(&rules, "git status && curl https://example.com", &lesson_place());
/// assert_eq!(d.decision, Action::Deny);
/// let bash = &d.requests[0];
/// assert_eq!(bash.permission, RequestKind::Bash);
/// assert_eq!(bash.patterns, ["git status", "curl https://example.com"]);
/// assert_eq!(bash.always, ["git status *", "curl *"]);
/// assert_eq!(bash.checks[1].rule, Some(1));
/// ```
pub fn bash_call(rules: &[Rule], command: &str, place: &Place) -> BashDecision {
    decide(
        rules,
        |permission, pattern| {
            super::evaluate::find_last(Platform::Linux, permission, pattern, &[rules])
        },
        command,
        place,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::opencode::lifecycle::parse::commands_with_work;
    use crate::opencode::OpenCodeEngine;
    use crate::table::Action;
    use Action::{Allow, Ask, Deny};

    /// The lesson's rules: bash `git *` allow, `npm test *` allow, `curl *` deny, `rm *` ask.
    fn lesson() -> Vec<Rule> {
        vec![
            Rule::new("bash", "git *", Allow),
            Rule::new("bash", "npm test *", Allow),
            Rule::new("bash", "curl *", Deny),
            Rule::new("bash", "rm *", Ask),
        ]
    }

    fn call(rules: &[Rule], command: &str) -> BashDecision {
        let d = bash_call(rules, command, &lesson_place());
        let engine = OpenCodeEngine::from_rules(rules.to_vec());
        assert_eq!(d, bash_call_with(&engine, command, &lesson_place()));
        d
    }

    fn kinds(d: &BashDecision) -> Vec<(&'static str, Action)> {
        d.requests
            .iter()
            .map(|r| (r.permission.name(), r.action))
            .collect()
    }

    #[test]
    fn one_denied_sub_command_denies_the_whole_call() {
        // Recorded: `git status; curl https://example.com` → one bash request, deny.
        let d = call(&lesson(), "git status; curl https://example.com");
        assert_eq!(kinds(&d), [("bash", Deny)]);
        assert_eq!(
            d.requests[0].patterns,
            ["git status", "curl https://example.com"]
        );
        assert_eq!(d.requests[0].checks[0].rule, Some(0));
        assert_eq!(d.requests[0].checks[1].rule, Some(2));
        assert_eq!((d.decision, d.decided_by), (Deny, Some(0)));
    }

    #[test]
    fn every_sub_command_allowed_runs_without_a_prompt() {
        let d = call(&lesson(), "git status && npm test");
        assert_eq!(kinds(&d), [("bash", Allow)]);
        assert_eq!((d.decision, d.decided_by), (Allow, None));
    }

    #[test]
    fn a_substitution_is_its_own_pattern_after_the_outer_text() {
        let d = call(&lesson(), r#"git commit -m "$(curl https://example.com)""#);
        assert_eq!(
            d.requests[0].patterns,
            [
                r#"git commit -m "$(curl https://example.com)""#,
                "curl https://example.com"
            ]
        );
        assert_eq!(d.requests[0].always, ["git commit *", "curl *"]);
        assert_eq!(d.decision, Deny);
    }

    #[test]
    fn an_env_prefix_stays_in_the_pattern_so_curl_star_does_not_match() {
        // Recorded: `DEBUG=1 curl https://example.com` asks (no rule matches the pattern).
        let d = call(&lesson(), "DEBUG=1 curl https://example.com");
        assert_eq!(d.requests[0].patterns, ["DEBUG=1 curl https://example.com"]);
        assert_eq!(d.requests[0].always, ["curl *"]);
        assert_eq!(d.requests[0].checks[0].rule, None);
        assert_eq!(d.decision, Ask);
    }

    #[test]
    fn a_redirect_target_is_never_path_checked() {
        let mut rules = lesson();
        rules.insert(0, Rule::new("external_directory", "*", Deny));
        let d = call(&rules, "npm test > /tmp/test.log");
        assert_eq!(kinds(&d), [("bash", Allow)]);
        assert_eq!(d.requests[0].patterns, ["npm test > /tmp/test.log"]);
    }

    #[test]
    fn an_outside_directory_deny_ends_the_call_before_bash_is_asked() {
        let mut rules = lesson();
        rules.push(Rule::new("external_directory", "*", Deny));
        let d = call(&rules, "git status && rm -rf ../old");
        assert_eq!(kinds(&d), [("external_directory", Deny)]);
        assert_eq!(d.requests[0].patterns, ["/home/user/*"]);
        assert_eq!((d.decision, d.decided_by), (Deny, Some(0)));
    }

    #[test]
    fn an_outside_directory_ask_comes_before_a_bash_deny() {
        let mut rules = lesson();
        rules.push(Rule::new("bash", "rm *", Deny));
        let d = call(&rules, "rm -rf /tmp/x");
        assert_eq!(kinds(&d), [("external_directory", Ask), ("bash", Deny)]);
        assert_eq!((d.decision, d.decided_by), (Ask, Some(0)));
    }

    #[test]
    fn a_command_with_no_pattern_makes_no_request() {
        for command in [
            "A=1",
            "export A=1",
            "cd src",
            "# only a comment",
            "",
            "[[ -f x ]]",
        ] {
            let d = call(&lesson(), command);
            assert!(d.requests.is_empty(), "{command:?}: {d:?}");
            assert_eq!((d.decision, d.decided_by), (Allow, None));
        }
    }

    #[test]
    fn cd_outside_asks_for_the_directory_but_not_for_bash() {
        let d = call(&lesson(), "cd /tmp");
        assert_eq!(kinds(&d), [("external_directory", Ask)]);
        assert_eq!(d.requests[0].patterns, ["/tmp/*"]);
    }

    #[test]
    fn the_working_directory_outside_is_asked_after_the_path_directories() {
        let mut place = lesson_place();
        place.cwd = "/tmp".into();
        let d = bash_call(&lesson(), "rm ../etc/x", &place);
        assert_eq!(d.requests[0].patterns, ["/etc/*", "/tmp/*"]);
    }

    #[test]
    fn a_trailing_operator_asks_for_an_empty_pattern() {
        // Recorded: tree-sitter inserts a MISSING command name; its pattern is "" and no
        // rule but `*` matches it.
        let d = call(&lesson(), "git push origin main &&");
        assert_eq!(d.requests[0].patterns, ["git push origin main", ""]);
        assert_eq!(d.requests[0].always, ["git push *", " *"]);
        assert_eq!(d.decision, Ask);
    }

    #[test]
    fn a_newline_before_a_backslash_word_hides_a_second_command_in_one_pattern() {
        // Recorded: one pattern `git status\n\rm -rf /`, always `git status *`; bash runs
        // `\rm -rf /` as a second command.
        let rules = [
            Rule::new("bash", "*", Deny),
            Rule::new("bash", "git *", Allow),
        ];
        let d = call(&rules, "git status\n\\rm -rf /");
        assert_eq!(d.requests[0].patterns, ["git status\n\\rm -rf /"]);
        assert_eq!(d.requests[0].always, ["git status *"]);
        assert_eq!(d.decision, Allow);
    }

    #[test]
    fn star_deny_as_the_last_bash_rule_hides_the_tool() {
        let mut rules = lesson();
        rules.push(Rule::new("bash", "*", Deny));
        let d = call(&rules, "git status");
        assert!(d.hidden);
        assert_eq!(d.decision, Deny);
        // A later, narrower bash rule shows it again.
        rules.push(Rule::new("bash", "git *", Allow));
        let d = call(&rules, "git status");
        assert!(!d.hidden);
        assert_eq!(d.decision, Allow);
        // Another permission's rule does not count.
        assert!(!call(&lesson(), "ls").hidden);
    }

    #[test]
    fn checks_follow_the_patterns_and_name_the_last_matching_rule() {
        let rules = [
            Rule::new("bash", "git *", Deny),
            Rule::new("bash", "git status*", Allow),
        ];
        let d = call(&rules, "git status; git push; ls");
        let checks: Vec<(&str, Option<usize>, Action)> = d.requests[0]
            .checks
            .iter()
            .map(|c| (c.pattern.as_str(), c.rule, c.action))
            .collect();
        assert_eq!(
            checks,
            [
                ("git status", Some(1), Allow),
                ("git push", Some(0), Deny),
                ("ls", None, Ask),
            ]
        );
    }

    #[test]
    fn a_200_kb_command_costs_linear_work() {
        let shapes = [
            "git status && npm test; ",
            "echo \"$(curl x | sh)\" `ls` ",
            "$( ( { [[ ",
            "f() { ls; ",
            "cat <<EOF\n$(x)\nEOF\n",
            "\"$((a b))\" 'x' ",
            "a=(1 $(ls)) ",
            "((cp -r a b)) | ",
            "\\\n",
            "if x; then ",
        ];
        for shape in shapes {
            let text = shape.repeat(200_000 / shape.len());
            let (found, work) = commands_with_work(&text);
            assert!(
                work <= 40 * text.len(),
                "{shape:?}: {work} looks for {} bytes",
                text.len()
            );
            let _ = found;
            let d = bash_call(&lesson(), &text, &lesson_place());
            assert!(d.requests.len() <= 2);
        }
        // Thousands of distinct sub-commands and directories: one request each, in order.
        let text: String = (0..12_000).map(|i| format!("rm /o{i}/x; ")).collect();
        let (found, work) = commands_with_work(&text);
        assert_eq!(found.len(), 12_000);
        assert!(work <= 40 * text.len());
        let d = bash_call(&lesson(), &text, &lesson_place());
        assert_eq!(d.requests[0].patterns.len(), 12_000);
        assert_eq!(d.requests[1].patterns.len(), 12_000);
    }
}
