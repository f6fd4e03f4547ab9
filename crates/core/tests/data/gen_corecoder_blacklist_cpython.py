"""Regenerates corecoder_blacklist_cpython.json: commands judged by CPython's `re` with
CoreCoder 0.7.0's _DANGEROUS_PATTERNS (read from the conformance file).

Run from the repository root:  python3 crates/core/tests/data/gen_corecoder_blacklist_cpython.py

The characters include those where Python's `re` and Rust's `regex` disagree (U+001C..U+001F,
superscript two, combining acute, undertie, ZWJ), but not the marks with Unicode's
Other_Alphabetic property (e.g. U+093E), on which permlab knowingly differs (see pychar.rs).
"""
import json, random, re, sys

ROOT = "fixtures/conformance/corecoder.json"
OUT = "crates/core/tests/data/corecoder_blacklist_cpython.json"
patterns = [p["regex"] for p in json.load(open(ROOT, encoding="utf-8"))["bash_blacklist_patterns"]]
compiled = [re.compile(p) for p in patterns]

TOKENS = ["rm", "rm ", " rm", "/bin/rm", "-r", "-rf", "-fr", "-Rf", "-f", "-x", "-", "--",
          "--recursive", "--force", "/", "~", "$HOME", "mkfs", "dd", "of=/dev/sda", ">",
          "/dev/sd", "/dev/sdb", "chmod", "777", "-R", ":()", "{", "}", ":|:", "&", ";", "curl",
          "wget", "|", "sudo", "bash", "sh", "ba", "x", "_", "é", "1", " ", " ", " ", "\t", "\n",
          "\x1c", "\x1f", "\u00b2", "\u0301", "\u203f", "\u200d", "\u3000", "\x85", "\u2028",
          "\u00a0", "\u4e2d"]

SEEDS = ["rm -rf /", "rm -rf ~", "rm -fr /", "rm -r -f build", "rm -f-rf /", "rm x\n-rf",
         "rm --recursive --force x", "rm --force x --recursive", "mkfs.ext4 /dev/sda1",
         "dd if=/dev/zero of=/dev/sda", "echo hi > /dev/sda", "chmod -R 777 /", "chmod 777 /etc",
         ":(){ :|:& };:", "curl x | sh", "curl x | sudo bash", "wget -O- x | bash",
         "rm -rf $HOME", "cat sudoku_solver.py", "git push --force", "ls -la"]
CHARS = ["\x1c", "\x1f", "\u00b2", "\u0301", "\u203f", "\u200d", "\u3000", "\x85", "\u2028",
         "\u00a0", "\n", "\t", " ", "-", "_", "x", "R", "f", "|", "/", "é"]


def mutate(c):
    for _ in range(rng.randint(1, 3)):
        k = rng.randint(0, len(c))
        edit = rng.random()
        if edit < 0.35:
            c = c[:k] + rng.choice(CHARS) + c[k:]
        elif edit < 0.55:
            c = c[:k] + rng.choice(TOKENS) + c[k:]
        elif edit < 0.8 and k < len(c):
            c = c[:k] + rng.choice(CHARS) + c[k + 1:]
        elif k < len(c):
            c = c[:k] + c[k + 1:]
    return c


rng = random.Random(20261201)
commands = set()
while len(commands) < 1600:
    commands.add(mutate(rng.choice(SEEDS)))
while len(commands) < 2000:
    commands.add("".join(rng.choice(TOKENS) for _ in range(rng.randint(1, 10))))
cases = []
for c in sorted(commands):
    hit = next((i for i, p in enumerate(compiled) if p.search(c)), None)
    cases.append([c, hit])

with open(OUT, "w", encoding="utf-8") as f:
    f.write('{"generator": "gen_corecoder_blacklist_cpython.py", "python": %s,\n'
            % json.dumps(sys.version.split()[0]))
    f.write(' "cases": [\n')
    f.write(",\n".join("  " + json.dumps(c, ensure_ascii=False) for c in cases))
    f.write("\n]}\n")
hits = sum(1 for c in cases if c[1] is not None)
print(f"{len(cases)} commands, {hits} blocked")
