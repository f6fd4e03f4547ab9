//! A few dozen lines of HTML writing: every dynamic string goes through [`H::t`] or [`H::a`],
//! which escape it, so a rule pattern like `<img src=x onerror=…>` is shown, never parsed.
//!
//! Why strings and not a view framework: the widget's views are small and change in whole
//! regions, and a framework's per-node machinery cost more download than the four engines it
//! presents (Leptos took ~40 % of the wasm). One escaping point is also easier to audit.
//!
//! ```
//! use permlab_widget::html::H;
//! let mut h = H::default();
//! h.open("code").a("title", "\"x\"").gt().t("<b>&</b>").close("code");
//! assert_eq!(h.s, "<code title=\"&quot;x&quot;\">&lt;b&gt;&amp;&lt;/b&gt;</code>");
//! ```

/// An HTML string being written.
#[derive(Default)]
pub struct H {
    /// The markup so far.
    pub s: String,
}

/// Appends `text` to `out` with `& < > " '` escaped (safe in text and in quoted attributes).
pub fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

impl H {
    /// `<tag` — follow with attributes and [`H::gt`].
    pub fn open(&mut self, tag: &str) -> &mut Self {
        self.s.push('<');
        self.s.push_str(tag);
        self
    }

    /// ` name="value"` (value escaped).
    pub fn a(&mut self, name: &str, value: &str) -> &mut Self {
        self.s.push(' ');
        self.s.push_str(name);
        self.s.push_str("=\"");
        escape_into(&mut self.s, value);
        self.s.push('"');
        self
    }

    /// ` name="value"` when `value` is `Some`.
    pub fn a_opt(&mut self, name: &str, value: Option<&str>) -> &mut Self {
        if let Some(v) = value {
            self.a(name, v);
        }
        self
    }

    /// A boolean attribute (` disabled`) when `on`.
    pub fn flag(&mut self, name: &str, on: bool) -> &mut Self {
        if on {
            self.s.push(' ');
            self.s.push_str(name);
        }
        self
    }

    /// ` name="true"` or `"false"` (ARIA states).
    pub fn aria(&mut self, name: &str, on: bool) -> &mut Self {
        self.a(name, if on { "true" } else { "false" })
    }

    /// Closes the start tag.
    pub fn gt(&mut self) -> &mut Self {
        self.s.push('>');
        self
    }

    /// `<tag class="class">` — the common case.
    pub fn tag(&mut self, tag: &str, class: &str) -> &mut Self {
        self.open(tag).a("class", class).gt()
    }

    /// Escaped text.
    pub fn t(&mut self, text: &str) -> &mut Self {
        escape_into(&mut self.s, text);
        self
    }

    /// A number as text.
    pub fn n(&mut self, n: usize) -> &mut Self {
        self.s.push_str(&n.to_string());
        self
    }

    /// Markup written by this crate (never user text).
    pub fn raw(&mut self, markup: &str) -> &mut Self {
        self.s.push_str(markup);
        self
    }

    /// `</tag>`.
    pub fn close(&mut self, tag: &str) -> &mut Self {
        self.s.push_str("</");
        self.s.push_str(tag);
        self.s.push('>');
        self
    }

    /// `<tag class="class">text</tag>`.
    pub fn leaf(&mut self, tag: &str, class: &str, text: &str) -> &mut Self {
        self.tag(tag, class).t(text).close(tag)
    }

    /// A `<button type="button">` with a class, an action (`data-act`), its argument
    /// (`data-arg`) and a focus key (`data-k`, so focus survives a re-render); follow with more
    /// attributes, [`H::gt`], the label and `close("button")`.
    pub fn button(&mut self, class: &str, act: &str, arg: &str) -> &mut Self {
        self.open("button")
            .a("type", "button")
            .a("class", class)
            .a("data-act", act);
        if !arg.is_empty() {
            self.a("data-arg", arg);
        }
        self.s.push_str(" data-k=\"");
        self.s.push_str(act);
        self.s.push('-');
        escape_into(&mut self.s, arg);
        self.s.push('"');
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_text_and_attributes_are_escaped() {
        let mut h = H::default();
        h.open("td")
            .a("title", "\" onmouseover=\"alert(1)")
            .gt()
            .t("<script>alert('x')</script>")
            .close("td");
        assert_eq!(
            h.s,
            "<td title=\"&quot; onmouseover=&quot;alert(1)\">&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;</td>"
        );
    }

    #[test]
    fn buttons_carry_action_argument_and_focus_key() {
        let mut h = H::default();
        h.button("pl-up", "up", "8")
            .flag("disabled", true)
            .gt()
            .t("↑")
            .close("button");
        assert_eq!(
            h.s,
            "<button type=\"button\" class=\"pl-up\" data-act=\"up\" data-arg=\"8\" data-k=\"up-8\" disabled>↑</button>"
        );
    }
}
