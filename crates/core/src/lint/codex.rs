//! Codex execpolicy: strictest match wins over exact-token prefixes. Dead rules, flags a
//! prefix cannot see, tokens with spaces, and `match=`/`not_match=` examples that fail.

use super::{file_error, place_at, Demo, Facts, Finding, Kind, Place, RuleRef, Severity, Source};
use crate::codex::{shlex, Decision, PatternToken, Policy, PrefixRule, RuleCall};
use crate::error::Error;
use crate::evaluation::Decision as Verdict;
use crate::import::Format;
use crate::table::{Action, Call};

fn action(d: Decision) -> Action {
    match d {
        Decision::Allow => Action::Allow,
        Decision::Prompt => Action::Ask,
        Decision::Forbidden => Action::Deny,
    }
}

fn alts(t: &PatternToken) -> Vec<&str> {
    match t {
        PatternToken::Single(s) => vec![s.as_str()],
        PatternToken::Alts(a) => a.iter().map(String::as_str).collect(),
    }
}

fn quoted(s: &str) -> String {
    crate::json::Value::from(s).to_json()
}

/// The rule as a `prefix_rule` call (its first token fixed).
fn text(r: &PrefixRule) -> String {
    let mut parts = vec![quoted(&r.first)];
    for t in &r.rest {
        parts.push(match t {
            PatternToken::Single(s) => quoted(s),
            PatternToken::Alts(a) => {
                format!(
                    "[{}]",
                    a.iter().map(|x| quoted(x)).collect::<Vec<_>>().join(", ")
                )
            }
        });
    }
    format!(
        "prefix_rule(pattern=[{}], decision=\"{}\")",
        parts.join(", "),
        r.decision.as_str()
    )
}

struct Loaded<'a> {
    policy: Policy,
    /// Per stored rule: its file and the offset of its `prefix_rule(` call.
    at: Vec<(&'a Source, usize)>,
    calls: Vec<(&'a Source, RuleCall)>,
    failed: Vec<(&'a Source, crate::codex::LoadError)>,
}

impl Loaded<'_> {
    fn place(&self, r: usize) -> Place {
        let (src, off) = self.at[r];
        place_at(src, off)
    }

    fn rule_ref(&self, r: usize) -> RuleRef {
        let rule = &self.policy.rules()[r];
        RuleRef {
            place: self.place(r),
            text: text(rule),
            action: action(rule.decision),
        }
    }

    fn decide(&self, cmd: &[String]) -> (Option<Decision>, Option<usize>) {
        // The policy's own index of the rules matching `cmd`, in order (a scan of every rule
        // per finding made a file of 20 000 rules take seconds).
        let rules = self.policy.rules();
        let mut best: Option<(usize, Decision)> = None;
        for i in self.policy.matching_rule_indices(cmd) {
            let r = &rules[i];
            if best.is_none_or(|(_, b)| r.decision > b) {
                best = Some((i, r.decision));
            }
        }
        // The engine's own answer; the scan above only names the rule.
        let check = self.policy.check(cmd);
        debug_assert_eq!(check.decision, best.map(|(_, d)| d));
        (check.decision, best.map(|(i, _)| i))
    }

    fn demo(&self, cmd: &[String]) -> Demo {
        let (d, r) = self.decide(cmd);
        let joined = shlex::try_join(cmd);
        Demo {
            call: Call::new("bash", joined.clone()),
            native: joined,
            verdict: d.map(action).map(Verdict::from).unwrap_or(Verdict::Ask),
            decided_by: match r {
                Some(i) => format!("`{}`, the strictest match", text(&self.policy.rules()[i])),
                None => "no rule matched: Codex falls back to its own heuristics".into(),
            },
        }
    }
}

fn load<'a>(sources: &[&'a Source]) -> Result<Loaded<'a>, Vec<Error>> {
    let mut l = Loaded {
        policy: Policy::empty(),
        at: Vec::new(),
        calls: Vec::new(),
        failed: Vec::new(),
    };
    let mut errors = Vec::new();
    for s in sources {
        match l.policy.add_file_with_calls(&s.name, &s.text) {
            Ok((calls, failed)) => {
                for c in calls {
                    for _ in c.rules.clone() {
                        l.at.push((*s, c.offset));
                    }
                    l.calls.push((*s, c));
                }
                if let Some(e) = failed {
                    l.failed.push((*s, e));
                }
            }
            Err(e) => errors.push(file_error(
                &s.name,
                format!(
                    "{}:{}: {} (Codex refuses the whole policy: fix this line)",
                    e.line, e.column, e.message
                ),
            )),
        }
    }
    // Rules made outside a `prefix_rule` call's range cannot happen; keep `at` aligned anyway.
    while l.at.len() < l.policy.rules().len() {
        let s = sources[0];
        l.at.push((s, 0));
    }
    if errors.is_empty() {
        Ok(l)
    } else {
        Err(errors)
    }
}

