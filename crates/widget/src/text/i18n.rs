//! Every string the widget shows, in 简体中文 and English, from one table.
//!
//! Fixed labels are [`S`] keys looked up by [`Lang::s`] (one `match` holding both languages side
//! by side, so a missing translation is a compile error, not a blank). Sentences with values in
//! them (announcements, step lines, reasons, log entries) are functions here too, so they are
//! tested natively and the components stay free of wording.

use permlab_core::analysis::VerdictChange;
use permlab_core::claude_code::eval::{Blocker, Decider};
use permlab_core::claude_code::Mode;
use permlab_core::corecoder::Layer;
use permlab_core::{Action, Decision, EngineId, Reason, Rule, RuleTable, Step};

use crate::state::{Change, LogEntry};

/// The page language: Chinese first (the course's language), English on request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// 简体中文
    Zh,
    /// English
    En,
}

macro_rules! strings {
    ($($key:ident => $zh:expr, $en:expr;)*) => {
        /// Keys of the fixed labels.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[allow(missing_docs)]
        pub enum S { $($key,)* }
        impl S {
            /// Every key, in table order (for the tests that walk the table).
            pub const ALL: &'static [S] = &[$(S::$key,)*];
        }
        impl Lang {
            /// The label `key` in this language.
            pub fn s(self, key: S) -> &'static str {
                match key { $(S::$key => if self == Lang::Zh { $zh } else { $en },)* }
            }
        }
    };
}

strings! {
    Title => "同一份规则,交给不同的求值语义", "One rule table, several evaluation semantics";
    Preset => "规则集", "Rule set";
    PresetMiniagent => "miniagent rules-standard.json(10 条)", "miniagent rules-standard.json (10 rules)";
    PresetGit => "[拒绝 git push *, 允许 git *]", "[deny git push *, allow git *]";
    PresetAws => "Claude Code 文档里的 aws 例子", "The aws example from the Claude Code docs";
    PresetCustom => "自定义(JSON)", "Custom (JSON)";
    PresetImport => "导入的配置", "Imported config";
    ImportTitle => "导入你自己的配置(Claude Code / OpenCode / Codex)", "Import your own config (Claude Code / OpenCode / Codex)";
    ImportFormat => "格式", "Format";
    ImportAuto => "自动识别", "Detect";
    ImportText => "粘贴 .claude/settings.json、opencode.json(c)、agent 的 .md 或 Codex 的 .rules", "Paste a .claude/settings.json, an opencode.json(c), an agent .md file or a Codex .rules file";
    ImportButton => "导入并求值", "Import and evaluate";
    ImportFailed => "这份配置读不了(你粘贴的内容还在)", "This config cannot be read (what you pasted is kept)";
    ImportEmpty => "先粘贴一份配置。", "Paste a config first.";
    ImportNeedsWorker => "Codex 的 .rules 文件要由 Starlark 解释器读取,它随在线页面按需加载;离线单文件里没有它。请在在线页面上导入。", "A Codex .rules file is read by the Starlark interpreter, which the online page loads on demand; the offline single file does not have it. Import it on the online page.";
    MatrixSpoils => "(会直接显示所有答案)", "(shows every answer)";
    ImportReading => "正在读取 .rules 文件(Starlark 解释器按需加载)……", "Reading the .rules file (the Starlark interpreter loads on demand)…";
    LessonReading => "正在读取课程里的 Codex .rules 配置(Starlark 解释器按需加载)……", "Reading the lesson's Codex .rules config (the Starlark interpreter loads on demand)…";
    LessonBroken => "课程文件有问题,先显示内置规则集", "The lesson file has problems; showing the built-in rule sets";
    Caption => "规则表(拖动 ⠿ 或用键盘重排)", "Rule table (drag ⠿ or use the keyboard to reorder)";
    Grip => "拖动或按空格拿起", "Drag, or press Space to lift";
    Tool => "工具", "Tool";
    Pattern => "匹配串", "Pattern";
    ActionCol => "动作", "Action";
    Move => "移动", "Move";
    Up => "上移", "Move up";
    Down => "下移", "Move down";
    Undo => "撤销", "Undo";
    Reset => "恢复课程顺序", "Reset to lesson order";
    Reverse => "整表倒序", "Reverse whole table";
    CopyJson => "复制为 JSON", "Copy as JSON";
    Copied => "已复制到剪贴板", "Copied to the clipboard";
    CopyFallback => "无法直接写入剪贴板,请手动复制:", "The clipboard is not available; copy by hand:";
    Call => "调用", "Call";
    CallPreset => "真实调用", "Real calls";
    CallTool => "工具名", "Tool name";
    CallInput => "输入(命令或路径)", "Input (command or path)";
    ToolEmpty => "工具名不能为空,例如 bash。", "The tool name cannot be empty, e.g. bash.";
    ToolSpace => "工具名必须是一个词(不能含空白),例如 edit_file。", "The tool name must be one word (no spaces), e.g. edit_file.";
    GuessTitle => "先猜,再揭示", "Guess, then reveal";
    Verdicts => "各家的裁决", "Each engine's verdict";
    YourGuess => "你的猜测", "Your guess";
    Skip => "跳过,直接看", "Skip, just show me";
    Reveal => "揭示", "Reveal";
    RevealLocked => "先猜一个(或选「跳过」)才能揭示", "Make a guess (or choose skip) to reveal";
    TryAgain => "再试一次", "Try again";
    Right => "猜对了", "Right";
    Wrong => "猜错了", "Wrong";
    Skipped => "未猜", "Not guessed";
    YouGuessed => "你猜", "you guessed";
    Verdict => "裁决", "Verdict";
    ShowCodex => "同时显示 Codex(execpolicy)", "Also show Codex (execpolicy)";
    Inferred => "(依据文档推断)", "(inferred from the docs)";
    StepperOpen => "▶ 逐步看求值光标", "▶ Step through the evaluation cursors";
    StepperClose => "收起求值光标", "Hide the cursors";
    First => "第一步", "First";
    Prev => "上一步", "Previous";
    Next => "下一步", "Next";
    Last => "最后一步", "Last";
    StepHint => "用 ← / → 逐步", "Use ← / → to step";
    NotStarted => "尚未开始", "not started";
    Cursor => "光标", "Cursor";
    Log => "重排记录", "Reorder log";
    LogEmpty => "还没有重排。拖动一行,或点「整表倒序」。", "No reorder yet. Drag a row or press “Reverse whole table”.";
    Disagree => "两家什么时候给出相反的答案?", "When do the two give opposite answers?";
    LastMatch => "最后一条命中的动作(OpenCode 的读法)", "The last matching rule's action (OpenCode's reading)";
    Strongest => "优先级最高的动作(deny > ask > allow,Claude Code 的读法)", "The highest-priority action (deny > ask > allow, Claude Code's reading)";
    NoMatch => "没有规则命中", "no rule matches";
    Formula => "OpenCode 的 evaluate(permission/index.ts:28-38,pin v1.18.32)", "OpenCode's evaluate (permission/index.ts:28-38, pin v1.18.32)";
    FormulaHint => "公式里带下划线的每一项都可以点——点哪项,讲哪项。", "Every underlined term can be clicked for a short explanation.";
    Matrix => "实验矩阵:全部调用 × 求值器(当前顺序)", "Lab matrix: every call × engine (current order)";
    ChangedMark => "上次重排改变了这一格", "changed by the last reorder";
    Translations => "翻译成各家的原生配置", "The table in each harness's native config";
    Untranslatable => "无法翻译的行", "Rows that cannot be translated";
    CodexHeader => "由 permlab 从规则表(工具 · 匹配串 · 动作)生成。", "Generated by permlab from a rule table (tool · pattern · action).";
    CodexRow => "第 {n} 行:{rule}", "row {n}: {rule}";
    CodexNotExpressible => "无法写成前缀规则:", "not expressible:";
    RemovesTool => "不带参数的 deny:整个工具从模型的上下文里被拿掉,后面的 allow 再也救不回来", "a bare deny: the whole tool is removed from the model's context; no later allow can rescue it";
    SelfCheck => "自检:移植的求值器对照各自的依据", "Self-check: each ported engine against its basis";
    RunSelfCheck => "运行自检(加载 fixtures)", "Run the self-check (loads the fixtures)";
    Running => "正在运行……", "Running…";
    BasisRecorded => "CLI 实测录制", "recorded from the CLI";
    BasisSource => "对照固定版本的源码", "pinned to the source";
    BasisDocs => "依据官方文档", "from the documentation";
    AgreeRecorded => "与实测一致", "agree with the recording";
    AgreeSource => "与源码运行结果一致", "agree with the source";
    AgreeDocs => "与文档所写一致", "agree with what the docs state";
    DriftDocs => "另有 {n} 条文档与 CLI 实测不同,这里按实测算", "{n} more where the docs and the recorded CLI differ, computed as the CLI does";
    DriftRecorded => "其中 {n} 条与文档说的不同", "{n} of them differ from what the docs say";
    LoadFailed => "无法加载", "could not load";
    EditTable => "编辑规则表(JSON,fixtures 格式)", "Edit the rule table (JSON, fixtures format)";
    Apply => "应用", "Apply";
    TableError => "规则表无法读取", "The rule table cannot be read";
    Unchanged => "不变", "unchanged";
    IgnoresRules => "CoreCoder 不读规则", "CoreCoder ignores rules";
    Lifted => "已拿起", "Lifted";
    Dropped => "已放下", "Dropped";
    Cancelled => "已取消,回到原位", "Cancelled, back in place";
    Changed => "已变", "changed";
    Differ => "不同 → 按规则读,OpenCode 与 Claude Code 对这次调用给出相反的答案", "They differ → read as rules, OpenCode and Claude Code give opposite answers for this call";
    Coincide => "相同(或都没命中)→ 两家按规则读一致", "They coincide (or nothing matches) → read as rules, the two agree";
    Actual => "实际裁决:", "Actual verdicts:";
    DisagreeBefore => "上一次重排之前:", "Before the last reorder:";
    DisagreePart => "OpenCode 把这行拆开检查;两种读法比较的是决定它结果的", "OpenCode checks this line in parts; both readings are compared on the one that decided its verdict: ";
    Caveat => "Claude Code 的实际裁决和「优先级最高的动作」不同:规则翻译成 Claude Code 语法后含义变了(例如 bash * deny 变成不带参数的 deny Bash,整个工具被拿掉)。", "Claude Code's actual verdict is not the highest-priority action: the rows mean something else once translated to its syntax (e.g. bash * deny becomes a bare deny Bash, removing the tool).";
    TermFindLast => "findLast:从数组末尾往前找,返回第一条满足条件的规则。所以「最后写的」先被看到——这就是 last-match。", "findLast: searches from the end of the array and returns the first rule that satisfies the test — so the rule written last is seen first: last match.";
    TermPermission => "match(permission, r.permission):请求的权限(工具名,如 bash)要匹配规则的 permission,规则这一侧可以带通配符(如 * 或 edit*)。", "match(permission, r.permission): the requested permission (the tool, e.g. bash) must match the rule's permission, which may be a wildcard (* or edit*).";
    TermPattern => "match(pattern, r.pattern):请求的匹配串(命令或路径)要匹配规则的 pattern,用 Wildcard.match:* 匹配任意字符(含空格和 /),? 匹配一个字符。", "match(pattern, r.pattern): the requested pattern (command or path) must match the rule's pattern via Wildcard.match: * matches anything (spaces and / included), ? one character.";
    TermDefault => "?? ask:一条都没命中时,返回合成的默认规则 {permission, pattern: \"*\", action: \"ask\"}——问人。", "?? ask: when nothing matches, a default rule {permission, pattern: \"*\", action: \"ask\"} is returned — ask the human.";
    TermAnd => "&&:两个条件都要满足,同一条规则才算命中。", "&&: both conditions must hold for the same rule to match.";
    Empty => "(空)", "(empty)";
    TasksTitle => "试一试", "Try these";
    TaskDone => "已完成", "done";
    TaskTodo => "未完成", "not done yet";
    TasksAllDone => "全部完成!", "All done!";
    More => "更多", "More";
    MoreList => "公式 · 实验矩阵 · 翻译 · 自检 · 编辑 JSON · 导入配置", "formula · lab matrix · translations · self-check · JSON editor · import";
    MoreListNoCheck => "公式 · 实验矩阵 · 翻译 · 编辑 JSON · 导入配置", "formula · lab matrix · translations · JSON editor · import";
    Legend => "图例", "Legend";
    LegendCursor => "光标", "cursor";
    LegendDecisive => "决定裁决的规则:", "the rule that decided:";
    LegendDecisiveNone => "揭示后,决定裁决的规则在这里标出", "after a reveal, marks the rule that decided";
    ListSep => "、", ", ";
    CaptionName => "规则表", "Rule table";
    CaptionHint => "(拖动 ⠿ 或用键盘重排)", " (drag ⠿ or use the keyboard to reorder)";
    LegendChanged => "上次重排改变了这一格的裁决(列名就是引擎)", "the last reorder changed this cell's verdict (the column names the engine)";
    DisagreeLocked => "先猜并揭示 OpenCode 和 Claude Code,这里再比较两家对这次调用的读法。", "Guess and reveal OpenCode and Claude Code first; then this box compares how the two read the table for this call.";
    CellLocked => "先猜再揭示", "guess, then reveal";
    EarlierOrder => "你猜的时候(重排之前)", "When you guessed (before the reorder)";
    OthersHint => "(本课没有列出的求值器)", "(engines this lesson does not list)";
    LintRunning => "正在检查你的配置(检查器随 Starlark 解释器按需加载)……", "Checking your config (the checker loads on demand with the Starlark interpreter)…";
    LintNeedsWorker => "检查配置要用按需加载的检查器,离线单文件里没有它。请在在线页面上导入。", "Checking the config needs the checker the online page loads on demand; the offline single file does not have it. Import it on the online page.";
    LintFailed => "没能检查这份配置", "Could not check this config";
    FindingsTitle => "检查结果", "What the checker found";
    FindingTry => "载入这个调用", "Load this call";
    FindingAnswer => "答案与改法", "Answer and fix";
    FindingFix => "改法", "Fix";
    FindingRule => "规则", "Rule";
    FindingLine => "行", "line";
    DriftLead => "文档与实测不一致:", "The docs and the real CLI disagree:";
}

