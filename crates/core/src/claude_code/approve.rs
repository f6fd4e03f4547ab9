//! Steps 7–8 of the procedure: allow rules and the mode's baseline (`claude-code.md` §2.2,
//! §2.5, §3, §7). A Bash command is approved only when **every** subcommand is covered by an
//! allow rule, the built-in read-only set or (in acceptEdits) the filesystem commands, and
//! every redirection target is approved.

use super::bash;
use super::env::*;
use super::index::dropped_in_auto;
use super::mode::Mode;
use super::path;
use super::rule::{Specifier, ToolSelector};
use super::settings::PolicyRule;
use super::types::*;
use crate::table::Action;

impl Env<'_> {
    /// Allow rules the current mode keeps (auto mode drops broad ones on entry).
    pub(super) fn allow_rules(&self) -> Vec<(usize, &PolicyRule)> {
        self.policy
            .group(Action::Allow)
            .filter(|(_, r)| self.mode != Mode::Auto || !dropped_in_auto(r))
            .collect()
    }

    /// Steps 7–8: allow rules and the baseline. `Ok` = approved.
    pub(super) fn approve(
        &self,
        facts: &Facts<'_>,
        v: &mut Verdict,
    ) -> Result<(Decider, Option<usize>), Blocker> {
        // Tracing: every allow rule (each is a step). Otherwise only those that could match:
        // every use below takes the first match in merged order, which both lists agree on.
        let allows = if self.trace {
            self.allow_rules()
        } else {
            self.candidates(Action::Allow, facts)
                .into_iter()
                .map(|i| (i, &self.policy.rules[i]))
                .collect()
        };
        // Bare allows (and tool-name globs) cover the whole tool.
        let bare = allows
            .iter()
            .find(|(_, r)| r.rule.is_bare() && r.rule.tool.names(&facts.tool))
            .map(|(i, _)| *i);
        let plan_edit = self.mode == Mode::Plan && facts.kind == Kind::Edit;
        let trace = self.trace;
        let mut trace_allow = |v: &mut Verdict, hits: &[usize], stop: Option<usize>| {
            if !trace {
                return;
            }
            for (i, r) in &allows {
                let tool_matched =
                    r.rule.tool.names(&facts.tool) || self.rule_names_tool(r, facts, Action::Allow);
                let hit = hits.contains(i);
                v.trace.push(TraceStep {
                    group: Action::Allow,
                    rule: *i,
                    tool_matched,
                    spec_matched: tool_matched.then_some(hit),
                    stop: Some(*i) == stop,
                });
                if Some(*i) == stop {
                    break;
                }
            }
        };
        match facts.kind {
            Kind::Shell => self.approve_bash(facts, v, &allows, bare, &mut trace_allow),
            Kind::PowerShell => {
                let parts = facts.ps_parts.clone();
                let mut hits = Vec::new();
                let mut first = None;
                let covered = match (&parts, bare) {
                    (_, Some(b)) => {
                        hits.push(b);
                        first = Some(b);
                        true
                    }
                    (None, None) => false,
                    (Some(parts), None) => parts.iter().all(|t| {
                        let r = allows.iter().find(|(_, r)| {
                            r.rule.tool.names("PowerShell")
                                && matches!(&r.rule.spec, Specifier::Command(p) if p.matches(t))
                        });
                        if let Some((i, _)) = r {
                            if !hits.contains(i) {
                                hits.push(*i);
                            }
                            first = first.or(Some(*i));
                        }
                        r.is_some()
                    }),
                };
                trace_allow(v, &hits, if covered { first } else { None });
                if covered {
                    Ok((Decider::AllowRule, first))
                } else if parts.is_none() {
                    Err(Blocker::Unparseable(
                        "PowerShell command cannot be split".into(),
                    ))
                } else {
                    Err(Blocker::NoRule)
                }
            }
            Kind::Read | Kind::Edit => {
                let Some(abs) = facts.path.clone() else {
                    trace_allow(v, &bare.into_iter().collect::<Vec<_>>(), bare);
                    return match bare {
                        Some(b) if !plan_edit => Ok((Decider::AllowRule, Some(b))),
                        _ => Err(Blocker::NoRule),
                    };
                };
                let mut hits: Vec<usize> = Vec::new();
                for (i, r) in &allows {
                    let hit = if r.rule.is_bare() {
                        r.rule.tool.names(&facts.tool)
                    } else if self.rule_names_tool(r, facts, Action::Allow)
                        && matches!(r.rule.spec, Specifier::Path(_))
                    {
                        // An allow needs both the link and its target to match.
                        self.path_rule_matches(*i, &abs, facts.is_dir)
                            && facts
                                .target
                                .as_deref()
                                .is_none_or(|t| self.path_rule_matches(*i, t, facts.is_dir))
                    } else {
                        false
                    };
                    if hit {
                        hits.push(*i);
                    }
                }
                if plan_edit {
                    trace_allow(v, &hits, None);
                    return Err(Blocker::PlanWrite);
                }
                let first = hits.first().copied();
                trace_allow(v, &hits, first);
                if let Some(i) = first {
                    return Ok((Decider::AllowRule, Some(i)));
                }
                let inside = self.in_working_dir(&abs).filter(|_| {
                    facts
                        .target
                        .as_deref()
                        .is_none_or(|t| self.in_working_dir(t).is_some())
                });
                match (facts.kind, inside) {
                    (Kind::Read, Some(d)) => Ok((d, None)),
                    (Kind::Edit, Some(_)) if self.mode == Mode::AcceptEdits => {
                        Ok((Decider::AcceptEdits, None))
                    }
                    (Kind::Edit, Some(_)) if self.mode == Mode::Auto => {
                        Ok((Decider::AutoMode, None))
                    }
                    (_, None) => Err(Blocker::OutsideWorkingDirectory),
                    _ => Err(Blocker::NoRule),
                }
            }
            Kind::Other => {
                let mut hits = Vec::new();
                for (i, r) in &allows {
                    let hit = r.rule.tool.names(&facts.tool)
                        && (r.rule.is_bare()
                            || self.spec_matches(*i, r, facts, Action::Allow).is_some());
                    if hit {
                        hits.push(*i);
                    }
                }
                let first = hits.first().copied();
                trace_allow(v, &hits, first);
                if let Some(i) = first {
                    return Ok((Decider::AllowRule, Some(i)));
                }
                if NO_PERMISSION.contains(&facts.tool.as_str()) {
                    return Ok((Decider::NoPermissionTool, None));
                }
                Err(Blocker::NoRule)
            }
        }
    }

    pub(super) fn approve_bash(
        &self,
        facts: &Facts<'_>,
        v: &mut Verdict,
        allows: &[(usize, &PolicyRule)],
        bare: Option<usize>,
        trace_allow: &mut TraceAllow<'_>,
    ) -> Result<(Decider, Option<usize>), Blocker> {
        // Recorded (CLI 2.1.332): a read-only command sent to the background (`ls &`,
        // `git status &`, `ls & cat README.md`) asks even under a bare `Bash` or `Bash(*)` allow;
        // with any part that is not read-only the bare allow approves it as usual
        // (`npm test &`, `ls & npm test`, `timeout 30 git &`), and so it does for a `&` inside
        // a subshell (`(ls &)`).
        if bare.is_some() && facts.top_background && self.only_read_only(facts) {
            trace_allow(v, &[], None);
            return Err(Blocker::ExecWrapper("&".into()));
        }
        if let Some(b) = bare {
            if self.mode != Mode::Plan || !self.shell_writes(facts) {
                trace_allow(v, &[b], Some(b));
                return Ok((Decider::AllowRule, Some(b)));
            }
        }
        if let Some(e) = &facts.parse_error {
            trace_allow(v, &[], None);
            return Err(Blocker::Unparseable(e.clone()));
        }
        // Recorded (CLI 2.1.332): a command run in the background (`npm test &`,
        // `nohup npm test &`, `npm test & npm run lint`) is approved by no allow rule and no
        // read-only baseline; it asks. Reported like an exec wrapper, `&`.
        if facts.background {
            trace_allow(v, &[], None);
            return Err(Blocker::ExecWrapper("&".into()));
        }
        let subs = &facts.subs;
        let mut hits: Vec<usize> = Vec::new();
        let mut first_rule: Option<usize> = None;
        let mut blocker: Option<Blocker> = None;
        let mut used_baseline = Decider::ReadOnly;
        // Some part was approved by the baseline (read-only set, acceptEdits), and whether
        // that rests on the inferred git forms.
        let (mut baseline_used, mut baseline_inferred) = (false, false);
        let changes_dir = subs.iter().any(|s| {
            s.program() == Some("cd")
                && s.argv().get(1).is_none_or(|d| {
                    path::resolve(d, &self.ctx.cwd, &self.ctx.home)
                        != path::normalize(&self.ctx.cwd)
                })
        });
        for s in subs {
            if s.argv().is_empty() {
                // A bare assignment or redirection: only its targets matter.
                if let Err(why) = bash::read_only(s) {
                    blocker.get_or_insert(match why {
                        bash::NotReadOnly::SpecialVariable(n) => Blocker::UnsafeEnv(n),
                        _ => Blocker::NoRule,
                    });
                }
                continue;
            }
            let exec = bash::exec_wrapper(s);
            let rule = if exec.is_some() {
                None
            } else if s.env_safe_for_allow {
                self.sub_allow(allows, &s.stripped)
            } else {
                // Recorded (CLI 2.1.332): a rule that spells the assignment out covers it
                // (`Bash(X=1 cat *)` approves `X=1 cat README.md`).
                s.with_env
                    .as_deref()
                    .and_then(|t| self.sub_allow(allows, t))
            };
            if let Some(i) = rule {
                if !hits.contains(&i) {
                    hits.push(i);
                }
                first_rule = first_rule.or(Some(i));
                if s.env_inferred {
                    v.inferred = true;
                }
                continue;
            }
            match bash::read_only(s) {
                Ok(inferred_git) => {
                    if s.program() == Some("cd") {
                        let target = s
                            .argv()
                            .get(1)
                            .map(|d| path::resolve(d, &self.ctx.cwd, &self.ctx.home));
                        if target
                            .as_deref()
                            .and_then(|t| self.in_working_dir(t))
                            .is_none()
                        {
                            blocker.get_or_insert(Blocker::OutsideWorkingDirectory);
                        }
                        continue;
                    }
                    if s.program() == Some("git") && changes_dir {
                        blocker.get_or_insert(Blocker::CdGit);
                        continue;
                    }
                    baseline_used = true;
                    baseline_inferred |= inferred_git;
                    continue;
                }
                Err(bash::NotReadOnly::ExecWrapper(w)) => {
                    blocker.get_or_insert(Blocker::ExecWrapper(w));
                    continue;
                }
                Err(bash::NotReadOnly::SpecialVariable(n)) => {
                    blocker.get_or_insert(Blocker::UnsafeEnv(n));
                    continue;
                }
                Err(_) => {}
            }
            if matches!(self.mode, Mode::AcceptEdits) {
                if let Some(paths) = bash::accept_edits_paths(s) {
                    let in_scope = paths.iter().all(|w| {
                        !w.expansion
                            && !w.value.starts_with('~')
                            && self
                                .in_working_dir(&path::resolve(
                                    &w.value,
                                    &self.ctx.cwd,
                                    &self.ctx.home,
                                ))
                                .is_some()
                    });
                    if in_scope && !paths.is_empty() && s.env_safe_for_allow {
                        used_baseline = Decider::AcceptEdits;
                        baseline_used = true;
                        continue;
                    }
                    blocker.get_or_insert(Blocker::OutsideWorkingDirectory);
                    continue;
                }
                blocker.get_or_insert(Blocker::NotFilesystemCommand);
                continue;
            }
            if !s.env_safe_for_allow {
                let v = s
                    .env
                    .iter()
                    .find(|n| !bash::SAFE_ENV.contains(&n.as_str()))
                    .cloned()
                    .unwrap_or_default();
                blocker.get_or_insert(Blocker::UnsafeEnv(v));
            } else {
                blocker.get_or_insert(Blocker::NoRule);
            }
            if s.cmd.nested {
                // §10.2: nested commands need their own approval (inferred).
                v.inferred = true;
            }
        }
        if blocker.is_none() {
            blocker = self.target_blocker(facts);
        }
        if blocker.is_none() {
            blocker = self.path_blocker(facts, v);
        }
        if blocker.is_none() && self.mode == Mode::Plan && self.shell_writes(facts) {
            v.inferred = true;
            blocker = Some(Blocker::PlanWrite);
        }
        match blocker {
            None => {
                // §2.2 [I]: read-only parts need no rule next to rule-approved parts.
                if baseline_inferred || (baseline_used && first_rule.is_some()) {
                    v.inferred = true;
                }
                trace_allow(v, &hits, first_rule);
                match first_rule {
                    Some(i) => Ok((Decider::AllowRule, Some(i))),
                    None => Ok((used_baseline, None)),
                }
            }
            Some(b) => {
                trace_allow(v, &hits, None);
                Err(b)
            }
        }
    }

    /// Whether every part of the command that runs a program is a built-in read-only command
    /// (and there is one).
    fn only_read_only(&self, facts: &Facts<'_>) -> bool {
        let mut programs = facts
            .subs
            .iter()
            .filter(|s| !s.argv().is_empty())
            .peekable();
        programs.peek().is_some() && programs.all(|s| bash::read_only(s).is_ok())
    }

    /// The first allow rule (merged order) whose command pattern covers a subcommand's
    /// `text`.
    fn sub_allow(&self, allows: &[(usize, &PolicyRule)], text: &str) -> Option<usize> {
        let covers = |r: &PolicyRule| {
            r.rule.tool.names("Bash")
                && matches!(&r.rule.spec, Specifier::Command(p) if p.matches(text))
        };
        if self.trace {
            return allows.iter().find(|(_, r)| covers(r)).map(|(i, _)| *i);
        }
        // Only the Bash rules that fix this program (or fix none) can cover it.
        let mut cands = Vec::new();
        self.ix.tool_rules(Action::Allow, "Bash", &mut cands);
        self.ix.bash_rules(Action::Allow, text, &mut cands);
        cands
            .into_iter()
            .filter(|&i| covers(&self.policy.rules[i]))
            .min()
    }

    /// A path the command reads or changes outside the working directories that no `Read`
    /// (or `Edit`) allow rule covers, however the command itself was approved.
    ///
    /// - A read-only command's operands. Recorded (CLI 2.1.332): `cat /etc/hosts` asks under
    ///   `Bash(cat *)` and even under `Bash(cat /etc/hosts)`; `Read(//etc/**)` lets it run
    ///   (in dontAsk too); a bare `Bash` allow approves it before this is looked at. A path
    ///   written with an expansion cannot be resolved: it asks (`cat $HOME/x.txt`).
    /// - The paths of `rm`, `mkdir`, `cp`, `mv`, `touch`, `sed`: outside the working
    ///   directories they need an `Edit` rule (recorded, dontAsk under `Bash(cp *)`,
    ///   `Bash(mkdir *)`, `Bash(rm *)`: `cp a.txt /tmp/x.txt`, `mkdir /tmp/newdir`,
    ///   `rm ../elsewhere/x.txt` are refused; `mv a.txt b.txt`, `touch new.txt` run).
    fn path_blocker(&self, facts: &Facts<'_>, v: &mut Verdict) -> Option<Blocker> {
        for abs in &facts.writes {
            if self.in_working_dir(abs).is_none() && !self.path_allowed(abs, true, false) {
                return Some(Blocker::OutsideWorkingDirectory);
            }
        }
        for (raw, abs, recorded) in &facts.reads {
            let Some(abs) = abs else {
                return Some(Blocker::Target(format!("{raw} cannot be resolved")));
            };
            // Read as a directory too: `Read(//etc/**)` lets `ls /etc` run (recorded).
            if self.in_working_dir(abs).is_some() || self.path_allowed(abs, false, true) {
                continue;
            }
            if !recorded {
                v.inferred = true;
            }
            return Some(Blocker::OutsideWorkingDirectory);
        }
        None
    }

    /// Whether a `Read` or `Edit` allow rule with a path (`Edit` only when `write`) covers
    /// `abs` (`dir`: also as a directory root). A bare `Read` allow does not (recorded:
    /// `cat /etc/hosts` still asks).
    fn path_allowed(&self, abs: &str, write: bool, dir: bool) -> bool {
        let group_rules = if self.trace {
            self.allow_rules()
        } else {
            let mut c = Vec::new();
            self.ix.path_rules(Action::Allow, abs, &mut c);
            c.into_iter().map(|i| (i, &self.policy.rules[i])).collect()
        };
        group_rules.iter().any(|(i, r)| {
            let ToolSelector::Exact(name) = &r.rule.tool else {
                return false;
            };
            let fits = if write {
                name == "Edit"
            } else {
                name == "Read" || name == "Edit"
            };
            fits && matches!(r.rule.spec, Specifier::Path(_))
                && self.path_rule_matches(*i, abs, dir)
        })
    }

    /// A redirection, `tee` or `sed -i` target no rule or mode approves (§2.6).
    ///
    /// A file a command itself writes (`sed -i`, `tee`) inside the working directories needs
    /// nothing more than the rule that approved the command (recorded, CLI 2.1.332: `sed -i
    /// 's/a/b/' a.txt` runs under `Bash(sed -i *)`, in dontAsk too; `tee ../elsewhere/x.txt`
    /// under `Bash(tee *)` does not). A redirection writes only in acceptEdits or auto mode
    /// (`echo x > a.txt` asks under `Bash(echo *)`).
    pub(super) fn target_blocker(&self, facts: &Facts<'_>) -> Option<Blocker> {
        for t in &facts.targets {
            if !t.redirect && !t.write {
                continue; // `cat f`: only deny rules and `path_blocker` look at it.
            }
            let Some(abs) = t.abs.as_deref().filter(|_| !t.needs_approval) else {
                return Some(Blocker::Target(format!("{} cannot be resolved", t.raw)));
            };
            if self.path_allowed(abs, t.write, false) {
                continue;
            }
            let inside = self.in_working_dir(abs).is_some();
            let ok = if t.write && t.redirect {
                inside && matches!(self.mode, Mode::AcceptEdits | Mode::Auto)
            } else {
                inside
            };
            if !ok {
                return Some(Blocker::Target(t.raw.clone()));
            }
        }
        None
    }

    /// Whether the command writes files (acceptEdits commands, write targets).
    pub(super) fn shell_writes(&self, facts: &Facts<'_>) -> bool {
        facts
            .subs
            .iter()
            .any(|s| bash::accept_edits_paths(s).is_some())
            || facts.targets.iter().any(|t| t.write)
    }
}
