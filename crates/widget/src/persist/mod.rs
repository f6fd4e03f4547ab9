//! What of the widget's state is kept (in `sessionStorage`, see [`crate::persist::store`]; links made by
//! older versions carry the same entries in the URL hash, see [`crate::persist::hash`]), and back.
//!
//! Short keys: `p` preset, `o` order (rule ids joined by `.`, only when reordered), `t`/`i` the
//! call's tool and input (the last call the engines could take), `g` guesses
//! (`opencode:deny,claude-code:skip`), `r` revealed engines, `v` stepper open, `s` step, `x` Codex
//! shown, `j` a custom table (JSON), `f`/`m` the import panel's format and text. The texts as
//! typed, valid or not: `tt`/`ti` the call fields, `e` the table editor, `ee`/`ie` an error was
//! shown for the editor's / the import panel's text (it is read again on restore, so the message
//! comes back with the text), `dt.<preset>`/`di.<preset>` the call fields of a preset the learner
//! left (so switching back finds them as typed). Anything unreadable is ignored, never
//! half-applied.

use permlab_core::{Call, Decision, EngineId, RuleId};

use crate::state::Guess;

/// Everything a link restores.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// Preset slug.
    pub preset: Option<String>,
    /// Custom table text (fixtures format), for the custom preset.
    pub custom: Option<String>,
    /// Current order, when it differs from the lesson's.
    pub order: Option<Vec<RuleId>>,
    /// The call, when the learner changed it.
    pub call: Option<Call>,
    /// Guesses per engine.
    pub guesses: Vec<(EngineId, Guess)>,
    /// Revealed engines.
    pub revealed: Vec<EngineId>,
    /// The stepper is open.
    pub stepping: bool,
    /// Stepper position.
    pub step: usize,
    /// Codex panel shown.
    pub codex: bool,
    /// The import panel's format and text, for the imported source.
    pub import: Option<(String, String)>,
    /// The tool field as typed (it may be what no engine takes).
    pub tool_text: Option<String>,
    /// The input field as typed.
    pub input_text: Option<String>,
    /// The table editor's text as typed.
    pub editor: Option<String>,
    /// The editor's text was refused with a message.
    pub editor_error: bool,
    /// The import panel's text was refused with a message.
    pub import_error: bool,
    /// The call fields as typed in presets the learner left: (preset slug, tool, input).
    pub drafts: Vec<(String, String, String)>,
    /// Results revealed on an earlier order: (engine, guess, that order's verdict).
    pub earlier: Vec<(EngineId, Guess, Decision)>,
    /// The reorder log, as [`crate::persist::history::write_log`] wrote it.
    pub log: Option<String>,
    /// The undo history, as [`crate::persist::history::write_undo`] wrote it.
    pub undo: Option<String>,
    /// Each lesson task's tick.
    pub tasks: Vec<bool>,
    /// The record of answers, as [`crate::model::record::Record::to_text`] wrote it.
    pub record: Option<String>,
    /// The [`fingerprint`] of the lesson this state was made with: a state is never applied
    /// to another lesson (a page that mounts a new lesson on the same placeholder).
    pub lesson: Option<String>,
}

/// A short fingerprint of a lesson's text (FNV-1a, 64 bits, hex): tells one lesson from
/// another, not a secret.
///
/// ```
/// use permlab_widget::persist::fingerprint;
/// assert_eq!(fingerprint("a"), fingerprint("a"));
/// assert_ne!(fingerprint("a"), fingerprint("b"));
/// assert_eq!(fingerprint("").len(), 16);
/// ```
pub fn fingerprint(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// A guess as stored and as the host hears it: a verdict's slug, or `skip`.
pub(crate) fn guess_str(g: Guess) -> &'static str {
    match g {
        Guess::Skip => "skip",
        Guess::Verdict(d) => d.as_str(),
    }
}

/// Reads [`guess_str`].
pub(crate) fn parse_guess(s: &str) -> Option<Guess> {
    Some(match s {
        "skip" => Guess::Skip,
        "allow" => Guess::Verdict(Decision::Allow),
        "ask" => Guess::Verdict(Decision::Ask),
        "deny" => Guess::Verdict(Decision::Deny),
        "unavailable" => Guess::Verdict(Decision::Unavailable),
        _ => return None,
    })
}

