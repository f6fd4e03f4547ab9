//! Scene `replay`: a pasted trace ([`permlab_core::trace::parse`]) replayed through every
//! engine and mode over a rule table ([`permlab_core::replay::replay`]): per lane the counts and
//! shares of allow / ask / deny / unavailable (Pi's `permission-gate.ts` too, with and without a
//! UI, [`permlab_core::pi_gate::replay`]), the seed's "74 of 139 calls ask (53%)" sentence
//! for this trace, the calls where the engines that read the table disagree
//! ([`replay::TABLE_READERS`]; CoreCoder, Codex and Pi shown apart, each with its own count),
//! and every unreadable line with its number. The texts stay as typed (an unreadable rule table keeps the last readable
//! one in use and says so).

use permlab_core::codex::CodexEngine;
use permlab_core::pi_gate::{self, PiReplay};
use permlab_core::replay::{self, DECISIONS, TABLE_READERS};
use permlab_core::trace;
use permlab_core::{Decision, EngineId, RuleTable};

use leptos::prelude::*;

use super::replay_text::T;
use super::ui::{self, Scroll};
use crate::presets::{self, Preset};
use crate::text::i18n::{one_line, Lang};

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
#[derive(Clone)]
pub struct Replay {
    lang: Lang,
    /// The trace as typed.
    pub trace_text: String,
    /// The rule table as typed.
    pub rules_text: String,
    default_rules: String,
    table: RuleTable,
    /// Why the typed table cannot be read, worded in the scene's language.
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

    /// The rule table as typed: a readable one is used, an unreadable one is kept as text and
    /// said so (the last readable table stays in use).
    pub fn set_rules(&mut self, text: String) {
        match presets::parse_custom(&text) {
            Ok((table, _)) => {
                self.table = table;
                self.rules_error = None;
            }
            Err(e) => self.rules_error = Some(self.lang.import_error(&e)),
        }
        self.rules_text = text;
    }

    fn t(&self, k: T) -> &'static str {
        k.get(self.lang)
    }

    /// The trace as typed.
    pub fn set_trace(&mut self, text: String) {
        self.trace_text = text;
    }

    /// Back to the sample trace.
    pub fn sample(&mut self) {
        self.trace_text = SAMPLE.to_string();
    }

    /// An empty trace.
    pub fn clear(&mut self) {
        self.trace_text.clear();
    }

    /// Back to the lesson's (or miniagent's) rule table.
    pub fn reset_rules(&mut self) {
        self.set_rules(self.default_rules.clone());
    }

    /// The rule table in use (the last readable one).
    pub fn table(&self) -> &RuleTable {
        &self.table
    }

    /// Why the typed rule table cannot be read, if it cannot.
    pub fn rules_error(&self) -> Option<&str> {
        self.rules_error.as_deref()
    }

    /// "读到 10 次工具调用(calls: 4, …);跳过 2 行其他内容;0 行读不了;规则 10 条".
    pub fn summary(&self, tr: &trace::Trace, r: &replay::Replay) -> String {
        let lang = self.lang;
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
        parts.join(if lang == Lang::Zh { ";" } else { "; " })
    }

    /// The seed's sentence for this trace: "10 次工具调用,在 CoreCoder 交互模式下有 9 次要停下来问(90%)。"
    pub fn headline(&self, r: &replay::Replay) -> Option<String> {
        let cc = r.lane(EngineId::CoreCoder, Some("interactive"))?;
        Some(
            self.t(T::Headline)
                .replace("{n}", &r.calls.to_string())
                .replace("{a}", &cc.tally.ask.to_string())
                .replace(
                    "{p}",
                    &cc.tally.percent(permlab_core::Decision::Ask).to_string(),
                ),
        )
    }
}

