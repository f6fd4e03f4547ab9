//! Why the host page's lesson could not be used, as data, and its wording in zh and en.
//!
//! Every way a lesson can fail to load ends here: a `data-lesson` selector that
//! finds nothing, an empty script element, text that is not JSON (a trailing comma, a truncated
//! file, prose), JSON that is neither a lesson nor a table, a lesson that fails the lesson
//! checks, a `.rules` config the worker could not read. The widget shows the message above
//! itself, in its own language, with the position and what to fix, and keeps the built-in rule
//! sets working below it: never a silent fallback.
//!
//! The core reports problems as data ([`json::SyntaxKind`], the lesson checks' paths and
//! positions); this module words them, so a zh page never shows the parser's English.

use permlab_core::json::{self, Found, SyntaxKind};
use permlab_core::lesson::{self, Lesson, Severity};

use crate::text::i18n::Lang;

/// Why the host's lesson is not shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LessonError {
    /// `data-lesson` names an element the page does not have.
    NoElement {
        /// The selector as written (`#nope`).
        selector: String,
    },
    /// The lesson's element (or the text given to `mount`) is empty.
    Empty {
        /// The selector, when the lesson came from one.
        selector: Option<String>,
    },
    /// The text is not JSON.
    Syntax(json::SyntaxError),
    /// Valid JSON, but neither a lesson (an object with `presets`) nor a rule table.
    NotLessonOrTable {
        /// The first problem the table reader found (worded by [`Lang::import_error`]).
        detail: permlab_core::Error,
    },
    /// A lesson that fails the lesson checks (the errors, not the warnings).
    Checks(Vec<lesson::Problem>),
    /// The worker could not read the lesson's Codex `.rules` config.
    Worker(crate::protocol::WorkerError),
    /// The worker did not answer within its time budget.
    WorkerTimeout {
        /// The budget, in seconds.
        seconds: u32,
    },
}

/// Reads the host's lesson text (`text`: what the selector found, or the text given to
/// `mount`; `selector`: the `data-lesson` attribute, if any): the lesson when it is one and
/// loads, or why it does not. `Ok(None)` when there is no lesson, or when the text is a bare
/// rule table (the custom preset shows it).
pub fn read(text: Option<&str>, selector: Option<&str>) -> Result<Option<Lesson>, LessonError> {
    let Some(text) = text else {
        return match selector {
            Some(s) => Err(LessonError::NoElement {
                selector: s.to_string(),
            }),
            None => Ok(None),
        };
    };
    if text.trim().is_empty() {
        return Err(LessonError::Empty {
            selector: selector.map(str::to_string),
        });
    }
    let value = json::parse(text).map_err(LessonError::Syntax)?;
    if value.get("presets").is_none() {
        // A bare table (fixtures format): the custom preset reads it; say why it cannot.
        return match crate::presets::parse_custom(text) {
            Ok(_) => Ok(None),
            Err(detail) => Err(LessonError::NotLessonOrTable { detail }),
        };
    }
    let loaded = Lesson::parse(text);
    let errors: Vec<lesson::Problem> = loaded
        .problems
        .into_iter()
        .filter(|p| p.severity == Severity::Error)
        .collect();
    match loaded.lesson {
        Some(l) if errors.is_empty() && !l.presets.is_empty() => Ok(Some(l)),
        _ if errors.is_empty() => Err(LessonError::Checks(Vec::new())),
        _ => Err(LessonError::Checks(errors)),
    }
}

