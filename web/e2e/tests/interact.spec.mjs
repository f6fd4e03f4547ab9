// Per-preset questions, keyboard focus and one Tab stop per table, the lesson's tasks next to
// the table, the "more" menu, pills and markers with a legend, print. Each test runs on the demo course pages in zh and en.
import { test, expect, screenshotPath } from './fixtures.mjs';

const T = {
  zh: {
    page: './demo/zh.html',
    gitQ: '听谁的', awsQ: 'aws s3 ls 同时命中', aws: 'Claude Code 文档里的 aws 例子',
    step: (k) => `第 ${k} 步`, cursor: '光标', decided: '决定裁决的规则', more: '更多',
  },
  en: {
    page: './demo/en.html',
    gitQ: 'which one wins', awsQ: 'aws s3 ls matches both', aws: 'The aws example from the Claude Code docs',
    step: (k) => `Step ${k}`, cursor: 'cursor', decided: 'the rule that decided', more: 'More',
  },
};

const rows = (w) => w.locator('tbody.pl-rules tr');
const row = (w, id) => w.locator(`tbody.pl-rules tr[data-rule-id="${id}"]`);
const panel = (w, slug) => w.locator(`.pl-engine[data-engine="${slug}"]`);

/// The widget in placeholder `#id`, mounted.
async function widget(page, id) {
  const host = page.locator(`#${id}`);
  await host.scrollIntoViewIfNeeded();
  await expect(host).toHaveAttribute('data-permlab-state', 'mounted');
  const w = host.locator('section.pl-widget');
  await expect(rows(w).first()).toBeVisible();
  return w;
}

async function skipReveal(w, slug) {
  const p = panel(w, slug);
  await p.locator('.pl-skip').click();
  await p.locator('.pl-reveal').click();
  await expect(p).toHaveAttribute('data-verdict', /.+/);
}

const focused = (page) => page.evaluate(() => {
  const a = document.activeElement;
  return a ? `${a.tagName.toLowerCase()}.${[...a.classList].join('.')}` : '';
});

