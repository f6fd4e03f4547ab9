// Where the widget keeps state: every text a learner types comes
// back exactly as typed after a reload, valid or not, from sessionStorage; the host's own
// fragment stays its own (`#broken` stays `:target`); corrupt storage gives a working widget
// with a note. Against the release dist/ in Debian Chromium.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test, expect as baseExpect, screenshotPath, artifacts } from './fixtures.mjs';

// On a loaded 2-core machine a state can take seconds to arrive: every wait is for a state.
const expect = baseExpect.configure({ timeout: 30_000 });

const HOSTILE = [
  '<img src=x onerror=alert(1)>',
  '</textarea><script>alert(1)</script>',
  'javascript:alert(1)',
  '&amp;&lt;',
  '\u202Eabc',
  'a\u200Bb',
  '👩‍💻🚀',
  'line one\nline two\n\nline four',
  'bad tool name',
];

const rows = (page) => page.locator('tbody.pl-rules tr');
const dist = resolve(artifacts, '../dist');

/// A host page (served as ./lesson.html): dist/index.html with a heading `#broken` far down the
/// page, the widget under it, in `lang`, with the placeholder id `id`.
function lessonPage(lang, id = 'a3') {
  const attr = id.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
  return readFileSync(resolve(dist, 'index.html'), 'utf8')
    .replace('<div id="a3" data-permlab data-lang="zh"',
      `<div style="height: 2400px">spacer</div><h2 id="broken" class="host-heading">Broken heading</h2>\n<div id="${attr}" data-permlab data-lang="${lang}"`)
    // Room below the widget, so the heading can scroll to the top of the viewport.
    .replace('</main>', '<div style="height: 3000px">footer</div></main>')
    .replace('<main class="pl-page">', '<style>:target { outline: 3px solid rgb(200, 0, 0); }</style><main class="pl-page">');
}

async function serveLesson(page, lang, id) {
  const body = lessonPage(lang, id);
  await page.route('**/lesson.html', (r) => r.fulfill({ contentType: 'text/html; charset=utf-8', body }));
}

async function noDialogs(page) {
  const dialogs = [];
  page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
  return dialogs;
}

async function openDetails(page, cls) {
  const d = page.locator(`details.${cls}`);
  if (!(await d.evaluate((e) => e.open))) await d.locator('summary').click();
}

for (const lang of ['zh', 'en']) {
  test(`${lang}: every hostile text in every field comes back exactly after a reload`, async ({ page, problems }) => {
    test.setTimeout(240_000);
    const dialogs = await noDialogs(page);
    await serveLesson(page, lang);
    await page.goto('./lesson.html');
    await expect(rows(page)).toHaveCount(10);
    for (const text of HOSTILE) {
      await page.locator('.pl-call-tool-input').fill(text);
      await page.locator('.pl-call-input-text').fill(text);
      await openDetails(page, 'pl-editor');
      await page.locator('.pl-table-json').fill(text);
      await openDetails(page, 'pl-import');
      await page.locator('.pl-import-text').fill(text);
      // A one-line <input> cannot hold a newline (typing one there gives a space): the tool
      // field must come back as it holds the text, the textareas exactly as typed.
      const tool = await page.locator('.pl-call-tool-input').inputValue();
      expect(tool.replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
      await page.reload();
      await expect(rows(page)).toHaveCount(10);
      await expect(page.locator('.pl-call-tool-input')).toHaveValue(tool);
      await expect(page.locator('.pl-call-input-text')).toHaveValue(text);
      await expect(page.locator('.pl-table-json')).toHaveValue(text);
      await expect(page.locator('.pl-import-text')).toHaveValue(text);
      // A tool no engine takes keeps its message after the reload (and the engines the last
      // call they could read).
      if (/\s/.test(text)) {
        await expect(page.locator('.pl-call-error')).toHaveAttribute('data-invalid', 'true');
        await expect(page.locator('.pl-call-error')).not.toBeEmpty();
      }
    }
    await expect(page.locator('.pl-widget')).toHaveAttribute('lang', lang === 'zh' ? 'zh-CN' : 'en');
    await page.locator('.pl-widget').evaluate((w) => w.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: screenshotPath(`state-hostile-${lang}`), fullPage: false });
    // Nothing in the URL but the page: the state is in sessionStorage, one item for this widget.
    expect(new URL(page.url()).hash).toBe('');
    const keys = await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('permlab:')));
    expect(keys).toEqual(['permlab:%2Flesson.html:a3']);
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
  });

  test(`${lang}: a scene's field keeps every hostile text across a reload`, async ({ page, problems }) => {
    test.setTimeout(180_000);
    const dialogs = await noDialogs(page);
    const html = readFileSync(resolve(dist, 'demo/scenes.html'), 'utf8').replaceAll('data-lang="zh"', `data-lang="${lang}"`);
    await page.route('**/demo/scenes-state.html', (r) => r.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
    // A one-line field (timeline's command: the browser drops newlines from an <input>) and a
    // textarea (replay's trace: exactly as typed).
    const field = page.locator('section.pl-scene[data-scene="timeline"] .pl-tl-command input');
    const trace = page.locator('section.pl-scene[data-scene="replay"] .pl-rp-trace-text');
    await page.goto('./demo/scenes-state.html');
    for (const text of HOSTILE) {
      await field.scrollIntoViewIfNeeded();
      await field.fill(text);
      const held = await field.inputValue();
      expect(held.replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
      await trace.scrollIntoViewIfNeeded();
      await trace.fill(text);
      await page.reload();
      await field.scrollIntoViewIfNeeded();
      await expect(field).toHaveValue(held);
      await trace.scrollIntoViewIfNeeded();
      await expect(trace).toHaveValue(text);
    }
    const keys = await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('permlab-scene:')).sort());
    expect(keys).toEqual(['permlab-scene:%2Fdemo%2Fscenes-state.html:replay', 'permlab-scene:%2Fdemo%2Fscenes-state.html:timeline']);
    expect(dialogs).toEqual([]);
    expect(problems).toEqual([]);
  });
}

