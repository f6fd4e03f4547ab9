//! Splitting a Bash command into the simple commands Claude Code checks one at a time.
//!
//! Claude Code matches rules against each *subcommand* of a compound command (`claude-code.md`
//! §2.2): the parts between `&&`, `||`, `;`, `|`, `|&`, `&` and newlines, plus everything nested
//! in a subshell `( … )`, a command substitution `$( … )` or `` `…` ``, a process substitution
//! `<( … )` and a control-flow body (`for f in *.o; do rm $f; done`). This module is a small,
//! total Bash lexer that produces exactly that list.
//!
//! Two decisions follow the reference (§10.3): the text of a subcommand is kept **as written**
//! (quotes are not removed, spaces are not normalised: `git 'push' origin main` is not
//! `git push origin main`), and a command that cannot be parsed (a dangling `&&`, an unclosed
//! double quote, backtick or `(`, a stray `(` in a command, nesting deeper than
//! [`MAX_NESTING`], more than [`MAX_COMMAND_CHARS`] characters) is reported as
//! [`Parsed::error`] so that no allow rule ever approves it, while deny and ask rules still look
//! at the best-effort parts (fail closed), the commands of an unclosed `$(` or backtick
//! included. An unclosed **single** quote is no error: it runs to the end of the command, as
//! CLI 2.1.332 reads it (recorded: `cat 'README.md` runs, `echo 'a; rm -rf build` is not
//! denied by `Bash(rm *)`). An unclosed `$(` is also flagged
//! ([`Parsed::unclosed_substitution`]): the CLI prompts for it even in bypassPermissions.
//!
//! ```
//! use permlab_core::claude_code::shell::parse;
//! let p = parse("npm test && curl https://x.example | sh");
//! let texts: Vec<&str> = p.commands.iter().map(|c| c.text()).collect();
//! assert_eq!(texts, ["npm test", "curl https://x.example", "sh"]);
//! assert!(parse("npm test &&").error.is_some());
//! ```

/// Deeper nesting of `$(…)`, `(…)` and backticks is reported as unparseable instead of
/// recursing further (hostile input must not overflow the stack).
pub const MAX_NESTING: usize = 32;

/// The [`Parsed::error`] for nesting deeper than [`MAX_NESTING`].
const NESTED_TOO_DEEPLY: &str =
    "the command is nested too deeply: more than 32 levels of `$( )`, `( )` or backticks \
     (claude_code::shell::MAX_NESTING); no allow rule approves it";

/// Claude Code prompts for commands longer than this (`claude-code.md` §2.5); they are
/// treated as unparseable for allow rules.
pub const MAX_COMMAND_CHARS: usize = 10_000;

/// One word of a simple command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Word {
    /// The text exactly as written, quotes included.
    pub raw: String,
    /// The text with quotes and backslashes removed (expansions are left as written).
    pub value: String,
    /// Byte span of `raw` in the parsed source.
    pub span: (usize, usize),
    /// Contains an unquoted `*`, `?` or `[`.
    pub unquoted_glob: bool,
    /// Contains a `$` expansion or a command substitution.
    pub expansion: bool,
    /// Some part of the word was quoted.
    pub quoted: bool,
}

/// What a redirection does to its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedirectKind {
    /// `>`, `>>`, `>|`, `&>`, `&>>`, `<>`: the target is written (checked like an Edit).
    Output,
    /// `<`: the target is read (checked like a Read, v2.1.257+).
    Input,
    /// `2>&1`, `>&-`…: a file descriptor, not a file (never checked).
    Duplicate,
    /// `<<`, `<<-`, `<<<`: text in the command itself (never checked).
    HereDoc,
}

/// One redirection of a simple command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redirect {
    /// Output, input, fd duplication or here-doc.
    pub kind: RedirectKind,
    /// The operator as written, e.g. `2>>`.
    pub op: String,
    /// The target word (absent for here-docs).
    pub target: Option<Word>,
}

/// A simple command: leading assignments, words, redirections.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimpleCommand {
    /// Leading `NAME=value` words.
    pub assignments: Vec<Word>,
    /// The command words, reserved words (`do`, `then`, `!`…) already removed.
    pub words: Vec<Word>,
    /// Redirections, in order.
    pub redirects: Vec<Redirect>,
    /// Inside a subshell, substitution or process substitution.
    pub nested: bool,
    text: String,
}

