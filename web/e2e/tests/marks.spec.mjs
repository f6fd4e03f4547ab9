// The table's markers say whose they are, to the eye and to a screen reader: the cursor column's
// cells are read like its header (no header over hidden cells), and each ★ carries its engine's
// cursor shape and name, so two ★ on two rows are told apart.
import { test, expect } from './fixtures.mjs';
import { demoWidget, guessAndReveal } from './reveal-helpers.mjs';

const WORDS = {
  zh: { cursor: '光标', decided: '决定裁决的规则:' },
  en: { cursor: 'cursor', decided: 'the rule that decided:' },
};

for (const lang of ['zh', 'en']) {
  test(`${lang}: cursor cells are read with their engine, and each ★ names the engine it decided for`, async ({ page, problems }) => {
    const t = WORDS[lang];
    const w = await demoWidget(page, lang, 'naive');
    await w.locator('.pl-step-toggle').click();
    // Every row has as many cells as the header has columns, none of them hidden.
    const shape = await w.locator('table.pl-table').evaluate((table) => ({
      headers: table.querySelectorAll('thead th').length,
      cells: [...table.querySelectorAll('tbody.pl-rules tr')].map((tr) => tr.querySelectorAll('td:not([aria-hidden="true"])').length),
    }));
    expect(new Set(shape.cells)).toEqual(new Set([shape.headers]));
    // The first step puts first-match's cursor on #1 and OpenCode's on #10: the cells say so.
    const cell = (id) => w.locator(`tbody.pl-rules tr[data-rule-id="${id}"] td.pl-cursor-cell`);
    await expect(cell(1)).toContainText(`first-match ${t.cursor}`);
    await expect(cell(10)).toContainText(`OpenCode ${t.cursor}`);
    await expect(cell(1).locator('.pl-cur')).toHaveAttribute('aria-hidden', 'true');

    await guessAndReveal(w, 'first-match', 'skip');
    await guessAndReveal(w, 'opencode', 'skip');
    // Two rows decided, two ★: each with its engine's shape and name.
    const fm = w.locator('tbody.pl-rules tr[data-decisive~="first-match"] td.pl-pos .pl-star');
    const oc = w.locator('tbody.pl-rules tr[data-decisive~="opencode"] td.pl-pos .pl-star[data-engine="opencode"]');
    await expect(fm).toHaveAttribute('data-engine', 'first-match');
    await expect(fm.locator('[aria-hidden="true"]')).toHaveText('★▼');
    await expect(fm.locator('.pl-sr')).toContainText(`${t.decided} first-match`);
    await expect(oc.locator('[aria-hidden="true"]')).toHaveText('★▲');
    await expect(oc.locator('.pl-sr')).toContainText(`${t.decided} OpenCode`);
    expect(await w.locator('td.pl-pos .pl-star').count()).toBe(2);
    // The legend gives the same key.
    const legend = w.locator('.pl-legend [data-mark="decisive"]');
    await expect(legend.locator('.pl-star[data-engine="first-match"]')).toContainText('★▼');
    await expect(legend.locator('.pl-star[data-engine="opencode"]')).toContainText('OpenCode');
    expect(problems).toEqual([]);
  });
}
