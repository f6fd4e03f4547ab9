// Guess, then reveal — for real: verdicts wait for the reveal, ↓ pressed twice moves twice, a
// reorder keeps the earlier results, rows keep their names, a lesson's engines only, the log's
// "only OpenCode changes" matches the engines shown; one test or more each, in zh and en, by
// mouse, touch and keyboard where they apply.
import { test, expect, screenshotPath } from './fixtures.mjs';
import { rowOf, panelOf, orderOf, demoWidget, indexWidget, guessAndReveal, expectNoLeak } from './reveal-helpers.mjs';

const phone = { hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } };

async function shot(w, name) {
  await w.screenshot({ path: screenshotPath(`reveal-${name}`) });
}

/** Where the ↓ of a rule is (its centre), scrolled into view. */
async function downSpot(w, id) {
  const down = rowOf(w, id).locator('.pl-down');
  await down.scrollIntoViewIfNeeded();
  const b = await down.boundingBox();
  return { down, x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

/** The ↓ of rule `id` is back under (x, y) after a move (the page scrolled by the row's move). */
async function stillUnder(down, y) {
  await expect.poll(async () => {
    const b = await down.boundingBox();
    return Math.abs(b.y + b.height / 2 - y) < 2;
  }).toBe(true);
}

// ---- 1. nothing tells a verdict before its reveal ---------------------------------------------

test('zh /: stepper end, cursors, matrix row, disagreement box wait for the reveal (keyboard stepping)', async ({ page, problems }) => {
  const w = await indexWidget(page);
  await expectNoLeak(w, 'on load');
  await expect(w.locator('.pl-disagree-locked')).toHaveText('先猜并揭示 OpenCode 和 Claude Code,这里再比较两家对这次调用的读法。');
  // The lab matrix is folded; opened, the current call's cells wait for the reveals.
  await expect(w.locator('details.pl-matrix-box')).not.toHaveAttribute('open', '');
  await w.locator('.pl-matrix-box summary').click();
  await expect(w.locator('.pl-matrix tr.pl-current td.pl-cell-locked')).toHaveCount(4);
  await expect(w.locator('.pl-matrix tr.pl-current td.pl-cell-locked').first()).toContainText('先猜再揭示');
  await expectNoLeak(w, 'matrix open');
  await w.locator('.pl-matrix-box summary').click();
  // The stepper, stepped to its end with → from the keyboard.
  await w.locator('.pl-step-toggle').click();
  await w.locator('.pl-step-next').focus();
  for (let i = 0; i < 12; i++) await page.keyboard.press('ArrowRight');
  await expect(w.locator('.pl-step-count')).toContainText(/^第 \d+ 步/);
  await expect(w.locator('.pl-step-count')).not.toContainText('共');
  const fmLine = w.locator('.pl-step-line[data-engine-step="first-match"]');
  await expect(fmLine).toHaveAttribute('data-locked', 'true');
  // Every unrevealed engine walks its whole scan order blind and ends past the last row alike.
  await expect(fmLine).toContainText('表走完了。first-match 停在哪一行、还是一条都没命中,先在下面猜,再揭示');
  await expect(w.locator('tbody.pl-rules tr[data-cursor~="first-match"]')).toHaveCount(0);
  await expect(w.locator('.pl-step-line[data-engine-step="corecoder"]')).toHaveAttribute('data-locked', 'true');
  await expectNoLeak(w, 'stepper at its end');
  await shot(w, '1-locked-zh');
  await guessAndReveal(w, 'first-match', 'deny');
  await expect(fmLine).not.toHaveAttribute('data-locked', /.*/);
  await expect(fmLine.locator('.pl-step-text')).toContainText(/^#8 bash \* — .*(停|stop)$/);
  await expect(rowOf(w, 8)).toHaveAttribute('data-cursor', /first-match/);
  await expect(rowOf(w, 8)).toHaveAttribute('data-decisive', /first-match/);
  await expectNoLeak(w, 'first-match revealed');
  await guessAndReveal(w, 'opencode', 'allow');
  await expect(w.locator('.pl-disagree-locked')).toBeVisible();
  await expectNoLeak(w, 'Claude Code still hidden');
  await guessAndReveal(w, 'claude-code', 'skip');
  await expect(w.locator('.pl-disagree-locked')).toHaveCount(0);
  await expect(w.locator('.pl-disagree-actual')).toContainText('OpenCode → 放行');
  await guessAndReveal(w, 'corecoder', 'ask');
  await expect(w.locator('.pl-step-count')).toContainText(/^第 \d+ 步,共 \d+ 步/);
  await expectNoLeak(w, 'all revealed');
  await shot(w, '1-revealed-zh');
  expect(problems).toEqual([]);
});

test('en lesson: the matrix row and the stepper end wait for the reveal', async ({ page, problems }) => {
  const w = await demoWidget(page, 'en', 'naive');
  await expectNoLeak(w, 'on load');
  // In a lesson the matrix sits folded in the "more" menu.
  await w.locator('details.pl-more > summary').click();
  await w.locator('.pl-matrix-box summary').click();
  await expect(w.locator('.pl-matrix tr.pl-current td.pl-cell-locked')).toHaveCount(2);
  await expect(w.locator('.pl-matrix tr.pl-current td.pl-cell-locked').first()).toContainText('guess, then reveal');
  await w.locator('.pl-step-toggle').click();
  await w.locator('.pl-step-last').click();
  await expect(w.locator('.pl-step-count')).toContainText(/^Step \d+/);
  await expect(w.locator('.pl-step-count')).not.toContainText(' of ');
  await expect(w.locator('.pl-step-line[data-locked]')).toHaveCount(2);
  await expect(w.locator('.pl-step-line[data-engine-step="opencode"]')).toContainText('End of the table. Where OpenCode stopped, or whether nothing matched: guess below, then reveal');
  await expectNoLeak(w, 'stepper at its end');
  await guessAndReveal(w, 'opencode', 'allow');
  await expect(rowOf(w, 9)).toHaveAttribute('data-cursor', /opencode/);
  await expect(w.locator('.pl-matrix tr.pl-current td[data-engine="opencode"]')).toHaveAttribute('data-verdict', 'allow');
  await expectNoLeak(w, 'OpenCode revealed');
  await shot(w, '1-locked-en');
  expect(problems).toEqual([]);
});

// ---- 2. "点它的 ↓ 两次" ------------------------------------------------------------------------

test('zh /: clicking ↓ twice at the same spot moves #8 twice (mouse)', async ({ page, problems }) => {
  const w = await indexWidget(page);
  const { down, x, y } = await downSpot(w, 8);
  await page.mouse.click(x, y);
  await expect(rowOf(w, 8)).toHaveAttribute('data-position', '9');
  await stillUnder(down, y);
  await page.mouse.click(x, y);
  await expect(rowOf(w, 8)).toHaveAttribute('data-position', '10');
  expect(await orderOf(w)).toEqual([1, 2, 3, 4, 5, 6, 7, 9, 10, 8]);
  const log = w.locator('.pl-log-entry');
  await expect(log).toHaveCount(2);
  await expect(log.nth(0)).toContainText('#8「bash * 拒绝」:第 8 位 → 第 9 位');
  await expect(log.nth(1)).toContainText('#8「bash * 拒绝」:第 9 位 → 第 10 位');
  await shot(w, '2-twice-mouse-zh');
  expect(problems).toEqual([]);
});

test('zh /: ↓ twice by keyboard (Enter on the focused ↓) moves #8 twice', async ({ page, problems }) => {
  const w = await indexWidget(page);
  await rowOf(w, 8).locator('.pl-down').focus();
  await page.keyboard.press('Enter');
  await expect(rowOf(w, 8)).toHaveAttribute('data-position', '9');
  await expect(rowOf(w, 8).locator('.pl-down')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(rowOf(w, 8)).toHaveAttribute('data-position', '10');
  expect(await orderOf(w)).toEqual([1, 2, 3, 4, 5, 6, 7, 9, 10, 8]);
  expect(problems).toEqual([]);
});

test.describe('touch', () => {
  test.use(phone);
  test('en lesson: tapping ↓ twice at the same spot moves #8 twice (phone)', async ({ page, problems }) => {
    const w = await demoWidget(page, 'en', 'naive');
    const { down, x, y } = await downSpot(w, 8);
    await page.touchscreen.tap(x, y);
    await expect(rowOf(w, 8)).toHaveAttribute('data-position', '9');
    await stillUnder(down, y);
    await page.touchscreen.tap(x, y);
    await expect(rowOf(w, 8)).toHaveAttribute('data-position', '10');
    expect(await orderOf(w)).toEqual([1, 2, 3, 4, 5, 6, 7, 9, 10, 8]);
    const log = w.locator('.pl-log-entry');
    await expect(log).toHaveCount(2);
    await expect(log.nth(1)).toContainText('#8 “bash * deny”: position 9 → 10');
    await shot(w, '2-twice-tap-en');
    expect(problems).toEqual([]);
  });

  test('zh /: tapping ↓ twice at the same spot moves #8 twice (phone)', async ({ page, problems }) => {
    const w = await indexWidget(page);
    const { down, x, y } = await downSpot(w, 8);
    await page.touchscreen.tap(x, y);
    await expect(rowOf(w, 8)).toHaveAttribute('data-position', '9');
    await stillUnder(down, y);
    await page.touchscreen.tap(x, y);
    await expect(rowOf(w, 8)).toHaveAttribute('data-position', '10');
    expect(problems).toEqual([]);
  });
});

// ---- 3. a revealed verdict stays through a reorder; a guess keeps its order's grade -------------------------------------------

test('zh /: after a reorder the revealed verdicts stay, the cards say what the log says, a guess keeps its order\'s grade (mouse)', async ({ page, problems }) => {
  const w = await indexWidget(page);
  await w.locator('.pl-preset[data-preset="git"]').click();
  await guessAndReveal(w, 'claude-code', 'deny');
  await guessAndReveal(w, 'opencode', 'deny');
  await expect(panelOf(w, 'claude-code').locator('.pl-mark')).toHaveText('✓ 猜对了');
  await expect(panelOf(w, 'opencode').locator('.pl-mark')).toHaveText('✗ 猜错了(你猜 拒绝)');
  // #1 one row down with its ↓ (a mouse click).
  await rowOf(w, 1).locator('.pl-down').click();
  await expect(rowOf(w, 1)).toHaveAttribute('data-position', '2');
  // The log words OpenCode's flip; its card shows the same new verdict (no new guess asked for
  // what the page already says), its grade still the one of the order it was guessed on.
  await expect(w.locator('.pl-log-entry').last()).toContainText('OpenCode: 放行 → 拒绝');
  await expect(w.locator('.pl-log-entry').last()).toContainText('first-match 改判了(先猜再揭示)');
  const oc = panelOf(w, 'opencode');
  await expect(oc).toHaveAttribute('data-verdict', 'deny');
  await expect(oc.locator('.pl-earlier')).toContainText('你猜的时候(重排之前)');
  await expect(oc.locator('.pl-earlier')).toHaveAttribute('data-verdict', 'allow');
  await expect(oc.locator('.pl-earlier .pl-mark')).toHaveText('✗ 猜错了(你猜 拒绝)');
  await expect(oc.locator('.pl-result .pl-mark')).toHaveCount(0);
  // Claude Code did not change: its card is as it was.
  const cc = panelOf(w, 'claude-code');
  await expect(cc).toHaveAttribute('data-verdict', 'deny');
  await expect(cc.locator('.pl-earlier')).toHaveCount(0);
  await expect(cc.locator('.pl-result .pl-mark')).toHaveText('✓ 猜对了');
  await expect(w.locator('.pl-guess-again')).toHaveCount(0);
  await expectNoLeak(w, 'after the move');
  await shot(w, '3-earlier-zh');
  // Back to the lesson's order: nothing revealed is hidden again; OpenCode's verdict is the
  // one it was guessed on, graded as before.
  await w.locator('.pl-reset').click();
  await expect(oc).toHaveAttribute('data-verdict', 'allow');
  await expect(oc.locator('.pl-earlier')).toHaveCount(0);
  await expect(oc.locator('.pl-result .pl-mark')).toHaveText('✗ 猜错了(你猜 拒绝)');
  await expect(cc).toHaveAttribute('data-verdict', 'deny');
  // first-match, never revealed, still asks.
  await expect(panelOf(w, 'first-match')).not.toHaveAttribute('data-verdict', /.*/);
  await expectNoLeak(w, 'after reset');
  expect(problems).toEqual([]);
});

test('en lesson: Reverse by keyboard keeps the verdict revealed and the grade of the order guessed on (a wrong guess is not turned right)', async ({ page, problems }) => {
  const w = await demoWidget(page, 'en', 'core');
  await guessAndReveal(w, 'opencode', 'deny');
  await expect(panelOf(w, 'opencode').locator('.pl-mark')).toHaveText(/^✗ Wrong/);
  await w.locator('.pl-reverse').focus();
  await page.keyboard.press('Enter');
  await expect(w.locator('.pl-log-entry')).toHaveCount(1);
  const p = panelOf(w, 'opencode');
  await expect(p).toHaveAttribute('data-verdict', 'deny');
  await expect(p.locator('.pl-earlier')).toContainText('When you guessed (before the reorder)');
  await expect(p.locator('.pl-earlier .pl-mark')).toHaveText(/^✗ Wrong/);
  await expectNoLeak(w, 'after reverse');
  await shot(w, '3-earlier-en');
  // A reload keeps it: the verdict, the earlier grade marked as the guessed order's.
  await page.reload();
  await page.locator('#core').scrollIntoViewIfNeeded();
  // The reorder log and Undo come back too.
  await expect(w.locator('.pl-log-entry')).toHaveCount(1);
  await expect(w.locator('.pl-log-entry')).toContainText('OpenCode');
  await expect(w.locator('.pl-undo')).toBeEnabled();
  await expect(p.locator('.pl-earlier')).toContainText('When you guessed (before the reorder)');
  await expect(p.locator('.pl-earlier .pl-mark')).toHaveText(/^✗ Wrong/);
  await expect(p).toHaveAttribute('data-verdict', 'deny');
  await expectNoLeak(w, 'after reverse and a reload');
  expect(problems).toEqual([]);
});

// ---- 4. one name per rule ---------------------------------------------------------------------

test('zh /: #8 keeps its name after moving to the end; positions are said as rows (keyboard move)', async ({ page, problems }) => {
  const w = await indexWidget(page);
  const grip = rowOf(w, 8).locator('.pl-grip');
  await grip.focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(rowOf(w, 8)).toHaveAttribute('data-position', '10');
  await expect(rowOf(w, 8).locator('.pl-pos')).toHaveText('8');
  await expect(w.locator('tbody.pl-rules tr').nth(7).locator('.pl-pos')).toHaveText('9');
  await expect(rowOf(w, 8).locator('.pl-grip')).toHaveAttribute('aria-label', /#8: bash \* 拒绝/);
  await expect(rowOf(w, 8).locator('.pl-up')).toHaveAttribute('aria-label', /#8$/);
  await expect(w.locator('.pl-log-entry')).toContainText('#8「bash * 拒绝」');
  await guessAndReveal(w, 'first-match', 'allow');
  await expect(panelOf(w, 'first-match').locator('.pl-why')).toHaveText('整行当作一个字符串来匹配,从上往下第一条命中的是 #9 bash python -m unittest* 放行(第 8 行)');
  await guessAndReveal(w, 'opencode', 'deny');
  await expect(panelOf(w, 'opencode').locator('.pl-why')).toContainText('#8 bash * 拒绝(第 10 行)');
  await w.locator('.pl-step-toggle').click();
  await expect(w.locator('.pl-step-line[data-engine-step="opencode"] .pl-step-text')).toContainText('#8 bash *(第 10 行) — ');
  // No "#10" anywhere names the rule that sits on row 10.
  await expect(w).not.toContainText('#10 bash *');
  await shot(w, '4-names-zh');
  expect(problems).toEqual([]);
});

test('en lesson: #8 keeps its name, positions are rows', async ({ page, problems }) => {
  const w = await demoWidget(page, 'en', 'naive');
  await rowOf(w, 8).locator('.pl-grip').focus();
  await page.keyboard.press('Alt+ArrowDown');
  await page.keyboard.press('Alt+ArrowDown');
  await expect(rowOf(w, 8)).toHaveAttribute('data-position', '10');
  await guessAndReveal(w, 'first-match', 'allow');
  await expect(panelOf(w, 'first-match').locator('.pl-why')).toHaveText('matching the whole line as one string, the first match from the top is #9 bash python -m unittest* allow (row 8)');
  await guessAndReveal(w, 'opencode', 'deny');
  await expect(panelOf(w, 'opencode').locator('.pl-why')).toContainText('#8 bash * deny (row 10)');
  await w.locator('.pl-step-toggle').click();
  await expect(w.locator('.pl-step-line[data-engine-step="opencode"] .pl-step-text')).toContainText('#8 bash * (row 10) — ');
  await expect(w).not.toContainText('#10 bash *');
  expect(problems).toEqual([]);
});

// ---- 5. exactly the lesson's engines ----------------------------------------------------------

for (const [lang, others] of [['zh', '同时显示其他 harness:Claude Code、CoreCoder、Codex'], ['en', 'Also show other harnesses: Claude Code, CoreCoder, Codex']]) {
  test(`${lang} lesson first-match vs OpenCode: only those two everywhere; others on request`, async ({ page, problems }) => {
    const w = await demoWidget(page, lang, 'naive');
    const slugs = (sel, attr) => w.locator(sel).evaluateAll((es, a) => es.map((e) => e.getAttribute(a)), attr);
    expect(await slugs('.pl-engine', 'data-engine')).toEqual(['first-match', 'opencode']);
    await expect(w.locator('.pl-disagree')).toHaveCount(0);
    await expect(w.locator('.pl-matrix thead th')).toHaveCount(3);
    await w.locator('.pl-step-toggle').click();
    expect(await slugs('.pl-step-line', 'data-engine-step')).toEqual(['first-match', 'opencode']);
    await w.locator('.pl-step-next').click();
    await expect(w.locator('tbody.pl-rules tr[data-cursor~="claude-code"]')).toHaveCount(0);
    await expect(w.locator('tbody.pl-rules tr[data-cursor~="first-match"]')).toHaveCount(1);
    await expect(w.locator('.pl-toolbar label.pl-checkbox')).toHaveText(others);
    await shot(w, `5-engines-${lang}`);
    await w.locator('.pl-codex-toggle').check();
    expect(await slugs('.pl-engine', 'data-engine')).toEqual(['first-match', 'opencode', 'claude-code', 'corecoder', 'codex']);
    await expect(w.locator('.pl-matrix thead th')).toHaveCount(6);
    await expect(w.locator('.pl-disagree')).toHaveCount(1);
    expect(await slugs('.pl-step-line', 'data-engine-step')).toEqual(['first-match', 'opencode', 'claude-code', 'corecoder', 'codex']);
    expect(problems).toEqual([]);
  });
}

test('zh lesson with CoreCoder: the stepper has its line; / offers Codex alone', async ({ page, problems }) => {
  const w = await demoWidget(page, 'zh', 'core');
  await w.locator('.pl-step-toggle').click();
  const lines = await w.locator('.pl-step-line').evaluateAll((es) => es.map((e) => e.dataset.engineStep));
  expect(lines).toEqual(['claude-code', 'opencode', 'corecoder']);
  const i = await indexWidget(page);
  await expect(i.locator('.pl-toolbar label.pl-checkbox')).toHaveText('同时显示其他 harness:Codex');
  expect(problems).toEqual([]);
});

// ---- 15. texts that state outcomes match the engines shown ------------------------------------

/** The engines a "only X changes" sentence names, by their display names. */
function claimed(text, names, lang) {
  const [only, change] = lang === 'zh' ? ['只有', '改判'] : ['only ', ' change'];
  const clause = text.split(only)[1]?.split(change)[0] ?? '';
  return names.filter((n) => clause.includes(n));
}

for (const lang of ['zh', 'en']) {
  test(`${lang}: "only OpenCode changes" is what the reverse does to the engines shown`, async ({ page, problems }) => {
    const w = await demoWidget(page, lang, 'core');
    const text = await w.locator('.pl-task[data-task="1"] .pl-task-text').innerText();
    const names = await w.locator('.pl-engine h4').evaluateAll((hs) => hs.map((h) => h.firstChild.textContent.trim()));
    const slugs = await w.locator('.pl-engine').evaluateAll((es) => es.map((e) => e.dataset.engine));
    for (const s of slugs) await guessAndReveal(w, s, 'skip');
    await page.evaluate(() => {
      window.__flips = null;
      document.querySelector('#core').addEventListener('permlab:reorder', (e) => { window.__flips = e.detail.flipped; });
    });
    await w.locator('.pl-reverse').click();
    const flipped = await page.waitForFunction(() => window.__flips).then((h) => h.jsonValue());
    const flippedNames = flipped.map((s) => names[slugs.indexOf(s)]);
    expect(claimed(text, names, lang)).toEqual(flippedNames);
    expect(flippedNames).toEqual(['OpenCode']);
    expect(problems).toEqual([]);
  });
}

test('zh /: on the built-in table with first-match shown, the log says first-match flips too', async ({ page, problems }) => {
  const w = await indexWidget(page);
  await w.locator('.pl-preset[data-preset="git"]').click();
  for (const s of ['first-match', 'opencode', 'claude-code', 'corecoder']) await guessAndReveal(w, s, 'skip');
  await w.locator('.pl-reverse').click();
  const entry = w.locator('.pl-log-entry').last();
  await expect(entry).toContainText('first-match: 拒绝 → 放行');
  await expect(entry).toContainText('OpenCode: 放行 → 拒绝');
  await expect(entry).toContainText('Claude Code 不变');
  expect(problems).toEqual([]);
});
