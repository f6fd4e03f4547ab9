// axe-core on every demo page and every scene, light and dark: no violations, with
// the widget mounted and its folded parts opened (the "more" menu, the stepper, one verdict
// revealed), so the rules also see what a learner opens.
import AxeBuilder from '@axe-core/playwright';
import { test, expect, screenshotPath } from './fixtures.mjs';

const axe = async (page, include) => {
  let b = new AxeBuilder({ page });
  if (include) b = b.include(include);
  const r = await b.analyze();
  return r.violations.map((v) => `${v.id}: ${v.nodes.length} × ${v.nodes.slice(0, 3).map((n) => n.target).join(' | ')} — ${v.nodes[0]?.failureSummary?.split('\n')[1] ?? ''}`);
};

/// Every placeholder of the page mounted (each comes near the viewport in turn).
async function mountAll(page) {
  const hosts = page.locator('[data-permlab]');
  const n = await hosts.count();
  for (let i = 0; i < n; i++) {
    await hosts.nth(i).scrollIntoViewIfNeeded();
    // index.html mounts its own widget (no loader state): wait for the widget itself.
    await expect(hosts.nth(i).locator('section.pl-widget')).toBeVisible();
  }
  return n;
}

/// Opens what a learner opens: the "more" menu, the stepper, one revealed verdict per widget.
async function openParts(page) {
  const widgets = page.locator('section.pl-widget');
  for (let i = 0; i < (await widgets.count()); i++) {
    const w = widgets.nth(i);
    const more = w.locator('details.pl-more');
    if (await more.count()) await more.locator('> summary').click();
    await w.locator('.pl-step-toggle').click();
    await expect(w.locator('.pl-step-count')).toBeVisible();
    const p = w.locator('.pl-engine').first();
    if (await p.locator('.pl-skip').count()) {
      await p.locator('.pl-skip').click();
      await p.locator('.pl-reveal').click();
    }
    await expect(p).toHaveAttribute('data-verdict', /.+/);
  }
}

const pages = ['', 'demo/zh.html', 'demo/en.html', 'demo/csp.html', 'demo/host-css.html'];

for (const scheme of ['light', 'dark']) {
  for (const path of pages) {
    test(`axe: /${path} with its widgets open has no violations (${scheme})`, async ({ page, problems }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('./' + path);
      expect(await mountAll(page)).toBeGreaterThan(0);
      await openParts(page);
      await page.locator('section.pl-widget').first().scrollIntoViewIfNeeded();
      if (path === 'demo/zh.html') await page.screenshot({ path: screenshotPath(`axe-demo-zh-${scheme}`), fullPage: true });
      // host-css.html is hostile on purpose (its own magenta-on-yellow button, no landmarks):
      // there only the widget is the subject.
      expect(await axe(page, path.includes('host-css') ? 'section.pl-widget' : undefined)).toEqual([]);
      expect(problems).toEqual([]);
    });
  }

  test(`axe: every scene has no violations (${scheme})`, async ({ page, problems }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto('./demo/scenes.html');
    await page.evaluate(async () => {
      const m = await import(new URL('../permlab.js', location.href).href);
      await Promise.all([...document.querySelectorAll('[data-permlab][data-scene]')].map((el) => m.mount(el)));
    });
    // Every placeholder of the page is a scene (other scenes are added there: count them).
    const slugs = await page.locator('[data-permlab][data-scene]').evaluateAll((els) => els.map((el) => el.dataset.scene));
    expect(slugs.length).toBeGreaterThanOrEqual(8);
    await expect(page.locator('section.pl-scene h2')).toHaveCount(slugs.length);
    for (const slug of slugs) {
      expect(await axe(page, `section.pl-scene[data-scene="${slug}"]`), slug).toEqual([]);
    }
    // And the page around them.
    expect(await axe(page)).toEqual([]);
    expect(problems).toEqual([]);
  });
}
