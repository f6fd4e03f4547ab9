//! Loading `.rules` files into a [`Policy`]: each file runs in the Starlark evaluator
//! (`eval`), then the examples it declared are checked against the rules it made.

use super::diag::LoadError;
use super::eval::{self, Limits};
use super::policy::{MatchOptions, Policy};

/// One `prefix_rule(…)` call of a file, for the linter.
#[cfg(feature = "rules-files")]
pub(crate) struct RuleCall {
    /// The stored rules it made.
    pub rules: std::ops::Range<usize>,
    /// Byte offset of the call in its file.
    pub offset: usize,
    /// Its `match=` examples, as token lists.
    pub matches: Vec<Vec<String>>,
    /// Its `not_match=` examples.
    pub not_matches: Vec<Vec<String>>,
}

impl Policy {
    /// Loads one `.rules` file. `name` is what error messages call the file. The file runs
    /// within the default [`Limits`] (see [`Policy::parse_with_limits`]): a file that needs
    /// more steps or memory fails with a load error at the construct that went over.
    ///
    /// ```
    /// use permlab_core::codex::{Decision, Policy};
    /// let p = Policy::parse("policy.rules", r#"
    /// prefix_rule(pattern=["rm"], decision="prompt")
    /// prefix_rule(pattern=["rm", ["-rf", "-fr"], "/"], decision="forbidden")
    /// "#).unwrap();
    /// let cmd: Vec<String> = ["rm", "-fr", "/"].map(String::from).to_vec();
    /// assert_eq!(p.check(&cmd).decision, Some(Decision::Forbidden));
    /// let err = Policy::parse("bad.rules", r#"prefix_rule(pattern=["git"], decision="Allow")"#).unwrap_err();
    /// assert_eq!(err.to_string(), "failed to parse policy at bad.rules:1:1: invalid decision: Allow");
    /// ```
    pub fn parse(name: &str, text: &str) -> Result<Policy, LoadError> {
        let mut p = Policy::empty();
        p.add_file(name, text)?;
        Ok(p)
    }

    /// Loads several files in order into one policy (the CLI's repeated `--rules`).
    pub fn parse_files<'a>(
        files: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Policy, LoadError> {
        let mut p = Policy::empty();
        for (name, text) in files {
            p.add_file(name, text)?;
        }
        Ok(p)
    }

    /// [`Policy::parse_files`] where the `match=` / `not_match=` examples resolve a relative
    /// or `~/` program against `env.cwd` / `env.home` (the CLI uses its own working directory
    /// and HOME; without them `/` stands in for the directory and `~` is not expanded).
    ///
    /// ```
    /// use permlab_core::codex::{MatchOptions, Policy};
    /// let text = "host_executable(name=\"tool\", paths=[\"/home/alice/bin/tool\"])\n\
    ///             prefix_rule(pattern=[\"tool\"], match=[\"~/bin/tool x\"])";
    /// let alice = MatchOptions { home: Some("/home/alice".into()), ..MatchOptions::default() };
    /// assert!(Policy::parse_files_with_env([("p.rules", text)], &alice).is_ok());
    /// assert!(Policy::parse_files([("p.rules", text)]).is_err());
    /// ```
    pub fn parse_files_with_env<'a>(
        files: impl IntoIterator<Item = (&'a str, &'a str)>,
        env: &MatchOptions,
    ) -> Result<Policy, LoadError> {
        let mut p = Policy::empty();
        p.example_env = env.clone();
        for (name, text) in files {
            p.add_file(name, text)?;
        }
        Ok(p)
    }

    /// [`Policy::parse`] with other work and memory [`Limits`] than the defaults.
    pub fn parse_with_limits(name: &str, text: &str, limits: &Limits) -> Result<Policy, LoadError> {
        let mut p = Policy::empty();
        p.add_file_with_limits(name, text, limits)?;
        Ok(p)
    }

    /// Adds the rules of one more file. On error the policy is left unchanged.
    pub fn add_file(&mut self, name: &str, text: &str) -> Result<(), LoadError> {
        self.add_file_with_limits(name, text, &Limits::default())
    }

    /// [`Policy::add_file`] within `limits` (each file gets the whole budget).
    pub fn add_file_with_limits(
        &mut self,
        name: &str,
        text: &str,
        limits: &Limits,
    ) -> Result<(), LoadError> {
        let mut next = self.clone();
        let pending = eval::run_file(name, text, &mut next, limits)?;
        for v in &pending {
            next.validate(name, text, v)?;
        }
        *self = next;
        Ok(())
    }

    /// Adds one file like [`Policy::add_file`] and also returns each `prefix_rule(…)` call it
    /// ran (its stored rules, its byte offset, its examples): what the linter needs to point
    /// at a rule. Examples are not enforced here; the second value is the error Codex would
    /// give for the first failing one.
    #[cfg(feature = "rules-files")]
    pub(crate) fn add_file_with_calls(
        &mut self,
        name: &str,
        text: &str,
    ) -> Result<(Vec<RuleCall>, Option<LoadError>), LoadError> {
        let mut next = self.clone();
        let pending = eval::run_file(name, text, &mut next, &Limits::default())?;
        let failed = pending
            .iter()
            .find_map(|v| next.validate(name, text, v).err());
        let calls = pending
            .into_iter()
            .map(|v| RuleCall {
                rules: v.rules,
                offset: v.span.start,
                matches: v.matches,
                not_matches: v.not_matches,
            })
            .collect();
        *self = next;
        Ok((calls, failed))
    }
}
