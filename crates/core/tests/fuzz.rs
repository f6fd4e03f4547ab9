//! Hostile input for every reader: a bounded mutation fuzzer over the shipped fixtures and the
//! shared corpus, plus the crashing inputs found so far (`fixtures/fuzz/`, see its README).
//!
//! For each reader (JSON, JSONC, YAML front matter, Claude Code `settings.json`, OpenCode
//! config, the importer by file name, Codex `.rules`, lessons, traces, Claude Code Bash
//! commands; the widget's URL-hash state reader lives in `crates/widget/src/hash.rs`, outside
//! the core, and is not fuzzed here) the fuzzer takes every seed file and derives inputs from it by byte flips,
//! truncation, duplication, nesting bombs and splicing with another seed. Each input must give
//! a result or a clean error: no panic (caught with `catch_unwind`), no input over the time
//! bound, none over the memory bound (measured by a counting allocator, per thread).
//!
//! `fuzz_work_heavy_shapes` generates inputs of the shapes that once stalled:
//! Starlark that hashes, compares, searches, repeats and nests big values, and configs whose
//! lint proofs are hard (many stars, `**` chains, long alternatives), each within a time and
//! a memory bound of its own.
//!
//! The seed is fixed, so a failure reproduces. `PERMLAB_FUZZ_ROUNDS=<n>` runs n times as many
//! inputs (default 1, about a minute in a debug build on 2 cores), `PERMLAB_FUZZ_SEED=<n>`
//! another seed. The counts are printed (`cargo test --test fuzz -- --nocapture`).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use permlab_core::codex::{Limits, Policy};

// ---------------------------------------------------------------- memory, per thread

/// Counts the bytes each thread has live, and the peak since the last reset.
struct Counting;

thread_local! {
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

fn note_alloc(n: usize) {
    let _ = LIVE.try_with(|l| {
        let v = l.get() + n;
        l.set(v);
        let _ = PEAK.try_with(|p| p.set(p.get().max(v)));
    });
}

fn note_free(n: usize) {
    let _ = LIVE.try_with(|l| l.set(l.get().saturating_sub(n)));
}

// SAFETY: defers every allocation to `System`; the counters are thread-local cells that never
// allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_alloc(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note_free(layout.size());
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_free(layout.size());
        note_alloc(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Runs `f`, returning its result and the peak of extra bytes it held live.
fn measured<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(base));
    let r = f();
    (r, PEAK.with(Cell::get).saturating_sub(base))
}

// ---------------------------------------------------------------- bounds

/// No input may take longer than this (a debug build on a loaded 2-core machine). The slowest
/// kept input, `hash-loop.rules`, scans the 128 MB its step budget allows: 0.12 s in a release
/// build, 22 s in a debug build with the browser tests running beside it (2026-12-07). Without
/// the budgets these inputs ran for minutes or never ended, which this bound still catches.
const TIME_BOUND: Duration = Duration::from_secs(60);
/// No input may hold more than this live (the `.rules` byte budget is 256 MB by default).
const MEMORY_BOUND: usize = 768 << 20;

/// The `.rules` limits the mutated inputs run under: small, so a mutation that happens to
/// build a loop ends quickly (the regression test runs the bombs under the defaults).
const FUZZ_LIMITS: Limits = Limits {
    steps: 200_000,
    bytes: 32 << 20,
};

// ---------------------------------------------------------------- seeds

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Files under `dir` (recursively) whose name ends with one of `exts`, sorted, as text.
fn files(dir: &Path, exts: &[&str]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if exts.iter().any(|x| p.to_string_lossy().ends_with(x)) {
                if let Ok(bytes) = std::fs::read(&p) {
                    let name = p.file_name().unwrap().to_string_lossy().to_string();
                    out.push((name, String::from_utf8_lossy(&bytes).into_owned()));
                }
            }
        }
    }
    out.sort();
    out
}

fn corpus(sub: &str, exts: &[&str]) -> Vec<(String, String)> {
    files(&root().join("../shared/corpus").join(sub), exts)
}

fn fixtures(sub: &str, exts: &[&str]) -> Vec<(String, String)> {
    files(&root().join("fixtures").join(sub), exts)
}

// ---------------------------------------------------------------- mutation

