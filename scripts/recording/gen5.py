# A fifth batch (2026-12-06): differences found by recording cases nobody tuned to (K1-K7), each
# pinned from both sides, and the eight calls of the compound-commands lesson.
#   K1 an unknown VAR=value prefix on a read-only command
#   K2 a quoted word in a command an allow rule (or the read-only set) would cover
#   K3 a read-only command naming a path outside the project
#   K4 a trailing `&` on a read-only command under a bare Bash allow
#   K5 dontAsk and `sed -i` under a matching allow rule
#   K6 which path rules reach into subdirectories (Read/Edit, allow/deny, ./x, x, /x, **/x)
#   K7 malformed shell (unterminated $( or quote), deny and allow side
import json
cases = []
P = '/home/alice/proj'


def add(id, cmd=None, tool='Bash', inp=None, doc=None, context=None, harness=None, note=None, extra_perm=None, **kw):
    p = {k: kw[k] for k in ('allow', 'deny', 'ask') if k in kw}
    p['defaultMode'] = kw.get('mode', 'default')
    if extra_perm: p.update(extra_perm)
    c = {'id': id, 'settings': {'permissions': p},
         'call': {'tool': tool, 'input': inp if inp is not None else {'command': cmd}}}
    if context: c['context'] = context
    if harness: c['harness'] = harness
    if doc: c['doc_decision'] = doc
    if note: c['note'] = note
    cases.append(c)


def write(path):
    return {'file_path': P + '/' + path, 'content': 'x\n'}


def read(path):
    return {'file_path': P + '/' + path}


