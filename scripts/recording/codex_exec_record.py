"""Records what the real Codex CLI (npm @openai/codex@0.171.0) decides for whole shell calls,
end to end: `codex exec` runs against a local mock of the OpenAI Responses API whose first
answer is a call of the model-facing shell tool (`exec_command`, `{"cmd": SCRIPT}`); the next
request carries the tool's output, which says whether the command ran, was forbidden by the
`.rules` policy or needed an approval. Writes fixtures/conformance/codex-exec-recorded.json.

    python3 scripts/recording/codex_exec_record.py BIN OUT

BIN is the native binary (see README.md). Each run gets a throwaway HOME and CODEX_HOME with
the policy in $CODEX_HOME/rules/default.rules and a throwaway git work tree. The whole script
re-runs itself inside a new network namespace (`unshare -n`, loopback only): the mock is the
only thing any command can reach. Runs live under /root/permlab-codex-exec (codex refuses to
create its sandbox helper under /tmp, and its Linux sandbox then cannot start). Needs root.
Not run in CI."""
import datetime, hashlib, http.server, json, os, re, shutil, socket, subprocess, sys, threading

BIN, OUT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
if os.environ.get("PERMLAB_NETNS") != "1":
    env = dict(os.environ, PERMLAB_NETNS="1")
    cmd = "ip link set lo up && exec python3 \"$0\" \"$1\" \"$2\""
    sys.exit(subprocess.run(["unshare", "-n", "sh", "-c", cmd, os.path.abspath(__file__), BIN, OUT], env=env).returncode)

ROOT = "/root/permlab-codex-exec"
POLICY = """prefix_rule(pattern=["git"], decision="allow")
prefix_rule(pattern=["npm", "test"], decision="allow")
prefix_rule(pattern=["curl"], decision="forbidden")
prefix_rule(pattern=["rm"], decision="prompt")
"""
SCRIPTS = [
    "git status && npm test",
    "git status; curl https://example.com",
    "git log | curl -d @- https://example.com",
    'git commit -m "$(curl https://example.com)"',
    "npm test > /tmp/test.log",
    "DEBUG=1 curl https://example.com",
    "git status && rm -rf ../old",
    "rm -rf build; git push",
]
# More probes, under fewer variants: does an explicit allow rule lift the sandbox (a plain
# `git commit` writes .git, which the read-only sandbox refuses)? What do a plain unmatched
# command, a known-safe one and single forbidden / prompt commands do?
PROBES = [
    "git commit --allow-empty -m probe",
    "touch new-file",
    "ls",
    "curl https://example.com",
    "rm -rf build",
    "npm test && touch new-file",
]
PROBE_VARIANTS = ["default", "-s workspace-write", "-s danger-full-access"]
# (label, CLI arguments before `exec`, arguments after `exec`)
VARIANTS = [
    ("default", [], []),
    ("-a untrusted", ["-a", "untrusted"], []),
    ('-c approval_policy="untrusted"', ["-c", 'approval_policy="untrusted"'], []),
    ("-a on-request", ["-a", "on-request"], []),
    ("-a never", ["-a", "never"], []),
    ("-s read-only", [], ["-s", "read-only"]),
    ("-s workspace-write", [], ["-s", "workspace-write"]),
    ("-a on-request -s workspace-write", ["-a", "on-request"], ["-s", "workspace-write"]),
    ("-s danger-full-access", [], ["-s", "danger-full-access"]),
]


