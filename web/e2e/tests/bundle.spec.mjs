// scripts/bundle: an author's page outside web/demo/ — two widgets (one mounted by
// the page's own script), a scene, a page script using evaluate() and mount(), the README's
// strict CSP — becomes one file that works from file:// with every network request blocked;
// a load failure in that file is visible; a page with a remote script is refused.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { test, expect, screenshotPath, artifacts } from './fixtures.mjs';

const repo = resolve(artifacts, '..');
const fixture = resolve(repo, 'web/e2e/fixtures/bundle-page/page.html');
const outDir = resolve(artifacts, 'bundle');

/** Runs scripts/bundle with `args`; {status, stderr}. */
function bundle(...args) {
  const r = spawnSync(resolve(repo, 'scripts/bundle'), args, { cwd: repo, encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
}

/** Opens `file` from file:// with every request that is not file: or data: aborted (and recorded). */
async function openOffline(page, context, file) {
  await context.setOffline(true);
  const network = [];
  await context.route(() => true, (route) => {
    const url = route.request().url();
    if (url.startsWith('file:') || url.startsWith('data:')) return route.continue();
    network.push(url);
    return route.abort('blockedbyclient');
  });
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(file).href);
  return { network, requests: () => requests.filter((u) => !/^(file|data|blob):/.test(u)) };
}

test.describe('scripts/bundle: an author page as one offline file', () => {
  test.use({ allowedHosts: [] });

  let out;
  let stderr;
  test.beforeAll(async ({ browserName: _ }, testInfo) => {
    mkdirSync(outDir, { recursive: true });
    // One file per worker: each worker runs this hook.
    out = resolve(outDir, `author-page-${testInfo.workerIndex}.html`);
    rmSync(out, { force: true });
    const r = bundle(fixture, out);
    stderr = r.stderr;
    expect(r.status, r.stderr).toBe(0);
  });

  test('the file opens from file:// with the network blocked: widgets, scene, evaluate and mount work', async ({ page, context, problems }) => {
    // What the bundler said: the loader replaced, the CSP rewritten with hashes (kept strict).
    expect(stderr).toMatch(/the loader permlab\/permlab\.js is replaced by this build's/);
    expect(stderr).toMatch(/Content-Security-Policy rewritten .*script-src \+ \d+ sha256 hash/);
    const html = readFileSync(out, 'utf8');
    const policy = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1];
    expect(policy).toMatch(/^default-src 'self'; script-src 'self' 'wasm-unsafe-eval' 'sha256-/);
    const scriptSrc = policy.split(';').find((d) => d.trim().startsWith('script-src'));
    expect(scriptSrc).not.toMatch(/'unsafe-inline'|'unsafe-eval'|data:|\*/);

    const { network, requests } = await openOffline(page, context, out);
    // Nothing of the page is referenced by URL any more.
    await expect(page.locator('script[src], link[rel~="stylesheet"], link[rel~="modulepreload"]')).toHaveCount(0);
    // Widget 1: a placeholder the loader mounts (explore: every verdict shown at once).
    const explore = page.locator('#explore');
    await expect(explore.locator('tbody.pl-rules tr')).toHaveCount(2);
    await expect(explore).toHaveAttribute('data-permlab-state', 'mounted');
    await expect(explore.locator('.pl-engine[data-engine="opencode"]')).toHaveAttribute('data-verdict', 'allow');
    await expect(explore.locator('.pl-engine[data-engine="first-match"]')).toHaveAttribute('data-verdict', 'deny');
    await expect(explore.locator('.pl-engine[data-engine="claude-code"]')).toHaveAttribute('data-verdict', 'deny');
    // Widget 2: mounted by the page's own script with mount(el, lesson) (a quiz: guess, reveal).
    const quiz = page.locator('#quiz');
    await expect(quiz).toHaveAttribute('data-mounted-by', 'page-script');
    await expect(quiz.locator('tbody.pl-rules tr')).toHaveCount(3);
    await expect(quiz.locator('.pl-widget')).toHaveAttribute('lang', 'zh-CN');
    for (const [engine, verdict] of [['first-match', 'allow'], ['opencode', 'deny']]) {
      const panel = quiz.locator(`.pl-engine[data-engine="${engine}"]`);
      await panel.locator('.pl-guess-btn[data-guess="allow"]').click();
      await panel.locator('.pl-reveal').click();
      await expect(panel).toHaveAttribute('data-verdict', verdict);
    }
    // The scene, from the same (inlined) wasm as the tables.
    const flow = page.locator('#flow');
    await flow.scrollIntoViewIfNeeded();
    await expect(flow.locator('section.pl-scene[data-scene="claude-flow"]')).toBeVisible();
    await expect(flow.locator('.pl-cf-result[data-outcome]')).toBeAttached();
    // The page script's evaluate().
    await expect(page.locator('#api-result')).toHaveAttribute('data-decision', 'allow');
    await expect(page.locator('#api-result')).toHaveText('allow by rule 2');
    // The page's own stylesheet came along.
    expect(await page.locator('#api-result').evaluate((e) => getComputedStyle(e).fontWeight)).toBe('700');
    // No load failure anywhere, the static contents replaced, no request left the file.
    await expect(page.locator('.pl-load-error')).toHaveCount(0);
    await expect(page.locator('.author-static')).toHaveCount(0);
    expect(network).toEqual([]);
    expect(requests()).toEqual([]);
    await page.screenshot({ path: screenshotPath('bundle-author-page'), fullPage: true });
    expect(problems).toEqual([]);
  });

  test('a broken wasm in the file: each widget says so (role=alert) and keeps its static content', async ({ page, context, problems }) => {
    const broken = out.replace(/\.html$/, '-broken.html');
    // Not gzip: the unpacking fails as a damaged or truncated file would. The script's hash in
    // the CSP follows (else the policy blocks the whole script, as it should).
    const html = readFileSync(out, 'utf8');
    const at = html.indexOf('const WIDGET_WASM = ');
    const open = '<script type="module">';
    const start = html.lastIndexOf(open, at) + open.length;
    const script = html.slice(start, html.indexOf('</script>', at));
    const damaged = script.replace(/const WIDGET_WASM = "[^"]*";/, 'const WIDGET_WASM = "AAAA";');
    const hash = (t) => `'sha256-${createHash('sha256').update(t, 'utf8').digest('base64')}'`;
    expect(html).toContain(hash(script));
    writeFileSync(broken, html.replace(script, damaged).replace(hash(script), hash(damaged)));
    const { network } = await openOffline(page, context, broken);
    const explore = page.locator('#explore');
    await expect(explore).toHaveAttribute('data-permlab-state', 'failed');
    await expect(explore.locator('> .pl-load-error[role="alert"]')).toContainText('The interactive widget could not be loaded');
    await expect(explore.locator('.author-static')).toBeVisible();
    await expect(page.locator('#quiz')).toHaveAttribute('data-mounted-by', 'failed');
    await expect(page.locator('#quiz > .pl-load-error[role="alert"]')).toContainText('交互组件没能加载');
    await expect(page.locator('#api-result')).toHaveAttribute('data-decision', 'failed');
    // The scene shares the wasm: it says so too, and its static content stays.
    await page.locator('#flow').scrollIntoViewIfNeeded();
    await expect(page.locator('#flow')).toHaveAttribute('data-permlab-state', 'failed');
    await expect(page.locator('#flow > .pl-load-error[role="alert"]')).toBeVisible();
    await expect(page.locator('#flow section.pl-scene')).toHaveCount(0);
    expect(network).toEqual([]);
    expect(problems).toEqual([]);
  });
});

test.describe('scripts/bundle with the worker inside', () => {
  test.use({ allowedHosts: [] });

  test('a lesson with a Codex .rules preset: the worker is inlined by itself; the lesson loads and the self-check runs from file://', async ({ page, context, problems }, testInfo) => {
    test.setTimeout(120_000);
    mkdirSync(outDir, { recursive: true });
    const out = resolve(outDir, `codex-${testInfo.workerIndex}.html`);
    const r = bundle(resolve(repo, 'web/e2e/fixtures/bundle-page/codex.html'), out);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/a lesson with a Codex \.rules preset: the worker that reads it is inlined/);
    expect(r.stderr).toMatch(/worker-src \+ blob:/);
    const { network } = await openOffline(page, context, out);
    const w = page.locator('#codex');
    await expect(w.locator('.pl-lesson-pending')).toHaveCount(0);
    await expect(w.locator('tbody.pl-rules tr')).toHaveCount(2);
    await expect(w.locator('.pl-engine[data-engine="codex"]')).toHaveAttribute('data-verdict', 'deny');
    // The self-check: its worker from a blob: URL, its fixtures from the file.
    await w.locator('details.pl-more > summary').click();
    await w.locator('.pl-run-check').click();
    await expect(w.locator('.pl-check')).toHaveCount(7, { timeout: 60_000 });
    await expect(w.locator('.pl-check[data-ok="true"]')).toHaveCount(7);
    await expect(w.locator('.pl-check[data-check="opencode"]')).toContainText(/(\d+)\/\1 /);
    expect(network).toEqual([]);
    expect(problems).toEqual([]);
  });
});

test.describe('scripts/bundle on a page of scenes alone', () => {
  test.use({ allowedHosts: [] });

  test('the demo scenes page: the page bundle goes in once, and all eight scenes mount from file://', async ({ page, context, problems }, testInfo) => {
    mkdirSync(outDir, { recursive: true });
    const out = resolve(outDir, `scenes-${testInfo.workerIndex}.html`);
    const r = bundle(resolve(repo, 'dist/demo/scenes.html'), out);
    expect(r.status, r.stderr).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html.split('const WIDGET_WASM = "').length).toBe(2);
    expect(html).toContain('the page bundle: this page has a scene');
    expect(html).not.toContain('SCENES_WASM');
    const { network } = await openOffline(page, context, out);
    for (const slug of ['timeline', 'claude-flow', 'opencode-lifecycle', 'merge', 'replay', 'codex-approvals', 'comparison', 'design-evaluator']) {
      await page.locator(`#${slug}`).scrollIntoViewIfNeeded();
      await expect(page.locator(`#${slug} section.pl-scene[data-scene="${slug}"]`)).toBeVisible();
    }
    await expect(page.locator('.pl-load-error')).toHaveCount(0);
    expect(network).toEqual([]);
    expect(problems).toEqual([]);
  });
});

