// "Paste your own config" and lessons: the import panel on real configs people
// committed (read in place from ../shared/corpus, one file per harness), a broken paste, and a
// lesson file given to mount() from page JavaScript.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test, expect, screenshotPath } from './fixtures.mjs';

const repo = resolve(import.meta.dirname, '../../..');
const corpus = (p) => readFileSync(resolve(repo, '../shared/corpus', p), 'utf8');
const rows = (page) => page.locator('tbody.pl-rules tr');

async function open(page) {
  await page.goto('./');
  await expect(rows(page).first()).toBeVisible();
  await page.locator('.pl-import summary').click();
}

/** Mounts `lesson` (JSON text) from page script in a new English placeholder `#id`. */
async function mountLesson(page, id, lesson) {
  await page.evaluate(([id, lesson]) => {
    const div = document.createElement('div');
    div.id = id;
    div.dataset.lang = 'en';
    document.body.append(div);
    window.wasmBindings.mount(div, lesson);
  }, [id, lesson]);
  return page.locator(`#${id}`);
}

async function paste(page, text) {
  await page.locator('.pl-import-text').fill(text);
  await page.locator('.pl-import-button').click();
}

for (const [file, format, engine] of [
  ['claude/001.json', 'claude-code', 'claude-code'],
  ['opencode/005.md', 'opencode', 'opencode'],
  ['codex/001.rules', 'codex', 'codex'],
]) {
  test(`import panel: ${file} becomes a table judged by ${format} and the others`, async ({ page, problems }) => {
    await open(page);
    const text = corpus(file);
    await paste(page, text);
    const summary = page.locator('.pl-import-summary');
    await expect(summary).toHaveAttribute('data-format', format);
    const imported = Number(await summary.getAttribute('data-imported'));
    const dropped = Number(await summary.getAttribute('data-dropped'));
    expect(imported).toBeGreaterThan(0);
    // Every rule that could not be used is listed with its reason.
    expect(await page.locator('.pl-import-warning').count()).toBeGreaterThanOrEqual(dropped);
    // Worded in the page's language (the page is zh), from the core's notes (12.9).
    for (const w of await page.locator('.pl-import-warning').allTextContents()) {
      expect(w).toMatch(/[\u4e00-\u9fff]/);
      expect(w).not.toMatch(/not imported|Claude Code (skips|warns)|expected an? /);
    }
    expect(await rows(page).count()).toBeGreaterThanOrEqual(imported);
    await expect(page.locator('.pl-preset[data-preset="import"]')).toHaveAttribute('aria-pressed', 'true');
    // The harness's own panel is there and every engine has a verdict for every call.
    await expect(page.locator(`.pl-engine[data-engine="${engine}"]`)).toBeVisible();
    // The current call's cells wait for the reveals; every other call has a verdict
    // from each shown engine.
    const cells = page.locator('.pl-matrix td[data-verdict]');
    const n = await page.locator('.pl-engine').count();
    expect(await cells.count()).toBe(((await page.locator(".pl-matrix tbody tr").count()) - 1) * n);
    expect(await page.locator('.pl-matrix tr.pl-current td.pl-cell-locked').count()).toBe(n);
    expect(await page.locator(".pl-matrix tbody tr").count()).toBeGreaterThan(9);
    // Nothing is lost on a reload: the hash keeps the pasted config and the order made on it
    // (for a .rules file, once the worker has read it again).
    await page.locator('.pl-reverse').click();
    const ids = () => rows(page).evaluateAll((rs) => rs.map((r) => r.dataset.ruleId).join(' '));
    const reversed = await ids();
    await page.reload();
    await expect(page.locator('.pl-preset[data-preset="import"]')).toHaveAttribute('aria-pressed', 'true');
    expect(await rows(page).count()).toBeGreaterThanOrEqual(imported);
    if (imported > 1) expect(await ids()).toBe(reversed);
    if (format === 'codex') await page.screenshot({ path: screenshotPath('import-codex'), fullPage: true });
    expect(problems).toEqual([]);
  });
}

test('import panel: a broken config is refused with a message, the text and the table stay', async ({ page, problems }) => {
  await open(page);
  const broken = '{\n  "permissions": {\n    "allow": ["Bash(git status)",\n';
  await paste(page, broken);
  // Where and what to fix, in the page's language (zh here).
  await expect(page.locator('.pl-import-error')).toContainText(/第 \d+ 行第 \d+ 列/);
  await expect(page.locator('.pl-import-text')).toHaveValue(broken);
  await expect(rows(page)).toHaveCount(10);
  await expect(page.locator('.pl-preset[data-preset="miniagent"]')).toHaveAttribute('aria-pressed', 'true');
  expect(problems).toEqual([]);
});

