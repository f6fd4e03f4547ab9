//! The widget's state readers under hostile input: the stored item
//! (`store::decode`), the old-format URL hash (`hash::read`), where a widget starts from both
//! (`store::start`), and a whole widget built from the result (`Widget::with_stored`: order,
//! guesses, steps and texts applied to a real table).
//!
//! A bounded mutation fuzzer, as `crates/core/tests/fuzz.rs` does for the core's readers: seeds
//! are items and hashes the widget writes (hostile texts included), mutated by byte flips,
//! truncation, duplication, splicing, lying lengths and huge numbers. Every input must give a
//! result or a clean refusal — no panic (caught with `catch_unwind`) and no input over the
//! time bound. The seed is fixed, so a failure reproduces; `PERMLAB_FUZZ_ROUNDS=<n>` runs n
//! times as many inputs. Counts are printed (`-- --nocapture`).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use permlab_widget::model::{Config, Msg, Widget};
use permlab_widget::persist::{hash, store};
use permlab_widget::text::i18n::Lang;

/// No input may take longer than this (a debug build on a loaded 2-core machine).
const TIME_BOUND: Duration = Duration::from_secs(5);

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn config(ns: &str) -> Config {
    Config {
        lang: Lang::En,
        ns: ns.into(),
        fixtures: "conformance/".into(),
        selfcheck: "none".into(),
        lesson: None,
        lesson_from: None,
    }
}

/// Items and hashes a real widget writes, hostile texts in every field.
fn seeds() -> Vec<String> {
    let mut out = Vec::new();
    let mut w = Widget::new(config("a3"), "");
    w.act(Msg::Reverse);
    w.act(Msg::EditTool("<img src=x onerror=alert(1)>".into()));
    w.act(Msg::EditInput("\u{202e}abc\n👩\u{200d}💻".into()));
    w.act(Msg::ImportText(
        "</textarea><script>alert(1)</script>".into(),
    ));
    w.act(Msg::Import);
    w.act(Msg::Editor(true));
    w.act(Msg::EditTable("[{\"tool\": \"bash\", ".into()));
    w.act(Msg::Apply);
    w.act(Msg::ToggleStepper);
    let snap = w.snapshot();
    out.push(store::encode("a3", &snap.to_stored()));
    out.push(hash::write("#broken", "a3", &snap.to_entries()));
    out.push(store::encode(
        "a3",
        &[
            ("p".to_string(), "custom".to_string()),
            (
                "j".to_string(),
                "[{\"tool\": \"bash\", \"pattern\": \"*\", \"action\": \"ask\"}]".to_string(),
            ),
            ("o".to_string(), "1".to_string()),
            ("s".to_string(), "18446744073709551615".to_string()),
            ("g".to_string(), "opencode:deny,codex:skip".to_string()),
            ("dt.git".to_string(), "a\u{200b}b".to_string()),
            ("di.git".to_string(), "&amp;&lt;".to_string()),
        ],
    ));
    out
}

