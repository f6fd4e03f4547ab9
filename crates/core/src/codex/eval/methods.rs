//! Methods of strings, lists and dicts (the sets `dir()` lists in starlark-rust 0.13).

use std::collections::HashSet;
use std::rc::Rc;

use super::super::diag::Span;
use super::interp::{Interp, R};
use super::value::Value;

impl Interp<'_> {
    pub(super) fn attr(&self, obj: Value, name: &str, span: Span) -> R<Value> {
        match method_name(&obj, name) {
            Some(m) => Ok(Value::Method(Rc::new(obj), m)),
            None => Err(self.err(
                span,
                format!(
                    "Object of type `{}` has no attribute `{name}`",
                    obj.type_name()
                ),
            )),
        }
    }

    pub(super) fn method(
        &mut self,
        obj: &Value,
        name: &'static str,
        pos: Vec<Value>,
        named: Vec<(String, Value)>,
        span: Span,
    ) -> R<Value> {
        if name != "format" {
            if let Some((n, _)) = named.first() {
                return Err(self.err(
                    span,
                    format!("Found `{n}` extra named parameter(s) for call to {name}"),
                ));
            }
        }
        let want_str = |me: &Self, i: usize| -> R<Rc<str>> {
            match pos.get(i) {
                Some(Value::Str(s)) => Ok(s.clone()),
                Some(other) => Err(me.err(
                    span,
                    format!("{name}() wants a string, got {}", other.type_name()),
                )),
                None => Err(me.err(span, format!("Missing argument for call to {name}"))),
            }
        };
        const MUTATING: &[&str] = &[
            "append",
            "clear",
            "extend",
            "insert",
            "pop",
            "remove",
            "popitem",
            "setdefault",
            "update",
        ];
        if MUTATING.contains(&name) {
            self.check_mutable(obj, span)?;
        }
        let want_int = |me: &Self, i: usize| -> R<Option<i64>> {
            match pos.get(i) {
                Some(Value::Int(n)) => Ok(Some(*n)),
                None | Some(Value::None) => Ok(None),
                Some(other) => Err(me.err(
                    span,
                    format!("{name}() wants an int, got {}", other.type_name()),
                )),
            }
        };
        // What the method walks: elements it shifts (`insert`, `pop`, `remove`), or its text.
        // Lookups compare keys, and comparisons count themselves (`value::walk`); results
        // are charged where they are built.
        match obj {
            Value::List(l) if matches!(name, "insert" | "pop" | "remove") => {
                self.work(1 + l.borrow().len() / 16, span)?
            }
            Value::Dict(d) if matches!(name, "pop" | "popitem") => {
                self.work(1 + d.borrow().len() / 16, span)?
            }
            Value::Str(s) => {
                self.scan(s.len(), span)?;
                const TEXT: &[&str] = &[
                    "capitalize",
                    "format",
                    "lower",
                    "lstrip",
                    "partition",
                    "removeprefix",
                    "removesuffix",
                    "rpartition",
                    "rstrip",
                    "strip",
                    "title",
                    "upper",
                ];
                if TEXT.contains(&name) {
                    self.alloc(s.len(), span)?;
                }
            }
            _ => {}
        }
        match (obj, name) {
            (Value::List(l), "clear") => {
                l.borrow_mut().clear();
                Ok(Value::None)
            }
            (Value::Dict(d), "clear") => {
                d.borrow_mut().clear();
                Ok(Value::None)
            }
            (Value::List(l), "insert") => {
                let (Some(i), Some(v)) = (want_int(self, 0)?, pos.get(1)) else {
                    return Err(self.err(span, "insert() wants an index and a value"));
                };
                let len = l.borrow().len() as i64;
                let i = if i < 0 { (i + len).max(0) } else { i.min(len) } as usize;
                self.grow_check(len as usize + 1, span)?;
                self.slots(1, span)?;
                l.borrow_mut().insert(i, v.clone());
                Ok(Value::None)
            }
            (Value::List(l), "pop") => {
                let len = l.borrow().len();
                let i = match want_int(self, 0)? {
                    Some(i) => self.list_index(&Value::Int(i), len, span)?,
                    None if len > 0 => len - 1,
                    None => return Err(self.err(span, "pop from empty list")),
                };
                Ok(l.borrow_mut().remove(i))
            }
            (Value::List(l), "remove") => {
                let Some(v) = pos.first() else {
                    return Err(self.err(span, "Missing argument for call to remove"));
                };
                let at = l.borrow().iter().position(|x| x.equals(v));
                match at {
                    Some(i) => {
                        l.borrow_mut().remove(i);
                        Ok(Value::None)
                    }
                    None => Err(self.err(
                        span,
                        format!(
                            "Element '{}' not found in list '{}'",
                            v.to_str(),
                            obj.repr()
                        ),
                    )),
                }
            }
            (Value::Dict(d), "pop") => {
                let Some(k) = pos.first() else {
                    return Err(self.err(span, "Missing argument for call to pop"));
                };
                let at = d.borrow().iter().position(|(k2, _)| k2.equals(k));
                match (at, pos.get(1)) {
                    (Some(i), _) => Ok(d.borrow_mut().remove(i).1),
                    (None, Some(default)) => Ok(default.clone()),
                    (None, None) => {
                        Err(self.err(span, format!("Key `{}` was not found", k.repr())))
                    }
                }
            }
            (Value::Dict(d), "popitem") => {
                if d.borrow().is_empty() {
                    return Err(self.err(span, "popitem: empty dictionary"));
                }
                let (k, v) = d.borrow_mut().remove(0);
                Ok(Value::tuple(vec![k, v]))
            }
            (Value::Dict(d), "setdefault") => {
                let Some(k) = pos.first() else {
                    return Err(self.err(span, "Missing argument for call to setdefault"));
                };
                self.key_check(k, span)?;
                let found = d
                    .borrow()
                    .iter()
                    .find(|(k2, _)| k2.equals(k))
                    .map(|(_, v)| v.clone());
                Ok(match found {
                    Some(v) => v,
                    None => {
                        self.slots(2, span)?;
                        let v = pos.get(1).cloned().unwrap_or(Value::None);
                        d.borrow_mut().push((k.clone(), v.clone()));
                        v
                    }
                })
            }
            (Value::Dict(d), "update") => {
                if let Some(other) = pos.first() {
                    let pairs: Vec<(Value, Value)> = match other {
                        Value::Dict(o) => o.borrow().clone(),
                        v => {
                            let mut out = Vec::new();
                            for pair in self.iterate(v, span)? {
                                let kv = self.iterate(&pair, span)?;
                                if kv.len() != 2 {
                                    return Err(self.err(span, "update() wants pairs"));
                                }
                                out.push((kv[0].clone(), kv[1].clone()));
                            }
                            out
                        }
                    };
                    for (k, v) in pairs {
                        self.key_check(&k, span)?;
                        self.slots(2, span)?;
                        let mut dm = d.borrow_mut();
                        if let Some(slot) = dm.iter_mut().find(|(k2, _)| k2.equals(&k)) {
                            slot.1 = v;
                        } else {
                            dm.push((k, v));
                        }
                    }
                }
                Ok(Value::None)
            }
            (Value::Str(s), "elems") => self
                .slots(3 * s.len(), span)
                .map(|()| Value::list(s.chars().map(|c| Value::str(&c.to_string())).collect())),
            (Value::Str(s), "codepoints") => self
                .slots(s.len(), span)
                .map(|()| Value::list(s.chars().map(|c| Value::Int(c as i64)).collect())),
            (Value::Str(s), "count") => {
                let sub = want_str(self, 0)?;
                Ok(Value::Int(if sub.is_empty() {
                    s.chars().count() as i64 + 1
                } else {
                    s.matches(&*sub).count() as i64
                }))
            }
            (Value::Str(s), "find" | "rfind" | "index" | "rindex") => {
                let sub = want_str(self, 0)?;
                let at = if name.starts_with('r') {
                    s.rfind(&*sub)
                } else {
                    s.find(&*sub)
                };
                match at {
                    Some(b) => Ok(Value::Int(s[..b].chars().count() as i64)),
                    None if name.ends_with("find") => Ok(Value::Int(-1)),
                    None => Err(self.err(span, format!("Substring '{sub}' not found in '{s}'"))),
                }
            }
            (Value::Str(s), "isalnum") => Ok(Value::Bool(
                !s.is_empty() && s.chars().all(char::is_alphanumeric),
            )),
            (Value::Str(s), "isalpha") => Ok(Value::Bool(
                !s.is_empty() && s.chars().all(char::is_alphabetic),
            )),
            (Value::Str(s), "isdigit") => Ok(Value::Bool(
                !s.is_empty() && s.chars().all(|c| c.is_ascii_digit()),
            )),
            (Value::Str(s), "isspace") => Ok(Value::Bool(
                !s.is_empty() && s.chars().all(char::is_whitespace),
            )),
            (Value::Str(s), "islower") => Ok(Value::Bool(
                s.chars().any(char::is_lowercase) && !s.chars().any(char::is_uppercase),
            )),
            (Value::Str(s), "isupper") => Ok(Value::Bool(
                s.chars().any(char::is_uppercase) && !s.chars().any(char::is_lowercase),
            )),
            (Value::Str(s), "istitle") => {
                let mut prev_cased = false;
                let mut ok = false;
                for c in s.chars() {
                    if c.is_uppercase() {
                        if prev_cased {
                            return Ok(Value::Bool(false));
                        }
                        ok = true;
                        prev_cased = true;
                    } else if c.is_lowercase() {
                        if !prev_cased {
                            return Ok(Value::Bool(false));
                        }
                        prev_cased = true;
                    } else {
                        prev_cased = false;
                    }
                }
                Ok(Value::Bool(ok))
            }
            (Value::Str(s), "capitalize") => {
                let mut c = s.chars();
                Ok(Value::str(&match c.next() {
                    Some(f) => f
                        .to_uppercase()
                        .chain(c.flat_map(char::to_lowercase))
                        .collect::<String>(),
                    None => String::new(),
                }))
            }
            (Value::Str(s), "title") => {
                let mut out = String::new();
                let mut prev_cased = false;
                for c in s.chars() {
                    if prev_cased {
                        out.extend(c.to_lowercase());
                    } else {
                        out.extend(c.to_uppercase());
                    }
                    prev_cased = c.is_alphabetic();
                }
                Ok(Value::str(&out))
            }
            (Value::Str(s), "removeprefix") => {
                let p = want_str(self, 0)?;
                Ok(Value::str(s.strip_prefix(&*p).unwrap_or(s)))
            }
            (Value::Str(s), "removesuffix") => {
                let p = want_str(self, 0)?;
                Ok(Value::str(s.strip_suffix(&*p).unwrap_or(s)))
            }
            (Value::Str(s), "partition" | "rpartition") => {
                let sep = want_str(self, 0)?;
                if sep.is_empty() {
                    return Err(self.err(span, "Empty separator"));
                }
                let at = if name == "partition" {
                    s.find(&*sep)
                } else {
                    s.rfind(&*sep)
                };
                let parts = match at {
                    Some(b) => [&s[..b], &*sep, &s[b + sep.len()..]],
                    None if name == "partition" => [&**s, "", ""],
                    None => ["", "", &**s],
                };
                Ok(Value::tuple(parts.iter().map(|p| Value::str(p)).collect()))
            }
            (Value::Str(s), "splitlines") => self
                .slots(s.len(), span)
                .map(|()| Value::list(s.lines().map(Value::str).collect())),
            (Value::List(l), "append") => {
                let Some(v) = pos.into_iter().next() else {
                    return Err(self.err(span, "Missing argument for call to append"));
                };
                self.grow_check(l.borrow().len() + 1, span)?;
                self.slots(1, span)?;
                l.borrow_mut().push(v);
                Ok(Value::None)
            }
            (Value::List(l), "extend") => {
                let Some(v) = pos.first() else {
                    return Err(self.err(span, "Missing argument for call to extend"));
                };
                let items = self.iterate(v, span)?;
                self.grow_check(l.borrow().len() + items.len(), span)?;
                self.slots(items.len(), span)?;
                l.borrow_mut().extend(items);
                Ok(Value::None)
            }
            (Value::List(l), "index") => {
                let Some(v) = pos.first() else {
                    return Err(self.err(span, format!("Missing argument for call to {name}")));
                };
                let items = l.borrow();
                match items.iter().position(|x| x.equals(v)) {
                    Some(i) => Ok(Value::Int(i as i64)),
                    None => Err(self.err(span, "value not found in list")),
                }
            }
            (Value::Dict(d), "get") => {
                let Some(k) = pos.first() else {
                    return Err(self.err(span, "Missing argument for call to get"));
                };
                let found = d
                    .borrow()
                    .iter()
                    .find(|(k2, _)| k2.equals(k))
                    .map(|(_, v)| v.clone());
                Ok(found.unwrap_or_else(|| pos.get(1).cloned().unwrap_or(Value::None)))
            }
            (Value::Dict(d), "keys") => self
                .slots(d.borrow().len(), span)
                .map(|()| Value::list(d.borrow().iter().map(|(k, _)| k.clone()).collect())),
            (Value::Dict(d), "values") => self
                .slots(d.borrow().len(), span)
                .map(|()| Value::list(d.borrow().iter().map(|(_, v)| v.clone()).collect())),
            (Value::Dict(d), "items") => self.slots(4 * d.borrow().len(), span).map(|()| {
                Value::list(
                    d.borrow()
                        .iter()
                        .map(|(k, v)| Value::tuple(vec![k.clone(), v.clone()]))
                        .collect(),
                )
            }),
            (Value::Str(s), "join") => {
                let Some(v) = pos.first() else {
                    return Err(self.err(span, "Missing argument for call to join"));
                };
                let mut parts: Vec<Rc<str>> = Vec::new();
                for item in self.iterate(v, span)? {
                    match item {
                        Value::Str(p) => parts.push(p),
                        other => {
                            return Err(self.err(
                                span,
                                format!(
                                    "Type of parameter `to_join` doesn't match, expected `str`, actual `{}`",
                                    other.desc()
                                ),
                            ))
                        }
                    }
                }
                // Measured before it is built: `"x".join(["y" * 1000] * 1000)` must not allocate.
                let len = parts
                    .iter()
                    .map(|p| p.len())
                    .fold(0usize, usize::saturating_add)
                    .saturating_add(s.len().saturating_mul(parts.len().saturating_sub(1)));
                self.grow_check(len, span)?;
                self.alloc(len, span)?;
                let mut out = String::with_capacity(len);
                for (i, p) in parts.iter().enumerate() {
                    if i > 0 {
                        out.push_str(s);
                    }
                    out.push_str(p);
                }
                Ok(Value::str(&out))
            }
            (Value::Str(s), "split" | "rsplit") => {
                let max = match pos.get(1) {
                    Some(Value::Int(n)) if *n >= 0 => Some(*n as usize),
                    Some(Value::Int(_)) | Some(Value::None) | None => None,
                    Some(other) => {
                        return Err(self.err(
                            span,
                            format!(
                                "{name}() maxsplit must be an int, got {}",
                                other.type_name()
                            ),
                        ))
                    }
                };
                // At most one part per byte (and the text itself).
                self.alloc(s.len(), span)?;
                let parts =
                    split_str(s, pos.first(), max, name == "rsplit", |i| want_str(self, i))?;
                self.slots(parts.len(), span)?;
                Ok(Value::list(
                    parts.into_iter().map(|p| Value::str(&p)).collect(),
                ))
            }
            (Value::Str(s), "strip" | "lstrip" | "rstrip") => {
                // A set: `s.strip(chars)` with a long `chars` must stay linear. Building it
                // and looking the stripped characters up hash each one, far more than
                // scanning them: a step per 4 bytes of both.
                let chars: Option<HashSet<char>> = match pos.first() {
                    None | Some(Value::None) => None,
                    Some(_) => {
                        let set = want_str(self, 0)?;
                        self.work((set.len() + s.len()) / 4, span)?;
                        Some(set.chars().collect())
                    }
                };
                let strip = |c: char| match &chars {
                    Some(set) => set.contains(&c),
                    None => c.is_whitespace(),
                };
                let out = match name {
                    "lstrip" => s.trim_start_matches(strip),
                    "rstrip" => s.trim_end_matches(strip),
                    _ => s.trim_matches(strip),
                };
                Ok(Value::str(out))
            }
            (Value::Str(s), "lower") => Ok(Value::str(&s.to_lowercase())),
            (Value::Str(s), "upper") => Ok(Value::str(&s.to_uppercase())),
            (Value::Str(s), "startswith" | "endswith") => {
                let candidates: Vec<Rc<str>> = match pos.first() {
                    Some(Value::Tuple(t)) => t
                        .iter()
                        .map(|v| match v {
                            Value::Str(x) => Ok(x.clone()),
                            other => Err(self.err(
                                span,
                                format!("{name}() wants strings, got {}", other.type_name()),
                            )),
                        })
                        .collect::<R<_>>()?,
                    _ => vec![want_str(self, 0)?],
                };
                // Each candidate is compared up to its length (the call charged a single
                // string argument already; a tuple's strings are charged here).
                if let Some(Value::Tuple(_)) = pos.first() {
                    let bytes = candidates
                        .iter()
                        .map(|c| c.len().min(s.len()))
                        .fold(0usize, usize::saturating_add);
                    self.work(candidates.len() + bytes / 64, span)?;
                }
                Ok(Value::Bool(candidates.iter().any(|c| {
                    if name == "startswith" {
                        s.starts_with(&**c)
                    } else {
                        s.ends_with(&**c)
                    }
                })))
            }
            (Value::Str(s), "replace") => {
                let (a, b) = (want_str(self, 0)?, want_str(self, 1)?);
                if a.is_empty() {
                    return Err(self.err(span, "replace() of an empty string is not supported"));
                }
                // Measured before it is built, like `join`.
                let len = if b.len() > a.len() {
                    s.matches(&*a)
                        .count()
                        .saturating_mul(b.len() - a.len())
                        .saturating_add(s.len())
                } else {
                    s.len()
                };
                self.grow_check(len, span)?;
                self.alloc(len, span)?;
                let out = s.replace(&*a, &b);
                Ok(Value::str(&out))
            }
            (Value::Str(s), "format") => {
                // `{}` (next positional), `{0}` (by index), `{name}` (by keyword), `{{`/`}}`.
                let mut out = String::new();
                let mut next = 0usize;
                let mut chars = s.chars().peekable();
                while let Some(c) = chars.next() {
                    match c {
                        '{' if chars.peek() == Some(&'{') => {
                            chars.next();
                            out.push('{');
                        }
                        '}' if chars.peek() == Some(&'}') => {
                            chars.next();
                            out.push('}');
                        }
                        '{' => {
                            let mut field = String::new();
                            let mut closed = false;
                            for c in chars.by_ref() {
                                if c == '}' {
                                    closed = true;
                                    break;
                                }
                                field.push(c);
                            }
                            if !closed {
                                return Err(self.err(span, "Unmatched '{' in format string"));
                            }
                            let v = if field.is_empty() {
                                next += 1;
                                pos.get(next - 1)
                            } else if let Ok(i) = field.parse::<usize>() {
                                pos.get(i)
                            } else {
                                named.iter().find(|(n, _)| *n == field).map(|(_, v)| v)
                            };
                            let Some(v) = v else {
                                return Err(self.err(
                                    span,
                                    format!("Missing argument for format field `{{{field}}}`"),
                                ));
                            };
                            self.alloc(v.text_len(false), span)?;
                            let text = v.to_str();
                            out.push_str(&text);
                        }
                        '}' => return Err(self.err(span, "Standalone '}' in format string")),
                        c => out.push(c),
                    }
                }
                Ok(Value::str(&out))
            }
            _ => Err(self.err(
                span,
                format!(
                    "Object of type `{}` has no attribute `{name}`",
                    obj.type_name()
                ),
            )),
        }
    }
}

