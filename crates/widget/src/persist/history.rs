//! The reorder log and the undo history as stored text, so a reload keeps what the learner did
//! to the order, not only where it ended: the log still says which engines flipped, and Undo
//! still steps back.
//!
//! Two entries of the stored state (see [`crate::persist::store`]): `lg`, the log's last
//! [`LOG_KEPT`] entries, `;`-separated, each `change|flipped|engines|known`:
//!
//! - change: `m.RULE.FROM.TO` (a move), `r` (reverse), `u` (undo), `z` (reset);
//! - flipped: `engine>before>after`, `,`-separated; engines and known: slugs, `,`-separated;
//!
//! and `ud`, the undo stack's last [`UNDO_KEPT`] orders (`;`-separated, ids `.`-separated),
//! only for tables of at most [`UNDO_ROWS`] rules (a 10 000-rule order is 60 KB a step).
//! Anything unreadable is dropped, entry by entry.
//!
//! ```
//! use permlab_widget::persist::history::{read_log, write_log};
//! use permlab_widget::state::{Change, LogEntry};
//! use permlab_core::{analysis::VerdictChange, Decision, EngineId, RuleId};
//! let log = vec![LogEntry {
//!     change: Change::Move { rule: RuleId(8), from: 8, to: 10 },
//!     flipped: vec![VerdictChange { engine: EngineId::OpenCode, before: Decision::Allow, after: Decision::Deny }],
//!     engines: vec![EngineId::FirstMatch, EngineId::OpenCode],
//!     known: vec![EngineId::OpenCode],
//! }];
//! let text = write_log(&log);
//! assert_eq!(text, "m.8.8.10|opencode>allow>deny|first-match,opencode|opencode");
//! assert_eq!(read_log(&text), log);
//! ```

use permlab_core::analysis::VerdictChange;
use permlab_core::{Decision, EngineId, RuleId};

use crate::state::{Change, LogEntry};

/// How many log entries a reload keeps (the newest).
pub const LOG_KEPT: usize = 50;
/// How many undo steps a reload keeps (the newest).
pub const UNDO_KEPT: usize = 20;
/// The largest table whose undo history is kept.
pub const UNDO_ROWS: usize = 500;

fn slugs(es: &[EngineId]) -> String {
    es.iter().map(|e| e.slug()).collect::<Vec<_>>().join(",")
}

fn engines(s: &str) -> Option<Vec<EngineId>> {
    s.split(',')
        .filter(|p| !p.is_empty())
        .map(EngineId::from_slug)
        .collect()
}

fn decision(s: &str) -> Option<Decision> {
    Some(match s {
        "allow" => Decision::Allow,
        "ask" => Decision::Ask,
        "deny" => Decision::Deny,
        "unavailable" => Decision::Unavailable,
        _ => return None,
    })
}

/// The log's newest [`LOG_KEPT`] entries as text.
pub fn write_log(log: &[LogEntry]) -> String {
    log[log.len().saturating_sub(LOG_KEPT)..]
        .iter()
        .map(|e| {
            let change = match e.change {
                Change::Move { rule, from, to } => format!("m.{}.{from}.{to}", rule.0),
                Change::Reverse => "r".into(),
                Change::Undo => "u".into(),
                Change::Reset => "z".into(),
            };
            let flipped: Vec<String> = e
                .flipped
                .iter()
                .map(|f| {
                    format!(
                        "{}>{}>{}",
                        f.engine.slug(),
                        f.before.as_str(),
                        f.after.as_str()
                    )
                })
                .collect();
            format!(
                "{change}|{}|{}|{}",
                flipped.join(","),
                slugs(&e.engines),
                slugs(&e.known)
            )
        })
        .collect::<Vec<_>>()
        .join(";")
}

/// The log [`write_log`] wrote; an entry that cannot be read is left out.
pub fn read_log(text: &str) -> Vec<LogEntry> {
    text.split(';')
        .filter_map(|entry| {
            let mut parts = entry.split('|');
            let (change, flipped, es, known) =
                (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
            let change = match change {
                "r" => Change::Reverse,
                "u" => Change::Undo,
                "z" => Change::Reset,
                m => {
                    let mut n = m.strip_prefix("m.")?.split('.').map(str::parse::<usize>);
                    let (rule, from, to) = (n.next()?.ok()?, n.next()?.ok()?, n.next()?.ok()?);
                    Change::Move {
                        rule: RuleId(u32::try_from(rule).ok()?),
                        from,
                        to,
                    }
                }
            };
            let flipped = flipped
                .split(',')
                .filter(|p| !p.is_empty())
                .map(|f| {
                    let mut it = f.split('>');
                    Some(VerdictChange {
                        engine: EngineId::from_slug(it.next()?)?,
                        before: decision(it.next()?)?,
                        after: decision(it.next()?)?,
                    })
                })
                .collect::<Option<Vec<_>>>()?;
            Some(LogEntry {
                change,
                flipped,
                engines: engines(es)?,
                known: engines(known)?,
            })
        })
        .take(LOG_KEPT)
        .collect()
}

/// The undo stack's newest [`UNDO_KEPT`] orders as text (empty for a table over
/// [`UNDO_ROWS`] rules).
pub fn write_undo(undo: &[Vec<RuleId>], rows: usize) -> String {
    if rows > UNDO_ROWS {
        return String::new();
    }
    undo[undo.len().saturating_sub(UNDO_KEPT)..]
        .iter()
        .map(|o| {
            o.iter()
                .map(|id| id.0.to_string())
                .collect::<Vec<_>>()
                .join(".")
        })
        .collect::<Vec<_>>()
        .join(";")
}

/// The orders [`write_undo`] wrote that are orders of `ids` (the same rules): another table's
/// or a damaged one is left out.
pub fn read_undo(text: &str, ids: &[RuleId]) -> Vec<Vec<RuleId>> {
    let mut want: Vec<RuleId> = ids.to_vec();
    want.sort_unstable();
    text.split(';')
        .filter(|o| !o.is_empty())
        .filter_map(|o| {
            let order = o
                .split('.')
                .map(|n| n.parse::<u32>().ok().map(RuleId))
                .collect::<Option<Vec<_>>>()?;
            let mut sorted = order.clone();
            sorted.sort_unstable();
            (sorted == want).then_some(order)
        })
        .take(UNDO_KEPT)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn damaged_entries_are_dropped_one_by_one() {
        let good = "r||first-match,opencode|;u|opencode>deny>allow|opencode|";
        assert_eq!(read_log(good).len(), 2);
        let bad = format!("{good};m.x.1.2|||;r|nope>allow>deny||;z|||;m.3.1");
        let log = read_log(&bad);
        assert_eq!(log.len(), 3, "{log:?}");
        assert_eq!(log[2].change, Change::Reset);
        let ids = [RuleId(1), RuleId(2), RuleId(3)];
        let undo = read_undo("3.2.1;1.2;1.2.3;4.2.1;;x", &ids);
        assert_eq!(
            undo,
            vec![vec![RuleId(3), RuleId(2), RuleId(1)], ids.to_vec()]
        );
        assert_eq!(write_undo(&undo, 3), "3.2.1;1.2.3");
        assert_eq!(write_undo(&undo, UNDO_ROWS + 1), "");
    }
}
