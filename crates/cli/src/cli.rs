//! The command line, declared with clap: every subcommand, its options and its help
//! (`permlab help eval`, `permlab eval --help`). Values that need the core to check them
//! (engines, modes, files) stay strings here and are checked by the subcommand, so each
//! message can say what to write instead.

use clap::{Args, Parser, Subcommand};

/// permlab — how coding-agent harnesses decide whether a tool call may run
#[derive(Parser)]
#[command(
    name = "permlab",
    disable_version_flag = true,
    disable_help_subcommand = false,
    after_help = "Rules, calls and positions are counted from 1 everywhere (#1 is the first row).\n\
                  Exit status: 0 ok, 1 a check failed, 2 unusable input."
)]
pub struct Cli {
    /// The product versions the engines reproduce
    #[arg(short = 'V', long = "version")]
    pub version: bool,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand)]
pub enum Command {
    /// The verdict of each engine on one call, the rule or step that decided, and why
    #[command(
        after_help = EVAL_EXAMPLES,
        override_usage = "permlab eval --call 'TOOL: INPUT' --rules FILE [--engine NAME|all] [OPTIONS]\n       \
                          permlab eval --call 'TOOL: INPUT' --config [SCOPE:]FILE... [--mode MODE] [--cwd DIR] [OPTIONS]"
    )]
    Eval(EvalArgs),
    /// Run conformance files (fixtures/conformance/*.json); last line: N passed, M failed
    #[command(override_usage = "permlab conformance FILE...")]
    Conformance(Files),
    /// One JSON line {"decision", "rule"} per call line {"tool", "input"} on stdin
    #[command(
        after_help = "Each output line: {\"decision\": \"allow\"|\"ask\"|\"deny\", \"rule\": N|null} (N counted from 1;\n\
                            \"unavailable\": true when the tool is removed). With --engine pi-gate:\n\
                            {\"decision\", \"pattern\": N|null[, \"reason\"]}."
    )]
    #[command(override_usage = "permlab batch --engine NAME --rules FILE [--no-ui] < calls.jsonl")]
    Batch(BatchArgs),
    /// Evaluation throughput (evals/s) and the allow/ask/deny tally of one pass
    #[command(
        override_usage = "permlab bench --engine NAME --rules FILE --calls FILE [--seconds S] [--scope call|evaluate] [--place default|recording] [--workdir DIR]"
    )]
    Bench(BenchArgs),
    /// Write the mixed rule tables and calls the benchmark figures use
    #[command(override_usage = "permlab bench-data --out DIR [OPTIONS]")]
    BenchData(BenchDataArgs),
    /// A run's tool calls through every engine and mode: counts, shares, disagreements
    #[command(
        long_about = "A run's tool calls (JSON lines of {\"tool\", \"input\"}, a Claude Code stream-json\n\
                      transcript or a Codex rollout) through every engine and mode: allow/ask/deny/unavailable\n\
                      counts and shares, then the calls the engines disagree on."
    )]
    #[command(override_usage = "permlab replay TRACE (--rules FILE | --engine pi-gate) [--json]")]
    Replay(ReplayArgs),
    /// Validate lessons and compare every author-written "expect" answer with the engines
    #[command(
        long_about = "Validate lessons (fixtures/lesson.schema.json) and compare every author-written\n\
                      \"expect\" answer with the engines. Exit 1 on an invalid lesson or a wrong answer,\n\
                      2 on an unreadable file."
    )]
    #[command(override_usage = "permlab check LESSON.json...")]
    Check(Files),
    /// Dead, shadowed and order-fragile rules and misleading patterns in real configs
    #[command(
        long_about = "Dead, shadowed and order-fragile rules and misleading patterns in .claude/settings.json\n\
                      (several files: the layers of one session; SCOPE:FILE names one), opencode.json(c),\n\
                      agent .md and Codex .rules; each finding with a call the engine decides.\n\
                      Exit 0 clean, 1 findings, 2 unreadable input."
    )]
    #[command(
        override_usage = "permlab lint [SCOPE:]FILE... [--format HARNESS] [--target HARNESS] [--json]"
    )]
    Lint(LintArgs),
    /// The product versions the engines reproduce
    Version,
}

