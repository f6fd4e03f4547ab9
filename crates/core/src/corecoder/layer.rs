//! Which layer of CoreCoder's permission check settled a call: [`Layer`].

/// Which layer settled the permission question.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layer {
    /// Plan mode refused a tool outside [`READ_ONLY`](super::READ_ONLY).
    PlanMode,
    /// The tool is in [`READ_ONLY`](super::READ_ONLY): nobody is asked.
    ReadOnly,
    /// `--yes` (`allow_all`): nobody is asked.
    AllowAll,
    /// An earlier "always" for this exact tool name.
    Always,
    /// No prompt exists (`-p`): refused without asking.
    NonInteractive,
    /// The human was (or, for an [`Engine`](crate::Engine) verdict of ask, would be) prompted.
    Prompt,
    /// The session has no `Permission` object at all (`Agent(permission=None)`): everything
    /// is allowed. Not reachable from the command line.
    NoPermission,
}
