//! Where a JSON path (`presets[0].calls[2].tool`) is in a JSON text.

use std::collections::HashMap;

use crate::json;

/// One step of a JSON path.
enum Seg {
    Key(String),
    Index(usize),
}

/// `presets[0].calls[2].tool` → steps. Keys holding `.` or `[` cannot be told apart from steps;
/// such a path is located as far as it can be.
fn segments(path: &str) -> Vec<Seg> {
    let mut out = Vec::new();
    for part in path.split('.') {
        let (key, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if !key.is_empty() {
            out.push(Seg::Key(key.to_string()));
        }
        while let Some(r) = rest.strip_prefix('[') {
            let Some(close) = r.find(']') else { break };
            if let Ok(n) = r[..close].parse() {
                out.push(Seg::Index(n));
            }
            rest = &r[close + 1..];
        }
    }
    out
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// The index just past the string starting at `i` (a `"`), and its raw content.
fn skip_string(b: &[u8], i: usize) -> (usize, &[u8]) {
    let mut j = i + 1;
    while j < b.len() && b[j] != b'"' {
        j += if b[j] == b'\\' { 2 } else { 1 };
    }
    let end = j.min(b.len());
    (end + 1, &b[(i + 1).min(end)..end])
}

/// The index just past the value starting at `i` (iterative: no recursion on deep input).
fn skip_value(b: &[u8], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i = skip_string(b, i).0;
                if depth == 0 {
                    return i;
                }
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                if depth == 0 {
                    return i;
                }
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            b',' | b':' if depth == 0 => return i,
            c if depth == 0 && c.is_ascii_whitespace() => return i,
            _ => {}
        }
        i += 1;
    }
    i
}

/// Where `path` (as in [`Problem::path`]) points in the JSON `text`: the value's first
/// character, or the innermost container found when the last steps are missing.
///
/// For many paths in one text, build a [`Locator`] once: this function indexes the text
/// anew on every call.
///
/// ```
/// let p = permlab_core::json::locate::locate("{\"a\": [1,\n  {\"b\": 2}]}", "a[1].b").unwrap();
/// assert_eq!((p.line, p.column), (2, 9));
/// ```
pub fn locate(text: &str, path: &str) -> Option<json::Position> {
    Locator::new(text).locate(path)
}

/// Bytes per block of the character-count index of a [`Locator`].
const CHAR_BLOCK: usize = 1024;

/// Answers [`locate`] for many paths in one text, in time linear in the text overall: each
/// object's keys and each array's elements are listed once, the first time a path goes
/// through it, and line and column come from an index of the line starts (and of the
/// character counts, per block of [`CHAR_BLOCK`] bytes) instead of a count from the top.
/// `permlab check` locates every wrong answer of a lesson with one `Locator`.
///
/// ```
/// use permlab_core::json::locate::Locator;
/// let text = "{\"calls\": [\n {\"x\": 1},\n {\"x\": 2}]}";
/// let at = Locator::new(text);
/// assert_eq!(at.locate("calls[1].x").map(|p| (p.line, p.column)), Some((3, 8)));
/// assert_eq!(at.locate("calls[0]").map(|p| (p.line, p.column)), Some((2, 2)));
/// ```
pub struct Locator<'t> {
    text: &'t str,
    /// Byte offsets of the `\n`s.
    newlines: Vec<usize>,
    /// Characters before each block of [`CHAR_BLOCK`] bytes.
    chars_before_block: Vec<usize>,
    /// Per object (by the offset of its `{`): its keys (raw bytes; the first of equal ones)
    /// and where their values start, up to the first malformed entry.
    objects: std::cell::RefCell<HashMap<usize, HashMap<&'t [u8], usize>>>,
    /// Per array (by the offset of its `[`): where its elements start, up to the first
    /// malformed one.
    arrays: std::cell::RefCell<HashMap<usize, Vec<usize>>>,
}