/// xorshift64*: small, fixed, reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// Fragments that reach the interesting corners of the readers.
const TOKENS: &[&str] = &[
    "\"\"\"",
    "'''",
    "\"",
    "\\",
    "\\u",
    "\\ud800",
    "\u{0}",
    "\u{feff}",
    "\u{202e}",
    "\u{200b}",
    "\n---\n",
    "---\n",
    ":",
    ": [",
    ": {",
    "- ",
    "#",
    "//",
    "/*",
    "*/",
    "*",
    "**",
    "$(",
    "`",
    "&&",
    "||",
    ";",
    "|",
    "<<EOF\n",
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    ",",
    "null",
    "true",
    "1e309",
    "-0",
    "99999999999999999999",
    "range(1000000)",
    "\"x\" * 100000",
    "for i in range(100000):\n    ",
    "prefix_rule(pattern=[\"a\"], match=[\"a\"] * 1000)\n",
    "{\"tool\":\"Bash\",\"input\":{\"command\":\"ls\"}}\n",
    "Bash(",
    "Bash(*)",
    "Read(//**)",
    "é",
    "中",
    "\r\n",
    "\t",
];

/// Nesting bombs, one per reader family; repeated `n` times.
const NESTS: &[&str] = &["[", "{\"a\":", "(", "$(", "- ", "  - ", "[[", "f(", "`"];

#[derive(Clone, Copy, Debug)]
enum Op {
    Flip,
    Truncate,
    Duplicate,
    Nest,
    Splice,
    Token,
}

/// One mutated input from `base` (and possibly a `donor`); returns the text and what was done.
fn mutate(rng: &mut Rng, base: &str, donor: &str) -> (String, Vec<Op>) {
    let mut b: Vec<u8> = base.as_bytes().to_vec();
    let mut ops = Vec::new();
    for _ in 0..1 + rng.below(3) {
        let op = [
            Op::Flip,
            Op::Truncate,
            Op::Duplicate,
            Op::Nest,
            Op::Splice,
            Op::Token,
        ][rng.below(6)];
        ops.push(op);
        let at = rng.below(b.len() + 1);
        match op {
            Op::Flip => {
                for _ in 0..1 + rng.below(8) {
                    if !b.is_empty() {
                        let i = rng.below(b.len());
                        b[i] ^= 1 << rng.below(8);
                    }
                }
            }
            Op::Truncate => b.truncate(at),
            Op::Duplicate => {
                let end = (at + rng.below(200)).min(b.len());
                let piece = b[at..end].to_vec();
                let most = if rng.below(8) == 0 { 2000 } else { 4 };
                let times = 1 + rng.below(most);
                let mut rep = Vec::with_capacity(piece.len() * times);
                for _ in 0..times {
                    rep.extend_from_slice(&piece);
                }
                b.splice(at..at, rep);
            }
            Op::Nest => {
                let n = [10, 300, 3000, 30_000][rng.below(4)];
                let nest = NESTS[rng.below(NESTS.len())].repeat(n);
                b.splice(at..at, nest.into_bytes());
            }
            Op::Splice => {
                let d = donor.as_bytes();
                let from = rng.below(d.len() + 1);
                b.truncate(at);
                b.extend_from_slice(&d[from..]);
            }
            Op::Token => {
                let t = TOKENS[rng.below(TOKENS.len())];
                b.splice(at..at, t.bytes());
            }
        }
    }
    // The readers take text: invalid UTF-8 from a flip becomes U+FFFD, as a page paste would.
    (String::from_utf8_lossy(&b).into_owned(), ops)
}

// ---------------------------------------------------------------- readers

/// A reader: the text in, `Ok` for a result, `Err` for a clean error.
type Reader = fn(&str) -> Result<(), String>;

