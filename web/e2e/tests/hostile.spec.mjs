// Hostile text stays text: HTML, SVG and `javascript:` payloads, an RTL override
// and zero-width characters typed into every field, pasted as a config, given as a lesson's
// title, texts and rules, as a `data-lesson` selector (its error message) and put in the URL
// hash. No script may run (a `window.__pwned` trap and a dialog listener), and each text shows
// exactly as typed.
import { test, expect } from './fixtures.mjs';

const payloads = [
  '<img src=x onerror="window.__pwned=1;alert(1)">',
  '<svg onload="window.__pwned=1"><script>window.__pwned=1</script></svg>',
  'javascript:window.__pwned=1//',
  '"><iframe src="javascript:alert(1)"></iframe>',
  'rm \u202Eevil\u202C -rf',
  'git\u200B push\u200D\uFEFF origin',
];
// A tool name is one word: the payloads without spaces.
const toolPayloads = ['<img/src=x/onerror=alert(1)>', 'javascript:alert(1)', 'ba\u200Bsh', '\u202Ehsab'];

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    window.__pwned = 0;
    window.alert = () => { window.__pwned = 1; };
  });
  page.on('dialog', async (d) => {
    await page.evaluate(() => { window.__pwned = 1; }).catch(() => {});
    await d.dismiss();
  });
});

async function noScriptRan(page) {
  expect(await page.evaluate(() => window.__pwned)).toBe(0);
  // No element the payloads carry made it into the widget as markup.
  expect(await page.locator('.pl-widget img, .pl-widget iframe, .pl-widget svg script, .pl-widget [onerror], .pl-widget [onload]').count()).toBe(0);
}

const text = (loc) => loc.evaluate((el) => el.textContent);

async function open(page, hash = '') {
  await page.goto('./' + hash);
  await expect(page.locator('#a3 tbody.pl-rules tr').first()).toBeVisible();
  return page.locator('#a3');
}

test('call fields, table editor and import panel: payloads show as typed, nothing runs', async ({ page, problems }) => {
  const w = await open(page);
  // The call's input.
  for (const p of payloads) {
    await w.locator('.pl-call-input-text').fill(p);
    await expect.poll(() => text(w.locator('.pl-call-input'))).toBe(p);
  }
  for (const t of toolPayloads) {
    await w.locator('.pl-call-tool-input').fill(t);
    await expect.poll(() => text(w.locator('.pl-call-tool'))).toBe(t);
  }
  await noScriptRan(page);
  // The table editor: every payload as a tool and a pattern.
  const rules = payloads.map((p, i) => ({ tool: toolPayloads[i % toolPayloads.length], pattern: p, action: 'deny' }));
  await w.locator('.pl-editor summary').click();
  await w.locator('.pl-table-json').fill(JSON.stringify(rules));
  await w.locator('.pl-apply').click();
  await expect(w.locator('tbody.pl-rules tr')).toHaveCount(rules.length);
  expect(await w.locator('tbody.pl-rules .pl-pattern').evaluateAll((cs) => cs.map((c) => c.textContent))).toEqual(payloads);
  expect(await w.locator('tbody.pl-rules .pl-tool').evaluateAll((cs) => cs.map((c) => c.textContent))).toEqual(rules.map((r) => r.tool));
  // A broken table's error message (it quotes nothing as markup).
  await w.locator('.pl-table-json').fill(`[{"tool": "bash", "pattern": "${payloads[0].replace(/"/g, '\\"')}", "action": "<b>deny</b>"}]`);
  await w.locator('.pl-apply').click();
  await expect(w.locator('.pl-table-error')).toContainText('<b>deny</b>');
  await noScriptRan(page);
  // The import panel: an OpenCode config whose keys are the payloads.
  const config = { permission: { bash: Object.fromEntries(payloads.map((p) => [p, 'ask'])) } };
  await w.locator('.pl-import summary').click();
  await w.locator('.pl-import-text').fill(JSON.stringify(config));
  await w.locator('.pl-import-button').click();
  await expect(w.locator('.pl-import-summary')).toHaveAttribute('data-format', 'opencode');
  const patterns = await w.locator('tbody.pl-rules .pl-pattern').evaluateAll((cs) => cs.map((c) => c.textContent));
  for (const p of payloads) expect(patterns).toContain(p);
  // A Claude Code settings file whose rule is a payload (and a warning quoting it).
  const settings = { permissions: { deny: [`Bash(${payloads[0]})`, `Nope(${payloads[1]})`] } };
  await w.locator('.pl-import-text').fill(JSON.stringify(settings));
  await w.locator('.pl-import-button').click();
  await expect(w.locator('.pl-import-summary')).toHaveAttribute('data-format', 'claude-code');
  await noScriptRan(page);
  expect(problems).toEqual([]);
});

