//! The syntax tree of a `.rules` file and its recursive-descent parser.
//!
//! Covers what starlark-rust's *extended* dialect accepts and policies use: top-level `for` and
//! `if`, `def` (with defaults, `*args`, `**kwargs`), assignments (including tuple unpacking and
//! `+=`), list/dict literals and comprehensions, conditional expressions, calls with keyword and
//! `*`/`**` arguments, indexing and slicing, attribute calls (`", ".join(…)`), and the usual
//! operators, `lambda`, keyword-only parameters and (ignored) type annotations. `load` is
//! rejected with a message: the CLI loads each file on its own, with no module loader.

use std::rc::Rc;

use super::diag::{Diag, Span};
use super::lexer::{FPart, Tok, Token};

/// Nesting limit for expressions and blocks: hostile input must not overflow the stack.
const MAX_DEPTH: usize = 100;

#[derive(Clone, Debug)]
pub(crate) struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

/// One piece of an f-string, parsed.
#[derive(Clone, Debug)]
pub(crate) enum FSeg {
    /// Literal text.
    Lit(String),
    /// `{name}`.
    Var(String, Span),
    /// `{expr}`.
    Expr(Expr),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
    In,
    NotIn,
    BitOr,
    BitAnd,
    BitXor,
    Shl,
    Shr,
}

#[derive(Clone, Debug)]
pub(crate) enum Arg {
    Pos(Expr),
    Named(String, Expr),
    Star(Expr),
    StarStar(Expr),
}

#[derive(Clone, Debug)]
pub(crate) enum Clause {
    For(Target, Expr),
    If(Expr),
}

