//! Wildcard languages, decided exactly: inclusion, intersection and difference witnesses.
//!
//! OpenCode patterns (`*` any run of UTF-16 units, `?` one unit, a final `" *"` optional) and
//! Claude Code command patterns (`*` only, a lone final `" *"` optional) are regular languages
//! with a tiny automaton: a position in the pattern, `*` looping on itself. A pattern with an
//! optional tail is the union of two such automata. Questions the linter asks — "does rule B
//! match everything rule A matches?", "is there a call both match?" — are answered by a
//! breadth-first search over pairs of state sets of the two automata (the subset construction,
//! built lazily). Over the alphabet "every literal unit of either pattern, plus one unit in
//! neither", two strings that differ only in which foreign unit they hold behave the same in
//! both automata, so the search is **complete**: when it ends without a witness, none exists.
//! The search is capped; past the cap the answer is [`Search::Unsure`] and the linter stays
//! quiet, so every claim it makes rests on a proof or on a witness string.
//!
//! **Budgets.** A search's cost is its states times the alphabet times the size of a state
//! (positions in the patterns), and a config is linted with many searches. A pasted pattern
//! of 500 `*` made one lint run take over a minute. So: a pattern longer than
//! [`MAX_PATTERN_UNITS`] or with more than [`MAX_STARS`] stars is not searched at all; one
//! search stops after [`SEARCH_WORK`] units of work (a position stepped over one character);
//! and every search of one lint run draws on one budget ([`FILE_WORK`], see [`budgeted`]).
//! A search cut by any of them is [`Search::Unsure`], and the pattern is reported
//! ([`Unchecked`]), so the linter says "not checked" instead of staying quiet or stalling.
//! Runs of `*` are one `*` (the same language), so `**/**/…` costs what `*/*/…` does.

use std::cell::RefCell;
use std::collections::{HashSet, VecDeque};

/// Longest pattern searched, in UTF-16 units. Real configs' patterns are under 200.
pub const MAX_PATTERN_UNITS: usize = 2000;
/// Most `*` (after merging runs) in a pattern searched: the shared corpus's patterns have at
/// most 6, and a search's states can grow with every star.
pub const MAX_STARS: usize = 16;
/// Work one search may do (positions stepped, summed over the states and the alphabet):
/// about 50 ms in a release build. The largest search over the shared corpus takes far less.
pub const SEARCH_WORK: u64 = 4_000_000;
/// Work all the searches of one lint run may do together ([`budgeted`]): about a quarter
/// of a second in a release build.
pub const FILE_WORK: u64 = 20_000_000;

/// Why a proof was not made (see [`Unchecked`]): data, so a front end words it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TooComplex {
    /// The pattern is over [`MAX_PATTERN_UNITS`] or [`MAX_STARS`], or one search over it
    /// went over [`SEARCH_WORK`].
    Pattern,
    /// The lint run's searches together went over [`FILE_WORK`]; the rest were skipped.
    File,
}

/// A pattern some proof about was skipped, and why.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Unchecked {
    /// The pattern as written (for [`TooComplex::File`], the pattern of the first search
    /// that found the budget spent).
    pub pattern: String,
    /// Why.
    pub why: TooComplex,
}

struct Run {
    left: u64,
    skipped: Vec<Unchecked>,
}

thread_local! {
    /// The budget of the lint run in progress on this thread ([`budgeted`]); none outside.
    static RUN: RefCell<Option<Run>> = const { RefCell::new(None) };
}

/// Runs `f` (one lint run) with a fresh budget of [`FILE_WORK`] for its searches; returns what
/// it returned and the patterns whose proofs were skipped, each once, in the order met.
/// Searches outside a run are bounded by [`SEARCH_WORK`] alone.
pub fn budgeted<T>(f: impl FnOnce() -> T) -> (T, Vec<Unchecked>) {
    budgeted_within(FILE_WORK, f)
}

