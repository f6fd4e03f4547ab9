// Time to the first rule row on a phone profile, for one or more built dist/ directories.
//
//   node web/e2e/bench-first-row.mjs DIST_A [DIST_B …] [--runs 3] [--page index.html]
//        [--warmup 1] [--selector 'tbody.pl-rules tr'] [--timeout 120] [--verbose] [--gzip]
//
// A benchmark, not a test (README, "Benchmarks"): e.g. this build's dist/ against an older
// build's, side by side in one run. Each dist is served by a small static server on 127.0.0.1,
// as it is or (--gzip) compressed as a static host would. Every run
// opens a FRESH browser context (Debian chromium, /usr/bin/chromium) with a phone profile:
// 390×844 CSS px, deviceScaleFactor 3, isMobile, hasTouch; CPU throttled 4× and the network
// emulated at 16 Mbit/s down and up with 150 ms RTT (CDP), cache disabled. The page records
// performance.now() (milliseconds since its navigation start) the moment the first row matching
// the selector is in the DOM with a layout box: a MutationObserver installed before any page
// script runs (addInitScript), so there is no polling bias; the frame it is painted in (the next
// requestAnimationFrame) and the first contentful paint are printed alongside. The dists run
// interleaved (A, B, A, B …) so the machine's load falls on all of them alike; an unrecorded
// warm-up load of each comes first.
//
// Needs only playwright-core (found by Node's resolution from this file, or NODE_PATH, or the
// PLAYWRIGHT_CORE variable below / environment variable) and node built-ins.
import { createServer } from 'node:http';
import { types as TYPES } from './serve.mjs';
import { gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

// Where playwright-core is: a module name or a path. In the repository (web/e2e/) the default
// name resolves to the repository's node_modules; elsewhere run with
// NODE_PATH=/path/to/repo/node_modules or PLAYWRIGHT_CORE=/path/to/repo/node_modules/playwright-core.
const PLAYWRIGHT_CORE = process.env.PLAYWRIGHT_CORE || 'playwright-core';
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

const PROFILE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
};
const CPU_RATE = 4;
const NETWORK = {
  offline: false,
  latency: 150, // ms, added per request (Chrome's request-level emulation)
  downloadThroughput: 16e6 / 8, // bytes/s: 16 Mbit/s
  uploadThroughput: 16e6 / 8,
};
const DEFAULT_SELECTOR = 'tbody.pl-rules tr';

// ---- arguments ----
const args = process.argv.slice(2);
const opts = { runs: 3, page: 'index.html', warmup: 1, selector: DEFAULT_SELECTOR, timeout: 120, verbose: false, gzip: false };
const dists = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  const m = /^--(runs|page|warmup|selector|timeout)(?:=(.*))?$/.exec(a);
  if (m) {
    const v = m[2] ?? args[++i];
    if (v === undefined) usage(`${a} needs a value`);
    opts[m[1]] = ['runs', 'warmup', 'timeout'].includes(m[1]) ? Number(v) : v;
  } else if (a === '--gzip') {
    opts.gzip = true;
  } else if (a === '--verbose' || a === '-v') {
    opts.verbose = true;
  } else if (a === '-h' || a === '--help') {
    usage();
  } else if (a.startsWith('--')) {
    usage(`unknown option ${a}`);
  } else {
    dists.push(a);
  }
}
if (dists.length === 0) usage('no dist directory given');
if (!(opts.runs >= 1) || !(opts.warmup >= 0) || !(opts.timeout > 0)) usage('bad --runs/--warmup/--timeout');

function usage(error) {
  if (error) console.error(`bench-first-row: ${error}`);
  console.error('usage: node bench-first-row.mjs DIST_A [DIST_B …] [--runs 3] [--page index.html] [--warmup 1]\n' +
    "                       [--selector 'tbody.pl-rules tr'] [--timeout 120] [--verbose] [--gzip]\n" +
    '  --gzip: the server sends gzip -6 when the browser accepts it, as a static host does.\n' +
    '  A selector per dist: DIR=SELECTOR, e.g. old/dist="#a3 tbody.pl-rules tr".');
  process.exit(error ? 2 : 0);
}

let chromium;
try {
  ({ chromium } = createRequire(import.meta.url)(PLAYWRIGHT_CORE));
} catch (e) {
  console.error(`bench-first-row: cannot load ${PLAYWRIGHT_CORE} (${e.code ?? e.message}); ` +
    'run with NODE_PATH=<repo>/node_modules or PLAYWRIGHT_CORE=<path to playwright-core>');
  process.exit(2);
}

// ---- static server: the files as they are (or gzip -6 with --gzip, as a static host sends them) ----