impl Lang {
    /// `zh*` → Chinese, `en*` → English, anything else → Chinese (the course's language).
    pub fn from_tag(tag: &str) -> Lang {
        if tag.trim().to_ascii_lowercase().starts_with("en") {
            Lang::En
        } else {
            Lang::Zh
        }
    }

    /// The BCP 47 tag for `lang=`.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::Zh => "zh-CN",
            Lang::En => "en",
        }
    }

    /// `zh` or `en`: the lesson format's language keys.
    pub fn tag_short(self) -> &'static str {
        match self {
            Lang::Zh => "zh",
            Lang::En => "en",
        }
    }

    /// The import panel's summary line ("reasons below" only when some rule could not be used).
    ///
    /// ```
    /// use permlab_widget::text::i18n::Lang;
    /// assert_eq!(Lang::En.import_summary("OpenCode", 1, 0), "Read an OpenCode config: 1 rule became a row.");
    /// assert_eq!(Lang::En.import_summary("Codex", 3, 1), "Read a Codex config: 3 rules became rows, 1 could not be used (reasons below).");
    /// assert_eq!(Lang::Zh.import_summary("Codex", 3, 0), "已读入 Codex 配置:3 条规则成了表格行。");
    /// ```
    pub fn import_summary(self, harness: &str, imported: usize, dropped: usize) -> String {
        if self.zh() {
            match dropped {
                0 => format!("已读入 {harness} 配置:{imported} 条规则成了表格行。"),
                _ => format!("已读入 {harness} 配置:{imported} 条规则成了表格行,{dropped} 条无法使用(原因见下)。"),
            }
        } else {
            let article = if harness.starts_with(['A', 'E', 'I', 'O', 'U']) {
                "an"
            } else {
                "a"
            };
            let rows = if imported == 1 {
                "1 rule became a row".to_string()
            } else {
                format!("{imported} rules became rows")
            };
            match dropped {
                0 => format!("Read {article} {harness} config: {rows}."),
                _ => format!("Read {article} {harness} config: {rows}, {dropped} could not be used (reasons below)."),
            }
        }
    }

    fn zh(self) -> bool {
        self == Lang::Zh
    }

    /// An action word (放行 / allow …).
    pub fn action(self, a: Action) -> &'static str {
        self.decision(a.into())
    }

    /// A verdict word, including Claude Code's "tool unavailable".
    /// One self-check line in this language: the label (product · basis), the tally of the
    /// cases (drift and `matched` sections apart), what they agree with, and for the docs and
    /// the recordings how many cases the docs and the CLI answer differently. `key` is a
    /// [`crate::protocol::Fixture::key`]; anything else (an error line) is its own label.
    ///
    /// ```
    /// use permlab_widget::text::i18n::Lang;
    /// let s = vec![("cases".to_string(), 108, 108), ("matched".into(), 90, 90), ("drift".into(), 10, 10)];
    /// let line = Lang::Zh.check_line("claude-code-docs", &s);
    /// assert_eq!(line.label, "Claude Code · 依据官方文档");
    /// assert_eq!((line.passed, line.total), (108, 108));
    /// assert_eq!(line.agree, "与文档所写一致");
    /// assert_eq!(line.drift.as_deref(), Some("另有 10 条文档与 CLI 实测不同,这里按实测算"));
    /// ```
    pub fn check_line(self, key: &str, sections: &[(String, usize, usize)]) -> CheckLine {
        use crate::protocol::{fixture, Basis};
        let counted = |name: &str| name != "drift" && name != "matched";
        let passed = sections.iter().filter(|s| counted(&s.0)).map(|s| s.1).sum();
        let total = sections.iter().filter(|s| counted(&s.0)).map(|s| s.2).sum();
        let drift: usize = sections
            .iter()
            .filter(|s| s.0 == "drift")
            .map(|s| s.2)
            .sum();
        let Some(f) = fixture(key) else {
            return CheckLine {
                label: key.to_string(),
                passed,
                total,
                agree: "",
                drift: None,
            };
        };
        let (basis, agree, drift_text) = match f.basis {
            Basis::Recorded => (S::BasisRecorded, S::AgreeRecorded, Some(S::DriftRecorded)),
            Basis::Source => (S::BasisSource, S::AgreeSource, None),
            Basis::Docs => (S::BasisDocs, S::AgreeDocs, Some(S::DriftDocs)),
        };
        CheckLine {
            label: format!("{} · {}", f.product, self.s(basis)),
            passed,
            total,
            agree: self.s(agree),
            drift: drift_text
                .filter(|_| drift > 0)
                .map(|k| self.s(k).replace("{n}", &drift.to_string())),
        }
    }

    /// Where the docs and the recorded CLI disagree, both answers with the version, in this
    /// language: `文档:问人 · CLI 2.1.332 实测:拒绝` / `docs: ask · CLI 2.1.332: deny`.
    pub fn drift_label(self, d: &permlab_core::claude_code::drift::DocDrift) -> String {
        use permlab_core::claude_code::drift::CLI_VERSION;
        match self {
            Lang::Zh => format!(
                "文档:{} · CLI {CLI_VERSION} 实测:{}",
                self.decision(d.docs),
                self.decision(d.cli)
            ),
            Lang::En => d.label(),
        }
    }

    pub fn decision(self, d: Decision) -> &'static str {
        match (self, d) {
            (Lang::Zh, Decision::Allow) => "放行",
            (Lang::Zh, Decision::Ask) => "问人",
            (Lang::Zh, Decision::Deny) => "拒绝",
            (Lang::Zh, Decision::Unavailable) => "工具不可用",
            (Lang::En, Decision::Allow) => "allow",
            (Lang::En, Decision::Ask) => "ask",
            (Lang::En, Decision::Deny) => "deny",
            (Lang::En, Decision::Unavailable) => "tool unavailable",
        }
    }

    /// An engine's display name.
    pub fn engine(self, e: EngineId) -> &'static str {
        match e {
            EngineId::FirstMatch => "first-match",
            EngineId::OpenCode => "OpenCode",
            EngineId::ClaudeCode => "Claude Code",
            EngineId::CoreCoder => "CoreCoder",
            EngineId::Codex => "Codex",
        }
    }

    /// The engine's semantics in a few words.
    pub fn engine_gist(self, e: EngineId) -> &'static str {
        match (self.zh(), e) {
            (true, EngineId::FirstMatch) => "从上往下,第一条命中的说了算",
            (false, EngineId::FirstMatch) => "top-down, the first match decides",
            (true, EngineId::OpenCode) => "last-match:从下往上 findLast",
            (false, EngineId::OpenCode) => "last match: findLast from the bottom",
            (true, EngineId::ClaudeCode) => "分组:deny → ask → allow",
            (false, EngineId::ClaudeCode) => "groups: deny → ask → allow",
            (true, EngineId::CoreCoder) => "只看工具名,不读规则",
            (false, EngineId::CoreCoder) => "tool name only, ignores rules",
            (true, EngineId::Codex) => "前缀规则,最严格者胜",
            (false, EngineId::Codex) => "prefix rules, strictest wins",
        }
    }

    /// The product version an engine reproduces ([`EngineId::pin`]), as the learner reads it:
    /// `对照 Claude Code 2.1.332(2026-12-01 实测)` / `as Claude Code 2.1.332 (recorded
    /// 2026-12-01)`. First-match is the naive design, no product: `None`.
    pub fn pin(self, e: EngineId) -> Option<String> {
        let pin = e.pin()?;
        Some(if self.zh() {
            match pin.split_once(" (recorded ") {
                Some((name, date)) => format!("对照 {name}({} 实测)", date.trim_end_matches(')')),
                None => format!("对照 {pin}"),
            }
        } else {
            format!("as {pin}")
        })
    }

    /// A row as the learner sees it: `#8 bash * 拒绝`. A rule keeps its lesson number as its
    /// name wherever it moves; where that differs from its place, the place is said as a
    /// position: `#8 bash * 拒绝(第 10 行)`.
    pub fn row(self, table: &RuleTable, row: usize) -> String {
        match table.rules().get(row) {
            Some(r) => format!("#{} {}{}", r.id.0, self.rule(r), self.at_row(r, row)),
            None => self.row_position(row),
        }
    }

    /// A row without its action: `#8 bash *` (and its position when it moved).
    pub fn row_ref(self, table: &RuleTable, row: usize) -> String {
        match table.rules().get(row) {
            Some(r) => format!(
                "#{} {} {}{}",
                r.id.0,
                one_line(&r.tool),
                one_line(&r.pattern),
                self.at_row(r, row)
            ),
            None => self.row_position(row),
        }
    }

    /// A position said as a position: `第 10 行` / `row 10` (0-based `row`).
    pub fn row_position(self, row: usize) -> String {
        if self.zh() {
            format!("第 {} 行", row + 1)
        } else {
            format!("row {}", row + 1)
        }
    }

    /// `(第 10 行)` when rule `r` no longer sits at its lesson number, else nothing.
    fn at_row(self, r: &Rule, row: usize) -> String {
        if r.id.0 as usize == row + 1 {
            String::new()
        } else if self.zh() {
            format!("({})", self.row_position(row))
        } else {
            format!(" ({})", self.row_position(row))
        }
    }

    /// `bash * 拒绝` (tool, pattern, action).
    pub fn rule(self, r: &Rule) -> String {
        format!(
            "{} {} {}",
            one_line(&r.tool),
            one_line(&r.pattern),
            self.action(r.action)
        )
    }

    /// The live-region announcement after a move (positions 1-based).
    pub fn moved(self, rule: &Rule, from: usize, to: usize, total: usize) -> String {
        let r = format!(
            "{} {} {}",
            one_line(&rule.tool),
            one_line(&rule.pattern),
            self.action(rule.action)
        );
        if self.zh() {
            format!(
                "规则 #{from}「{r}」已移到第 {to} 位(共 {total} 位)",
                from = rule_label(rule, from)
            )
        } else {
            format!(
                "rule #{from} “{r}” moved to position {to} of {total}",
                from = rule_label(rule, from)
            )
        }
    }

    /// Announcement while a row is lifted by keyboard.
    pub fn lifted(self, rule: &Rule, at: usize, total: usize) -> String {
        if self.zh() {
            format!(
                "已拿起规则 #{}。当前在第 {at} 位(共 {total} 位)。用 ↑/↓ 选择位置,空格或回车放下,Esc 取消。",
                rule.id.0
            )
        } else {
            format!(
                "Lifted rule #{}. Position {at} of {total}. Use ↑/↓ to choose, Space or Enter to drop, Esc to cancel.",
                rule.id.0
            )
        }
    }

    /// Announcement while choosing a target by keyboard.
    pub fn target(self, to: usize, total: usize) -> String {
        if self.zh() {
            format!("将放到第 {to} 位(共 {total} 位)")
        } else {
            format!("Will drop at position {to} of {total}")
        }
    }

    /// A group being searched, before a stepper line: `[拒绝 组] ` / `[deny group] `.
    fn group_label(self, g: Action) -> String {
        if self.zh() {
            // The group's verdict word in the page's language (one language per widget).
            format!("[{} 组] ", self.action(g))
        } else {
            format!("[{} group] ", g.as_str())
        }
    }

    /// The row a stepper line is about: `#8 bash *`, with its place when it moved.
    fn step_row(self, table: &RuleTable, row: usize) -> String {
        let (tool, pattern) = match table.rules().get(row) {
            Some(r) => (one_line(&r.tool), one_line(&r.pattern)),
            None => (String::new(), String::new()),
        };
        let at = table
            .rules()
            .get(row)
            .map(|r| (r.id.0, self.at_row(r, row)))
            .unwrap_or((row as u32 + 1, String::new()));
        format!("#{} {} {}{}", at.0, tool, pattern, at.1)
    }

    /// A stepper line of an engine not revealed yet: the row its cursor is on, and nothing of
    /// what it finds there.
    ///
    /// ```
    /// use permlab_core::{Action, RuleTable};
    /// use permlab_widget::text::i18n::Lang;
    /// let t = RuleTable::new([("bash", "*", Action::Deny)]);
    /// assert_eq!(Lang::Zh.step_unseen(&t, 0, None), "#1 bash * — 这一行命中没有,揭示后才显示");
    /// assert_eq!(
    ///     Lang::En.step_unseen(&t, 0, Some(Action::Deny)),
    ///     "[deny group] #1 bash * — whether it matches shows after the reveal"
    /// );
    /// ```
    pub fn step_unseen(self, table: &RuleTable, row: usize, group: Option<Action>) -> String {
        let mut out = group.map(|g| self.group_label(g)).unwrap_or_default();
        out.push_str(&self.step_row(table, row));
        out.push_str(if self.zh() {
            " — 这一行命中没有,揭示后才显示"
        } else {
            " — whether it matches shows after the reveal"
        });
        out
    }

    /// The last stepper line of an engine not revealed yet (every such walk ends with it).
    pub fn step_end_waits(self, e: EngineId) -> String {
        if self.zh() {
            format!(
                "表走完了。{} 停在哪一行、还是一条都没命中,先在下面猜,再揭示",
                self.engine(e)
            )
        } else {
            format!(
                "End of the table. Where {} stopped, or whether nothing matched: guess below, then reveal",
                self.engine(e)
            )
        }
    }

    /// The last stepper line of a revealed engine no rule decided for: past the last row, what
    /// decided instead (its fallback, a permission mode, a hidden tool…).
    ///
    /// ```
    /// use permlab_core::{engines, Action, Call, EngineId, RuleTable};
    /// use permlab_widget::text::i18n::Lang;
    /// let t = RuleTable::new([("bash", "git *", Action::Allow)]);
    /// let e = engines::build(EngineId::FirstMatch, &t).evaluate(&permlab_core::Call::new("bash", "ls"));
    /// assert_eq!(
    ///     Lang::En.step_end(&t, &e),
    ///     "past the last row · matching the whole line as one string, no rule matches; falls back to ask"
    /// );
    /// ```
    pub fn step_end(self, table: &RuleTable, e: &permlab_core::Evaluation) -> String {
        let why = self.explain(table, e);
        if self.zh() {
            format!("表走完了 · {why}")
        } else {
            format!("past the last row · {why}")
        }
    }

    /// One stepper line: `#8 bash * — tool ✓ pattern ✓ → deny, stop`.
    pub fn step(self, table: &RuleTable, step: &Step) -> String {
        let mut out = step.group.map(|g| self.group_label(g)).unwrap_or_default();
        out.push_str(&self.step_row(table, step.row));
        out.push_str(" — ");
        let mark = |b: bool| if b { "✓" } else { "✗" };
        let (tw, pw) = if self.zh() {
            ("工具", "匹配串")
        } else {
            ("tool", "pattern")
        };
        out.push_str(&format!("{tw} {}", mark(step.tool_matched)));
        match step.pattern_matched {
            Some(p) => out.push_str(&format!(" {pw} {}", mark(p))),
            None => out.push_str(if self.zh() {
                " 匹配串 (不看)"
            } else {
                " pattern (not checked)"
            }),
        }
        if step.stop {
            let action = table
                .rules()
                .get(step.row)
                .map(|r| self.action(r.action))
                .unwrap_or("");
            out.push_str(&if self.zh() {
                format!(" → {action},停")
            } else {
                format!(" → {action}, stop")
            });
        } else {
            out.push_str(if self.zh() {
                " → 继续"
            } else {
                " → go on"
            });
        }
        out
    }

    /// "Step k" (the total is left out while a verdict is unrevealed: where the longest walk
    /// ends can tell it).
    pub fn step_at(self, k: usize) -> String {
        if self.zh() {
            format!("第 {k} 步")
        } else {
            format!("Step {k}")
        }
    }

    /// The stepper's line for an engine whose next step would tell its verdict.
    pub fn step_locked(self, e: EngineId) -> String {
        if self.zh() {
            format!(
                "这一步会说出 {} 的裁决:先在下面猜一个,再揭示",
                self.engine(e)
            )
        } else {
            format!(
                "This step tells {}'s verdict: guess it below and reveal it first",
                self.engine(e)
            )
        }
    }

    /// A wrong guess's mark: `✗ 猜错了(你猜 拒绝)` / `✗ Wrong (you guessed deny)` (each
    /// language with its own parentheses and spacing).
    pub fn wrong_guess(self, guess: Decision) -> String {
        if self.zh() {
            format!("✗ {}(你猜 {})", self.s(S::Wrong), self.decision(guess))
        } else {
            format!(
                "✗ {} (you guessed {})",
                self.s(S::Wrong),
                self.decision(guess)
            )
        }
    }

    /// The label of the "show other harnesses" offer, naming them.
    pub fn show_others(self, others: &[EngineId]) -> String {
        let names: Vec<&str> = others.iter().map(|e| self.engine(*e)).collect();
        if self.zh() {
            format!("同时显示其他 harness:{}", names.join("、"))
        } else {
            format!("Also show other harnesses: {}", names.join(", "))
        }
    }

    /// What a windowed table shows: rows `from`–`to` (1-based) of `n` (said in its caption,
    /// and on paper, which gets only those rows).
    ///
    /// ```
    /// use permlab_widget::text::i18n::Lang;
    /// assert_eq!(Lang::En.rows_shown(41, 160, 10_000), "rows 41–160 of 10000 shown; scroll or use ↑/↓ for the rest");
    /// assert_eq!(Lang::Zh.rows_shown(41, 160, 10_000), "显示第 41–160 行,共 10000 行;滚动或用 ↑/↓ 看其余的行");
    /// ```
    pub fn rows_shown(self, from: usize, to: usize, n: usize) -> String {
        if self.zh() {
            format!("显示第 {from}–{to} 行,共 {n} 行;滚动或用 ↑/↓ 看其余的行")
        } else {
            format!("rows {from}–{to} of {n} shown; scroll or use ↑/↓ for the rest")
        }
    }

    /// "Step k of N".
    pub fn step_of(self, k: usize, n: usize) -> String {
        if self.zh() {
            format!("第 {k} 步,共 {n} 步")
        } else {
            format!("Step {k} of {n}")
        }
    }

    /// The one-line "why" of a verdict, from the structured reason. Unknown reasons (the enum
    /// is non-exhaustive) get a generic line.
    pub fn reason(self, table: &RuleTable, engine: EngineId, reason: &Reason) -> String {
        let zh = self.zh();
        match reason {
            Reason::Rule { row, action } => {
                let how = match (engine, zh) {
                    (EngineId::FirstMatch, true) => "从上往下第一条命中的是",
                    (EngineId::FirstMatch, false) => "the first match from the top is",
                    (EngineId::OpenCode, true) => "从下往上(findLast)第一条命中的是",
                    (EngineId::OpenCode, false) => "the last match (findLast) is",
                    (EngineId::ClaudeCode, true) => "按 deny → ask → allow 分组,先命中的是",
                    (EngineId::ClaudeCode, false) => {
                        "searching deny → ask → allow, the first hit is"
                    }
                    (_, true) => "决定的规则是",
                    (_, false) => "the deciding rule is",
                };
                // The row label ends with the row's action; say it again only if they differ.
                let label = self.row(table, *row);
                match table.rules().get(*row) {
                    Some(r) if r.action == *action => format!("{how} {label}"),
                    _ => format!("{how} {label} → {}", self.action(*action)),
                }
            }
            Reason::NoMatch { fallback } => {
                if zh {
                    format!("没有规则命中,回落为「{}」", self.decision(*fallback))
                } else {
                    format!("no rule matches; falls back to {}", self.decision(*fallback))
                }
            }
            Reason::OpenCodeDefault { permission } => {
                if zh {
                    format!(
                        "没有规则命中:evaluate 返回合成的默认规则 {{permission: \"{}\", pattern: \"*\", action: \"ask\"}}",
                        one_line(permission)
                    )
                } else {
                    format!(
                        "no rule matches: evaluate returns the synthesized default {{permission: \"{}\", pattern: \"*\", action: \"ask\"}}",
                        one_line(permission)
                    )
                }
            }
            Reason::ToolRemoved { row } => {
                if zh {
                    format!(
                        "{} 翻译成不带参数的 deny,整个工具从模型的上下文里拿掉:这次调用根本发不出来",
                        self.row(table, *row)
                    )
                } else {
                    format!(
                        "{} becomes a bare deny: the whole tool is removed from the model's context, so this call cannot be made",
                        self.row(table, *row)
                    )
                }
            }
            Reason::CoreCoder {
                layer,
                rules_ignored,
                ..
            } => {
                let l = match (layer, zh) {
                    (Layer::ReadOnly, true) => "只读工具,直接放行",
                    (Layer::ReadOnly, false) => "a read-only tool runs without asking",
                    (Layer::Prompt, true) => "不是只读工具,问人",
                    (Layer::Prompt, false) => "not a read-only tool: it asks",
                    (Layer::NonInteractive, true) => "没人可问(-p),拒绝",
                    (Layer::NonInteractive, false) => "nobody to ask (-p): refused",
                    (Layer::AllowAll, true) => "--yes:全部放行",
                    (Layer::AllowAll, false) => "--yes: everything runs",
                    (Layer::Always, true) => "之前选过「always」",
                    (Layer::Always, false) => "an earlier “always”",
                    (Layer::PlanMode, true) => "计划模式拒绝非只读工具",
                    (Layer::PlanMode, false) => "plan mode refuses non-read-only tools",
                    (_, true) => "会话设置决定",
                    (_, false) => "the session decided",
                };
                if zh {
                    format!("只看工具名:{l};{rules_ignored} 条规则一条也没读")
                } else {
                    format!("tool name only: {l}; all {rules_ignored} rules ignored")
                }
            }
            Reason::ClaudeCode(d) => claude_decider(zh, d),
            Reason::CodexStrictest {
                row,
                action,
                matched,
            } => {
                if zh {
                    format!(
                        "{matched} 条前缀规则命中,取最严格的:{} → {}",
                        self.row(table, *row),
                        self.action(*action)
                    )
                } else {
                    format!(
                        "{matched} prefix rule(s) match; the strictest decides: {} → {}",
                        self.row(table, *row),
                        self.action(*action)
                    )
                }
            }
            Reason::CodexNoRuleMatched => if zh {
                "没有前缀规则命中:execpolicy 不给裁决,Codex 另有启发式(未建模),这里显示为问人"
            } else {
                "no prefix rule matches: execpolicy gives no decision; Codex's own heuristics (not modelled) take over — shown as ask"
            }
            .to_string(),
            Reason::CodexNotACommand { tool } => {
                if zh {
                    format!("execpolicy 只看 shell 命令,{} 调用不经过它(显示为问人)", one_line(tool))
                } else {
                    format!(
                        "execpolicy only sees shell commands; a {} call never reaches it (shown as ask)",
                        one_line(tool)
                    )
                }
            }
            Reason::CodexUnsplittable { message } => {
                if zh {
                    format!("命令无法按 shlex 拆成 argv({}),没有规则能检查(显示为问人)", one_line(message))
                } else {
                    format!(
                        "the command cannot be split into argv ({}); no rule can check it (shown as ask)",
                        one_line(message)
                    )
                }
            }
            Reason::ClaudeRuleInMode { row, action, mode } => {
                let m = mode.as_str();
                let label = self.row(table, *row);
                let a = self.action(*action);
                match (mode, zh) {
                    (Mode::DontAsk, true) => format!(
                        "按 deny → ask → allow 分组,先命中的是 {label}({a});可 {m} 权限模式下没人可问,所以拒绝"
                    ),
                    (Mode::DontAsk, false) => format!(
                        "searching deny → ask → allow, the first hit is {label} ({a}); but in the {m} permission mode nobody is asked, so it is denied"
                    ),
                    (_, true) => format!("按 deny → ask → allow 分组,先命中的是 {label}({a});{m} 权限模式改变了它的结果"),
                    (_, false) => format!(
                        "searching deny → ask → allow, the first hit is {label} ({a}); the {m} permission mode changes its outcome"
                    ),
                }
            }
            Reason::OpenCodeNothingAsked => if zh {
                "bash 工具一个权限请求都没发(只有项目内的 cd、变量赋值、测试或注释):命令直接运行"
            } else {
                "the bash tool makes no permission request at all (only cd inside the project, assignments, tests or comments): the command runs"
            }
            .to_string(),
            Reason::OpenCodeHidden { row } => {
                if zh {
                    format!(
                        "工具一栏能匹配 bash 的最后一条是 {}(匹配串 *、拒绝):OpenCode 把 bash 工具整个藏起来,模型根本拿不到它",
                        self.row(table, *row)
                    )
                } else {
                    format!(
                        "the last row whose tool matches bash is {} (pattern *, deny): OpenCode hides the bash tool, so the model is never offered it",
                        self.row(table, *row)
                    )
                }
            }
            _ => if zh {
                "求值器给出了这个裁决(原因类型本页暂不能细述)"
            } else {
                "the engine decided this (this kind of reason has no description here yet)"
            }
            .to_string(),
        }
    }

    /// Why, for a whole call: the reason alone when the call was checked as one piece; else
    /// how the product split it and which part decided, then that part's reason.
    ///
    /// ```
    /// use permlab_core::{engines, Action, Call, EngineId, RuleTable};
    /// use permlab_widget::text::i18n::Lang;
    /// let t = RuleTable::new([("bash", "git *", Action::Allow), ("bash", "curl *", Action::Deny)]);
    /// let call = Call::new("bash", "git status; curl https://x.example");
    /// let e = engines::build(EngineId::OpenCode, &t).evaluate(&call);
    /// assert_eq!(
    ///     Lang::En.explain(&t, &e),
    ///     "the bash tool checks this line as 2 commands, in order, and the first that is not \
    ///      allowed decides — part 2, “curl https://x.example”: the last match (findLast) is \
    ///      #2 bash curl * deny"
    /// );
    /// let e = engines::build(EngineId::Codex, &t).evaluate(&call);
    /// assert!(Lang::Zh.explain(&t, &e).starts_with("Codex 把 bash -lc 脚本拆成 2 条命令"));
    /// ```
    pub fn explain(self, table: &RuleTable, e: &permlab_core::Evaluation) -> String {
        use permlab_core::evaluation::{Combine, Subject};
        let zh = self.zh();
        let Some((k, how)) = e.decided_by else {
            let why = self.reason(table, e.engine, &e.reason);
            // The naive design never splits: say so, since the products beside it do.
            return match (e.engine, zh) {
                (EngineId::FirstMatch, true) => format!("整行当作一个字符串来匹配,{why}"),
                (EngineId::FirstMatch, false) => {
                    format!("matching the whole line as one string, {why}")
                }
                _ => why,
            };
        };
        let Some(part) = e.parts.get(k) else {
            return self.reason(table, e.engine, &e.reason);
        };
        let why = self.reason(table, e.engine, &part.reason);
        let subject = one_line(part.subject.text());
        let commands = e
            .parts
            .iter()
            .filter(|p| matches!(p.subject, Subject::Command(_)))
            .count();
        let dirs = e.parts.len() - commands;
        match how {
            Combine::FirstNotAllowed => {
                let all_allowed = e.parts.iter().all(|p| p.decision == Decision::Allow);
                let what = match (dirs, zh) {
                    (0, true) => format!("{commands} 条命令"),
                    (0, false) => {
                        format!("{commands} command{}", if commands == 1 { "" } else { "s" })
                    }
                    (d, true) => format!("{d} 个项目外目录(先问)和 {commands} 条命令"),
                    (d, false) => format!(
                        "{d} outside director{} (asked first) and {commands} command{}",
                        if d == 1 { "y" } else { "ies" },
                        if commands == 1 { "" } else { "s" }
                    ),
                };
                let label = self.part_label(e, k);
                match (all_allowed, zh) {
                    (true, true) => format!(
                        "bash 工具把这行当作 {what}逐个检查,每一个都放行 —— 最后检查的是{label}:{why}"
                    ),
                    (true, false) => format!(
                        "the bash tool checks this line as {what}, in order, and every one is allowed — the last checked is {label}: {why}"
                    ),
                    (false, true) => format!(
                        "bash 工具把这行当作 {what}逐个检查,第一个没被放行的决定结果 —— {label}:{why}"
                    ),
                    (false, false) => format!(
                        "the bash tool checks this line as {what}, in order, and the first that is not allowed decides — {label}: {why}"
                    ),
                }
            }
            Combine::Strictest if e.parts.len() == 1 => {
                if zh {
                    format!(
                        "这段脚本不只是普通命令(有重定向、$( )、变量前缀、引号里的命令名……),Codex 不拆开,整行作为一条命令检查:「{subject}」—— {why}"
                    )
                } else {
                    format!(
                        "the script is not plain commands only (a redirect, $( ), a variable prefix, a quoted command name…), so Codex does not split it and checks the whole line as one command, “{subject}” — {why}"
                    )
                }
            }
            Combine::Strictest => {
                let n = e.parts.len();
                let label = self.part_label(e, k);
                if zh {
                    format!(
                        "Codex 把 bash -lc 脚本拆成 {n} 条命令,逐条检查后取最严的 —— {label}:{why}"
                    )
                } else {
                    format!(
                        "Codex splits the bash -lc script into {n} commands, checks each and takes the strictest — {label}: {why}"
                    )
                }
            }
        }
    }

    /// Where a call runs, after the call: "在 /home/learner/miniagent(项目目录)里运行,~ 是
    /// /home/learner".
    ///
    /// ```
    /// use permlab_core::context::CallContext;
    /// use permlab_widget::text::i18n::Lang;
    /// let c = CallContext::default().with(None, Some("src"), None).unwrap();
    /// assert_eq!(
    ///     Lang::En.call_place(&c),
    ///     "runs in /home/learner/miniagent/src (project: /home/learner/miniagent; ~ is /home/learner)"
    /// );
    /// ```
    pub fn call_place(self, c: &permlab_core::context::CallContext) -> String {
        let (cwd, project, home) = (one_line(&c.cwd), one_line(&c.project), one_line(&c.home));
        match (c.cwd == c.project, self.zh()) {
            (true, true) => format!("在 {cwd}(项目目录)里运行,~ 是 {home}"),
            (true, false) => format!("runs in {cwd} (the project; ~ is {home})"),
            (false, true) => format!("在 {cwd} 里运行(项目目录 {project},~ 是 {home})"),
            (false, false) => format!("runs in {cwd} (project: {project}; ~ is {home})"),
        }
    }

    /// After an OpenCode prompt's reason: what its "Allow always" would save.
    ///
    /// ```
    /// use permlab_widget::text::i18n::Lang;
    /// let always = ["git status *".to_string(), "npm test *".to_string()];
    /// assert_eq!(Lang::Zh.always(&always), ";在提示里选「始终允许」会记住 git status *、npm test *");
    /// assert_eq!(Lang::En.always(&always), "; “Allow always” on the prompt would save git status *, npm test *");
    /// ```
    pub fn always(self, patterns: &[String]) -> String {
        let list: Vec<String> = patterns.iter().map(|p| one_line(p)).collect();
        if self.zh() {
            format!(";在提示里选「始终允许」会记住 {}", list.join("、"))
        } else {
            format!(
                "; “Allow always” on the prompt would save {}",
                list.join(", ")
            )
        }
    }

    /// A part of a split call: "第 2 部分「curl x」" / "part 2, “curl x”"; an outside
    /// directory says so.
    pub fn part_label(self, e: &permlab_core::Evaluation, k: usize) -> String {
        use permlab_core::evaluation::Subject;
        let Some(part) = e.parts.get(k) else {
            return String::new();
        };
        let text = one_line(part.subject.text());
        match (&part.subject, self.zh()) {
            (Subject::Command(_), true) => format!("第 {} 部分「{text}」", k + 1),
            (Subject::Command(_), false) => format!("part {}, “{text}”", k + 1),
            (Subject::OutsideDirectory(_), true) => {
                format!("第 {} 部分:项目外目录「{text}」(external_directory)", k + 1)
            }
            (Subject::OutsideDirectory(_), false) => {
                format!(
                    "part {}, the outside directory “{text}” (external_directory)",
                    k + 1
                )
            }
        }
    }

    /// The stepper's line for `step` of a split call: which part the cursor is walking
    /// ("2/3 部分「curl x」· ") before the row it is on.
    pub fn part_step(self, table: &RuleTable, e: &permlab_core::Evaluation, step: &Step) -> String {
        match step.part {
            Some(k) if !e.parts.is_empty() => {
                let n = e.parts.len();
                let label = self.part_label(e, k);
                let row = self.step(table, step);
                if self.zh() {
                    format!("[共 {n} 部分] {label} · {row}")
                } else {
                    format!("[{n} parts] {label} · {row}")
                }
            }
            _ => self.step(table, step),
        }
    }

    /// One reorder-log entry.
    pub fn log_entry(self, table: &RuleTable, entry: &LogEntry) -> String {
        let zh = self.zh();
        let what = match &entry.change {
            Change::Move { rule, from, to } => {
                let r = table
                    .position_of(*rule)
                    .and_then(|p| table.rules().get(p))
                    .map(|r| self.rule(r))
                    .unwrap_or_default();
                if zh {
                    format!("#{}「{r}」:第 {from} 位 → 第 {to} 位", rule.0)
                } else {
                    format!("#{} “{r}”: position {from} → {to}", rule.0)
                }
            }
            Change::Reverse => self.s(S::Reverse).to_string(),
            Change::Undo => self.s(S::Undo).to_string(),
            Change::Reset => self.s(S::Reset).to_string(),
        };
        let parts: Vec<String> = entry
            .engines
            .iter()
            .map(|&e| {
                if e == EngineId::CoreCoder {
                    return self.s(S::IgnoresRules).to_string();
                }
                let flip = entry.flipped.iter().find(|c| c.engine == e);
                if !entry.known.contains(&e) {
                    // Not revealed before: the verdicts are still the learner's to guess.
                    return match (flip.is_some(), zh) {
                        (true, true) => format!("{} 改判了(先猜再揭示)", self.engine(e)),
                        (true, false) => format!("{} changed (guess, then reveal)", self.engine(e)),
                        (false, true) => format!("{} 不变", self.engine(e)),
                        (false, false) => format!("{} unchanged", self.engine(e)),
                    };
                }
                match flip {
                    Some(VerdictChange { before, after, .. }) => format!(
                        "{}: {} → {}",
                        self.engine(e),
                        self.decision(*before),
                        self.decision(*after)
                    ),
                    None => {
                        if zh {
                            format!("{} 不变", self.engine(e))
                        } else {
                            format!("{} unchanged", self.engine(e))
                        }
                    }
                }
            })
            .collect();
        let sep = if zh { ";" } else { "; " };
        format!("{what} — {}", parts.join(sep))
    }
}