/// The methods starlark-rust 0.13 lists with `dir()`, per type.
pub(super) fn methods_of(obj: &Value) -> &'static [&'static str] {
    const LIST: &[&str] = &[
        "append", "clear", "extend", "index", "insert", "pop", "remove",
    ];
    const DICT: &[&str] = &[
        "clear",
        "get",
        "items",
        "keys",
        "pop",
        "popitem",
        "setdefault",
        "update",
        "values",
    ];
    const STR: &[&str] = &[
        "capitalize",
        "codepoints",
        "count",
        "elems",
        "endswith",
        "find",
        "format",
        "index",
        "isalnum",
        "isalpha",
        "isdigit",
        "islower",
        "isspace",
        "istitle",
        "isupper",
        "join",
        "lower",
        "lstrip",
        "partition",
        "removeprefix",
        "removesuffix",
        "replace",
        "rfind",
        "rindex",
        "rpartition",
        "rsplit",
        "rstrip",
        "split",
        "splitlines",
        "startswith",
        "strip",
        "title",
        "upper",
    ];
    match obj {
        Value::List(_) => LIST,
        Value::Dict(_) => DICT,
        Value::Str(_) => STR,
        _ => &[],
    }
}

pub(super) fn method_name(obj: &Value, name: &str) -> Option<&'static str> {
    methods_of(obj).iter().find(|m| **m == name).copied()
}

