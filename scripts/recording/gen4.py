# A fourth batch: the variants the shared recording made of some documented cases, made of the
# other documented cases (sandbox with autoAllowBashIfSandboxed written out, skills with
# allowed-tools, plan mode with auto mode available).
import copy, json
docs = json.load(open('fixtures/conformance/claude-code.json'))
real_ids = {c['id'] for c in json.load(open('../shared/conformance/claude-code-real.json'))['cases']}
cases = []
for c in docs['cases']:
    s = c['settings']
    mode = s.get('permissions', {}).get('defaultMode', 'default')
    variants = []
    if s.get('sandbox', {}).get('enabled') and 'autoAllowBashIfSandboxed' not in s['sandbox']:
        v = copy.deepcopy(c); v['settings']['sandbox']['autoAllowBashIfSandboxed'] = True
        variants.append(('explicit-autoallow', v, "variant: sandbox.autoAllowBashIfSandboxed: true written explicitly (the docs' stated default)"))
    if c['call']['tool'] == 'Skill':
        v = copy.deepcopy(c); v['harness'] = {'skill_frontmatter': 'allowed-tools: Bash(git status)'}
        variants.append(('skill-with-allowed-tools', v, 'variant: the skill declares allowed-tools'))
    if mode == 'plan' and (c.get('context') or {}).get('auto_mode_available') is not True:
        v = copy.deepcopy(c); v.setdefault('context', {})['auto_mode_available'] = True
        variants.append(('auto-mode-on', v, 'variant: auto mode available (its classifier cannot run here)'))
    for tag, v, note in variants:
        vid = c['id'] + '~' + tag
        if vid in real_ids:
            continue
        v['id'] = vid
        v['variant_of'] = c['id']
        v['doc_decision'] = c['decision']
        v['note'] = note
        for k in ('decision', 'matched', 'documented'):
            v.pop(k, None)
        cases.append(v)
doc = {'engine': 'claude-code', 'defaults': docs['defaults'], 'cases': cases}
json.dump(doc, open('target/recording/rec4-in.json', 'w'), indent=1, ensure_ascii=False)
print(len(cases))
