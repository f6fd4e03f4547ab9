//! Settings files, their scopes, and how they merge into one [`Policy`] (`claude-code.md` §9).
//!
//! - Lists (`permissions.allow/ask/deny`) **merge** across every scope; deny → ask → allow then
//!   runs over the union, so a deny anywhere cannot be overridden.
//! - Scalars (`defaultMode`, `sandbox.*`) take the value of the highest scope that sets them:
//!   managed, then command line, local, project, user.
//! - Project `allow` rules and `additionalDirectories` apply only after the workspace trust
//!   dialog; `-p` and SDK runs never show it. `deny`/`ask` always apply.
//! - `allowManagedPermissionRulesOnly` (managed settings only) ignores every non-managed rule.
//!
//! A settings file that is not JSON is rejected with the position; a value of the wrong shape
//! or an unusable rule is a [`Warning`] and the rest still applies. So is what a learner would
//! otherwise not see (never silently ignored): a sandbox without `autoAllowBashIfSandboxed:
//! true` (CLI 2.1.332, recorded, then auto-allows nothing), `excludedCommands`, a project
//! `defaultMode` that does not take effect, and keys no verdict here depends on ([`Note`]).
//!
//! ```
//! use permlab_core::claude_code::settings::{Scope, SettingsFile};
//! let f = SettingsFile::from_json(r#"{"permissions": {"allow": ["Bash(ls", "Read"]}}"#, Scope::Project).unwrap();
//! assert_eq!(f.allow.len(), 2);
//! let err = SettingsFile::from_json("{\"permissions\": {\"allow\": [\"Read\",]}}", Scope::User).unwrap_err();
//! assert!(err.to_string().contains("line 1"));
//! ```

use super::mode::Mode;
use super::rule::{parse_rule, ParsedRule, RuleWarning};
use crate::error::Error;
use crate::json::{self, Value};
use crate::table::Action;

/// Where a settings file sits; the order is precedence, highest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    /// Managed (organisation) settings.
    Managed,
    /// Command line: `--settings`, `--allowedTools`, `--disallowedTools`.
    Cli,
    /// `.claude/settings.local.json`.
    Local,
    /// `.claude/settings.json`.
    Project,
    /// `~/.claude/settings.json`.
    User,
}

impl Scope {
    /// Every scope, highest precedence first.
    pub const ALL: [Scope; 5] = [
        Scope::Managed,
        Scope::Cli,
        Scope::Local,
        Scope::Project,
        Scope::User,
    ];

    /// `managed`, `cli`, `local`, `project`, `user`.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Managed => "managed",
            Scope::Cli => "cli",
            Scope::Local => "local",
            Scope::Project => "project",
            Scope::User => "user",
        }
    }

    /// The scope named `s`.
    pub fn from_name(s: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|x| x.as_str() == s)
    }
}

/// A start-up warning: a rule or value that was skipped, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// Which file.
    pub scope: Scope,
    /// JSON path, e.g. `permissions.allow[3]`.
    pub at: String,
    /// The rule text, when the warning is about a rule.
    pub rule: Option<String>,
    /// Why, in English.
    pub message: String,
    /// The same as data (a page words it in its own language).
    pub note: Note,
}

/// What a [`Warning`] is about, as data.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Note {
    /// A rule string: skipped, or kept with a start-up warning.
    Rule(RuleWarning),
    /// A value of the wrong JSON type.
    WrongType {
        /// What belongs there.
        expected: crate::error::Expected,
        /// What is there (a JSON kind, as `Value::kind` says it).
        found: &'static str,
    },
    /// A `defaultMode` Claude Code does not have.
    UnknownMode(String),
    /// Project settings' `additionalDirectories` before the workspace is trusted.
    UntrustedDirectories,
    /// `allowManagedPermissionRulesOnly` outside managed settings.
    ManagedOnlyOutsideManaged,
    /// `sandbox.enabled: true` without `autoAllowBashIfSandboxed`: the docs say sandboxed Bash
    /// commands are then auto-allowed; CLI 2.1.332 (recorded) auto-allows them only when
    /// `autoAllowBashIfSandboxed: true` is written out, and otherwise asks as without a sandbox.
    SandboxWithoutAutoAllow,
    /// `sandbox.excludedCommands`: the listed commands run outside the sandbox, so the sandbox
    /// never auto-allows them (recorded, CLI 2.1.332).
    ExcludedFromSandbox,
    /// A `defaultMode` of `bypassPermissions` or `auto` in project or local settings: it does not
    /// take effect, the session starts in `default` (recorded, CLI 2.1.332, no
    /// `--permission-mode` flag); user settings or the flag set it.
    ModeNotFromProject(Mode),
    /// Keys Claude Code reads but no verdict here depends on (`hooks`, `env`,
    /// `sandbox.network`…; the warning's `at` names them): shown, never silently dropped.
    NotModelled,
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} settings, {}: ", self.scope.as_str(), self.at)?;
        if let Some(r) = &self.rule {
            write!(f, "`{r}`: ")?;
        }
        f.write_str(&self.message)
    }
}