/// The rule's stable number as the lesson names it (its id = lesson position).
fn rule_label(rule: &Rule, _from: usize) -> u32 {
    rule.id.0
}

/// What kept a call from being approved, in words (the claude-flow scene says the same).
fn claude_blocker(zh: bool, why: &Blocker) -> String {
    use permlab_core::claude_code::bash::ACCEPT_EDITS_COMMANDS;
    match (why, zh) {
        (Blocker::NoRule, true) => "没有规则或内置基线覆盖它".into(),
        (Blocker::NoRule, false) => "no rule or baseline covers it".into(),
        (Blocker::Unparseable(_), true) => "命令无法解析,allow 规则不会放行它".into(),
        (Blocker::Unparseable(_), false) => {
            "the command cannot be parsed, so no allow rule approves it".into()
        }
        (Blocker::ExecWrapper(w), true) => {
            format!("{} 是执行包装器,前缀规则批准不了它包着的命令", one_line(w))
        }
        (Blocker::ExecWrapper(w), false) => format!(
            "{} is an exec wrapper: no prefix rule can approve the command it wraps",
            one_line(w)
        ),
        (Blocker::CdGit, true) => "先 cd 到别的目录再跑 git,allow 规则不放行这种组合".into(),
        (Blocker::CdGit, false) => {
            "cd into another directory combined with git, which allow rules never approve".into()
        }
        (Blocker::Target(t), true) => format!("重定向或 tee 的目标 {} 无法被批准", one_line(t)),
        (Blocker::Target(t), false) => format!(
            "the redirect or tee target {} cannot be approved",
            one_line(t)
        ),
        (Blocker::OutsideWorkingDirectory, true) => "路径在工作目录之外".into(),
        (Blocker::OutsideWorkingDirectory, false) => {
            "the path is outside the working directory".into()
        }
        (Blocker::PlanWrite, true) => "plan 权限模式从不自动批准编辑和写操作".into(),
        (Blocker::PlanWrite, false) => {
            "the plan permission mode never auto-approves edits or writes".into()
        }
        (Blocker::NotFilesystemCommand, true) => format!(
            "没有 allow 规则覆盖它,它也不是 acceptEdits 会放行的文件命令:acceptEdits 只认命令名 {}(写成路径的 /bin/rm 不算)",
            ACCEPT_EDITS_COMMANDS.join("、")
        ),
        (Blocker::NotFilesystemCommand, false) => format!(
            "no allow rule covers it, and it is not a file command acceptEdits approves: acceptEdits knows only the command names {} (a path such as /bin/rm does not count)",
            ACCEPT_EDITS_COMMANDS.join(", ")
        ),
        (Blocker::UnsafeEnv(v), true) => {
            format!("命令前有变量赋值 {}=,allow 规则看不过去", one_line(v))
        }
        (Blocker::UnsafeEnv(v), false) => format!(
            "the variable assignment {}= before the command, which allow rules cannot look past",
            one_line(v)
        ),
    }
}

