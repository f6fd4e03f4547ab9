//! The `replay` scene's words, zh and en side by side.

texts! {
    Title => "回放一次运行:每个求值器、每种权限模式各会怎么判", "Replay a run: what every engine and mode would decide";
    Intro => "把一次运行的工具调用贴进来,页面把每一次调用交给每个求值器的每种权限模式现算,数出放行 / 问人 / 拒绝 / 工具不可用各有多少,并列出求值器意见不一致的调用。", "Paste a run's tool calls: every call goes through every engine in every mode, the page counts allow / ask / deny / tool unavailable, and lists the calls where the engines disagree.";
    TraceLabel => "trace:每行一个 JSON。支持 {\"tool\", \"input\"}、Claude Code stream-json、Codex rollout", "Trace: one JSON value per line. Reads {\"tool\", \"input\"}, Claude Code stream-json and Codex rollouts";
    Sample => "载入示例 trace", "Load the sample trace";
    Clear => "清空", "Clear";
    RulesLabel => "规则表(JSON,fixtures 格式)", "Rule table (JSON, fixtures format)";
    RulesReset => "恢复 miniagent 的 rules-standard.json", "Back to miniagent's rules-standard.json";
    RulesError => "规则表读不了,下面仍按上一份能读的规则表计算:", "The rule table cannot be read; the figures below still use the last readable one:";
    Read => "读到 {n} 次工具调用", "{n} tool calls read";
    Skipped => "跳过 {n} 行其他内容", "{n} other lines skipped";
    Bad => "{n} 行读不了", "{n} lines unreadable";
    Rules => "规则 {n} 条", "{n} rules";
    BadTitle => "读不了的行(其余照常回放)", "Unreadable lines (the rest is replayed)";
    Line => "第 {n} 行", "line {n}";
    Headline => "{n} 次工具调用,在 CoreCoder 交互模式下有 {a} 次要停下来问({p}%)。", "Of {n} tool calls, {a} would stop to ask under CoreCoder's interactive mode ({p}%).";
    Lanes => "每个求值器、每种权限模式的裁决分布", "Decisions per engine and mode";
    ColEngine => "求值器", "Engine";
    ColMode => "权限模式", "Mode";
    Primary => "默认权限模式(参与下面的比较)", "default mode (compared below)";
    Disagree => "求值器意见不一致的调用", "Calls where the engines disagree";
    DisagreeCount => "{d} / {n} 次调用上,读这张表的三个求值器(first-match、OpenCode、Claude Code,默认权限模式)给出不同裁决:", "On {d} of {n} calls the three engines that read this table (first-match, OpenCode, Claude Code, default modes) disagree:";
    NoDisagree => "所有调用上,读这张表的三个求值器(first-match、OpenCode、Claude Code)意见一致。", "The three engines that read this table (first-match, OpenCode, Claude Code) agree on every call.";
    More => "……还有 {n} 次没有列出", "… and {n} more not listed";
    Empty => "还没有可回放的调用:贴一段 trace,或点「载入示例 trace」。", "Nothing to replay yet: paste a trace or load the sample.";
    Row => "规则", "rule";
    PiName => "Pi permission-gate", "Pi permission-gate";
    PiUi => "有界面(问 Yes / No)", "with a UI (asks Yes / No)";
    PiNoUi => "没有界面(print 模式)", "no UI (print mode)";
    Apart => "不按这张表判的,单独看", "Engines that do not judge by this table, apart";
    ApartCodex => "Codex 在 {n} 次调用里问了 {a} 次:execpolicy 只认按词前缀的规则,这张表 {m} 行里只有 {k} 行能翻译成 prefix_rule;没有规则命中的命令一律问人。", "Codex asks on {a} of {n} calls: execpolicy knows only word-prefix rules, and only {k} of this table's {m} rows translate into a prefix_rule; a command no rule matches asks.";
    ApartCoreCoder => "CoreCoder 不读规则:只读工具直接放行,其余都问人(交互模式下 {n} 次里问 {a} 次)。", "CoreCoder reads no rules: read-only tools run, everything else asks ({a} of {n} in interactive mode).";
    ApartPi => "Pi 的 permission-gate 只看 bash 命令的三条正则:{n} 次里命中 {c} 次(有界面时问人,没有界面时拦下),其余放行。", "Pi's permission-gate only checks bash commands against three regexes: {c} of {n} match (asked with a UI, blocked without one); the rest run.";
}