/// The scene (`data-scene="replay"`): the two texts as typed, and what they replay to. Typing
/// never writes a textarea back (so its caret, undo history and an IME composition survive);
/// the buttons that set a text (sample, clear, reset) write it.
#[component]
pub fn ReplayScene(
    /// The state to start from (`Replay::new(lang, lesson)`).
    init: Replay,
) -> impl IntoView {
    let lang = init.lang;
    let t = move |k: T| k.get(lang);
    let model = RwSignal::new(init);
    super::keep::text(model, "trace", |m| m.trace_text.clone(), Replay::set_trace);
    super::keep::text(model, "rules", |m| m.rules_text.clone(), Replay::set_rules);
    // Bumped when a button (not typing) sets a text: only then is the textarea written.
    let trace_set = RwSignal::new(0u32);
    let rules_set = RwSignal::new(0u32);
    let parsed = Memo::new(move |_| model.with(|m| trace::parse(&m.trace_text)));
    let table = Memo::new(move |_| model.with(|m| m.table.clone()));
    let run =
        Memo::new(move |_| table.with(|t| parsed.with(|tr| replay::replay(t, &tr.common_calls()))));
    let pi = Memo::new(move |_| parsed.with(|tr| pi_gate::replay(&tr.common_calls())));
    let untranslatable =
        Memo::new(move |_| table.with(|t| (CodexEngine::new(t).untranslatable().len(), t.len())));
    let summary = Memo::new(move |_| {
        parsed.with(|tr| run.with(|r| model.with_untracked(|m| m.summary(tr, r))))
    });
    let rules_error = Memo::new(move |_| model.with(|m| m.rules_error.clone()));
    super::host::announce(Memo::new(move |_| vec![summary.get()]));
    let bad = move || {
        parsed.with(|tr| {
            (!tr.malformed.is_empty()).then(|| {
                let items = tr
                    .malformed
                    .iter()
                    .map(|b| {
                        let line = t(T::Line).replace("{n}", &b.line.to_string());
                        let why = lang.bad_trace_line(&b.why);
                        view! { <li data-line=b.line><strong>{line}</strong>": "{why}</li> }
                    })
                    .collect_view();
                view! {
                    <section class="pl-rp-bad">
                        <h3>{t(T::BadTitle)}</h3>
                        <ul class="pl-rp-bad-list">{items}</ul>
                    </section>
                }
            })
        })
    };
    let results = move || {
        run.with(|r| {
            if r.calls == 0 {
                return view! { <p class="pl-rp-empty">{t(T::Empty)}</p> }.into_any();
            }
            let headline = model.with_untracked(|m| m.headline(r));
            view! {
                {headline.map(|h| view! { <p class="pl-rp-headline">{h}</p> })}
                {pi.with_untracked(|p| lanes(lang, r, p))}
                {parsed.with_untracked(|tr| disagreements(lang, r, tr))}
                {pi.with_untracked(|p| apart(lang, r, p, untranslatable.get_untracked()))}
            }
            .into_any()
        })
    };
    view! {
        <h2 class="pl-title">{t(T::Title)}</h2>
        <p class="pl-intro">{t(T::Intro)}</p>
        <div class="pl-rp-inputs">
            <div class="pl-rp-trace">
                <label class="pl-field">
                    <span>{t(T::TraceLabel)}</span>
                    <textarea class="pl-rp-trace-text" rows="9" spellcheck="false" wrap="off"
                        prop:value=move || { trace_set.track(); model.with_untracked(|m| m.trace_text.clone()) }
                        on:input=move |e| model.update(|m| m.set_trace(event_target_value(&e)))></textarea>
                </label>
                <div class="pl-rp-tools pl-controls">
                    <button type="button" class="pl-rp-sample"
                        on:click=move |_| { model.update(Replay::sample); trace_set.update(|n| *n += 1) }>{t(T::Sample)}</button>
                    <button type="button" class="pl-rp-clear"
                        on:click=move |_| { model.update(Replay::clear); trace_set.update(|n| *n += 1) }>{t(T::Clear)}</button>
                </div>
            </div>
            <div class="pl-rp-rules">
                <label class="pl-field">
                    <span>{t(T::RulesLabel)}</span>
                    <textarea class="pl-rp-rules-text" rows="9" spellcheck="false"
                        prop:value=move || { rules_set.track(); model.with_untracked(|m| m.rules_text.clone()) }
                        on:input=move |e| model.update(|m| m.set_rules(event_target_value(&e)))></textarea>
                </label>
                <div class="pl-rp-tools pl-controls">
                    <button type="button" class="pl-rp-rules-reset"
                        on:click=move |_| { model.update(Replay::reset_rules); rules_set.update(|n| *n += 1) }>{t(T::RulesReset)}</button>
                </div>
                <p class="pl-rp-rules-error" role="alert">
                    {move || rules_error.get().map(|e| format!("{} {e}", t(T::RulesError)))}
                </p>
            </div>
        </div>
        <p class="pl-live pl-rp-summary" data-live="" data-calls=move || run.with(|r| r.calls)
            data-malformed=move || parsed.with(|tr| tr.malformed.len())>{move || summary.get()}</p>
        {bad}
        {results}
    }
}

