// Issue 25, as a learner meets it (points 1, 2, 12, 13, 14, 17 and 19): no answer inferable
// before the reveal, a guess for every verdict an engine can give, course words instead of the
// project's, one word per meaning, reasons that name what decided, and prose that waits. In zh
// and en where wording is involved; the demo page's fold on a phone.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test, expect, screenshotPath, artifacts } from './fixtures.mjs';
import { rowOf, panelOf, demoWidget, expectNoLeak } from './reveal-helpers.mjs';

const repo = resolve(artifacts, '..');

const W = {
  zh: { unavailable: '工具不可用', last: '第 11 步', ended: /^表走完了 · /, stop: /停$/ },
  en: { unavailable: 'tool unavailable', last: 'Step 11', ended: /^past the last row · /, stop: /stop$/ },
};

const cursorRow = (w, slug) =>
  w.locator(`tbody.pl-rules tr[data-cursor~="${slug}"]`).evaluateAll((rs) => rs.map((r) => Number(r.dataset.ruleId)));
const stepText = (w, slug) => w.locator(`.pl-step-line[data-engine-step="${slug}"] .pl-step-text`);

async function next(w) {
  const count = await w.locator('.pl-step-count').innerText();
  await w.locator('.pl-step-next').click();
  await expect(w.locator('.pl-step-count')).not.toHaveText(count);
}

// ---- 1. the stepper tells nothing of an unrevealed engine -----------------------------------

for (const lang of ['zh', 'en']) {
  test(`1 (${lang}): before the reveal both cursors walk the whole table and stop nowhere; after it, where each stops`, async ({ page, problems }) => {
    const t = W[lang];
    const w = await demoWidget(page, lang, 'naive');
    await w.locator('.pl-step-toggle').click();
    const fm = [];
    const oc = [];
    for (let k = 1; k <= 11; k++) {
      fm.push(await cursorRow(w, 'first-match'));
      oc.push(await cursorRow(w, 'opencode'));
      // Every line of an unrevealed engine is withheld the same way, at every step.
      for (const slug of ['first-match', 'opencode']) {
        await expect(w.locator(`.pl-step-line[data-engine-step="${slug}"]`)).toHaveAttribute('data-locked', 'true');
      }
      await expectNoLeak(w, `blind step ${k}`);
      if (k < 11) await next(w);
    }
    // first-match down from #1, OpenCode up from #10, each over every row (#8 and #9 included),
    // then a last step where both cursors leave the table alike.
    expect(fm).toEqual([[1], [2], [3], [4], [5], [6], [7], [8], [9], [10], []]);
    expect(oc).toEqual([[10], [9], [8], [7], [6], [5], [4], [3], [2], [1], []]);
    await expect(w.locator('.pl-step-count')).toContainText(t.last);
    await w.screenshot({ path: screenshotPath(`learner-1-blind-${lang}`) });
    // "最后一步" lands on the same step whatever the engines decide.
    await w.locator('.pl-step-first').click();
    await w.locator('.pl-step-last').click();
    await expect(w.locator('.pl-step-count')).toContainText(t.last);
    // Task ② asks where each stops: walking blind to the end does not tick it.
    await expect(w.locator('.pl-task[data-task="1"]')).toHaveAttribute('data-done', 'false');
    // Revealed: each engine's own walk, first-match stopping at #8, OpenCode at #9.
    for (const slug of ['first-match', 'opencode']) {
      await panelOf(w, slug).locator('.pl-skip').click();
      await panelOf(w, slug).locator('.pl-reveal').click();
    }
    await w.locator('.pl-step-first').click();
    await w.locator('.pl-step-last').click();
    await expect(rowOf(w, 8)).toHaveAttribute('data-cursor', /first-match/);
    await expect(rowOf(w, 9)).toHaveAttribute('data-cursor', /opencode/);
    await expect(stepText(w, 'first-match')).toHaveText(t.stop);
    await expect(stepText(w, 'opencode')).toHaveText(t.stop);
    await expect(w.locator('.pl-task[data-task="1"]')).toHaveAttribute('data-done', 'true');
    await w.screenshot({ path: screenshotPath(`learner-1-revealed-${lang}`) });
    expect(problems).toEqual([]);
  });
}

