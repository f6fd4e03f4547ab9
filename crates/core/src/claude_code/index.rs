//! The policy compiled for fast lookups, once per policy, mode and context.
//!
//! None of this changes what a rule means: [`Env::spec_matches`](super::eval) and
//! [`Env::rule_names_tool`](super::eval) still decide whether a rule matches. The index only
//! answers "which rules **could** match this call", a superset of the ones that do, in merged
//! order; the procedure then picks the first that really matches, exactly as when it scans the
//! whole group. So a large table costs what the rules about this call's tool, this command's
//! program and this path's segments cost, not what the whole table costs.
//!
//! - Rules are grouped (deny, ask, allow) and bucketed by the exact tool they name; MCP-server
//!   and tool-name globs are few and always looked at.
//! - `Bash(…)` command patterns that fix their first word (`git push *` → `git`) are bucketed
//!   by it; a subcommand only meets the rules of its own program (plus the patterns that do not
//!   fix a first word, such as `* --help *`).
//! - `Read(…)`/`Edit(…)` path rules are bucketed by a [`SegKey`]: a literal segment, an
//!   extension or a literal prefix that some segment of every matching path has.
//! - The first bare deny of each tool is kept aside: a call of a removed tool is decided
//!   without parsing its input at all.
//! - Anchor directories, working directories, `!` carve-out candidates and the sandbox's
//!   excluded-command patterns are computed here instead of once per call (or per rule).

use std::collections::HashMap;

use super::bash::{first_word, CommandPattern};
use super::mode::Mode;
use super::path::{self, extension, Anchor, SegKey, PREFIX_KEY_CHARS};
use super::rule::{Specifier, ToolSelector};
use super::settings::{Policy, PolicyRule, Scope};
use super::types::Context;
use crate::table::Action;

/// Rule positions (in [`Policy::rules`]) by key, each list in merged order.
type Buckets = HashMap<String, Vec<usize>, BuildFx>;

/// A small, fast, non-cryptographic hasher (the rustc "Fx" mix) for the index's short keys.
/// SipHash would cost more than the rest of a lookup; what it protects against (many keys
/// forced into one bucket) needs control of the rule table, and would only slow down
/// compiling it, never change a verdict.
#[derive(Clone, Copy, Debug, Default)]
struct BuildFx;

impl std::hash::BuildHasher for BuildFx {
    type Hasher = Fx;
    fn build_hasher(&self) -> Fx {
        Fx(0)
    }
}

struct Fx(u64);

impl std::hash::Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
        }
        for &b in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
        }
    }

    fn write_u8(&mut self, b: u8) {
        self.write(&[b]);
    }

    /// The state, mixed (murmur3's finalizer): the multiply leaves the low bits, which pick
    /// the bucket, depending on the low bits of the input only, so that a million rules like
    /// `cmd0 *`…`cmd999999 *` crowded a few buckets (minutes to compile the policy).
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

/// The compiled policy (see the module docs).
#[derive(Clone, Debug, Default)]
pub(crate) struct Index {
    /// The current directory first, then the additional directories, resolved.
    pub(super) working_dirs: Vec<String>,
    /// Anchor directories: root, home, cwd, user source (`~/.claude`), other sources.
    anchors: [String; 5],
    /// Per rule: which list of [`Index::negations`] may carve out of it (`u32::MAX`: none).
    carve_list: Vec<u32>,
    /// Negated path rules of one (group, scope, tool), in merged order.
    negations: Vec<Vec<usize>>,
    /// deny, ask, allow (the allow group without the rules the mode drops).
    groups: [Group; 3],
    /// `sandbox.excludedCommands`, compiled.
    pub(super) excluded: Vec<CommandPattern>,
    /// Some deny names every tool (`*`, `**`…).
    pub(super) everything_denied: bool,
}

#[derive(Clone, Debug, Default)]
struct Group {
    /// Exact tool → its rules, except keyed Bash patterns and path rules.
    tools: Buckets,
    /// Exact tool → its first bare rule.
    bare: HashMap<String, usize, BuildFx>,
    /// MCP-server and glob selectors (always bare).
    wide: Vec<usize>,
    /// `Bash(…)` patterns by the first word they fix.
    bash_words: Buckets,
    /// Path rules (`Read(…)`, `Edit(…)`), by the directory they are anchored at (the slots of
    /// [`Index::anchors`]): a path outside that directory meets none of them.
    paths: [PathIndex; 5],
}

