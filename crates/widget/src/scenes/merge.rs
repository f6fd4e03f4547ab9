//! Scene `merge`: seed 003's four-state merge, one permission check from the participants'
//! candidates to the audit line ([`permlab_core::merge`] decides everything).
//!
//! The learner picks one of the seed's three walkthroughs or any tool / effect / path, may add
//! a hook suggestion (its behavior and the tool it applies to), and answers the approval
//! prompt with `y`, a bare Enter (N) or a failing approver — the prompt is offered only when
//! the core's merge says `ask`, so `[deny, ask]` never shows it.

use permlab_core::json;
use permlab_core::lcc::safe_path;
use permlab_core::merge::{
    decide, Approval, Behavior, Effect, Participant, PermissionDecision, PolicyRule, Request, Trace,
};
use permlab_core::Decision;

use super::merge_text::T;
use super::{ui, Event, Scene};
use crate::html::H;
use crate::i18n::Lang;

/// The seed's workspace (its `code/` directory).
pub const WORKSPACE: &str = "/home/learner/code";

/// The five tools of the seed's registry, with the effect their definition declares.
pub const TOOLS: [(&str, Effect); 5] = [
    ("read_file", Effect::Read),
    ("glob", Effect::Read),
    ("write_file", Effect::Write),
    ("edit_file", Effect::Write),
    ("shell", Effect::Execute),
];

/// The seed's three walkthroughs: tool, effect, path.
pub const WALKS: [(&str, Effect, &str); 3] = [
    ("glob", Effect::Read, ""),
    ("write_file", Effect::Write, "chapter3-note.txt"),
    ("write_file", Effect::Write, "../outside.txt"),
];

/// What the learner answers at the approval prompt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// `y`.
    Yes,
    /// A bare Enter (the default N).
    No,
    /// The approval provider throws.
    Fail,
}

/// The hook's name: its candidates come from `hook:pre-tool-use`.
pub const HOOK_NAME: &str = "pre-tool-use";
/// The hook's reason (ours; the seed's chapter 4 is not part of it).
pub const HOOK_REASON: &str = "Suggested by the PreToolUse hook";
/// The message of a failing approver (ours; the seed only asks what happens).
pub const APPROVER_ERROR: &str = "the approval provider threw";

/// The scene's state.
#[derive(Clone, PartialEq)]
pub struct Merge {
    lang: Lang,
    /// The tool's name.
    pub tool: String,
    /// Its effect.
    pub effect: Effect,
    /// The path (or, for `execute`, the command) as typed.
    pub arg: String,
    /// A hook suggestion takes part.
    pub hook: bool,
    /// What it suggests.
    pub hook_behavior: Behavior,
    /// The tool it applies to (`*`: every tool).
    pub hook_tool: String,
    /// The learner's answer to the prompt, once given.
    pub answer: Option<Answer>,
}

fn effect_slug(e: Effect) -> &'static str {
    match e {
        Effect::Read => "read",
        Effect::Write => "write",
        Effect::Execute => "execute",
    }
}

fn behavior_of(slug: &str) -> Option<Behavior> {
    [
        Behavior::Allow,
        Behavior::Deny,
        Behavior::Ask,
        Behavior::Passthrough,
    ]
    .into_iter()
    .find(|b| b.as_str() == slug)
}

/// A behavior's word: `deny` is the API's own name, the zh gloss follows it.
fn behavior_word(lang: Lang, b: Behavior) -> String {
    match lang {
        Lang::En => b.as_str().to_string(),
        Lang::Zh => {
            let gloss = match b {
                Behavior::Allow => "放行",
                Behavior::Deny => "拒绝",
                Behavior::Ask => "问人",
                Behavior::Passthrough => "不表态",
            };
            format!("{}({gloss})", b.as_str())
        }
    }
}