test('the host fragment stays the host\'s: #broken is :target before, after an interaction and after a reload', async ({ page, problems }) => {
  await serveLesson(page, 'zh');
  const target = () => page.evaluate(() => document.querySelector(':target')?.id ?? null);
  await page.goto('./lesson.html#broken');
  await expect(rows(page)).toHaveCount(10);
  expect(await target()).toBe('broken');
  // Loading writes nothing: the URL is as the host made it, no storage item yet.
  expect(new URL(page.url()).hash).toBe('#broken');
  expect(await page.evaluate(() => Object.keys(sessionStorage).length)).toBe(0);
  await page.locator('.pl-reverse').click();
  await page.locator('.pl-call-input-text').fill('git status');
  await expect(rows(page).first()).toHaveAttribute('data-rule-id', '10');
  expect(new URL(page.url()).hash).toBe('#broken');
  expect(await target()).toBe('broken');
  await page.reload();
  await expect(rows(page).first()).toHaveAttribute('data-rule-id', '10');
  await expect(page.locator('.pl-call-input-text')).toHaveValue('git status');
  expect(new URL(page.url()).hash).toBe('#broken');
  expect(await target()).toBe('broken');
  // A fresh load of the link (not a reload that restores the scroll position) scrolls to the
  // heading, and the state is still there.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.goto('about:blank');
  await page.goto('./lesson.html#broken');
  await expect(rows(page).first()).toHaveAttribute('data-rule-id', '10');
  expect(await target()).toBe('broken');
  const top = await page.locator('#broken').evaluate((h) => h.getBoundingClientRect().top);
  expect(Math.abs(top)).toBeLessThan(50);
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(2000);
  await page.screenshot({ path: screenshotPath('state-target'), fullPage: false });
  expect(problems).toEqual([]);
});

test('an old-format link is still read; the first change moves it to storage and leaves the host fragment alone', async ({ page, problems }) => {
  await serveLesson(page, 'zh');
  await page.goto('./lesson.html#broken&a3.p=git&a3.t=bash&a3.i=git%20status');
  await expect(page.locator('.pl-preset[data-preset="git"]')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('.pl-call-input-text')).toHaveValue('git status');
  await page.locator('.pl-reverse').click();
  await expect.poll(() => new URL(page.url()).hash).toBe('#broken');
  await page.reload();
  await expect(page.locator('.pl-preset[data-preset="git"]')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('.pl-call-input-text')).toHaveValue('git status');
  expect(await page.evaluate(() => document.querySelector(':target')?.id ?? null)).toBe('broken');
  expect(problems).toEqual([]);
});

test('a 1.9 MB link does not block the page: it is not read, and the widget says so', async ({ page, problems }) => {
  const m = encodeURIComponent(`{"permission": {"bash": {${Array.from({ length: 50_000 }, (_, i) => `"k${i} *": "allow"`).join(', ')}}}}`);
  const hash = `#a3.p=import&a3.f=opencode&a3.m=${m}`.slice(0, 1_900_000);
  expect(hash.length).toBeGreaterThan(1_800_000);
  await page.goto('./' + hash);
  await expect(rows(page)).toHaveCount(10);
  await expect(page.locator('.pl-state-note')).toContainText('这个链接里的状态太长');
  await expect(page.locator('.pl-preset[data-preset="miniagent"]')).toHaveAttribute('aria-pressed', 'true');
  expect(problems).toEqual([]);
});

