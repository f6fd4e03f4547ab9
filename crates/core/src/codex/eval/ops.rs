//! Operators, indexing and slicing.

use super::*;

impl Interp<'_> {
    pub(super) fn list_index(&self, key: &Value, len: usize, span: Span) -> R<usize> {
        let Value::Int(i) = key else {
            return Err(self.err(span, format!("Expected `int`, but got `{}`", key.desc())));
        };
        let i = if *i < 0 { *i + len as i64 } else { *i };
        if i < 0 || i >= len as i64 {
            return Err(self.err(span, format!("Index `{}` is out of bound", key.repr())));
        }
        Ok(i as usize)
    }

    pub(super) fn index(&self, obj: &Value, key: &Value, span: Span) -> R<Value> {
        // A dict lookup compares keys, which count themselves (`value::walk`).
        if let Value::Str(s) = obj {
            self.scan(s.len(), span)?;
        }
        match obj {
            Value::List(l) => {
                let l = l.borrow();
                Ok(l[self.list_index(key, l.len(), span)?].clone())
            }
            Value::Tuple(t) => Ok(t[self.list_index(key, t.len(), span)?].clone()),
            Value::Str(s) => {
                let chars: Vec<char> = s.chars().collect();
                let i = self.list_index(key, chars.len(), span)?;
                Ok(Value::str(&chars[i].to_string()))
            }
            Value::Dict(d) => d
                .borrow()
                .iter()
                .find(|(k, _)| k.equals(key))
                .map(|(_, v)| v.clone())
                .ok_or_else(|| self.err(span, format!("Key `{}` was not found", key.repr()))),
            other => Err(self.err(
                span,
                format!("Type `{}` does not support indexing", other.type_name()),
            )),
        }
    }

    pub(super) fn slice(&self, obj: &Value, idx: [Option<i64>; 3], span: Span) -> R<Value> {
        match obj {
            Value::List(l) => self.slots(2 * l.borrow().len(), span)?,
            Value::Tuple(t) => self.slots(2 * t.len(), span)?,
            // The characters, then the result.
            Value::Str(s) => self.slots(s.len() / 2, span)?,
            _ => {}
        }
        if let Value::Str(s) = obj {
            // Characters, not one string value per character: slicing a long string is
            // common (`s[:n]`) and must not allocate a value per character.
            let chars: Vec<char> = s.chars().collect();
            let picked = slice_indices(chars.len(), idx, || {
                self.err(span, "slice step cannot be zero")
            })?;
            return Ok(Value::str(
                &picked.into_iter().map(|i| chars[i]).collect::<String>(),
            ));
        }
        let items: Vec<Value> = match obj {
            Value::List(l) => l.borrow().clone(),
            Value::Tuple(t) => t.to_vec(),
            other => {
                return Err(self.err(
                    span,
                    format!("Type `{}` does not support slicing", other.type_name()),
                ))
            }
        };
        let picked = slice_indices(items.len(), idx, || {
            self.err(span, "slice step cannot be zero")
        })?;
        let out: Vec<Value> = picked.into_iter().map(|i| items[i].clone()).collect();
        Ok(match obj {
            Value::Tuple(_) => Value::tuple(out),
            _ => Value::list(out),
        })
    }

    pub(super) fn binop(&self, op: BinOp, l: &Value, r: &Value, span: Span) -> R<Value> {
        use Value::{Int, List, Str, Tuple};
        let unsupported = || {
            self.err(
                span,
                format!(
                    "Operation `{}` not supported for types `{}` and `{}`",
                    op_str(op),
                    l.type_name(),
                    r.type_name()
                ),
            )
        };
        let overflow = || self.err(span, "integer overflow");
        // Comparing or searching containers counts every value visited (`value::walk`);
        // searching text is charged here.
        if let (BinOp::In | BinOp::NotIn, Str(s)) = (op, r) {
            self.scan(s.len(), span)?;
            if let Str(needle) = l {
                self.work(needle.len() / 64, span)?;
            }
        }
        Ok(match (op, l, r) {
            (BinOp::Eq, ..) => Value::Bool(l.equals(r)),
            (BinOp::Ne, ..) => Value::Bool(!l.equals(r)),
            (BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge, ..) => {
                let o = compare(l, r).ok_or_else(unsupported)?;
                Value::Bool(match op {
                    BinOp::Lt => o.is_lt(),
                    BinOp::Gt => o.is_gt(),
                    BinOp::Le => o.is_le(),
                    _ => o.is_ge(),
                })
            }
            (BinOp::In | BinOp::NotIn, ..) => {
                let found = match r {
                    Str(s) => match l {
                        Str(x) => s.contains(&**x),
                        _ => {
                            return Err(self.err(
                                span,
                                format!(
                                    "Type of parameters mismatch, expected `str`, actual `{}`",
                                    l.desc()
                                ),
                            ))
                        }
                    },
                    List(items) => items.borrow().iter().any(|x| x.equals(l)),
                    Tuple(items) => items.iter().any(|x| x.equals(l)),
                    Value::Dict(d) => d.borrow().iter().any(|(k, _)| k.equals(l)),
                    _ => return Err(unsupported()),
                };
                Value::Bool(found == (op == BinOp::In))
            }
            (BinOp::Add, Int(a), Int(b)) => Int(a.checked_add(*b).ok_or_else(overflow)?),
            (BinOp::Sub, Int(a), Int(b)) => Int(a.checked_sub(*b).ok_or_else(overflow)?),
            (BinOp::Mul, Int(a), Int(b)) => Int(a.checked_mul(*b).ok_or_else(overflow)?),
            (BinOp::FloorDiv, Int(a), Int(b)) => {
                if *b == 0 {
                    return Err(self.err(span, "Integer division by zero"));
                }
                // Floor division, like Starlark (`-7 // 2 == -4`).
                let q = a.checked_div(*b).ok_or_else(overflow)?;
                Int(if (a % b != 0) && ((*a < 0) != (*b < 0)) {
                    q - 1
                } else {
                    q
                })
            }
            (BinOp::Mod, Int(a), Int(b)) => {
                if *b == 0 {
                    return Err(self.err(span, "Integer modulo by zero"));
                }
                // The remainder takes the divisor's sign, like Starlark (`-7 % 2 == 1`).
                let r = a.checked_rem(*b).ok_or_else(overflow)?;
                Int(if r != 0 && ((r < 0) != (*b < 0)) {
                    r + b
                } else {
                    r
                })
            }
            (BinOp::BitOr, Int(a), Int(b)) => Int(a | b),
            (BinOp::BitAnd, Int(a), Int(b)) => Int(a & b),
            (BinOp::BitXor, Int(a), Int(b)) => Int(a ^ b),
            (BinOp::Shl | BinOp::Shr, Int(a), Int(b)) => {
                if *b < 0 {
                    let which = if op == BinOp::Shl { "left" } else { "right" };
                    return Err(self.err(span, format!("Negative {which} shift")));
                }
                if op == BinOp::Shr {
                    Int(if *b >= 64 {
                        if *a < 0 {
                            -1
                        } else {
                            0
                        }
                    } else {
                        a >> b
                    })
                } else {
                    // starlark-rust has big integers; permlab stops at 64 bits.
                    let r = if *b >= 64 {
                        None
                    } else {
                        a.checked_mul(1i64 << b)
                    };
                    Int(r.ok_or_else(overflow)?)
                }
            }
            // Mixed or float arithmetic; `/` always gives a float.
            (
                BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::FloorDiv | BinOp::Mod,
                Int(_) | Value::Float(_),
                Int(_) | Value::Float(_),
            ) if op == BinOp::Div
                || matches!(l, Value::Float(_))
                || matches!(r, Value::Float(_)) =>
            {
                let (x, y) = (num(l).unwrap_or(0.0), num(r).unwrap_or(0.0));
                match op {
                    BinOp::Add => Value::Float(x + y),
                    BinOp::Sub => Value::Float(x - y),
                    BinOp::Mul => Value::Float(x * y),
                    BinOp::Div => {
                        if y == 0.0 {
                            return Err(self.err(
                                span,
                                format!("float division by zero: {} / {}", l.repr(), r.repr()),
                            ));
                        }
                        Value::Float(x / y)
                    }
                    _ => {
                        if y == 0.0 {
                            return Err(self.err(span, "Cannot divide by zero"));
                        }
                        if op == BinOp::FloorDiv {
                            Value::Float((x / y).floor())
                        } else {
                            // The remainder takes the divisor's sign.
                            let m = x % y;
                            Value::Float(if m != 0.0 && (m < 0.0) != (y < 0.0) {
                                m + y
                            } else {
                                m
                            })
                        }
                    }
                }
            }
            (BinOp::Add, Str(a), Str(b)) => {
                self.grow_check(a.len() + b.len(), span)?;
                self.alloc(a.len() + b.len(), span)?;
                Value::str(&format!("{a}{b}"))
            }
            (BinOp::Add, List(a), List(b)) => {
                self.grow_check(a.borrow().len() + b.borrow().len(), span)?;
                self.slots(a.borrow().len() + b.borrow().len(), span)?;
                let mut v = a.borrow().clone();
                v.extend(b.borrow().iter().cloned());
                self.grow_check(v.len(), span)?;
                Value::list(v)
            }
            (BinOp::Add, Tuple(a), Tuple(b)) => {
                self.grow_check(a.len() + b.len(), span)?;
                self.slots(a.len() + b.len(), span)?;
                let mut v = a.to_vec();
                v.extend(b.iter().cloned());
                self.grow_check(v.len(), span)?;
                Value::tuple(v)
            }
            (BinOp::Mul, Str(_) | List(_) | Tuple(_), Int(_))
            | (BinOp::Mul, Int(_), Str(_) | List(_) | Tuple(_)) => {
                let (seq, n) = match (l, r) {
                    (Int(n), s) | (s, Int(n)) => (s, (*n).max(0) as usize),
                    _ => return Err(unsupported()),
                };
                match seq {
                    Str(s) => {
                        self.grow_check(s.len().saturating_mul(n), span)?;
                        self.alloc(s.len().saturating_mul(n), span)?;
                        Value::str(&s.repeat(n))
                    }
                    List(items) => {
                        let items = items.borrow();
                        self.grow_check(items.len().saturating_mul(n), span)?;
                        self.slots(items.len().saturating_mul(n), span)?;
                        Value::list(
                            items
                                .iter()
                                .cloned()
                                .cycle()
                                .take(items.len() * n)
                                .collect(),
                        )
                    }
                    Tuple(items) => {
                        self.grow_check(items.len().saturating_mul(n), span)?;
                        self.slots(items.len().saturating_mul(n), span)?;
                        Value::tuple(
                            items
                                .iter()
                                .cloned()
                                .cycle()
                                .take(items.len() * n)
                                .collect(),
                        )
                    }
                    _ => return Err(unsupported()),
                }
            }
            (BinOp::Mod, Str(fmt), arg) => {
                // `"%s is blocked" % name`: only %s, %d, %r and %%.
                let args: Vec<Value> = match arg {
                    Tuple(t) => t.to_vec(),
                    v => vec![v.clone()],
                };
                let mut args = args.into_iter();
                self.alloc(fmt.len(), span)?;
                let mut out = String::new();
                let mut chars = fmt.chars();
                while let Some(c) = chars.next() {
                    if c != '%' {
                        out.push(c);
                        continue;
                    }
                    match chars.next() {
                        Some('%') => out.push('%'),
                        Some(k @ ('s' | 'd' | 'r')) => {
                            let Some(v) = args.next() else {
                                return Err(
                                    self.err(span, "Not enough arguments for format string")
                                );
                            };
                            // Measured and charged before it is built.
                            self.alloc(v.text_len(k == 'r'), span)?;
                            let text = if k == 'r' { v.repr() } else { v.to_str() };
                            out.push_str(&text);
                        }
                        _ => return Err(self.err(span, "unsupported format character")),
                    }
                }
                if args.next().is_some() {
                    return Err(self.err(span, "too many arguments for format string"));
                }
                Value::str(&out)
            }
            _ => return Err(unsupported()),
        })
    }
}