impl SimpleCommand {
    /// The command's text as written, from its first word to its last, without the leading
    /// assignments and without redirections.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text from word `from` on, as written (spaces between words kept).
    pub fn text_from(&self, source: &str, from: usize) -> String {
        words_text(
            source,
            &self.words[from.min(self.words.len())..],
            &self.redirects,
        )
    }

    /// The unquoted values of the words (what a program would see as argv).
    pub fn argv(&self) -> Vec<&str> {
        self.words.iter().map(|w| w.value.as_str()).collect()
    }
}

/// The result of [`parse`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    /// Every simple command, outer ones first in source order, nested ones where they occur.
    pub commands: Vec<SimpleCommand>,
    /// Why the command is unparseable, if it is. The commands are then a best effort.
    pub error: Option<String>,
    /// Some command runs in the background (a `&` operator, trailing or between commands).
    pub background: bool,
    /// A `&` operator of the outer command list (`ls &`, `ls & cat a`), not one inside a
    /// subshell or substitution (`(ls &)`).
    pub top_background: bool,
    /// A `$(` is never closed (`echo $(ls`). CLI 2.1.332 (recorded) prompts for such a
    /// command even under a bare `Bash` allow and in `bypassPermissions`.
    pub unclosed_substitution: bool,
}

/// Splits `source` into simple commands. Never panics; see [`Parsed::error`].
pub fn parse(source: &str) -> Parsed {
    let mut lx = Lexer {
        src: source,
        chars: source.char_indices().collect(),
        i: 0,
        out: Vec::new(),
        error: None,
        heredocs: Vec::new(),
        saw_case: false,
        background: false,
        top_background: false,
        unclosed_substitution: false,
    };
    lx.list(0, false);
    let mut parsed = Parsed {
        commands: lx.out,
        error: lx.error,
        background: lx.background,
        top_background: lx.top_background,
        unclosed_substitution: lx.unclosed_substitution,
    };
    if parsed.error.is_none() && source.chars().count() > MAX_COMMAND_CHARS {
        parsed.error = Some(format!(
            "the command is longer than {MAX_COMMAND_CHARS} characters"
        ));
    }
    parsed
}

fn words_text(source: &str, words: &[Word], redirects: &[Redirect]) -> String {
    let mut out = String::new();
    // Redirection targets in source order, walked along with the words: a gap between two
    // words is interrupted when a target lies inside it. (Testing every target for every gap
    // was quadratic in a command of many redirections.)
    let mut targets: Vec<(usize, usize)> = redirects
        .iter()
        .filter_map(|r| r.target.as_ref().map(|t| t.span))
        .collect();
    targets.sort_unstable();
    let mut next_target = 0;
    for (k, w) in words.iter().enumerate() {
        if k > 0 {
            let prev = &words[k - 1];
            let between = (prev.span.1, w.span.0);
            while next_target < targets.len() && targets[next_target].0 < between.0 {
                next_target += 1;
            }
            let interrupted = targets[next_target..]
                .iter()
                .take_while(|t| t.0 <= between.1)
                .any(|t| t.1 <= between.1);
            match source.get(between.0..between.1) {
                Some(gap) if !interrupted && gap.chars().all(|c| c == ' ' || c == '\t') => {
                    out.push_str(gap)
                }
                _ => out.push(' '),
            }
        }
        out.push_str(&w.raw);
    }
    out
}

struct Lexer<'a> {
    src: &'a str,
    chars: Vec<(usize, char)>,
    i: usize,
    out: Vec<SimpleCommand>,
    error: Option<String>,
    heredocs: Vec<(String, bool)>,
    saw_case: bool,
    background: bool,
    top_background: bool,
    unclosed_substitution: bool,
}

#[derive(Default)]
struct Builder {
    words: Vec<Word>,
    redirects: Vec<Redirect>,
}

const RESERVED_PREFIX: [&str; 9] = [
    "if", "then", "else", "elif", "do", "while", "until", "!", "{",
];
const RESERVED_END: [&str; 5] = ["fi", "done", "esac", "}", "in"];

