//! Scene `timeline`: seed 000's evolution of permission designs, six stages, each with the
//! seed's words and the figures [`permlab_core::timeline`] computes next to the seed's claims
//! (a differing figure is shown as computed, and said so).
//!
//! The blacklist stage runs the two real blacklists live ([`timeline::screen_lists`]): every
//! dangerous and everyday command with its verdict and the entry that caught it, and a field
//! where the learner types a command of their own.

use permlab_core::corecoder::DANGEROUS_PATTERNS;
use permlab_core::lcc;
use permlab_core::timeline::{self, Amount, Figure, Gate, Screened, Stage, StageId};
use permlab_core::Decision;

use super::timeline_text::T;
use super::{ui, Event, Scene};
use crate::html::H;
use crate::i18n::Lang;
use crate::presets::Preset;

/// The scene's state.
pub struct Timeline {
    lang: Lang,
    /// The stage shown (0-based, [`StageId::ALL`] order).
    pub stage: usize,
    /// The learner's own command.
    pub command: String,
    stages: Vec<Stage>,
}

/// The stage's (tag, name, users, solved, stuck) texts.
fn stage_texts(id: StageId) -> [T; 5] {
    match id {
        StageId::NoGate => [T::S1Tag, T::S1Name, T::S1Users, T::S1Solved, T::S1Stuck],
        StageId::Blacklist => [T::S2Tag, T::S2Name, T::S2Users, T::S2Solved, T::S2Stuck],
        StageId::AskEveryTime => [T::S3Tag, T::S3Name, T::S3Users, T::S3Solved, T::S3Stuck],
        StageId::Rules => [T::S4Tag, T::S4Name, T::S4Users, T::S4Solved, T::S4Stuck],
        StageId::LayeredModelApproval => [T::S5Tag, T::S5Name, T::S5Users, T::S5Solved, T::S5Stuck],
        StageId::Sandbox => [T::S6Tag, T::S6Name, T::S6Users, T::S6Solved, T::S6Stuck],
    }
}

fn figure_label(slug: &str) -> Option<T> {
    Some(match slug {
        "dangerous-run" => T::FDangerousRun,
        "lcc-missed" => T::FLccMissed,
        "lcc-wrongly-blocked" => T::FLccWrong,
        "corecoder-missed" => T::FCcMissed,
        "corecoder-wrongly-blocked" => T::FCcWrong,
        "corecoder-asks" => T::FAsks,
        "prompts-approved" => T::FApproved,
        "first-match-denies-tests" => T::FFirstMatch,
        "classifier-misses" => T::FClassifier,
        "rmtree-passes" => T::FRmtree,
        _ => return None,
    })
}

fn note_text(slug: &str) -> Option<T> {
    Some(match slug {
        "only-four-everyday-known" => T::NoteFour,
        "needs-the-26-runs" => T::NoteRuns,
        "self-reported" => T::NoteSelf,
        "pi-not-ported" => T::NotePi,
        _ => return None,
    })
}

/// A figure's amount as the page writes it: `1/4`, `17%(n = 52)`, `拒绝(#8)`.
pub fn amount(lang: Lang, a: Amount) -> String {
    match a {
        Amount::Count { n, of } => format!("{n}/{of}"),
        Amount::Percent {
            percent,
            sample: Some(s),
        } => match lang {
            Lang::Zh => format!("{percent}%(n = {s})"),
            Lang::En => format!("{percent}% (n = {s})"),
        },
        Amount::Percent { percent, .. } => format!("{percent}%"),
        Amount::Verdict { decision, row } => match (lang, row) {
            (Lang::Zh, Some(r)) => format!("{}(#{})", lang.decision(decision), r + 1),
            (Lang::En, Some(r)) => format!("{} (#{})", lang.decision(decision), r + 1),
            (_, None) => lang.decision(decision).to_string(),
        },
    }
}

impl Timeline {
    /// The scene at the first stage.
    pub fn new(lang: Lang) -> Timeline {
        Timeline {
            lang,
            stage: 0,
            command: String::new(),
            stages: timeline::timeline(&Preset::Miniagent.table()),
        }
    }