fn read_json(t: &str) -> Result<(), String> {
    permlab_core::json::parse(t)
        .map(drop)
        .map_err(|e| e.to_string())
}
fn read_jsonc(t: &str) -> Result<(), String> {
    permlab_core::json::parse_jsonc(t)
        .map(drop)
        .map_err(|e| e.to_string())
}
fn read_yaml(t: &str) -> Result<(), String> {
    permlab_core::import::yaml::front_matter(t)
        .map(drop)
        .map_err(|e| e.to_string())
}
fn read_settings(t: &str) -> Result<(), String> {
    use permlab_core::claude_code::{Scope, SettingsFile};
    SettingsFile::from_json(t, Scope::Project)
        .map(drop)
        .map_err(|e| e.to_string())
}
fn read_opencode(t: &str) -> Result<(), String> {
    use permlab_core::opencode::PermissionConfig;
    let v = permlab_core::json::parse_jsonc(t).map_err(|e| e.to_string())?;
    if let Some(p) = v.get("permission") {
        PermissionConfig::decode(p).map_err(|e| e.to_string())?;
    }
    permlab_core::import::import_file("opencode.json", t)
        .map(drop)
        .map_err(|e| e.to_string())
}
fn read_agent_md(t: &str) -> Result<(), String> {
    permlab_core::import::import_file("agent.md", t)
        .map(drop)
        .map_err(|e| e.to_string())
}
fn read_claude_import(t: &str) -> Result<(), String> {
    permlab_core::import::import_file("settings.json", t)
        .map(drop)
        .map_err(|e| e.to_string())
}
fn read_rules(t: &str) -> Result<(), String> {
    Policy::parse_with_limits("fuzz.rules", t, &FUZZ_LIMITS)
        .map(drop)
        .map_err(|e| e.to_string())
}
fn read_rules_import(t: &str) -> Result<(), String> {
    // The importer uses the default limits; keep its inputs free of loops by running it only
    // when the small-limit load succeeded.
    if Policy::parse_with_limits("fuzz.rules", t, &FUZZ_LIMITS).is_ok() {
        permlab_core::import::import_file("default.rules", t)
            .map(drop)
            .map_err(|e| e.to_string())
    } else {
        Ok(())
    }
}
fn read_lesson(t: &str) -> Result<(), String> {
    let loaded = permlab_core::lesson::Lesson::parse(t);
    match loaded.lesson {
        Some(_) => Ok(()),
        None => Err(format!("{} problems", loaded.problems.len())),
    }
}
fn read_trace(t: &str) -> Result<(), String> {
    let trace = permlab_core::trace::parse(t);
    let _ = trace.common_calls();
    if trace.malformed.is_empty() {
        Ok(())
    } else {
        Err(format!("{} malformed lines", trace.malformed.len()))
    }
}
fn read_bash(t: &str) -> Result<(), String> {
    use permlab_core::claude_code::shell;
    let parsed = shell::parse(t);
    match parsed.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}
fn read_bash_verdict(t: &str) -> Result<(), String> {
    use permlab_core::engines;
    use permlab_core::{Call, EngineId, RuleTable};
    let table = RuleTable::from_json(
        r#"[{"tool":"bash","pattern":"git *","action":"allow"},{"tool":"bash","pattern":"rm *","action":"deny"}]"#,
    )
    .map_err(|e| e.to_string())?;
    let call = Call::new("bash", t);
    for id in &EngineId::ALL {
        let _ = engines::build(*id, &table).evaluate(&call);
    }
    Ok(())
}

// ---------------------------------------------------------------- the run