/// Top-level settings keys a verdict here depends on (`$schema` changes nothing).
const TOP_KEYS: [&str; 6] = [
    "$schema",
    "permissions",
    "sandbox",
    "allowManagedPermissionRulesOnly",
    "disableBypassPermissionsMode",
    "disableAutoMode",
];
/// `permissions` keys a verdict here depends on.
const PERMISSIONS_KEYS: [&str; 7] = [
    "allow",
    "ask",
    "deny",
    "defaultMode",
    "additionalDirectories",
    "disableBypassPermissionsMode",
    "disableAutoMode",
];
/// `sandbox` keys a verdict here depends on (`network` bounds what runs, never the verdict).
const SANDBOX_KEYS: [&str; 4] = [
    "enabled",
    "autoAllowBashIfSandboxed",
    "allowUnsandboxedCommands",
    "excludedCommands",
];
const NOT_MODELLED: &str =
    "Claude Code reads these settings, but no verdict here takes them into account";

/// `sandbox` settings; `None` = not set in this file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SandboxSettings {
    /// `sandbox.enabled`.
    pub enabled: Option<bool>,
    /// `sandbox.autoAllowBashIfSandboxed` (the docs say default `true`; CLI 2.1.332 auto-allows
    /// only when `true` is written out, recorded).
    pub auto_allow_bash_if_sandboxed: Option<bool>,
    /// `sandbox.allowUnsandboxedCommands` (default `true`).
    pub allow_unsandboxed_commands: Option<bool>,
    /// `sandbox.excludedCommands`: command patterns that never run sandboxed.
    pub excluded_commands: Vec<String>,
}

/// One settings file, read but not yet merged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingsFile {
    /// Where it sits.
    pub scope: Scope,
    /// `permissions.allow` strings, in order.
    pub allow: Vec<String>,
    /// `permissions.ask`.
    pub ask: Vec<String>,
    /// `permissions.deny`.
    pub deny: Vec<String>,
    /// `permissions.defaultMode`, if set and known.
    pub default_mode: Option<Mode>,
    /// `permissions.additionalDirectories`.
    pub additional_directories: Vec<String>,
    /// `sandbox`.
    pub sandbox: SandboxSettings,
    /// `allowManagedPermissionRulesOnly` (honoured from managed settings only).
    pub allow_managed_rules_only: bool,
    /// `permissions.disableBypassPermissionsMode: "disable"`.
    pub disable_bypass: bool,
    /// `disableAutoMode: "disable"` (top level or under `permissions`).
    pub disable_auto: bool,
    /// Values of the wrong shape that were skipped.
    pub warnings: Vec<Warning>,
}

impl SettingsFile {
    /// An empty file of `scope`.
    pub fn empty(scope: Scope) -> Self {
        SettingsFile {
            scope,
            allow: Vec::new(),
            ask: Vec::new(),
            deny: Vec::new(),
            default_mode: None,
            additional_directories: Vec::new(),
            sandbox: SandboxSettings::default(),
            allow_managed_rules_only: false,
            disable_bypass: false,
            disable_auto: false,
            warnings: Vec::new(),
        }
    }

    /// Reads a settings file's text (strict JSON, as Claude Code reads it).
    pub fn from_json(text: &str, scope: Scope) -> Result<Self, Error> {
        let v = json::parse(text)?;
        Self::from_value(&v, scope)
    }

