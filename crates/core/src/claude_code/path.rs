//! Read and Edit path rules: gitignore syntax with four anchors (`claude-code.md` §3).
//!
//! | Written | Anchored at |
//! |---|---|
//! | `//path` | the filesystem root |
//! | `~/path` | the home directory |
//! | `/path` | the rule's **settings source**: the project root for project/local/CLI settings, `~/.claude` for user settings |
//! | `./path` or `path` | the current working directory |
//!
//! Inside the anchor the pattern is a gitignore pattern: `*`, `?` and `[…]` stay within one
//! segment, `**` crosses segments, a pattern matching a directory covers everything under it.
//! A bare name (no `/`) matches at any depth under its anchor but never above it
//! (`Read(.env)` = `Read(**/.env)`; `~/.env` is outside `<cwd>`). A single-segment directory
//! pattern (`src/**`) is anchored for allow rules but matches at any depth for deny and ask
//! rules; other shapes are anchored unless they start with `**/`.
//!
//! A leading `./` only says "the working directory": `./x` is read exactly as `x`, so
//! `./.env` and `./*.pem` match at any depth and `./src/**` is anchored for allow, any depth
//! for deny and ask (recorded, CLI 2.1.332: deny `Edit(./.env)` refuses a Write of
//! `sub/.env`, deny `Read(./src/**)` refuses `packages/api/src/x.ts`, allow `Edit(./a.txt)`
//! approves `sub/a.txt`, allow `Edit(./lib/**)` does not approve `packages/api/lib/x.ts`), as
//! the docs say (`path` or `./path`). Only `/x` (and `//x`, `~/x`) anchor a name.
//!
//! | Recorded (CLI 2.1.332), a file in a subdirectory | `x`, `./x` | `/x` | `**/x` | `d/**`, `./d/**` | `/d/**` | `d/e/**`, `./d/e/**`, `d/*` |
//! |---|---|---|---|---|---|---|
//! | deny, ask | any depth | anchored | any depth | any depth | anchored | anchored |
//! | allow | any depth | anchored | any depth | anchored | anchored | anchored |
//!
//! Differs from OpenCode, whose `read`/`edit` patterns use the same `*`-crosses-`/` wildcard
//! as its bash patterns: here `*` stays within a segment and only `**` crosses, as in
//! gitignore (checked against `globset` with `literal_separator(true)` in a property test).
//!
//! ```
//! use permlab_core::claude_code::path::Glob;
//! let g = Glob::new("**/src/**").unwrap();
//! assert!(g.matches("vendor/pkg/src/lib.js"));
//! assert!(!g.matches("src"));
//! assert!(Glob::new("*.env").unwrap().matches(".env"));
//! assert!(!Glob::new("*.env").unwrap().matches("a/b.env"));
//! ```

/// One segment token.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Lit(char),
    Star,
    One,
    Class {
        negated: bool,
        items: Vec<(char, char)>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Seg {
    /// `**`: zero or more whole segments.
    Any,
    /// One segment.
    Pat(Vec<Tok>),
}

/// A compiled gitignore-style glob over `/`-separated relative paths (`literal_separator`
/// semantics: `*` never crosses `/`, `**` as a whole segment crosses any number of them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Glob {
    segs: Vec<Seg>,
}

impl Glob {
    /// Compiles `pattern` (relative, without anchor). An unclosed `[` is an error, as in
    /// gitignore implementations; `**` glued to other characters (`a**`) acts as `*`.
    pub fn new(pattern: &str) -> Result<Glob, String> {
        let mut segs = Vec::new();
        for part in pattern.split('/') {
            if part == "**" {
                if segs.last() != Some(&Seg::Any) {
                    segs.push(Seg::Any);
                }
                continue;
            }
            segs.push(Seg::Pat(compile_segment(part)?));
        }
        // A trailing `**` matches everything *inside*: one segment at least (`abc/**` does not
        // match `abc` itself). Compiled as `*/**`, so that the matcher needs no special case.
        if segs.last() == Some(&Seg::Any) {
            segs.insert(segs.len() - 1, Seg::Pat(vec![Tok::Star]));
        }
        Ok(Glob { segs })
    }

