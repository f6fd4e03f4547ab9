// The lesson on compound commands: each product decides the whole call as it really does
// (OpenCode's bash tool asks per command, Codex splits plain bash -lc scripts and takes the
// strictest, Claude Code splits compound commands; first-match matches the line as one string),
// and the widget shows which part decided and walks the table once per part.
import { test, expect, screenshotPath } from './fixtures.mjs';
import { demoWidget, panelOf, guessAndReveal, expectNoLeak } from './reveal-helpers.mjs';

const CALLS = [
  'git status && npm test',
  'git status; curl https://example.com',
  'git log | curl -d @- https://example.com',
  'git commit -m "$(curl https://example.com)"',
  'npm test > /tmp/test.log',
  'DEBUG=1 curl https://example.com',
  'git status && rm -rf ../old',
  'rm -rf build; git push',
];

const WORDS = {
  zh: {
    ocWhy: 'bash 工具把这行当作 2 条命令逐个检查,第一个没被放行的决定结果 —— 第 2 部分「curl https://example.com」',
    cxWhy: 'Codex 把 bash -lc 脚本拆成 2 条命令,逐条检查后取最严的 —— 第 2 部分「curl https://example.com」',
    cxWhole: 'Codex 不拆开,整行作为一条命令检查',
    outside: '项目外目录「/home/learner/*」(external_directory)',
    always: ';在提示里选「始终允许」会记住 /home/learner/*',
    place: '在 /home/learner/miniagent(项目目录)里运行,~ 是 /home/learner',
    parts: '[共 2 部分]',
  },
  en: {
    ocWhy: 'the bash tool checks this line as 2 commands, in order, and the first that is not allowed decides — part 2, “curl https://example.com”',
    cxWhy: 'Codex splits the bash -lc script into 2 commands, checks each and takes the strictest — part 2, “curl https://example.com”',
    cxWhole: 'Codex does not split it and checks the whole line as one command',
    outside: 'the outside directory “/home/learner/*” (external_directory)',
    always: '; “Allow always” on the prompt would save /home/learner/*',
    place: 'runs in /home/learner/miniagent (the project; ~ is /home/learner)',
    parts: '[2 parts]',
  },
};

const ENGINES = ['first-match', 'opencode', 'claude-code', 'codex'];

