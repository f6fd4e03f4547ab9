//! Starlark values: what a policy file computes with, and how they print and compare.

use std::cell::RefCell;
use std::collections::HashSet;
use std::rc::Rc;

use super::super::syntax::FnDef;

/// A user function as a value.
#[derive(Debug)]
pub(crate) struct Closure {
    pub(super) def: Rc<FnDef>,
    /// Evaluated default values, one per parameter.
    pub(super) defaults: Vec<Option<Value>>,
    /// The enclosing function's variables at definition time (empty at top level).
    pub(super) captured: Vec<(String, Value)>,
    /// Names local to the function (parameters and anything it assigns): reading one before
    /// it is bound is an error, never a fallback to a global of the same name.
    pub(super) locals: HashSet<String>,
    /// The file it was defined in (`str(f)` is `policy.rules.f`).
    pub(super) module: Rc<str>,
}

/// A list's items: a cell, so that every holder of the list sees its mutations. Dropped
/// without recursion (see [`dismantle`]).
#[derive(Debug, Default)]
pub(crate) struct ListCell(pub(super) RefCell<Vec<Value>>);

/// A tuple's items. Dropped without recursion (see [`dismantle`]).
#[derive(Debug, Default)]
pub(crate) struct TupleItems(pub(super) Vec<Value>);

/// A dict's entries, in insertion order. Dropped without recursion (see [`dismantle`]).
#[derive(Debug, Default)]
pub(crate) struct DictCell(pub(super) RefCell<Vec<(Value, Value)>>);

