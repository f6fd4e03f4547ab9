//! Sentences that quote code: the core and the wordings mark a rule, a tool or a command with
//! backticks (as the CLI prints them); the page shows those parts as `<code>`, never the raw
//! backticks.

/// The parts of `text`: `(true, s)` for a part between backticks, `(false, s)` for plain text.
/// An unpaired backtick stays as it is.
///
/// ```
/// use permlab_widget::text::spans::code_spans;
/// assert_eq!(
///     code_spans("`read` is not `bash`"),
///     [(true, "read"), (false, " is not "), (true, "bash")]
/// );
/// assert_eq!(code_spans("a ` alone"), [(false, "a ` alone")]);
/// ```
pub fn code_spans(text: &str) -> Vec<(bool, &str)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('`') {
        let Some(len) = rest[open + 1..].find('`') else {
            break;
        };
        if open > 0 {
            out.push((false, &rest[..open]));
        }
        let code = &rest[open + 1..open + 1 + len];
        if !code.is_empty() {
            out.push((true, code));
        }
        rest = &rest[open + 2 + len..];
    }
    if !rest.is_empty() {
        out.push((false, rest));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::code_spans;

    #[test]
    fn plain_text_is_one_part_and_code_keeps_its_spaces() {
        assert_eq!(code_spans("no code"), [(false, "no code")]);
        assert_eq!(
            code_spans("结尾的 `*` 粘在 `git push` 上"),
            [
                (false, "结尾的 "),
                (true, "*"),
                (false, " 粘在 "),
                (true, "git push"),
                (false, " 上")
            ]
        );
        assert_eq!(code_spans(""), Vec::<(bool, &str)>::new());
    }
}
