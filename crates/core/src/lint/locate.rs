//! Where a value sits in a JSON(C) or front-matter text: line and column for a finding.

/// One step of a path into a JSON document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Seg<'a> {
    Key(&'a str),
}

/// The text with `//` and `/* */` comments blanked out (same length, newlines kept), so that
/// a JSONC file can be walked like JSON.
pub(crate) fn blank_comments(text: &str) -> Vec<u8> {
    let mut b = text.as_bytes().to_vec();
    let mut i = 0;
    let mut in_str = false;
    while i < b.len() {
        let c = b[i];
        if in_str {
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == b'"' {
                in_str = false;
            }
            i += 1;
            continue;
        }
        if c == b'"' {
            in_str = true;
        } else if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                b[i] = b' ';
                i += 1;
            }
            continue;
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                if b[i] != b'\n' {
                    b[i] = b' ';
                }
                i += 1;
            }
            for _ in 0..2 {
                if i < b.len() {
                    b[i] = b' ';
                    i += 1;
                }
            }
            continue;
        }
        i += 1;
    }
    b
}

fn ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

fn string_end(b: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    while j < b.len() && b[j] != b'"' {
        j += if b[j] == b'\\' { 2 } else { 1 };
    }
    (j + 1).min(b.len())
}

fn value_end(b: &[u8], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i = string_end(b, i);
                if depth == 0 {
                    return i;
                }
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                if depth <= 1 {
                    return if depth == 0 { i } else { i + 1 };
                }
                depth -= 1;
            }
            b',' if depth == 0 => return i,
            _ => {}
        }
        i += 1;
    }
    i
}

/// The byte offset of the value (or, for a last [`Seg::Key`], of the key) at `path`; the
/// innermost container found when a step is missing.
pub(crate) fn offset(text: &str, path: &[Seg], at_key: bool) -> usize {
    offset_in(text, &blank_comments(text), path, at_key)
}

/// The byte offset of every element of the array at `path`, in one walk (empty when there is
/// no array there): a file of thousands of rules is walked once, not once per rule.
pub(crate) fn elements(text: &str, path: &[Seg]) -> Vec<usize> {
    let b = blank_comments(text);
    let mut i = offset_in(text, &b, path, false);
    let mut out = Vec::new();
    if b.get(i) != Some(&b'[') {
        return out;
    }
    i = ws(&b, i + 1);
    while i < b.len() && b[i] != b']' {
        out.push(i);
        i = ws(&b, value_end(&b, i));
        if b.get(i) != Some(&b',') {
            break;
        }
        i = ws(&b, i + 1);
    }
    out
}

/// [`offset`] over `text` with its comments already blanked (`b`).
fn offset_in(text: &str, b: &[u8], path: &[Seg], at_key: bool) -> usize {
    let mut i = ws(b, 0);
    for (n, seg) in path.iter().enumerate() {
        let last = n + 1 == path.len();
        match seg {
            Seg::Key(k) => {
                if b.get(i) != Some(&b'{') {
                    return i;
                }
                let container = i;
                i = ws(b, i + 1);
                loop {
                    if b.get(i) != Some(&b'"') {
                        return container;
                    }
                    let key_at = i;
                    let end = string_end(b, i);
                    let raw = &text.as_bytes()[i + 1..end.saturating_sub(1).max(i + 1)];
                    i = ws(b, end);
                    if b.get(i) != Some(&b':') {
                        return container;
                    }
                    i = ws(b, i + 1);
                    if raw == k.as_bytes() {
                        if last && at_key {
                            return key_at;
                        }
                        break;
                    }
                    i = ws(b, value_end(b, i));
                    if b.get(i) != Some(&b',') {
                        return container;
                    }
                    i = ws(b, i + 1);
                }
            }
        }
    }
    i
}