test('mount(element, lesson) from page JavaScript reads the lesson format; unmount() restores the element', async ({ page, problems }) => {
  await page.goto('./');
  await expect(rows(page).first()).toBeVisible();
  const lesson = readFileSync(resolve(repo, 'fixtures/lessons/claude-code-settings.json'), 'utf8');
  const title = JSON.parse(lesson).title.zh;
  await page.evaluate((lesson) => {
    const div = document.createElement('div');
    div.id = 'mounted';
    div.dataset.lang = 'zh';
    div.innerHTML = '<p class="static">static fallback</p>';
    document.body.append(div);
    window.__handle = window.wasmBindings.mount(div, lesson);
  }, lesson);
  const w = page.locator('#mounted');
  await expect(w.locator('.pl-title')).toHaveText(title);
  // The lesson's engines, Claude Code first; its calls; the native settings file judged by Claude Code.
  const engines = await w.locator('.pl-engine').evaluateAll((es) => es.map((e) => e.dataset.engine));
  expect(engines).toEqual(JSON.parse(lesson).engines);
  const calls = JSON.parse(lesson).presets[0].calls;
  // The current call's matrix cells wait for the reveals.
  for (const e of engines) {
    await w.locator(`.pl-engine[data-engine="${e}"] .pl-skip`).click();
    await w.locator(`.pl-engine[data-engine="${e}"] .pl-reveal`).click();
  }
  for (const [i, c] of calls.entries()) {
    for (const [engine, want] of Object.entries(c.expect ?? {})) {
      await expect(w.locator(`.pl-matrix tr[data-call="${i}"] td[data-engine="${engine}"]`)).toHaveAttribute('data-verdict', want);
    }
  }
  await page.evaluate(() => window.__handle.unmount());
  await expect(w.locator('.static')).toHaveText('static fallback');
  await expect(w.locator('.pl-widget')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('a lesson whose preset is a Codex .rules file: the worker reads it, the page shows it', async ({ page, problems }) => {
  await page.goto('./');
  await expect(rows(page).first()).toBeVisible();
  const lesson = JSON.stringify({
    title: { zh: 'Codex 的前缀规则', en: 'Codex prefix rules' },
    language: 'zh', mode: 'quiz', engines: ['codex', 'opencode'],
    presets: [{
      id: 'rules',
      config: { format: 'codex', text: corpus('codex/001.rules') },
      calls: [{ tool: 'bash', input: 'git status' }],
    }],
  });
  await page.evaluate((lesson) => {
    const div = document.createElement('div');
    div.id = 'cx';
    document.body.append(div);
    window.__cx = window.wasmBindings.mount(div, lesson);
  }, lesson);
  const w = page.locator('#cx');
  await expect(w.locator('.pl-title')).toHaveText('Codex 的前缀规则');
  await expect(w.locator('.pl-lesson-pending')).toHaveCount(0);
  expect(await w.locator('tbody.pl-rules tr').count()).toBeGreaterThan(0);
  await expect(w.locator('.pl-engine[data-engine="codex"]')).toBeAttached();
  await w.locator('.pl-engine[data-engine="codex"] .pl-skip').click();
  await w.locator('.pl-engine[data-engine="codex"] .pl-reveal').click();
  await expect(w.locator('.pl-matrix tr[data-call="0"] td[data-engine="codex"]')).toHaveAttribute('data-verdict', /allow|ask|deny/);
  expect(problems).toEqual([]);
});

test('a lesson preset that is a Codex .rules file keeps canonical_matching on the page (GIT Push is caught, after a reorder too)', async ({ page, problems }) => {
  await page.goto('./');
  await expect(rows(page).first()).toBeVisible();
  const lesson = JSON.stringify({
    title: 'canonical', language: 'en', mode: 'explore', engines: ['codex', 'opencode'],
    presets: [{
      id: 'rules',
      config: { format: 'codex', text: 'prefix_rule(pattern=["git", "push"], decision="forbidden", canonical_matching=True)\nprefix_rule(pattern=["rm"], decision="forbidden")\n' },
      calls: [{ tool: 'bash', input: 'GIT Push origin main' }, { tool: 'bash', input: 'RM -rf x' }],
    }],
  });
  const w = await mountLesson(page, 'cf', lesson);
  await expect(w.locator('.pl-lesson-pending')).toHaveCount(0);
  await expect(w.locator('tbody.pl-rules tr')).toHaveCount(2);
  const codex = w.locator('.pl-engine[data-engine="codex"]');
  // The folded rule catches the upper-case command, as Codex 0.171.0 does; OpenCode reads the
  // row as written. The rule without the flag does not fold.
  await expect(codex).toHaveAttribute('data-verdict', 'deny');
  await expect(w.locator('.pl-engine[data-engine="opencode"]')).not.toHaveAttribute('data-verdict', 'deny');
  await w.locator('.pl-reverse').click();
  await expect(codex).toHaveAttribute('data-verdict', 'deny');
  await w.locator('.pl-call-select').selectOption('1');
  await expect(w.locator('.pl-call-input-text')).toHaveValue('RM -rf x');
  await expect(codex).not.toHaveAttribute('data-verdict', 'deny');
  expect(problems).toEqual([]);
});

test('an explore lesson shows every verdict at once, with nothing to guess', async ({ page, problems }) => {
  await page.goto('./');
  await expect(rows(page).first()).toBeVisible();
  const lesson = JSON.stringify({
    title: 'explore', language: 'en', mode: 'explore', engines: ['first-match', 'opencode', 'claude-code'],
    presets: [{ id: 'git', rules: [
      { tool: 'bash', pattern: 'git push *', action: 'deny' },
      { tool: 'bash', pattern: 'git *', action: 'allow' }],
    calls: [{ tool: 'bash', input: 'git push origin main' }] }],
  });
  const w = await mountLesson(page, 'ex', lesson);
  await expect(w.locator('.pl-engine[data-engine="first-match"]')).toHaveAttribute('data-verdict', 'deny');
  await expect(w.locator('.pl-engine[data-engine="opencode"]')).toHaveAttribute('data-verdict', 'allow');
  await expect(w.locator('.pl-engine[data-engine="claude-code"]')).toHaveAttribute('data-verdict', 'deny');
  await expect(w.locator('.pl-guess-btn, .pl-reveal, .pl-mark')).toHaveCount(0);
  // The decisive rows are highlighted at once.
  await expect(w.locator('tbody.pl-rules tr[data-decisive]')).toHaveCount(2);
  expect(problems).toEqual([]);
});