    /// Whether the whole relative path matches (no ancestor logic).
    ///
    /// The classic two-pointer wildcard algorithm one level up: `**` is the `*` over whole
    /// segments, every other segment matches exactly one path segment. Backtracking to the
    /// last `**` only is enough (as for `*` over characters), so this is linear-ish, needs no
    /// recursion and no allocation.
    pub fn matches(&self, path: &str) -> bool {
        // Segments are addressed by the byte offset they start at; `end` is past the last one.
        let end = path.len() + 1;
        let part = |j: usize| -> (&str, usize) {
            let rest = path.get(j..).unwrap_or("");
            match rest.bytes().position(|b| b == b'/') {
                Some(k) => (&rest[..k], j + k + 1),
                None => (rest, end),
            }
        };
        let (mut i, mut j) = (0usize, 0usize);
        let mut star: Option<(usize, usize)> = None;
        while j != end {
            match self.segs.get(i) {
                Some(Seg::Any) => {
                    star = Some((i, j));
                    i += 1;
                    continue;
                }
                Some(Seg::Pat(toks)) => {
                    let (text, next) = part(j);
                    if segment_matches(toks, text) {
                        i += 1;
                        j = next;
                        continue;
                    }
                }
                None => {}
            }
            let Some((si, sj)) = star else {
                return false;
            };
            let (_, next) = part(sj);
            i = si + 1;
            j = next;
            star = Some((si, next));
        }
        while self.segs.get(i) == Some(&Seg::Any) {
            i += 1;
        }
        i == self.segs.len()
    }

    /// A condition one segment of every path this glob matches must meet (see [`SegKey`]).
    fn key(&self) -> Option<SegKey> {
        let mut best: Option<SegKey> = None;
        for seg in &self.segs {
            let Seg::Pat(toks) = seg else { continue };
            let lit = |t: &Tok| match t {
                Tok::Lit(c) => Some(*c),
                _ => None,
            };
            let lead: String = toks.iter().map_while(lit).collect();
            let key = if lead.chars().count() == toks.len() {
                SegKey::Exact(lead)
            } else {
                let mut tail: Vec<char> = toks.iter().rev().map_while(lit).collect();
                tail.reverse();
                let tail: String = tail.into_iter().collect();
                match tail.rsplit_once('.') {
                    Some((_, ext)) if !ext.is_empty() => SegKey::Ext(ext.to_string()),
                    _ => SegKey::Prefix(lead.chars().take(PREFIX_KEY_CHARS).collect()),
                }
            };
            let usable = match &key {
                SegKey::Exact(k) | SegKey::Ext(k) | SegKey::Prefix(k) => {
                    !k.is_empty() && !k.contains('\u{0}')
                }
            };
            if usable && best.as_ref().is_none_or(|b| key.rank() > b.rank()) {
                best = Some(key);
            }
        }
        best
    }
}

/// Longest literal prefix a path rule is indexed by (see [`SegKey::Prefix`]).
pub(crate) const PREFIX_KEY_CHARS: usize = 6;

/// A necessary condition on one segment of every path a [`PathPattern`] matches, directly or
/// through a matching ancestor: rules are indexed by it so that a call only looks at the rules
/// that can match its path.
///
/// Why it holds: every non-`**` segment of the glob is matched against exactly one segment of
/// the path relative to the anchor, which is a segment of the absolute path. (The extra `\0`
/// segment [`PathPattern::matches_relative`] adds for directory roots never meets a key: keys
/// are non-empty and contain no NUL.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SegKey {
    /// A wholly literal segment: some path segment equals it (`src/**` → `src`).
    Exact(String),
    /// A segment ending in literal `.ext`: some path segment has that extension (`*.py` → `py`).
    Ext(String),
    /// A segment starting with literal text: some path segment starts with its first
    /// [`PREFIX_KEY_CHARS`] characters (`test_*` → `test_`).
    Prefix(String),
}

impl SegKey {
    fn rank(&self) -> usize {
        match self {
            SegKey::Exact(_) => 3 * 64,
            SegKey::Ext(_) => 2 * 64,
            SegKey::Prefix(p) => p.chars().count(),
        }
    }
}