impl LessonError {
    /// The message's lines in `lang`: a headline (what happened, that the built-in rule sets
    /// are shown), then one line per problem (where, and what to fix).
    pub fn lines(&self, lang: Lang) -> (String, Vec<String>) {
        let zh = lang == Lang::Zh;
        let head = |zh_s: &str, en_s: &str| {
            let tail = if zh {
                "下面先用内置规则集,照常可用。"
            } else {
                "The built-in rule sets below still work."
            };
            if zh {
                format!("{zh_s}{tail}")
            } else {
                format!("{en_s} {tail}")
            }
        };
        match self {
            LessonError::NoElement { selector } => (
                head(
                    &format!("课程没有加载:data-lesson=\"{selector}\" 在页面里找不到这个元素。"),
                    &format!("The lesson did not load: data-lesson=\"{selector}\" names no element on this page."),
                ),
                vec![if zh {
                    format!("修正:给课程的 <script type=\"application/json\"> 加上 id=\"{}\",或把 data-lesson 改成它的 id(以 # 开头)。", selector.trim_start_matches('#'))
                } else {
                    format!("Fix: give the lesson's <script type=\"application/json\"> the id \"{}\", or point data-lesson at its id (starting with #).", selector.trim_start_matches('#'))
                }],
            ),
            LessonError::Empty { selector } => {
                let at = selector.clone().unwrap_or_default();
                (
                    head(
                        &if at.is_empty() { "课程没有加载:给的课程文本是空的。".to_string() } else { format!("课程没有加载:{at} 这个元素是空的。") },
                        &if at.is_empty() { "The lesson did not load: the lesson text given is empty.".to_string() } else { format!("The lesson did not load: the element {at} is empty.") },
                    ),
                    vec![if zh {
                        "修正:把课程的 JSON(见 README「Writing a lesson」)放进这个元素。".to_string()
                    } else {
                        "Fix: put the lesson's JSON (see the README, “Writing a lesson”) inside that element.".to_string()
                    }],
                )
            }
            LessonError::Syntax(e) => (
                head(
                    "课程没有加载:它不是有效的 JSON。",
                    "The lesson did not load: it is not valid JSON.",
                ),
                vec![format!("{}{}", lang.position(e.position), lang.syntax(&e.kind))],
            ),
            LessonError::NotLessonOrTable { detail } => (
                head(
                    "课程没有加载:这段 JSON 既不是课程(带 \"presets\" 的对象),也不是规则表。",
                    "The lesson did not load: this JSON is neither a lesson (an object with \"presets\") nor a rule table.",
                ),
                vec![if zh {
                    format!("规则表读取器说:{}", lang.import_error(detail))
                } else {
                    format!("The table reader says: {}", lang.import_error(detail))
                }],
            ),
            LessonError::Checks(problems) => (
                head(
                    &format!("课程没有加载:课程检查发现 {} 处错误(和 permlab check 报告的相同)。", problems.len().max(1)),
                    &format!(
                        "The lesson did not load: the lesson checks found {} {} (the same as permlab check reports).",
                        problems.len().max(1),
                        if problems.len() == 1 { "error" } else { "errors" }
                    ),
                ),
                problems.iter().map(|p| lang.problem(p)).collect(),
            ),
            LessonError::Worker(e) => (
                head(
                    "课程没有加载:课程里的 Codex .rules 配置读不了。",
                    "The lesson did not load: its Codex .rules config cannot be read.",
                ),
                vec![lang.worker_error(e)],
            ),
            LessonError::WorkerTimeout { seconds } => (
                head(
                    &format!("课程没有加载:读取 Codex .rules 配置超过了 {seconds} 秒,已停止。"),
                    &format!("The lesson did not load: reading its Codex .rules config took more than {seconds} s and was stopped."),
                ),
                Vec::new(),
            ),
        }
    }
}

impl Lang {
    /// `第 3 行第 7 列:` / `Line 3, column 7: `.
    pub fn position(self, p: json::Position) -> String {
        if self == Lang::Zh {
            format!("第 {} 行第 {} 列:", p.line, p.column)
        } else {
            format!("Line {}, column {}: ", p.line, p.column)
        }
    }

    /// What the parser found, worded.
    fn found(self, f: &Found) -> String {
        match (self, f) {
            (Lang::Zh, Found::End) => "文本结尾".into(),
            (Lang::En, Found::End) => "the end of the text".into(),
            (_, Found::Code(c)) => format!("U+{c:04X}"),
            (Lang::Zh, Found::Char(c)) => format!("「{c}」"),
            (Lang::En, Found::Char(c)) => format!("`{c}`"),
        }
    }

