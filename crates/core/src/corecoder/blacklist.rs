//! CoreCoder's bash blacklist: `_DANGEROUS_PATTERNS` in `corecoder/tools/bash.py`.
//!
//! `BashTool.execute` runs `_check_dangerous(command)` *after* the permission layer said yes:
//! ten Python regexes, tried in order with `re.search` on the raw command string, the first
//! match's reason refusing the call. So consent never sees the blacklist, and the blacklist never
//! sees consent: `--yes` or an "always" on `bash` still cannot run `rm -rf /`.
//!
//! Each pattern is ported by hand as one small function whose doc quotes the regex and says how
//! Python's backtracking resolves it. No regex engine ships in the wasm: the `regex` crate would
//! multiply the widget's size, and it could not express pattern #2 anyway (lookaheads). The
//! semantics are Python's `re` on a `str`: `\s` and `\w` are Unicode (see [`crate::pychar`]),
//! `.` stops at `\n` but `\s` crosses it, `\b` is a change between word and non-word character,
//! and matching is case-sensitive. Tests check each function against the conformance commands,
//! against tricky variants whose expected values were computed by CPython 3.11, and
//! differentially against `fancy-regex` (dev-dependency) on generated commands.
//!
//! Runtime: every matcher is linear in the command for each occurrence of its keyword
//! (`rm`, `curl`…), so at worst quadratic on hostile input, like Python's own backtracking.

use crate::pychar::{is_space, is_word};

/// One entry of `_DANGEROUS_PATTERNS`: the Python regex, the reason CoreCoder reports, and
/// the hand-written matcher that decides it.
#[derive(Clone, Copy)]
pub struct DangerousPattern {
    /// The regex exactly as written in `tools/bash.py` (Python `re` syntax).
    pub regex: &'static str,
    /// The reason CoreCoder prints when this pattern refuses a command.
    pub reason: &'static str,
    matcher: fn(&str) -> bool,
}

impl DangerousPattern {
    /// Whether `re.search(regex, command)` finds a match.
    pub fn is_match(&self, command: &str) -> bool {
        (self.matcher)(command)
    }
}

impl std::fmt::Debug for DangerousPattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DangerousPattern")
            .field("regex", &self.regex)
            .field("reason", &self.reason)
            .finish()
    }
}

/// `_DANGEROUS_PATTERNS`, in evaluation order. Two patterns share the reason "force recursive
/// delete"; the index tells them apart.
pub static DANGEROUS_PATTERNS: [DangerousPattern; 10] = [
    DangerousPattern {
        regex: r"\brm\s+(-\w*)?-r\w*\s+(/|~|\$HOME)",
        reason: "recursive delete on home/root",
        matcher: rm_recursive_on_root,
    },
    DangerousPattern {
        regex: r"\brm\b(?=(?:.*\s)?-\w*[rR])(?=(?:.*\s)?-\w*f)",
        reason: "force recursive delete",
        matcher: rm_force_recursive_short,
    },
    DangerousPattern {
        regex: r"\brm\b.*--recursive\b.*--force\b|\brm\b.*--force\b.*--recursive\b",
        reason: "force recursive delete",
        matcher: rm_force_recursive_long,
    },
    DangerousPattern {
        regex: r"\bmkfs\b",
        reason: "format filesystem",
        matcher: mkfs,
    },
    DangerousPattern {
        regex: r"\bdd\s+.*of=/dev/",
        reason: "raw disk write",
        matcher: dd_to_device,
    },
    DangerousPattern {
        regex: r">\s*/dev/sd[a-z]",
        reason: "overwrite block device",
        matcher: redirect_to_block_device,
    },
    DangerousPattern {
        regex: r"\bchmod\s+(-R\s+)?777\s+/",
        reason: "chmod 777 on root",
        matcher: chmod_777_root,
    },
    DangerousPattern {
        regex: r":\(\)\s*\{.*:\|:.*\}",
        reason: "fork bomb",
        matcher: fork_bomb,
    },
    DangerousPattern {
        regex: r"\bcurl\b.*\|\s*(sudo\s+)?(ba)?sh\b",
        reason: "pipe curl to shell",
        matcher: curl_to_shell,
    },
    DangerousPattern {
        regex: r"\bwget\b.*\|\s*(sudo\s+)?(ba)?sh\b",
        reason: "pipe wget to shell",
        matcher: wget_to_shell,
    },
];

