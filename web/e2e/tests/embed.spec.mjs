// Embedding and offline: the page loader web/embed/permlab.js on the demo course pages,
// lazy loading, a load failure, a strict CSP, a hostile host stylesheet, the single-file offline
// page from file://, mount()/unmount() from page JS, and dist/ under a sub-path.
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test, expect, screenshotPath, artifacts } from './fixtures.mjs';
import { serve } from '../serve.mjs';

const dist = resolve(artifacts, '../dist');
const rows = (scope) => scope.locator('tbody.pl-rules tr');
const order = (scope) => rows(scope).evaluateAll((rs) => rs.map((r) => Number(r.dataset.ruleId)));
const wasmRequests = (page) => {
  const seen = [];
  page.on('request', (r) => { if (r.url().endsWith('.wasm')) seen.push(r.url()); });
  return seen;
};

/** Scrolls `host` into view and waits for its widget (a table of `n` rules). */
async function mounted(host, n) {
  await host.scrollIntoViewIfNeeded();
  await expect(rows(host)).toHaveCount(n);
  await expect(host).toHaveAttribute('data-permlab-state', 'mounted');
}

/** Records, from navigation start, when the first verdict appears (ms, in the page's clock). */
async function timeFirstVerdict(page) {
  await page.addInitScript(() => {
    const seen = () => {
      if (window.__firstVerdict === undefined && document.querySelector('.pl-matrix [data-verdict]')) {
        window.__firstVerdict = performance.now();
      }
    };
    new MutationObserver(seen).observe(document, { childList: true, subtree: true });
  });
}

/** Takes the expected "404" console lines out of the problems (the test asked for the 404). */
function expect404(problems) {
  const rest = problems.filter((p) => !/Failed to load resource: the server responded with a status of 404/.test(p));
  problems.length = 0;
  problems.push(...rest);
}

// ---- the demo course pages --------------------------------------------------------------------

