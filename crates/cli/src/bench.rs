//! `permlab bench`: evaluation throughput of one engine on one table, and `permlab bench-data`,
//! which writes the mixed tables and calls the benchmark figures are measured on.

use std::io::{BufWriter, Write};
use std::time::{Duration, Instant};

use permlab_core::context::CallContext;
use permlab_core::json::write_string;
use permlab_core::opencode::{self, Place};
use permlab_core::{engines, Decision, EngineId};

use crate::cli::{required, BenchArgs, BenchDataArgs};
use crate::rules::{load_calls, load_table, one_engine};
use crate::Failure;

pub fn run(args: &BenchArgs) -> Result<bool, Failure> {
    let id = one_engine(args.engine.as_deref())?;
    let table = load_table(required(&args.rules, "rules", "bench/rules-1000.json")?)?;
    let calls = load_calls(required(&args.calls, "calls", "bench/calls.json")?)?;
    let budget = match args.seconds.as_deref() {
        None => Duration::from_secs(2),
        Some(s) => seconds(s)?,
    };
    if calls.is_empty() {
        return Err(Failure::input(
            "the calls file is empty: nothing to measure",
        ));
    }
    let place = place(args, id)?;
    // Compiling the table is part of what a caller pays once per table; time it separately.
    let t0 = Instant::now();
    // `--scope evaluate`: OpenCode's `Permission.evaluate` on the command text alone (what the
    // real `evaluate` is timed on); the default is the whole call, as the product decides it.
    let engine: Box<dyn permlab_core::Engine> = match (args.scope.as_deref(), id) {
        (None | Some("call"), _) => match &place {
            Some(place) => Box::new(
                permlab_core::opencode::OpenCodeEngine::new(&table).in_place(place.clone()),
            ),
            None => engines::build(id, &table),
        },
        (Some("evaluate"), _) if place.is_some() => {
            return Err(Failure::usage(
                "--place and --workdir are for the whole call (--scope call): evaluate alone reads no place",
            ))
        }
        (Some("evaluate"), permlab_core::EngineId::OpenCode) => Box::new(
            permlab_core::opencode::OpenCodeEngine::new(&table)
                .scoped(permlab_core::opencode::Scope::Evaluate),
        ),
        (Some("evaluate"), _) => {
            return Err(Failure::usage(
                "--scope evaluate is for --engine opencode (its evaluate alone); the other engines have one scope",
            ))
        }
        (Some(other), _) => {
            return Err(Failure::usage(format!(
                "--scope: unknown \"{other}\"; write call or evaluate"
            )))
        }
    };
    let compile = t0.elapsed();

    let mut tally = [0usize; 4];
    for call in &calls {
        let (d, _) = engine.decide(call);
        tally[index(d)] += 1;
    }

    let start = Instant::now();
    let mut evals: u64 = 0;
    let mut sink = 0usize;
    while start.elapsed() < budget {
        for call in &calls {
            let (d, rule) = engine.decide(call);
            sink = sink.wrapping_add(index(d)).wrapping_add(rule.unwrap_or(0));
        }
        evals += calls.len() as u64;
    }
    let rate = evals as f64 / start.elapsed().as_secs_f64();
    say!("{:.0} evals/s", rate);
    say!(
        "engine {} ({}{}), {} rules, {} calls, compile {:.3} ms; one pass: {} allow, {} ask, {} deny{}",
        id.slug(),
        args.scope.as_deref().unwrap_or("call"),
        match &place {
            Some(p) => format!(", project {}, cwd {}", p.directory, p.cwd),
            None => String::new(),
        },
        table.len(),
        calls.len(),
        compile.as_secs_f64() * 1000.0,
        tally[0],
        tally[1],
        tally[2],
        if tally[3] > 0 {
            format!(", {} unavailable", tally[3])
        } else {
            String::new()
        }
    );
    std::hint::black_box(sink);
    Ok(true)
}

/// `--place default|recording` and `--workdir DIR`: where OpenCode's whole call runs. `None`
/// when neither is given (the engine's own default place).
fn place(args: &BenchArgs, id: EngineId) -> Result<Option<Place>, Failure> {
    if args.place.is_none() && args.workdir.is_none() {
        return Ok(None);
    }
    if id != EngineId::OpenCode {
        return Err(Failure::usage(
            "--place and --workdir are for --engine opencode (where its bash tool runs a call)",
        ));
    }
    let mut place = match args.place.as_deref() {
        None | Some("default") => Place::of(&CallContext::default()),
        Some("recording") => opencode::lesson_place(),
        Some(other) => {
            return Err(Failure::usage(format!(
                "--place: unknown \"{other}\"; write default or recording"
            )))
        }
    };
    match args.workdir.as_deref() {
        None => {}
        Some(d) if d.starts_with('/') => place.cwd = d.to_string(),
        Some(d) => {
            return Err(Failure::usage(format!(
                "--workdir {d}: give an absolute path, as the bash tool resolves it (e.g. {}/src)",
                place.directory
            )))
        }
    }
    Ok(Some(place))
}