    /// Reads an already parsed settings object. Only a non-object top level is an error.
    pub fn from_value(v: &Value, scope: Scope) -> Result<Self, Error> {
        if v.as_object().is_none() {
            return Err(Error::shape(
                "",
                format!("a settings file is a JSON object, found {}", v.kind()),
            ));
        }
        let mut f = SettingsFile::empty(scope);
        let mut warn = |at: String, note: Note, message: String| {
            f.warnings.push(Warning {
                scope,
                at,
                rule: None,
                message,
                note,
            })
        };
        use crate::error::Expected;
        let wrong = |expected, v: &Value| Note::WrongType {
            expected,
            found: v.kind(),
        };
        let mut lists: [Vec<String>; 3] = Default::default();
        let mut default_mode = None;
        let mut dirs = Vec::new();
        match v.get("permissions") {
            None => {}
            Some(p) if p.as_object().is_some() => {
                for (k, key) in ["allow", "ask", "deny"].iter().enumerate() {
                    match p.get(key) {
                        None => {}
                        Some(Value::Array(items)) => {
                            for (i, item) in items.iter().enumerate() {
                                match item {
                                    Value::String(s) => lists[k].push(s.clone()),
                                    other => warn(
                                        format!("permissions.{key}[{i}]"),
                                        wrong(Expected::String, other),
                                        format!("a rule is a string, found {}", other.kind()),
                                    ),
                                }
                            }
                        }
                        Some(other) => warn(
                            format!("permissions.{key}"),
                            wrong(Expected::Strings, other),
                            format!("expected an array of rule strings, found {}", other.kind()),
                        ),
                    }
                }
                match p.get("defaultMode") {
                    None => {}
                    Some(Value::String(s)) => match Mode::parse(s) {
                        Some(m) => {
                            default_mode = Some(m);
                            if matches!(m, Mode::BypassPermissions | Mode::Auto)
                                && matches!(scope, Scope::Project | Scope::Local)
                            {
                                warn(
                                    "permissions.defaultMode".into(),
                                    Note::ModeNotFromProject(m),
                                    format!("\"{s}\" does not take effect from project or local settings: the session starts in default (CLI 2.1.332, recorded); user settings or --permission-mode set it"),
                                );
                            }
                        }
                        None => warn(
                            "permissions.defaultMode".into(),
                            Note::UnknownMode(s.to_string()),
                            format!("unknown mode \"{s}\": use default, acceptEdits, plan, auto, dontAsk or bypassPermissions"),
                        ),
                    },
                    Some(other) => warn(
                        "permissions.defaultMode".into(),
                        wrong(Expected::String, other),
                        format!("expected a string, found {}", other.kind()),
                    ),
                }
                match p.get("additionalDirectories") {
                    None => {}
                    Some(Value::Array(items)) => {
                        for (i, item) in items.iter().enumerate() {
                            match item.as_str() {
                                Some(s) => dirs.push(s.to_string()),
                                None => warn(
                                    format!("permissions.additionalDirectories[{i}]"),
                                    wrong(Expected::String, item),
                                    format!("expected a string, found {}", item.kind()),
                                ),
                            }
                        }
                    }
                    Some(other) => warn(
                        "permissions.additionalDirectories".into(),
                        wrong(Expected::Strings, other),
                        format!("expected an array of strings, found {}", other.kind()),
                    ),
                }
                for (key, _) in p.as_object().into_iter().flatten() {
                    if !PERMISSIONS_KEYS.contains(&key.as_str()) {
                        warn(
                            format!("permissions.{key}"),
                            Note::NotModelled,
                            NOT_MODELLED.into(),
                        );
                    }
                }
            }
            Some(other) => warn(
                "permissions".into(),
                wrong(Expected::Object, other),
                format!("expected an object, found {}", other.kind()),
            ),
        }
        let mut sandbox = SandboxSettings::default();
        match v.get("sandbox") {
            None => {}
            Some(s) if s.as_object().is_some() => {
                let mut flag = |key: &str| match s.get(key) {
                    None => None,
                    Some(Value::Bool(b)) => Some(*b),
                    Some(other) => {
                        warn(
                            format!("sandbox.{key}"),
                            wrong(Expected::Bool, other),
                            format!("expected true or false, found {}", other.kind()),
                        );
                        None
                    }
                };
                sandbox.enabled = flag("enabled");
                sandbox.auto_allow_bash_if_sandboxed = flag("autoAllowBashIfSandboxed");
                sandbox.allow_unsandboxed_commands = flag("allowUnsandboxedCommands");
                match s.get("excludedCommands") {
                    None => {}
                    Some(Value::Array(items)) => {
                        for (i, item) in items.iter().enumerate() {
                            match item.as_str() {
                                Some(c) => sandbox.excluded_commands.push(c.to_string()),
                                None => warn(
                                    format!("sandbox.excludedCommands[{i}]"),
                                    wrong(Expected::String, item),
                                    format!("expected a string, found {}", item.kind()),
                                ),
                            }
                        }
                        if !sandbox.excluded_commands.is_empty() {
                            warn(
                                "sandbox.excludedCommands".into(),
                                Note::ExcludedFromSandbox,
                                "these commands run outside the sandbox, so the sandbox never auto-allows them: the rules and the mode decide them (CLI 2.1.332, recorded)".into(),
                            );
                        }
                    }
                    Some(other) => warn(
                        "sandbox.excludedCommands".into(),
                        wrong(Expected::Strings, other),
                        format!("expected an array of strings, found {}", other.kind()),
                    ),
                }
                if sandbox.enabled == Some(true) && sandbox.auto_allow_bash_if_sandboxed.is_none() {
                    warn(
                        "sandbox.enabled".into(),
                        Note::SandboxWithoutAutoAllow,
                        "the docs say sandboxed Bash commands are then auto-allowed; CLI 2.1.332 (recorded) auto-allows them only with `autoAllowBashIfSandboxed: true` written out, and without it they ask as without a sandbox".into(),
                    );
                }
                for (key, _) in s.as_object().into_iter().flatten() {
                    if !SANDBOX_KEYS.contains(&key.as_str()) {
                        warn(
                            format!("sandbox.{key}"),
                            Note::NotModelled,
                            NOT_MODELLED.into(),
                        );
                    }
                }
            }
            Some(other) => warn(
                "sandbox".into(),
                wrong(Expected::Object, other),
                format!("expected an object, found {}", other.kind()),
            ),
        }
        let managed_only = match v.get("allowManagedPermissionRulesOnly") {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                warn(
                    "allowManagedPermissionRulesOnly".into(),
                    wrong(Expected::Bool, other),
                    format!("expected true or false, found {}", other.kind()),
                );
                false
            }
        };
        // One note for every top-level key no verdict here depends on (`hooks`, `model`…),
        // named where it sits: shown, never silently dropped, without a line per key.
        let other: Vec<&str> = v
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, _)| k.as_str())
            .filter(|k| !TOP_KEYS.contains(k))
            .collect();
        if !other.is_empty() {
            warn(other.join(", "), Note::NotModelled, NOT_MODELLED.into());
        }
        let [allow, ask, deny] = lists;
        f.allow = allow;
        f.ask = ask;
        f.deny = deny;
        f.default_mode = default_mode;
        f.additional_directories = dirs;
        f.sandbox = sandbox;
        f.allow_managed_rules_only = managed_only;
        let disabled = |key: &str| {
            [v.get(key), v.get("permissions").and_then(|p| p.get(key))]
                .into_iter()
                .flatten()
                .any(|x| x.as_str() == Some("disable"))
        };
        f.disable_bypass = disabled("disableBypassPermissionsMode");
        f.disable_auto = disabled("disableAutoMode");
        Ok(f)
    }
}

