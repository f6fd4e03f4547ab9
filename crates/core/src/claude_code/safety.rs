//! Checks no allow rule overrides (`claude-code.md` §5 step 5, §7, §8): critical-path `rm`,
//! protected-path writes; and whether a Bash command runs sandboxed.

use super::bash;
use super::env::*;
use super::path;
use super::shell;
use crate::json::Value;

impl Env<'_> {
    /// `Some(strict)` when the Bash call runs sandboxed; `strict` = the escape hatch was
    /// ignored because `allowUnsandboxedCommands` is false (inferred).
    pub(super) fn sandboxed(&self, facts: &Facts<'_>) -> Option<bool> {
        if facts.kind != Kind::Shell || !self.policy.sandbox_enabled || !self.ctx.sandboxable {
            return None;
        }
        let excluded = facts
            .subs
            .iter()
            .any(|s| self.ix.excluded.iter().any(|e| e.matches(&s.stripped)));
        if excluded {
            return None;
        }
        let escape = facts.call.input.get("dangerouslyDisableSandbox") == Some(&Value::Bool(true));
        match (escape, self.policy.allow_unsandboxed_commands) {
            (true, true) => None,
            (true, false) => Some(true),
            _ => Some(false),
        }
    }

    /// `rm`/`rmdir` on a critical path anywhere in the command (§7).
    pub(super) fn critical_rm(&self, facts: &Facts<'_>) -> bool {
        // The call's own subcommands were analysed once, in `Facts`.
        self.critical_subs(&facts.subs, 0)
    }

    pub(super) fn critical_in(&self, source: &str, parsed: &shell::Parsed, depth: usize) -> bool {
        let subs: Vec<bash::Sub> = parsed
            .commands
            .iter()
            .map(|c| bash::analyse(source, c))
            .collect();
        self.critical_subs(&subs, depth)
    }

    fn critical_subs(&self, subs: &[bash::Sub], depth: usize) -> bool {
        for sub in subs {
            let argv = sub.argv();
            match argv.first() {
                Some(&"rm") | Some(&"rmdir") => {
                    for w in &sub.words()[1..] {
                        if w.value.starts_with('-') && !w.value.contains('/') {
                            continue;
                        }
                        if self.critical_target(&w.value, w.expansion) {
                            return true;
                        }
                    }
                }
                Some(&("bash" | "sh" | "zsh")) if depth < 2 => {
                    if let Some(k) = argv.iter().position(|a| *a == "-c") {
                        if let Some(script) = argv.get(k + 1) {
                            let inner = shell::parse(script);
                            if self.critical_in(script, &inner, depth + 1) {
                                return true;
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        false
    }

    pub(super) fn critical_target(&self, arg: &str, expansion: bool) -> bool {
        if expansion || arg.contains('$') {
            // `"$VAR"/*`, `$(pwd)`: the target is not known before running.
            return true;
        }
        let trimmed = arg.strip_suffix("/*").unwrap_or(arg);
        let trimmed = if trimmed.is_empty() && arg.starts_with('/') {
            "/"
        } else {
            trimmed
        };
        let trimmed = if trimmed.is_empty() { "." } else { trimmed };
        let abs = path::resolve(trimmed, &self.ctx.cwd, &self.ctx.home);
        let home = path::normalize(&self.ctx.home);
        let cwd = path::normalize(&self.ctx.cwd);
        let depth = abs.split('/').filter(|s| !s.is_empty()).count();
        if depth <= 1 || abs == home || path::relative_to(&cwd, &abs).is_some() {
            return true;
        }
        // Globs directly under an additional directory.
        arg.ends_with('*')
            && self.working_dirs[1..]
                .iter()
                .any(|d| path::relative_to(&abs, d) == Some(""))
    }

    /// The protected path an edit (or a Bash write) touches.
    pub(super) fn protected_write(&self, facts: &Facts<'_>) -> Option<String> {
        match facts.kind {
            Kind::Edit => facts.path.as_deref().and_then(path::protected),
            Kind::Shell => {
                for t in &facts.targets {
                    if t.write {
                        if let Some(p) = t.abs.as_deref().and_then(path::protected) {
                            return Some(p);
                        }
                    }
                }
                for sub in &facts.subs {
                    if let Some(paths) = bash::accept_edits_paths(sub) {
                        if sub.program() == Some("sed")
                            && !sub.argv().iter().any(|a| a.starts_with("-i"))
                        {
                            continue;
                        }
                        for w in paths {
                            let abs = path::resolve(&w.value, &self.ctx.cwd, &self.ctx.home);
                            if let Some(p) = path::protected(&abs) {
                                return Some(p);
                            }
                        }
                    }
                }
                None
            }
            _ => None,
        }
    }
}