    fn t(&self, k: T) -> &'static str {
        k.get(self.lang)
    }

    /// The sentence for a differing figure: "课程原文说 2/5,实际算出 1/4:…".
    pub fn differs_sentence(&self, f: &Figure) -> Option<String> {
        let (Some(c), Some(n)) = (f.claimed, f.computed) else {
            return None;
        };
        if !f.differs() {
            return None;
        }
        let mut s = self
            .t(T::Differs)
            .replace("{c}", &amount(self.lang, c))
            .replace("{n}", &amount(self.lang, n));
        if let Some(note) = f.note.and_then(note_text) {
            s.push_str(self.t(note));
        }
        Some(s)
    }

    fn nav(&self, h: &mut H) {
        h.open("nav")
            .a("class", "pl-tl-nav")
            .a("aria-label", self.t(T::Stages))
            .gt();
        h.tag("ol", "pl-tl-list");
        for (i, id) in StageId::ALL.into_iter().enumerate() {
            let [tag, name, ..] = stage_texts(id);
            h.open("li")
                .a(
                    "class",
                    if i == self.stage {
                        "pl-tl-item pl-current"
                    } else {
                        "pl-tl-item"
                    },
                )
                .gt();
            h.button("pl-tl-stage", "stage", &i.to_string())
                .a("data-stage", id.slug())
                .a("aria-keyshortcuts", "ArrowLeft ArrowRight Home End");
            if i == self.stage {
                h.a("aria-current", "step");
            }
            h.gt()
                .raw("<span class=\"pl-tl-tag\">")
                .t(self.t(tag))
                .raw("</span> ")
                .t(self.t(name));
            if id == StageId::Rules {
                h.raw(" <em class=\"pl-tl-here\">")
                    .t(self.t(T::Here))
                    .raw("</em>");
            }
            h.close("button").close("li");
        }
        h.raw("</ol></nav>");
    }

    fn figures(&self, stage: &Stage, h: &mut H) {
        if stage.figures.is_empty() {
            return;
        }
        h.tag("div", "pl-scroll");
        h.tag("table", "pl-tl-figures");
        h.raw("<caption>")
            .t(self.t(T::Figures))
            .raw("</caption><thead><tr>");
        for k in [T::ColWhat, T::ColClaimed, T::ColComputed] {
            h.raw("<th scope=\"col\">").t(self.t(k)).raw("</th>");
        }
        h.raw("</tr></thead><tbody>");
        for f in &stage.figures {
            h.open("tr")
                .a("data-figure", f.slug)
                .aria("data-differs", f.differs())
                .gt();
            h.raw("<th scope=\"row\">")
                .t(figure_label(f.slug).map_or(f.slug, |k| self.t(k)))
                .raw("</th>");
            h.leaf(
                "td",
                "pl-claimed",
                &f.claimed
                    .map_or_else(|| self.t(T::NotClaimed).into(), |a| amount(self.lang, a)),
            );
            h.tag("td", "pl-computed");
            match f.computed {
                Some(a) => {
                    h.raw("<strong>").t(&amount(self.lang, a)).raw("</strong>");
                }
                None => {
                    h.t(self.t(T::NotComputed));
                }
            }
            h.close("td").close("tr");
            let note = self
                .differs_sentence(f)
                .or_else(|| f.note.and_then(note_text).map(|k| self.t(k).to_string()));
            if let Some(note) = note {
                h.open("tr").a("class", "pl-tl-note-row").gt();
                h.open("td").a("colspan", "3").gt();
                h.open("p")
                    .a(
                        "class",
                        if f.differs() {
                            "pl-tl-note pl-differs"
                        } else {
                            "pl-tl-note"
                        },
                    )
                    .gt();
                if f.differs() {
                    h.raw("<span aria-hidden=\"true\">⚠ </span>");
                }
                h.t(&note).raw("</p></td></tr>");
            }
        }
        h.raw("</tbody></table></div>");
    }

    fn cell(&self, h: &mut H, gate: Gate, s: &Screened, dangerous: bool) {
        let blocked = s.blocked();
        let mark = match (dangerous, blocked) {
            (true, false) => Some(("missed", T::Missed)),
            (false, true) => Some(("wrongly-blocked", T::WronglyBlocked)),
            _ => None,
        };
        h.open("td")
            .a("class", "pl-gate-cell")
            .a("data-gate", gate.slug())
            .aria("data-blocked", blocked)
            .a_opt("data-mark", mark.map(|m| m.0))
            .gt();
        self.verdict(h, &s.hits);
        if let Some((slug, k)) = mark {
            h.open("strong")
                .a("class", &format!("pl-tl-mark pl-tl-mark-{slug}"))
                .gt()
                .raw("<span aria-hidden=\"true\"> ⚠ </span>")
                .t(self.t(k))
                .close("strong");
        }
        h.close("td");
    }

    fn verdict(&self, h: &mut H, hits: &[timeline::Hit]) {
        if hits.is_empty() {
            ui::badge(h, Decision::Allow, self.t(T::Runs));
            return;
        }
        ui::badge(h, Decision::Deny, self.t(T::Blocked));
        h.raw(" <span class=\"pl-hit\">").t(self.t(T::By)).t(" ");
        for (i, hit) in hits.iter().enumerate() {
            if i > 0 {
                h.t(", ");
            }
            h.open("code")
                .a("data-entry", &hit.index.to_string())
                .gt()
                .t(hit.entry)
                .close("code");
            if let Some(r) = hit.reason {
                h.t(" (").t(r).t(")");
            }
        }
        h.raw("</span>");
    }

    fn gate_table(&self, h: &mut H, dangerous: bool) {
        let tallies = Gate::REAL.map(timeline::screen_lists);
        ui::scroll(
            h,
            self.t(if dangerous { T::Dangerous } else { T::Everyday }),
        );
        h.open("table")
            .a("class", "pl-tl-gates")
            .a(
                "data-list",
                if dangerous { "dangerous" } else { "everyday" },
            )
            .gt();
        h.raw("<caption>")
            .t(self.t(if dangerous { T::Dangerous } else { T::Everyday }))
            .raw("</caption><thead><tr>");
        for k in [T::ColCommand, T::LccName, T::CcName] {
            h.raw("<th scope=\"col\">").t(self.t(k)).raw("</th>");
        }
        h.raw("</tr></thead><tbody>");
        let n = if dangerous {
            tallies[0].dangerous.len()
        } else {
            tallies[0].everyday.len()
        };
        for i in 0..n {
            let list = |t: &timeline::GateTally| {
                if dangerous {
                    t.dangerous.get(i).cloned()
                } else {
                    t.everyday.get(i).cloned()
                }
            };
            let Some(first) = list(&tallies[0]) else {
                continue;
            };
            h.open("tr").a("data-command", first.command).gt();
            h.raw("<th scope=\"row\"><code>")
                .t(first.command)
                .raw("</code></th>");
            for t in &tallies {
                if let Some(s) = list(t) {
                    self.cell(h, t.gate, &s, dangerous);
                }
            }
            h.close("tr");
        }
        h.raw("</tbody><tfoot><tr><th scope=\"row\">")
            .t(self.t(T::Total))
            .raw("</th>");
        for t in &tallies {
            let (m, w) = (t.missed().count(), t.wrongly_blocked().count());
            let text = if dangerous {
                format!("{} {m}/{}", self.t(T::Missed), t.dangerous.len())
            } else {
                format!("{} {w}/{}", self.t(T::WronglyBlocked), t.everyday.len())
            };
            h.open("td")
                .a("data-gate", t.gate.slug())
                .a("class", "pl-tl-tally")
                .gt()
                .t(&text)
                .close("td");
        }
        h.raw("</tr></tfoot></table></div>");
    }

    fn lab(&self, h: &mut H) {
        h.tag("section", "pl-tl-lab");
        h.leaf("h3", "", self.t(T::Lab));
        h.leaf("p", "pl-hint", self.t(T::LabIntro));
        self.gate_table(h, true);
        self.gate_table(h, false);
        h.tag("div", "pl-tl-entries");
        h.tag("div", "");
        h.leaf(
            "h4",
            "",
            &format!("{} · {}", self.t(T::Entries), self.t(T::LccName)),
        );
        h.tag("ol", "pl-tl-entry-list");
        for e in lcc::BLACKLIST {
            h.raw("<li><code>").t(e).raw("</code></li>");
        }
        h.raw("</ol></div><div>");
        h.leaf(
            "h4",
            "",
            &format!("{} · {}", self.t(T::Entries), self.t(T::CcName)),
        );
        h.tag("ol", "pl-tl-entry-list");
        for p in DANGEROUS_PATTERNS.iter() {
            h.raw("<li><code>")
                .t(p.regex)
                .raw("</code> <small>")
                .t(p.reason)
                .raw("</small></li>");
        }
        h.raw("</ol></div></div>");
        h.tag("div", "pl-tl-try");
        h.leaf("h4", "", self.t(T::Try));
        ui::field(
            h,
            "pl-tl-command",
            "command",
            self.t(T::TryLabel),
            &self.command,
        );
        h.open("div")
            .a("class", "pl-tl-try-result")
            .a("data-live", "")
            .gt();
        if self.command.trim().is_empty() {
            h.leaf("p", "pl-hint", self.t(T::TryEmpty));
        } else {
            h.tag("ul", "pl-tl-try-list");
            for (gate, name) in [(Gate::Lcc, T::LccName), (Gate::CoreCoder, T::CcName)] {
                let hits = timeline::screen(gate, &self.command);
                h.open("li")
                    .a("data-gate", gate.slug())
                    .aria("data-blocked", !hits.is_empty())
                    .gt()
                    .raw("<strong>")
                    .t(self.t(name))
                    .raw("</strong>: ");
                self.verdict(h, &hits);
                h.close("li");
            }
            h.close("ul");
        }
        h.raw("</div></div></section>");
    }

    fn detail(&self, h: &mut H) {
        let Some(stage) = self.stages.get(self.stage) else {
            return;
        };
        let [tag, name, users, solved, stuck] = stage_texts(stage.id);
        h.open("section")
            .a("class", "pl-tl-detail")
            .a("data-stage", stage.id.slug())
            .gt();
        h.open("h3")
            .gt()
            .raw("<span class=\"pl-tl-tag\">")
            .t(self.t(tag))
            .raw("</span> ")
            .t(self.t(name))
            .close("h3");
        h.tag("dl", "pl-tl-facts");
        for (k, v) in [(T::Users, users), (T::Solved, solved), (T::Stuck, stuck)] {
            h.leaf("dt", "", self.t(k)).leaf("dd", "", self.t(v));
        }
        h.close("dl");
        self.figures(stage, h);
        if stage.id == StageId::Rules {
            let (tool, input) = timeline::RULES_STAGE_CALL;
            if let Some(Amount::Verdict { decision, row }) =
                stage.figures.first().and_then(|f| f.computed)
            {
                h.tag("p", "pl-tl-rules");
                h.t(self.t(T::RulesNow)).t(" ");
                h.raw("<code>")
                    .t(&format!("{tool}: {input}"))
                    .raw("</code>");
                h.t(" → ");
                ui::badge(
                    h,
                    decision,
                    &amount(self.lang, Amount::Verdict { decision, row }),
                );
                h.close("p");
            }
        }
        if stage.id == StageId::Blacklist {
            self.lab(h);
        }
        h.close("section");
    }
}

