//! The `comparison` scene's words: seed 002's table headings, each cell's claim in English (the
//! zh claim is the seed's own, verbatim, from the core) and what the pinned code does, zh and
//! en side by side. The arrays follow [`permlab_core::comparison::cells`]'s order: row by row,
//! OpenCode · Claude Code · Codex in each row.

use permlab_core::comparison::Dimension;

use crate::text::i18n::Lang;

texts! {
    Title => "三产品权限模型对比,逐格对照源码", "The three products' permission models, checked cell by cell against the code";
    Intro => "课程最后的对比表把 OpenCode 叫「规则式」、Claude Code 叫「白名单式」、Codex 叫「沙箱式」。这里把表里 21 个单元格逐个拿去对照 pin 住的源码:课程的说法、代码实际的做法,以及能在这里直接运行的例子——点「运行」,由移植的求值器现算。", "The lesson's closing table calls OpenCode \"rule-based\", Claude Code \"whitelist-based\" and Codex \"sandbox-based\". Here each of its 21 cells is checked against the pinned source: the lesson's claim, what the code does, and cases you can run right here — press \"Run\" and the ported engine computes it.";
    Tally => "{n} 个单元格里 {w} 个与代码不符,{p} 个部分成立。", "Of the {n} cells, {w} contradict the code and {p} hold only in part.";
    Overview => "课程的表,每格标上对照结果", "The lesson's table, each cell marked";
    ColDimension => "维度", "Dimension";
    Holds => "成立", "holds";
    Partly => "部分成立", "partly";
    Wrong => "与代码不符", "contradicted by the code";
    NotChecked => "这里没法验证", "not checkable here";
    SeedSays => "课程说:", "The lesson says:";
    CodeDoes => "代码实际:", "What the code does:";
    Source => "依据:", "Basis:";
    NoRules => "(没有规则)", "(no rules)";
    Mode => "权限模式", "mode";
    Call => "调用", "call";
    Command => "命令:", "Command:";
    Run => "运行这个例子", "Run this case";
    Engine => "求值器给出:", "The engine says:";
    AsSaid => "(与上面「代码实际」说的一致)", "(as \"what the code does\" says)";
    NotAsSaid => "(与上面说的不一致)", "(not what it says above)";
    Progress => "已运行 {k} / {n} 个例子", "{k} of {n} cases run";
    Drift => "文档与实测不一致:", "The docs and the real CLI disagree:";
    BasisClaude => "Claude Code CLI 2.1.332 实测录制;文档说法不同的地方并列给出", "Claude Code CLI 2.1.332, recorded; where the docs say otherwise, both are shown";
    BasisClaudeDocs => "Claude Code 官方文档(2026-10-08);这里没有移植,无法现算", "Claude Code's documentation (2026-10-08); not ported, nothing to compute";
    BasisOpenCode => "OpenCode v1.18.32 的源码,移植后现算", "OpenCode v1.18.32's source, ported and computed here";
    BasisCodex => "Codex 0.171.0 的源码与实测,移植后现算", "Codex 0.171.0's source and recordings, ported and computed here";
    BasisNone => "这里没有移植,无法现算", "not ported, nothing to compute";
}

/// A row heading: the seed's in zh, translated in en.
pub fn dimension(lang: Lang, d: Dimension) -> &'static str {
    match lang {
        Lang::Zh => d.zh(),
        Lang::En => match d {
            Dimension::CoreIdea => "Core idea",
            Dimension::Granularity => "Granularity",
            Dimension::PerAgent => "Per-agent differences",
            Dimension::DenyOverride => "DENY cannot be overridden",
            Dimension::UserMemory => "User memory",
            Dimension::SafetyBoundary => "Safety boundary",
            Dimension::Philosophy => "Philosophy",
        },
    }
}