fn behavior_badge(h: &mut H, lang: Lang, b: Behavior) {
    let (class, icon) = match b {
        Behavior::Allow => ("allow", "✓"),
        Behavior::Deny => ("deny", "✗"),
        Behavior::Ask => ("ask", "?"),
        Behavior::Passthrough => ("passthrough", "○"),
    };
    h.open("span")
        .a("class", &format!("pl-badge pl-v-{class}"))
        .a("data-behavior", b.as_str())
        .gt()
        .raw("<span aria-hidden=\"true\">")
        .t(icon)
        .raw(" </span>")
        .t(&behavior_word(lang, b))
        .close("span");
}

impl Merge {
    /// The scene at the seed's first walkthrough.
    pub fn new(lang: Lang) -> Merge {
        let mut m = Merge {
            lang,
            tool: String::new(),
            effect: Effect::Read,
            arg: String::new(),
            hook: false,
            hook_behavior: Behavior::Allow,
            hook_tool: "*".into(),
            answer: None,
        };
        m.walk(0);
        m
    }

    fn walk(&mut self, i: usize) {
        if let Some(&(tool, effect, path)) = WALKS.get(i) {
            self.tool = tool.into();
            self.effect = effect;
            self.arg = path.into();
            self.hook = false;
            self.answer = None;
        }
    }

    /// The walkthrough the current request is, if any.
    pub fn current_walk(&self) -> Option<usize> {
        if self.hook {
            return None;
        }
        WALKS
            .iter()
            .position(|&(t, e, p)| t == self.tool && e == self.effect && p == self.arg.trim())
    }

    /// The participants: the seed's chapter 3 profile, plus the hook when on.
    pub fn participants(&self) -> Vec<Participant> {
        let mut v = Participant::chapter3();
        if self.hook {
            v.push(Participant::Hook(PolicyRule::new(
                HOOK_NAME,
                self.hook_tool.as_str(),
                self.hook_behavior,
                HOOK_REASON,
            )));
        }
        v
    }

    fn path(&self) -> Option<&str> {
        let a = self.arg.trim();
        (self.effect != Effect::Execute && !a.is_empty()).then_some(a)
    }

    /// The core's decision with the learner's answer; `true` when the prompt is still open
    /// (the merge asked and no answer was given yet: nothing after it has happened).
    pub fn trace(&self) -> (Trace, bool) {
        let req = Request {
            tool: &self.tool,
            effect: self.effect,
            path: self.path(),
            workspace: WORKSPACE,
        };
        let mut asked = false;
        let t = decide(&req, &self.participants(), |_, _| {
            asked = true;
            match self.answer {
                Some(Answer::Yes) => Approval::Approve,
                Some(Answer::Fail) => Approval::Failed(APPROVER_ERROR.into()),
                _ => Approval::Reject,
            }
        });
        (t, asked && self.answer.is_none())
    }

    /// The tool's arguments as the prompt prints them (`{"path":"…","content":"..."}`).
    fn args_json(&self) -> String {
        let mut s = String::from("{");
        let key = match (self.effect, self.tool.as_str()) {
            (Effect::Execute, _) => "command",
            (_, "glob") => "pattern",
            _ => "path",
        };
        json::write_string(key, &mut s);
        s.push(':');
        json::write_string(self.arg.trim(), &mut s);
        if self.effect == Effect::Write {
            s.push_str(",\"content\":\"...\"");
        }
        s.push('}');
        s
    }

    /// The approval prompt, as seed 003's program prints it.
    pub fn prompt(&self, ask: &PermissionDecision) -> String {
        format!(
            "工具调用需要批准: {}\n原因: {}\n参数: {}\n允许本次调用? [y/N]",
            self.tool,
            ask.reason,
            self.args_json()
        )
    }