test('demo zh: two widgets mount from one script tag, keep independent state, both restore after reload', async ({ page, problems }) => {
  await timeFirstVerdict(page);
  await page.goto('./demo/zh.html');
  const naive = page.locator('#naive');
  const core = page.locator('#core');
  await mounted(naive, 10);
  await mounted(core, 2);
  // The static tables were replaced by the widgets; the loader added the widget's stylesheet.
  await expect(page.locator('.course-rules')).toHaveCount(0);
  await expect(page.locator('link[data-permlab-css]')).toHaveCount(1);
  await expect(naive.locator('.pl-widget')).toHaveAttribute('lang', 'zh-CN');
  // Reorder one: the other is unchanged.
  await core.locator('.pl-reverse').click();
  expect(await order(core)).toEqual([2, 1]);
  expect(await order(naive)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  await naive.locator('tbody.pl-rules tr[data-rule-id="8"] .pl-down').click();
  expect(await order(naive)).toEqual([1, 2, 3, 4, 5, 6, 7, 9, 8, 10]);
  expect(await order(core)).toEqual([2, 1]);
  // Each in its own sessionStorage item (the URL stays the host's).
  await expect.poll(() => page.evaluate(() => Object.keys(sessionStorage).sort()))
    .toEqual(['permlab:%2Fdemo%2Fzh.html:core', 'permlab:%2Fdemo%2Fzh.html:naive']);
  expect(new URL(page.url()).hash).toBe('');
  await page.reload();
  await mounted(naive, 10);
  await mounted(core, 2);
  expect(await order(naive)).toEqual([1, 2, 3, 4, 5, 6, 7, 9, 8, 10]);
  expect(await order(core)).toEqual([2, 1]);
  const first = await page.evaluate(() => window.__firstVerdict);
  console.log(`demo page (zh, served): navigation start → first verdict ${first.toFixed(0)} ms (after reload, warm cache off: no-store)`);
  expect(problems).toEqual([]);
});

test('demo en: English widgets; first verdict timed on a cold load', async ({ page, problems }) => {
  await timeFirstVerdict(page);
  await page.goto('./demo/en.html');
  await mounted(page.locator('#naive'), 10);
  await expect(page.locator('#naive .pl-widget')).toHaveAttribute('lang', 'en');
  await expect(page.locator('#naive .pl-log h3')).toHaveText('Reorder log');
  const first = await page.waitForFunction(() => window.__firstVerdict).then((h) => h.jsonValue());
  console.log(`demo page (en, served from 127.0.0.1): navigation start → first verdict ${first.toFixed(0)} ms`);
  expect(first).toBeGreaterThan(0); // a figure for the report, not a bound (a loaded machine is slow)
  await mounted(page.locator('#core'), 2);
  await page.screenshot({ path: screenshotPath('demo-en'), fullPage: true });
  expect(problems).toEqual([]);
});

test('demo pages without JavaScript: the static rule tables stay', async ({ browser }) => {
  const ctx = await browser.newContext({ javaScriptEnabled: false });
  const page = await ctx.newPage();
  const wasm = wasmRequests(page);
  for (const [lang, action] of [['zh', '拒绝'], ['en', 'deny']]) {
    await page.goto(`./demo/${lang}.html`);
    await expect(page.locator('#naive .course-rules tbody tr')).toHaveCount(10);
    await expect(page.locator('#core .course-rules tbody tr')).toHaveCount(2);
    await expect(page.locator('#naive .course-rules tbody tr').nth(7)).toContainText(action);
    await expect(page.locator('#core .course-rules')).toBeVisible();
  }
  await page.screenshot({ path: screenshotPath('demo-no-js'), fullPage: true });
  expect(wasm).toEqual([]);
  await ctx.close();
});

test('demo pages on a 360 px phone: no horizontal overflow, with JavaScript and without', async ({ browser }) => {
  for (const javaScriptEnabled of [true, false]) {
    const ctx = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, javaScriptEnabled });
    const page = await ctx.newPage();
    for (const lang of ['zh', 'en']) {
      await page.goto(`./demo/${lang}.html`);
      if (javaScriptEnabled) {
        await mounted(page.locator('#naive'), 10);
        await mounted(page.locator('#core'), 2);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${lang}, JS ${javaScriptEnabled}`).toBeLessThanOrEqual(360);
    }
    if (javaScriptEnabled) await page.screenshot({ path: screenshotPath('demo-en-phone') });
    await ctx.close();
  }
});

const axe = async (page) => (await new AxeBuilder({ page }).analyze()).violations.map((v) => `${v.id}: ${v.nodes.length} × ${v.nodes[0]?.target}`);

for (const scheme of ['light', 'dark']) {
  test(`demo page without the widget (load failed): axe-core finds no violations (${scheme})`, async ({ page, problems }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.route('**/*_bg.wasm', (r) => r.fulfill({ status: 404, body: '' }));
    await page.goto('./demo/zh.html');
    await expect(page.locator('#naive > .pl-load-error')).toBeVisible();
    expect(await axe(page)).toEqual([]);
    expect404(problems);
    expect(problems).toEqual([]);
  });
}

test('demo page with its two widgets: ids unique across widgets, axe-core finds no violations', async ({ page, problems }) => {
  // Element ids carry the placeholder's id (`<id>-h-<engine>`, `<id>-disagree-h`, …).
  await page.goto('./demo/zh.html');
  await mounted(page.locator('#naive'), 10);
  await mounted(page.locator('#core'), 2);
  const repeated = await page.evaluate(() => {
    const n = {};
    for (const e of document.querySelectorAll('[id]')) n[e.id] = (n[e.id] ?? 0) + 1;
    return Object.keys(n).filter((id) => n[id] > 1);
  });
  expect(repeated).toEqual([]);
  expect(await axe(page)).toEqual([]);
  expect(problems).toEqual([]);
});

// ---- loading ------------------------------------------------------------------------------------

test('lazy: nothing of the widget loads before a placeholder nears the viewport; each mounts as it comes near', async ({ page, problems }) => {
  await page.setViewportSize({ width: 1000, height: 600 });
  // A course page whose placeholders sit far below the fold, served next to the demo pages.
  const lesson = (id, pattern) => `<script type="application/json" id="l-${id}">{"rules": [{"tool": "bash", "pattern": "${pattern}", "action": "deny"}], "calls": ["bash: git push"]}</script>`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>lazy</title><link rel="icon" href="data:,">
    <script type="module" src="../permlab.js"></script></head><body>
    <p>Intro.</p><div style="height: 4000px"></div>
    <div id="first" data-permlab data-lesson="#l-first"><p class="static">first static</p></div>${lesson('first', 'git *')}
    <div style="height: 6000px"></div>
    <div id="second" data-permlab data-lesson="#l-second"><p class="static">second static</p></div>${lesson('second', 'git push *')}
    </body></html>`;
  await page.route('**/demo/lazy.html', (r) => r.fulfill({ contentType: 'text/html', body: html }));
  const requested = [];
  page.on('request', (r) => requested.push(new URL(r.url()).pathname));
  await page.goto('./demo/lazy.html');
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
  expect(await page.evaluate(() => globalThis.permlabLoader)).toBe(true);
  expect(requested.filter((p) => /\.wasm$|permlab-widget|permlab-table|\.css$/.test(p))).toEqual([]);
  await expect(page.locator('#first .static')).toBeVisible();
  // Near the first placeholder: the wasm loads and the first widget mounts, the second waits.
  await page.evaluate(() => scrollTo(0, 3000));
  await expect(page.locator('#first')).toHaveAttribute('data-permlab-state', 'mounted');
  await expect(rows(page.locator('#first'))).toHaveCount(1);
  expect(requested.filter((p) => p.endsWith('.wasm'))).toHaveLength(1);
  await expect(page.locator('#second .static')).toHaveCount(1);
  await expect(page.locator('#second')).not.toHaveAttribute('data-permlab-state', /.*/);
  await page.locator('#second').scrollIntoViewIfNeeded();
  await mounted(page.locator('#second'), 1);
  await expect(page.locator('#second .pl-pattern')).toHaveText('git push *');
  // One wasm for the page, however many widgets.
  expect(requested.filter((p) => p.endsWith('.wasm'))).toHaveLength(1);
  expect(problems).toEqual([]);
});

for (const [lang, words] of [['en', 'could not be loaded'], ['zh', '没能加载']]) {
  test(`load failure (${lang}): a readable message in the placeholder, the static content stays`, async ({ page, problems }) => {
    await page.route('**/*_bg.wasm', (r) => r.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' }));
    await page.goto(`./demo/${lang}.html`);
    const alert = page.locator('#naive > .pl-load-error[role="alert"]');
    await expect(alert).toContainText(words);
    await expect(alert).toContainText('404');
    await expect(page.locator('#naive')).toHaveAttribute('data-permlab-state', 'failed');
    await expect(page.locator('#naive .course-rules tbody tr')).toHaveCount(10);
    await expect(page.locator('#naive .pl-widget')).toHaveCount(0);
    await page.locator('#core').scrollIntoViewIfNeeded();
    await expect(page.locator('#core > .pl-load-error')).toContainText(words);
    await page.locator('#naive').screenshot({ path: screenshotPath(`load-failure-${lang}`) });
    expect404(problems);
    expect(problems).toEqual([]);
  });
}

// ---- content security policy --------------------------------------------------------------------

test('strict CSP page: the widget and its self-check work, no policy violation', async ({ page, problems }) => {
  test.setTimeout(60_000);
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  await page.goto('./demo/csp.html');
  const host = page.locator('#csp');
  await mounted(host, 2);
  await host.locator('.pl-reverse').click();
  expect(await order(host)).toEqual([2, 1]);
  await host.locator('.pl-engine[data-engine="opencode"] .pl-skip').click();
  await host.locator('.pl-engine[data-engine="opencode"] .pl-reveal').click();
  await expect(host.locator('.pl-engine[data-engine="opencode"]')).toHaveAttribute('data-verdict', 'deny');
  await host.locator('.pl-run-check').click();
  await expect(host.locator('.pl-check')).toHaveCount(7, { timeout: 30_000 });
  for (const name of ['opencode', 'claude-code-docs', 'claude-code-cli', 'corecoder']) {
    const tally = await host.locator(`.pl-check[data-check="${name}"] .pl-check-tally`).textContent();
    const [a, b] = tally.split('/').map(Number);
    expect(b).toBeGreaterThan(0);
    expect(a).toBe(b);
  }
  expect(await page.evaluate(() => window.__violations)).toEqual([]);
  // The policy is really in force: an inline script is refused (and that is the only violation).
  const ran = await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__inline = true';
    document.head.append(s);
    return window.__inline === true;
  });
  expect(ran).toBe(false);
  await expect.poll(() => page.evaluate(() => window.__violations.length)).toBe(1);
  expect(await page.evaluate(() => window.__violations[0])).toMatch(/^script-src/);
  const rest = problems.filter((p) => !/Content Security Policy/.test(p));
  expect(problems.length - rest.length).toBe(1);
  problems.length = 0;
  expect(rest).toEqual([]);
});

test('strict CSP page: a pasted Codex .rules file is read in the worker, no policy violation', async ({ page, problems }) => {
  test.setTimeout(60_000);
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.goto('./demo/csp.html');
  const host = page.locator('#csp');
  await mounted(host, 2);
  await host.locator('.pl-import summary').click();
  await host.locator('.pl-import-text').fill(readFileSync(resolve(artifacts, '../../shared/corpus/codex/001.rules'), 'utf8'));
  await host.locator('.pl-import-button').click();
  await expect(host.locator('.pl-import-summary')).toHaveAttribute('data-format', 'codex', { timeout: 20_000 });
  expect(Number(await host.locator('.pl-import-summary').getAttribute('data-imported'))).toBeGreaterThan(0);
  await expect(host.locator('.pl-engine[data-engine="codex"]')).toBeVisible();
  expect(await page.evaluate(() => window.__violations)).toEqual([]);
  expect(problems).toEqual([]);
});

// ---- host stylesheet ------------------------------------------------------------------------------

const HOST_PROPS = ['display', 'font-size', 'font-family', 'font-style', 'font-weight', 'color', 'background-color',
  'margin-top', 'padding-top', 'border-top-width', 'letter-spacing', 'text-transform', 'text-align', 'line-height', 'width'];

test('host page with aggressive global CSS: the widget works and looks like itself; its CSS touches nothing outside it', async ({ page, problems }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('./demo/host-css.html');
  const host = page.locator('#host');
  await mounted(host, 10);
  const style = (sel, props, pseudo = null) => page.locator(sel).first().evaluate((el, [ps, pseudo]) => {
    const cs = getComputedStyle(el, pseudo);
    return Object.fromEntries(ps.map((p) => [p, cs.getPropertyValue(p)]));
  }, [props, pseudo]);
  expect(await style('#host .pl-widget', ['font-size', 'font-style', 'font-weight', 'text-transform', 'letter-spacing', 'word-spacing', 'text-align', 'cursor', 'display']))
    .toEqual({ 'font-size': '16px', 'font-style': 'normal', 'font-weight': '400', 'text-transform': 'none', 'letter-spacing': 'normal', 'word-spacing': '0px', 'text-align': 'start', cursor: 'auto', display: 'block' });
  expect(await style('#host table.pl-table', ['display', 'border-top-width'])).toEqual({ display: 'table', 'border-top-width': '0px' });
  expect(await style('#host tbody.pl-rules tr', ['display'])).toEqual({ display: 'table-row' });
  expect(await style('#host tbody.pl-rules td', ['display', 'font-size', 'letter-spacing'])).toEqual({ display: 'table-cell', 'font-size': '16px', 'letter-spacing': 'normal' });
  expect(await style('#host .pl-reverse', ['font-size', 'background-color', 'border-top-color', 'min-width'])).toEqual({
    'font-size': '16px', 'background-color': 'rgb(255, 255, 255)', 'border-top-color': 'rgb(209, 217, 224)', 'min-width': 'auto',
  });
  expect(await style('#host tbody.pl-rules td', ['content'], '::before')).toEqual({ content: 'none' });
  expect(await style('#host .pl-pattern', ['font-family'])).not.toEqual({ 'font-family': 'cursive' });
  // Sane sizes: a rule row as tall as on the plain page (no 40 px fonts, no 30 px paddings).
  const rowHeight = await rows(host).first().evaluate((r) => r.getBoundingClientRect().height);
  expect(rowHeight).toBeLessThan(60);
  // It works: reorder, reveal.
  await host.locator('tbody.pl-rules tr[data-rule-id="8"] .pl-down').click();
  await host.locator('tbody.pl-rules tr[data-rule-id="8"] .pl-down').click();
  expect(await order(host)).toEqual([1, 2, 3, 4, 5, 6, 7, 9, 10, 8]);
  await host.locator('.pl-engine[data-engine="first-match"] .pl-skip').click();
  await host.locator('.pl-engine[data-engine="first-match"] .pl-reveal').click();
  await expect(host.locator('.pl-engine[data-engine="first-match"]')).toHaveAttribute('data-verdict', 'allow');
  await page.screenshot({ path: screenshotPath('host-css'), fullPage: true });

  // Nothing outside the widget changes when the widget's stylesheet goes away.
  const outside = ['body', 'h1.host-title', 'p.host-text code', 'button.host-button', 'table.host-table td', 'p.host-after', '#host'];
  const snapshot = () => Promise.all(outside.map((sel) => style(sel, HOST_PROPS)));
  const before = await snapshot();
  await page.evaluate(() => { document.querySelector('link[data-permlab-css]').sheet.disabled = true; });
  expect(await page.locator('#host .pl-widget').evaluate((el) => getComputedStyle(el).fontFamily)).not.toContain('system-ui');
  expect(await snapshot()).toEqual(before);
  // And every rule of the widget's stylesheet is scoped to a pl- class (custom-property defaults
  // on :where(:root) aside, which style nothing).
  const unscoped = await page.evaluate(() => {
    const sheet = document.querySelector('link[data-permlab-css]').sheet;
    const bad = [];
    const walk = (rules) => {
      for (const r of rules) {
        if (r.cssRules && !r.selectorText) walk(r.cssRules);
        else if (r.selectorText) {
          // Split the selector list at top-level commas only (not inside :where(…)).
          const sels = [];
          let depth = 0;
          let cur = '';
          for (const ch of r.selectorText) {
            if (ch === '(') depth++;
            if (ch === ')') depth--;
            if (ch === ',' && depth === 0) { sels.push(cur.trim()); cur = ''; } else cur += ch;
          }
          sels.push(cur.trim());
          for (const sel of sels) {
            const onlyVars = sel === ':where(:root)' && [...r.style].every((p) => p.startsWith('--pl-'));
            if (!sel.includes('.pl-') && !onlyVars) bad.push(sel);
          }
        }
      }
    };
    walk(sheet.cssRules);
    return bad;
  });
  expect(unscoped).toEqual([]);
  expect(problems).toEqual([]);
});

test('theming: --pl-* custom properties and pl-theme-light set by the host page on an ancestor reach the widget', async ({ page, problems }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('./demo/en.html');
  await page.evaluate(() => {
    const el = document.querySelector('#naive');
    el.style.setProperty('--pl-accent', 'rgb(130, 80, 223)');
    el.style.setProperty('--pl-font-size', '20px');
    el.classList.add('pl-theme-light');
  });
  await mounted(page.locator('#naive'), 10);
  expect(await page.locator('#naive .pl-widget').evaluate((el) => getComputedStyle(el).fontSize)).toBe('20px');
  // The lesson's task list is drawn in the accent colour (the matrix's changed-cell outline,
  // checked here before, now waits for the learner's reveal).
  const outline = await page.locator('#naive .pl-tasks').evaluate((el) => getComputedStyle(el).borderTopColor);
  expect(outline).toBe('rgb(130, 80, 223)');
  // The other widget keeps the defaults.
  await page.locator('#core').scrollIntoViewIfNeeded();
  await mounted(page.locator('#core'), 2);
  expect(await page.locator('#core .pl-widget').evaluate((el) => getComputedStyle(el).fontSize)).toBe('16px');
  // A light widget pinned by the page in a dark-scheme browser; the other one follows the browser.
  const bg = (sel) => page.locator(sel).evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(await bg('#naive .pl-widget')).toBe('rgb(255, 255, 255)');
  expect(await bg('#core .pl-widget')).toBe('rgb(13, 17, 23)');
  expect(problems).toEqual([]);
});

// ---- page JS: mount() / unmount() -----------------------------------------------------------------

test('mount() and unmount() from page JS: independent widget, original content restored', async ({ page, problems }) => {
  await page.goto('./demo/en.html');
  await mounted(page.locator('#naive'), 10);
  const result = await page.evaluate(async () => {
    const permlab = await import('../permlab.js');
    const el = document.createElement('div');
    el.id = 'byhand';
    el.setAttribute('data-lang', 'zh');
    el.innerHTML = '<p class="orig">original <b>content</b></p>';
    document.querySelector('article').prepend(el);
    const lesson = JSON.stringify({ rules: [{ tool: 'bash', pattern: 'ls *', action: 'allow' }, { tool: 'bash', pattern: '*', action: 'ask' }], calls: ['bash: ls -la'] });
    const handle = await permlab.mount(el, lesson);
    const again = await permlab.mount(el, lesson);
    return { same: handle === again, rows: el.querySelectorAll('tbody.pl-rules tr').length, lang: el.querySelector('.pl-widget')?.lang };
  });
  expect(result).toEqual({ same: true, rows: 2, lang: 'zh-CN' });
  const byhand = page.locator('#byhand');
  await byhand.locator('.pl-reverse').click();
  expect(await order(byhand)).toEqual([2, 1]);
  expect(await order(page.locator('#naive'))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  await expect.poll(() => page.evaluate(() => Object.keys(sessionStorage))).toContain('permlab:%2Fdemo%2Fen.html:byhand');
  const after = await page.evaluate(async () => {
    const permlab = await import('../permlab.js');
    const el = document.querySelector('#byhand');
    const first = permlab.unmount(el);
    const second = permlab.unmount(el);
    return { first, second, html: el.innerHTML, state: el.getAttribute('data-permlab-state') };
  });
  expect(after).toEqual({ first: true, second: false, html: '<p class="orig">original <b>content</b></p>', state: null });
  // A placeholder added later is picked up by scan() and mounted as it comes near.
  await page.evaluate(async () => {
    const permlab = await import('../permlab.js');
    const el = document.createElement('div');
    el.id = 'late';
    el.setAttribute('data-permlab', '');
    el.textContent = 'static';
    document.querySelector('article').prepend(el);
    permlab.scan();
    window.scrollTo(0, 0);
  });
  await mounted(page.locator('#late'), 10);
  // The page's own widget still answers.
  await page.locator('#naive .pl-reverse').click();
  expect(await order(page.locator('#naive'))).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
  expect(problems).toEqual([]);
});

test('bundles: a page of tables loads the table-only bundle, a page with a scene the page bundle for all its widgets, a scene added later gets the page bundle too', async ({ page, problems }) => {
  const wasm = wasmRequests(page);
  const names = () => wasm.map((u) => u.split('/').pop().replace(/-[0-9a-f]+_bg\.wasm$/, ''));
  // zh.html: three table widgets, no scene: the small bundle, once.
  await page.goto('./demo/zh.html');
  await mounted(page.locator('#naive'), 10);
  await mounted(page.locator('#core'), 2);
  expect(names()).toEqual(['permlab-table']);
  // A scene added to that page: the page bundle comes for it (the tables stay on theirs).
  await page.evaluate(async () => {
    const permlab = await import('../permlab.js');
    const el = document.createElement('div');
    el.id = 'late-scene';
    el.setAttribute('data-permlab', '');
    el.setAttribute('data-scene', 'timeline');
    el.innerHTML = '<p class="static">static timeline</p>';
    document.querySelector('#naive').before(el);
    permlab.scan();
  });
  const late = page.locator('#late-scene');
  await late.scrollIntoViewIfNeeded();
  await expect(late).toHaveAttribute('data-permlab-state', 'mounted');
  await expect(late.locator('.pl-scene[data-scene="timeline"]')).toBeVisible();
  await expect(late.locator('.static')).toHaveCount(0);
  expect(names()).toEqual(['permlab-table', 'permlab-widget']);
  await page.locator('#core .pl-reverse').click();
  expect(await order(page.locator('#core'))).toEqual([2, 1]);
  // A page with a table widget and a scene from the start: the page bundle for both, once.
  wasm.length = 0;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>course</title>
    <script type="module" src="../permlab.js"></script></head><body>
    <div id="t1" data-permlab data-lesson="#l1"><p>static</p></div>
    <script type="application/json" id="l1">{"rules": [{"tool": "bash", "pattern": "git *", "action": "allow"}], "calls": ["bash: git status"]}</script>
    <div id="s1" data-permlab data-scene="timeline"><p>static</p></div>
    </body></html>`;
  await page.route('**/demo/course-mixed.html', (r) => r.fulfill({ contentType: 'text/html', body: html }));
  await page.goto('./demo/course-mixed.html');
  await mounted(page.locator('#t1'), 1);
  await page.locator('#s1').scrollIntoViewIfNeeded();
  await expect(page.locator('#s1')).toHaveAttribute('data-permlab-state', 'mounted');
  expect(names()).toEqual(['permlab-widget']);
  expect(problems).toEqual([]);
});

// ---- offline: one file from file:// ---------------------------------------------------------------

test.describe('single-file offline page', () => {
  test.use({ allowedHosts: [] });

  for (const lang of ['zh', 'en']) {
    test(`opens from file:// with no server and no network (${lang})`, async ({ page, context, problems }) => {
      // The demo page has table widgets only: the table-only bundle is the one inlined.
      const file = readFileSync(resolve(dist, `offline/permlab-${lang}.html`), 'utf8');
      expect(file).toContain('the table-only bundle: this page has no scene');
      expect(file.split('const WIDGET_WASM = "').length).toBe(2);
      await context.setOffline(true);
      const requests = [];
      page.on('request', (r) => requests.push(r.url()));
      await timeFirstVerdict(page);
      const url = pathToFileURL(resolve(dist, `offline/permlab-${lang}.html`)).href;
      await page.goto(url);
      const naive = page.locator('#naive');
      const core = page.locator('#core');
      await expect(rows(naive)).toHaveCount(10);
      const first = await page.waitForFunction(() => window.__firstVerdict).then((h) => h.jsonValue());
      console.log(`single file (${lang}, file://): navigation start → first verdict ${first.toFixed(0)} ms`);
      // As on the site, the loader mounts each widget as it comes near (scripts/bundle keeps it).
      await core.scrollIntoViewIfNeeded();
      await expect(rows(core)).toHaveCount(2);
      // A quiz folds the matrix away: the verdicts are computed and in the page, not shown.
      await expect(naive.locator('.pl-matrix [data-verdict]').first()).toBeAttached();
      // The self-check is hidden offline (its worker cannot start from file://).
      await expect(page.locator('.pl-run-check')).toHaveCount(0);
      // …and the folded menu's list does not promise it.
      await expect(naive.locator('.pl-more-list')).not.toContainText(lang === 'zh' ? '自检' : 'self-check');
      await expect(naive.locator('.pl-more-list')).toContainText(lang === 'zh' ? '翻译' : 'translations');
      await core.locator('.pl-reverse').click();
      expect(await order(core)).toEqual([2, 1]);
      expect(await order(naive)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      await page.reload();
      await core.scrollIntoViewIfNeeded();
      await expect(rows(core)).toHaveCount(2);
      expect(await order(core)).toEqual([2, 1]);
      expect(requests.filter((u) => !u.startsWith('file:') && !u.startsWith('data:'))).toEqual([]);
      if (lang === 'zh') await page.screenshot({ path: screenshotPath('offline-zh'), fullPage: true });
      expect(problems).toEqual([]);
    });
  }
});