/// The indices `[a:b:step]` picks from a sequence of `len` items, in order (Python's rules).
fn slice_indices(
    len: usize,
    idx: [Option<i64>; 3],
    zero_step: impl FnOnce() -> Diag,
) -> R<Vec<usize>> {
    let len = len as i64;
    let step = idx[2].unwrap_or(1);
    if step == 0 {
        return Err(zero_step());
    }
    let clamp = |v: Option<i64>, default: i64, lo: i64, hi: i64| -> i64 {
        match v {
            None => default,
            Some(v) => {
                let v = if v < 0 { v + len } else { v };
                v.clamp(lo, hi)
            }
        }
    };
    let mut out = Vec::new();
    if step > 0 {
        let (a, b) = (clamp(idx[0], 0, 0, len), clamp(idx[1], len, 0, len));
        let mut i = a;
        while i < b {
            out.push(i as usize);
            i = i.saturating_add(step);
        }
    } else {
        let (a, b) = (
            clamp(idx[0], len - 1, -1, len - 1),
            clamp(idx[1], -1, -1, len - 1),
        );
        let mut i = a;
        while i > b {
            out.push(i as usize);
            i = i.saturating_add(step);
        }
    }
    Ok(out)
}

pub(super) fn op_str(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::FloorDiv => "//",
        BinOp::Mod => "%",
        BinOp::Eq => "==",
        BinOp::Ne => "!=",
        BinOp::Lt => "<",
        BinOp::Gt => ">",
        BinOp::Le => "<=",
        BinOp::Ge => ">=",
        BinOp::In => "in",
        BinOp::NotIn => "not in",
        BinOp::BitOr => "|",
        BinOp::BitAnd => "&",
        BinOp::BitXor => "^",
        BinOp::Shl => "<<",
        BinOp::Shr => ">>",
    }
}
