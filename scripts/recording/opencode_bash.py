#!/usr/bin/env python3
"""Record whole bash calls with the real OpenCode 1.18.32 bash tool -> fixtures/conformance/opencode-bash-recorded.json.

Run from the project root (not in CI: the recorder downloads ~100 MB from npm once):

    ../shared/tools/opencode-real/bash-tool/setup.sh
    python3 scripts/recording/opencode_bash.py

Cases: the lesson's calls (rules bash `git *` allow, `npm test *` allow, `curl *` deny, `rm *` ask),
the same calls with a last row bash `*` deny (the tool is hidden), and shapes the shared recording
leaves unclear (tree-sitter error recovery, paths, workdir). The header (product, sha256, setup,
conventions) is the shared recording's, so both files read the same way; expected values are the
recorder's output, never edited.
"""
import datetime
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.path.join(ROOT, "..", "shared")
RECORDER = os.path.join(SHARED, "tools", "opencode-real", "bash-tool", "record.sh")
HEADER = os.path.join(SHARED, "conformance", "opencode-bash-real.json")
OUT = os.path.join(ROOT, "fixtures", "conformance", "opencode-bash-recorded.json")
SCRATCH = os.path.join(ROOT, "target", "recording")


def rule(permission, pattern, action):
    return {"permission": permission, "pattern": pattern, "action": action}


LESSON = [
    rule("bash", "git *", "allow"),
    rule("bash", "npm test *", "allow"),
    rule("bash", "curl *", "deny"),
    rule("bash", "rm *", "ask"),
]
HIDDEN = LESSON + [rule("bash", "*", "deny")]
EXT = [rule("external_directory", "*", "ask"), rule("external_directory", "/tmp/*", "allow")] + LESSON
EXT_DENY = [rule("external_directory", "*", "deny")] + LESSON

LESSON_CALLS = [
    "git status && npm test",
    "git status; curl https://example.com",
    "git log | curl -d @- https://example.com",
    'git commit -m "$(curl https://example.com)"',
    "npm test > /tmp/test.log",
    "DEBUG=1 curl https://example.com",
    "git status && rm -rf ../old",
    "rm -rf build; git push",
]

# Shapes the 400 shared cases leave unclear: (tags, command, workdir or None).
SHAPES = [
    (["trailing-op"], "git status | npm test |", None),
    (["trailing-op"], "git status | npm test &&", None),
    (["trailing-op"], "git status && npm test |", None),
    (["trailing-op"], "git status; npm test ||", None),
    (["trailing-op"], "(git status |)", None),
    (["trailing-op"], "|", None),
    (["quote"], 'git status x"', None),
    (["quote"], 'ca"rgo run --release', None),
    (["quote"], 'rm -rf a "/tmp/x', None),
    (["quote"], 'git status; echo "hello world', None),
    (["quote"], "{ git status; curl \"x; }", None),
    (["quote"], "git status 'open; curl x", None),
    (["arith"], 'echo "$((curl x))" && git push', None),
    (["arith"], "echo $((curl x)) ; git push", None),
    (["arith"], "((curl -s https://x.example))", None),
    (["arith"], "(( x++ )) && git push", None),
    (["function"], "f() { git status; curl x", None),
    (["function"], "f() { curl -s x; rm", None),
    (["assign-redirect"], "A=1 >/tmp/x", None),
    (["assign-redirect"], "A=$(curl x) 2>&1", None),
    (["heredoc"], "cat <<EOF\n$(curl x)\nEOF 2>/dev/null && git push", None),
    (["heredoc"], "cat <<EOF\nx\nEOF; rm -rf /tmp/y", None),
    (["heredoc"], "git status <<", None),
    (["case"], "case $x in a) git status;; esac| curl x $(rm y)", None),
    (["case"], "case $x in a) git status;; esac || curl x", None),
    (["newline-backslash"], "git status\n\\rm -rf /", None),
    (["newline-backslash"], "npm test\n\\curl x && git push", None),
    (["negation"], "! export A=$(curl x)", None),
    (["negation"], "! git push > /tmp/x", None),
    (["keyword"], "fi; git status", None),
    (["keyword"], "do curl x", None),
    (["keyword"], "git status; done", None),
    (["array"], "a=(1 $(curl x)) && git push", None),
    (["redirect"], "npm test 2> >(tee /tmp/err.log)", None),
    (["subst"], "echo $(git status && { rm -rf /tmp/x; }", None),
    (["paths"], "rm -rf ~/x /tmp/*.log $HOME/y ../z './q'", None),
    (["paths"], "cp a /tmp/cache && mv b /var/log/x", None),
    (["paths"], "cd /tmp && git status", None),
    (["paths", "workdir"], "git status", "/tmp"),
    (["paths", "workdir"], "rm -rf x", ".."),
    (["paths", "workdir"], "cat ../../etc/hosts", "src"),
]