    /// A JSON syntax error, worded as a fix.
    pub fn syntax(self, kind: &SyntaxKind) -> String {
        let zh = self == Lang::Zh;
        let f = |found: &Found| self.found(found);
        match kind {
            SyntaxKind::Empty if zh => "文本是空的:这里应该有一个 JSON 值。".into(),
            SyntaxKind::Empty => "the text is empty: a JSON value is expected.".into(),
            SyntaxKind::TrailingData { found } if zh => format!("JSON 值后面多了{}:删掉它,或把两个值放进一个数组。", f(found)),
            SyntaxKind::TrailingData { found } => format!("unexpected {} after the JSON value: remove it, or wrap both values in an array.", f(found)),
            SyntaxKind::UnclosedComment if zh => "这个 /* 注释没有结束:补上 */。".into(),
            SyntaxKind::UnclosedComment => "this /* comment is never closed: add */.".into(),
            SyntaxKind::SingleQuote if zh => "字符串要用双引号 \",不能用单引号。".into(),
            SyntaxKind::SingleQuote => "strings use double quotes \", not single quotes.".into(),
            SyntaxKind::Comment if zh => "JSON 里不能写注释:删掉它。".into(),
            SyntaxKind::Comment => "comments are not allowed in JSON: remove it.".into(),
            SyntaxKind::ExpectedValue { found } if zh => format!("这里应该是一个 JSON 值,却是{}(文件被截断了?)。", f(found)),
            SyntaxKind::ExpectedValue { found } => format!("expected a JSON value, found {} (is the file cut short?).", f(found)),
            SyntaxKind::Keyword { word, found } if zh => format!("这里应该是一个 JSON 值,却是{}(是想写 {word} 吗?字符串要加双引号)。", f(found)),
            SyntaxKind::Keyword { word, found } => format!("expected a JSON value, found {} (did you mean {word}? strings need double quotes).", f(found)),
            SyntaxKind::TooDeep { limit } if zh => format!("嵌套超过 {limit} 层:把文档改扁平些。"),
            SyntaxKind::TooDeep { limit } => format!("nested deeper than {limit} levels: flatten the document."),
            SyntaxKind::TooLarge { bytes, limit } if zh => format!("文本有 {bytes} 字节,超过上限 {limit} 字节:拆小一些。"),
            SyntaxKind::TooLarge { bytes, limit } => format!("the text is {bytes} bytes, more than the limit of {limit}: split it."),
            SyntaxKind::Number if zh => "这个数字读不了:数字要写全(例如 1、1.5、1e3)。".into(),
            SyntaxKind::Number => "this number cannot be read: write it in full (e.g. 1, 1.5, 1e3).".into(),
            SyntaxKind::Hex4 if zh => "\\u 后面要跟四个十六进制数字。".into(),
            SyntaxKind::Hex4 => "\\u must be followed by four hex digits.".into(),
            SyntaxKind::UnclosedString if zh => "这个字符串没有结束:补上 \"(文件被截断了?)。".into(),
            SyntaxKind::UnclosedString => "this string is never closed: add a \" (is the file cut short?).".into(),
            SyntaxKind::UnknownEscape if zh => "未知的转义:只能用 \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX(反斜杠写成 \\\\)。".into(),
            SyntaxKind::UnknownEscape => "unknown escape: use \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX (write a backslash as \\\\).".into(),
            SyntaxKind::ControlChar if zh => "字符串里不能有原样的换行或制表符:写成 \\n 或 \\t。".into(),
            SyntaxKind::ControlChar => "a raw newline or tab is not allowed inside a string: write \\n or \\t.".into(),
            SyntaxKind::TrailingComma { close } if zh => format!("「{close}」前面多了一个逗号:删掉最后那个「,」。"),
            SyntaxKind::TrailingComma { close } => format!("trailing comma before the closing {close}: remove the last comma."),
            SyntaxKind::ExpectedCommaOr { close, found } if zh => format!("这里应该是「,」或「{close}」,却是{}(少了逗号,或文件被截断了?)。", f(found)),
            SyntaxKind::ExpectedCommaOr { close, found } => format!("expected , or {close}, found {} (a missing comma, or the file cut short?).", f(found)),
            // The text ended where a key or a colon belongs: most often a file cut short.
            SyntaxKind::ExpectedKey { found: Found::End } if zh => "这里应该是一个带双引号的键,文本却结束了(文件被截断了?)。".into(),
            SyntaxKind::ExpectedKey { found: Found::End } => "expected a key in double quotes, but the text ends (is the file cut short?).".into(),
            SyntaxKind::ExpectedColon { key, found: Found::End } if zh => format!("键 \"{key}\" 后面应该是 :,文本却结束了(文件被截断了?)。"),
            SyntaxKind::ExpectedColon { key, found: Found::End } => format!("expected : after the key \"{key}\", but the text ends (is the file cut short?)."),
            SyntaxKind::ExpectedKey { found } if zh => format!("这里应该是一个带双引号的键,却是{}。", f(found)),
            SyntaxKind::ExpectedKey { found } => format!("expected a key in double quotes, found {}.", f(found)),
            SyntaxKind::ExpectedColon { key, found } if zh => format!("键 \"{key}\" 后面应该是 :,却是{}。", f(found)),
            SyntaxKind::ExpectedColon { key, found } => format!("expected : after the key \"{key}\", found {}.", f(found)),
            _ if zh => "JSON 语法错误。".into(),
            _ => "JSON syntax error.".into(),
        }
    }

