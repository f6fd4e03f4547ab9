// Builds the single-file offline lesson pages: dist/offline/permlab-zh.html and -en.html, one
// self-contained HTML file each (the demo course page with its two widgets, its stylesheet, the
// widget's stylesheet, the wasm-bindgen glue and the wasm inlined) that opens from file:// with
// no server and no network.
//
// How the wasm travels: gzip -9, then base64 in a string of the module script; the page
// un-base64s it, un-gzips it with the browser's DecompressionStream and hands the bytes to the
// glue's init function (async, so the page paints first). Without a loader script, the wasm's
// start function mounts every placeholder at once. The self-check is hidden
// (data-selfcheck="none"): its worker cannot start from a file:// page.
//
// Runs as part of `trunk build` (the post_build hook, web/tools/post-build.mjs) and alone:
//   node web/tools/single-file.mjs [DIST]        (DIST defaults to dist)
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const LANGS = ['zh', 'en'];

/** The hashed names of the widget's glue, wasm and stylesheet in `d`; fails on none or several. */
export function buildNames(d = 'dist') {
  const names = readdirSync(d);
  const pick = (re) => {
    const found = names.filter((f) => re.test(f));
    if (found.length !== 1) throw new Error(`expected one file matching ${re} in ${d}, found ${found.join(', ') || 'none'}`);
    return found[0];
  };
  return {
    glue: pick(/^permlab-widget(-[0-9a-f]+)?\.js$/),
    wasm: pick(/^permlab-widget(-[0-9a-f]+)?_bg\.wasm$/),
    css: pick(/^permlab(-[0-9a-f]+)?\.css$/),
  };
}

/** Text that may sit inside a <script> or <style> element without ending it early. */
function rawText(text) {
  return text.replace(/<\/(script|style)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

/** The loader's load-failure block (one source for the messages), see web/embed/permlab.js. */
function failureBlock() {
  const loader = readFileSync(resolve(here, '../embed/permlab.js'), 'utf8');
  const m = loader.match(/\/\/ ---- load failure[^\n]*\n([\s\S]*?)\/\/ ---- end of load failure ----/);
  if (!m) throw new Error('single-file: no load-failure block in web/embed/permlab.js');
  return m[1];
}

/** The glue as a plain module body, and the local name of its init function (its default export). */
function glueBody(glue) {
  const m = glue.match(/export\s*\{([^}]*)\};?\s*$/);
  const init = m?.[1].split(',').map((s) => s.trim()).find((s) => / as default$/.test(s))?.replace(/ as default$/, '');
  if (!init) throw new Error('single-file: cannot find the glue\'s default export (wasm-bindgen output changed?)');
  return { body: glue.slice(0, m.index), init };
}

function boot(glue, init, wasm) {
  const b64 = gzipSync(wasm, { level: 9 }).toString('base64');
  return `${glue}
${failureBlock()}
const WASM_GZIP_BASE64 = "${b64}";
try {
  const gz = Uint8Array.from(atob(WASM_GZIP_BASE64), (c) => c.charCodeAt(0));
  const wasm = await new Response(new Blob([gz]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
  // The wasm's start function mounts every [data-permlab] placeholder.
  await ${init}({ module_or_path: wasm });
} catch (err) {
  for (const el of document.querySelectorAll('[data-permlab]')) showFailure(el, err);
}
`;
}

/** Writes DIST/offline/permlab-<lang>.html from DIST/demo/<lang>.html; returns [{file, bytes}]. */
export function buildOffline(dist = 'dist') {
  const names = buildNames(dist);
  const { body, init } = glueBody(readFileSync(join(dist, names.glue), 'utf8'));
  const css = readFileSync(join(dist, names.css), 'utf8');
  const script = rawText(boot(body, init, readFileSync(join(dist, names.wasm))));
  const out = join(dist, 'offline');
  mkdirSync(out, { recursive: true });
  const written = [];
  for (const lang of LANGS) {
    const demo = join(dist, 'demo');
    let html = readFileSync(join(demo, `${lang}.html`), 'utf8');
    // The page's own stylesheets, inlined.
    html = html.replace(/<link rel="stylesheet" href="([^"]+)">/g, (_, href) =>
      `<style>\n${rawText(readFileSync(join(demo, href), 'utf8'))}</style>`);
    // The loader goes; the widget's stylesheet and the inlined widget come instead.
    const loader = /\s*<!--[^>]*-->\s*<script type="module" src="\.\.\/permlab\.js"><\/script>|\s*<script type="module" src="\.\.\/permlab\.js"><\/script>/;
    if (!loader.test(html)) throw new Error(`single-file: demo/${lang}.html does not load ../permlab.js`);
    html = html.replace(loader, `\n  <style>\n${rawText(css)}</style>\n  <script type="module">\n${script}</script>`);
    // No self-check (no worker from file://); links to the other language stay offline.
    html = html.replace(/ data-permlab( |>)/g, ' data-permlab data-selfcheck="none"$1');
    for (const other of LANGS) html = html.replaceAll(`href="${other}.html"`, `href="permlab-${other}.html"`);
    const file = join(out, `permlab-${lang}.html`);
    writeFileSync(file, html);
    written.push({ file, bytes: Buffer.byteLength(html) });
  }
  return written;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const { file, bytes } of buildOffline(process.argv[2] ?? 'dist')) {
    console.log(`${file}: ${bytes} B (${(bytes / 1024).toFixed(0)} KiB)`);
  }
}