impl<'t> Locator<'t> {
    /// Indexes the lines of `text` (containers are listed lazily, on first use).
    pub fn new(text: &'t str) -> Self {
        let b = text.as_bytes();
        let newlines = b
            .iter()
            .enumerate()
            .filter(|(_, &c)| c == b'\n')
            .map(|(i, _)| i)
            .collect();
        let mut chars_before_block = Vec::with_capacity(b.len() / CHAR_BLOCK + 1);
        let mut n = 0;
        for block in b.chunks(CHAR_BLOCK) {
            chars_before_block.push(n);
            n += block.iter().filter(|&&c| c & 0xC0 != 0x80).count();
        }
        chars_before_block.push(n);
        Locator {
            text,
            newlines,
            chars_before_block,
            objects: Default::default(),
            arrays: Default::default(),
        }
    }

    /// Characters in `text[..i]` (`i` on a character boundary).
    fn chars_before(&self, i: usize) -> usize {
        let k = i / CHAR_BLOCK;
        let from = k * CHAR_BLOCK;
        self.chars_before_block[k]
            + self.text.as_bytes()[from..i]
                .iter()
                .filter(|&&c| c & 0xC0 != 0x80)
                .count()
    }

    /// Where `path` points (see [`locate`]).
    pub fn locate(&self, path: &str) -> Option<json::Position> {
        if path.is_empty() || path.starts_with("line ") {
            return None;
        }
        let b = self.text.as_bytes();
        let mut i = skip_ws(b, 0);
        for seg in segments(path) {
            match seg {
                Seg::Key(k) => {
                    if b.get(i) != Some(&b'{') {
                        break;
                    }
                    let mut objects = self.objects.borrow_mut();
                    let keys = objects.entry(i).or_insert_with(|| object_keys(b, i));
                    match keys.get(k.as_bytes()) {
                        Some(&value) => i = value,
                        None => break,
                    }
                }
                Seg::Index(n) => {
                    if b.get(i) != Some(&b'[') {
                        break;
                    }
                    let mut arrays = self.arrays.borrow_mut();
                    let elements = arrays.entry(i).or_insert_with(|| array_elements(b, i));
                    match elements.get(n) {
                        Some(&at) => i = at,
                        None => break,
                    }
                }
            }
        }
        let i = i.min(self.text.len());
        if !self.text.is_char_boundary(i) {
            return None;
        }
        let before = self.newlines.partition_point(|&nl| nl < i);
        let line_start = match before {
            0 => 0,
            k => self.newlines[k - 1] + 1,
        };
        Some(json::Position {
            line: before + 1,
            column: self.chars_before(i) - self.chars_before(line_start) + 1,
            offset: i,
        })
    }
}

/// The keys of the object whose `{` is at `container` (raw, the first of equal ones) and where
/// their values start, up to the first entry that is not `"key": value` followed by `,`.
fn object_keys(b: &[u8], container: usize) -> HashMap<&[u8], usize> {
    let mut keys = HashMap::new();
    let mut i = container + 1;
    loop {
        i = skip_ws(b, i);
        if b.get(i) != Some(&b'"') {
            return keys;
        }
        let (after, raw) = skip_string(b, i);
        i = skip_ws(b, after);
        if b.get(i) != Some(&b':') {
            return keys;
        }
        i = skip_ws(b, i + 1);
        keys.entry(raw).or_insert(i);
        i = skip_ws(b, skip_value(b, i));
        if b.get(i) != Some(&b',') {
            return keys;
        }
        i += 1;
    }
}

