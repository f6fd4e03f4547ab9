// Errors and hostile input: every way a lesson can fail to load shows a
// message above the widget, in the page's language, with the position and what to fix, and the
// built-in rule sets keep working below it; the import panel and its worker never hang: a 10 MB
// paste, a 10 000-rule config, a Starlark bomb and a worker that never answers each end with a
// message in the learner's language, the pasted text kept, and a widget that still imports.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test, expect, screenshotPath } from './fixtures.mjs';

const repo = resolve(import.meta.dirname, '../../..');
const a3 = readFileSync(resolve(repo, 'fixtures/lessons/a3-2-conflict.json'), 'utf8');
const corpus = (p) => readFileSync(resolve(repo, '../shared/corpus', p), 'utf8');

/** 1-based line and column (in characters) of `offset` in `text`. */
function lineCol(text, offset) {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = [...before.slice(before.lastIndexOf('\n') + 1)].length + 1;
  return { line, column };
}

// The lesson with one trailing comma added before its last `}`.
const trimmed = a3.trimEnd();
const withComma = `${trimmed.slice(0, -1).trimEnd()},\n}`;
const comma = lineCol(withComma, withComma.lastIndexOf(','));
const truncated = a3.slice(0, Math.floor(a3.length / 2));
const badMode = a3.replace('"mode": "quiz"', '"mode": "quizz"');
const modeAt = lineCol(badMode, badMode.indexOf('"quizz"'));

const words = {
  zh: {
    builtin: '内置规则集',
    pos: (p) => `第 ${p.line} 行第 ${p.column} 列`,
    comma: '删掉最后那个',
    truncated: '截断',
    notJson: '第 1 行第 1 列',
    nope: '#nope',
    empty: '是空的',
    checks: '未知的课程模式 "quizz"',
    // English words of the en table that must not appear on a zh page.
    english: /\b(expected|remove|(?<![-\w])lesson|built-in|Line|column|found|missing|unknown)\b/i,
  },
  en: {
    builtin: 'built-in rule sets',
    pos: (p) => new RegExp(`line ${p.line}, column ${p.column}`, 'i'),
    comma: 'remove the last comma',
    truncated: 'cut short',
    notJson: 'Line 1, column 1',
    nope: '#nope',
    empty: 'is empty',
    checks: 'unknown mode "quizz"',
    english: null,
  },
};

const cases = [
  { id: 'comma', script: withComma, want: (w) => [w.comma, w.pos(comma)] },
  { id: 'truncated', script: truncated, want: (w) => [w.truncated] },
  { id: 'notjson', script: 'this is not JSON, just prose', want: (w) => [w.notJson] },
  { id: 'nope', selector: '#nope', want: (w) => [w.nope] },
  { id: 'empty', script: '', want: (w) => [w.empty] },
  { id: 'checks', script: badMode, want: (w) => [w.checks, w.pos(modeAt)] },
];

