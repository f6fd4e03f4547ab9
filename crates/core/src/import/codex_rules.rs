//! Codex `.rules` → `bash` rows `tok1 tok2 *`.
//!
//! Reading a `.rules` file runs Codex's Starlark; without the `rules-files` feature (the
//! widget's page bundle) the import says so instead, and the page asks its worker.
#![cfg_attr(not(feature = "rules-files"), allow(dead_code, unused_imports))]

use super::{Format, ImportNote, ImportWarning, Imported};
use crate::codex::{translate_pattern, Decision, PatternToken, Policy};
use crate::error::{Error, ErrorKind};
use crate::table::{Action, RuleTable};

/// More rows than this from one rule's alternatives are refused (a warning), not expanded.
const MAX_EXPANSION: usize = 256;

/// A token as a shell word that `shlex.split` gives back unchanged.
fn quote(token: &str) -> String {
    let safe = !token.is_empty()
        && token
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c));
    if safe {
        token.to_string()
    } else {
        format!("'{}'", token.replace('\'', "'\"'\"'"))
    }
}

#[cfg(not(feature = "rules-files"))]
pub(super) fn import_text(_name: &str, _text: &str) -> Result<Imported, Error> {
    Err(Error::new(ErrorKind::Config(
        "reading a Codex .rules file needs the rules-files feature (Starlark), not in this build"
            .into(),
    )))
}

#[cfg(feature = "rules-files")]
pub(super) fn import_text(name: &str, text: &str) -> Result<Imported, Error> {
    let policy =
        Policy::parse(name, text).map_err(|e| Error::new(ErrorKind::Config(e.to_string())))?;
    let mut rows: Vec<(String, Action)> = Vec::new();
    let mut origins = Vec::new();
    let mut warnings = Vec::new();
    let mut canonical = Vec::new();
    for (i, rule) in policy.rules().iter().enumerate() {
        let at = format!("prefix rule #{}", i + 1);
        let action = match rule.decision {
            Decision::Allow => Action::Allow,
            Decision::Prompt => Action::Ask,
            Decision::Forbidden => Action::Deny,
        };
        let mut patterns: Vec<Vec<&str>> = vec![vec![rule.first.as_str()]];
        let mut too_many = false;
        for tok in &rule.rest {
            let alts: Vec<&str> = match tok {
                PatternToken::Single(t) => vec![t.as_str()],
                PatternToken::Alts(a) => a.iter().map(String::as_str).collect(),
            };
            if patterns.len().saturating_mul(alts.len()) > MAX_EXPANSION {
                too_many = true;
                break;
            }
            patterns = patterns
                .iter()
                .flat_map(|p| {
                    alts.iter().map(move |a| {
                        let mut q = p.clone();
                        q.push(a);
                        q
                    })
                })
                .collect();
        }
        let shown = patterns.first().map(|p| p.join(" ")).unwrap_or_default();
        if rule.canonical && !too_many {
            canonical.push(at.clone());
            warnings.push(ImportWarning {
                at: at.clone(),
                rule: Some(shown.clone()),
                message: "canonical_matching=True: Codex case-folds every token (`GIT Push` \
                          matches) and its panel keeps that folding; the other engines match \
                          the row as written"
                    .into(),
                dropped: false,
                note: ImportNote::CodexCanonical,
            });
        }
        if too_many {
            warnings.push(ImportWarning {
                at,
                rule: Some(shown),
                message: format!(
                    "its alternatives expand to more than {MAX_EXPANSION} rows: split the rule"
                ),
                dropped: true,
                note: ImportNote::CodexTooManyAlternatives(MAX_EXPANSION),
            });
            continue;
        }
        for p in patterns {
            let pattern = format!(
                "{} *",
                p.iter().map(|t| quote(t)).collect::<Vec<_>>().join(" ")
            );
            let back = translate_pattern(&pattern);
            if back
                .as_deref()
                .ok()
                .map(|v| v.iter().map(String::as_str).collect::<Vec<_>>())
                != Some(p.clone())
            {
                warnings.push(ImportWarning {
                    at: at.clone(),
                    rule: Some(pattern.clone()),
                    message: "a token holds `*`, `?` or `[`, which execpolicy compares literally \
                              but the table's patterns read as wildcards: the other engines may \
                              match more"
                        .into(),
                    dropped: false,
                    note: ImportNote::CodexLiteralWildcard,
                });
            }
            rows.push((pattern, action));
            origins.push(at.clone());
        }
    }
    let table = RuleTable::new(rows.iter().map(|(p, a)| ("bash", p.as_str(), *a)));
    Ok(Imported {
        format: Format::Codex,
        table,
        origins,
        warnings,
        rules_in: policy.rules().len(),
        claude_settings: None,
        canonical,
    })
}
