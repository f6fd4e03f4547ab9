//! # Claude Code: deny → ask → allow groups, then the permission mode
//!
//! Claude Code's core is closed source; this module follows its documentation, pinned in
//! `reference/claude-code.md` (docs of 2026-10-08, mirror 3f1ef7c2 / v2.1.240). Points the docs
//! state are implemented as stated; points they leave open are implemented as the reference's
//! §10 chooses, and every verdict resting on one carries [`Verdict::inferred`] so that the lesson
//! can say "inferred from the docs".
//!
//! ## How a call is decided
//!
//! 1. A PreToolUse hook that exits with code 2 blocks before any rule.
//! 2. A **bare** deny (`Bash`, `Bash(*)`, `*`, `mcp__server`) removes the tool from the model's
//!    context: [`Outcome::Unavailable`], a different kind of outcome from a blocked call.
//! 3. Any other matching deny rule → deny, in every mode, `bypassPermissions` included.
//! 4. Any matching ask rule → ask (deny in `dontAsk`).
//! 5. Safety checks no allow rule can override: protected-path writes, critical-path `rm`,
//!    `AskUserQuestion`.
//! 6. Sandbox auto-allow (sandboxed Bash, every mode but plan); `bypassPermissions`.
//! 7. Allow rules: **every** subcommand of a Bash command must be covered by an allow rule or
//!    the built-in read-only set.
//! 8. The mode's baseline and fallback ([`mode`]).
//!
//! Within a group, specificity and array order never matter: `Bash(npm *)` allowed and
//! `Bash(npm publish *)` denied deny `npm publish` whichever is written first. Contrast
//! OpenCode, where the *last* matching rule wins and reordering flips verdicts.
//!
//! ## Files
//!
//! - [`rule`]: rule strings and their warnings; [`settings`]: files, scopes, trust, merge;
//! - [`shell`]: splitting Bash into subcommands; [`bash`]: command patterns, wrappers,
//!   read-only set, file targets; [`path`]: gitignore path rules and protected paths;
//! - [`mode`]: modes and outcomes; [`eval`]: the procedure; [`table`]: the lesson's common
//!   rule table translated to Claude Code settings, and the [`Engine`](crate::Engine);
//! - `index`: the policy compiled for fast lookups (rules by group, tool, program and path
//!   segment).
//! - [`flow`]: one call laid out over seed 001's stages (hooks → deny → ask → mode → allow →
//!   callback → sandbox), a presentation of [`evaluate`] for a stepped lesson.
//!
//! ## Speed
//!
//! Rules are parsed and their matchers compiled once per policy; [`CompiledPolicy`] (and
//! [`ClaudeCodeEngine`], which holds one) also indexes them once per mode and context. The full
//! [`evaluate`] walks every rule, because its trace lists every rule it looked at.
//! [`CompiledPolicy::decide`] and [`Engine::decide`](crate::Engine::decide) need no trace: they
//! parse the call once, look only at the rules that could match it, stop at the first rule
//! that decides, and decide a call of a tool removed by a bare deny from its name alone. The
//! two paths share one procedure and a property test holds them to the same verdict.
//!
//! ```
//! use permlab_core::{Decision, Engine, RuleTable, Call};
//! use permlab_core::claude_code::ClaudeCodeEngine;
//! let table = RuleTable::from_json(include_str!("../../../../fixtures/rulesets/miniagent-standard.json")).unwrap();
//! let engine = ClaudeCodeEngine::new(&table);
//! // Row 8 `bash * deny` became a bare `deny Bash`: the tool is gone, rows 9 and 10 cannot rescue it.
//! let e = engine.evaluate(&Call::new("bash", "python -m unittest -v test_dateparse.py"));
//! assert_eq!(e.decision, Decision::Unavailable);
//! assert_eq!(e.rule, Some(7));
//! ```

mod approve;
pub mod bash;
pub mod drift;
pub mod eval;
pub mod flow;
mod index;
mod matching;
pub mod mode;
pub mod path;
pub mod rule;
mod safety;
pub mod settings;
pub mod shell;
pub mod table;

pub use eval::{
    evaluate, Blocker, CompiledPolicy, Context, Decider, Hook, Surface, ToolCall, TraceStep,
    Verdict, Via,
};
pub use mode::{Mode, Outcome};
pub use settings::{Policy, PolicyRule, Scope, SettingsFile, Warning};
pub use table::{translate, ClaudeCodeEngine, Translation, Untranslatable};
