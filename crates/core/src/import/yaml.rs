//! Just enough YAML to read an OpenCode agent's front matter: block maps of scalars (quoted or
//! plain keys and values), `#` comments, one-line flow maps `{ "*": deny }`, block lists of
//! scalars, and `|`/`>` block scalars (skipped over as text). Anything else is an error naming
//! the line, never a guess.
//!
//! ```
//! use permlab_core::import::yaml::front_matter;
//! let v = front_matter("---\ndescription: >-\n  reviews\npermission:\n  edit: deny # no edits\n  bash:\n    \"*\": deny\n    'git log*': allow\n  task: { \"*\": deny }\n---\nbody").unwrap();
//! assert_eq!(v.get("permission").unwrap().to_json(), r#"{"edit":"deny","bash":{"*":"deny","git log*":"allow"},"task":{"*":"deny"}}"#);
//! ```

use crate::error::{Error, ErrorKind, Problem};
use crate::json::Value;

/// Nesting deeper than this is refused (front matter is a few levels deep: the corpus's
/// deepest is 3).
pub const MAX_DEPTH: usize = 32;

/// A front matter longer than this (in bytes, up to its closing `---`) is refused: 1 MiB,
/// hundreds of times the corpus's largest (under 2 KB).
pub const MAX_BYTES: usize = 1 << 20;

struct Line<'a> {
    no: usize,
    indent: usize,
    text: &'a str,
}

fn err(line: usize, message: impl Into<String>) -> Error {
    Error::new(ErrorKind::Config(format!(
        "front matter line {line}: {}",
        message.into()
    )))
}

/// The front matter of a markdown file (between the first two `---` lines) as a JSON value
/// (an object in written order).
pub fn front_matter(text: &str) -> Result<Value, Error> {
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, l)) if l.trim_end() == "---" => {}
        _ => return Err(err(1, "a front matter starts with a `---` line")),
    }
    let mut body = Vec::new();
    let mut closed = false;
    let mut bytes = 0usize;
    for (i, l) in lines {
        if l.trim_end() == "---" {
            closed = true;
            break;
        }
        bytes += l.len() + 1;
        if bytes > MAX_BYTES {
            return Err(err(
                i + 1,
                format!("the front matter is longer than {MAX_BYTES} bytes (import::yaml::MAX_BYTES): is its closing `---` line missing?"),
            ));
        }
        body.push((i + 1, l));
    }
    if !closed {
        return Err(err(
            body.len() + 1,
            "the front matter never ends: close it with a `---` line",
        ));
    }
    parse(&body)
}

/// Parses YAML lines `(line number, text)` as a block map.
pub fn parse(raw: &[(usize, &str)]) -> Result<Value, Error> {
    let mut lines = Vec::new();
    let mut k = 0;
    while k < raw.len() {
        let (no, l) = raw[k];
        k += 1;
        if l.contains('\t') && l.trim_start().len() != l.len() && l.starts_with('\t') {
            return Err(err(no, "tabs cannot indent YAML: use spaces"));
        }
        let text = strip_comment(l).trim_end();
        if text.trim().is_empty() {
            continue;
        }
        let indent = text.len() - text.trim_start().len();
        let text = text.trim_start();
        // A block scalar: its more-indented lines are text, not structure.
        if let Some((_, v)) = split_key(text) {
            if v.starts_with('|') || v.starts_with('>') {
                lines.push(Line { no, indent, text });
                while k < raw.len() {
                    let (_, next) = raw[k];
                    let ni = next.len() - next.trim_start().len();
                    if next.trim().is_empty() || ni > indent {
                        k += 1;
                    } else {
                        break;
                    }
                }
                continue;
            }
        }
        lines.push(Line { no, indent, text });
    }
    if lines.is_empty() {
        return Ok(Value::Object(Vec::new()));
    }
    let mut i = 0;
    let indent = lines[0].indent;
    let v = block(&lines, &mut i, indent, 0)?;
    if let Some(l) = lines.get(i) {
        return Err(err(l.no, "this line is indented less than the first key"));
    }
    Ok(v)
}