/// The extension a [`SegKey::Ext`] is compared with: the text after the segment's last `.`.
pub(crate) fn extension(segment: &str) -> Option<&str> {
    segment.rsplit_once('.').map(|(_, e)| e)
}

fn compile_segment(part: &str) -> Result<Vec<Tok>, String> {
    let chars: Vec<char> = part.chars().collect();
    let mut toks = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '*' => {
                if toks.last() != Some(&Tok::Star) {
                    toks.push(Tok::Star);
                }
                i += 1;
            }
            '?' => {
                toks.push(Tok::One);
                i += 1;
            }
            '\\' => {
                match chars.get(i + 1) {
                    Some(&c) => toks.push(Tok::Lit(c)),
                    None => toks.push(Tok::Lit('\\')),
                }
                i += 2;
            }
            '[' => {
                let mut j = i + 1;
                let negated = matches!(chars.get(j), Some('!' | '^'));
                if negated {
                    j += 1;
                }
                let mut items = Vec::new();
                let mut first = true;
                loop {
                    let Some(&c) = chars.get(j) else {
                        return Err(format!("unclosed `[` in `{part}`"));
                    };
                    if c == ']' && !first {
                        j += 1;
                        break;
                    }
                    first = false;
                    if chars.get(j + 1) == Some(&'-') && chars.get(j + 2).is_some_and(|&e| e != ']')
                    {
                        let end = chars[j + 2];
                        items.push((c, end));
                        j += 3;
                    } else {
                        items.push((c, c));
                        j += 1;
                    }
                }
                toks.push(Tok::Class { negated, items });
                i = j;
            }
            c => {
                toks.push(Tok::Lit(c));
                i += 1;
            }
        }
    }
    Ok(toks)
}

fn segment_matches(toks: &[Tok], text: &str) -> bool {
    // `ti` is a byte offset that always sits on a character boundary.
    let at = |ti: usize| text.get(ti..).and_then(|r| r.chars().next());
    let (mut pi, mut ti) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while let Some(c) = at(ti) {
        let ok = match toks.get(pi) {
            Some(Tok::Star) => {
                star = Some((pi, ti));
                pi += 1;
                continue;
            }
            Some(Tok::Lit(l)) => *l == c,
            Some(Tok::One) => true,
            Some(Tok::Class { negated, items }) => {
                items.iter().any(|&(a, b)| a <= c && c <= b) != *negated
            }
            None => false,
        };
        if ok {
            pi += 1;
            ti += c.len_utf8();
        } else if let Some((sp, st)) = star {
            let st = st + at(st).map_or(1, char::len_utf8);
            pi = sp + 1;
            ti = st;
            star = Some((sp, st));
        } else {
            return false;
        }
    }
    while toks.get(pi) == Some(&Tok::Star) {
        pi += 1;
    }
    pi == toks.len()
}

/// Where a path rule is anchored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// `//path`: the filesystem root.
    Root,
    /// `~/path`: the home directory.
    Home,
    /// `/path`: the settings source's directory.
    Source,
    /// `./path` or a bare relative path: the current working directory.
    Cwd,
}

/// A compiled `Read(…)`/`Edit(…)` specifier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathPattern {
    /// `!pattern`: carves paths out of earlier relative rules of the same source.
    pub negated: bool,
    /// The anchor.
    pub anchor: Anchor,
    /// The pattern ends with `/`: it names a directory.
    pub dir_only: bool,
    /// Matches at any depth under the anchor.
    pub any_depth: bool,
    glob: Glob,
}

/// How a path pattern matched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathMatch {
    /// The path itself matches.
    Direct,
    /// A directory containing the path matches (gitignore: everything under it).
    Ancestor,
}