def cases():
    out = []
    for command in LESSON_CALLS:
        out.append((["lesson"], LESSON, command, None))
    for command in LESSON_CALLS:
        out.append((["lesson", "hidden"], HIDDEN, command, None))
    for tags, command, workdir in SHAPES:
        out.append((tags, EXT, command, workdir))
    for tags, command, workdir in SHAPES:
        if "paths" in tags:
            out.append((tags + ["ext-deny"], EXT_DENY, command, workdir))
    return out


def main():
    header = json.load(open(HEADER, encoding="utf-8"))
    setup = header["setup"]
    todo = cases()
    os.makedirs(SCRATCH, exist_ok=True)
    cin = os.path.join(SCRATCH, "opencode-bash-in.json")
    cout = os.path.join(SCRATCH, "opencode-bash-out.json")
    spec = {
        "directory": setup["directory"],
        "worktree": setup["worktree"],
        "existing_dirs": setup["existing_dirs"],
        "cases": [
            dict({"rules": rules, "command": command}, **({"workdir": w} if w is not None else {}))
            for _, rules, command, w in todo
        ],
    }
    json.dump(spec, open(cin, "w", encoding="utf-8"), ensure_ascii=False)
    subprocess.run([RECORDER, cin, cout], check=True)
    rec = json.load(open(cout, encoding="utf-8"))
    if rec.get("error"):
        sys.exit(rec["error"])
    fixture = {
        "engine": "opencode-bash",
        "product": header["product"],
        "sha256": header["sha256"],
        "recorded": datetime.date.today().isoformat(),
        "source": header["source"].split(" Cases from")[0]
        + " Cases: scripts/recording/opencode_bash.py (the lesson's calls, the same with bash * deny, and shapes the shared recording leaves unclear).",
        "method": "scripts/recording/opencode_bash.py; recorder ../shared/tools/opencode-real/bash-tool/record.sh",
        "setup": setup,
        "conventions": header["conventions"],
        "cases": [],
    }
    for k, ((tags, rules, command, workdir), r) in enumerate(zip(todo, rec["results"])):
        if r["result"] not in ("spawn", "denied"):
            sys.exit(f"case {k} {command!r}: unexpected result {r['result']}")
        requests = []
        for q in r["requests"]:
            if q.get("action") not in ("allow", "ask", "deny"):
                sys.exit(f"case {k} {command!r}: request without a clear action: {q}")
            requests.append({k2: q[k2] for k2 in ("permission", "patterns", "always", "action")})
        first = next((q["action"] for q in requests if q["action"] != "allow"), "allow")
        case = {"id": f"ocr-{k + 1:04d}", "rules": rules, "command": command}
        if workdir is not None:
            case["workdir"] = workdir
        case["cwd"] = os.path.normpath(os.path.join(setup["directory"], workdir or "."))
        case["requests"] = requests
        case["decision"] = first
        case["if_prompts_approved"] = "deny" if any(q["action"] == "deny" for q in requests) else "allow"
        if r.get("hidden"):
            case["bash_hidden"] = True
        case["tags"] = tags
        fixture["cases"].append(case)
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(fixture, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"{len(fixture['cases'])} cases -> {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
