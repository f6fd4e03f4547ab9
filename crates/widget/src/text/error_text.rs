//! Errors from the config import and the worker, worded in the widget's language (one
//! language per widget): the core's errors are data (`permlab_core::Error`'s kind, a JSON
//! syntax error's [`permlab_core::json::SyntaxKind`], a Codex load error's `file:line:col` and
//! budget), so a zh page shows them in Chinese; the English `Display` text stays the CLI's.

use permlab_core::codex::LoadErrorKind;
use permlab_core::error::{CallProblem, Expected, Problem};
use permlab_core::trace::Bad;
use permlab_core::ErrorKind;

use crate::protocol::WorkerError;
use crate::text::i18n::Lang;

/// How long the page waits for the worker before it stops it (seconds), unless the host sets
/// `data-worker-seconds`. The core's budgets end every hostile `.rules` file well before this
/// (2 million steps take under a second in the release worker); the timer is the backstop for
/// whatever they miss, so the panel can never wait forever.
pub const WORKER_SECONDS: u32 = 20;

impl Lang {
    /// A config, table or call the core could not read (a pasted import, the table editor, a
    /// bare-table lesson), worded from the error's data: position or JSON path, what is wrong,
    /// what to write. A problem only the core's English describes stays in English, behind
    /// its path.
    pub fn import_error(self, e: &permlab_core::Error) -> String {
        let path = match e.kind() {
            ErrorKind::Shape { path, .. } => Some(path.as_str()),
            _ => e.at(),
        };
        match path.filter(|p| !p.is_empty()) {
            Some(p) if self == Lang::Zh => format!("位置 {p}:{}", self.read_error(e)),
            Some(p) => format!("at {p}: {}", self.read_error(e)),
            None => self.read_error(e),
        }
    }

    /// What [`Lang::import_error`] says after the place (a lesson check's problem carries the
    /// place itself).
    pub fn read_error(self, e: &permlab_core::Error) -> String {
        let zh = self == Lang::Zh;
        match e.kind() {
            ErrorKind::Json(s) => format!("{}{}", self.position(s.position), self.syntax(&s.kind)),
            ErrorKind::UnknownAction(a) => self.unknown_action(a),
            ErrorKind::Shape {
                message, problem, ..
            } => match problem {
                Problem::WrongType { expected, found } if zh => format!(
                    "这里应当是{},实际是{}。",
                    expected_zh(*expected),
                    found_zh(found)
                ),
                Problem::MissingField(name) if zh => format!("缺少 \"{name}\" 字段。"),
                Problem::UnknownAction(a) => self.unknown_action(a),
                Problem::YamlReference { line, text, alias } => {
                    self.yaml_reference(*line, text, *alias)
                }
                _ => message.clone(),
            },
            ErrorKind::Call(CallProblem::NoColon(t)) if zh => format!(
                "读不懂调用 \"{}\":写成 `工具: 输入`,例如 `bash: git status`。",
                crate::text::i18n::one_line(t)
            ),
            ErrorKind::Call(CallProblem::ToolNotOneWord(t)) if zh => format!(
                "读不懂调用 \"{}\":冒号前的工具名必须是一个词,例如 `bash: git status`。",
                crate::text::i18n::one_line(t)
            ),
            // Only the core's English says what (the place is said by the caller).
            _ => e.what(),
        }
    }

    /// A YAML anchor or alias in an agent file's front matter, which the reader does not follow.
    fn yaml_reference(self, line: usize, text: &str, alias: bool) -> String {
        match (self, alias) {
            (Lang::Zh, false) => format!("front matter 第 {line} 行:`{text}` 是 YAML 锚点(&名字)。这里不读锚点和别名(*名字、<<: *名字):把值完整写出来,再导入。"),
            (Lang::Zh, true) => format!("front matter 第 {line} 行:`{text}` 是 YAML 别名(*名字)。这里不读锚点(&名字)和别名:把它指向的值完整写在这里,再导入。"),
            (_, false) => format!("front matter line {line}: `{text}` is a YAML anchor (&name). Anchors and aliases (*name, <<: *name) are not read here: write the value out in full and import again."),
            (_, true) => format!("front matter line {line}: `{text}` is a YAML alias (*name). Anchors (&name) and aliases are not read here: write out the value it names in full and import again."),
        }
    }

