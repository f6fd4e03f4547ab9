//! # Claude Code: deny → ask → allow groups, then the permission mode
//!
//! Claude Code's core is closed source. This module decides as the **real CLI 2.1.332** does,
//! recorded black-box on 2026-12-01 and 2026-12-06 (`fixtures/conformance/claude-code-real.json`,
//! 198 cases, and `claude-code-recorded.json`, cases of our own, both made with
//! `shared/tools/claude-real`). Where the recording is silent it follows the documentation,
//! pinned in `reference/claude-code.md` (docs of 2026-10-08, mirror 3f1ef7c2 / v2.1.240):
//! points the docs state are implemented as stated, points they leave open as the
//! reference's §10 chooses, and every verdict resting on one carries [`Verdict::inferred`] so
//! that the lesson can say "inferred". Where the docs and the CLI disagree, the CLI wins and
//! the case is listed in [`drift`] (data the lesson shows: "docs: ask · CLI 2.1.332: deny").
//!
//! ## Where each behaviour comes from
//!
//! | Behaviour | Source |
//! |---|---|
//! | deny → ask → allow groups, order and specificity never matter, scopes merge | docs, confirmed by the CLI |
//! | a bare (or `Tool(*)`) deny removes the tool: `unavailable`, not `deny` | docs, confirmed (the CLI answers "No such tool available") |
//! | a bare `Edit` deny removes Edit but not Write; `Edit(**)` refuses Write too | recorded |
//! | deny/ask match the command **after** normalising its name and removing quotes: `/usr/bin/curl`, `./rm`, `"rm"`, `\rm`, `cu''rl`, `git 'push'` ([`bash::Sub::normalized`]) | recorded (the docs say these get past: drift) |
//! | deny/ask look past `exec`, `env …` and `sudo …`, and see `$c` of an earlier `c=curl` or `export c=curl` (not `${c}`) | recorded |
//! | `sh -c '…'`, `bash -c '…'`, `eval '…'`, `$(which curl)`, `git -C . push`, `git -c k=v push`, `python3 -c "os.system(…)"`, `find -exec rm`, `xargs -n1 rm` get past a deny | recorded, as the docs say |
//! | compound commands: any part for deny/ask (subshells, `$()`, backticks, loop and `if` bodies), every part for allow | docs, confirmed |
//! | a background `&` (`npm test &`, `a & b`) is approved by no allow rule: it asks; a bare `Bash` allow approves it, unless every part is read-only (`ls &`, `git status &` ask; `npm test &`, `(ls &)` run) | recorded |
//! | an unknown `VAR=value` prefix keeps a read-only command from running unprompted (`X=1 cat .env`, `FOO=bar git status` ask); a rule that spells it out (`Bash(X=1 cat *)`) covers it | recorded |
//! | an allow rule sees quotes (`git 'diff' -v` misses `Bash(git diff *)`); the read-only set does not (`git 'diff'` runs), but takes `git diff`/`log`/`show`/`status` only with their own options (`git diff -v`, `git log --foo`, `git status --foo` ask) | recorded (the option lists partly inferred) |
//! | a read-only command naming a path outside the working directories (or with `$VAR`) asks, even under `Bash(cat *)` or `Bash(cat /etc/hosts)`, unless a `Read` path rule allows it (`Read(//etc/**)`); a bare `Bash` allow approves it; `du`, `tree`, `readlink`, `echo` are not checked | recorded ([`bash::PATH_CHECKED_RECORDED`]; a few more file readers inferred) |
//! | a file a command writes itself (`sed -i`, `tee`, `cp`, `mv`, `touch`, not a redirection) inside the working directories needs only the rule that approved the command, in dontAsk too; outside them (`cp a.txt /tmp/x.txt`, `mkdir /tmp/d`, `rm ../x`) it needs an `Edit` rule | recorded |
//! | malformed shell: an unclosed `$(` prompts even in bypassPermissions and under a bare `Bash` allow (dontAsk and auto: deny); an unclosed `"`, backtick or a stray `(` is unparseable (asks; bypass and a bare allow approve); an unclosed `'` runs to the end and is no error; deny rules see the commands inside an unclosed `$(` or backtick | recorded |
//! | path rules: `./x` is `x`, a name matches at any depth, `dir/**` at any depth for deny/ask and at the top for allow, `/x`, `d/e/**` anchored ([`path`]) | docs, confirmed (recorded) |
//! | fixed wrappers (`timeout`, `nice`, `nohup`, `time`, `stdbuf`, `command`, bare `xargs`) stripped for every rule | docs, confirmed |
//! | allow looks past `NODE_ENV`, `LANG`, `NO_COLOR` (docs) and `TZ`, `LC_ALL`, `LC_CTYPE`, `CI` (recorded; other `LC_*` inferred); `NODE_OPTIONS`, `PATH`, `DEBUG`, `FOO`, `env X=… cmd`, `exec cmd` stop it | docs + recorded |
//! | read-only set: the docs' 14 commands; read-only git forms (`remote -v`, `branch -a`, `blame`, `ls-files`, bare `tag` recorded); [`bash::READ_ONLY_RECORDED`] (`lsof`, `ps`, `jq`, `df`, `cut`, `tr`, `sleep`, `man`…), `docker ps/images/logs`, `sed -n 1p`, `node -v`, `python3 --version` (recorded); a few more of the kind inferred ([`bash::READ_ONLY_INFERRED`]); `printenv`, `env`, `uniq`, `npm --version`, `python3 -V` ask (recorded) | docs + recorded + inferred |
//! | Read/Edit denies reach `cat`/`head`/`tail`/`sed`/`tee`, redirect targets (docs) and `grep FILE`, `cp SRC …` (recorded); not `less`, `python3 -c` | docs + recorded |
//! | a skill whose `SKILL.md` has no `allowed-tools` runs without a prompt in every mode, `Skill(name)` ask rules too (only a deny or a bare `Skill` ask stops it); with `allowed-tools` it prompts like any tool ([`Context::skill_allowed_tools`]) | recorded (the docs say every skill prompts: drift) |
//! | sandbox auto-allow only when `autoAllowBashIfSandboxed: true` is written; then Read/Edit denies reaching a Bash file argument or redirect are left to the OS sandbox (`cat .env` runs and fails) | recorded (the docs say it defaults to true: drift) |
//! | plan mode with auto mode available: edits ask, Bash goes to the classifier | recorded |
//! | project `allow` rules apply only once the trust dialog was accepted; deny/ask and user rules always | docs, confirmed |
//! | modes, protected paths, critical-path `rm`, hooks, MCP, Agent, WebFetch | docs, confirmed where recorded |
//!
//! ## How a call is decided
//!
//! 1. A PreToolUse hook that exits with code 2 blocks before any rule.
//! 2. A **bare** deny (`Bash`, `Bash(*)`, `*`, `mcp__server`) removes the tool from the model's
//!    context: [`Outcome::Unavailable`], a different kind of outcome from a blocked call.
//! 3. Any other matching deny rule → deny, in every mode, `bypassPermissions` included.
//! 4. Any matching ask rule → ask (deny in `dontAsk`).
//! 5. Safety checks no allow rule can override: protected-path writes, critical-path `rm`,
//!    `AskUserQuestion`, a Bash command with an unclosed `$(`.
//! 6. Sandbox auto-allow (sandboxed Bash, every mode but plan); `bypassPermissions`.
//! 7. Allow rules: **every** subcommand of a Bash command must be covered by an allow rule or
//!    the built-in read-only set, and every path it reads or writes must be approved
//!    (inside the working directories, or by a `Read`/`Edit` rule).
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
mod env;
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
mod types;

pub use eval::{
    evaluate, Blocker, CompiledPolicy, Context, Decider, Hook, Surface, ToolCall, TraceStep,
    Verdict, Via,
};
pub use mode::{Mode, Outcome};
pub use rule::RuleWarning;
pub use settings::{Note, Policy, PolicyRule, Scope, SettingsFile, Warning};
pub use table::{translate, ClaudeCodeEngine, NoRule, Translation, Untranslatable};