/// [`budgeted`] with a budget of `work` units.
fn budgeted_within<T>(work: u64, f: impl FnOnce() -> T) -> (T, Vec<Unchecked>) {
    let outer = RUN.with(|r| {
        r.replace(Some(Run {
            left: work,
            skipped: Vec::new(),
        }))
    });
    let out = f();
    let run = RUN.with(|r| r.replace(outer));
    (out, run.map(|r| r.skipped).unwrap_or_default())
}

fn note_skip(pattern: &str, why: TooComplex) {
    RUN.with(|r| {
        if let Some(run) = r.borrow_mut().as_mut() {
            if why == TooComplex::File && run.skipped.iter().any(|u| u.why == TooComplex::File) {
                return;
            }
            if !run
                .skipped
                .iter()
                .any(|u| u.pattern == pattern && u.why == why)
            {
                run.skipped.push(Unchecked {
                    pattern: pattern.to_string(),
                    why,
                });
            }
        }
    });
}

/// What the run's budget still allows one search (`SEARCH_WORK` outside a run).
fn allowance() -> (u64, bool) {
    RUN.with(|r| match r.borrow().as_ref() {
        Some(run) if run.left < SEARCH_WORK => (run.left, true),
        _ => (SEARCH_WORK, false),
    })
}

/// Whether the lint run's budget is spent; if so, `pattern`'s proof is noted as skipped. For
/// callers that would build languages for a proof ([`Lang::claude_command`] per pair of
/// rules): checked first, a spent budget costs nothing per pair.
pub(crate) fn spent(pattern: &str) -> bool {
    let spent = RUN.with(|r| r.borrow().as_ref().is_some_and(|run| run.left == 0));
    if spent {
        note_skip(pattern, TooComplex::File);
    }
    spent
}

fn spend(work: u64) {
    RUN.with(|r| {
        if let Some(run) = r.borrow_mut().as_mut() {
            run.left = run.left.saturating_sub(work);
        }
    });
}

/// One token of a wildcard pattern, over UTF-16 code units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Tok {
    Lit(u16),
    One,
    Star,
}

/// A wildcard language: the union of a few simple globs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lang {
    globs: Vec<Vec<Tok>>,
    /// The pattern as written, when it is over [`MAX_PATTERN_UNITS`] or [`MAX_STARS`]: no
    /// search is made over it. Otherwise the first pattern written, for a note.
    too_complex: Option<String>,
    pattern: String,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Search {
    /// A string with the asked-for property (as UTF-16 units, possibly not valid UTF-16).
    Found(Vec<u16>),
    /// Proved: no string has it.
    None,
    /// The search hit its cap.
    Unsure,
}

/// States visited before a search gives up.
const CAP: usize = 20_000;

/// The tokens of `pattern`; a run of `*` is one `*` (the same language, fewer states).
fn toks(pattern: &str, question: bool) -> Vec<Tok> {
    let mut out: Vec<Tok> = Vec::new();
    for u in pattern.encode_utf16() {
        let t = match u {
            0x2a => Tok::Star,
            0x3f if question => Tok::One,
            u => Tok::Lit(u),
        };
        if !(t == Tok::Star && out.last() == Some(&Tok::Star)) {
            out.push(t);
        }
    }
    out
}

impl Lang {
    fn new(pattern: &str, globs: Vec<Vec<Tok>>) -> Lang {
        let units = globs.iter().map(Vec::len).max().unwrap_or(0);
        let stars = globs
            .iter()
            .map(|g| g.iter().filter(|t| **t == Tok::Star).count())
            .max()
            .unwrap_or(0);
        let over = units > MAX_PATTERN_UNITS || stars > MAX_STARS;
        Lang {
            globs,
            too_complex: over.then(|| pattern.to_string()),
            pattern: pattern.to_string(),
        }
    }
}

impl Lang {
    /// An OpenCode `Wildcard.match` pattern: `\` read as `/`, `*`, `?`, optional final `" *"`.
    ///
    /// ```
    /// use permlab_core::lint::glob::Lang;
    /// let git = Lang::opencode("git *");
    /// assert!(git.matches("git") && git.matches("git push") && !git.matches("gitx"));
    /// assert!(Lang::opencode("git *").includes(&Lang::opencode("git push *")).unwrap());
    /// assert!(!Lang::opencode("git push *").includes(&Lang::opencode("git *")).unwrap());
    /// ```
    pub fn opencode(pattern: &str) -> Lang {
        let p = pattern.replace('\\', "/");
        let mut globs = vec![toks(&p, true)];
        if let Some(head) = p.strip_suffix(" *") {
            globs.push(toks(head, true));
        }
        Lang::new(pattern, globs)
    }

