// One test (or more) per capability of the table widget (presets, reorder, guess and reveal,
// stepper, reorder log, disagreement box, formula, matrix, self-check, state, language), against
// the release dist/ in Debian Chromium.
// Hooks used: rows `tbody.pl-rules tr[data-rule-id][data-position]`, engine panels
// `.pl-engine[data-engine][data-verdict]`, cursors `[data-cursor~=<engine>]`.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test, expect, screenshotPath, artifacts } from './fixtures.mjs';

const rows = (page) => page.locator('tbody.pl-rules tr');
const row = (page, id) => page.locator(`tbody.pl-rules tr[data-rule-id="${id}"]`);
const panel = (page, slug) => page.locator(`.pl-engine[data-engine="${slug}"]`);
const order = (page) => rows(page).evaluateAll((rs) => rs.map((r) => Number(r.dataset.ruleId)));

async function open(page, hash = '') {
  await page.goto('./' + hash);
  await expect(rows(page).first()).toBeVisible();
}

async function skipReveal(page, slug) {
  const p = panel(page, slug);
  await p.locator('.pl-skip').click();
  await p.locator('.pl-reveal').click();
  await expect(p).toHaveAttribute('data-verdict', /.+/);
}

async function customTable(page, json) {
  if (!(await page.locator('.pl-editor').evaluate((d) => d.open))) await page.locator('.pl-editor summary').click();
  await page.locator('.pl-table-json').fill(json);
  await page.locator('.pl-apply').click();
}

// ---- the product versions each engine reproduces ---------------------------------------------

test('each engine names the product version it reproduces, in zh and en', async ({ page, problems }) => {
  await open(page);
  await expect(panel(page, 'claude-code').locator('.pl-pin')).toHaveText('对照 Claude Code 2.1.332(2026-12-01 实测)');
  await expect(panel(page, 'opencode').locator('.pl-pin')).toHaveText('对照 OpenCode 1.18.32');
  await expect(panel(page, 'first-match').locator('.pl-pin')).toHaveCount(0);
  await page.goto('./demo/en.html');
  // The second widget (Claude Code, OpenCode, CoreCoder) mounts when it comes near the viewport.
  await page.locator('[data-permlab]').nth(1).scrollIntoViewIfNeeded();
  const en = page.locator('.pl-engine[data-engine="claude-code"] .pl-pin').first();
  await expect(en).toHaveText('as Claude Code 2.1.332 (recorded 2026-12-01)');
  expect(problems).toEqual([]);
});

// ---- 1. presets and the editable call -------------------------------------------------------

test('presets: miniagent, git pair, aws example; editable call with inline messages', async ({ page, problems }) => {
  await open(page);
  await expect(rows(page)).toHaveCount(10);
  await page.locator('.pl-preset[data-preset="git"]').click();
  await expect(rows(page)).toHaveCount(2);
  await expect(rows(page).nth(0).locator('.pl-pattern')).toHaveText('git push *');
  await expect(page.locator('.pl-call-input')).toHaveText('git push origin main');
  await page.locator('.pl-preset[data-preset="aws"]').click();
  await expect(rows(page).nth(0).locator('.pl-pattern')).toHaveText('aws *');
  await expect(rows(page).nth(1).locator('.pl-pattern')).toHaveText('aws s3 ls');
  await page.locator('.pl-preset[data-preset="miniagent"]').click();
  // the seed's real calls are offered
  const options = await page.locator('.pl-call-select option').allTextContents();
  for (const c of ['bash: git push origin main', 'read_file: test_dateparse.py', 'edit_file: dateparse.py']) {
    expect(options).toContain(c);
  }
  await page.locator('.pl-call-select').selectOption({ label: 'bash: git status' });
  await expect(page.locator('.pl-call-input')).toHaveText('git status');
  // edit the call by hand
  await page.locator('.pl-call-tool-input').fill('');
  await expect(page.locator('.pl-call-error')).toContainText('工具名不能为空');
  await page.locator('.pl-call-tool-input').fill('bad tool');
  await expect(page.locator('.pl-call-error')).toContainText('一个词');
  await page.locator('.pl-call-tool-input').fill('bash');
  await expect(page.locator('.pl-call-error')).toHaveText('');
  await page.locator('.pl-call-input-text').fill('echo "unclosed');
  await expect(page.locator('.pl-call-input')).toHaveText('echo "unclosed');
  // No engine notes an unclosed quote any more: Codex checks the line whole, as `bash -lc`
  // (codex-core does not shlex-split it), and Claude Code decides it like any other call.
  await expect(page.locator('.pl-call-notes li')).toHaveCount(0);
  expect(problems).toEqual([]);
});

// ---- 2. reorder -------------------------------------------------------------------------------

