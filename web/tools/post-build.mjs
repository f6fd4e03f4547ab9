// Trunk post_build hook (see Trunk.toml): runs in the staging dir before it becomes dist/.
//  1. Gives the page bundle (permlab-widget.js and _bg.wasm, built by a worker-type link, which
//     Trunk neither hashes nor loads) content-hashed names as Trunk gives the table bundle, then
//     writes the hashed file names of this build into the page loader permlab.js (copied there
//     by index.html's copy-file), so the loader stays one stable URL while the glue, wasm and
//     stylesheet it loads keep content hashes (a cached old glue can never meet a new wasm).
//  2. Builds the single-file offline pages (offline/permlab-zh.html, -en.html), see
//     single-file.mjs.
// Usage (Trunk sets the variable): TRUNK_STAGING_DIR=dist node web/tools/post-build.mjs
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildNames, buildOffline } from './single-file.mjs';

const dir = process.env.TRUNK_STAGING_DIR ?? process.argv[2] ?? 'dist';

const BUILD_LINE = /^const BUILD = \{[^\n]*\};$/m;

/** Renames `<dir>/permlab-widget.js` and `_bg.wasm` to `permlab-widget-<hash>…`, one hash of both files. */
export function hashPageBundle(d) {
  const glue = join(d, 'permlab-widget.js');
  const wasm = join(d, 'permlab-widget_bg.wasm');
  if (!existsSync(glue) || !existsSync(wasm)) return;
  const hash = createHash('sha256').update(readFileSync(glue)).update(readFileSync(wasm)).digest('hex').slice(0, 16);
  renameSync(glue, join(d, `permlab-widget-${hash}.js`));
  renameSync(wasm, join(d, `permlab-widget-${hash}_bg.wasm`));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  hashPageBundle(dir);
  const names = buildNames(dir);
  const loader = join(dir, 'permlab.js');
  const text = readFileSync(loader, 'utf8');
  if (!BUILD_LINE.test(text)) throw new Error(`post-build: no "const BUILD = {…};" line in ${loader}`);
  writeFileSync(loader, text.replace(BUILD_LINE, `const BUILD = ${JSON.stringify(names)};`));
  console.log(`post-build: permlab.js loads ${Object.values(names).join(', ')}`);
  for (const { file, bytes } of buildOffline(dir)) console.log(`post-build: ${file} ${bytes} B`);
}
