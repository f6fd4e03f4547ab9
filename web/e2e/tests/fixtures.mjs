// Shared test fixtures: every page load fails the test on a console error, an uncaught
// exception, or a request that leaves 127.0.0.1 (the widget must work offline).
import { test as base, expect } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const artifacts = resolve(dirname(fileURLToPath(import.meta.url)), '../../../artifacts');
mkdirSync(resolve(artifacts, 'screenshots'), { recursive: true });

export const test = base.extend({
  problems: async ({ page }, use) => {
    const problems = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console.${msg.type()}: ${msg.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (!['127.0.0.1', 'localhost'].includes(url.hostname) && !['data:', 'blob:'].includes(url.protocol)) {
        problems.push(`network request leaves the machine: ${req.url()}`);
      }
    });
    page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`));
    await use(problems);
    expect(problems, 'console errors, page errors or off-site requests').toEqual([]);
  },
});

export { expect };

export function screenshotPath(name) {
  return resolve(artifacts, 'screenshots', `${name}.png`);
}
