// Writes every lesson embedded in the demo pages (a `<script type="application/json">` whose
// JSON has `presets`) to a file of its own, so `permlab check` can check their answer keys like
// those of fixtures/lessons/. Prints the files' paths. Used by scripts/test:
//   permlab check $(node web/tools/demo-lessons.mjs artifacts/demo-lessons)
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const demo = resolve(dirname(fileURLToPath(import.meta.url)), '../demo');
const out = process.argv[2] ?? 'artifacts/demo-lessons';
mkdirSync(out, { recursive: true });
for (const page of readdirSync(demo).filter((f) => f.endsWith('.html')).sort()) {
  const html = readFileSync(join(demo, page), 'utf8');
  for (const m of html.matchAll(/<script type="application\/json" id="([^"]+)">([\s\S]*?)<\/script>/g)) {
    const [, id, text] = m;
    if (!('presets' in JSON.parse(text))) continue;
    const file = join(out, `${basename(page, '.html')}-${id}.json`);
    writeFileSync(file, text.trim() + '\n');
    console.log(file);
  }
}
