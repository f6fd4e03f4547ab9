//! The standard Starlark built-ins a policy file may call (`len`, `str`, `sorted`…).

use super::*;

impl Interp<'_> {
    pub(super) fn generic_builtin(
        &mut self,
        name: &'static str,
        pos: Vec<Value>,
        named: Vec<(String, Value)>,
        span: Span,
    ) -> R<Value> {
        if name != "dict" && name != "sorted" {
            if let Some((n, _)) = named.first() {
                return Err(self.err(
                    span,
                    format!("Found `{n}` extra named parameter(s) for call to {name}"),
                ));
            }
        }
        let arity = |me: &Self, lo: usize, hi: usize| -> R<()> {
            if pos.len() < lo || pos.len() > hi {
                Err(me.err(
                    span,
                    format!("Wrong number of arguments for call to {name}"),
                ))
            } else {
                Ok(())
            }
        };
        match name {
            "len" => {
                arity(self, 1, 1)?;
                let n = match &pos[0] {
                    Value::Str(s) => s.chars().count(),
                    Value::List(l) => l.borrow().len(),
                    Value::Tuple(t) => t.len(),
                    Value::Dict(d) => d.borrow().len(),
                    other => {
                        return Err(self.err(
                            span,
                            format!("len() of {} is not supported", other.type_name()),
                        ))
                    }
                };
                Ok(Value::Int(n as i64))
            }
            "list" | "tuple" => {
                arity(self, 0, 1)?;
                let items = match pos.first() {
                    Some(Value::Str(_)) => {
                        return Err(
                            self.err(span, "Operation `(iter)` not supported on type `string`")
                        )
                    }
                    Some(v) => self.iterate(v, span)?,
                    None => Vec::new(),
                };
                Ok(if name == "list" {
                    Value::list(items)
                } else {
                    Value::tuple(items)
                })
            }
            "dict" => {
                arity(self, 0, 1)?;
                let mut out: Vec<(Value, Value)> = Vec::new();
                if let Some(v) = pos.first() {
                    for pair in self.iterate(v, span)? {
                        let kv = self.iterate(&pair, span)?;
                        self.slots(2, span)?;
                        if kv.len() != 2 {
                            return Err(self.err(span, "dict() wants pairs"));
                        }
                        self.key_check(&kv[0], span)?;
                        out.push((kv[0].clone(), kv[1].clone()));
                    }
                }
                for (k, v) in named {
                    out.push((Value::str(&k), v));
                }
                Ok(Value::dict(out))
            }
            "str" => {
                arity(self, 1, 1)?;
                self.alloc(pos[0].text_len(false), span)?;
                let text = pos[0].to_str();
                Ok(Value::str(&text))
            }
            "repr" => {
                arity(self, 1, 1)?;
                self.alloc(pos[0].text_len(true), span)?;
                let text = pos[0].repr();
                Ok(Value::str(&text))
            }
            "int" => {
                arity(self, 1, 2)?;
                if let Some(base) = pos.get(1) {
                    let (Value::Str(text), Value::Int(base)) = (&pos[0], base) else {
                        return Err(self.err(span, "int() with a base wants a string and an int"));
                    };
                    return parse_int(text, *base).map(Value::Int).ok_or_else(|| {
                        self.err(
                            span,
                            format!("Cannot parse `{text}` as an integer in base {base}"),
                        )
                    });
                }
                match &pos[0] {
                    Value::Int(n) => Ok(Value::Int(*n)),
                    Value::Float(f) if f.is_finite() && f.abs() < 9.2e18 => {
                        Ok(Value::Int(f.trunc() as i64))
                    }
                    Value::Float(_) => {
                        Err(self.err(span, "int() of this float is out of permlab's 64-bit range"))
                    }
                    Value::Bool(b) => Ok(Value::Int(*b as i64)),
                    Value::Str(s) => parse_int(s, 10).map(Value::Int).ok_or_else(|| {
                        self.err(span, format!("Cannot parse `{s}` as an integer in base 10"))
                    }),
                    other => {
                        Err(self.err(span, format!("int() does not accept {}", other.type_name())))
                    }
                }
            }
            "bool" => {
                arity(self, 0, 1)?;
                Ok(Value::Bool(pos.first().is_some_and(Value::truthy)))
            }
            "type" => {
                arity(self, 1, 1)?;
                Ok(Value::str(pos[0].type_name()))
            }
            "abs" => {
                arity(self, 1, 1)?;
                match &pos[0] {
                    Value::Int(n) => n
                        .checked_abs()
                        .map(Value::Int)
                        .ok_or_else(|| self.err(span, "integer overflow")),
                    Value::Float(f) => Ok(Value::Float(f.abs())),
                    other => Err(self.err(
                        span,
                        format!("abs() of {} is not supported", other.type_name()),
                    )),
                }
            }
            "chr" => {
                arity(self, 1, 1)?;
                match &pos[0] {
                    Value::Int(n) => u32::try_from(*n)
                        .ok()
                        .and_then(char::from_u32)
                        .map(|c| Value::str(&c.to_string()))
                        .ok_or_else(|| self.err(span, format!("chr() parameter value is {n} which is not a valid UTF-8 codepoint"))),
                    other => Err(self.err(span, format!("chr() wants an int, got {}", other.type_name()))),
                }
            }
            "ord" => {
                arity(self, 1, 1)?;
                match &pos[0] {
                    Value::Str(s) if s.chars().count() == 1 => {
                        Ok(Value::Int(s.chars().next().map_or(0, |c| c as i64)))
                    }
                    other => Err(self.err(
                        span,
                        format!("ord() wants a one-character string, got {}", other.repr()),
                    )),
                }
            }
            "float" => {
                arity(self, 0, 1)?;
                match pos.first() {
                    None => Ok(Value::Float(0.0)),
                    Some(Value::Float(f)) => Ok(Value::Float(*f)),
                    Some(Value::Int(n)) => Ok(Value::Float(*n as f64)),
                    Some(Value::Bool(b)) => Ok(Value::Float(if *b { 1.0 } else { 0.0 })),
                    Some(Value::Str(s)) => {
                        s.trim().parse::<f64>().map(Value::Float).map_err(|_| {
                            self.err(
                                span,
                                format!(
                                    "{} is not a valid number: invalid float literal",
                                    Value::Str(s.clone()).repr()
                                ),
                            )
                        })
                    }
                    Some(other) => Err(self.err(
                        span,
                        format!("float() does not accept {}", other.type_name()),
                    )),
                }
            }
            "hash" => {
                arity(self, 1, 1)?;
                match &pos[0] {
                    // Java's String.hashCode over UTF-16 units, as the Starlark spec says.
                    Value::Str(s) => {
                        let h = s
                            .encode_utf16()
                            .fold(0i32, |h, u| h.wrapping_mul(31).wrapping_add(u as i32));
                        Ok(Value::Int(h as i64))
                    }
                    other => Err(self.err(
                        span,
                        format!(
                            "hash() of {} is not supported by permlab",
                            other.type_name()
                        ),
                    )),
                }
            }
            "dir" => {
                arity(self, 1, 1)?;
                Ok(Value::list(
                    methods_of(&pos[0]).iter().map(|m| Value::str(m)).collect(),
                ))
            }
            "getattr" => {
                arity(self, 2, 3)?;
                let Value::Str(attr) = &pos[1] else {
                    return Err(self.err(span, "getattr() wants a string attribute name"));
                };
                match method_name(&pos[0], attr) {
                    Some(m) => Ok(Value::Method(Rc::new(pos[0].clone()), m)),
                    None => match pos.get(2) {
                        Some(default) => Ok(default.clone()),
                        None => Err(self.err(
                            span,
                            format!(
                                "Object of type `{}` has no attribute `{attr}`",
                                pos[0].type_name()
                            ),
                        )),
                    },
                }
            }
            "fail" => {
                let msg: Vec<String> = pos.iter().map(Value::to_str).collect();
                Err(self.err(span, format!("fail: {}", msg.join(" "))))
            }
            "hasattr" => {
                arity(self, 2, 2)?;
                let Value::Str(attr) = &pos[1] else {
                    return Err(self.err(span, "hasattr() wants a string"));
                };
                Ok(Value::Bool(method_name(&pos[0], attr).is_some()))
            }
            "range" => {
                arity(self, 1, 3)?;
                let mut n = Vec::new();
                for v in &pos {
                    match v {
                        Value::Int(i) => n.push(*i),
                        other => {
                            return Err(self.err(
                                span,
                                format!("range() wants ints, got {}", other.type_name()),
                            ))
                        }
                    }
                }
                let (start, stop, step) = match n.as_slice() {
                    [stop] => (0, *stop, 1),
                    [a, b] => (*a, *b, 1),
                    [a, b, c] => (*a, *b, *c),
                    _ => (0, 0, 1),
                };
                if step == 0 {
                    return Err(self.err(span, "range() step cannot be zero"));
                }
                let count = if step > 0 {
                    (stop.saturating_sub(start).max(0) as u128).div_ceil(step as u128)
                } else {
                    (start.saturating_sub(stop).max(0) as u128)
                        .div_ceil(step.unsigned_abs() as u128)
                };
                self.grow_check(count.min(usize::MAX as u128) as usize, span)?;
                self.slots(count as usize, span)?;
                let items = (0..count as i64)
                    .map(|i| Value::Int(start + i * step))
                    .collect();
                Ok(Value::list(items))
            }
            "enumerate" => {
                arity(self, 1, 2)?;
                let start = match pos.get(1) {
                    Some(Value::Int(n)) => *n,
                    Some(other) => {
                        return Err(self.err(
                            span,
                            format!(
                                "enumerate() start must be an int, got {}",
                                other.type_name()
                            ),
                        ))
                    }
                    None => 0,
                };
                let items = self.iterate(&pos[0], span)?;
                self.slots(3 * items.len(), span)?;
                Ok(Value::list(
                    items
                        .into_iter()
                        .enumerate()
                        .map(|(i, v)| {
                            Value::tuple(vec![Value::Int(start.saturating_add(i as i64)), v])
                        })
                        .collect(),
                ))
            }
            "zip" => {
                // The copies live together until the tuples are built: charged as memory.
                let mut lists: Vec<Vec<Value>> = Vec::with_capacity(pos.len());
                for v in &pos {
                    let items = self.iterate(v, span)?;
                    self.slots(items.len(), span)?;
                    lists.push(items);
                }
                let n = lists.iter().map(Vec::len).min().unwrap_or(0);
                self.slots(n.saturating_mul(1 + lists.len()), span)?;
                Ok(Value::list(
                    (0..n)
                        .map(|i| Value::tuple(lists.iter().map(|l| l[i].clone()).collect()))
                        .collect(),
                ))
            }
            "reversed" => {
                arity(self, 1, 1)?;
                let mut items = self.iterate(&pos[0], span)?;
                items.reverse();
                Ok(Value::list(items))
            }
            "sorted" | "min" | "max" => {
                let mut key = None;
                let mut reverse = false;
                for (n, v) in named {
                    match n.as_str() {
                        "key" => key = Some(v),
                        "reverse" => reverse = v.truthy(),
                        other => {
                            return Err(self.err(
                                span,
                                format!(
                                    "Found `{other}` extra named parameter(s) for call to {name}"
                                ),
                            ))
                        }
                    }
                }
                let items = if pos.len() == 1 {
                    self.iterate(&pos[0], span)?
                } else {
                    pos
                };
                // Sort (key, value) pairs so a key function runs once per item (the n log n
                // comparisons are counted as they happen, see `value::walk`).
                self.slots(2 * items.len(), span)?;
                let mut keyed: Vec<(Value, Value)> = Vec::with_capacity(items.len());
                for v in items {
                    let k = match &key {
                        Some(f) if !matches!(f, Value::None) => {
                            self.call(f.clone(), vec![v.clone()], Vec::new(), span)?
                        }
                        _ => v.clone(),
                    };
                    keyed.push((k, v));
                }
                let mut err = None;
                keyed.sort_by(|(a, _), (b, _)| match compare(a, b) {
                    Some(o) => o,
                    None => {
                        err = Some(format!(
                            "cannot compare {} with {}",
                            a.type_name(),
                            b.type_name()
                        ));
                        std::cmp::Ordering::Equal
                    }
                });
                if let Some(e) = err {
                    return Err(self.err(span, e));
                }
                if reverse {
                    keyed.reverse();
                }
                let items: Vec<Value> = keyed.into_iter().map(|(_, v)| v).collect();
                match name {
                    "sorted" => Ok(Value::list(items)),
                    _ if items.is_empty() => {
                        Err(self.err(span, format!("{name}() of an empty sequence")))
                    }
                    "min" => Ok(items[0].clone()),
                    _ => Ok(items[items.len() - 1].clone()),
                }
            }
            "any" | "all" => {
                arity(self, 1, 1)?;
                let items = self.iterate(&pos[0], span)?;
                Ok(Value::Bool(if name == "any" {
                    items.iter().any(Value::truthy)
                } else {
                    items.iter().all(Value::truthy)
                }))
            }
            _ => Err(self.err(span, format!("Variable `{name}` not found"))),
        }
    }
}

/// `int(text, base)` as Starlark reads it: optional sign, optional `0x`/`0o`/`0b` prefix
/// (required to match a base of 0), no surrounding spaces.
pub(super) fn parse_int(text: &str, base: i64) -> Option<i64> {
    let (neg, body) = match text.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let lower = body.to_ascii_lowercase();
    let (base, digits) = match (base, lower.get(..2)) {
        (0 | 16, Some("0x")) => (16, &body[2..]),
        (0 | 8, Some("0o")) => (8, &body[2..]),
        (0 | 2, Some("0b")) => (2, &body[2..]),
        (0, _) => (10, body),
        (b, _) if (2..=36).contains(&b) => (b as u32, body),
        _ => return None,
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(base)) {
        return None;
    }
    let v = i64::from_str_radix(digits, base).ok()?;
    Some(if neg { -v } else { v })
}
