//! `permlab eval`: one call through the engines, with the rule or the step that decided.
//!
//! Two kinds of input. `--rules FILE` is a rule table (the lesson's rows, OpenCode rules, a
//! Codex `.rules` file) and every engine runs over it. `--config [SCOPE:]FILE…` is a harness's
//! own config, read by the core's import exactly as the widget's import panel reads it, and
//! run by that harness's engine — the dry run a user of the real product asks for: what would
//! my agent do with this call, and which line of which file decided. Claude Code settings may
//! be several files, the layers of one session (`user:`, `project:`, `local:`, `managed:`);
//! they merge as Claude Code merges them, and the deciding rule is named with its file, line,
//! column, scope and list.
//!
//! Everything printed is words and positions; no Rust value (`Debug`) reaches the output.

use permlab_core::claude_code::table::{context_in, to_tool_call};
use permlab_core::claude_code::{
    self, ClaudeCodeEngine, Context, Decider, Mode, Policy, Scope, SettingsFile, Verdict,
};
use permlab_core::context::CallContext;
use permlab_core::evaluation::{Combine, Subject};
use permlab_core::import::{self, Format, Imported};
use permlab_core::json::Value;
use permlab_core::lint::{self, Place};
use permlab_core::opencode::{self, OpenCodeEngine};
use permlab_core::{engines, Action, Call, Decision, Engine, EngineId, Evaluation, RuleTable};

use crate::cli::{required, EvalArgs};
use crate::words::{self, quoted};
use crate::{pi, read_file, rules, Failure};

pub fn run(a: &EvalArgs) -> Result<bool, Failure> {
    if pi::chosen(a.engine.as_deref()) {
        if !a.config.is_empty() || a.mode.is_some() || a.sandbox || a.no_sandbox || a.json {
            return Err(Failure::usage(
                "--engine pi-gate reads no config and has no mode or sandbox: give it --call (and --no-ui, --explain)",
            ));
        }
        let call_text = required(&a.call, "call", "'bash: sudo make install'")?;
        let call = Call::parse(call_text).map_err(Failure::input)?;
        pi::eval(&call, !a.no_ui, a.explain);
        return Ok(true);
    }
    if a.no_ui {
        return Err(Failure::usage(
            "--no-ui is for --engine pi-gate (Pi without a UI)",
        ));
    }
    let session = Session::from_args(a)?;
    let call_text = required(&a.call, "call", "'bash: git push origin main'")?;
    let call = Call::parse(call_text).map_err(Failure::input)?;
    let (configs, results) = if a.config.is_empty() {
        if a.sandbox || a.no_sandbox {
            return Err(Failure::usage(
                "--sandbox and --no-sandbox are Claude Code's sandbox setting: give its settings with --config",
            ));
        }
        let path = required(
            &a.rules,
            "rules",
            "fixtures/rulesets/miniagent-standard.json",
        )?;
        let table = rules::load_table(path)?;
        let ids = rules::engines(a.engine.as_deref())?;
        if session.mode.is_some() && !ids.contains(&EngineId::ClaudeCode) {
            return Err(Failure::usage(
                "--mode is Claude Code's permission mode: use it with --engine claude-code or all",
            ));
        }
        let results = ids
            .iter()
            .map(|&id| {
                let e = table_engine(id, &table, None, &session).evaluate(&call);
                shown_of_table(&e, &table, &[], &session, id)
            })
            .collect();
        (Vec::new(), results)
    } else {
        let configs = read_configs(a)?;
        let results = eval_configs(&configs, a.engine.as_deref(), &session, &call)?;
        (configs, results)
    };
    if a.json {
        say!(
            "{}",
            to_json(&call, &session, &configs, &results).to_json_pretty()
        );
        return Ok(true);
    }
    say!("call: {call}");
    for c in &configs {
        say!("config: {}", c.summary());
    }
    if session.cwd.is_some() || !configs.is_empty() {
        say!(
            "cwd: {}",
            session.cwd_words(&results.iter().map(|r| r.engine).collect::<Vec<_>>())
        );
    }
    say!("{:<12} {:<12} decided by", "engine", "verdict");
    for r in &results {
        r.print(a.explain);
    }
    Ok(true)
}