for (const lang of ['zh', 'en']) {
  test(`${lang}: corrupt, older or foreign stored state shows the widget with a note`, async ({ page, problems }) => {
    await serveLesson(page, lang);
    await page.goto('./lesson.html');
    await expect(rows(page)).toHaveCount(10);
    const note = lang === 'zh' ? '上次保存的状态用不了' : 'The saved state could not be used';
    const cases = [
      'this is not the format {"p": "git"}',
      'permlab-state 1 a3\nt 9\nbash\nend\n',
      'permlab-state 0 a3\nend\n',
      'permlab-state 1 other-widget\np 3\ngit\nend\n',
      'a3.p=git&a3.t=bash',
    ];
    for (const item of cases) {
      await page.evaluate((v) => sessionStorage.setItem('permlab:%2Flesson.html:a3', v), item);
      await page.reload();
      await expect(rows(page)).toHaveCount(10);
      await expect(page.locator('.pl-state-note')).toContainText(note);
      await expect(page.locator('.pl-preset[data-preset="miniagent"]')).toHaveAttribute('aria-pressed', 'true');
    }
    await page.locator('.pl-widget').scrollIntoViewIfNeeded();
    await page.locator('.pl-widget').evaluate((w) => w.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: screenshotPath(`state-corrupt-${lang}`), fullPage: false });
    // The next change stores a good item again; the note goes with the next load.
    await page.locator('.pl-reverse').click();
    await page.reload();
    await expect(rows(page).first()).toHaveAttribute('data-rule-id', '10');
    await expect(page.locator('.pl-state-note')).toHaveCount(0);
    expect(problems).toEqual([]);
  });
}

test('a placeholder id with ", &, #, <, a space and non-ASCII keeps its state', async ({ page, problems }) => {
  const id = 'a"b&c#d<e f日';
  await serveLesson(page, 'en', id);
  await page.goto('./lesson.html');
  await expect(rows(page)).toHaveCount(10);
  await page.locator('.pl-call-input-text').fill('git push origin main');
  await page.locator('.pl-reverse').click();
  await page.reload();
  await expect(page.locator('.pl-call-input-text')).toHaveValue('git push origin main');
  await expect(rows(page).first()).toHaveAttribute('data-rule-id', '10');
  const keys = await page.evaluate(() => Object.keys(sessionStorage));
  expect(keys).toEqual(['permlab:%2Flesson.html:a%22b%26c%23d%3Ce%20f%E6%97%A5']);
  // Its element ids are one token each (aria-labelledby names them).
  const labelled = await page.locator('[aria-labelledby]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-labelledby')));
  for (const ref of labelled) expect(await page.evaluate((r) => r.split(' ').every((i) => document.getElementById(i)), ref)).toBe(true);
  expect(problems).toEqual([]);
});

test('import panel promises: a failed import keeps its text and message after a reload; a big import is kept; Apply keeps the editor', async ({ page, problems }) => {
  test.setTimeout(240_000);
  await page.goto('./');
  await expect(rows(page)).toHaveCount(10);
  // 1. A failed import: "what you pasted is kept" holds after a reload, with the message.
  const broken = '{\n  "permissions": {\n    "allow": ["Bash(git status)",\n';
  await openDetails(page, 'pl-import');
  await page.locator('.pl-import-text').fill(broken);
  await page.locator('.pl-import-button').click();
  await expect(page.locator('.pl-import-error')).toContainText('你粘贴的内容还在');
  await page.reload();
  await expect(page.locator('.pl-import-text')).toHaveValue(broken);
  await expect(page.locator('.pl-import-error')).toContainText('你粘贴的内容还在');
  // 2. An import of more than 8 000 bytes is kept (here 10 000 rules, ~300 KB), and the
  // imported table comes back with it.
  const allow = Array.from({ length: 10_000 }, (_, i) => `"Bash(cmd${i} *)"`).join(', ');
  const big = `{"permissions": {"allow": [${allow}], "deny": ["Bash(rm -rf *)"]}}`;
  expect(big.length).toBeGreaterThan(8_000);
  await openDetails(page, 'pl-import');
  await page.locator('.pl-import-text').fill(big);
  await page.locator('.pl-import-button').click();
  await expect(page.locator('.pl-import-summary')).toHaveAttribute('data-imported', '10001');
  // The import is linted in the worker: a reload before its answer would abort the worker's
  // script (a failed request). Wait for the findings (a state), here and after the reload.
  const linted = page.locator('.pl-findings-headline, .pl-findings-error');
  await expect(linted).toHaveCount(1, { timeout: 120_000 });
  await page.reload();
  await expect(page.locator('.pl-preset[data-preset="import"]')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('.pl-import-summary')).toHaveAttribute('data-imported', '10001');
  await expect(linted).toHaveCount(1, { timeout: 120_000 });
  expect(await page.locator('.pl-import-text').evaluate((t, v) => t.value === v, big)).toBe(true);
  // 3. After Apply the editor shows the applied table (also after a reload); after an error
  // its text is kept with the message.
  const table = '[{"tool": "bash", "pattern": "ls *", "action": "allow"}, {"tool": "bash", "pattern": "*", "action": "ask"}]';
  await openDetails(page, 'pl-editor');
  await page.locator('.pl-table-json').fill(table);
  await page.locator('.pl-apply').click();
  await expect(rows(page)).toHaveCount(2);
  await page.reload();
  await expect(rows(page)).toHaveCount(2);
  await expect(page.locator('.pl-table-json')).toHaveValue(table);
  const bad = table.slice(0, 40);
  await openDetails(page, 'pl-editor');
  await page.locator('.pl-table-json').fill(bad);
  await page.locator('.pl-apply').click();
  await expect(page.locator('.pl-table-error')).not.toBeEmpty();
  await page.reload();
  await expect(page.locator('.pl-table-json')).toHaveValue(bad);
  await expect(page.locator('.pl-table-error')).not.toBeEmpty();
  await expect(rows(page)).toHaveCount(2);
  expect(problems).toEqual([]);
});