/// One lane's cells: the count and share of each decision.
fn cells(tally: &replay::Tally) -> impl IntoView {
    DECISIONS.map(|d| {
        let k = tally.get(d);
        let class = format!(
            "pl-rp-cell pl-v-{}{}",
            d.as_str(),
            if k == 0 { " pl-zero" } else { "" }
        );
        view! {
            <td class=class data-decision=d.as_str() data-count=k>
                {format!("{k} ({}%)", tally.percent(d))}
            </td>
        }
    })
}

/// Per engine and mode, the count and share of each decision; Pi's gate last, with a UI and
/// without one.
fn lanes(lang: Lang, r: &replay::Replay, pi: &PiReplay) -> impl IntoView {
    let t = move |k: T| k.get(lang);
    let heads = DECISIONS.map(|d| {
        view! { <th scope="col"><span aria-hidden="true">{ui::icon(d)}" "</span>{lang.decision(d)}</th> }
    });
    let rows = r
        .lanes
        .iter()
        .map(|l| {
            let mode = match l.mode {
                Some(m) => view! { <code>{m}</code> }.into_any(),
                None => "—".into_any(),
            };
            let star = l.primary.then(|| {
                view! {
                    <span class="pl-rp-star" title=t(T::Primary)>" ★"<span class="pl-sr">{t(T::Primary)}</span></span>
                }
            });
            let cells = cells(&l.tally);
            view! {
                <tr class=if l.primary { "pl-rp-primary" } else { "" } data-engine=l.engine.slug()
                    data-mode=l.mode.unwrap_or("")>
                    <th scope="row">{lang.engine(l.engine)}</th>
                    <td class="pl-rp-mode">{mode}{star}</td>
                    {cells}
                </tr>
            }
        })
        .collect_view();
    let pi_rows =
        [("ui", T::PiUi, &pi.ui), ("no-ui", T::PiNoUi, &pi.no_ui)].map(|(slug, mode, tally)| {
            view! {
                <tr data-engine="pi-gate" data-mode=slug>
                    <th scope="row">{t(T::PiName)}</th>
                    <td class="pl-rp-mode">{t(mode)}</td>
                    {cells(tally)}
                </tr>
            }
        });
    view! {
        <Scroll label=t(T::Lanes)>
            <table class="pl-rp-lanes">
                <caption>{t(T::Lanes)}</caption>
                <thead><tr>
                    <th scope="col">{t(T::ColEngine)}</th><th scope="col">{t(T::ColMode)}</th>{heads}
                </tr></thead>
                <tbody>{rows}{pi_rows}</tbody>
            </table>
        </Scroll>
    }
}

