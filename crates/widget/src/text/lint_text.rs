//! The import panel's lint findings, worded in the widget's language.
//!
//! The core's linter (`permlab_core::lint`, run by the worker, see
//! [`crate::worker::lint`]) returns structured findings: a kind, the rules involved, the
//! demonstrating call with the harness's verdict, and the parts of its sentences
//! (`permlab_core::lint::Facts`). Its own `message`/`fix` are English for the CLI; here each
//! kind gets its zh and en sentences, so the panel speaks the learner's language. Like the
//! rest of [`crate::text::i18n`], these are plain functions, tested natively.
//!
//! Guess, then reveal: the message says what the trap is without the demonstrating call's
//! verdict; the verdict and the fix are in [`Worded::answer`] / [`Worded::fix`], which the
//! panel keeps folded until the learner opens them.

use permlab_core::import::Format;
use permlab_core::lint::Kind;
use permlab_core::{Action, Decision};

use crate::protocol::{LintFinding, LintSkipped, TooComplex};
use crate::text::i18n::Lang;

/// One finding's sentences.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Worded {
    /// What the trap is (no verdict of the demonstrating call in it).
    pub message: String,
    /// What to write instead.
    pub fix: String,
    /// What the harness's engine answers for the demonstrating call.
    pub answer: String,
}

/// The headline over the list: `你的配置里有 3 处问题` / `Your config has 3 problems` (the
/// core's wording, so the CLI's `--json` consumers and the panel agree).
pub fn headline(lang: Lang, n: usize) -> String {
    permlab_core::lint::headline(n, lang == Lang::Zh)
}

/// A verdict as the widget words verdicts (`放行` / `allow`).
pub fn verdict(lang: Lang, d: Decision) -> String {
    lang.decision(d).to_string()
}

/// A harness's name (`Claude Code`, `OpenCode`, `Codex`).
pub fn harness(lang: Lang, f: Format) -> String {
    lang.engine(f.engine()).to_string()
}

/// `` `a`、`b` `` / `` `a`, `b` ``.
fn list(lang: Lang, items: &[String]) -> String {
    let sep = if lang == Lang::Zh { "、" } else { ", " };
    items
        .iter()
        .map(|t| format!("`{t}`"))
        .collect::<Vec<_>>()
        .join(sep)
}