/// The line starts of a text, to place many offsets in it without scanning it from the top
/// for each ([`Lines::line_col`] is a binary search).
pub(crate) struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    pub(crate) fn new(text: &'a str) -> Lines<'a> {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Lines { text, starts }
    }

    /// The same as [`line_col`].
    pub(crate) fn line_col(&self, offset: usize) -> (usize, usize) {
        let mut off = offset.min(self.text.len());
        while !self.text.is_char_boundary(off) {
            off -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= off);
        let start = self.starts[line - 1];
        (line, self.text[start..off].chars().count() + 1)
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut off = offset.min(text.len());
    while !text.is_char_boundary(off) {
        off -= 1;
    }
    let before = &text[..off];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, column)
}

/// The line (1-based) and column of `needle` as a key in a YAML front matter's
/// `permission:` block (`needle:`, `"needle":` or `'needle':`), inside the sub-map `section`
/// when given; the nearest enclosing key found otherwise.
pub(crate) fn yaml_key(text: &str, section: Option<&str>, needle: &str) -> (usize, usize) {
    let starts = |t: &str, k: &str| {
        [format!("\"{k}\":"), format!("'{k}':"), format!("{k}:")]
            .iter()
            .any(|f| t.starts_with(f.as_str()))
    };
    let mut in_perm = false;
    let mut in_section = section.is_none();
    let mut fallback = (1, 1);
    for (no, line) in text.lines().enumerate() {
        let t = line.trim_start();
        let col = line[..line.len() - t.len()].chars().count() + 1;
        if !in_perm {
            if t.starts_with("permission:") {
                in_perm = true;
                fallback = (no + 1, col);
            }
            continue;
        }
        if t == "---" || (col == 1 && !t.is_empty() && !t.starts_with('#')) {
            break;
        }
        match section {
            Some(s) if !in_section => {
                if starts(t, s) {
                    in_section = true;
                    fallback = (no + 1, col);
                }
            }
            _ => {
                if starts(t, needle) {
                    return (no + 1, col);
                }
            }
        }
    }
    fallback
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_keys_and_indices_past_comments() {
        let t = "{\n  // a comment with \"permission\": 1\n  \"permission\": {\"bash\": {\"git *\": \"allow\", \"*\": \"deny\",}},\n  \"x\": [1, \"a\", 3]\n}";
        let o = offset(
            t,
            &[Seg::Key("permission"), Seg::Key("bash"), Seg::Key("*")],
            true,
        );
        assert_eq!(line_col(t, o), (3, 45));
        let o = elements(t, &[Seg::Key("x")])[2];
        assert_eq!(line_col(t, o), (4, 17));
    }

    #[test]
    fn finds_front_matter_keys() {
        let t = "---\ndescription: x\npermission:\n  edit: deny\n  bash:\n    \"*\": ask\n    git status: allow\n---\n";
        assert_eq!(yaml_key(t, Some("bash"), "git status"), (7, 5));
        assert_eq!(yaml_key(t, Some("bash"), "*"), (6, 5));
        assert_eq!(yaml_key(t, None, "edit"), (4, 3));
    }

    #[test]
    fn lines_place_offsets_as_a_scan_from_the_top_does() {
        let text = "{\n  \"a\": [\"x\", /* é */ \"y\",\n   \"z\"]\n}\n";
        let lines = Lines::new(text);
        for off in 0..=text.len() + 3 {
            assert_eq!(lines.line_col(off), line_col(text, off), "{off}");
        }
    }

    #[test]
    fn elements_are_where_offset_finds_each_one() {
        let text = "{\"p\": {\"allow\": [\"A\", // one\n {\"k\": [1, 2]}, \"B\" ]}}";
        let path = [Seg::Key("p"), Seg::Key("allow")];
        let all = elements(text, &path);
        assert_eq!(all.len(), 3);
        let at: Vec<&str> = all.iter().map(|&i| &text[i..i + 3]).collect();
        assert_eq!(at, ["\"A\"", "{\"k", "\"B\""]);
        assert!(elements(text, &[Seg::Key("q")]).is_empty());
    }
}
