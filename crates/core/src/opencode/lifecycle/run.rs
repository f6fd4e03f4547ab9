//! Running the stages in order ([`lifecycle`]): each stage's outcome decides whether the next
//! one is reached.

use super::exec::{self, Run, RunEnd, TimeoutSource};
use super::output;
use super::paths::{self, Place};
use super::registry::{self, NextRegistry, ToolDef};
use super::request::{self, Decision, PatternCheck, Prompt, Reply, Request, Rulesets};
use super::stage::*;
use super::{arity, parse, BashCall, Lifecycle, Runtime, Setup};
use crate::opencode::{Approvals, Rule};

/// Commands that produce no bash pattern.
pub const NO_PATTERN: [&str; 6] = [
    "cd",
    "chdir",
    "pushd",
    "popd",
    "push-location",
    "set-location",
];

/// Steps `call` through `runtime`'s lifecycle under `setup`. `answers` are the user's replies
/// to the prompts, in order (a prompt with no answer left waits); `run` is what the command
/// does when it runs.
pub fn lifecycle(
    runtime: Runtime,
    setup: &Setup,
    call: &BashCall,
    answers: &[Reply],
    run: &Run,
) -> Lifecycle {
    let mut b = Builder {
        runtime,
        stages: Vec::new(),
        end: End::Completed,
        model_receives: None,
        loop_continues: true,
        approvals: setup.approvals.clone(),
        answers: answers.iter(),
        prompts: Vec::new(),
    };
    b.run(setup, call, run);
    let Builder {
        mut stages,
        end,
        model_receives,
        loop_continues,
        approvals,
        ..
    } = b;
    for kind in StageKind::ORDER.iter().skip(stages.len()) {
        stages.push(stage(*kind, Status::NotReached, None));
    }
    Lifecycle {
        runtime,
        stages,
        end,
        model_receives,
        loop_continues,
        approvals,
    }
}

fn stage(kind: StageKind, status: Status, detail: Option<Detail>) -> Stage {
    Stage {
        kind,
        status,
        detail,
        claims: kind.claims(),
        seed_matches: kind.seed_matches(),
    }
}

struct Builder<'a> {
    runtime: Runtime,
    stages: Vec<Stage>,
    end: End,
    model_receives: Option<String>,
    loop_continues: bool,
    approvals: Approvals,
    answers: std::slice::Iter<'a, Reply>,
    prompts: Vec<Prompt>,
}