function serve(dir) {
  const root = resolve(dir);
  const stats = { bodyBytes: 0, requests: 0 };
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://127.0.0.1');
      let path = normalize(join(root, decodeURIComponent(url.pathname)));
      if (path !== root && !path.startsWith(root + sep)) {
        res.writeHead(403).end('forbidden');
        return;
      }
      if ((await stat(path).catch(() => null))?.isDirectory()) path = join(path, 'index.html');
      let body = await readFile(path);
      const gz = opts.gzip && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
      if (gz) body = gzipSync(body, { level: 6 });
      res.writeHead(200, {
        ...(gz ? { 'content-encoding': 'gzip' } : {}),
        'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
        'content-length': body.length,
        'cache-control': 'no-store',
      });
      stats.requests++;
      stats.bodyBytes += body.length;
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
    }
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done({ server, stats })));
}

// ---- the page-side probe (runs before any page script) ----
function probe(selector) {
  const out = (window.__firstRow = { row: null, frame: null, error: null });
  let frameAsked = false;
  let done = false;
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    const s = getComputedStyle(el);
    return s.visibility !== 'hidden' && s.display !== 'none';
  };
  const check = () => {
    if (done) return;
    let el;
    try {
      el = document.querySelector(selector);
    } catch (e) {
      out.error = String(e);
      done = true;
      return;
    }
    if (!el) return;
    if (visible(el)) {
      out.row = performance.now();
      done = true;
      mo.disconnect();
      // performance.now() inside the callback, not its timestamp argument: under CPU throttling
      // that is the frame's begin time, which can lie long before the task that made the row.
      requestAnimationFrame(() => {
        out.frame = performance.now();
      });
    } else if (!frameAsked) {
      // In the DOM but not laid out yet (hidden by a style that arrives later): look each frame.
      frameAsked = true;
      const again = () => {
        frameAsked = false;
        check();
        if (!done && !frameAsked) {
          frameAsked = true;
          requestAnimationFrame(again);
        }
      };
      requestAnimationFrame(again);
    }
  };
  const mo = new MutationObserver(check);
  mo.observe(document, { childList: true, subtree: true, attributes: true });
}

// ---- one measured load ----
async function measure(browser, url, selector) {
  const context = await browser.newContext(PROFILE);
  try {
    const page = await context.newPage();
    await page.addInitScript(probe, selector);
    const cdp = await context.newCDPSession(page);
    const finished = []; // [timestamp (s, monotonic), encodedDataLength, requestId]
    const urls = new Map();
    const sent = new Map();
    let docId = null;
    cdp.on('Network.requestWillBeSent', (e) => {
      urls.set(e.requestId, e.request.url);
      sent.set(e.requestId, e.timestamp);
      if (docId === null && e.type === 'Document') docId = e.requestId;
    });
    cdp.on('Network.loadingFinished', (e) => finished.push([e.timestamp, e.encodedDataLength, e.requestId]));
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', NETWORK);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_RATE });

    await page.goto(url, { waitUntil: 'commit', timeout: opts.timeout * 1000 });
    const h = await page.waitForFunction(() => {
      const r = window.__firstRow;
      return r && (r.error || (r.row !== null && r.frame !== null)) ? r : null;
    }, null, { timeout: opts.timeout * 1000, polling: 50 });
    const r = await h.jsonValue();
    if (r.error) throw new Error(`selector ${selector}: ${r.error}`);
    const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null);
    // Everything the page goes on to fetch (lazy chunks, fixtures): wait for a quiet network.
    await page.waitForLoadState('networkidle', { timeout: opts.timeout * 1000 }).catch(() => {});
    await new Promise((d) => setTimeout(d, 300));
    // CDP timestamps are monotonic seconds. The document request is sent at (about) the
    // navigation start, so the row appeared at about docSent + row: the bytes finished by then
    // are the ones the first row waited for.
    const docSent = sent.get(docId) ?? null;
    const atRow = docSent === null ? null : finished
      .filter(([t]) => t <= docSent + r.row / 1000).reduce((s, [, n]) => s + n, 0);
    const bytes = finished.reduce((s, [, n]) => s + n, 0);
    const files = finished.map(([t, n, id]) => [Math.round((t - (docSent ?? t)) * 1000), n, urls.get(id)]);
    return { row: r.row, frame: r.frame, fcp, bytes, atRow, requests: finished.length, files };
  } finally {
    await context.close();
  }
}

