//! Where a widget keeps what the learner did: `sessionStorage`, one entry per widget and page.
//!
//! The URL belongs to the host page (its anchors must stay `:target`-able), so the
//! widget writes nothing into it. Its state — the [`Snapshot`]: preset, order, guesses, and
//! every text as typed, valid or not — is one `sessionStorage` item under [`key`] (the page's
//! path and the widget's id, both percent-encoded, so a placeholder id with `"`, `&`, `#`, `<`,
//! spaces or non-ASCII is a key like any other). It is written only after the learner changes
//! something, and read back on a reload in the same tab.
//!
//! The item's text ([`encode`]) is a header line naming the format and the widget, then one
//! record per entry: `<percent-encoded key> <byte length>\n<value as typed>\n`, then `end`. Values are
//! stored verbatim (length-prefixed, not escaped), so a 1 MB paste costs 1 MB, and hostile text
//! (`</textarea>`, RTL overrides, newlines) cannot break the framing. [`decode`] is strict: a
//! hand-edited, truncated, older-format or other widget's item is ignored as a whole with a
//! [`Note`] the widget shows in its language (never half-applied, never a blank widget).
//!
//! Links made by older versions carry the state in the URL hash (`#a3.p=git&a3.t=bash…`):
//! [`start`] still reads them when nothing is stored, up to [`HASH_LIMIT`] bytes — a longer
//! hash (a 1.9 MB import) is not read at all, and a note says so, so a crafted link cannot
//! block the page.

use crate::persist::hash;
use crate::persist::Snapshot;

/// The first word of a stored item's header; the version follows it.
pub const MAGIC: &str = "permlab-state";
/// The last line of an item (a record's line always has a space, this one has none).
const END: &str = "end\n";
/// The format version this build writes and reads.
pub const VERSION: u32 = 1;
/// Past this size (UTF-8 bytes) a field's text is kept for the session but not stored: the
/// widget says so ([`Note::NotKept`]). Browsers give an origin about 5 M UTF-16 units of
/// `sessionStorage`; 2 MB leaves room for the other fields and the other widgets of the page.
pub const FIELD_LIMIT: usize = 2 * 1024 * 1024;
/// An old-format URL hash longer than this is not read (the old widget wrote at most about
/// 50 KB: two 8 000-byte texts, percent-encoded).
pub const HASH_LIMIT: usize = 64 * 1024;
/// A stored item longer than this is not read (the reader's bound; the writer never gets there
/// because each field is at most [`FIELD_LIMIT`] and the browser's quota is smaller).
pub const STORED_LIMIT: usize = 16 * 1024 * 1024;

/// The `sessionStorage` key of the widget `ns` on the page at `path` (`location.pathname`).
///
/// ```
/// use permlab_widget::persist::store::key;
/// assert_eq!(key("/course/a.html", "a3"), "permlab:%2Fcourse%2Fa.html:a3");
/// assert_eq!(key("/", "a\"b&c#d<e f日"), "permlab:%2F:a%22b%26c%23d%3Ce%20f%E6%97%A5");
/// ```
pub fn key(path: &str, ns: &str) -> String {
    format!("permlab:{}:{}", hash::encode(path), hash::encode(ns))
}

/// The `sessionStorage` key of a scene's fields (see [`crate::scenes::keep`]).
pub fn scene_key(path: &str, ns: &str) -> String {
    format!("permlab-scene:{}:{}", hash::encode(path), hash::encode(ns))
}

/// Why a stored item was not used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// It is not this widget's: its header names another one (a copied key, a renamed id).
    Foreign(String),
    /// It was written by another version of the widget.
    Version(String),
    /// It does not have the format: hand-edited or cut off (the byte where reading stopped).
    Corrupt(usize),
    /// It is longer than [`STORED_LIMIT`] (its size in bytes).
    TooLong(usize),
}

/// A text field the widget stores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Field {
    /// The call's tool.
    Tool,
    /// The call's input.
    Input,
    /// The table editor.
    Editor,
    /// The import panel.
    Import,
    /// The applied custom table.
    Custom,
    /// A scene's field, by its label.
    Scene(String),
}

