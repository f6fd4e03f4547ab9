//! Evaluates a parsed `.rules` file, calling the three policy built-ins.
//!
//! Mirrors the order of the real loader: the whole file is parsed first (a syntax error
//! anywhere wins), then names are resolved statically (an unknown name such as `allow_rule`
//! is reported before anything runs, with no traceback), then the module runs top to bottom;
//! examples are validated only after the module finished (see `policy.rs`).
//!
//! Starlark programs always terminate (no `while`, no recursion), but a hostile file can still
//! ask for a lot of work (`for i in range(10**9)`): a step budget turns that into an error.
//!
//! Checked against starlark-rust 0.13 (the interpreter codex uses) on 322 snippets
//! (`fixtures/codex/starlark-oracle.json`): the same files load with the same rules, and the
//! same files fail. One deliberate difference: starlark-rust has arbitrary-precision integers,
//! permlab stops at 64 bits (an overflow is a load error). Error *texts* match for common
//! cases (every load error in the conformance data) but not for every message.

use std::cell::RefCell;
use std::collections::HashSet;
use std::rc::Rc;

use super::diag::{Diag, DiagKind, LoadError, Span};
use super::lexer::{lex, FPart};
use super::policy::{Decision, NetworkRule, PatternToken, PendingExamples, Policy, PrefixRule};
use super::shlex;
use super::syntax::Expr;
use super::syntax::{parse, Arg, BinOp, Clause, ExprKind, FnDef, Stmt, Target};

/// Work allowed per file (expression evaluations and loop iterations).
const BUDGET: u64 = 2_000_000;
/// Largest list or string a file may build.
const MAX_LEN: usize = 1_000_000;
/// Nested function calls (Starlark forbids recursion; this bounds the call chain).
const MAX_CALL_DEPTH: usize = 64;

/// The names a policy file sees without defining them: starlark-rust 0.13's standard globals
/// plus the three policy built-ins, in the order the real `Globals::names()` lists them (it
/// matters for "did you mean" ties). No `print`: it is not in the standard set.
const BUILTINS: &[&str] = &[
    "False",
    "None",
    "True",
    "abs",
    "all",
    "any",
    "bool",
    "chr",
    "dict",
    "dir",
    "enumerate",
    "fail",
    "float",
    "getattr",
    "hasattr",
    "hash",
    "host_executable",
    "int",
    "len",
    "list",
    "max",
    "min",
    "network_rule",
    "ord",
    "prefix_rule",
    "range",
    "repr",
    "reversed",
    "sorted",
    "str",
    "tuple",
    "type",
    "zip",
];

/// A user function as a value.
#[derive(Debug)]
pub(crate) struct Closure {
    def: Rc<FnDef>,
    /// Evaluated default values, one per parameter.
    defaults: Vec<Option<Value>>,
    /// The enclosing function's variables at definition time (empty at top level).
    captured: Vec<(String, Value)>,
    /// Names local to the function (parameters and anything it assigns): reading one before
    /// it is bound is an error, never a fallback to a global of the same name.
    locals: HashSet<String>,
    /// The file it was defined in (`str(f)` is `policy.rules.f`).
    module: Rc<str>,
}