// ---- sub-path -------------------------------------------------------------------------------------

test('dist/ under a sub-path: the demo page loads the widget and the self-check from there', async ({ page, problems }) => {
  test.setTimeout(60_000);
  const prefix = '/courses/a3/permlab/';
  const server = await serve(dist, 0, prefix);
  try {
    const origin = `http://127.0.0.1:${server.address().port}`;
    const bad = [];
    page.on('response', (r) => { if (r.status() >= 400) bad.push(`${r.status()} ${r.url()}`); });
    const paths = [];
    page.on('request', (r) => { const u = new URL(r.url()); if (u.protocol.startsWith('http')) paths.push(u.pathname); });
    await page.goto(`${origin}${prefix}demo/zh.html`);
    await mounted(page.locator('#naive'), 10);
    // In a lesson the self-check sits in the folded "more" menu.
    await page.locator('#naive details.pl-more > summary').click();
    await page.locator('#naive .pl-run-check').click();
    await expect(page.locator('#naive .pl-check')).toHaveCount(7, { timeout: 30_000 });
    await expect(page.locator('#naive .pl-check[data-check="opencode"]')).toContainText(/(\d+)\/\1 /);
    expect(bad).toEqual([]);
    expect(paths.filter((p) => !p.startsWith(prefix))).toEqual([]);
    expect(paths.some((p) => p.startsWith(`${prefix}conformance/`))).toBe(true);
  } finally {
    server.close();
  }
  expect(problems).toEqual([]);
});
