//! What of the widget's state goes into the URL hash, and back.
//!
//! Short keys under the widget's namespace (see [`crate::hash`]): `p` preset, `o` order (rule ids
//! joined by `.`, only when reordered), `t`/`i` the call's tool and input, `g` guesses
//! (`opencode:deny,claude-code:skip`), `r` revealed engines, `v` stepper open, `s` step, `x` Codex
//! shown, `j` a custom table (JSON), `f`/`m` the import panel's format and text. Anything unreadable is ignored, never half-applied.

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
}

fn guess_str(g: Guess) -> &'static str {
    match g {
        Guess::Skip => "skip",
        Guess::Verdict(d) => d.as_str(),
    }
}

fn parse_guess(s: &str) -> Option<Guess> {
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
    /// The hash entries (key, value) for [`crate::hash::write`].
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

    /// Reads entries from [`crate::hash::read`]; unreadable parts are dropped.
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
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash;

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
        };
        let h = hash::write("#top", "a3", &s.to_entries());
        assert!(h.starts_with("top&"));
        assert_eq!(Snapshot::from_entries(&hash::read(&h, "a3")), s);
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
