//! Scene `replay`: a pasted trace ([`permlab_core::trace::parse`]) replayed through every
//! engine and mode over a rule table ([`permlab_core::replay::replay`]): per lane the counts and
//! shares of allow / ask / deny / unavailable, the seed's "74 of 139 calls ask (53%)" sentence
//! for this trace, the calls where the default-mode engines disagree, and every unreadable line
//! with its number. The texts stay as typed (an unreadable rule table keeps the last readable
//! one in use and says so).

use permlab_core::replay::{self, DECISIONS};
use permlab_core::trace;
use permlab_core::{EngineId, RuleTable};

use super::replay_text::T;
use super::{ui, Event, Scene};
use crate::html::H;
use crate::i18n::{one_line, Lang};
use crate::presets::{self, Preset};

/// A small trace in the three formats (written for permlab, not taken from a real run): a
/// Claude Code stream-json session, `{tool, input}` lines and Codex rollout items.
pub const SAMPLE: &str = r#"{"type":"system","subtype":"init","session_id":"sample","tools":["Bash","Read","Edit","Write"]}
{"type":"assistant","message":{"content":[{"type":"text","text":"先读测试文件。"},{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"test_dateparse.py"}}]}}
{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"import unittest ..."}]}}
{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"python -m unittest -v test_dateparse.py","description":"Run the tests"}}]}}
{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t3","name":"Edit","input":{"file_path":"dateparse.py","old_string":"%d-%m","new_string":"%Y-%m-%d"}}]}}
{"tool": "edit_file", "input": {"path": "test_dateparse.py"}}
{"tool": "bash", "input": "git status"}
{"tool": "bash", "input": "git push origin main"}
{"tool": "list_dir", "input": "."}
{"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\"cmd\":\"python3 -m unittest test_dateparse.py\"}","call_id":"c1"}}
{"type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"bash\",\"-lc\",\"rm -rf build\"]}","call_id":"c2"}}
{"type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch\n*** Add File: NOTES.md\n+fixed the date parser\n*** End Patch","call_id":"c3"}}
"#;

/// How many disagreeing calls are listed (the count is always whole).
pub const SHOWN: usize = 40;

/// The scene's state.
pub struct Replay {
    lang: Lang,
    /// The trace as typed.
    pub trace_text: String,
    /// The rule table as typed.
    pub rules_text: String,
    default_rules: String,
    table: RuleTable,
    rules_error: Option<String>,
}

impl Replay {
    /// The scene with the sample trace and `lesson` (a table in the fixtures format) or
    /// miniagent's table.
    pub fn new(lang: Lang, lesson: Option<&str>) -> Replay {
        let default_rules = lesson
            .filter(|l| presets::parse_custom(l).is_ok())
            .unwrap_or(presets::MINIAGENT)
            .to_string();
        let mut r = Replay {
            lang,
            trace_text: SAMPLE.to_string(),
            rules_text: String::new(),
            table: Preset::Miniagent.table(),
            default_rules: default_rules.clone(),
            rules_error: None,
        };
        r.set_rules(default_rules);
        r
    }

    fn set_rules(&mut self, text: String) {
        match presets::parse_custom(&text) {
            Ok((table, _)) => {
                self.table = table;
                self.rules_error = None;
            }
            Err(e) => self.rules_error = Some(e),
        }
        self.rules_text = text;
    }