/// The finding `f`'s sentences in `lang`.
///
/// ```
/// use permlab_core::import::Format;
/// use permlab_widget::{text::i18n::Lang, text::lint_text::word, worker::lint};
/// let f = &lint(Format::OpenCode, r#"{"permission": {"bash": {"yarn": "deny"}}}"#).unwrap().findings[0];
/// let zh = word(Lang::Zh, f);
/// assert!(zh.message.contains("只命中一字不差的命令 `yarn`"), "{}", zh.message);
/// assert_eq!(zh.answer, "OpenCode 对 `bash: yarn test` 的裁决:问人");
/// let en = word(Lang::En, f);
/// assert!(en.fix.contains(r#"`"yarn *": "deny"`"#), "{}", en.fix);
/// ```
pub fn word(lang: Lang, f: &LintFinding) -> Worded {
    let zh = lang == Lang::Zh;
    let r = |i: usize| f.rules.get(i).map(|r| r.text.as_str()).unwrap_or("");
    let action = |i: usize| f.rules.get(i).map(|r| r.action);
    let a = |i: usize| action(i).map_or("", Action::as_str);
    let w = |i: usize| f.write.get(i).map(String::as_str).unwrap_or("");
    let others: Vec<String> = f.rules.iter().skip(1).map(|r| r.text.clone()).collect();
    let call = f.native.as_str();
    let part = f.part.as_deref().unwrap_or("");
    let other = || f.other.map(|d| verdict(lang, d)).unwrap_or_default();
    let from = || f.from.map(|h| harness(lang, h)).unwrap_or_default();
    let (message, fix) = match (f.kind, f.harness) {
        (Kind::DeadRule, Format::OpenCode) => {
            let same = f.rules.iter().skip(1).all(|x| Some(x.action) == action(0));
            let covers = list(lang, &others);
            match (same, zh) {
                (true, true) => (
                    format!("`{}` 永远不起作用:后面的 {covers} 命中它命中的每一个调用,动作也一样(OpenCode 以最后一条命中的规则为准),所以它是多余的。", r(0)),
                    "删掉它。".to_string(),
                ),
                (true, false) => (
                    format!("`{}` never decides: the later {covers} match every call it matches, with the same action (OpenCode: the last match wins), so it is redundant.", r(0)),
                    "Delete it.".to_string(),
                ),
                (false, true) => (
                    format!("`{}` 永远轮不到:后面的 {covers} 命中它命中的每一个调用(OpenCode 以最后一条命中的规则为准),它写的 {} 从来不是答案。", r(0), a(0)),
                    format!("把 `{}` 挪到 {covers} 后面(`\"*\"` 这样的宽规则写在最前),或删掉它。", r(0)),
                ),
                (false, false) => (
                    format!("`{}` never applies: the later {covers} match every call it matches (OpenCode: the last match wins), so its {} is never the answer.", r(0), a(0)),
                    format!("Move `{}` after {covers} (broad rules such as `\"*\"` go first), or delete it.", r(0)),
                ),
            }
        }
        (Kind::DeadRule, Format::ClaudeCode) => {
            let hole = action(0) == Some(Action::Allow) && action(1) == Some(Action::Deny);
            if zh {
                (
                    format!("`{}` 永远不起作用:`{}` 命中它命中的每一个调用,而 Claude Code 不论顺序、不论哪个文件,总是先看 deny,再看 ask,最后才看 allow。", r(0), r(1)),
                    if hole {
                        format!("allow 没法在 deny 上开口子:把 `{}` 收窄到不再覆盖 `{}`,或删掉这条 allow。", r(1), r(0))
                    } else {
                        format!("删掉 `{}`,或收窄 `{}`。", r(0), r(1))
                    },
                )
            } else {
                (
                    format!("`{}` never decides: `{}` matches every call it matches, and Claude Code checks deny, then ask, then allow, whatever the order or the file.", r(0), r(1)),
                    if hole {
                        format!("An allow cannot open a hole in a deny: narrow `{}` so that it no longer covers `{}`, or delete the allow.", r(1), r(0))
                    } else {
                        format!("Delete `{}`, or narrow `{}`.", r(0), r(1))
                    },
                )
            }
        }
        (Kind::DeadRule, _) => {
            let same = action(0) == action(1);
            match (same, zh) {
                (true, true) => (
                    format!("`{}` 从不改变结果:`{}` 命中它命中的每一条命令,决定也一样(Codex 取所有命中里最严格的)。", r(0), r(1)),
                    "删掉它(它只是重复另一条)。".to_string(),
                ),
                (true, false) => (
                    format!("`{}` never changes a decision: `{}` matches every command it matches with the same decision (Codex takes the strictest match).", r(0), r(1)),
                    "Delete it (it only repeats the other rule).".to_string(),
                ),
                (false, true) => (
                    format!("`{}` 永远不起作用:`{}` 命中它命中的每一条命令,而且更严格({} 压过 {};Codex 取所有命中里最严格的)。", r(0), r(1), a(1), a(0)),
                    format!("例外放不宽更严格的前缀:收窄 `{}`(写更长的匹配串),或删掉这一条。", r(1)),
                ),
                (false, false) => (
                    format!("`{}` never decides: `{}` matches every command it matches and is stricter ({} beats {}; Codex takes the strictest match).", r(0), r(1), a(1), a(0)),
                    format!("An exception cannot loosen a stricter prefix: narrow `{}` (a longer pattern) or delete this rule.", r(1)),
                ),
            }
        }
        (Kind::OrderFragile, _) => {
            let then = other();
            if zh {
                (
                    format!("`{}` 和 `{}` 有重叠,谁也不完全覆盖谁,所以顺序说了算:把两条对调,`{call}` 的裁决就会变成「{then}」。", r(1), r(0)),
                    format!("想清楚重叠处该听谁的,在两条之后为重叠处单独加一条规则(例如 `{}`),这样挪动其中一条也不会再翻转。", w(0)),
                )
            } else {
                (
                    format!("`{}` and `{}` overlap and neither covers the other, so their order decides: with the two swapped, `{call}` would get {then}.", r(1), r(0)),
                    format!("Decide which should win where they overlap and add a rule for the overlap after both (e.g. `{}`), so that moving one no longer flips it.", w(0)),
                )
            }
        }
        (Kind::NoSpaceStar, _) => {
            if zh {
                (
                    format!("`{}` 只命中一字不差的命令 `{part}`(后面没有 ` *`):`{call}` 不在其中。", r(0)),
                    format!("写成 `{}`(`{part}` 和 `{part} …` 都命中)。", w(0)),
                )
            } else {
                (
                    format!("`{}` matches only the exact command `{part}` (no ` *`): `{call}` is not matched.", r(0)),
                    format!("Write `{}` (matches `{part}` and `{part} …`).", w(0)),
                )
            }
        }
        (Kind::StarCrossesSlash, _) => {
            if zh {
                (
                    format!("在 OpenCode 里 `*` 会跨过 `/`:`{}` 也放行 `{call}`,不论多深。", r(0)),
                    format!("如果只想放行一层,在它后面加 `{}`(OpenCode 没有只匹配一层目录的通配符)。", w(0)),
                )
            } else {
                (
                    format!("`*` crosses `/` in OpenCode: `{}` also allows `{call}`, at any depth.", r(0)),
                    format!("If one level is meant, add `{}` after it (OpenCode has no single-segment wildcard).", w(0)),
                )
            }
        }
        (Kind::Globstar, _) => {
            if zh {
                (
                    format!("在 OpenCode 里 `**` 只是两个 `*`,所以 `{}` 在那里必须有一个 `/`:`{call}` 不被命中。", r(0)),
                    format!("为顶层也加一条 `{}`。", w(0)),
                )
            } else {
                (
                    format!("`**` is just two `*` in OpenCode, so `{}` needs a `/` there: `{call}` is not matched.", r(0)),
                    format!("Add `{}` for the top level too.", w(0)),
                )
            }
        }
        (Kind::QuestionMark, _) => {
            if zh {
                (
                    format!("OpenCode 的 `?` 恰好匹配一个 UTF-16 码元(也匹配 `/`):`{call}`(一个 emoji 占两个码元)不被 `{}` 命中。", r(0)),
                    "任意字符处用 `*`;BMP 以外的字符用 `??`。".to_string(),
                )
            } else {
                (
                    format!("`?` matches exactly one UTF-16 code unit in OpenCode (and also `/`): `{call}` (an emoji is two units) is not matched by `{}`.", r(0)),
                    "Use `*` where any character may stand, or `??` for a character outside the BMP.".to_string(),
                )
            }
        }
        (Kind::ColonStar, _) => {
            if zh {
                (
                    format!("`:*` 只有写在 Bash 规则的最末尾才是通配符:在 `{}` 里冒号是字面字符,所以 `{call}` 不被命中。", r(0)),
                    format!("写成 `{}`。", w(0)),
                )
            } else {
                (
                    format!("`:*` is a wildcard only at the very end of a Bash rule: in `{}` the colon is literal, so `{call}` is not matched.", r(0)),
                    format!("Write `{}`.", w(0)),
                )
            }
        }
        (Kind::TrailingStar, _) => {
            if zh {
                (
                    format!("末尾的 ` *` 只有在它是规则里唯一的 `*` 时才可以什么都不匹配:`{}` 不命中 `{call}`。", r(0)),
                    format!("在旁边加一条 `{}`,管不带参数的写法。", w(0)),
                )
            } else {
                (
                    format!("A final ` *` may match nothing only when it is the rule's only `*`: `{}` does not match `{call}`.", r(0)),
                    format!("Add `{}` next to it for the form without arguments.", w(0)),
                )
            }
        }
        (Kind::BareDeny, _) => {
            let more = f.count.saturating_sub(others.len());
            let named = list(lang, &others);
            if zh {
                (
                    format!("不带匹配串的 `{}` 把这个工具从模型的上下文里整个拿掉,它的调用一个也发不出来,所以 {named}{} 永远用不上。", r(0), if more > 0 { format!(" 等另外 {more} 条") } else { String::new() }),
                    format!("把绝不能跑的东西一条条拒绝(`{}` 这样的规则),而不是拒绝整个工具;或删掉那些想放行其中一部分的规则。", w(0)),
                )
            } else {
                (
                    format!("The bare `{}` removes the tool from the model's context, so no call of it can be made and {named}{} can never apply.", r(0), if more > 0 { format!(" and {more} more") } else { String::new() }),
                    format!("Deny what must never run one pattern at a time (rules like `{}`) instead of the whole tool, or delete the rules that try to allow parts of it.", w(0)),
                )
            }
        }
        (Kind::PathAnchor, _) => {
            if zh {
                (
                    format!("`{}`:以单个 `/` 开头的路径相对于设置文件的来源(项目设置是项目根目录,用户设置是 `~/.claude/`),不是文件系统的根,所以 `{call}` 不被命中。", r(0)),
                    format!("写成 `{}`(`//` 才是文件系统的根)。", w(0)),
                )
            } else {
                (
                    format!("`{}`: a path starting with one `/` is relative to the settings source (the project root for project settings, `~/.claude/` for user settings), not the filesystem root, so `{call}` is not matched.", r(0)),
                    format!("Write `{}` (`//` is the filesystem root).", w(0)),
                )
            }
        }
        (Kind::OutsideCwd, _) => {
            if zh {
                (
                    format!("`{}` 相对于工作目录:工作目录之外的 `{call}` 不被命中。", r(0)),
                    format!("为家目录加 `{}`,或用 `{}` 管所有位置。", w(0), w(1)),
                )
            } else {
                (
                    format!("`{}` is relative to the working directory: `{call}`, outside it, is not matched.", r(0)),
                    format!("Add `{}` for the home directory, or `{}` for anywhere.", w(0), w(1)),
                )
            }
        }
        (Kind::WrapperBypass, _) => {
            let sandbox = f.sandbox.unwrap_or(permlab_core::lint::Sandboxing::Off);
            wrapper_bypass(zh, sandbox, r(0), w(0), call)
        }
        (Kind::FlagAfterPrefix, _) => {
            if zh {
                (
                    format!("Codex 按位置逐个比较词:`{part}` 只有紧跟在 `{}` 后面才会被抓到,所以 `{call}` 逃过了 `{}`。", w(0), r(0)),
                    format!("前缀规则没法在命令的任意位置找一个参数:给更短的前缀 `{}` 这个决定(写上 `justification`),或为你想到的每种参数顺序各加一条规则。", w(0)),
                )
            } else {
                (
                    format!("Codex compares tokens position by position: `{part}` is caught only right after `{}`, so `{call}` escapes `{}`.", w(0), r(0)),
                    format!("A prefix rule cannot find a flag anywhere in the command: give the shorter prefix `{}` this decision (with a `justification`), or add a rule for each argument order you mean.", w(0)),
                )
            }
        }
        (Kind::TokenWithSpace, _) => {
            if zh {
                (
                    format!("词 `{part}` 里有空格,但匹配串从不拆分:它只能等于一个内含空格的 argv 词,所以 `{call}` 不被命中。"),
                    format!("每个词单独写成一个词:`{}`。", w(0)),
                )
            } else {
                (
                    format!("The token `{part}` holds a space, but patterns are never split: it can only equal one argv token with that space inside, so `{call}` is not matched."),
                    format!("Write each word as its own token: `{}`.", w(0)),
                )
            }
        }
        (Kind::FailingExample, _) => match (f.negated, zh) {
            (true, true) => (
                format!("`not_match` 例子 `{call}` 其实命中了这条规则,所以 Codex 拒绝加载整个策略文件。"),
                "把匹配串写长一些,让例子不再以它开头,或去掉这个例子。".to_string(),
            ),
            (true, false) => (
                format!("The `not_match` example `{call}` does match this rule, so Codex refuses to load the whole policy."),
                "Lengthen the pattern so that the example no longer starts with it, or drop the example.".to_string(),
            ),
            (false, true) => (
                format!("`match` 例子 `{call}` 不命中这条规则的任何匹配串(前缀比较的是完整的词),所以 Codex 拒绝加载整个策略文件。"),
                "让例子恰好以匹配串的词开头,或改正匹配串。".to_string(),
            ),
            (false, false) => (
                format!("The `match` example `{call}` matches none of this rule's patterns (prefixes compare exact tokens), so Codex refuses to load the whole policy."),
                "Make the example start with the pattern's tokens exactly, or fix the pattern.".to_string(),
            ),
        },
        (Kind::Translation, to) => {
            // The panel lints without a target, so only a future caller sees it.
            let to = harness(lang, to);
            let from = from();
            let there = other();
            if zh {
                (
                    format!("搬到 {to} 之后,`{}` 的意思变了:`{call}` 在 {from} 里是「{there}」,在 {to} 里却不是。", r(0)),
                    format!("搬过去之后按 {to} 自己的写法重写这条规则(在那里检查 `{call}`),别逐行照抄。"),
                )
            } else {
                (
                    format!("Moved to {to}, `{}` changes meaning: `{call}` gets {there} in {from} but not in {to}.", r(0)),
                    format!("Write this rule in {to}'s own terms after moving (check `{call}` there), rather than copying it row for row."),
                )
            }
        }
    };
    let who = harness(lang, f.harness);
    let v = verdict(lang, f.verdict);
    let answer = if zh {
        format!("{who} 对 `{call}` 的裁决:{v}")
    } else {
        format!("{who}'s verdict on `{call}`: {v}")
    };
    Worded {
        message,
        fix,
        answer,
    }
}

