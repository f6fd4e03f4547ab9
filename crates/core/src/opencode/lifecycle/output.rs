//! What the model receives from a bash call's output (`opencode-lifecycle.md` §7, §9).
//!
//! **Classic runtime.** The bash tool truncates its own output (the generic
//! `Truncate.output` is skipped for bash) and keeps the **tail**: split on `\n`, walk back
//! from the last element, keep elements while both [`MAX_LINES`] and [`MAX_BYTES`] hold
//! (joining `\n`s counted). Only when the very last element alone exceeds the byte limit is it
//! cut to its last [`MAX_BYTES`] bytes. If anything was cut, the text is prefixed with
//! `...output truncated...` and the path of the file holding everything.
//!
//! Tools that do not truncate themselves (webfetch, custom and plugin tools, MCP) go through
//! the generic [`head`] instead: the first lines, then `...N lines truncated...` and a hint.
//!
//! **Next runtime.** The v2 output store keeps a **head and a tail**: `ceil((maxLines−4)/2)`
//! lines, a marker, `floor((maxLines−4)/2)` lines. This is the shape seed 002 draws
//! ("保留前 ceil(N/2) 行 + 后 floor(N/2) 行"), but on `maxLines − 4`, not `N`.
//!
//! ```
//! use permlab_core::opencode::lifecycle::output::{classic_bash, next_head_tail, Limits};
//! let seq: String = (1..=3000).map(|n| format!("{n}\n")).collect();
//! let r = classic_bash(&seq, Limits::default(), "/d/tool-output/tool_1");
//! assert!(r.text.starts_with("...output truncated...\n\nFull output saved to: /d/tool-output/tool_1\n\n1002\n"));
//! assert!(r.text.ends_with("\n3000\n"));
//! let lines: Vec<String> = (1..=3000).map(|n| format!("L{n}")).collect();
//! let r = next_head_tail(&lines.join("\n"), Limits::default(), "/d/f");
//! assert_eq!((r.head_lines, r.tail_lines), (998, 998));
//! assert!(r.text.contains("L998\n... output truncated; full content saved to /d/f ...\nL2003\n"));
//! ```

/// Lines kept (config `tool_output.max_lines`).
pub const MAX_LINES: usize = 2000;
/// Bytes kept (config `tool_output.max_bytes`): 50 KiB.
pub const MAX_BYTES: usize = 51_200;
/// Classic, while running: chunks kept in memory up to twice the byte limit.
pub const LIVE_BUFFER_BYTES: usize = 2 * MAX_BYTES;
/// Classic, while running: the live `metadata.output` is the last this many characters.
pub const LIVE_METADATA_CHARS: usize = 30_000;
/// Classic: the live output's prefix when it is longer.
pub const LIVE_ELLIPSIS: &str = "...\n\n";
/// The result text of an empty output.
pub const NO_OUTPUT: &str = "(no output)";
/// Files in `<data>/tool-output` are deleted after this many days (hourly sweep).
pub const RETENTION_DAYS: u32 = 7;
/// Next runtime: how much output is captured.
pub const NEXT_CAPTURE_BYTES: usize = 1 << 20;
/// Next runtime: lines the marker and its surroundings take from `maxLines`.
pub const NEXT_RESERVED_LINES: usize = 4;

/// Classic, while the command runs: the live `metadata.output`, the last
/// [`LIVE_METADATA_CHARS`] characters, prefixed [`LIVE_ELLIPSIS`] when the output is longer.
///
/// ```
/// use permlab_core::opencode::lifecycle::output::live_output;
/// assert_eq!(live_output("short"), "short");
/// let long = "x".repeat(30_001);
/// assert_eq!(live_output(&long), format!("...\n\n{}", "x".repeat(30_000)));
/// ```
pub fn live_output(buffer: &str) -> String {
    let n = buffer.chars().count();
    if n <= LIVE_METADATA_CHARS {
        return buffer.to_string();
    }
    let tail: String = buffer.chars().skip(n - LIVE_METADATA_CHARS).collect();
    format!("{LIVE_ELLIPSIS}{tail}")
}