/// The longest measurement `--seconds` asks for: a day.
const MAX_SECONDS: f64 = 86_400.0;

/// Reads `--seconds`: a positive number up to [`MAX_SECONDS`] (`Duration::from_secs_f64`
/// panics past about 1.8e19).
fn seconds(s: &str) -> Result<Duration, Failure> {
    let v: f64 = s
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite() && *v > 0.0)
        .ok_or_else(|| {
            Failure::usage(format!(
                "--seconds {s}: expected a positive number, e.g. --seconds 2"
            ))
        })?;
    if v > MAX_SECONDS {
        return Err(Failure::usage(format!(
            "--seconds {s}: at most {MAX_SECONDS} (a day); a few seconds give a stable figure"
        )));
    }
    Duration::try_from_secs_f64(v)
        .map_err(|_| Failure::usage(format!("--seconds {s}: expected a positive number")))
}

fn index(d: Decision) -> usize {
    match d {
        Decision::Allow => 0,
        Decision::Ask => 1,
        Decision::Deny => 2,
        Decision::Unavailable => 3,
    }
}

/// A tiny deterministic generator (xorshift64*), so benchmark data is reproducible without a
/// dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const VERBS: &[&str] = &[
    "git",
    "npm",
    "cargo",
    "python",
    "python3",
    "ls",
    "rm",
    "docker",
    "kubectl",
    "make",
    "curl",
    "go",
    "node",
    "pip",
    "yarn",
    "terraform",
    "aws",
    "gh",
    "sed",
    "find",
];
const SUBS: &[&str] = &[
    "push", "status", "run", "install", "build", "test", "log", "diff", "apply", "get", "exec",
    "commit", "publish", "deploy", "delete",
];
const DIRS: &[&str] = &[
    "src", "tests", "docs", "config", "scripts", "lib", "app", "vendor",
];
const EXTS: &[&str] = &["py", "rs", "ts", "md", "json", "env", "toml", "lock"];

fn gen_rule(rng: &mut Rng, k: usize) -> (String, String, &'static str) {
    let action = ["allow", "ask", "deny"][rng.below(3)];
    let (tool, pattern) = match rng.below(10) {
        0..=4 => {
            // Many distinct verbs so that large tables are not 20 rules repeated.
            let verb = if rng.below(3) == 0 {
                format!("tool{}", k % 997)
            } else {
                rng.pick(VERBS).to_string()
            };
            // A bare `*` is rare in real tables (and in Claude Code a bare deny removes the whole
            // tool, which would turn the benchmark into a measure of that short-cut).
            let p = match rng.below(40) {
                0 => "*".to_string(),
                1..=13 => format!("{verb} *"),
                14..=26 => format!("{verb} {} *", rng.pick(SUBS)),
                _ => format!("{verb} {}*", rng.pick(SUBS)),
            };
            ("bash", p)
        }
        5 | 6 => ("edit_file", path_pattern(rng)),
        7 | 8 => ("read_file", path_pattern(rng)),
        _ => ("glob", path_pattern(rng)),
    };
    (tool.to_string(), pattern, action)
}

fn path_pattern(rng: &mut Rng) -> String {
    match rng.below(40) {
        0 => "*".to_string(),
        1..=10 => format!("{}/*", rng.pick(DIRS)),
        11..=20 => format!("*.{}", rng.pick(EXTS)),
        21..=30 => format!("{}/**/*.{}", rng.pick(DIRS), rng.pick(EXTS)),
        _ => "test_*".to_string(),
    }
}