#[derive(Clone, Debug, Default)]
struct PathIndex {
    /// Path rules without a usable key.
    loose: Vec<usize>,
    exact: Buckets,
    ext: Buckets,
    prefix: Buckets,
    /// Bit `k` set: some prefix key is `k` characters long.
    prefix_lens: u32,
}

fn slot(group: Action) -> usize {
    match group {
        Action::Deny => 0,
        Action::Ask => 1,
        Action::Allow => 2,
    }
}

impl Index {
    /// Compiles `policy` for `mode` in `ctx`.
    pub(crate) fn new(policy: &Policy, mode: Mode, ctx: &Context) -> Index {
        let mut working_dirs = vec![path::normalize(&ctx.cwd)];
        for d in &policy.additional_directories {
            working_dirs.push(path::resolve(d, &ctx.cwd, &ctx.home));
        }
        let anchors = [
            "/".to_string(),
            path::normalize(&ctx.home),
            path::normalize(&ctx.cwd),
            path::normalize(&format!("{}/.claude", ctx.home)),
            path::normalize(&ctx.project_root),
        ];
        let mut ix = Index {
            working_dirs,
            anchors,
            carve_list: vec![u32::MAX; policy.rules.len()],
            negations: Vec::new(),
            groups: Default::default(),
            excluded: policy
                .excluded_commands
                .iter()
                .map(|e| CommandPattern::new(e, false))
                .collect(),
            everything_denied: policy.group(Action::Deny).any(|(_, r)| {
                matches!(&r.rule.tool, ToolSelector::Glob(g) if g.chars().all(|c| c == '*'))
            }),
        };
        // `!` carve-outs: a negated rule reopens paths of *earlier* rules of its group, scope and
        // tool. Visiting the rules last to first, a rule gets a list only when some negation
        // follows it; `negations_after` keeps the part of the list after it.
        let mut lists: HashMap<(usize, Scope, &str), u32> = HashMap::new();
        for (i, r) in policy.rules.iter().enumerate().rev() {
            let (ToolSelector::Exact(name), Specifier::Path(p)) = (&r.rule.tool, &r.rule.spec)
            else {
                continue;
            };
            let key = (slot(r.group), r.scope, name.as_str());
            if p.negated {
                let k = *lists.entry(key).or_insert_with(|| {
                    ix.negations.push(Vec::new());
                    (ix.negations.len() - 1) as u32
                });
                ix.negations[k as usize].push(i);
            } else if let Some(&k) = lists.get(&key) {
                ix.carve_list[i] = k;
            }
        }
        for list in &mut ix.negations {
            list.reverse();
        }
        for (i, r) in policy.rules.iter().enumerate() {
            if r.group == Action::Allow && mode == Mode::Auto && dropped_in_auto(r) {
                continue;
            }
            ix.groups[slot(r.group)].add(i, r);
        }
        ix
    }

    /// The directory a path rule of `scope` anchored at `anchor` is relative to.
    pub(super) fn anchor_dir(&self, anchor: Anchor, scope: Scope) -> &str {
        &self.anchors[anchor_slot(anchor, scope)]
    }

    /// The negated rules that may carve out of rule `i` (all later in merged order).
    pub(super) fn negations_after(&self, i: usize) -> &[usize] {
        let k = self.carve_list.get(i).copied().unwrap_or(u32::MAX);
        match self.negations.get(k as usize) {
            Some(list) => &list[list.partition_point(|&n| n <= i)..],
            None => &[],
        }
    }

