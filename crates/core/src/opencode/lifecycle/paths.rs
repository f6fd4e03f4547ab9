//! Which directories a bash call reaches outside the project: the `external_directory`
//! request (`opencode-lifecycle.md` §3, §4.1).
//!
//! Only the path arguments of a fixed list of file commands are looked at
//! ([`FILE_COMMANDS`]): every token after the first that is not a flag. Each is unquoted,
//! `~` expanded, cut at its first glob character, resolved against the working directory; a
//! path inside the session directory or its git worktree is ignored, otherwise its directory
//! is collected (the path itself if it is an existing directory, else its parent). The
//! working directory itself is collected when it is outside.
//!
//! Not checked at all: redirect targets, arguments of any other command (`sudo rm -rf /`),
//! strings passed to `bash -c`, variables (`$HOME/x` is skipped).
//!
//! ```
//! use permlab_core::opencode::lifecycle::paths::{path_argument, Place};
//! let place = Place::new("/home/user/project", "/home/user/project", "/home/user");
//! assert_eq!(path_argument("rm", "~/y", &place), Some("/home/user/y".to_string()));
//! assert_eq!(path_argument("rm", "/tmp/*.log", &place), Some("/tmp".to_string()));
//! assert_eq!(path_argument("rm", "$HOME/x", &place), None);
//! assert_eq!(path_argument("chmod", "+x", &place), None);
//! ```

use crate::context::CallContext;

/// Commands whose arguments are checked as paths (PowerShell item cmdlets are not modelled).
pub const FILE_COMMANDS: [&str; 12] = [
    "cd", "chdir", "pushd", "popd", "rm", "cp", "mv", "mkdir", "touch", "chmod", "chown", "cat",
];

/// Directories [`Place::new`] assumes exist.
pub const USUAL_DIRS: [&str; 6] = ["/tmp", "/var", "/etc", "/opt", "/usr", "/home"];

/// Where the call runs, and what exists there (never read from the machine).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The session directory (the project).
    pub directory: String,
    /// Its git worktree (`/` when the project is not in a git repository: then it counts for
    /// nothing).
    pub worktree: String,
    /// The home directory (`~`).
    pub home: String,
    /// The working directory of the call (`workdir` resolved, else `directory`).
    pub cwd: String,
    /// Paths that exist as directories (a path argument naming one is collected itself,
    /// anything else by its parent).
    pub existing_dirs: Vec<String>,
}

impl Place {
    /// A place whose working directory is the session directory, where the usual top-level
    /// directories exist ([`USUAL_DIRS`]) and home.
    pub fn new(directory: &str, worktree: &str, home: &str) -> Place {
        let mut existing_dirs: Vec<String> = USUAL_DIRS.iter().map(|d| d.to_string()).collect();
        existing_dirs.push(home.to_string());
        Place {
            directory: directory.to_string(),
            worktree: worktree.to_string(),
            home: home.to_string(),
            cwd: directory.to_string(),
            existing_dirs,
        }
    }

    /// The place of a [`CallContext`]: the project is the session directory and its
    /// worktree; the project, the working directory, home and the usual top-level directories
    /// exist.
    ///
    /// ```
    /// use permlab_core::context::CallContext;
    /// use permlab_core::opencode::Place;
    /// let p = Place::of(&CallContext::default().with(None, Some("src"), None).unwrap());
    /// assert_eq!(p.cwd, "/home/learner/miniagent/src");
    /// assert!(p.inside("/home/learner/miniagent/README.md"));
    /// assert!(!p.inside("/home/learner/old"));
    /// ```
    pub fn of(c: &CallContext) -> Place {
        let mut place = Place::new(&c.project, &c.project, &c.home);
        place.cwd = c.cwd.clone();
        for d in [&c.project, &c.cwd] {
            if !place.existing_dirs.contains(d) {
                place.existing_dirs.push(d.clone());
            }
        }
        place
    }

    /// Inside the session directory or its worktree (a lexical check).
    pub fn inside(&self, path: &str) -> bool {
        within(path, &self.directory) || (self.worktree != "/" && within(path, &self.worktree))
    }

    fn is_dir(&self, path: &str) -> bool {
        self.existing_dirs.iter().any(|d| normalize(d) == path)
    }
}

fn within(path: &str, dir: &str) -> bool {
    let dir = normalize(dir);
    path == dir || dir == "/" || path.starts_with(&format!("{dir}/"))
}

