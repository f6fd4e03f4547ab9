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

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use super::diag::{Diag, LoadError, LoadErrorKind, Span};
use super::lexer::lex;
use super::policy::{Decision, NetworkRule, PatternToken, PendingExamples, Policy, PrefixRule};
use super::shlex;
use super::syntax::Expr;
use super::syntax::{parse, Arg, BinOp, Clause, ExprKind, FSeg, FnDef, Stmt, Target};

/// Largest list or string a file may build (on top of the cumulative [`Limits`]).
const MAX_LEN: usize = 1_000_000;
/// Nested statements and expressions being evaluated, across calls. The parser bounds one
/// expression's depth and calls are bounded (`MAX_CALL_DEPTH`, in `call.rs`), but the product
/// (64 calls each returning a 30-deep expression) overflowed a 2 MB test thread's stack in a
/// debug build, where one level of `eval` takes over 10 KB (`fixtures/fuzz/deep-calls.rules`;
/// 150 levels still overflowed, 100 fit). Real policies nest a few levels; every corpus file
/// loads well within it. A chain of 48 calls loads and 49 do not, exactly as in codex 0.171.0
/// (whose starlark-rust stops there with "Starlark call stack overflow";
/// `codex_nesting_just_under_and_over`).
const MAX_NESTING: usize = 100;

mod budget;
mod builtins;
mod call;
mod interp;
mod methods;
mod ops;
mod policy_builtins;
mod resolve;
mod value;

pub use budget::Limits;
use budget::{Budget, SLOT};
use call::*;
use interp::{lookup, set, Flow, Interp, Scope, R};
use methods::*;
use resolve::*;
use value::*;

/// Evaluates `text` into `policy` within `limits`; returns the example validations to run
/// afterwards.
pub(crate) fn run_file(
    name: &str,
    text: &str,
    policy: &mut Policy,
    limits: &Limits,
) -> Result<Vec<PendingExamples>, LoadError> {
    run_file_spent(name, text, policy, limits).0
}

/// [`run_file`], also saying what the file spent: (steps, bytes). Tests measure the corpus
/// with it.
pub(crate) fn run_file_spent(
    name: &str,
    text: &str,
    policy: &mut Policy,
    limits: &Limits,
) -> (Result<Vec<PendingExamples>, LoadError>, (u64, u64)) {
    let fail = |d: Diag| LoadError::from_diag(name, text, &d);
    let tokens = match lex(text) {
        Ok(t) => t,
        Err(d) => return (Err(fail(d)), (0, 0)),
    };
    let stmts = match parse(tokens) {
        Ok(s) => s,
        Err(d) => return (Err(fail(d)), (0, 0)),
    };
    if let Err(d) = resolve_module(&stmts) {
        return (Err(fail(d)), (0, 0));
    }
    let mut interp = Interp {
        globals: HashMap::new(),
        policy,
        pending: Vec::new(),
        frames: Vec::new(),
        fn_names: Vec::new(),
        active: Vec::new(),
        iterating: Vec::new(),
        module: Rc::from(name),
        local_names: Vec::new(),
        budget: Budget::new(*limits),
        nesting: 0,
    };
    let mut scope = Scope::Module;
    walk::take(limits.steps);
    let mut r = interp.exec_block(&stmts, &mut scope);
    if r.is_ok() {
        // The last comparisons, after the last step.
        let walked = walk::take(u64::MAX);
        if let Err(d) = interp
            .budget
            .steps(walk::steps(walked), Span::default(), &interp.frames)
        {
            r = Err(d);
        }
    } else {
        walk::take(u64::MAX);
    }
    let spent = interp.budget.spent();
    match r {
        Ok(_) => (Ok(interp.pending), spent),
        Err(d) => (Err(fail(d)), spent),
    }
}

// ---------------------------------------------------------------- interpreter