/// Something the learner should know about where their state is kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    /// The stored state could not be used and was ignored.
    Ignored(Problem),
    /// The link's hash is too long to be read (its size in bytes).
    HashTooLong(usize),
    /// A text is kept while the page is open, not across a reload (its size in bytes).
    NotKept(Field, usize),
    /// The browser refused to store the state (quota, private mode, storage disabled).
    StorageRefused,
    /// `count` widgets of the page have the id `id`: each keeps its state under its own key
    /// (this one's is `key`, see [`same_id_ns`]), and the page's author should give them
    /// different ids.
    SameId {
        /// The id they share.
        id: String,
        /// How many widgets have it.
        count: usize,
        /// The namespace this widget keeps its state under.
        key: String,
    },
    /// `count` scenes `scene` of the page have no id (a scene without one keeps its state
    /// under its kind's name): each keeps its state under its own key (this one's is `key`),
    /// and the page's author should give each an id.
    NoId {
        /// The scene's kind (its `data-scene`).
        scene: String,
        /// How many of them have no id.
        count: usize,
        /// The namespace this scene keeps its state under.
        key: String,
    },
}

/// The namespace of the `rank`-th (0-based, in page order) of several widgets with the id
/// `id`: the first keeps the id, so its state is where it always was; each later one gets a
/// key of its own, so two placeholders with one id no longer overwrite each other's state.
///
/// ```
/// use permlab_widget::persist::store::same_id_ns;
/// assert_eq!(same_id_ns("a3", 0), "a3");
/// assert_eq!(same_id_ns("a3", 1), "a3~2");
/// ```
pub fn same_id_ns(id: &str, rank: usize) -> String {
    if rank == 0 {
        id.to_string()
    } else {
        format!("{id}~{}", rank + 1)
    }
}

/// The stored item for the widget `ns`: a header, then one length-prefixed record per entry.
///
/// ```
/// use permlab_widget::persist::store::{encode, decode};
/// let text = encode("a3", &[("t", "bash".into()), ("i", "echo '</textarea>'\n".into())]);
/// assert_eq!(text, "permlab-state 1 a3\nt 4\nbash\ni 19\necho '</textarea>'\n\nend\n");
/// assert_eq!(decode(&text, "a3").unwrap()[1].1, "echo '</textarea>'\n");
/// ```
pub fn encode<K: AsRef<str>>(ns: &str, entries: &[(K, String)]) -> String {
    let size: usize = entries
        .iter()
        .map(|(k, v)| k.as_ref().len() + v.len() + 16)
        .sum();
    let mut out = String::with_capacity(size + 32);
    out.push_str(&format!("{MAGIC} {VERSION} {}\n", hash::encode(ns)));
    for (k, v) in entries {
        out.push_str(&hash::encode(k.as_ref()));
        out.push(' ');
        out.push_str(&v.len().to_string());
        out.push('\n');
        out.push_str(v);
        out.push('\n');
    }
    // The end is marked, so an item cut short is told from a shorter one.
    out.push_str(END);
    out
}

/// Reads an item [`encode`] wrote for the widget `ns`: its entries, or why it cannot be used.
/// Linear in the text; nothing is applied from an item with any fault.
pub fn decode(text: &str, ns: &str) -> Result<Vec<(String, String)>, Problem> {
    if text.len() > STORED_LIMIT {
        return Err(Problem::TooLong(text.len()));
    }
    let (header, mut rest) = text.split_once('\n').ok_or(Problem::Corrupt(0))?;
    let mut words = header.split(' ');
    if words.next() != Some(MAGIC) {
        return Err(Problem::Corrupt(0));
    }
    let version = words.next().unwrap_or_default();
    if version != VERSION.to_string() {
        return Err(Problem::Version(version.chars().take(20).collect()));
    }
    let owner = words
        .next()
        .and_then(hash::decode)
        .ok_or(Problem::Corrupt(0))?;
    if words.next().is_some() {
        return Err(Problem::Corrupt(0));
    }
    if owner != ns {
        return Err(Problem::Foreign(owner.chars().take(80).collect()));
    }
    let mut out = Vec::new();
    while rest != END {
        let at = text.len() - rest.len();
        let bad = Problem::Corrupt(at);
        let (line, after) = rest.split_once('\n').ok_or(bad.clone())?;
        let (k, n) = line.split_once(' ').ok_or(bad.clone())?;
        let k = hash::decode(k).ok_or(bad.clone())?;
        // Digits only (no sign, no `+`), and no more than the text can hold.
        if n.is_empty() || n.len() > 9 || !n.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad);
        }
        let n: usize = n.parse().map_err(|_| bad.clone())?;
        let v = after.get(..n).ok_or(bad.clone())?;
        rest = after[n..].strip_prefix('\n').ok_or(bad)?;
        out.push((k, v.to_string()));
    }
    Ok(out)
}

