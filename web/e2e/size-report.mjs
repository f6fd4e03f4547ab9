// Size report for the built widget: raw, gzip -9 and brotli (quality 11) per file and in total,
// then the single-file offline pages (dist/offline/*.html).
// Node's zlib does both compressions, so nothing else needs installing.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, extname } from 'node:path';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';

const dir = process.argv[2] ?? 'dist';
const files = readdirSync(dir)
  .filter((f) => ['.wasm', '.js', '.css'].includes(extname(f)) && statSync(join(dir, f)).isFile())
  .sort((a, b) => extname(a).localeCompare(extname(b)) || a.localeCompare(b));
if (files.length === 0) {
  console.error(`size-report: no .wasm/.js/.css files in ${dir}: run trunk build --release first`);
  process.exit(1);
}
const row = (name, raw, gz, br) =>
  `${name.padEnd(44)} ${String(raw).padStart(10)} ${String(gz).padStart(10)} ${String(br).padStart(10)}`;
console.log(row('file', 'raw B', 'gzip -9 B', 'brotli B'));
const total = [0, 0, 0];
for (const f of files) {
  const data = readFileSync(join(dir, f));
  const sizes = [
    data.length,
    gzipSync(data, { level: 9 }).length,
    brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  ];
  sizes.forEach((s, i) => (total[i] += s));
  console.log(row(f, ...sizes));
}
console.log(row('total (wasm + js + css)', ...total));

// The single-file offline pages (web/tools/single-file.mjs): everything in one HTML file.
const offline = join(dir, 'offline');
if (existsSync(offline)) {
  for (const f of readdirSync(offline).filter((f) => f.endsWith('.html')).sort()) {
    const data = readFileSync(join(offline, f));
    console.log(row(`offline/${f} (single file)`, data.length, gzipSync(data, { level: 9 }).length,
      brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length));
  }
}

// What a page downloads, against the budgets (issue "a lighter page"): the files the loader
// fetches are the ones its BUILD line names (dist/permlab.js, written by post_build). A page
// whose placeholders are all tables fetches the table-only bundle (tableGlue, tableWasm); a
// course page with a scene (2 tables + the timeline) fetches the page bundle (glue, wasm) for
// all of them. A report, not a test: over budget is printed, not failed.
const loader = join(dir, 'permlab.js');
if (existsSync(loader)) {
  const build = /const BUILD = (\{[^}]*\});/.exec(readFileSync(loader, 'utf8'));
  if (!build) {
    console.error('size-report: dist/permlab.js has no BUILD line');
    process.exit(1);
  }
  const names = JSON.parse(build[1].replace(/(\w+):/g, '"$1":').replaceAll("'", '"'));
  const brotli = (f) => brotliCompressSync(readFileSync(join(dir, f)), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  const sum = (files) => files.map(brotli).reduce((a, b) => a + b, 0);
  const pages = [
    ['table page (one table widget)', sum(['permlab.js', names.tableGlue, names.tableWasm, names.css]), 280_000],
    ['course page (2 tables + the timeline scene)', sum(['permlab.js', names.glue, names.wasm, names.css]), 340_000],
  ];
  for (const f of existsSync(offline) ? readdirSync(offline).filter((f) => f.endsWith('.html')).sort() : []) {
    pages.push([`single file offline/${f}`, brotli(join('offline', f)), 380_000]);
  }
  console.log(`\n${'page (brotli, what the browser downloads)'.padEnd(44)} ${'brotli B'.padStart(10)} ${'budget B'.padStart(10)}`);
  for (const [what, b, budget] of pages) {
    const verdict = b <= budget ? 'within' : `over by ${Math.round((b - budget) / 1000)} KB`;
    console.log(`${what.padEnd(44)} ${String(b).padStart(10)} ${String(budget).padStart(10)}  ${verdict}`);
  }
}
