"""Records `codex execpolicy check` (npm @openai/codex@0.171.0 in /tmp/codex-oracle) for new
Codex cases; writes fixtures/conformance/codex-recorded.json. Not run in CI."""
import json, os, subprocess, sys, tempfile, hashlib
BIN = sys.argv[1]
OUT = sys.argv[2]
cases_in = [
 ("fstring_index", 'BLOCK = [("rm", "-rf"), ("git", "clean")]\nfor t in BLOCK:\n    prefix_rule(pattern=list(t), decision="forbidden", justification=f"{t[0]} blocked")\n', ["rm", "-rf", "/"], []),
 ("fstring_call", 'def deny(*t):\n    prefix_rule(pattern=list(t), decision="forbidden", justification=f"{len(t)} tokens: {\' \'.join(t)}")\ndeny("git", "push", "--force")\n', ["git", "push", "--force", "origin"], []),
 ("fstring_method", 't = ("npm", "publish")\nprefix_rule(pattern=list(t), decision="prompt", justification=f"{t[1].upper()} needs review")\n', ["npm", "publish"], []),
 ("fstring_arith", 'prefix_rule(pattern=["ls"], justification=f"rule {1 + 2}")\n', ["ls", "-la"], []),
 ("fstring_dict", "d = {\"k\": \"v\"}\nprefix_rule(pattern=[\"ls\"], justification=f\"{d['k']} ok\")\n", ["ls"], []),
 ("fstring_empty_hole", 'prefix_rule(pattern=["ls"], justification=f"{} x")\n', ["ls"], []),
 ("fstring_unknown_name", 'prefix_rule(pattern=["ls"], justification=f"{nope[0]} x")\n', ["ls"], []),
 ("fstring_conditional", 'X = ["a"]\nprefix_rule(pattern=["ls"], justification=f"{X[0] if X else \'none\'}")\n', ["ls"], []),
 ("canonical_alternatives", 'prefix_rule(pattern=["git", ["Push", "FETCH"]], decision="prompt", canonical_matching=True)\n', ["GIT", "fetch", "origin"], []),
 ("canonical_first_alternatives", 'prefix_rule(pattern=[["GIT", "Hg"], "status"], canonical_matching=True)\n', ["hg", "STATUS"], []),
 ("canonical_and_exact_both_match", 'prefix_rule(pattern=["git"], decision="prompt", canonical_matching=True)\nprefix_rule(pattern=["git", "push"], decision="forbidden")\n', ["git", "push"], []),
 ("canonical_and_exact_case_differs", 'prefix_rule(pattern=["git"], decision="prompt", canonical_matching=True)\nprefix_rule(pattern=["git", "push"], decision="forbidden")\n', ["Git", "push"], []),
 ("canonical_int_type_error", 'prefix_rule(pattern=["git"], canonical_matching=1)\n', ["git"], []),
 ("canonical_none_type_error", 'prefix_rule(pattern=["git"], canonical_matching=None)\n', ["git"], []),
 ("canonical_not_match_example_fails", 'prefix_rule(pattern=["Git"], canonical_matching=True, not_match=["GIT status"])\n', ["git"], []),
 ("canonical_match_example_fails", 'prefix_rule(pattern=["rm", "-rf"], decision="forbidden", canonical_matching=True, match=["rm -fr /"])\n', ["rm"], []),
 ("canonical_sharp_s_upper", 'prefix_rule(pattern=["ß"], canonical_matching=True)\n', ["SS"], []),
 ("canonical_final_sigma", 'prefix_rule(pattern=["σ"], canonical_matching=True)\n', ["ς"], []),
 ("canonical_kelvin_sign", 'prefix_rule(pattern=["k"], canonical_matching=True)\n', ["\u212a"], []),
 ("canonical_ligature_fi", 'prefix_rule(pattern=["fix"], canonical_matching=True)\n', ["\ufb01x"], []),
 ("canonical_host_executable_resolved", 'prefix_rule(pattern=["git", "push"], canonical_matching=True)\n', ["/usr/bin/git", "PUSH"], ["--resolve-host-executables"]),
 ("canonical_false_explicit_exact", 'prefix_rule(pattern=["git"], canonical_matching=False, match=["git status"])\n', ["GIT"], []),
]