# --- K1: VAR=value before a read-only command
add('rec5-k1-x-cat-env-allow-exact', 'X=1 cat .env', allow=['Bash(cat .env)'])
add('rec5-k1-cat-env-allow-exact', 'cat .env', allow=['Bash(cat .env)'])
add('rec5-k1-x-cat-readme', 'X=1 cat README.md')
add('rec5-k1-cat-readme', 'cat README.md')
add('rec5-k1-foo-ls', 'FOO=bar ls')
add('rec5-k1-foo-git-status', 'FOO=bar git status')
add('rec5-k1-debug-ls', 'DEBUG=1 ls')
add('rec5-k1-lang-ls', 'LANG=C ls')
add('rec5-k1-tz-cat-readme', 'TZ=UTC cat README.md')
add('rec5-k1-node-env-git-status', 'NODE_ENV=test git status')
add('rec5-k1-x-cat-allow-cat-star', 'X=1 cat README.md', allow=['Bash(cat *)'])
add('rec5-k1-x-cat-allow-with-prefix', 'X=1 cat README.md', allow=['Bash(X=1 cat *)'])
add('rec5-k1-x-ls-bare-bash', 'X=1 ls', allow=['Bash'])
add('rec5-k1-x-ls-dontask', 'X=1 ls', mode='dontAsk')
add('rec5-k1-x-grep-in-pipe', 'ls | X=1 grep a')
add('rec5-k1-x-echo-acceptedits', 'X=1 echo hi', mode='acceptEdits')
# --- K2: quoted words
add('rec5-k2-git-quoted-diff-allow', "git 'diff' -v", allow=['Bash(git diff *)'])
add('rec5-k2-git-diff-allow', 'git diff -v', allow=['Bash(git diff *)'])
add('rec5-k2-git-quoted-diff-no-rules', "git 'diff' -v")
add('rec5-k2-git-dquoted-status-no-rules', 'git "status"')
add('rec5-k2-quoted-ls-no-rules', "'ls' -la")
add('rec5-k2-cat-quoted-arg-no-rules', "cat 'README.md'")
add('rec5-k2-echo-quoted-arg-no-rules', "echo 'hi there'")
add('rec5-k2-git-diff-quoted-arg-allow', "git diff 'HEAD'", allow=['Bash(git diff *)'])
add('rec5-k2-npm-quoted-test-allow', "npm 'test'", allow=['Bash(npm test *)'])
add('rec5-k2-quoted-rule-matches-quoted', "git 'diff' -v", allow=["Bash(git 'diff' *)"])
add('rec5-k2-git-quoted-diff-bare-bash', "git 'diff' -v", allow=['Bash'])
# --- K3: read-only command, path outside the project
add('rec5-k3-cat-etc-hosts-allow-cat-star', 'cat /etc/hosts', allow=['Bash(cat *)'])
add('rec5-k3-cat-etc-hosts-no-rules', 'cat /etc/hosts')
add('rec5-k3-cat-etc-hosts-read-rule', 'cat /etc/hosts', allow=['Read(//etc/**)'])
add('rec5-k3-cat-etc-hosts-read-rule-and-cat-star', 'cat /etc/hosts', allow=['Bash(cat *)', 'Read(//etc/**)'])
add('rec5-k3-cat-readme-allow-cat-star', 'cat README.md', allow=['Bash(cat *)'])
add('rec5-k3-cat-etc-hosts-bare-bash', 'cat /etc/hosts', allow=['Bash'])
add('rec5-k3-cat-etc-hosts-exact-rule', 'cat /etc/hosts', allow=['Bash(cat /etc/hosts)'])
add('rec5-k3-ls-etc-no-rules', 'ls /etc')
add('rec5-k3-cat-parent-elsewhere', 'cat ../elsewhere/x.txt')
add('rec5-k3-grep-etc-allow-grep-star', 'grep root /etc/passwd', allow=['Bash(grep *)'])
add('rec5-k3-echo-etc-path', 'echo /etc/hosts')
add('rec5-k3-cat-etc-hosts-dontask-read-rule', 'cat /etc/hosts', allow=['Read(//etc/**)'], mode='dontAsk')
add('rec5-k3-cat-etc-hosts-bare-read', 'cat /etc/hosts', allow=['Read'])
add('rec5-k3-wc-src-allow-wc', 'wc -l src/app.ts', allow=['Bash(wc *)'])
# --- K4: a trailing & under a bare Bash allow
add('rec5-k4-timeout-git-amp-bare-bash', 'timeout 30 git &', allow=['Bash'])
add('rec5-k4-timeout-git-amp-bash-star', 'timeout 30 git &', allow=['Bash(*)'])
add('rec5-k4-timeout-git-bare-bash', 'timeout 30 git', allow=['Bash'])
add('rec5-k4-ls-amp-bare-bash', 'ls &', allow=['Bash'])
add('rec5-k4-git-status-amp-bare-bash', 'git status &', allow=['Bash'])
add('rec5-k4-cat-amp-bare-bash', 'cat README.md &', allow=['Bash'])
add('rec5-k4-npm-test-amp-bash-star', 'npm test &', allow=['Bash(*)'])
add('rec5-k4-timeout-npm-amp-bare-bash', 'timeout 30 npm test &', allow=['Bash'])
add('rec5-k4-git-amp-bare-bash', 'git &', allow=['Bash'])
add('rec5-k4-ls-amp-npm-bare-bash', 'ls & npm test', allow=['Bash'])
add('rec5-k4-ls-amp-bypass', 'ls &', mode='bypassPermissions')
add('rec5-k4-ls-amp-dontask-bare-bash', 'ls &', allow=['Bash'], mode='dontAsk')
# --- K5: sed -i under a matching allow rule
add('rec5-k5-sed-i-dontask-allow', "sed -i 's/a/b/' a.txt", allow=['Bash(sed -i *)'], mode='dontAsk')
add('rec5-k5-sed-i-default-allow', "sed -i 's/a/b/' a.txt", allow=['Bash(sed -i *)'])
add('rec5-k5-sed-i-dontask-no-rule', "sed -i 's/a/b/' a.txt", mode='dontAsk')
add('rec5-k5-sed-i-outside-dontask-allow', "sed -i 's/a/b/' ../elsewhere/x.txt", allow=['Bash(sed -i *)'], mode='dontAsk')
add('rec5-k5-redirect-dontask-allow', 'echo x > a.txt', allow=['Bash(echo *)'], mode='dontAsk')
add('rec5-k5-tee-dontask-allow', 'tee a.txt', allow=['Bash(tee *)'], mode='dontAsk')
add('rec5-k5-sed-i-env-edit-deny', "sed -i 's/a/b/' .env", allow=['Bash(sed -i *)'], deny=['Edit(./.env)'], mode='dontAsk')
# --- K6: path rules and subdirectories. Names: cfg.txt at the top, in sub/, in packages/api/;
# directories: lib/** at the top and packages/api/lib/.
NAME = {'dot': './cfg.txt', 'plain': 'cfg.txt', 'slash': '/cfg.txt', 'any': '**/cfg.txt'}
DIR = {'dot': './lib/**', 'plain': 'lib/**', 'slash': '/lib/**', 'any': '**/lib/**'}
for form, pat in NAME.items():
    for where, path in [('top', 'cfg.txt'), ('sub', 'sub/cfg.txt'), ('deep', 'packages/api/cfg.txt')]:
        if where == 'deep' and form in ('slash', 'any'):
            continue
        add(f'rec5-k6-read-deny-{form}-name-{where}', tool='Read', inp=read(path), deny=[f'Read({pat})'])
        add(f'rec5-k6-edit-deny-{form}-name-{where}', tool='Write', inp=write(path), deny=[f'Edit({pat})'])
        add(f'rec5-k6-edit-allow-{form}-name-{where}', tool='Write', inp=write(path), allow=[f'Edit({pat})'])