for (const lang of ['zh', 'en']) {
  test(`compound commands (${lang}): each product's verdict for the whole call, the deciding part, the walk per part`, async ({ page, problems }) => {
    const t = WORDS[lang];
    const w = await demoWidget(page, lang, 'compound');
    const select = w.locator('.pl-call-select');
    // The lesson's eight calls, in order, after the select's empty first entry.
    await expect(select.locator('option')).toHaveText(['—', ...CALLS.map((c) => `bash: ${c}`)]);
    await select.selectOption('1');
    await expect(w.locator('.pl-call-input')).toHaveText(CALLS[1]);
    await expectNoLeak(w, 'before any guess');
    // Before the reveal, the walk is blind from step 1: not a match, not a stop, not a part
    // (Codex's part 1, `git status`, matches `git *` at step 1; its part 2 stop would tell).
    await w.locator('.pl-step-toggle').click();
    await w.locator('.pl-step-next').click();
    await expect(w.locator('.pl-step-line[data-engine-step="codex"]')).toHaveAttribute('data-locked', 'true');
    await w.locator('.pl-step-last').click();
    await expect(w.locator('.pl-step-line[data-engine-step="opencode"]')).toHaveAttribute('data-locked', 'true');
    for (const e of ['opencode', 'codex']) {
      await expect(w.locator(`.pl-step-line[data-engine-step="${e}"] .pl-step-text`)).not.toContainText(t.parts);
    }
    await w.locator('.pl-step-toggle').click();
    // Guess what a learner who trusts "the first rule that matches" would, then reveal.
    for (const e of ENGINES) await guessAndReveal(w, e, 'allow');
    await expect(panelOf(w, 'first-match')).toHaveAttribute('data-verdict', 'allow');
    await expect(panelOf(w, 'opencode')).toHaveAttribute('data-verdict', 'deny');
    await expect(panelOf(w, 'claude-code')).toHaveAttribute('data-verdict', 'deny');
    await expect(panelOf(w, 'codex')).toHaveAttribute('data-verdict', 'deny');
    // The reason names how the product split the line and the part that decided.
    await expect(panelOf(w, 'opencode').locator('.pl-why')).toContainText(t.ocWhy);
    await expect(panelOf(w, 'codex').locator('.pl-why')).toContainText(t.cxWhy);
    // The stepper walks the table once per part: its lines say which part they are on.
    await w.locator('.pl-step-toggle').click();
    await w.locator('.pl-step-next').click();
    const oc = w.locator('.pl-step-line[data-engine-step="opencode"] .pl-step-text');
    await expect(oc).toContainText(t.parts);
    await w.locator('.pl-step-last').click();
    await expect(oc).toContainText(lang === 'zh' ? '第 2 部分' : 'part 2');
    await expect(w.locator('.pl-step-line[data-engine-step="codex"] .pl-step-text')).toContainText(t.parts);
    await w.screenshot({ path: screenshotPath(`compound-${lang}-parts`) });

    // `$( )`: OpenCode checks the inner curl too; Codex keeps the whole line and no rule sees it.
    await select.selectOption('3');
    for (const e of ENGINES) await guessAndReveal(w, e, 'deny');
    await expect(panelOf(w, 'opencode')).toHaveAttribute('data-verdict', 'deny');
    await expect(panelOf(w, 'codex')).toHaveAttribute('data-verdict', 'ask');
    await expect(panelOf(w, 'codex').locator('.pl-why')).toContainText(t.cxWhole);

    // An outside directory: OpenCode asks about it before any command.
    await select.selectOption('6');
    for (const e of ENGINES) await guessAndReveal(w, e, 'ask');
    await expect(panelOf(w, 'opencode')).toHaveAttribute('data-verdict', 'ask');
    await expect(panelOf(w, 'opencode').locator('.pl-why')).toContainText(t.outside);
    // What "Allow always" would save, and where the call runs (what "outside" is relative to).
    await expect(panelOf(w, 'opencode').locator('.pl-why')).toContainText(t.always);
    await expect(w.locator('.pl-call-place')).toHaveText(t.place);
    await w.screenshot({ path: screenshotPath(`compound-${lang}-outside`) });
  });
}

test('evaluate() gives the whole call with its parts and the part that decided', async ({ page, problems }) => {
  await page.goto('./demo/en.html');
  const out = await page.evaluate(async () => {
    const permlab = await import('../permlab.js');
    const rules = [
      { tool: 'bash', pattern: 'git *', action: 'allow' },
      { tool: 'bash', pattern: 'curl *', action: 'deny' },
    ];
    const call = 'bash: git status; curl https://x.example';
    const r = {};
    for (const engine of ['first-match', 'opencode', 'codex', 'claude-code']) {
      r[engine] = await permlab.evaluate({ engine, rules, call });
    }
    r.asks = await permlab.evaluate({ engine: 'opencode', rules, call: 'bash: git status && npm test --watch' });
    return r;
  });
  // OpenCode asks about `npm test --watch`: "Allow always" saves the request's arity prefixes.
  expect(out.asks.decision).toBe('ask');
  expect(out.asks.always).toEqual(['git status *', 'npm test *']);
  expect(out.opencode.always).toEqual([]);
  expect(out['first-match'].decision).toBe('allow');
  expect(out['first-match'].parts).toEqual([]);
  for (const e of ['opencode', 'codex']) {
    expect(out[e].decision).toBe('deny');
    expect(out[e].rule).toBe(2);
    expect(out[e].decided_by).toBe(1);
    expect(out[e].parts.map((p) => [p.kind, p.text, p.decision, p.rule])).toEqual([
      ['command', 'git status', 'allow', 1],
      ['command', 'curl https://x.example', 'deny', 2],
    ]);
    expect(new Set(out[e].steps.map((s) => s.part))).toEqual(new Set([0, 1]));
  }
  expect(out['claude-code'].decision).toBe('deny');
});