impl Scene for Timeline {
    fn render(&self) -> String {
        let mut h = H::default();
        h.leaf("h2", "pl-title", self.t(T::Title));
        self.nav(&mut h);
        let id = StageId::ALL[self.stage.min(5)];
        let [tag, name, ..] = stage_texts(id);
        let now = self
            .t(T::StepOf)
            .replace("{k}", &(self.stage + 1).to_string())
            .replace("{s}", &format!("{} · {}", self.t(tag), self.t(name)));
        ui::stepper(
            &mut h,
            self.lang,
            "step",
            self.t(T::Stages),
            self.stage,
            5,
            &now,
        );
        self.detail(&mut h);
        h.s
    }

    fn act(&mut self, e: &Event) -> bool {
        let before = self.stage;
        match (e.kind, e.act) {
            ("click", "stage") => {
                if let Ok(i) = e.arg.parse::<usize>() {
                    self.stage = i.min(5);
                }
            }
            (_, "step") | ("keydown", "stage") => {
                let Some(m) = ui::step_move(e) else {
                    return false;
                };
                self.stage = ui::stepped(self.stage, 5, m);
                // A key was used even at an end (no scrolling the page by arrow).
                return e.kind == "keydown" || self.stage != before;
            }
            ("input", "command") => {
                self.command = e.value.to_string();
                return true;
            }
            _ => return false,
        }
        self.stage != before
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_blacklist_stage_shows_the_computed_figures_and_says_where_they_differ() {
        let mut t = Timeline::new(Lang::Zh);
        assert!(t.act(&Event::key("step", "1", "ArrowRight")));
        assert_eq!(t.stage, 1);
        let html = t.render();
        assert!(html.contains("第 2 / 6 个阶段:朴素 · 黑名单:子串或正则"));
        assert!(html.contains("课程原文说 2/5,实际算出 1/4:课程没有列出它的 5 条日常命令"));
        assert!(html.contains("data-figure=\"lcc-missed\" data-differs=\"false\""));
        assert!(html.contains("data-figure=\"lcc-wrongly-blocked\" data-differs=\"true\""));
        // lcc: 4 missed, sudoku wrongly blocked by `sudo`; CoreCoder: 3 missed, none wrong.
        assert_eq!(
            html.matches("data-gate=\"lcc\" data-blocked=\"false\" data-mark=\"missed\"")
                .count(),
            4
        );
        assert_eq!(
            html.matches("data-gate=\"corecoder\" data-blocked=\"false\" data-mark=\"missed\"")
                .count(),
            3
        );
        assert_eq!(html.matches("data-mark=\"wrongly-blocked\"").count(), 1);
        assert!(html.contains(
            "<tr data-command=\"cat sudoku_solver.py\"><th scope=\"row\"><code>cat sudoku_solver.py</code></th><td class=\"pl-gate-cell\" data-gate=\"lcc\" data-blocked=\"true\" data-mark=\"wrongly-blocked\">"
        ));
        assert!(html.contains("<code data-entry=\"1\">sudo</code>"));
        assert!(html.contains("(raw disk write)"));
        assert!(html.contains("漏拦 4/6") && html.contains("漏拦 3/6"));
        assert!(html.contains("误拦 1/4") && html.contains("误拦 0/4"));
    }

    #[test]
    fn a_typed_command_is_judged_by_both_blacklists() {
        let mut t = Timeline::new(Lang::En);
        t.act(&Event::click("stage", "1"));
        assert!(t.act(&Event::value("input", "command", "", "rm -fr /")));
        let html = t.render();
        assert!(html.contains("<li data-gate=\"lcc\" data-blocked=\"false\">"));
        assert!(html.contains("<li data-gate=\"corecoder\" data-blocked=\"true\">"));
        assert!(html.contains("(force recursive delete)"));
        t.act(&Event::value("input", "command", "", "sudo reboot"));
        let html = t.render();
        assert!(html
            .contains("<code data-entry=\"1\">sudo</code>, <code data-entry=\"3\">reboot</code>"));
    }

    #[test]
    fn stepping_through_every_stage() {
        let mut t = Timeline::new(Lang::En);
        assert!(!t.act(&Event::click("step", "-1")));
        assert!(t.act(&Event::key("step", "2", "End")));
        assert_eq!(t.stage, 5);
        let html = t.render();
        assert!(html.contains("The lesson says 4/4; computed: 2/2."));
        assert!(t.act(&Event::click("step", "-1")));
        assert!(t.act(&Event::click("step", "-1")));
        let html = t.render();
        assert!(html.contains("data-stage=\"rules\""));
        assert!(html.contains("deny (#8)"));
        assert!(t.act(&Event::key("stage", "3", "Home")));
        assert_eq!(t.stage, 0);
        assert!(t.render().contains("<strong>6/6</strong>"));
    }
}
