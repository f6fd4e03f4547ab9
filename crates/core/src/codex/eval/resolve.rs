//! Static name resolution: an unknown name is an error before anything runs.

use std::collections::HashSet;

use super::super::diag::{Diag, Span};
use super::super::syntax::{Arg, Clause, Expr, ExprKind, FSeg, FnDef, Stmt, Target};
use super::interp::R;

/// The names a policy file sees without defining them: starlark-rust 0.13's standard globals
/// plus the three policy built-ins, in the order the real `Globals::names()` lists them (it
/// matters for "did you mean" ties). No `print`: it is not in the standard set.
pub(super) const BUILTINS: &[&str] = &[
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

pub(super) fn bind_target(t: &Target, names: &mut HashSet<String>) {
    match t {
        Target::Name(n, _) => {
            names.insert(n.clone());
        }
        Target::Tuple(ts) => ts.iter().for_each(|t| bind_target(t, names)),
        Target::Index(..) => {}
    }
}

/// Names bound by assignments, `for` targets and `def`s in a block (not inside nested defs).
pub(super) fn bound_names(stmts: &[Stmt], names: &mut HashSet<String>) {
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

pub(super) fn resolve_module(stmts: &[Stmt]) -> R<()> {
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
    pub(super) fn not_found(&self, name: &str, span: Span) -> Diag {
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

    pub(super) fn known(&self, name: &str) -> bool {
        self.scopes.iter().any(|s| s.contains(name))
            || self.globals.contains(name)
            || BUILTINS.contains(&name)
    }

    pub(super) fn block(&mut self, stmts: &[Stmt]) -> R<()> {
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

    pub(super) fn function(&mut self, f: &FnDef) -> R<()> {
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

    pub(super) fn target(&mut self, t: &Target) -> R<()> {
        match t {
            Target::Name(..) => Ok(()),
            Target::Tuple(ts) => ts.iter().try_for_each(|t| self.target(t)),
            Target::Index(a, b) => {
                self.expr(a)?;
                self.expr(b)
            }
        }
    }

    pub(super) fn clauses(
        &mut self,
        clauses: &[Clause],
        body: &mut dyn FnMut(&mut Self) -> R<()>,
    ) -> R<()> {
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

    pub(super) fn expr(&mut self, e: &Expr) -> R<()> {
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
                    match p {
                        FSeg::Var(n, span) if !self.known(n) => {
                            return Err(self.not_found(n, *span));
                        }
                        FSeg::Expr(e) => self.expr(e)?,
                        _ => {}
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

/// The closest name within edit distance 2 (1 for names of two characters or fewer); the first
/// such name wins ties, as in starlark-rust.
pub(super) fn did_you_mean<'a>(name: &str, candidates: &[&'a str]) -> Option<&'a str> {
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

pub(super) fn levenshtein(a: &str, b: &str) -> usize {
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