    fn t(&self, k: T) -> &'static str {
        k.get(self.lang)
    }

    fn inputs(&self, h: &mut H) {
        h.tag("div", "pl-rp-inputs");
        h.tag("div", "pl-rp-trace");
        h.tag("label", "pl-field");
        h.leaf("span", "", self.t(T::TraceLabel));
        h.open("textarea")
            .a("class", "pl-rp-trace-text")
            .a("rows", "9")
            .a("spellcheck", "false")
            .a("wrap", "off")
            .a("data-act", "trace")
            .a("data-k", "trace")
            .gt()
            .t(&self.trace_text)
            .raw("</textarea></label>");
        h.tag("div", "pl-rp-tools pl-controls");
        h.button("pl-rp-sample", "sample", "")
            .gt()
            .t(self.t(T::Sample))
            .close("button");
        h.button("pl-rp-clear", "clear", "")
            .gt()
            .t(self.t(T::Clear))
            .close("button");
        h.raw("</div></div>");
        h.tag("div", "pl-rp-rules");
        h.tag("label", "pl-field");
        h.leaf("span", "", self.t(T::RulesLabel));
        h.open("textarea")
            .a("class", "pl-rp-rules-text")
            .a("rows", "9")
            .a("spellcheck", "false")
            .a("data-act", "rules")
            .a("data-k", "rules")
            .gt()
            .t(&self.rules_text)
            .raw("</textarea></label>");
        h.tag("div", "pl-rp-tools pl-controls");
        h.button("pl-rp-rules-reset", "rules-reset", "")
            .gt()
            .t(self.t(T::RulesReset))
            .close("button");
        h.close("div");
        h.open("p")
            .a("class", "pl-rp-rules-error")
            .a("role", "alert")
            .gt();
        if let Some(e) = &self.rules_error {
            h.t(self.t(T::RulesError)).t(" ").t(e);
        }
        h.raw("</p></div></div>");
    }

    fn results(&self, h: &mut H) {
        let lang = self.lang;
        let tr = trace::parse(&self.trace_text);
        let calls = tr.common_calls();
        let r = replay::replay(&self.table, &calls);
        let n = |k: T, v: usize| self.t(k).replace("{n}", &v.to_string());
        let mut parts = vec![n(T::Read, r.calls)];
        let formats: Vec<String> = tr
            .formats()
            .iter()
            .map(|(f, k)| format!("{}: {k}", f.slug()))
            .collect();
        if !formats.is_empty() {
            let (open, close) = if lang == Lang::Zh {
                ("(", ")")
            } else {
                (" (", ")")
            };
            parts[0].push_str(&format!("{open}{}{close}", formats.join(", ")));
        }
        parts.push(n(T::Skipped, tr.skipped));
        parts.push(n(T::Bad, tr.malformed.len()));
        parts.push(n(T::Rules, self.table.len()));
        h.open("p")
            .a("class", "pl-live pl-rp-summary")
            .a("data-live", "")
            .a("data-calls", &r.calls.to_string())
            .a("data-malformed", &tr.malformed.len().to_string())
            .gt()
            .t(&parts.join(if lang == Lang::Zh { ";" } else { "; " }))
            .close("p");
        if !tr.malformed.is_empty() {
            h.tag("section", "pl-rp-bad");
            h.leaf("h3", "", self.t(T::BadTitle));
            h.tag("ul", "pl-rp-bad-list");
            for m in &tr.malformed {
                h.open("li")
                    .a("data-line", &m.line.to_string())
                    .gt()
                    .raw("<strong>")
                    .t(&n(T::Line, m.line))
                    .raw("</strong>: ")
                    .t(&m.message)
                    .close("li");
            }
            h.raw("</ul></section>");
        }
        if r.calls == 0 {
            h.leaf("p", "pl-rp-empty", self.t(T::Empty));
            return;
        }
        if let Some(cc) = r.lane(EngineId::CoreCoder, Some("interactive")) {
            let ask = cc.tally.ask;
            let text = self
                .t(T::Headline)
                .replace("{n}", &r.calls.to_string())
                .replace("{a}", &ask.to_string())
                .replace(
                    "{p}",
                    &cc.tally.percent(permlab_core::Decision::Ask).to_string(),
                );
            h.leaf("p", "pl-rp-headline", &text);
        }
        self.lanes(&r, h);
        self.disagreements(&r, &tr, h);
    }

    fn lanes(&self, r: &replay::Replay, h: &mut H) {
        let lang = self.lang;
        ui::scroll(h, self.t(T::Lanes));
        h.tag("table", "pl-rp-lanes");
        h.raw("<caption>")
            .t(self.t(T::Lanes))
            .raw("</caption><thead><tr>");
        h.raw("<th scope=\"col\">")
            .t(self.t(T::ColEngine))
            .raw("</th>");
        h.raw("<th scope=\"col\">")
            .t(self.t(T::ColMode))
            .raw("</th>");
        for d in DECISIONS {
            h.raw("<th scope=\"col\"><span aria-hidden=\"true\">")
                .t(ui::icon(d))
                .raw(" </span>")
                .t(lang.decision(d))
                .raw("</th>");
        }
        h.raw("</tr></thead><tbody>");
        for l in &r.lanes {
            h.open("tr")
                .a("class", if l.primary { "pl-rp-primary" } else { "" })
                .a("data-engine", l.engine.slug())
                .a("data-mode", l.mode.unwrap_or(""))
                .gt();
            h.raw("<th scope=\"row\">")
                .t(lang.engine(l.engine))
                .raw("</th>");
            h.tag("td", "pl-rp-mode");
            if let Some(m) = l.mode {
                h.raw("<code>").t(m).raw("</code>");
            } else {
                h.t("—");
            }
            if l.primary {
                h.open("span")
                    .a("class", "pl-rp-star")
                    .a("title", self.t(T::Primary))
                    .gt()
                    .raw(" ★")
                    .leaf("span", "pl-sr", self.t(T::Primary))
                    .close("span");
            }
            h.close("td");
            for d in DECISIONS {
                let k = l.tally.get(d);
                h.open("td")
                    .a(
                        "class",
                        &format!(
                            "pl-rp-cell pl-v-{}{}",
                            d.as_str(),
                            if k == 0 { " pl-zero" } else { "" }
                        ),
                    )
                    .a("data-decision", d.as_str())
                    .a("data-count", &k.to_string())
                    .gt()
                    .t(&format!("{k} ({}%)", l.tally.percent(d)))
                    .close("td");
            }
            h.close("tr");
        }
        h.raw("</tbody></table></div>");
    }

    fn disagreements(&self, r: &replay::Replay, tr: &trace::Trace, h: &mut H) {
        let lang = self.lang;
        h.tag("section", "pl-rp-disagree");
        h.leaf("h3", "", self.t(T::Disagree));
        if r.disagreements.is_empty() {
            h.leaf("p", "", self.t(T::NoDisagree));
            h.close("section");
            return;
        }
        let head = self
            .t(T::DisagreeCount)
            .replace("{d}", &r.disagreements.len().to_string())
            .replace("{n}", &r.calls.to_string());
        h.open("p")
            .a("class", "pl-rp-disagree-count")
            .a("data-count", &r.disagreements.len().to_string())
            .gt()
            .t(&head)
            .close("p");
        h.tag("ol", "pl-rp-disagree-list");
        for d in r.disagreements.iter().take(SHOWN) {
            let line = tr.calls.get(d.index).map_or(0, |c| c.line);
            h.open("li")
                .a("data-index", &(d.index + 1).to_string())
                .a("data-line", &line.to_string())
                .gt();
            h.raw("<p class=\"pl-rp-call\"><span class=\"pl-hint\">#")
                .n(d.index + 1)
                .t(" · ")
                .t(&self.t(T::Line).replace("{n}", &line.to_string()))
                .raw("</span> <code>")
                .t(&one_line(&d.call.to_string()))
                .raw("</code></p><ul class=\"pl-rp-verdicts\">");
            for (e, (dec, row)) in r.engines.iter().zip(&d.verdicts) {
                h.open("li")
                    .a("data-engine", e.slug())
                    .a("data-verdict", dec.as_str())
                    .gt()
                    .t(lang.engine(*e))
                    .t(": ");
                ui::badge(h, *dec, lang.decision(*dec));
                if let Some(row) = row {
                    h.raw(" <small>")
                        .t(self.t(T::Row))
                        .t(&format!(" #{}", row + 1))
                        .raw("</small>");
                }
                h.close("li");
            }
            h.raw("</ul></li>");
        }
        h.close("ol");
        if r.disagreements.len() > SHOWN {
            h.leaf(
                "p",
                "pl-hint",
                &self
                    .t(T::More)
                    .replace("{n}", &(r.disagreements.len() - SHOWN).to_string()),
            );
        }
        h.close("section");
    }
}