/// A command the blacklist refuses: which pattern (0-based index into
/// [`DANGEROUS_PATTERNS`]) matched first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlacklistHit {
    /// Position of the first matching pattern.
    pub index: usize,
    /// Its reason, as CoreCoder reports it.
    pub reason: &'static str,
}

/// `_check_dangerous(command)`: the first pattern that matches, or `None` when the command
/// would run.
///
/// ```
/// use permlab_core::corecoder::check_dangerous;
/// assert_eq!(check_dangerous("rm -rf /").unwrap().reason, "recursive delete on home/root");
/// assert_eq!(check_dangerous("rm -fr /").unwrap().index, 1); // misses #1, hits #2
/// assert_eq!(check_dangerous("sudo rm -r --force x"), None); // long + short: no pattern
/// assert_eq!(check_dangerous("RM -RF /"), None); // case-sensitive
/// ```
pub fn check_dangerous(command: &str) -> Option<BlacklistHit> {
    DANGEROUS_PATTERNS
        .iter()
        .position(|p| p.is_match(command))
        .map(|index| BlacklistHit {
            index,
            reason: DANGEROUS_PATTERNS[index].reason,
        })
}

// ---------------------------------------------------------------------------------------------
// Scanning helpers. Positions are byte offsets; every literal we look for is ASCII, so offsets
// found by `match_indices` and advanced by whole characters always sit on char boundaries.

/// `\b` at `i`: one side is a word character and the other is not (text ends count as non-word).
fn boundary(s: &str, i: usize) -> bool {
    let before = s[..i].chars().next_back().is_some_and(is_word);
    let after = s[i..].chars().next().is_some_and(is_word);
    before != after
}

/// End of the run of `\s` characters starting at `i` (`i` itself when there is none).
fn skip_space(s: &str, i: usize) -> usize {
    skip_while(s, i, is_space)
}

/// End of the run of `\w` characters starting at `i`.
fn skip_word(s: &str, i: usize) -> usize {
    skip_while(s, i, is_word)
}

fn skip_while(s: &str, i: usize, pred: fn(char) -> bool) -> usize {
    s[i..]
        .char_indices()
        .find(|&(_, c)| !pred(c))
        .map_or(s.len(), |(k, _)| i + k)
}

/// Where `.*` starting at `i` must stop: the next `\n`, or the end.
fn line_end(s: &str, i: usize) -> usize {
    s[i..].find('\n').map_or(s.len(), |k| i + k)
}

/// Every position where `word` starts and `\bword` holds (word is a keyword starting with a
/// word character). With `end_boundary`, `\bword\b`.
fn keyword<'a>(
    s: &'a str,
    word: &'static str,
    end_boundary: bool,
) -> impl Iterator<Item = usize> + 'a {
    s.match_indices(word)
        .map(|(i, _)| i)
        .filter(move |&i| boundary(s, i) && (!end_boundary || boundary(s, i + word.len())))
}

/// Whether `found(start, line_end)` holds for one of `starts` (increasing), where the stretch
/// `s[start..line_end]` is what a `.*` from `start` can see. A start on the same line as an
/// earlier failed one sees a suffix of that stretch and is skipped, so the whole search stays
/// linear even for `curl curl curl …`.
fn on_some_line(
    s: &str,
    starts: impl Iterator<Item = usize>,
    found: impl Fn(usize, usize) -> bool,
) -> bool {
    let mut failed_until: Option<usize> = None;
    for start in starts {
        if failed_until.is_some_and(|end| start <= end) {
            continue;
        }
        let end = line_end(s, start);
        if found(start, end) {
            return true;
        }
        failed_until = Some(end);
    }
    false
}

// ---------------------------------------------------------------------------------------------
// The ten patterns.