test('a lesson with payloads in its title, texts, rules and calls; a hostile data-lesson selector', async ({ page, problems }) => {
  await open(page);
  const lesson = {
    title: { zh: payloads[0], en: payloads[1] },
    language: 'zh', mode: 'explore', engines: ['first-match', 'opencode'],
    presets: [{
      id: 'x', title: { zh: payloads[2], en: payloads[2] },
      rules: payloads.map((p) => ({ tool: 'bash', pattern: p, action: 'allow' })),
      calls: payloads.map((p) => ({ tool: 'bash', input: p })),
    }],
    texts: { question: { zh: payloads[3], en: payloads[3] } },
  };
  await page.evaluate((lesson) => {
    const div = document.createElement('div');
    div.id = 'hx';
    div.setAttribute('data-lang', 'zh');
    document.body.prepend(div);
    window.wasmBindings.mount(div, JSON.stringify(lesson));
    // A selector that is itself markup: its error message shows it as text.
    const bad = document.createElement('div');
    bad.id = 'hy';
    bad.setAttribute('data-lesson', '#<img src=x onerror=alert(1)>');
    document.body.prepend(bad);
    window.wasmBindings.mount(bad);
  }, lesson);
  const w = page.locator('#hx');
  await expect(w.locator('.pl-title')).toHaveText(payloads[0]);
  await expect.poll(() => text(w.locator('.pl-question'))).toBe(payloads[3]);
  expect(await w.locator('tbody.pl-rules .pl-pattern').evaluateAll((cs) => cs.map((c) => c.textContent))).toEqual(payloads);
  await expect.poll(() => text(w.locator('.pl-call-input'))).toBe(payloads[0]);
  const alert = page.locator('#hy .pl-lesson-problems');
  await expect(alert).toContainText('#<img src=x onerror=alert(1)>');
  await noScriptRan(page);
  expect(problems).toEqual([]);
});

test('payloads in the URL hash (call, custom table) show as text, nothing runs', async ({ page, problems }) => {
  const table = JSON.stringify(payloads.map((p) => ({ tool: 'bash', pattern: p, action: 'ask' })));
  const hash = `#a3.p=custom&a3.j=${encodeURIComponent(table)}&a3.t=bash&a3.i=${encodeURIComponent(payloads[1])}`;
  const w = await open(page, hash);
  await expect.poll(() => text(w.locator('.pl-call-input'))).toBe(payloads[1]);
  expect(await w.locator('tbody.pl-rules .pl-pattern').evaluateAll((cs) => cs.map((c) => c.textContent))).toEqual(payloads);
  await noScriptRan(page);
  // A hash that is itself markup (a fresh load: a hash-only goto would not reload).
  await page.goto('about:blank');
  await page.goto(`./#${encodeURIComponent('<img src=x onerror=alert(1)>')}&a3.i=${encodeURIComponent(payloads[4])}&a3.t=bash`);
  await expect(page.locator('#a3 tbody.pl-rules tr').first()).toBeVisible();
  await expect.poll(() => text(page.locator('#a3 .pl-call-input'))).toBe(payloads[4]);
  await noScriptRan(page);
  expect(problems).toEqual([]);
});