    /// The first bare rule of `group` that names `tool` (for deny: the rule that removes it).
    pub(super) fn first_bare(&self, policy: &Policy, group: Action, tool: &str) -> Option<usize> {
        let g = &self.groups[slot(group)];
        let exact = g.bare.get(tool).copied();
        let wide = g
            .wide
            .iter()
            .copied()
            .find(|&i| policy.rules[i].rule.tool.names(tool));
        match (exact, wide) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Rules of `group` naming `tool` exactly (bare, parameter, unkeyed patterns…), plus the
    /// MCP-server and glob selectors.
    pub(super) fn tool_rules(&self, group: Action, tool: &str, out: &mut Vec<usize>) {
        let g = &self.groups[slot(group)];
        if let Some(list) = g.tools.get(tool) {
            out.extend_from_slice(list);
        }
        out.extend_from_slice(&g.wide);
    }

    /// `Bash(…)` rules of `group` that fix `text`'s first word.
    pub(super) fn bash_rules(&self, group: Action, text: &str, out: &mut Vec<usize>) {
        if let Some(list) = self.groups[slot(group)].bash_words.get(first_word(text)) {
            out.extend_from_slice(list);
        }
    }

    /// Path rules of `group` that could match the absolute path `abs`.
    pub(super) fn path_rules(&self, group: Action, abs: &str, out: &mut Vec<usize>) {
        for (p, dir) in self.groups[slot(group)].paths.iter().zip(&self.anchors) {
            if p.is_empty() {
                continue;
            }
            // A rule matches only paths inside its anchor, and only by their part below it.
            match path::relative_to(abs, dir) {
                Some(rel) if !rel.is_empty() => p.lookup(rel, out),
                _ => {}
            }
        }
    }
}

/// The slot of [`Index::anchors`] a path rule of `scope` anchored at `anchor` uses.
fn anchor_slot(anchor: Anchor, scope: Scope) -> usize {
    match anchor {
        Anchor::Root => 0,
        Anchor::Home => 1,
        Anchor::Cwd => 2,
        Anchor::Source if scope == Scope::User => 3,
        Anchor::Source => 4,
    }
}

impl PathIndex {
    fn is_empty(&self) -> bool {
        self.loose.is_empty()
            && self.exact.is_empty()
            && self.ext.is_empty()
            && self.prefix.is_empty()
    }