/// The step of Claude Code's decision that decided, named (never "a step other than a rule").
fn claude_decider(zh: bool, d: &Decider) -> String {
    let s = match (d, zh) {
        (Decider::AllowRule, true) => "allow 规则覆盖了这次调用",
        (Decider::AllowRule, false) => "allow rules cover the call",
        (Decider::ReadOnly, true) => "内置的只读命令,直接放行",
        (Decider::ReadOnly, false) => "a built-in read-only command runs",
        (Decider::WorkingDirectory, true) => "工作目录内的读取,直接放行",
        (Decider::WorkingDirectory, false) => "a read inside the working directory runs",
        (Decider::NoPermissionTool, true) => "这个工具不需要权限",
        (Decider::NoPermissionTool, false) => "this tool needs no permission",
        (Decider::ProtectedPath(_), true) => "写入受保护路径,要问人",
        (Decider::ProtectedPath(_), false) => "a write to a protected path asks",
        (Decider::CriticalPath, true) => "对关键路径的 rm,要问人",
        (Decider::CriticalPath, false) => "rm on a critical path asks",
        (Decider::AcceptEdits, true) => {
            "没有规则决定,是 acceptEdits 权限模式放行的:工作目录内的文件编辑和常见文件命令直接放行"
        }
        (Decider::AcceptEdits, false) => {
            "no rule decided: the acceptEdits permission mode allowed it (edits and common file commands inside the working directory run)"
        }
        (Decider::AutoMode, true) => "没有规则决定,是 auto 权限模式直接批准的读取或工作目录内的编辑",
        (Decider::AutoMode, false) => {
            "no rule decided: the auto permission mode approves reads and working-directory edits outright"
        }
        (Decider::Bypass, true) => "bypassPermissions 权限模式:走到这里的一律放行",
        (Decider::Bypass, false) => "the bypassPermissions permission mode: whatever gets here runs",
        (Decider::Sandbox, true) => {
            "沙箱开启:沙箱内的 Bash 命令自动放行(autoAllowBashIfSandboxed)"
        }
        (Decider::Sandbox, false) => {
            "sandbox on: a sandboxed Bash command is auto-allowed (autoAllowBashIfSandboxed)"
        }
        (Decider::AdditionalDirectory, true) => "additionalDirectories 里的读写,直接放行",
        (Decider::AdditionalDirectory, false) => "a read or edit inside additionalDirectories runs",
        (Decider::HookBlock, true) => "PreToolUse hook 以退出码 2 拦下,规则都还没看",
        (Decider::HookBlock, false) => "a PreToolUse hook blocked it with exit code 2, before any rule",
        (Decider::HookAllow, true) => "hook 批准了,代替了提示框",
        (Decider::HookAllow, false) => "the hook approved where a prompt would have come",
        (Decider::RequiresUserInteraction, true) => "需要用户交互的工具,从不自动批准",
        (Decider::RequiresUserInteraction, false) => "a tool that needs user interaction is never auto-approved",
        (Decider::EndConversation, true) => "EndConversation 不看 deny / ask 规则",
        (Decider::EndConversation, false) => "EndConversation ignores deny and ask rules",
        (Decider::ToolRemoved, true) => "不带参数的 deny 把整个工具从模型的上下文里拿掉",
        (Decider::ToolRemoved, false) => "a bare deny removes the whole tool from the model's context",
        (Decider::DenyRule(_), true) => "命中 deny 规则",
        (Decider::DenyRule(_), false) => "a deny rule matches",
        (Decider::AskRule, true) => "命中 ask 规则",
        (Decider::AskRule, false) => "an ask rule matches",
        (Decider::Callback { why }, true) => {
            return format!("{};没有任何一关放行,SDK 调用 canUseTool 回调", claude_blocker(zh, why))
        }
        (Decider::Callback { why }, false) => {
            return format!("{}; nothing approved the call, so the SDK calls canUseTool", claude_blocker(zh, why))
        }
        (Decider::Mode { why, mode }, _) => {
            let w = claude_blocker(zh, why);
            // What each permission mode does with a call nothing approved (Claude Code's
            // `decide`, step 9): dontAsk refuses, auto hands it to the classifier, the others ask.
            let m = mode.as_str();
            return match (mode, zh) {
                (Mode::DontAsk, true) => format!("{w};{m} 权限模式的兜底:没人可问,拒绝"),
                (Mode::DontAsk, false) => {
                    format!("{w}; the {m} permission mode's fallback: nobody is asked, so it is denied")
                }
                (Mode::Auto, true) => format!("{w};{m} 权限模式的兜底:交给分类器"),
                (Mode::Auto, false) => {
                    format!("{w}; the {m} permission mode's fallback: the classifier decides")
                }
                (Mode::Plan, true) => format!("{w};{m} 权限模式的兜底:问人(开着 auto 权限模式时交给分类器)"),
                (Mode::Plan, false) => format!(
                    "{w}; the {m} permission mode's fallback asks (the classifier decides when the auto permission mode is available)"
                ),
                (_, true) => format!("{w};{m} 权限模式的兜底:问人"),
                (_, false) => format!("{w}; the {m} permission mode's fallback asks"),
            };
        }
    };
    s.to_string()
}

