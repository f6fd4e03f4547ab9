// Browser tests run in Debian's Chromium (never a downloaded browser: this machine kind cannot
// fetch one) against the release build in dist/, served on 127.0.0.1 like a static host.
import { defineConfig } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
const port = Number(process.env.PERMLAB_E2E_PORT ?? 8181);

export default defineConfig({
  testDir: resolve(here, 'tests'),
  outputDir: resolve(repo, 'artifacts/test-results'),
  // Generous limits: on a loaded machine (load 6–19 on 2 cores) a state takes seconds to come;
  // tests wait for states, and these limits only say when to give up.
  timeout: 90_000,
  expect: { timeout: 20_000 },
  fullyParallel: true,
  workers: 2,
  reporter: [['list'], ['json', { outputFile: resolve(repo, 'artifacts/e2e-results.json') }]],
  use: {
    baseURL: `http://127.0.0.1:${port}/`,
    launchOptions: {
      executablePath: process.env.PERMLAB_CHROMIUM ?? '/usr/bin/chromium',
      // Quiet on a closed network: no background fetches that fail and spam errors.
      args: [
        '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
        '--disable-background-networking', '--disable-component-update', '--disable-sync',
        '--no-first-run', '--disable-quic',
      ],
    },
  },
  webServer: {
    command: `node ${resolve(here, 'serve.mjs')} ${resolve(repo, 'dist')} ${port}`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 20_000,
  },
});