#[derive(Clone, Debug)]
pub(crate) enum ExprKind {
    Ident(String),
    Int(i64),
    Float(f64),
    Str(Rc<str>),
    FStr(Vec<FSeg>),
    List(Vec<Expr>),
    Tuple(Vec<Expr>),
    Dict(Vec<(Expr, Expr)>),
    ListComp(Box<Expr>, Vec<Clause>),
    DictComp(Box<(Expr, Expr)>, Vec<Clause>),
    Call(Box<Expr>, Vec<Arg>),
    Index(Box<Expr>, Box<Expr>),
    Slice(Box<Expr>, [Option<Box<Expr>>; 3]),
    Attr(Box<Expr>, String),
    Neg(Box<Expr>),
    Pos(Box<Expr>),
    Invert(Box<Expr>),
    Not(Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Lambda(Rc<FnDef>),
}

/// Assignment targets: a name, a tuple/list of targets, or `x[i]`.
#[derive(Clone, Debug)]
pub(crate) enum Target {
    Name(String, Span),
    Tuple(Vec<Target>),
    Index(Expr, Expr),
}

#[derive(Clone, Debug)]
pub(crate) struct Param {
    pub name: String,
    pub default: Option<Expr>,
    /// 0 = plain, 1 = `*args`, 2 = `**kwargs`.
    pub stars: u8,
}

#[derive(Debug)]
pub(crate) struct FnDef {
    pub name: String,
    pub params: Vec<Param>,
    pub body: Vec<Stmt>,
}

#[derive(Clone, Debug)]
pub(crate) enum Stmt {
    Expr(Expr),
    Assign(Target, Expr),
    AugAssign(Target, BinOp, Expr, Span),
    Def(Rc<FnDef>),
    For(Target, Expr, Vec<Stmt>),
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    Return(Option<Expr>),
    Pass,
    Break,
    Continue,
}

pub(crate) fn parse(tokens: Vec<Token>) -> Result<Vec<Stmt>, Diag> {
    let mut p = Parser {
        toks: tokens,
        i: 0,
        depth: 0,
        in_loop: 0,
        in_def: 0,
        deferred: Vec::new(),
    };
    let mut out = Vec::new();
    while !p.at_tok(&Tok::Eof) {
        if p.eat_tok(&Tok::Newline) {
            continue;
        }
        p.statement(&mut out)?;
    }
    // Checks of a well-formed file (duplicate parameters, `break` outside a loop…) come after
    // the whole file parsed, as in starlark-rust: a syntax error anywhere wins.
    if let Some(d) = p.deferred.into_iter().next() {
        return Err(d);
    }
    Ok(out)
}

/// Parses the expression of an f-string hole whose text starts at byte `at` of the file.
fn hole(code: &str, at: usize) -> Result<Expr, Diag> {
    let shift = |mut d: Diag| {
        d.span = Span::new(d.span.start + at, d.span.end + at);
        d
    };
    let mut toks = super::lexer::lex(code).map_err(shift)?;
    for t in &mut toks {
        t.span = Span::new(t.span.start + at, t.span.end + at);
    }
    let mut p = Parser {
        toks,
        i: 0,
        depth: 0,
        in_loop: 0,
        in_def: 0,
        deferred: Vec::new(),
    };
    // The hole's end reads as `f-string expression end '}'` (codex 0.171.0).
    let end = at + code.len();
    let e = p.test().map_err(|mut d| {
        if let Some(rest) = d.message.strip_prefix("Parse error: unexpected new line") {
            d.message = format!("Parse error: unexpected f-string expression end '}}'{rest}");
            d.span = Span::new(end, end + 1);
        }
        d
    })?;
    while p.eat_tok(&Tok::Newline) {}
    if !p.at_tok(&Tok::Eof) {
        let t = p.peek().clone();
        return Err(Diag::parse(
            t.span,
            format!(
                "unexpected {}, expected f-string expression end '}}'",
                describe(&t.tok)
            ),
        ));
    }
    Ok(e)
}

struct Parser {
    toks: Vec<Token>,
    i: usize,
    depth: usize,
    in_loop: usize,
    in_def: usize,
    /// Errors found in well-formed code, reported once the whole file has parsed.
    deferred: Vec<Diag>,
}

/// A token as codex 0.171.0's starlark names it in a parse error: `identifier 'x'`,
/// `integer literal '2'`, `string literal "a"`, `keyword 'in'`, `symbol ')'`, `new line`.
fn describe(t: &Tok) -> String {
    match t {
        Tok::Ident(s) => format!("identifier '{s}'"),
        Tok::Int(n) => format!("integer literal '{n}'"),
        Tok::Float(v) => format!("float literal '{v}'"),
        Tok::Str(s) => format!("string literal {s:?}"),
        Tok::FStr(_) => "string literal".to_string(),
        Tok::Op(o) if super::lexer::KEYWORDS.contains(o) => format!("keyword '{o}'"),
        Tok::Op(o) => format!("symbol '{o}'"),
        // The end of the input reads as the new line that ends the last statement.
        Tok::Newline | Tok::Eof => "new line".to_string(),
        Tok::Indent => "new indentation block".to_string(),
        Tok::Dedent => "dedent".to_string(),
    }
}

impl Parser {
    fn peek(&self) -> &Token {
        // The lexer always ends with Eof, and the parser never moves past it.
        &self.toks[self.i.min(self.toks.len() - 1)]
    }

    fn next(&mut self) -> Token {
        let t = self.peek().clone();
        if self.i < self.toks.len() - 1 {
            self.i += 1;
        }
        t
    }

    fn at_tok(&self, t: &Tok) -> bool {
        &self.peek().tok == t
    }

    fn at(&self, op: &str) -> bool {
        matches!(&self.peek().tok, Tok::Op(o) if *o == op)
    }

    fn eat(&mut self, op: &str) -> bool {
        if self.at(op) {
            self.next();
            true
        } else {
            false
        }
    }

    fn eat_tok(&mut self, t: &Tok) -> bool {
        if self.at_tok(t) {
            self.next();
            true
        } else {
            false
        }
    }

    fn unexpected(&self, wanted: &str) -> Diag {
        let t = self.peek();
        Diag::parse(
            t.span,
            format!("unexpected {}, expected {wanted}", describe(&t.tok)),
        )
    }

    fn expect(&mut self, op: &str) -> Result<Span, Diag> {
        if self.at(op) {
            Ok(self.next().span)
        } else {
            Err(self.unexpected(&format!("symbol '{op}'")))
        }
    }

