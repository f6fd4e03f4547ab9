//! The interpreter's state and the types every part of it shares: the control flow a
//! statement ends with, the error type, the variable scopes. `mod.rs` (statements and
//! expressions) and the files that extend [`Interp`] (calls, methods, built-ins, operators)
//! all use these; they need only the values and the budget, never the interpreter itself.

use std::collections::HashMap;
use std::rc::Rc;

use super::super::diag::{Diag, Span};
use super::super::policy::{PendingExamples, Policy};
use super::super::syntax::FnDef;
use super::budget::Budget;
use super::value::{Closure, Value};

pub(super) enum Flow {
    Normal,
    Break,
    Continue,
    Return(Value),
}

pub(super) type R<T> = Result<T, Diag>;

pub(super) enum Scope {
    Module,
    Function(Vec<(String, Value)>),
}

pub(super) struct Interp<'p> {
    /// Module-level variables. A map, not a list: a lookup must not cost more with every
    /// global a (generated) file defines.
    pub(super) globals: HashMap<String, Value>,
    pub(super) policy: &'p mut Policy,
    pub(super) pending: Vec<PendingExamples>,
    /// Active calls: (name of the calling function, span of the call expression).
    pub(super) frames: Vec<(String, Span)>,
    /// Names of the user functions being executed, innermost last.
    pub(super) fn_names: Vec<String>,
    /// The same functions, to refuse recursion (Starlark forbids it).
    pub(super) active: Vec<Rc<FnDef>>,
    /// Lists and dicts being iterated by a `for` (by address): mutating one is an error.
    pub(super) iterating: Vec<usize>,
    /// The file's name, for `str()` of its functions.
    pub(super) module: Rc<str>,
    /// For each active user function, the names local to it (innermost last).
    pub(super) local_names: Vec<Rc<Closure>>,
    /// Steps and bytes spent against the file's [`Limits`](super::Limits).
    pub(super) budget: Budget,
    /// Statements and expressions being evaluated, nested ([`MAX_NESTING`](super::MAX_NESTING)).
    pub(super) nesting: usize,
}

pub(super) fn lookup<'a>(vars: &'a [(String, Value)], name: &str) -> Option<&'a Value> {
    vars.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v)
}

pub(super) fn set(vars: &mut Vec<(String, Value)>, name: &str, v: Value) {
    if let Some(slot) = vars.iter_mut().find(|(n, _)| n == name) {
        slot.1 = v;
    } else {
        vars.push((name.to_string(), v));
    }
}