    /// An action that is not `allow`, `ask` or `deny`.
    fn unknown_action(self, a: &str) -> String {
        if self == Lang::Zh {
            format!("未知的动作 \"{a}\":写 \"allow\"、\"ask\" 或 \"deny\"(小写)。")
        } else {
            format!("unknown action \"{a}\": use \"allow\", \"ask\" or \"deny\" (lower case)")
        }
    }

    /// Why the worker could not answer, in this language, from the error's data: a `.rules`
    /// file's position and, for the interpreter's budgets, what happened (nothing is read
    /// back from the core's English).
    pub fn worker_error(self, e: &WorkerError) -> String {
        let zh = self == Lang::Zh;
        let (line, col, kind, msg) = match e {
            WorkerError::Codex {
                line,
                column,
                kind,
                message,
            } => (line, column, kind, message.trim()),
            WorkerError::Empty => return self.s(crate::text::i18n::S::ImportEmpty).to_string(),
            WorkerError::Lesson { preset, error } => {
                return format!("presets[{preset}].config: {}", self.worker_error(error))
            }
            WorkerError::Http { status, url } => return format!("HTTP {status} for {url}"),
            WorkerError::Read(text) => return text.clone(),
            // The browser's own English (`Uncaught RangeError: Maximum call stack size
            // exceeded`) is not the course's: the page logs it to the console.
            WorkerError::Crashed(_) => return self.worker_crashed(),
        };
        let at = if zh {
            format!("第 {line} 行第 {col} 列:")
        } else {
            format!("line {line}, column {col}: ")
        };
        match *kind {
            LoadErrorKind::StepBudget { steps: n } => {
                if zh {
                    format!("{at}这份策略需要超过 {n} 步,超出了 permlab 给一个文件的步数预算(循环太大,或每一轮都遍历一个长列表?)。真正的 codex execpolicy check 没有预算,会一直运行下去。缩小循环后再导入。")
                } else {
                    format!("{at}this policy needs more than {n} steps, permlab's step budget for one file (a loop too large, or a long list walked on every turn?). The real codex execpolicy check has no budget and keeps running. Shorten the loop and import again.")
                }
            }
            LoadErrorKind::MemoryBudget { bytes } => {
                let n = LoadErrorKind::megabytes(bytes);
                if zh {
                    format!("{at}这份策略需要超过 {n} MB 内存,超出了 permlab 给一个文件的内存预算(字符串或列表被重复、拼接或增长得太多?)。真正的 codex execpolicy check 没有预算,会一直分配直到系统把它停下。把值改小后再导入。")
                } else {
                    format!("{at}this policy needs more than {n} MB, permlab's memory budget for one file (a string or list repeated, joined or grown too far?). The real codex execpolicy check has no budget and keeps allocating until the system stops it. Build smaller values and import again.")
                }
            }
            LoadErrorKind::TooLarge { size: n, max } => {
                if zh {
                    format!("{at}这个值太大了:{n} 个字节或元素,permlab 允许一个字符串或列表最多 {max} 个。把它改小后再导入。")
                } else {
                    format!("{at}this value is too large: {n} bytes or elements; permlab allows {max} in one string or list. Build it smaller and import again.")
                }
            }
            _ if zh => format!("{at}Codex 读这份文件时报错(原文):{msg}"),
            _ => format!("{at}{msg}"),
        }
    }