/// The two limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// `maxLines`.
    pub max_lines: usize,
    /// `maxBytes`.
    pub max_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_lines: MAX_LINES,
            max_bytes: MAX_BYTES,
        }
    }
}

/// Where the full output is saved: `<data>/tool-output/tool_<id>`.
pub fn output_file(data_dir: &str, id: &str) -> String {
    format!("{}/tool-output/tool_{id}", data_dir.trim_end_matches('/'))
}

/// The classic header of a truncated bash result.
pub fn truncated_header(file: &str) -> String {
    format!("...output truncated...\n\nFull output saved to: {file}\n\n")
}

/// A truncated (or not) output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Truncation {
    /// The text the model receives.
    pub text: String,
    /// Something was cut (`metadata.truncated`).
    pub truncated: bool,
    /// Elements (`\n`-separated) in the output.
    pub total_lines: usize,
    /// Elements kept (from the head, classic bash: from the tail).
    pub kept_lines: usize,
    /// Bytes of the output.
    pub total_bytes: usize,
    /// Bytes of the kept text (before any header).
    pub kept_bytes: usize,
    /// The full output went to this file.
    pub file: Option<String>,
}

/// Classic bash: keep the tail.
pub fn classic_bash(output: &str, limits: Limits, file: &str) -> Truncation {
    let elems: Vec<&str> = output.split('\n').collect();
    let mut kept = 0usize;
    let mut bytes = 0usize;
    for e in elems.iter().rev() {
        let size = e.len() + usize::from(kept > 0);
        if kept + 1 > limits.max_lines || bytes + size > limits.max_bytes {
            break;
        }
        kept += 1;
        bytes += size;
    }
    let mut text = elems[elems.len() - kept..].join("\n");
    let mut truncated = kept < elems.len();
    if kept == 0 {
        if let Some(last) = elems.last() {
            // The last element alone is over the byte limit: its last maxBytes bytes.
            let mut start = last.len().saturating_sub(limits.max_bytes);
            while !last.is_char_boundary(start) {
                start += 1;
            }
            text = last[start..].to_string();
            kept = 1;
            truncated = true;
        }
    }
    let kept_bytes = text.len();
    if text.is_empty() {
        text = NO_OUTPUT.to_string();
    }
    if truncated {
        text = truncated_header(file) + &text;
    }
    Truncation {
        text,
        truncated,
        total_lines: elems.len(),
        kept_lines: kept,
        total_bytes: output.len(),
        kept_bytes,
        file: truncated.then(|| file.to_string()),
    }
}

/// The generic `Truncate.output` hint after a head truncation (agents without `task`).
pub fn head_hint(file: &str) -> String {
    format!(
        "The tool call succeeded but the output was truncated. Full output saved to: {file}\nUse Grep to search the full content or Read with offset/limit to view specific sections."
    )
}