/// One rule of the merged policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyRule {
    /// The rule as written.
    pub text: String,
    /// Its list.
    pub group: Action,
    /// Its file.
    pub scope: Scope,
    /// Position in its file's list.
    pub index: usize,
    /// The parsed rule.
    pub rule: ParsedRule,
}

/// Whether project rules that widen permissions apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trust {
    /// The trust dialog was accepted (interactive sessions only).
    pub trusted: bool,
}

/// Every settings file merged: the rules that took effect, in merged order (managed, cli,
/// local, project, user; then array order), plus the scalars.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Rules that took effect, each group in merged order.
    pub rules: Vec<PolicyRule>,
    /// The mode from the highest scope that sets one (`None`: none does).
    pub default_mode: Option<Mode>,
    /// The scope `default_mode` came from.
    pub default_mode_scope: Option<Scope>,
    /// Some scope set `disableBypassPermissionsMode: "disable"`.
    pub bypass_disabled: bool,
    /// Some scope set `disableAutoMode: "disable"`.
    pub auto_disabled: bool,
    /// Additional working directories (as written).
    pub additional_directories: Vec<String>,
    /// Sandbox on.
    pub sandbox_enabled: bool,
    /// `autoAllowBashIfSandboxed`: only when written `true` (recorded, CLI 2.1.332: a sandbox
    /// with `enabled: true` alone still prompts for `npm test`; the docs say it defaults to
    /// true).
    pub auto_allow_bash_if_sandboxed: bool,
    /// `allowUnsandboxedCommands` (default true).
    pub allow_unsandboxed_commands: bool,
    /// `excludedCommands`.
    pub excluded_commands: Vec<String>,
    /// Every warning of every file, plus the rules that were skipped.
    pub warnings: Vec<Warning>,
    /// Rules that were dropped (untrusted project allow, non-managed under managed-only), with
    /// why: they do not take effect but the explanation can name them.
    pub ignored: Vec<(String, Action, Scope, String)>,
}