test('keyboard-only reorder of #8 to the bottom flips first-match, not Claude Code; announced; focus kept', async ({ page, problems }) => {
  await open(page);
  await skipReveal(page, 'first-match');
  await skipReveal(page, 'claude-code');
  await expect(panel(page, 'first-match')).toHaveAttribute('data-verdict', 'deny');
  await expect(panel(page, 'claude-code')).toHaveAttribute('data-verdict', 'unavailable');
  const grip = row(page, 8).locator('.pl-grip');
  await grip.focus();
  await page.keyboard.press('Space');
  await expect(page.locator('.pl-announce')).toContainText('已拿起规则 #8');
  await page.keyboard.press('ArrowDown');
  await expect(row(page, 9)).toHaveClass(/pl-drop-below/);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Space');
  await expect(row(page, 8)).toHaveAttribute('data-position', '10');
  await expect(page.locator('.pl-announce')).toHaveText('规则 #8「bash * 拒绝」已移到第 10 位(共 10 位)');
  await expect(page.locator('[role="status"].pl-announce')).toHaveAttribute('aria-live', 'polite');
  await expect(row(page, 8).locator('.pl-grip')).toBeFocused();
  // The log tells what flipped, and the cards say the same: revealed verdicts stay revealed
  // (the new one shown), the guess keeping the order it was made on.
  await expect(page.locator('.pl-log-entry').last()).toContainText('first-match: 拒绝 → 放行');
  await expect(page.locator('.pl-log-entry').last()).toContainText('Claude Code 不变');
  await expect(panel(page, 'first-match')).toHaveAttribute('data-verdict', 'allow');
  await expect(panel(page, 'first-match').locator('.pl-earlier')).toHaveAttribute('data-verdict', 'deny');
  await expect(panel(page, 'claude-code')).toHaveAttribute('data-verdict', 'unavailable');
  await expect(panel(page, 'claude-code').locator('.pl-earlier')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('keyboard: Esc cancels a lift, Alt+arrows move at once, focus follows', async ({ page, problems }) => {
  await open(page);
  const grip = row(page, 3).locator('.pl-grip');
  await grip.focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Escape');
  await expect(page.locator('.pl-announce')).toContainText('已取消');
  expect(await order(page)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  await page.keyboard.press('Alt+ArrowUp');
  await expect(row(page, 3)).toHaveAttribute('data-position', '2');
  await expect(row(page, 3).locator('.pl-grip')).toBeFocused();
  await page.keyboard.press('Alt+ArrowDown');
  await page.keyboard.press('Alt+ArrowDown');
  await expect(row(page, 3)).toHaveAttribute('data-position', '4');
  expect(problems).toEqual([]);
});

test('visible ↑/↓ buttons, undo (button and Ctrl+Z), reset, reverse twice restores', async ({ page, problems }) => {
  await open(page);
  await row(page, 8).locator('.pl-down').click();
  await expect(row(page, 8)).toHaveAttribute('data-position', '9');
  await expect(row(page, 8).locator('.pl-down')).toBeFocused();
  await row(page, 8).locator('.pl-down').click();
  await expect(row(page, 8)).toHaveAttribute('data-position', '10');
  await expect(row(page, 8).locator('.pl-grip')).toBeFocused(); // ↓ is disabled at the bottom
  await page.locator('.pl-undo').click();
  await expect(row(page, 8)).toHaveAttribute('data-position', '9');
  await row(page, 1).locator('.pl-grip').focus();
  await page.keyboard.press('Control+z');
  await expect(row(page, 8)).toHaveAttribute('data-position', '8');
  await page.locator('.pl-reverse').click();
  expect(await order(page)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
  await page.locator('.pl-reverse').click();
  expect(await order(page)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  await row(page, 2).locator('.pl-up').click();
  await page.locator('.pl-reset').click();
  expect(await order(page)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  await expect(page.locator('.pl-reset')).toBeDisabled();
  expect(problems).toEqual([]);
});

test('mouse drag on the grip with a drop indicator', async ({ page, problems }) => {
  await open(page);
  const grip = row(page, 8).locator('.pl-grip');
  await row(page, 10).scrollIntoViewIfNeeded();
  await grip.scrollIntoViewIfNeeded();
  const g = await grip.boundingBox();
  const last = await row(page, 10).boundingBox();
  await page.mouse.move(g.x + g.width / 2, g.y + g.height / 2);
  await page.mouse.down();
  await page.mouse.move(g.x + g.width / 2, g.y + 20, { steps: 3 });
  await page.mouse.move(g.x + g.width / 2, last.y + last.height - 2, { steps: 5 });
  await expect(row(page, 10)).toHaveClass(/pl-drop-below/);
  await page.mouse.up();
  await expect(row(page, 8)).toHaveAttribute('data-position', '10');
  expect(problems).toEqual([]);
});

/// A real finger swipe (Chromium's touch input through CDP, so `touch-action` and scrolling
/// apply as on a phone): down at `from`, `steps` moves to `to`, up. No pause anywhere.
async function swipe(page, from, to, steps = 8) {
  const cdp = await page.context().newCDPSession(page);
  const point = (x, y) => [{ x: Math.round(x), y: Math.round(y), id: 1, radiusX: 4, radiusY: 4, force: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point(from.x, from.y) });
  for (let i = 1; i <= steps; i++) {
    const f = i / steps;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: point(from.x + (to.x - from.x) * f, from.y + (to.y - from.y) * f) });
    // A finger's moves come a frame apart.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/// Waits until the page stops scrolling (a swipe's fling can go on after the finger lifts):
/// the scroll position unchanged over five frames.
async function scrollSettled(page) {
  await page.evaluate(() => new Promise((done) => {
    let last = -1;
    let same = 0;
    const tick = () => {
      same = scrollY === last ? same + 1 : 0;
      last = scrollY;
      if (same >= 5) done();
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }));
}

test.describe('touch', () => {
  test.use({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });
  test('a finger swipe that starts on ⠿ moves the row at once; a swipe elsewhere scrolls the page', async ({ page, problems }) => {
    await open(page);
    await row(page, 10).scrollIntoViewIfNeeded();
    const center = (b) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 });
    // A swipe up on the pattern cell scrolls the page and moves nothing.
    const before = await page.evaluate(() => scrollY);
    const cell = center(await row(page, 5).locator('.pl-pattern').boundingBox());
    await swipe(page, cell, { x: cell.x, y: cell.y - 150 });
    await expect.poll(() => page.evaluate(() => scrollY)).toBeGreaterThan(before);
    await scrollSettled(page);
    expect(await order(page)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // The same swipe, down from #8's grip to the last row, with no hold first: #8 moves.
    await row(page, 10).scrollIntoViewIfNeeded();
    await scrollSettled(page);
    const grip = center(await row(page, 8).locator('.pl-grip').boundingBox());
    const last = await row(page, 10).boundingBox();
    const scrolled = await page.evaluate(() => scrollY);
    await swipe(page, grip, { x: grip.x, y: last.y + last.height - 3 });
    await expect(row(page, 8)).toHaveAttribute('data-position', '10');
    await expect(page.locator('.pl-announce')).toContainText('已移到第 10 位');
    expect(await page.evaluate(() => scrollY)).toBe(scrolled);
    expect(problems).toEqual([]);
  });

  test('on a phone, stepping keeps the cursor rows and the step buttons on screen together', async ({ page, problems }) => {
    await open(page);
    await page.locator('.pl-step-toggle').tap();
    const next = page.locator('.pl-step-dock .pl-step-next');
    await expect(next).toBeVisible();
    const height = page.viewportSize().height;
    const count = page.locator('.pl-step-count');
    for (let k = 1; k <= 8; k++) {
      const before = await count.innerText();
      await next.tap();
      await expect(count).not.toHaveText(before);
      // The step buttons are on screen, and so is every row with a cursor, above the buttons.
      await expect.poll(async () => {
        const dock = await page.locator('.pl-step-dock').boundingBox();
        const cursors = await page.locator('tbody.pl-rules tr[data-cursor]:not([data-cursor=""])').evaluateAll((rs) =>
          rs.map((r) => { const b = r.getBoundingClientRect(); return [b.top, b.bottom]; }));
        const b = await next.boundingBox();
        return b.y >= 0 && b.y + b.height <= height && cursors.length > 0
          && cursors.every(([top, bottom]) => top >= 0 && bottom <= dock.y + 1);
      }, { message: `step ${k}` }).toBe(true);
    }
    await page.screenshot({ path: screenshotPath('phone-stepping') });
    expect(problems).toEqual([]);
  });
});

// ---- 3. guess → reveal ------------------------------------------------------------------------

test('guess then reveal: locked until a guess, ✓/✗ with text, why points at the highlighted row, try again', async ({ page, problems }) => {
  await open(page);
  const fm = panel(page, 'first-match');
  await expect(fm.locator('.pl-reveal')).toBeDisabled();
  await expect(fm.locator('.pl-locked')).toBeVisible();
  await expect(fm).not.toHaveAttribute('data-verdict', /.*/);
  await fm.locator('.pl-guess-btn[data-guess="deny"]').click();
  await fm.locator('.pl-reveal').click();
  await expect(fm).toHaveAttribute('data-verdict', 'deny');
  await expect(fm.locator('.pl-mark')).toHaveText('✓ 猜对了');
  await expect(fm.locator('.pl-why')).toContainText('#8 bash *');
  await expect(row(page, 8)).toHaveClass(/pl-decisive/);
  await expect(row(page, 8)).toHaveAttribute('data-decisive', /first-match/);
  const oc = panel(page, 'opencode');
  await oc.locator('.pl-guess-btn[data-guess="deny"]').click();
  await oc.locator('.pl-reveal').click();
  await expect(oc).toHaveAttribute('data-verdict', 'allow');
  await expect(oc.locator('.pl-mark')).toHaveText('✗ 猜错了(你猜 拒绝)');
  await expect(row(page, 9)).toHaveAttribute('data-decisive', /opencode/);
  await skipReveal(page, 'claude-code');
  await expect(panel(page, 'claude-code').locator('.pl-verdict')).toContainText('工具不可用');
  await expect(panel(page, 'claude-code').locator('.pl-why')).toContainText('#8');
  await skipReveal(page, 'corecoder');
  await expect(panel(page, 'corecoder')).toHaveAttribute('data-verdict', 'ask');
  await row(page, 8).locator('.pl-down').click();
  await page.locator('.pl-try-again').click();
  for (const s of ['first-match', 'opencode', 'claude-code', 'corecoder']) {
    await expect(panel(page, s)).not.toHaveAttribute('data-verdict', /.*/);
    await expect(panel(page, s).locator('.pl-reveal')).toBeDisabled();
  }
  await expect(row(page, 8)).toHaveAttribute('data-position', '9'); // the order stays
  // Codex joins when asked for
  await page.locator('.pl-codex-toggle').check();
  await skipReveal(page, 'codex');
  await expect(panel(page, 'codex')).toHaveAttribute('data-verdict', /allow|ask|deny/);
  expect(problems).toEqual([]);
});

// ---- 4. stepper -------------------------------------------------------------------------------

test('stepper: first-match walks down, last-match up, Claude Code by groups; k of N; arrows', async ({ page, problems }) => {
  await open(page);
  // The last step tells each verdict: it waits for the reveals (see reveal.spec.mjs).
  for (const s of ['first-match', 'opencode', 'claude-code', 'corecoder']) await skipReveal(page, s);
  await page.locator('.pl-step-toggle').click();
  await expect(page.locator('.pl-step-count')).toContainText(/第 1 步,共 \d+ 步/);
  await expect(page.locator('[data-cursor~="first-match"]')).toHaveAttribute('data-position', '1');
  await expect(page.locator('[data-cursor~="opencode"]')).toHaveAttribute('data-position', '10');
  await expect(page.locator('[data-engine-step="claude-code"]')).toContainText('[拒绝 组]');
  await page.locator('.pl-step-next').click();
  await expect(page.locator('[data-cursor~="first-match"]')).toHaveAttribute('data-position', '2');
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('.pl-step-count')).toContainText('第 3 步');
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator('.pl-step-count')).toContainText('第 2 步');
  await page.locator('.pl-step-last').click();
  await expect(page.locator('[data-cursor~="first-match"]')).toHaveAttribute('data-position', '8');
  await expect(page.locator('[data-cursor~="opencode"]')).toHaveAttribute('data-position', '9');
  await expect(page.locator('[data-engine-step="first-match"]')).toContainText('#8 bash * — 工具 ✓ 匹配串 ✓ → 拒绝,停');
  await page.locator('.pl-step-first').click();
  await expect(page.locator('.pl-step-count')).toContainText('第 1 步');
  // cursors differ by shape, not only colour
  const shapes = await page.locator('tbody .pl-cur').allTextContents();
  expect(new Set(shapes).size).toBeGreaterThan(1);
  expect(problems).toEqual([]);
});

test('reduced motion: cursors jump without animation', async ({ page, problems }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await open(page);
  await page.locator('.pl-step-toggle').click();
  const anim = await page.locator('tbody .pl-cur').first().evaluate((e) => getComputedStyle(e).animationName);
  expect(anim).toBe('none');
  expect(problems).toEqual([]);
});

// ---- 5. reorder log ---------------------------------------------------------------------------

test('reorder log names the engines that flipped and the ones that did not', async ({ page, problems }) => {
  await open(page);
  await expect(page.locator('.pl-log-empty')).toBeVisible();
  await page.locator('.pl-preset[data-preset="git"]').click();
  // The log words the verdicts of the engines revealed before the reorder.
  for (const s of ['first-match', 'opencode', 'claude-code', 'corecoder']) await skipReveal(page, s);
  await page.locator('.pl-reverse').click();
  const entry = page.locator('.pl-log-entry').last();
  await expect(entry).toContainText('整表倒序');
  await expect(entry).toContainText('OpenCode: 放行 → 拒绝');
  await expect(entry).toContainText('Claude Code 不变');
  await expect(entry).toContainText('CoreCoder 不读规则');
  await row(page, 1).locator('.pl-grip').focus();
  await page.keyboard.press('Alt+ArrowUp');
  await expect(page.locator('.pl-log-entry')).toHaveCount(2);
  await expect(page.locator('.pl-log-entry').last()).toContainText('#1「bash git push * 拒绝」:第 2 位 → 第 1 位');
  expect(problems).toEqual([]);
});

// ---- 6. disagreement box ----------------------------------------------------------------------

test('disagreement box: last match vs highest priority, live', async ({ page, problems }) => {
  await open(page);
  await page.locator('.pl-preset[data-preset="aws"]').click();
  const box = page.locator('.pl-disagree');
  // Both readings tell the two verdicts: the box waits for both reveals.
  await expect(box.locator('.pl-disagree-locked')).toBeVisible();
  await skipReveal(page, 'opencode');
  await skipReveal(page, 'claude-code');
  await expect(box.locator('.pl-last')).toHaveText('放行 ← #2 bash aws s3 ls');
  await expect(box.locator('.pl-strongest')).toHaveText('拒绝 ← #1 bash aws *');
  await expect(box.locator('.pl-disagree-list')).toHaveAttribute('data-differ', 'true');
  await expect(box).toContainText('相反');
  // Revealed stays revealed: the box follows the reorder at once.
  await page.locator('.pl-reverse').click();
  await expect(box.locator('.pl-disagree-locked')).toHaveCount(0);
  await expect(box.locator('.pl-disagree-list')).toHaveAttribute('data-differ', 'false');
  await expect(box.locator('.pl-last')).toContainText('拒绝');
  // Both orders side by side: the order before the reverse, read the same two ways.
  const before = box.locator('.pl-disagree-before');
  await expect(before).toContainText('上一次重排之前');
  await expect(before).toHaveAttribute('data-differ', 'true');
  await expect(before.locator('.pl-before-last')).toHaveText('放行 ← #2 bash aws s3 ls');
  await expect(before.locator('.pl-before-strongest')).toHaveText('拒绝 ← #1 bash aws *');
  expect(problems).toEqual([]);
});

// ---- 7. formula -------------------------------------------------------------------------------

test('formula terms explain themselves when clicked', async ({ page, problems }) => {
  await open(page);
  const f = page.locator('.pl-formula');
  await expect(f).toContainText('rules.findLast(r => match(permission, r.permission) && match(pattern, r.pattern)) ?? ask');
  for (const [i, word] of [[0, 'findLast'], [1, 'permission'], [2, 'Wildcard.match'], [3, 'ask']]) {
    await f.locator(`.pl-term[data-term="${i}"]`).click();
    await expect(f.locator(`.pl-term[data-term="${i}"]`)).toHaveAttribute('aria-expanded', 'true');
    await expect(page.locator('.pl-term-help')).toContainText(word);
  }
  expect(problems).toEqual([]);
});

// ---- 8. matrix and translations ---------------------------------------------------------------

test('matrix marks the cell the last reorder changed; translations flag bash * deny → deny Bash', async ({ page, problems }) => {
  await open(page);
  // Folded until asked for; the current call's cells wait for the reveals.
  await page.locator('.pl-matrix-box summary').click();
  const reveal3 = async () => { for (const s of ['first-match', 'opencode', 'claude-code']) await skipReveal(page, s); };
  await reveal3();
  const unittestRow = page.locator('.pl-matrix tr[data-call="0"]');
  await expect(unittestRow.locator('[data-engine="first-match"]')).toHaveAttribute('data-verdict', 'deny');
  await expect(page.locator('.pl-matrix .pl-changed')).toHaveCount(0);
  await row(page, 8).locator('.pl-grip').focus();
  await page.keyboard.press('Space'); // one reorder: #8 to the bottom
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Space');
  await expect(row(page, 8)).toHaveAttribute('data-position', '10');
  await expect(unittestRow.locator('[data-engine="first-match"]')).toHaveAttribute('data-verdict', 'allow');
  await expect(unittestRow.locator('[data-engine="first-match"]')).toHaveAttribute('data-changed', 'true');
  await expect(unittestRow.locator('[data-engine="opencode"]')).toHaveAttribute('data-changed', 'true');
  await expect(unittestRow.locator('.pl-changed-mark').first()).toContainText('上次重排改变了这一格');
  await expect(unittestRow.locator('[data-engine="claude-code"]')).not.toHaveAttribute('data-changed', /.*/);
  await page.locator('.pl-translations summary').click();
  const cc = page.locator('.pl-translation[data-harness="claude-code"]');
  await expect(cc.locator('pre')).toContainText(/"deny": \[[^\]]*"Bash"\]/);
  await expect(cc.locator('.pl-flag[data-row="10"]')).toContainText('deny Bash');
  await expect(cc.locator('.pl-flag[data-row="10"]')).toContainText('不带参数的 deny');
  await expect(page.locator('.pl-translation[data-harness="opencode"] pre')).toContainText('"python -m unittest*": "allow"');
  // No miniagent row has an execpolicy form: each is flagged, with the reason.
  // The generated file's comments are in the page's language.
  await expect(page.locator('.pl-translation[data-harness="codex"] pre')).toContainText('无法写成前缀规则');
  await expect(page.locator('.pl-translation[data-harness="codex"] .pl-flag')).toHaveCount(10);
  // Each flag's reason is worded in the page's language (12.9), none in the core's English.
  const reasons = await page.locator('.pl-translation .pl-flag').allTextContents();
  expect(reasons.filter((r) => /execpolicy compares|matches every|never reach/.test(r))).toEqual([]);
  expect(reasons.filter((r) => r.includes('execpolicy 只比较')).length).toBeGreaterThan(0);
  await page.locator('.pl-preset[data-preset="git"]').click();
  await expect(page.locator('.pl-translation[data-harness="codex"] pre')).toContainText('prefix_rule(pattern=["git", "push"], decision="forbidden")');
  expect(problems).toEqual([]);
});

// ---- 9. self-check ----------------------------------------------------------------------------

test('self-check loads the fixtures on demand and runs them in the browser', async ({ page, problems }) => {
  const fetched = [];
  page.on('request', (r) => { if (r.url().includes('/conformance/')) fetched.push(r.url()); });
  await open(page);
  expect(fetched).toEqual([]);
  await page.locator('.pl-run-check').click();
  const oc = page.locator('.pl-check[data-check="opencode"]');
  await expect(oc).toContainText(/\d+\/\d+ 与源码运行结果一致/, { timeout: 20_000 });
  await expect(page.locator('.pl-check')).toHaveCount(7, { timeout: 20_000 });
  for (const name of ['opencode', 'claude-code-docs', 'claude-code-cli', 'corecoder']) {
    const tally = await page.locator(`.pl-check[data-check="${name}"] .pl-check-tally`).textContent();
    const [a, b] = tally.split('/').map(Number);
    console.log(`self-check ${name}: ${tally}`);
    expect(b).toBeGreaterThan(0);
    expect(a).toBe(b);
  }
  expect(fetched.some((u) => u.endsWith('/conformance/opencode.json'))).toBe(true);
  expect(problems).toEqual([]);
});

// ---- around it --------------------------------------------------------------------------------

test('state survives a reload (order, call, guesses, reveals, step)', async ({ page, problems }) => {
  await open(page);
  await row(page, 8).locator('.pl-grip').focus();
  await page.keyboard.press('Alt+ArrowDown');
  await page.locator('.pl-call-select').selectOption({ label: 'bash: git status' });
  await panel(page, 'opencode').locator('.pl-guess-btn[data-guess="ask"]').click();
  await panel(page, 'opencode').locator('.pl-reveal').click();
  await panel(page, 'first-match').locator('.pl-guess-btn[data-guess="allow"]').click();
  await page.locator('.pl-step-toggle').click();
  await page.locator('.pl-step-next').click();
  await expect.poll(() => page.evaluate(() => sessionStorage.getItem('permlab:%2F:a3'))).toContain('\no ');
  await page.reload();
  await expect(row(page, 8)).toHaveAttribute('data-position', '9');
  await expect(page.locator('.pl-call-input')).toHaveText('git status');
  await expect(panel(page, 'opencode')).toHaveAttribute('data-verdict', /.+/);
  await expect(panel(page, 'first-match').locator('.pl-guess-btn[data-guess="allow"]')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('.pl-step-count')).toContainText('第 2 步');
  expect(problems).toEqual([]);
});

test('English from data-lang, same string table; announcement in English', async ({ page, problems }) => {
  const html = readFileSync(resolve(artifacts, '../dist/index.html'), 'utf8')
    .replace('data-lang="zh"', 'data-lang="en"');
  await page.route('**/en.html', (r) => r.fulfill({ contentType: 'text/html', body: html }));
  await page.goto('./en.html');
  await expect(rows(page)).toHaveCount(10);
  await expect(page.locator('#a3 > .pl-widget')).toHaveAttribute('lang', 'en');
  await expect(page.locator('.pl-log h3')).toHaveText('Reorder log');
  await row(page, 8).locator('.pl-grip').focus();
  await page.keyboard.press('Space');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.locator('.pl-announce')).toHaveText('rule #8 “bash * deny” moved to position 10 of 10');
  await expect(page.locator('.pl-log-entry')).toContainText('CoreCoder ignores rules');
  expect(problems).toEqual([]);
});

test('Copy as JSON gives the table in the fixtures format', async ({ page, context, problems }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await open(page);
  await page.locator('.pl-reverse').click();
  await page.locator('.pl-copy').click();
  await expect(page.locator('.pl-copied, .pl-copy-text').first()).toBeVisible();
  const text = (await page.locator('.pl-copy-text').count())
    ? await page.locator('.pl-copy-text').inputValue()
    : await page.evaluate(() => navigator.clipboard.readText());
  const json = JSON.parse(text);
  expect(json[0]).toEqual({ tool: 'bash', pattern: 'python3 -m unittest*', action: 'allow' });
  expect(json).toHaveLength(10);
  expect(problems).toEqual([]);
});

test('hostile strings are shown as text', async ({ page, problems }) => {
  await open(page);
  const evil = [
    { tool: 'bash', pattern: '<img src=x onerror="window.__pwned=1">', action: 'deny' },
    { tool: 'bash', pattern: '\u202eevil\u202c ls', action: 'allow' },
    { tool: 'bash', pattern: '😀 line1\nline2', action: 'ask' },
  ];
  await customTable(page, JSON.stringify({ rules: evil, calls: ['bash: <b>hi</b>'] }));
  await expect(rows(page)).toHaveCount(3);
  await expect(rows(page).nth(0).locator('.pl-pattern')).toHaveText(evil[0].pattern);
  await expect(rows(page).nth(2).locator('.pl-pattern')).toHaveText(evil[2].pattern);
  await expect(page.locator('.pl-widget img')).toHaveCount(0);
  await expect(page.locator('.pl-call-input')).toHaveText('<b>hi</b>');
  expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
  await customTable(page, '[{"tool": "bash"}]');
  // Worded in the page's language from the core's structured error (12.9), not its English.
  await expect(page.locator('.pl-table-error')).toHaveText('规则表无法读取: 位置 [0]:缺少 "pattern" 字段。');
  await customTable(page, '{"rules": [], "calls": ["git push"]}');
  await expect(page.locator('.pl-table-error')).toHaveText('规则表无法读取: 位置 calls[0]:读不懂调用 "git push":写成 `工具: 输入`,例如 `bash: git status`。');
  expect(problems).toEqual([]);
});

test('print style: a static table, no controls', async ({ page, problems }) => {
  await open(page);
  await page.emulateMedia({ media: 'print' });
  await expect(rows(page).first()).toBeVisible();
  await expect(page.locator('.pl-grip').first()).toBeHidden();
  await expect(page.locator('.pl-toolbar')).toBeHidden();
  expect(problems).toEqual([]);
});

for (const scheme of ['light', 'dark']) {
  test(`axe-core: no violations (${scheme})`, async ({ page, problems }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await open(page);
    await panel(page, 'first-match').locator('.pl-guess-btn[data-guess="deny"]').click();
    await panel(page, 'first-match').locator('.pl-reveal').click();
    await page.locator('.pl-step-toggle').click();
    await page.locator('.pl-translations summary').click();
    await row(page, 8).locator('.pl-down').click();
    const results = await new AxeBuilder({ page }).include('.pl-widget').analyze();
    const summary = results.violations.map((v) => `${v.id}: ${v.nodes.length} × ${v.nodes[0]?.target}`);
    expect(summary).toEqual([]);
    expect(problems).toEqual([]);
  });
}

test('screenshots: desktop light and dark, 360 px phone; no horizontal overflow at 360 px', async ({ browser }) => {
  for (const [name, opts] of [
    ['desktop-light', { viewport: { width: 1280, height: 900 }, colorScheme: 'light' }],
    ['desktop-dark', { viewport: { width: 1280, height: 900 }, colorScheme: 'dark' }],
    ['phone-360', { viewport: { width: 360, height: 740 }, colorScheme: 'light', hasTouch: true, isMobile: true }],
  ]) {
    const ctx = await browser.newContext(opts);
    const page = await ctx.newPage();
    await page.goto('./');
    await expect(rows(page)).toHaveCount(10);
    await panel(page, 'opencode').locator('.pl-guess-btn[data-guess="deny"]').click();
    await panel(page, 'opencode').locator('.pl-reveal').click();
    await page.locator('.pl-step-toggle').click();
    await page.locator('.pl-step-last').click();
    await row(page, 8).locator('.pl-down').click();
    if (name === 'phone-360') {
      const wide = await page.evaluate(() => [...document.querySelectorAll('.pl-widget *')]
        .filter((e) => e.getBoundingClientRect().right > innerWidth + 1 && !e.closest('.pl-scroll, .pl-table-wrap'))
        .map((e) => `${e.tagName}.${e.className}`).slice(0, 5));
      expect(wide, 'elements wider than the 360 px viewport').toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await page.evaluate(() => scrollTo(0, 0));
      await page.screenshot({ path: screenshotPath('phone-360-top') });
      await page.locator('.pl-table-wrap').screenshot({ path: screenshotPath('phone-360-table') });
    }
    await page.screenshot({ path: screenshotPath(name), fullPage: true });
    await ctx.close();
  }
});

// ---- performance ------------------------------------------------------------------------------

function bigLesson(nRules, nCalls) {
  const tools = ['bash', 'read_file', 'edit_file', 'write_file', 'grep'];
  const acts = ['allow', 'ask', 'deny'];
  const rules = Array.from({ length: nRules }, (_, i) => ({
    tool: tools[i % tools.length],
    pattern: i % 7 === 0 ? '*' : `cmd${i % 13} *`,
    action: acts[i % 3],
  }));
  const calls = Array.from({ length: nCalls }, (_, i) => `${tools[i % tools.length]}: cmd${i % 13} arg${i}`);
  return JSON.stringify({ rules, calls });
}

test('benchmark: reorder → updated verdicts on 200 rules × 40 calls', async ({ page, problems }) => {
  await open(page);
  await customTable(page, bigLesson(200, 40));
  await expect(rows(page)).toHaveCount(200);
  const times = [];
  const frames = [];
  // Keydown → the frame that shows it, as the browser's Event Timing reports it (durations of
  // 16 ms and more, in steps of 8 ms).
  await page.evaluate(() => {
    window.__keys = [];
    new PerformanceObserver((l) => window.__keys.push(...l.getEntries().filter((e) => e.name === 'keydown').map((e) => e.duration)))
      .observe({ type: 'event', durationThreshold: 16 });
  });
  for (let i = 0; i < 7; i++) {
    await page.evaluate(() => performance.clearMeasures());
    if (i % 2) await page.locator('.pl-reverse').click();
    else {
      await row(page, 1).locator('.pl-grip').focus();
      await page.keyboard.press(i % 4 ? 'Alt+ArrowUp' : 'Alt+ArrowDown');
    }
    await page.waitForFunction(() => performance.getEntriesByName('pl-reorder-frame').length > 0);
    times.push(await page.evaluate(() => performance.getEntriesByName('pl-reorder')[0].duration));
    frames.push(await page.evaluate(() => performance.getEntriesByName('pl-reorder-frame')[0].duration));
  }
  const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  const keys = await page.evaluate(() => window.__keys);
  console.log(`reorder → updated verdicts (200 rules × 40 calls × 5 engines): median ${med(times).toFixed(1)} ms (${times.map((t) => t.toFixed(1)).join(', ')}); to the next frame after the DOM update: median ${med(frames).toFixed(1)} ms; keydown → painted (Event Timing, ≥ 16 ms listed): ${keys.length ? `median ${med(keys)} ms of [${keys.join(', ')}]` : 'all under 16 ms'}`);
  expect(times.every((t) => t > 0)).toBe(true);
  expect(problems).toEqual([]);
});

test('typing one character in the call field re-runs only the regions that show the call', async ({ page, problems }) => {
  await open(page);
  const reads = () => page.evaluate(async () => (await import('./permlab.js')).regionReads());
  // Every region of the page's one widget ran once to show it.
  const mounted = await reads();
  const input = page.locator('.pl-call-input-text');
  await input.focus();
  await page.keyboard.press('End');
  const before = await reads();
  await page.keyboard.type('x');
  await expect(page.locator('.pl-call-now .pl-call-input')).toHaveText(/x$/);
  const typed = (await reads()) - before;
  console.log(`region reads: ${mounted} to show the widget, ${typed} for one typed character`);
  expect(typed).toBeGreaterThan(0);
  // The call's regions: its fields, the call line, the guess panels, the stepper, the
  // legend, the matrix, the disagreement box, the stored state. Not the rule table, the
  // toolbar, the reorder log, the heading, the editor, the import panel or the self-check.
  expect(typed).toBeLessThan(mounted * 0.6);
  expect(problems).toEqual([]);
});

test('a 10 000-row table is windowed: rows follow the scroll and the keyboard, a row is carried across rows not rendered', async ({ page, problems }) => {
  test.setTimeout(180_000);
  await open(page);
  await page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((l) => window.__long.push(...l.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
  });
  // Paste first (the textarea's own cost), then measure from "apply" on.
  await page.locator('.pl-editor summary').click();
  await page.locator('.pl-table-json').fill(bigLesson(10_000, 10));
  await page.evaluate(() => { window.__long = []; });
  const t0 = Date.now();
  await page.locator('.pl-apply').click();
  const table = page.locator('table.pl-table');
  await expect(table).toHaveAttribute('aria-rowcount', '10001', { timeout: 60_000 });
  const load = Date.now() - t0;
  // The longest task of applying and rendering the table (later steps, axe-core among them,
  // are not counted).
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  const longest = await page.evaluate(() => Math.max(0, ...window.__long));
  // The window follows the viewport: here at the editor, below the table; back to its top.
  await table.evaluate((t) => t.scrollIntoView({ block: 'start' }));
  await expect(row(page, 1)).toHaveAttribute('aria-rowindex', '2');
  // The caption says which rows are shown.
  await expect(page.locator('.pl-rows-shown')).toHaveText('显示第 1–120 行,共 10000 行;滚动或用 ↑/↓ 看其余的行');
  const rendered = page.locator('tbody.pl-rules tr[data-rule-id]');
  const count = await rendered.count();
  expect(count).toBeGreaterThan(20);
  expect(count).toBeLessThan(200);
  // The rows not rendered stand in a spacer as tall as they are (about the rendered rows' height).
  const [spacer, rowH] = await page.evaluate(() => {
    const s = document.querySelector('tbody.pl-rules tr.pl-spacer:last-child').getBoundingClientRect().height;
    const r = document.querySelector('tbody.pl-rules tr[data-rule-id="1"]').getBoundingClientRect().height;
    return [s, r];
  });
  expect(spacer).toBeGreaterThan((10_000 - 200) * rowH * 0.5);

  // One keyboard move: rule 1 to row 2.
  await page.evaluate(() => performance.clearMeasures());
  await row(page, 1).locator('.pl-grip').focus();
  await page.keyboard.press('Alt+ArrowDown');
  await expect(row(page, 1)).toHaveAttribute('data-position', '2');
  await expect(row(page, 1)).toHaveAttribute('aria-rowindex', '3');
  await page.waitForFunction(() => performance.getEntriesByName('pl-reorder-frame').length > 0);
  const reorder = await page.evaluate(() => performance.getEntriesByName('pl-reorder').at(-1)?.duration);
  const frameAfter = await page.evaluate(() => performance.getEntriesByName('pl-reorder-frame').at(-1)?.duration);

  // End and Home go to the table's last and first rows, rendered on the way.
  await page.keyboard.press('End');
  const focusedRow = () => page.evaluate(() => document.activeElement?.closest('tr')?.getAttribute('data-rule-id'));
  await expect.poll(focusedRow).toBe('10000');
  await expect(row(page, 10_000)).toHaveAttribute('aria-rowindex', '10001');
  await expect(row(page, 10_000)).toBeInViewport();
  await page.keyboard.press('Home');
  await expect.poll(focusedRow).toBe('2');
  await expect(row(page, 2)).toBeInViewport();

  // Carried by keyboard across rows that are not rendered: lift rule 1, ↓ 150 times, drop.
  await row(page, 1).locator('.pl-grip').focus();
  await page.keyboard.press('Space');
  await expect(row(page, 1)).toHaveClass(/pl-lifted/);
  for (let i = 0; i < 150; i++) await page.keyboard.press('ArrowDown');
  // The drop mark is on row 152, rendered and in view, while the lifted row keeps the focus.
  const target = page.locator('tbody.pl-rules tr[data-position="152"]');
  await expect(target).toHaveClass(/pl-drop-below/);
  await expect(target).toBeInViewport();
  await expect.poll(focusedRow).toBe('1');
  await page.keyboard.press('Space');
  await expect(row(page, 1)).toHaveAttribute('data-position', '152');
  await expect.poll(focusedRow).toBe('1');
  await expect(row(page, 1)).toBeInViewport();

  // Scrolled to the bottom, the last rows are rendered; back at the top, the first.
  await page.evaluate(() => document.querySelector('tbody.pl-rules').lastElementChild.scrollIntoView({ block: 'end' }));
  await expect(page.locator('tbody.pl-rules tr[data-position="10000"]')).toBeInViewport();
  await page.evaluate(() => document.querySelector('table.pl-table').scrollIntoView({ block: 'start' }));
  await expect(page.locator('tbody.pl-rules tr[data-position="1"]')).toBeInViewport();

  // In the middle of the table, a mouse drag lands by the rows' positions: a row dragged
  // below the third row under it takes that row's place.
  await page.evaluate(() => {
    const tb = document.querySelector('tbody.pl-rules');
    const h = document.querySelector('tbody.pl-rules tr[data-rule-id]').getBoundingClientRect().height;
    window.scrollBy(0, tb.getBoundingClientRect().top + 5_000 * h);
  });
  await expect(page.locator('tbody.pl-rules tr[data-position="5000"]')).toBeAttached();
  // Stripes follow the rows' positions, wherever the window starts.
  await expect(page.locator('tbody.pl-rules tr[data-position="5000"]')).toHaveClass(/pl-alt/);
  await expect(page.locator('tbody.pl-rules tr[data-position="5001"]')).not.toHaveClass(/pl-alt/);
  const picked = await page.evaluate(() => {
    const r = [...document.querySelectorAll('tbody.pl-rules tr[data-position]')].find((r) => r.getBoundingClientRect().top > 120);
    return { id: r.dataset.ruleId, pos: Number(r.dataset.position) };
  });
  expect(picked.pos).toBeGreaterThan(4_000);
  // The windowed table (spacers, aria-rowcount/rowindex, a pinned row) passes axe-core.
  const violations = (await new AxeBuilder({ page }).include('table.pl-table').analyze()).violations
    .map((v) => `${v.id}: ${v.nodes.length} × ${v.nodes[0]?.target}`);
  expect(violations).toEqual([]);
  await page.screenshot({ path: screenshotPath('table-10000-middle') });
  await expect(page.locator('.pl-rows-shown')).not.toContainText('第 1–120 行');
  const below = page.locator(`tbody.pl-rules tr[data-position="${picked.pos + 3}"]`);
  const g = await row(page, picked.id).locator('.pl-grip').boundingBox();
  const b = await below.boundingBox();
  await page.mouse.move(g.x + g.width / 2, g.y + g.height / 2);
  await page.mouse.down();
  await page.mouse.move(g.x + g.width / 2, g.y + 20, { steps: 3 });
  await page.mouse.move(g.x + g.width / 2, b.y + b.height - 2, { steps: 5 });
  await expect(below).toHaveClass(/pl-drop-below/);
  await page.mouse.up();
  await expect(row(page, picked.id)).toHaveAttribute('data-position', String(picked.pos + 3));
  // The same by touch (hold, then move): the row under the picked one's old place goes two
  // rows down.
  const touched = await page.evaluate(async () => {
    const from = [...document.querySelectorAll('tbody.pl-rules tr[data-position]')].find((r) => r.getBoundingClientRect().top > 120);
    const pos = Number(from.dataset.position);
    const target = document.querySelector(`tbody.pl-rules tr[data-position="${pos + 2}"]`).getBoundingClientRect();
    const grip = from.querySelector('.pl-grip');
    const g = grip.getBoundingClientRect();
    const opts = (y) => ({ bubbles: true, cancelable: true, pointerId: 9, pointerType: 'touch', isPrimary: true, button: 0, buttons: 1, clientX: g.x + 4, clientY: y });
    grip.dispatchEvent(new PointerEvent('pointerdown', opts(g.y + 4)));
    await new Promise((r) => setTimeout(r, 300));
    for (const f of [0.3, 0.6, 1]) {
      grip.dispatchEvent(new PointerEvent('pointermove', opts(g.y + 4 + (target.bottom - 2 - g.y - 4) * f)));
      await new Promise((r) => requestAnimationFrame(r));
    }
    grip.dispatchEvent(new PointerEvent('pointerup', { ...opts(target.bottom - 2), buttons: 0 }));
    return { id: from.dataset.ruleId, pos };
  });
  await expect(row(page, touched.id)).toHaveAttribute('data-position', String(touched.pos + 2));

  // Last (printing lays the page out anew, and the window follows): on paper the spacers take no room (the rows shown are printed, the caption says which).
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('tbody.pl-rules tr.pl-spacer').first()).toBeHidden();
  await expect(page.locator('.pl-rows-shown')).toBeVisible();
  await page.emulateMedia({ media: 'screen' });

  // The page still answers input (a long task would block this round trip).
  const t2 = Date.now();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
  const frame = Date.now() - t2;
  console.log(`10 000 rows (windowed, ${count} rendered): load+render ${load} ms (longest task ${longest.toFixed(0)} ms), one keyboard move: verdicts ${reorder?.toFixed(1)} ms, to the next frame ${frameAfter?.toFixed(1)} ms; next frame ${frame} ms`);
  // Timings are benchmark figures (printed above), not assertions: a loaded machine must not
  // fail the suite. What is asserted is the state.
  expect(problems).toEqual([]);
});