/// What the live region says when a finding's call is loaded.
///
/// ```
/// use permlab_widget::{text::i18n::Lang, text::lint_text::loaded};
/// let c = permlab_core::Call::new("bash", "yarn test");
/// assert_eq!(loaded(Lang::En, &c), "Loaded bash: yarn test; the stepper shows why each engine answers as it does.");
/// ```
pub fn loaded(lang: Lang, call: &permlab_core::Call) -> String {
    if lang == Lang::Zh {
        format!(
            "已载入 {}: {},单步演示里可以看到每个求值器为什么这样裁决。",
            call.tool, call.input
        )
    } else {
        format!(
            "Loaded {}: {}; the stepper shows why each engine answers as it does.",
            call.tool, call.input
        )
    }
}

/// Why an OpenCode agent's finding has no "load this call" button: the table holds the
/// config's top-level rules only.
///
/// ```
/// use permlab_widget::{text::i18n::Lang, text::lint_text::agent_note};
/// assert!(agent_note(Lang::En, "explore").contains("`explore`"));
/// ```
pub fn agent_note(lang: Lang, agent: &str) -> String {
    if lang == Lang::Zh {
        format!("这条是 agent `{agent}` 自己的规则(OpenCode 把它接在顶层规则之后);表里只导入了顶层规则,所以这里不载入它的调用。")
    } else {
        format!("This is about agent `{agent}`'s own rules (OpenCode appends them to the top-level ones); the table holds the top-level rules only, so its call is not loaded here.")
    }
}