    /// Why the pasted config is not the table, in the page's language.
    pub fn import_problem(self, e: &crate::model::ImportError) -> String {
        use crate::model::ImportError as E;
        match e {
            E::Empty => self.s(crate::text::i18n::S::ImportEmpty).to_string(),
            E::NeedsWorker => self.s(crate::text::i18n::S::ImportNeedsWorker).to_string(),
            E::Read(e) => self.import_error(e),
            E::Worker(e) => self.worker_error(e),
            E::Timeout { seconds } => self.worker_timeout(*seconds),
        }
    }

    /// The worker died without an answer (a stack overflow, an out-of-memory trap): said in
    /// the widget's language, never the browser's English error.
    pub fn worker_crashed(self) -> String {
        if self == Lang::Zh {
            "读取器意外停止了(输入也许嵌套太深或太大)。你粘贴的内容还在,可以改小后再试;上面的规则表照常可用。".into()
        } else {
            "The reader stopped unexpectedly (the input may be nested too deeply or be too large). What you pasted is kept: make it smaller and try again; the rule table above still works.".into()
        }
    }

    /// The lint request went over the worker's time budget and was stopped.
    pub fn lint_timeout(self, seconds: u32) -> String {
        if self == Lang::Zh {
            format!("检查超过了 {seconds} 秒,已停止。规则表已导入,照常可用;这份配置太大或模式太复杂,没能检查完。")
        } else {
            format!("Checking took more than {seconds} s and was stopped. The rules were imported and the table works; this config is too large, or its patterns too complex, to check in time.")
        }
    }

    /// The worker was stopped after `seconds`.
    pub fn worker_timeout(self, seconds: u32) -> String {
        if self == Lang::Zh {
            format!("读取超过了 {seconds} 秒,已停止(下次导入会重新启动读取器)。你粘贴的内容还在,可以改小后再试;上面的规则表照常可用。")
        } else {
            format!("Reading took more than {seconds} s and was stopped (the next import starts the reader again). What you pasted is kept: make it smaller and try again; the rule table above still works.")
        }
    }
}

/// What belongs at a place, in Chinese.
pub(crate) fn expected_zh(e: Expected) -> &'static str {
    match e {
        Expected::Rules => "规则数组",
        Expected::Rule => "规则对象 {\"tool\", \"pattern\", \"action\"}",
        Expected::String => "字符串",
        Expected::Call => "调用对象 {\"tool\", \"input\"}",
        Expected::Array => "数组",
        Expected::Object => "对象",
        Expected::Strings => "字符串数组",
        Expected::Bool => "true 或 false",
        _ => "另一种值",
    }
}

impl Lang {
    /// Why a line of a pasted trace (the replay scene) could not be read, from the core's data.
    ///
    /// ```
    /// use permlab_widget::text::i18n::Lang;
    /// let t = permlab_core::trace::parse("{oops\n{\"tool\": \"bash\"}\n");
    /// assert_eq!(Lang::Zh.bad_trace_line(&t.malformed[1].why), "调用行需要 \"input\"(字符串或对象),例如 {\"tool\": \"bash\", \"input\": \"git status\"}");
    /// assert!(Lang::Zh.bad_trace_line(&t.malformed[0].why).starts_with("不是合法的 JSON(第 2 列):"));
    /// assert_eq!(Lang::En.bad_trace_line(&t.malformed[1].why), t.malformed[1].message);
    /// ```
    pub fn bad_trace_line(self, b: &Bad) -> String {
        if self == Lang::En {
            return b.to_string();
        }
        match b {
            Bad::TooLong(bytes, limit) => format!(
                "这一行有 {bytes} 字节,超过了 permlab 对一行轨迹的上限 {limit} 字节:没有读它。"
            ),
            Bad::TooManyCalls(limit) => {
                format!("从这里起不再读:轨迹里的调用超过了 permlab 的上限 {limit} 个;把轨迹拆开再试。")
            }
            Bad::Json(e) => format!(
                "不是合法的 JSON(第 {} 列):{}",
                e.position.column,
                self.syntax(&e.kind)
            ),
            Bad::NotObject(kind) => format!("每行应当是一个 JSON 对象,实际是{}。", found_zh(kind)),
            Bad::ToolNotString(kind) => format!("\"tool\" 应当是字符串,实际是{}。", found_zh(kind)),
            Bad::NoInput => "调用行需要 \"input\"(字符串或对象),例如 {\"tool\": \"bash\", \"input\": \"git status\"}".into(),
            Bad::InputType(kind) => {
                format!("\"input\" 应当是字符串或对象,实际是{}。", found_zh(kind))
            }
            Bad::NoPayload => "response_item 行缺少 \"payload\"。".into(),
            Bad::NoContent => "assistant 行缺少 message.content。".into(),
            Bad::ToolUseNoName(k) => format!("message.content[{k}]:tool_use 缺少字符串 \"name\"。"),
            Bad::NoName(kind) => format!("{kind} 缺少字符串 \"name\"。"),
            Bad::ArgumentsNotJson(name, e) => format!(
                "{name}:\"arguments\" 不是合法的 JSON(第 {} 列):{}",
                e.position.column,
                self.syntax(&e.kind)
            ),
            Bad::NoShellCommand => "local_shell_call 缺少 action.command。".into(),
            _ => b.to_string(),
        }
    }
}