impl PathPattern {
    /// Parses a specifier. `deny_or_ask` selects the any-depth reading of `dir/**`.
    ///
    /// ```
    /// use permlab_core::claude_code::path::{Anchor, PathPattern};
    /// let p = PathPattern::parse("./.env", false).unwrap();
    /// assert_eq!(p.anchor, Anchor::Cwd);
    /// assert!(p.matches_relative(".env", false).is_some());
    /// assert!(p.matches_relative("a/.env", false).is_some());
    /// assert!(PathPattern::parse("/.env", false).unwrap().matches_relative("a/.env", false).is_none());
    /// ```
    pub fn parse(spec: &str, deny_or_ask: bool) -> Result<PathPattern, String> {
        let (negated, spec) = match spec.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, spec),
        };
        if spec.is_empty() {
            return Err("the path is empty".to_string());
        }
        let (anchor, rest, explicit) = if let Some(r) = spec.strip_prefix("//") {
            (Anchor::Root, r, true)
        } else if let Some(r) = spec.strip_prefix("~/") {
            (Anchor::Home, r, true)
        } else if spec == "~" {
            (Anchor::Home, "", true)
        } else if let Some(r) = spec.strip_prefix("./") {
            // Recorded: `./x` is `x` (see the module docs).
            (Anchor::Cwd, r, false)
        } else if let Some(r) = spec.strip_prefix('/') {
            (Anchor::Source, r, true)
        } else {
            (Anchor::Cwd, spec, false)
        };
        let dir_only = rest.ends_with('/') && rest.len() > 1;
        let body = rest.trim_end_matches('/');
        let body = if body.is_empty() { "**" } else { body };
        let segments: Vec<&str> = body.split('/').collect();
        let any_depth = if segments.first() == Some(&"**") {
            true
        } else if explicit {
            false
        } else if segments.len() == 1 {
            // A bare name: any depth (gitignore: no slash means "anywhere").
            true
        } else {
            // `src/**`: anchored for allow, any depth for deny/ask (§3).
            deny_or_ask && segments.len() == 2 && segments[1] == "**"
        };
        let glob = if any_depth && segments.first() != Some(&"**") {
            Glob::new(&format!("**/{body}"))?
        } else {
            Glob::new(body)?
        };
        Ok(PathPattern {
            negated,
            anchor,
            dir_only,
            any_depth,
            glob,
        })
    }

    /// The segment condition every path this pattern matches meets, if the pattern has one.
    pub(crate) fn key(&self) -> Option<SegKey> {
        self.glob.key()
    }

    /// Matches a path relative to the anchor (`a/b/c`; empty for the anchor itself).
    /// `is_dir` when the path itself is a directory (a Grep or Glob root).
    ///
    /// One pass over the path's segments: the glob runs as a set of live positions (an NFA
    /// over segments), and after each segment the set says whether the path so far — the
    /// path itself or one of its ancestor directories — matches. Checking every ancestor
    /// prefix with [`Glob::matches`] instead is quadratic in the path (a crafted `a/a/…` of
    /// 20 000 segments took seconds).
    pub fn matches_relative(&self, rel: &str, is_dir: bool) -> Option<PathMatch> {
        if rel.is_empty() {
            return None;
        }
        let direct_allowed = !self.dir_only || is_dir;
        let mut run = Run::new(&self.glob.segs);
        let mut ancestor = false;
        let mut parts = rel.split('/').peekable();
        let mut m = 0usize;
        while let Some(part) = parts.next() {
            m += 1;
            if !run.step(part) {
                return ancestor.then_some(PathMatch::Ancestor);
            }
            let last = parts.peek().is_none();
            if !run.accepts() {
                continue;
            }
            if last {
                if direct_allowed {
                    return Some(PathMatch::Direct);
                }
            } else if !(m == 1 && part.is_empty()) {
                // An ancestor directory (`rel` up to a `/`, never the empty prefix of a `/x`).
                ancestor = true;
                if !direct_allowed {
                    return Some(PathMatch::Ancestor);
                }
            }
        }
        if ancestor {
            return Some(PathMatch::Ancestor);
        }
        // A directory root (Grep over `secrets`) is covered by `secrets/**`: something under
        // it would match (the `\0` segment stands for "any name inside").
        if is_dir && run.step("\u{0}") && run.accepts() {
            return Some(PathMatch::Ancestor);
        }
        None
    }
}

/// A glob's live positions while a path is read one segment at a time: `live[i]` when the
/// segments read so far can be followed by `segs[i..]`. `**` keeps its position (it takes any
/// number of segments) and lets the next one start at once; every other segment moves one on.
struct Run<'g> {
    segs: &'g [Seg],
    live: Vec<bool>,
    next: Vec<bool>,
}

