//! Where each imported row is written: the file, line and column of the native rule it came
//! from, so that a verdict can name `settings.json:7:9` rather than a row number the reader
//! never wrote.
//!
//! The import itself keeps only a path per row ([`Imported::origins`]); the places are found
//! afterwards in the same text, with the same locators the linter's findings use, so the two
//! always point at the same character.

use super::{Format, Imported};
use crate::json::{self, Value};
use crate::lint::locate::{self, Seg};
use crate::lint::{Place, Source};
use crate::table::Action;

/// Where the Claude Code rule `permissions.<group>[index]` of a settings file is written
/// (`index` counts the rule strings of that list, as [`crate::claude_code::PolicyRule::index`]
/// does: an entry that is not a string is skipped). `None` when the text is not JSON or has no
/// such rule.
///
/// ```
/// use permlab_core::import::claude_rule_place;
/// use permlab_core::Action;
/// let text = "{\"permissions\": {\n  \"ask\": [1, \"Bash(git push *)\"]\n}}";
/// let p = claude_rule_place("B.json", text, Action::Ask, 0).unwrap();
/// assert_eq!((p.file.as_str(), p.line, p.column), ("B.json", 2, 14));
/// ```
pub fn claude_rule_place(name: &str, text: &str, group: Action, index: usize) -> Option<Place> {
    ClaudeRulePlaces::new(name, text).place(group, index)
}

/// [`claude_rule_place`] for many rules of one settings file: the text is parsed once, its
/// lines indexed once and each list walked once (a place found from the top for each rule
/// made thousands of rules quadratic).
///
/// ```
/// use permlab_core::import::ClaudeRulePlaces;
/// use permlab_core::Action;
/// let text = "{\"permissions\": {\n  \"ask\": [1, \"Bash(git push *)\"],\n  \"deny\": [\"Read(./.env)\"]}}";
/// let places = ClaudeRulePlaces::new("B.json", text);
/// assert_eq!(places.place(Action::Ask, 0).map(|p| (p.line, p.column)), Some((2, 14)));
/// assert_eq!(places.place(Action::Deny, 0).map(|p| (p.line, p.column)), Some((3, 12)));
/// assert_eq!(places.place(Action::Allow, 0), None);
/// ```
pub struct ClaudeRulePlaces<'a> {
    name: &'a str,
    text: &'a str,
    value: Option<Value>,
    lines: locate::Lines<'a>,
    /// Per list read so far: the offset of each rule string.
    lists: std::cell::RefCell<Vec<(Action, Vec<usize>)>>,
}

impl<'a> ClaudeRulePlaces<'a> {
    /// The settings file `name` with the text `text`.
    pub fn new(name: &'a str, text: &'a str) -> ClaudeRulePlaces<'a> {
        ClaudeRulePlaces {
            name,
            text,
            value: json::parse(text).ok(),
            lines: locate::Lines::new(text),
            lists: std::cell::RefCell::new(Vec::new()),
        }
    }

    /// Where `permissions.<group>[index]` is written (`index` counts the rule strings).
    pub fn place(&self, group: Action, index: usize) -> Option<Place> {
        let value = self.value.as_ref()?;
        let mut lists = self.lists.borrow_mut();
        if !lists.iter().any(|(g, _)| *g == group) {
            lists.push((group, string_offsets(self.text, value, group)));
        }
        let (_, offsets) = lists.iter().find(|(g, _)| *g == group)?;
        let (line, column) = self.lines.line_col(*offsets.get(index)?);
        Some(Place {
            file: self.name.to_string(),
            line,
            column,
        })
    }
}

/// Per row of `imported` (read from `text`, the file `name`): where its native rule is
/// written; `None` where it cannot be found (a row the import made up, a text that is not the
/// one imported).
///
/// ```
/// use permlab_core::import::{import, row_places, Format};
/// let text = "{\"permission\": {\n  \"bash\": {\"*\": \"ask\", \"git *\": \"allow\"}\n}}";
/// let i = import(Format::OpenCode, text).unwrap();
/// let at: Vec<_> = row_places(&i, "opencode.json", text).into_iter()
///     .map(|p| p.map(|p| (p.line, p.column))).collect();
/// assert_eq!(at, [Some((2, 12)), Some((2, 24))]);
/// ```
pub fn row_places(imported: &Imported, name: &str, text: &str) -> Vec<Option<Place>> {
    let rows = imported.table.len();
    let mut out = match imported.format {
        Format::ClaudeCode => claude_rows(imported, name, text),
        Format::OpenCode => opencode_rows(name, text),
        Format::Codex => codex_rows(imported, name, text),
    };
    out.resize(rows, None);
    out
}

fn claude_rows(imported: &Imported, name: &str, text: &str) -> Vec<Option<Place>> {
    let places = ClaudeRulePlaces::new(name, text);
    if places.value.is_none() {
        return Vec::new();
    }
    imported
        .origins
        .iter()
        .map(|o| {
            // `permissions.<group>[i]`, as the importer writes it.
            let rest = o.strip_prefix("permissions.")?;
            let (group, index) = rest.strip_suffix(']')?.split_once('[')?;
            let group = match group {
                "allow" => Action::Allow,
                "ask" => Action::Ask,
                "deny" => Action::Deny,
                _ => return None,
            };
            places.place(group, index.parse().ok()?)
        })
        .collect()
}

