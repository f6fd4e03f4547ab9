//! The import panel's format choice: detected from the pasted text, or chosen. A leaf the
//! protocol shares (an import request carries it).

use permlab_core::import::Format;

/// The import panel's format: detected from the text, or chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatChoice {
    /// Detected from the text ([`detect`]).
    Auto,
    /// This one.
    Is(Format),
}

impl FormatChoice {
    /// Every choice, in the panel's order.
    pub const ALL: [FormatChoice; 4] = [
        FormatChoice::Auto,
        FormatChoice::Is(Format::ClaudeCode),
        FormatChoice::Is(Format::OpenCode),
        FormatChoice::Is(Format::Codex),
    ];

    /// A format's slug, else auto (what the page's select and the kept state write).
    ///
    /// ```
    /// use permlab_widget::model::FormatChoice;
    /// use permlab_core::import::Format;
    /// assert_eq!(FormatChoice::from_slug("codex"), FormatChoice::Is(Format::Codex));
    /// assert_eq!(FormatChoice::from_slug("auto").slug(), "auto");
    /// ```
    pub fn from_slug(slug: &str) -> FormatChoice {
        Format::from_slug(slug).map_or(FormatChoice::Auto, FormatChoice::Is)
    }

    /// `auto` or the format's slug.
    pub fn slug(self) -> &'static str {
        match self {
            FormatChoice::Auto => "auto",
            FormatChoice::Is(f) => f.slug(),
        }
    }

    /// The format `text` is read as.
    pub fn resolve(self, text: &str) -> Format {
        match self {
            FormatChoice::Auto => detect(text),
            FormatChoice::Is(f) => f,
        }
    }
}

/// Whose config `text` is: Codex when it calls `prefix_rule`, Claude Code when it is a JSON
/// object with a top-level `permissions` key, else OpenCode (an `opencode.json(c)` with
/// `permission`, or an agent file's front matter).
fn detect(text: &str) -> Format {
    if text.contains("prefix_rule") {
        return Format::Codex;
    }
    let claude = permlab_core::json::parse_jsonc(text)
        .ok()
        .is_some_and(|v| v.get("permissions").is_some());
    if claude {
        Format::ClaudeCode
    } else {
        Format::OpenCode
    }
}
