"""Records `codex execpolicy check` (npm @openai/codex@0.171.0 in /tmp/codex-oracle) for new
Codex cases; writes fixtures/conformance/codex-recorded.json. Not run in CI."""
import json, os, subprocess, sys, hashlib
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

# 2026-12-06 (canonical_matching on host-executable paths, `~/` programs, error texts): a case may carry a 5th element, {"home": HOME} (the
# CLI runs with that HOME; recorded as the case's `home`). Every case runs in the fixed
# directory CWD (recorded as `cwd` for the cases that name one), so a resolved relative program
# reads the same on every run.
R = ["--resolve-host-executables"]
LS_C = 'prefix_rule(pattern=["ls"], canonical_matching=True)\n'
TF_C = 'prefix_rule(pattern=["terraform"], canonical_matching=True)\n'
LS_UP_HOST_LS = 'prefix_rule(pattern=["LS"], canonical_matching=True)\nhost_executable(name="ls", paths=["/usr/bin/ls"])\n'
LS_HOST_LS = 'prefix_rule(pattern=["ls"], canonical_matching=True)\nhost_executable(name="ls", paths=["/usr/bin/ls"])\n'
LS_HOST_UP = 'prefix_rule(pattern=["ls"], canonical_matching=True)\nhost_executable(name="LS", paths=["/usr/bin/LS"])\n'
UP_HOST_UP = 'prefix_rule(pattern=["LS"], canonical_matching=True)\nhost_executable(name="LS", paths=["/usr/bin/LS"])\n'
TWO_HOST_LS = 'prefix_rule(pattern=["ls"], canonical_matching=True, decision="prompt")\nprefix_rule(pattern=["LS"], canonical_matching=True)\nhost_executable(name="ls", paths=["/usr/bin/ls"])\n'
EXACT_AND_UP = 'prefix_rule(pattern=["ls"], decision="prompt")\nprefix_rule(pattern=["LS"], canonical_matching=True)\nhost_executable(name="ls", paths=["/usr/bin/ls"])\n'
cases_in += [
 ("canonical_path_basename_no_flag", LS_C, ["/usr/bin/LS"], []),
 ("canonical_path_basename_folded", LS_C, ["/usr/bin/LS"], R),
 ("canonical_path_dirs_not_folded", LS_C, ["/USR/BIN/ls", "-l"], R),
 ("canonical_relative_basename_folded", TF_C, ["./TERRAFORM", "apply"], R),
 ("canonical_relative_no_flag", TF_C, ["./TERRAFORM", "apply"], []),
 ("canonical_bare_folded", TF_C, ["TERRAFORM", "apply"], []),
 ("exact_rule_path_case_differs", 'prefix_rule(pattern=["ls"])\n', ["/usr/bin/LS"], R),
 ("canonical_host_rule_allowlist_blocks_folded", LS_HOST_LS, ["/usr/bin/LS"], R),
 ("canonical_host_rule_allowlist_allows", LS_HOST_LS, ["/usr/bin/ls", "-l"], R),
 ("canonical_host_rule_allowlist_other_dir", LS_HOST_LS, ["/bin/ls", "-l"], R),
 ("canonical_host_basename_allowlist_allows", LS_HOST_UP, ["/usr/bin/LS"], R),
 ("canonical_host_basename_allowlist_blocks", LS_HOST_UP, ["/bin/LS"], R),
 ("canonical_host_other_case_no_allowlist", LS_HOST_UP, ["/bin/ls"], R),
 ("canonical_upper_rule_basename_allowlist_blocks", LS_UP_HOST_LS, ["/bin/ls"], R),
 ("canonical_upper_rule_mixed_case_free", LS_UP_HOST_LS, ["/bin/Ls"], R),
 ("canonical_upper_rule_upper_free", LS_UP_HOST_LS, ["/bin/LS"], R),
 ("canonical_upper_rule_listed_path", LS_UP_HOST_LS, ["/usr/bin/ls"], R),
 ("canonical_upper_both_allowlist_listed", UP_HOST_UP, ["/usr/bin/LS"], R),
 ("canonical_upper_both_allowlist_unlisted", UP_HOST_UP, ["/usr/bin/Ls"], R),
 ("canonical_two_rules_one_allowlisted", TWO_HOST_LS, ["/bin/LS"], R),
 ("canonical_two_rules_listed_path", TWO_HOST_LS, ["/usr/bin/ls"], R),
 ("canonical_two_rules_basename_blocks", TWO_HOST_LS, ["/bin/ls"], R),
 ("exact_and_canonical_upper_path", EXACT_AND_UP, ["/bin/LS"], R),
 ("exact_and_canonical_listed", EXACT_AND_UP, ["/usr/bin/ls"], R),
 ("canonical_example_path_folded", 'prefix_rule(pattern=["ls"], canonical_matching=True, match=["/usr/bin/LS -l"])\n', ["ls"], []),
 ("canonical_repr_keeps_case", 'prefix_rule(pattern=["LS", "X"], canonical_matching=True, match=["ls y"])\n', ["ls"], []),
 ("canonical_repr_keeps_case_alts", 'prefix_rule(pattern=[["GIT", "Hg"], ["Push", "x"]], canonical_matching=True, not_match=["git PUSH"])\n', ["git"], []),
 ("home_program_resolved", 'prefix_rule(pattern=["tool"])\n', ["~/bin/tool", "x"], R, {"home": "/home/alice"}),
 ("home_program_no_flag", 'prefix_rule(pattern=["tool"])\n', ["~/bin/tool", "x"], [], {"home": "/home/alice"}),
 ("home_bare_tilde", 'prefix_rule(pattern=["alice"])\n', ["~"], R, {"home": "/home/alice"}),
 ("home_tilde_slash", 'prefix_rule(pattern=["alice"])\n', ["~/"], R, {"home": "/home/alice"}),
 ("home_tilde_user_is_relative", 'prefix_rule(pattern=["tool"])\n', ["~other/tool"], R, {"home": "/home/alice"}),
 ("home_dotdot", 'prefix_rule(pattern=["tool"])\n', ["~/../tool"], R, {"home": "/home/alice"}),
 ("home_trailing_slash", 'prefix_rule(pattern=["tool"])\n', ["~/tool"], R, {"home": "/home/alice/"}),
 ("home_relative", 'prefix_rule(pattern=["tool"])\n', ["~/tool"], R, {"home": "rel/dir"}),
 ("home_allowlisted", 'prefix_rule(pattern=["tool"])\nhost_executable(name="tool", paths=["/home/alice/bin/tool"])\n', ["~/bin/tool", "x"], R, {"home": "/home/alice"}),
 ("home_not_allowlisted", 'prefix_rule(pattern=["tool"])\nhost_executable(name="tool", paths=["/home/alice/bin/tool"])\n', ["~/tool"], R, {"home": "/home/alice"}),
 ("home_example_allowlisted", 'prefix_rule(pattern=["tool"], match=["~/bin/tool x"])\nhost_executable(name="tool", paths=["/home/alice/bin/tool"])\n', ["tool"], [], {"home": "/home/alice"}),
 ("home_example_other_home", 'prefix_rule(pattern=["tool"], match=["~/bin/tool x"])\nhost_executable(name="tool", paths=["/home/alice/bin/tool"])\n', ["tool"], [], {"home": "/home/bob"}),
 ("home_canonical_folded", LS_C, ["~/bin/LS"], R, {"home": "/home/alice"}),
 ("canonical_path_rule_folds_whole_token", 'prefix_rule(pattern=["/usr/bin/ls"], canonical_matching=True)\n', ["/USR/BIN/LS"], []),
 ("canonical_dot_rule_folds", 'prefix_rule(pattern=["./mvnw"], canonical_matching=True)\n', ["./MVNW", "deploy"], []),
 ("canonical_example_relative_folded", 'prefix_rule(pattern=["terraform"], canonical_matching=True, match=["./TERRAFORM plan"])\n', ["terraform"], []),
 ("canonical_basename_full_folding", 'prefix_rule(pattern=["straße"], canonical_matching=True)\n', ["/usr/bin/STRASSE"], R),
 ("exact_path_rule_wins_over_basename", 'prefix_rule(pattern=["/usr/bin/LS"], decision="prompt")\nprefix_rule(pattern=["ls"], canonical_matching=True)\n', ["/usr/bin/LS"], R),
 ("canonical_rest_tokens_after_resolution", 'prefix_rule(pattern=["git", "push"], canonical_matching=True, decision="prompt")\n', ["/usr/bin/GIT", "PUSH"], R),
]
A52 = "a" * 52
LONG_ERRORS = [
 # the traceback's source line: exactly 80, 81 and far more characters; multibyte characters
 'prefix_rule(pattern=["git", "%s"], decision="n")' % ("a" * 34),
 'prefix_rule(pattern=["git", "%s"], decision="n")' % ("a" * 35),
 'prefix_rule(pattern=["git", "%s"], decision="n")' % ("a" * 33),
 'prefix_rule(pattern=["git", "%s"], decision="nope", justification="x")' % A52,
 'prefix_rule(pattern=["git", "%s"], decision="nope")' % ("é" * 60),
 'prefix_rule(pattern=["git", "%s"], decision="nope")' % ("日本" * 30),
 'def deny(t):\n    prefix_rule(pattern=t, decision="forbidden", justification="%s")\ndeny(["rm"]); deny(["x"]); deny(1); deny(["z"]); deny(["w"]); deny(["v"]); deny(["u"]); deny(["t"])' % ("b" * 60),
 'x = 1 + "%s"' % ("a" * 100),
 # multi-line spans and the line-number gutter
 "# 1\n# 2\n# 3\n# 4\n# 5\n# 6\n# 7\nprefix_rule(\n    pattern=[\"git\"],\n    decision=\"nope\",\n)",
 "\n" * 9 + 'prefix_rule(pattern=["git"], decision="nope")',
 "\n" * 97 + 'prefix_rule(\n    pattern=["git"],\n    decision="nope",\n)',
 "\n" * 8 + 'x = [\n    1,\n] + "a"',
 'prefix_rule(\n    pattern=["git", "%s"],\n    decision="nope",\n)' % ("c" * 90),
 'def f():\n    return undefined_name\n' + "\n" * 8 + 'f()',
 # markers in screen columns: wide, full-width, combining, emoji characters
 'prefix_rule(pattern=["ＧＩＴ"], decision="nope")',
 'prefix_rule(pattern=["e\u0301e\u0301"], decision="nope")',
 'prefix_rule(pattern=["🚀🚀"], decision="nope")',
 'x = "日本" + 1',
 'prefix_rule(\n    pattern=["git"], decision="nope", justification="日本")',
 'x = [\n    "日本",\n    "ü"] + 1',
 # an indented line where no block opens
 'x = 1\n    y = 2',
 '\n  prefix_rule(pattern=["git"])',
 '  x = 1',
 'prefix_rule(pattern=["git"])\n\tprefix_rule(pattern=["ls"])',
 'def f():\n    x = 1\n        y = 2',
 "\n" * 9 + '   z = 3',
]
for k, pol in enumerate(LONG_ERRORS):
    cases_in.append(("error_text_%02d" % k, pol + ("" if pol.endswith("\n") else "\n"), ["git"], []))
