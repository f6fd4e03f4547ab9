//! Where a call runs: the project, the working directory and home.
//!
//! The products read these before any rule: OpenCode asks `external_directory` for a path
//! outside the project before it asks `bash`, Claude Code anchors `/path` rules at the project
//! and reads `~` as home. One default serves every engine, so a table gives the same answer in
//! the widget, the CLI and a lesson unless the lesson says where its calls run (`"context"`).

/// The directories a call is evaluated in (never read from the machine).
///
/// ```
/// use permlab_core::context::CallContext;
/// let c = CallContext::default();
/// assert_eq!(c.project, "/home/learner/miniagent");
/// assert_eq!(c.cwd, c.project);
/// assert_eq!(c.home, "/home/learner");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallContext {
    /// The project (OpenCode's session directory and worktree, Claude Code's project root).
    pub project: String,
    /// The working directory of the call.
    pub cwd: String,
    /// What `~` and `$HOME` mean.
    pub home: String,
}

impl Default for CallContext {
    /// The course's running example: miniagent's checkout in the learner's home.
    fn default() -> Self {
        CallContext {
            project: DEFAULT_PROJECT.into(),
            cwd: DEFAULT_PROJECT.into(),
            home: DEFAULT_HOME.into(),
        }
    }
}

const DEFAULT_PROJECT: &str = "/home/learner/miniagent";
const DEFAULT_HOME: &str = "/home/learner";

impl CallContext {
    /// This context with what a lesson writes over it: `project` and `home` absolute, `cwd`
    /// absolute or relative to the project (`"src"`). A new project moves the working
    /// directory to it unless `cwd` is written too. `Err` names the field that is not an
    /// absolute path.
    ///
    /// ```
    /// use permlab_core::context::CallContext;
    /// let c = CallContext::default().with(Some("/srv/app"), Some("web/"), None).unwrap();
    /// assert_eq!((c.project.as_str(), c.cwd.as_str(), c.home.as_str()), ("/srv/app", "/srv/app/web", "/home/learner"));
    /// assert_eq!(c.with(None, None, Some("/root")).unwrap().cwd, "/srv/app/web");
    /// assert_eq!(CallContext::default().with(Some("app"), None, None), Err("project"));
    /// ```
    pub fn with(
        &self,
        project: Option<&str>,
        cwd: Option<&str>,
        home: Option<&str>,
    ) -> Result<CallContext, &'static str> {
        let mut c = self.clone();
        let absolute = |p: &str, field| {
            if p.starts_with('/') {
                Ok(trim_slash(p))
            } else {
                Err(field)
            }
        };
        if let Some(p) = project {
            c.project = absolute(p, "project")?;
            c.cwd = c.project.clone();
        }
        if let Some(h) = home {
            c.home = absolute(h, "home")?;
        }
        match cwd {
            Some(d) if d.starts_with('/') => c.cwd = trim_slash(d),
            Some("") | Some(".") => c.cwd = c.project.clone(),
            Some(d) => c.cwd = trim_slash(&format!("{}/{d}", c.project)),
            None => {}
        }
        Ok(c)
    }
}

/// `/a/b/` → `/a/b` (the root stays `/`).
fn trim_slash(p: &str) -> String {
    let t = p.trim_end_matches('/');
    if t.is_empty() {
        "/".into()
    } else {
        t.into()
    }
}
