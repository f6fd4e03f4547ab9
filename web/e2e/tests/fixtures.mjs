// Shared test fixtures: every page load fails the test on a console error, an uncaught
// exception, or a request that leaves 127.0.0.1 (the widget must work offline). A test of a
// file:// page sets `test.use({ allowedHosts: [] })`: then any http(s) request at all fails it
// (file:, data: and blob: URLs are never network).
import { test as base, expect } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const artifacts = resolve(dirname(fileURLToPath(import.meta.url)), '../../../artifacts');
mkdirSync(resolve(artifacts, 'screenshots'), { recursive: true });

export const test = base.extend({
  allowedHosts: [['127.0.0.1', 'localhost'], { option: true }],
  problems: async ({ page, allowedHosts }, use) => {
    const problems = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console.${msg.type()}: ${msg.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
    // A request the page's own navigation (a reload, a goto) cuts off is not a problem: the
    // learner left the page. Every other failed request is.
    const started = new WeakMap();
    let navigated = -1;
    page.on('request', (req) => {
      started.set(req, Date.now());
      if (req.isNavigationRequest() && req.frame() === page.mainFrame()) navigated = Date.now();
      const url = new URL(req.url());
      const local = ['data:', 'blob:', 'file:'].includes(url.protocol);
      if (!local && !allowedHosts.includes(url.hostname)) {
        problems.push(`network request leaves the machine: ${req.url()}`);
      }
    });
    page.on('requestfailed', (req) => {
      const why = req.failure()?.errorText;
      if (why === 'net::ERR_ABORTED' && !req.isNavigationRequest() && navigated >= (started.get(req) ?? Infinity)) return;
      problems.push(`request failed: ${req.url()} ${why}`);
    });
    await use(problems);
    expect(problems, 'console errors, page errors or off-site requests').toEqual([]);
  },
});

export { expect };

export function screenshotPath(name) {
  return resolve(artifacts, 'screenshots', `${name}.png`);
}

/** The three views every screenshot test takes: desktop light and dark, a 360 px touch phone. */
const VIEWS = [
  ['', { viewport: { width: 1280, height: 900 }, colorScheme: 'light' }],
  ['-dark', { viewport: { width: 1280, height: 900 }, colorScheme: 'dark' }],
  ['-phone', { viewport: { width: 360, height: 740 }, colorScheme: 'light', hasTouch: true, isMobile: true }],
];

/** Runs `body(page, suffix)` once per view, each in a fresh browser context (closed after). */
export async function inEachView(browser, body) {
  for (const [suffix, opts] of VIEWS) {
    const ctx = await browser.newContext(opts);
    try {
      await body(await ctx.newPage(), suffix);
    } finally {
      await ctx.close();
    }
  }
}

/** The elements under `root` wider than the viewport (a `.pl-scroll` box may scroll). */
export function tooWide(root) {
  return root.evaluate((r) => [...r.querySelectorAll('*')]
    .filter((e) => e.getBoundingClientRect().right > innerWidth + 1 && !e.closest('.pl-scroll'))
    .map((e) => `${e.tagName}.${e.className}`).slice(0, 5));
}
