// The seed test: both "试三件事" sequences of seed 000, followed word for word (the words
// are quoted above each step), at 1280×900 by mouse and on a 390×844 phone by tap, in zh and en.
// At every step nothing on screen or in the accessibility tree gives away a verdict the learner
// has not revealed (expectNoLeak).
//
// Sequence 1 (the first widget, the seed's miniagent table; here `/` and the demo lesson "naive"):
//   试三件事:① 先猜 first-match 与 last-match 各给什么,再点「揭示」;② 点「▶ 逐步看求值光标」:
//   first-match 从 #1 往下走、last-match 从 #10 往上走,各自停在哪一行;③ 把 #8 拖到最后一行(或点它的
//   ↓ 两次,每次挪一格),看「重排记录」里谁改了判。
// Sequence 2 (the second widget, git and aws tables; the demo lesson "core"):
//   试三件事:① 默认规则集下先猜再揭示:[拒绝 git push *, 允许 git *] 对 git push origin main,Claude
//   Code 与 OpenCode 各给什么;② 点「整表倒序」,看「重排记录」:只有 OpenCode 改判,Claude Code 不动,
//   CoreCoder 从头到尾没看规则;③ 切到「Claude Code 文档里的 aws 例子」,再倒序一次,看下方黄框里「最后
//   一条命中的动作」和「优先级最高的动作」什么时候相同、什么时候不同。
import { test, expect, screenshotPath } from './fixtures.mjs';
import { rowOf, panelOf, orderOf, demoWidget, indexWidget, expectNoLeak } from './reveal-helpers.mjs';

const desktop = { viewport: { width: 1280, height: 900 } };
const phone = { hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } };

const WORDS = {
  zh: {
    toggle: '▶ 逐步看求值光标', stop: /停$/, fmFlip: 'first-match: 拒绝 → 放行', ocFlip: 'OpenCode: 放行 → 拒绝', ocHide: 'OpenCode: 放行 → 工具不可用', ocHideNext: 'OpenCode: 拒绝 → 工具不可用',
    ocFlipBack: 'OpenCode: 放行 → 拒绝', ccSame: 'Claude Code 不变', ccoder: 'CoreCoder 不读规则', aws: 'Claude Code 文档里的 aws 例子',
    seed2: '只有 OpenCode 改判,Claude Code 不动', only: ['只有', '改判'],
  },
  en: {
    toggle: '▶ Step through the evaluation cursors', stop: /stop$/, fmFlip: 'first-match: deny → allow', ocFlip: 'OpenCode: allow → deny', ocHide: 'OpenCode: allow → tool unavailable', ocHideNext: 'OpenCode: deny → tool unavailable',
    ocFlipBack: 'OpenCode: allow → deny', ccSame: 'Claude Code unchanged', ccoder: 'CoreCoder ignores rules', aws: 'The aws example from the Claude Code docs',
    seed2: 'only OpenCode', only: ['only ', ' change'],
  },
};

/** A click by the input the run uses: the mouse, or a finger. */
async function press(locator, touch) {
  if (touch) await locator.tap();
  else await locator.click();
}

async function guessThenReveal(w, slug, guess, touch, where) {
  const p = panelOf(w, slug);
  await press(p.locator(`.pl-guess-btn[data-guess="${guess}"]`), touch);
  await expectNoLeak(w, `${where}: ${slug} guessed, not revealed`);
  await press(p.locator('.pl-reveal'), touch);
  await expect(p).toHaveAttribute('data-verdict', /.+/);
  await expectNoLeak(w, `${where}: ${slug} revealed`);
}