impl Lexer<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).map(|c| c.1)
    }

    fn peek_at(&self, k: usize) -> Option<char> {
        self.chars.get(self.i + k).map(|c| c.1)
    }

    fn offset(&self) -> usize {
        self.chars.get(self.i).map_or(self.src.len(), |c| c.0)
    }

    fn fail(&mut self, why: impl Into<String>) {
        if self.error.is_none() {
            self.error = Some(why.into());
        }
    }

    /// Parses a command list until end of input, or until the `)` closing a nested list.
    /// Returns false when a `closing` list reached the end of input without its `)`.
    fn list(&mut self, depth: usize, closing: bool) -> bool {
        let nested = depth > 0;
        let mut b = Builder::default();
        // After `&&`, `||`, `|`: a command must follow.
        let mut need_command = false;
        // Nothing at all yet, or right after `;`/`&`: an operator here is a syntax error.
        let mut at_start = true;
        while let Some(c) = self.peek() {
            match c {
                ' ' | '\t' | '\r' => self.i += 1,
                '\\' if self.peek_at(1) == Some('\n') => self.i += 2,
                '\n' => {
                    self.i += 1;
                    if !b.words.is_empty() || !b.redirects.is_empty() {
                        self.finish(&mut b, nested);
                        at_start = true;
                    }
                    self.read_heredocs();
                }
                '#' => {
                    while let Some(c) = self.peek() {
                        if c == '\n' {
                            break;
                        }
                        self.i += 1;
                    }
                }
                ')' => {
                    if closing {
                        self.i += 1;
                        if need_command {
                            self.fail("an operator is not followed by a command");
                        }
                        self.finish(&mut b, nested);
                        return true;
                    }
                    self.i += 1;
                    if !self.saw_case {
                        self.fail("unexpected `)`");
                    }
                    // A `case` pattern such as `a)`: what follows is a command.
                    b = Builder::default();
                }
                ';' | '&' | '|' => {
                    let two = self.peek_at(1);
                    let op: &str = match (c, two) {
                        (';', Some(';')) => ";;",
                        (';', _) => ";",
                        ('&', Some('&')) => "&&",
                        ('&', Some('>')) => {
                            self.redirect(&mut b, depth);
                            need_command = false;
                            at_start = false;
                            continue;
                        }
                        ('&', _) => "&",
                        ('|', Some('|')) => "||",
                        ('|', Some('&')) => "|&",
                        _ => "|",
                    };
                    self.i += op.chars().count();
                    self.background |= op == "&";
                    self.top_background |= op == "&" && depth == 0;
                    let empty = b.words.is_empty() && b.redirects.is_empty();
                    if empty && (need_command || (at_start && op != ";;")) {
                        self.fail(format!("`{op}` has no command before it"));
                    }
                    self.finish(&mut b, nested);
                    need_command = matches!(op, "&&" | "||" | "|" | "|&");
                    at_start = !need_command;
                    continue;
                }
                '(' if b.words.is_empty() => {
                    if self.peek_at(1) == Some('(') {
                        self.skip_arith();
                    } else {
                        self.i += 1;
                        let _ = self.nested_list(depth);
                    }
                    need_command = false;
                    at_start = false;
                }
                '(' if self.peek_at(1) == Some(')') => {
                    // `name() { … }`: a function definition, not a command.
                    self.i += 2;
                    b = Builder::default();
                }
                '<' | '>' if self.peek_at(1) != Some('(') => {
                    self.redirect(&mut b, depth);
                    need_command = false;
                    at_start = false;
                }
                _ => {
                    if let Some(w) = self.word(depth) {
                        // `2>file`: digits glued to a redirection operator are its fd.
                        if w.raw.chars().all(|c| c.is_ascii_digit())
                            && matches!(self.peek(), Some('<' | '>'))
                        {
                            self.redirect(&mut b, depth);
                        } else {
                            if w.value == "case" && b.words.is_empty() {
                                self.saw_case = true;
                            }
                            b.words.push(w);
                        }
                    }
                    need_command = false;
                    at_start = false;
                }
            }
            if self.error.is_some() && self.i >= self.chars.len() {
                break;
            }
        }
        if closing {
            self.fail("a `(` is never closed");
        }
        if need_command {
            self.fail("an operator at the end is not followed by a command");
        }
        self.finish(&mut b, nested);
        !closing
    }

    /// A nested list after `(` or `$(`; false when its `)` never comes.
    fn nested_list(&mut self, depth: usize) -> bool {
        if depth + 1 > MAX_NESTING {
            self.fail(NESTED_TOO_DEEPLY);
            // Skip the rest: fail closed, nothing more to split.
            self.i = self.chars.len();
            return true;
        }
        self.list(depth + 1, true)
    }

    fn skip_arith(&mut self) {
        // `((…))` / `$((…))`: arithmetic, no commands inside that we model.
        let mut level = 0usize;
        while let Some(c) = self.peek() {
            self.i += 1;
            match c {
                '(' => level += 1,
                ')' => {
                    level = level.saturating_sub(1);
                    if level == 0 {
                        return;
                    }
                }
                _ => {}
            }
        }
        self.fail("an arithmetic `((` is never closed");
    }

    fn finish(&mut self, b: &mut Builder, nested: bool) {
        let mut words = std::mem::take(&mut b.words);
        let redirects = std::mem::take(&mut b.redirects);
        // Reserved words that open a body are not commands: `do rm $f` is `rm $f`.
        // Counted, then removed at once: one at a time from the front is quadratic (200 000
        // `{ ` took seconds).
        let reserved = words
            .iter()
            .take_while(|w| !w.quoted && RESERVED_PREFIX.contains(&w.raw.as_str()))
            .count();
        words.drain(..reserved);
        if let Some(first) = words.first() {
            if !first.quoted {
                let head = first.raw.as_str();
                if RESERVED_END.contains(&head)
                    || head == "for"
                    || head == "select"
                    || head == "case"
                {
                    // `for f in *.o`, `done`, `esac`: headers and closers, not commands.
                    // Their own substitutions were already collected while lexing.
                    return;
                }
                if head == "function" {
                    return;
                }
            }
        }
        // Likewise counted first (1 MB of `A=1 ` is 250 000 assignments).
        let leading = words.iter().take_while(|w| is_assignment(w)).count();
        let assignments: Vec<Word> = words.drain(..leading).collect();
        if words.is_empty() && assignments.is_empty() && redirects.is_empty() {
            return;
        }
        let text = words_text(self.src, &words, &redirects);
        self.out.push(SimpleCommand {
            assignments,
            words,
            redirects,
            nested,
            text,
        });
    }

    fn redirect(&mut self, b: &mut Builder, depth: usize) {
        let start = self.i;
        // fd digits were already consumed as a word by the caller when present.
        let mut op = String::new();
        while let Some(c) = self.peek() {
            if matches!(c, '<' | '>' | '&' | '|' | '-') && op.len() < 3 {
                // `-` only in `<<-` and `>&-`/`<&-`.
                if c == '-' && !(op == "<<" || op.ends_with('&')) {
                    break;
                }
                if c == '|' && op != ">" {
                    break;
                }
                if c == '&' && !(op.is_empty() || op == ">" || op == "<") {
                    break;
                }
                op.push(c);
                self.i += 1;
                if op.ends_with('-') {
                    break;
                }
            } else {
                break;
            }
        }
        if op.is_empty() {
            self.i = start + 1;
            return;
        }
        if op.ends_with('-') && op.contains('&') {
            b.redirects.push(Redirect {
                kind: RedirectKind::Duplicate,
                op,
                target: None,
            });
            return;
        }
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.i += 1;
        }
        let target = match self.peek() {
            Some(c) if !matches!(c, '\n' | ';' | '&' | '|' | ')' | '<' | '>') => self.word(depth),
            _ => None,
        };
        let Some(target) = target else {
            self.fail(format!("the redirection `{op}` has no target"));
            return;
        };
        let kind = match op.as_str() {
            "<<" | "<<-" => {
                let strip_tabs = op == "<<-";
                self.heredocs.push((target.value.clone(), strip_tabs));
                RedirectKind::HereDoc
            }
            "<<<" => RedirectKind::HereDoc,
            "<" => RedirectKind::Input,
            ">&" | "<&" if target.value.chars().all(|c| c.is_ascii_digit()) => {
                RedirectKind::Duplicate
            }
            "<&" => RedirectKind::Duplicate,
            _ => RedirectKind::Output,
        };
        b.redirects.push(Redirect {
            kind,
            op,
            target: Some(target),
        });
    }

    fn read_heredocs(&mut self) {
        let pending = std::mem::take(&mut self.heredocs);
        for (delim, strip_tabs) in pending {
            loop {
                if self.i >= self.chars.len() {
                    return; // Bash warns and runs; the body simply ends.
                }
                let start = self.i;
                while self.peek().is_some_and(|c| c != '\n') {
                    self.i += 1;
                }
                let end = self.offset();
                let from = self.chars.get(start).map_or(self.src.len(), |c| c.0);
                let line = self.src.get(from..end).unwrap_or("");
                if self.peek() == Some('\n') {
                    self.i += 1;
                }
                let line = if strip_tabs {
                    line.trim_start_matches('\t')
                } else {
                    line
                };
                if line == delim {
                    break;
                }
            }
        }
    }

    /// Reads one word; nested substitutions inside it are parsed as commands of their own.
    fn word(&mut self, depth: usize) -> Option<Word> {
        let start_i = self.i;
        let start = self.offset();
        let mut value = String::new();
        let mut unquoted_glob = false;
        let mut expansion = false;
        let mut quoted = false;
        while let Some(c) = self.peek() {
            match c {
                ' ' | '\t' | '\n' | '\r' | ';' | '&' | '|' | ')' => break,
                // `name()`: the parentheses of a function definition end the name.
                '(' if self.peek_at(1) == Some(')') => break,
                '(' => {
                    // `<(…)`/`>(…)` are handled by the caller; `ls (` and `a(b` are syntax
                    // errors in Bash: kept literal for deny rules, unparseable for allow
                    // rules (recorded, CLI 2.1.332: `ls (` prompts, `rm -rf build (` is
                    // denied by `Bash(rm *)`).
                    self.fail("unexpected `(`");
                    value.push(c);
                    self.i += 1;
                }
                '<' | '>' => {
                    if self.peek_at(1) == Some('(') && self.i == start_i {
                        // Process substitution.
                        self.i += 2;
                        expansion = true;
                        let _ = self.nested_list(depth);
                        continue;
                    }
                    break;
                }
                '\\' => {
                    quoted = true;
                    self.i += 1;
                    match self.peek() {
                        Some('\n') => self.i += 1,
                        Some(n) => {
                            value.push(n);
                            self.i += 1;
                        }
                        None => value.push('\\'),
                    }
                }
                '\'' => {
                    quoted = true;
                    self.i += 1;
                    while let Some(n) = self.peek() {
                        self.i += 1;
                        if n == '\'' {
                            break;
                        }
                        value.push(n);
                    }
                    // An unclosed single quote runs to the end of the command, and the command
                    // is parsed as that (recorded, CLI 2.1.332: `cat 'README.md` runs as a
                    // read-only command, `echo 'a; rm -rf build` is not denied by
                    // `Bash(rm *)`: the `rm` is inside the quote). An unclosed double quote
                    // is unparseable.
                }
                '"' => {
                    quoted = true;
                    self.i += 1;
                    let mut closed = false;
                    while let Some(n) = self.peek() {
                        match n {
                            '"' => {
                                self.i += 1;
                                closed = true;
                                break;
                            }
                            '\\' => {
                                self.i += 1;
                                if let Some(e) = self.peek() {
                                    if !matches!(e, '"' | '\\' | '$' | '`' | '\n') {
                                        value.push('\\');
                                    }
                                    if e != '\n' {
                                        value.push(e);
                                    }
                                    self.i += 1;
                                }
                            }
                            '$' => {
                                expansion = true;
                                self.dollar(depth, &mut value);
                            }
                            '`' => {
                                expansion = true;
                                self.backtick(depth);
                            }
                            _ => {
                                value.push(n);
                                self.i += 1;
                            }
                        }
                    }
                    if !closed {
                        self.fail("a double quote is never closed");
                    }
                }
                '$' => {
                    expansion = true;
                    self.dollar(depth, &mut value);
                }
                '`' => {
                    expansion = true;
                    self.backtick(depth);
                }
                '*' | '?' | '[' => {
                    unquoted_glob = true;
                    value.push(c);
                    self.i += 1;
                }
                _ => {
                    value.push(c);
                    self.i += 1;
                }
            }
        }
        if self.i == start_i {
            // Not a word character at all; consume it so the caller makes progress.
            self.i += 1;
            return None;
        }
        let end = self.offset();
        let raw = self.src.get(start..end).unwrap_or("").to_string();
        Some(Word {
            raw,
            value,
            span: (start, end),
            unquoted_glob,
            expansion,
            quoted,
        })
    }

    fn dollar(&mut self, depth: usize, value: &mut String) {
        let from = self.offset();
        match self.peek_at(1) {
            Some('(') if self.peek_at(2) == Some('(') => {
                self.i += 1;
                self.skip_arith();
            }
            Some('(') => {
                self.i += 2;
                if !self.nested_list(depth) {
                    self.unclosed_substitution = true;
                }
            }
            Some('{') => {
                self.i += 2;
                let mut closed = false;
                while let Some(c) = self.peek() {
                    self.i += 1;
                    if c == '}' {
                        closed = true;
                        break;
                    }
                }
                if !closed {
                    self.fail("a `${` is never closed");
                }
            }
            _ => {
                self.i += 1;
                while self
                    .peek()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                {
                    self.i += 1;
                }
                if self.offset() == from + 1 {
                    if let Some(c) = self.peek() {
                        if "@*#?$!-0123456789".contains(c) {
                            self.i += 1;
                        }
                    }
                }
            }
        }
        let to = self.offset();
        value.push_str(self.src.get(from..to).unwrap_or(""));
    }

    fn backtick(&mut self, depth: usize) {
        self.i += 1;
        let start = self.offset();
        let mut closed = false;
        while let Some(c) = self.peek() {
            if c == '\\' {
                self.i += 2;
                continue;
            }
            if c == '`' {
                closed = true;
                break;
            }
            self.i += 1;
        }
        let end = self.offset().min(self.src.len());
        if closed {
            self.i += 1;
        } else {
            // Unparseable, but what follows the backtick is still a command deny rules see
            // (recorded, CLI 2.1.332: `echo `rm -rf build` is denied by `Bash(rm *)`).
            self.fail("a backtick is never closed");
        }
        if depth + 1 > MAX_NESTING {
            self.fail(NESTED_TOO_DEEPLY);
            return;
        }
        let inner = self.src.get(start..end).unwrap_or("");
        let mut sub = Lexer {
            src: inner,
            chars: inner.char_indices().collect(),
            i: 0,
            out: Vec::new(),
            error: None,
            heredocs: Vec::new(),
            saw_case: false,
            background: false,
            top_background: false,
            unclosed_substitution: false,
        };
        sub.list(depth + 1, false);
        self.background |= sub.background;
        self.unclosed_substitution |= sub.unclosed_substitution;
        for mut c in sub.out {
            c.nested = true;
            // Spans of nested backtick words are relative to the inner text: re-base them.
            for w in c.words.iter_mut().chain(c.assignments.iter_mut()) {
                w.span = (w.span.0 + start, w.span.1 + start);
            }
            for r in c.redirects.iter_mut() {
                if let Some(t) = r.target.as_mut() {
                    t.span = (t.span.0 + start, t.span.1 + start);
                }
            }
            self.out.push(c);
        }
        if let Some(e) = sub.error {
            self.fail(e);
        }
    }
}