/// Where the elements of the array whose `[` is at `container` start, up to the first one
/// not followed by `,` (the first "element" of `[]` is its `]`, as [`locate`] always read it).
fn array_elements(b: &[u8], container: usize) -> Vec<usize> {
    let mut i = skip_ws(b, container + 1);
    let mut elements = vec![i];
    loop {
        i = skip_ws(b, skip_value(b, i));
        if b.get(i) != Some(&b',') {
            return elements;
        }
        i = skip_ws(b, i + 1);
        elements.push(i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The former [`locate`] (a scan from the top per path), the oracle of [`Locator`].
    fn locate_by_scanning(text: &str, path: &str) -> Option<json::Position> {
        if path.is_empty() || path.starts_with("line ") {
            return None;
        }
        let b = text.as_bytes();
        let mut i = skip_ws(b, 0);
        'steps: for seg in segments(path) {
            match seg {
                Seg::Key(k) => {
                    if b.get(i) != Some(&b'{') {
                        break;
                    }
                    let container = i;
                    i += 1;
                    loop {
                        i = skip_ws(b, i);
                        if b.get(i) != Some(&b'"') {
                            i = container;
                            break 'steps;
                        }
                        let (after, raw) = skip_string(b, i);
                        i = skip_ws(b, after);
                        if b.get(i) != Some(&b':') {
                            i = container;
                            break 'steps;
                        }
                        i = skip_ws(b, i + 1);
                        if raw == k.as_bytes() {
                            continue 'steps;
                        }
                        i = skip_ws(b, skip_value(b, i));
                        if b.get(i) != Some(&b',') {
                            i = container;
                            break 'steps;
                        }
                        i += 1;
                    }
                }
                Seg::Index(n) => {
                    if b.get(i) != Some(&b'[') {
                        break;
                    }
                    let container = i;
                    i = skip_ws(b, i + 1);
                    for _ in 0..n {
                        i = skip_ws(b, skip_value(b, i));
                        if b.get(i) != Some(&b',') {
                            i = container;
                            break 'steps;
                        }
                        i = skip_ws(b, i + 1);
                    }
                }
            }
        }
        let i = i.min(text.len());
        let before = text.get(..i)?;
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
        Some(json::Position {
            line,
            column,
            offset: i,
        })
    }

    #[test]
    fn locator_agrees_with_scanning() {
        let texts = [
            "",
            "{",
            "[[[[",
            "{\"a\": [1, {\"b\": \"\\\"\"}]}",
            "\"\\",
            "{\"a\": [1,\n  {\"b\": 2}]}",
            "{\"a\": {\"b\": 1}}",
            "{\"a\": 1, \"a\": 2, \"é\": [\"ü\",\n\"ß\", [], {}]}",
            "{\"x\": [ ], \"y\" 1, \"z\": 2}",
            "{\"p\": [{\"c\": [1, 2,, 3]}, {\"c\": []}]}",
            " \n [ {\"k\":\n\n\"v\"} , 2 ]",
        ];
        let paths = [
            "a",
            "a[0]",
            "a[1]",
            "a[1].b",
            "a[2]",
            "[0]",
            "[1]",
            "[0].k",
            "x.y.z[9]",
            "é[0]",
            "é[1]",
            "é[2]",
            "é[3]",
            "x",
            "x[0]",
            "y",
            "z",
            "p[0].c[2]",
            "p[0].c[3]",
            "p[1].c[0]",
            "line 3",
            "",
        ];
        for text in texts {
            let at = Locator::new(text);
            for path in paths {
                assert_eq!(
                    at.locate(path),
                    locate_by_scanning(text, path),
                    "{text:?} {path}"
                );
            }
        }
        // Every path into the shipped lessons.
        let text = include_str!("../../../../fixtures/lessons/claude-code-settings.json");
        let at = Locator::new(text);
        for p in 0..3 {
            for c in 0..12 {
                for tail in ["", ".tool", ".input", ".expect", ".expect.claude-code"] {
                    let path = format!("presets[{p}].calls[{c}]{tail}");
                    assert_eq!(at.locate(&path), locate_by_scanning(text, &path), "{path}");
                }
            }
        }
    }

    #[test]
    fn locate_survives_odd_input() {
        for path in ["a", "a[3].b", "[0]", "x.y.z[9]"] {
            for text in ["", "{", "[[[[", "{\"a\": [1, {\"b\": \"\\\"\"}]}", "\"\\"] {
                let _ = locate(text, path);
            }
        }
        assert_eq!(locate("{\"a\": {\"b\": 1}}", "a.c").unwrap().column, 7);
    }
}