/// Text on one line (newlines and tabs shown as `⏎`/`⇥`), for compact labels. Untrusted text
/// is still inserted as text nodes; this only keeps one-line layouts on one line.
pub fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\n' | '\r' => '⏎',
            '\t' => '⇥',
            c => c,
        })
        .collect()
}

/// Most characters of a call input the call line shows whole: a longer one shows its start and
/// its end (the browser took hundreds of milliseconds to lay out a 400 KB input at every change).
pub const SHOWN_INPUT: usize = 2000;

/// A call input as the call line shows it: whole, or its first and last characters around ` … `
/// with a note of its length.
///
/// ```
/// use permlab_widget::text::i18n::{shown_input, Lang, SHOWN_INPUT};
/// assert_eq!(shown_input(Lang::Zh, "git push"), ("git push".to_string(), None));
/// let long = format!("{}END", "A=1 ".repeat(1000));
/// let (text, note) = shown_input(Lang::Zh, &long);
/// assert!(text.starts_with("A=1 A=1") && text.ends_with("END") && text.contains(" … "));
/// assert!(text.chars().count() < SHOWN_INPUT + 10);
/// assert_eq!(note.as_deref(), Some("(共 4003 个字符,中间省略)"));
/// ```
pub fn shown_input(lang: Lang, s: &str) -> (String, Option<String>) {
    const TAIL: usize = 200;
    let n = s.chars().count();
    if n <= SHOWN_INPUT {
        return (s.to_string(), None);
    }
    let head: String = s.chars().take(SHOWN_INPUT - TAIL).collect();
    let tail: String = s.chars().skip(n - TAIL).collect();
    let note = if lang == Lang::Zh {
        format!("(共 {n} 个字符,中间省略)")
    } else {
        format!("({n} characters, the middle left out)")
    };
    (format!("{head} … {tail}"), Some(note))
}