impl Builder<'_> {
    fn push(&mut self, kind: StageKind, status: Status, detail: Option<Detail>) {
        self.stages.push(stage(kind, status, detail));
    }

    fn stop(&mut self, end: End, message: Option<String>) {
        self.end = end;
        self.model_receives = message;
    }

    fn run(&mut self, setup: &Setup, call: &BashCall, run: &Run) {
        let next = self.runtime == Runtime::Next;
        let mut rules = setup.agent_rules.clone();
        rules.extend(setup.session_rules.iter().cloned());

        // ① Tool lookup.
        let lookup = self.lookup(setup, &rules, &call.tool);
        let builtin = lookup
            .active
            .as_ref()
            .is_some_and(|d| d.source == registry::Source::BuiltIn);
        if lookup.resolved.is_none() {
            let message = lookup.invalid_message.clone();
            self.push(
                StageKind::ToolLookup,
                Status::Stopped,
                Some(Detail::Lookup(lookup)),
            );
            return self.stop(End::Invalid, message);
        }
        if !builtin {
            self.push(
                StageKind::ToolLookup,
                Status::Stopped,
                Some(Detail::Lookup(lookup)),
            );
            return self.stop(End::CustomTool, None);
        }
        self.push(
            StageKind::ToolLookup,
            Status::Pass,
            Some(Detail::Lookup(lookup)),
        );

        // Arguments.
        let args = arguments(setup, call, next);
        if let Some(e) = args.error.clone() {
            self.push(
                StageKind::Arguments,
                Status::Stopped,
                Some(Detail::Arguments(args)),
            );
            return self.stop(End::ArgumentError, Some(e));
        }
        let mut place = setup.place.clone();
        place.cwd = args.cwd.clone();
        let timeout_ms = args.timeout_ms;
        self.push(
            StageKind::Arguments,
            Status::Pass,
            Some(Detail::Arguments(args)),
        );

        // Parse.
        let parsing = if next {
            parse_next(&call.command, &place)
        } else {
            parse_classic(&call.command, &place)
        };
        self.push(
            StageKind::Parse,
            Status::Pass,
            Some(Detail::Parse(parsing.clone())),
        );

        // ② external_directory, then ③ bash.
        let dir_patterns: Vec<String> =
            parsing.dirs.iter().map(|d| paths::dir_pattern(d)).collect();
        let steps = [
            (
                StageKind::ExternalDirectory,
                "external_directory",
                dir_patterns.clone(),
                dir_patterns,
            ),
            (
                StageKind::Command,
                "bash",
                parsing.patterns.clone(),
                parsing.always.clone(),
            ),
        ];
        for (kind, permission, patterns, always) in steps {
            if patterns.is_empty() {
                self.push(kind, Status::Skipped, None);
                continue;
            }
            let req = Request {
                permission: permission.into(),
                patterns,
                always,
            };
            if !self.permission(kind, setup, req) {
                return;
            }
        }

        // ④ Confirmation: a summary of the prompts.
        let status = if self.prompts.is_empty() {
            Status::Skipped
        } else {
            Status::Pass
        };
        let prompts = self.prompts.clone();
        self.push(
            StageKind::Confirmation,
            status,
            Some(Detail::Confirmation(prompts)),
        );

        // ⑤ Execution.
        let installed: Vec<&str> = setup.installed_shells.iter().map(String::as_str).collect();
        let execution = Execution {
            shell: exec::select_shell(setup.shell.as_deref(), &installed),
            timeout_ms,
            timer_ms: timeout_ms + exec::TIMER_GRACE_MS,
            force_kill_after_ms: exec::FORCE_KILL_AFTER_MS,
            end: run.end,
            exit: run.exit(),
        };
        self.push(
            StageKind::Execution,
            Status::Pass,
            Some(Detail::Execution(execution)),
        );

        // ⑥ Output.
        let file = output::output_file(&setup.data_dir, &setup.call_id);
        let out = if next {
            let ht = output::next_head_tail(&run.output, setup.limits, &file);
            Output {
                text: ht.text.clone(),
                truncated: ht.truncated,
                classic: None,
                next: Some(ht),
                exit_note: run.exit().map(exec::exit_note),
            }
        } else {
            let t = output::classic_bash(&run.output, setup.limits, &file);
            let mut text = t.text.clone();
            match run.end {
                RunEnd::TimedOut => text += &exec::shell_metadata(&exec::timeout_note(timeout_ms)),
                RunEnd::Aborted => text += &exec::shell_metadata(exec::ABORTED_NOTE),
                RunEnd::Exited(_) => {}
            }
            Output {
                text,
                truncated: t.truncated,
                classic: Some(t),
                next: None,
                exit_note: None,
            }
        };
        self.model_receives = Some(out.text.clone());
        self.push(StageKind::Output, Status::Pass, Some(Detail::Output(out)));
    }

    fn lookup(&self, setup: &Setup, rules: &[Rule], requested: &str) -> Lookup {
        match self.runtime {
            Runtime::Classic => match registry::classic_lookup(&setup.tools, rules, requested) {
                Ok(name) => {
                    let r = registry::classic_resolve(&setup.tools, &name);
                    Lookup {
                        requested: requested.into(),
                        resolved: Some(name),
                        active: r.active,
                        others: r.replaced,
                        invalid_message: None,
                    }
                }
                Err(message) => Lookup {
                    requested: requested.into(),
                    resolved: None,
                    active: None,
                    others: Vec::new(),
                    invalid_message: Some(message),
                },
            },
            Runtime::Next => {
                let mut reg = NextRegistry::new();
                for d in &setup.tools {
                    reg.register(d.clone());
                }
                let mut stack: Vec<ToolDef> = reg.stack(requested).into_iter().cloned().collect();
                let active = stack.pop();
                Lookup {
                    requested: requested.into(),
                    resolved: active.as_ref().map(|d| d.name.clone()),
                    active,
                    others: stack,
                    invalid_message: None,
                }
            }
        }
    }

    /// Evaluates one request and handles its prompt. `false`: the call ended.
    fn permission(&mut self, kind: StageKind, setup: &Setup, req: Request) -> bool {
        let next = self.runtime == Runtime::Next;
        let sets = Rulesets {
            agent: &setup.agent_rules,
            session: &setup.session_rules,
            approved: &self.approvals,
        };
        let (checks, decision) = if next {
            request::next(&sets, &req)
        } else {
            request::classic(&sets, &req)
        };
        match decision.clone() {
            Decision::Allow => {
                self.push_permission(kind, Status::Pass, req, checks, decision, None);
                true
            }
            Decision::Deny { message, .. } => {
                self.push_permission(kind, Status::Stopped, req, checks, decision, None);
                if kind == StageKind::ExternalDirectory {
                    self.push(StageKind::Command, Status::NotReached, None);
                }
                // ④ still shows a prompt answered before the deny.
                if !self.prompts.is_empty() {
                    let prompts = self.prompts.clone();
                    self.push(
                        StageKind::Confirmation,
                        Status::Pass,
                        Some(Detail::Confirmation(prompts)),
                    );
                }
                self.stop(End::Denied, message);
                // A deny does not stop the agent loop: the model may try something else.
                self.loop_continues = true;
                false
            }
            Decision::Ask => {
                let reply = if setup.auto_approve {
                    Some(Reply::Once)
                } else {
                    self.answers.next().cloned()
                };
                let prompt = request::answer(
                    &req,
                    reply,
                    &mut self.approvals,
                    next,
                    setup.continue_loop_on_deny,
                );
                self.prompts.push(prompt.clone());
                let (status, goes_on) = match prompt.reply {
                    None => (Status::Waiting, false),
                    Some(_) if prompt.proceeds => (Status::Pass, true),
                    Some(_) => (Status::Stopped, false),
                };
                let message = prompt.model_message.clone();
                let loop_continues = prompt.loop_continues;
                let waiting = prompt.reply.is_none();
                self.push_permission(kind, status, req, checks, decision, Some(prompt));
                if !goes_on {
                    // ④ shows the prompt that stopped the call.
                    let prompts = self.prompts.clone();
                    let status = if waiting {
                        Status::Waiting
                    } else {
                        Status::Stopped
                    };
                    if kind == StageKind::ExternalDirectory {
                        self.push(StageKind::Command, Status::NotReached, None);
                    }
                    self.push(
                        StageKind::Confirmation,
                        status,
                        Some(Detail::Confirmation(prompts)),
                    );
                    if waiting {
                        self.stop(End::Waiting, None);
                    } else {
                        self.stop(End::Rejected, message);
                        self.loop_continues = loop_continues;
                    }
                }
                goes_on
            }
        }
    }

    fn push_permission(
        &mut self,
        kind: StageKind,
        status: Status,
        request: Request,
        checks: Vec<PatternCheck>,
        decision: Decision,
        prompt: Option<Prompt>,
    ) {
        self.push(
            kind,
            status,
            Some(Detail::Permission(Permission {
                request,
                checks,
                decision,
                prompt,
            })),
        );
    }
}

