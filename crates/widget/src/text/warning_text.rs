//! What an import says about the rules it read, in the widget's language: the
//! core's [`ImportWarning`]s carry their note as data ([`ImportNote`], Claude Code's
//! [`RuleWarning`] and settings [`Note`]), worded here. English is the core's own text (the
//! CLI's), so both languages say the same thing.

use permlab_core::claude_code::{NoRule, Note, RuleWarning};
use permlab_core::codex::NoPrefix;
use permlab_core::import::{ImportNote, ImportWarning};

use crate::presets::OpencodeFlag;
use crate::text::i18n::Lang;

impl Lang {
    /// One import warning: where, the rule, what happens, and whether the rule gave no row.
    pub fn import_warning(self, w: &ImportWarning) -> String {
        if self == Lang::En {
            return w.to_string();
        }
        let mut out = format!("{}:", w.at);
        if let Some(r) = &w.rule {
            out.push_str(&format!("`{r}`:"));
        }
        out.push_str(&import_note_zh(&w.note).unwrap_or_else(|| w.message.clone()));
        if w.dropped {
            out.push_str("(没有导入)");
        }
        out
    }
}

/// Why a table row changes (or has no rule) in a harness's own config, as the translations
/// panel says it next to the row.
pub enum Untranslated<'a> {
    /// Claude Code's `settings.json`.
    Claude(&'a NoRule),
    /// OpenCode's `opencode.json`.
    Opencode(&'a OpencodeFlag),
    /// A Codex `.rules` file.
    Codex(&'a NoPrefix),
}

impl Lang {
    /// A translation flag in this language (English: the core's own sentence).
    pub fn untranslated(self, u: Untranslated<'_>) -> String {
        if self == Lang::En {
            return match u {
                Untranslated::Claude(n) => n.to_string(),
                Untranslated::Codex(n) => n.to_string(),
                Untranslated::Opencode(f) => f.to_string(),
            };
        }
        match u {
            Untranslated::Claude(n) => match n {
                NoRule::Skipped { text, warning } => {
                    format!("`{text}` 会被 Claude Code 跳过:{}", rule_warning_zh(warning))
                }
                NoRule::TakesNoPattern(tool) => format!("设置文件里的 `{tool}` 规则不接受匹配串"),
                NoRule::NoTool(tool) => format!("Claude Code 没有对应 `{tool}` 的工具"),
                NoRule::NoConsultedPattern(cc) => {
                    format!("`{cc}` 规则没有 Claude Code 会查看的匹配串(改用 Read 路径规则)")
                }
                NoRule::WriteAsEdit => "`Write(…)` 规则从不被查看:所以写成 `Edit(…)`——Edit 规则管住所有内置编辑工具,Write 也在内".into(),
                _ => n.to_string(),
            },
            Untranslated::Opencode(OpencodeFlag::Regrouped(tool)) => format!(
                "通配权限 `{tool}` 被归到一个键下:它在其他工具的行之间的位置丢了"
            ),
            Untranslated::Opencode(OpencodeFlag::NotConsulted { tool, own: Some(own) }) => format!(
                "OpenCode 没有哪个工具按 `{tool}` 这个权限名来问,所以 OpenCode 从不查看这个键;它对这类工具用的名字是 `{own}`"
            ),
            Untranslated::Opencode(OpencodeFlag::NotConsulted { tool, own: None }) => format!(
                "OpenCode 没有哪个工具按 `{tool}` 这个权限名来问(它的工具问的是 read、edit、glob、grep、list、bash……),所以 OpenCode 从不查看这个键,除非某个 MCP 工具恰好叫这个名字"
            ),
            Untranslated::Opencode(OpencodeFlag::Repeated { tool, pattern }) => format!(
                "`{tool}` 的匹配串 `{pattern}` 重复了:一个对象键只存一个动作,所以这一行的动作会替换前面那一行的,位置还在前面"
            ),
            Untranslated::Codex(n) => match n {
                NoPrefix::NotShell(tool) => {
                    format!("execpolicy 只看 shell 命令;`{tool}` 调用根本到不了它")
                }
                NoPrefix::MatchesAll => "`*` 匹配所有命令,但 execpolicy 按字面的第一个词存规则:没有哪条前缀规则能匹配所有命令".into(),
                NoPrefix::Unsplittable(e) => format!("这个匹配串没法切成词(原文:{e})"),
                NoPrefix::NoTokens => "这个匹配串一个词也没有;前缀规则至少要一个词".into(),
                NoPrefix::StarBetweenWords => "词之间的 `*` 代表任意多个词,但 execpolicy 只比较固定位置上的词".into(),
                NoPrefix::GluedStar(w) => format!(
                    "结尾的 `*` 粘在 `{w}` 上,所以也会匹配 `{w}x`;execpolicy 只比较整个词"
                ),
                NoPrefix::WildcardInToken(t) => {
                    format!("`{t}` 的词里面有通配符;execpolicy 只比较整个词")
                }
                _ => n.to_string(),
            },
        }
    }
}

/// An import note in Chinese (`None`: only the core's English says what).
fn import_note_zh(n: &ImportNote) -> Option<String> {
    Some(match n {
        ImportNote::Settings(s) => settings_note_zh(s)?,
        ImportNote::ClaudeSkips(w) => format!("Claude Code 会跳过这条规则:{}", rule_warning_zh(w)),
        ImportNote::ClaudeWarns(w) => format!("Claude Code 启动时会警告:{}", rule_warning_zh(w)),
        ImportNote::ClaudeNoSameRow {
            reads_as: Some(t), ..
        } => format!("通用规则表里没有哪一行对 Claude Code 意思相同(变成一行后会读作 `{t}`)"),
        ImportNote::ClaudeNoSameRow { reads_as: None, .. } => {
            "通用规则表里没有哪一行对 Claude Code 意思相同(这条规则变不成表里的一行)".into()
        }
        ImportNote::ClaudeNoPermissions => "没有 `permissions` 对象:这个文件不添加任何规则".into(),
        ImportNote::OpencodeNoFrontMatterPermission { other } => {
            let also = other
                .as_ref()
                .map(|k| format!("(`{k}:` 不会被当作权限规则读取)"))
                .unwrap_or_default();
            format!("没有 `permission:` 键:这个 agent 不添加任何规则{also}")
        }
        ImportNote::OpencodeNoPermission => {
            "没有顶层的 `permission`:这份配置不添加任何规则".into()
        }
        ImportNote::OpencodeAgentRules(name) => {
            format!("agent `{name}` 自己的规则只对这个 agent 生效:请单独导入它的规则")
        }
        ImportNote::OpencodeDuplicateKey => {
            "重复的键:OpenCode 保留最后一个值(放在第一个键的位置)".into()
        }
        ImportNote::CodexCanonical => "canonical_matching=True:Codex 把每个词都做大小写折叠(`GIT Push` 也匹配),它的面板保留这种折叠;其他求值器按写法原样匹配这一行".into(),
        ImportNote::CodexTooManyAlternatives(max) => {
            format!("它的备选项展开后超过 {max} 行:请拆开这条规则")
        }
        ImportNote::CodexLiteralWildcard => "某个词里有 `*`、`?` 或 `[`:execpolicy 按字面比较,但表里的匹配串把它们当通配符读,其他求值器可能匹配得更多".into(),
        _ => return None,
    })
}

/// A Claude Code settings warning in Chinese.
fn settings_note_zh(n: &Note) -> Option<String> {
    Some(match n {
        Note::Rule(w) => rule_warning_zh(w),
        Note::WrongType { expected, found } => format!(
            "这里应当是{},实际是{}",
            crate::text::error_text::expected_zh(*expected),
            crate::text::error_text::found_zh(found)
        ),
        Note::UnknownMode(m) => format!(
            "未知的权限模式 \"{m}\":用 default、acceptEdits、plan、auto、dontAsk 或 bypassPermissions"
        ),
        Note::UntrustedDirectories => "工作区被信任之前不生效".into(),
        Note::ManagedOnlyOutsideManaged => "只在托管(managed)设置里生效".into(),
        Note::SandboxWithoutAutoAllow => "文档说开了沙箱,沙箱内的 Bash 命令默认自动放行;CLI 2.1.332 实测:要写明 `autoAllowBashIfSandboxed: true` 才自动放行,没写时照常问人,和没开沙箱一样".into(),
        Note::ExcludedFromSandbox => "这些命令在沙箱外执行,沙箱不会自动放行它们:由规则和权限模式决定(CLI 2.1.332 实测)".into(),
        Note::ModeNotFromProject(m) => format!(
            "\"{}\" 写在项目或本地设置里不生效:会话从 default 权限模式开始(CLI 2.1.332 实测);要用它,写进用户设置或用 --permission-mode",
            m.as_str()
        ),
        Note::NotModelled => "Claude Code 会读这些设置,但这里的判定不考虑它们".into(),
        _ => return None,
    })
}

/// Why Claude Code skips a rule, or what it warns about one it keeps, in Chinese.
pub fn rule_warning_zh(w: &RuleWarning) -> String {
    use RuleWarning::*;
    match w {
        Empty => "空规则".into(),
        NoCloseParen => "结尾缺少 `)`:写成 `工具(说明符)`".into(),
        CloseWithoutOpen => "有 `)` 却没有 `(`:写成 `工具(说明符)`".into(),
        NoToolName => "`(` 前面没有工具名".into(),
        DisplayLabel(n) => format!("`{n}` 是显示名,不是工具名:这条规则永远不会匹配"),
        BadChar(c) => format!("工具名里不能有 `{c}`"),
        McpWithParens => "设置文件里带括号的 MCP 规则会被跳过".into(),
        GlobWithSpecifier => "工具名通配符不接受说明符".into(),
        UnanchoredAllowGlob(g) => {
            format!("allow 通配符 `{g}` 没有以字面的 `mcp__<server>__` 开头:被跳过,它什么也不放行")
        }
        UnknownTool(n) => format!("未知的工具 `{n}`"),
        EmptyParens => "空的 `()` 按不带说明符的工具读".into(),
        PrimaryParam { param, tool, value } => {
            format!("写在工具主字段 `{param}` 上的参数规则会被忽略:写成 `{tool}({value})`")
        }
        ParamInAllow(p) => format!("参数规则(`{p}:…`)只在 deny 和 ask 列表里有效"),
        StarBeforeSubcommand => "子命令前的 `*` 也会匹配 `git -c …` 这样的选项;规则仍然生效".into(),
        BadPath(e) => format!("路径匹配串有误(原文:{e})"),
        NegationInAllow => "`!` 取反只能从 deny 和 ask 规则里挖掉一部分".into(),
        WebFetchDomain => "WebFetch 规则要写成 `domain:主机名`".into(),
        NeverConsulted { tool, instead } => {
            format!("`{tool}(…)` 规则会被接受但从不被查看:改用 `{instead}(…)`")
        }
        NoSpecifier(n) => format!("`{n}` 不接受说明符:直接写 `{n}`"),
        _ => w.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cjk(s: &str) -> bool {
        s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
    }

    /// Every warning an import of the corpus and of crafted configs gives is worded in
    /// Chinese on a zh widget (no English sentence), and as the core says it on an en one.
    #[test]
    fn every_import_warning_is_worded_in_both_languages() {
        let mut texts: Vec<(&str, String)> = vec![
            ("claude-code", r#"{"permissions": {"allow": ["", "Bash(ls", "ls)", "(x)", "Web Search", "Bash$", "mcp__x(y)", "mcp__*", "Bash(command:rm *)", "Bash(run_in_background:true)", "Read(!x)", "WebFetch(x)", "Glob(x)", "TodoWrite(x)", "Bash(git * push)", "Bash()", 3], "deny": ["Foo", "Nope(x)"], "defaultMode": "yolo", "additionalDirectories": 1}, "sandbox": {"enabled": "yes"}}"#.into()),
            ("claude-code", "{}".into()),
            ("opencode", "{}".into()),
            ("opencode", r#"{"permission": {"bash": {"ls": "allow", "ls": "deny"}}, "agent": {"build": {"permission": {"bash": "ask"}}}}"#.into()),
            ("opencode", "---\ntools:\n  bash: true\n---\nagent".into()),
            ("codex", "prefix_rule(pattern=[\"GIT\"], decision=\"allow\", canonical_matching=True)\nprefix_rule(pattern=[\"ls\", \"*.rs\"], decision=\"allow\")\n".into()),
        ];
        for dir in ["claude", "opencode", "codex"] {
            let root = format!(
                "{}/../../../shared/corpus/{dir}",
                env!("CARGO_MANIFEST_DIR")
            );
            let Ok(list) = std::fs::read_dir(&root) else {
                continue;
            };
            for f in list.flatten() {
                let format = match dir {
                    "claude" => "claude-code",
                    other => other,
                };
                if let Ok(t) = std::fs::read_to_string(f.path()) {
                    texts.push((format, t));
                }
            }
        }
        let mut seen = 0;
        for (format, text) in &texts {
            let Ok(i) = crate::model::import_config(format, text) else {
                continue;
            };
            for w in &i.warnings {
                seen += 1;
                let zh = Lang::Zh.import_warning(w);
                assert!(!matches!(w.note, ImportNote::Other), "{w}");
                assert!(cjk(&zh), "{zh}");
                // The words around the place and the rule as written (which may be English).
                let mut said = zh.replacen(&w.at, "", 1);
                if let Some(r) = &w.rule {
                    said = said.replace(r.as_str(), "");
                }
                for en in [
                    "rule",
                    "the ",
                    "expected",
                    "found",
                    "skips",
                    "warns",
                    "not imported",
                ] {
                    assert!(!said.contains(en), "{en:?} in {zh}");
                }
                assert_eq!(Lang::En.import_warning(w), w.to_string());
            }
        }
        assert!(seen >= 20, "{seen} warnings");
    }

    /// Every translation flag the panel can show is worded in Chinese on a zh widget, and in
    /// English exactly as the core (or the OpenCode writer) says it.
    #[test]
    fn every_translation_flag_is_worded_in_both_languages() {
        use permlab_core::{claude_code, codex, RuleTable};
        let table = RuleTable::from_json(
            r#"[{"tool": "mcp__x", "pattern": "y", "action": "deny"},
                {"tool": "teleport", "pattern": "*", "action": "deny"},
                {"tool": "grep", "pattern": "x", "action": "allow"},
                {"tool": "write_file", "pattern": "src/**", "action": "ask"},
                {"tool": "read_file", "pattern": "!x", "action": "allow"},
                {"tool": "bash", "pattern": "*", "action": "ask"},
                {"tool": "bash", "pattern": "git * push", "action": "ask"},
                {"tool": "bash", "pattern": "python -m unittest*", "action": "allow"},
                {"tool": "bash", "pattern": "ls a*b", "action": "allow"},
                {"tool": "bash", "pattern": "echo 'x", "action": "allow"},
                {"tool": "bash", "pattern": "ls", "action": "allow"},
                {"tool": "bash", "pattern": "ls", "action": "deny"},
                {"tool": "web*", "pattern": "*", "action": "ask"}]"#,
        )
        .unwrap();
        let cc = claude_code::translate(&table);
        let (_, cx) = codex::to_rules(&table);
        let (_, oc) = crate::presets::opencode_permission(&table);
        let mut all: Vec<(Untranslated<'_>, String)> = Vec::new();
        all.extend(
            cc.untranslatable
                .iter()
                .map(|u| (Untranslated::Claude(&u.why), u.reason.clone())),
        );
        all.extend(
            cc.notes
                .iter()
                .map(|(_, n)| (Untranslated::Claude(n), n.to_string())),
        );
        all.extend(
            cx.iter()
                .map(|u| (Untranslated::Codex(&u.why), u.reason.clone())),
        );
        all.extend(
            oc.iter()
                .map(|f| (Untranslated::Opencode(&f.why), f.reason.clone())),
        );
        let kinds: std::collections::BTreeSet<String> = all
            .iter()
            .map(|(u, _)| match u {
                Untranslated::Claude(n) => format!("cc {:?}", std::mem::discriminant(*n)),
                Untranslated::Codex(n) => format!("cx {:?}", std::mem::discriminant(*n)),
                Untranslated::Opencode(f) => format!("oc {:?}", std::mem::discriminant(*f)),
            })
            .collect();
        assert!(kinds.len() >= 11, "{kinds:?}");
        for (u, en) in all {
            let zh = Lang::Zh.untranslated(match &u {
                Untranslated::Claude(n) => Untranslated::Claude(n),
                Untranslated::Codex(n) => Untranslated::Codex(n),
                Untranslated::Opencode(f) => Untranslated::Opencode(f),
            });
            assert!(cjk(&zh), "{zh}");
            for w in ["the ", "rule", "never", "matches", "cannot", "would"] {
                assert!(!zh.contains(w), "{w:?} in {zh}");
            }
            assert_eq!(Lang::En.untranslated(u), en);
        }
    }
}