for form, pat in DIR.items():
    for where, path in [('top', 'lib/x.ts'), ('deep', 'packages/api/lib/x.ts')]:
        add(f'rec5-k6-read-deny-{form}-dir-{where}', tool='Read', inp=read(path), deny=[f'Read({pat})'])
        add(f'rec5-k6-edit-deny-{form}-dir-{where}', tool='Write', inp=write(path), deny=[f'Edit({pat})'])
        add(f'rec5-k6-edit-allow-{form}-dir-{where}', tool='Write', inp=write(path), allow=[f'Edit({pat})'])
# the brief's examples, and Bash file commands
add('rec5-k6-write-sub-env-edit-deny', tool='Write', inp=write('sub/.env'), deny=['Edit(./.env)'])
add('rec5-k6-read-src-deny-nested', tool='Read', inp=read('packages/api/src/x.ts'), deny=['Read(./src/**)'])
add('rec5-k6-edit-allow-dot-a-txt-sub', tool='Write', inp=write('sub/a.txt'), allow=['Edit(./a.txt)'])
add('rec5-k6-cat-sub-env-read-deny', 'cat sub/.env', deny=['Read(./.env)'])
add('rec5-k6-redirect-sub-env-edit-deny', 'echo x > sub/.env', deny=['Edit(./.env)'])
add('rec5-k6-read-outside-dot-dir-deny', tool='Read', inp={'file_path': '/home/alice/elsewhere/lib/x.ts'}, deny=['Read(./lib/**)'])
add('rec5-k6-read-nested-dotdir-two-segments', tool='Read', inp=read('packages/api/src/lib/x.ts'), deny=['Read(./src/lib/**)'])
add('rec5-k6-read-deny-dot-two-segments-top', tool='Read', inp=read('src/lib/x.ts'), deny=['Read(./src/lib/**)'])
add('rec5-k6-read-deny-dot-name-in-dir', tool='Read', inp=read('sub/cfg.txt'), deny=['Read(./sub/cfg.txt)'])
add('rec5-k6-read-deny-dot-name-in-dir-nested', tool='Read', inp=read('x/sub/cfg.txt'), deny=['Read(./sub/cfg.txt)'])
add('rec5-k6-read-deny-dot-star-ext-nested', tool='Read', inp=read('sub/k.pem'), deny=['Read(./*.pem)'])
# --- K7: malformed shell
add('rec5-k7-unterminated-subst-no-rules', 'echo $(ls')
add('rec5-k7-unterminated-dquote-no-rules', 'echo "abc')
add('rec5-k7-unterminated-squote-cat', "cat 'README.md")
add('rec5-k7-unterminated-subst-rm-deny', 'echo $(rm -rf build', deny=['Bash(rm *)'])
add('rec5-k7-unterminated-dquote-subst-curl-deny', 'echo "$(curl https://example.com', deny=['Bash(curl *)'])
add('rec5-k7-curl-trailing-dquote-deny', 'curl https://example.com "', deny=['Bash(curl *)'])
add('rec5-k7-rm-trailing-squote-deny', "rm -rf build '", deny=['Bash(rm *)'])
add('rec5-k7-npm-trailing-dquote-allow', 'npm test "', allow=['Bash(npm test *)'])
add('rec5-k7-npm-unterminated-subst-allow', 'npm test $(', allow=['Bash(npm test *)'])
add('rec5-k7-npm-squote-arg-allow', "npm test 'x", allow=['Bash(npm test *)'])
add('rec5-k7-unterminated-dquote-bare-bash', 'echo "abc', allow=['Bash'])
add('rec5-k7-unterminated-backtick-rm-deny', 'echo `rm -rf build', deny=['Bash(rm *)'])
add('rec5-k7-unterminated-subst-rm-ask', 'echo $(rm -rf build', ask=['Bash(rm *)'])
add('rec5-k7-unterminated-subst-dontask', 'echo $(ls', mode='dontAsk')
add('rec5-k7-unterminated-subst-bypass', 'echo $(ls', mode='bypassPermissions')
add('rec5-k7-open-paren-no-rules', 'ls (')
add('rec5-k7-rm-open-paren-deny', 'rm -rf build (', deny=['Bash(rm *)'])
# --- follow-ups after a first run of the lines above
add('rec5-k1-x-ls-allow-ls-star', 'X=1 ls', allow=['Bash(ls *)'])
add('rec5-k2-git-quoted-diff-bare-no-rules', "git 'diff'")
add('rec5-k2-git-diff-v-no-rules', 'git diff -v')
add('rec5-k2-git-squoted-status-no-rules', "git 'status'")
add('rec5-k2-git-dquoted-diff-v-no-rules', 'git "diff" -v')
add('rec5-k2-git-quoted-log-no-rules', "git 'log'")
add('rec5-k2-git-diff-stat-no-rules', 'git diff --stat')
add('rec5-k3-grep-etc-read-rule', 'grep root /etc/passwd', allow=['Read(//etc/**)'])
add('rec5-k3-ls-etc-read-rule', 'ls /etc', allow=['Read(//etc/**)'])
add('rec5-k3-cat-etc-hosts-exact-read-rule', 'cat /etc/hosts', allow=['Read(//etc/hosts)'])
add('rec5-k3-cat-etc-hosts-acceptedits', 'cat /etc/hosts', mode='acceptEdits')
add('rec5-k3-cat-tmp-no-rules', 'cat /tmp/x.txt')
add('rec5-k3-cat-tilde-elsewhere', 'cat ~/elsewhere/x.txt')
add('rec5-k3-cat-etc-and-readme', 'cat README.md /etc/hosts', allow=['Bash(cat *)'])
add('rec5-k3-sort-etc-no-rules', 'sort /etc/hosts')
add('rec5-k3-wc-etc-allow-wc', 'wc -l /etc/hosts', allow=['Bash(wc *)'])
add('rec5-k3-npm-test-etc-allow', 'npm test /etc/hosts', allow=['Bash(npm test *)'])
add('rec5-k3-head-etc-allow-head', 'head -n 1 /etc/hosts', allow=['Bash(head *)'])
add('rec5-k3-cat-etc-hosts-read-rule-user', 'cat /etc/hosts', allow=['Read(/etc/**)'])
add('rec5-k4-ls-amp-cat-bare-bash', 'ls & cat README.md', allow=['Bash'])
add('rec5-k4-npm-amp-ls-bare-bash', 'npm test & ls', allow=['Bash'])
add('rec5-k4-ls-amp-acceptedits', 'ls &', mode='acceptEdits')
add('rec5-k4-ls-amp-and-bare-bash', 'ls && npm test &', allow=['Bash'])
add('rec5-k4-subshell-ls-amp-bare-bash', '(ls &)', allow=['Bash'])
add('rec5-k4-x-ls-amp-bare-bash', 'X=1 ls &', allow=['Bash'])
add('rec5-k5-sed-i-dontask-allow-sed-star', "sed -i 's/a/b/' a.txt", allow=['Bash(sed *)'], mode='dontAsk')
add('rec5-k5-cp-dontask-allow', 'cp a.txt b.txt', allow=['Bash(cp *)'], mode='dontAsk')
add('rec5-k5-tee-outside-dontask-allow', 'tee ../elsewhere/x.txt', allow=['Bash(tee *)'], mode='dontAsk')
add('rec5-k5-sed-i-edit-rule-only-dontask', "sed -i 's/a/b/' a.txt", allow=['Edit(./a.txt)'], mode='dontAsk')
add('rec5-k5-redirect-default-allow', 'echo x > a.txt', allow=['Bash(echo *)'])
add('rec5-k6-ask-edit-plain-dir-deep-acceptedits', tool='Write', inp=write('packages/api/lib/x.ts'), ask=['Edit(lib/**)'], mode='acceptEdits')
add('rec5-k6-ask-edit-dot-name-sub-acceptedits', tool='Write', inp=write('sub/cfg.txt'), ask=['Edit(./cfg.txt)'], mode='acceptEdits')
add('rec5-k6-ask-read-dot-dir-deep', tool='Read', inp=read('packages/api/lib/x.ts'), ask=['Read(./lib/**)'])
add('rec5-k6-ask-read-slash-dir-deep', tool='Read', inp=read('packages/api/lib/x.ts'), ask=['Read(/lib/**)'])
add('rec5-k6-cat-deep-lib-read-deny', 'cat packages/api/lib/x.ts', deny=['Read(lib/**)'])
add('rec5-k6-read-deny-dir-name-only', tool='Read', inp=read('packages/api/lib/x.ts'), deny=['Read(lib)'])
add('rec5-k6-read-deny-dir-slash-trailing', tool='Read', inp=read('packages/api/lib/x.ts'), deny=['Read(lib/)'])
add('rec5-k6-read-deny-dir-star-one-level', tool='Read', inp=read('packages/api/lib/x.ts'), deny=['Read(lib/*)'])
add('rec5-k6-read-deny-dot-dir-deeper-file', tool='Read', inp=read('packages/api/lib/a/b.ts'), deny=['Read(./lib/**)'])
add('rec5-k6-edit-allow-star-ext-nested', tool='Write', inp=write('sub/k.pem'), allow=['Edit(./*.pem)'])
add('rec5-k7-unterminated-squote-echo', "echo 'abc")
add('rec5-k7-unterminated-dquote-cat', 'cat "README.md')
add('rec5-k7-unterminated-dquote-bypass', 'echo "abc', mode='bypassPermissions')
add('rec5-k7-unterminated-squote-bypass', "echo 'abc", mode='bypassPermissions')
add('rec5-k7-open-paren-bypass', 'ls (', mode='bypassPermissions')
add('rec5-k7-unterminated-subst-bare-bash', 'echo $(ls', allow=['Bash'])
add('rec5-k7-unterminated-subst-acceptedits', 'echo $(ls', mode='acceptEdits')
add('rec5-k7-unterminated-backtick-no-rules', 'echo `ls')
add('rec5-k7-npm-dquote-arg-allow', 'npm test "x', allow=['Bash(npm test *)'])
add('rec5-k7-squote-then-semicolon-rm-deny', "echo 'a; rm -rf build", deny=['Bash(rm *)'])
add('rec5-k7-dquote-then-semicolon-rm-deny', 'echo "a; rm -rf build', deny=['Bash(rm *)'])
add('rec5-k7-squote-hides-npm-allow', "npm test; echo 'x", allow=['Bash(npm test *)'])
# --- second follow-ups
add('rec5-k7-unterminated-backtick-bypass', 'echo `ls', mode='bypassPermissions')
add('rec5-k7-unterminated-backtick-bare-bash', 'echo `ls', allow=['Bash'])
add('rec5-k7-unclosed-subshell-bypass', '(ls', mode='bypassPermissions')
add('rec5-k7-unterminated-subst-allow-echo', 'echo $(ls', allow=['Bash(echo *)'])
add('rec5-k3-cp-etc-allow-cp', 'cp /etc/hosts x.txt', allow=['Bash(cp *)'])
add('rec5-k3-tail-etc-allow-tail', 'tail -n 1 /etc/hosts', allow=['Bash(tail *)'])
add('rec5-k3-find-etc-no-rules', 'find /etc -name hosts')
add('rec5-k3-diff-etc-no-rules', 'diff /etc/hosts a.txt')
add('rec5-k4-ls-amp-ls-bare-bash', 'ls & ls', allow=['Bash'])
add('rec5-k4-git-status-amp-npm-bare-bash', 'git status & npm test', allow=['Bash'])
add('rec5-k2-git-status-v-no-rules', 'git status -v')
add('rec5-k2-git-log-unknown-flag-no-rules', 'git log --foo')
add('rec5-k2-git-show-unknown-flag-no-rules', 'git show --foo')
add('rec5-k2-git-diff-cached-no-rules', 'git diff --cached')
# --- third follow-ups: the edges of K3 and K5 the engine had to infer
for c in ['stat /etc/hosts', 'du -sh /etc', 'tree /etc', 'rg root /etc/passwd', 'jq . /etc/x.json', 'file /etc/hosts',
          'cut -d: -f1 /etc/passwd', 'readlink /etc/hosts', 'cat < /etc/hosts', 'cat /etc/*.conf', 'ls']:
    add('rec5-k3b-' + c.replace(' ', '_').replace('/', '_').replace('.', '_').replace(':', '_').replace('*', 'star').replace('<', 'lt'), c)