/// `str.split` / `str.rsplit` with an optional separator and maximum number of splits.
pub(super) fn split_str(
    s: &str,
    sep: Option<&Value>,
    max: Option<usize>,
    from_right: bool,
    want: impl Fn(usize) -> R<Rc<str>>,
) -> R<Vec<String>> {
    let words = |s: &str| -> Vec<String> {
        // Whitespace splitting with a limit keeps the remainder (trimmed on its split side).
        let all: Vec<&str> = s.split_whitespace().collect();
        match max {
            Some(m) if all.len() > m + 1 => {
                if from_right {
                    let cut = all.len() - m;
                    let mut rest = s.trim_end();
                    for w in all[cut..].iter().rev() {
                        rest = rest.strip_suffix(w).unwrap_or(rest).trim_end();
                    }
                    let mut out = vec![rest.to_string()];
                    out.extend(all[cut..].iter().map(|w| w.to_string()));
                    out
                } else {
                    let mut rest = s.trim_start();
                    let mut out = Vec::new();
                    for w in &all[..m] {
                        out.push(w.to_string());
                        rest = rest.strip_prefix(w).unwrap_or(rest).trim_start();
                    }
                    out.push(rest.to_string());
                    out
                }
            }
            _ => all.into_iter().map(str::to_string).collect(),
        }
    };
    match sep {
        None | Some(Value::None) => Ok(words(s)),
        Some(_) => {
            let sep = want(0)?;
            if sep.is_empty() {
                // starlark-rust does not reject an empty separator; nothing splits on it.
                return Ok(vec![s.to_string()]);
            }
            let n = max.map_or(usize::MAX, |m| m.saturating_add(1));
            Ok(if from_right {
                let mut v: Vec<String> = s.rsplitn(n, &*sep).map(str::to_string).collect();
                v.reverse();
                v
            } else {
                s.splitn(n, &*sep).map(str::to_string).collect()
            })
        }
    }
}