/// A reader's name, the reader, its seed files (name, text), and inputs per seed.
type Plan = (&'static str, Reader, Vec<(String, String)>, usize);

#[derive(Default)]
struct Tally {
    tried: usize,
    ok: usize,
    errors: usize,
    panics: Vec<String>,
    over_time: Vec<String>,
    over_memory: Vec<String>,
    longest: (Duration, String),
    hungriest: (usize, String),
}

impl Tally {
    fn run(&mut self, reader: &str, f: Reader, label: &str, input: &str) {
        self.tried += 1;
        let start = Instant::now();
        let (r, peak) = measured(|| catch_unwind(AssertUnwindSafe(|| f(input))));
        let took = start.elapsed();
        let what = format!("{reader} on {label} ({} bytes)", input.len());
        match r {
            Ok(Ok(())) => self.ok += 1,
            Ok(Err(_)) => self.errors += 1,
            Err(_) => {
                self.panics.push(what.clone());
                let dir = root().join("target/fuzz-crashes");
                let _ = std::fs::create_dir_all(&dir);
                let _ = std::fs::write(dir.join(format!("{reader}-{}.txt", self.tried)), input);
            }
        }
        if took > TIME_BOUND {
            self.over_time.push(format!("{what}: {took:?}"));
        }
        if peak > MEMORY_BOUND {
            self.over_memory.push(format!("{what}: {} MB", peak >> 20));
        }
        if took > self.longest.0 {
            self.longest = (took, what.clone());
        }
        if peak > self.hungriest.0 {
            self.hungriest = (peak, what);
        }
    }
}

fn env_num(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn fuzz_every_reader() {
    let rounds = env_num("PERMLAB_FUZZ_ROUNDS", 1) as usize;
    let mut rng = Rng(env_num("PERMLAB_FUZZ_SEED", 0x5eed_0f9e_41ab) | 1);
    let lessons = fixtures("lessons", &[".json"]);
    let rules = [corpus("codex", &[".rules"]), fixtures("fuzz", &[".rules"])].concat();
    let opencode_json = corpus("opencode", &[".json", ".jsonc"]);
    let agents = corpus("opencode", &[".md"]);
    let claude = corpus("claude", &[".json"]);
    let traces = corpus("traces", &[".jsonl"]);
    let conformance = fixtures("conformance", &[".json"]);
    let bash: Vec<(String, String)> = traces
        .iter()
        .flat_map(|(n, t)| {
            t.lines()
                .filter_map(|l| l.split("\"command\":\"").nth(1))
                .filter_map(|c| c.split('"').next())
                .take(20)
                .map(|c| (n.clone(), c.to_string()))
                .collect::<Vec<_>>()
        })
        .chain(claude.iter().flat_map(|(n, t)| {
            // The commands inside the corpus's `Bash(…)` rules.
            t.split("\"Bash(")
                .skip(1)
                .filter_map(|r| r.split(")\"").next())
                .take(10)
                .map(|c| (n.clone(), c.replace(":*", " x")))
                .collect::<Vec<_>>()
        }))
        .chain([
            (
                "hand".to_string(),
                "git status && rm -rf / ; echo $(cat x | grep y)".to_string(),
            ),
            (
                "hand".to_string(),
                "a=$(b $(c $(d))) e <<EOF\nx\nEOF\n".to_string(),
            ),
        ])
        .collect();
    // Every seventh command: a few hundred, enough variety for the shell splitter.
    let bash: Vec<(String, String)> = bash.into_iter().step_by(7).collect();
    let json_seeds = [claude.clone(), opencode_json.clone(), lessons.clone()].concat();
    // (reader name, reader, seeds, inputs per seed)
    let plan: Vec<Plan> = vec![
        ("json", read_json, json_seeds.clone(), 12),
        (
            "jsonc",
            read_jsonc,
            [opencode_json.clone(), conformance.clone()].concat(),
            12,
        ),
        ("yaml-front-matter", read_yaml, agents.clone(), 40),
        ("settings.json", read_settings, claude.clone(), 12),
        (
            "import settings.json",
            read_claude_import,
            claude.clone(),
            6,
        ),
        ("opencode.json", read_opencode, opencode_json.clone(), 25),
        ("import agent.md", read_agent_md, agents.clone(), 25),
        (".rules", read_rules, rules.clone(), 50),
        ("import .rules", read_rules_import, rules.clone(), 8),
        ("lesson", read_lesson, lessons.clone(), 200),
        ("trace", read_trace, traces.clone(), 150),
        ("bash", read_bash, bash.clone(), 6),
        ("bash verdicts", read_bash_verdict, bash.clone(), 2),
    ];
    let mut total = Tally::default();
    let started = Instant::now();
    for (name, reader, seeds, per_seed) in &plan {
        assert!(!seeds.is_empty(), "no seeds for {name}");
        let mut t = Tally::default();
        for (i, (file, text)) in seeds.iter().enumerate() {
            // The seed itself, unchanged, first.
            t.run(name, *reader, file, text);
            for _ in 0..per_seed * rounds {
                let donor = &seeds[(i + 1 + rng.below(seeds.len())) % seeds.len()].1;
                let (input, ops) = mutate(&mut rng, text, donor);
                t.run(name, *reader, &format!("{file} {ops:?}"), &input);
            }
        }
        println!(
            "{name:<22} {:>6} inputs {:>6} ok {:>6} clean errors {} panics {} over time {} over memory; longest {:?}, most memory {} KB",
            t.tried,
            t.ok,
            t.errors,
            t.panics.len(),
            t.over_time.len(),
            t.over_memory.len(),
            t.longest.0,
            t.hungriest.0 >> 10,
        );
        total.tried += t.tried;
        total.ok += t.ok;
        total.errors += t.errors;
        total.panics.extend(t.panics);
        total.over_time.extend(t.over_time);
        total.over_memory.extend(t.over_memory);
        if t.longest.0 > total.longest.0 {
            total.longest = t.longest;
        }
        if t.hungriest.0 > total.hungriest.0 {
            total.hungriest = t.hungriest;
        }
    }
    println!(
        "fuzz total: {} inputs in {:?}: {} results, {} clean errors, {} panics, {} over time, {} over memory",
        total.tried,
        started.elapsed(),
        total.ok,
        total.errors,
        total.panics.len(),
        total.over_time.len(),
        total.over_memory.len()
    );
    println!("longest input: {:?}: {}", total.longest.0, total.longest.1);
    println!(
        "most memory: {} KB: {}",
        total.hungriest.0 >> 10,
        total.hungriest.1
    );
    assert!(
        total.panics.is_empty(),
        "panics (inputs in target/fuzz-crashes): {:#?}",
        total.panics
    );
    assert!(total.over_time.is_empty(), "{:#?}", total.over_time);
    assert!(total.over_memory.is_empty(), "{:#?}", total.over_memory);
}

// ---------------------------------------------------------------- the .rules budget

/// The fewest steps (or bytes, with `bytes`) `text` loads with, by bisection over the limit.
fn need(text: &str, bytes: bool) -> Option<u64> {
    let ok = |n: u64| {
        let l = if bytes {
            Limits {
                bytes: n,
                ..Limits::DEFAULT
            }
        } else {
            Limits {
                steps: n,
                ..Limits::DEFAULT
            }
        };
        Policy::parse_with_limits("p.rules", text, &l).is_ok()
    };
    let hi = if bytes {
        Limits::DEFAULT.bytes
    } else {
        Limits::DEFAULT.steps
    };
    if !ok(hi) {
        return None;
    }
    let (mut lo, mut hi) = (0u64, hi);
    while lo + 1 < hi {
        let mid = lo + (hi - lo) / 2;
        if ok(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

#[test]
fn codex_limits_cover_the_corpus() {
    let files = corpus("codex", &[".rules"]);
    assert!(files.len() >= 20, "the shared corpus is missing");
    let (mut steps, mut bytes) = ((0, String::new()), (0, String::new()));
    for (name, text) in &files {
        let (Some(s), Some(b)) = (need(text, false), need(text, true)) else {
            continue; // a file that does not load at all (broken on purpose)
        };
        if s > steps.0 {
            steps = (s, name.clone());
        }
        if b > bytes.0 {
            bytes = (b, name.clone());
        }
    }
    println!(
        "hungriest corpus file: {} steps ({}), {} bytes ({}); defaults {} steps, {} bytes",
        steps.0,
        steps.1,
        bytes.0,
        bytes.1,
        Limits::DEFAULT.steps,
        Limits::DEFAULT.bytes
    );
    assert!(steps.0 > 0 && bytes.0 > 0);
    assert!(Limits::DEFAULT.steps >= 100 * steps.0);
    assert!(Limits::DEFAULT.bytes >= 100 * bytes.0);
}

/// Just under and just over each limit: the measured need loads, one less is refused with a
/// message naming the limit and how to raise it, at the construct that went over.
#[test]
fn codex_limits_just_under_and_over() {
    let text = "l = []\nfor i in range(200):\n    l.append(str(i) * 3)\ns = \",\".join(l)\nprefix_rule(pattern=[\"ls\"], match=[\"ls -l\"])\n";
    let steps = need(text, false).unwrap();
    let bytes = need(text, true).unwrap();
    let at = |l: Limits| Policy::parse_with_limits("p.rules", text, &l);
    assert!(at(Limits {
        steps,
        ..Limits::DEFAULT
    })
    .is_ok());
    let e = at(Limits {
        steps: steps - 1,
        ..Limits::DEFAULT
    })
    .unwrap_err();
    assert!(
        e.message
            .contains(&format!("needs more than {} steps", steps - 1))
            && e.message.contains("Limits::steps"),
        "{e}"
    );
    assert!(e.line >= 1 && e.column >= 1);
    assert!(at(Limits {
        bytes,
        ..Limits::DEFAULT
    })
    .is_ok());
    let e = at(Limits {
        bytes: bytes - 1,
        ..Limits::DEFAULT
    })
    .unwrap_err();
    assert!(
        e.message.contains("memory budget") && e.message.contains("Limits::bytes"),
        "{e}"
    );
}

/// The interpreter's nesting limit (calls, statements and expressions, a stack guard): a
/// chain of calls just short of it loads, one more call is refused with a message.
#[test]
fn codex_nesting_just_under_and_over() {
    let chain = |k: usize| {
        let mut text = String::new();
        for i in 0..k {
            text.push_str(&format!("def f{i}():\n    return f{}()\n", i + 1));
        }
        text.push_str(&format!(
            "def f{k}():\n    return 1\nx = f0()\nprefix_rule(pattern=[\"ls\"])\n"
        ));
        text
    };
    let mut k = 1;
    while Policy::parse("p.rules", &chain(k + 1)).is_ok() {
        k += 1;
        assert!(k < 64, "no nesting limit below the call-depth limit");
    }
    // codex 0.171.0 loads a chain of 48 calls and refuses 49 ("Starlark call stack overflow").
    assert_eq!(k, 48, "deepest call chain that loads");
    let e = Policy::parse("p.rules", &chain(k + 1)).unwrap_err();
    assert!(
        e.message.starts_with(
            "Starlark call stack overflow (permlab nests calls, statements and expressions at most"
        ),
        "{e}"
    );
    println!("deepest call chain that loads: {k}");
}

/// What a generated but honest policy does still loads with the defaults: lists built with
/// `append`, a dict of a thousand keys looked up, sorting, string building.
#[test]
fn codex_defaults_load_big_honest_policies() {
    let text = r#"
tools = []
for i in range(20000):
    tools.append("tool%d" % i)
by_name = {}
for i in range(1000):
    by_name[tools[i]] = i
n = 0
for t in tools[:1000]:
    n += by_name[t]
names = sorted(tools, reverse = True)
line = " ".join(names[:500])
for t in tools[:300]:
    prefix_rule(pattern = [t, ["a", "b"]], decision = "prompt", match = [t + " a"])
"#;
    let p = Policy::parse("big.rules", text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(p.rules().len(), 300);
    println!(
        "big honest policy: {} steps, {} bytes",
        need(text, false).unwrap(),
        need(text, true).unwrap()
    );
}

/// Every crashing input kept in `fixtures/fuzz/` ends with a clean error under the default
/// limits, within the time and memory bounds; a file whose first line is `# permlab: loads`
/// (one that crashed the process while it was valid, such as a deeply nested value) loads.
#[test]
fn codex_regressions_end_with_an_error() {
    let files = fixtures("fuzz", &[".rules"]);
    assert!(files.len() >= 15, "fixtures/fuzz/ is missing");
    for (name, text) in &files {
        let start = Instant::now();
        let (r, peak) = measured(|| catch_unwind(|| Policy::parse(name, text)));
        let took = start.elapsed();
        let r = r.unwrap_or_else(|_| panic!("{name} panicked"));
        let e = match r {
            Ok(_) if text.starts_with("# permlab: loads") => {
                println!("{name}: {took:?}, {} KB: loads", peak >> 10);
                assert!(took < TIME_BOUND, "{name} took {took:?}");
                assert!(peak < MEMORY_BOUND, "{name} held {} MB", peak >> 20);
                continue;
            }
            Ok(_) => panic!("{name} loaded, but it is kept as a case that must fail"),
            Err(e) if text.starts_with("# permlab: loads") => {
                panic!("{name} is kept as a case that loads: {e}")
            }
            Err(e) => e,
        };
        println!("{name}: {took:?}, {} KB: {e}", peak >> 10);
        assert!(took < TIME_BOUND, "{name} took {took:?}");
        assert!(peak < MEMORY_BOUND, "{name} held {} MB", peak >> 20);
        assert!(
            e.to_string().starts_with(&format!(
                "failed to parse policy at {name}:{}:{}: ",
                e.line, e.column
            )),
            "{e}"
        );
    }
}

// ---------------------------------------------------------------- work-heavy shapes

/// Per-input bounds of the work-heavy generators: every input ends within this (a debug
/// build on a loaded 2-core machine, like [`TIME_BOUND`]; the release CLI takes a twentieth
/// of it or less, see `fixtures/fuzz/README.md`) …
const HEAVY_TIME: Duration = Duration::from_secs(20);
/// … and holds no more than this live (the bound set for the whole process).
const HEAVY_MEMORY: usize = 200 << 20;

/// A `.rules` file doing one work-heavy thing with big values in a loop: hashing,
/// comparing, searching, repeating, joining, formatting, slicing, sorting them, nesting
/// values deeply, or handing them to `prefix_rule`. Each text is charged by the bytes or
/// elements it touches, so the step and byte budgets end it, whatever the sizes.
fn heavy_rules(rng: &mut Rng) -> String {
    let size = 1usize << (8 + rng.below(13)); // 256 B … 1 MB
    let m = 1usize << rng.below(18); // 1 … 131 072
    let turns = [1, 10, 1000, 30_000, 200_000][rng.below(5)];
    let mut t = format!(
        "s = \"a\" * {size}\nu = \"a\" * {} + \"b\"\nL = [s] * {m}\nT = (s,) * {m}\nD = {{s: 1}}\n",
        size - 1
    );
    const OPS: &[&str] = &[
        "y = hash(s)",
        "y = s == u",
        "y = s < u",
        "y = u in L",
        "y = u in T",
        "y = u in s",
        "y = D.get(u)",
        "y = L == [u] * len(L)",
        "y = s.count(u)",
        "y = s.find(u)",
        "y = s.startswith(T)",
        "y = s.strip(u)",
        "y = s.replace(\"a\", \"bb\")",
        "y = \"%s%s\" % (s, u)",
        "y = \"{}{}\".format(s, u)",
        "y = str(L)",
        "y = repr(s)",
        "y = len(s)",
        "y = s[1:]",
        "y = L[1:]",
        "y = sorted(L + [u])",
        "y = \",\".join(L)",
        "y = [s] * len(L)",
        "y = s * 2",
        "y = L + L",
        "y = max(L)",
        "y = {k: 1 for k in L}",
        "y = zip(L, L, L)",
        "y = int(\"1\" * 18) + len(s.split(\"b\"))",
        "prefix_rule(pattern = [\"git\", L])",
        "prefix_rule(pattern = [\"git\", [s] * 2], match = [[\"git\", s]])",
    ];
    match rng.below(OPS.len() + 5) {
        k if k < OPS.len() => {
            t.push_str(&format!("for i in range({turns}):\n    {}\n", OPS[k]));
        }
        k => {
            // Deep nesting of every container kind, dropped at the end of the file.
            let wrap = [
                "a = [a]",
                "a = (a,)",
                "a = {\"k\": a}",
                "a = [a].append",
                "a = wrap(a)",
            ][k - OPS.len()];
            t.push_str(&format!(
                "def wrap(x):\n    return lambda: x\na = []\nfor i in range({turns}):\n    {wrap}\n"
            ));
        }
    }
    t
}

/// A config whose "covers" proofs are hard: many stars, `**` chains, long
/// alternatives, long literals; in each harness's own format.
fn heavy_lint(rng: &mut Rng) -> (permlab_core::import::Format, String) {
    use permlab_core::import::Format;
    let n = 1usize << rng.below(11); // 1 … 1024
    let rules = 1 + rng.below(200);
    let word = |rng: &mut Rng| ["git", "npm", "rm", "ls", "a", "src", ".env"][rng.below(7)];
    let mut pattern = String::new();
    let shape = rng.below(5);
    for _ in 0..n {
        match shape {
            0 => pattern.push_str(&format!("{}* ", word(rng))),
            1 => pattern.push_str("**/"),
            2 => pattern.push_str(word(rng)),
            3 => pattern.push_str("*a"),
            _ => pattern.push_str(&format!("{}?*", word(rng))),
        }
    }
    match rng.below(3) {
        0 => {
            let others: Vec<String> = (0..rules)
                .map(|i| format!("\"Bash({} {i} *)\"", word(rng)))
                .collect();
            let json = |s: &str| permlab_core::json::Value::from(s).to_json();
            (
                Format::ClaudeCode,
                format!(
                    "{{\"permissions\": {{\"allow\": [{}, {}], \"deny\": [{}], \"ask\": [\"Read(**/{pattern})\"]}}}}",
                    json(&format!("Bash({pattern})")),
                    others.join(", "),
                    others.join(", ")
                ),
            )
        }
        1 => {
            let json = |s: &str| permlab_core::json::Value::from(s).to_json();
            let others: Vec<String> = (0..rules)
                .map(|i| format!("{}: \"deny\"", json(&format!("{} {i}*", word(rng)))))
                .collect();
            (
                Format::OpenCode,
                format!(
                    "{{\"permission\": {{\"bash\": {{{}: \"allow\", {}}}, \"read\": {{{}: \"allow\", \"*.env\": \"deny\"}}}}}}",
                    json(&pattern),
                    others.join(", "),
                    json(&pattern)
                ),
            )
        }
        _ => {
            // Codex: a prefix rule with long alternatives, and rules that overlap it.
            let alts: Vec<String> = (0..n).map(|i| format!("\"{}{i}\"", word(rng))).collect();
            let mut t = format!(
                "prefix_rule(pattern = [\"git\", [{}]], decision = \"allow\")\n",
                alts.join(", ")
            );
            for i in 0..rules.min(50) {
                t.push_str(&format!(
                    "prefix_rule(pattern = [\"git\", \"{}{i}\"], decision = \"forbidden\")\n",
                    word(rng)
                ));
            }
            (Format::Codex, t)
        }
    }
}

/// Runs `f` on `input` within the heavy bounds; returns a failure description, if any.
fn heavy_run(what: &str, input: &str, f: impl FnOnce() -> Result<(), String>) -> Option<String> {
    let start = Instant::now();
    let (r, peak) = measured(|| catch_unwind(AssertUnwindSafe(f)));
    let took = start.elapsed();
    let head: String = input.chars().take(300).collect();
    if r.is_err() {
        return Some(format!("{what} panicked on:\n{head}"));
    }
    if took > HEAVY_TIME {
        return Some(format!("{what} took {took:?} on:\n{head}"));
    }
    if peak > HEAVY_MEMORY {
        return Some(format!("{what} held {} MB on:\n{head}", peak >> 20));
    }
    None
}

/// Work-heavy Starlark and lint inputs, each within [`HEAVY_TIME`] and [`HEAVY_MEMORY`]:
/// `.rules` files under the default limits (as the page's worker and the CLI load them) and
/// configs linted as the import panel lints them. `PERMLAB_FUZZ_ROUNDS` multiplies the count.
#[test]
fn fuzz_work_heavy_shapes() {
    let rounds = env_num("PERMLAB_FUZZ_ROUNDS", 1) as usize;
    let mut rng = Rng(env_num("PERMLAB_FUZZ_SEED", 0x5eed_0f9e_41ab) | 1);
    let mut failures = Vec::new();
    let (mut slowest, mut hungriest) = ((Duration::ZERO, String::new()), (0usize, String::new()));
    let mut note = |what: String, took: Duration, peak: usize| {
        if took > slowest.0 {
            slowest = (took, what.clone());
        }
        if peak > hungriest.0 {
            hungriest = (peak, what);
        }
    };
    for k in 0..24 * rounds {
        let text = heavy_rules(&mut rng);
        let start = Instant::now();
        let ((), peak) = measured(|| {
            failures.extend(heavy_run("rules", &text, || {
                let _ = Policy::parse_with_limits("heavy.rules", &text, &Limits::DEFAULT);
                Ok(())
            }))
        });
        note(
            format!("rules #{k}: {}", text.lines().last().unwrap_or("")),
            start.elapsed(),
            peak,
        );
    }
    for k in 0..24 * rounds {
        let (format, text) = heavy_lint(&mut rng);
        let start = Instant::now();
        let ((), peak) = measured(|| {
            failures.extend(heavy_run("lint", &text, || {
                let _ = permlab_core::lint::lint_text_checked(format, &text);
                Ok(())
            }))
        });
        note(
            format!("lint #{k} ({format:?}, {} bytes)", text.len()),
            start.elapsed(),
            peak,
        );
    }
    println!(
        "work-heavy shapes: {} inputs; slowest {:?} ({}); most memory {} KB ({})",
        48 * rounds,
        slowest.0,
        slowest.1,
        hungriest.0 >> 10,
        hungriest.1
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The configs kept in `fixtures/fuzz/` that once stalled the linter (25 s to over a
/// minute) are linted within the heavy bounds, and say which proofs they skipped.
#[test]
fn lint_regressions_end_quickly_and_say_what_they_skipped() {
    let files: Vec<(String, String)> = fixtures("fuzz", &[".json", ".rules"])
        .into_iter()
        .filter(|(n, _)| n.starts_with("lint-"))
        .collect();
    assert!(files.len() >= 4, "fixtures/fuzz/lint-* are missing");
    let mut failures = Vec::new();
    for (name, text) in &files {
        let src = permlab_core::lint::Source::new(name.clone(), text.clone());
        let start = Instant::now();
        let mut report = None;
        failures.extend(heavy_run(name, text, || {
            report = Some(permlab_core::lint::lint(&[src], None));
            Ok(())
        }));
        let Some(report) = report else { continue };
        println!(
            "{name}: {:?}, {} findings, {} not checked",
            start.elapsed(),
            report.findings.len(),
            report.not_checked.len()
        );
        if name.contains("stars") || name.contains("globstar") {
            assert!(
                !report.not_checked.is_empty(),
                "{name}: its too-complex pattern is not reported"
            );
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Calls that once stalled: 1 MB of `A=1 ` and 200 000 brace groups, through the
/// Claude Code engine (quadratic before: over 20 s each), within the heavy bounds.
#[test]
fn claude_code_calls_of_a_megabyte_end_quickly() {
    use permlab_core::{engines, Call, EngineId, RuleTable};
    let table = RuleTable::from_json(
        r#"[{"tool": "bash", "pattern": "git *", "action": "allow"},
            {"tool": "bash", "pattern": "rm *", "action": "deny"}]"#,
    )
    .unwrap();
    let engine = engines::build(EngineId::ClaudeCode, &table);
    let inputs = [
        format!("{}ls", "A=1 ".repeat(250_000)),
        format!("{}ls{}", "{ ".repeat(200_000), "; }".repeat(200_000)),
        format!("echo {}", "a >x ".repeat(200_000)),
    ];
    let mut failures = Vec::new();
    for input in &inputs {
        let call = Call {
            tool: "bash".into(),
            input: input.clone(),
        };
        let start = Instant::now();
        failures.extend(heavy_run("claude code", input, || {
            engine.decide(&call);
            Ok(())
        }));
        println!("{} bytes: {:?}", input.len(), start.elapsed());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