add('rec5-k3b-cat-home-var', 'cat $HOME/x.txt')
add('rec5-k3b-ls-additional-dir', 'ls /home/alice/shared', extra_perm={'additionalDirectories': ['/home/alice/shared']})
add('rec5-k2b-git-log-graph-all', 'git log --graph --all')
add('rec5-k2b-git-log-author', 'git log --author=alice -p')
add('rec5-k2b-git-show-stat', 'git show --stat HEAD')
add('rec5-k2b-git-diff-name-only', 'git diff --name-only')
add('rec5-k2b-git-status-unknown-flag', 'git status --foo')
add('rec5-k5b-cp-dest-outside-dontask', 'cp a.txt /tmp/x.txt', allow=['Bash(cp *)'], mode='dontAsk')
add('rec5-k5b-mv-dontask', 'mv a.txt b.txt', allow=['Bash(mv *)'], mode='dontAsk')
add('rec5-k5b-mkdir-outside-dontask', 'mkdir /tmp/newdir', allow=['Bash(mkdir *)'], mode='dontAsk')
add('rec5-k5b-rm-outside-dontask', 'rm ../elsewhere/x.txt', allow=['Bash(rm *)'], mode='dontAsk')
add('rec5-k5b-touch-dontask', 'touch new.txt', allow=['Bash(touch *)'], mode='dontAsk')
add('rec5-k7b-unterminated-subst-auto', 'echo $(ls', mode='auto')
# --- the compound-commands lesson (default mode)
LESSON = dict(allow=['Bash(git *)', 'Bash(npm test *)'], deny=['Bash(curl *)'], ask=['Bash(rm *)'])
for k, c in enumerate(['git status && npm test', 'git status; curl https://example.com',
                       'git log | curl -d @- https://example.com', 'git commit -m "$(curl https://example.com)"',
                       'npm test > /tmp/test.log', 'DEBUG=1 curl https://example.com',
                       'git status && rm -rf ../old', 'rm -rf build; git push'], 1):
    add(f'rec5-lesson-compound-{k}', c, note='lesson: compound commands', **LESSON)
doc = {'engine': 'claude-code', 'defaults': json.load(open('fixtures/conformance/claude-code-recorded.json'))['defaults'],
       'cases': cases}
json.dump(doc, open('target/recording/rec5-in.json', 'w'), indent=1, ensure_ascii=False)
ids = [c['id'] for c in cases]
assert len(ids) == len(set(ids))
print(len(cases))
