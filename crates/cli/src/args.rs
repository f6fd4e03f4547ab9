//! A small argument reader: `--flag VALUE`, `--flag=VALUE`, boolean `--flag`, positionals.
//!
//! Hand-written instead of clap to keep the CLI's build quick on a 2-core CI machine; every
//! error names the flag and says what to write instead.

use std::collections::BTreeMap;

/// Parsed arguments of one subcommand.
pub struct Args {
    values: BTreeMap<String, String>,
    switches: Vec<String>,
    /// Positional arguments, in order.
    pub positional: Vec<String>,
}

impl Args {
    /// Reads `raw`, where `takes_value` lists the flags that need a value and `switches` the
    /// boolean ones; anything else starting with `--` is an error.
    pub fn parse(raw: &[String], takes_value: &[&str], switches: &[&str]) -> Result<Args, String> {
        let mut args = Args {
            values: BTreeMap::new(),
            switches: Vec::new(),
            positional: Vec::new(),
        };
        let mut it = raw.iter();
        while let Some(a) = it.next() {
            if a == "--" {
                args.positional.extend(it.by_ref().cloned());
                break;
            }
            if let Some(flag) = a.strip_prefix("--") {
                let (name, inline) = match flag.split_once('=') {
                    Some((n, v)) => (n, Some(v.to_string())),
                    None => (flag, None),
                };
                if takes_value.contains(&name) {
                    let value = match inline {
                        Some(v) => v,
                        None => it
                            .next()
                            .cloned()
                            .ok_or_else(|| format!("--{name} needs a value"))?,
                    };
                    args.values.insert(name.to_string(), value);
                } else if switches.contains(&name) && inline.is_none() {
                    args.switches.push(name.to_string());
                } else {
                    let mut known: Vec<String> =
                        takes_value.iter().map(|f| format!("--{f} VALUE")).collect();
                    known.extend(switches.iter().map(|f| format!("--{f}")));
                    return Err(format!(
                        "unknown option --{name}; this command takes {}",
                        if known.is_empty() {
                            "no options".to_string()
                        } else {
                            known.join(", ")
                        }
                    ));
                }
            } else {
                args.positional.push(a.clone());
            }
        }
        Ok(args)
    }

    /// The value of `--name`, if given.
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// The value of `--name`, or an error saying it is required.
    pub fn required(&self, name: &str, example: &str) -> Result<&str, String> {
        self.value(name)
            .ok_or_else(|| format!("--{name} is required, e.g. --{name} {example}"))
    }

    /// Whether the switch `--name` was given.
    pub fn switch(&self, name: &str) -> bool {
        self.switches.iter().any(|s| s == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn reads_values_switches_and_positionals() {
        let a = Args::parse(
            &strings(&[
                "a.json",
                "--engine=opencode",
                "--rules",
                "r.json",
                "--explain",
                "--",
                "--x",
            ]),
            &["engine", "rules"],
            &["explain"],
        )
        .unwrap();
        assert_eq!(a.value("engine"), Some("opencode"));
        assert_eq!(a.value("rules"), Some("r.json"));
        assert!(a.switch("explain"));
        assert_eq!(a.positional, ["a.json", "--x"]);
    }

    #[test]
    fn errors_name_the_flag() {
        let e = Args::parse(&strings(&["--rules"]), &["rules"], &[])
            .err()
            .unwrap();
        assert_eq!(e, "--rules needs a value");
        let e = Args::parse(&strings(&["--nope"]), &["rules"], &["explain"])
            .err()
            .unwrap();
        assert!(
            e.contains("unknown option --nope") && e.contains("--rules VALUE"),
            "{e}"
        );
    }
}
