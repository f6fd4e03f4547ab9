//! A lesson's texts: one language or both.

/// A text in one language or both.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Text {
    /// Chinese.
    pub zh: Option<String>,
    /// English.
    pub en: Option<String>,
}

impl Text {
    /// The text in `lang` (`zh`/`en`), else the other one.
    pub fn get(&self, lang: &str) -> &str {
        let (a, b) = if lang == "en" {
            (&self.en, &self.zh)
        } else {
            (&self.zh, &self.en)
        };
        a.as_deref().or(b.as_deref()).unwrap_or("")
    }
}