// ---- 2. a guess for every verdict the engine can give ---------------------------------------

for (const lang of ['zh', 'en']) {
  test(`2 (${lang}): engines that can hide a tool always offer "unavailable"; it is graded right when it is the verdict`, async ({ page, problems }) => {
    const t = W[lang];
    const core = await demoWidget(page, lang, 'core');
    const guesses = (w, slug) => panelOf(w, slug).locator('.pl-guess-btn').evaluateAll((bs) => bs.map((b) => b.dataset.guess));
    // The side column mounts after the first paint: wait for its cards.
    await expect(panelOf(core, 'corecoder').locator('.pl-guess-btn')).toHaveCount(3);
    // On the lesson's own call (not unavailable) the choice is offered all the same.
    expect(await guesses(core, 'claude-code')).toEqual(['allow', 'ask', 'deny', 'unavailable']);
    expect(await guesses(core, 'opencode')).toEqual(['allow', 'ask', 'deny', 'unavailable']);
    expect(await guesses(core, 'corecoder')).toEqual(['allow', 'ask', 'deny']);
    await expect(panelOf(core, 'claude-code').locator('.pl-guess-btn[data-guess="unavailable"]')).toHaveText(t.unavailable);
    // Widget 1 with #8 `bash *` deny moved to the last row: OpenCode hides the bash tool.
    const w = await demoWidget(page, lang, 'naive');
    await page.evaluate(() => {
      window.__guesses = [];
      document.getElementById('naive').addEventListener('permlab:guess', (e) => window.__guesses.push(e.detail));
    });
    for (const to of ['9', '10']) {
      await rowOf(w, 8).locator('.pl-down').click();
      await expect(rowOf(w, 8)).toHaveAttribute('data-position', to);
    }
    expect(await guesses(w, 'opencode')).toEqual(['allow', 'ask', 'deny', 'unavailable']);
    expect(await guesses(w, 'first-match')).toEqual(['allow', 'ask', 'deny']);
    const p = panelOf(w, 'opencode');
    await p.locator('.pl-guess-btn[data-guess="unavailable"]').click();
    await p.locator('.pl-reveal').click();
    await expect(p).toHaveAttribute('data-verdict', 'unavailable');
    await expect(p.locator('.pl-mark')).toHaveClass(/pl-right/);
    expect(await page.evaluate(() => window.__guesses.map((g) => g.guess))).toContain('unavailable');
    expect(problems).toEqual([]);
  });
}

// ---- 12. the course's words, never the project's ---------------------------------------------