impl Snapshot {
    /// The entries (key, value) of the snapshot's state, the texts as typed aside (see
    /// [`Snapshot::to_stored`]); also the entries of an old-format link ([`crate::persist::hash::write`]).
    pub fn to_entries(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        if let Some(p) = &self.preset {
            out.push(("p", p.clone()));
        }
        if let Some(j) = &self.custom {
            out.push(("j", j.clone()));
        }
        if let Some(o) = &self.order {
            let ids: Vec<String> = o.iter().map(|id| id.0.to_string()).collect();
            out.push(("o", ids.join(".")));
        }
        if let Some(c) = &self.call {
            out.push(("t", c.tool.clone()));
            out.push(("i", c.input.clone()));
        }
        if !self.guesses.is_empty() {
            let g: Vec<String> = self
                .guesses
                .iter()
                .map(|(e, g)| format!("{}:{}", e.slug(), guess_str(*g)))
                .collect();
            out.push(("g", g.join(",")));
        }
        if !self.revealed.is_empty() {
            let r: Vec<&str> = self.revealed.iter().map(|e| e.slug()).collect();
            out.push(("r", r.join(",")));
        }
        if self.stepping {
            out.push(("v", "1".into()));
            out.push(("s", self.step.to_string()));
        }
        if self.codex {
            out.push(("x", "1".into()));
        }
        if let Some((f, m)) = &self.import {
            out.push(("f", f.clone()));
            out.push(("m", m.clone()));
        }
        out
    }

    /// Every entry this snapshot keeps: [`Snapshot::to_entries`] and the texts as typed (for
    /// [`crate::persist::store::encode`]; the keys of the drafts are made here, hence `String`).
    pub fn to_stored(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = self
            .to_entries()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        let mut put = |k: &str, v: &Option<String>| {
            if let Some(v) = v {
                out.push((k.to_string(), v.clone()));
            }
        };
        put("tt", &self.tool_text);
        put("ti", &self.input_text);
        put("e", &self.editor);
        if self.editor_error {
            out.push(("ee".into(), "1".into()));
        }
        if self.import_error {
            out.push(("ie".into(), "1".into()));
        }
        for (p, t, i) in &self.drafts {
            out.push((format!("dt.{p}"), t.clone()));
            out.push((format!("di.{p}"), i.clone()));
        }
        if !self.earlier.is_empty() {
            let e: Vec<String> = self
                .earlier
                .iter()
                .map(|(e, g, d)| format!("{}:{}:{}", e.slug(), guess_str(*g), d.as_str()))
                .collect();
            out.push(("pe".into(), e.join(",")));
        }
        for (k, v) in [
            ("lg", &self.log),
            ("ud", &self.undo),
            ("rc", &self.record),
            ("lf", &self.lesson),
        ] {
            if let Some(v) = v {
                out.push((k.to_string(), v.clone()));
            }
        }
        if !self.tasks.is_empty() {
            let t: String = self
                .tasks
                .iter()
                .map(|d| if *d { '1' } else { '0' })
                .collect();
            out.push(("tk".into(), t));
        }
        out
    }