    fn t(&self, k: T) -> &'static str {
        k.get(self.lang)
    }

    fn request(&self, h: &mut H) {
        let lang = self.lang;
        h.open("fieldset").a("class", "pl-merge-request").gt();
        h.leaf("legend", "", self.t(T::Request));
        let tools: Vec<(&str, &str)> = TOOLS.iter().map(|(t, _)| (*t, *t)).collect();
        ui::select(
            h,
            "pl-merge-tool",
            "tool",
            self.t(T::Tool),
            &tools,
            &self.tool,
        );
        let effects = [
            ("read", T::EffRead.get(lang)),
            ("write", T::EffWrite.get(lang)),
            ("execute", T::EffExec.get(lang)),
        ];
        ui::select(
            h,
            "pl-merge-effect",
            "effect",
            self.t(T::Effect),
            &effects,
            effect_slug(self.effect),
        );
        let label = if self.effect == Effect::Execute {
            T::Command
        } else {
            T::Path
        };
        ui::field(h, "pl-merge-arg", "arg", self.t(label), &self.arg);
        h.tag("p", "pl-merge-ws")
            .t(self.t(T::Workspace))
            .t(": ")
            .raw("<code>")
            .t(WORKSPACE)
            .raw("</code>")
            .close("p");
        h.close("fieldset");
    }

    fn hook_controls(&self, h: &mut H) {
        let lang = self.lang;
        h.open("fieldset").a("class", "pl-merge-hook").gt();
        h.leaf("legend", "", self.t(T::PHook));
        ui::checkbox(h, "pl-merge-hook-on", "hook", self.t(T::HookOn), self.hook);
        if self.hook {
            let words: Vec<(Behavior, String)> = [
                Behavior::Allow,
                Behavior::Deny,
                Behavior::Ask,
                Behavior::Passthrough,
            ]
            .into_iter()
            .map(|b| (b, behavior_word(lang, b)))
            .collect();
            let opts: Vec<(&str, &str)> = words
                .iter()
                .map(|(b, w)| (b.as_str(), w.as_str()))
                .collect();
            ui::select(
                h,
                "pl-merge-hook-behavior",
                "hook-behavior",
                self.t(T::HookSays),
                &opts,
                self.hook_behavior.as_str(),
            );
            let mut tools: Vec<(&str, &str)> = vec![("*", self.t(T::AllTools))];
            tools.extend(TOOLS.iter().map(|(t, _)| (*t, *t)));
            ui::select(
                h,
                "pl-merge-hook-tool",
                "hook-tool",
                self.t(T::HookFor),
                &tools,
                &self.hook_tool,
            );
        }
        h.close("fieldset");
    }

    /// What participant `i` saw, in words (the facts come from the request and the core).
    fn saw(&self, p: &Participant) -> String {
        let lang = self.lang;
        match p {
            Participant::WorkspaceBoundary => {
                if self.effect != Effect::Write {
                    return self.t(T::NotWrite).into();
                }
                match self.path() {
                    None => self.t(T::NoPath).into(),
                    Some(path) => match safe_path(WORKSPACE, path) {
                        Ok(sp) => format!("{} {}", self.t(T::Inside), sp.absolute),
                        Err(e) => format!("{} {e}", self.t(T::Outside)),
                    },
                }
            }
            Participant::ShellDefault => self
                .t(if self.effect == Effect::Execute {
                    T::Exec
                } else {
                    T::NotExec
                })
                .into(),
            Participant::Rule(r) | Participant::Hook(r) => {
                let hit = r.tool == "*" || r.tool == self.tool;
                let tool = if r.tool == "*" {
                    T::AllTools.get(lang)
                } else {
                    r.tool.as_str()
                };
                self.t(if hit { T::Applies } else { T::Misses })
                    .replace("{t}", tool)
            }
        }
    }

    fn participant_name(&self, p: &Participant) -> &'static str {
        self.t(match p {
            Participant::WorkspaceBoundary => T::PBoundary,
            Participant::ShellDefault => T::PShell,
            Participant::Rule(_) => T::PRule,
            Participant::Hook(_) => T::PHook,
        })
    }

    fn candidates(&self, trace: &Trace, h: &mut H) {
        let lang = self.lang;
        let ps = self.participants();
        h.tag("div", "pl-scroll");
        h.tag("table", "pl-merge-cands");
        h.raw("<caption>")
            .t(self.t(T::CandsCaption))
            .raw("</caption><thead><tr>");
        for k in [T::ColWho, T::ColSaw, T::ColCand] {
            h.raw("<th scope=\"col\">").t(self.t(k)).raw("</th>");
        }
        h.raw("</tr></thead><tbody>");
        for (i, c) in trace.candidates.iter().enumerate() {
            let Some(p) = ps.get(c.participant) else {
                continue;
            };
            let slug = match p {
                Participant::WorkspaceBoundary => "boundary",
                Participant::ShellDefault => "shell",
                Participant::Rule(_) => "rule",
                Participant::Hook(_) => "hook",
            };
            let winner = c.decision.as_ref() == Some(&trace.merged);
            h.open("tr")
                .a("data-participant", slug)
                .a(
                    "data-candidate",
                    c.decision.as_ref().map_or("none", |d| d.behavior.as_str()),
                )
                .a("class", if winner { "pl-winner" } else { "" })
                .gt();
            h.raw("<th scope=\"row\">")
                .t(&format!("{} ", circled(i + 1)))
                .t(self.participant_name(p))
                .raw("</th>");
            h.leaf("td", "pl-saw", &self.saw(p));
            h.tag("td", "pl-cand");
            match &c.decision {
                None => {
                    h.leaf("span", "pl-none", self.t(T::NoOpinion));
                }
                Some(d) => {
                    behavior_badge(h, lang, d.behavior);
                    h.raw(" <small>(").t(&d.source).raw(")</small>");
                    if winner {
                        h.raw(" <strong class=\"pl-win-mark\">★ ")
                            .t(if lang == Lang::Zh { "胜出" } else { "wins" })
                            .raw("</strong>");
                    }
                }
            }
            h.raw("</td></tr>");
        }
        h.raw("</tbody></table></div>");
    }

    fn stage(h: &mut H, n: usize, slug: &str, title: &str) {
        h.open("li")
            .a("class", "pl-merge-stage")
            .a("data-stage", slug)
            .gt();
        h.tag("h3", "pl-stage-title")
            .t(&format!("{} ", circled(n)))
            .t(title)
            .close("h3");
    }

    fn flow(&self, trace: &Trace, pending: bool, h: &mut H) {
        let lang = self.lang;
        let offered: Vec<Behavior> = trace
            .candidates
            .iter()
            .filter_map(|c| c.decision.as_ref().map(|d| d.behavior))
            .collect();
        let n0 = trace.candidates.len();
        h.tag("ol", "pl-merge-flow");
        // Merge.
        Self::stage(h, n0 + 1, "merge", self.t(T::Merge));
        h.open("p")
            .a("class", "pl-merge-result")
            .a("data-merged", trace.merged.behavior.as_str())
            .gt();
        match offered.len() {
            0 => {
                h.t(self.t(T::MergeNone));
            }
            1 => {
                h.t(self.t(T::MergeOne));
                behavior_badge(h, lang, trace.merged.behavior);
            }
            _ => {
                let list: Vec<&str> = offered.iter().map(|b| b.as_str()).collect();
                h.t(&self
                    .t(T::MergeMany)
                    .replace("{c}", &format!("[{}]", list.join(", "))));
                behavior_badge(h, lang, trace.merged.behavior);
            }
        }
        h.raw(" <small>(")
            .t(&trace.merged.source)
            .raw(")</small></p>");
        h.leaf("p", "pl-hint", self.t(T::Order));
        h.close("li");
        // Converge.
        Self::stage(h, n0 + 2, "converge", self.t(T::Converge));
        h.leaf(
            "p",
            "",
            self.t(match trace.merged.behavior {
                Behavior::Passthrough => T::ConvPass,
                Behavior::Ask => T::ConvAsk,
                _ => T::ConvSame,
            }),
        );
        h.close("li");
        // Approval.
        Self::stage(h, n0 + 3, "approval", self.t(T::Approval));
        if trace.merged.behavior == Behavior::Ask {
            h.leaf("p", "pl-hint", self.t(T::PromptIs));
            h.open("pre")
                .a("class", "pl-merge-prompt")
                .a("lang", "zh-CN")
                .gt()
                .t(&self.prompt(&trace.merged));
            if let Some(a) = self.answer {
                h.t(match a {
                    Answer::Yes => " y",
                    Answer::No => " ",
                    Answer::Fail => " …",
                });
            }
            h.close("pre");
            h.open("div")
                .a("class", "pl-choices pl-merge-answers")
                .a("role", "group")
                .a("aria-label", self.t(T::Approval))
                .gt();
            for (arg, k, a) in [
                ("y", T::AnswerY, Answer::Yes),
                ("n", T::AnswerN, Answer::No),
                ("fail", T::AnswerFail, Answer::Fail),
            ] {
                h.button("pl-choice pl-merge-answer", "answer", arg)
                    .aria("aria-pressed", self.answer == Some(a))
                    .gt()
                    .t(self.t(k))
                    .close("button");
            }
            h.close("div");
            if pending {
                h.leaf("p", "pl-merge-waiting", self.t(T::Waiting));
            }
        } else if offered.contains(&Behavior::Ask) {
            h.leaf("p", "pl-merge-noprompt", self.t(T::Suppressed));
        } else {
            h.leaf("p", "pl-merge-noprompt", self.t(T::NoApproval));
        }
        h.close("li");
        if pending {
            h.close("ol");
            return;
        }
        // Audit, execution, the model.
        Self::stage(h, n0 + 4, "audit", self.t(T::Audit));
        h.open("pre")
            .a("class", "pl-audit")
            .a("data-audit", trace.decision.behavior.as_str())
            .gt()
            .t(&trace.audit_line())
            .close("pre");
        h.close("li");
        Self::stage(h, n0 + 5, "execute", self.t(T::Execute));
        let runs = trace.decision.behavior == Behavior::Allow;
        h.open("p")
            .a("class", "pl-merge-exec")
            .a("data-runs", if runs { "true" } else { "false" })
            .gt()
            .t(self.t(if runs { T::Runs } else { T::NotRun }))
            .close("p");
        h.close("li");
        Self::stage(h, n0 + 6, "model", self.t(T::Model));
        match trace.tool_error() {
            Some(e) => {
                h.open("pre")
                    .a("class", "pl-tool-error")
                    .gt()
                    .t(&e)
                    .close("pre");
            }
            None => {
                h.leaf("p", "", self.t(T::ModelOk));
            }
        }
        h.close("li");
        h.close("ol");
    }
}

