import json
cases=[]
def P(**kw):
    p={}
    for k in ('allow','ask','deny'):
        if k in kw: p[k]=kw[k]
    p['defaultMode']=kw.get('mode','default')
    return p
def add(id, cmd=None, tool='Bash', inp=None, doc=None, sandbox=None, context=None, layers=None, harness=None, note=None, extra=None, **kw):
    s={'permissions':P(**kw)}
    if sandbox: s['sandbox']=sandbox
    if extra: s.update(extra)
    c={'id':id,'settings':s,'call':{'tool':tool,'input':inp if inp is not None else {'command':cmd}}}
    if layers: c['layers']=layers
    if context: c['context']=context
    if harness: c['harness']=harness
    if doc: c['doc_decision']=doc
    if note: c['note']=note
    cases.append(c)
SBX={'enabled':True,'autoAllowBashIfSandboxed':True}
SBXD={'enabled':True}
# --- what gets past Bash(curl *) / Bash(rm *) / Bash(git push *)
add('rec-path-usr-bin-curl','/usr/bin/curl https://example.com',deny=['Bash(curl *)'],doc='ask',note='docs #bash-rule-limits: deny Bash(curl *) misses /usr/bin/curl')
add('rec-path-usr-local-bin-curl','/usr/local/bin/curl https://example.com',deny=['Bash(curl *)'],doc='ask')
add('rec-path-bin-rm','/bin/rm -rf build',deny=['Bash(rm *)'],doc='ask',note='docs #bash-rule-limits: deny Bash(rm *) misses /bin/rm')
add('rec-path-usr-bin-curl-acceptedits','/usr/bin/curl https://example.com',deny=['Bash(curl *)'],mode='acceptEdits',doc='ask')
add('rec-path-usr-bin-curl-bypass','/usr/bin/curl https://example.com',deny=['Bash(curl *)'],mode='bypassPermissions',doc='allow')
add('rec-path-usr-bin-curl-allow-rule','/usr/bin/curl https://example.com',allow=['Bash(curl *)'])
add('rec-path-usr-bin-npm-allow-rule','/usr/bin/npm test',allow=['Bash(npm test *)'])
add('rec-path-relative-npm-allow-rule','./npm test',allow=['Bash(npm test *)'])
add('rec-quote-git-push-deny',"git 'push' origin main",deny=['Bash(git push *)'],doc='ask',note="docs: quotes are not removed, so git 'push' misses Bash(git push *)")
add('rec-dquote-git-push-deny','git "push" origin main',deny=['Bash(git push *)'],doc='ask')
add('rec-quote-curl-name-deny',"'curl' https://example.com",deny=['Bash(curl *)'])
add('rec-quote-split-name-deny',"cu''rl https://example.com",deny=['Bash(curl *)'])
add('rec-quote-git-push-allow',"git 'push' origin main",allow=['Bash(git push *)'])
add('rec-git-C-push-deny','git -C . push origin main',deny=['Bash(git push *)'],doc='ask')
add('rec-git-c-option-push-deny','git -c push.default=current push origin main',deny=['Bash(git push *)'],doc='ask')
add('rec-sh-c-dquote-curl','sh -c "curl https://example.com"',deny=['Bash(curl *)'],doc='ask')
add('rec-bash-c-curl-sandbox','bash -c \'curl https://example.com\'',deny=['Bash(curl *)'],sandbox=SBX)
add('rec-usr-bin-curl-sandbox','/usr/bin/curl https://example.com',deny=['Bash(curl *)'],sandbox=SBX)
add('rec-eval-curl',"eval 'curl https://example.com'",deny=['Bash(curl *)'])
add('rec-subst-which-curl','$(which curl) https://example.com',deny=['Bash(curl *)'])
add('rec-var-curl','c=curl; $c https://example.com',deny=['Bash(curl *)'])
add('rec-python-system-curl',"python3 -c \"import os; os.system('curl https://example.com')\"",deny=['Bash(curl *)'],doc='ask')
add('rec-exec-curl','exec curl https://example.com',deny=['Bash(curl *)'])
add('rec-xargs-curl','echo https://example.com | xargs curl',deny=['Bash(curl *)'])
add('rec-xargs-n1-rm',"find . -name '*.o' | xargs -n1 rm",deny=['Bash(rm *)'])
add('rec-find-exec-rm',"find . -name '*.o' -exec rm {} \\;",deny=['Bash(rm *)'])
add('rec-wget-not-curl','wget -qO- https://example.com',deny=['Bash(curl *)'],doc='ask')
add('rec-curl-uppercase','CURL https://example.com',deny=['Bash(curl *)'])
# --- wrappers and env
add('rec-env-rm','env rm -rf build',deny=['Bash(rm *)'])
add('rec-sudo-rm','sudo rm -rf build',deny=['Bash(rm *)'])
add('rec-env-assign-npm-allow','env NODE_ENV=test npm test',allow=['Bash(npm test *)'])
add('rec-command-curl-deny','command curl https://example.com',deny=['Bash(curl *)'],doc='deny')
add('rec-nohup-curl-deny','nohup curl https://example.com',deny=['Bash(curl *)'],doc='deny')
add('rec-timeout-curl-deny','timeout 5 curl https://example.com',deny=['Bash(curl *)'],doc='deny')
add('rec-env-var-curl-deny','CURL_HOME=/tmp curl https://example.com',deny=['Bash(curl *)'],doc='deny')
add('rec-no-color-allow','NO_COLOR=1 npm test',allow=['Bash(npm test *)'],doc='allow')
add('rec-tz-allow','TZ=UTC npm test',allow=['Bash(npm test *)'])
add('rec-lc-all-allow','LC_ALL=C npm test',allow=['Bash(npm test *)'])
add('rec-path-assign-allow','PATH=/tmp:$PATH npm test',allow=['Bash(npm test *)'],doc='ask')
add('rec-node-env-prod-allow','NODE_ENV=production npm test',allow=['Bash(npm test *)'],doc='allow')
add('rec-nice-bare-allow','nice npm test',allow=['Bash(npm test *)'],doc='allow')
add('rec-sudo-npm-allow','sudo npm test',allow=['Bash(npm test *)'])
# --- compound, redirects, substitutions
add('rec-and-ask-second','npm test && git push origin main',allow=['Bash(npm test *)'],ask=['Bash(git push *)'],doc='ask')
add('rec-or-deny-second','npm test || rm -rf build',deny=['Bash(rm *)'],doc='deny')
add('rec-pipe-grep-allow','npm test | grep ok',allow=['Bash(npm test *)'],doc='allow')
add('rec-semicolon-echo-allow','npm test; echo done',allow=['Bash(npm test *)'],doc='allow')
add('rec-subshell-rm','(rm -rf build)',deny=['Bash(rm *)'],doc='deny')
add('rec-brace-group-rm','{ rm -rf build; }',deny=['Bash(rm *)'],doc='deny')
add('rec-if-body-rm','if true; then rm -rf build; fi',deny=['Bash(rm *)'],doc='deny')
add('rec-while-body-curl','while false; do curl https://example.com; done',deny=['Bash(curl *)'],doc='deny')
add('rec-dquote-subst-curl','echo "$(curl https://example.com)"',deny=['Bash(curl *)'],doc='deny')
add('rec-echo-subst-allow','echo $(rm -rf build)',allow=['Bash(echo *)'],doc='ask')
add('rec-trailing-amp-allow','npm test &',allow=['Bash(npm test *)'])
add('rec-amp-two-commands','npm test & npm run lint',allow=['Bash(npm *)'])
add('rec-dangling-and','npm test &&',allow=['Bash(npm *)'],doc='ask')
add('rec-redirect-out-default','npm test > out.log',allow=['Bash(npm test *)'],doc='ask')
add('rec-redirect-out-acceptedits','npm test > out.log',allow=['Bash(npm test *)'],mode='acceptEdits',doc='allow')
add('rec-redirect-2to1','npm test 2>&1',allow=['Bash(npm test *)'],doc='allow')
add('rec-redirect-devnull-both','npm test > /dev/null 2>&1',allow=['Bash(npm test *)'],doc='allow')
add('rec-input-redirect-read-deny','cat < .env',deny=['Read(./.env)'],doc='deny')
add('rec-append-edit-deny','echo x >> .env',deny=['Edit(./.env)'],doc='deny')
add('rec-tee-edit-deny','echo x | tee .env',deny=['Edit(./.env)'],doc='deny')
add('rec-head-read-deny','head -n 1 .env',deny=['Read(./.env)'],doc='deny')
add('rec-less-read-deny','less .env',deny=['Read(./.env)'])
add('rec-grep-named-read-deny','grep KEY .env',deny=['Read(./.env)'])
add('rec-cp-read-deny','cp .env /tmp/x',deny=['Read(./.env)'])
# --- read-only set
for i,c in enumerate(['ps aux','whoami','date','uname -a','printenv','git remote -v','git branch -a','npm --version','python3 --version','sort a.txt','file README.md','tree','basename src/app.ts','git log --oneline -5','git diff HEAD~1']):
    add('rec-ro-'+c.split()[0]+('-'+c.split()[1].strip('-') if len(c.split())>1 else ''),c)