impl std::ops::Deref for ListCell {
    type Target = RefCell<Vec<Value>>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl std::ops::Deref for TupleItems {
    type Target = Vec<Value>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl std::ops::Deref for DictCell {
    type Target = RefCell<Vec<(Value, Value)>>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl Drop for ListCell {
    fn drop(&mut self) {
        dismantle(std::mem::take(self.0.get_mut()));
    }
}

impl Drop for TupleItems {
    fn drop(&mut self) {
        dismantle(std::mem::take(&mut self.0));
    }
}

impl Drop for DictCell {
    fn drop(&mut self) {
        let entries = std::mem::take(self.0.get_mut());
        if !entries.is_empty() {
            dismantle(entries.into_iter().flat_map(|(k, v)| [k, v]).collect());
        }
    }
}

impl Drop for Closure {
    fn drop(&mut self) {
        let mut held: Vec<Value> = std::mem::take(&mut self.defaults)
            .into_iter()
            .flatten()
            .collect();
        held.extend(
            std::mem::take(&mut self.captured)
                .into_iter()
                .map(|(_, v)| v),
        );
        dismantle(held);
    }
}

/// Drops `values` with a loop instead of recursion. Rust's drop glue for nested `Rc`s recurses
/// once per level, and a file can nest cheaply and deeply (`for i in range(200000): a = [a]`
/// is 200 000 levels for 4 steps a turn), which overflowed the stack when the value was
/// dropped. Here every container this is the last holder of is emptied onto a heap stack
/// first, so it drops with nothing inside; a container still held elsewhere just loses one
/// reference.
fn dismantle(mut stack: Vec<Value>) {
    while let Some(v) = stack.pop() {
        match v {
            Value::List(rc) => {
                if let Some(mut cell) = Rc::into_inner(rc) {
                    stack.append(cell.0.get_mut());
                }
            }
            Value::Tuple(rc) => {
                if let Some(mut items) = Rc::into_inner(rc) {
                    stack.append(&mut items.0);
                }
            }
            Value::Dict(rc) => {
                if let Some(mut cell) = Rc::into_inner(rc) {
                    for (k, v) in cell.0.get_mut().drain(..) {
                        stack.push(k);
                        stack.push(v);
                    }
                }
            }
            Value::Func(rc) => {
                if let Some(mut c) = Rc::into_inner(rc) {
                    stack.extend(std::mem::take(&mut c.defaults).into_iter().flatten());
                    stack.extend(std::mem::take(&mut c.captured).into_iter().map(|(_, v)| v));
                }
            }
            Value::Method(rc, _) => {
                if let Some(inner) = Rc::into_inner(rc) {
                    stack.push(inner);
                }
            }
            _ => {}
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) enum Value {
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Rc<str>),
    List(Rc<ListCell>),
    Tuple(Rc<TupleItems>),
    Dict(Rc<DictCell>),
    /// A user function (`def` or `lambda`).
    Func(Rc<Closure>),
    Builtin(&'static str),
    Method(Rc<Value>, &'static str),
}

impl Value {
    pub(super) fn str(s: &str) -> Value {
        Value::Str(Rc::from(s))
    }

    pub(super) fn list(v: Vec<Value>) -> Value {
        Value::List(Rc::new(ListCell(RefCell::new(v))))
    }

    pub(super) fn tuple(v: Vec<Value>) -> Value {
        Value::Tuple(Rc::new(TupleItems(v)))
    }

    pub(super) fn dict(v: Vec<(Value, Value)>) -> Value {
        Value::Dict(Rc::new(DictCell(RefCell::new(v))))
    }

    pub(super) fn type_name(&self) -> &'static str {
        match self {
            Value::None => "NoneType",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Str(_) => "string",
            Value::List(_) => "list",
            Value::Tuple(_) => "tuple",
            Value::Dict(_) => "dict",
            Value::Func(..) | Value::Builtin(_) | Value::Method(..) => "function",
        }
    }

    pub(super) fn truthy(&self) -> bool {
        match self {
            Value::None => false,
            Value::Bool(b) => *b,
            Value::Int(n) => *n != 0,
            Value::Float(f) => *f != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::List(l) => !l.borrow().is_empty(),
            Value::Tuple(t) => !t.is_empty(),
            Value::Dict(d) => !d.borrow().is_empty(),
            _ => true,
        }
    }

    pub(super) fn repr(&self) -> String {
        let mut out = String::new();
        self.write_repr(&mut out, 0);
        out
    }

    /// The length in bytes of `repr(x)` (`repr`) or `str(x)`, without building it: a result
    /// is measured and charged before it is allocated.
    pub(super) fn text_len(&self, repr: bool) -> usize {
        match self {
            Value::Str(s) if !repr => s.len(),
            v => {
                let mut n = Count(0);
                v.write_repr(&mut n, 0);
                n.0
            }
        }
    }

    pub(super) fn write_repr(&self, out: &mut impl Out, depth: usize) {
        if depth > 32 || out.len() > 10_000 {
            out.push_str("...");
            return;
        }
        match self {
            Value::None => out.push_str("None"),
            Value::Bool(b) => out.push_str(if *b { "True" } else { "False" }),
            Value::Int(n) => out.push_str(&n.to_string()),
            Value::Float(f) => out.push_str(&format_float(*f)),
            Value::Str(s) => repr_str(s, out),
            Value::List(l) => {
                out.push('[');
                for (i, v) in l.borrow().iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    v.write_repr(out, depth + 1);
                }
                out.push(']');
            }
            Value::Tuple(t) => {
                out.push('(');
                for (i, v) in t.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    v.write_repr(out, depth + 1);
                }
                if t.len() == 1 {
                    out.push(',');
                }
                out.push(')');
            }
            Value::Dict(d) => {
                out.push('{');
                for (i, (k, v)) in d.borrow().iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    k.write_repr(out, depth + 1);
                    out.push_str(": ");
                    v.write_repr(out, depth + 1);
                }
                out.push('}');
            }
            Value::Func(f) => out.push_str(&format!("{}.{}", f.module, f.def.name)),
            Value::Builtin(n) => out.push_str(n),
            Value::Method(_, n) => out.push_str(&format!("<built-in method {n}>")),
        }
    }

    /// `str(x)`: strings as they are, everything else as its repr.
    pub(super) fn to_str(&self) -> String {
        match self {
            Value::Str(s) => s.to_string(),
            v => v.repr(),
        }
    }

    pub(super) fn equals(&self, other: &Value) -> bool {
        self.equals_at(other, 0)
    }

    /// Structural equality; a list that contains itself must not recurse forever, so past a
    /// fixed depth values compare unequal.
    pub(super) fn equals_at(&self, other: &Value, depth: usize) -> bool {
        if depth > 64 || !walk::step() {
            return false;
        }
        let eq = |x: &Value, y: &Value| x.equals_at(y, depth + 1);
        match (self, other) {
            (Value::None, Value::None) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Float(_), Value::Int(_) | Value::Float(_))
            | (Value::Int(_), Value::Float(_)) => num(self) == num(other),
            // The same text is equal at no cost; texts of different lengths differ at once;
            // otherwise the bytes are compared, and charged (a 1 MB string against a list of
            // 100 000 copies of it is 100 GB of comparing).
            (Value::Str(a), Value::Str(b)) => {
                Rc::ptr_eq(a, b) || (a.len() == b.len() && walk::text(a.len()) && a == b)
            }
            (Value::List(a), Value::List(b)) => {
                Rc::ptr_eq(a, b) || {
                    let (Ok(a), Ok(b)) = (a.try_borrow(), b.try_borrow()) else {
                        return false;
                    };
                    a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| eq(x, y))
                }
            }
            (Value::Tuple(a), Value::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| eq(x, y))
            }
            (Value::Dict(a), Value::Dict(b)) => {
                Rc::ptr_eq(a, b) || {
                    let (Ok(a), Ok(b)) = (a.try_borrow(), b.try_borrow()) else {
                        return false;
                    };
                    a.len() == b.len()
                        && a.iter()
                            .all(|(k, v)| b.iter().any(|(k2, v2)| eq(k, k2) && eq(v, v2)))
                }
            }
            (Value::Func(a), Value::Func(b)) => Rc::ptr_eq(a, b),
            (Value::Builtin(a), Value::Builtin(b)) => a == b,
            _ => false,
        }
    }

    /// Lists and dicts cannot be dict keys (Starlark: "unhashable"); tuples can if their items
    /// can.
    pub(super) fn hashable(&self) -> bool {
        if !walk::step() {
            return false;
        }
        match self {
            Value::List(_) | Value::Dict(_) => false,
            Value::Tuple(t) => t.iter().all(Value::hashable),
            _ => true,
        }
    }

    pub(super) fn desc(&self) -> String {
        format!("{} (repr: {})", self.type_name(), self.repr())
    }
}