fn is_assignment(w: &Word) -> bool {
    let raw = w.raw.as_str();
    let Some(eq) = raw.find('=') else {
        return false;
    };
    let name = raw[..eq].strip_suffix('+').unwrap_or(&raw[..eq]);
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The variable name of an assignment word (`FOO` for `FOO=bar`).
pub fn assignment_name(w: &Word) -> &str {
    let raw = w.raw.as_str();
    let name = raw.split('=').next().unwrap_or(raw);
    name.strip_suffix('+').unwrap_or(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(s: &str) -> Vec<String> {
        parse(s)
            .commands
            .iter()
            .map(|c| c.text().to_string())
            .collect()
    }

    #[test]
    fn splits_every_operator() {
        let cases: &[(&str, &[&str])] = &[
            (
                "a && b || c ; d | e |& f & g",
                &["a", "b", "c", "d", "e", "f", "g"],
            ),
            ("a\nb", &["a", "b"]),
            (
                "echo \"$(git clean -f)\"",
                &["git clean -f", "echo \"$(git clean -f)\""],
            ),
            ("for f in *.o; do rm $f; done", &["rm $f"]),
            ("(cd x && rm y)", &["cd x", "rm y"]),
            ("echo `rm a`", &["rm a", "echo `rm a`"]),
            (
                "diff <(ls a) <(ls b)",
                &["ls a", "ls b", "diff <(ls a) <(ls b)"],
            ),
            ("if true; then rm x; fi", &["true", "rm x"]),
            ("git commit -m wip > ~/commit.log", &["git commit -m wip"]),
            ("echo 'a && b'", &["echo 'a && b'"]),
            ("ls  -la", &["ls  -la"]),
            ("cat <<EOF\nrm -rf /\nEOF\necho ok", &["cat", "echo ok"]),
            ("a && \\\n b", &["a", "b"]),
            ("npm test # && rm x", &["npm test"]),
            ("f() { ls; }; f", &["ls", "f"]),
            (
                "git commit -m \"$(cat <<'EOF'\nfix; rm -rf /\nEOF\n)\"",
                &[
                    "cat",
                    "git commit -m \"$(cat <<'EOF'\nfix; rm -rf /\nEOF\n)\"",
                ],
            ),
        ];
        for (src, want) in cases {
            assert_eq!(texts(src), *want, "{src}");
            assert_eq!(parse(src).error, None, "{src}");
        }
    }

    #[test]
    fn unparseable_forms() {
        for src in [
            "npm test &&",
            "&& ls",
            "a || ",
            "echo \"x",
            "ls (",
            "echo `ls",
            "a | | b",
            "(ls",
            "ls)",
            "echo >",
        ] {
            assert!(parse(src).error.is_some(), "{src}");
        }
        let deep = "$(".repeat(100);
        assert!(parse(&deep).error.is_some());
        assert!(parse(&"x".repeat(MAX_COMMAND_CHARS + 1)).error.is_some());
    }

    /// Recorded, CLI 2.1.332: `cat 'README.md` runs as a read-only command and
    /// `echo 'a; rm -rf build` gets past `Bash(rm *)`: the quote runs to the end.
    #[test]
    fn an_unclosed_single_quote_runs_to_the_end_of_the_command() {
        let p = parse("echo 'a; rm -rf build");
        assert_eq!(p.error, None);
        let texts: Vec<&str> = p.commands.iter().map(|c| c.text()).collect();
        assert_eq!(texts, ["echo 'a; rm -rf build"]);
        assert_eq!(p.commands[0].argv(), ["echo", "a; rm -rf build"]);
    }

    /// Recorded, CLI 2.1.332: `echo `rm -rf build` is denied by `Bash(rm *)`, `echo $(rm -rf
    /// build` too; only the unclosed `$(` is flagged for the prompt even bypass keeps.
    #[test]
    fn unclosed_substitutions_still_show_their_commands() {
        for src in [
            "echo `rm -rf build",
            "echo $(rm -rf build",
            "echo \"$(rm -rf build",
        ] {
            let p = parse(src);
            assert!(p.error.is_some(), "{src}");
            assert!(
                p.commands.iter().any(|c| c.text() == "rm -rf build"),
                "{src}"
            );
            assert_eq!(p.unclosed_substitution, src.contains("$("), "{src}");
        }
        assert!(!parse("echo $(ls)").unclosed_substitution);
        assert!(!parse("(ls").unclosed_substitution);
    }

    #[test]
    fn only_an_outer_ampersand_is_a_top_level_background() {
        assert!(parse("ls &").top_background);
        assert!(parse("ls & cat a").top_background);
        let nested = parse("(ls &)");
        assert!(nested.background && !nested.top_background);
    }

    #[test]
    fn redirects_and_assignments() {
        let p = parse("FOO=1 LANG=C ls 2>&1 >> out.txt < in.txt");
        let c = &p.commands[0];
        assert_eq!(c.assignments.len(), 2);
        assert_eq!(assignment_name(&c.assignments[1]), "LANG");
        let kinds: Vec<_> = c.redirects.iter().map(|r| r.kind).collect();
        assert_eq!(
            kinds,
            [
                RedirectKind::Duplicate,
                RedirectKind::Output,
                RedirectKind::Input
            ]
        );
        assert_eq!(c.text(), "ls");
    }
}