class Mock:
    """The Responses API: a request without a tool output gets the shell call, any later one a
    final message. Every request body is kept."""

    def __init__(self):
        self.requests, self.call = [], None
        mock = self

        class H(http.server.BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_GET(self):
                body = b'{"data": [], "models": []}'
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("content-length", 0)))
                try:
                    req = json.loads(raw)
                except ValueError:
                    req = {}
                mock.requests.append(req)
                rid = "resp_%d" % len(mock.requests)
                done = any(i.get("type", "").endswith("_output") for i in req.get("input", []) if isinstance(i, dict))
                if done:
                    item = {"type": "message", "id": "msg_1", "role": "assistant", "content": [{"type": "output_text", "text": "done"}]}
                else:
                    item = {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "exec_command", "arguments": json.dumps({"cmd": mock.call})}
                events = [
                    {"type": "response.created", "response": {"id": rid}},
                    {"type": "response.output_item.done", "output_index": 0, "item": item},
                    {"type": "response.completed", "response": {"id": rid, "usage": {"input_tokens": 1, "input_tokens_details": None, "output_tokens": 1, "output_tokens_details": None, "total_tokens": 2}}},
                ]
                body = "".join("event: %s\ndata: %s\n\n" % (e["type"], json.dumps(e)) for e in events).encode()
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def tool_output(requests):
    for req in requests:
        for i in req.get("input", []):
            if isinstance(i, dict) and i.get("type") == "function_call_output":
                out = i.get("output")
                return out if isinstance(out, str) else json.dumps(out)
    return None


def permissions(requests):
    """The sandbox mode and approval policy codex tells the model (its effective settings)."""
    if not requests:
        return None
    for i in requests[0].get("input", []):
        for c in (i.get("content") or []) if isinstance(i, dict) else []:
            t = c.get("text", "") if isinstance(c, dict) else ""
            m = re.search(r"<permissions instructions>\n(.*?)\n</permissions instructions>", t, re.S)
            if m:
                return m.group(1)
    return None


def outcome(out, rc):
    if out is None:
        return "cli_error" if rc != 0 else "no_tool_call"
    if "rejected: policy forbids" in out:
        return "forbidden"
    if "approval required by policy" in out:
        return "rejected"
    if "approval" in out.lower() and "request" in out.lower():
        return "approval requested"
    if out.startswith("Chunk ID:") and "Process exited with code" in out:
        return "ran"
    return "other"


def run(mock, script, pre, post):
    if os.path.isdir(ROOT):
        shutil.rmtree(ROOT)
    home, work = os.path.join(ROOT, "home"), os.path.join(ROOT, "work")
    os.makedirs(os.path.join(home, ".codex", "rules"))
    os.makedirs(os.path.join(ROOT, "old"))
    os.makedirs(os.path.join(work, "build"))
    open(os.path.join(home, ".codex", "rules", "default.rules"), "w").write(POLICY)
    open(os.path.join(home, ".gitconfig"), "w").write("[user]\n\tname = permlab\n\temail = permlab@example.invalid\n")
    open(os.path.join(work, "package.json"), "w").write('{"name": "w", "version": "1.0.0", "scripts": {"test": "echo tests-ran"}}\n')
    genv = dict(os.environ, HOME=home)
    for g in (["init", "-q", "."], ["add", "package.json"], ["commit", "-q", "-m", "init"]):
        subprocess.run(["git"] + g, cwd=work, env=genv, check=True)
    if os.path.exists("/tmp/test.log"):
        raise SystemExit("/tmp/test.log exists; move it away first")
    mock.requests, mock.call = [], script
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "RUST_BACKTRACE", "CODEX_HOME", "PERMLAB_NETNS")}
    env.update(HOME=home, CODEX_HOME=os.path.join(home, ".codex"))
    provider = 'model_providers.mock={name="mock",base_url="http://127.0.0.1:%d/v1",wire_api="responses"}' % mock.port
    argv = [BIN] + pre + ["exec"] + post + ["--skip-git-repo-check", "--json", "-c", provider, "-c", "model_provider=mock", "-m", "mock-model", "run the command"]
    p = subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    events = []
    for line in p.stdout.splitlines():
        try:
            e = json.loads(line)
        except ValueError:
            continue
        if e.get("type") == "item.completed" and e["item"].get("type") == "command_execution":
            events.append({k: e["item"].get(k) for k in ("command", "exit_code", "status", "aggregated_output")})
    commits = subprocess.run(["git", "rev-list", "--count", "HEAD"], cwd=work, env=genv, capture_output=True, text=True).stdout.strip()
    side = {"../old removed": not os.path.exists(os.path.join(ROOT, "old")), "build removed": not os.path.exists(os.path.join(work, "build")),
            "new-file created": os.path.exists(os.path.join(work, "new-file")), "commit added": commits != "1",
            "/tmp/test.log written": os.path.exists("/tmp/test.log")}
    if os.path.exists("/tmp/test.log"):
        side["/tmp/test.log"] = open("/tmp/test.log").read()
        os.remove("/tmp/test.log")
    stderr = "\n".join(l for l in p.stderr.splitlines() if "PATH aliases" not in l and "Reading additional input" not in l)
    out = tool_output(mock.requests)
    return {
        "exit_code": p.returncode,
        "outcome": outcome(out, p.returncode),
        "tool_output": out,
        "permissions_instructions": permissions(mock.requests),
        "command_executions": events,
        "side_effects": side,
        "stderr": re.sub(r"^\S+Z (ERROR|WARN) ", r"\1 ", stderr, flags=re.M).strip(),
    }