const JARGON = [/种子/, /[Ss]eed 0\d\d/, /the seed's/, /\.md §/, /\.md\b/, /opencode::/, /code path/, /一致性词汇/, /Conformance label/, /课程 00\d/];

async function openScenes(page, lang) {
  let path = './demo/scenes.html';
  if (lang === 'en') {
    // The same page with every placeholder in English (as scenes.spec.mjs does).
    const html = readFileSync(resolve(repo, 'dist/demo/scenes.html'), 'utf8').replaceAll('data-lang="zh"', 'data-lang="en"');
    await page.route('**/demo/scenes-en.html', (r) => r.fulfill({ contentType: 'text/html', body: html }));
    path = './demo/scenes-en.html';
  }
  await page.goto(path);
  await page.evaluate(async () => {
    const m = await import(new URL('../permlab.js', location.href).href);
    await Promise.all([...document.querySelectorAll('[data-permlab][data-scene]')].map((el) => m.mount(el)));
  });
  await expect(page.locator('section.pl-scene h2')).toHaveCount(await page.locator('[data-permlab][data-scene]').count());
}

for (const lang of ['zh', 'en']) {
  test(`12 (${lang}): scenes and self-check speak of lessons by their titles, never of seed files or source paths`, async ({ page, problems }) => {
    await openScenes(page, lang);
    const design = page.locator('section.pl-scene[data-scene="design-evaluator"]');
    await expect(design).toHaveAttribute('lang', lang === 'zh' ? /^zh/ : 'en');
    await expect(design).toContainText(lang === 'zh' ? '「权限规则与审批模式」一课' : 'the lesson “Permission rules and approval modes”');
    // claude-flow's result: decided by a stage, in words; no conformance label.
    const flow = page.locator('section.pl-scene[data-scene="claude-flow"]');
    await expect(flow.locator('.pl-cf-result')).toBeVisible();
    for (const slug of ['design-evaluator', 'comparison', 'claude-flow', 'opencode-lifecycle', 'codex-approvals', 'timeline', 'merge', 'replay']) {
      const s = page.locator(`section.pl-scene[data-scene="${slug}"]`);
      if (!(await s.count())) continue;
      const text = (await s.first().innerText()).replace(/\s+/g, ' ');
      for (const j of JARGON) expect(text, `${slug}: ${j}`).not.toMatch(j);
    }
    expect(problems).toEqual([]);
  });
}

test('12: the self-check lines say what was checked, not the fixture sections', async ({ page, problems }) => {
  await page.goto('./');
  await page.locator('.pl-run-check').click();
  await expect(page.locator('.pl-check')).toHaveCount(7, { timeout: 30_000 });
  const text = await page.locator('.pl-selfcheck').innerText();
  expect(text).not.toMatch(/\b(cases|matched|drift)\b/);
  expect(problems).toEqual([]);
});

// ---- 13. 匹配串 (pattern) and 权限模式 (mode): one word per meaning ---------------------------

/// A 模式 that is neither 权限模式 nor another named mode (审批/交互/计划/沙箱/print 模式).
const BARE_MODE = /(?<!权限|审批|交互|计划|沙箱|print |只读)模式/;

test('13 (zh): the pattern column and the stepper say 匹配串, a permission mode is 权限模式, nowhere a bare 模式', async ({ page, problems }) => {
  const w = await demoWidget(page, 'zh', 'naive');
  await expect(w.locator('table:has(tbody.pl-rules) thead')).toContainText('匹配串');
  for (const slug of ['first-match', 'opencode']) {
    await panelOf(w, slug).locator('.pl-skip').click();
    await panelOf(w, slug).locator('.pl-reveal').click();
  }
  await w.locator('.pl-step-toggle').click();
  await expect(stepText(w, 'first-match')).toContainText('匹配串 (不看)');
  await w.locator('.pl-step-last').click();
  await expect(stepText(w, 'first-match')).toContainText('匹配串 ✓');
  expect((await w.innerText())).not.toMatch(BARE_MODE);
  // A Claude Code card whose reason is a permission mode's fallback.
  const core = await demoWidget(page, 'zh', 'core');
  await core.locator('.pl-call-input-text').fill('npm test');
  await panelOf(core, 'claude-code').locator('.pl-skip').click();
  await panelOf(core, 'claude-code').locator('.pl-reveal').click();
  await expect(panelOf(core, 'claude-code').locator('.pl-why')).toContainText('default 权限模式的兜底');
  await core.locator('.pl-step-toggle').click();
  expect((await core.innerText())).not.toMatch(BARE_MODE);
  expect(problems).toEqual([]);
});

test('13 (en): pattern for the column and the stepper, permission mode for the mode', async ({ page, problems }) => {
  const core = await demoWidget(page, 'en', 'core');
  await expect(core.locator('table:has(tbody.pl-rules) thead')).toContainText('Pattern');
  await core.locator('.pl-call-input-text').fill('npm test');
  await panelOf(core, 'claude-code').locator('.pl-skip').click();
  await panelOf(core, 'claude-code').locator('.pl-reveal').click();
  await expect(panelOf(core, 'claude-code').locator('.pl-why')).toContainText("the default permission mode's fallback asks");
  await core.locator('.pl-step-toggle').click();
  await expect(stepText(core, 'claude-code')).toContainText(/pattern/);
  expect(await core.innerText()).not.toMatch(/\bmode ✓|\bmode ✗/);
  expect(problems).toEqual([]);
});

// ---- 14. reasons that name what decided ------------------------------------------------------

const ACCEPT_EDITS = {
  title: 'acceptEdits', language: 'zh', mode: 'quiz', engines: ['claude-code'],
  presets: [{
    id: 'a', title: 'a',
    config: { format: 'claude-code', text: '{"permissions": {"defaultMode": "acceptEdits", "allow": ["Bash(npm run test *)"]}}' },
    calls: [{ tool: 'bash', input: 'touch notes.txt' }, { tool: 'bash', input: '/bin/rm -rf build' }],
  }],
};

for (const lang of ['zh', 'en']) {
  test(`14 (${lang}): acceptEdits and /bin/rm named in Claude Code's reason; a call no rule matches ends the stepper on the fallback`, async ({ page, problems }) => {
    await page.goto('./');
    await expect(page.locator('tbody.pl-rules tr').first()).toBeVisible();
    await page.evaluate(([lesson, lang]) => {
      const div = document.createElement('div');
      div.id = 'ae';
      div.dataset.lang = lang;
      document.body.append(div);
      window.wasmBindings.mount(div, JSON.stringify({ ...lesson, language: lang }));
    }, [ACCEPT_EDITS, lang]);
    const w = page.locator('#ae');
    const cc = panelOf(w, 'claude-code');
    await cc.locator('.pl-skip').click();
    await cc.locator('.pl-reveal').click();
    await expect(cc).toHaveAttribute('data-verdict', 'allow');
    await expect(cc.locator('.pl-why')).toHaveText(lang === 'zh' ? /acceptEdits 权限模式放行/ : /the acceptEdits permission mode allowed it/);
    await expect(cc.locator('.pl-why')).not.toContainText(lang === 'zh' ? '规则之外的一步' : 'a step other than a rule');
    await w.locator('.pl-call-input-text').fill('/bin/rm -rf build');
    await cc.locator('.pl-skip').click();
    await cc.locator('.pl-reveal').click();
    await expect(cc).toHaveAttribute('data-verdict', 'ask');
    const why = cc.locator('.pl-why');
    await expect(why).not.toContainText(lang === 'zh' ? '有一部分' : 'part of it');
    await expect(why).toContainText(lang === 'zh' ? '写成路径的 /bin/rm 不算' : 'a path such as /bin/rm does not count');
    // A call no rule matches: after the last row, the engines' fallbacks.
    const n = await demoWidget(page, lang, 'naive');
    await n.locator('.pl-call-tool-input').fill('web_fetch');
    await n.locator('.pl-call-input-text').fill('https://example.com');
    for (const slug of ['first-match', 'opencode']) {
      await panelOf(n, slug).locator('.pl-skip').click();
      await panelOf(n, slug).locator('.pl-reveal').click();
    }
    await n.locator('.pl-step-toggle').click();
    await n.locator('.pl-step-last').click();
    for (const slug of ['first-match', 'opencode']) {
      await expect(stepText(n, slug)).toHaveText(W[lang].ended);
      await expect(stepText(n, slug)).not.toHaveText(/(继续|go on)$/);
    }
    await expect(stepText(n, 'first-match')).toContainText(lang === 'zh' ? '回落为「问人」' : 'falls back to ask');
    await expect(n.locator('tbody.pl-rules tr[data-cursor]')).toHaveCount(0);
    await n.screenshot({ path: screenshotPath(`learner-14-fallback-${lang}`) });
    expect(problems).toEqual([]);
  });
}

// ---- 17. the translation panel ---------------------------------------------------------------

for (const lang of ['zh', 'en']) {
  test(`17 (${lang}): OpenCode's config warns of tool names OpenCode never consults; Claude Code's says Edit covers Write`, async ({ page, problems }) => {
    const w = await demoWidget(page, lang, 'naive');
    // In a lesson the translations sit in the folded "more" menu.
    await w.locator('details.pl-more > summary').click();
    const panel = w.locator('details.pl-translations');
    await panel.locator('summary').click();
    const oc = panel.locator('.pl-translation[data-harness="opencode"]');
    await expect(oc.locator('pre')).toContainText('"read_file"');
    const flag = oc.locator('.pl-flag[data-row="1"]');
    await expect(flag).toContainText(lang === 'zh' ? 'OpenCode 从不查看这个键' : 'OpenCode never consults this key');
    // The key is quoted as code, never with raw Markdown backticks.
    await expect(flag.locator('code', { hasText: /^read$/ })).toHaveCount(1);
    await expect(flag).not.toContainText('`');
    for (const row of ['2', '4', '5']) await expect(oc.locator(`.pl-flag[data-row="${row}"]`)).toHaveCount(1);
    // grep and bash are OpenCode's own permissions: nothing to say.
    for (const row of ['3', '8']) await expect(oc.locator(`.pl-flag[data-row="${row}"]`)).toHaveCount(0);
    const cc = panel.locator('.pl-translation[data-harness="claude-code"]');
    // read_file * and list_dir * both become "Read": listed once (a list is a set to Claude Code).
    const ccText = await cc.locator('pre').innerText();
    expect(ccText.match(/"Read"/g)).toHaveLength(1);
    expect(ccText.match(/"Edit\(test_\*\)"/g)).toHaveLength(1);
    const write = cc.locator('.pl-flag[data-row="7"]');
    await expect(write).toContainText(lang === 'zh' ? 'Write 也在内' : 'Write included');
    await expect(cc).not.toContainText(lang === 'zh' ? '管住 Edit' : 'also covers Edit');
    // Codex's generated file: its comments in the learner's language, no raw backticks anywhere.
    const cx = panel.locator('.pl-translation[data-harness="codex"]');
    await expect(cx.locator('pre')).toContainText(lang === 'zh' ? '# 由 permlab 从规则表' : '# Generated by permlab');
    if (lang === 'zh') await expect(cx.locator('pre')).not.toContainText(/Generated|row \d|not expressible/);
    expect((await panel.locator('.pl-flag').allInnerTexts()).join('\n')).not.toContain('`');
    await panel.screenshot({ path: screenshotPath(`learner-17-translations-${lang}`) });
    expect(problems).toEqual([]);
  });
}

// ---- 19. the demo page's prose waits for the experiment --------------------------------------

for (const lang of ['zh', 'en']) {
  test.describe(() => {
    test.use({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });
    test(`19 (${lang}, phone): the real-run prose under widget 1 is folded below it until opened`, async ({ page, problems }) => {
      const answer = lang === 'zh' ? '被 #8 拒掉' : 'refused by #8';
      const w = await demoWidget(page, lang, 'naive');
      const guess = panelOf(w, 'first-match').locator('.pl-guess-btn').first();
      await guess.scrollIntoViewIfNeeded();
      await expect(guess).toBeInViewport();
      const prose = page.getByText(answer);
      await expect(prose).toBeHidden();
      await page.screenshot({ path: screenshotPath(`learner-19-phone-${lang}`) });
      // Below the widget, folded; the learner opens it when they choose.
      const fold = page.locator('#naive-after');
      expect(await page.evaluate(() => {
        const a = document.getElementById('naive');
        const b = document.getElementById('naive-after');
        return !!(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
      })).toBe(true);
      await fold.locator('summary').tap();
      await expect(prose).toBeVisible();
      expect(problems).toEqual([]);
    });
  });
}

// ---- 18. the small things --------------------------------------------------------------------

for (const lang of ['zh', 'en']) {
  test(`18 (${lang}): "try again" appears once there is a guess to clear, and goes with it`, async ({ page, problems }) => {
    const w = await demoWidget(page, lang, 'naive');
    const again = w.locator('.pl-try-again');
    await expect(w.locator('.pl-engine')).not.toHaveCount(0);
    await expect(again).toHaveCount(0);
    await panelOf(w, 'opencode').locator('.pl-guess-btn').first().click();
    await expect(again).toBeVisible();
    await again.click();
    await expect(again).toHaveCount(0);
    await expect(panelOf(w, 'opencode').locator('.pl-guess-btn[aria-pressed="true"]')).toHaveCount(0);
    expect(problems).toEqual([]);
  });
}