fn block(lines: &[Line], i: &mut usize, indent: usize, depth: usize) -> Result<Value, Error> {
    if depth > MAX_DEPTH {
        return Err(err(
            lines[*i].no,
            format!("nested too deeply: more than {MAX_DEPTH} levels (import::yaml::MAX_DEPTH); a permission front matter needs three, flatten it"),
        ));
    }
    if lines[*i].text.starts_with("- ") || lines[*i].text == "-" {
        let mut items = Vec::new();
        while let Some(l) = lines.get(*i) {
            if l.indent != indent || !(l.text.starts_with("- ") || l.text == "-") {
                break;
            }
            let item = l.text[1..].trim();
            if split_key(item).is_some() {
                // A list of maps: read its lines as one map (enough to report it, not to use it).
                *i += 1;
                let mut entries = Vec::new();
                if let Some((k, v)) = split_key(item) {
                    entries.push((unquote(k, l.no)?, scalar(v, l.no)?));
                }
                while let Some(m) = lines.get(*i) {
                    if m.indent <= indent {
                        break;
                    }
                    if let Some((k, v)) = split_key(m.text) {
                        entries.push((unquote(k, m.no)?, scalar(v, m.no)?));
                    }
                    *i += 1;
                }
                items.push(Value::Object(entries));
                continue;
            }
            items.push(scalar(item, l.no)?);
            *i += 1;
        }
        return Ok(Value::Array(items));
    }
    let mut entries: Vec<(String, Value)> = Vec::new();
    while let Some(l) = lines.get(*i) {
        if l.indent < indent {
            break;
        }
        if l.indent > indent {
            return Err(err(l.no, "unexpected indentation"));
        }
        let Some((k, v)) = split_key(l.text) else {
            return Err(err(
                l.no,
                format!("expected `key: value`, found `{}`", l.text),
            ));
        };
        let key = unquote(k, l.no)?;
        *i += 1;
        let value = if v.is_empty() {
            match lines.get(*i) {
                Some(n) if n.indent > indent => block(lines, i, n.indent, depth + 1)?,
                // A list may sit at the key's own indentation.
                Some(n) if n.indent == indent && n.text.starts_with('-') => {
                    block(lines, i, n.indent, depth + 1)?
                }
                _ => Value::Null,
            }
        } else if v.starts_with('|') || v.starts_with('>') {
            Value::String(String::new())
        } else {
            let value = scalar(v, l.no)?;
            // A plain scalar may continue on more-indented lines (a wrapped `description:`);
            // a continuation that looks like `key: value` is a nesting mistake, reported.
            while let Some(n) = lines.get(*i) {
                if n.indent <= indent {
                    break;
                }
                if split_key(n.text).is_some() || !matches!(value, Value::String(_)) {
                    return Err(err(
                        n.no,
                        format!(
                            "`{}` is indented under a key that already has a value",
                            n.text
                        ),
                    ));
                }
                *i += 1;
            }
            value
        };
        entries.push((key, value));
    }
    Ok(Value::Object(entries))
}

/// Drops a `#` comment (a `#` at the start or after a space, outside quotes).
fn strip_comment(line: &str) -> &str {
    let mut quote = None;
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '#' && prev.is_whitespace() => return &line[..i],
            None => {}
        }
        prev = c;
    }
    line
}

/// `key: rest` → (`key`, `rest`): the first `:` followed by a space or the end, outside quotes.
fn split_key(text: &str) -> Option<(&str, &str)> {
    let mut quote = None;
    for (i, c) in text.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if (c == '"' || c == '\'') && i == 0 => quote = Some(c),
            None if c == ':' => {
                let rest = &text[i + 1..];
                if rest.is_empty() || rest.starts_with(' ') {
                    return Some((text[..i].trim(), rest.trim()));
                }
            }
            None => {}
        }
    }
    None
}