    /// Reads entries from a stored item ([`crate::persist::store::decode`]) or an old-format link
    /// ([`crate::persist::hash::read`]); unreadable parts are dropped.
    pub fn from_entries(entries: &[(String, String)]) -> Snapshot {
        let mut s = Snapshot::default();
        let get = |k: &str| entries.iter().find(|(key, _)| key == k).map(|(_, v)| v);
        s.preset = get("p").cloned();
        s.custom = get("j").cloned();
        s.order = get("o").and_then(|o| {
            o.split('.')
                .map(|n| n.parse::<u32>().ok().map(RuleId))
                .collect::<Option<Vec<_>>>()
        });
        if let (Some(t), Some(i)) = (get("t"), get("i")) {
            s.call = Some(Call::new(t.clone(), i.clone()));
        }
        if let Some(g) = get("g") {
            s.guesses = g
                .split(',')
                .filter_map(|p| {
                    let (e, g) = p.split_once(':')?;
                    Some((EngineId::from_slug(e)?, parse_guess(g)?))
                })
                .collect();
        }
        if let Some(r) = get("r") {
            s.revealed = r.split(',').filter_map(EngineId::from_slug).collect();
        }
        s.stepping = get("v").is_some_and(|v| v == "1");
        s.step = get("s").and_then(|v| v.parse().ok()).unwrap_or(0);
        s.codex = get("x").is_some_and(|v| v == "1");
        if let (Some(f), Some(m)) = (get("f"), get("m")) {
            s.import = Some((f.clone(), m.clone()));
        }
        s.tool_text = get("tt").cloned();
        s.input_text = get("ti").cloned();
        s.editor = get("e").cloned();
        s.editor_error = get("ee").is_some_and(|v| v == "1");
        s.import_error = get("ie").is_some_and(|v| v == "1");
        s.log = get("lg").cloned();
        s.undo = get("ud").cloned();
        s.record = get("rc").cloned();
        s.lesson = get("lf").cloned();
        s.tasks = get("tk")
            .map(|t| t.chars().take(1000).map(|c| c == '1').collect())
            .unwrap_or_default();
        if let Some(pe) = get("pe") {
            s.earlier = pe
                .split(',')
                .filter_map(|p| {
                    let mut it = p.split(':');
                    let e = EngineId::from_slug(it.next()?)?;
                    let g = parse_guess(it.next()?)?;
                    let Guess::Verdict(d) = parse_guess(it.next()?)? else {
                        return None;
                    };
                    Some((e, g, d))
                })
                .collect();
        }
        for (k, t) in entries {
            let Some(p) = k.strip_prefix("dt.") else {
                continue;
            };
            if let Some(i) = get(&format!("di.{p}")) {
                s.drafts.push((p.to_string(), t.clone(), i.clone()));
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::persist::hash;

    #[test]
    fn round_trip_through_the_hash() {
        let s = Snapshot {
            preset: Some("miniagent".into()),
            custom: None,
            order: Some(vec![RuleId(1), RuleId(10), RuleId(8)]),
            call: Some(Call::new("bash", "echo '<b>' \u{202e} 😀\nx")),
            guesses: vec![
                (EngineId::FirstMatch, Guess::Verdict(Decision::Deny)),
                (EngineId::OpenCode, Guess::Skip),
            ],
            revealed: vec![EngineId::FirstMatch],
            stepping: true,
            step: 3,
            codex: true,
            import: Some(("claude-code".into(), "{\"permissions\": {}}".into())),
            ..Snapshot::default()
        };
        let h = hash::write("#top", "a3", &s.to_entries());
        assert!(h.starts_with("top&"));
        assert_eq!(Snapshot::from_entries(&hash::read(&h, "a3")), s);
    }

    #[test]
    fn typed_texts_round_trip_through_the_store() {
        let s = Snapshot {
            preset: Some("l-a\"b&c".into()),
            tool_text: Some("<img src=x onerror=alert(1)>".into()),
            input_text: Some("\u{202e}abc\n".into()),
            editor: Some("[{\"tool\": ".into()),
            editor_error: true,
            import_error: true,
            import: Some(("auto".into(), "</textarea><script>alert(1)</script>".into())),
            drafts: vec![("git".into(), "bad tool".into(), "a\u{200b}b".into())],
            tasks: vec![true, false, true],
            record: Some("completed\ngit bash ls opencode 2 allow 1\n".into()),
            lesson: Some(fingerprint("{}")),
            earlier: vec![
                (
                    EngineId::OpenCode,
                    Guess::Verdict(Decision::Deny),
                    Decision::Allow,
                ),
                (EngineId::FirstMatch, Guess::Skip, Decision::Deny),
            ],
            ..Snapshot::default()
        };
        let text = crate::persist::store::encode("a3", &s.to_stored());
        let back = crate::persist::store::decode(&text, "a3").expect("reads");
        assert_eq!(Snapshot::from_entries(&back), s);
    }

    #[test]
    fn garbage_is_ignored() {
        let entries = vec![
            ("o".to_string(), "1.x.3".to_string()),
            (
                "g".to_string(),
                "nope:allow,opencode:maybe,codex:ask".to_string(),
            ),
            ("s".to_string(), "-1".to_string()),
        ];
        let s = Snapshot::from_entries(&entries);
        assert_eq!(s.order, None);
        assert_eq!(
            s.guesses,
            [(EngineId::Codex, Guess::Verdict(Decision::Ask))]
        );
        assert_eq!(s.step, 0);
    }
}

pub mod hash;
pub mod history;
pub mod saved;
pub mod store;
mod store_text;