/// Each cell's claim in English (the seed's words translated).
pub const CLAIM_EN: [&str; 21] = [
    "rule matching (last match wins)",
    "a whitelist (allowedTools)",
    "sandbox isolation (Docker / firewall)",
    "action + resource glob",
    "tool-name level",
    "environment level",
    "build / plan / explore each have a ruleset",
    "no difference between agents",
    "not applicable (one sandbox for all)",
    "a configured DENY comes first",
    "not on the whitelist means deny",
    "network / file-system isolation",
    "SQLite per-project \"Always Allow\"",
    "~/.claude/settings allowedTools",
    "not needed (the sandbox catches it)",
    "rule completeness depends on the config",
    "a whitelist: simple but coarse",
    "container isolation: strongest but inflexible",
    "ASK by default, fine-grained control",
    "DENY by default, allow explicitly",
    "ALLOW by default, the environment catches it",
];

/// What the pinned code does, per cell: (zh, en).
const CODE: [(&str, &str); 21] = [
    (
        "规则和批准是同一张列表;findLast 取最后一条命中的。",
        "Rules and approvals form one list; findLast picks the last match.",
    ),
    (
        "有 allow / ask / deny 三张列表,按 deny → ask → allow 检查;都没命中的交给权限模式。",
        "allow / ask / deny lists, checked deny → ask → allow; what none matches goes to the permission mode.",
    ),
    (
        "用的是操作系统沙箱(Seatbelt、Landlock / bubblewrap),不是 Docker;外加 execpolicy 的前缀规则和审批策略。",
        "An OS sandbox (Seatbelt, Landlock/bubblewrap), not Docker, plus execpolicy prefix rules and an approval policy.",
    ),
    (
        "permission + pattern,两者都是 Wildcard.match 通配(* 还会跨过 / 和换行)。",
        "permission + pattern, both Wildcard.match globs (* also crosses / and newlines).",
    ),
    (
        "规则可以细到工具名以下:Bash(npm test *)、Read(./.env)、WebFetch(domain:…)。",
        "Rules take specifiers below the tool name: Bash(npm test *), Read(./.env), WebFetch(domain:…).",
    ),
    (
        "沙箱按会话设定(sandbox_mode),但 execpolicy 规则按每条命令的 argv 前缀匹配。",
        "The sandbox is per session (sandbox_mode), but execpolicy rules match argv prefixes per command.",
    ),
    (
        "每个内置 agent 在默认规则后追加自己的规则(plan:edit * 拒绝,plan 文件除外;explore:* 拒绝,再放行只读工具)。",
        "Each built-in agent appends its own rules to the defaults (plan: edit * deny except plan files; explore: * deny then read-only tools).",
    ),
    (
        "子 agent 继承会话的规则和权限模式(「权限规则与审批模式」一课:子 Agent 默认继承父会话的模式);子 agent 文件可以收窄它的工具。这里没有移植。",
        "Subagents inherit the session's rules and mode (the lesson “Permission rules and approval modes”: a subagent inherits the parent session's mode by default); a subagent file may narrow its tools. Not ported.",
    ),
    (
        "每个会话一个 sandbox_mode 和 approval_policy(配置 profile 可以同时切换两者)。这里没有移植。",
        "One sandbox_mode and approval_policy per session (config profiles switch both). Not ported.",
    ),
    (
        "经典运行时(TUI、opencode run、web 都走它)把保存的规则排在配置规则后面,在同一个 findLast 列表里,所以保存的 allow 胜过配置的 deny——课程自己那五条规则:rm -rf /tmp/cache 先因 /tmp 在项目外问人(* * ask),再由 #4 放行,配置的 deny 不起作用。只有同时附带的新运行时 v2(只有 POST /api/session/:id/prompt 走它)先单独查配置的规则,任何 deny 都赢:课程描述的是它。",
        "The classic runtime (the TUI, opencode run, the web app) puts saved rules after configured ones in the same findLast list, so a saved allow beats a configured deny — the lesson's own five rules: rm -rf /tmp/cache first asks because /tmp is outside the project (* * ask), then #4 allows it; the configured deny plays no part. Only the v2 runtime shipped alongside (reached by POST /api/session/:id/prompt alone) checks the configured rules alone first, where any deny wins: the lesson describes that one.",
    ),
    (
        "没被允许的交给权限模式:default 权限模式问人;只有 dontAsk 才变成拒绝。任何一条 deny 都不能被 allow 推翻。",
        "Not allowed → the mode decides: default asks; only dontAsk turns it into a deny. A deny anywhere cannot be overridden by any allow.",
    ),
    (
        "沙箱挡住联网和写工作区外,但明确的 allow 规则或批准过的出沙箱请求会让命令在沙箱外运行;forbidden 规则永远推翻不了。",
        "The sandbox blocks the network and writes outside the workspace, but an explicit allow rule or an approved escalation runs the command outside it; a forbidden rule is never overridden.",
    ),
    (
        "「Always」把 <arity 前缀> * 的 allow 规则追加到项目各会话共享的内存列表;在 v1.18.32 它不从数据库读,也不写进数据库。",
        "\"Always\" appends <arity prefix> * allow rules to an in-memory list shared by the project's sessions; at v1.18.32 it is not loaded from or saved to the database.",
    ),
    (
        "「Don't ask again」把一条 permissions.allow 规则写进项目的 .claude/settings.local.json;allowedTools 是 SDK / CLI 的参数。这里没有移植。",
        "\"Don't ask again\" writes a permissions.allow rule to the project's .claude/settings.local.json; allowedTools is the SDK/CLI flag. Not ported.",
    ),
    (
        "批准会被记住:「本会话都批准」会缓存;批准的修订会往 ~/.codex/rules/default.rules 追加一条 allow prefix_rule,之后这条命令直接放行(而且在沙箱外运行)。",
        "Approvals are remembered: \"approve for session\" caches them, and an approved amendment appends an allow prefix_rule to ~/.codex/rules/default.rules, which then allows the command (and runs it outside the sandbox).",
    ),
    (
        "没有规则命中时每次都问人;裁决的好坏只取决于列表和它的顺序。",
        "Without a matching rule every call asks; the verdict is only as good as the list and its order.",
    ),
    (
        "不只是白名单,也不粗:有 deny 和 ask 列表,还能写到命令参数。规则看的是命令的词:CLI 2.1.332 先去掉路径,所以 Bash(curl *) 拦得住 /usr/bin/curl(文档说拦不住);可藏在参数里的命令(sh -c 'curl …')绕得过,只会问人,所以边界是沙箱。",
        "Not only a whitelist, and not coarse: deny and ask lists with command specifiers. Rules see the command's words: CLI 2.1.332 drops the path, so Bash(curl *) stops /usr/bin/curl (the docs say it does not), but a command hidden in an argument (sh -c 'curl …') gets past and only asks, so the sandbox is the boundary.",
    ),
    (
        "是操作系统沙箱,不是容器,而且灵活:三种沙箱模式、五种审批策略,前缀规则还能把命令提到沙箱外。",
        "An OS sandbox, not a container, and flexible: three sandbox modes, five approval policies, prefix rules that can lift a command out of the sandbox.",
    ),
    (
        "没有规则命中 → 问人(补上的一条 * * ask)。",
        "No match → ask (a synthesized * * ask).",
    ),
    (
        "default 权限模式对没有规则放行的调用问人;只有 dontAsk 权限模式默认拒绝。",
        "The default mode asks for what no rule allows; deny is the default only in dontAsk.",
    ),
    (
        "on-request 下,没有规则命中的普通命令在沙箱里直接运行,但危险命令要问人,untrusted 对不是已知安全的都问人,Granular 的 false 直接拒绝。",
        "Under on-request an ordinary unmatched command runs in the sandbox without asking, but a dangerous one asks, untrusted asks for anything not known-safe, and Granular false rejects.",
    ),
];

/// What the code does in cell `i`, in `lang`.
pub fn code(lang: Lang, i: usize) -> &'static str {
    let (zh, en) = CODE[i];
    if lang == Lang::Zh {
        zh
    } else {
        en
    }
}

/// Where a cell's "what the code does" comes from, in the learner's words.
pub fn basis(
    lang: Lang,
    product: permlab_core::comparison::Product,
    computed: bool,
) -> &'static str {
    use permlab_core::comparison::Product;
    match (product, computed) {
        (Product::ClaudeCode, true) => T::BasisClaude,
        (Product::ClaudeCode, false) => T::BasisClaudeDocs,
        (Product::OpenCode, true) => T::BasisOpenCode,
        (Product::Codex, true) => T::BasisCodex,
        (_, false) => T::BasisNone,
    }
    .get(lang)
}
