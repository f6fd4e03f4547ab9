//! The old link format: the widget's state in the URL hash, as older versions wrote it. The
//! widget now keeps its state in `sessionStorage` ([`crate::persist::store`]) and only reads a hash, so
//! that a link made by an older version still lands where the learner was; the
//! percent-encoding here also encodes the stored item's keys.
//!
//! The hash belongs to the host page too (its own anchors) and to every other widget on it, so
//! each widget owns only the `&`-separated entries whose keys start with its namespace
//! (`a3-2.o=8.1.2`); everything else is kept verbatim, in place. Values are percent-encoded
//! UTF-8, so hostile text (newlines, `&`, `#`, RTL marks) survives a round trip.

/// Percent-encodes everything but ASCII letters, digits and `-_.~`.
///
/// ```
/// use permlab_widget::persist::hash::{encode, decode};
/// assert_eq!(encode("git push *"), "git%20push%20%2A");
/// assert_eq!(decode(&encode("a&b=c#\n日")).as_deref(), Some("a&b=c#\n日"));
/// ```
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Decodes percent-encoding; `None` for malformed escapes or invalid UTF-8 (a mangled link is
/// ignored rather than half-applied).
pub fn decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Reads this widget's entries (`<ns>.<key>=<value>`) from a hash (with or without `#`).
///
/// ```
/// use permlab_widget::persist::hash::read;
/// let got = read("#intro&w1.o=3.1.2&w2.o=1&w1.s=4", "w1");
/// assert_eq!(got, [("o".to_string(), "3.1.2".to_string()), ("s".to_string(), "4".to_string())]);
/// ```
pub fn read(hash: &str, ns: &str) -> Vec<(String, String)> {
    let prefix = format!("{ns}.");
    hash.trim_start_matches('#')
        .split('&')
        .filter_map(|part| {
            let rest = part.strip_prefix(&prefix)?;
            let (k, v) = rest.split_once('=')?;
            Some((k.to_string(), decode(v)?))
        })
        .collect()
}

/// Writes this widget's entries into `hash`, replacing its old ones and keeping every other
/// part (host anchors, other widgets) in place. Returns the new hash without `#`.
///
/// ```
/// use permlab_widget::persist::hash::write;
/// let h = write("#intro&w1.o=1&w2.o=2", "w1", &[("o", "2.1".into()), ("c", "bash: ls".into())]);
/// assert_eq!(h, "intro&w2.o=2&w1.o=2.1&w1.c=bash%3A%20ls");
/// ```
pub fn write(hash: &str, ns: &str, entries: &[(&str, String)]) -> String {
    let prefix = format!("{ns}.");
    let mut parts: Vec<String> = hash
        .trim_start_matches('#')
        .split('&')
        .filter(|p| !p.is_empty() && !p.starts_with(&prefix))
        .map(str::to_string)
        .collect();
    parts.extend(
        entries
            .iter()
            .map(|(k, v)| format!("{ns}.{k}={}", encode(v))),
    );
    parts.join("&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_values_round_trip() {
        for v in [
            "",
            "&&==",
            "%",
            "%zz",
            "\u{202e}rtl\n",
            "😀 <b>x</b>",
            "#a&b.c=d",
        ] {
            let h = write("", "ns", &[("c", v.to_string())]);
            assert_eq!(
                read(&h, "ns"),
                [("c".to_string(), v.to_string())],
                "{v:?} via {h}"
            );
        }
    }

    #[test]
    fn malformed_entries_are_ignored() {
        assert!(read("#ns.o=%E6%97", "ns").is_empty(), "truncated UTF-8");
        assert!(read("#ns.o=%G1", "ns").is_empty());
        assert!(read("#ns.o", "ns").is_empty());
        assert!(
            read("#ns2.o=1", "ns").is_empty(),
            "another namespace sharing a prefix"
        );
    }
}
