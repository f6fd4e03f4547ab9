# A third batch (2026-12-01): corners of the behaviours the first two batches found.
import json
base = json.load(open('target/recording/rec-in.keep.json'))
cases = []
def add(id, cmd=None, tool='Bash', inp=None, doc=None, sandbox=None, context=None, harness=None, **kw):
    p = {k: kw[k] for k in ('allow', 'ask', 'deny') if k in kw}
    p['defaultMode'] = kw.get('mode', 'default')
    s = {'permissions': p}
    if sandbox: s['sandbox'] = sandbox
    c = {'id': id, 'settings': s, 'call': {'tool': tool, 'input': inp if inp is not None else {'command': cmd}}}
    if context: c['context'] = context
    if harness: c['harness'] = harness
    if doc: c['doc_decision'] = doc
    cases.append(c)
SBX = {'enabled': True, 'autoAllowBashIfSandboxed': True}
# read-only candidates (no rules, default mode)
for c in ['printf hi', 'jq . package.json', 'uniq a.txt', 'cut -d: -f1 a.txt', 'df -h', 'id', 'hostname', 'uptime',
          'realpath a.txt', 'dirname src/app.ts', 'readlink a.txt', 'tr a b', 'nproc', 'true', 'rg foo', 'git blame README.md',
          'git ls-files', 'git tag', 'node --version', 'python --version', 'python3 -V', 'docker images', 'docker logs x',
          'sleep 1', 'env', 'type ls', 'man ls', 'free -m', 'git show HEAD', 'ls &', 'sed -n 1p a.txt']:
    add('rec3-ro-' + c.replace(' ', '_').replace('/', '_').replace('.', '_').replace(':', '_').replace('&', 'amp'), c)
# normalisation seen by ask rules, and in bypass
add('rec3-ask-quoted-push-bypass', "git 'push' origin main", ask=['Bash(git push *)'], mode='bypassPermissions')
add('rec3-ask-abs-git-bypass', '/usr/bin/git push origin main', ask=['Bash(git push *)'], mode='bypassPermissions')
add('rec3-ask-env-rm-bypass', 'env rm -rf build', ask=['Bash(rm *)'], mode='bypassPermissions')
add('rec3-deny-quoted-abs', '"/usr/bin/curl" https://example.com', deny=['Bash(curl *)'])
add('rec3-deny-abs-npm-publish', '/usr/bin/npm publish', deny=['Bash(npm publish *)'])
add('rec3-deny-double-space', 'npm  publish', deny=['Bash(npm publish)'])
add('rec3-deny-nohup-abs', 'nohup /bin/rm -rf build', deny=['Bash(rm *)'])
add('rec3-deny-var-braces', 'c=curl; ${c} https://example.com', deny=['Bash(curl *)'])
add('rec3-deny-var-and', 'c=curl && $c https://example.com', deny=['Bash(curl *)'])
add('rec3-deny-export-var', 'export c=curl; $c https://example.com', deny=['Bash(curl *)'])
add('rec3-deny-sudo-abs', 'sudo /bin/rm -rf build', deny=['Bash(rm *)'])
add('rec3-deny-env-opts', 'env -i PATH=/bin rm -rf build', deny=['Bash(rm *)'])
add('rec3-deny-command-v', 'command -v curl', deny=['Bash(curl *)'])
add('rec3-deny-xargs-abs', 'echo x | xargs /usr/bin/curl', deny=['Bash(curl *)'])
# allow side
add('rec3-allow-env-bare', 'env npm test', allow=['Bash(npm test *)'])
add('rec3-allow-nohup', 'nohup npm test', allow=['Bash(npm test *)'])
add('rec3-allow-exec', 'exec npm test', allow=['Bash(npm test *)'])
add('rec3-allow-quoted-arg', 'npm test "a b"', allow=['Bash(npm test *)'])
add('rec3-allow-amp-redirect', 'npm test > /dev/null 2>&1 &', allow=['Bash(npm test *)'])
add('rec3-allow-bare-bash-amp', 'npm test &', allow=['Bash'])
add('rec3-allow-amp-acceptedits', 'mkdir x &', mode='acceptEdits')
add('rec3-deny-amp', 'rm -rf build &', deny=['Bash(rm *)'])
add('rec3-sbx-amp', 'npm test &', sandbox=SBX)
add('rec3-allow-lc-ctype', 'LC_CTYPE=C npm test', allow=['Bash(npm test *)'])
add('rec3-allow-debug-env', 'DEBUG=1 npm test', allow=['Bash(npm test *)'])
add('rec3-allow-ci-env', 'CI=true npm test', allow=['Bash(npm test *)'])
# sandbox + file-command denies
add('rec3-sbx-edit-deny-redirect', 'echo x > .env', deny=['Edit(./.env)'], sandbox=SBX)
add('rec3-sbx-read-deny-grep', 'grep KEY .env', deny=['Read(./.env)'], sandbox=SBX)
add('rec3-sbx-read-deny-read-tool', '', tool='Read', inp={'file_path': '/home/alice/proj/.env'}, deny=['Read(./.env)'], sandbox=SBX)
add('rec3-sbx-dontask-cat-env', 'cat .env', deny=['Read(./.env)'], sandbox=SBX, mode='dontAsk')
add('rec3-sbx-autoallow-false-cat-env', 'cat .env', deny=['Read(./.env)'], sandbox={'enabled': True, 'autoAllowBashIfSandboxed': False})
# skills across modes
add('rec3-skill-plain-bypass', '', tool='Skill', inp={'skill': 'commit'}, mode='bypassPermissions')
add('rec3-skill-plain-plan', '', tool='Skill', inp={'skill': 'commit'}, mode='plan', context={'auto_mode_available': False})
add('rec3-skill-tools-bypass', '', tool='Skill', inp={'skill': 'commit'}, mode='bypassPermissions', harness={'skill_frontmatter': 'allowed-tools: Bash(git status)'})
add('rec3-skill-tools-ask-rule', '', tool='Skill', inp={'skill': 'commit'}, ask=['Skill(commit)'], harness={'skill_frontmatter': 'allowed-tools: Bash(git status)'})
add('rec3-skill-plain-bare-ask', '', tool='Skill', inp={'skill': 'commit'}, ask=['Skill'])
add('rec3-skill-tools-acceptedits', '', tool='Skill', inp={'skill': 'commit'}, mode='acceptEdits', harness={'skill_frontmatter': 'allowed-tools: Bash(git status)'})
# plan with auto mode available
add('rec3-plan-auto-edit-protected', '', tool='Edit', inp={'file_path': '/home/alice/proj/.git/config', 'old_string': 'a', 'new_string': 'b'}, mode='plan', context={'auto_mode_available': True}, harness={'prep_read': True})
add('rec3-plan-auto-bash-readonly-git', 'git status', mode='plan', context={'auto_mode_available': True})
add('rec3-plan-auto-allowed-bash', 'npm test', allow=['Bash(npm test)'], mode='plan', context={'auto_mode_available': True})
doc = {'engine': 'claude-code', 'defaults': base['defaults'], 'cases': cases}
json.dump(doc, open('target/recording/rec3-in.json', 'w'), indent=1, ensure_ascii=False)
print(len(cases))