    /// A Claude Code command pattern as matched (after the `:*` rewrite): `*` only, the final
    /// `" *"` optional when it is the only `*`.
    pub fn claude_command(pattern: &str) -> Lang {
        let mut globs = vec![toks(pattern, false)];
        if pattern.ends_with(" *") && pattern.matches('*').count() == 1 {
            globs.push(toks(&pattern[..pattern.len() - 2], false));
        }
        Lang::new(pattern, globs)
    }

    /// The union of two languages.
    pub fn or(&self, other: &Lang) -> Lang {
        let mut globs = self.globs.clone();
        globs.extend(other.globs.iter().cloned());
        Lang {
            globs,
            too_complex: self
                .too_complex
                .clone()
                .or_else(|| other.too_complex.clone()),
            pattern: if self.pattern.is_empty() {
                other.pattern.clone()
            } else {
                self.pattern.clone()
            },
        }
    }

    /// Whether `text` is in the language (OpenCode inputs are `\`-normalized by the caller's
    /// engine; this compares units as given).
    pub fn matches(&self, text: &str) -> bool {
        let units: Vec<u16> = text.encode_utf16().collect();
        let mut s = self.start();
        for &u in &units {
            s = self.step(&s, u);
            if s.is_empty() {
                return false;
            }
        }
        self.accepts(&s)
    }

    /// Whether every string of `other` is in `self`; `None` when the search gave up.
    pub fn includes(&self, other: &Lang) -> Option<bool> {
        match witness(other, self, false) {
            Search::Found(_) => Some(false),
            Search::None => Some(true),
            Search::Unsure => None,
        }
    }

    fn start(&self) -> Vec<(usize, usize)> {
        let mut s: Vec<(usize, usize)> = (0..self.globs.len()).map(|g| (g, 0)).collect();
        self.close(&mut s);
        s
    }

    /// Adds the positions past every `*` (a star may match nothing); sorts and dedups.
    /// Runs of `*` are merged ([`toks`]), so one position past each star is enough.
    fn close(&self, s: &mut Vec<(usize, usize)>) {
        let n = s.len();
        for i in 0..n {
            let (g, p) = s[i];
            if self.globs[g].get(p) == Some(&Tok::Star) {
                s.push((g, p + 1));
            }
        }
        s.sort_unstable();
        s.dedup();
    }

    fn step(&self, s: &[(usize, usize)], u: u16) -> Vec<(usize, usize)> {
        let mut next = Vec::new();
        for &(g, p) in s {
            match self.globs[g].get(p) {
                Some(Tok::Lit(c)) if *c == u => next.push((g, p + 1)),
                Some(Tok::One) => next.push((g, p + 1)),
                Some(Tok::Star) => next.push((g, p)),
                _ => {}
            }
        }
        self.close(&mut next);
        next
    }

    fn accepts(&self, s: &[(usize, usize)]) -> bool {
        s.iter().any(|&(g, p)| p == self.globs[g].len())
    }

    fn literals(&self, out: &mut Vec<u16>) {
        for g in &self.globs {
            for t in g {
                if let Tok::Lit(u) = t {
                    out.push(*u);
                }
            }
        }
    }
}