pub(super) fn compare(a: &Value, b: &Value) -> Option<std::cmp::Ordering> {
    compare_at(a, b, 0)
}

pub(super) fn compare_at(a: &Value, b: &Value, depth: usize) -> Option<std::cmp::Ordering> {
    if depth > 64 || !walk::step() {
        return None;
    }
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => Some(x.cmp(y)),
        (Value::Float(_), Value::Int(_) | Value::Float(_)) | (Value::Int(_), Value::Float(_)) => {
            // NaN compares equal to NaN and above every other float, as in starlark-rust.
            let (x, y) = (num(a)?, num(b)?);
            Some(
                x.partial_cmp(&y)
                    .unwrap_or_else(|| x.is_nan().cmp(&y.is_nan())),
            )
        }
        (Value::Str(x), Value::Str(y)) => {
            if Rc::ptr_eq(x, y) {
                return Some(std::cmp::Ordering::Equal);
            }
            // Ordering compares up to the shorter text.
            if !walk::text(x.len().min(y.len())) {
                return None;
            }
            Some(x.cmp(y))
        }
        (Value::Bool(x), Value::Bool(y)) => Some(x.cmp(y)),
        (Value::List(x), Value::List(y)) => seq_cmp(&x.borrow(), &y.borrow(), depth),
        (Value::Tuple(x), Value::Tuple(y)) => seq_cmp(x, y, depth),
        _ => None,
    }
}

pub(super) fn seq_cmp(a: &[Value], b: &[Value], depth: usize) -> Option<std::cmp::Ordering> {
    for (x, y) in a.iter().zip(b) {
        match compare_at(x, y, depth + 1)? {
            std::cmp::Ordering::Equal => {}
            o => return Some(o),
        }
    }
    Some(a.len().cmp(&b.len()))
}

/// A number as `f64` (ints widen), for mixed int/float arithmetic.
pub(super) fn num(v: &Value) -> Option<f64> {
    match v {
        Value::Int(n) => Some(*n as f64),
        Value::Float(f) => Some(*f),
        _ => None,
    }
}

/// Digits after the point in starlark-rust's float output.
pub(super) const FLOAT_PRECISION: i32 = 6;

/// `str(float)` as starlark-rust writes it: scientific notation when the decimal exponent is 6
/// or more away from zero (mantissa to 6 places, trailing zeros dropped, `e+20`), `1.0` for
/// integral values, the shortest round-trip form otherwise.
pub(super) fn format_float(f: f64) -> String {
    if f.is_nan() {
        return "nan".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+inf" } else { "-inf" }.to_string();
    }
    let exponent = if f == 0.0 {
        0
    } else {
        f.abs().log10().floor() as i32
    };
    if exponent.abs() >= FLOAT_PRECISION {
        let normal = f.abs() / 10f64.powf(exponent as f64);
        let mut out = String::new();
        if f.is_sign_negative() {
            out.push('-');
        }
        out.push_str(&format!("{}", normal.trunc()));
        let tail = (normal.fract() * 10f64.powi(FLOAT_PRECISION)).round() as u64;
        let digits = format!("{:0width$}", tail, width = FLOAT_PRECISION as usize);
        let digits = digits.trim_end_matches('0');
        if !digits.is_empty() {
            out.push('.');
            out.push_str(digits);
        }
        out.push_str(&format!("e{exponent:+03}"));
        out
    } else if f.fract() == 0.0 {
        format!("{f:.1}")
    } else {
        format!("{f}")
    }
}