function page_html(lang) {
  const esc = (t) => t.replace(/<\//g, '<\\/');
  const parts = cases.map((c) => {
    const sel = c.selector ?? `#lesson-${c.id}`;
    const script = c.selector ? '' : `<script type="application/json" id="lesson-${c.id}">${esc(c.script)}</script>`;
    return `<h2>${c.id}</h2><div id="w-${c.id}" data-permlab data-lesson="${sel}"><p class="static">static ${c.id}</p></div>${script}`;
  });
  return `<!doctype html><html lang="${lang === 'zh' ? 'zh-CN' : 'en'}"><head><meta charset="utf-8"><title>errors</title>
    <link rel="icon" href="data:,"><script type="module" src="../permlab.js"></script></head><body>${parts.join('\n')}</body></html>`;
}

for (const lang of ['zh', 'en']) {
  test(`lesson load failures (${lang}): a message above the widget with where and what to fix; the built-ins still work`, async ({ page, problems }) => {
    const w = words[lang];
    await page.route(`**/demo/errors-${lang}.html`, (r) => r.fulfill({ contentType: 'text/html', body: page_html(lang) }));
    await page.goto(`./demo/errors-${lang}.html`);
    for (const c of cases) {
      const host = page.locator(`#w-${c.id}`);
      await host.scrollIntoViewIfNeeded();
      await expect(host).toHaveAttribute('data-permlab-state', 'mounted');
      const alert = host.locator('.pl-lesson-problems[role="alert"]');
      await expect(alert, c.id).toBeVisible();
      await expect(alert).toContainText(w.builtin);
      for (const needle of c.want(w)) await expect(alert, c.id).toContainText(needle);
      // Names stay as written: ids (#lesson-empty) and the README's section title 「Writing a lesson」.
      if (w.english) expect((await alert.innerText()).replace(/「[^」]*」|#[\w-]+/g, ''), `${c.id}: no English on a zh page`).not.toMatch(w.english);
      // Above the widget's controls and table.
      const table = host.locator('tbody.pl-rules');
      const [a, t] = [await alert.boundingBox(), await table.boundingBox()];
      expect(a.y + a.height).toBeLessThanOrEqual(t.y);
      // The built-in rule set below works: 10 rows, and a reverse reorders them.
      const rows = host.locator('tbody.pl-rules tr');
      await expect(rows).toHaveCount(10);
      const first = await rows.first().getAttribute('data-rule-id');
      await host.locator('.pl-reverse').click();
      await expect(rows.first()).not.toHaveAttribute('data-rule-id', first);
      if (c.id === 'comma') await page.screenshot({ path: screenshotPath(`errors-lesson-${lang}`) });
    }
    expect(problems).toEqual([]);
  });
}

// ---- the import panel and its worker ------------------------------------------------------

async function openIndex(page, lang) {
  await page.goto('./');
  await expect(page.locator('#a3 tbody.pl-rules tr').first()).toBeVisible();
  if (lang === 'zh') return page.locator('#a3');
  // An en widget next to the page's zh one.
  await page.evaluate(() => {
    const div = document.createElement('div');
    div.id = 'en1';
    div.setAttribute('data-lang', 'en');
    document.body.prepend(div);
    window.wasmBindings.mount(div);
  });
  const w = page.locator('#en1');
  await expect(w.locator('tbody.pl-rules tr').first()).toBeVisible();
  return w;
}

async function paste(w, text) {
  const details = w.locator('.pl-import');
  if (!(await details.evaluate((d) => d.open))) await details.locator('summary').click();
  await w.locator('.pl-import-text').fill(text);
  await w.locator('.pl-import-button').click();
}

/** A normal import still works afterwards (a fresh worker for a .rules file). */
async function importWorks(w, file = 'codex/001.rules', format = 'codex') {
  await paste(w, corpus(file));
  await expect(w.locator('.pl-import-summary')).toHaveAttribute('data-format', format);
  expect(Number(await w.locator('.pl-import-summary').getAttribute('data-imported'))).toBeGreaterThan(0);
}

const msg = {
  zh: { steps: '步数预算', mb: 'MB 内存', big: '这个值太大了', timeout: '已停止', json: '第 1 行', kept: '你粘贴的内容还在' },
  en: { steps: 'step budget', mb: 'memory budget', big: 'too large', timeout: 'was stopped', json: 'Line 1', kept: 'what you pasted is kept' },
};

for (const lang of ['zh', 'en']) {
  test(`import (${lang}): a Starlark step bomb and a memory bomb end with the budget's message; the text stays; a normal import works`, async ({ page, problems }) => {
    const w = await openIndex(page, lang);
    const m = msg[lang];
    const steps = 'x = []\nfor i in range(900000):\n    x.insert(0, i)\nprefix_rule(pattern=["ls"])\n';
    await paste(w, steps);
    const error = w.locator('.pl-import-error');
    await expect(error).toContainText(m.steps);
    await expect(error).toContainText(lang === 'zh' ? '第 ' : 'line ');
    await expect(w.locator('.pl-import-text')).toHaveValue(steps);
    // Within the one-value limit each time, over the file's memory budget in total.
    const bomb = 'x = []\nfor i in range(200):\n    x.append("x" * 900000)\nprefix_rule(pattern=["ls"])\n';
    await paste(w, bomb);
    await expect(error).toContainText(m.mb);
    await expect(w.locator('.pl-import-text')).toHaveValue(bomb);
    // One value over the per-value limit (a `"x" * 10**9`).
    const huge = 'x = "x" * 1000000000\nprefix_rule(pattern=["ls"])\n';
    await paste(w, huge);
    await expect(error).toContainText(m.big);
    await expect(w.locator('.pl-import-text')).toHaveValue(huge);
    if (lang === 'zh') expect(await error.innerText()).not.toMatch(/\b(needs|budget|policy)\b/);
    await page.screenshot({ path: screenshotPath(`errors-bomb-${lang}`) });
    await importWorks(w);
    expect(problems).toEqual([]);
  });

  test(`import (${lang}): a worker that never answers is stopped after its time budget; the next import starts a new one`, async ({ page, problems }) => {
    const w = await openIndex(page, lang);
    const m = msg[lang];
    await w.evaluate((el) => el.setAttribute('data-worker-seconds', '2'));
    // A worker script that loads and never says it is ready.
    await page.route('**/selfcheck-loader.js', (r) => r.fulfill({ contentType: 'text/javascript', body: 'setInterval(() => {}, 1000);' }));
    const text = corpus('codex/001.rules');
    await paste(w, text);
    const error = w.locator('.pl-import-error');
    await expect(error).toContainText(m.timeout);
    await expect(error).toContainText(lang === 'zh' ? '2 秒' : '2 s');
    await expect(w.locator('.pl-import-text')).toHaveValue(text);
    // The widget works meanwhile, and a new request gets a new (real) worker.
    const rows = w.locator('tbody.pl-rules tr');
    const first = await rows.first().getAttribute('data-rule-id');
    await w.locator('.pl-reverse').click();
    await expect(rows.first()).not.toHaveAttribute('data-rule-id', first);
    await page.unroute('**/selfcheck-loader.js');
    await importWorks(w);
    expect(problems).toEqual([]);
  });
}

test('import (zh): a 10 MB paste and a 10 000-rule config each end with a message and a working widget', async ({ page, problems }) => {
  test.setTimeout(240_000);
  const w = await openIndex(page, 'zh');
  // 10 MB that is not JSON at its end: the reader says where.
  const big = `{"permissions": {"allow": ["Bash(echo ${'a'.repeat(10 * 1024 * 1024)})" oops]}}`;
  await w.locator('.pl-import').locator('summary').click();
  await w.locator('.pl-import-text').evaluate((t, v) => {
    t.value = v;
    t.dispatchEvent(new Event('input', { bubbles: true }));
  }, big);
  await w.locator('.pl-import-button').click();
  const error = w.locator('.pl-import-error');
  await expect(error).toContainText(msg.zh.json);
  await expect(error).toContainText(msg.zh.kept);
  expect(await w.locator('.pl-import-text').evaluate((t) => t.value.length)).toBe(big.length);
  // 10 000 OpenCode rules: imported, summarised, the table works.
  const keys = Array.from({ length: 10_000 }, (_, i) => `"cmd${i} *": "${['allow', 'ask', 'deny'][i % 3]}"`);
  const many = `{"permission": {"bash": {${keys.join(', ')}}}}`;
  await w.locator('.pl-import-text').fill(many);
  await w.locator('.pl-import-button').click();
  const summary = w.locator('.pl-import-summary');
  await expect(summary).toHaveAttribute('data-format', 'opencode');
  expect(Number(await summary.getAttribute('data-imported'))).toBe(10_000);
  await expect(w.locator('tbody.pl-rules tr').first()).toBeVisible();
  await importWorks(w, 'claude/001.json', 'claude-code');
  expect(problems).toEqual([]);
});

// ---- one language per widget ----------------------------------------------------------------

// Words of the en table that must not appear in a zh widget's announcements, steps and errors
// (tool names, patterns, engine names and JSON keys are the same in both languages).
const EN_TABLE_WORDS = /(?<![-\w])(deny|allow|ask|stop|group|moved|position|expected|found|line|column|wrong|guessed|unknown|missing|remove|lesson|rule|invalid|trailing)(?![-\w])/i;
const CJK = /[\u3000-\u9fff\uff00-\uffef]/;

for (const lang of ['zh', 'en']) {
  test(`one language (${lang}): announcements, the stepper, an import error and a lesson check error`, async ({ page, problems }) => {
    const w = await openIndex(page, lang);
    const seen = [];
    const grab = async (loc) => seen.push(...(await loc.evaluateAll((els) => els.map((e) => e.textContent))));
    // A move by button: the live region's announcement.
    await w.locator('tbody.pl-rules tr[data-rule-id="8"] .pl-down').click();
    await expect(w.locator('.pl-announce')).not.toHaveText('');
    await grab(w.locator('.pl-announce'));
    // The stepper, first and last step (groups, "→ deny, stop").
    await w.locator('.pl-step-toggle').click();
    await grab(w.locator('[data-engine-step]'));
    await w.locator('.pl-step-last').click();
    await grab(w.locator('[data-engine-step]'));
    // An import error (broken JSON).
    await paste(w, '{\n  "permissions": {\n    "allow": ["Bash(git status)",\n');
    await expect(w.locator('.pl-import-error')).toBeVisible();
    await grab(w.locator('.pl-import-error'));
    // A lesson check error, on a widget of the same language.
    await page.evaluate(([lang, lesson]) => {
      const div = document.createElement('div');
      div.id = 'lc';
      div.setAttribute('data-lang', lang);
      document.body.prepend(div);
      window.wasmBindings.mount(div, lesson);
    }, [lang, badMode]);
    await expect(page.locator('#lc .pl-lesson-problems')).toBeVisible();
    await grab(page.locator('#lc .pl-lesson-problems'));
    expect(seen.length).toBeGreaterThan(4);
    for (const t of seen) {
      if (lang === 'zh') expect(t, 'an English word of the en table on a zh widget').not.toMatch(EN_TABLE_WORDS);
      else expect(t, 'Chinese on an en widget').not.toMatch(CJK);
    }
    expect(problems).toEqual([]);
  });
}
