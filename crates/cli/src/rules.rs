//! Reading `--rules FILE` and calls for every subcommand.

use permlab_core::import;
use permlab_core::json::{self, Value};
use permlab_core::{Call, EngineId, RuleTable};

use crate::{read_file, Failure};

/// Loads a rule table: the common format (`[{"tool", "pattern", "action"}]`), OpenCode rules
/// (`[{"permission", "pattern", "action"}]`, whose `permission` plays the role of `tool` — that
/// is exactly how OpenCode's `evaluate` reads a ruleset), or a Codex `.rules` file (by its
/// name), imported as the widget's import panel does: each prefix rule becomes `bash` rows
/// `tok1 tok2 *`; what the table cannot carry is listed on stderr.
pub fn load_table(path: &str) -> Result<RuleTable, Failure> {
    let text = read_file(path)?;
    if path.ends_with(".rules") {
        let imported =
            import::import_file(path, &text).map_err(|e| Failure::input(e.to_string()))?;
        for w in &imported.warnings {
            warn!("permlab: {path}: {w}");
        }
        return Ok(imported.table);
    }
    let value =
        json::parse(&text).map_err(|e| Failure::input(format!("{path}: invalid JSON at {e}")))?;
    let value = rename_permission_to_tool(value);
    RuleTable::from_value(&value).map_err(|e| Failure::input(e.in_source(path)))
}

fn rename_permission_to_tool(value: Value) -> Value {
    let Value::Array(rows) = value else {
        return value;
    };
    let opencode = rows
        .iter()
        .any(|r| r.get("permission").is_some() && r.get("tool").is_none());
    if !opencode {
        return Value::Array(rows);
    }
    Value::Array(
        rows.into_iter()
            .map(|row| match row {
                Value::Object(entries) => Value::Object(
                    entries
                        .into_iter()
                        .map(|(k, v)| {
                            (
                                if k == "permission" {
                                    "tool".to_string()
                                } else {
                                    k
                                },
                                v,
                            )
                        })
                        .collect(),
                ),
                other => other,
            })
            .collect(),
    )
}

/// Reads `--engine NAME|all` (default `all`).
pub fn engines(arg: Option<&str>) -> Result<Vec<EngineId>, Failure> {
    match arg {
        None | Some("all") => Ok(EngineId::ALL.to_vec()),
        Some(name) => EngineId::from_slug(name).map(|e| vec![e]).ok_or_else(|| {
            Failure::usage(format!(
                "unknown engine \"{name}\": use one of {} or all",
                EngineId::ALL.map(|e| e.slug()).join(", ")
            ))
        }),
    }
}

/// Exactly one engine (for `batch` and `bench`).
pub fn one_engine(arg: Option<&str>) -> Result<EngineId, Failure> {
    let name = arg.ok_or_else(|| Failure::usage("--engine is required, e.g. --engine opencode"))?;
    match engines(Some(name))?.as_slice() {
        [one] => Ok(*one),
        _ => Err(Failure::usage("this command takes one engine, not all")),
    }
}

/// Reads a JSON array of calls `[{"tool", "input"}]`.
pub fn load_calls(path: &str) -> Result<Vec<Call>, Failure> {
    let text = read_file(path)?;
    let value =
        json::parse(&text).map_err(|e| Failure::input(format!("{path}: invalid JSON at {e}")))?;
    let Value::Array(items) = value else {
        return Err(Failure::input(format!(
            "{path}: expected a JSON array of calls [{{\"tool\": \"bash\", \"input\": \"git status\"}}, …], found {}",
            value.kind()
        )));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, v)| {
            Call::from_value(v).map_err(|e| Failure::input(format!("{path}: call [{i}]: {e}")))
        })
        .collect()
}