impl Scene for Replay {
    fn render(&self) -> String {
        let mut h = H::default();
        h.leaf("h2", "pl-title", self.t(T::Title));
        h.leaf("p", "pl-intro", self.t(T::Intro));
        self.inputs(&mut h);
        self.results(&mut h);
        h.s
    }

    fn act(&mut self, e: &Event) -> bool {
        match (e.kind, e.act) {
            ("input", "trace") => self.trace_text = e.value.to_string(),
            ("input", "rules") => self.set_rules(e.value.to_string()),
            ("click", "sample") => self.trace_text = SAMPLE.to_string(),
            ("click", "clear") => self.trace_text.clear(),
            ("click", "rules-reset") => self.set_rules(self.default_rules.clone()),
            _ => return false,
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lane_cell(html: &str, engine: &str, mode: &str, d: &str) -> usize {
        let row = format!("data-engine=\"{engine}\" data-mode=\"{mode}\">");
        let start = html.find(&row).unwrap_or_else(|| panic!("{row}"));
        let rest = &html[start..];
        let cell = format!("data-decision=\"{d}\" data-count=\"");
        let at = rest.find(&cell).unwrap() + cell.len();
        rest[at..].split('"').next().unwrap().parse().unwrap()
    }

    #[test]
    fn the_sample_replays_through_every_lane() {
        let r = Replay::new(Lang::Zh, None);
        let html = r.render();
        // 10 calls: 4 `{tool, input}`, 3 Claude Code, 3 Codex (apply_patch's one file).
        assert!(html.contains("data-calls=\"10\" data-malformed=\"0\""));
        assert!(html.contains(
            "读到 10 次工具调用(calls: 4, claude-code: 3, codex-rollout: 3);跳过 2 行其他内容"
        ));
        assert!(html.contains("10 次工具调用,在 CoreCoder 交互模式下有 9 次要停下来问(90%)。"));
        let lane = |e, m| DECISIONS.map(|d| lane_cell(&html, e, m, d.as_str()));
        assert_eq!(lane("first-match", ""), [5, 0, 5, 0]);
        assert_eq!(lane("opencode", ""), [6, 0, 4, 0]);
        assert_eq!(lane("claude-code", "default"), [4, 0, 1, 5]);
        assert_eq!(lane("claude-code", "plan"), [2, 2, 1, 5]);
        assert_eq!(lane("corecoder", "interactive"), [1, 9, 0, 0]);
        assert_eq!(lane("corecoder", "print"), [1, 0, 9, 0]);
        assert_eq!(lane("codex", ""), [0, 10, 0, 0]);
        // The test run by #8 under first-match, by #9 under OpenCode.
        assert!(html.contains("<li data-index=\"2\" data-line=\"4\">"));
        assert!(html.contains("data-count=\"10\">10 / 10 次调用上"));
        assert!(html.contains("pl-rp-disagree-list"));
    }

    #[test]
    fn unreadable_lines_are_listed_and_the_text_is_kept() {
        let mut r = Replay::new(Lang::En, None);
        let text = "{\"tool\": \"bash\", \"input\": \"git status\"}\n{oops\n{\"tool\": \"bash\"}\n";
        assert!(r.act(&Event::value("input", "trace", "", text)));
        let html = r.render();
        assert!(html.contains("data-calls=\"1\" data-malformed=\"2\""));
        assert!(
            html.contains("<li data-line=\"2\"><strong>line 2</strong>: invalid JSON at column 2")
        );
        assert!(html.contains("<li data-line=\"3\"><strong>line 3</strong>: a call line needs"));
        assert_eq!(r.trace_text, text);
        // A broken rule table keeps the last good one and says so; the text stays.
        assert!(r.act(&Event::value("input", "rules", "", "[{\"tool\": \"bash\"")));
        let html = r.render();
        assert!(html.contains("cannot be read"));
        assert!(html.contains("10 rules"));
        assert!(r.act(&Event::value(
            "input",
            "rules",
            "",
            r#"[{"tool":"bash","pattern":"git *","action":"deny"}]"#
        )));
        let html = r.render();
        assert!(html.contains("1 rules"));
        assert_eq!(lane_cell(&html, "opencode", "", "deny"), 1);
        assert!(r.act(&Event::click("clear", "")));
        assert!(r.render().contains("Nothing to replay yet"));
        assert!(r.act(&Event::click("sample", "")));
        assert!(r.act(&Event::click("rules-reset", "")));
        assert!(r.render().contains("10 rules"));
    }
}