/// The absolute, lexically normalized path a path argument names, or `None` when OpenCode
/// skips it (a flag, `+x` for chmod, a variable or backtick, a leading glob, empty).
pub fn path_argument(command: &str, token: &str, place: &Place) -> Option<String> {
    if token.starts_with('-') || (command == "chmod" && token.starts_with('+')) {
        return None;
    }
    let mut p = token;
    for q in ['"', '\''] {
        if p.len() >= 2 && p.starts_with(q) && p.ends_with(q) {
            p = &p[1..p.len() - 1];
            break;
        }
    }
    let expanded;
    let p = if p == "~" {
        place.home.as_str()
    } else if let Some(rest) = p.strip_prefix("~/") {
        expanded = format!("{}/{}", place.home.trim_end_matches('/'), rest);
        expanded.as_str()
    } else {
        p
    };
    let p = match p.find(['?', '*', '[']) {
        Some(0) => return None,
        Some(k) => &p[..k],
        None => p,
    };
    if p.is_empty() || p.contains('$') || p.contains('`') {
        return None;
    }
    Some(resolve(&place.cwd, p))
}

/// The directories a command's tokens reach outside the project, in order, without
/// duplicates (`<dir>`, not yet `<dir>/*`).
pub fn outside_dirs(tokens: &[&str], place: &Place) -> Vec<String> {
    let mut dirs = Vec::new();
    let Some(first) = tokens.first() else {
        return dirs;
    };
    if !FILE_COMMANDS.contains(first) {
        return dirs;
    }
    for t in &tokens[1..] {
        let Some(abs) = path_argument(first, t, place) else {
            continue;
        };
        if place.inside(&abs) {
            continue;
        }
        let dir = if place.is_dir(&abs) {
            abs
        } else {
            parent(&abs)
        };
        if !dirs.contains(&dir) {
            dirs.push(dir);
        }
    }
    dirs
}

/// `<dir>/*`, as the request writes it (`/` gives `/*`).
pub fn dir_pattern(dir: &str) -> String {
    format!("{}/*", dir.trim_end_matches('/'))
}

/// `path.resolve(base, p)`, lexically.
pub fn resolve(base: &str, p: &str) -> String {
    if p.starts_with('/') {
        normalize(p)
    } else {
        normalize(&format!("{base}/{p}"))
    }
}

/// Collapses `.`, `..` and repeated or trailing `/`.
pub fn normalize(p: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    format!("/{}", parts.join("/"))
}

fn parent(p: &str) -> String {
    match p.rfind('/') {
        Some(0) | None => "/".to_string(),
        Some(k) => p[..k].to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place() -> Place {
        let mut p = Place::new("/home/user/project", "/home/user/project", "/home/user");
        p.existing_dirs.push("/tmp/cache".into());
        p
    }

    /// The reference's `rm -rf $HOME/x ~/y /tmp/*.log ../sibling './q' "/opt/a b"`.
    #[test]
    fn reference_example() {
        let tokens = [
            "rm",
            "-rf",
            "$HOME/x",
            "~/y",
            "/tmp/*.log",
            "../sibling",
            "'./q'",
            "\"/opt/a b\"",
        ];
        assert_eq!(
            outside_dirs(&tokens, &place()),
            ["/home/user", "/tmp", "/home/user", "/opt"].iter().fold(
                Vec::<String>::new(),
                |mut v, d| {
                    if !v.iter().any(|x| x == d) {
                        v.push(d.to_string());
                    }
                    v
                }
            )
        );
    }

    #[test]
    fn existing_directory_or_parent() {
        let p = place();
        assert_eq!(
            outside_dirs(&["rm", "-rf", "/tmp/cache"], &p),
            ["/tmp/cache"]
        );
        let mut q = p.clone();
        q.existing_dirs.retain(|d| d != "/tmp/cache");
        assert_eq!(outside_dirs(&["rm", "-rf", "/tmp/cache"], &q), ["/tmp"]);
        assert_eq!(dir_pattern("/tmp/cache"), "/tmp/cache/*");
        assert_eq!(dir_pattern("/"), "/*");
    }

    #[test]
    fn only_file_commands_and_outside_paths() {
        let p = place();
        assert!(outside_dirs(&["sudo", "rm", "-rf", "/"], &p).is_empty());
        assert!(outside_dirs(&["rm", "src/x", "./y", "/home/user/project/z"], &p).is_empty());
        assert_eq!(outside_dirs(&["cat", "/etc/hostname"], &p), ["/etc"]);
        assert_eq!(outside_dirs(&["cd", "/var"], &p), ["/var"]);
        assert_eq!(outside_dirs(&["cd", "/srv"], &p), ["/"]);
        assert!(outside_dirs(&["rm", "*.o"], &p).is_empty());
        assert!(outside_dirs(&["rm", "`pwd`/x"], &p).is_empty());
        assert!(outside_dirs(&[], &p).is_empty());
    }

    #[test]
    fn odd_paths() {
        assert_eq!(normalize("/a/../../b/./c/"), "/b/c");
        assert_eq!(
            resolve("/home/user/project", "../sibling"),
            "/home/user/sibling"
        );
        assert_eq!(parent("/x"), "/");
        let p = place();
        for t in ["'", "\"", "~", "日本", "'日'", "[", "?x"] {
            let _ = path_argument("rm", t, &p);
        }
        assert_eq!(path_argument("rm", "~", &p), Some("/home/user".into()));
    }
}