impl Policy {
    /// Merges `files` (any order; precedence comes from their scopes). `trusted`: whether
    /// project `allow` rules and `additionalDirectories` apply.
    ///
    /// ```
    /// use permlab_core::Action;
    /// use permlab_core::claude_code::settings::{Policy, Scope, SettingsFile};
    /// let user = SettingsFile::from_json(r#"{"permissions": {"allow": ["Bash(npm *)"]}}"#, Scope::User).unwrap();
    /// let project = SettingsFile::from_json(r#"{"permissions": {"deny": ["Bash(npm publish *)"], "allow": ["Read"]}}"#, Scope::Project).unwrap();
    /// let p = Policy::merge(&[user, project], false);
    /// let texts: Vec<_> = p.rules.iter().map(|r| (r.text.as_str(), r.group)).collect();
    /// assert_eq!(texts, [("Bash(npm publish *)", Action::Deny), ("Bash(npm *)", Action::Allow)]);
    /// ```
    pub fn merge(files: &[SettingsFile], trusted: bool) -> Policy {
        let mut ordered: Vec<&SettingsFile> = files.iter().collect();
        crate::sort::by_rank(&mut ordered, |f| f.scope as u64);
        let managed_only = ordered
            .iter()
            .any(|f| f.scope == Scope::Managed && f.allow_managed_rules_only);
        let mut p = Policy {
            rules: Vec::new(),
            default_mode: None,
            default_mode_scope: None,
            bypass_disabled: false,
            auto_disabled: false,
            additional_directories: Vec::new(),
            sandbox_enabled: false,
            auto_allow_bash_if_sandboxed: false,
            allow_unsandboxed_commands: true,
            excluded_commands: Vec::new(),
            warnings: Vec::new(),
            ignored: Vec::new(),
        };
        let (mut enabled, mut auto, mut unsandboxed) = (None, None, None);
        for f in &ordered {
            p.warnings.extend(f.warnings.iter().cloned());
            if p.default_mode.is_none() && f.default_mode.is_some() {
                p.default_mode = f.default_mode;
                p.default_mode_scope = Some(f.scope);
            }
            p.bypass_disabled |= f.disable_bypass;
            p.auto_disabled |= f.disable_auto;
            enabled = enabled.or(f.sandbox.enabled);
            auto = auto.or(f.sandbox.auto_allow_bash_if_sandboxed);
            unsandboxed = unsandboxed.or(f.sandbox.allow_unsandboxed_commands);
            p.excluded_commands
                .extend(f.sandbox.excluded_commands.iter().cloned());
            if f.scope == Scope::Project && !trusted {
                if !f.additional_directories.is_empty() {
                    p.warnings.push(Warning {
                        scope: f.scope,
                        at: "permissions.additionalDirectories".into(),
                        rule: None,
                        message: "ignored until the workspace is trusted".into(),
                        note: Note::UntrustedDirectories,
                    });
                }
            } else {
                p.additional_directories
                    .extend(f.additional_directories.iter().cloned());
            }
            if f.allow_managed_rules_only && f.scope != Scope::Managed {
                p.warnings.push(Warning {
                    scope: f.scope,
                    at: "allowManagedPermissionRulesOnly".into(),
                    rule: None,
                    message: "only honoured in managed settings".into(),
                    note: Note::ManagedOnlyOutsideManaged,
                });
            }
        }
        if auto.is_some() {
            p.warnings
                .retain(|w| w.note != Note::SandboxWithoutAutoAllow);
        }
        p.sandbox_enabled = enabled.unwrap_or(false);
        p.auto_allow_bash_if_sandboxed = auto.unwrap_or(false);
        p.allow_unsandboxed_commands = unsandboxed.unwrap_or(true);
        // Sized once: a table of a million rows grew this list by doubling, in every mode.
        p.rules.reserve_exact(
            ordered
                .iter()
                .map(|f| f.allow.len() + f.ask.len() + f.deny.len())
                .sum(),
        );
        for group in [Action::Deny, Action::Ask, Action::Allow] {
            for f in &ordered {
                let list = match group {
                    Action::Allow => &f.allow,
                    Action::Ask => &f.ask,
                    Action::Deny => &f.deny,
                };
                for (i, text) in list.iter().enumerate() {
                    let at = format!("permissions.{}[{i}]", group.as_str());
                    if managed_only && f.scope != Scope::Managed {
                        p.ignored.push((
                            text.clone(),
                            group,
                            f.scope,
                            "allowManagedPermissionRulesOnly ignores non-managed rules".into(),
                        ));
                        continue;
                    }
                    if group == Action::Allow && f.scope == Scope::Project && !trusted {
                        p.ignored.push((
                            text.clone(),
                            group,
                            f.scope,
                            "project allow rules apply only after the workspace is trusted".into(),
                        ));
                        continue;
                    }
                    match parse_rule(text, group) {
                        Ok(rule) => {
                            if let Some(w) = &rule.warning {
                                p.warnings.push(Warning {
                                    scope: f.scope,
                                    at: at.clone(),
                                    rule: Some(text.clone()),
                                    message: w.to_string(),
                                    note: Note::Rule(w.clone()),
                                });
                            }
                            p.rules.push(PolicyRule {
                                text: text.clone(),
                                group,
                                scope: f.scope,
                                index: i,
                                rule,
                            });
                        }
                        Err(w) => {
                            p.ignored
                                .push((text.clone(), group, f.scope, w.to_string()));
                            p.warnings.push(Warning {
                                scope: f.scope,
                                at,
                                rule: Some(text.clone()),
                                message: w.to_string(),
                                note: Note::Rule(w),
                            });
                        }
                    }
                }
            }
        }
        p
    }