/// A pattern the linter did not check (its proofs would cost too much): where, and that
/// findings about rules with it may be missing. The pattern is cut at 60 characters.
///
/// ```
/// use permlab_widget::protocol::{LintSkipped, TooComplex};
/// use permlab_widget::{text::i18n::Lang, text::lint_text::not_checked};
/// let n = LintSkipped { line: 2, column: 19, pattern: "x* x* x*".into(), why: TooComplex::Pattern };
/// assert_eq!(not_checked(Lang::En, &n), "Line 2:19: not checked: pattern too complex (`x* x* x*`); findings about rules with it may be missing.");
/// assert!(not_checked(Lang::Zh, &n).starts_with("第 2 行第 19 列:没有检查,模式太复杂"));
/// ```
pub fn not_checked(lang: Lang, n: &LintSkipped) -> String {
    let mut shown: String = n.pattern.chars().take(60).collect();
    if shown.len() < n.pattern.len() {
        shown.push('…');
    }
    let (line, column) = (n.line, n.column);
    match (lang, n.why) {
        (Lang::Zh, TooComplex::Pattern) => format!(
            "第 {line} 行第 {column} 列:没有检查,模式太复杂(`{shown}`);和用到它的规则有关的问题可能没有列出。"
        ),
        (Lang::Zh, TooComplex::File) => format!(
            "第 {line} 行第 {column} 列:没有检查,这份文件的检查已用完预算(从 `{shown}` 起);和这些规则有关的问题可能没有列出。"
        ),
        (_, TooComplex::Pattern) => format!(
            "Line {line}:{column}: not checked: pattern too complex (`{shown}`); findings about rules with it may be missing."
        ),
        (_, TooComplex::File) => format!(
            "Line {line}:{column}: not checked: the file's checks used up the checker's budget (from `{shown}` on); findings about these rules may be missing."
        ),
    }
}

