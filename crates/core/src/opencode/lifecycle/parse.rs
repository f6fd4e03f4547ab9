//! The `command` nodes tree-sitter-bash 0.25 finds in a command line, as OpenCode's classic
//! `bash` tool reads them (`opencode-lifecycle.md` §3).
//!
//! OpenCode parses the whole line and visits **every node of type `command` anywhere in the
//! tree**: inside pipelines, `&&`/`;` lists, subshells, `$(…)` and backticks (also inside
//! double quotes), loops, `if`/`case` bodies, function bodies. This module is a small total
//! parser that yields the same nodes, in document order, with what OpenCode takes from each:
//!
//! - the node's source text, and the text of its parent when that parent is a
//!   `redirected_statement` (`ls -la > /etc/passwd`). A redirect written after a command that
//!   is not the first of its `|`/`&&`/`||` chain belongs to the chain (`a | b > f`: no pattern
//!   carries `> f`; the reference states it for pipelines, lists follow the same grammar
//!   rule);
//! - its **tokens**: the direct children of type `command_name`, `word`, `string`,
//!   `raw_string` and `concatenation`. Leading `FOO=1` assignments, a bare `$VAR` or `${…}`,
//!   `$(…)`, `$'…'`, and numbers (`5`, `-9`) are other node types, so they are not tokens.
//!
//! Not `command` nodes in tree-sitter-bash, so they yield nothing: a statement of assignments
//! only (`FOO=1`), `declare`/`typeset`/`export`/`readonly`/`local` (a `declaration_command`),
//! `unset`/`unsetenv` (an `unset_command`), `[ … ]`/`[[ … ]]` (a `test_command`), `(( … ))`.
//! Commands nested inside them still are.
//!
//! **Syntax errors** follow tree-sitter's error recovery as recorded from the real tool
//! (`fixtures/conformance/opencode-bash-real.json`, `…-recorded.json`) and checked against the
//! real tree-sitter-bash on thousands of generated lines (about 97 % of recombined recorded
//! commands agree; 100 % of the recordings):
//!
//! | input | commands |
//! |---|---|
//! | `git push &&`, `a \| `, `a && ;` | `git push`, then an empty command (MISSING name: pattern `""`) — not after a pipeline of two (`a \| b \|`) nor inside an unclosed group |
//! | `cat x 'open`, `ls <<` | `cat x`, `ls`: the rest of the input is an ERROR |
//! | `ca"rgo run`, `ls -l "x` / `cp a "/tmp/x`, `ls x"` | the string runs to the end / ERROR from the quote |
//! | `{ curl "x; }` | no command: an unclosed string inside a group loses its command |
//! | `fi; ls`, `do ls`, `ls; done`, `! if x` | reserved words nothing opened are command names |
//! | `A=1 >f` | a command with a MISSING name (one empty token) |
//! | `echo $((ls x))`, `"$((ls x))" && b` | `echo` only; in a string the rest is a new unclosed string |
//! | `((cp -r a b))` | one command, one token, the whole text |
//! | `f() { ls; pwd` | `f`, `ls` (a last one-word command is lost) |
//! | `case … esac\| x $(y)` | the case's commands and `y` only |
//! | `ls -a⏎\rm x` | one command `ls -a⏎\rm x` (tokens `ls`, `-a`, `⏎\rm`, `x`) |
//!
//! Total and bounded: nesting deeper than [`MAX_DEPTH`] is not descended into, and nothing
//! panics; the work is linear in the input ([`commands_with_work`]).
//!
//! ```
//! use permlab_core::opencode::lifecycle::parse::commands;
//! let c = commands("cat /etc/hostname | grep -c x > /tmp/o.txt; (cd /var && ls) && echo \"$(whoami)\"");
//! let texts: Vec<&str> = c.iter().map(|c| c.pattern_text()).collect();
//! assert_eq!(texts, ["cat /etc/hostname", "grep -c x", "cd /var", "ls", "echo \"$(whoami)\"", "whoami"]);
//! let c = commands("ls -la > /etc/passwd");
//! assert_eq!(c[0].pattern_text(), "ls -la > /etc/passwd");
//! assert_eq!(c[0].text, "ls -la");
//! ```

/// Nesting (`$(…)`, subshells, quotes, compound statements) deeper than this is skipped, not
/// descended into: hostile input cannot overflow the stack.
pub const MAX_DEPTH: usize = 48;

/// The node type of a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// The command's name (whatever it is written with).
    CommandName,
    /// A plain word.
    Word,
    /// `"…"`.
    String,
    /// `'…'`.
    RawString,
    /// Adjacent parts (`a"b"`, `$HOME/x`, `--x=$(y)`).
    Concatenation,
}

/// A token: a child of the `command` node of one of the token types.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The source text, quotes included.
    pub text: String,
    /// Its node type.
    pub kind: TokenKind,
}

/// One `command` node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The node's source text.
    pub text: String,
    /// The parent `redirected_statement`'s text, when the parent is one.
    pub redirected: Option<String>,
    /// The tokens, in order.
    pub tokens: Vec<Token>,
    /// Byte offset of the node in the command line.
    pub start: usize,
}

impl Command {
    /// What OpenCode uses as the bash pattern: the parent `redirected_statement`'s text if
    /// there is one, else the node's text (trimmed).
    pub fn pattern_text(&self) -> &str {
        self.redirected.as_deref().unwrap_or(&self.text).trim()
    }

    /// The tokens' texts.
    pub fn token_texts(&self) -> Vec<&str> {
        self.tokens.iter().map(|t| t.text.as_str()).collect()
    }
}

/// Every `command` node of `source`, in document order.
pub fn commands(source: &str) -> Vec<Command> {
    commands_with_work(source).0
}