for (const lang of ['zh', 'en']) {
  const t = T[lang];

  // ---- 6. per-preset question; a switch clears stale status --------------------------------

  test(`each preset asks its own question; switching clears the status line (${lang})`, async ({ page, problems }) => {
    await page.goto(t.page);
    const w = await widget(page, 'core');
    await expect(w.locator('.pl-question')).toContainText(t.gitQ);
    await w.locator('.pl-reverse').click();
    await expect(w.locator('.pl-announce')).not.toHaveText('');
    await w.locator('.pl-preset', { hasText: t.aws }).click();
    await expect(w.locator('.pl-question')).toContainText(t.awsQ);
    await expect(w.locator('.pl-question')).not.toContainText('git push');
    // The git preset's "reverse … allow → deny" line is gone: it says nothing about this table.
    await expect(w.locator('.pl-announce')).toHaveText('');
    await page.screenshot({ path: screenshotPath(`interact-6-aws-${lang}`) });
    expect(problems).toEqual([]);
  });

  // ---- 8. keyboard: focus kept, one Tab stop per table, arrows inside ----------------------

  test(`focus stays on the control after 揭示 and after opening the matrix summary (${lang})`, async ({ page, problems }) => {
    await page.goto(t.page);
    const w = await widget(page, 'naive');
    const p = panel(w, 'first-match');
    await p.locator('.pl-skip').click();
    await p.locator('.pl-reveal').focus();
    await page.keyboard.press('Enter');
    await expect(p).toHaveAttribute('data-verdict', /.+/);
    // The button is gone; focus is on the verdict it revealed, not on <body>.
    await expect(p.locator('.pl-result')).toBeFocused();
    await w.locator('details.pl-more > summary').focus();
    await page.keyboard.press('Enter');
    await expect(w.locator('details.pl-more')).toHaveAttribute('open', '');
    await expect(w.locator('details.pl-more > summary')).toBeFocused();
    const summary = w.locator('details.pl-matrix-box > summary');
    await summary.focus();
    await page.keyboard.press('Enter');
    await expect(w.locator('details.pl-matrix-box')).toHaveAttribute('open', '');
    await expect(summary).toBeFocused();
    expect(await focused(page)).not.toBe('body.');
    expect(problems).toEqual([]);
  });

  test(`one Tab stop per rule table; arrows, Home and End move inside it (${lang})`, async ({ page, problems }) => {
    await page.goto(t.page);
    const w = await widget(page, 'naive');
    const tbody = w.locator('tbody.pl-rules');
    await expect(tbody.locator('[tabindex="0"]')).toHaveCount(1);
    // 10 rows × 3 controls, one of them in the Tab order.
    expect(await tbody.locator('button:not([tabindex="-1"])').count()).toBe(1);
    await w.locator('.pl-reverse').focus();
    await page.keyboard.press('Tab'); // → copy as JSON … until the table
    let guard = 0;
    while (!(await tbody.evaluate((b) => b.contains(document.activeElement))) && guard++ < 10) await page.keyboard.press('Tab');
    await expect(row(w, 1).locator('.pl-grip')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(row(w, 2).locator('.pl-grip')).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(row(w, 2).locator('.pl-up')).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(row(w, 2).locator('.pl-down')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(row(w, 3).locator('.pl-down')).toBeFocused();
    await page.keyboard.press('End');
    // The last row's ↓ is disabled: its grip takes the focus.
    await expect(row(w, 10).locator('.pl-grip')).toBeFocused();
    await page.keyboard.press('Home');
    await expect(row(w, 1).locator('.pl-grip')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    // One Tab leaves the table; Shift+Tab comes back to the control used last.
    await page.keyboard.press('Tab');
    expect(await tbody.evaluate((b) => b.contains(document.activeElement))).toBe(false);
    await page.keyboard.press('Shift+Tab');
    await expect(row(w, 2).locator('.pl-grip')).toBeFocused();
    // The existing moves still work: Space lifts, ↓ carries, Space drops; Alt+↑ moves at once.
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    await expect(row(w, 2)).toHaveAttribute('data-position', '3');
    await expect(row(w, 2).locator('.pl-grip')).toBeFocused();
    await page.keyboard.press('Alt+ArrowUp');
    await expect(row(w, 2)).toHaveAttribute('data-position', '2');
    await expect(tbody.locator('[tabindex="0"]')).toHaveCount(1);
    expect(problems).toEqual([]);
  });

  test(`←/→ step the stepper when its toggle has focus (${lang})`, async ({ page, problems }) => {
    await page.goto(t.page);
    const w = await widget(page, 'naive');
    const toggle = w.locator('.pl-step-toggle');
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(w.locator('.pl-step-count')).toContainText(t.step(1));
    await expect(toggle).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(w.locator('.pl-step-count')).toContainText(t.step(2));
    await page.keyboard.press('ArrowLeft');
    await expect(w.locator('.pl-step-count')).toContainText(t.step(1));
    await expect(toggle).toBeFocused();
    expect(problems).toEqual([]);
  });

  // ---- 10. tasks next to the table, ticked off; the "more" menu ----------------------------

  test(`the seed's tasks sit next to the table and tick off as they are done (${lang})`, async ({ page, problems }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(t.page);
    const w = await widget(page, 'naive');
    const tasks = w.locator('.pl-task');
    await expect(tasks).toHaveCount(3);
    await expect(w.locator('.pl-task[data-done="true"]')).toHaveCount(0);
    // Next to the table: it starts within a screen of the table's top.
    const tb = await w.locator('table.pl-table').boundingBox();
    const kb = await w.locator('.pl-tasks').boundingBox();
    expect(Math.abs(kb.y - tb.y)).toBeLessThan(300);
    await page.screenshot({ path: screenshotPath(`interact-10-tasks-${lang}`) });
    // ① guess, then reveal both
    await skipReveal(w, 'first-match');
    await expect(tasks.nth(0)).toHaveAttribute('data-done', 'false');
    await skipReveal(w, 'opencode');
    await expect(tasks.nth(0)).toHaveAttribute('data-done', 'true');
    // ② the stepper to its last step
    await w.locator('.pl-step-toggle').click();
    await expect(tasks.nth(1)).toHaveAttribute('data-done', 'false');
    await w.locator('.pl-step-last').click();
    await expect(tasks.nth(1)).toHaveAttribute('data-done', 'true');
    // ③ #8 to the last row: its ↓ twice
    await row(w, 8).locator('.pl-down').click();
    await expect(tasks.nth(2)).toHaveAttribute('data-done', 'false');
    await row(w, 8).locator('.pl-down').click();
    await expect(row(w, 8)).toHaveAttribute('data-position', '10');
    await expect(tasks.nth(2)).toHaveAttribute('data-done', 'true');
    await expect(w.locator('.pl-tasks-count')).toContainText('3/3');
    await page.screenshot({ path: screenshotPath(`interact-10-tasks-done-${lang}`) });
    // The second widget's three tasks: reveal two, reverse, reverse the aws preset.
    const c = await widget(page, 'core');
    await expect(c.locator('.pl-task')).toHaveCount(3);
    await skipReveal(c, 'claude-code');
    await skipReveal(c, 'opencode');
    await expect(c.locator('.pl-task').nth(0)).toHaveAttribute('data-done', 'true');
    await c.locator('.pl-reverse').click();
    await expect(c.locator('.pl-task').nth(1)).toHaveAttribute('data-done', 'true');
    await expect(c.locator('.pl-task').nth(2)).toHaveAttribute('data-done', 'false');
    await c.locator('.pl-preset', { hasText: t.aws }).click();
    await c.locator('.pl-reverse').click();
    // Reversed, but the yellow box is still locked: the task asks to read it, so not yet.
    await expect(c.locator('.pl-log-entry')).not.toHaveCount(0);
    await expect(c.locator('.pl-task').nth(2)).toHaveAttribute('data-done', 'false');
    await skipReveal(c, 'claude-code');
    await expect(c.locator('.pl-task').nth(2)).toHaveAttribute('data-done', 'false');
    await skipReveal(c, 'opencode');
    await expect(c.locator('.pl-task').nth(2)).toHaveAttribute('data-done', 'true');
    expect(problems).toEqual([]);
  });

  test(`secondary panels are folded into one "more" menu in a lesson (${lang})`, async ({ page, problems }) => {
    await page.goto(t.page);
    const w = await widget(page, 'naive');
    const more = w.locator('details.pl-more');
    await expect(more).toHaveCount(1);
    await expect(more).not.toHaveAttribute('open', '');
    await expect(more.locator('> summary')).toContainText(t.more);
    for (const c of ['.pl-formula-box', '.pl-matrix-box', '.pl-translations', '.pl-editor', '.pl-import']) {
      await expect(more.locator(c), c).toHaveCount(1);
      await expect(w.locator(c), c).toBeHidden();
    }
    await more.locator('> summary').click();
    await expect(w.locator('.pl-formula-box')).toBeVisible();
    // Folded themselves inside the menu.
    await expect(w.locator('details.pl-matrix-box')).not.toHaveAttribute('open', '');
    expect(problems).toEqual([]);
  });

  // ---- 11. pills, phone layout, markers and legends -----------------------------------------

  test(`pattern pills stay whole at 1280 and every marker has a legend naming its engine (${lang})`, async ({ page, problems }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(t.page);
    const w = await widget(page, 'naive');
    // "python -m unittest*" is one line: the tool column gives it room.
    const pill = row(w, 9).locator('.pl-pattern code');
    expect(await pill.evaluate((c) => c.getClientRects().length)).toBe(1);
    const legend = w.locator('.pl-legend').first();
    await expect(legend.locator('[data-mark="decisive"]')).toContainText('★');
    await w.locator('.pl-step-toggle').click();
    await expect(legend.locator('[data-mark="cursor"][data-engine="first-match"]')).toContainText(`first-match ${t.cursor}`);
    await expect(legend.locator('[data-mark="cursor"][data-engine="opencode"]')).toContainText(`OpenCode ${t.cursor}`);
    await expect(legend.locator('[data-mark="cursor"][data-engine="first-match"] .pl-cur')).toHaveText('▼');
    await skipReveal(w, 'opencode');
    await expect(legend.locator('[data-mark="decisive"]')).toContainText(t.decided);
    await expect(legend.locator('[data-mark="decisive"]')).toContainText('OpenCode');
    await w.locator('details.pl-more > summary').click();
    await w.locator('details.pl-matrix-box > summary').click();
    await expect(w.locator('.pl-matrix-legend')).toBeVisible();
    await expect(w.locator('.pl-matrix-legend')).toContainText('●');
    await w.locator('table.pl-table').scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath(`interact-11-legend-${lang}`) });
    expect(problems).toEqual([]);
  });

  test(`on a 390×844 phone: one-line call field, whole call select, markers in their own cells (${lang})`, async ({ browser, problems }) => {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const page = await ctx.newPage();
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    await page.goto(t.page);
    const w = await widget(page, 'naive');
    const field = w.locator('.pl-call-input-text');
    const f = await field.evaluate((el) => ({ sh: el.scrollHeight, ch: el.clientHeight }));
    expect(f.sh, 'no clipped second line').toBeLessThanOrEqual(f.ch + 1);
    const sel = await w.locator('.pl-call-select').evaluate((s) => {
      const probe = document.createElement('span');
      probe.style.cssText = `font: ${getComputedStyle(s).font}; position: absolute; white-space: pre; visibility: hidden`;
      probe.textContent = s.options[s.selectedIndex]?.text ?? '';
      document.body.append(probe);
      const need = probe.getBoundingClientRect().width;
      probe.remove();
      return { need, have: s.clientWidth };
    });
    expect(sel.need + 24, 'the selected call fits the select').toBeLessThanOrEqual(sel.have);
    await w.locator('.pl-step-toggle').click();
    await skipReveal(w, 'first-match');
    await skipReveal(w, 'opencode');
    // Every cursor glyph lies inside its own cell, none over the tool cell.
    const spill = await w.locator('tbody.pl-rules tr').evaluateAll((trs) => trs.flatMap((tr) => {
      const cell = tr.querySelector('.pl-cursor-cell').getBoundingClientRect();
      const tool = tr.querySelector('.pl-tool').getBoundingClientRect();
      return [...tr.querySelectorAll('.pl-cursor-cell .pl-cur')].map((c) => c.getBoundingClientRect())
        .filter((r) => r.right > cell.right + 0.5 || r.right > tool.left + 0.5)
        .map(() => tr.dataset.ruleId);
    }));
    expect(spill).toEqual([]);
    const pos = await w.locator('tbody.pl-rules td.pl-pos').evaluateAll((ts) => ts.filter((td) => td.scrollWidth > td.clientWidth + 1).length);
    expect(pos, 'the ★ stays in the position cell').toBe(0);
    await w.locator('table.pl-table').scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath(`interact-11-phone-${lang}`) });
    await ctx.close();
    expect(problems).toEqual([]);
  });

  // ---- 12. print ----------------------------------------------------------------------------

  test(`print: the formula whole, no interaction hints, no closed summaries (${lang})`, async ({ page, problems }) => {
    await page.goto(t.page);
    const w = await widget(page, 'naive');
    await w.locator('details.pl-more > summary').click();
    await page.emulateMedia({ media: 'print' });
    await expect(w.locator('.pl-formula')).toHaveText(
      'rules.findLast(r => match(permission, r.permission) && match(pattern, r.pattern)) ?? ask', { useInnerText: true });
    await expect(w.locator('.pl-formula .pl-term').first()).toBeVisible();
    for (const hint of ['.pl-hint', '.pl-log-empty', '.pl-caption-hint', '.pl-locked']) {
      const n = await w.locator(hint).count();
      for (let i = 0; i < n; i++) await expect(w.locator(hint).nth(i), hint).toBeHidden();
    }
    await expect(w.locator('details.pl-matrix-box')).toBeHidden();
    await expect(w.locator('details.pl-more > summary')).toBeHidden();
    const text = await w.innerText();
    expect(text).not.toContain('⠿');
    expect(text).not.toContain(lang === 'zh' ? '点哪项' : 'can be clicked');
    await page.pdf({ path: screenshotPath(`interact-12-print-${lang}`).replace(/\.png$/, '.pdf') });
    await w.scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath(`interact-12-print-${lang}`), fullPage: true });
    expect(problems).toEqual([]);
  });
}