/// A JSON kind as `json::Value::kind` says it, in Chinese.
pub(crate) fn found_zh(kind: &str) -> &'static str {
    match kind {
        "a boolean" => "布尔值",
        "a number" => "数字",
        "a string" => "字符串",
        "an array" => "数组",
        "an object" => "对象",
        _ => "null",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_errors_are_worded_in_both_languages() {
        let codex = |line, column, kind| WorkerError::Codex {
            line,
            column,
            kind,
            message: "(the interpreter's English, not read)".into(),
        };
        let raw = codex(3, 5, LoadErrorKind::StepBudget { steps: 2000000 });
        let zh = Lang::Zh.worker_error(&raw);
        assert!(
            zh.starts_with("第 3 行第 5 列:这份策略需要超过 2000000 步"),
            "{zh}"
        );
        let en = Lang::En.worker_error(&raw);
        assert!(
            en.starts_with("line 3, column 5: this policy needs more than 2000000 steps"),
            "{en}"
        );
        let raw = codex(1, 1, LoadErrorKind::MemoryBudget { bytes: 64 << 20 });
        assert!(Lang::Zh.worker_error(&raw).contains("64 MB 内存"));
        // A worker that died (a stack overflow) is worded, never the browser's English.
        let crashed =
            WorkerError::Crashed("Uncaught RangeError: Maximum call stack size exceeded".into());
        let zh = Lang::Zh.worker_error(&crashed);
        assert!(
            zh.contains("读取器意外停止") && !zh.contains("RangeError"),
            "{zh}"
        );
        let en = Lang::En.worker_error(&crashed);
        assert!(
            en.contains("stopped unexpectedly") && !en.contains("RangeError"),
            "{en}"
        );
        let raw = codex(
            2,
            10,
            LoadErrorKind::TooLarge {
                size: 10000000,
                max: 1000000,
            },
        );
        assert!(
            Lang::Zh.worker_error(&raw).contains("最多 1000000 个"),
            "{}",
            Lang::Zh.worker_error(&raw)
        );
    }

    /// The worker's errors come from the core's data: a wording change in the core's English
    /// cannot untranslate them.
    #[test]
    fn yaml_anchors_and_aliases_in_agent_front_matter_are_named_in_each_language() {
        use crate::model::{import_config_error, FormatChoice};
        use permlab_core::import::Format;
        let anchored = "---\npermission:\n  bash: &strict\n    \"*\": deny\n  edit: *strict\n---\n";
        let e = import_config_error(FormatChoice::Is(Format::OpenCode), anchored).unwrap_err();
        let zh = Lang::Zh.import_error(&e);
        assert_eq!(zh, "front matter 第 3 行:`&strict` 是 YAML 锚点(&名字)。这里不读锚点和别名(*名字、<<: *名字):把值完整写出来,再导入。");
        let en = Lang::En.import_error(&e);
        assert!(
            en.starts_with("front matter line 3: `&strict` is a YAML anchor"),
            "{en}"
        );
        assert!(!en.contains("indent") && !zh.contains("indent"), "{en}");
        let merged = "---\npermission:\n  <<: *base\n---\n";
        let e = import_config_error(FormatChoice::Is(Format::OpenCode), merged).unwrap_err();
        assert!(
            Lang::Zh.import_error(&e).contains("`*base` 是 YAML 别名"),
            "{e}"
        );
        // The CLI's English is as before.
        assert!(
            e.to_string().contains("`*base` is an alias: YAML anchors"),
            "{e}"
        );
    }

    #[test]
    fn worker_errors_come_from_the_cores_data() {
        let reply = |text: &str| {
            crate::worker::import(
                crate::model::FormatChoice::Is(permlab_core::import::Format::Codex),
                text,
            )
            .unwrap_err()
        };
        let e = reply(
            "x = [1]\nfor i in range(1000000):\n    for j in range(1000000):\n        pass\n",
        );
        assert_eq!(
            Lang::En.worker_error(&e),
            "line 3, column 14: this policy needs more than 2000000 steps, permlab's step budget for one file (a loop too large, or a long list walked on every turn?). The real codex execpolicy check has no budget and keeps running. Shorten the loop and import again."
        );
        let e = reply("x = \"x\" * 1000000000\nprefix_rule(pattern=[\"ls\"])\n");
        assert!(
            Lang::Zh.worker_error(&e).contains("这个值太大了"),
            "{}",
            Lang::Zh.worker_error(&e)
        );
        let e = reply("prefix_rule(pattern=[\"git\"], decision=\"Allow\")");
        assert_eq!(
            Lang::Zh.worker_error(&e),
            "第 1 行第 1 列:Codex 读这份文件时报错(原文):invalid decision: Allow"
        );
        assert_eq!(
            Lang::En.worker_error(&e),
            "line 1, column 1: invalid decision: Allow"
        );
    }

    /// The table editor's errors (and a bare-table lesson's) come from the core as data and
    /// are worded in the widget's language: no English sentence on a zh page.
    #[test]
    fn table_editor_errors_are_worded_in_the_page_language() {
        let cases: &[(&str, &str, &str)] = &[
            (
                r#"[{"tool": 1, "pattern": "*", "action": "ask"}]"#,
                "位置 [0].tool:这里应当是字符串,实际是数字。",
                "at [0].tool: expected a string, found a number",
            ),
            (
                r#"[{"tool": "bash", "pattern": "*"}]"#,
                "位置 [0]:缺少 \"action\" 字段。",
                "at [0]: this rule has no \"action\" field",
            ),
            (
                r#"[{"tool": "bash", "pattern": "*", "action": "Deny"}]"#,
                "位置 [0].action:未知的动作 \"Deny\"",
                "at [0].action: unknown action \"Deny\"",
            ),
            (
                r#"{"rules": 3}"#,
                "位置 rules:这里应当是规则数组,实际是数字。",
                "at rules: expected an array of rules, found a number",
            ),
            (
                r#"[1]"#,
                "位置 [0]:这里应当是规则对象",
                "at [0]: expected a rule object",
            ),
            (
                r#"{"rules": [], "calls": ["git push"]}"#,
                "位置 calls[0]:读不懂调用 \"git push\":写成 `工具: 输入`",
                "at calls[0]: cannot read the call \"git push\"",
            ),
            (
                r#"{"rules": [], "calls": ["run it: x"]}"#,
                "位置 calls[0]:读不懂调用 \"run it: x\":冒号前的工具名必须是一个词",
                "at calls[0]: cannot read the call",
            ),
            (
                r#"{"rules": [], "calls": [{"tool": "bash"}]}"#,
                "位置 calls[0]:缺少 \"input\" 字段。",
                "at calls[0]: a call needs",
            ),
            (
                r#"{"rules": [], "calls": [{"tool": "bash", "input": 2}]}"#,
                "位置 calls[0].input:这里应当是字符串,实际是数字。",
                "at calls[0].input: expected a string, found a number",
            ),
            ("[1,", "第 1 行第 4 列:", "Line 1, column 4: "),
        ];
        for (text, zh, en) in cases {
            let e = crate::presets::parse_custom(text).unwrap_err();
            let (z, n) = (Lang::Zh.import_error(&e), Lang::En.import_error(&e));
            assert!(z.starts_with(zh), "{text}: {z}");
            assert!(n.starts_with(en), "{text}: {n}");
            for w in [
                "expected", "found", "cannot", "missing", "unknown", "write it",
            ] {
                assert!(!z.contains(w), "{text}: {z}");
            }
        }
    }

    #[test]
    fn json_import_errors_have_position_and_fix_in_the_page_language() {
        let e = crate::model::import_config_error(
            crate::model::FormatChoice::from_slug("claude-code"),
            "{\"permissions\": {\"allow\": [",
        )
        .unwrap_err();
        let zh = Lang::Zh.import_error(&e);
        assert!(zh.starts_with("第 1 行第 28 列:"), "{zh}");
        assert!(!zh.contains("expected"), "{zh}");
        assert!(Lang::En.import_error(&e).starts_with("Line 1, column 28: "));
    }
}

