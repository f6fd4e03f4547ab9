import { test, expect, screenshotPath } from './fixtures.mjs';

const MINIAGENT = [
  ['read_file', '*', '放行'],
  ['list_dir', '*', '放行'],
  ['grep', '*', '放行'],
  ['edit_file', '*', '放行'],
  ['write_file', '*', '放行'],
  ['edit_file', 'test_*', '拒绝'],
  ['write_file', 'test_*', '拒绝'],
  ['bash', '*', '拒绝'],
  ['bash', 'python -m unittest*', '放行'],
  ['bash', 'python3 -m unittest*', '放行'],
];

test('the page loads without errors and shows the 10 miniagent rules in order', async ({ page, problems }) => {
  await page.goto('./');
  const rows = page.locator('.pl-rule');
  await expect(rows).toHaveCount(10);
  for (let i = 0; i < MINIAGENT.length; i++) {
    const row = rows.nth(i);
    const [tool, pattern, action] = MINIAGENT[i];
    await expect(row).toHaveAttribute('data-position', String(i + 1));
    await expect(row).toHaveAttribute('data-rule-id', String(i + 1));
    await expect(row.locator('.pl-tool')).toHaveText(tool);
    await expect(row.locator('.pl-pattern')).toHaveText(pattern);
    await expect(row.locator('.pl-action')).toHaveText(action);
  }
  await expect(page.locator('.pl-call-tool')).toHaveText('bash');
  await expect(page.locator('.pl-call-input')).toHaveText('python -m unittest -v test_dateparse.py');
  await page.screenshot({ path: screenshotPath('foundation-desktop'), fullPage: true });
  expect(problems).toEqual([]);
});
