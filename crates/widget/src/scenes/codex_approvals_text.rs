//! The `codex-approvals` scene's words (seed 001's Codex section, seed 000's misconception 3),
//! zh and en side by side.

texts! {
    Title => "Codex:先划沙箱,越界才审批", "Codex: draw the sandbox first, ask only at its edge";
    Intro => "Codex 先用 sandbox_mode 划出命令能碰到的范围,再用 approval_policy 决定越界时问不问人;execpolicy 的 prefix_rule 可以把某条命令放行、改成问人或禁止。选一种沙箱、一种审批策略,先猜下面每个调用会运行、问人还是被拒,再看 Codex 的实际做法。", "Codex first bounds what a command can reach with sandbox_mode, then approval_policy decides whether to ask at the edge; execpolicy's prefix_rule can allow a command, make it ask, or forbid it. Pick a sandbox and an approval policy, guess whether each call below runs, asks or is rejected, then see what Codex does.";
    Pin => "按 {pin} 的 codex-rs 源码移植(core 的 exec_policy.rs、tools/sandboxing.rs、tools/orchestrator.rs、tools/handlers/shell.rs,protocol.rs 的 GranularApprovalConfig),每个结果都由 permlab-core 现算。", "Ported from {pin}'s codex-rs source (core's exec_policy.rs, tools/sandboxing.rs, tools/orchestrator.rs, tools/handlers/shell.rs; protocol.rs's GranularApprovalConfig); every outcome is computed by permlab-core.";
    Config => "这个设置对应的 config.toml", "This setting as config.toml";
    GranularHint => "只有 sandbox_approval 和 rules 管 shell 命令;另外三类管的是别的工具,这里保留在配置里,不影响下面的结果。", "Only sandbox_approval and rules gate shell commands; the other three gate other tools: kept in the config, they change nothing below.";
    CatSkill => "skill_approval(技能脚本,这里不涉及)", "skill_approval (skill scripts, not involved here)";
    CatRequest => "request_permissions(这里不涉及)", "request_permissions (not involved here)";
    CatMcp => "mcp_elicitations(这里不涉及)", "mcp_elicitations (not involved here)";
    Misconception => "试课程的误解三:granular,sandbox_approval = false", "Try the lesson's misconception 3: granular, sandbox_approval = false";
    HowTo => "每一行先点你的猜测(运行 / 问人 / 拒绝),结果才会出现;换了设置,要重新猜。", "Click your guess on each row (run / ask / reject) to see the outcome; a new setting asks again.";
    Calls => "同一批调用,在这个设置下", "The same calls under this setting";
    ColCommand => "模型要执行的命令", "The command the model sends";
    ColFacts => "Codex 知道的事实", "What Codex knows about it";
    ColGuess => "你的猜测", "Your guess";
    ColOutcome => "Codex 的做法", "What Codex does";
    GuessFor => "猜:{c}", "Guess: {c}";
    GRun => "运行", "run";
    GAsk => "问人", "ask";
    GReject => "拒绝", "reject";
    Show => "不猜,直接看", "Just show me";
    ShowAll => "全部揭示", "Reveal all";
    GuessFirst => "先猜,再看结果", "Guess first, then see";
    Right => "✓ 猜对了", "✓ Right";
    Wrong => "✗ 猜错了(你猜的是{g})", "✗ Wrong (you guessed {g})";
    Progress => "这个设置下已揭示 {k} / {n} 个调用", "{k} of {n} calls revealed under this setting";
    Reason => "Codex 给模型的拒绝理由:", "The rejection reason Codex gives the model:";
    Surprise => "没有弹窗:Granular 里 {c} = false 的意思是「自动拒绝」,不是「遇到时问我」(课程的常见误解三)。源码注释原话:When it is false, those requests are automatically rejected instead of shown to the user.(protocol.rs)", "No prompt: in Granular, {c} = false means \"reject automatically\", not \"ask me when it comes up\" (the lesson's misconception 3). The source says: When it is false, those requests are automatically rejected instead of shown to the user. (protocol.rs)";
    OnRequestDiffers => "和课程的说法不同:课程写 on-request「越界(写工作区外、联网)才请示」。Codex 0.171.0 实际上让这条命令在沙箱里跑,被沙箱挡下就把失败交回模型,没有人被问;只有模型为命令申请出沙箱时(require_escalated,见 npm install 那一行),on-request 才弹窗问人。", "Not what the lesson says: it has on-request \"ask only at the edge (writing outside the workspace, the network)\". Codex 0.171.0 runs this command in the sandbox, and when the sandbox blocks it the failure goes back to the model; nobody is asked. on-request prompts only when the model asks to run a command outside the sandbox (require_escalated, see the npm install row).";
    EscalationNote => "shell 处理器只在 on-request 下接受「申请出沙箱」的请求,其余策略一律直接拒绝——Granular 也一样,即使 protocol.rs 说 sandbox_approval 管这类请求(以代码为准)。", "The shell handler accepts a request to leave the sandbox only under on-request; every other policy rejects it outright — Granular too, although protocol.rs says sandbox_approval covers such requests (the code wins).";
    FNoRule => "没有 prefix_rule 命中", "no prefix_rule matches";
    FRuleAllow => "prefix_rule 放行(allow)", "a prefix_rule allows it";
    FRulePrompt => "prefix_rule 要求问人(prompt)", "a prefix_rule says prompt";
    FRuleForbidden => "prefix_rule 禁止(forbidden)", "a prefix_rule forbids it";
    FSafe => "已知安全的只读命令", "a known-safe read-only command";
    FDangerous => "可能危险的命令", "a possibly dangerous command";
    FWrites => "在工作区里写文件", "writes inside the workspace";
    FWritesOutside => "写工作区外的文件", "writes outside the workspace";
    FNetwork => "要联网", "needs the network";
    FEscalation => "模型申请在沙箱外运行(require_escalated)", "the model asks to run outside the sandbox (require_escalated)";
    FNoWrite => "不写文件、不联网", "writes nothing, no network";
    ORunSandboxed => "在沙箱里运行到底,没人被问", "runs to the end inside the sandbox; nobody is asked";
    ORunOutside => "在沙箱外运行,没人被问", "runs outside the sandbox; nobody is asked";
    OAsk => "运行前先弹窗问你", "you are asked before it runs";
    OAskAfter => "先在沙箱里跑,被沙箱挡下后,弹窗问你要不要在沙箱外重跑", "runs in the sandbox, is blocked, then you are asked whether to rerun it outside";
    OSandboxDenied => "在沙箱里跑,被沙箱挡下,失败交回模型;没人被问", "runs in the sandbox, is blocked, and the failure goes back to the model; nobody is asked";
    OAskThenDenied => "先弹窗问你;批准后仍在沙箱里跑(批准不等于出沙箱),被挡下,失败交回模型", "you are asked first; once approved it still runs in the sandbox (an approval is not an escalation), is blocked, and the failure goes back to the model";
    OReject => "直接拒绝,不弹窗,命令不运行", "rejected outright: no prompt, the command does not run";
    ORun => "运行,没人被问", "runs; nobody is asked";
}