/// Where a widget starts: the state to restore and what to tell the learner about it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Start {
    /// What to restore (empty: the lesson's start).
    pub snap: Snapshot,
    /// Notes for the learner (an ignored item, a link too long to read).
    pub notes: Vec<Note>,
    /// The state came from an old-format URL hash: the first write removes those entries, so
    /// the host's own fragment is left alone again.
    pub from_hash: bool,
}

/// What the widget `ns` restores: the stored item when there is a usable one, else an
/// old-format URL hash's entries (bounded by [`HASH_LIMIT`]), else nothing.
///
/// ```
/// use permlab_widget::persist::store::{start, encode, Note, Problem};
/// let s = start("a3", "#top&a3.p=git", Some("{\"hand\": \"edited\"}"));
/// assert_eq!(s.notes, [Note::Ignored(Problem::Corrupt(0))]);
/// assert_eq!(s.snap.preset.as_deref(), Some("git"), "the link still works");
/// let stored = encode("a3", &[("p", "aws".into())]);
/// assert_eq!(start("a3", "#a3.p=git", Some(&stored)).snap.preset.as_deref(), Some("aws"));
/// ```
pub fn start(ns: &str, hash: &str, stored: Option<&str>) -> Start {
    let mut notes = Vec::new();
    if let Some(text) = stored {
        match decode(text, ns) {
            Ok(entries) => {
                return Start {
                    snap: Snapshot::from_entries(&entries),
                    notes,
                    from_hash: false,
                }
            }
            Err(p) => notes.push(Note::Ignored(p)),
        }
    }
    let prefix = hash_prefix(ns);
    // One linear pass, nothing decoded: is any entry this widget's?
    let mine = hash
        .trim_start_matches('#')
        .split('&')
        .any(|p| p.starts_with(&prefix));
    if mine && hash.len() > HASH_LIMIT {
        notes.push(Note::HashTooLong(hash.len()));
        return Start {
            notes,
            ..Start::default()
        };
    }
    let entries = if mine {
        hash::read(hash, &hash::encode(ns))
    } else {
        Vec::new()
    };
    Start {
        from_hash: !entries.is_empty(),
        snap: Snapshot::from_entries(&entries),
        notes,
    }
}

/// The prefix of the widget's entries in an old-format hash: its id percent-encoded (an id with
/// `&`, `#` or `=` could not be told from the hash's own separators otherwise).
pub fn hash_prefix(ns: &str) -> String {
    format!("{}.", hash::encode(ns))
}

/// The hash without the widget's old-format entries (the host's own fragment and the other
/// widgets' entries stay in place), or `None` when there is nothing to remove.
///
/// ```
/// use permlab_widget::persist::store::strip_hash;
/// assert_eq!(strip_hash("#broken&a3.p=git&b.o=1", "a3").as_deref(), Some("broken&b.o=1"));
/// assert_eq!(strip_hash("#broken", "a3"), None);
/// ```
pub fn strip_hash(hash: &str, ns: &str) -> Option<String> {
    let prefix = hash_prefix(ns);
    let h = hash.trim_start_matches('#');
    if !h.split('&').any(|p| p.starts_with(&prefix)) {
        return None;
    }
    Some(hash::write(h, &hash::encode(ns), &[]))
}