fn gen_call(rng: &mut Rng) -> (&'static str, String) {
    match rng.below(10) {
        0..=4 => {
            let verb = rng.pick(VERBS);
            (
                "bash",
                format!("{verb} {} --flag value{}", rng.pick(SUBS), rng.below(100)),
            )
        }
        5 | 6 => (
            "edit_file",
            format!(
                "{}/mod{}/file{}.{}",
                rng.pick(DIRS),
                rng.below(9),
                rng.below(50),
                rng.pick(EXTS)
            ),
        ),
        7 | 8 => (
            "read_file",
            format!(
                "{}/file{}.{}",
                rng.pick(DIRS),
                rng.below(50),
                rng.pick(EXTS)
            ),
        ),
        _ => (
            "glob",
            format!("{}/**/*.{}", rng.pick(DIRS), rng.pick(EXTS)),
        ),
    }
}

/// The most rows or calls `bench-data` writes per file: 10 million (~700 MB of JSON), more
/// than any benchmark figure uses and as much as `bench` can read back.
const MAX_COUNT: usize = 10_000_000;

/// Reads a count of rows or calls for `flag`, at most [`MAX_COUNT`].
fn count(flag: &str, s: &str) -> Result<usize, Failure> {
    let n: usize = s.parse().map_err(|_| {
        Failure::usage(format!(
            "{flag}: \"{s}\" is not a whole number, e.g. {flag} 1000"
        ))
    })?;
    if n > MAX_COUNT {
        return Err(Failure::usage(format!(
            "{flag}: {s} is more than bench-data writes ({MAX_COUNT} per file, ~700 MB); use a smaller number"
        )));
    }
    Ok(n)
}

/// `permlab bench-data --out DIR [--sizes 10,100,1000,10000] [--calls 1000] [--seed N]
/// [--without-bare]`.
pub fn data(args: &BenchDataArgs) -> Result<bool, Failure> {
    let out = required(&args.out, "out", "target/bench-data")?;
    let sizes: Vec<usize> = args
        .sizes
        .as_deref()
        .unwrap_or("10,100,1000,10000")
        .split(',')
        .map(|s| count("--sizes", s.trim()))
        .collect::<Result<_, _>>()?;
    let ncalls = count("--calls", args.calls.as_deref().unwrap_or("1000"))?;
    let seed: u64 = args
        .seed
        .as_deref()
        .unwrap_or("42")
        .parse()
        .map_err(|_| Failure::usage("--seed: expected a number"))?;
    std::fs::create_dir_all(out).map_err(|e| Failure::input(format!("{out}: {e}")))?;
    // Each file is written as it is generated (a table of 10 million rows is ~700 MB: never
    // held in memory).
    let write = |name: &str, body: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>| {
        let path = format!("{out}/{name}");
        let fail = |e: std::io::Error| Failure::input(format!("{path}: cannot write: {e}"));
        let file = std::fs::File::create(&path).map_err(fail)?;
        let mut w = BufWriter::new(file);
        body(&mut w).map_err(fail)?;
        w.flush().map_err(fail)?;
        say!("wrote {path}");
        Ok::<(), Failure>(())
    };
    // `--without-bare`: no bare `*` rows, so that Claude Code cannot short-cut a removed tool
    // and every engine does its full matching work.
    let without_bare = args.without_bare;
    let prefix = if without_bare {
        "rules-nobare"
    } else {
        "rules"
    };
    for &n in &sizes {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        write(&format!("{prefix}-{n}.json"), &mut |w| {
            let mut text = String::new();
            w.write_all(b"[")?;
            for k in 0..n {
                let (tool, pattern, action) = loop {
                    let row = gen_rule(&mut rng, k);
                    if !(without_bare && row.1 == "*") {
                        break row;
                    }
                };
                text.clear();
                text.push_str(if k == 0 {
                    "\n  {\"tool\": "
                } else {
                    ",\n  {\"tool\": "
                });
                write_string(&tool, &mut text);
                text.push_str(", \"pattern\": ");
                write_string(&pattern, &mut text);
                text.push_str(&format!(", \"action\": \"{action}\"}}"));
                w.write_all(text.as_bytes())?;
            }
            w.write_all(b"\n]\n")
        })?;
    }
    let mut rng = Rng(seed.wrapping_add(7) | 1);
    write("calls.json", &mut |w| {
        let mut text = String::new();
        w.write_all(b"[")?;
        for k in 0..ncalls {
            let (tool, input) = gen_call(&mut rng);
            text.clear();
            text.push_str(if k == 0 {
                "\n  {\"tool\": "
            } else {
                ",\n  {\"tool\": "
            });
            write_string(tool, &mut text);
            text.push_str(", \"input\": ");
            write_string(&input, &mut text);
            text.push('}');
            w.write_all(text.as_bytes())?;
        }
        w.write_all(b"\n]\n")
    })?;
    Ok(true)
}