test('scripts/bundle refuses a page with a remote script or a missing file, naming each, and writes nothing', () => {
  const dir = resolve(outDir, 'refused');
  mkdirSync(dir, { recursive: true });
  const page = resolve(dir, 'page.html');
  writeFileSync(page, `<!doctype html>
<html lang="en"><head>
<script type="module" src="permlab/permlab.js"></script>
<script src="https://cdn.example.com/analytics.js"></script>
<link rel="stylesheet" href="missing.css">
</head><body><div id="w" data-permlab></div></body></html>
`);
  const out = resolve(dir, 'out.html');
  rmSync(out, { force: true });
  const r = bundle(page, out);
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('page.html:4: cannot inline the script https://cdn.example.com/analytics.js: it is a remote URL.');
  expect(r.stderr).toMatch(/page\.html:5: cannot inline the stylesheet missing\.css: no such file .*missing\.css\./);
  expect(r.stderr).toContain('nothing written');
  expect(existsSync(out)).toBe(false);
  // A page script importing anything but the loader is refused too (bundle it into one file first).
  writeFileSync(resolve(dir, 'app.js'), "import { x } from './util.js';\nconsole.log(x);\n");
  writeFileSync(page, '<!doctype html><html><head><script type="module" src="app.js"></script></head><body><div data-permlab></div></body></html>\n');
  const r2 = bundle(page, out);
  expect(r2.status).toBe(1);
  expect(r2.stderr).toMatch(/cannot inline the import of \.\/util\.js: only imports of permlab\.js are inlined/);
  expect(existsSync(out)).toBe(false);
});