const EVAL_EXAMPLES: &str = "\
Engines: first-match, opencode, claude-code, corecoder, codex (all: every one), and pi-gate
(Pi's permission-gate.ts extension: reads no table; --no-ui runs it without a UI).

A rule table (--rules) is the lesson's JSON array of {\"tool\", \"pattern\", \"action\"} rows,
OpenCode rules {\"permission\", \"pattern\", \"action\"}, or a Codex .rules file; rows are
numbered from 1. A real config (--config) is read as the widget's import panel reads it and
run by its own harness's engine; the deciding rule is named FILE:LINE:COLUMN with its scope
and list. Claude Code settings may be given several times, one per scope: user:FILE,
project:FILE, local:FILE, managed:FILE (else the scope comes from the name).

Examples:
  permlab eval --rules fixtures/rulesets/miniagent-standard.json --call 'bash: git push' --explain
  permlab eval --config user:$HOME/.claude/settings.json --config project:.claude/settings.json \\
               --call 'Bash: git push' --mode dontAsk
  permlab eval --config opencode.json --call 'bash: git status && curl x.example' --cwd /home/me/app
  permlab eval --config default.rules --call 'bash: git push --force' --json";

/// `FILE…` of `check` and `conformance`.
#[derive(Args)]
pub struct Files {
    /// The files
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,
}

#[derive(Args)]
pub struct EvalArgs {
    /// The call: 'TOOL: INPUT' (bash: git push origin main, Bash: git push, read_file: .env)
    #[arg(long, value_name = "'TOOL: INPUT'")]
    pub call: Option<String>,
    /// A rule table (JSON rows, OpenCode rules, or a Codex .rules file)
    #[arg(long, value_name = "FILE", conflicts_with = "config")]
    pub rules: Option<String>,
    /// A real config: .claude/settings.json (SCOPE:FILE), opencode.json(c), agent .md, .rules
    #[arg(long, value_name = "[SCOPE:]FILE", num_args = 1..)]
    pub config: Vec<String>,
    /// How to read the configs: claude-code, opencode or codex (default: from name and text)
    #[arg(long, value_name = "HARNESS", requires = "config")]
    pub format: Option<String>,
    /// Which engine: a name or all (default: all for --rules, the config's own harness for --config)
    #[arg(long, value_name = "NAME")]
    pub engine: Option<String>,
    /// Claude Code's permission mode: default, acceptEdits, plan, auto, dontAsk, bypassPermissions
    /// (default: the settings' defaultMode)
    #[arg(long, value_name = "MODE")]
    pub mode: Option<String>,
    /// Claude Code: run with the sandbox on, as `sandbox.enabled: true` would
    #[arg(long, overrides_with = "no_sandbox")]
    pub sandbox: bool,
    /// Claude Code: run with the sandbox off, whatever the settings say
    #[arg(long, overrides_with = "sandbox")]
    pub no_sandbox: bool,
    /// The working directory (and project) of the session, an absolute path
    /// (default: the lesson's, shown in the output)
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<String>,
    /// Every step each engine took, with the part of the call it belongs to
    #[arg(long)]
    pub explain: bool,
    /// One JSON document for scripts instead of text
    #[arg(long)]
    pub json: bool,
    /// pi-gate only: Pi without a UI (print mode), where a dangerous command is denied
    #[arg(long)]
    pub no_ui: bool,
}

#[derive(Args)]
pub struct BatchArgs {
    /// One engine (see `permlab help eval`), or pi-gate
    #[arg(long, value_name = "NAME")]
    pub engine: Option<String>,
    /// The rule table
    #[arg(long, value_name = "FILE")]
    pub rules: Option<String>,
    /// pi-gate only: Pi without a UI
    #[arg(long)]
    pub no_ui: bool,
}

#[derive(Args)]
pub struct BenchArgs {
    /// One engine
    #[arg(long, value_name = "NAME")]
    pub engine: Option<String>,
    /// The rule table
    #[arg(long, value_name = "FILE")]
    pub rules: Option<String>,
    /// A JSON array of calls [{"tool", "input"}]
    #[arg(long, value_name = "FILE")]
    pub calls: Option<String>,
    /// How long to measure (default 2)
    #[arg(long, value_name = "S")]
    pub seconds: Option<String>,
    /// call (the whole call, as the product decides it) or evaluate (OpenCode's evaluate alone)
    #[arg(long, value_name = "SCOPE")]
    pub scope: Option<String>,
    /// OpenCode's whole call: where calls run, default (/home/learner/miniagent) or recording
    /// (/home/user/project, the place opencode-bash-real.json was recorded in)
    #[arg(long, value_name = "PLACE")]
    pub place: Option<String>,
    /// OpenCode's whole call: the working directory (absolute), as the bash tool's resolved
    /// `workdir`; the default is the place's project
    #[arg(long, value_name = "DIR")]
    pub workdir: Option<String>,
}

#[derive(Args)]
pub struct BenchDataArgs {
    /// The directory to write
    #[arg(long, value_name = "DIR")]
    pub out: Option<String>,
    /// Table sizes (default 10,100,1000,10000)
    #[arg(long, value_name = "N,N,…")]
    pub sizes: Option<String>,
    /// How many calls (default 1000)
    #[arg(long, value_name = "N")]
    pub calls: Option<String>,
    /// The random seed
    #[arg(long, value_name = "N")]
    pub seed: Option<String>,
    /// Leave out bare-tool rows
    #[arg(long)]
    pub without_bare: bool,
}

#[derive(Args)]
pub struct ReplayArgs {
    /// The trace file
    #[arg(value_name = "TRACE")]
    pub trace: Vec<String>,
    /// The rule table
    #[arg(long, value_name = "FILE")]
    pub rules: Option<String>,
    /// Only pi-gate (every table engine runs at once otherwise)
    #[arg(long, value_name = "NAME")]
    pub engine: Option<String>,
    /// One JSON document instead of text
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct LintArgs {
    /// The configs (SCOPE:FILE gives a Claude Code settings file its layer)
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,
    /// How to read every file: claude-code, opencode or codex
    #[arg(long, value_name = "HARNESS")]
    pub format: Option<String>,
    /// Also the hazards of moving the config to this harness
    #[arg(long, value_name = "HARNESS")]
    pub target: Option<String>,
    /// Findings as JSON for editors and CI
    #[arg(long)]
    pub json: bool,
}

/// The value of a flag the subcommand needs, or a message saying so with an example.
pub fn required<'a>(v: &'a Option<String>, flag: &str, example: &str) -> Result<&'a str, String> {
    v.as_deref()
        .ok_or_else(|| format!("--{flag} is required, e.g. --{flag} {example}"))
}
