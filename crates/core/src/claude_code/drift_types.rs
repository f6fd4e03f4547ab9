//! The drift record's type and the versions it is relative to. A leaf: the generated
//! `drift_data.rs` builds its table from these, and `drift` reads that table.

use crate::Decision;

/// The Claude Code CLI version the engine reproduces.
pub const CLI_VERSION: &str = "2.1.332";
/// When that CLI was recorded.
pub const RECORDED: &str = "2026-12-01";
/// The date of the documentation `claude-code.json` follows.
pub const DOCS_DATE: &str = "2026-10-08";

/// One call whose documented answer differs from the real CLI's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DocDrift {
    /// The case id in the conformance files.
    pub id: &'static str,
    /// The call, shortly: `Bash: /bin/rm -rf build`, `Skill: {"skill": "commit"}`.
    pub call: &'static str,
    /// The case's permission rules, `deny Bash(rm *); allow …` (`(no rules)` when none).
    pub rules: &'static str,
    /// The mode the case ran in (`default` when its settings name none).
    pub mode: &'static str,
    /// The case's sandbox settings, as [`sandbox_text`](super::sandbox_text) writes them (`off`, `on`,
    /// `on; autoAllowBashIfSandboxed`…).
    pub sandbox: &'static str,
    /// What the documentation states.
    pub docs: Decision,
    /// What CLI [`CLI_VERSION`] did (and the engine computes).
    pub cli: Decision,
    /// The fixture file that recorded it.
    pub file: &'static str,
}

impl DocDrift {
    /// `docs: ask · CLI 2.1.332: deny`.
    pub fn label(&self) -> String {
        format!("docs: {} · CLI {CLI_VERSION}: {}", self.docs, self.cli)
    }

    /// `文档写的是 ask · CLI 2.1.332 实测 deny`.
    ///
    /// ```
    /// let d = permlab_core::claude_code::drift::find("wild-word-boundary-lsof").unwrap();
    /// assert_eq!(d.label_zh(), "文档写的是 ask · CLI 2.1.332 实测 allow");
    /// ```
    pub fn label_zh(&self) -> String {
        format!(
            "文档写的是 {} · CLI {CLI_VERSION} 实测 {}",
            self.docs, self.cli
        )
    }
}