// ---------------------------------------------------------------------------------------------
// The session the flags describe.

/// The facts of the session that the flags set. `--cwd` is kept to [`Session::places`] so that
/// the core's call context can replace it in one place.
struct Session {
    cwd: Option<String>,
    mode: Option<Mode>,
    /// `--sandbox` (true) or `--no-sandbox` (false).
    sandbox: Option<bool>,
}

impl Session {
    fn from_args(a: &EvalArgs) -> Result<Session, Failure> {
        let mode = match a.mode.as_deref() {
            None => None,
            Some(m) => Some(Mode::parse(m).ok_or_else(|| {
                Failure::usage(format!(
                    "--mode {m}: Claude Code has no such mode; use one of {}",
                    Mode::ALL.map(Mode::as_str).join(", ")
                ))
            })?),
        };
        let cwd = match a.cwd.as_deref() {
            None => None,
            Some(d) if d.starts_with('/') => {
                let d = d.trim_end_matches('/');
                Some(if d.is_empty() { "/" } else { d }.to_string())
            }
            Some(d) => {
                return Err(Failure::usage(format!(
                    "--cwd {d}: give an absolute path (/home/me/project); the engines never read the machine's directories"
                )))
            }
        };
        let sandbox = match (a.sandbox, a.no_sandbox) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        };
        Ok(Session { cwd, mode, sandbox })
    }

    /// Where the calls run: the engines' shared default, or `--cwd` as the working directory
    /// and the project (the directory an agent is started in is its project).
    fn context(&self) -> CallContext {
        let c = CallContext::default();
        match &self.cwd {
            Some(d) => c.with(Some(d), None, None).unwrap_or(c),
            None => c,
        }
    }

    /// Claude Code's context and OpenCode's place, both from [`Session::context`].
    fn places(&self) -> (Context, opencode::Place) {
        let c = self.context();
        (context_in(&c), opencode::Place::of(&c))
    }

    /// The working directory the engines `ids` ran in, in words.
    fn cwd_words(&self, ids: &[EngineId]) -> String {
        let c = self.context();
        if !ids.contains(&EngineId::ClaudeCode) && !ids.contains(&EngineId::OpenCode) {
            return "not used by these engines".into();
        }
        match &self.cwd {
            Some(_) => format!("{} (--cwd; also the project; ~ is {})", c.cwd, c.home),
            None => format!(
                "{} (the project; ~ is {}): the engines' default, --cwd sets another",
                c.cwd, c.home
            ),
        }
    }
}

/// Engine `id` over a table (the lesson's, or an imported config's), in the session.
fn table_engine(
    id: EngineId,
    table: &RuleTable,
    imported: Option<&Imported>,
    s: &Session,
) -> Box<dyn Engine> {
    let (ctx, place) = s.places();
    match id {
        EngineId::OpenCode => Box::new(OpenCodeEngine::new(table).in_place(place)),
        EngineId::ClaudeCode if s.mode.is_some() || s.cwd.is_some() => Box::new(
            ClaudeCodeEngine::with(table, s.mode.unwrap_or(Mode::Default), ctx),
        ),
        // A Codex import keeps its `canonical_matching` rules' case folding: the preset's
        // engine, as the widget builds it.
        EngineId::Codex if imported.is_some() => preset(table, imported).engine(id),
        _ => engines::build(id, table),
    }
}

fn preset(table: &RuleTable, imported: Option<&Imported>) -> permlab_core::lesson::Preset {
    permlab_core::lesson::Preset {
        id: "config".into(),
        title: None,
        table: table.clone(),
        imported: imported.cloned(),
        claude: Default::default(),
        calls: Vec::new(),
        calls_at: String::new(),
        texts: Vec::new(),
        context: CallContext::default(),
    }
}

// ---------------------------------------------------------------------------------------------
// Configs.

/// One `--config` file, imported.
struct Config {
    name: String,
    text: String,
    format: Format,
    /// Claude Code: the settings layer.
    scope: Option<Scope>,
    imported: Imported,
}