fn mutate(rng: &mut Rng, seeds: &[String]) -> String {
    let base = seeds[rng.below(seeds.len())].as_bytes().to_vec();
    let mut b = base.clone();
    for _ in 0..1 + rng.below(4) {
        match rng.below(8) {
            0 if !b.is_empty() => {
                let i = rng.below(b.len());
                b[i] ^= 1 << rng.below(8);
            }
            1 => b.truncate(rng.below(b.len() + 1)),
            2 if !b.is_empty() => {
                let i = rng.below(b.len());
                let j = (i + rng.below(64)).min(b.len());
                let chunk = b[i..j].to_vec();
                for _ in 0..rng.below(50) {
                    b.splice(i..i, chunk.iter().copied());
                }
            }
            3 => {
                let other = seeds[rng.below(seeds.len())].as_bytes();
                let i = rng.below(b.len() + 1);
                let j = rng.below(other.len() + 1);
                b.truncate(i);
                b.extend_from_slice(&other[j..]);
            }
            4 => {
                // A length that lies.
                let i = rng.below(b.len() + 1);
                let n = ["0", "1", "999999999", "18446744073709551616", "-1", "+3"][rng.below(6)];
                b.splice(i..i, n.bytes());
            }
            5 => {
                let i = rng.below(b.len() + 1);
                let s = [
                    "\n",
                    " ",
                    "end\n",
                    "%",
                    "&",
                    "=",
                    "a3.",
                    "permlab-state 1 a3\n",
                ][rng.below(8)];
                b.splice(i..i, s.bytes());
            }
            6 if !b.is_empty() => {
                let i = rng.below(b.len());
                b.remove(i);
            }
            _ => {
                let i = rng.below(b.len() + 1);
                b.insert(i, [0xff, 0xe6, 0x0a, 0x23, 0x2e][rng.below(5)]);
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

#[test]
fn state_readers_never_panic_and_stay_within_their_time() {
    let rounds: usize = std::env::var("PERMLAB_FUZZ_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let seeds = seeds();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut tried, mut refused, mut widgets) = (0usize, 0usize, 0usize);
    let mut slowest = (Duration::ZERO, 0usize);
    for i in 0..2_000 * rounds {
        let input = mutate(&mut rng, &seeds);
        let whole = i % 10 == 0;
        let t0 = Instant::now();
        let r = catch_unwind(AssertUnwindSafe(|| {
            let ok = store::decode(&input, "a3").is_ok();
            let _ = hash::read(&input, "a3");
            let s = store::start("a3", &input, Some(&input));
            let _ = store::start("a3", &input, None);
            if whole {
                // The whole widget from the item, then one action on it.
                let mut w = Widget::with_stored(config("a3"), &input, Some(&input));
                w.act(Msg::Reverse);
                let _ = w.snapshot().to_stored();
            }
            (ok, s.notes.is_empty())
        }));
        let took = t0.elapsed();
        let (ok, _) = r.unwrap_or_else(|_| panic!("panic on input {i}: {input:?}"));
        assert!(took < TIME_BOUND, "input {i} took {took:?}: {input:?}");
        if took > slowest.0 {
            slowest = (took, input.len());
        }
        tried += 1;
        refused += usize::from(!ok);
        widgets += usize::from(whole);
    }
    eprintln!(
        "state fuzz: {tried} inputs ({widgets} whole widgets), {refused} refused as unreadable, \
         0 panics; slowest {slowest:?} (time, bytes)"
    );
    assert!(refused > tried / 4, "the mutations reach the refusals");
}

/// A 1.9 MB old-format link (40 000 OpenCode keys, the probe's case) and a 16 MB stored item
/// are refused at once, not read.
#[test]
fn huge_links_and_items_are_refused_in_bounded_time() {
    let keys: Vec<String> = (0..40_000)
        .map(|i| format!("\"k{i}\": \"allow\""))
        .collect();
    let text = format!("{{\"permission\": {{\"bash\": {{{}}}}}}}", keys.join(", "));
    let link = hash::write(
        "#top",
        "a3",
        &[
            ("p", "import".into()),
            ("f", "opencode".into()),
            ("m", text),
        ],
    );
    assert!(link.len() > 1_000_000, "{}", link.len());
    let t0 = Instant::now();
    let w = Widget::with_stored(config("a3"), &link, None);
    let took = t0.elapsed();
    assert_eq!(w.kept().notes, [store::Note::HashTooLong(link.len())]);
    assert_eq!(w.table().len(), 10, "the lesson's start");
    assert!(took < Duration::from_secs(2), "{took:?}");
    let item = format!(
        "permlab-state 1 a3\nm {}\n{}\nend\n",
        store::STORED_LIMIT,
        "x".repeat(store::STORED_LIMIT)
    );
    let t0 = Instant::now();
    let w = Widget::with_stored(config("a3"), "", Some(&item));
    assert!(matches!(
        w.kept().notes[..],
        [store::Note::Ignored(store::Problem::TooLong(_))]
    ));
    assert!(t0.elapsed() < Duration::from_secs(2));
}
