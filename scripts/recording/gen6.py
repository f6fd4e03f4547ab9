# A sixth batch (2026-12-06): a holdout. 26 cases written after the engine followed batch 5,
# mixing its behaviours in ways no case of it does; the engine's answers were checked against
# this recording before anything was changed (26 of 26 agreed).
import json
cases=[]
P='/home/alice/proj'
def add(id, cmd=None, tool='Bash', inp=None, **kw):
    p={k: kw[k] for k in ('allow','deny','ask') if k in kw}; p['defaultMode']=kw.get('mode','default')
    cases.append({'id':id,'settings':{'permissions':p},'call':{'tool':tool,'input':inp if inp is not None else {'command':cmd}}})
add('rec6-x-git-log','X=1 git log')
add('rec6-ci-ls','CI=true ls')
add('rec6-nocolor-cat','NO_COLOR=1 cat README.md',allow=['Bash(cat *)'])
add('rec6-quoted-log','git \'log\' --oneline')
add('rec6-show-quoted-arg',"git show 'HEAD'")
add('rec6-diff-foo-git-star','git diff --foo',allow=['Bash(git *)'])
add('rec6-head-etc-read-rule','head /etc/hosts',allow=['Read(//etc/**)'])
add('rec6-wc-tilde','wc -l ~/elsewhere/x.txt')
add('rec6-grep-r-tmp','grep -r foo /tmp')
add('rec6-cat-src-cat-star','cat src/app.ts',allow=['Bash(cat *)'])
add('rec6-ls-parent','ls ../')
add('rec6-git-log-amp-bare','git log &',allow=['Bash'])
add('rec6-ls-la-amp-ls-star','ls -la &',allow=['Bash(ls *)'])
add('rec6-sleep-amp-bare','sleep 1 &',allow=['Bash'])
add('rec6-cat-amp-cat-bypass','cat a.txt & cat notes.txt',mode='bypassPermissions')
add('rec6-tee-a-dontask','tee -a notes.txt',allow=['Bash(tee *)'],mode='dontAsk')
add('rec6-sed-i-bak-dontask',"sed -i.bak 's/a/b/' a.txt",allow=['Bash(sed *)'],mode='dontAsk')
add('rec6-touch-tmp-dontask','touch /tmp/x',allow=['Bash(touch *)'],mode='dontAsk')
add('rec6-read-docs-star-deep',tool='Read',inp={'file_path':P+'/docs/sub/x.md'},deny=['Read(docs/*)'])
add('rec6-write-env-star-deep',tool='Write',inp={'file_path':P+'/a/b/.env.local','content':'x'},deny=['Edit(./.env*)'])
add('rec6-write-src-deep-allow',tool='Write',inp={'file_path':P+'/src/deep/x.ts','content':'x'},allow=['Edit(./src/**)'])
add('rec6-read-secrets-nested-deny',tool='Read',inp={'file_path':P+'/packages/api/secrets/k'},deny=['Read(./secrets/**)'])
add('rec6-unclosed-subst-git-deny','echo $(git status',deny=['Bash(git *)'])
add('rec6-npm-unclosed-subst-bare','npm test $(echo',allow=['Bash'])
add('rec6-rm-trailing-dquote-ask','rm -rf build "',ask=['Bash(rm *)'])
add('rec6-cat-env-in-sub-read-deny-slash','cat sub/.env',deny=['Read(/.env)'])
json.dump({'engine':'claude-code','defaults':json.load(open('fixtures/conformance/claude-code-recorded.json'))['defaults'],'cases':cases},open('target/recording/rec6-in.json','w'),indent=1)
print(len(cases))