/// The shortest string of `a` that `b` matches (`in_b`) or does not match (`!in_b`).
///
/// ```
/// use permlab_core::lint::glob::{witness, Lang, Search};
/// let w = witness(&Lang::opencode("git *"), &Lang::opencode("* --force"), true);
/// assert_eq!(w, Search::Found("git --force".encode_utf16().collect()));
/// ```
pub fn witness(a: &Lang, b: &Lang, in_b: bool) -> Search {
    for l in [a, b] {
        if let Some(p) = &l.too_complex {
            note_skip(p, TooComplex::Pattern);
            return Search::Unsure;
        }
    }
    let (allowed, file_limited) = allowance();
    if allowed == 0 {
        let pattern = if a.pattern.len() >= b.pattern.len() {
            &a.pattern
        } else {
            &b.pattern
        };
        note_skip(pattern, TooComplex::File);
        return Search::Unsure;
    }
    let mut work: u64 = 0;
    let r = search(a, b, in_b, allowed, &mut work);
    spend(work);
    if r == Search::Unsure && work >= allowed {
        // Cut by work, not by the state cap (which stays quiet, as before budgets).
        let pattern = if a.pattern.len() >= b.pattern.len() {
            &a.pattern
        } else {
            &b.pattern
        };
        let why = if file_limited {
            TooComplex::File
        } else {
            TooComplex::Pattern
        };
        note_skip(pattern, why);
    }
    r
}

/// [`witness`] within `allowed` units of work, counted in `work`.
fn search(a: &Lang, b: &Lang, in_b: bool, allowed: u64, work: &mut u64) -> Search {
    // The alphabet: every literal unit, plus units standing for "anything else". Ordered so
    // that witnesses read naturally: a space and letters first.
    let mut alphabet = Vec::new();
    a.literals(&mut alphabet);
    b.literals(&mut alphabet);
    let mut foreign = None;
    for c in "xyzq0123456789_".encode_utf16() {
        if !alphabet.contains(&c) {
            foreign = Some(c);
            break;
        }
    }
    alphabet.sort_unstable();
    alphabet.dedup();
    let alnum = |u: u16| u < 128 && (u as u8).is_ascii_alphanumeric();
    alphabet.sort_by_key(|&u| (u != 0x20, !alnum(u), u));
    if let Some(f) = foreign {
        alphabet.insert(0, f);
    }
    type State = (Vec<(usize, usize)>, Vec<(usize, usize)>);
    let start: State = (a.start(), b.start());
    let mut seen: HashSet<State> = HashSet::new();
    let mut queue: VecDeque<(State, Vec<u16>)> = VecDeque::new();
    seen.insert(start.clone());
    queue.push_back((start, Vec::new()));
    while let Some(((sa, sb), word)) = queue.pop_front() {
        if a.accepts(&sa) && b.accepts(&sb) == in_b {
            return Search::Found(word);
        }
        for &u in &alphabet {
            *work += 1 + (sa.len() + sb.len()) as u64;
            if *work >= allowed {
                return Search::Unsure;
            }
            let na = a.step(&sa, u);
            if na.is_empty() {
                continue;
            }
            let nb = b.step(&sb, u);
            let next = (na, nb);
            if seen.insert(next.clone()) {
                if seen.len() > CAP {
                    return Search::Unsure;
                }
                let mut w = word.clone();
                w.push(u);
                queue.push_back((next, w));
            }
        }
    }
    Search::None
}

/// A readable member of `lang` written after `pattern`: the pattern without its optional
/// final `" *"`, each remaining `*` and `?` as `x`, when that is in the language (`.env.*` →
/// `.env.x`, `git push * --force` → `git push x --force`, `git *` → `git`); otherwise the
/// shortest non-empty member.
///
/// ```
/// use permlab_core::lint::glob::{natural, Lang};
/// assert_eq!(natural("git push * --force", &Lang::opencode("git push * --force")).unwrap(), "git push x --force");
/// assert_eq!(natural("git *", &Lang::opencode("git *")).unwrap(), "git");
/// ```
pub fn natural(pattern: &str, lang: &Lang) -> Option<String> {
    let head = pattern.strip_suffix(" *").unwrap_or(pattern);
    let guess = head.replace(['*', '?'], "x");
    if !guess.is_empty() && lang.matches(&guess) {
        return Some(guess);
    }
    let any = Lang::new("?*", vec![vec![Tok::One, Tok::Star]]);
    match witness(lang, &any, true) {
        Search::Found(u) => text(&u),
        _ => None,
    }
}

