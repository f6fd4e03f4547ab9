# Builds fixtures/conformance/claude-code-recorded.json from the recorder's inputs and outputs.
# Each batch is (input, output) in target/recording/. The scratch files of the earlier batches
# need not be kept: a batch whose files are missing keeps the cases the fixture already has
# from it (as recorded, unchanged); the batches present are (re)built from their files, in order.
import json, os
R = 'target/recording/'
FIXTURE = './fixtures/conformance/claude-code-recorded.json'
BATCHES = [('rec-in.keep.json', 'rec-out.json'), ('rec2-in.json', 'rec2-out.json'),
           ('rec3-in.json', 'rec3-out.json'), ('rec4-in.json', 'rec4-out.json'),
           ('rec5-in.json', 'rec5-out.json'), ('rec6-in.json', 'rec6-out.json'),
           ('rec7-in.json', 'rec7-out.json')]
old = json.load(open(FIXTURE)) if os.path.exists(FIXTURE) else {'cases': []}
present = [(json.load(open(R + i)), json.load(open(R + o))) for i, o in BATCHES
           if os.path.exists(R + i) and os.path.exists(R + o)]
rebuilt = {c['id'] for i, _ in present for c in i['cases']}
real = json.load(open('../shared/conformance/claude-code-real.json'))


def case(c, r):
    assert r['decision'] in ('allow', 'ask', 'deny', 'unavailable'), (c['id'], r)
    out = {'id': c['id'], 'settings': c['settings']}
    for k in ('layers', 'context'):
        if k in c: out[k] = c[k]
    out['call'] = c['call']
    if 'variant_of' in c: out['variant_of'] = c['variant_of']
    out['decision'] = r['decision']
    out['real_reason'] = r['reason']
    if 'doc_decision' in c: out['doc_decision'] = c['doc_decision']
    notes = ([c['note']] if c.get('note') else []) + list(r.get('notes', []))
    if notes: out['note'] = '; '.join(notes)
    if 'harness' in c: out['harness'] = c['harness']
    return out


cases = [c for c in old['cases'] if c['id'] not in rebuilt]
for i, o in present:
    cases += [case(c, o['results'][c['id']]) for c in i['cases']]
doc = {'engine': 'claude-code',
 'source': "The real Claude Code CLI 2.1.332 (npm @anthropic-ai/claude-code, native linux-x64 binary, sha256 a2df1f41bb00250992926420d0063f89b127cb81abdd284dbefb80c50ff1d026), recorded black-box on 2026-12-01T21:58:14Z, 2026-12-01T22:09:00Z and 2026-12-01T22:34:16Z (batches 1-4) and 2026-12-06 (batches 5 and 6) by shared/tools/claude-real/record.sh (one non-interactive run per case against a loopback mock of the Messages API, inside a bubblewrap sandbox with stub executables). Cases written for permlab issue 13 from the corners its lessons and scenes state (what gets past Bash(curl *), compound commands, wrappers, redirects, $(), path forms, modes, sandbox, MCP, skills, trust, Edit/Write denies), and in batch 5 (ids rec5-*) from differences found by recording cases nobody tuned to (env prefixes, quoted words, paths outside the project, a trailing &, sed -i in dontAsk, path rules in subdirectories, malformed shell) and the compound-commands lesson, and in batch 6 (rec6-*) a holdout written after the engine followed batch 5, and in batch 7 (truth-*) the sandbox's auto-allow key and a mode written in a settings file; decision and real_reason are the recorder's output, unedited; doc_decision is what the docs of 2026-10-08 (reference/claude-code.md) state, where they state one.",
 'how_made': "python3 (permlab) writes the cases without a decision -> ../shared/tools/claude-real/record.sh IN.json OUT.json --jobs 2 (116 cases in 355 s on 2 cores), then a second input of 18 cases for the settings of seed 001 and its six requests (36 s, --jobs 3), then a third input of 71 corner cases found by the first two (scripts/recording/gen3.py, 221 s, --jobs 2), then 2 variants of documented cases (gen4.py), then a fifth input (scripts/recording/gen5.py, --jobs 2), then a holdout of 26 (gen6.py) -> each case gets results[id].decision and .reason as decision and real_reason, and the recorder's notes appended to note (scripts/recording/mkfixture.py). Not run in CI: it installs the CLI from npm. A seventh batch of 15 cases (scripts/recording/gen7.py, ids truth-*, 23 s + 4 s, --jobs 1, recorded 2026-12-06): sandbox.enabled alone vs autoAllowBashIfSandboxed written out, excludedCommands, and defaultMode written in a settings file with no --permission-mode flag (context.mode_flag: false), which the shared recorder cannot express: those ran through a copy of it patched to leave the flag out (see scripts/recording/README.md).",
 'spec': 'reference/claude-code.md',
 'defaults': real['defaults'],
 'conventions': {**real['conventions'],
                 # batch 7 (truth-*) ran with no --permission-mode flag for some cases.
                 'context': "Overrides of defaults.context for this case. pretooluse_hook: null | 'allow' | 'block' (exit code 2). symlinks maps a requested path to the file it resolves to. mode_flag: false = the run had no --permission-mode flag; the settings files alone set the mode.",
                 'mode': "permissions.defaultMode is the session's active mode, as if passed with --permission-mode; the rule that 'auto'/'bypassPermissions' don't take effect from project files is not exercised by the other cases. Cases with context.mode_flag: false (truth-modeflag-*) do exercise it: their mode is the one the settings files start the session in."},
 'cases': cases}
ids = [c['id'] for c in cases]
assert len(ids) == len(set(ids)), 'duplicate case ids'
json.dump(doc, open(FIXTURE, 'w'), indent=1, ensure_ascii=False)
open(FIXTURE, 'a').write('\n')
print(len(cases))