/// Each text of `fields` longer than [`FIELD_LIMIT`], with its size.
pub fn too_long(fields: &[(Field, &str)]) -> Vec<Note> {
    fields
        .iter()
        .filter(|(_, t)| t.len() > FIELD_LIMIT)
        .map(|(f, t)| Note::NotKept(f.clone(), t.len()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOSTILE: [&str; 12] = [
        "",
        "<img src=x onerror=alert(1)>",
        "</textarea><script>alert(1)</script>",
        "javascript:alert(1)",
        "&amp;&lt;",
        "\u{202e}abc",
        "a\u{200b}b",
        "👩\u{200d}💻🚀",
        "line 1\nline 2\r\n\n",
        "permlab-state 1 a3\nt 4\nbash\nend\n",
        "x 99999999\n",
        "%zz%",
    ];

    #[test]
    fn every_hostile_text_round_trips_under_any_id() {
        for ns in ["a3", "a\"b&c#d<e f日", "x y", "", "permlab-state 1"] {
            let entries: Vec<(String, String)> = HOSTILE
                .iter()
                .enumerate()
                .map(|(i, v)| (format!("k{i} {v}"), v.to_string()))
                .collect();
            let text = encode(ns, &entries);
            assert_eq!(decode(&text, ns), Ok(entries), "{ns:?}");
        }
    }

    #[test]
    fn foreign_older_and_hand_edited_items_are_ignored_whole() {
        let good = encode("a3", &[("t", "bash".into()), ("i", "ls".into())]);
        assert_eq!(decode(&good, "b"), Err(Problem::Foreign("a3".into())));
        assert_eq!(
            decode(&good.replace("state 1", "state 0"), "a3"),
            Err(Problem::Version("0".into()))
        );
        // The hash format (what older versions wrote), JSON, nothing, a truncated item.
        for bad in [
            "a3.p=git&a3.t=bash",
            "{\"p\": \"git\"}",
            "",
            "permlab-state 1",
        ] {
            assert!(
                matches!(decode(bad, "a3"), Err(Problem::Corrupt(_))),
                "{bad:?}"
            );
        }
        for cut in 0..good.len() {
            assert!(decode(&good[..cut], "a3").is_err(), "cut at {cut}");
        }
        assert!(decode(&format!("{good}x"), "a3").is_err(), "trailing text");
        // A length that lies (longer, shorter, signed, huge).
        for lie in [
            "t 5\nbash\n",
            "t 3\nbash\n",
            "t +4\nbash\n",
            "t 99999999999\nb\n",
        ] {
            let text = format!("permlab-state 1 a3\n{lie}end\n");
            assert!(decode(&text, "a3").is_err(), "{lie:?}");
        }
        // A length that splits a character.
        assert!(decode("permlab-state 1 a3\nt 1\n日\nend\n", "a3").is_err());
    }

    #[test]
    fn storage_wins_over_the_hash_and_a_long_hash_is_not_read() {
        let s = start("a3", "#top&a3.p=git&a3.t=bash&a3.i=ls", None);
        assert!(s.from_hash);
        assert_eq!(s.snap.preset.as_deref(), Some("git"));
        assert!(s.notes.is_empty());
        let long = format!("#a3.p=import&a3.f=opencode&a3.m={}", "x".repeat(HASH_LIMIT));
        let s = start("a3", &long, None);
        assert_eq!(s.snap, Snapshot::default());
        assert_eq!(s.notes, [Note::HashTooLong(long.len())]);
        // Another widget's long hash is no business of this one (nor of one whose id ends
        // like it).
        assert_eq!(start("b", &long, None).notes, []);
        assert_eq!(start("3", &long, None).notes, []);
        // The host's own fragment alone: nothing to read, nothing to say.
        assert_eq!(start("a3", "#broken", None), Start::default());
    }

    #[test]
    fn an_id_with_separators_reads_its_own_old_hash() {
        let ns = "a\"b&c#d<e f日";
        let h = hash::write("#top", &hash::encode(ns), &[("p", "git".into())]);
        assert_eq!(start(ns, &h, None).snap.preset.as_deref(), Some("git"));
        assert_eq!(strip_hash(&h, ns).as_deref(), Some("top"));
    }

    #[test]
    fn too_long_names_the_fields_past_the_limit() {
        let big = "x".repeat(FIELD_LIMIT + 1);
        assert_eq!(
            too_long(&[(Field::Tool, "bash"), (Field::Import, &big)]),
            [Note::NotKept(Field::Import, FIELD_LIMIT + 1)]
        );
    }
}