# --- modes
add('rec-plan-npm-test','npm test',mode='plan',context={'auto_mode_available':False},doc='ask')
add('rec-ae-rm-in-scope','rm -rf build',mode='acceptEdits',doc='allow')
add('rec-ae-rm-outside','rm -rf ../elsewhere',mode='acceptEdits',doc='ask')
add('rec-ae-mkdir','mkdir -p build/x',mode='acceptEdits',doc='allow')
add('rec-ae-mv','mv a.txt b.txt',mode='acceptEdits',doc='allow')
add('rec-ae-npm-install','npm install',mode='acceptEdits',doc='ask')
add('rec-dontask-allow-rule','npm test',allow=['Bash(npm test)'],mode='dontAsk',doc='allow')
add('rec-bypass-critical-rm','rm -rf /',mode='bypassPermissions',doc='ask')
add('rec-auto-ask-rule','git push origin main',ask=['Bash(git push *)'],mode='auto',doc='ask')
# --- sandbox
add('rec-sbx-default-no-autoallow-key','npm test',sandbox=SBXD,doc='allow')
add('rec-sbx-curl-no-rules','curl https://example.com',sandbox=SBX,doc='allow')
add('rec-sbx-rm-in-cwd','rm -rf build',sandbox=SBX,doc='allow')
add('rec-sbx-excluded-command','docker ps',sandbox={'enabled':True,'autoAllowBashIfSandboxed':True,'excludedCommands':['docker *']},doc='ask')
add('rec-sbx-dontask','npm test',sandbox=SBX,mode='dontAsk',doc='allow')
add('rec-sbx-autoallow-false-dontask','npm test',sandbox={'enabled':True,'autoAllowBashIfSandboxed':False},mode='dontAsk',doc='deny')
# --- MCP
add('rec-mcp-deny-tool','',tool='mcp__github__create_issue',inp={'title':'x'},deny=['mcp__github__create_issue'])
add('rec-mcp-deny-server-star','',tool='mcp__github__get_issue',inp={'number':1},deny=['mcp__github__*'])
add('rec-mcp-ask-server-allow-tool','',tool='mcp__github__get_issue',inp={'number':1},ask=['mcp__github'],allow=['mcp__github__get_issue'],doc='ask')
add('rec-mcp-unmatched-default','',tool='mcp__github__get_issue',inp={'number':1},doc='ask')
add('rec-mcp-dontask','',tool='mcp__github__get_issue',inp={'number':1},mode='dontAsk',doc='deny')
add('rec-mcp-bypass','',tool='mcp__github__get_issue',inp={'number':1},mode='bypassPermissions',doc='allow')
add('rec-mcp-acceptedits','',tool='mcp__github__get_issue',inp={'number':1},mode='acceptEdits',doc='ask')
# --- skills
add('rec-skill-bare-deny','',tool='Skill',inp={'skill':'commit'},deny=['Skill'],doc='deny')
add('rec-skill-no-allowed-tools-dontask','',tool='Skill',inp={'skill':'commit'},mode='dontAsk')
add('rec-skill-allowed-tools-allow-rule','',tool='Skill',inp={'skill':'commit'},allow=['Skill(commit)'],harness={'skill_frontmatter':'allowed-tools: Bash(git status)'},doc='allow')
add('rec-skill-no-allowed-tools-deny-rule','',tool='Skill',inp={'skill':'commit'},deny=['Skill(commit)'],doc='deny')
add('rec-skill-no-allowed-tools-ask-rule','',tool='Skill',inp={'skill':'commit'},ask=['Skill(commit)'],doc='ask')
add('rec-skill-allowed-tools-dontask','',tool='Skill',inp={'skill':'commit'},mode='dontAsk',harness={'skill_frontmatter':'allowed-tools: Bash(git status)'},doc='deny')
# --- trust
add('rec-trust-untrusted-project-allow','npm test',allow=['Bash(npm test)'],context={'trusted':False},doc='ask')
add('rec-trust-untrusted-project-deny','rm -rf build',deny=['Bash(rm *)'],context={'trusted':False},doc='deny')
add('rec-trust-untrusted-project-ask','git push origin main',ask=['Bash(git push *)'],context={'trusted':False},doc='ask')
# --- Edit/Write denies
add('rec-edit-bare-deny-edit','',tool='Edit',inp={'file_path':'/home/alice/proj/src/app.ts','old_string':'a','new_string':'b'},deny=['Edit'],mode='acceptEdits',doc='deny')
add('rec-edit-doublestar-deny-edit','',tool='Edit',inp={'file_path':'/home/alice/proj/src/app.ts','old_string':'a','new_string':'b'},deny=['Edit(**)'],mode='acceptEdits',doc='deny')
add('rec-write-deny-edit-call','',tool='Edit',inp={'file_path':'/home/alice/proj/src/app.ts','old_string':'a','new_string':'b'},deny=['Write'],mode='acceptEdits')
add('rec-edit-star-deny-write','',tool='Write',inp={'file_path':'/home/alice/proj/new.txt','content':'x'},deny=['Edit(*)'],mode='acceptEdits')
doc={'engine':'claude-code','source':'input for shared/tools/claude-real (record.sh)',
 'defaults':json.load(open('../shared/conformance/claude-code-real.json'))['defaults'],'cases':cases}
json.dump(doc,open('target/recording/rec-in.keep.json','w'),indent=1,ensure_ascii=False)
ids=[c['id'] for c in cases]; assert len(ids)==len(set(ids)),[i for i in ids if ids.count(i)>1]
print(len(cases))