mock = Mock()
ver = subprocess.run([BIN, "--version"], capture_output=True, text=True).stdout.strip()
sha = hashlib.sha256(open(BIN, "rb").read()).hexdigest()
cases = []
runs = [("lesson", v, s) for v in VARIANTS for s in SCRIPTS]
runs += [("probe", v, s) for v in VARIANTS if v[0] in PROBE_VARIANTS for s in PROBES]
for kind, (label, pre, post), script in runs:
    if True:
        r = run(mock, script, pre, post)
        case = {"set": kind, "script": script, "variant": label, "codex_args": pre + ["exec"] + post,
                "approval_policy": next((pre[i + 1] for i, a in enumerate(pre) if a == "-a"), "default" if not pre else pre[-1]),
                "sandbox": next((post[i + 1] for i, a in enumerate(post) if a == "-s"), "default")}
        case.update(r)
        print("%-34s %-45s %-10s %s" % (label, script, r["outcome"], (r["tool_output"] or r["stderr"])[:160].replace("\n", "\\n")), flush=True)
        cases.append(case)
shutil.rmtree(ROOT, ignore_errors=True)
doc = {
    "engine": "codex",
    "product": "Codex CLI (npm @openai/codex@0.171.0, native binary vendor/x86_64-unknown-linux-musl/bin/codex of @openai/codex-linux-x64)",
    "version": ver,
    "binary_sha256": sha,
    "recorded": datetime.date.today().isoformat(),
    "method": "`codex [-a …] exec [-s …] --skip-git-repo-check --json -c model_providers.mock={…base_url=http://127.0.0.1:PORT/v1, wire_api=\"responses\"} -c model_provider=mock -m mock-model \"run the command\"` in a throwaway git work tree (one commit, a package.json whose test script echoes tests-ran, a build/ directory, a sibling old/ directory), HOME and CODEX_HOME throwaway with the policy as $CODEX_HOME/rules/default.rules, inside a network namespace with loopback only. The mock Responses API (streaming SSE) answers the first request with a function call of the model-facing shell tool `exec_command` with {\"cmd\": script} (codex runs it as /bin/bash -lc script) and any later request with a final message; `tool_output` is the function_call_output codex sent back, verbatim. Made by scripts/recording/codex_exec_record.py; not run in CI.",
    "policy": POLICY,
    "fields": {
        "set": "lesson (the 8 lesson scripts under every variant) | probe (more scripts under default, -s workspace-write, -s danger-full-access)",
        "variant": "the CLI flags that differ from a plain `codex exec` (default = none)",
        "approval_policy": "the -a value asked for (default = none given)",
        "sandbox": "the -s value asked for (default = none given)",
        "outcome": "ran (the tool output reports an exit code) | forbidden (rejected: policy forbids …) | rejected (approval required by policy, but the approval policy is never) | approval requested | cli_error (codex refused the flags; no request was made) | other",
        "tool_output": "the exec_command output codex returned to the model, verbatim (null when no tool call happened)",
        "permissions_instructions": "what codex told the model its sandbox mode and approval policy are (the effective settings)",
        "command_executions": "the command_execution items of `codex exec --json` (command as run, exit code, status, output)",
        "side_effects": "whether ../old or build/ was removed, new-file created, a commit added and /tmp/test.log written (its text) after the run",
        "stderr": "codex's stderr without its PATH-alias warning and stdin notice, log timestamps removed",
    },
    "cases": cases,
}
json.dump(doc, open(OUT, "w"), indent=1, ensure_ascii=False)
open(OUT, "a").write("\n")