/// The "show more" button under a long list of findings: how many the click adds and how
/// many are not shown yet.
///
/// ```
/// use permlab_widget::{text::i18n::Lang, text::lint_text::show_more};
/// assert_eq!(show_more(Lang::En, 50, 19943), "Show 50 more (19943 not shown yet)");
/// assert_eq!(show_more(Lang::Zh, 7, 7), "再显示 7 条(还有 7 条未显示)");
/// ```
pub fn show_more(lang: Lang, next: usize, left: usize) -> String {
    if lang == Lang::Zh {
        format!("再显示 {next} 条(还有 {left} 条未显示)")
    } else {
        format!("Show {next} more ({left} not shown yet)")
    }
}

/// A deny rule a wrapper gets past: what happens, and advice that depends on the config's
/// sandbox (turn it on only when it is off) and is about this rule's command.
fn wrapper_bypass(
    zh: bool,
    sandbox: permlab_core::lint::Sandboxing,
    rule: &str,
    write: &str,
    call: &str,
) -> (String, String) {
    use permlab_core::lint::Sandboxing;
    if zh {
        let fix = match sandbox {
            Sandboxing::Off => format!("把这种写法也拒绝(`{write}`),或打开沙箱(`sandbox.enabled`):不管命令怎么写,它都限制每个进程能碰到的路径和域名。"),
            Sandboxing::On => format!("把这种写法也拒绝(`{write}`)。沙箱已经开着:`{call}` 被批准后在沙箱里运行,只能碰到沙箱允许的路径和域名。"),
            Sandboxing::OnAutoAllow => format!("把这种写法也拒绝(`{write}`)。沙箱开着并且自动放行沙箱内的命令:`{call}` 不问就会运行,只受沙箱允许的路径和域名限制。"),
        };
        (
            format!("`{rule}` 匹配的是写出来的命令文字,不是实际运行的程序:`{call}` 绕过了它;Claude Code 的文档也说 Bash 规则不是安全边界。"),
            fix,
        )
    } else {
        let fix = match sandbox {
            Sandboxing::Off => format!("Also deny this form (`{write}`), or turn on the sandbox (`sandbox.enabled`): whatever form the command takes, it bounds the paths and domains every process can reach."),
            Sandboxing::On => format!("Also deny this form (`{write}`). The sandbox is already on: once approved, `{call}` runs inside it, bounded by its paths and allowed domains."),
            Sandboxing::OnAutoAllow => format!("Also deny this form (`{write}`). The sandbox is on and auto-allows sandboxed commands: `{call}` runs without a prompt, bounded only by the sandbox's paths and allowed domains."),
        };
        (
            format!("`{rule}` matches the command text as written, not what runs: `{call}` gets past it; Claude Code's docs say Bash rules are not a security boundary."),
            fix,
        )
    }
}