    /// The mode a session starts in from these settings alone (no `--permission-mode`):
    /// `defaultMode` from the highest scope, except that `auto` and `bypassPermissions` do not
    /// take effect from project or local settings, and `disableBypassPermissionsMode` /
    /// `disableAutoMode` lock those modes out. A missing `defaultMode` means `default` (the
    /// reference's convention; interactive sessions of recent versions start in auto).
    ///
    /// ```
    /// use permlab_core::claude_code::{Mode, Policy, Scope, SettingsFile};
    /// let project = SettingsFile::from_json(r#"{"permissions": {"defaultMode": "bypassPermissions"}}"#, Scope::Project).unwrap();
    /// assert_eq!(Policy::merge(&[project], true).session_mode(), Mode::Default);
    /// let user = SettingsFile::from_json(r#"{"permissions": {"defaultMode": "acceptEdits"}}"#, Scope::User).unwrap();
    /// assert_eq!(Policy::merge(&[user], true).session_mode(), Mode::AcceptEdits);
    /// ```
    pub fn session_mode(&self) -> Mode {
        let Some(mode) = self.default_mode else {
            return Mode::Default;
        };
        let from_project = matches!(self.default_mode_scope, Some(Scope::Project | Scope::Local));
        match mode {
            Mode::Auto | Mode::BypassPermissions if from_project => Mode::Default,
            Mode::BypassPermissions if self.bypass_disabled => Mode::Default,
            Mode::Auto if self.auto_disabled => Mode::Default,
            m => m,
        }
    }

    /// The rules of one group, in merged order, with their positions in [`Policy::rules`].
    pub fn group(&self, group: Action) -> impl Iterator<Item = (usize, &PolicyRule)> {
        self.rules
            .iter()
            .enumerate()
            .filter(move |(_, r)| r.group == group)
    }
}
