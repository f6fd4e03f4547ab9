// Trunk post_build hook (see Trunk.toml): runs in the staging dir before it becomes dist/.
//  1. Writes the hashed file names of this build into the page loader permlab.js (copied there
//     by index.html's copy-file), so the loader stays one stable URL while the glue, wasm and
//     stylesheet it loads keep content hashes (a cached old glue can never meet a new wasm).
//  2. Builds the single-file offline pages (offline/permlab-zh.html, -en.html), see
//     single-file.mjs.
// Usage (Trunk sets the variable): TRUNK_STAGING_DIR=dist node web/tools/post-build.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildNames, buildOffline } from './single-file.mjs';

const dir = process.env.TRUNK_STAGING_DIR ?? process.argv[2] ?? 'dist';

const BUILD_LINE = /^const BUILD = \{[^\n]*\};$/m;

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const names = buildNames(dir);
  const loader = join(dir, 'permlab.js');
  const text = readFileSync(loader, 'utf8');
  if (!BUILD_LINE.test(text)) throw new Error(`post-build: no "const BUILD = {…};" line in ${loader}`);
  writeFileSync(loader, text.replace(BUILD_LINE, `const BUILD = ${JSON.stringify(names)};`));
  console.log(`post-build: permlab.js loads ${names.glue}, ${names.wasm}, ${names.css}`);
  for (const { file, bytes } of buildOffline(dir)) console.log(`post-build: ${file} ${bytes} B`);
}