#[cfg(test)]
mod tests {
    use super::*;
    use permlab_core::engines;

    fn miniagent() -> RuleTable {
        RuleTable::from_json(include_str!(
            "../../../../fixtures/rulesets/miniagent-standard.json"
        ))
        .unwrap()
    }

    /// Claude Code's reason for a bash command in `mode`, with one allow rule.
    fn claude_why(lang: Lang, mode: Mode, command: &str) -> (Decision, String) {
        use permlab_core::claude_code::table::lesson_context;
        use permlab_core::claude_code::{evaluate, Policy, Scope, SettingsFile, ToolCall};
        let file = SettingsFile::from_json(
            r#"{"permissions": {"allow": ["Bash(npm run test *)"]}}"#,
            Scope::Project,
        )
        .unwrap();
        let policy = Policy::merge(&[file], true);
        let v = evaluate(&policy, mode, &lesson_context(), &ToolCall::bash(command));
        (
            v.outcome.decision(),
            claude_decider(lang == Lang::Zh, &v.decider),
        )
    }

    #[test]
    fn claude_code_reasons_name_the_step_that_decided() {
        let (d, zh) = claude_why(Lang::Zh, Mode::AcceptEdits, "touch notes.txt");
        assert_eq!(d, Decision::Allow);
        assert!(zh.contains("acceptEdits 权限模式放行"), "{zh}");
        let (_, en) = claude_why(Lang::En, Mode::AcceptEdits, "touch notes.txt");
        assert!(
            en.contains("the acceptEdits permission mode allowed it"),
            "{en}"
        );
        // A single command: not "part of it", but what acceptEdits knows and /bin/rm is not.
        let (d, zh) = claude_why(Lang::Zh, Mode::AcceptEdits, "/bin/rm -rf build");
        assert_eq!(d, Decision::Ask);
        assert!(zh.contains("写成路径的 /bin/rm 不算"), "{zh}");
        assert!(zh.contains("acceptEdits 权限模式的兜底:问人"), "{zh}");
        assert!(!zh.contains("有一部分"), "{zh}");
        let (_, en) = claude_why(Lang::En, Mode::AcceptEdits, "/bin/rm -rf build");
        assert!(en.contains("a path such as /bin/rm does not count"), "{en}");
        assert!(!en.contains("part of it"), "{en}");
        // Nothing anywhere says "a step other than a rule".
        for (lang, mode, cmd) in [
            (Lang::Zh, Mode::Default, "npm test"),
            (Lang::En, Mode::BypassPermissions, "npm test"),
            (Lang::Zh, Mode::Plan, "touch x"),
        ] {
            let (_, why) = claude_why(lang, mode, cmd);
            assert!(
                !why.contains("规则之外的一步") && !why.contains("a step other"),
                "{why}"
            );
        }
    }

