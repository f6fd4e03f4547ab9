//! The learner's state as the host page stores it ([`Saved`]: what `handle.state()` gives and
//! `handle.restore()` takes), e.g. an LMS's suspend data. Its `state` is the widget's stored
//! item (see [`super::store`]), so what a host keeps is exactly what a reload keeps.

use serde::{Deserialize, Serialize};

use super::store::{self, Problem};
use super::{fingerprint, Snapshot};

/// `format` of a [`Saved`] value.
pub const FORMAT: &str = "permlab-state";

/// What `restore` says about a value that is not a saved state (English: the host's developer
/// reads it in the console).
pub const NOT_A_STATE: &str = "permlab: restore() expects the value handle.state() returned: \
     {format: \"permlab-state\", version, widget, state}";

/// A widget's state for the host to keep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Saved {
    /// Always [`FORMAT`].
    pub format: String,
    /// The stored item's format version ([`store::VERSION`]).
    pub version: u32,
    /// The widget it was saved from (its placeholder's id).
    pub widget: String,
    /// The stored item's text.
    pub state: String,
}

impl Saved {
    /// The state of widget `ns`, whose stored item is `text`.
    pub fn new(ns: &str, text: String) -> Saved {
        Saved {
            format: FORMAT.into(),
            version: store::VERSION,
            widget: ns.into(),
            state: text,
        }
    }

    /// The stored item for widget `ns` showing `lesson` (the same widget, or another
    /// placeholder with the same lesson), or why it cannot be used.
    ///
    /// ```
    /// use permlab_widget::persist::saved::Saved;
    /// use permlab_widget::persist::store::encode;
    /// let saved = Saved::new("a3", encode("a3", &[("p", "git".to_string())]));
    /// let text = saved.for_widget("b7", None).unwrap();
    /// assert!(text.starts_with("permlab-state 1 b7\n"));
    /// assert!(Saved::new("a3", "junk".into()).for_widget("a3", None).is_err());
    /// ```
    pub fn for_widget(&self, ns: &str, lesson: Option<&str>) -> Result<String, String> {
        if self.format != FORMAT {
            return Err(NOT_A_STATE.into());
        }
        if self.version != store::VERSION {
            return Err(format!(
                "permlab: this state was saved by another version of the widget (format {}, this one reads {})",
                self.version,
                store::VERSION
            ));
        }
        let entries = store::decode(&self.state, &self.widget).map_err(|p| match p {
            Problem::TooLong(n) => format!("permlab: the saved state is too long ({n} bytes)"),
            _ => "permlab: the saved state is damaged (edited or cut short)".to_string(),
        })?;
        let made_with = Snapshot::from_entries(&entries).lesson;
        if made_with.is_some() && made_with != lesson.map(fingerprint) {
            return Err("permlab: this state was saved with another lesson".into());
        }
        Ok(store::encode(ns, &entries))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_saved_with_one_lesson_is_refused_by_another() {
        let text = store::encode("a3", &[("lf".to_string(), fingerprint("{\"a\": 1}"))]);
        let saved = Saved::new("a3", text);
        assert!(saved.for_widget("a3", Some("{\"a\": 1}")).is_ok());
        let e = saved.for_widget("a3", Some("{\"a\": 2}")).unwrap_err();
        assert!(e.contains("another lesson"), "{e}");
    }

    #[test]
    fn another_format_or_version_is_refused_with_what_to_give() {
        let mut s = Saved::new("a3", store::encode::<&str>("a3", &[]));
        s.format = "x".into();
        assert_eq!(s.for_widget("a3", None).unwrap_err(), NOT_A_STATE);
        s.format = FORMAT.into();
        s.version = 9;
        assert!(s
            .for_widget("a3", None)
            .unwrap_err()
            .contains("another version"));
    }
}