test('a 1 MB paste and a 10 000-rule table come back exactly; past 2 MB the widget says it will not keep the text', async ({ page, problems }) => {
  test.setTimeout(240_000);
  await page.goto('./');
  await expect(rows(page)).toHaveCount(10);
  // 1 MB of hostile, multi-byte text in the import panel.
  const unit = '<img src=x onerror=alert(1)> \u202Eabc a\u200Bb 👩‍💻🚀\n';
  const mb = unit.repeat(Math.ceil((1 << 20) / unit.length));
  // Pasted: the whole text arrives in one input event (typing 1 MB key by key is not a paste).
  const paste = (sel, v) => page.locator(sel).evaluate((t, v) => {
    t.value = v;
    t.dispatchEvent(new Event('input', { bubbles: true }));
  }, v);
  await openDetails(page, 'pl-import');
  await paste('.pl-import-text', mb);
  // A 10 000-rule table in the editor, applied.
  const rules = Array.from({ length: 10_000 }, (_, i) => `{"tool": "bash", "pattern": "c${i} *", "action": "${['allow', 'ask', 'deny'][i % 3]}"}`);
  const table = `[${rules.join(',\n')}]`;
  await openDetails(page, 'pl-editor');
  await paste('.pl-table-json', table);
  await page.locator('.pl-apply').click();
  await expect(page.locator('.pl-preset[data-preset="custom"]')).toHaveAttribute('aria-pressed', 'true');
  await page.reload();
  await expect(page.locator('.pl-preset[data-preset="custom"]')).toHaveAttribute('aria-pressed', 'true');
  // All 10 000 rules, in their order (a table this big is windowed: its top is rendered once
  // it is scrolled to).
  await expect(page.locator('table.pl-table')).toHaveAttribute('aria-rowcount', '10001');
  await page.locator('table.pl-table').evaluate((t) => t.scrollIntoView({ block: 'start' }));
  await expect(page.locator('tbody.pl-rules tr[data-position="1"]')).toHaveAttribute('data-rule-id', '1');
  expect(await page.locator('.pl-import-text').evaluate((t, v) => t.value === v, mb)).toBe(true);
  expect(await page.locator('.pl-table-json').evaluate((t, v) => t.value === v, table)).toBe(true);
  await expect(page.locator('.pl-state-note')).toHaveCount(0);
  // Over 2 MB: kept in the field while the page is open, and the widget says it will not be
  // kept across a reload.
  const huge = 'x'.repeat(2 * 1024 * 1024 + 10);
  await paste('.pl-import-text', huge);
  await expect(page.locator('.pl-state-note')).toContainText('2.01 MB,超过 2 MB');
  expect(await page.locator('.pl-import-text').evaluate((t) => t.value.length)).toBe(huge.length);
  await page.locator('.pl-widget').evaluate((w) => w.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: screenshotPath('state-over-limit'), fullPage: false });
  await page.reload();
  await expect(page.locator('.pl-preset[data-preset="custom"]')).toHaveAttribute('aria-pressed', 'true');
  expect(await page.locator('.pl-import-text').evaluate((t) => t.value)).toBe('');
  expect(problems).toEqual([]);
});
