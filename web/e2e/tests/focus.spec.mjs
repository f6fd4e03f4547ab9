// Focus never drops to the page: a button that disables itself (the last Undo, the reset to
// the lesson's order) hands it to the reverse button beside it; the timeline's stage buttons
// are a roving group (←/→/Home/End move the stage and the focus together).
import { test, expect } from './fixtures.mjs';
import { indexWidget, rowOf } from './reveal-helpers.mjs';

const activeClass = (page) => page.evaluate(() => document.activeElement?.className ?? '');

test('zh /: after "back to the lesson order" and after the last undo, focus is on the reverse button', async ({ page, problems }) => {
  const w = await indexWidget(page);
  await rowOf(w, 1).locator('.pl-down').click();
  await expect(rowOf(w, 1)).toHaveAttribute('data-position', '2');
  await w.locator('.pl-reset').click();
  await expect(rowOf(w, 1)).toHaveAttribute('data-position', '1');
  await expect(w.locator('.pl-reset')).toBeDisabled();
  await expect(w.locator('.pl-reverse')).toBeFocused();
  // A fresh widget (the reset above is itself undoable): two moves, two undos by keyboard;
  // the second leaves nothing to undo.
  await page.evaluate(() => sessionStorage.clear());
  await page.reload();
  await expect(w.locator('tbody.pl-rules tr').first()).toBeVisible();
  await expect(w.locator('.pl-undo')).toBeDisabled();
  await rowOf(w, 1).locator('.pl-down').click();
  await rowOf(w, 1).locator('.pl-down').click();
  await expect(rowOf(w, 1)).toHaveAttribute('data-position', '3');
  await w.locator('.pl-undo').focus();
  await page.keyboard.press('Enter');
  await expect(rowOf(w, 1)).toHaveAttribute('data-position', '2');
  await expect(w.locator('.pl-undo')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(rowOf(w, 1)).toHaveAttribute('data-position', '1');
  await expect(w.locator('.pl-undo')).toBeDisabled();
  await expect(w.locator('.pl-reverse')).toBeFocused();
  expect(await activeClass(page)).not.toBe('');
  expect(problems).toEqual([]);
});

test('timeline: ←/→/End move the stage and the focus to its button', async ({ page, problems }) => {
  await page.goto('./demo/scenes.html');
  const s = page.locator('#timeline');
  await s.scrollIntoViewIfNeeded();
  const stages = s.locator('.pl-tl-stage');
  await expect(stages.first()).toBeVisible();
  const n = await stages.count();
  await stages.first().focus();
  await page.keyboard.press('ArrowRight');
  await expect(stages.nth(1)).toHaveAttribute('aria-current', 'step');
  await expect(stages.nth(1)).toBeFocused();
  await page.keyboard.press('End');
  await expect(stages.nth(n - 1)).toHaveAttribute('aria-current', 'step');
  await expect(stages.nth(n - 1)).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(stages.nth(n - 2)).toBeFocused();
  await page.keyboard.press('Home');
  await expect(stages.first()).toBeFocused();
  await expect(stages.first()).toHaveAttribute('aria-current', 'step');
  expect(problems).toEqual([]);
});