impl<'g> Run<'g> {
    fn new(segs: &'g [Seg]) -> Self {
        let mut live = vec![false; segs.len() + 1];
        live[0] = true;
        close(segs, &mut live);
        Run {
            segs,
            next: vec![false; segs.len() + 1],
            live,
        }
    }

    /// Reads one path segment; false when no position is live any more.
    fn step(&mut self, part: &str) -> bool {
        self.next.fill(false);
        let mut any = false;
        for (i, seg) in self.segs.iter().enumerate() {
            if !self.live[i] {
                continue;
            }
            match seg {
                Seg::Any => {
                    self.next[i] = true;
                    any = true;
                }
                Seg::Pat(toks) => {
                    if segment_matches(toks, part) {
                        self.next[i + 1] = true;
                        any = true;
                    }
                }
            }
        }
        close(self.segs, &mut self.next);
        std::mem::swap(&mut self.live, &mut self.next);
        any
    }

    /// Whether the segments read so far match the whole glob.
    fn accepts(&self) -> bool {
        self.live[self.segs.len()]
    }
}

/// Adds the positions reachable by letting a `**` take no segment.
fn close(segs: &[Seg], set: &mut [bool]) {
    for (i, seg) in segs.iter().enumerate() {
        if set[i] && *seg == Seg::Any {
            set[i + 1] = true;
        }
    }
}

/// Lexically normalises an absolute path (`.`/`..`/duplicate slashes), never touching the disk.
///
/// ```
/// use permlab_core::claude_code::path::normalize;
/// assert_eq!(normalize("/a/./b/../c//d/"), "/a/c/d");
/// assert_eq!(normalize("/.."), "/");
/// assert_eq!(normalize("a/../../b/./"), "/b");
/// assert_eq!(normalize(""), "/");
/// ```
pub fn normalize(path: &str) -> String {
    let mut out = String::with_capacity(path.len() + 1);
    for p in path.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                // Drop the last segment (nothing above the root).
                let k = out.rfind('/').unwrap_or(0);
                out.truncate(k);
            }
            other => {
                out.push('/');
                out.push_str(other);
            }
        }
    }
    if out.is_empty() {
        out.push('/');
    }
    out
}

/// Resolves `path` (absolute, `~`-relative or relative to `cwd`) to a normalised absolute path.
pub fn resolve(path: &str, cwd: &str, home: &str) -> String {
    if path == "~" {
        return normalize(home);
    }
    if let Some(rest) = path.strip_prefix("~/") {
        return normalize(&format!("{home}/{rest}"));
    }
    if path.starts_with('/') {
        return normalize(path);
    }
    normalize(&format!("{cwd}/{path}"))
}

/// `path` relative to `dir` when it is inside it (`""` for `dir` itself).
///
/// ```
/// use permlab_core::claude_code::path::relative_to;
/// assert_eq!(relative_to("/a/b/c", "/a"), Some("b/c"));
/// assert_eq!(relative_to("/ab", "/a"), None);
/// assert_eq!(relative_to("/a", "/"), Some("a"));
/// ```
pub fn relative_to<'a>(path: &'a str, dir: &str) -> Option<&'a str> {
    if dir == "/" {
        return path.strip_prefix('/');
    }
    let rest = path.strip_prefix(dir)?;
    if rest.is_empty() {
        Some("")
    } else {
        rest.strip_prefix('/')
    }
}

/// Protected directories: writes are never auto-approved except in bypass mode (§7).
pub const PROTECTED_DIRS: [&str; 10] = [
    ".git",
    ".vscode",
    ".idea",
    ".husky",
    ".cargo",
    ".devcontainer",
    ".yarn",
    ".mvn",
    ".claude",
    ".config/git",
];

/// Protected file names (§7).
pub const PROTECTED_FILES: [&str; 27] = [
    ".gitconfig",
    ".gitmodules",
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zshenv",
    ".zprofile",
    ".zlogin",
    ".envrc",
    ".npmrc",
    "bunfig.toml",
    ".bazelrc",
    ".pre-commit-config.yaml",
    "lefthook.yml",
    "lefthook.yaml",
    ".lefthook.yml",
    "gradle-wrapper.properties",
    "maven-wrapper.properties",
    ".devcontainer.json",
    ".ripgreprc",
    "pyrightconfig.json",
    ".mcp.json",
    ".claude.json",
    ".bazelversion",
];