fn arguments(setup: &Setup, call: &BashCall, next: bool) -> Arguments {
    let cwd = match &call.workdir {
        Some(w) => paths::resolve(&setup.place.directory, w),
        None => paths::normalize(&setup.place.directory),
    };
    let mut a = Arguments {
        timeout_ms: exec::DEFAULT_TIMEOUT_MS,
        timeout_source: TimeoutSource::Default,
        max_timeout_ms: next.then_some(exec::NEXT_MAX_TIMEOUT_MS),
        over_max: false,
        cwd,
        error: None,
    };
    match call.timeout {
        Some(t) if t <= 0 => {
            // The schema error is stated for the classic runtime; the next one is not modelled.
            a.error = Some(exec::timeout_schema_error(t));
        }
        Some(t) => {
            a.timeout_ms = t.unsigned_abs();
            a.timeout_source = TimeoutSource::Argument;
            a.over_max = next && a.timeout_ms > exec::NEXT_MAX_TIMEOUT_MS;
        }
        None if !next => {
            let (t, s) = exec::effective_timeout(None, setup.env_default_timeout.as_deref());
            a.timeout_ms = t;
            a.timeout_source = s;
        }
        None => {}
    }
    a
}

fn push_unique(v: &mut Vec<String>, s: String) {
    if !v.contains(&s) {
        v.push(s);
    }
}