/** Sequence 1 on widget `w`. `move` is how ③ moves #8: 'drag', or ↓ twice at one spot. */
async function sequence1(page, w, { lang, touch, move, name }) {
  const t = WORDS[lang];
  await expectNoLeak(w, 'on load');
  // ① 先猜 first-match 与 last-match 各给什么,再点「揭示」
  await guessThenReveal(w, 'first-match', 'allow', touch, '①');
  await guessThenReveal(w, 'opencode', 'allow', touch, '①');
  await expect(panelOf(w, 'first-match')).toHaveAttribute('data-verdict', 'deny');
  await expect(panelOf(w, 'opencode')).toHaveAttribute('data-verdict', 'allow');
  // ② 点「▶ 逐步看求值光标」: first-match 从 #1 往下走、last-match 从 #10 往上走,各自停在哪一行
  await expect(w.locator('.pl-step-toggle')).toHaveText(t.toggle);
  await press(w.locator('.pl-step-toggle'), touch);
  await expect(rowOf(w, 1)).toHaveAttribute('data-cursor', /first-match/);
  await expect(rowOf(w, 10)).toHaveAttribute('data-cursor', /opencode/);
  await expectNoLeak(w, '② step 1');
  const fm = w.locator('.pl-step-line[data-engine-step="first-match"] .pl-step-text');
  const oc = w.locator('.pl-step-line[data-engine-step="opencode"] .pl-step-text');
  const fmRows = [];
  for (let k = 1; k <= 12; k++) {
    fmRows.push(Number(await w.locator('tbody.pl-rules tr[data-cursor~="first-match"]').getAttribute('data-rule-id')));
    const done = t.stop.test(await fm.innerText()) && t.stop.test(await oc.innerText());
    if (done) break;
    const count = await w.locator('.pl-step-count').innerText();
    await press(w.locator('.pl-step-next'), touch);
    await expect(w.locator('.pl-step-count')).not.toHaveText(count);
    await expectNoLeak(w, `② step ${k + 1}`);
  }
  // first-match walked down from #1 and stops at #8; last-match walked up from #10 and stops at #9.
  expect(fmRows).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  await expect(rowOf(w, 8)).toHaveAttribute('data-cursor', /first-match/);
  await expect(rowOf(w, 9)).toHaveAttribute('data-cursor', /opencode/);
  await expect(fm).toContainText(/^#8 bash \*/);
  await expect(oc).toContainText(/^#9 bash python -m unittest\*/);
  await w.screenshot({ path: screenshotPath(`seed000-${name}-2-stepper`) });
  // ③ 把 #8 拖到最后一行(或点它的 ↓ 两次,每次挪一格),看「重排记录」里谁改了判
  if (move === 'drag') {
    const g = await rowOf(w, 8).locator('.pl-grip').boundingBox();
    const last = await rowOf(w, 10).boundingBox();
    await page.mouse.move(g.x + g.width / 2, g.y + g.height / 2);
    await page.mouse.down();
    await page.mouse.move(g.x + g.width / 2, last.y + last.height * 0.9, { steps: 10 });
    await page.mouse.up();
    await expect(rowOf(w, 8)).toHaveAttribute('data-position', '10');
  } else {
    const down = rowOf(w, 8).locator('.pl-down');
    await down.scrollIntoViewIfNeeded();
    const b = await down.boundingBox();
    const [x, y] = [b.x + b.width / 2, b.y + b.height / 2];
    for (const to of ['9', '10']) {
      if (touch) await page.touchscreen.tap(x, y);
      else await page.mouse.click(x, y);
      await expect(rowOf(w, 8)).toHaveAttribute('data-position', to);
      await expect.poll(async () => {
        const n = await down.boundingBox();
        return Math.abs(n.y + n.height / 2 - y) < 2;
      }).toBe(true);
      await expectNoLeak(w, `③ #8 at ${to}`);
    }
  }
  expect(await orderOf(w)).toEqual([1, 2, 3, 4, 5, 6, 7, 9, 10, 8]);
  // Who changed: first-match and last-match, both flipped by #8's first step down.
  const first = w.locator('.pl-log-entry').first();
  await expect(first).toContainText('#8');
  await expect(first).toContainText(t.fmFlip);
  // ↓ once: OpenCode's last match becomes #8 (deny). A drag straight to the last row makes #8
  // `bash *` deny the last bash row: OpenCode then hides the bash tool altogether.
  await expect(first).toContainText(move === 'drag' ? t.ocHide : t.ocFlip);
  // The second step changes OpenCode again (deny → tool unavailable): revealed in ①, it stays
  // revealed, and the log and its card say the same.
  if (move !== 'drag') {
    await expect(w.locator('.pl-log-entry').nth(1)).toContainText(t.ocHideNext);
    await expect(panelOf(w, 'opencode')).toHaveAttribute('data-verdict', 'unavailable');
  }
  await expectNoLeak(w, '③ moved');
  await w.screenshot({ path: screenshotPath(`seed000-${name}-3-moved`) });
}

/** Sequence 2 on the demo lesson "core" (Claude Code, OpenCode, CoreCoder). */
async function sequence2(page, w, { lang, touch, name }) {
  const t = WORDS[lang];
  await expectNoLeak(w, 'on load');
  // ① 默认规则集下先猜再揭示:[拒绝 git push *, 允许 git *] 对 git push origin main,Claude Code 与 OpenCode 各给什么
  await expect(w.locator('.pl-preset[aria-pressed="true"]')).toHaveAttribute('data-preset', 'l-git');
  await expect(w.locator('.pl-call-input')).toHaveText('git push origin main');
  await guessThenReveal(w, 'claude-code', 'deny', touch, '①');
  await guessThenReveal(w, 'opencode', 'deny', touch, '①');
  await expect(panelOf(w, 'claude-code')).toHaveAttribute('data-verdict', 'deny');
  await expect(panelOf(w, 'opencode')).toHaveAttribute('data-verdict', 'allow');
  // ② 点「整表倒序」,看「重排记录」:只有 OpenCode 改判,Claude Code 不动,CoreCoder 从头到尾没看规则
  await page.evaluate((id) => {
    window.__flips = [];
    document.getElementById(id).addEventListener('permlab:reorder', (e) => window.__flips.push(e.detail.flipped));
  }, 'core');
  await press(w.locator('.pl-reverse'), touch);
  const entry = w.locator('.pl-log-entry').last();
  await expect(entry).toContainText(t.ocFlip);
  await expect(entry).toContainText(t.ccSame);
  await expect(entry).toContainText(t.ccoder);
  // The seed's claim, checked against the engines this widget shows (computed, not assumed).
  expect(await page.evaluate(() => window.__flips[0])).toEqual(['opencode']);
  // The lesson's own task (the widget shows it next to the table; the page's static copy of it
  // is the placeholder's fallback and went aside when the widget mounted).
  await expect(page.locator('#core aside.course-try')).toHaveCount(0);
  const aside = await w.locator('.pl-task[data-task="1"] .pl-task-text').innerText();
  const clause = aside.split(t.only[0])[1].split(t.only[1])[0];
  const names = ['Claude Code', 'OpenCode', 'CoreCoder'].filter((n) => clause.includes(n));
  expect(names).toEqual(['OpenCode']);
  await expectNoLeak(w, '② reversed');
  // ③ 切到「Claude Code 文档里的 aws 例子」,再倒序一次,看下方黄框里「最后一条命中的动作」和「优先级最高的动作」什么时候相同、什么时候不同
  const aws = w.locator('.pl-preset[data-preset="l-aws"]');
  await expect(aws).toHaveText(t.aws);
  await press(aws, touch);
  await press(w.locator('.pl-reverse'), touch);
  const box = w.locator('.pl-disagree');
  await box.scrollIntoViewIfNeeded();
  await expect(box.locator('.pl-disagree-locked')).toBeVisible();
  await expectNoLeak(w, '③ aws reversed');
  // The box says what to do first: guess and reveal the two, on this order.
  await guessThenReveal(w, 'opencode', 'deny', touch, '③ reversed');
  await guessThenReveal(w, 'claude-code', 'deny', touch, '③ reversed');
  await expect(box.locator('.pl-disagree-list')).toHaveAttribute('data-differ', 'false');
  await w.screenshot({ path: screenshotPath(`seed000-${name}-3-same`) });
  // And when they differ: the lesson's order again. Both stay revealed, so the box follows.
  await press(w.locator('.pl-reverse'), touch);
  await expect(box.locator('.pl-disagree-locked')).toHaveCount(0);
  await expect(box.locator('.pl-disagree-list')).toHaveAttribute('data-differ', 'true');
  await expectNoLeak(w, '③ aws back');
  await w.screenshot({ path: screenshotPath(`seed000-${name}-3-differ`) });
}

test.describe('1280×900, mouse', () => {
  test.use(desktop);
  test('sequence 1 on / (zh): guess, step, drag #8 to the last row', async ({ page, problems }) => {
    const w = await indexWidget(page);
    await sequence1(page, w, { lang: 'zh', touch: false, move: 'drag', name: 'index-zh' });
    expect(problems).toEqual([]);
  });
  test('sequence 1 on the zh lesson: ↓ twice by mouse', async ({ page, problems }) => {
    const w = await demoWidget(page, 'zh', 'naive');
    await sequence1(page, w, { lang: 'zh', touch: false, move: 'down', name: 'naive-zh' });
    expect(problems).toEqual([]);
  });
  test('sequence 1 on the en lesson: ↓ twice by mouse', async ({ page, problems }) => {
    const w = await demoWidget(page, 'en', 'naive');
    await sequence1(page, w, { lang: 'en', touch: false, move: 'down', name: 'naive-en' });
    expect(problems).toEqual([]);
  });
  test('sequence 2 on the zh lesson', async ({ page, problems }) => {
    const w = await demoWidget(page, 'zh', 'core');
    await sequence2(page, w, { lang: 'zh', touch: false, name: 'core-zh' });
    expect(problems).toEqual([]);
  });
});

test.describe('390×844 phone, tap', () => {
  test.use(phone);
  test('sequence 1 on the zh lesson: ↓ twice by tap', async ({ page, problems }) => {
    const w = await demoWidget(page, 'zh', 'naive');
    await sequence1(page, w, { lang: 'zh', touch: true, move: 'down', name: 'naive-zh-phone' });
    expect(problems).toEqual([]);
  });
  test('sequence 2 on the en lesson by tap', async ({ page, problems }) => {
    const w = await demoWidget(page, 'en', 'core');
    await sequence2(page, w, { lang: 'en', touch: true, name: 'core-en-phone' });
    expect(problems).toEqual([]);
  });
});