/// Classic generic `Truncate.output`, direction `head` (tools that do not truncate
/// themselves; not bash): the first lines while both limits hold, then
/// `\n\n...N lines truncated...\n\n` (or `...N bytes truncated...` when the byte limit
/// stopped it) and [`head_hint`]. Agents allowed `task` get a hint about the Task tool
/// instead, whose full text the reference does not give: not modelled.
///
/// ```
/// use permlab_core::opencode::lifecycle::output::{head, Limits};
/// let twelve: Vec<String> = (1..=12).map(|n| format!("line {n}")).collect();
/// let r = head(&twelve.join("\n"), Limits { max_lines: 5, max_bytes: 51_200 }, "/f");
/// assert!(r.text.starts_with("line 1\nline 2\nline 3\nline 4\nline 5\n\n...7 lines truncated...\n\n"));
/// ```
pub fn head(output: &str, limits: Limits, file: &str) -> Truncation {
    let elems: Vec<&str> = output.split('\n').collect();
    let mut kept = 0usize;
    let mut bytes = 0usize;
    let mut by_bytes = false;
    for e in &elems {
        let size = e.len() + usize::from(kept > 0);
        if kept + 1 > limits.max_lines {
            break;
        }
        if bytes + size > limits.max_bytes {
            by_bytes = true;
            break;
        }
        kept += 1;
        bytes += size;
    }
    let truncated = kept < elems.len();
    let body = elems[..kept].join("\n");
    let text = if truncated {
        let marker = if by_bytes {
            format!("...{} bytes truncated...", output.len() - body.len())
        } else {
            format!("...{} lines truncated...", elems.len() - kept)
        };
        format!("{body}\n\n{marker}\n\n{}", head_hint(file))
    } else {
        body.clone()
    };
    Truncation {
        text,
        truncated,
        total_lines: elems.len(),
        kept_lines: kept,
        total_bytes: output.len(),
        kept_bytes: body.len(),
        file: truncated.then(|| file.to_string()),
    }
}

/// The next runtime's marker between head and tail.
pub fn next_marker(file: &str) -> String {
    format!("... output truncated; full content saved to {file} ...")
}

/// A head + tail sample (next runtime).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeadTail {
    /// Head, marker and tail joined by `\n` (or the output itself when within limits).
    pub text: String,
    /// Something was cut.
    pub truncated: bool,
    /// Lines in the output (a final `\n` does not start a line).
    pub total_lines: usize,
    /// Lines kept from the top.
    pub head_lines: usize,
    /// Lines kept from the bottom.
    pub tail_lines: usize,
    /// The byte limit was over while the line limit held: the bytes are split in halves
    /// (inferred; the reference only says "likewise").
    pub bytes_split: bool,
}