/// ① … ⑳ for 1 … 20 (the seed numbers its stages this way).
fn circled(n: usize) -> String {
    match n {
        1..=20 => char::from_u32(0x2460 + n as u32 - 1)
            .map(String::from)
            .unwrap_or_default(),
        _ => format!("({n})"),
    }
}

impl Scene for Merge {
    fn render(&self) -> String {
        let lang = self.lang;
        let (trace, pending) = self.trace();
        let mut h = H::default();
        h.leaf("h2", "pl-title", self.t(T::Title));
        h.leaf("p", "pl-intro", self.t(T::Intro));
        let walks = [
            ("0", T::Walk1.get(lang)),
            ("1", T::Walk2.get(lang)),
            ("2", T::Walk3.get(lang)),
        ];
        let current = self.current_walk().map(|i| i.to_string());
        ui::choices(
            &mut h,
            "pl-merge-walks pl-controls",
            "walk",
            self.t(T::Walks),
            &walks,
            current.as_deref(),
        );
        h.tag("div", "pl-merge-setup");
        self.request(&mut h);
        self.hook_controls(&mut h);
        h.close("div");
        self.candidates(&trace, &mut h);
        self.flow(&trace, pending, &mut h);
        let status = if pending {
            format!("{} {}", self.t(T::Final), self.t(T::Pending))
        } else {
            format!("{} {}", self.t(T::Final), trace.audit_line())
        };
        h.open("p")
            .a("class", "pl-live pl-merge-final")
            .a(
                "data-final",
                if pending {
                    "pending"
                } else {
                    trace.decision.behavior.as_str()
                },
            )
            .gt();
        if !pending {
            let d = if trace.decision.behavior == Behavior::Allow {
                Decision::Allow
            } else {
                Decision::Deny
            };
            h.raw("<span aria-hidden=\"true\">")
                .t(ui::icon(d))
                .raw(" </span>");
        }
        h.raw("<span data-live=\"\">").t(&status).raw("</span></p>");
        h.s
    }