/// The protected directory or file a write to `abs` touches, if any.
///
/// ```
/// use permlab_core::claude_code::path::protected;
/// assert_eq!(protected("/p/.git/config"), Some(".git".to_string()));
/// assert_eq!(protected("/p/.claude/worktrees/x/a.rs"), None);
/// assert_eq!(protected("/p/src/main.rs"), None);
/// ```
pub fn protected(abs: &str) -> Option<String> {
    let parts: Vec<&str> = abs.split('/').filter(|p| !p.is_empty()).collect();
    let (file, dirs) = parts.split_last()?;
    for (k, d) in dirs.iter().enumerate() {
        if *d == ".claude" {
            // Exceptions: worktrees, plan files, auto-memory notes.
            let next = dirs.get(k + 1).copied();
            if matches!(next, Some("worktrees" | "plans" | "memory")) {
                continue;
            }
            return Some(".claude".to_string());
        }
        if *d == "git" && k > 0 && dirs[k - 1] == ".config" {
            return Some(".config/git".to_string());
        }
        if PROTECTED_DIRS.contains(d) {
            return Some((*d).to_string());
        }
    }
    if PROTECTED_FILES.contains(file) || file.starts_with(".yarnrc") || file.starts_with(".pnp.") {
        return Some((*file).to_string());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The former algorithm (every ancestor prefix through [`Glob::matches`], quadratic in
    /// the path), kept as the oracle of the one-pass [`PathPattern::matches_relative`].
    fn by_prefixes(p: &PathPattern, rel: &str, is_dir: bool) -> Option<PathMatch> {
        if rel.is_empty() {
            return None;
        }
        if (!p.dir_only || is_dir) && p.glob.matches(rel) {
            return Some(PathMatch::Direct);
        }
        for (k, c) in rel.char_indices() {
            if c == '/' && k > 0 && p.glob.matches(&rel[..k]) {
                return Some(PathMatch::Ancestor);
            }
        }
        if is_dir && p.glob.matches(&format!("{rel}/\u{0}")) {
            return Some(PathMatch::Ancestor);
        }
        None
    }

    fn m(spec: &str, deny: bool, rel: &str) -> bool {
        PathPattern::parse(spec, deny)
            .unwrap()
            .matches_relative(rel, false)
            .is_some()
    }

    fn spec() -> impl Strategy<Value = String> {
        let seg = prop::sample::select(vec![
            "a", "b", "*", "?", "[ab]", "**", "a*", "*.b", ".a", "\\*", "x",
        ]);
        (
            prop::sample::select(vec!["", "!"]),
            prop::sample::select(vec!["", "/", "./", "//", "~/", "**/"]),
            prop::collection::vec(seg, 1..5),
            any::<bool>(),
        )
            .prop_map(|(neg, anchor, segs, slash)| {
                format!(
                    "{neg}{anchor}{}{}",
                    segs.join("/"),
                    if slash { "/" } else { "" }
                )
            })
    }

    fn rel() -> impl Strategy<Value = String> {
        let seg = prop::sample::select(vec!["a", "b", "ab", ".a", "", "*", "a.b", "x", "\u{0}"]);
        (any::<bool>(), prop::collection::vec(seg, 1..7))
            .prop_map(|(lead, segs)| format!("{}{}", if lead { "/" } else { "" }, segs.join("/")))
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 20_000, ..ProptestConfig::default() })]

        /// The one-pass matcher gives the verdict of the former prefix-by-prefix one, on every
        /// anchor, `!`, trailing `/`, `**` and odd path (empty segments, a leading `/`, NUL).
        #[test]
        fn one_pass_agrees_with_every_prefix(spec in spec(), rel in rel(), deny in any::<bool>(), is_dir in any::<bool>()) {
            let Ok(p) = PathPattern::parse(&spec, deny) else { return Ok(()) };
            prop_assert_eq!(p.matches_relative(&rel, is_dir), by_prefixes(&p, &rel, is_dir), "{} {:?} dir={}", spec, rel, is_dir);
        }
    }

    #[test]
    fn one_pass_corners() {
        for (spec, rel, dir) in [
            ("x", "a/x/b", false),
            ("x", "x/", false),
            ("/x/**", "/x/a", false),
            ("build/", "build", true),
            ("build/", "a/build/c", false),
            ("./secrets/**", "secrets", true),
            ("*", "/a", false),
            ("a/**", "a//b", false),
        ] {
            for deny in [false, true] {
                let p = PathPattern::parse(spec, deny).unwrap();
                assert_eq!(
                    p.matches_relative(rel, dir),
                    by_prefixes(&p, rel, dir),
                    "{spec} {rel} {dir}"
                );
            }
        }
        let p = PathPattern::parse("x", true).unwrap();
        assert_eq!(
            p.matches_relative("a/x/b", false),
            Some(PathMatch::Ancestor)
        );
        assert_eq!(p.matches_relative("a/x", false), Some(PathMatch::Direct));
    }

    #[test]
    fn anchors_and_depth() {
        assert!(m(".env", true, ".env"));
        assert!(m(".env", true, "a/b/.env"));
        assert!(m("./.env", true, ".env"));
        assert!(!m("/.env", true, "a/.env"));
        assert!(m("src/**", false, "src/a.rs"));
        assert!(!m("src/**", false, "pkg/src/a.rs"));
        assert!(m("src/**", true, "pkg/src/a.rs"));
        assert!(m("**/src/**", false, "vendor/pkg/src/lib.js"));
        assert!(!m("docs/*.md", true, "docs/a/b.md"));
        assert!(m("docs/*.md", true, "docs/b.md"));
        assert!(
            m("secrets", true, "x/secrets/key"),
            "a directory covers its contents"
        );
        assert!(m("build/", true, "build/a.o"));
        assert!(!m("build/", true, "build"));
    }

    /// Recorded, CLI 2.1.332 (`rec5-k6-*`): deny `Edit(./.env)` refuses a Write of `sub/.env`,
    /// deny `Read(./src/**)` refuses `packages/api/src/x.ts`, allow `Edit(./a.txt)` approves
    /// `sub/a.txt`; allow `Edit(./lib/**)`, `Read(./src/lib/**)` and `/x` stay anchored.
    #[test]
    fn a_dot_slash_rule_reaches_into_subdirectories_like_a_plain_one() {
        for (spec, deny, rel, want) in [
            ("./.env", true, "sub/.env", true),
            ("./a.txt", false, "sub/a.txt", true),
            ("./*.pem", false, "sub/k.pem", true),
            ("./src/**", true, "packages/api/src/x.ts", true),
            ("./lib/**", false, "packages/api/lib/x.ts", false),
            ("./src/lib/**", true, "packages/api/src/lib/x.ts", false),
            ("./sub/cfg.txt", true, "x/sub/cfg.txt", false),
            ("/cfg.txt", true, "sub/cfg.txt", false),
            ("/lib/**", true, "packages/api/lib/x.ts", false),
            ("lib/*", true, "packages/api/lib/x.ts", false),
        ] {
            assert_eq!(m(spec, deny, rel), want, "{spec} deny={deny} {rel}");
            let plain = spec.strip_prefix("./").unwrap_or(spec);
            assert_eq!(m(plain, deny, rel), want, "{plain} deny={deny} {rel}");
        }
    }

    #[test]
    fn directory_roots() {
        let p = PathPattern::parse("./secrets/**", true).unwrap();
        assert!(p.matches_relative("secrets", true).is_some());
        assert!(p.matches_relative("secrets", false).is_none());
    }

    #[test]
    fn glob_corners() {
        let g = |p: &str, t: &str| Glob::new(p).unwrap().matches(t);
        assert!(g("a/**/b", "a/b"));
        assert!(g("a/**/b", "a/x/y/b"));
        assert!(g("**", "a/b"));
        assert!(g("[a-c]x", "bx"));
        assert!(!g("[!a-c]x", "bx"));
        assert!(g("a?c", "abc"));
        assert!(!g("a?c", "a/c"));
        assert!(g("\\*", "*"));
        assert!(!g("\\*", "x"));
        assert!(Glob::new("[abc").is_err());
    }
}