    /// The rules whose key some segment of `rel` meets, and the rules without a key.
    fn lookup(&self, rel: &str, out: &mut Vec<usize>) {
        let p = self;
        out.extend_from_slice(&p.loose);
        let mut add = |b: &Buckets, k: &str| {
            if let Some(list) = b.get(k) {
                out.extend_from_slice(list);
            }
        };
        for seg in rel.split('/').filter(|s| !s.is_empty()) {
            if !p.exact.is_empty() {
                add(&p.exact, seg);
            }
            if !p.ext.is_empty() {
                if let Some(e) = extension(seg) {
                    add(&p.ext, e);
                }
            }
            if p.prefix_lens != 0 {
                for (n, (k, c)) in seg.char_indices().take(PREFIX_KEY_CHARS).enumerate() {
                    if p.prefix_lens & (1 << (n + 1)) != 0 {
                        add(&p.prefix, &seg[..k + c.len_utf8()]);
                    }
                }
            }
        }
    }
}

impl Group {
    fn add(&mut self, i: usize, r: &PolicyRule) {
        let ToolSelector::Exact(name) = &r.rule.tool else {
            self.wide.push(i);
            return;
        };
        match &r.rule.spec {
            Specifier::Bare => {
                self.bare.entry(name.clone()).or_insert(i);
            }
            Specifier::Path(p) => {
                self.paths[anchor_slot(p.anchor, r.scope)].add(i, p.key());
                return;
            }
            Specifier::Command(p) if name == "Bash" => {
                if let Some(word) = p.word_key() {
                    self.bash_words.entry(word.to_string()).or_default().push(i);
                    return;
                }
            }
            _ => {}
        }
        self.tools.entry(name.clone()).or_default().push(i);
    }
}

impl PathIndex {
    fn add(&mut self, i: usize, key: Option<SegKey>) {
        let (buckets, k) = match key {
            None => {
                self.loose.push(i);
                return;
            }
            Some(SegKey::Exact(k)) => (&mut self.exact, k),
            Some(SegKey::Ext(k)) => (&mut self.ext, k),
            Some(SegKey::Prefix(k)) => {
                self.prefix_lens |= 1 << k.chars().count();
                (&mut self.prefix, k)
            }
        };
        buckets.entry(k).or_default().push(i);
    }
}

/// Broad allow rules auto mode drops on entry (§5 step 7).
pub(super) fn dropped_in_auto(r: &PolicyRule) -> bool {
    let ToolSelector::Exact(name) = &r.rule.tool else {
        return false;
    };
    match (name.as_str(), &r.rule.spec) {
        ("Bash" | "PowerShell", Specifier::Bare) => true,
        ("Agent" | "Monitor", _) => true,
        ("Bash", Specifier::Command(p)) => {
            const INTERPRETERS: [&str; 12] = [
                "python", "python3", "node", "ruby", "perl", "bash", "sh", "zsh", "deno", "bun",
                "php", "lua",
            ];
            const RUNNERS: [&str; 8] = [
                "npm run",
                "pnpm run",
                "yarn run",
                "bun run",
                "npx",
                "uv run",
                "pnpm exec",
                "yarn",
            ];
            let text = p.as_str();
            let head = text.trim_end_matches('*').trim_end();
            INTERPRETERS
                .iter()
                .any(|i| head == *i || (text.starts_with(i) && text[i.len()..].starts_with('*')))
                || RUNNERS.iter().any(|r| text == format!("{r} *"))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claude_code::path::PathPattern;
    use proptest::prelude::*;

    /// Whether some segment of `path` meets `key` (what [`Index::path_rules`] looks up).
    fn key_holds(key: &SegKey, path: &str) -> bool {
        path.split('/').any(|seg| match key {
            SegKey::Exact(k) => seg == k,
            SegKey::Ext(k) => extension(seg) == Some(k.as_str()),
            SegKey::Prefix(k) => seg.starts_with(k.as_str()),
        })
    }

    #[test]
    fn keys_of_lesson_patterns() {
        let key = |s: &str| PathPattern::parse(s, true).unwrap().key();
        assert_eq!(key("src/**"), Some(SegKey::Exact("src".into())));
        assert_eq!(key("*.py"), Some(SegKey::Ext("py".into())));
        assert_eq!(key("test_*"), Some(SegKey::Prefix("test_".into())));
        assert_eq!(key("docs/**/*.md"), Some(SegKey::Exact("docs".into())));
        assert_eq!(key("**"), None);
        assert_eq!(key("[ab]*"), None);
        let word = |s: &str| CommandPattern::new(s, false).word_key().map(String::from);
        assert_eq!(word("git push *").as_deref(), Some("git"));
        assert_eq!(word("ls:*").as_deref(), Some("ls"));
        assert_eq!(word("npm run build").as_deref(), Some("npm"));
        assert_eq!(word("make").as_deref(), Some("make"));
        assert_eq!(word("ls*"), None);
        assert_eq!(word("* --help *"), None);
        assert_eq!(CommandPattern::new("gci *", true).word_key(), None);
    }

    fn spec() -> impl Strategy<Value = String> {
        let seg = prop::collection::vec(
            prop::sample::select(vec![
                "a", "b", ".", "*", "?", "[ab]", "[!a]", "x", "\\*", "te", "st_", ".py", "é",
            ]),
            1..4,
        )
        .prop_map(|t| t.concat());
        (
            prop::sample::select(vec!["", "./", "!", "//", "~/", "/"]),
            prop::collection::vec(prop_oneof![4 => seg, 1 => Just("**".to_string())], 1..4),
            any::<bool>(),
        )
            .prop_map(|(anchor, segs, dir)| {
                format!("{anchor}{}{}", segs.join("/"), if dir { "/" } else { "" })
            })
    }

    fn rel_path() -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop::sample::select(vec![
                "a", "b", "ab", ".a", "x", "*", "aa.b", "test_a", "x.py", "é.py", "st_", "te",
            ]),
            1..5,
        )
        .prop_map(|s| s.join("/"))
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

        /// The index never hides a rule that matches: every path a pattern matches (directly,
        /// through an ancestor or as a directory root) meets the pattern's key.
        #[test]
        fn path_keys_are_necessary(spec in spec(), rel in rel_path(), deny in any::<bool>(), is_dir in any::<bool>()) {
            let Ok(p) = PathPattern::parse(&spec, deny) else { return Ok(()) };
            if let (Some(key), Some(_)) = (p.key(), p.matches_relative(&rel, is_dir)) {
                prop_assert!(key_holds(&key, &rel), "{} {} {:?}", spec, rel, key);
            }
        }

        /// Every text a command pattern matches starts with the pattern's word key.
        #[test]
        fn word_keys_are_necessary(
            pat in "[a-c *:]{0,8}",
            fill in "[a-c ]{0,4}",
            drop_tail in any::<bool>(),
        ) {
            // Texts made from the pattern, so that most of them match.
            let text = pat.replace(":*", " *").replace('*', &fill);
            let text = match text.strip_suffix(&format!(" {fill}")) {
                Some(t) if drop_tail => t.to_string(),
                _ => text,
            };
            let p = CommandPattern::new(&pat, false);
            if let (Some(key), true) = (p.word_key(), p.matches(&text)) {
                prop_assert_eq!(key, first_word(&text), "{} {}", pat, text);
            }
        }
    }
}