    fn act(&mut self, e: &Event) -> bool {
        let before = self.clone();
        match (e.kind, e.act) {
            ("click", "walk") => {
                if let Ok(i) = e.arg.parse() {
                    self.walk(i);
                }
            }
            ("change", "tool") => {
                if let Some(&(t, eff)) = TOOLS.iter().find(|(t, _)| *t == e.value) {
                    self.tool = t.into();
                    self.effect = eff;
                }
            }
            ("change", "effect") => {
                if let Some(&eff) = [Effect::Read, Effect::Write, Effect::Execute]
                    .iter()
                    .find(|x| effect_slug(**x) == e.value)
                {
                    self.effect = eff;
                }
            }
            ("input", "arg") => self.arg = e.value.to_string(),
            ("change", "hook") => self.hook = e.value == "true",
            ("change", "hook-behavior") => {
                if let Some(b) = behavior_of(e.value) {
                    self.hook_behavior = b;
                }
            }
            ("change", "hook-tool") => {
                if e.value == "*" || TOOLS.iter().any(|(t, _)| *t == e.value) {
                    self.hook_tool = e.value.to_string();
                }
            }
            ("click", "answer") => {
                self.answer = match e.arg {
                    "y" => Some(Answer::Yes),
                    "n" => Some(Answer::No),
                    "fail" => Some(Answer::Fail),
                    _ => self.answer,
                };
                return self.answer != before.answer;
            }
            _ => return false,
        }
        // Only the request can have changed here: a new request, and the old answer was to
        // another prompt.
        let changed = *self != before;
        if changed {
            self.answer = None;
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn audit(html: &str) -> Option<String> {
        let start = html.find("<pre class=\"pl-audit\"")?;
        let rest = &html[start..];
        let open = rest.find('>')? + 1;
        let end = rest.find("</pre>")?;
        Some(rest[open..end].to_string())
    }

    fn walk(m: &mut Merge, i: &str) {
        assert!(m.act(&Event::click("walk", i)) || m.current_walk() == i.parse().ok());
    }

    /// The seed's three walkthroughs, by clicks, give its audit lines (the seed cuts the
    /// reasons short with `...`; the core prints them whole).
    #[test]
    fn the_seed_walkthroughs_reproduce() {
        let mut m = Merge::new(Lang::Zh);
        walk(&mut m, "0");
        let html = m.render();
        assert_eq!(
            audit(&html).unwrap(),
            "[Permission] glob: allow (default) - No permission rule blocked the request"
        );
        assert!(audit(&html)
            .unwrap()
            .starts_with("[Permission] glob: allow (default) - No "));
        assert_eq!(html.matches("data-candidate=\"none\"").count(), 3);
        assert!(html.contains("data-merged=\"passthrough\""));
        assert!(html.contains("不需要(合并结果不是 ask)"));
        assert!(!html.contains("pl-merge-prompt"));

        walk(&mut m, "1");
        let html = m.render();
        assert!(html.contains("data-participant=\"boundary\" data-candidate=\"none\""));
        assert!(html.contains("data-participant=\"rule\" data-candidate=\"ask\""));
        assert!(html.contains(
            "工具调用需要批准: write_file\n原因: File writes require explicit approval from chapter 3 onward\n参数: {&quot;path&quot;:&quot;chapter3-note.txt&quot;,&quot;content&quot;:&quot;...&quot;}\n允许本次调用? [y/N]"
        ));
        assert_eq!(audit(&html), None, "no audit before the answer");
        assert!(html.contains("data-final=\"pending\""));
        assert!(m.act(&Event::click("answer", "y")));
        let html = m.render();
        assert_eq!(
            audit(&html).unwrap(),
            "[Permission] write_file: allow (terminal-approval) - User approved this tool call"
        );
        assert!(html.contains("data-runs=\"true\""));
        assert!(m.act(&Event::click("answer", "n")));
        let line = audit(&m.render()).unwrap();
        assert!(line.starts_with("[Permission] write_file: deny (terminal-approval)"));
        assert!(m
            .render()
            .contains("Error [permission_denied]: User rejected this tool call"));

        walk(&mut m, "2");
        let html = m.render();
        assert_eq!(
            audit(&html).unwrap(),
            "[Permission] write_file: deny (workspace-boundary) - Writing outside the workspace is forbidden"
        );
        assert!(html.contains("候选 [deny, ask] → 最强的是 "));
        assert!(html.contains("根本没调用,用户看不到任何提示框"));
        assert!(!html.contains("pl-merge-prompt"));
        assert!(html.contains("data-runs=\"false\""));
        assert!(html.contains(
            "<pre class=\"pl-tool-error\">Error [permission_denied]: Writing outside the workspace is forbidden</pre>"
        ));
        assert!(html.contains("Path escapes workspace: ../outside.txt"));
    }

    #[test]
    fn a_hook_allow_cannot_beat_the_shell_default() {
        let mut m = Merge::new(Lang::En);
        assert!(m.act(&Event::value("change", "tool", "", "shell")));
        assert_eq!(m.effect, Effect::Execute);
        assert!(m.act(&Event::value("input", "arg", "", "ls")));
        assert!(m.act(&Event::value("change", "hook", "", "true")));
        assert_eq!(m.current_walk(), None);
        let html = m.render();
        assert!(html.contains("data-participant=\"hook\" data-candidate=\"allow\""));
        assert!(html.contains("data-merged=\"ask\""));
        assert!(html.contains("{&quot;command&quot;:&quot;ls&quot;}"));
        // The hook denies instead: deny wins, no prompt.
        assert!(m.act(&Event::value("change", "hook-behavior", "", "deny")));
        let html = m.render();
        assert!(html.contains(
            "[Permission] shell: deny (hook:pre-tool-use) - Suggested by the PreToolUse hook"
        ));
        assert!(html.contains("never called, the user sees no prompt"));
        // A hook for another tool has no opinion.
        assert!(m.act(&Event::value("change", "hook-tool", "", "write_file")));
        assert!(m
            .render()
            .contains("data-participant=\"hook\" data-candidate=\"none\""));
    }

    #[test]
    fn answers_and_failures() {
        let mut m = Merge::new(Lang::En);
        m.act(&Event::click("walk", "1"));
        assert!(m.act(&Event::click("answer", "fail")));
        assert!(m.render().contains(
            "[Permission] write_file: deny (terminal-approval) - Approval failed: the approval provider threw"
        ));
        // Editing the request forgets the answer.
        assert!(m.act(&Event::value("input", "arg", "", "notes/a.txt")));
        assert_eq!(m.answer, None);
        assert!(m.render().contains("data-final=\"pending\""));
        // Unknown events change nothing.
        assert!(!m.act(&Event::key("walk", "0", "ArrowRight")));
        assert!(!m.act(&Event::value("change", "tool", "", "rm")));
    }

    #[test]
    fn hostile_input_is_text() {
        let mut m = Merge::new(Lang::En);
        m.act(&Event::click("walk", "1"));
        m.act(&Event::value(
            "input",
            "arg",
            "",
            "<img src=x onerror=alert(1)>",
        ));
        let html = m.render();
        assert!(!html.contains("<img"));
    }
}
