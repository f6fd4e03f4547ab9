//! A scene's text fields, kept as typed across a reload, in the scene's own
//! `sessionStorage` item ([`crate::persist::store::scene_key`]: the page and the placeholder's id, or
//! `scene-<slug>` without one).
//!
//! How a scene uses it: right after making its model signal, one call per text field,
//!
//! ```ignore
//! let model = RwSignal::new(init);
//! keep::text(model, "command", |m| m.command.clone(), Timeline::set_command);
//! ```
//!
//! `name` is the field's key in the item (stable across versions: renaming it loses what
//! learners typed) and its name in a note. The stored text, if any, is given to `set` before
//! the scene's view reads the model (so the field shows it, with whatever message the scene
//! gives that text); after that every change of `get`'s text is stored. A text over
//! [`crate::persist::store::FIELD_LIMIT`] stays in the field but is not stored, and the scene's frame
//! says so; an unreadable item is ignored with a note. Natively (the scenes' unit tests) there
//! is no store in context and `text` does nothing.
//!
//! A scene's choices (a stage, a mode, the guesses made) are kept the same way, as one field
//! written by [`Kept`] and read by [`Read`] ([`choices`]): the scene's model says what it
//! keeps (`kept`) and takes it back (`restore`), both plain methods tested natively.

use leptos::prelude::*;

use crate::persist::store::{self, Field, Note};

/// The store of the scene being mounted (provided by [`super::host::mount`]).
#[derive(Clone)]
pub struct SceneStore {
    /// The `sessionStorage` key.
    pub key: String,
    /// The item's owner (the placeholder's id).
    pub ns: String,
    /// What the scene's frame shows about the store.
    pub notes: RwSignal<Vec<Note>>,
}

impl SceneStore {
    /// The stored entries; an unreadable item is noted (once) and read as empty.
    fn entries(&self) -> Vec<(String, String)> {
        let Some(text) = crate::browser::web::session_get(&self.key) else {
            return Vec::new();
        };
        match store::decode(&text, &self.ns) {
            Ok(e) => e,
            Err(p) => {
                let note = Note::Ignored(p);
                if !self.notes.with_untracked(|n| n.contains(&note)) {
                    self.notes.update(|n| n.push(note));
                }
                Vec::new()
            }
        }
    }

    /// Stores `text` as the field `name` (or drops it when it is over the limit, with a note).
    fn put(&self, name: &str, text: &str) {
        let over = text.len() > store::FIELD_LIMIT;
        let field = Field::Scene(name.to_string());
        let mut entries: Vec<(String, String)> = self
            .entries()
            .into_iter()
            .filter(|(k, _)| k != name)
            .collect();
        if !over {
            entries.push((name.to_string(), text.to_string()));
        }
        let ok = crate::browser::web::session_set(&self.key, &store::encode(&self.ns, &entries));
        self.notes.update(|n| {
            n.retain(|x| !matches!(x, Note::NotKept(f, _) if *f == field));
            if over {
                n.push(Note::NotKept(field.clone(), text.len()));
            }
            let refused = n.contains(&Note::StorageRefused);
            if !ok && !refused {
                n.push(Note::StorageRefused);
            } else if ok && refused {
                n.retain(|x| *x != Note::StorageRefused);
            }
        });
    }
}

/// Keeps the scene's text field `name` (see the module's doc).
pub fn text<M: Send + Sync + 'static>(
    model: RwSignal<M>,
    name: &'static str,
    get: impl Fn(&M) -> String + 'static,
    set: impl Fn(&mut M, String) + 'static,
) {
    let Some(store) = use_context::<SceneStore>() else {
        return;
    };
    if let Some((_, v)) = store.entries().into_iter().find(|(k, _)| k == name) {
        model.update(|m| set(m, v));
    }
    Effect::new(move |before: Option<String>| {
        let now = model.with(&get);
        if before.as_ref().is_some_and(|b| *b != now) {
            store.put(name, &now);
        }
        now
    });
}

/// A scene's choices as one stored text: `key=value` pairs, one per line. Values are slugs,
/// numbers and flags (never a newline), so no escaping is needed.
///
/// ```
/// use permlab_widget::scenes::keep::{Kept, Read};
/// let text = Kept::default().put("stage", 3).flag("sandbox", true).text();
/// let r = Read::new(&text);
/// assert_eq!(r.number("stage"), Some(3));
/// assert_eq!(r.flag("sandbox"), Some(true));
/// assert_eq!(r.get("mode"), None);
/// ```
#[derive(Default)]
pub struct Kept(Vec<(&'static str, String)>);

impl Kept {
    /// Adds `key=value`.
    pub fn put(mut self, key: &'static str, value: impl ToString) -> Kept {
        self.0.push((key, value.to_string()));
        self
    }

    /// Adds a list of words, one per place (`-` for an empty one): what was done with each
    /// call, say. A word never holds a comma.
    pub fn list<'w>(
        self,
        key: &'static str,
        words: impl IntoIterator<Item = Option<&'w str>>,
    ) -> Kept {
        let text = words
            .into_iter()
            .map(|w| w.unwrap_or("-"))
            .collect::<Vec<_>>()
            .join(",");
        self.put(key, text)
    }

    /// Adds a flag (`1` or `0`).
    pub fn flag(self, key: &'static str, on: bool) -> Kept {
        self.put(key, if on { "1" } else { "0" })
    }

    /// The stored text.
    pub fn text(&self) -> String {
        self.0
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Stored choices, read back; a key that is missing or unreadable is `None` (the scene keeps
/// its own value: a text from another version is never an error).
pub struct Read<'a>(Vec<(&'a str, &'a str)>);

impl<'a> Read<'a> {
    /// Reads `text` (lines that are not `key=value` are skipped).
    pub fn new(text: &'a str) -> Read<'a> {
        Read(text.lines().filter_map(|l| l.split_once('=')).collect())
    }

    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&'a str> {
        self.0.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    /// A number.
    pub fn number(&self, key: &str) -> Option<usize> {
        self.get(key)?.parse().ok()
    }

    /// A list written by [`Kept::list`], each word read by `word` (`None` for `-` or a word it
    /// does not know); `None` when the key is missing or the list is not `len` long.
    ///
    /// ```
    /// use permlab_widget::scenes::keep::{Kept, Read};
    /// let text = Kept::default().list("picks", [Some("ask"), None]).text();
    /// let r = Read::new(&text);
    /// let word = |w: &str| (w == "ask").then_some(1);
    /// assert_eq!(r.list("picks", 2, word), Some(vec![Some(1), None]));
    /// assert_eq!(r.list("picks", 3, word), None);
    /// ```
    pub fn list<T>(
        &self,
        key: &str,
        len: usize,
        word: impl Fn(&str) -> Option<T>,
    ) -> Option<Vec<Option<T>>> {
        let v: Vec<Option<T>> = self.get(key)?.split(',').map(word).collect();
        (v.len() == len).then_some(v)
    }

    /// A flag.
    pub fn flag(&self, key: &str) -> Option<bool> {
        match self.get(key)? {
            "1" => Some(true),
            "0" => Some(false),
            _ => None,
        }
    }
}

/// Keeps a scene's choices across a reload as the field `name`: `kept` writes them (see
/// [`Kept`]), `restore` takes them back before the view first reads the model.
pub fn choices<M: Send + Sync + 'static>(
    model: RwSignal<M>,
    name: &'static str,
    kept: impl Fn(&M) -> String + 'static,
    restore: impl Fn(&mut M, &Read) + 'static,
) {
    text(model, name, kept, move |m, t| restore(m, &Read::new(&t)));
}