/// #1 `\brm\s+(-\w*)?-r\w*\s+(/|~|\$HOME)` — "recursive delete on home/root".
///
/// `rm`, whitespace, then an option word starting `-r` (lower case only), possibly glued after
/// another `-word` (`rm -f-rf /`, `rm --rf /`), then whitespace and a target starting with
/// `/`, `~` or `$HOME`. Any absolute path counts as "root": `rm -rf /var/cache` matches.
///
/// Backtracking: `\s+` must eat the whole whitespace run (a `-` follows), and each `\w*` must
/// eat its whole word (a `-` or `\s` follows), so the only choice is whether the optional group
/// takes the first dash-word; both are tried.
fn rm_recursive_on_root(s: &str) -> bool {
    keyword(s, "rm", false).any(|i| {
        let option = skip_space(s, i + 2);
        if option == i + 2 {
            return false;
        }
        // The `-r…` word, without the optional group, then with it.
        let direct = s[option..].starts_with("-r").then_some(option);
        let after_group = s[option..]
            .starts_with('-')
            .then(|| skip_word(s, option + 1));
        let after_group = after_group.filter(|&g| s[g..].starts_with("-r"));
        [direct, after_group].into_iter().flatten().any(|r| {
            let word_end = skip_word(s, r + 2);
            let target = skip_space(s, word_end);
            target > word_end
                && (s[target..].starts_with('/')
                    || s[target..].starts_with('~')
                    || s[target..].starts_with("$HOME"))
        })
    })
}

/// #2 `\brm\b(?=(?:.*\s)?-\w*[rR])(?=(?:.*\s)?-\w*f)` — "force recursive delete".
///
/// After the word `rm`, two independent lookaheads: somewhere a dash-word containing `r` or
/// `R`, and a dash-word containing `f` (the same word may serve both: `-rf`). A dash-word counts
/// if it starts right after `rm` (`rm-rf`) or right after a whitespace character that is
/// reached from `rm` without crossing a newline (`.*` stops at `\n`, but the `\s` itself may be
/// the `\n`: a dash-word opening the next line counts). `-\w*[rR]` means: a `-`, then a run of
/// word characters containing `r`/`R` (backtracking lets `\w*` stop just before it).
///
/// Linear time: the whitespace candidates of a later `rm` on the same line are a subset of an
/// earlier one's, so each line is scanned once, remembering the *last* whitespace character
/// that opens a suitable dash-word; a later `rm` still sees it iff it lies after that `rm`.
fn rm_force_recursive_short(s: &str) -> bool {
    let has_r = |w: &str| w.contains(['r', 'R']);
    let has_f = |w: &str| w.contains('f');
    let mut line = LineScan::default();
    for i in keyword(s, "rm", true) {
        let p = i + 2;
        if line.needs_scan(p) {
            line = LineScan::from(s, p, has_r, has_f);
        }
        let r = dash_word(s, p, has_r) || line.last_r.is_some_and(|k| k >= p);
        let f = dash_word(s, p, has_f) || line.last_f.is_some_and(|k| k >= p);
        if r && f {
            return true;
        }
    }
    false
}

/// Whether a dash-word starts at `d` and its word run satisfies `pred`.
fn dash_word(s: &str, d: usize, pred: impl Fn(&str) -> bool) -> bool {
    s[d..].starts_with('-') && pred(&s[d + 1..skip_word(s, d + 1)])
}

/// One scan of the rest of a line for pattern #2: the positions of the last whitespace
/// characters (up to and including the line's `\n`) followed by an `r`- or `f`-dash-word.
#[derive(Default)]
struct LineScan {
    /// Start of the scanned stretch and position of its `\n` (or the text's end); `None`
    /// before the first scan.
    span: Option<(usize, usize)>,
    last_r: Option<usize>,
    last_f: Option<usize>,
}

impl LineScan {
    /// Whether `p` needs a new scan (it is not inside the stretch scanned last).
    fn needs_scan(&self, p: usize) -> bool {
        self.span.is_none_or(|(start, end)| p < start || p > end)
    }

    fn from(s: &str, p: usize, has_r: impl Fn(&str) -> bool, has_f: impl Fn(&str) -> bool) -> Self {
        let mut scan = LineScan {
            span: Some((p, s.len())),
            last_r: None,
            last_f: None,
        };
        for (k, c) in s[p..].char_indices() {
            if is_space(c) {
                let d = p + k + c.len_utf8();
                if dash_word(s, d, &has_r) {
                    scan.last_r = Some(p + k);
                }
                if dash_word(s, d, &has_f) {
                    scan.last_f = Some(p + k);
                }
            }
            if c == '\n' {
                scan.span = Some((p, p + k)); // `.*` cannot cross it: the last `\s` candidate
                break;
            }
        }
        scan
    }
}