/// [`commands`], with the parser's work: how many times it looked at the input. It grows
/// linearly with the input's length whatever the input (nesting is cut at [`MAX_DEPTH`], every
/// loop makes progress, nothing is re-read), which a test checks on hostile 200 KB inputs.
///
/// ```
/// use permlab_core::opencode::lifecycle::parse::commands_with_work;
/// let (c, work) = commands_with_work("git status && npm test");
/// assert_eq!(c.len(), 2);
/// assert!(work < 40 * 22);
/// ```
pub fn commands_with_work(source: &str) -> (Vec<Command>, usize) {
    let mut p = Parser {
        src: source,
        b: source.as_bytes(),
        i: 0,
        out: Vec::new(),
        heredocs: Vec::new(),
        bt: 0,
        open: 0,
        missing: 0,
        drop_current: false,
        broken: false,
        unclosed_group: false,
        flag_before: false,
        work: std::cell::Cell::new(0),
    };
    p.list(0, Stop::Eof);
    let work = p.work.get();
    let mut out = p.out;
    crate::sort::by_rank(&mut out, |c| c.start as u64);
    (out, work)
}

/// What ends a list.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stop {
    Eof,
    /// `)` of a subshell or `$(…)`.
    Paren,
    /// A closing backtick.
    Backtick,
    /// Any of these reserved words (at a command position).
    Words(&'static [&'static str]),
}

/// Words that make a `declaration_command` / `unset_command`, not a `command`.
const DECLARATIONS: [&str; 7] = [
    "declare", "typeset", "export", "readonly", "local", "unset", "unsetenv",
];

struct Parser<'a> {
    src: &'a str,
    b: &'a [u8],
    i: usize,
    out: Vec<Command>,
    /// Here-documents waiting for the next newline: delimiter, `<<-`, and the command whose
    /// redirected statement they end.
    /// Each: delimiter, `<<-`, expands (delimiter unquoted), owner.
    heredocs: Vec<(String, bool, bool, Option<usize>)>,
    /// Inside a `` `…` `` list (innermost level): a backtick closes it.
    bt: usize,
    /// Lists open around the cursor (groups, subshells, substitutions, compound bodies).
    open: usize,
    /// Constructs that reached the end of the input without their closer.
    missing: usize,
    /// The command being read contains a string tree-sitter cannot close: no `command` node.
    drop_current: bool,
    /// The word just read cannot be completed (`$((ls x))`, an unclosed `$(… { …; }`): the
    /// command's text ends before it.
    broken: bool,
    /// The last `{ …` read had no `}`.
    unclosed_group: bool,
    /// The word being read follows a `-x` flag of the same command.
    flag_before: bool,
    /// Looks at the input so far (a measure of the parser's work, see [`commands_with_work`]).
    work: std::cell::Cell<usize>,
}

/// How a word was written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Bare,
    Single,
    Double,
    /// `$'…'`, `$"…"`, `$x`, `${…}`, `$(…)`, `` `…` ``, `$((…))`, `<(…)`.
    Other,
    /// A run of `{ } [ ]`.
    Special,
}

struct Word {
    start: usize,
    end: usize,
    parts: Vec<Part>,
}

impl Word {
    fn kind(&self, src: &str) -> Option<TokenKind> {
        match self.parts.as_slice() {
            [Part::Bare] if is_number(src.get(self.start..self.end).unwrap_or("")) => None,
            [Part::Bare] | [Part::Special] => Some(TokenKind::Word),
            [Part::Single] => Some(TokenKind::RawString),
            [Part::Double] => Some(TokenKind::String),
            [Part::Other] | [] => None,
            _ => Some(TokenKind::Concatenation),
        }
    }
}

/// tree-sitter-bash's `number`: `-?(0x)?[0-9]+(#[0-9A-Za-z@_]+)?`, the whole word.
fn is_number(s: &str) -> bool {
    let s = s.strip_prefix('-').unwrap_or(s);
    let s = s.strip_prefix("0x").unwrap_or(s);
    let (digits, base) = match s.split_once('#') {
        Some((d, b)) => (d, Some(b)),
        None => (s, None),
    };
    !digits.is_empty()
        && digits.bytes().all(|c| c.is_ascii_digit())
        && base.is_none_or(|b| {
            !b.is_empty()
                && b.bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'@' || c == b'_')
        })
}

/// Whether tree-sitter-bash reads `text` (inside `((…))`) as an arithmetic expression: operands
/// (names, numbers, `$x`, `${…}`, `$(…)`) and operators only, never two operands side by side.
fn arithmetic(text: &str) -> bool {
    let b = text.as_bytes();
    let (mut i, mut operand, mut ternary) = (0, false, 0usize);
    while i < b.len() {
        let c = b[i];
        match c {
            b' ' | b'\t' | b'\n' => i += 1,
            b'(' | b')' => {
                operand = c == b')';
                i += 1;
            }
            b'$' if b.get(i + 1) == Some(&b'(') || b.get(i + 1) == Some(&b'{') => {
                if operand {
                    return false;
                }
                let (open, close) = if b[i + 1] == b'(' {
                    (b'(', b')')
                } else {
                    (b'{', b'}')
                };
                let mut level = 0usize;
                i += 1;
                while i < b.len() {
                    if b[i] == open {
                        level += 1;
                    } else if b[i] == close {
                        level -= 1;
                        if level == 0 {
                            break;
                        }
                    }
                    i += 1;
                }
                i += 1;
                operand = true;
            }
            c if c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'#' || c == b'@' => {
                if operand {
                    return false;
                }
                i += 1;
                while i < b.len()
                    && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'#' | b'@'))
                {
                    i += 1;
                }
                operand = true;
            }
            b'+' | b'-' if operand && b.get(i + 1) == Some(&c) => i += 2,
            b'?' | b':' => {
                // `:` only closes a `?`.
                if c == b'?' {
                    ternary += 1;
                } else if ternary == 0 {
                    return false;
                } else {
                    ternary -= 1;
                }
                operand = false;
                i += 1;
            }
            b'+' | b'-' | b'*' | b'/' | b'%' | b'<' | b'>' | b'=' | b'!' | b'&' | b'|' | b'^'
            | b'~' | b',' => {
                operand = false;
                i += 1;
            }
            _ => return false,
        }
    }
    true
}

