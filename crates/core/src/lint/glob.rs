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

use std::collections::{HashSet, VecDeque};

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

fn toks(pattern: &str, question: bool) -> Vec<Tok> {
    pattern
        .encode_utf16()
        .map(|u| match u {
            0x2a => Tok::Star,
            0x3f if question => Tok::One,
            u => Tok::Lit(u),
        })
        .collect()
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
        Lang { globs }
    }

    /// A Claude Code command pattern as matched (after the `:*` rewrite): `*` only, the final
    /// `" *"` optional when it is the only `*`.
    pub fn claude_command(pattern: &str) -> Lang {
        let mut globs = vec![toks(pattern, false)];
        if pattern.ends_with(" *") && pattern.matches('*').count() == 1 {
            globs.push(toks(&pattern[..pattern.len() - 2], false));
        }
        Lang { globs }
    }

    /// The union of two languages.
    pub fn or(&self, other: &Lang) -> Lang {
        let mut globs = self.globs.clone();
        globs.extend(other.globs.iter().cloned());
        Lang { globs }
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
    fn close(&self, s: &mut Vec<(usize, usize)>) {
        let mut i = 0;
        while i < s.len() {
            let (g, p) = s[i];
            if self.globs[g].get(p) == Some(&Tok::Star) && !s.contains(&(g, p + 1)) {
                s.push((g, p + 1));
            }
            i += 1;
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
    let any = Lang {
        globs: vec![vec![Tok::One, Tok::Star]],
    };
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