#[derive(Clone, Debug)]
pub(crate) enum Value {
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Rc<str>),
    List(Rc<RefCell<Vec<Value>>>),
    Tuple(Rc<Vec<Value>>),
    Dict(Rc<RefCell<Vec<(Value, Value)>>>),
    /// A user function (`def` or `lambda`).
    Func(Rc<Closure>),
    Builtin(&'static str),
    Method(Rc<Value>, &'static str),
}

impl Value {
    fn str(s: &str) -> Value {
        Value::Str(Rc::from(s))
    }

    fn list(v: Vec<Value>) -> Value {
        Value::List(Rc::new(RefCell::new(v)))
    }

    fn type_name(&self) -> &'static str {
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

    fn truthy(&self) -> bool {
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

    fn repr(&self) -> String {
        let mut out = String::new();
        self.write_repr(&mut out, 0);
        out
    }

    fn write_repr(&self, out: &mut String, depth: usize) {
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
    fn to_str(&self) -> String {
        match self {
            Value::Str(s) => s.to_string(),
            v => v.repr(),
        }
    }

    fn equals(&self, other: &Value) -> bool {
        self.equals_at(other, 0)
    }

    /// Structural equality; a list that contains itself must not recurse forever, so past a
    /// fixed depth values compare unequal.
    fn equals_at(&self, other: &Value, depth: usize) -> bool {
        if depth > 64 {
            return false;
        }
        let eq = |x: &Value, y: &Value| x.equals_at(y, depth + 1);
        match (self, other) {
            (Value::None, Value::None) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Float(_), Value::Int(_) | Value::Float(_))
            | (Value::Int(_), Value::Float(_)) => num(self) == num(other),
            (Value::Str(a), Value::Str(b)) => a == b,
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
    fn hashable(&self) -> bool {
        match self {
            Value::List(_) | Value::Dict(_) => false,
            Value::Tuple(t) => t.iter().all(Value::hashable),
            _ => true,
        }
    }

    fn desc(&self) -> String {
        format!("{} (repr: {})", self.type_name(), self.repr())
    }
}

enum Flow {
    Normal,
    Break,
    Continue,
    Return(Value),
}

type R<T> = Result<T, Diag>;

/// Evaluates `text` into `policy`; returns the example validations to run afterwards.
pub(crate) fn run_file(
    name: &str,
    text: &str,
    policy: &mut Policy,
) -> Result<Vec<PendingExamples>, LoadError> {
    let fail = |d: Diag| LoadError::from_diag(name, text, &d);
    let tokens = lex(text).map_err(fail)?;
    let stmts = parse(tokens).map_err(fail)?;
    resolve_module(&stmts).map_err(fail)?;
    let mut interp = Interp {
        globals: Vec::new(),
        policy,
        pending: Vec::new(),
        frames: Vec::new(),
        fn_names: Vec::new(),
        active: Vec::new(),
        iterating: Vec::new(),
        module: Rc::from(name),
        local_names: Vec::new(),
        budget: BUDGET,
    };
    let mut scope = Scope::Module;
    match interp.exec_block(&stmts, &mut scope) {
        Ok(_) => Ok(interp.pending),
        Err(d) => Err(fail(d)),
    }
}

// ---------------------------------------------------------------- static name resolution

fn bind_target(t: &Target, names: &mut HashSet<String>) {
    match t {
        Target::Name(n, _) => {
            names.insert(n.clone());
        }
        Target::Tuple(ts) => ts.iter().for_each(|t| bind_target(t, names)),
        Target::Index(..) => {}
    }
}

/// Names bound by assignments, `for` targets and `def`s in a block (not inside nested defs).
fn bound_names(stmts: &[Stmt], names: &mut HashSet<String>) {
    for s in stmts {
        match s {
            Stmt::Assign(t, _) | Stmt::AugAssign(t, ..) => bind_target(t, names),
            Stmt::Def(f) => {
                names.insert(f.name.clone());
            }
            Stmt::For(t, _, body) => {
                bind_target(t, names);
                bound_names(body, names);
            }
            Stmt::If(_, a, b) => {
                bound_names(a, names);
                bound_names(b, names);
            }
            _ => {}
        }
    }
}

struct Resolver {
    globals: HashSet<String>,
    /// Innermost last: function locals, then comprehension variables.
    scopes: Vec<HashSet<String>>,
}

fn resolve_module(stmts: &[Stmt]) -> R<()> {
    let mut globals = HashSet::new();
    bound_names(stmts, &mut globals);
    let mut r = Resolver {
        globals,
        scopes: Vec::new(),
    };
    r.block(stmts)
}

impl Resolver {
    /// starlark-rust's message, with its "did you mean" over the visible names (innermost
    /// scope first, then module names, then the built-ins).
    fn not_found(&self, name: &str, span: Span) -> Diag {
        let mut visible: Vec<&str> = Vec::new();
        for scope in self.scopes.iter().rev() {
            let mut names: Vec<&str> = scope.iter().map(String::as_str).collect();
            names.sort_unstable();
            visible.extend(names);
        }
        let mut globals: Vec<&str> = self.globals.iter().map(String::as_str).collect();
        globals.sort_unstable();
        visible.extend(globals);
        visible.extend(BUILTINS.iter().copied());
        match did_you_mean(name, &visible) {
            Some(better) => Diag::stat(
                span,
                format!("Variable `{name}` not found, did you mean `{better}`?"),
            ),
            None => Diag::stat(span, format!("Variable `{name}` not found")),
        }
    }

    fn known(&self, name: &str) -> bool {
        self.scopes.iter().any(|s| s.contains(name))
            || self.globals.contains(name)
            || BUILTINS.contains(&name)
    }

    fn block(&mut self, stmts: &[Stmt]) -> R<()> {
        for s in stmts {
            match s {
                Stmt::Expr(e) | Stmt::Return(Some(e)) => self.expr(e)?,
                Stmt::Assign(t, e) => {
                    self.expr(e)?;
                    self.target(t)?;
                }
                Stmt::AugAssign(t, _, e, _) => {
                    self.target(t)?;
                    self.expr(e)?;
                }
                Stmt::Def(f) => self.function(f)?,
                Stmt::For(t, e, body) => {
                    self.expr(e)?;
                    self.target(t)?;
                    self.block(body)?;
                }
                Stmt::If(c, a, b) => {
                    self.expr(c)?;
                    self.block(a)?;
                    self.block(b)?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn function(&mut self, f: &FnDef) -> R<()> {
        for p in &f.params {
            if let Some(d) = &p.default {
                self.expr(d)?;
            }
        }
        let mut locals: HashSet<String> = f.params.iter().map(|p| p.name.clone()).collect();
        bound_names(&f.body, &mut locals);
        self.scopes.push(locals);
        let r = self.block(&f.body);
        self.scopes.pop();
        r
    }

    fn target(&mut self, t: &Target) -> R<()> {
        match t {
            Target::Name(..) => Ok(()),
            Target::Tuple(ts) => ts.iter().try_for_each(|t| self.target(t)),
            Target::Index(a, b) => {
                self.expr(a)?;
                self.expr(b)
            }
        }
    }

    fn clauses(&mut self, clauses: &[Clause], body: &mut dyn FnMut(&mut Self) -> R<()>) -> R<()> {
        let mut vars = HashSet::new();
        for c in clauses {
            if let Clause::For(t, _) = c {
                bind_target(t, &mut vars);
            }
        }
        // The first iterable is resolved outside the comprehension's scope.
        let mut first = true;
        self.scopes.push(HashSet::new());
        let mut result = Ok(());
        for c in clauses {
            let r = match c {
                Clause::For(t, e) => {
                    let r = if first {
                        let saved = self.scopes.pop();
                        let r = self.expr(e);
                        if let Some(s) = saved {
                            self.scopes.push(s);
                        }
                        r
                    } else {
                        self.expr(e)
                    };
                    first = false;
                    if let Some(s) = self.scopes.last_mut() {
                        bind_target(t, s);
                    }
                    r
                }
                Clause::If(e) => self.expr(e),
            };
            if r.is_err() {
                result = r;
                break;
            }
        }
        if result.is_ok() {
            result = body(self);
        }
        self.scopes.pop();
        let _ = vars;
        result
    }

    fn expr(&mut self, e: &Expr) -> R<()> {
        match &e.kind {
            ExprKind::Ident(n) => {
                if self.known(n) {
                    Ok(())
                } else {
                    Err(self.not_found(n, e.span))
                }
            }
            ExprKind::FStr(parts) => {
                for p in parts {
                    if let FPart::Var(n, span) = p {
                        if !self.known(n) {
                            return Err(self.not_found(n, *span));
                        }
                    }
                }
                Ok(())
            }
            ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Str(_) => Ok(()),
            ExprKind::List(items) | ExprKind::Tuple(items) => {
                items.iter().try_for_each(|i| self.expr(i))
            }
            ExprKind::Dict(items) => items.iter().try_for_each(|(k, v)| {
                self.expr(k)?;
                self.expr(v)
            }),
            ExprKind::ListComp(elt, clauses) => self.clauses(clauses, &mut |r| r.expr(elt)),
            ExprKind::DictComp(kv, clauses) => self.clauses(clauses, &mut |r| {
                r.expr(&kv.0)?;
                r.expr(&kv.1)
            }),
            ExprKind::Call(f, args) => {
                self.expr(f)?;
                args.iter().try_for_each(|a| match a {
                    Arg::Pos(e) | Arg::Named(_, e) | Arg::Star(e) | Arg::StarStar(e) => {
                        self.expr(e)
                    }
                })
            }
            ExprKind::Index(a, b)
            | ExprKind::And(a, b)
            | ExprKind::Or(a, b)
            | ExprKind::Bin(_, a, b) => {
                self.expr(a)?;
                self.expr(b)
            }
            ExprKind::Slice(a, parts) => {
                self.expr(a)?;
                parts.iter().flatten().try_for_each(|p| self.expr(p))
            }
            ExprKind::Attr(a, _)
            | ExprKind::Neg(a)
            | ExprKind::Pos(a)
            | ExprKind::Invert(a)
            | ExprKind::Not(a) => self.expr(a),
            ExprKind::Cond(c, a, b) => {
                self.expr(c)?;
                self.expr(a)?;
                self.expr(b)
            }
            ExprKind::Lambda(f) => self.function(f),
        }
    }
}

// ---------------------------------------------------------------- interpreter

enum Scope {
    Module,
    Function(Vec<(String, Value)>),
}

struct Interp<'p> {
    globals: Vec<(String, Value)>,
    policy: &'p mut Policy,
    pending: Vec<PendingExamples>,
    /// Active calls: (name of the calling function, span of the call expression).
    frames: Vec<(String, Span)>,
    /// Names of the user functions being executed, innermost last.
    fn_names: Vec<String>,
    /// The same functions, to refuse recursion (Starlark forbids it).
    active: Vec<Rc<FnDef>>,
    /// Lists and dicts being iterated by a `for` (by address): mutating one is an error.
    iterating: Vec<usize>,
    /// The file's name, for `str()` of its functions.
    module: Rc<str>,
    /// For each active user function, the names local to it (innermost last).
    local_names: Vec<Rc<Closure>>,
    budget: u64,
}

fn lookup<'a>(vars: &'a [(String, Value)], name: &str) -> Option<&'a Value> {
    vars.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v)
}

fn set(vars: &mut Vec<(String, Value)>, name: &str, v: Value) {
    if let Some(slot) = vars.iter_mut().find(|(n, _)| n == name) {
        slot.1 = v;
    } else {
        vars.push((name.to_string(), v));
    }
}

impl Interp<'_> {
    fn tick(&mut self, span: Span) -> R<()> {
        if self.budget == 0 {
            return Err(self.err(
                span,
                "policy evaluation exceeded its step budget (is a loop too large?)",
            ));
        }
        self.budget -= 1;
        Ok(())
    }

    /// A runtime error carrying the current call stack.
    fn err(&self, span: Span, msg: impl Into<String>) -> Diag {
        Diag {
            kind: DiagKind::Runtime(self.frames.clone()),
            span,
            message: msg.into(),
        }
    }

    fn exec_block(&mut self, stmts: &[Stmt], scope: &mut Scope) -> R<Flow> {
        for s in stmts {
            match self.exec(s, scope)? {
                Flow::Normal => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Normal)
    }

    fn exec(&mut self, s: &Stmt, scope: &mut Scope) -> R<Flow> {
        match s {
            Stmt::Expr(e) => {
                self.eval(e, scope)?;
            }
            Stmt::Assign(t, e) => {
                let v = self.eval(e, scope)?;
                self.assign(t, v, scope, e.span)?;
            }
            Stmt::AugAssign(t, op, e, span) => {
                let cur = match t {
                    Target::Name(n, nspan) => self.var(n, *nspan, scope)?,
                    Target::Index(a, b) => {
                        let a = self.eval(a, scope)?;
                        let b = self.eval(b, scope)?;
                        self.index(&a, &b, *span)?
                    }
                    Target::Tuple(_) => return Err(self.err(*span, "cannot augment a tuple")),
                };
                let rhs = self.eval(e, scope)?;
                // `list += x` extends in place (the list is shared), like Python.
                let v = if let (BinOp::Add, Value::List(l)) = (op, &cur) {
                    self.check_mutable(&cur, *span)?;
                    let items = self.iterate(&rhs, e.span)?;
                    self.grow_check(l.borrow().len() + items.len(), *span)?;
                    l.borrow_mut().extend(items);
                    cur.clone()
                } else {
                    self.binop(*op, &cur, &rhs, *span)?
                };
                self.assign(t, v, scope, *span)?;
            }
            Stmt::Def(f) => {
                let mut defaults = Vec::with_capacity(f.params.len());
                for p in &f.params {
                    defaults.push(match &p.default {
                        Some(d) => Some(self.eval(d, scope)?),
                        None => None,
                    });
                }
                let v = self.make_fn(f, defaults, scope);
                self.bind(&f.name, v, scope);
            }
            Stmt::For(t, e, body) => {
                let it = self.eval(e, scope)?;
                let items = self.iterate(&it, e.span)?;
                let id = Self::container_id(&it);
                self.iterating.extend(id);
                let r = self.for_body(t, items, body, scope, e.span);
                if id.is_some() {
                    self.iterating.pop();
                }
                if let Flow::Return(v) = r? {
                    return Ok(Flow::Return(v));
                }
            }
            Stmt::If(c, a, b) => {
                let cond = self.eval(c, scope)?.truthy();
                return self.exec_block(if cond { a } else { b }, scope);
            }
            Stmt::Return(e) => {
                let v = match e {
                    Some(e) => self.eval(e, scope)?,
                    None => Value::None,
                };
                return Ok(Flow::Return(v));
            }
            Stmt::Pass => {}
            Stmt::Break => return Ok(Flow::Break),
            Stmt::Continue => return Ok(Flow::Continue),
        }
        Ok(Flow::Normal)
    }

    fn make_fn(&self, f: &Rc<FnDef>, defaults: Vec<Option<Value>>, scope: &Scope) -> Value {
        let captured = match scope {
            Scope::Module => Vec::new(),
            Scope::Function(locals) => locals.clone(),
        };
        let mut locals: HashSet<String> = f.params.iter().map(|p| p.name.clone()).collect();
        bound_names(&f.body, &mut locals);
        Value::Func(Rc::new(Closure {
            def: f.clone(),
            defaults,
            captured,
            locals,
            module: self.module.clone(),
        }))
    }

    fn for_body(
        &mut self,
        t: &Target,
        items: Vec<Value>,
        body: &[Stmt],
        scope: &mut Scope,
        span: Span,
    ) -> R<Flow> {
        for item in items {
            self.tick(span)?;
            self.assign(t, item, scope, span)?;
            match self.exec_block(body, scope)? {
                Flow::Break => break,
                Flow::Return(v) => return Ok(Flow::Return(v)),
                Flow::Normal | Flow::Continue => {}
            }
        }
        Ok(Flow::Normal)
    }

    fn bind(&mut self, name: &str, v: Value, scope: &mut Scope) {
        match scope {
            Scope::Module => set(&mut self.globals, name, v),
            Scope::Function(locals) => set(locals, name, v),
        }
    }

    fn assign(&mut self, t: &Target, v: Value, scope: &mut Scope, span: Span) -> R<()> {
        match t {
            Target::Name(n, _) => {
                self.bind(n, v, scope);
                Ok(())
            }
            Target::Tuple(ts) => {
                if !matches!(v, Value::List(_) | Value::Tuple(_) | Value::Dict(_)) {
                    return Err(self.err(
                        span,
                        format!(
                            "Operation `len()` not supported on type `{}`",
                            v.type_name()
                        ),
                    ));
                }
                let items = self.iterate(&v, span)?;
                if items.len() != ts.len() {
                    return Err(self.err(
                        span,
                        format!("Unpacked {} values but expected {}", items.len(), ts.len()),
                    ));
                }
                for (t, v) in ts.iter().zip(items) {
                    self.assign(t, v, scope, span)?;
                }
                Ok(())
            }
            Target::Index(a, b) => {
                let obj = self.eval(a, scope)?;
                let key = self.eval(b, scope)?;
                self.check_mutable(&obj, span)?;
                match &obj {
                    Value::List(l) => {
                        let len = l.borrow().len();
                        let i = self.list_index(&key, len, span)?;
                        l.borrow_mut()[i] = v;
                        Ok(())
                    }
                    Value::Dict(d) => {
                        self.key_check(&key, span)?;
                        let mut d = d.borrow_mut();
                        if let Some(slot) = d.iter_mut().find(|(k, _)| k.equals(&key)) {
                            slot.1 = v;
                        } else {
                            d.push((key, v));
                        }
                        Ok(())
                    }
                    Value::Str(_) | Value::Tuple(_) => Err(self.err(span, "Immutable")),
                    other => Err(self.err(
                        span,
                        format!("{} does not support item assignment", other.type_name()),
                    )),
                }
            }
        }
    }

    fn var(&self, name: &str, span: Span, scope: &Scope) -> R<Value> {
        if let Scope::Function(locals) = scope {
            if let Some(v) = lookup(locals, name) {
                return Ok(v.clone());
            }
            // Assigned somewhere in this function, so local for all of it (Starlark's static
            // scoping): not yet bound here.
            if self
                .local_names
                .last()
                .is_some_and(|c| c.locals.contains(name))
            {
                return Err(self.err(
                    span,
                    format!("Local variable `{name}` referenced before assignment"),
                ));
            }
        }
        if let Some(v) = lookup(&self.globals, name) {
            return Ok(v.clone());
        }
        match name {
            "None" => return Ok(Value::None),
            "True" => return Ok(Value::Bool(true)),
            "False" => return Ok(Value::Bool(false)),
            _ => {}
        }
        if let Some(b) = BUILTINS.iter().find(|b| **b == name) {
            return Ok(Value::Builtin(b));
        }
        Err(self.err(
            span,
            format!("Local variable `{name}` referenced before assignment"),
        ))
    }

    fn iterate(&self, v: &Value, span: Span) -> R<Vec<Value>> {
        match v {
            Value::List(l) => Ok(l.borrow().clone()),
            Value::Tuple(t) => Ok(t.as_ref().clone()),
            Value::Dict(d) => Ok(d.borrow().iter().map(|(k, _)| k.clone()).collect()),
            other => Err(self.err(
                span,
                format!(
                    "Operation `(iter)` not supported on type `{}`",
                    other.type_name()
                ),
            )),
        }
    }

    /// The identity of a mutable container, if `v` is one.
    fn container_id(v: &Value) -> Option<usize> {
        match v {
            Value::List(l) => Some(Rc::as_ptr(l) as *const () as usize),
            Value::Dict(d) => Some(Rc::as_ptr(d) as *const () as usize),
            _ => None,
        }
    }

    fn check_mutable(&self, v: &Value, span: Span) -> R<()> {
        match Self::container_id(v) {
            Some(id) if self.iterating.contains(&id) => Err(self.err(
                span,
                "This operation mutate an iterable for an iterator while iterating.",
            )),
            _ => Ok(()),
        }
    }

    fn key_check(&self, key: &Value, span: Span) -> R<()> {
        if key.hashable() {
            Ok(())
        } else {
            Err(self.err(
                span,
                format!("Value of type `{}` is not hashable", key.type_name()),
            ))
        }
    }

    fn grow_check(&self, len: usize, span: Span) -> R<()> {
        if len > MAX_LEN {
            Err(self.err(span, "value too large for a policy file"))
        } else {
            Ok(())
        }
    }

    fn eval(&mut self, e: &Expr, scope: &mut Scope) -> R<Value> {
        self.tick(e.span)?;
        Ok(match &e.kind {
            ExprKind::Ident(n) => self.var(n, e.span, scope)?,
            ExprKind::Int(n) => Value::Int(*n),
            ExprKind::Float(f) => Value::Float(*f),
            ExprKind::Str(s) => Value::Str(s.clone()),
            ExprKind::FStr(parts) => {
                let mut out = String::new();
                for p in parts {
                    match p {
                        FPart::Lit(s) => out.push_str(s),
                        FPart::Var(n, span) => out.push_str(&self.var(n, *span, scope)?.to_str()),
                    }
                }
                Value::str(&out)
            }
            ExprKind::List(items) => {
                let mut v = Vec::with_capacity(items.len());
                for i in items {
                    v.push(self.eval(i, scope)?);
                }
                Value::list(v)
            }
            ExprKind::Tuple(items) => {
                let mut v = Vec::with_capacity(items.len());
                for i in items {
                    v.push(self.eval(i, scope)?);
                }
                Value::Tuple(Rc::new(v))
            }
            ExprKind::Dict(items) => {
                let mut v: Vec<(Value, Value)> = Vec::with_capacity(items.len());
                for (kx, val) in items {
                    let k = self.eval(kx, scope)?;
                    self.key_check(&k, kx.span)?;
                    let val = self.eval(val, scope)?;
                    if v.iter().any(|(k2, _)| k2.equals(&k)) {
                        return Err(self.err(
                            kx.span,
                            format!("Dictionary key repeated for `{}`", k.to_str()),
                        ));
                    }
                    v.push((k, val));
                }
                Value::Dict(Rc::new(RefCell::new(v)))
            }
            ExprKind::ListComp(elt, clauses) => {
                let mut out = Vec::new();
                self.comprehension(clauses, 0, scope, &mut |me, sc| {
                    let v = me.eval(elt, sc)?;
                    out.push(v);
                    me.grow_check(out.len(), e.span)
                })?;
                Value::list(out)
            }
            ExprKind::DictComp(kv, clauses) => {
                let mut out: Vec<(Value, Value)> = Vec::new();
                self.comprehension(clauses, 0, scope, &mut |me, sc| {
                    let k = me.eval(&kv.0, sc)?;
                    me.key_check(&k, kv.0.span)?;
                    let v = me.eval(&kv.1, sc)?;
                    if let Some(slot) = out.iter_mut().find(|(k2, _)| k2.equals(&k)) {
                        slot.1 = v;
                    } else {
                        out.push((k, v));
                    }
                    me.grow_check(out.len(), e.span)
                })?;
                Value::Dict(Rc::new(RefCell::new(out)))
            }
            ExprKind::Call(f, args) => {
                let fv = self.eval(f, scope)?;
                let mut pos = Vec::new();
                let mut named: Vec<(String, Value)> = Vec::new();
                for a in args {
                    match a {
                        Arg::Pos(x) => pos.push(self.eval(x, scope)?),
                        Arg::Named(n, x) => {
                            let v = self.eval(x, scope)?;
                            if named.iter().any(|(m, _)| m == n) {
                                return Err(
                                    self.err(x.span, format!("Repeated named argument `{n}`"))
                                );
                            }
                            named.push((n.clone(), v));
                        }
                        Arg::Star(x) => {
                            let v = self.eval(x, scope)?;
                            pos.extend(self.iterate(&v, x.span)?);
                        }
                        Arg::StarStar(x) => {
                            let v = self.eval(x, scope)?;
                            let Value::Dict(d) = &v else {
                                return Err(self.err(
                                    x.span,
                                    format!("`**` argument must be a dict, got {}", v.type_name()),
                                ));
                            };
                            for (k, val) in d.borrow().iter() {
                                let Value::Str(k) = k else {
                                    return Err(
                                        self.err(x.span, "`**` argument keys must be strings")
                                    );
                                };
                                named.push((k.to_string(), val.clone()));
                            }
                        }
                    }
                }
                self.call(fv, pos, named, e.span)?
            }
            ExprKind::Index(a, b) => {
                let a = self.eval(a, scope)?;
                let b = self.eval(b, scope)?;
                self.index(&a, &b, e.span)?
            }
            ExprKind::Slice(a, parts) => {
                let obj = self.eval(a, scope)?;
                let mut idx = [None, None, None];
                for (k, p) in parts.iter().enumerate() {
                    if let Some(p) = p {
                        match self.eval(p, scope)? {
                            Value::Int(n) => idx[k] = Some(n),
                            Value::None => {}
                            other => {
                                return Err(self.err(
                                    p.span,
                                    format!(
                                        "slice index must be an int, got {}",
                                        other.type_name()
                                    ),
                                ))
                            }
                        }
                    }
                }
                self.slice(&obj, idx, e.span)?
            }
            ExprKind::Attr(a, name) => {
                let obj = self.eval(a, scope)?;
                self.attr(obj, name, e.span)?
            }
            ExprKind::Neg(a) => match self.eval(a, scope)? {
                Value::Int(n) => Value::Int(
                    n.checked_neg()
                        .ok_or_else(|| self.err(e.span, "integer overflow"))?,
                ),
                Value::Float(f) => Value::Float(-f),
                other => {
                    return Err(self.err(
                        e.span,
                        format!(
                            "Operation `-` not supported on type `{}`",
                            other.type_name()
                        ),
                    ))
                }
            },
            ExprKind::Invert(a) => match self.eval(a, scope)? {
                Value::Int(n) => Value::Int(!n),
                other => {
                    return Err(self.err(
                        e.span,
                        format!(
                            "Operation `~` not supported on type `{}`",
                            other.type_name()
                        ),
                    ))
                }
            },
            ExprKind::Pos(a) => match self.eval(a, scope)? {
                Value::Int(n) => Value::Int(n),
                Value::Float(f) => Value::Float(f),
                other => {
                    return Err(self.err(
                        e.span,
                        format!(
                            "Operation `+` not supported on type `{}`",
                            other.type_name()
                        ),
                    ))
                }
            },
            ExprKind::Not(a) => Value::Bool(!self.eval(a, scope)?.truthy()),
            ExprKind::And(a, b) => {
                let l = self.eval(a, scope)?;
                if l.truthy() {
                    self.eval(b, scope)?
                } else {
                    l
                }
            }
            ExprKind::Or(a, b) => {
                let l = self.eval(a, scope)?;
                if l.truthy() {
                    l
                } else {
                    self.eval(b, scope)?
                }
            }
            ExprKind::Bin(op, a, b) => {
                let l = self.eval(a, scope)?;
                let r = self.eval(b, scope)?;
                self.binop(*op, &l, &r, e.span)?
            }
            ExprKind::Lambda(f) => {
                let mut defaults = Vec::with_capacity(f.params.len());
                for p in &f.params {
                    defaults.push(match &p.default {
                        Some(d) => Some(self.eval(d, scope)?),
                        None => None,
                    });
                }
                self.make_fn(f, defaults, scope)
            }
            ExprKind::Cond(c, a, b) => {
                if self.eval(c, scope)?.truthy() {
                    self.eval(a, scope)?
                } else {
                    self.eval(b, scope)?
                }
            }
        })
    }

    fn comprehension(
        &mut self,
        clauses: &[Clause],
        k: usize,
        scope: &mut Scope,
        body: &mut dyn FnMut(&mut Self, &mut Scope) -> R<()>,
    ) -> R<()> {
        let Some(c) = clauses.get(k) else {
            return body(self, scope);
        };
        match c {
            Clause::If(e) => {
                if self.eval(e, scope)?.truthy() {
                    self.comprehension(clauses, k + 1, scope, body)?;
                }
                Ok(())
            }
            Clause::For(t, e) => {
                let it = self.eval(e, scope)?;
                let id = Self::container_id(&it);
                self.iterating.extend(id);
                let r = self.comprehension_items(t, &it, e.span, clauses, k, scope, body);
                if id.is_some() {
                    self.iterating.pop();
                }
                r
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn comprehension_items(
        &mut self,
        t: &Target,
        it: &Value,
        span: Span,
        clauses: &[Clause],
        k: usize,
        scope: &mut Scope,
        body: &mut dyn FnMut(&mut Self, &mut Scope) -> R<()>,
    ) -> R<()> {
        for item in self.iterate(it, span)? {
            self.tick(span)?;
            // Comprehension variables live in the enclosing scope here; the static resolver
            // already kept them from leaking into name checks.
            self.assign(t, item, scope, span)?;
            self.comprehension(clauses, k + 1, scope, body)?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------- calls, operators, built-ins

/// Parameters of a native function: (name, required).
type Sig = &'static [(&'static str, bool)];

const PREFIX_RULE: Sig = &[
    ("pattern", true),
    ("decision", false),
    ("match", false),
    ("not_match", false),
    ("justification", false),
];
const NETWORK_RULE: Sig = &[
    ("host", true),
    ("protocol", true),
    ("decision", true),
    ("justification", false),
];
const HOST_EXECUTABLE: Sig = &[("name", true), ("paths", true)];

impl Interp<'_> {
    fn call(
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

    fn call_inner(
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
                                set(&mut locals, &p.name, Value::Tuple(Rc::new(rest)));
                            }
                        }
                        2 => {
                            let rest: Vec<(Value, Value)> =
                                named.drain(..).map(|(k, v)| (Value::str(&k), v)).collect();
                            set(
                                &mut locals,
                                &p.name,
                                Value::Dict(Rc::new(RefCell::new(rest))),
                            );
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
            Value::Builtin(name) => self.builtin(name, pos, named, span),
            Value::Method(obj, name) => self.method(&obj, name, pos, named, span),
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
    fn bind_native(
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

    fn want_str(&self, param: &str, v: &Value, span: Span) -> R<Rc<str>> {
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

    fn want_list(&self, param: &str, v: &Value, span: Span) -> R<Vec<Value>> {
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

    fn builtin(
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

    fn prefix_rule(
        &mut self,
        pos: Vec<Value>,
        named: Vec<(String, Value)>,
        span: Span,
    ) -> R<Value> {
        let a = self.bind_native("prefix_rule", PREFIX_RULE, pos, named, span)?;
        // Unpack (type checks) first, in parameter order, as the generated binding does.
        let pattern = self.want_list("pattern", a[0].as_ref().unwrap_or(&Value::None), span)?;
        let decision = a[1]
            .as_ref()
            .map(|v| self.want_str("decision", v, span))
            .transpose()?;
        let matches = a[2]
            .as_ref()
            .map(|v| self.want_list("match", v, span))
            .transpose()?;
        let not_matches = a[3]
            .as_ref()
            .map(|v| self.want_list("not_match", v, span))
            .transpose()?;
        let justification = a[4]
            .as_ref()
            .map(|v| self.want_str("justification", v, span))
            .transpose()?;

        let decision = match decision {
            Some(raw) => Decision::parse(&raw)
                .ok_or_else(|| self.err(span, format!("invalid decision: {raw}")))?,
            None => Decision::Allow,
        };
        if justification
            .as_deref()
            .is_some_and(|j| j.trim().is_empty())
        {
            return Err(self.err(span, "invalid rule: justification cannot be empty"));
        }
        let mut tokens: Vec<PatternToken> = Vec::new();
        for v in &pattern {
            tokens.push(match v {
                Value::Str(s) => PatternToken::Single(s.to_string()),
                Value::List(l) => {
                    let mut alts = Vec::new();
                    for a in l.borrow().iter() {
                        match a {
                            Value::Str(s) => alts.push(s.to_string()),
                            other => {
                                return Err(self.err(span, format!("invalid pattern element: pattern alternative must be a string (got {})", other.type_name())))
                            }
                        }
                    }
                    match alts.len() {
                        0 => return Err(self.err(span, "invalid pattern element: pattern alternatives cannot be empty")),
                        1 => PatternToken::Single(alts.remove(0)),
                        _ => PatternToken::Alts(alts),
                    }
                }
                other => {
                    return Err(self.err(span, format!("invalid pattern element: pattern element must be a string or list of strings (got {})", other.type_name())))
                }
            });
        }
        if tokens.is_empty() {
            return Err(self.err(span, "invalid pattern element: pattern cannot be empty"));
        }
        let matches = self.examples(matches.unwrap_or_default(), span)?;
        let not_matches = self.examples(not_matches.unwrap_or_default(), span)?;
        let first = tokens.remove(0);
        let heads = match first {
            PatternToken::Single(s) => vec![s],
            PatternToken::Alts(a) => a,
        };
        let start = self.policy.rules().len();
        for head in heads {
            self.policy.push_rule(PrefixRule {
                first: head,
                rest: tokens.clone(),
                decision,
                justification: justification.as_deref().map(str::to_string),
            });
        }
        let end = self.policy.rules().len();
        self.pending.push(PendingExamples {
            rules: start..end,
            matches,
            not_matches,
            span,
        });
        Ok(Value::None)
    }

    fn examples(&self, items: Vec<Value>, span: Span) -> R<Vec<Vec<String>>> {
        let mut out = Vec::new();
        for v in items {
            out.push(match v {
                Value::Str(s) => {
                    let Some(tokens) = shlex::rust_split(&s) else {
                        return Err(self.err(
                            span,
                            "invalid example: example string has invalid shell syntax",
                        ));
                    };
                    if tokens.is_empty() {
                        return Err(
                            self.err(span, "invalid example: example cannot be an empty string")
                        );
                    }
                    tokens
                }
                Value::List(l) => {
                    let mut tokens = Vec::new();
                    for t in l.borrow().iter() {
                        match t {
                            Value::Str(s) => tokens.push(s.to_string()),
                            other => {
                                return Err(self.err(
                                    span,
                                    format!(
                                        "invalid example: example tokens must be strings (got {})",
                                        other.type_name()
                                    ),
                                ))
                            }
                        }
                    }
                    if tokens.is_empty() {
                        return Err(
                            self.err(span, "invalid example: example cannot be an empty list")
                        );
                    }
                    tokens
                }
                other => {
                    return Err(self.err(
                        span,
                        format!(
                            "invalid example: example must be a string or list of strings (got {})",
                            other.type_name()
                        ),
                    ))
                }
            });
        }
        Ok(out)
    }

    fn network_rule(
        &mut self,
        pos: Vec<Value>,
        named: Vec<(String, Value)>,
        span: Span,
    ) -> R<Value> {
        let a = self.bind_native("network_rule", NETWORK_RULE, pos, named, span)?;
        let host = self.want_str("host", a[0].as_ref().unwrap_or(&Value::None), span)?;
        let protocol = self.want_str("protocol", a[1].as_ref().unwrap_or(&Value::None), span)?;
        let decision = self.want_str("decision", a[2].as_ref().unwrap_or(&Value::None), span)?;
        let justification = a[3]
            .as_ref()
            .map(|v| self.want_str("justification", v, span))
            .transpose()?;
        let protocol = match &*protocol {
            "http" => "http",
            "https" | "https_connect" | "http-connect" => "https",
            "socks5_tcp" => "socks5_tcp",
            "socks5_udp" => "socks5_udp",
            other => {
                return Err(self.err(span, format!("invalid rule: network_rule protocol must be one of http, https, socks5_tcp, socks5_udp (got {other})")))
            }
        };
        // Only here is `deny` a decision: a synonym of forbidden.
        let decision = if &*decision == "deny" {
            Decision::Forbidden
        } else {
            Decision::parse(&decision)
                .ok_or_else(|| self.err(span, format!("invalid decision: {decision}")))?
        };
        if justification
            .as_deref()
            .is_some_and(|j| j.trim().is_empty())
        {
            return Err(self.err(span, "invalid rule: justification cannot be empty"));
        }
        let host =
            normalize_host(&host).map_err(|m| self.err(span, format!("invalid rule: {m}")))?;
        self.policy.push_network_rule(NetworkRule {
            host,
            protocol: protocol.to_string(),
            decision,
            justification: justification.as_deref().map(str::to_string),
        });
        Ok(Value::None)
    }

    fn host_executable(
        &mut self,
        pos: Vec<Value>,
        named: Vec<(String, Value)>,
        span: Span,
    ) -> R<Value> {
        let a = self.bind_native("host_executable", HOST_EXECUTABLE, pos, named, span)?;
        let name = self.want_str("name", a[0].as_ref().unwrap_or(&Value::None), span)?;
        let paths = self.want_list("paths", a[1].as_ref().unwrap_or(&Value::None), span)?;
        if name.is_empty() {
            return Err(self.err(span, "invalid rule: host_executable name cannot be empty"));
        }
        if name.contains('/') || &*name == "." || &*name == ".." {
            return Err(self.err(span, format!("invalid rule: host_executable name must be a bare executable name (got {name})")));
        }
        let mut parsed: Vec<String> = Vec::new();
        for p in paths {
            let Value::Str(raw) = &p else {
                return Err(self.err(
                    span,
                    format!(
                        "invalid rule: host_executable paths must be strings (got {})",
                        p.type_name()
                    ),
                ));
            };
            if !raw.starts_with('/') && !raw.starts_with("~/") {
                return Err(self.err(span, format!("invalid rule: host_executable paths must be absolute or use `~/...` home-relative syntax (got {raw}): path is not absolute")));
            }
            let base = raw.trim_end_matches('/').rsplit('/').next().unwrap_or("");
            if base != &*name {
                return Err(self.err(
                    span,
                    format!(
                        "invalid rule: host_executable path `{raw}` must have basename `{name}`"
                    ),
                ));
            }
            let raw = raw.to_string();
            if !parsed.contains(&raw) {
                parsed.push(raw);
            }
        }
        self.policy.set_host_executable(name.to_string(), parsed);
        Ok(Value::None)
    }

    fn generic_builtin(
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
                    Value::Tuple(Rc::new(items))
                })
            }
            "dict" => {
                arity(self, 0, 1)?;
                let mut out: Vec<(Value, Value)> = Vec::new();
                if let Some(v) = pos.first() {
                    for pair in self.iterate(v, span)? {
                        let kv = self.iterate(&pair, span)?;
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
                Ok(Value::Dict(Rc::new(RefCell::new(out))))
            }
            "str" => {
                arity(self, 1, 1)?;
                Ok(Value::str(&pos[0].to_str()))
            }
            "repr" => {
                arity(self, 1, 1)?;
                Ok(Value::str(&pos[0].repr()))
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
                if count > MAX_LEN as u128 {
                    return Err(self.err(span, "value too large for a policy file"));
                }
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
                Ok(Value::list(
                    items
                        .into_iter()
                        .enumerate()
                        .map(|(i, v)| {
                            Value::Tuple(Rc::new(vec![
                                Value::Int(start.saturating_add(i as i64)),
                                v,
                            ]))
                        })
                        .collect(),
                ))
            }
            "zip" => {
                let lists: Vec<Vec<Value>> = pos
                    .iter()
                    .map(|v| self.iterate(v, span))
                    .collect::<R<_>>()?;
                let n = lists.iter().map(Vec::len).min().unwrap_or(0);
                Ok(Value::list(
                    (0..n)
                        .map(|i| {
                            Value::Tuple(Rc::new(lists.iter().map(|l| l[i].clone()).collect()))
                        })
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
                // Sort (key, value) pairs so a key function runs once per item.
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

    fn attr(&self, obj: Value, name: &str, span: Span) -> R<Value> {
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

    fn method(
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
                Ok(Value::Tuple(Rc::new(vec![k, v])))
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
            (Value::Str(s), "elems") => Ok(Value::list(
                s.chars().map(|c| Value::str(&c.to_string())).collect(),
            )),
            (Value::Str(s), "codepoints") => Ok(Value::list(
                s.chars().map(|c| Value::Int(c as i64)).collect(),
            )),
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
                Ok(Value::Tuple(Rc::new(
                    parts.iter().map(|p| Value::str(p)).collect(),
                )))
            }
            (Value::Str(s), "splitlines") => Ok(Value::list(s.lines().map(Value::str).collect())),
            (Value::List(l), "append") => {
                let Some(v) = pos.into_iter().next() else {
                    return Err(self.err(span, "Missing argument for call to append"));
                };
                self.grow_check(l.borrow().len() + 1, span)?;
                l.borrow_mut().push(v);
                Ok(Value::None)
            }
            (Value::List(l), "extend") => {
                let Some(v) = pos.first() else {
                    return Err(self.err(span, "Missing argument for call to extend"));
                };
                let items = self.iterate(v, span)?;
                self.grow_check(l.borrow().len() + items.len(), span)?;
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
            (Value::Dict(d), "keys") => Ok(Value::list(
                d.borrow().iter().map(|(k, _)| k.clone()).collect(),
            )),
            (Value::Dict(d), "values") => Ok(Value::list(
                d.borrow().iter().map(|(_, v)| v.clone()).collect(),
            )),
            (Value::Dict(d), "items") => Ok(Value::list(
                d.borrow()
                    .iter()
                    .map(|(k, v)| Value::Tuple(Rc::new(vec![k.clone(), v.clone()])))
                    .collect(),
            )),
            (Value::Str(s), "join") => {
                let Some(v) = pos.first() else {
                    return Err(self.err(span, "Missing argument for call to join"));
                };
                let mut parts = Vec::new();
                for item in self.iterate(v, span)? {
                    match item {
                        Value::Str(p) => parts.push(p.to_string()),
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
                let out = parts.join(s);
                self.grow_check(out.len(), span)?;
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
                Ok(Value::list(
                    split_str(s, pos.first(), max, name == "rsplit", |i| want_str(self, i))?
                        .into_iter()
                        .map(|p| Value::str(&p))
                        .collect(),
                ))
            }
            (Value::Str(s), "strip" | "lstrip" | "rstrip") => {
                let chars: Option<Vec<char>> = match pos.first() {
                    None | Some(Value::None) => None,
                    Some(_) => Some(want_str(self, 0)?.chars().collect()),
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
                let out = s.replace(&*a, &b);
                self.grow_check(out.len(), span)?;
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
                            out.push_str(&v.to_str());
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

    fn list_index(&self, key: &Value, len: usize, span: Span) -> R<usize> {
        let Value::Int(i) = key else {
            return Err(self.err(span, format!("Expected `int`, but got `{}`", key.desc())));
        };
        let i = if *i < 0 { *i + len as i64 } else { *i };
        if i < 0 || i >= len as i64 {
            return Err(self.err(span, format!("Index `{}` is out of bound", key.repr())));
        }
        Ok(i as usize)
    }

    fn index(&self, obj: &Value, key: &Value, span: Span) -> R<Value> {
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

    fn slice(&self, obj: &Value, idx: [Option<i64>; 3], span: Span) -> R<Value> {
        let items: Vec<Value> = match obj {
            Value::List(l) => l.borrow().clone(),
            Value::Tuple(t) => t.as_ref().clone(),
            Value::Str(s) => s.chars().map(|c| Value::str(&c.to_string())).collect(),
            other => {
                return Err(self.err(
                    span,
                    format!("Type `{}` does not support slicing", other.type_name()),
                ))
            }
        };
        let len = items.len() as i64;
        let step = idx[2].unwrap_or(1);
        if step == 0 {
            return Err(self.err(span, "slice step cannot be zero"));
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
                out.push(items[i as usize].clone());
                i = i.saturating_add(step);
            }
        } else {
            let (a, b) = (
                clamp(idx[0], len - 1, -1, len - 1),
                clamp(idx[1], -1, -1, len - 1),
            );
            let mut i = a;
            while i > b {
                out.push(items[i as usize].clone());
                i = i.saturating_add(step);
            }
        }
        Ok(match obj {
            Value::Str(_) => Value::str(&out.iter().map(Value::to_str).collect::<String>()),
            Value::Tuple(_) => Value::Tuple(Rc::new(out)),
            _ => Value::list(out),
        })
    }

    fn binop(&self, op: BinOp, l: &Value, r: &Value, span: Span) -> R<Value> {
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
                Value::str(&format!("{a}{b}"))
            }
            (BinOp::Add, List(a), List(b)) => {
                let mut v = a.borrow().clone();
                v.extend(b.borrow().iter().cloned());
                self.grow_check(v.len(), span)?;
                Value::list(v)
            }
            (BinOp::Add, Tuple(a), Tuple(b)) => {
                let mut v = a.as_ref().clone();
                v.extend(b.iter().cloned());
                self.grow_check(v.len(), span)?;
                Tuple(Rc::new(v))
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
                        Value::str(&s.repeat(n))
                    }
                    List(items) => {
                        let items = items.borrow();
                        self.grow_check(items.len().saturating_mul(n), span)?;
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
                        Tuple(Rc::new(
                            items
                                .iter()
                                .cloned()
                                .cycle()
                                .take(items.len() * n)
                                .collect(),
                        ))
                    }
                    _ => return Err(unsupported()),
                }
            }
            (BinOp::Mod, Str(fmt), arg) => {
                // `"%s is blocked" % name`: only %s, %d, %r and %%.
                let args: Vec<Value> = match arg {
                    Tuple(t) => t.as_ref().clone(),
                    v => vec![v.clone()],
                };
                let mut args = args.into_iter();
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
                            out.push_str(&if k == 'r' { v.repr() } else { v.to_str() });
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

fn op_str(op: BinOp) -> &'static str {
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

fn compare(a: &Value, b: &Value) -> Option<std::cmp::Ordering> {
    compare_at(a, b, 0)
}

fn compare_at(a: &Value, b: &Value, depth: usize) -> Option<std::cmp::Ordering> {
    if depth > 64 {
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
        (Value::Str(x), Value::Str(y)) => Some(x.cmp(y)),
        (Value::Bool(x), Value::Bool(y)) => Some(x.cmp(y)),
        (Value::List(x), Value::List(y)) => seq_cmp(&x.borrow(), &y.borrow(), depth),
        (Value::Tuple(x), Value::Tuple(y)) => seq_cmp(x, y, depth),
        _ => None,
    }
}

fn seq_cmp(a: &[Value], b: &[Value], depth: usize) -> Option<std::cmp::Ordering> {
    for (x, y) in a.iter().zip(b) {
        match compare_at(x, y, depth + 1)? {
            std::cmp::Ordering::Equal => {}
            o => return Some(o),
        }
    }
    Some(a.len().cmp(&b.len()))
}

/// The methods starlark-rust 0.13 lists with `dir()`, per type.
fn methods_of(obj: &Value) -> &'static [&'static str] {
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

fn method_name(obj: &Value, name: &str) -> Option<&'static str> {
    methods_of(obj).iter().find(|m| **m == name).copied()
}

/// `network_rule` hosts: a hostname or IP literal, optionally with a port; normalized to lower
/// case without the port or a trailing dot.
fn normalize_host(raw: &str) -> Result<String, String> {
    let mut host = raw.trim();
    if host.is_empty() {
        return Err("network_rule host cannot be empty".into());
    }
    if host.contains("://") || host.contains('/') || host.contains('?') || host.contains('#') {
        return Err(
            "network_rule host must be a hostname or IP literal (without scheme or path)".into(),
        );
    }
    if let Some(stripped) = host.strip_prefix('[') {
        let Some((inside, rest)) = stripped.split_once(']') else {
            return Err("network_rule host has an invalid bracketed IPv6 literal".into());
        };
        let port_ok = rest
            .strip_prefix(':')
            .is_some_and(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()));
        if !rest.is_empty() && !port_ok {
            return Err(format!(
                "network_rule host contains an unsupported suffix: {raw}"
            ));
        }
        host = inside;
    } else if host.matches(':').count() == 1 {
        if let Some((candidate, port)) = host.rsplit_once(':') {
            if !candidate.is_empty() && !port.is_empty() && port.chars().all(|c| c.is_ascii_digit())
            {
                host = candidate;
            }
        }
    }
    let normalized = host.trim_end_matches('.').trim().to_ascii_lowercase();
    if normalized.is_empty() {
        return Err("network_rule host cannot be empty".into());
    }
    if normalized.contains('*') {
        return Err("network_rule host must be a specific host; wildcards are not allowed".into());
    }
    if normalized.chars().any(char::is_whitespace) {
        return Err("network_rule host cannot contain whitespace".into());
    }
    Ok(normalized)
}

/// A number as `f64` (ints widen), for mixed int/float arithmetic.
fn num(v: &Value) -> Option<f64> {
    match v {
        Value::Int(n) => Some(*n as f64),
        Value::Float(f) => Some(*f),
        _ => None,
    }
}

/// Digits after the point in starlark-rust's float output.
const FLOAT_PRECISION: i32 = 6;

/// `str(float)` as starlark-rust writes it: scientific notation when the decimal exponent is 6
/// or more away from zero (mantissa to 6 places, trailing zeros dropped, `e+20`), `1.0` for
/// integral values, the shortest round-trip form otherwise.
fn format_float(f: f64) -> String {
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

/// The closest name within edit distance 2 (1 for names of two characters or fewer); the first
/// such name wins ties, as in starlark-rust.
fn did_you_mean<'a>(name: &str, candidates: &[&'a str]) -> Option<&'a str> {
    if name.is_empty() {
        return None;
    }
    let max = if name.len() <= 2 { 1 } else { 2 };
    let mut best: Option<(&str, usize)> = None;
    for c in candidates {
        let d = levenshtein(name, c);
        if d <= max && best.is_none_or(|(_, b)| d < b) {
            best = Some((c, d));
        }
    }
    best.map(|(c, _)| c)
}

fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// `int(text, base)` as Starlark reads it: optional sign, optional `0x`/`0o`/`0b` prefix
/// (required to match a base of 0), no surrounding spaces.
fn parse_int(text: &str, base: i64) -> Option<i64> {
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

/// `str.split` / `str.rsplit` with an optional separator and maximum number of splits.
fn split_str(
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

/// A string as starlark-rust's `repr` writes it: double quotes, `\n` `\r` `\t` `\\` `\"`
/// escaped, and every character outside printable ASCII as `\xHH`, `\uHHHH` or
/// `\UHHHHHHHH` (so `repr("é")` is `"\xe9"`).
fn repr_str(s: &str, out: &mut String) {
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