impl Config {
    fn summary(&self) -> String {
        let what = match (self.format, self.scope) {
            (Format::ClaudeCode, Some(s)) => format!("Claude Code settings, {} scope", s.as_str()),
            (Format::ClaudeCode, None) => "Claude Code settings".into(),
            (Format::OpenCode, _) => "an OpenCode config".into(),
            (Format::Codex, _) => "a Codex .rules file".into(),
        };
        let n = self.imported.rules_in;
        let dropped = self.imported.rules_dropped();
        let mut s = format!("{} ({what}): {n} {}", self.name, plural(n, "rule", "rules"));
        if dropped > 0 {
            s.push_str(&format!(
                ", {dropped} not used (the warnings on stderr say why)"
            ));
        }
        s
    }
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

fn format_of(slug: &str) -> Result<Format, Failure> {
    Format::from_slug(slug).ok_or_else(|| {
        Failure::usage(format!(
            "--format {slug}: unknown harness; use claude-code, opencode or codex"
        ))
    })
}

fn read_configs(a: &EvalArgs) -> Result<Vec<Config>, Failure> {
    let forced = a.format.as_deref().map(format_of).transpose()?;
    let mut out: Vec<Config> = Vec::new();
    for arg in &a.config {
        let (scope, name) = crate::scoped_path(arg);
        let text = read_file(name)?;
        let format = match (scope, forced) {
            (Some(_), Some(f)) if f != Format::ClaudeCode => {
                return Err(Failure::usage(format!(
                    "{arg}: a scope ({}:) is for Claude Code settings, but --format says {}",
                    scope.map_or("", Scope::as_str),
                    f.slug()
                )))
            }
            (Some(_), _) => Format::ClaudeCode,
            (None, Some(f)) => f,
            (None, None) => lint::detect(name, &text),
        };
        let imported = match format {
            Format::ClaudeCode => {
                let scope = scope.unwrap_or_else(|| lint::claude_scope(name));
                import::import_claude_code(&text, scope)
            }
            Format::OpenCode => import::import(Format::OpenCode, &text),
            Format::Codex => import::import_file(name, &text),
        }
        .map_err(|e| Failure::input(e.in_source(name).to_string()))?;
        warn_import(name, &imported);
        let scope = match format {
            Format::ClaudeCode => Some(scope.unwrap_or_else(|| lint::claude_scope(name))),
            _ => None,
        };
        out.push(Config {
            name: name.to_string(),
            text,
            format,
            scope,
            imported,
        });
    }
    let first = out[0].format;
    if let Some(other) = out.iter().find(|c| c.format != first) {
        return Err(Failure::usage(format!(
            "{} is {} and {} is {}: one eval runs one harness's configs (give each harness its own eval)",
            out[0].name,
            first.slug(),
            other.name,
            other.format.slug()
        )));
    }
    match first {
        Format::ClaudeCode => {
            for (i, c) in out.iter().enumerate() {
                if let Some(d) = out[..i].iter().find(|d| d.scope == c.scope) {
                    return Err(Failure::usage(format!(
                        "{} and {} are both {} settings: give one file per scope (user:, project:, local:, managed:)",
                        d.name,
                        c.name,
                        c.scope.map_or("", Scope::as_str)
                    )));
                }
            }
        }
        // Codex loads every `.rules` file of its rules directory as one policy.
        Format::Codex => {}
        _ if out.len() > 1 => {
            return Err(Failure::usage(format!(
                "several {} configs: eval reads one (Claude Code settings and Codex .rules files are the ones it merges)",
                first.slug()
            )))
        }
        _ => {}
    }
    if (a.sandbox || a.no_sandbox) && first != Format::ClaudeCode {
        return Err(Failure::usage(match first {
            Format::OpenCode => "--sandbox: OpenCode has no sandbox setting".to_string(),
            _ => "--sandbox: Codex's sandbox and approval policy decide the commands no rule matches, from facts permlab does not compute (Codex's known-safe and dangerous command lists); eval shows what the rules decide".to_string(),
        }));
    }
    Ok(out)
}

/// How many import warnings are printed one by one before the rest are counted.
const SHOWN_WARNINGS: usize = 20;

/// The import's warnings on stderr: an agent's own rules (OpenCode) as one line per agent,
/// the others one per line up to [`SHOWN_WARNINGS`] (`--json` lists them all).
fn warn_import(name: &str, imported: &Imported) {
    use import::ImportNote;
    let mut agents: Vec<(&str, usize)> = Vec::new();
    let mut others = Vec::new();
    for w in &imported.warnings {
        match &w.note {
            ImportNote::OpencodeAgentRules(agent) => {
                match agents.iter_mut().find(|(a, _)| *a == agent.as_str()) {
                    Some((_, n)) => *n += 1,
                    None => agents.push((agent.as_str(), 1)),
                }
            }
            _ => others.push(w),
        }
    }
    for (agent, n) in agents {
        warn!(
            "permlab: {name}: agent `{agent}`: {n} {} of its own, which apply to that agent only: this eval runs the top-level `permission` rules",
            plural(n, "rule", "rules")
        );
    }
    for w in others.iter().take(SHOWN_WARNINGS) {
        warn!("permlab: {name}: {w}");
    }
    if others.len() > SHOWN_WARNINGS {
        warn!(
            "permlab: {name}: … and {} more warnings (--json lists them all)",
            others.len() - SHOWN_WARNINGS
        );
    }
}

fn eval_configs(
    configs: &[Config],
    engine: Option<&str>,
    s: &Session,
    call: &Call,
) -> Result<Vec<Shown>, Failure> {
    let native = configs[0].format.engine();
    let ids = match engine {
        None => vec![native],
        Some(_) => rules::engines(engine)?,
    };
    if ids.iter().any(|&id| id != native)
        && configs.len() > 1
        && configs[0].format == Format::ClaudeCode
    {
        return Err(Failure::usage(
            "other engines than Claude Code run over one settings file's table: give one --config",
        ));
    }
    if s.mode.is_some() && !ids.contains(&EngineId::ClaudeCode) {
        return Err(Failure::usage(
            "--mode is Claude Code's permission mode; this config's harness has none",
        ));
    }
    let mut out = Vec::new();
    for id in ids {
        if id == EngineId::ClaudeCode && configs[0].format == Format::ClaudeCode {
            out.push(claude_native(configs, s, call));
            continue;
        }
        let (imported, places) = merged(configs);
        let table = &imported.table;
        let e = table_engine(id, table, Some(&imported), s).evaluate(call);
        out.push(shown_of_table(&e, table, &places, s, id));
    }
    Ok(out)
}

/// The configs as one table with each row's place. Several Codex `.rules` files are one
/// policy to Codex (strictest match over all their rules): their rows follow each other, each
/// origin prefixed with its file so that `canonical_matching` rules keep their folding.
fn merged(configs: &[Config]) -> (Imported, Vec<Option<Place>>) {
    if let [one] = configs {
        let places = import::row_places(&one.imported, &one.name, &one.text);
        return (one.imported.clone(), places);
    }
    let mut rows: Vec<(String, String, Action)> = Vec::new();
    let mut places = Vec::new();
    let mut all = configs[0].imported.clone();
    all.origins.clear();
    all.canonical.clear();
    all.warnings.clear();
    all.rules_in = 0;
    for c in configs {
        let i = &c.imported;
        rows.extend(
            i.table
                .rules()
                .iter()
                .map(|r| (r.tool.clone(), r.pattern.clone(), r.action)),
        );
        places.extend(import::row_places(i, &c.name, &c.text));
        let named = |o: &String| format!("{}: {o}", c.name);
        all.origins.extend(i.origins.iter().map(named));
        all.canonical.extend(i.canonical.iter().map(named));
        all.warnings.extend(i.warnings.iter().cloned());
        all.rules_in += i.rules_in;
    }
    all.table = RuleTable::new(rows.iter().map(|(t, p, a)| (t.as_str(), p.as_str(), *a)));
    (all, places)
}

// ---------------------------------------------------------------------------------------------
// What is shown.

/// A rule as the answer names it.
struct RuleShown {
    /// The table row (0-based) for a table engine.
    row: Option<usize>,
    place: Option<Place>,
    scope: Option<Scope>,
    list: Action,
    /// The rule as written: `Bash(git push *)`, or a row `bash "git *"`.
    text: String,
    /// A table row's tool and pattern, for scripts.
    tool_pattern: Option<(String, String)>,
}

impl RuleShown {
    /// `B.json:3:12 (project, ask) Bash(git push *)`, or `#2 bash "git *" allow` for a table.
    fn words(&self) -> String {
        match &self.place {
            Some(p) => {
                let tag = match self.scope {
                    Some(s) => format!("{}, {}", s.as_str(), self.list),
                    None => self.list.to_string(),
                };
                format!("{}:{}:{} ({tag}) {}", p.file, p.line, p.column, self.text)
            }
            None => match self.row {
                Some(r) => format!("#{} {} {}", r + 1, self.text, self.list),
                None => format!("{} {}", self.text, self.list),
            },
        }
    }