/// The engines that do not read the table as written, each with its own figure: what they
/// decide is not a disagreement about the table.
fn apart(
    lang: Lang,
    r: &replay::Replay,
    pi: &PiReplay,
    codex_rows: (usize, usize),
) -> impl IntoView {
    let t = move |k: T| k.get(lang);
    let n = r.calls.to_string();
    let lane = |e: EngineId| r.lane(e, (e == EngineId::CoreCoder).then_some("interactive"));
    let count = |e: EngineId, d: Decision| lane(e).map_or(0, |l| l.tally.get(d)).to_string();
    let (bad, rows) = codex_rows;
    let codex = t(T::ApartCodex)
        .replace("{a}", &count(EngineId::Codex, Decision::Ask))
        .replace("{n}", &n)
        .replace("{k}", &(rows - bad).to_string())
        .replace("{m}", &rows.to_string());
    let corecoder = t(T::ApartCoreCoder)
        .replace("{a}", &count(EngineId::CoreCoder, Decision::Ask))
        .replace("{n}", &n);
    let caught = pi.caught.len();
    let pi = t(T::ApartPi)
        .replace("{c}", &caught.to_string())
        .replace("{n}", &n);
    view! {
        <section class="pl-rp-apart">
            <h3>{t(T::Apart)}</h3>
            <ul>
                <li data-engine="codex" data-ask=count(EngineId::Codex, Decision::Ask)>{codex}</li>
                <li data-engine="corecoder" data-ask=count(EngineId::CoreCoder, Decision::Ask)>{corecoder}</li>
                <li data-engine="pi-gate" data-caught=caught>{pi}</li>
            </ul>
        </section>
    }
}