    /// One lesson-check problem: where (its JSON path, and its line and column when known),
    /// then what to fix (the check's own words).
    pub fn problem(self, p: &lesson::Problem) -> String {
        let at = match (p.path.is_empty(), p.position) {
            (true, _) => String::new(),
            (false, Some(pos)) if !p.path.starts_with("line ") => {
                if self == Lang::Zh {
                    format!("{}(第 {} 行第 {} 列):", p.path, pos.line, pos.column)
                } else {
                    format!("{} (line {}, column {}): ", p.path, pos.line, pos.column)
                }
            }
            (false, _) => {
                if self == Lang::Zh {
                    format!("{}:", p.path)
                } else {
                    format!("{}: ", p.path)
                }
            }
        };
        format!("{at}{}", self.check_message(p))
    }

    /// "Here belongs …, found …" for a lesson check (English: the checker's own sentence, which
    /// carries its example).
    fn lesson_expected(self, e: lesson::Expect, found: Option<&str>, en: &str) -> String {
        use lesson::Expect as E;
        if self == Lang::En {
            return en.to_string();
        }
        let what = match e {
            E::Lesson => "课程(一个 JSON 对象)",
            E::Text => "文字:一个字符串,或 {\"zh\": …, \"en\": …}",
            E::TextLanguage => "{\"zh\": …, \"en\": …},至少写其中一种语言",
            E::String => "字符串",
            E::EngineSlug => "课程显示的某个求值器的名字(first-match、opencode、claude-code、corecoder、codex)",
            E::Engines => "非空的求值器名字数组,例如 [\"first-match\", \"opencode\"]",
            E::Presets => "非空的预设数组,例如 [{\"id\": \"main\", \"rules\": […], \"calls\": […]}]",
            E::Preset => "预设对象",
            E::Texts => "键 → 文字的对象",
            E::Calls => "调用数组,例如 [{\"tool\": \"bash\", \"input\": \"git status\"}]",
            E::Call => "调用 {\"tool\", \"input\"} 或 \"工具: 输入\"",
            E::Answers => "求值器 → 答案的对象,例如 {\"opencode\": \"allow\"}",
            E::ConfigText => "配置文件的文字(字符串;JSON 格式也可以直接写对象)",
            E::Mode => "default、acceptEdits、plan、auto、dontAsk 或 bypassPermissions 之一",
            E::Bool => "true 或 false",
            E::PresetCalls => "这个预设的调用(或课程顶层的 \"calls\")",
            E::Tasks => "任务数组,例如 [{\"text\": {\"zh\": …}, \"check\": {\"revealed\": [\"opencode\"]}}]",
            E::Task => "任务对象",
            E::TaskCheck => "检查条件对象:\"revealed\"、\"stepped\"、\"last\"、\"reversed\" 中的一个或几个(都满足才算完成),可加 \"preset\"",
            E::PresetId => "预设的 id",
            E::Count => "不小于 1 的整数",
            E::StepperLast => "\"last\"(求值光标走到了最后一步)",
            E::Context => "调用运行的位置 {\"project\": \"/home/learner/miniagent\", \"cwd\": \"src\", \"home\": \"/home/learner\"}(每项都可以省略)",
            E::AbsolutePath => "绝对路径(以 / 开头)",
            E::Fraction => "0 到 1 之间的数(及格需要的得分比例,例如 0.8)",
            _ => return format!("(检查器原文)“{en}”"),
        };
        match found {
            // A number that is not a whole number ≥ 1: saying "found a number" would puzzle.
            Some("a number") if e == E::Count => format!("这里应当是{what}。"),
            Some(f) => format!(
                "这里应当是{what},实际是{}。",
                crate::text::error_text::found_zh(f)
            ),
            None => format!("这里应当是{what}。"),
        }
    }

