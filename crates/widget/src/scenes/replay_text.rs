//! The `replay` scene's words, zh and en side by side.

texts! {
    Title => "回放一次运行:每个求值器、每种模式各会怎么判", "Replay a run: what every engine and mode would decide";
    Intro => "把一次运行的工具调用贴进来,页面把每一次调用交给每个求值器的每种模式现算,数出放行 / 问人 / 拒绝 / 工具不可用各有多少,并列出求值器意见不一致的调用。", "Paste a run's tool calls: every call goes through every engine in every mode, the page counts allow / ask / deny / tool unavailable, and lists the calls where the engines disagree.";
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
    Lanes => "每个求值器、每种模式的裁决分布", "Decisions per engine and mode";
    ColEngine => "求值器", "Engine";
    ColMode => "模式", "Mode";
    Primary => "默认模式(参与下面的比较)", "default mode (compared below)";
    Disagree => "求值器意见不一致的调用", "Calls where the engines disagree";
    DisagreeCount => "{d} / {n} 次调用上,默认模式的求值器给出不同裁决:", "On {d} of {n} calls the engines in their default mode disagree:";
    NoDisagree => "所有调用上,默认模式的求值器意见一致。", "The engines in their default mode agree on every call.";
    More => "……还有 {n} 次没有列出", "… and {n} more not listed";
    Empty => "还没有可回放的调用:贴一段 trace,或点「载入示例 trace」。", "Nothing to replay yet: paste a trace or load the sample.";
    Row => "规则", "rule";
}