/// Classic: every `command` node → a pattern (unless `cd`-like), its "always" prefix, its
/// outside directories; then the working directory when it is outside.
pub(crate) fn parse_classic(command: &str, place: &Place) -> Parsing {
    let mut p = Parsing {
        commands: Vec::new(),
        patterns: Vec::new(),
        always: Vec::new(),
        dirs: Vec::new(),
        cwd_outside: false,
        advisory_dirs: Vec::new(),
    };
    // Membership sets beside the ordered lists: a long command with thousands of distinct
    // sub-commands stays linear.
    let mut seen: [std::collections::HashSet<String>; 3] = Default::default();
    let mut add = |v: &mut Vec<String>, k: usize, s: &String| {
        if seen[k].insert(s.clone()) {
            v.push(s.clone());
        }
    };
    for c in parse::commands(command) {
        let tokens = c.token_texts();
        if tokens.is_empty() {
            continue;
        }
        let no_pattern = NO_PATTERN.contains(&tokens[0]);
        let pattern = (!no_pattern).then(|| c.pattern_text().to_string());
        let always = (!no_pattern).then(|| arity::always_pattern(&tokens));
        let dirs = paths::outside_dirs(&tokens, place);
        if let Some(x) = &pattern {
            add(&mut p.patterns, 0, x);
        }
        if let Some(x) = &always {
            add(&mut p.always, 1, x);
        }
        for d in &dirs {
            add(&mut p.dirs, 2, d);
        }
        p.commands.push(SubCommand {
            text: c.pattern_text().to_string(),
            tokens: tokens.iter().map(|t| t.to_string()).collect(),
            pattern,
            always,
            dirs,
        });
    }
    if !place.inside(&place.cwd) {
        p.cwd_outside = true;
        push_unique(&mut p.dirs, place.cwd.clone());
    }
    p
}

/// Next: the whole command is the one pattern and what "always" saves; only an outside
/// working directory is asked about, outside path arguments are warnings (computed here as
/// the classic path arguments: the reference does not say how v2 finds them).
fn parse_next(command: &str, place: &Place) -> Parsing {
    let classic = parse_classic(command, place);
    let mut dirs = Vec::new();
    if classic.cwd_outside {
        dirs.push(place.cwd.clone());
    }
    let advisory_dirs = classic
        .commands
        .iter()
        .flat_map(|c| c.dirs.iter().cloned())
        .fold(Vec::new(), |mut v, d| {
            push_unique(&mut v, d);
            v
        });
    Parsing {
        commands: Vec::new(),
        patterns: vec![command.to_string()],
        always: vec![command.to_string()],
        dirs,
        cwd_outside: classic.cwd_outside,
        advisory_dirs,
    }
}