    #[test]
    fn stepper_lines_say_pattern_and_mode_apart() {
        let t = miniagent();
        let e = engines::build(EngineId::FirstMatch, &t)
            .evaluate(&permlab_core::Call::new("bash", "ls"));
        let zh = Lang::Zh.step(&t, &e.steps[7]);
        assert!(zh.contains("匹配串 ✓") && !zh.contains("模式"), "{zh}");
        let blind = Lang::Zh.step_unseen(&t, 7, None);
        assert!(
            blind.starts_with("#8 bash *") && !blind.contains('✓'),
            "{blind}"
        );
        assert!(Lang::En
            .step_end_waits(EngineId::OpenCode)
            .contains("OpenCode"));
    }

    #[test]
    fn pins_in_both_languages() {
        assert_eq!(
            Lang::Zh.pin(EngineId::ClaudeCode).as_deref(),
            Some("对照 Claude Code 2.1.332(2026-12-01 实测)")
        );
        assert_eq!(
            Lang::En.pin(EngineId::ClaudeCode).as_deref(),
            Some("as Claude Code 2.1.332 (recorded 2026-12-01)")
        );
        assert_eq!(
            Lang::Zh.pin(EngineId::Codex).as_deref(),
            Some("对照 Codex 0.171.0")
        );
        assert_eq!(Lang::En.pin(EngineId::FirstMatch), None);
    }