/// Where a repr is written: a string, or a counter that only measures it.
pub(super) trait Out {
    fn push_str(&mut self, s: &str);
    fn push(&mut self, c: char);
    fn len(&self) -> usize;
}

impl Out for String {
    fn push_str(&mut self, s: &str) {
        String::push_str(self, s)
    }
    fn push(&mut self, c: char) {
        String::push(self, c)
    }
    fn len(&self) -> usize {
        String::len(self)
    }
}

/// Measures a repr without building it ([`Value::text_len`]).
pub(super) struct Count(pub(super) usize);

impl Out for Count {
    fn push_str(&mut self, s: &str) {
        self.0 += s.len();
    }
    fn push(&mut self, c: char) {
        self.0 += c.len_utf8();
    }
    fn len(&self) -> usize {
        self.0
    }
}

/// A string as starlark-rust's `repr` writes it: double quotes, `\n` `\r` `\t` `\\` `\"`
/// escaped, and every character outside printable ASCII as `\xHH`, `\uHHHH` or
/// `\UHHHHHHHH` (so `repr("é")` is `"\xe9"`).
pub(super) fn repr_str(s: &str, out: &mut impl Out) {
    out.push('"');
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            ' '..='~' => out.push(c),
            c if (c as u32) <= 0xff => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) <= 0xffff => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
}

/// Counting the values that comparisons visit. Equality, ordering and hashability recurse into
/// nested lists and tuples, where one `==` can walk far more than the top-level length the
/// interpreter charges for (`(t, t)` nested 60 times is 2⁶⁰ paths). Every visit counts here;
/// past the cap (the steps the file has left) the walk gives up at once, and the interpreter
/// charges the count at its next step, which then fails with the step-budget error. A
/// thread-local, because comparisons run deep inside `Value` methods that have no interpreter
/// at hand; one file is evaluated at a time per thread.
pub(super) mod walk {
    use std::cell::Cell;

    thread_local! {
        static WALKED: Cell<u64> = const { Cell::new(0) };
        static CAP: Cell<u64> = const { Cell::new(u64::MAX) };
    }

    /// One value visited; `false` once over the cap (the caller stops walking).
    pub(crate) fn step() -> bool {
        let n = WALKED.with(|w| {
            let n = w.get().saturating_add(1);
            w.set(n);
            n
        });
        n <= CAP.with(Cell::get)
    }

    /// Visits per step: comparing two values is a few nanoseconds, an expression step
    /// about a hundred.
    const PER_STEP: u64 = 4;

    /// Bytes of text compared per visit: one step per 64 bytes, as `Budget::scan` charges
    /// for scanning text.
    const BYTES_PER_VISIT: usize = 16;

    /// `len` bytes of text about to be compared; `false` once over the cap (the caller then
    /// does not compare, and the step budget error follows at the interpreter's next step).
    pub(crate) fn text(len: usize) -> bool {
        let visits = (len / BYTES_PER_VISIT) as u64;
        let n = WALKED.with(|w| {
            let n = w.get().saturating_add(visits);
            w.set(n);
            n
        });
        n <= CAP.with(Cell::get)
    }

    /// Whether the visits since the last [`take`] went over its cap: a comparison then gave
    /// up, and its answer must not be reported as the file's error.
    pub(crate) fn over() -> bool {
        WALKED.with(Cell::get) > CAP.with(Cell::get)
    }

    /// The visits since the last call; the next ones may cost at most `steps_left`.
    pub(crate) fn take(steps_left: u64) -> u64 {
        CAP.with(|c| c.set(steps_left.saturating_mul(PER_STEP)));
        WALKED.with(|w| w.replace(0))
    }

    /// What `visits` cost in steps (rounded up).
    pub(crate) fn steps(visits: u64) -> u64 {
        visits.div_ceil(PER_STEP)
    }
}