    fn enter(&mut self) -> Result<(), Diag> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Diag::parse(self.peek().span, "nesting is too deep"));
        }
        Ok(())
    }

    fn ident(&mut self) -> Result<(String, Span), Diag> {
        match self.peek().tok.clone() {
            Tok::Ident(s) => Ok((s, self.next().span)),
            _ => Err(self.unexpected("identifier")),
        }
    }

    fn statement(&mut self, out: &mut Vec<Stmt>) -> Result<(), Diag> {
        self.enter()?;
        let r = self.statement_inner(out);
        self.depth -= 1;
        r
    }

    fn statement_inner(&mut self, out: &mut Vec<Stmt>) -> Result<(), Diag> {
        if self.at("def") {
            self.next();
            let (name, _) = self.ident()?;
            self.expect("(")?;
            let params = self.params(")", true)?;
            self.expect(")")?;
            if self.eat("->") {
                self.test()?;
            }
            self.expect(":")?;
            self.in_def += 1;
            let saved_loop = std::mem::replace(&mut self.in_loop, 0);
            let body = self.suite();
            self.in_loop = saved_loop;
            self.in_def -= 1;
            let body = body?;
            out.push(Stmt::Def(Rc::new(FnDef { name, params, body })));
            return Ok(());
        }
        if self.at("for") {
            self.next();
            let target = self.target_list()?;
            self.expect("in")?;
            let iter = self.expr_list()?;
            self.expect(":")?;
            self.in_loop += 1;
            let body = self.suite();
            self.in_loop -= 1;
            out.push(Stmt::For(target, iter, body?));
            return Ok(());
        }
        if self.at("if") {
            self.next();
            out.push(self.if_rest()?);
            return Ok(());
        }
        // Simple statements, `;`-separated, ending with a newline.
        loop {
            self.simple(out)?;
            if !self.eat(";") || self.at_tok(&Tok::Newline) || self.at_tok(&Tok::Eof) {
                break;
            }
        }
        if !self.eat_tok(&Tok::Newline) && !self.at_tok(&Tok::Eof) {
            return Err(self.unexpected("new line"));
        }
        Ok(())
    }

    /// Parameters up to `close`: `a`, `a=1`, `*args`, a bare `*` (keyword-only marker, empty
    /// name), `**kwargs`, and (in `def`) type annotations `a: str`, which are ignored.
    fn params(&mut self, close: &str, annotations: bool) -> Result<Vec<Param>, Diag> {
        let mut params = Vec::new();
        while !self.at(close) {
            let stars = if self.eat("**") {
                2
            } else if self.eat("*") {
                1
            } else {
                0
            };
            let (pname, pspan) = if stars == 1 && (self.at(",") || self.at(close)) {
                (String::new(), self.peek().span)
            } else {
                self.ident()?
            };
            if annotations && !pname.is_empty() && self.eat(":") {
                self.test()?;
            }
            let default = if stars == 0 && self.eat("=") {
                Some(self.test()?)
            } else {
                None
            };
            if !pname.is_empty() && params.iter().any(|p: &Param| p.name == pname) {
                self.deferred
                    .push(Diag::stat(pspan, "duplicated parameter name"));
            }
            // A plain parameter without a default may not follow one with a default, unless a
            // `*` came first (then it is keyword-only).
            if stars == 0
                && default.is_none()
                && params.iter().any(|p| p.default.is_some())
                && !params.iter().any(|p| p.stars == 1)
            {
                self.deferred.push(Diag::stat(
                    pspan,
                    "positional parameter after non positional",
                ));
            }
            params.push(Param {
                name: pname,
                default,
                stars,
            });
            if !self.eat(",") {
                break;
            }
        }
        Ok(params)
    }

    fn if_rest(&mut self) -> Result<Stmt, Diag> {
        let cond = self.test()?;
        self.expect(":")?;
        let then = self.suite()?;
        let otherwise = if self.at("elif") {
            self.next();
            self.enter()?;
            let r = self.if_rest();
            self.depth -= 1;
            vec![r?]
        } else if self.eat("else") {
            self.expect(":")?;
            self.suite()?
        } else {
            Vec::new()
        };
        Ok(Stmt::If(cond, then, otherwise))
    }

    fn suite(&mut self) -> Result<Vec<Stmt>, Diag> {
        let mut body = Vec::new();
        if self.eat_tok(&Tok::Newline) {
            if !self.eat_tok(&Tok::Indent) {
                return Err(self.unexpected("an indented block"));
            }
            while !self.eat_tok(&Tok::Dedent) {
                if self.at_tok(&Tok::Eof) {
                    break;
                }
                if self.eat_tok(&Tok::Newline) {
                    continue;
                }
                self.statement(&mut body)?;
            }
        } else {
            // `if x: stmt` on one line.
            loop {
                self.simple(&mut body)?;
                if !self.eat(";") || self.at_tok(&Tok::Newline) {
                    break;
                }
            }
            if !self.eat_tok(&Tok::Newline) && !self.at_tok(&Tok::Eof) {
                return Err(self.unexpected("new line"));
            }
        }
        Ok(body)
    }

    fn simple(&mut self, out: &mut Vec<Stmt>) -> Result<(), Diag> {
        let t = self.peek().clone();
        match &t.tok {
            Tok::Op("pass") => {
                self.next();
                out.push(Stmt::Pass);
            }
            Tok::Op("break") | Tok::Op("continue") => {
                self.next();
                if self.in_loop == 0 {
                    let word = if t.tok == Tok::Op("break") {
                        "break"
                    } else {
                        "continue"
                    };
                    self.deferred.push(Diag::stat(
                        t.span,
                        format!("`{word}` cannot be used outside of a `for` loop"),
                    ));
                }
                out.push(if t.tok == Tok::Op("break") {
                    Stmt::Break
                } else {
                    Stmt::Continue
                });
            }
            Tok::Op("return") => {
                self.next();
                if self.in_def == 0 {
                    self.deferred.push(Diag::stat(
                        t.span,
                        "`return` cannot be used outside of a `def` function",
                    ));
                }
                let v = if self.at_tok(&Tok::Newline) || self.at(";") || self.at_tok(&Tok::Eof) {
                    None
                } else {
                    Some(self.expr_list()?)
                };
                out.push(Stmt::Return(v));
            }
            Tok::Op("load") => {
                // Parsed, then refused like the real loader, which installs no module loader.
                self.next();
                let call = self.postfix_after_load(t.span)?;
                self.deferred.push(call);
            }
            _ => {
                let lhs = self.expr_list()?;
                let aug = [
                    ("+=", BinOp::Add),
                    ("-=", BinOp::Sub),
                    ("*=", BinOp::Mul),
                    ("//=", BinOp::FloorDiv),
                    ("%=", BinOp::Mod),
                    ("|=", BinOp::BitOr),
                ];
                if matches!(lhs.kind, ExprKind::Ident(_)) && self.eat(":") {
                    // `x: int = 1`: the annotation is ignored, as types are not checked here.
                    self.test()?;
                    self.expect("=")?;
                    let target = to_target(lhs)?;
                    let rhs = self.expr_list()?;
                    out.push(Stmt::Assign(target, rhs));
                } else if self.eat("=") {
                    let target = to_target(lhs)?;
                    let rhs = self.expr_list()?;
                    // Chained `a = b = 1` is not Starlark.
                    out.push(Stmt::Assign(target, rhs));
                } else if let Some((_, op)) = aug.iter().find(|(s, _)| self.at(s)) {
                    let span = self.next().span;
                    let target = to_target(lhs)?;
                    if matches!(target, Target::Tuple(_)) {
                        return Err(Diag::parse(span, "augmented assignment to a tuple"));
                    }
                    let rhs = self.expr_list()?;
                    out.push(Stmt::AugAssign(target, *op, rhs, span));
                } else {
                    out.push(Stmt::Expr(lhs));
                }
            }
        }
        Ok(())
    }

    fn target_list(&mut self) -> Result<Target, Diag> {
        // Targets of `for` stop before `in`, so parse primaries, not full expressions.
        let first = self.postfix()?;
        if !self.at(",") {
            return to_target(first);
        }
        let start = first.span.start;
        let mut end = first.span.end;
        let mut items = vec![first];
        while self.eat(",") {
            if self.at("in") {
                break;
            }
            let e = self.postfix()?;
            end = e.span.end;
            items.push(e);
        }
        to_target(Expr {
            kind: ExprKind::Tuple(items),
            span: Span::new(start, end),
        })
    }

    /// `a, b, c` (a tuple when there is a comma) or a single test.
    fn expr_list(&mut self) -> Result<Expr, Diag> {
        let first = self.test()?;
        if !self.at(",") {
            return Ok(first);
        }
        let start = first.span;
        let mut items = vec![first];
        while self.eat(",") {
            if self.ends_expr_list() {
                break;
            }
            items.push(self.test()?);
        }
        let end = items.last().map(|e| e.span.end).unwrap_or(start.end);
        Ok(Expr {
            kind: ExprKind::Tuple(items),
            span: Span::new(start.start, end),
        })
    }

    fn ends_expr_list(&self) -> bool {
        matches!(
            &self.peek().tok,
            Tok::Newline | Tok::Eof | Tok::Op("=") | Tok::Op(")") | Tok::Op(";") | Tok::Op(":")
        )
    }

    fn test(&mut self) -> Result<Expr, Diag> {
        self.enter()?;
        let r = self.test_inner();
        self.depth -= 1;
        r
    }

    fn test_inner(&mut self) -> Result<Expr, Diag> {
        if self.at("lambda") {
            let start = self.next().span;
            let params = self.params(":", false)?;
            self.expect(":")?;
            let body = self.test()?;
            let span = Span::new(start.start, body.span.end);
            return Ok(Expr {
                kind: ExprKind::Lambda(Rc::new(FnDef {
                    name: "lambda".to_string(),
                    params,
                    body: vec![Stmt::Return(Some(body))],
                })),
                span,
            });
        }
        let e = self.or_expr()?;
        if self.at("if") {
            // `a if cond else b` — but not the `if` of a comprehension clause, which the caller
            // sees because we only get here with an `else` following.
            let save = self.i;
            self.next();
            let cond = self.or_expr()?;
            if !self.eat("else") {
                self.i = save;
                return Ok(e);
            }
            let other = self.test()?;
            let span = Span::new(e.span.start, other.span.end);
            return Ok(Expr {
                kind: ExprKind::Cond(Box::new(cond), Box::new(e), Box::new(other)),
                span,
            });
        }
        Ok(e)
    }

    fn or_expr(&mut self) -> Result<Expr, Diag> {
        let mut l = self.and_expr()?;
        let outer = self.depth;
        while self.eat("or") {
            // Each link of a chain nests the tree one level deeper: count it as depth.
            self.enter()?;
            let r = self.and_expr()?;
            let span = Span::new(l.span.start, r.span.end);
            l = Expr {
                kind: ExprKind::Or(Box::new(l), Box::new(r)),
                span,
            };
        }
        self.depth = outer;
        Ok(l)
    }

    fn and_expr(&mut self) -> Result<Expr, Diag> {
        let mut l = self.not_expr()?;
        let outer = self.depth;
        while self.eat("and") {
            self.enter()?;
            let r = self.not_expr()?;
            let span = Span::new(l.span.start, r.span.end);
            l = Expr {
                kind: ExprKind::And(Box::new(l), Box::new(r)),
                span,
            };
        }
        self.depth = outer;
        Ok(l)
    }

    fn not_expr(&mut self) -> Result<Expr, Diag> {
        if self.at("not") {
            let start = self.next().span;
            self.enter()?;
            let e = self.not_expr();
            self.depth -= 1;
            let e = e?;
            let span = Span::new(start.start, e.span.end);
            return Ok(Expr {
                kind: ExprKind::Not(Box::new(e)),
                span,
            });
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Result<Expr, Diag> {
        let l = self.binary(0)?;
        let op = match &self.peek().tok {
            Tok::Op("==") => BinOp::Eq,
            Tok::Op("!=") => BinOp::Ne,
            Tok::Op("<") => BinOp::Lt,
            Tok::Op(">") => BinOp::Gt,
            Tok::Op("<=") => BinOp::Le,
            Tok::Op(">=") => BinOp::Ge,
            Tok::Op("in") => BinOp::In,
            Tok::Op("not") => {
                let save = self.i;
                self.next();
                if !self.at("in") {
                    self.i = save;
                    return Ok(l);
                }
                BinOp::NotIn
            }
            _ => return Ok(l),
        };
        self.next();
        let r = self.binary(0)?;
        // Starlark comparisons do not chain (`a < b < c` is a syntax error).
        if matches!(
            &self.peek().tok,
            Tok::Op("==")
                | Tok::Op("!=")
                | Tok::Op("<")
                | Tok::Op(">")
                | Tok::Op("<=")
                | Tok::Op(">=")
        ) {
            return Err(self.unexpected("an operand (comparisons do not chain)"));
        }
        let span = Span::new(l.span.start, r.span.end);
        Ok(Expr {
            kind: ExprKind::Bin(op, Box::new(l), Box::new(r)),
            span,
        })
    }

    /// Binary operators by precedence level: `|`, `^`, `&`, `+ -`, `* / // %`.
    fn binary(&mut self, level: usize) -> Result<Expr, Diag> {
        const LEVELS: &[&[(&str, BinOp)]] = &[
            &[("|", BinOp::BitOr)],
            &[("^", BinOp::BitXor)],
            &[("&", BinOp::BitAnd)],
            &[("<<", BinOp::Shl), (">>", BinOp::Shr)],
            &[("+", BinOp::Add), ("-", BinOp::Sub)],
            &[
                ("*", BinOp::Mul),
                ("/", BinOp::Div),
                ("//", BinOp::FloorDiv),
                ("%", BinOp::Mod),
            ],
        ];
        if level >= LEVELS.len() {
            return self.unary();
        }
        let mut l = self.binary(level + 1)?;
        let outer = self.depth;
        while let Some((_, op)) = LEVELS[level].iter().find(|(s, _)| self.at(s)) {
            self.next();
            self.enter()?;
            let r = self.binary(level + 1)?;
            let span = Span::new(l.span.start, r.span.end);
            l = Expr {
                kind: ExprKind::Bin(*op, Box::new(l), Box::new(r)),
                span,
            };
        }
        self.depth = outer;
        Ok(l)
    }

    fn unary(&mut self) -> Result<Expr, Diag> {
        if self.at("-") || self.at("+") || self.at("~") {
            let t = self.next();
            self.enter()?;
            let e = self.unary();
            self.depth -= 1;
            let e = e?;
            let span = Span::new(t.span.start, e.span.end);
            let kind = match t.tok {
                Tok::Op("-") => ExprKind::Neg(Box::new(e)),
                Tok::Op("+") => ExprKind::Pos(Box::new(e)),
                _ => ExprKind::Invert(Box::new(e)),
            };
            return Ok(Expr { kind, span });
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Result<Expr, Diag> {
        let mut e = self.primary()?;
        let outer = self.depth;
        loop {
            if self.at("(") || self.at("[") || self.at(".") {
                self.enter()?;
            }
            if self.at("(") {
                self.next();
                let args = self.call_args()?;
                let end = self.expect(")")?;
                let span = Span::new(e.span.start, end.end);
                e = Expr {
                    kind: ExprKind::Call(Box::new(e), args),
                    span,
                };
            } else if self.at("[") {
                self.next();
                let mut parts: [Option<Box<Expr>>; 3] = [None, None, None];
                let mut slice = false;
                let mut k = 0;
                loop {
                    if self.at(":") {
                        self.next();
                        slice = true;
                        k += 1;
                        if k > 2 {
                            return Err(self.unexpected("symbol ']'"));
                        }
                        continue;
                    }
                    if self.at("]") {
                        break;
                    }
                    if parts[k].is_some() {
                        return Err(self.unexpected("`]` or `:`"));
                    }
                    parts[k] = Some(Box::new(self.test()?));
                }
                let end = self.expect("]")?;
                let span = Span::new(e.span.start, end.end);
                e = if slice {
                    Expr {
                        kind: ExprKind::Slice(Box::new(e), parts),
                        span,
                    }
                } else {
                    let Some(idx) = parts[0].take() else {
                        return Err(Diag::parse(end, "empty index"));
                    };
                    Expr {
                        kind: ExprKind::Index(Box::new(e), idx),
                        span,
                    }
                };
            } else if self.at(".") {
                self.next();
                let (name, nspan) = self.ident()?;
                let span = Span::new(e.span.start, nspan.end);
                e = Expr {
                    kind: ExprKind::Attr(Box::new(e), name),
                    span,
                };
            } else {
                self.depth = outer;
                return Ok(e);
            }
        }
    }

    /// `load("module", …)`: returns the error the real CLI gives.
    fn postfix_after_load(&mut self, start: Span) -> Result<Diag, Diag> {
        self.expect("(")?;
        let module = match self.peek().tok.clone() {
            Tok::Str(m) => m,
            _ => return Err(self.unexpected("a string")),
        };
        self.call_args()?;
        let end = self.expect(")")?;
        Ok(Diag::stat(
            Span::new(start.start, end.end),
            format!(
                "No imports are available, you tried `{module}` (no call to `Evaluator.set_loader`)"
            ),
        ))
    }

    fn call_args(&mut self) -> Result<Vec<Arg>, Diag> {
        let mut args = Vec::new();
        let mut names: Vec<String> = Vec::new();
        while !self.at(")") {
            if self.eat("**") {
                args.push(Arg::StarStar(self.test()?));
            } else if self.eat("*") {
                args.push(Arg::Star(self.test()?));
            } else if matches!(self.peek().tok, Tok::Ident(_))
                && matches!(
                    self.toks.get(self.i + 1).map(|t| &t.tok),
                    Some(Tok::Op("="))
                )
            {
                let (name, nspan) = self.ident()?;
                self.next();
                if names.contains(&name) {
                    self.deferred
                        .push(Diag::stat(nspan, "repeated named argument"));
                }
                names.push(name.clone());
                args.push(Arg::Named(name, self.test()?));
            } else {
                let e = self.test()?;
                if !names.is_empty() {
                    self.deferred.push(Diag::stat(
                        e.span,
                        "positional argument after non positional",
                    ));
                }
                args.push(Arg::Pos(e));
            }
            if !self.eat(",") {
                break;
            }
        }
        Ok(args)
    }

    fn primary(&mut self) -> Result<Expr, Diag> {
        let t = self.peek().clone();
        let simple = |kind| Expr { kind, span: t.span };
        match t.tok {
            Tok::Ident(name) => {
                self.next();
                // `None`, `True` and `False` are ordinary global names in starlark-rust (even
                // `True = 1` is accepted), so they resolve like any other name.
                Ok(simple(ExprKind::Ident(name)))
            }
            Tok::Int(n) => {
                self.next();
                Ok(simple(ExprKind::Int(n)))
            }
            Tok::Float(v) => {
                self.next();
                Ok(simple(ExprKind::Float(v)))
            }
            Tok::Str(s) => {
                self.next();
                // Adjacent string literals are not concatenated in Starlark; `"a" "b"` is an error.
                Ok(simple(ExprKind::Str(Rc::from(s.as_str()))))
            }
            Tok::FStr(parts) => {
                self.next();
                let mut segs = Vec::with_capacity(parts.len());
                for p in parts {
                    segs.push(match p {
                        FPart::Lit(s) => FSeg::Lit(s),
                        FPart::Var(n, span) => FSeg::Var(n, span),
                        FPart::Expr(code, at) => FSeg::Expr(hole(&code, at)?),
                    });
                }
                Ok(simple(ExprKind::FStr(segs)))
            }
            Tok::Op("(") => {
                self.next();
                self.enter()?;
                let r = self.paren_rest(t.span);
                self.depth -= 1;
                r
            }
            Tok::Op("[") => {
                self.next();
                self.enter()?;
                let r = self.list_rest(t.span);
                self.depth -= 1;
                r
            }
            Tok::Op("{") => {
                self.next();
                self.enter()?;
                let r = self.dict_rest(t.span);
                self.depth -= 1;
                r
            }
            _ => Err(self.unexpected("expression")),
        }
    }

    fn paren_rest(&mut self, open: Span) -> Result<Expr, Diag> {
        if self.at(")") {
            let end = self.next().span;
            return Ok(Expr {
                kind: ExprKind::Tuple(Vec::new()),
                span: Span::new(open.start, end.end),
            });
        }
        let first = self.test()?;
        if self.at(")") {
            let end = self.next().span;
            // Parenthesised expression keeps its own meaning; widen the span for messages.
            return Ok(Expr {
                kind: first.kind,
                span: Span::new(open.start, end.end),
            });
        }
        let mut items = vec![first];
        while self.eat(",") {
            if self.at(")") {
                break;
            }
            items.push(self.test()?);
        }
        let end = self.expect(")")?;
        Ok(Expr {
            kind: ExprKind::Tuple(items),
            span: Span::new(open.start, end.end),
        })
    }

    fn clauses(&mut self) -> Result<Vec<Clause>, Diag> {
        let mut clauses = Vec::new();
        loop {
            if self.eat("for") {
                let target = self.target_list()?;
                self.expect("in")?;
                let iter = self.or_expr()?;
                clauses.push(Clause::For(target, iter));
            } else if self.eat("if") {
                clauses.push(Clause::If(self.or_expr()?));
            } else {
                return Ok(clauses);
            }
        }
    }

    fn list_rest(&mut self, open: Span) -> Result<Expr, Diag> {
        let mut items = Vec::new();
        if !self.at("]") {
            let first = self.test()?;
            if self.at("for") {
                let clauses = self.clauses()?;
                let end = self.expect("]")?;
                return Ok(Expr {
                    kind: ExprKind::ListComp(Box::new(first), clauses),
                    span: Span::new(open.start, end.end),
                });
            }
            items.push(first);
            while self.eat(",") {
                if self.at("]") {
                    break;
                }
                items.push(self.test()?);
            }
        }
        let end = self.expect("]")?;
        Ok(Expr {
            kind: ExprKind::List(items),
            span: Span::new(open.start, end.end),
        })
    }

    fn dict_rest(&mut self, open: Span) -> Result<Expr, Diag> {
        let mut items = Vec::new();
        if !self.at("}") {
            let k = self.test()?;
            self.expect(":")?;
            let v = self.test()?;
            if self.at("for") {
                let clauses = self.clauses()?;
                let end = self.expect("}")?;
                return Ok(Expr {
                    kind: ExprKind::DictComp(Box::new((k, v)), clauses),
                    span: Span::new(open.start, end.end),
                });
            }
            items.push((k, v));
            while self.eat(",") {
                if self.at("}") {
                    break;
                }
                let k = self.test()?;
                self.expect(":")?;
                items.push((k, self.test()?));
            }
        }
        let end = self.expect("}")?;
        Ok(Expr {
            kind: ExprKind::Dict(items),
            span: Span::new(open.start, end.end),
        })
    }
}

fn to_target(e: Expr) -> Result<Target, Diag> {
    match e.kind {
        ExprKind::Ident(name) => Ok(Target::Name(name, e.span)),
        ExprKind::Tuple(items) | ExprKind::List(items) => Ok(Target::Tuple(
            items.into_iter().map(to_target).collect::<Result<_, _>>()?,
        )),
        ExprKind::Index(obj, idx) => Ok(Target::Index(*obj, *idx)),
        _ => Err(Diag::parse(
            e.span,
            "left-hand side of assignment must be a name, tuple or index",
        )),
    }
}
