// What a learner did stays done: the lesson's ticked tasks survive a reload (whatever the last
// action was), and a reorder never takes back a verdict already revealed.
import { test, expect } from './fixtures.mjs';
import { demoWidget, guessAndReveal, panelOf, rowOf, orderOf } from './reveal-helpers.mjs';

for (const lang of ['zh', 'en']) {
  test(`${lang}: seed 000's three tasks done, the last one a move, are still 3/3 after a reload`, async ({ page, problems }) => {
    const w = await demoWidget(page, lang, 'naive');
    const count = w.locator('.pl-tasks-count');
    await expect(count).toHaveText(/^0\/3/);
    // ① guess, then reveal both.
    await guessAndReveal(w, 'first-match', 'deny');
    await guessAndReveal(w, 'opencode', 'allow');
    // ② the stepper to its last step.
    await w.locator('.pl-step-toggle').click();
    await w.locator('.pl-step-last').click();
    // ③ #8 to the last row, one ↓ at a time: the last action is a move.
    await rowOf(w, 8).locator('.pl-down').click();
    await expect(rowOf(w, 8)).toHaveAttribute('data-position', '9');
    await rowOf(w, 8).locator('.pl-down').click();
    await expect(rowOf(w, 8)).toHaveAttribute('data-position', '10');
    await expect(count).toHaveText(/^3\/3/);
    await expect(w.locator('.pl-task[data-done="true"]')).toHaveCount(3);
    // Both verdicts stay revealed through the moves: the log and the cards agree.
    await expect(panelOf(w, 'first-match')).toHaveAttribute('data-verdict', /.+/);
    await expect(panelOf(w, 'opencode')).toHaveAttribute('data-verdict', /.+/);

    await page.reload();
    await page.locator('#naive').scrollIntoViewIfNeeded();
    await expect(w.locator('tbody.pl-rules tr')).toHaveCount(10);
    expect((await orderOf(w)).at(-1)).toBe(8);
    await expect(count).toHaveText(/^3\/3/);
    await expect(w.locator('.pl-task[data-done="true"]')).toHaveCount(3);
    // Moving #8 back up does not undo "moved #8 to the end", after the reload either.
    await rowOf(w, 8).locator('.pl-up').click();
    await expect(rowOf(w, 8)).toHaveAttribute('data-position', '9');
    await expect(count).toHaveText(/^3\/3/);
    expect(problems).toEqual([]);
  });
}

test('zh: after an import the lesson\'s question and tasks step aside; back on the lesson\'s preset they return', async ({ page, problems }) => {
  const w = await demoWidget(page, 'zh', 'core');
  await expect(w.locator('.pl-question')).toBeVisible();
  await expect(w.locator('.pl-tasks')).toBeVisible();
  await w.locator('details.pl-more > summary').click();
  await w.locator('.pl-import summary').click();
  await w.locator('.pl-import-text').fill('{"permissions": {"allow": ["Bash(npm test *)"], "deny": ["Bash(curl *)"]}}');
  await w.locator('.pl-import-button').click();
  await expect(w.locator('.pl-import-summary')).toBeVisible();
  await expect(w.locator('.pl-question')).toHaveCount(0);
  await expect(w.locator('.pl-tasks')).toHaveCount(0);
  await w.locator('.pl-preset[data-preset="l-git"]').click();
  await expect(w.locator('.pl-question')).toContainText('git push origin main');
  await expect(w.locator('.pl-tasks')).toBeVisible();
  expect(problems).toEqual([]);
});