/// Whether `s` matches every command `r` matches.
fn covers(s: &PrefixRule, r: &PrefixRule) -> bool {
    s.first == r.first
        && s.rest.len() <= r.rest.len()
        && s.rest.iter().zip(&r.rest).all(|(a, b)| {
            let a = alts(a);
            alts(b).iter().all(|t| a.contains(t))
        })
}

fn example(r: &PrefixRule) -> Vec<String> {
    let mut cmd = vec![r.first.clone()];
    cmd.extend(r.rest.iter().map(|t| alts(t)[0].to_string()));
    cmd
}

pub(crate) fn lint(sources: &[&Source]) -> (Vec<Finding>, Vec<Error>) {
    let l = match load(sources) {
        Ok(l) => l,
        Err(e) => return (Vec::new(), e),
    };
    let mut out = Vec::new();
    let rules = l.policy.rules();
    let coverers = Coverers::new(rules);
    for (i, r) in rules.iter().enumerate() {
        if let Some(f) = dead(&l, &coverers, i) {
            out.push(f);
            continue;
        }
        let finding =
            |kind, severity, message: String, cmd: &[String], fix: String, facts: Facts| Finding {
                kind,
                severity,
                harness: Format::Codex,
                place: l.place(i),
                rules: vec![l.rule_ref(i)],
                message,
                call: l.demo(cmd),
                fix,
                facts,
            };
        // A flag after the prefix: any argument before it escapes the rule.
        if r.decision != Decision::Allow {
            if let Some(k) = r
                .rest
                .iter()
                .position(|t| alts(t).iter().all(|a| a.starts_with('-') && a.len() > 1))
            {
                let base = example(r);
                let mut cmd = base[..k + 1].to_vec();
                cmd.push(if r.first == "git" { "origin" } else { "file" }.into());
                cmd.extend(base[k + 1..].iter().cloned());
                let (d, _) = l.decide(&cmd);
                if d < Some(r.decision) {
                    let flag = &base[k + 1];
                    out.push(finding(
                        Kind::FlagAfterPrefix,
                        Severity::Warning,
                        format!(
                            "Codex compares tokens position by position: `{flag}` is caught only right after `{}`, so `{}` escapes this {} rule",
                            base[..k + 1].join(" "),
                            shlex::try_join(&cmd),
                            r.decision.as_str()
                        ),
                        &cmd,
                        format!(
                            "a prefix rule cannot find a flag anywhere in the command: give the shorter prefix `{}` the decision `{}` (with a `justification`), or add a rule for each argument order you mean",
                            base[..k + 1].join(" "),
                            r.decision.as_str()
                        ),
                        Facts {
                            part: Some(flag.clone()),
                            write: vec![base[..k + 1].join(" ")],
                            ..Facts::default()
                        },
                    ));
                }
            }
        }
        // A token with a space never equals one argv token.
        // (Except a shell script after `-c`/`-lc`: that argv token holds spaces by design.)
        let mut prev = r.first.as_str();
        let mut spaced = r
            .first
            .contains(char::is_whitespace)
            .then_some(r.first.as_str());
        for t in &r.rest {
            let script = matches!(prev, "-c" | "-lc");
            if spaced.is_none() && !script {
                spaced = alts(t)
                    .into_iter()
                    .find(|a| a.contains(char::is_whitespace));
            }
            prev = alts(t)[0];
        }
        if let Some(t) = spaced {
            let cmd: Vec<String> = example(r)
                .iter()
                .flat_map(|x| x.split_whitespace().map(str::to_string).collect::<Vec<_>>())
                .collect();
            if r.matched_prefix(&cmd).is_none() {
                out.push(finding(
                    Kind::TokenWithSpace,
                    Severity::Warning,
                    format!(
                        "the token {} holds a space, but patterns are never split: it can only equal one argv token with that space inside, so `{}` is not matched",
                        quoted(t),
                        shlex::try_join(&cmd)
                    ),
                    &cmd,
                    format!(
                        "write each word as its own token: [{}]",
                        t.split_whitespace().map(quoted).collect::<Vec<_>>().join(", ")
                    ),
                    Facts {
                        part: Some(t.to_string()),
                        write: vec![format!(
                            "[{}]",
                            t.split_whitespace().map(quoted).collect::<Vec<_>>().join(", ")
                        )],
                        ..Facts::default()
                    },
                ));
            }
        }
    }
    out.extend(failing_examples(&l));
    (out, Vec::new())
}

/// The rules that could cover a rule ([`covers`]), by its first token and the first
/// alternative of its second: a rule with that first token and no more tokens, or whose second
/// token has that alternative. Testing every pair was quadratic (20 000 rules: seconds).
struct Coverers<'a> {
    by: std::collections::HashMap<(&'a str, Option<&'a str>), Vec<usize>>,
}

