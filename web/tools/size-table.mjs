// The README's size table, from `scripts/size-report`'s output for a build, so its figures
// cannot go stale:
//   node web/tools/size-table.mjs [DIST]                  prints the table (markdown)
//   node web/tools/size-table.mjs --check README.md [DIST]  exit 1 when the README's table is off
//   node web/tools/size-table.mjs --write README.md [DIST]  rewrites the README's table
// The table sits between `<!-- size-table:begin -->` and `<!-- size-table:end -->`. Figures are
// in KB (1000 B), rounded; --check accepts a figure within 3 % (at least 2 KB) of the build's,
// so a small change to the Rust code does not make every branch rewrite the README, and a
// real change (a bundle 10 % bigger) fails scripts/test until the table is regenerated.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BEGIN = '<!-- size-table:begin -->';
const END = '<!-- size-table:end -->';

/** scripts/size-report's output for `dist`, as {section: {file: [raw, gzip, brotli]}} ('' = dist itself). */
export function sizeReport(dist = 'dist') {
  const r = spawnSync(resolve(repo, 'scripts/size-report'), [dist], { cwd: repo, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`scripts/size-report ${dist} failed:\n${r.stderr}`);
  const sections = { '': {} };
  let section = '';
  for (const line of r.stdout.split('\n')) {
    const on = /^on demand: .*?([^/]+)\/$/.exec(line);
    if (on) { section = on[1]; sections[section] = {}; continue; }
    const m = /^(.*?)\s+(\d+)\s+(\d+)\s+(\d+)$/.exec(line);
    if (m) sections[section][m[1]] = [Number(m[2]), Number(m[3]), Number(m[4])];
  }
  return sections;
}

const sum = (rows) => rows.reduce((a, r) => a.map((x, i) => x + r[i]), [0, 0, 0]);

/** The table's rows: [what, when, [raw, gzip, brotli]]. */
export function rows(report) {
  const top = report[''];
  const pick = (re) => Object.entries(top).filter(([f]) => re.test(f)).map(([, v]) => v);
  const bundle = (name) => {
    const found = pick(new RegExp(`^(${name}(-[0-9a-f]+)?(\\.js|_bg\\.wasm)|permlab\\.js|permlab(-[0-9a-f]+)?\\.css)$`));
    if (found.length !== 4) throw new Error(`size-table: expected ${name}'s wasm and glue, the loader and the stylesheet in the report, found ${found.length} of them`);
    return sum(found);
  };
  const out = [
    ['table widget: wasm, glue, loader `permlab.js`, stylesheet', 'a page whose placeholders are all table widgets', bundle('permlab-table')],
    ['page bundle, tables and scenes: wasm, glue, loader, stylesheet', 'a page with a scene (once per page: its table widgets use it too)', bundle('permlab-widget')],
  ];
  if (report.selfcheck) out.push(['worker: wasm, glue', 'only for the self-check, a Codex `.rules` file, lint of a pasted config', report.selfcheck['total (wasm + js + css)']]);
  for (const [f, v] of Object.entries(top)) {
    const m = /^offline\/(.*) \(single file\)$/.exec(f);
    if (m) out.push([`single file \`dist/offline/${m[1]}\``, 'the demo page with everything inside (`scripts/bundle`), from `file://`', v]);
  }
  return out;
}

const kb = (b) => `${Math.round(b / 1000)} KB`;

export function table(report) {
  return [
    '| what | downloaded | raw | gzip -9 | brotli |',
    '|---|---|---:|---:|---:|',
    ...rows(report).map(([what, when, v]) => `| ${what} | ${when} | ${v.map(kb).join(' | ')} |`),
  ].join('\n');
}

/** The README's table block, or an error. */
function block(text, file) {
  const b = text.indexOf(BEGIN);
  const e = text.indexOf(END);
  if (b === -1 || e === -1 || e < b) throw new Error(`${file}: no ${BEGIN} … ${END} block`);
  return { b: b + BEGIN.length, e, inner: text.slice(b + BEGIN.length, e) };
}

/** The differences between the README's table and the build's, as sentences. */
export function differences(readmeText, report, file = 'README.md') {
  const { inner } = block(readmeText, file);
  const shown = new Map();
  for (const line of inner.split('\n')) {
    const cells = line.split('|').slice(1, -1).map((c) => c.trim());
    if (cells.length === 5 && /KB$/.test(cells[2])) shown.set(cells[0], cells.slice(2).map((c) => Number(c.replace(/ KB$/, '')) * 1000));
  }
  const out = [];
  const expected = rows(report);
  for (const [what, , real] of expected) {
    const has = shown.get(what);
    if (!has) { out.push(`${file}: the size table has no row "${what}"`); continue; }
    ['raw', 'gzip -9', 'brotli'].forEach((col, i) => {
      const tolerance = Math.max(real[i] * 0.03, 2000);
      if (Math.abs(has[i] - real[i]) > tolerance) out.push(`${file}: "${what}" ${col}: the table says ${kb(has[i])}, the build has ${kb(real[i])} (${real[i]} B)`);
    });
  }
  for (const what of shown.keys()) if (!expected.some(([w]) => w === what)) out.push(`${file}: the size table's row "${what}" is not in the build`);
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const mode = ['--check', '--write'].includes(args[0]) ? args.shift() : null;
  const file = mode ? args.shift() : null;
  const dist = args[0] ?? 'dist';
  const report = sizeReport(dist);
  if (!mode) {
    console.log(table(report));
  } else if (mode === '--write') {
    const text = readFileSync(file, 'utf8');
    const { b, e } = block(text, file);
    writeFileSync(file, `${text.slice(0, b)}\n${table(report)}\n${text.slice(e)}`);
    console.log(`${file}: size table written from ${dist}`);
  } else {
    const diff = differences(readFileSync(file, 'utf8'), report, file);
    if (diff.length) {
      for (const d of diff) console.error(d);
      console.error(`regenerate it: node web/tools/size-table.mjs --write ${file} ${dist}`);
      process.exit(1);
    }
    console.log(`${file}: the size table matches ${dist} (within 3 %)`);
  }
}