/// #3 `\brm\b.*--recursive\b.*--force\b|\brm\b.*--force\b.*--recursive\b` — "force recursive
/// delete".
///
/// Both long options after the word `rm`, in either order, on the same line (`.*` stops at
/// `\n`), each ending at a word boundary (`--forceful` does not count). Only the pair counts:
/// `rm -r --force x` passes every pattern. The earliest occurrence of the first option leaves
/// the most room for the second, so it is the only one tried; and a later `rm` on a line where
/// an earlier one failed sees less of the line, so it is skipped.
fn rm_force_recursive_long(s: &str) -> bool {
    let starts = keyword(s, "rm", true).map(|i| i + 2);
    on_some_line(s, starts, |start, end| {
        let in_order = |first: &str, second: &str| {
            option_end(s, start, end, first)
                .is_some_and(|after| option_end(s, after, end, second).is_some())
        };
        in_order("--recursive", "--force") || in_order("--force", "--recursive")
    })
}

/// End of the first `option` starting in `s[from..to]` and followed by `\b`.
fn option_end(s: &str, from: usize, to: usize, option: &str) -> Option<usize> {
    s[from..to]
        .match_indices(option)
        .map(|(k, _)| from + k + option.len())
        .find(|&end| boundary(s, end))
}

/// #4 `\bmkfs\b` — "format filesystem". `mkfs.ext4` matches (`.` is a boundary);
/// `mkfsx` does not.
fn mkfs(s: &str) -> bool {
    keyword(s, "mkfs", true).next().is_some()
}

/// #5 `\bdd\s+.*of=/dev/` — "raw disk write".
///
/// `dd` at a word start, at least one whitespace character, then `of=/dev/` later on a line.
/// `\s+` may cross newlines, `.*` may not; ending `\s+` at the end of the whitespace run is
/// always best, so: `of=/dev/` must occur after that run with no `\n` in between.
fn dd_to_device(s: &str) -> bool {
    let after_space = keyword(s, "dd", false).filter_map(|i| {
        let rest = skip_space(s, i + 2);
        (rest > i + 2).then_some(rest)
    });
    on_some_line(s, after_space, |start, end| {
        s[start..end].contains("of=/dev/")
    })
}

/// #6 `>\s*/dev/sd[a-z]` — "overwrite block device". Any `>` (also `2>`, `>>`), optional
/// whitespace (newlines too), `/dev/sd` and one ASCII lower-case letter.
fn redirect_to_block_device(s: &str) -> bool {
    s.match_indices('>').any(|(i, _)| {
        let path = skip_space(s, i + 1);
        s[path..]
            .strip_prefix("/dev/sd")
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_lowercase()))
    })
}

/// #7 `\bchmod\s+(-R\s+)?777\s+/` — "chmod 777 on root".
///
/// Exactly `777` (as the start of a word: `7777` fails at `\s+`), optionally after `-R`
/// (`-Rv` does not count), then a target starting with `/`. `chmod -R 755 /` passes.
fn chmod_777_root(s: &str) -> bool {
    let mode_then_root = |m: usize| {
        s[m..].starts_with("777") && {
            let target = skip_space(s, m + 3);
            target > m + 3 && s[target..].starts_with('/')
        }
    };
    keyword(s, "chmod", false).any(|i| {
        let arg = skip_space(s, i + 5);
        if arg == i + 5 {
            return false;
        }
        let after_r = s[arg..]
            .starts_with("-R")
            .then(|| skip_space(s, arg + 2))
            .filter(|&m| m > arg + 2);
        mode_then_root(arg) || after_r.is_some_and(mode_then_root)
    })
}

/// #8 `:\(\)\s*\{.*:\|:.*\}` — "fork bomb".
///
/// `:()`, optional whitespace (newlines too), `{`, then on that line `:|:` and after it a `}`.
/// The classic `:(){ :|:& };:` matches; a bomb with another function name does not.
fn fork_bomb(s: &str) -> bool {
    let bodies = s.match_indices(":()").filter_map(|(i, _)| {
        let brace = skip_space(s, i + 3);
        s[brace..].starts_with('{').then_some(brace + 1)
    });
    on_some_line(s, bodies, |start, end| {
        let body = &s[start..end];
        body.find(":|:")
            .is_some_and(|k| body[k + 3..].contains('}'))
    })
}

