//! The "always" patterns of a bash request: OpenCode's `BashArity.prefix` (v1.18.32,
//! `opencode-lifecycle.md` §4.2).
//!
//! "Allow always" does not remember the command, it remembers the *kind* of command: the first
//! few tokens plus `" *"`. How many tokens depends on a dictionary of command prefixes; the
//! **longest** listed prefix of the tokens wins, and an unlisted command keeps **1** token.
//! Flags count as tokens (`git -C . status` → `git -C *`).
//!
//! | Arity | Entries |
//! |---|---|
//! | 1 | 25 commands (`cat cd chmod … rm … which`): the same as unlisted ones |
//! | 2 | 64 tools (`git npm pnpm yarn bun docker kubectl go cargo python pip make terraform …`) |
//! | 3 | 6 tools (`aws az gcloud gh doctl sfdx`) and 41 sub-commands (`npm run`, `git config`, `docker compose`, `cargo add`…) |
//!
//! ```
//! use permlab_core::opencode::lifecycle::arity::always_pattern;
//! assert_eq!(always_pattern(&["git", "push", "origin", "main"]), "git push *");
//! assert_eq!(always_pattern(&["npm", "run", "build", "--", "--watch"]), "npm run build *");
//! assert_eq!(always_pattern(&["rm", "-rf", "/tmp/cache"]), "rm *");
//! assert_eq!(always_pattern(&["python3", "-m", "http.server"]), "python3 *");
//! ```

/// Commands listed with arity 1 (the same result as an unlisted command).
pub const ARITY_1: [&str; 25] = [
    "cat", "cd", "chmod", "chown", "cp", "echo", "env", "export", "grep", "kill", "killall", "ln",
    "ls", "mkdir", "mv", "ps", "pwd", "rm", "rmdir", "sleep", "source", "tail", "touch", "unset",
    "which",
];

/// Command prefixes that keep 2 tokens.
pub const ARITY_2: [&str; 64] = [
    "bazel",
    "brew",
    "bun",
    "cargo",
    "cdk",
    "cf",
    "cmake",
    "composer",
    "consul",
    "crictl",
    "deno",
    "docker",
    "eksctl",
    "firebase",
    "flyctl",
    "git",
    "go",
    "gradle",
    "helm",
    "heroku",
    "hugo",
    "ip",
    "kind",
    "kubectl",
    "kustomize",
    "make",
    "mc",
    "minikube",
    "mongosh",
    "mysql",
    "mvn",
    "ng",
    "npm",
    "nvm",
    "nx",
    "openssl",
    "pip",
    "pipenv",
    "pnpm",
    "poetry",
    "podman",
    "psql",
    "pulumi",
    "pyenv",
    "python",
    "rake",
    "rbenv",
    "redis-cli",
    "rustup",
    "serverless",
    "skaffold",
    "sls",
    "sst",
    "swift",
    "systemctl",
    "terraform",
    "tmux",
    "turbo",
    "ufw",
    "vault",
    "vercel",
    "volta",
    "wp",
    "yarn",
];

/// Command prefixes that keep 3 tokens.
pub const ARITY_3: [&str; 47] = [
    "aws",
    "az",
    "bun run",
    "bun x",
    "cargo add",
    "cargo run",
    "consul kv",
    "deno task",
    "doctl",
    "docker builder",
    "docker compose",
    "docker container",
    "docker image",
    "docker network",
    "docker volume",
    "eksctl create",
    "gcloud",
    "gh",
    "git config",
    "git remote",
    "git stash",
    "ip addr",
    "ip link",
    "ip netns",
    "ip route",
    "kind create",
    "kubectl kustomize",
    "kubectl rollout",
    "mc admin",
    "npm exec",
    "npm init",
    "npm run",
    "npm view",
    "openssl req",
    "openssl x509",
    "pnpm dlx",
    "pnpm exec",
    "pnpm run",
    "podman container",
    "podman image",
    "pulumi stack",
    "sfdx",
    "terraform workspace",
    "vault auth",
    "vault kv",
    "yarn dlx",
    "yarn run",
];

/// How many tokens the listed `prefix` keeps, if it is listed.
pub fn arity(prefix: &str) -> Option<usize> {
    if ARITY_3.contains(&prefix) {
        Some(3)
    } else if ARITY_2.contains(&prefix) {
        Some(2)
    } else if ARITY_1.contains(&prefix) {
        Some(1)
    } else {
        None
    }
}

/// `BashArity.prefix(tokens)`: the tokens kept for "always".
///
/// OpenCode tries every prefix from the longest; no listed prefix has more than three words
/// and a token never holds a bare space, so only the first three can match: trying those alone
/// gives the same answer without joining a long command's tokens thousands of times.
pub fn prefix<'a>(tokens: &[&'a str]) -> Vec<&'a str> {
    for len in (1..=tokens.len().min(3)).rev() {
        if let Some(n) = arity(&tokens[..len].join(" ")) {
            return tokens[..n.min(tokens.len())].to_vec();
        }
    }
    tokens.iter().take(1).copied().collect()
}

/// The "always" pattern: the prefix joined by spaces, plus `" *"`.
pub fn always_pattern(tokens: &[&str]) -> String {
    format!("{} *", prefix(tokens).join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_sizes_are_the_references() {
        assert_eq!(ARITY_1.len(), 25);
        assert_eq!(ARITY_2.len(), 64);
        let tools = ARITY_3.iter().filter(|p| !p.contains(' ')).count();
        assert_eq!((tools, ARITY_3.len() - tools), (6, 41));
    }

    #[test]
    fn reference_examples() {
        let cases: [(&str, &str); 9] = [
            ("git push origin main", "git push *"),
            ("git -C . status", "git -C *"),
            ("npm run build -- --watch", "npm run build *"),
            ("docker compose up -d", "docker compose up *"),
            ("python -m pytest", "python -m *"),
            ("rm -rf /tmp/cache", "rm *"),
            ("python3 -m http.server", "python3 *"),
            ("git", "git *"),
            ("aws s3 ls s3://bucket", "aws s3 ls *"),
        ];
        for (cmd, want) in cases {
            let tokens: Vec<&str> = cmd.split(' ').collect();
            assert_eq!(always_pattern(&tokens), want, "{cmd}");
        }
        assert_eq!(prefix(&[]), Vec::<&str>::new());
        assert_eq!(always_pattern(&[]), " *");
    }
}