ERRORS = [
 'prefix_rule(pattern=("git",))',
 'prefix_rule(decision="allow")',
 'prefix_rule(pattern=["git"], reviewer="user")',
 'prefix_rule(pattern=["git"], justification="  ")',
 'prefix_rule(pattern=["git"], match=["git \\"x"])',
 'prefix_rule(pattern=["git"], match=[""])',
 'prefix_rule(pattern=["git"], match=["# only a comment"])',
 'prefix_rule(pattern=["git"], match=[[]])',
 'prefix_rule(pattern=["git"], match=[1])',
 'prefix_rule(pattern=["git"], not_match=["git status"])',
 'prefix_rule(pattern=["git"])\nprefix_rule(pattern=["git", "push"], match=["git status"])',
 'allow_rule(pattern=["git"])',
 'x = 1\n\ndef f():\n    return undefined_name\n',
 'prefix_rule(pattern=["git"]',
 'x = "unfinished\n',
 'if True:\n    x = 1\n  y = 2\n',
 'while True:\n    pass\n',
 'load("x.star", "y")',
 'x = 010',
 'x = 1_000',
 'if True:\n\tprefix_rule(pattern=["a"])',
 'x = 1\nprint(x)',
 'x = [1, 2]\nfor i in x:\n    x.append(3)',
 'x = {1.0: "a", 1: "b"}',
 'def f(x, x):\n    pass',
 'def f(x=1, y):\n    pass',
 'x = 1 / 0',
 'x = 1 << -1',
 'x = [3].count(3)',
 'x = rf"a"',
 'prefix_rule(pattern=["git"], decision=None)',
 'network_rule(host="example.com", protocol="ftp", decision="deny")',
 'network_rule(host="https://example.com", protocol="https", decision="deny")',
 'network_rule(host="example.com", protocol="https", decision="Deny")',
 'host_executable(name="git", paths=["usr/bin/git"])',
 'host_executable(name="git", paths=["/usr/bin/gitx"])',
 'host_executable(name="a/git", paths=[])',
 'host_executable(name="", paths=[])',
 'def deny(*t):\n    prefix_rule(pattern=list(t), decision="nope")\ndeny("rm")\n',
 'x = [1] + "a"',
 'x = {}["k"]',
 'prefix_rule(pattern=[])',
 'prefix_rule(pattern=[[]])',
 'prefix_rule(pattern=[1])',
 'prefix_rule(pattern=["git", [1]])',
 'prefix_rule(pattern=["git"], canonical_matching=True, decision="ask")',
 'x = f"{1 +}"',
 'x = f"{a b}"',
]
for k, pol in enumerate(ERRORS):
    cases_in.append(("error_%02d" % k, pol + ("" if pol.endswith("\n") else "\n"), ["git"], []))
cases = []
with tempfile.TemporaryDirectory() as d:
    for name, policy, cmd, flags in cases_in:
        path = os.path.join(d, "policy.rules")
        open(path, "w").write(policy)
        argv = ["codex", "execpolicy", "check", "--rules", "policy.rules"] + flags + ["--"] + cmd
        p = subprocess.run([BIN] + argv[1:], cwd=d, capture_output=True, text=True, timeout=30)
        err = "\n".join(l for l in p.stderr.splitlines() if "PATH" not in l or "alias" not in l.lower())
        c = {"kind": "cli", "origin": "probe:" + name, "note": name, "policy": policy, "command": cmd, "argv": argv, "exit_code": p.returncode}
        if p.returncode == 0:
            out = json.loads(p.stdout)
            c["decision"] = out.get("decision")
            c["matched_rules"] = out.get("matchedRules", [])
            c["stdout"] = p.stdout.strip()
        else:
            c["decision"] = "load_error"
            c["error"] = err.strip()
        print(name, c["decision"], (c.get("stdout") or c.get("error", ""))[:200].replace("\n", "\\n"))
        cases.append(c)
ver = subprocess.run([BIN, "--version"], capture_output=True, text=True).stdout.strip()
sha = hashlib.sha256(open(BIN, "rb").read()).hexdigest()
doc = {"engine": "codex",
       "source": f"{ver} (npm @openai/codex@0.171.0, native binary sha256 {sha}): `codex execpolicy check`, run black-box 2026-12-01 by permlab (issue 13) on new probes of canonical_matching, f-string expressions and load-error texts. Made with a python script that writes each policy to policy.rules in a temp dir and runs the argv shown; stdout/stderr/exit code are the CLI's, unedited (its PATH-alias warning line removed). Not run in CI.",
       "decision_values": "allow | prompt | forbidden | null (no rule matched) | load_error (policy failed to parse/validate; exit 1)",
       "meta": {"codex_version": ver, "binary_sha256": sha, "recorded": "2026-12-01"},
       "cases": cases}
json.dump(doc, open(OUT, "w"), indent=1, ensure_ascii=False)
open(OUT, "a").write("\n")