cases = []
CWD = "/tmp/codex-record-cwd"
if True:
    os.makedirs(CWD, exist_ok=True)
    for name, policy, cmd, flags, *opts in cases_in:
        opts = opts[0] if opts else {}
        path = os.path.join(CWD, "policy.rules")
        open(path, "w").write(policy)
        argv = ["codex", "execpolicy", "check", "--rules", "policy.rules"] + flags + ["--"] + cmd
        env = dict(os.environ)
        env.pop("RUST_BACKTRACE", None)
        if "home" in opts:
            env["HOME"] = opts["home"]
        p = subprocess.run([BIN] + argv[1:], cwd=CWD, env=env, capture_output=True, text=True, timeout=30)
        err = "\n".join(l for l in p.stderr.splitlines() if "PATH" not in l or "alias" not in l.lower())
        c = {"kind": "cli", "origin": "probe:" + name, "note": name, "policy": policy, "command": cmd, "argv": argv, "exit_code": p.returncode}
        if "home" in opts:
            c["home"] = opts["home"]
        if cmd[0].startswith((".", "~")) or "home" in opts:
            c["cwd"] = CWD
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
       "source": f"{ver} (npm @openai/codex@0.171.0, native binary sha256 {sha}): `codex execpolicy check`, run black-box by permlab: 2026-12-01 (issue 13) on new probes of canonical_matching, f-string expressions and load-error texts; all re-run 2026-12-06 with probes of canonical_matching on host-executable paths, `~/` programs and more load-error texts (long lines, line-number gutters, indentation). Made with a python script that writes each policy to policy.rules in the fixed directory /tmp/codex-record-cwd and runs the argv shown there (HOME as the case's `home` where it has one); stdout/stderr/exit code are the CLI's, unedited (its PATH-alias warning line removed). Not run in CI.",
       "decision_values": "allow | prompt | forbidden | null (no rule matched) | load_error (policy failed to parse/validate; exit 1)",
       "meta": {"codex_version": ver, "binary_sha256": sha, "recorded": "2026-12-06", "first_recorded": "2026-12-01",
                "fields": {"cwd": "the CLI's working directory (where a relative program resolves)", "home": "the CLI's HOME (where a `~/` program resolves)"}},
       "cases": cases}
json.dump(doc, open(OUT, "w"), indent=1, ensure_ascii=False)
open(OUT, "a").write("\n")