fn is_meta(c: u8) -> bool {
    matches!(
        c,
        b' ' | b'\t' | b'\n' | b'\r' | b';' | b'&' | b'|' | b'(' | b')' | b'<' | b'>'
    )
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.work.set(self.work.get() + 1);
        self.b.get(self.i).copied()
    }

    fn at(&self, k: usize) -> Option<u8> {
        self.work.set(self.work.get() + 1);
        self.b.get(self.i + k).copied()
    }

    fn starts(&self, s: &str) -> bool {
        self.work.set(self.work.get() + 1);
        self.b[self.i.min(self.b.len())..].starts_with(s.as_bytes())
    }

    /// Ends the input at `at`: tree-sitter's error recovery puts everything from there into an
    /// ERROR node that holds no command.
    fn cut(&mut self, at: usize) {
        let at = at.min(self.b.len());
        self.b = &self.b[..at];
        self.src = self.src.get(..at).unwrap_or(self.src);
        self.i = at;
    }

    /// The rest of the input is an ERROR node: only its substitutions are parsed.
    fn substitutions_only(&mut self, depth: usize) {
        while let Some(c) = self.peek() {
            match c {
                b'\\' => self.i += 2,
                b'\'' => {
                    self.i += 1;
                    while self.peek().is_some_and(|c| c != b'\'') {
                        self.i += 1;
                    }
                    self.i += 1;
                }
                b'$' => self.dollar(depth + 1),
                b'`' if self.bt == 0 => self.backtick(depth + 1),
                _ => self.i += 1,
            }
        }
        self.i = self.i.min(self.b.len());
    }

    fn text(&self, from: usize, to: usize) -> String {
        self.src.get(from..to).unwrap_or("").to_string()
    }

    /// Skips spaces, tabs and line continuations (not newlines).
    fn blanks(&mut self) {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\r') => self.i += 1,
                Some(b'\\') if self.at(1) == Some(b'\n') => self.i += 2,
                _ => return,
            }
        }
    }

    fn comment(&mut self) {
        while self.peek().is_some_and(|c| c != b'\n') {
            self.i += 1;
        }
    }

    /// The reserved word at the cursor (only when it stands alone).
    fn keyword(&self) -> Option<&'static str> {
        const KW: [&str; 24] = [
            "if", "then", "elif", "else", "fi", "while", "until", "for", "do", "done", "case",
            "esac", "function", "select", "{", "}", "in", "!", "[[", "[", "declare", "typeset",
            "export", "readonly",
        ];
        const KW2: [&str; 3] = ["local", "unset", "unsetenv"];
        KW.iter().chain(KW2.iter()).copied().find(|k| {
            self.starts(k)
                && self.b.get(self.i + k.len()).is_none_or(|&c| {
                    is_meta(c) || (c == b'`' && self.bt > 0) || *k == "{" || *k == "!"
                })
                && !(*k == "{" && self.at(1).is_some_and(|c| !is_meta(c)))
                && !(*k == "!" && self.at(1).is_some_and(|c| !is_meta(c)))
        })
    }

    fn stopped(&self, stop: Stop) -> bool {
        match (stop, self.peek()) {
            (_, None) => true,
            (Stop::Paren, Some(b')')) => true,
            (Stop::Backtick, Some(b'`')) => true,
            (Stop::Words(ws), Some(_)) => self.keyword().is_some_and(|k| ws.contains(&k)),
            _ => false,
        }
    }

    /// A list of statements until `stop`; the stop itself is not consumed.
    fn list(&mut self, depth: usize, stop: Stop) {
        let inner = stop != Stop::Eof;
        self.open += usize::from(inner);
        self.list_items(depth, stop);
        self.open -= usize::from(inner);
    }

    fn list_items(&mut self, depth: usize, stop: Stop) {
        loop {
            let before = self.i;
            loop {
                self.blanks();
                match self.peek() {
                    Some(b'\n') => {
                        self.i += 1;
                        self.read_heredocs();
                    }
                    Some(b';' | b'&') if !self.stopped(stop) => {
                        // `;;` of a case item ends the list too.
                        if (self.starts(";;") || self.starts(";&"))
                            && matches!(stop, Stop::Words(ws) if ws.contains(&"esac"))
                        {
                            return;
                        }
                        self.i += 1;
                    }
                    Some(b'#') => self.comment(),
                    _ => break,
                }
            }
            if self.stopped(stop) {
                return;
            }
            if stop != Stop::Paren && self.peek() == Some(b')') {
                // A stray `)`: skip it.
                self.i += 1;
                continue;
            }
            if self.peek() == Some(b'`') && self.bt > 0 {
                return;
            }
            self.and_or(depth, stop);
            if self.i == before {
                // Nothing consumed (a stray closer): skip one character.
                self.i += 1;
            }
        }
    }

    /// `a && b || c`: only the first statement can own a trailing redirect.
    fn and_or(&mut self, depth: usize, stop: Stop) {
        let mut first = true;
        loop {
            let n = self.pipeline(depth, first, stop);
            self.blanks();
            if self.starts("&&") || self.starts("||") {
                self.i += 2;
                first = false;
                if self.missing_operand(stop, n == 1, false) {
                    return;
                }
                loop {
                    self.blanks();
                    match self.peek() {
                        Some(b'\n') => {
                            self.i += 1;
                            self.read_heredocs();
                        }
                        Some(b'#') => self.comment(),
                        _ => break,
                    }
                }
                continue;
            }
            return;
        }
    }

    /// After `&&`, `||` or `|` with nothing left but blanks and comments before the end (of
    /// the input or of the enclosing list), tree-sitter inserts a MISSING command name: a
    /// `command` node with one empty token (pattern `""`, always `" *"`).
    ///
    /// Also recorded: `a && ;` and `a | && b` get the empty command, but not an operator left
    /// at the end of an unclosed group, subshell or substitution (`(a && b &&`).
    fn missing_operand(&mut self, stop: Stop, insert: bool, after_pipe: bool) -> bool {
        let at = self.i;
        loop {
            self.blanks();
            match self.peek() {
                Some(b'\n') => self.i += 1,
                Some(b'#') => self.comment(),
                _ => break,
            }
        }
        let end = self.stopped(stop) || (self.peek() == Some(b')') && stop == Stop::Paren);
        let unclosed = self.peek().is_none() && self.open > 0;
        let empty = if after_pipe {
            self.starts("&&") || self.starts("||")
        } else {
            self.peek() == Some(b';') && self.at(1) != Some(b';')
        };
        let pos = self.i;
        self.i = at;
        if ((end && !unclosed) || empty) && insert {
            self.out.push(Command {
                text: String::new(),
                redirected: None,
                tokens: vec![Token {
                    text: String::new(),
                    kind: TokenKind::CommandName,
                }],
                start: pos,
            });
        }
        end
    }

    /// A pipeline; returns how many statements it has (an operand MISSING at the end is only
    /// inserted after a single one: `a | b |` and `a | b &&` are ERRORs instead).
    fn pipeline(&mut self, depth: usize, first: bool, stop: Stop) -> usize {
        let mut own = first;
        let mut n = 0;
        loop {
            let before = self.i;
            self.statement(depth, own, stop);
            n += usize::from(self.i > before);
            self.blanks();
            if self.peek() == Some(b'|') && self.at(1) != Some(b'|') {
                self.i += if self.at(1) == Some(b'&') { 2 } else { 1 };
                own = false;
                if self.missing_operand(stop, n == 1, true) {
                    return n;
                }
                // `a |⏎ b`, `a | # note⏎ b`: the pipeline goes on.
                loop {
                    self.blanks();
                    match self.peek() {
                        Some(b'\n') => {
                            self.i += 1;
                            self.read_heredocs();
                        }
                        Some(b'#') => self.comment(),
                        _ => break,
                    }
                }
                continue;
            }
            return n;
        }
    }

    /// One statement. `own_redirect`: a trailing redirect makes a `redirected_statement` whose
    /// body is this statement.
    fn statement(&mut self, depth: usize, own_redirect: bool, stop: Stop) {
        self.blanks();
        if depth > MAX_DEPTH {
            self.skip_to_end();
            return;
        }
        if self.stopped(stop) {
            return;
        }
        let kw = self.keyword();
        match kw {
            Some("!") => {
                // `negated_command` takes a command, an assignment, a test or a subshell; its
                // redirects belong to the negation, not to the command. A reserved word after
                // `!` is a plain command name (`! export X=1` → command `export X=1`).
                self.i += 1;
                self.blanks();
                match self.keyword() {
                    Some("[[" | "[") | None => self.statement(depth + 1, false, stop),
                    Some(_) => self.simple(depth + 1, false),
                }
            }
            Some("if") => {
                self.i += 2;
                self.list(depth + 1, Stop::Words(&["then"]));
                self.expect("then");
                loop {
                    self.list(depth + 1, Stop::Words(&["elif", "else", "fi"]));
                    match self.keyword() {
                        Some("elif") => {
                            self.i += 4;
                            self.list(depth + 1, Stop::Words(&["then"]));
                            self.expect("then");
                        }
                        Some("else") => self.i += 4,
                        _ => break,
                    }
                }
                self.expect("fi");
                self.trailing(depth, None);
            }
            Some("while" | "until") => {
                self.i += kw.map_or(0, str::len);
                self.list(depth + 1, Stop::Words(&["do"]));
                self.do_group(depth);
            }
            Some("for" | "select") => {
                self.i += kw.map_or(0, str::len);
                self.blanks();
                if self.starts("((") {
                    self.skip_arith();
                } else {
                    // `for x in words`: words only (their substitutions are visited).
                    loop {
                        self.blanks();
                        match self.peek() {
                            None | Some(b';' | b'\n') => break,
                            _ if self.keyword() == Some("do") => break,
                            Some(c) if is_meta(c) => self.i += 1,
                            _ => {
                                self.word_or_skip(depth);
                            }
                        }
                    }
                }
                self.do_group(depth);
            }
            Some("case") => {
                self.i += 4;
                self.blanks();
                self.word_or_skip(depth);
                self.blanks();
                self.expect("in");
                loop {
                    self.list_blank();
                    if self.keyword() == Some("esac") || self.peek().is_none() {
                        break;
                    }
                    // Patterns up to `)`.
                    if self.peek() == Some(b'(') {
                        self.i += 1;
                    }
                    while let Some(c) = self.peek() {
                        if c == b')' {
                            self.i += 1;
                            break;
                        }
                        if is_meta(c) {
                            self.i += 1;
                        } else {
                            self.word_or_skip(depth);
                        }
                    }
                    self.list(depth + 1, Stop::Words(&["esac"]));
                    for op in [";;&", ";;", ";&"] {
                        if self.starts(op) {
                            self.i += op.len();
                            break;
                        }
                    }
                }
                self.list_blank();
                if self.keyword() == Some("esac") {
                    self.i += 4;
                    if self.peek() == Some(b'|') {
                        // `esac|` lexes as an extglob pattern: the case statement never closes
                        // and everything after it is one ERROR node, where only the commands
                        // inside `$(…)` and backticks are still nodes.
                        self.substitutions_only(depth);
                        return;
                    }
                }
                self.trailing(depth, None);
            }
            Some("{") => {
                self.i += 1;
                self.list(depth + 1, Stop::Words(&["}"]));
                self.list_blank();
                if self.keyword() == Some("}") {
                    self.i += 1;
                } else {
                    self.unclosed_group = true;
                }
                self.trailing(depth, None);
            }
            Some("function") => {
                self.i += 8;
                self.blanks();
                self.word_or_skip(depth);
                self.blanks();
                if self.starts("()") {
                    self.i += 2;
                }
                self.statement(depth + 1, false, stop);
            }
            Some("[[" | "[") => {
                let close = if kw == Some("[[") { "]]" } else { "]" };
                self.i += close.len();
                loop {
                    self.blanks();
                    match self.peek() {
                        None | Some(b'\n' | b';') => break,
                        _ if self.starts(close)
                            && self.b.get(self.i + close.len()).is_none_or(|&c| is_meta(c)) =>
                        {
                            self.i += close.len();
                            break;
                        }
                        Some(b'&' | b'|') if close == "]" => break,
                        Some(c) if is_meta(c) => self.i += 1,
                        _ => {
                            self.word_or_skip(depth);
                        }
                    }
                }
                self.trailing(depth, None);
            }
            Some(k) if DECLARATIONS.contains(&k) => {
                self.i += k.len();
                self.words_until_end(depth);
                self.trailing(depth, None);
            }
            Some(_) => {
                // A closer nothing opened (`fi; ls`, `do ls`, `ls; done`): tree-sitter reads
                // it as a command name.
                self.simple(depth, own_redirect);
            }
            None => {
                if self.starts("((") {
                    let from = self.i;
                    self.skip_arith();
                    let inner = self
                        .src
                        .get(from + 2..self.i.saturating_sub(2))
                        .unwrap_or("");
                    let word = inner.trim();
                    // `((curl https://x))`: a `:` inside a word makes it one ERROR, no command.
                    let colon = inner
                        .as_bytes()
                        .windows(2)
                        .any(|w| w[0] == b':' && !w[1].is_ascii_whitespace());
                    let lone_name = !word.is_empty()
                        && word.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
                        && !word.as_bytes()[0].is_ascii_digit();
                    if (lone_name || !arithmetic(inner)) && !colon {
                        // `((cp -r src /tmp/backup))` is neither arithmetic nor two
                        // subshells for tree-sitter: one command whose only token is all of it.
                        let text = self.text(from, self.i);
                        self.out.push(Command {
                            text: text.clone(),
                            redirected: None,
                            tokens: vec![Token {
                                text,
                                kind: TokenKind::CommandName,
                            }],
                            start: from,
                        });
                    }
                    self.trailing(depth, None);
                } else if self.peek() == Some(b'(') {
                    self.i += 1;
                    self.list(depth + 1, Stop::Paren);
                    if self.peek() == Some(b')') {
                        self.i += 1;
                    }
                    self.trailing(depth, None);
                } else {
                    self.simple(depth, own_redirect);
                }
            }
        }
    }

    fn do_group(&mut self, depth: usize) {
        self.list_blank();
        self.expect("do");
        self.list(depth + 1, Stop::Words(&["done"]));
        self.expect("done");
        self.trailing(depth, None);
    }

    /// Skips separators between case items.
    fn list_blank(&mut self) {
        loop {
            self.blanks();
            match self.peek() {
                Some(b'\n') => {
                    self.i += 1;
                    self.read_heredocs();
                }
                Some(b';') => self.i += 1,
                Some(b'#') => self.comment(),
                _ => return,
            }
        }
    }

    fn expect(&mut self, word: &str) {
        self.list_blank();
        if self.keyword() == Some(word) {
            self.i += word.len();
        }
    }

    fn words_until_end(&mut self, depth: usize) {
        loop {
            self.blanks();
            match self.peek() {
                None | Some(b'\n' | b';' | b'&' | b'|' | b')' | b'<' | b'>') => return,
                Some(b'`') if self.bt > 0 => return,
                Some(b'#') => return self.comment(),
                Some(b'(') => self.i += 1,
                _ => {
                    self.word_or_skip(depth);
                }
            }
        }
    }

    /// Redirects after a statement; `owner` is the command whose redirected statement they
    /// make (if it owns them).
    fn trailing(&mut self, depth: usize, owner: Option<(usize, usize)>) -> Option<usize> {
        let mut end = None;
        loop {
            self.blanks();
            if !self.redirect_ahead() {
                break;
            }
            self.redirect(depth, true, owner.map(|(k, _)| k));
            end = Some(self.last_end());
        }
        end
    }

    /// The end of the last non-blank text before the cursor.
    fn last_end(&self) -> usize {
        let mut e = self.i.min(self.b.len());
        while e > 0 && matches!(self.b[e - 1], b' ' | b'\t' | b'\r' | b'\n') {
            e -= 1;
        }
        e
    }

    /// At a redirect operator (optionally after an fd number glued to it)?
    fn redirect_ahead(&self) -> bool {
        let mut k = self.i;
        while self.b.get(k).is_some_and(u8::is_ascii_digit) {
            k += 1;
        }
        match (self.b.get(k), self.b.get(k + 1)) {
            (Some(b'<' | b'>'), Some(b'(')) => false,
            (Some(b'<' | b'>'), _) => true,
            (Some(b'&'), Some(b'>')) if k == self.i => true,
            _ => false,
        }
    }

    /// One redirect: fd, operator, destination words (several for a file redirect, as
    /// tree-sitter-bash 0.25 reads `> f b`). `herestring`/heredoc handled here too.
    fn redirect(&mut self, depth: usize, trailing: bool, owner: Option<usize>) {
        let op_start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        let ops = [
            "<<<", "<<-", "&>>", "<<", ">>", "&>", ">&", "<&", ">|", "<>", "<", ">",
        ];
        let op = ops.iter().copied().find(|o| self.starts(o)).unwrap_or("");
        self.i += op.len().max(1);
        if matches!(self.peek(), Some(b'-')) && op.ends_with('&') {
            self.i += 1;
            return;
        }
        self.blanks();
        match op {
            "<<" | "<<-" if self.peek().is_none_or(is_meta) => {
                // `<<` with no delimiter on its line: an ERROR from here to the end.
                self.cut(op_start);
            }
            "<<" | "<<-" => {
                let start = self.i;
                self.word_or_skip(depth);
                let raw = self.text(start, self.i);
                let delim: String = raw
                    .chars()
                    .filter(|c| !matches!(c, '\'' | '"' | '\\'))
                    .collect();
                let expands = delim == raw;
                self.heredocs.push((delim, op == "<<-", expands, owner));
            }
            "<<<" => {
                self.word_or_skip(depth);
            }
            _ => {
                // One destination at least; a file redirect takes every following literal.
                let mut n = 0;
                loop {
                    self.blanks();
                    match self.peek() {
                        None => break,
                        // `2> >(tee err.log)`: a process substitution is a destination.
                        Some(b'<' | b'>') if self.at(1) == Some(b'(') && n == 0 => {
                            self.word_or_skip(depth);
                            n += 1;
                            if !trailing {
                                break;
                            }
                        }
                        Some(c) if is_meta(c) || (c == b'`' && self.bt > 0) => break,
                        Some(b'#') if n > 0 => break,
                        _ => {
                            if n > 0 && self.redirect_ahead() {
                                break;
                            }
                            self.word_or_skip(depth);
                            n += 1;
                            if !trailing {
                                break;
                            }
                        }
                    }
                }
            }
        }
    }

    /// Here-document bodies start after the newline that ends their command line.
    fn read_heredocs(&mut self) {
        let pending = std::mem::take(&mut self.heredocs);
        for (delim, strip, expands, owner) in pending {
            loop {
                if self.i >= self.b.len() {
                    break;
                }
                let start = self.i;
                let mut line_end = start;
                while self.b.get(line_end).is_some_and(|&c| c != b'\n') {
                    line_end += 1;
                }
                let line = self.src.get(start..line_end).unwrap_or("");
                // tree-sitter-bash's scanner ends the body at a line that *starts* with the
                // delimiter; the rest of that line is read as commands again.
                let tabs = if strip {
                    line.len() - line.trim_start_matches('\t').len()
                } else {
                    0
                };
                if line[tabs..].starts_with(delim.as_str()) && !delim.is_empty() {
                    self.i = start + tabs + delim.len();
                    // Redirects after the delimiter (`EOF 2>/dev/null`) still belong to the
                    // redirected statement.
                    let mut end = self.i;
                    loop {
                        self.blanks();
                        if !self.redirect_ahead() || self.starts("<<") && !self.starts("<<<") {
                            break;
                        }
                        self.redirect(1, true, None);
                        end = self.last_end();
                    }
                    self.i = end;
                    let src = self.src;
                    if let Some(c) = owner.and_then(|k| self.out.get_mut(k)) {
                        c.redirected = Some(src.get(c.start..end).unwrap_or("").to_string());
                    }
                    break;
                }
                if expands {
                    // An unquoted here-document expands `$(…)` and backticks: their commands
                    // are nodes of the tree too.
                    while self.peek().is_some_and(|c| c != b'\n') {
                        match self.peek() {
                            Some(b'\\') => self.i += 2,
                            Some(b'$') => self.dollar(1),
                            Some(b'`') => {
                                self.backtick(1);
                            }
                            _ => self.i += 1,
                        }
                    }
                    self.i = self.i.min(self.b.len());
                } else {
                    self.i = line_end;
                }
                if self.peek() == Some(b'\n') {
                    self.i += 1;
                }
            }
        }
    }

    fn skip_arith(&mut self) {
        let mut level = 0usize;
        while let Some(c) = self.peek() {
            self.i += 1;
            match c {
                b'(' => level += 1,
                b')' => {
                    level = level.saturating_sub(1);
                    if level == 0 {
                        return;
                    }
                }
                _ => {}
            }
        }
    }

    fn skip_to_end(&mut self) {
        self.i = self.b.len();
    }

    /// A simple command: assignments and redirects, the name, arguments; then trailing
    /// redirects.
    fn simple(&mut self, depth: usize, own_redirect: bool) {
        let start = self.i;
        // Prefix: assignments and redirects.
        let (mut assigned, mut redirect_after) = (false, false);
        loop {
            self.blanks();
            if self.redirect_ahead() {
                self.redirect(depth, false, None);
                redirect_after = assigned;
                continue;
            }
            if self.assignment_ahead() {
                assigned = true;
                self.word_or_skip(depth);
                if self.peek() == Some(b'(') && self.i > 0 && self.b[self.i - 1] == b'=' {
                    self.array(depth);
                }
                continue;
            }
            break;
        }
        let name = match self.peek() {
            Some(b'`') if self.bt > 0 => None,
            Some(c) if !is_meta(c) && c != b'#' => self.word(depth),
            _ => None,
        };
        let Some(name) = name else {
            // Assignments or redirects only: no `command` node, except for assignments
            // followed by a redirect (`A=1 >f`): tree-sitter makes that a command whose name
            // is MISSING (one empty token, always `" *"`).
            if redirect_after && !std::mem::take(&mut self.drop_current) {
                self.trailing(depth, None);
                let end = self.last_end();
                self.out.push(Command {
                    text: self.text(start, end),
                    redirected: None,
                    tokens: vec![Token {
                        text: String::new(),
                        kind: TokenKind::CommandName,
                    }],
                    start,
                });
            }
            self.drop_current = false;
            return;
        };
        let after_name = self.i;
        self.blanks();
        if !self.starts("()") {
            self.i = after_name;
        } else {
            // `name() { … }`: a function definition; its body's commands are visited.
            self.i += 2;
            let found = self.out.len();
            self.unclosed_group = false;
            self.statement(depth + 1, false, Stop::Eof);
            if std::mem::take(&mut self.unclosed_group) {
                // `f() { ls; pwd` never closes: tree-sitter's recovery keeps `f` as a command
                // and the body's commands, except a last one that is a single word.
                if self.out.len() > found
                    && self.out.last().is_some_and(|c| {
                        c.tokens.len() == 1
                            && c.tokens[0].kind == TokenKind::CommandName
                            && c.redirected.is_none()
                            && c.text == c.tokens[0].text
                    })
                {
                    self.out.pop();
                }
                self.out.push(Command {
                    text: self.text(name.start, name.end),
                    redirected: None,
                    tokens: vec![Token {
                        text: self.text(name.start, name.end),
                        kind: TokenKind::CommandName,
                    }],
                    start: name.start,
                });
            }
            return;
        }
        let mut tokens = vec![Token {
            text: self.text(name.start, name.end),
            kind: TokenKind::CommandName,
        }];
        let mut end = name.end;
        // An argument so far is a `-x` flag (decides how an unclosed `"` ends).
        let mut flag = false;
        loop {
            self.blanks();
            match self.peek() {
                // `ls -a⏎\rm x`: a newline right before a backslash-escaped character is
                // read into the next word, so the command goes on (tokens `ls`, `-a`,
                // `⏎\rm`, `x`); bash itself runs `\rm x` as a second command.
                Some(b'\n')
                    if self.at(1) == Some(b'\\') && self.at(2).is_some_and(|c| c != b'\n') =>
                {
                    let from = self.i;
                    self.i += 1;
                    if let Some(w) = self.word(depth) {
                        tokens.push(Token {
                            text: self.text(from, w.end),
                            kind: TokenKind::Word,
                        });
                        end = w.end;
                    }
                }
                None | Some(b'\n' | b';' | b'&' | b'|' | b')') => break,
                Some(b'`') if self.bt > 0 => break,
                Some(b'#') => break,
                Some(b'(') => break,
                _ if self.starts("<<<") => {
                    self.redirect(depth, false, None);
                    end = self.last_end();
                }
                _ if self.redirect_ahead() => break,
                _ => {
                    self.broken = false;
                    self.flag_before = flag;
                    let w = self.word(depth);
                    self.flag_before = false;
                    if let Some(w) = w {
                        if !std::mem::take(&mut self.broken) {
                            let b = &self.b[w.start..w.end];
                            flag |= b.len() > 1 && b[0] == b'-' && b[1].is_ascii_alphabetic();
                            if let Some(kind) = w.kind(self.src) {
                                tokens.push(Token {
                                    text: self.text(w.start, w.end),
                                    kind,
                                });
                            }
                            end = w.end;
                        }
                    } else {
                        self.i += 1;
                    }
                }
            }
        }
        if std::mem::take(&mut self.drop_current) {
            return;
        }
        let k = self.out.len();
        self.out.push(Command {
            text: self.text(start, end).trim().to_string(),
            redirected: None,
            tokens,
            start,
        });
        let owner = own_redirect.then_some((k, start));
        if let Some(rend) = self.trailing(depth, owner) {
            if own_redirect {
                if let Some(c) = self.out.get_mut(k) {
                    c.redirected = Some(self.src.get(start..rend).unwrap_or("").to_string());
                }
            }
        }
    }

    /// `a=(1 2 $(x))`: the elements of an array assignment (no command of their own).
    fn array(&mut self, depth: usize) {
        self.i += 1;
        loop {
            self.blanks();
            match self.peek() {
                None => return,
                Some(b')') => {
                    self.i += 1;
                    return;
                }
                Some(b'\n') => {
                    self.i += 1;
                    self.read_heredocs();
                }
                Some(b'#') => self.comment(),
                Some(b'<' | b'>') if self.at(1) == Some(b'(') => self.word_or_skip(depth),
                Some(c) if is_meta(c) => self.i += 1,
                _ => self.word_or_skip(depth),
            }
        }
    }

    fn assignment_ahead(&self) -> bool {
        let rest = &self.b[self.i.min(self.b.len())..];
        let name_len = rest
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
            .count();
        if name_len == 0 || rest[0].is_ascii_digit() {
            return false;
        }
        let after = &rest[name_len..];
        after.starts_with(b"=")
            || after.starts_with(b"+=")
            || (after.starts_with(b"[")
                && after
                    .iter()
                    .position(|&c| c == b']')
                    .is_some_and(|k| after.get(k + 1) == Some(&b'=')))
    }

    /// Reads one word, or skips one byte where no word starts (always makes progress).
    fn word_or_skip(&mut self, depth: usize) {
        if self.word(depth).is_none() {
            self.i += 1;
        }
    }

    /// Reads one word; commands nested in it are collected.
    fn word(&mut self, depth: usize) -> Option<Word> {
        let start = self.i;
        let mut parts: Vec<Part> = Vec::new();
        let mut bare = false;
        while let Some(c) = self.peek() {
            match c {
                b'\'' => {
                    let quote = self.i;
                    self.i += 1;
                    while self.peek().is_some_and(|c| c != b'\'') {
                        self.i += 1;
                    }
                    if self.peek().is_none() {
                        // An unclosed `'…`: tree-sitter makes it and everything after it an
                        // ERROR; the command ends before it (`cat x 'open` → `cat x`).
                        self.cut(quote);
                        break;
                    }
                    bare = false;
                    self.i += 1;
                    parts.push(Part::Single);
                }
                b'"' => {
                    let (quote, open, missing, found) =
                        (self.i, self.open, self.missing, self.out.len());
                    self.i += 1;
                    let closed = self.double(depth);
                    // Recorded: `ca"rgo run` and `ls -l "x` keep the string (closed at the end),
                    // `ls x"`, `cp a "/tmp/x` do not; a string starting a word needs an
                    // earlier `-x` flag in the command.
                    let glued = if quote > start {
                        quote + 1 < self.b.len()
                    } else {
                        self.flag_before
                    };
                    if !closed && (open > 0 || self.missing > missing || !glued) {
                        // An unclosed `"…` gets a MISSING `"` at the very end only inside a
                        // word (`ca"rgo run`), with text after it, when nothing else is left
                        // open; otherwise it is an ERROR from the quote on (`cp a "/tmp/` →
                        // `cp a`), its commands are lost, and inside a group, subshell or
                        // substitution the command holding it is no `command` node at all.
                        self.out.truncate(found);
                        self.cut(quote);
                        self.missing = missing;
                        self.drop_current = open > 0;
                        self.broken = open > 0;
                        break;
                    }
                    bare = false;
                    parts.push(Part::Double);
                }
                b'`' => {
                    if self.bt > 0 {
                        break;
                    }
                    bare = false;
                    self.backtick(depth);
                    parts.push(Part::Other);
                }
                b'$' => {
                    bare = false;
                    self.dollar(depth);
                    parts.push(Part::Other);
                }
                b'<' | b'>' if self.at(1) == Some(b'(') => {
                    bare = false;
                    self.i += 2;
                    self.nested(depth, Stop::Paren);
                    if self.peek() == Some(b')') {
                        self.i += 1;
                    }
                    parts.push(Part::Other);
                }
                b'\\' => {
                    if !bare {
                        parts.push(Part::Bare);
                        bare = true;
                    }
                    self.i += 2;
                }
                c if is_meta(c) => break,
                b'{' | b'}' | b'[' | b']' => {
                    // tree-sitter-bash's `_special_character`: a run of them is a part of
                    // its own (`{a,b}` is a concatenation, `{}` a word).
                    if parts.last() != Some(&Part::Special) {
                        parts.push(Part::Special);
                    }
                    bare = false;
                    self.i += 1;
                }
                _ => {
                    if !bare {
                        parts.push(Part::Bare);
                        bare = true;
                    }
                    self.i += 1;
                }
            }
        }
        self.i = self.i.min(self.b.len());
        // Keep the end on a character boundary (a lone `\` before a multi-byte char).
        while !self.src.is_char_boundary(self.i) {
            self.i += 1;
        }
        (self.i > start).then_some(Word {
            start,
            end: self.i,
            parts,
        })
    }

    /// `` `…` `` at the cursor: the opening tick, the commands inside, the closing tick.
    fn backtick(&mut self, depth: usize) {
        self.i += 1;
        self.nested(depth, Stop::Backtick);
        if self.peek() == Some(b'`') {
            self.i += 1;
        }
    }

    fn nested(&mut self, depth: usize, stop: Stop) {
        if depth + 1 > MAX_DEPTH {
            // Skip to the matching closer without descending.
            let close = if stop == Stop::Backtick { b'`' } else { b')' };
            let mut level = 0usize;
            while let Some(c) = self.peek() {
                if c == b'(' && close == b')' {
                    level += 1;
                } else if c == close {
                    if level == 0 {
                        return;
                    }
                    level -= 1;
                }
                self.i += 1;
            }
            return;
        }
        let saved = std::mem::take(&mut self.heredocs);
        let bt = std::mem::replace(&mut self.bt, usize::from(stop == Stop::Backtick));
        self.list(depth + 1, stop);
        self.bt = bt;
        if self.peek().is_none() {
            self.missing += 1;
            // An unclosed `$(…` gets its MISSING `)` unless it ends with a group or subshell
            // (`echo $(ls && { pwd; }`): then the command ends before it.
            let last = self.src.trim_end().as_bytes().last().copied();
            if matches!(last, Some(b'}' | b')')) {
                self.broken = true;
            }
        }
        let inner = std::mem::replace(&mut self.heredocs, saved);
        self.heredocs.extend(inner);
    }

    /// `"…"`: substitutions inside are visited. `false`: the string is not closed.
    fn double(&mut self, depth: usize) -> bool {
        if depth > MAX_DEPTH {
            self.skip_to_end();
            return true;
        }
        let mut reopened = false;
        while let Some(c) = self.peek() {
            match c {
                b'"' => {
                    self.i += 1;
                    return true;
                }
                b'\\' => self.i += 2,
                b'$' => {
                    let was = std::mem::take(&mut self.broken);
                    self.dollar(depth);
                    if self.broken && self.peek() == Some(b'"') {
                        // `"$((ls x))"`: the ERROR ends at `))`, and the closing quote opens
                        // a new string that holds the rest (only its substitutions count).
                        self.i += 1;
                        reopened = true;
                    }
                    self.broken |= was;
                }
                b'`' if self.bt == 0 => {
                    self.backtick(depth);
                }
                _ => self.i += 1,
            }
        }
        self.i = self.i.min(self.b.len());
        reopened
    }

    /// `$…` at the cursor.
    fn dollar(&mut self, depth: usize) {
        if depth > MAX_DEPTH {
            return self.skip_to_end();
        }
        self.i += 1;
        match self.peek() {
            Some(b'(') if self.at(1) == Some(b'(') => {
                let from = self.i;
                self.skip_arith();
                if !arithmetic(
                    self.src
                        .get(from + 2..self.i.saturating_sub(2))
                        .unwrap_or(""),
                ) {
                    // `$((ls x))` is no arithmetic: an ERROR the command does not reach over.
                    self.broken = true;
                }
            }
            Some(b'(') => {
                self.i += 1;
                self.nested(depth, Stop::Paren);
                if self.peek() == Some(b')') {
                    self.i += 1;
                }
            }
            Some(b'{') => {
                // `${x:-$(id)}`: substitutions inside an expansion are visited too.
                self.i += 1;
                let mut level = 1usize;
                while let Some(c) = self.peek() {
                    match c {
                        b'{' => {
                            level += 1;
                            self.i += 1;
                        }
                        b'}' => {
                            self.i += 1;
                            level -= 1;
                            if level == 0 {
                                return;
                            }
                        }
                        b'\\' => self.i += 2,
                        b'$' => self.dollar(depth + 1),
                        b'"' => {
                            self.i += 1;
                            let _ = self.double(depth + 1);
                        }
                        b'\'' => {
                            self.i += 1;
                            while self.peek().is_some_and(|c| c != b'\'') {
                                self.i += 1;
                            }
                            self.i += 1;
                        }
                        b'`' if self.bt == 0 => {
                            self.backtick(depth);
                        }
                        _ => self.i += 1,
                    }
                }
                self.i = self.i.min(self.b.len());
            }
            Some(b'\'') => {
                self.i += 1;
                while let Some(c) = self.peek() {
                    self.i += 1;
                    match c {
                        b'\\' => self.i += 1,
                        b'\'' => return,
                        _ => {}
                    }
                }
                self.i = self.i.min(self.b.len());
            }
            Some(b'"') => {
                self.i += 1;
                let _ = self.double(depth + 1);
            }
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => {
                while self
                    .peek()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_')
                {
                    self.i += 1;
                }
            }
            Some(c) if c.is_ascii_digit() || b"@*#?$!-".contains(&c) => self.i += 1,
            _ => {}
        }
    }
}