    fn json(&self) -> Value {
        let mut o: Vec<(String, Value)> = Vec::new();
        if let Some(r) = self.row {
            o.push(("number".into(), Value::from(r + 1)));
        }
        if let Some(p) = &self.place {
            o.push(("file".into(), Value::from(p.file.as_str())));
            o.push(("line".into(), Value::from(p.line)));
            o.push(("column".into(), Value::from(p.column)));
        }
        o.push((
            "scope".into(),
            self.scope.map_or(Value::Null, |s| Value::from(s.as_str())),
        ));
        o.push(("list".into(), Value::from(self.list.as_str())));
        o.push(("rule".into(), Value::from(self.text.as_str())));
        if let Some((tool, pattern)) = &self.tool_pattern {
            o.push(("tool".into(), Value::from(tool.as_str())));
            o.push(("pattern".into(), Value::from(pattern.as_str())));
        }
        Value::Object(o)
    }
}

struct PartShown {
    what: String,
    kind: &'static str,
    text: String,
    decision: Decision,
    rule: Option<RuleShown>,
}

/// One engine's answer, ready to print as text or JSON.
struct Shown {
    engine: EngineId,
    decision: Decision,
    rule: Option<RuleShown>,
    /// The step that decided, in words (always: with a rule, what the rule did).
    step: String,
    /// Claude Code: the mode, where it comes from, and what it did to this call.
    mode: Option<(Mode, String)>,
    mode_part: Option<String>,
    sandbox: Option<String>,
    parts: Vec<PartShown>,
    combine: Option<(usize, Combine)>,
    /// `--explain`: each step taken, as lines.
    steps: Vec<String>,
    matches: Vec<String>,
    inferred: bool,
    /// OpenCode's "Allow always" patterns for the prompt the call shows.
    always: Vec<String>,
}

impl Shown {
    fn print(&self, explain: bool) {
        let decided = match &self.rule {
            Some(r) => r.words(),
            None => format!("— {}", self.step),
        };
        say!(
            "{:<12} {:<12} {decided}",
            self.engine.slug(),
            self.decision.as_str()
        );
        if let Some((mode, from)) = &self.mode {
            match &self.mode_part {
                Some(part) => say!("    mode {} ({from}): {part}", mode.as_str()),
                None => say!("    mode {} ({from})", mode.as_str()),
            }
        }
        if let Some(sb) = &self.sandbox {
            say!("    sandbox: {sb}");
        }
        if let Some((k, how)) = self.combine {
            let how = match how {
                Combine::FirstNotAllowed => "asked in order; the first not allowed decides",
                Combine::Strictest => "each checked; the strictest decides",
            };
            say!(
                "    {} {} ({how}):",
                self.parts.len(),
                plural(self.parts.len(), "part", "parts")
            );
            for (i, p) in self.parts.iter().enumerate() {
                let row = p
                    .rule
                    .as_ref()
                    .map_or_else(|| "no rule".to_string(), RuleShown::words);
                say!(
                    "    {} part {}: {} → {} ({row})",
                    if i == k { "▶" } else { " " },
                    i + 1,
                    p.what,
                    p.decision.as_str()
                );
            }
        }
        if !self.always.is_empty() {
            say!(
                "    \"Allow always\" would save: {}",
                self.always
                    .iter()
                    .map(|p| quoted(p))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        if explain {
            for l in &self.steps {
                say!("    {l}");
            }
            if !self.matches.is_empty() {
                say!("    matching rules: {}", self.matches.join(", "));
            }
            say!("    why: {}", self.step);
            if self.inferred {
                say!("    (rests on a point inferred from the documentation)");
            }
        }
    }

    fn json(&self) -> Value {
        let mut o: Vec<(String, Value)> = vec![
            ("engine".into(), Value::from(self.engine.slug())),
            ("decision".into(), Value::from(self.decision.as_str())),
            (
                "rule".into(),
                self.rule.as_ref().map_or(Value::Null, RuleShown::json),
            ),
            ("step".into(), Value::from(self.step.as_str())),
        ];
        if let Some((mode, from)) = &self.mode {
            o.push((
                "mode".into(),
                Value::Object(vec![
                    ("name".into(), Value::from(mode.as_str())),
                    ("from".into(), Value::from(from.as_str())),
                    (
                        "effect".into(),
                        self.mode_part.as_deref().map_or(Value::Null, Value::from),
                    ),
                ]),
            ));
        }
        if let Some(sb) = &self.sandbox {
            o.push(("sandbox".into(), Value::from(sb.as_str())));
        }
        if let Some((k, how)) = self.combine {
            o.push((
                "combine".into(),
                Value::from(match how {
                    Combine::FirstNotAllowed => "first-not-allowed",
                    Combine::Strictest => "strictest",
                }),
            ));
            o.push(("decided_by".into(), Value::from(k + 1)));
            o.push((
                "parts".into(),
                Value::Array(
                    self.parts
                        .iter()
                        .map(|p| {
                            Value::Object(vec![
                                ("kind".into(), Value::from(p.kind)),
                                ("text".into(), Value::from(p.text.as_str())),
                                ("decision".into(), Value::from(p.decision.as_str())),
                                (
                                    "rule".into(),
                                    p.rule.as_ref().map_or(Value::Null, RuleShown::json),
                                ),
                            ])
                        })
                        .collect(),
                ),
            ));
        }
        if !self.always.is_empty() {
            o.push((
                "always".into(),
                Value::Array(
                    self.always
                        .iter()
                        .map(|p| Value::from(p.as_str()))
                        .collect(),
                ),
            ));
        }
        o.push(("inferred".into(), Value::Bool(self.inferred)));
        Value::Object(o)
    }
}

fn mark(b: Option<bool>) -> &'static str {
    match b {
        Some(true) => "✓",
        Some(false) => "✗",
        None => "–",
    }
}

/// A table engine's evaluation; `places` (one per row, may be empty) name each row's line in
/// the imported config.
fn shown_of_table(
    e: &Evaluation,
    table: &RuleTable,
    places: &[Option<Place>],
    s: &Session,
    id: EngineId,
) -> Shown {
    let rule_at = |row: usize| -> Option<RuleShown> {
        let r = table.rules().get(row)?;
        let place = places.get(row).cloned().flatten();
        Some(RuleShown {
            row: Some(row),
            text: format!("{} {}", r.tool, quoted(&r.pattern)),
            tool_pattern: Some((r.tool.clone(), r.pattern.clone())),
            place,
            scope: None,
            list: r.action,
        })
    };
    let rule = match e.rule {
        Some(row) => rule_at(row),
        None => None,
    };
    let step = match (&e.reason, &rule) {
        (permlab_core::Reason::Rule { action, .. }, Some(_)) => {
            format!("the rule decided: {action}")
        }
        (
            permlab_core::Reason::CodexStrictest {
                matched, action, ..
            },
            Some(_),
        ) => format!(
            "the strictest of the {matched} matching {} decided: {action}",
            plural(*matched, "rule", "rules")
        ),
        (r, _) => words::reason(r),
    };
    let step = if e.rule.is_none() && e.decision == Decision::Unavailable {
        format!("{step} (tool removed)")
    } else {
        step
    };
    let parts = e
        .parts
        .iter()
        .map(|p| {
            let (what, kind) = match &p.subject {
                Subject::Command(c) => (format!("command {}", quoted(c)), "command"),
                Subject::OutsideDirectory(d) => (
                    format!("outside directory {} (external_directory)", quoted(d)),
                    "outside-directory",
                ),
            };
            PartShown {
                what,
                kind,
                text: p.subject.text().to_string(),
                decision: p.decision,
                rule: p.rule.and_then(rule_at),
            }
        })
        .collect();
    let steps = e
        .steps
        .iter()
        .enumerate()
        .map(|(k, st)| {
            let group = st
                .group
                .map(|g| format!("[{g} group] "))
                .unwrap_or_default();
            let part = st
                .part
                .map(|p| format!("[part {}] ", p + 1))
                .unwrap_or_default();
            let row = rule_at(st.row).map_or_else(|| format!("#{}", st.row + 1), |r| r.words());
            format!(
                "step {}: {part}{group}{row} — tool {} pattern {}{}",
                k + 1,
                mark(Some(st.tool_matched)),
                mark(st.pattern_matched),
                if st.stop { " → stop" } else { "" }
            )
        })
        .collect();
    let matches = e
        .matches
        .iter()
        .map(|&r| {
            rule_at(r).map_or_else(
                || format!("#{}", r + 1),
                |x| match x.place {
                    Some(p) => format!("{}:{}:{}", p.file, p.line, p.column),
                    None => format!("#{}", r + 1),
                },
            )
        })
        .collect();
    let mode = (id == EngineId::ClaudeCode).then(|| {
        let m = s.mode.unwrap_or(Mode::Default);
        let from = if s.mode.is_some() {
            "--mode"
        } else {
            "a table sets no mode"
        };
        (m, from.to_string())
    });
    let mode_part = match &e.reason {
        permlab_core::Reason::ClaudeRuleInMode { mode, .. } => Some(words::mode_turn(*mode).into()),
        permlab_core::Reason::ClaudeCode(Decider::Mode { .. }) => Some(format!(
            "nothing approved the call, so the mode's fallback gives {}",
            e.decision
        )),
        _ => None,
    };
    Shown {
        engine: id,
        decision: e.decision,
        rule,
        step,
        mode,
        mode_part,
        sandbox: None,
        parts,
        combine: e.decided_by,
        steps,
        matches,
        inferred: e.inferred,
        always: e.always.clone(),
    }
}

/// Claude Code over its own settings files: the layers merged as Claude Code merges them (a
/// trusted workspace, so project allow rules apply), in the mode and sandbox the settings and
/// the flags give, evaluated by the core's procedure.
fn claude_native(configs: &[Config], s: &Session, call: &Call) -> Shown {
    let files: Vec<SettingsFile> = configs
        .iter()
        .filter_map(|c| c.imported.claude_settings.clone())
        .collect();
    let mut policy = Policy::merge(&files, true);
    let (sandbox_from, sandbox_on) = match s.sandbox {
        Some(on) => {
            policy.sandbox_enabled = on;
            (
                if on { "--sandbox" } else { "--no-sandbox" }.to_string(),
                on,
            )
        }
        None => {
            let from = configs
                .iter()
                .filter_map(|c| {
                    let f = c.imported.claude_settings.as_ref()?;
                    f.sandbox.enabled.map(|_| (f.scope, c.name.as_str()))
                })
                .min_by_key(|(scope, _)| *scope)
                .map_or_else(
                    || "no settings file enables it".to_string(),
                    |(scope, name)| format!("sandbox.enabled in {name}, {} scope", scope.as_str()),
                );
            (from, policy.sandbox_enabled)
        }
    };
    let (mode, mode_from) = match s.mode {
        Some(m) => (m, "--mode".to_string()),
        None => {
            let m = policy.session_mode();
            let from = match (policy.default_mode, policy.default_mode_scope) {
                (Some(set), Some(scope)) if set == m => {
                    let name = configs
                        .iter()
                        .find(|c| c.scope == Some(scope))
                        .map_or("", |c| c.name.as_str());
                    format!("defaultMode in {name}, {} scope", scope.as_str())
                }
                (Some(set), Some(scope)) => format!(
                    "defaultMode {} in {} settings does not take effect there",
                    set.as_str(),
                    scope.as_str()
                ),
                _ => "no settings file sets defaultMode".to_string(),
            };
            (m, from)
        }
    };
    let (ctx, _) = s.places();
    let v = claude_code::evaluate(&policy, mode, &ctx, &to_tool_call(call));
    // Every step names its rule's place: each file is parsed and walked once for all of them.
    let places: Vec<import::ClaudeRulePlaces> = configs
        .iter()
        .map(|c| import::ClaudeRulePlaces::new(&c.name, &c.text))
        .collect();
    let rule_at = |k: usize| -> Option<RuleShown> {
        let r = policy.rules.get(k)?;
        let c = configs.iter().position(|c| c.scope == Some(r.scope))?;
        Some(RuleShown {
            row: None,
            place: places[c].place(r.group, r.index),
            scope: Some(r.scope),
            list: r.group,
            text: r.text.clone(),
            tool_pattern: None,
        })
    };
    let rule = v.rule.and_then(rule_at);
    let step = claude_step(&v, mode);
    let mode_part = match (&v.decider, v.outcome.decision()) {
        (Decider::AskRule, d) if d != Decision::Ask => Some(words::mode_turn(mode).to_string()),
        (Decider::Mode { .. }, d) => Some(format!(
            "nothing approved the call, so the mode's fallback gives {d}"
        )),
        (Decider::Bypass | Decider::AcceptEdits | Decider::AutoMode, _) => {
            Some(words::decider(&v.decider))
        }
        _ => None,
    };
    let sandbox = Some(format!(
        "{} ({sandbox_from}){}",
        if sandbox_on { "on" } else { "off" },
        if sandbox_on && !policy.auto_allow_bash_if_sandboxed {
            "; autoAllowBashIfSandboxed is not true, so sandboxed commands still ask"
        } else {
            ""
        }
    ));
    let steps = v
        .trace
        .iter()
        .enumerate()
        .map(|(k, st)| {
            let r = rule_at(st.rule).map_or_else(|| format!("rule {}", st.rule + 1), |r| r.words());
            format!(
                "step {}: [{} group] {r} — tool {} specifier {}{}",
                k + 1,
                st.group,
                mark(Some(st.tool_matched)),
                mark(st.spec_matched),
                if st.stop { " → stop" } else { "" }
            )
        })
        .collect();
    let matches = v
        .matches
        .iter()
        .filter_map(|&k| rule_at(k))
        .map(|r| match r.place {
            Some(p) => format!("{}:{}:{} {}", p.file, p.line, p.column, r.text),
            None => r.text,
        })
        .collect();
    Shown {
        engine: EngineId::ClaudeCode,
        decision: v.outcome.decision(),
        rule,
        step,
        mode: Some((mode, mode_from)),
        mode_part,
        sandbox,
        parts: Vec::new(),
        combine: None,
        steps,
        matches,
        inferred: v.inferred,
        always: Vec::new(),
    }
}

fn claude_step(v: &Verdict, mode: Mode) -> String {
    let base = words::decider(&v.decider);
    match (&v.decider, v.outcome) {
        (Decider::AskRule, o) if o.decision() != Decision::Ask => {
            format!("{base}; {}", words::mode_turn(mode))
        }
        (_, claude_code::Outcome::Classifier) => {
            format!("{base}; auto mode's classifier decides (shown as ask)")
        }
        _ => base,
    }
}

fn to_json(call: &Call, s: &Session, configs: &[Config], results: &[Shown]) -> Value {
    let (ctx, place) = s.places();
    Value::Object(vec![
        (
            "call".into(),
            Value::Object(vec![
                ("tool".into(), Value::from(call.tool.as_str())),
                ("input".into(), Value::from(call.input.as_str())),
            ]),
        ),
        (
            "cwd".into(),
            Value::Object(vec![
                ("claude-code".into(), Value::from(ctx.cwd.as_str())),
                ("opencode".into(), Value::from(place.cwd.as_str())),
            ]),
        ),
        (
            "configs".into(),
            Value::Array(
                configs
                    .iter()
                    .map(|c| {
                        Value::Object(vec![
                            ("file".into(), Value::from(c.name.as_str())),
                            ("format".into(), Value::from(c.format.slug())),
                            (
                                "scope".into(),
                                c.scope.map_or(Value::Null, |s| Value::from(s.as_str())),
                            ),
                            ("rules".into(), Value::from(c.imported.rules_in)),
                            (
                                "warnings".into(),
                                Value::Array(
                                    c.imported
                                        .warnings
                                        .iter()
                                        .map(|w| Value::from(w.to_string()))
                                        .collect(),
                                ),
                            ),
                        ])
                    })
                    .collect(),
            ),
        ),
        (
            "results".into(),
            Value::Array(results.iter().map(Shown::json).collect()),
        ),
    ])
}
