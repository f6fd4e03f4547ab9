//! Calling functions: user `def`s and lambdas, argument binding for the built-ins.

use std::rc::Rc;

use super::super::diag::Span;
use super::interp::{set, Flow, Interp, Scope, R};
use super::value::Value;

/// Nested function calls (Starlark forbids recursion; this bounds the call chain).
const MAX_CALL_DEPTH: usize = 64;

/// Parameters of a native function: (name, required).
pub(super) type Sig = &'static [(&'static str, bool)];

pub(super) const PREFIX_RULE: Sig = &[
    ("pattern", true),
    ("decision", false),
    ("match", false),
    ("not_match", false),
    ("justification", false),
    ("canonical_matching", false),
];
pub(super) const NETWORK_RULE: Sig = &[
    ("host", true),
    ("protocol", true),
    ("decision", true),
    ("justification", false),
];
pub(super) const HOST_EXECUTABLE: Sig = &[("name", true), ("paths", true)];

impl Interp<'_> {
    /// Built-ins and methods read the strings they are given (`len`, `hash`, `int`, a
    /// separator, a prefix, a needle): one step per 64 bytes of them, on top of the call's
    /// own step. Short strings cost nothing more, so ordinary files spend exactly what they
    /// did; `hash(x)` of a 1 MB string costs 15 625 steps, not one.
    fn charge_text_args(&self, pos: &[Value], named: &[(String, Value)], span: Span) -> R<()> {
        let bytes = pos
            .iter()
            .chain(named.iter().map(|(_, v)| v))
            .map(|v| match v {
                Value::Str(s) => s.len(),
                _ => 0,
            })
            .fold(0usize, usize::saturating_add);
        self.work(bytes / 64, span)
    }

    pub(super) fn call(
        &mut self,
        f: Value,
        pos: Vec<Value>,
        named: Vec<(String, Value)>,
        span: Span,
    ) -> R<Value> {
        let caller = self
            .fn_names
            .last()
            .cloned()
            .unwrap_or_else(|| "<module>".to_string());
        if self.frames.len() >= MAX_CALL_DEPTH {
            return Err(self.err(span, "Starlark call stack overflow"));
        }
        self.frames.push((caller, span));
        let r = self.call_inner(f, pos, named, span);
        self.frames.pop();
        r
    }

    pub(super) fn call_inner(
        &mut self,
        f: Value,
        pos: Vec<Value>,
        named: Vec<(String, Value)>,
        span: Span,
    ) -> R<Value> {
        match f {
            Value::Func(closure) => {
                let (def, defaults, captured) =
                    (&closure.def, &closure.defaults, &closure.captured);
                if self.active.iter().any(|d| Rc::ptr_eq(d, def)) {
                    return Err(self.err(span, "Starlark call stack overflow"));
                }
                self.slots(captured.len() + def.params.len(), span)?;
                let mut locals: Vec<(String, Value)> = captured.clone();
                let mut pos = pos.into_iter();
                let mut named = named;
                // After `*args` or a bare `*`, parameters are keyword-only.
                let mut keyword_only = false;
                for (p, default) in def.params.iter().zip(defaults.iter()) {
                    match p.stars {
                        1 => {
                            keyword_only = true;
                            if !p.name.is_empty() {
                                let rest: Vec<Value> = pos.by_ref().collect();
                                set(&mut locals, &p.name, Value::tuple(rest));
                            }
                        }
                        2 => {
                            let rest: Vec<(Value, Value)> =
                                named.drain(..).map(|(k, v)| (Value::str(&k), v)).collect();
                            set(&mut locals, &p.name, Value::dict(rest));
                        }
                        _ => {
                            let positional = if keyword_only { None } else { pos.next() };
                            let v = if let Some(v) = positional {
                                if named.iter().any(|(n, _)| *n == p.name) {
                                    return Err(self.err(
                                        span,
                                        format!("Multiple values for parameter `{}`", p.name),
                                    ));
                                }
                                v
                            } else if let Some(i) = named.iter().position(|(n, _)| *n == p.name) {
                                named.remove(i).1
                            } else if let Some(d) = default {
                                d.clone()
                            } else {
                                return Err(self.err(
                                    span,
                                    format!(
                                        "Missing {}parameter `{}` for call to `{}.{}`",
                                        if keyword_only { "named-only " } else { "" },
                                        p.name,
                                        closure.module,
                                        def.name
                                    ),
                                ));
                            };
                            set(&mut locals, &p.name, v);
                        }
                    }
                }
                let extra = pos.count();
                if extra > 0 {
                    return Err(self.err(
                        span,
                        format!(
                            "Found {extra} extra positional argument(s) for call to {}.{}",
                            closure.module, def.name
                        ),
                    ));
                }
                if let Some((n, _)) = named.first() {
                    return Err(self.err(
                        span,
                        format!(
                            "Found `{n}` extra named parameter(s) for call to {}",
                            def.name
                        ),
                    ));
                }
                self.fn_names.push(def.name.clone());
                self.active.push(def.clone());
                self.local_names.push(closure.clone());
                let mut scope = Scope::Function(locals);
                let r = self.exec_block(&def.body, &mut scope);
                self.local_names.pop();
                self.active.pop();
                self.fn_names.pop();
                Ok(match r? {
                    Flow::Return(v) => v,
                    _ => Value::None,
                })
            }
            Value::Builtin(name) => {
                self.charge_text_args(&pos, &named, span)?;
                self.builtin(name, pos, named, span)
            }
            Value::Method(obj, name) => {
                self.charge_text_args(&pos, &named, span)?;
                self.method(&obj, name, pos, named, span)
            }
            other => Err(self.err(
                span,
                format!(
                    "Operation `call()` not supported on type `{}`",
                    other.type_name()
                ),
            )),
        }
    }

    /// Binds native arguments by name (positional or keyword), as `#[starlark_module]` does.
    pub(super) fn bind_native(
        &self,
        fname: &str,
        sig: Sig,
        pos: Vec<Value>,
        named: Vec<(String, Value)>,
        span: Span,
    ) -> R<Vec<Option<Value>>> {
        if pos.len() > sig.len() {
            return Err(self.err(
                span,
                format!(
                    "Found {} extra positional argument(s) for call to {fname}",
                    pos.len() - sig.len()
                ),
            ));
        }
        let mut out: Vec<Option<Value>> = vec![None; sig.len()];
        for (i, v) in pos.into_iter().enumerate() {
            out[i] = Some(v);
        }
        for (n, v) in named {
            let Some(i) = sig.iter().position(|(p, _)| *p == n) else {
                return Err(self.err(
                    span,
                    format!("Found `{n}` extra named parameter(s) for call to {fname}"),
                ));
            };
            if out[i].is_some() {
                return Err(self.err(
                    span,
                    format!("Multiple values for parameter `{n}` in call to {fname}"),
                ));
            }
            out[i] = Some(v);
        }
        // An explicit `None` is not "not given": the real parameters are `Option<&str>`, so
        // `decision=None` is a type error there too.
        for ((p, required), v) in sig.iter().zip(out.iter()) {
            if *required && v.is_none() {
                return Err(self.err(
                    span,
                    format!("Missing parameter `{p}` for call to `{fname}`"),
                ));
            }
        }
        Ok(out)
    }

    pub(super) fn want_str(&self, param: &str, v: &Value, span: Span) -> R<Rc<str>> {
        match v {
            Value::Str(s) => Ok(s.clone()),
            other => Err(self.err(
                span,
                format!(
                    "Type of parameter `{param}` doesn't match, expected `str`, actual `{}`",
                    other.desc()
                ),
            )),
        }
    }

    pub(super) fn want_bool(&self, param: &str, v: &Value, span: Span) -> R<bool> {
        match v {
            Value::Bool(b) => Ok(*b),
            other => Err(self.err(
                span,
                format!(
                    "Type of parameter `{param}` doesn't match, expected `bool`, actual `{}`",
                    other.desc()
                ),
            )),
        }
    }

    pub(super) fn want_list(&self, param: &str, v: &Value, span: Span) -> R<Vec<Value>> {
        if let Value::List(l) = v {
            self.slots(l.borrow().len(), span)?;
        }
        match v {
            Value::List(l) => Ok(l.borrow().clone()),
            other => Err(self.err(
                span,
                format!(
                    "Type of parameter `{param}` doesn't match, expected `list`, actual `{}`",
                    other.desc()
                ),
            )),
        }
    }

    pub(super) fn builtin(
        &mut self,
        name: &'static str,
        pos: Vec<Value>,
        named: Vec<(String, Value)>,
        span: Span,
    ) -> R<Value> {
        match name {
            "prefix_rule" => self.prefix_rule(pos, named, span),
            "network_rule" => self.network_rule(pos, named, span),
            "host_executable" => self.host_executable(pos, named, span),
            _ => self.generic_builtin(name, pos, named, span),
        }
    }
}