/// One language per widget: walks the string table and the worded errors.
#[cfg(test)]
mod one_language {
    use crate::text::i18n::{Lang, S};
    use permlab_core::{Action, Decision};

    fn cjk(s: &str) -> bool {
        s.chars().any(|c| {
            ('\u{3000}'..='\u{9fff}').contains(&c) || ('\u{ff00}'..='\u{ffef}').contains(&c)
        })
    }

    /// English words the en table uses that a zh string must not carry (tool names, slugs,
    /// JSON keys and file names are the same in both languages and are left out).
    const EN_WORDS: &[&str] = &[
        "the ", " rule ", "guess", "reveal", "stop", "group", "wrong", "right", "expected",
        "found", "missing", "unknown", "budget", "remove",
    ];

    #[test]
    fn no_en_string_has_chinese_and_no_zh_string_has_english_sentences() {
        for &k in S::ALL {
            let (zh, en) = (Lang::Zh.s(k), Lang::En.s(k));
            assert!(!cjk(en), "{k:?} en: {en}");
            assert!(cjk(zh), "{k:?} zh has no Chinese: {zh}");
            let lower = zh.to_lowercase();
            for w in EN_WORDS {
                assert!(
                    !lower.contains(w),
                    "{k:?} zh carries the English {w:?}: {zh}"
                );
            }
        }
    }

    #[test]
    fn worded_values_follow_the_widget_language() {
        for a in [Action::Allow, Action::Ask, Action::Deny] {
            assert!(cjk(Lang::Zh.action(a)) && !cjk(Lang::En.action(a)));
        }
        assert_eq!(
            Lang::En.wrong_guess(Decision::Deny),
            "✗ Wrong (you guessed deny)"
        );
        assert_eq!(Lang::Zh.wrong_guess(Decision::Deny), "✗ 猜错了(你猜 拒绝)");
        let t = Lang::Zh.worker_timeout(20);
        assert!(cjk(&t) && !t.contains("stopped"));
        assert!(!cjk(&Lang::En.worker_timeout(20)));
        // The JSON syntax messages: `lesson_error`'s `zh_syntax_messages_carry_no_english_sentences`.
    }
}

/// The English wording ([`crate::text::i18n::Lang::worker_error`] in English).
impl std::fmt::Display for crate::protocol::WorkerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&Lang::En.worker_error(self))
    }
}
