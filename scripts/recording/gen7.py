# A seventh batch (ids `truth-…`): what the lesson states about the sandbox and about a mode written
# in a settings file. (1) `sandbox.enabled: true` alone vs `autoAllowBashIfSandboxed: true` written
# out, for seed 001's `/bin/rm -rf build` and its settings, and `excludedCommands` without the
# auto-allow key. (2) `defaultMode` in a settings file with no `--permission-mode` flag
# (`context.mode_flag: false`): the shared recorder always passes the flag, so these ran through a
# copy of it patched to leave the flag out when the case says so (the patch: scripts/recording/
# README.md); bypassPermissions and auto from project, local and user settings, with controls.
import copy, json
real = json.load(open('../shared/conformance/claude-code-real.json'))
seed = next(c for c in json.load(open('fixtures/conformance/claude-code-recorded.json'))['cases']
            if c['id'] == 'seed001-node-sync')['settings']
bash = lambda c: {'tool': 'Bash', 'input': {'command': c}}
edit = {'tool': 'Edit', 'input': {'file_path': '/home/alice/proj/src/app.ts',
                                  'old_string': 'a', 'new_string': 'b'}}
sbx = lambda **kw: {'permissions': {'defaultMode': 'default'}, 'sandbox': dict(enabled=True, **kw)}
seed_auto = copy.deepcopy(seed); seed_auto['sandbox']['autoAllowBashIfSandboxed'] = True
cases = [
    ('truth-sbx-enabled-bin-rm', sbx(), bash('/bin/rm -rf build'), 'allow',
     'sandbox.enabled alone (the docs: sandboxed Bash is auto-allowed by default)'),
    ('truth-sbx-autoallow-bin-rm', sbx(autoAllowBashIfSandboxed=True), bash('/bin/rm -rf build'), 'allow',
     'autoAllowBashIfSandboxed: true written out'),
    ('truth-seed001-bin-rm', seed, bash('/bin/rm -rf build'), 'allow',
     "seed 001's settings (acceptEdits, sandbox.enabled, allowedDomains)"),
    ('truth-seed001-bin-rm~explicit-autoallow', seed_auto, bash('/bin/rm -rf build'), 'allow',
     "seed 001's settings with autoAllowBashIfSandboxed: true written out"),
    ('truth-sbx-enabled-excluded-docker', sbx(excludedCommands=['docker *']), bash('docker ps'), 'ask',
     'excludedCommands without the auto-allow key'),
    ('truth-sbx-autoallow-excluded-other', sbx(autoAllowBashIfSandboxed=True, excludedCommands=['docker *']),
     bash('npm test'), 'allow', 'excludedCommands does not touch other commands'),
    ('truth-sbx-autoallow-excluded-npm', sbx(autoAllowBashIfSandboxed=True, excludedCommands=['npm *']),
     bash('npm test'), 'ask', 'an excluded command runs outside the sandbox, so it is not auto-allowed (docs)'),
    ('truth-nosbx-docker-ps', {'permissions': {'defaultMode': 'default'}}, bash('docker ps'), None,
     'control: docker ps with no sandbox and no rules'),
]
flagless = [
    ('truth-modeflag-project-bypass-npm', 'project', 'bypassPermissions', bash('npm test'), 'ask',
     'the 2026-10 docs: bypassPermissions does not take effect as defaultMode from project settings'),
    ('truth-modeflag-local-bypass-npm', 'local', 'bypassPermissions', bash('npm test'), 'ask',
     'the same from .claude/settings.local.json'),
    ('truth-modeflag-user-bypass-npm', 'user', 'bypassPermissions', bash('npm test'), 'allow',
     'user settings may set bypassPermissions'),
    ('truth-modeflag-project-auto-npm', 'project', 'auto', bash('npm test'), 'ask',
     'auto does not take effect from project settings (docs)'),
    ('truth-modeflag-project-acceptedits-edit', 'project', 'acceptEdits', edit, 'allow',
     'control: acceptEdits from project settings takes effect'),
    ('truth-modeflag-project-dontask-npm', 'project', 'dontAsk', bash('npm test'), 'deny',
     'control: dontAsk from project settings takes effect'),
    ('truth-modeflag-project-none-edit', 'project', None, edit, 'ask',
     'control: no defaultMode and no flag'),
]
out = []
for id_, settings, call, doc, note in cases:
    c = {'id': id_, 'settings': settings, 'call': call, 'doc_decision': doc, 'note': note}
    if doc is None:
        del c['doc_decision']
    out.append(c)
for id_, src, mode, call, doc, note in flagless:
    s = {'permissions': {'defaultMode': mode}} if mode else {'permissions': {}}
    out.append({'id': id_, 'settings': s, 'context': {'rule_source': src, 'mode_flag': False},
                'call': call, 'doc_decision': doc, 'note': note})
doc = {'engine': 'claude-code', 'defaults': real['defaults'], 'cases': out}
json.dump(doc, open('target/recording/rec7-in.json', 'w'), indent=1, ensure_ascii=False)
print(len(out))