impl<'a> Coverers<'a> {
    fn new(rules: &'a [PrefixRule]) -> Self {
        let mut by: std::collections::HashMap<_, Vec<usize>> = Default::default();
        for (k, s) in rules.iter().enumerate() {
            match s.rest.first() {
                None => by.entry((s.first.as_str(), None)).or_default().push(k),
                Some(t) => {
                    let mut seen: Vec<&str> = Vec::new();
                    for a in alts(t) {
                        if !seen.contains(&a) {
                            seen.push(a);
                            by.entry((s.first.as_str(), Some(a))).or_default().push(k);
                        }
                    }
                }
            }
        }
        Coverers { by }
    }

    /// Every rule that may cover `r`, in policy order (a superset of those that do).
    fn of(&self, r: &PrefixRule) -> Vec<usize> {
        let none = self.by.get(&(r.first.as_str(), None));
        let second = r
            .rest
            .first()
            .and_then(|t| self.by.get(&(r.first.as_str(), Some(alts(t)[0]))));
        let mut out: Vec<usize> = none
            .into_iter()
            .chain(second)
            .flat_map(|v| v.iter().copied())
            .collect();
        out.sort_unstable();
        out
    }
}

fn dead(l: &Loaded, coverers: &Coverers, i: usize) -> Option<Finding> {
    let rules = l.policy.rules();
    let r = &rules[i];
    let (k, s) = coverers
        .of(r)
        .into_iter()
        .map(|k| (k, &rules[k]))
        .find(|(k, s)| {
            *k != i
            && s.decision >= r.decision
            && covers(s, r)
            // Two rules covering each other with the same decision: the first one stays.
            && !(covers(r, s) && s.decision == r.decision && *k > i)
        })?;
    let cmd = example(r);
    let (d, _) = l.decide(&cmd);
    if r.matched_prefix(&cmd).is_none()
        || s.matched_prefix(&cmd).is_none()
        || d != Some(s.decision.max(r.decision))
    {
        return None;
    }
    let same = s.decision == r.decision;
    Some(Finding {
        kind: Kind::DeadRule,
        severity: if same {
            Severity::Note
        } else {
            Severity::Warning
        },
        harness: Format::Codex,
        place: l.place(i),
        rules: vec![l.rule_ref(i), l.rule_ref(k)],
        message: if same {
            format!(
                "`{}` never changes a decision: `{}` matches every command it matches with the same decision (Codex takes the strictest match)",
                text(r),
                text(s)
            )
        } else {
            format!(
                "`{}` never decides: `{}` matches every command it matches and is stricter ({} beats {}; Codex takes the strictest match)",
                text(r),
                text(s),
                s.decision.as_str(),
                r.decision.as_str()
            )
        },
        call: l.demo(&cmd),
        fix: if same {
            "delete it (it only repeats the other rule)".into()
        } else {
            format!(
                "an exception cannot loosen a stricter prefix: narrow `{}` (a longer pattern) or delete this rule",
                text(s)
            )
        },
        facts: Facts::default(),
    })
}

fn failing_examples(l: &Loaded) -> Vec<Finding> {
    let mut out = Vec::new();
    for (src, c) in &l.calls {
        if !l.failed.iter().any(|(s, _)| s.name == src.name) {
            continue;
        }
        let rules = &l.policy.rules()[c.rules.clone()];
        let hit = |ex: &[String]| rules.iter().any(|r| r.matched_prefix(ex).is_some());
        let first = c.rules.start;
        let bad = c
            .not_matches
            .iter()
            .filter(|ex| hit(ex))
            .map(|ex| (ex, true))
            .chain(c.matches.iter().filter(|ex| !hit(ex)).map(|ex| (ex, false)));
        for (ex, not) in bad {
            if ex.first().is_some_and(|p| p.contains('/')) || first >= l.policy.rules().len() {
                continue;
            }
            let shown = shlex::try_join(ex);
            out.push(Finding {
                kind: Kind::FailingExample,
                severity: Severity::Warning,
                harness: Format::Codex,
                place: place_at(src, c.offset),
                rules: vec![l.rule_ref(first)],
                message: if not {
                    format!("the `not_match` example `{shown}` does match this rule, so Codex refuses to load the whole policy")
                } else {
                    format!("the `match` example `{shown}` matches none of this rule's patterns (prefixes compare exact tokens), so Codex refuses to load the whole policy")
                },
                call: l.demo(ex),
                fix: if not {
                    "lengthen the pattern so that the example no longer starts with it, or drop the example".into()
                } else {
                    "make the example start with the pattern's tokens exactly, or fix the pattern".into()
                },
                facts: Facts {
                    negated: not,
                    ..Facts::default()
                },
            });
        }
    }
    out
}