    /// A lesson check's message, worded from its [`lesson::Check`]; a kind without its own
    /// wording yet keeps the core's English text (marked as such on a zh page).
    fn check_message(self, p: &lesson::Problem) -> String {
        use lesson::Check;
        let zh = self == Lang::Zh;
        match &p.check {
            Check::UnknownKey { key, allowed } if zh => format!("没有 \"{key}\" 这个键:这里可用的键是 {}。", allowed.join("、")),
            Check::UnknownKey { key, allowed } => format!("unknown key \"{key}\": the keys here are {}.", allowed.join(", ")),
            Check::Missing if zh => "缺少这一项:补上它(见 README「Writing a lesson」)。".into(),
            Check::Missing => "missing: add it (see the README, “Writing a lesson”).".into(),
            Check::UnknownLanguage(l) if zh => format!("\"{l}\" 不是课程语言:写 \"zh\" 或 \"en\"。"),
            Check::UnknownLanguage(l) => format!("\"{l}\" is not a lesson language: write \"zh\" or \"en\"."),
            Check::UnknownMode(m) if zh => format!("未知的课程模式 \"{m}\":写 \"explore\"(探索)或 \"quiz\"(测验)。"),
            Check::UnknownMode(m) => format!("unknown mode \"{m}\": write \"explore\" or \"quiz\"."),
            Check::UnknownEngine(e) if zh => format!("未知的求值器 \"{e}\":可用 first-match、opencode、claude-code、corecoder、codex。"),
            Check::UnknownEngine(e) => format!("unknown engine \"{e}\": use first-match, opencode, claude-code, corecoder or codex."),
            Check::DuplicateEngine(e) if zh => format!("\"{e}\" 列了两次:删掉一个。"),
            Check::DuplicateEngine(e) => format!("\"{e}\" is listed twice: remove one."),
            Check::UnknownAnswer if zh => "答案要写 \"allow\"、\"ask\"、\"deny\" 或 \"unavailable\"。".into(),
            Check::UnknownAnswer => "write \"allow\", \"ask\", \"deny\" or \"unavailable\".".into(),
            Check::UnknownTool(t) if zh => format!("没有哪个求值器认识工具 \"{t}\":换成 bash、read_file 等工具名(或 Claude Code / OpenCode 的工具名)。"),
            Check::UnknownTool(t) => format!("no engine knows the tool \"{t}\": use bash, read_file and the like (or a Claude Code / OpenCode tool name)."),
            Check::DuplicateId(id) if zh => format!("id \"{id}\" 用了两次:每个预设要有自己的 id。"),
            Check::DuplicateId(id) => format!("\"{id}\" is used twice: give each preset its own id."),
            Check::RulesAndConfig if zh => "\"rules\" 和 \"config\" 只能给一个。".into(),
            Check::RulesAndConfig => "give either \"rules\" or \"config\", not both.".into(),
            Check::NoRulesOrConfig if zh => "缺少 \"rules\"(规则表 [{\"tool\", \"pattern\", \"action\"}])或 \"config\"({\"format\", \"text\"})。".into(),
            Check::NoRulesOrConfig => "missing \"rules\" (a table [{\"tool\", \"pattern\", \"action\"}]) or \"config\" ({\"format\", \"text\"}).".into(),
            Check::UnknownFormat(f) if zh => format!("未知的格式 \"{f}\":写 \"claude-code\"、\"opencode\" 或 \"codex\"。"),
            Check::UnknownFormat(f) => format!("unknown format \"{f}\": write \"claude-code\", \"opencode\" or \"codex\"."),
            Check::Syntax(k) => self.syntax(k),
            Check::Read(e) => self.read_error(e),
            Check::Imported(w) => self.import_warning(w),
            Check::Expected { expected, found } => self.lesson_expected(*expected, *found, &p.message),
            Check::TooMany { what, n, limit } if zh => match *what {
                "bytes" => format!("这份课程有 {n} 字节,超过了 permlab 的上限 {limit} 字节(lesson::Limits::bytes):拆成几份课程,或调高上限。"),
                "presets" => format!("{n} 个预设,超过了 permlab 的上限 {limit} 个(lesson::Limits::presets):只读前面这些;拆开课程,或调高上限。"),
                "calls" => format!("一个列表里有 {n} 个调用,超过了 permlab 的上限 {limit} 个(lesson::Limits::calls):只读前面这些;拆开列表,或调高上限。"),
                _ => format!("还有 {} 个问题没有列出(lesson::Limits::problems 是 {limit}):先改好上面这些。", n.saturating_sub(*limit)),
            },
            Check::AnswerNotShown(e) if zh => format!("\"{e}\" 不在课程的 \"engines\" 里:这个答案会被检查,但永远不会显示。"),
            Check::RowToolUnknown(t) if zh => format!("没有哪个求值器认识工具 \"{t}\":这一行永远不会匹配课程里的调用。"),
            Check::UnknownPreset { id, known } if zh => format!("没有 id 为 \"{id}\" 的预设:可用 {}。", known.join("、")),
            Check::NoCondition if zh => "至少给一个条件:\"revealed\"、\"stepped\"、\"last\" 或 \"reversed\"(几个条件都满足才算完成)。".to_string(),
            Check::EngineNotShown(e) if zh => format!("课程没有显示 \"{e}\":把它加进 \"engines\",或改查别的求值器。"),
            Check::NoSuchRule(n) if zh => format!("预设里没有第 #{n} 条规则:规则按书写顺序从 1 编号。"),
            _ if zh => format!("(检查器原文)“{}”", p.message),
            _ => p.message.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A3: &str = include_str!("../../../../fixtures/lessons/a3-2-conflict.json");

    fn lines(e: &LessonError, lang: Lang) -> String {
        let (h, l) = e.lines(lang);
        format!("{h}\n{}", l.join("\n"))
    }

    #[test]
    fn every_way_a_lesson_fails_is_an_error_with_where_and_what() {
        // A trailing comma added before the lesson's last `}`.
        let comma = format!("{},\n}}", A3.trim_end().trim_end_matches('}').trim_end());
        let truncated = &A3[..A3.len() / 2];
        let cases: Vec<(Option<&str>, Option<&str>, &str, &str)> = vec![
            (
                Some(comma.as_str()),
                Some("#l"),
                "删掉最后那个",
                "remove the last comma",
            ),
            (Some(truncated), Some("#l"), "截断", "cut short"),
            (
                Some("this is not JSON"),
                Some("#l"),
                "第 1 行第 1 列",
                "Line 1, column 1",
            ),
            (None, Some("#nope"), "#nope", "#nope"),
            (Some("  \n"), Some("#l"), "是空的", "is empty"),
            (Some("42"), None, "既不是课程", "neither a lesson"),
            (
                Some(
                    r#"{"title": "x", "language": "fr", "mode": "quiz", "engines": ["opencode"], "presets": [{"id": "p", "rules": [], "calls": ["bash: ls"]}]}"#,
                ),
                None,
                "不是课程语言",
                "not a lesson language",
            ),
        ];
        for (text, sel, zh, en) in cases {
            let e = read(text, sel).expect_err(&format!("{text:?}"));
            let z = lines(&e, Lang::Zh);
            let n = lines(&e, Lang::En);
            assert!(z.contains(zh), "{z}");
            assert!(n.contains(en), "{n}");
            assert!(z.contains("内置规则集"), "{z}");
            assert!(n.contains("built-in rule sets"), "{n}");
        }
        let e = read(Some(comma.as_str()), Some("#l")).unwrap_err();
        let LessonError::Syntax(s) = &e else {
            panic!("{e:?}")
        };
        assert_eq!(s.kind, SyntaxKind::TrailingComma { close: '}' });
        assert!(lines(&e, Lang::Zh).contains(&format!("第 {} 行", s.position.line)));
    }

    #[test]
    fn good_lessons_and_bare_tables_load() {
        assert!(read(Some(A3), Some("#l")).unwrap().is_some());
        assert!(read(
            Some(r#"[{"tool": "bash", "pattern": "*", "action": "ask"}]"#),
            None
        )
        .unwrap()
        .is_none());
        assert!(matches!(read(None, None), Ok(None)));
    }

    #[test]
    fn zh_syntax_messages_carry_no_english_sentences() {
        for text in [
            "[1,]",
            "{\"a\" 1}",
            "\"abc",
            "{'a': 1}",
            "[tru]",
            "{} x",
            "[1 2]",
            "",
            "{1: 2}",
            "[-]",
        ] {
            let e = json::parse(text).unwrap_err();
            let en = Lang::En.syntax(&e.kind);
            assert!(
                !en.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{text:?}: {en}"
            );
            let zh = Lang::Zh.syntax(&e.kind);
            assert!(
                !zh.split(|c: char| !c.is_ascii_alphabetic())
                    .any(|w| w.len() > 3 && !["true", "null", "JSON"].contains(&w)),
                "{text:?}: {zh}"
            );
        }
    }

    /// Every lesson check a course author can trip is worded in Chinese on a zh page: no
    /// checker English left but the JSON examples and the names written in the lesson.
    #[test]
    fn every_lesson_check_is_worded_in_zh() {
        let bad = [
            r#"{"title": 1, "language": "zh", "mode": "quiz", "engines": "x", "presets": 3}"#,
            r#"{"title": {"fr": "x"}, "language": "zh", "mode": "quiz", "engines": [1, "opencode"],
                "presets": [1, {"id": "a", "rules": [{"tool": "teleport", "pattern": "*", "action": "ask"}],
                  "calls": [7, {"tool": "bash", "input": "ls", "expect": 3}, {"tool": "bash", "input": "ls", "expect": {"codex": "allow"}}]},
                  {"id": "b", "config": {"format": "claude-code", "text": 5}, "calls": "x"},
                  {"id": "c", "rules": [], "claude-code": {"mode": "yolo", "trusted": "yes"}}],
                "texts": 4,
                "tasks": [1, {"text": "t"}, {"text": "t", "check": {"preset": "zz", "reversed": 1}},
                  {"text": "t", "check": {"preset": 2, "reversed": 1}}, {"text": "t", "check": {"reversed": 1, "last": 2}},
                  {"text": "t", "check": {"reversed": 0}}, {"text": "t", "check": {"revealed": []}},
                  {"text": "t", "check": {"revealed": ["codex", 3]}}, {"text": "t", "check": {"stepped": 1}},
                  {"text": "t", "check": {"last": 99}}]}"#,
            r#"{"title": {"zh": "t"}, "language": "zh", "mode": "quiz", "engines": ["opencode"],
                "presets": [{"id": "a", "rules": []}], "tasks": 3}"#,
        ];
        let mut seen = 0;
        for text in bad {
            let Err(e) = read(Some(text), None) else {
                panic!("{text} loads")
            };
            let (_, lines) = e.lines(Lang::Zh);
            for l in &lines {
                seen += 1;
                assert!(!l.contains("检查器原文"), "{l}");
                // What is left of a line once its quoted parts (JSON examples, names) are out.
                let bare: String = l.split('"').step_by(2).collect::<Vec<_>>().join(" ");
                for w in [
                    "expected",
                    "found",
                    "missing",
                    "write ",
                    "give ",
                    "unknown",
                    "more than",
                    "not in",
                ] {
                    assert!(!bare.contains(w), "{w:?} in {l}");
                }
            }
        }
        assert!(seen >= 25, "{seen} lines");
    }
}