    #[test]
    fn announcement_in_both_languages() {
        let t = miniagent();
        let r = &t.rules()[7];
        assert_eq!(
            Lang::En.moved(r, 8, 10, 10),
            "rule #8 “bash * deny” moved to position 10 of 10"
        );
        assert_eq!(
            Lang::Zh.moved(r, 8, 10, 10),
            "规则 #8「bash * 拒绝」已移到第 10 位(共 10 位)"
        );
    }

    #[test]
    fn step_lines_come_from_the_engine_steps() {
        let t = miniagent();
        let call = permlab_core::Call::new("bash", "python -m unittest -v test_dateparse.py");
        let e = engines::build(EngineId::FirstMatch, &t).evaluate(&call);
        let last = e.steps.last().unwrap();
        assert_eq!(
            Lang::En.step(&t, last),
            "#8 bash * — tool ✓ pattern ✓ → deny, stop"
        );
        assert_eq!(Lang::En.step_of(3, 8), "Step 3 of 8");
        // One name per rule: after #8 moves to the end it is still #8, at row 10.
        let mut moved = t.clone();
        moved.move_rule(7, 9);
        // #8 `bash *` deny is now the last bash row: OpenCode hides the tool; the walk looks at
        // the tool column only.
        let e = engines::build(EngineId::OpenCode, &moved).evaluate(&call);
        assert_eq!(e.decision, Decision::Unavailable);
        assert_eq!(
            Lang::Zh.step(&moved, &e.steps[0]),
            "#8 bash *(第 10 行) — 工具 ✓ 匹配串 (不看) → 拒绝,停"
        );
        let e = engines::build(EngineId::FirstMatch, &moved).evaluate(&call);
        assert_eq!(
            Lang::En.reason(&moved, EngineId::FirstMatch, &e.reason),
            "the first match from the top is #9 bash python -m unittest* allow (row 8)"
        );
    }

    #[test]
    fn a_reason_names_the_permission_mode_that_decided() {
        use permlab_core::claude_code::table::lesson_context;
        use permlab_core::claude_code::{ClaudeCodeEngine, Mode};
        use permlab_core::Engine;
        let t = RuleTable::new([("bash", "git push *", Action::Ask)]);
        let dont_ask = ClaudeCodeEngine::with(&t, Mode::DontAsk, lesson_context());
        let e = dont_ask.evaluate(&permlab_core::Call::new("bash", "git push origin"));
        assert_eq!(e.decision, Decision::Deny);
        let zh = Lang::Zh.explain(&t, &e);
        assert!(zh.contains("dontAsk 权限模式下没人可问,所以拒绝"), "{zh}");
        let en = Lang::En.explain(&t, &e);
        assert!(
            en.contains("in the dontAsk permission mode nobody is asked"),
            "{en}"
        );
        // Nothing approves `ls -la` and no rule matches: the mode's own fallback, named.
        let accept = ClaudeCodeEngine::with(&t, Mode::AcceptEdits, lesson_context());
        let e = accept.evaluate(&permlab_core::Call::new("bash", "npm install x"));
        let zh = Lang::Zh.explain(&t, &e);
        assert!(zh.contains("acceptEdits 权限模式的兜底:问人"), "{zh}");
        let e = dont_ask.evaluate(&permlab_core::Call::new("bash", "npm install x"));
        assert!(Lang::En
            .explain(&t, &e)
            .contains("the dontAsk permission mode's fallback"));
    }

    #[test]
    fn reasons_render_in_both_languages() {
        let t = miniagent();
        let call = permlab_core::Call::new("bash", "python -m unittest -v test_dateparse.py");
        for id in EngineId::ALL {
            let e = engines::build(id, &t).evaluate(&call);
            for lang in [Lang::Zh, Lang::En] {
                let text = lang.reason(&t, id, &e.reason);
                assert!(!text.is_empty(), "{id}");
            }
        }
        let e = engines::build(EngineId::ClaudeCode, &t).evaluate(&call);
        assert!(Lang::En
            .reason(&t, EngineId::ClaudeCode, &e.reason)
            .contains("#8 bash *"));
    }

    #[test]
    fn log_entries_name_flips_and_non_flips() {
        let mut lab = crate::state::Lab::new(
            crate::presets::Preset::Git.table(),
            permlab_core::Call::new("bash", "git push origin main"),
        );
        let shown = crate::presets::Preset::Git.engines(false);
        let judge = |t: &RuleTable, c: &permlab_core::Call| {
            crate::model::Verdicts::default().judge(&shown, None, t, c)
        };
        // Before anything is revealed, the log says who changed, not to what.
        lab.reverse(&judge);
        assert_eq!(
            Lang::Zh.log_entry(lab.table(), &lab.log()[0]),
            "整表倒序 — first-match 改判了(先猜再揭示);OpenCode 改判了(先猜再揭示);Claude Code 不变;CoreCoder 不读规则"
        );
        lab.reverse(&judge);
        for e in [
            EngineId::FirstMatch,
            EngineId::OpenCode,
            EngineId::ClaudeCode,
        ] {
            lab.set_guess(e, crate::state::Guess::Skip);
            lab.reveal(e);
        }
        lab.reverse(&judge);
        let text = Lang::Zh.log_entry(lab.table(), &lab.log()[2]);
        assert_eq!(
            text,
            "整表倒序 — first-match: 拒绝 → 放行;OpenCode: 放行 → 拒绝;Claude Code 不变;CoreCoder 不读规则"
        );
        let en = Lang::En.log_entry(lab.table(), &lab.log()[2]);
        assert!(
            en.ends_with("Claude Code unchanged; CoreCoder ignores rules"),
            "{en}"
        );
    }

    #[test]
    fn tags() {
        assert_eq!(Lang::from_tag("en-GB"), Lang::En);
        assert_eq!(Lang::from_tag("zh-CN"), Lang::Zh);
        assert_eq!(Lang::from_tag(""), Lang::Zh);
        assert_eq!(Lang::Zh.s(S::Log), "重排记录");
        assert_eq!(one_line("a\nb\tc"), "a⏎b⇥c");
    }
}

/// One self-check line, worded ([`Lang::check_line`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckLine {
    /// `Claude Code CLI 2.1.332 · CLI 实测录制`.
    pub label: String,
    /// Cases that agree.
    pub passed: usize,
    /// Cases.
    pub total: usize,
    /// What they agree with (`与实测一致`).
    pub agree: &'static str,
    /// How many cases the docs and the CLI answer differently, when any.
    pub drift: Option<String>,
}
