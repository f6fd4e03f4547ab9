import json
lesson=json.load(open('./fixtures/lessons/claude-code-settings.json'))
seed=json.loads(lesson['presets'][0]['config']['text'])
base=json.load(open('target/recording/rec-in.keep.json'))
cases=[]
def add(id, tool, inp, settings, doc=None, note=None):
    c={'id':id,'settings':settings,'call':{'tool':tool,'input':inp}}
    if doc: c['doc_decision']=doc
    c['note']=note or "seed 001's settings (fixtures/lessons/claude-code-settings.json), acceptEdits, sandbox.enabled without autoAllowBashIfSandboxed"
    cases.append(c)
auto=json.loads(json.dumps(seed)); auto['sandbox']['autoAllowBashIfSandboxed']=True
for tag,st,n in (('',seed,None),('~explicit-autoallow',auto,"seed 001's settings with sandbox.autoAllowBashIfSandboxed: true written out")):
    add('seed001-force-push'+tag,'Bash',{'command':'git push --force origin main'},st,'deny',n)
    add('seed001-push'+tag,'Bash',{'command':'git push origin main'},st,'ask',n)
    add('seed001-npm-run-test'+tag,'Bash',{'command':'npm run test -- auth'},st,'allow',n)
    add('seed001-edit-auth'+tag,'Edit',{'file_path':'/home/alice/proj/src/auth.ts','old_string':'a','new_string':'b'},st,'allow',n)
    add('seed001-cat-env'+tag,'Bash',{'command':'cat .env'},st,'deny',n)
    add('seed001-node-sync'+tag,'Bash',{'command':'node scripts/sync.js'},st,'allow',n)
    add('seed001-curl'+tag,'Bash',{'command':'curl https://example.com'},st,'deny',n)
    add('seed001-usr-bin-curl'+tag,'Bash',{'command':'/usr/bin/curl https://example.com'},st,'allow',n)
    add('seed001-sh-c-curl'+tag,'Bash',{'command':"sh -c 'curl https://example.com'"},st,'allow',n)
doc={'engine':'claude-code','defaults':base['defaults'],'cases':cases}
json.dump(doc,open('target/recording/rec2-in.json','w'),indent=1,ensure_ascii=False)
print(len(cases))