/// The calls where the engines that read the table ([`TABLE_READERS`], default modes)
/// disagree (the first [`SHOWN`]).
fn disagreements(lang: Lang, r: &replay::Replay, tr: &trace::Trace) -> impl IntoView {
    let t = move |k: T| k.get(lang);
    let among = r.disagreements_among(&TABLE_READERS);
    if among.is_empty() {
        return view! {
            <section class="pl-rp-disagree"><h3>{t(T::Disagree)}</h3><p>{t(T::NoDisagree)}</p></section>
        }
        .into_any();
    }
    let head = t(T::DisagreeCount)
        .replace("{d}", &among.len().to_string())
        .replace("{n}", &r.calls.to_string());
    let items = among
        .iter()
        .take(SHOWN)
        .map(|d| {
            let line = tr.calls.get(d.index).map_or(0, |c| c.line);
            let verdicts = r
                .engines
                .iter()
                .zip(&d.verdicts)
                .filter(|(e, _)| TABLE_READERS.contains(e))
                .map(|(e, (dec, row))| {
                    view! {
                        <li data-engine=e.slug() data-verdict=dec.as_str()>
                            {lang.engine(*e)}": "{ui::verdict(*dec, lang.decision(*dec))}
                            {row.map(|row| view! { " "<small>{format!("{} #{}", t(T::Row), row + 1)}</small> })}
                        </li>
                    }
                })
                .collect_view();
            view! {
                <li data-index=d.index + 1 data-line=line>
                    <p class="pl-rp-call">
                        <span class="pl-hint">{format!("#{} · {}", d.index + 1, t(T::Line).replace("{n}", &line.to_string()))}</span>
                        " "<code>{one_line(&d.call.to_string())}</code>
                    </p>
                    <ul class="pl-rp-verdicts">{verdicts}</ul>
                </li>
            }
        })
        .collect_view();
    let more = (among.len() > SHOWN).then(|| {
        view! { <p class="pl-hint">{t(T::More).replace("{n}", &(among.len() - SHOWN).to_string())}</p> }
    });
    view! {
        <section class="pl-rp-disagree">
            <h3>{t(T::Disagree)}</h3>
            <p class="pl-rp-disagree-count" data-count=among.len()>{head}</p>
            <ol class="pl-rp-disagree-list">{items}</ol>
            {more}
        </section>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(r: &Replay) -> String {
        let r = r.clone();
        super::super::html(move || view! { <ReplayScene init=r/> })
    }

    fn lane_cell(html: &str, engine: &str, mode: &str, d: &str) -> usize {
        let row = format!("data-engine=\"{engine}\" data-mode=\"{mode}\"");
        let start = html.find(&row).unwrap_or_else(|| panic!("{row}"));
        let rest = &html[start..];
        let cell = format!("data-decision=\"{d}\" data-count=\"");
        let at = rest.find(&cell).unwrap() + cell.len();
        rest[at..].split('"').next().unwrap().parse().unwrap()
    }

    #[test]
    fn the_sample_replays_through_every_lane() {
        let r = Replay::new(Lang::Zh, None);
        let html = render(&r);
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
        // Disagreements among the three table readers only: Codex (asks for all 10) apart.
        let among = replay::replay(r.table(), &trace::parse(SAMPLE).common_calls());
        let n = among.disagreements_among(&TABLE_READERS).len();
        assert!(n < 10, "{n}");
        assert!(html.contains(&format!(
            "data-count=\"{n}\" class=\"pl-rp-disagree-count\">{n} / 10 次调用上,读这张表的三个求值器"
        )));
        assert!(html.contains("pl-rp-disagree-list"));
        assert!(!html.contains("<li data-engine=\"codex\" data-verdict="));
        assert!(html
            .contains("<li data-engine=\"codex\" data-ask=\"10\">Codex 在 10 次调用里问了 10 次"));
        // Pi's gate: `rm -rf build` is the one bash command it catches.
        assert_eq!(lane("pi-gate", "ui"), [9, 1, 0, 0]);
        assert_eq!(lane("pi-gate", "no-ui"), [9, 0, 1, 0]);
        assert!(html.contains("<li data-engine=\"pi-gate\" data-caught=\"1\">"));
    }

    #[test]
    fn a_zh_replay_words_unreadable_lines_in_chinese() {
        let mut r = Replay::new(Lang::Zh, None);
        r.set_trace("{oops\n[1]\n{\"tool\": \"bash\"}\n".into());
        let html = render(&r);
        assert!(html.contains("不是合法的 JSON(第 2 列)"), "{html}");
        assert!(html.contains("每行应当是一个 JSON 对象,实际是数组。"));
        assert!(html.contains("调用行需要 \"input\""));
        assert!(!html.contains("invalid JSON") && !html.contains("a call line needs"));
    }

    #[test]
    fn unreadable_lines_are_listed_and_the_text_is_kept() {
        let mut r = Replay::new(Lang::En, None);
        let text = "{\"tool\": \"bash\", \"input\": \"git status\"}\n{oops\n{\"tool\": \"bash\"}\n";
        r.set_trace(text.into());
        let html = render(&r);
        assert!(html.contains("data-calls=\"1\" data-malformed=\"2\""));
        assert!(
            html.contains("<li data-line=\"2\"><strong>line 2</strong>: invalid JSON at column 2")
        );
        assert!(html.contains("<li data-line=\"3\"><strong>line 3</strong>: a call line needs"));
        assert_eq!(r.trace_text, text);
        // A broken rule table keeps the last good one and says so; the text stays.
        r.set_rules("[{\"tool\": \"bash\"".into());
        assert!(r.rules_error().is_some());
        let html = render(&r);
        assert!(html.contains("cannot be read"));
        assert!(html.contains("10 rules"));
        r.set_rules(r#"[{"tool":"bash","pattern":"git *","action":"deny"}]"#.into());
        assert_eq!(r.rules_error(), None);
        assert_eq!(r.table().len(), 1);
        let html = render(&r);
        assert!(html.contains("1 rules"));
        assert_eq!(lane_cell(&html, "opencode", "", "deny"), 1);
        r.clear();
        assert!(render(&r).contains("Nothing to replay yet"));
        r.sample();
        r.reset_rules();
        assert_eq!(r.trace_text, SAMPLE);
        assert!(render(&r).contains("10 rules"));
    }
}