// ---- main ----
const fmtMs = (v) => (v === null || v === undefined ? '—' : v.toFixed(0));
const fmtB = (v) => v.toLocaleString('en-US');
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const entries = [];
for (const spec of dists) {
  const eq = spec.indexOf('=');
  const dir = eq > 0 ? spec.slice(0, eq) : spec;
  const selector = eq > 0 ? spec.slice(eq + 1) : opts.selector;
  if (!(await stat(join(dir, opts.page)).catch(() => null))?.isFile()) {
    console.error(`bench-first-row: ${join(dir, opts.page)} does not exist`);
    process.exit(2);
  }
  const { server, stats } = await serve(dir);
  entries.push({ dir: resolve(dir), selector, server, stats, url: `http://127.0.0.1:${server.address().port}/${opts.page}`, runs: [] });
}

console.log(`bench-first-row: time from navigation start to the first visible row, ${opts.runs} run(s) per dist, interleaved, ${opts.warmup} unrecorded warm-up load(s) each`);
console.log(`profile: ${PROFILE.viewport.width}×${PROFILE.viewport.height} CSS px, DPR ${PROFILE.deviceScaleFactor}, isMobile, hasTouch; CPU ${CPU_RATE}× slower; ` +
  `network ${(NETWORK.downloadThroughput * 8) / 1e6} Mbit/s down, ${(NETWORK.uploadThroughput * 8) / 1e6} Mbit/s up, ${NETWORK.latency} ms RTT; cache disabled; a fresh context per run`);
console.log(opts.gzip
  ? 'note: the files are served gzip -6 (as a static host would), so the throttled bytes are the compressed bytes'
  : 'note: the files are served uncompressed, so the throttled bytes are the raw (uncompressed) bytes; a host with gzip/brotli sends fewer (--gzip)');
console.log(`browser: ${CHROMIUM}; page: ${opts.page}`);
for (const [i, e] of entries.entries()) console.log(`dist ${String.fromCharCode(65 + i)}: ${e.dir}  (selector: ${e.selector})`);
console.log('columns: row = first row in the DOM with a layout box (MutationObserver), frame = the start of the next animation frame (rAF callback), fcp = first contentful paint,');
console.log('         all ms since navigation start (performance.now()); bytes = sum of CDP Network.loadingFinished encodedDataLength (incl. response headers)');
console.log('         finished by the time the row appeared (bytes@row) and up to a quiet network after it (bytes); req = requests finished;');
console.log('         served = response body bytes the server sent for this load' +
  (opts.verbose ? '; --verbose: per response, when it finished (ms after the document request) and its bytes' : ''));

const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
console.log(`chromium ${browser.version()}`);
try {
  const rounds = [];
  for (let w = 0; w < opts.warmup; w++) rounds.push({ warm: true, n: w + 1 });
  for (let r = 0; r < opts.runs; r++) rounds.push({ warm: false, n: r + 1 });
  for (const round of rounds) {
    for (const [i, e] of entries.entries()) {
      const served0 = e.stats.bodyBytes;
      const m = await measure(browser, e.url, e.selector);
      const served = e.stats.bodyBytes - served0;
      const label = `${round.warm ? 'warm-up' : 'run'} ${round.n} ${String.fromCharCode(65 + i)}`;
      console.log(`${label.padEnd(12)} row ${fmtMs(m.row).padStart(6)} ms  frame ${fmtMs(m.frame).padStart(6)} ms  fcp ${fmtMs(m.fcp).padStart(6)} ms  ` +
        `bytes@row ${fmtB(m.atRow ?? 0).padStart(11)}  bytes ${fmtB(m.bytes).padStart(11)}  req ${String(m.requests).padStart(3)}  served ${fmtB(served).padStart(11)}`);
      if (opts.verbose) for (const [t, n, u] of m.files) console.log(`    ${String(t).padStart(6)} ms ${fmtB(n).padStart(11)} B  ${u}`);
      if (!round.warm) e.runs.push({ ...m, served });
    }
  }
} finally {
  await browser.close();
  for (const e of entries) e.server.close();
}

console.log('\nmedians');
console.log(`${'dist'.padEnd(6)} ${'row ms'.padStart(8)} ${'frame ms'.padStart(9)} ${'fcp ms'.padStart(8)} ${'bytes@row'.padStart(12)} ${'bytes'.padStart(12)}  runs (row ms)`);
for (const [i, e] of entries.entries()) {
  const med = (k) => median(e.runs.map((r) => r[k]).filter((v) => v !== null));
  console.log(`${String.fromCharCode(65 + i).padEnd(6)} ${fmtMs(med('row')).padStart(8)} ${fmtMs(med('frame')).padStart(9)} ${fmtMs(med('fcp')).padStart(8)} ` +
    `${fmtB(Math.round(med('atRow'))).padStart(12)} ${fmtB(Math.round(med('bytes'))).padStart(12)}  ${e.runs.map((r) => fmtMs(r.row)).join(', ')}   ${e.dir}`);
}