/// A witness as a Rust string (`None` for a string of lone surrogates, which the linter cannot
/// show).
pub fn text(units: &[u16]) -> Option<String> {
    String::from_utf16(units).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(s: Search) -> String {
        match s {
            Search::Found(u) => text(&u).unwrap(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn inclusion_is_exact_on_the_lessons_pairs() {
        let oc = Lang::opencode;
        assert_eq!(oc("*").includes(&oc("git push *")), Some(true));
        assert_eq!(oc("git *").includes(&oc("git")), Some(true));
        assert_eq!(oc("git").includes(&oc("git *")), Some(false));
        assert_eq!(oc("src/*").includes(&oc("src/components/*")), Some(true));
        assert_eq!(oc("*.env").includes(&oc("**/.env")), Some(true));
        assert_eq!(oc("**/.env").includes(&oc(".env")), Some(false));
        // `?` is one UTF-16 unit: `??` covers an astral character, `?` does not.
        assert_eq!(oc("??").includes(&oc("😀")), Some(true));
        assert_eq!(oc("?").includes(&oc("😀")), Some(false));
        // Backslash is a slash on both sides.
        assert_eq!(oc("a/*").includes(&oc("a\\b")), Some(true));
        let cc = Lang::claude_command;
        assert_eq!(cc("npm *").includes(&cc("npm run *")), Some(true));
        assert_eq!(cc("* --help *").includes(&cc("npm --help")), Some(false));
        assert_eq!(cc("ls*").includes(&cc("ls *")), Some(true));
        assert_eq!(cc("ls *").includes(&cc("ls*")), Some(false));
    }

    #[test]
    fn a_pattern_past_the_limits_is_not_searched_and_is_named() {
        let stars = format!("git {}", "a* ".repeat(MAX_STARS + 1));
        let long = format!("git {}*", "x".repeat(MAX_PATTERN_UNITS));
        for p in [&stars, &long] {
            let (r, skipped) = budgeted(|| Lang::opencode("*").includes(&Lang::opencode(p)));
            assert_eq!(r, None, "{p}");
            assert_eq!(
                skipped,
                [Unchecked {
                    pattern: p.to_string(),
                    why: TooComplex::Pattern
                }]
            );
        }
        // Just within the limits: searched, and proved.
        let within = format!("git {}", "a* ".repeat(MAX_STARS));
        let (r, skipped) = budgeted(|| Lang::opencode("git *").includes(&Lang::opencode(&within)));
        assert_eq!((r, skipped), (Some(true), vec![]));
        // Runs of stars are one star: `**/` × 40 is 40 stars, not 80.
        let chain = "**/".repeat(MAX_STARS);
        assert_eq!(
            budgeted(|| Lang::opencode("*").includes(&Lang::opencode(&chain))),
            (Some(true), vec![])
        );
    }

    #[test]
    fn a_spent_run_budget_skips_the_remaining_proofs_once() {
        let ((first, second), skipped) = budgeted_within(5, || {
            (
                Lang::opencode("git *").includes(&Lang::opencode("git push *")),
                Lang::opencode("ls *").includes(&Lang::opencode("ls -l")),
            )
        });
        assert_eq!((first, second), (None, None));
        assert_eq!(skipped.len(), 1, "{skipped:?}");
        assert_eq!(skipped[0].why, TooComplex::File);
        // Outside a run, only the per-search work bounds a search.
        assert_eq!(
            Lang::opencode("git *").includes(&Lang::opencode("git push *")),
            Some(true)
        );
    }

    #[test]
    fn witnesses_are_short_and_real() {
        let oc = Lang::opencode;
        assert_eq!(
            found(witness(&oc("git *"), &oc("git push *"), false)),
            "git"
        );
        assert_eq!(found(witness(&oc("yarn"), &oc("*"), true)), "yarn");
        let w = found(witness(&oc("* --force"), &oc("git *"), true));
        assert!(
            oc("* --force").matches(&w) && oc("git *").matches(&w),
            "{w}"
        );
        assert_eq!(witness(&oc("a*"), &oc("b*"), true), Search::None);
    }
}