/// Next runtime: over either limit, `ceil((maxLines−4)/2)` lines, the marker,
/// `floor((maxLines−4)/2)` lines.
pub fn next_head_tail(output: &str, limits: Limits, file: &str) -> HeadTail {
    let body = output.strip_suffix('\n').unwrap_or(output);
    let lines: Vec<&str> = if output.is_empty() {
        Vec::new()
    } else {
        body.split('\n').collect()
    };
    let n = lines.len();
    if n <= limits.max_lines && output.len() <= limits.max_bytes {
        return HeadTail {
            text: output.to_string(),
            truncated: false,
            total_lines: n,
            head_lines: n,
            tail_lines: 0,
            bytes_split: false,
        };
    }
    let room = limits.max_lines.saturating_sub(NEXT_RESERVED_LINES);
    if n > limits.max_lines {
        let (h, t) = (room.div_ceil(2), room / 2);
        let mut parts: Vec<String> = lines[..h.min(n)].iter().map(|s| s.to_string()).collect();
        parts.push(next_marker(file));
        parts.extend(lines[n - t.min(n)..].iter().map(|s| s.to_string()));
        return HeadTail {
            text: parts.join("\n"),
            truncated: true,
            total_lines: n,
            head_lines: h,
            tail_lines: t,
            bytes_split: false,
        };
    }
    // Bytes over, lines within: half the bytes from each end (inferred).
    let (hb, tb) = (limits.max_bytes.div_ceil(2), limits.max_bytes / 2);
    let mut h_end = hb.min(output.len());
    while !output.is_char_boundary(h_end) {
        h_end -= 1;
    }
    let mut t_start = output.len().saturating_sub(tb);
    while !output.is_char_boundary(t_start) {
        t_start += 1;
    }
    HeadTail {
        text: format!(
            "{}\n{}\n{}",
            &output[..h_end],
            next_marker(file),
            &output[t_start..]
        ),
        truncated: true,
        total_lines: n,
        head_lines: 0,
        tail_lines: 0,
        bytes_split: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "/home/user/.local/share/opencode/tool-output/tool_1";

    #[test]
    fn constants() {
        assert_eq!(
            (MAX_LINES, MAX_BYTES, LIVE_BUFFER_BYTES),
            (2000, 51_200, 102_400)
        );
        assert_eq!(
            (LIVE_METADATA_CHARS, RETENTION_DAYS, NEXT_CAPTURE_BYTES),
            (30_000, 7, 1_048_576)
        );
        assert_eq!(output_file("/home/user/.local/share/opencode/", "1"), FILE);
    }

    /// The reference's worked outputs (§8).
    #[test]
    fn classic_examples() {
        let seq: String = (1..=3000).map(|n| format!("{n}\n")).collect();
        let r = classic_bash(&seq, Limits::default(), FILE);
        assert_eq!(
            (r.total_lines, r.kept_lines, r.truncated),
            (3001, 2000, true)
        );
        let want: String = (1002..=3000).map(|n| format!("{n}\n")).collect();
        assert_eq!(r.text, truncated_header(FILE) + &want);

        let a = "a".repeat(60_000);
        let r = classic_bash(&a, Limits::default(), FILE);
        assert_eq!(r.text, truncated_header(FILE) + &"a".repeat(51_200));

        let r = classic_bash(&(a + "\n"), Limits::default(), FILE);
        assert_eq!(r.text, truncated_header(FILE) + NO_OUTPUT);
        assert_eq!(r.kept_lines, 1);

        let r = classic_bash("", Limits::default(), FILE);
        assert_eq!(
            (r.text.as_str(), r.truncated, r.file.clone()),
            (NO_OUTPUT, false, None)
        );
        let r = classic_bash("out\nerr\n", Limits::default(), FILE);
        assert_eq!((r.text.as_str(), r.truncated), ("out\nerr\n", false));
    }

    #[test]
    fn classic_cut_is_utf8_safe() {
        let s = "é".repeat(30_000); // 60000 bytes
        let r = classic_bash(&s, Limits::default(), FILE);
        let kept = r.text.strip_prefix(&truncated_header(FILE)).unwrap();
        assert_eq!(kept.len(), 51_200);
        let r = classic_bash(&format!("x{s}"), Limits::default(), FILE);
        let kept = r.text.strip_prefix(&truncated_header(FILE)).unwrap();
        assert_eq!(kept.len(), 51_200);
    }

    #[test]
    fn generic_head_by_bytes() {
        let r = head(&"b".repeat(60_000), Limits::default(), FILE);
        assert!(r.text.starts_with("\n\n...60000 bytes truncated...\n\n"));
        assert_eq!(r.kept_lines, 0);
        let r = head("short", Limits::default(), FILE);
        assert_eq!((r.text.as_str(), r.truncated), ("short", false));
    }

    #[test]
    fn next_examples() {
        let lines: Vec<String> = (1..=3000).map(|n| format!("L{n}")).collect();
        let r = next_head_tail(&lines.join("\n"), Limits::default(), FILE);
        let out: Vec<&str> = r.text.split('\n').collect();
        assert_eq!(out.len(), 998 + 1 + 998);
        assert_eq!(
            (out[0], out[997], out[999], out[1996]),
            ("L1", "L998", "L2003", "L3000")
        );
        assert_eq!(out[998], next_marker(FILE));
        let r = next_head_tail("a\nb\n", Limits::default(), FILE);
        assert_eq!(
            (r.text.as_str(), r.truncated, r.total_lines),
            ("a\nb\n", false, 2)
        );
        let r = next_head_tail(&"é".repeat(30_000), Limits::default(), FILE);
        assert!(r.bytes_split && r.truncated);
        let r = next_head_tail(
            "x",
            Limits {
                max_lines: 0,
                max_bytes: 0,
            },
            FILE,
        );
        assert!(r.truncated);
    }
}
