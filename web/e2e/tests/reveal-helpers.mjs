// Shared by reveal.spec.mjs and lesson-seed000.spec.mjs: where a widget could give
// away a verdict the learner has not revealed yet, and a check that it does not.
import { expect } from './fixtures.mjs';

export const rowOf = (w, id) => w.locator(`tbody.pl-rules tr[data-rule-id="${id}"]`);
export const panelOf = (w, slug) => w.locator(`.pl-engine[data-engine="${slug}"]`);
export const orderOf = (w) =>
  w.locator('tbody.pl-rules tr').evaluateAll((rs) => rs.map((r) => Number(r.dataset.ruleId)));

/// A widget of a demo course page (mounted when it comes near the viewport).
export async function demoWidget(page, lang, id) {
  await page.goto(`./demo/${lang}.html`);
  const host = page.locator(`#${id}`);
  await host.scrollIntoViewIfNeeded();
  const w = host.locator('.pl-widget');
  await expect(w.locator('tbody.pl-rules tr').first()).toBeVisible();
  return w;
}

/// The page's own widget (`/`, zh, the built-in rule sets).
export async function indexWidget(page) {
  await page.goto('./');
  const w = page.locator('.pl-widget').first();
  await expect(w.locator('tbody.pl-rules tr').first()).toBeVisible();
  return w;
}

export async function guessAndReveal(w, slug, guess) {
  const p = panelOf(w, slug);
  await p.locator(guess === 'skip' ? '.pl-skip' : `.pl-guess-btn[data-guess="${guess}"]`).click();
  await p.locator('.pl-reveal').click();
  await expect(p).toHaveAttribute('data-verdict', /.+/);
}

const VERDICT_WORDS = '放行|问人|拒绝|工具不可用|allow|ask|deny|unavailable';
const STEP_SAFE = /→ (继续|go on)$|^(尚未开始|not started)$/;

/// Checks that nothing on screen or in the accessibility tree gives away the verdict of an
/// engine whose panel is not revealed: no verdict in its panel, no decisive mark, no stepper line
/// that stops (or says why), no matrix cell of the current call, no disagreement box content, no
/// "Engine → verdict" / "Engine: verdict" text outside the reorder log, the live region and the
/// earlier-order results (those tell what a reorder changed, of engines revealed before it).
export async function expectNoLeak(w, where = '') {
  const found = await w.evaluate((root, [words, safeSrc]) => {
    const safe = new RegExp(safeSrc);
    const out = [];
    const hidden = [...root.querySelectorAll('.pl-engine[data-engine]:not([data-verdict])')].map((p) => ({
      slug: p.dataset.engine,
      name: p.querySelector('h4').firstChild.textContent.trim(),
      panel: p,
    }));
    const clone = root.cloneNode(true);
    clone.querySelectorAll('.pl-log, .pl-announce, .pl-earlier').forEach((n) => n.remove());
    const text = clone.textContent.replace(/\s+/g, ' ');
    const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const { slug, name, panel } of hidden) {
      if (panel.querySelector('.pl-result, .pl-verdict')) out.push(`${slug}: its panel shows a verdict`);
      if (root.querySelector(`tbody.pl-rules tr[data-decisive~="${slug}"]`)) out.push(`${slug}: decisive mark`);
      const line = root.querySelector(`.pl-step-line[data-engine-step="${slug}"]`);
      if (line && !line.hasAttribute('data-locked')) {
        const t = line.querySelector('.pl-step-text').textContent.trim();
        if (!safe.test(t)) out.push(`${slug}: stepper line tells: ${t}`);
      }
      if (root.querySelector(`.pl-matrix tr.pl-current td[data-engine="${slug}"][data-verdict]`)) {
        out.push(`${slug}: matrix cell of the current call`);
      }
      const re = new RegExp(`${esc(name)}\\s*(→|:|：)\\s*(${words})`);
      const m = text.match(re);
      if (m) out.push(`${slug}: text "${m[0]}"`);
      if (['opencode', 'claude-code'].includes(slug) && root.querySelector('.pl-disagree .pl-disagree-list, .pl-disagree-actual')) {
        out.push(`${slug}: disagreement box content`);
      }
    }
    return { out, hidden: hidden.map((h) => h.name) };
  }, [VERDICT_WORDS, STEP_SAFE.source]);
  expect(found.out, `leaks ${where}`).toEqual([]);
  // The accessibility tree of the regions that could tell (the log and the live region say what
  // a reorder changed, for engines revealed before it).
  for (const sel of ['.pl-main', '.pl-disagree', '.pl-matrix-box']) {
    const region = w.locator(sel);
    if ((await region.count()) === 0) continue;
    const tree = (await region.first().ariaSnapshot()).replace(/\s+/g, ' ');
    for (const name of found.hidden) {
      const re = new RegExp(`${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*(→|:|：)\\s*(${VERDICT_WORDS})`);
      expect(tree.match(re)?.[0] ?? null, `aria tree of ${sel} ${where}`).toBeNull();
    }
  }
}