fn unquote(s: &str, no: usize) -> Result<String, Error> {
    let s = s.trim();
    if let Some(inner) = s.strip_prefix('"') {
        let Some(inner) = inner.strip_suffix('"') else {
            return Err(err(no, format!("unclosed quote in `{s}`")));
        };
        let mut out = String::new();
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                match chars.next() {
                    Some('n') => out.push('\n'),
                    Some('t') => out.push('\t'),
                    Some(o) => out.push(o),
                    None => out.push('\\'),
                }
            } else {
                out.push(c);
            }
        }
        return Ok(out);
    }
    if let Some(inner) = s.strip_prefix('\'') {
        let Some(inner) = inner.strip_suffix('\'') else {
            return Err(err(no, format!("unclosed quote in `{s}`")));
        };
        return Ok(inner.replace("''", "'"));
    }
    Ok(s.to_string())
}

/// A scalar, or a one-line flow map / flow list of scalars. Everything stays a string except
/// `true`/`false`/`null` and numbers (so a YAML `deny` and `"deny"` are the same string).
fn scalar(s: &str, no: usize) -> Result<Value, Error> {
    let s = s.trim();
    // `&name` (an anchor) or `*name` (an alias, `<<: *name` a merge): reading one as text
    // would turn `edit: *deny_all` into the string "*deny_all", and an anchored map into a
    // puzzling indentation error. They are refused by name.
    if let Some(c @ ('&' | '*')) = s.chars().next() {
        let what = if c == '&' { "an anchor" } else { "an alias" };
        // As data too (`Problem::YamlReference`), so a page words it in its own language.
        return Err(Error::shape_as(
            "",
            Problem::YamlReference {
                line: no,
                text: s.to_string(),
                alias: c == '*',
            },
            format!(
                "front matter line {no}: `{s}` is {what}: YAML anchors (&name) and aliases (*name) are not read here; write the value out in full"
            ),
        ));
    }
    if let Some(inner) = s.strip_prefix('{') {
        let Some(inner) = inner.strip_suffix('}') else {
            return Err(err(no, "a `{` flow map must close on the same line"));
        };
        let mut entries = Vec::new();
        for part in split_commas(inner) {
            if part.trim().is_empty() {
                continue;
            }
            let Some((k, v)) = split_key(part.trim()).or_else(|| {
                // `{"*":deny}`: a quoted key may be followed by `:` without a space.
                let p = part.trim();
                let q = p.chars().next().filter(|c| *c == '"' || *c == '\'')?;
                let end = p[1..].find(q)? + 1;
                p[end + 1..]
                    .strip_prefix(':')
                    .map(|rest| (&p[..=end], rest.trim()))
            }) else {
                return Err(err(no, format!("expected `key: value` in `{part}`")));
            };
            entries.push((unquote(k, no)?, scalar(v, no)?));
        }
        return Ok(Value::Object(entries));
    }
    if let Some(inner) = s.strip_prefix('[') {
        let Some(inner) = inner.strip_suffix(']') else {
            return Err(err(no, "a `[` flow list must close on the same line"));
        };
        return split_commas(inner)
            .into_iter()
            .filter(|p| !p.trim().is_empty())
            .map(|p| scalar(p, no))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array);
    }
    Ok(match s {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        "null" | "~" => Value::Null,
        _ if s.starts_with('"') || s.starts_with('\'') => Value::String(unquote(s, no)?),
        _ => Value::String(s.to_string()),
    })
}

/// Splits at commas outside quotes (flow collections here are flat).
fn split_commas(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut quote = None;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == ',' => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            None => {}
        }
    }
    out.push(&s[start..]);
    out
}

#[cfg(test)]
mod tests {
    use super::front_matter;

    #[test]
    fn anchors_and_aliases_are_refused_by_name_at_their_line() {
        let anchored = "---\npermission:\n  bash: &strict\n    \"*\": deny\n  edit: *strict\n---\n";
        let e = front_matter(anchored).unwrap_err().to_string();
        assert!(e.contains("front matter line 3"), "{e}");
        assert!(e.contains("`&strict` is an anchor"), "{e}");
        let alias = "---\npermission:\n  edit: *strict\n---\n";
        let e = front_matter(alias).unwrap_err().to_string();
        assert!(e.contains("`*strict` is an alias"), "{e}");
        // A quoted star is a value like any other.
        let quoted = "---\npermission:\n  bash:\n    \"*\": \"deny\"\n---\n";
        assert!(front_matter(quoted).is_ok());
    }
}