/// #9 `\bcurl\b.*\|\s*(sudo\s+)?(ba)?sh\b` — "pipe curl to shell".
fn curl_to_shell(s: &str) -> bool {
    download_piped_to_shell(s, "curl")
}

/// #10 `\bwget\b.*\|\s*(sudo\s+)?(ba)?sh\b` — "pipe wget to shell".
fn wget_to_shell(s: &str) -> bool {
    download_piped_to_shell(s, "wget")
}

/// #9 and #10: the word `tool`, then on the same line a `|` (any of them: `||` too), optional
/// whitespace (newlines too), optional `sudo` + whitespace, then the word `sh` or `bash`
/// (`shell`, `zsh`, `bashrc` do not count; `sh -c` and `sh;` do).
fn download_piped_to_shell(s: &str, tool: &'static str) -> bool {
    let shell_at = |x: usize| {
        (s[x..].starts_with("bash") && boundary(s, x + 4))
            || (s[x..].starts_with("sh") && boundary(s, x + 2))
    };
    let after_tool = keyword(s, tool, true).map(|i| i + tool.len());
    on_some_line(s, after_tool, |from, end| {
        s[from..end].match_indices('|').any(|(k, _)| {
            let x = skip_space(s, from + k + 1);
            shell_at(x)
                || (s[x..].starts_with("sudo") && {
                    let y = skip_space(s, x + 4);
                    y > x + 4 && shell_at(y)
                })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(command, expected first pattern index or None)`. Expected values computed by
    /// CPython 3.11 with the patterns of `tools/bash.py`:
    /// `next((i for i,(p,_) in enumerate(_DANGEROUS_PATTERNS) if re.search(p, cmd)), None)`.
    const PYTHON: &[(&str, Option<usize>)] = &[
        // The course list and the conformance extras.
        ("rm -rf /", Some(0)),
        ("rm -rf ~", Some(0)),
        (":(){ :|:& };:", Some(7)),
        ("dd if=/dev/zero of=/dev/sda", Some(4)),
        ("chmod -R 777 /", Some(6)),
        ("curl x | sh", Some(8)),
        ("mkfs.ext4 /dev/sda1", Some(3)),
        ("cat sudoku_solver.py", None),
        ("git push --force", None),
        ("ls -la", None),
        ("> /etc/passwd", None),
        ("sudo ls", None),
        ("python3 -c \"import shutil; shutil.rmtree('/')\"", None),
        ("git status", None),
        ("python -m unittest -v test_dateparse.py", None),
        ("rm -fr /", Some(1)),
        ("rm -rf /tmp/scratch", Some(0)),
        ("chmod 777 /etc", Some(6)),
        ("chmod -R 755 /", None),
        ("curl x | sudo bash", Some(8)),
        ("echo hi > /dev/sda", Some(5)),
        // #1 variants.
        ("rm -Rf /", Some(1)),
        ("rm -f -r /", Some(1)),
        ("rm -f-rf /", Some(0)),
        ("rm --rf /", Some(0)),
        ("rm -rf-r /", Some(0)),
        ("rm -r-f /", None),
        ("rm -rf $HOME", Some(0)),
        ("rm -rf $HOMEDIR", Some(0)),
        ("rm -r build", None),
        ("/bin/rm -rf ~/x", Some(0)),
        ("xrm -rf /", None),
        ("rm\t-rf\n/", Some(0)),
        ("rm\u{1c}-rf /", Some(0)),
        ("rm -rf\u{3000}/", Some(0)),
        ("rm -r² /", Some(0)),
        ("\u{301}rm -rf /", Some(0)),
        ("érm -rf /", None),
        // #2 variants.
        ("rm -r -f build", Some(1)),
        ("rm -rf build/", Some(1)),
        ("rm-rf x", Some(1)),
        ("rm x -Rf", Some(1)),
        ("rm x\n-rf", Some(1)),
        ("rm x\ny -rf", None),
        ("rm -r\n-f x", Some(1)),
        ("rm -r x\n  -f", None),
        ("rm a-rf", None),
        ("rm -xrxf", Some(1)),
        ("rm -r --force x", None),
        ("rmdir -rf x", None),
        ("rm_x -rf y", None),
        ("rm -r² -f y", Some(1)),
        ("rm -rf\u{1c}", Some(1)),
        ("rm \u{1c}-rf", Some(1)),
        // #3 variants.
        ("rm --recursive --force x", Some(2)),
        ("rm --force --recursive x", Some(2)),
        ("rm --recursive --forceful x", None),
        ("rm --recursive\n--force x", None),
        ("rm x---recursive--force", Some(2)),
        ("rm --recursive x --force", Some(2)),
        ("rm --force x", None),
        // #4-#6.
        ("mkfs /dev/sda", Some(3)),
        ("mkfsx", None),
        ("/sbin/mkfs", Some(3)),
        ("dd of=/dev/sda", Some(4)),
        ("dd\nif=x\n of=/dev/sda", None),
        ("dd \n of=/dev/sda", Some(4)),
        ("ddx of=/dev/sda", None),
        ("add  of=/dev/sda", None),
        ("dd if=x of=/dev/", Some(4)),
        ("echo >/dev/sdb", Some(5)),
        ("echo >\n/dev/sdz", Some(5)),
        ("echo > /dev/sdA", None),
        ("echo > /dev/sd", None),
        ("cat x 2>/dev/sda1", Some(5)),
        // #7.
        ("chmod 777 /", Some(6)),
        ("chmod -R  777  /x", Some(6)),
        ("chmod -Rv 777 /", None),
        ("chmod 7777 /", None),
        ("chmod 777 x/", None),
        ("chmod u+x 777 /", None),
        ("chmod\n777\n/", Some(6)),
        // #8.
        (":(){ :|: };:", Some(7)),
        (":()\n{ :|:& };:", Some(7)),
        (":(){\n:|:& };:", None),
        (":() { :|:&\n};:", None),
        ("bomb(){ bomb|bomb& };bomb", None),
        // #9, #10.
        ("curl x|bash", Some(8)),
        ("curl x | sh -c y", Some(8)),
        ("curl x | shell", None),
        ("curl x | zsh", None),
        ("curl x || sh", Some(8)),
        ("curl x |\n sh", Some(8)),
        ("curl x\n| sh", None),
        ("curl x | sudo  sh", Some(8)),
        ("curl x | sudosh", None),
        ("curl x | sudo bashrc", None),
        ("curlx | sh", None),
        ("wget -O- x | bash", Some(9)),
        ("wget x | sudo sh;", Some(9)),
        ("curl x | sudo\n bash", Some(8)),
    ];

    #[test]
    fn agrees_with_cpython() {
        let mut bad = Vec::new();
        for &(cmd, want) in PYTHON {
            let got = check_dangerous(cmd).map(|h| h.index);
            if got != want {
                bad.push(format!("{cmd:?}: python {want:?}, ours {got:?}"));
            }
        }
        assert!(bad.is_empty(), "{}", bad.join("\n"));
    }

    #[test]
    fn reasons_are_in_order() {
        let reasons: Vec<_> = DANGEROUS_PATTERNS.iter().map(|p| p.reason).collect();
        assert_eq!(reasons[0], "recursive delete on home/root");
        assert_eq!(reasons[1], reasons[2]);
        assert_eq!(reasons[9], "pipe wget to shell");
    }

    #[test]
    fn hostile_input_is_fast_enough() {
        let many_rm = "rm ".repeat(20_000);
        let many_pipes = format!("curl {}", "| ".repeat(30_000));
        let many_dashes = format!("rm {}", "-x ".repeat(30_000));
        let many_curls = "curl |".repeat(20_000);
        let many_dd = "dd x ".repeat(20_000);
        let many_bombs = ":(){ ".repeat(20_000);
        let many_long = "rm --force ".repeat(20_000);
        let start = std::time::Instant::now();
        for s in [
            &many_rm,
            &many_pipes,
            &many_dashes,
            &many_curls,
            &many_dd,
            &many_bombs,
            &many_long,
        ] {
            assert!(check_dangerous(s).is_none());
        }
        assert!(start.elapsed().as_secs() < 2, "{:?}", start.elapsed());
    }
}