/// The offset of every rule string of `permissions.<group>` (entries that are not strings
/// skipped, as the rules' indexes skip them).
fn string_offsets(text: &str, value: &Value, group: Action) -> Vec<usize> {
    let key = group.as_str();
    let Some(items) = value
        .get("permissions")
        .and_then(|p| p.get(key))
        .and_then(Value::as_array)
    else {
        return Vec::new();
    };
    let all = locate::elements(text, &[Seg::Key("permissions"), Seg::Key(key)]);
    items
        .iter()
        .zip(all)
        .filter(|(v, _)| v.as_str().is_some())
        .map(|(_, at)| at)
        .collect()
}

/// The top-level rules in OpenCode's order, which is the table's: the linter's reader walks
/// the same decoded config the importer does.
fn opencode_rows(name: &str, text: &str) -> Vec<Option<Place>> {
    let src = Source {
        name: name.to_string(),
        text: text.to_string(),
        format: Some(Format::OpenCode),
        scope: None,
    };
    match crate::lint::opencode::read(&src) {
        Ok(sets) => sets.top.into_iter().map(|w| Some(w.place)).collect(),
        Err(_) => Vec::new(),
    }
}

#[cfg(feature = "rules-files")]
fn codex_rows(imported: &Imported, name: &str, text: &str) -> Vec<Option<Place>> {
    let mut policy = crate::codex::Policy::empty();
    let Ok((calls, _)) = policy.add_file_with_calls(name, text) else {
        return Vec::new();
    };
    // Stored rule k (the importer's `prefix rule #k+1`) → the offset of its `prefix_rule(`.
    let mut offsets = Vec::new();
    for c in &calls {
        for _ in c.rules.clone() {
            offsets.push(c.offset);
        }
    }
    let lines = locate::Lines::new(text);
    imported
        .origins
        .iter()
        .map(|o| {
            let k: usize = o.strip_prefix("prefix rule #")?.parse().ok()?;
            let (line, column) = lines.line_col(*offsets.get(k.checked_sub(1)?)?);
            Some(Place {
                file: name.to_string(),
                line,
                column,
            })
        })
        .collect()
}

#[cfg(not(feature = "rules-files"))]
fn codex_rows(_: &Imported, _: &str, _: &str) -> Vec<Option<Place>> {
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::import;

    #[test]
    fn claude_rows_point_at_their_strings() {
        let text = "{\n  \"permissions\": {\n    \"deny\": [\"Bash(rm *)\"],\n    \"allow\": [\"Read\", \"Bash(git *)\"]\n  }\n}";
        let i = import(Format::ClaudeCode, text).unwrap();
        let at: Vec<_> = row_places(&i, "s.json", text)
            .into_iter()
            .map(|p| p.map(|p| (p.line, p.column)))
            .collect();
        // Rows are deny, ask, allow.
        assert_eq!(at, [Some((3, 14)), Some((4, 15)), Some((4, 23))]);
    }

    #[test]
    fn agent_front_matter_rows_point_at_their_keys() {
        let text = "---\ndescription: x\npermission:\n  bash:\n    \"*\": ask\n    \"git *\": allow\n---\nbody\n";
        let i = import(Format::OpenCode, text).unwrap();
        let at: Vec<_> = row_places(&i, "agent.md", text)
            .into_iter()
            .map(|p| p.map(|p| (p.line, p.column)))
            .collect();
        assert_eq!(at, [Some((5, 5)), Some((6, 5))]);
    }

    #[cfg(feature = "rules-files")]
    #[test]
    fn codex_rows_point_at_their_call() {
        let text = "# policy\nprefix_rule(pattern=[\"git\", [\"push\", \"fetch\"]], decision=\"prompt\")\n\nprefix_rule(pattern=[\"rm\"], decision=\"forbidden\")\n";
        let i = crate::import::import_file("p.rules", text).unwrap();
        let at: Vec<_> = row_places(&i, "p.rules", text)
            .into_iter()
            .map(|p| p.map(|p| (p.line, p.column)))
            .collect();
        assert_eq!(at, [Some((2, 1)), Some((2, 1)), Some((4, 1))]);
    }

    #[test]
    fn claude_rows_are_where_each_rule_is_found_alone() {
        let text = "{\"permissions\": {\n  \"deny\": [\"Bash(rm *)\", 3, {\"x\": [\"y\"]},\n    \"Read(./.env)\"],\n  \"allow\": [\"Bash(git *)\", \"Bash(ls)\"],\n  \"ask\": []}}";
        let i = crate::import::import(Format::ClaudeCode, text).unwrap();
        let rows = row_places(&i, "s.json", text);
        assert_eq!(rows.len(), i.table.len());
        for (row, origin) in rows.iter().zip(&i.origins) {
            let rest = origin.strip_prefix("permissions.").unwrap();
            let (group, index) = rest.strip_suffix(']').unwrap().split_once('[').unwrap();
            let alone = claude_rule_place(
                "s.json",
                text,
                group.parse().unwrap(),
                index.parse().unwrap(),
            );
            assert_eq!(row, &alone, "{origin}");
            assert!(row.is_some(), "{origin}");
        }
    }
}