impl Interp<'_> {
    fn tick(&mut self, span: Span) -> R<()> {
        // Charge what comparisons walked since the last step (see `value::walk`); the cap
        // keeps one comparison from walking past what is left.
        let walked = walk::take(self.budget.left_steps());
        self.budget
            .steps(1 + walk::steps(walked), span, &self.frames)
    }

    /// Charges what comparisons walked during the operation just done, at its span (the same
    /// as the next step would, but pointing at the right place).
    fn settle(&self, span: Span) -> R<()> {
        let walked = walk::take(self.budget.left_steps());
        self.budget.steps(walk::steps(walked), span, &self.frames)
    }

    /// Charges `n` steps of work (elements an operation walks).
    pub(super) fn work(&self, n: usize, span: Span) -> R<()> {
        self.budget.steps(n as u64, span, &self.frames)
    }

    /// Charges scanning `len` bytes of text.
    pub(super) fn scan(&self, len: usize, span: Span) -> R<()> {
        self.budget.scan(len, span, &self.frames)
    }

    /// Charges `n` bytes before they are allocated.
    pub(super) fn alloc(&self, n: usize, span: Span) -> R<()> {
        self.budget.bytes(n as u64, span, &self.frames)
    }

    /// Charges `n` new value slots (list elements, tuple items): memory, and a step per 16
    /// (copying a value is much cheaper than evaluating an expression).
    pub(super) fn slots(&self, n: usize, span: Span) -> R<()> {
        self.work(1 + n / 16, span)?;
        self.budget
            .bytes((n as u64).saturating_mul(SLOT), span, &self.frames)
    }

    /// A runtime error carrying the current call stack. When a comparison gave up on the
    /// step budget just before (`value::walk`), the error is the budget's: the "not found" or
    /// "cannot compare" it led to is not what went wrong.
    fn err(&self, span: Span, msg: impl Into<String>) -> Diag {
        if walk::over() {
            if let Err(d) = self.settle(span) {
                return d;
            }
        }
        Diag::runtime(self.frames.clone(), span, msg)
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
        self.enter(stmt_span(s))?;
        let r = self.exec_inner(s, scope);
        self.nesting -= 1;
        r
    }

    /// One level deeper in the interpreter's own recursion (a statement or an expression,
    /// across calls); refused past [`MAX_NESTING`].
    fn enter(&mut self, span: Span) -> R<()> {
        if self.nesting >= MAX_NESTING {
            return Err(self.err(
                span,
                // codex 0.171.0 says "Starlark call stack overflow" for a chain of 49 calls;
                // permlab's nesting limit gives the same answer there (48 load, 49 do not).
                format!(
                    "Starlark call stack overflow (permlab nests calls, statements and expressions at most \
                     {MAX_NESTING} deep, to stay within its own stack; this cannot be raised): \
                     flatten the expression or shorten the chain of calls"
                ),
            ));
        }
        self.nesting += 1;
        Ok(())
    }

    fn exec_inner(&mut self, s: &Stmt, scope: &mut Scope) -> R<Flow> {
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
                    self.slots(items.len(), *span)?;
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
            Scope::Module => {
                self.globals.insert(name.to_string(), v);
            }
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
                        self.slots(2, span)?;
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
        if let Some(v) = self.globals.get(name) {
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

    /// The items of a list, tuple or dict (its keys), copied. The copy is charged as work,
    /// not memory: it never outlives the operation and is no larger than its source, which
    /// was charged when it was built (so live memory stays within twice the byte budget).
    fn iterate(&self, v: &Value, span: Span) -> R<Vec<Value>> {
        let n = match v {
            Value::List(l) => l.borrow().len(),
            Value::Tuple(t) => t.len(),
            Value::Dict(d) => d.borrow().len(),
            _ => 0,
        };
        self.work(1 + n / 16, span)?;
        match v {
            Value::List(l) => Ok(l.borrow().clone()),
            Value::Tuple(t) => Ok(t.to_vec()),
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
                "This operation mutates an iterable for an iterator while iterating.",
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

    /// `str(v)` appended to an f-string, measured and charged before it is built. (Not
    /// inline: `eval_inner`'s frame is what bounds the nesting a debug build can take, see
    /// [`MAX_NESTING`].)
    #[inline(never)]
    fn push_text(&self, out: &mut String, v: Value, span: Span) -> R<()> {
        self.alloc(v.text_len(false), span)?;
        out.push_str(&v.to_str());
        Ok(())
    }

    /// `f(*v)`: `v`'s items appended to the positional arguments. They accumulate over
    /// several `*`, so they are charged as memory. (Not inline, like [`Interp::push_text`].)
    #[inline(never)]
    fn star_args(&self, pos: &mut Vec<Value>, v: &Value, span: Span) -> R<()> {
        let items = self.iterate(v, span)?;
        self.slots(items.len(), span)?;
        self.grow_check(pos.len() + items.len(), span)?;
        pos.extend(items);
        Ok(())
    }

    fn grow_check(&self, len: usize, span: Span) -> R<()> {
        if len > MAX_LEN {
            Err(self.err(
                span,
                format!("value too large for a policy file: {len} bytes or elements, permlab allows {MAX_LEN} in one string or list; build it smaller"),
            ).with_load(LoadErrorKind::TooLarge {
                size: len as u64,
                max: MAX_LEN as u64,
            }))
        } else {
            Ok(())
        }
    }

    fn eval(&mut self, e: &Expr, scope: &mut Scope) -> R<Value> {
        self.enter(e.span)?;
        let r = self.eval_inner(e, scope);
        self.nesting -= 1;
        r
    }

    fn eval_inner(&mut self, e: &Expr, scope: &mut Scope) -> R<Value> {
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
                        FSeg::Lit(s) => out.push_str(s),
                        FSeg::Var(n, span) => {
                            self.push_text(&mut out, self.var(n, *span, scope)?, *span)?
                        }
                        FSeg::Expr(e) => {
                            let v = self.eval(e, scope)?;
                            self.push_text(&mut out, v, e.span)?
                        }
                    }
                }
                Value::str(&out)
            }
            ExprKind::List(items) => {
                self.slots(items.len(), e.span)?;
                let mut v = Vec::with_capacity(items.len());
                for i in items {
                    v.push(self.eval(i, scope)?);
                }
                Value::list(v)
            }
            ExprKind::Tuple(items) => {
                self.slots(items.len(), e.span)?;
                let mut v = Vec::with_capacity(items.len());
                for i in items {
                    v.push(self.eval(i, scope)?);
                }
                Value::tuple(v)
            }
            ExprKind::Dict(items) => {
                let mut v: Vec<(Value, Value)> = Vec::with_capacity(items.len());
                for (kx, val) in items {
                    let k = self.eval(kx, scope)?;
                    self.key_check(&k, kx.span)?;
                    let val = self.eval(val, scope)?;
                    self.slots(2, kx.span)?;
                    if v.iter().any(|(k2, _)| k2.equals(&k)) {
                        return Err(self.err(
                            kx.span,
                            format!("Dictionary key repeated for `{}`", k.to_str()),
                        ));
                    }
                    v.push((k, val));
                }
                Value::dict(v)
            }
            ExprKind::ListComp(elt, clauses) => {
                let mut out = Vec::new();
                self.comprehension(clauses, 0, scope, &mut |me, sc| {
                    let v = me.eval(elt, sc)?;
                    me.slots(1, e.span)?;
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
                    me.slots(2, e.span)?;
                    if let Some(slot) = out.iter_mut().find(|(k2, _)| k2.equals(&k)) {
                        slot.1 = v;
                    } else {
                        out.push((k, v));
                    }
                    me.grow_check(out.len(), e.span)
                })?;
                Value::dict(out)
            }
            ExprKind::Call(f, args) => {
                // A missing method is reported over the whole call (codex 0.171.0).
                let fv = match &f.kind {
                    ExprKind::Attr(..) => self.eval(f, scope).map_err(|mut d| {
                        if d.message.contains("has no attribute") {
                            d.span = e.span;
                        }
                        d
                    })?,
                    _ => self.eval(f, scope)?,
                };
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
                            self.star_args(&mut pos, &v, x.span)?;
                        }
                        Arg::StarStar(x) => {
                            let v = self.eval(x, scope)?;
                            let Value::Dict(d) = &v else {
                                return Err(self.err(
                                    x.span,
                                    format!("`**` argument must be a dict, got {}", v.type_name()),
                                ));
                            };
                            self.slots(2 * d.borrow().len(), x.span)?;
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
                let v = self.call(fv, pos, named, e.span)?;
                self.settle(e.span)?;
                v
            }
            ExprKind::Index(a, b) => {
                let a = self.eval(a, scope)?;
                let b = self.eval(b, scope)?;
                let v = self.index(&a, &b, e.span)?;
                self.settle(e.span)?;
                v
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
                let v = self.binop(*op, &l, &r, e.span)?;
                self.settle(e.span)?;
                v
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

/// Where a statement is, for an error raised before it runs (its expression's span; the start
/// of the file for `pass`, `break`, `continue` and `def`, which carry none).
fn stmt_span(s: &Stmt) -> Span {
    match s {
        Stmt::Expr(e) | Stmt::Assign(_, e) | Stmt::For(_, e, _) | Stmt::If(e, _, _) => e.span,
        Stmt::Return(Some(e)) => e.span,
        Stmt::AugAssign(_, _, _, span) => *span,
        Stmt::Def(_) | Stmt::Return(None) | Stmt::Pass | Stmt::Break | Stmt::Continue => {
            Span::default()
        }
    }
}
