// Makes one self-contained HTML file of a course page that embeds permlab, so it opens from
// file:// with no server and no network (`scripts/bundle PAGE.html OUT.html` runs this).
//
//   node web/tools/single-file.mjs PAGE.html OUT.html [--dist DIR] [--root DIR]
//                                  [--worker] [--no-worker] [--link FROM=TO]…
//   node web/tools/single-file.mjs [DIST]     the demo pages: DIST/offline/permlab-{zh,en}.html
//                                              (what scripts/test's single-file step does with
//                                              two scripts/bundle commands; post_build calls it)
//
// What goes in, from the release build in DIST (default dist/) and the files next to the page:
// - the page loader (`<script type="module" src="…/permlab.js">`, any URL ending in permlab.js:
//   it is replaced by this build's loader, web/embed/permlab.js, whose "fetching" blocks become
//   the inlined versions below);
// - the widget's wasm-bindgen glue and wasm, gzip -9 then base64 in a string, unpacked with
//   DecompressionStream when first needed; the glue is wrapped in a function so its names stay
//   its own. One bundle, the one the page's placeholders need (as the loader picks it): the
//   page bundle when a placeholder is a scene (`data-scene`), else the table-only bundle (a
//   scene added later by the page's own script then shows its static content with a note);
// - the widget's stylesheet, and the page's own local `<link rel="stylesheet">` files (with the
//   local files their `url(…)`s name, as data: URLs);
// - the page's local `<script src>` files. A module script's imports of the loader
//   (`import { evaluate } from '../permlab.js'`, `import * as p from …`, `import('…/permlab.js')`)
//   become reads of the inlined loader's exports; any other import is refused (bundle the page
//   script into one file first). A classic `defer` script moves to the end of <body> (an inline
//   script cannot be deferred).
// - A `<meta http-equiv="Content-Security-Policy">` stays, with the sha256 hashes of every
//   inline script and style of the output added to script-src and style-src (or to a copy of
//   default-src), and 'wasm-unsafe-eval' (the policy stays as strict as it was otherwise).
// - the worker (self-check, Codex `.rules` reader, linter) when a lesson of the page has a Codex
//   `.rules` preset, or with --worker: a blob: URL made once (a worker can start from that on a
//   file:// page), its wasm and the conformance fixtures inside, the fixtures answered by the
//   worker's own fetch; a CSP gets worker-src blob:. Without it the self-check is hidden
//   (data-selfcheck="none") and the widget says a `.rules` file or lint needs the worker.
// Refused (exit 1, one message per problem, the page's line): remote or root-relative URLs of
// scripts and stylesheets (without --root), missing files, `<base href>`, imports other than
// the loader's. Warned about (stderr): remote images, icons and other references that stay.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const LOADER_SOURCE = resolve(here, '../embed/permlab.js');

/**
 * The hashed names of the widget's two bundles (`glue`/`wasm`: the page bundle, table widgets
 * and scenes; `tableGlue`/`tableWasm`: the table widget alone) and stylesheet in `d`; fails on
 * none or several.
 */
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
    tableGlue: pick(/^permlab-table(-[0-9a-f]+)?\.js$/),
    tableWasm: pick(/^permlab-table(-[0-9a-f]+)?_bg\.wasm$/),
    css: pick(/^permlab(-[0-9a-f]+)?\.css$/),
  };
}

/** A problem the bundler refuses: the message is for the author, no stack. */
export class BundleError extends Error {
  constructor(problems) {
    super(problems.join('\n'));
    this.problems = problems;
  }
}

// ---- a small HTML tokenizer: tags with their attributes and positions ----------------------

const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title']);

function decodeEntities(s) {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|amp|quot|apos|lt|gt);/gi, (m, e) => {
    const l = e.toLowerCase();
    if (l[0] === '#') return String.fromCodePoint(l[1] === 'x' ? parseInt(l.slice(2), 16) : parseInt(l.slice(1), 10));
    return { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' }[l];
  });
}

const escapeAttr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** Every start tag of `html`: {name, attrs: Map, start, end, content?, closeEnd?} (raw text elements carry their content). */
export function tags(html) {
  const out = [];
  let i = 0;
  while ((i = html.indexOf('<', i)) !== -1) {
    if (html.startsWith('<!--', i)) {
      const e = html.indexOf('-->', i + 4);
      i = e === -1 ? html.length : e + 3;
      continue;
    }
    if (html[i + 1] === '!' || html[i + 1] === '?' || html[i + 1] === '/') {
      const e = html.indexOf('>', i);
      i = e === -1 ? html.length : e + 1;
      continue;
    }
    const m = /^<([a-zA-Z][a-zA-Z0-9-]*)/.exec(html.slice(i, i + 64));
    if (!m) { i += 1; continue; }
    const name = m[1].toLowerCase();
    let j = i + m[0].length;
    const attrs = new Map();
    for (;;) {
      while (/\s/.test(html[j] ?? '')) j++;
      if (j >= html.length) break;
      if (html[j] === '>') { j++; break; }
      if (html.startsWith('/>', j)) { j += 2; break; }
      const an = /^[^\s"'>/=]+/.exec(html.slice(j, j + 256));
      if (!an) { j++; continue; }
      j += an[0].length;
      let value = '';
      let k = j;
      while (/\s/.test(html[k] ?? '')) k++;
      if (html[k] === '=') {
        k++;
        while (/\s/.test(html[k] ?? '')) k++;
        const q = html[k];
        if (q === '"' || q === "'") {
          const e = html.indexOf(q, k + 1);
          value = html.slice(k + 1, e === -1 ? html.length : e);
          j = e === -1 ? html.length : e + 1;
        } else {
          const v = /^[^\s>]*/.exec(html.slice(k))[0];
          value = v;
          j = k + v.length;
        }
      }
      const key = an[0].toLowerCase();
      if (!attrs.has(key)) attrs.set(key, decodeEntities(value));
    }
    const tag = { name, attrs, start: i, end: j };
    if (RAW_TEXT.has(name)) {
      const re = new RegExp(`</${name}`, 'ig');
      re.lastIndex = j;
      const close = re.exec(html);
      const cEnd = close ? html.indexOf('>', close.index) : -1;
      tag.content = html.slice(j, close ? close.index : html.length);
      tag.closeStart = close ? close.index : html.length;
      tag.closeEnd = cEnd === -1 ? html.length : cEnd + 1;
      i = tag.closeEnd;
    } else {
      i = j;
    }
    out.push(tag);
  }
  return out;
}

/** A path as the author typed it: relative to the working directory when under it, else absolute. */
const shown = (file) => { const r = relative(process.cwd(), file); return r && !r.startsWith('..') ? r : file; };

const lineOf = (text, index) => text.slice(0, index).split('\n').length;

/** Text that may sit inside a <script> or <style> element without ending it early. */
function rawText(text) {
  return text.replace(/<\/(script|style)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

const JS_TYPES = new Set(['', 'module', 'text/javascript', 'application/javascript', 'text/ecmascript', 'application/ecmascript']);
const isScript = (t) => t.name === 'script' && JS_TYPES.has((t.attrs.get('type') ?? '').trim().toLowerCase());
const isModule = (t) => (t.attrs.get('type') ?? '').trim().toLowerCase() === 'module';
const relList = (t) => (t.attrs.get('rel') ?? '').toLowerCase().split(/\s+/).filter(Boolean);

// ---- the inlined widget -----------------------------------------------------------------------

/** An expression: the promise of the inlined loader's exports (created by whichever script asks first). */
const BUNDLE = '(globalThis.permlabBundle ??= (() => { let r; const p = new Promise((x) => { r = x; }); p.resolve = r; return p; })())';

/** The glue of the table widget (an ES module) as an expression evaluating to its exports. */
function moduleGlue(text) {
  const m = text.match(/export\s*\{([^}]*)\};?\s*$/);
  if (!m) throw new Error('single-file: cannot find the glue\'s export list (wasm-bindgen output changed?)');
  if (/^import\s/m.test(text)) throw new Error('single-file: the glue imports other files (wasm-bindgen snippets?): not supported');
  const names = [];
  let body = text.slice(0, m.index).replace(/^export\s+(async\s+function\*?|function\*?|class|const|let|var)\s+([A-Za-z_$][\w$]*)/gm, (_, kind, name) => {
    names.push(`${name}: ${name}`);
    return `${kind} ${name}`;
  });
  for (const part of m[1].split(',').map((s) => s.trim()).filter(Boolean)) {
    const [local, as] = part.split(/\s+as\s+/);
    names.push(`${as ?? local}: ${local}`);
  }
  body = body.replace(/^\s+|\s+$/g, '');
  return `(() => {\n${body}\nreturn { ${names.join(', ')} };\n})()`;
}

const packed = (bytes) => gzipSync(bytes, { level: 9 }).toString('base64');

/** The fixtures' pseudo-URL prefix in the file's worker (its fetch answers it from the file). */
const FIXTURES_BASE = 'permlab-fixtures:/';

/**
 * `defaults` with the worker inlined: the self-check's worker (the Codex `.rules` reader, the
 * linter) as a blob: URL made once, its wasm and the conformance fixtures inside it; the worker's
 * own `fetch` answers the fixtures' URLs (so nothing is fetched, and no connect-src is needed).
 */
function workerDefaults(dist) {
  const glue = readFileSync(join(dist, 'selfcheck/selfcheck.js'), 'utf8');
  if (!/^let wasm_bindgen\b/m.test(glue)) throw new Error('single-file: the worker\'s glue does not define wasm_bindgen (wasm-bindgen output changed?)');
  const dir = join(dist, 'conformance');
  const fixtures = Object.fromEntries(readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
  const prelude = `const unpack = async (b64) => {
  const gz = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  return new Response(new Blob([gz]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
};
const fixtures = unpack(FIXTURES_GZ).then((b) => JSON.parse(new TextDecoder().decode(b)));
const fetchFile = self.fetch.bind(self);
self.fetch = (input, init) => {
  const url = typeof input === 'string' ? input : input.url;
  if (!url.startsWith(${JSON.stringify(FIXTURES_BASE)})) return fetchFile(input, init);
  const name = decodeURIComponent(url.slice(${FIXTURES_BASE.length}));
  return fixtures.then((f) => (name in f
    ? new Response(f[name], { headers: { 'content-type': 'application/json' } })
    : new Response('not in this file', { status: 404 })));
};
`;
  return `const WORKER_WASM = "${packed(readFileSync(join(dist, 'selfcheck/selfcheck_bg.wasm')))}";
const WORKER_FIXTURES = "${packed(Buffer.from(JSON.stringify(fixtures)))}";
const WORKER_PRELUDE = ${JSON.stringify(prelude)};
const WORKER_GLUE = ${JSON.stringify(glue)};
let workerUrl;
function defaults(el) {
  if (el.getAttribute('data-selfcheck') === 'none') return;
  workerUrl ??= URL.createObjectURL(new Blob([
    \`const FIXTURES_GZ = "\${WORKER_FIXTURES}";\n\`, WORKER_PRELUDE, WORKER_GLUE,
    \`\nunpack("\${WORKER_WASM}").then((bytes) => wasm_bindgen({ module_or_path: bytes }));\n\`,
  ], { type: 'text/javascript' }));
  el.setAttribute('data-selfcheck', workerUrl);
  el.setAttribute('data-fixtures', ${JSON.stringify(FIXTURES_BASE)});
}
`;
}

/** The loader module with its fetching blocks replaced by the inlined glue and wasm. */
function bundledLoader(dist, names, want) {
  const src = readFileSync(LOADER_SOURCE, 'utf8');
  const blocks = [...src.matchAll(/\/\/ ---- fetching[^\n]*\n([\s\S]*?)\/\/ ---- end of fetching ----\n/g)];
  const fnOf = (b) => /(?:async\s+)?function\s+([A-Za-z]+)/.exec(b[1])?.[1];
  const need = ['glue', 'stylesheet', 'defaults'];
  const found = blocks.map(fnOf);
  if (need.some((n) => !found.includes(n))) {
    throw new Error(`single-file: ${LOADER_SOURCE} must have one "// ---- fetching" block per function ${need.join(', ')}; found ${found.join(', ')}`);
  }
  const impl = {
    glue: `const WIDGET_WASM = "${packed(readFileSync(join(dist, want.scenes ? names.wasm : names.tableWasm)))}";
let widgetGlue;
/** The one inlined bundle, whichever the loader asks for (${want.scenes ? 'the page bundle: this page has a scene' : 'the table-only bundle: this page has no scene'}). */
async function glue() {
  widgetGlue ??= ${moduleGlue(readFileSync(join(dist, want.scenes ? names.glue : names.tableGlue), 'utf8'))};
  await widgetGlue.default({ module_or_path: await unpack(WIDGET_WASM) });
  return widgetGlue;
}
/** The bytes of a gzip + base64 string (DecompressionStream: no fetch, so no network and no CSP connect-src). */
async function unpack(b64) {
  const gz = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  return new Response(new Blob([gz]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
}
`,
    // The widget's stylesheet is a <style data-permlab-css> of the file.
    stylesheet: 'function stylesheet() { return Promise.resolve(); }\n',
    // Without the worker: no self-check (its worker and fixtures are files). With it: the
    // worker starts from a blob: URL (allowed from file://) and reads the fixtures from the file.
    defaults: want.worker ? workerDefaults(dist) : 'function defaults(el) { el.setAttribute(\'data-selfcheck\', \'none\'); }\n',
  };
  let out = src;
  for (const b of blocks) out = out.replace(b[0], impl[fnOf(b)]);
  // The loader's exports, for the page's own scripts (their imports of permlab.js read this).
  out = out.replace(/\nscan\(\);\s*$/, `\n${BUNDLE}.resolve({ mount, unmount, scan, load, evaluate });\nscan();\n`);
  if (!out.includes('.resolve({ mount,')) throw new Error('single-file: the loader does not end with scan();');
  return out;
}

// ---- the page ------------------------------------------------------------------------------------

const MIME = { '.png': 'image/png', '.svg': 'image/svg+xml', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp', '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf', '.otf': 'font/otf', '.ico': 'image/x-icon' };

/**
 * Bundles `page` (a file path) into one HTML text. Options: dist, root (the directory a
 * root-relative URL `/x` means), worker (true: the self-check's worker and fixtures inside, false: never, undefined: when a
 * lesson of the page has a Codex `.rules` preset),
 * links ({href: newHref} rewritten in <a href>), notes (an array the notes are pushed to).
 * Throws a BundleError naming every problem.
 */
export function bundle(page, { dist = 'dist', root, worker, links = {}, notes = [] } = {}) {
  const pageFile = resolve(page);
  if (!existsSync(pageFile)) throw new BundleError([`${page}: no such file`]);
  const html = readFileSync(pageFile, 'utf8');
  const pageDir = dirname(pageFile);
  const problems = [];
  const at = (t) => `${shown(pageFile)}:${lineOf(html, t.start)}`;
  const note = (s) => notes.push(s);

  /** A local URL → the file it names, or null with a problem (remote, root-relative, missing). */
  const localFile = (url, base, where, what) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//')) {
      problems.push(`${where}: cannot inline ${what} ${url}: it is a remote URL. Save a copy next to the page and reference it by a relative path (or remove it).`);
      return null;
    }
    const path = url.replace(/[?#].*$/, '');
    let file;
    if (path.startsWith('/')) {
      if (!root) {
        problems.push(`${where}: cannot inline ${what} ${url}: a root-relative URL; give the site's root directory with --root DIR, or use a relative path.`);
        return null;
      }
      file = join(resolve(root), decodeURIComponent(path));
    } else {
      file = resolve(base, decodeURIComponent(path));
    }
    if (!existsSync(file)) {
      problems.push(`${where}: cannot inline ${what} ${url}: no such file ${shown(file)}.`);
      return null;
    }
    return file;
  };
  const isLoaderUrl = (url) => basename(url.replace(/[?#].*$/, '')) === 'permlab.js';
  const isWidgetCss = (url) => /^permlab(-[0-9a-f]+)?\.css$/.test(basename(url.replace(/[?#].*$/, '')));

  /** A page script's text with its imports of the loader rewritten; other imports are problems. */
  const pageScript = (text, where, module) => {
    let usesLoader = false;
    const spec = (s) => {
      if (isLoaderUrl(s)) { usesLoader = true; return true; }
      problems.push(`${where}: cannot inline the import of ${s}: only imports of permlab.js are inlined; bundle your page script into one file (or put this code in the page script itself).`);
      return false;
    };
    let out = text.replace(/\bimport\s*\(\s*(['"])([^'"]+)\1\s*\)/g, (m, _q, s) => (spec(s) ? BUNDLE : m));
    if (module) {
      out = out.replace(/(^|[;\n])\s*import\s+([\w$]+\s*,\s*)?(\*\s*as\s+[\w$]+|\{[^}]*\}|[\w$]+)?\s*(?:from\s*)?(['"])([^'"]+)\4\s*;?/g, (m, lead, def, what, _q, s) => {
        if (!spec(s)) return m;
        if (def || (what && !what.startsWith('*') && !what.startsWith('{'))) {
          problems.push(`${where}: permlab.js has no default export: import { mount, evaluate, … } or * as permlab.`);
          return m;
        }
        if (!what) return `${lead}`;
        if (what.startsWith('*')) return `${lead}const ${what.replace(/^\*\s*as\s+/, '')} = await ${BUNDLE};`;
        return `${lead}const ${what.replace(/([\w$]+)\s+as\s+([\w$]+)/g, '$1: $2')} = await ${BUNDLE};`;
      });
      out = out.replace(/(^|[;\n])\s*export\s+[^;\n]*\bfrom\s*(['"])([^'"]+)\2/g, (m, _l, _q, s) => {
        problems.push(`${where}: cannot inline the re-export from ${s}.`);
        return m;
      });
    }
    return { text: out, usesLoader };
  };

  const inlinedKinds = new Set(); // the CSP directives the data: URLs of inlined url()s need
  /** A stylesheet's text with its local url(…)s as data: URLs (and @import refused). */
  const styleText = (text, base, where) => text
    .replace(/@import\s+[^;]+;/g, (m) => {
      problems.push(`${where}: cannot inline ${m.trim()}: put the imported stylesheet's rules in the page's stylesheet.`);
      return m;
    })
    .replace(/url\(\s*(['"]?)([^'")]+)\1\s*\)/g, (m, _q, url) => {
      if (/^(data:|#)/i.test(url)) return m;
      const file = localFile(url, base, where, 'the stylesheet\'s');
      if (!file) return m;
      const mime = MIME[extname(file).toLowerCase()] ?? 'application/octet-stream';
      inlinedKinds.add(mime.startsWith('font/') ? 'font-src' : 'img-src');
      return `url("data:${mime};base64,${readFileSync(file).toString('base64')}")`;
    });

  const all = tags(html);
  const edits = []; // [start, end, text]
  const deferred = [];
  let loaderAt = null; // the first loader tag (the widget goes there)
  let firstModule = null;
  let usesLoader = false; // a loader tag or a page script importing it
  let placeholders = 0; // table widgets and scenes alike
  let scenes = 0; // placeholders that are scenes: the page bundle is inlined, else the table-only one
  let widgetCssLinked = false;
  let csp = null;
  const codexLessons = [];

  for (const t of all) {
    const where = at(t);
    if (t.attrs.has('data-permlab')) {
      placeholders++;
      if (t.attrs.has('data-scene')) scenes++;
      const lesson = t.attrs.get('data-lesson');
      if (lesson && lesson.startsWith('#')) {
        const id = lesson.slice(1);
        const target = all.find((x) => x.attrs.get('id') === id);
        if (!target) note(`${where}: data-lesson="${lesson}" names no element of the page: the widget will say so.`);
        else if (target.attrs.has('src')) note(`${where}: data-lesson="${lesson}" is a <script src>: the widget reads the element's text, never its src; put the lesson's JSON inside the element.`);
      }
    }
    if (t.name === 'base' && t.attrs.has('href')) {
      problems.push(`${where}: <base href="${t.attrs.get('href')}">: not supported (every relative URL would change meaning); remove it.`);
    }
    if (t.name === 'meta' && (t.attrs.get('http-equiv') ?? '').toLowerCase() === 'content-security-policy') {
      csp = t;
    }
    if (isScript(t)) {
      const module = isModule(t);
      const src = t.attrs.get('src');
      if (module && firstModule === null) firstModule = t;
      if (src !== undefined) {
        if (isLoaderUrl(src)) {
          usesLoader = true;
          if (loaderAt === null) loaderAt = t;
          edits.push([t.start, t.closeEnd, '']);
          note(`${where}: the loader ${src} is replaced by this build's, inlined from ${shown(resolve(dist))}/.`);
          continue;
        }
        const file = localFile(src, pageDir, where, 'the script');
        if (!file) continue;
        const text = readFileSync(file, 'utf8');
        const r = pageScript(text, `${where} (${shown(file)})`, module);
        if (r.usesLoader) usesLoader = true;
        const attrs = [...t.attrs].filter(([k]) => !['src', 'defer', 'async', 'integrity', 'crossorigin'].includes(k));
        const open = `<script${attrs.map(([k, v]) => (v === '' ? ` ${k}` : ` ${k}="${escapeAttr(v)}"`)).join('')}>`;
        const inline = `${open}\n${rawText(r.text)}\n</script>`;
        if (!module && t.attrs.has('defer')) {
          edits.push([t.start, t.closeEnd, '']);
          deferred.push(inline);
          note(`${where}: the deferred script ${src} is inlined at the end of <body> (an inline script cannot be deferred).`);
        } else {
          edits.push([t.start, t.closeEnd, inline]);
        }
      } else if (t.content.trim()) {
        const r = pageScript(t.content, where, module);
        if (r.usesLoader) {
          usesLoader = true;
          edits.push([t.end, t.closeStart, rawText(r.text)]);
        }
      }
      continue;
    }
    if (t.name === 'script' && (t.attrs.get('type') ?? '').trim().toLowerCase() === 'application/json') {
      try {
        const json = JSON.parse(t.content);
        if (json?.presets?.some?.((p) => p?.config?.format === 'codex')) codexLessons.push(`${where} (#${t.attrs.get('id') ?? '?'})`);
      } catch { /* not JSON: the widget says so */ }
      continue;
    }
    if (t.name === 'link') {
      const href = t.attrs.get('href') ?? '';
      const rel = relList(t);
      if (rel.includes('stylesheet')) {
        if (isWidgetCss(href)) {
          widgetCssLinked = true;
          edits.push([t.start, t.end, '']); // the build's stylesheet comes with the widget
          continue;
        }
        const file = localFile(href, pageDir, where, 'the stylesheet');
        if (!file) continue;
        const media = t.attrs.get('media');
        const css = styleText(readFileSync(file, 'utf8'), dirname(file), `${where} (${shown(file)})`);
        edits.push([t.start, t.end, `<style${media ? ` media="${escapeAttr(media)}"` : ''}>\n${rawText(css)}</style>`]);
      } else if (rel.some((r) => ['modulepreload', 'preload', 'prefetch', 'preconnect', 'dns-prefetch'].includes(r))) {
        edits.push([t.start, t.end, '']);
        note(`${where}: <link rel="${rel.join(' ')}" href="${href}"> dropped (nothing is fetched from the file).`);
      } else if (/^(https?:)?\/\//i.test(href)) {
        note(`${where}: <link rel="${rel.join(' ')}" href="${href}"> stays a remote reference: offline it does not load.`);
      }
      continue;
    }
    if (t.name === 'style' && t.content) {
      const css = styleText(t.content, pageDir, where);
      if (css !== t.content) edits.push([t.end, t.closeStart, rawText(css)]);
      continue;
    }
    for (const a of ['src', 'poster']) {
      const v = t.attrs.get(a);
      if (v && /^(https?:)?\/\//i.test(v)) note(`${where}: <${t.name} ${a}="${v}"> stays a remote reference: offline it does not load.`);
    }
  }

  const workerWanted = worker ?? codexLessons.length > 0;
  if (worker === undefined && codexLessons.length) note(`${codexLessons.join(', ')}: a lesson with a Codex .rules preset: the worker that reads it is inlined (and with it the self-check).`);
  if (worker === false && codexLessons.length) note(`${codexLessons.join(', ')}: a lesson with a Codex .rules preset, but --no-worker: the widget will say it needs the worker.`);
  if (placeholders > 0 && !usesLoader) {
    note(`${at({ start: 0 })}: the page has ${placeholders} [data-permlab] placeholder(s) but loads no permlab.js: the loader is added.`);
  }
  if (problems.length) throw new BundleError(problems);

  // The widget: its stylesheet and the loader module, where the loader was (or before the first
  // module script, or at the end of <head>).
  const names = buildNames(dist);
  const widget = `<style data-permlab-css>\n${rawText(readFileSync(join(dist, names.css), 'utf8'))}</style>\n`
    + `<script type="module">\n${rawText(bundledLoader(dist, names, { worker: workerWanted, scenes: scenes > 0 }))}</script>`;
  let place = loaderAt ?? firstModule;
  if (place) {
    edits.push([place.start, place.start, widget]);
  } else {
    const head = html.search(/<\/head\s*>/i);
    if (head === -1) throw new BundleError([`${page}: no </head>: cannot place the widget.`]);
    edits.push([head, head, `${widget}\n`]);
  }
  if (widgetCssLinked) note(`the page links permlab's stylesheet itself: it is replaced by this build's.`);
  if (deferred.length) {
    const body = html.search(/<\/body\s*>/i);
    edits.push([body === -1 ? html.length : body, body === -1 ? html.length : body, `${deferred.join('\n')}\n`]);
  }
  let out = html;
  // Edits never overlap; applied from the end, each insertion at a point before a replacement there.
  edits.sort((a, b) => b[0] - a[0] || b[1] - a[1]);
  for (const [s, e, text] of edits) out = out.slice(0, s) + text + out.slice(e);
  for (const [from, to] of Object.entries(links)) out = out.replaceAll(`href="${from}"`, `href="${to}"`);

  if (csp) out = rewriteCsp(out, note, at(csp), { worker: workerWanted, data: [...inlinedKinds] });
  return out;
}

// ---- the Content-Security-Policy ----------------------------------------------------------------

const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The output's CSP meta with the inline scripts' and styles' hashes (and wasm compilation) allowed. */
function rewriteCsp(html, note, where, { worker = false, data = [] } = {}) {
  const all = tags(html);
  const meta = all.find((t) => t.name === 'meta' && (t.attrs.get('http-equiv') ?? '').toLowerCase() === 'content-security-policy');
  const policy = meta.attrs.get('content') ?? '';
  const scripts = [...new Set(all.filter((t) => isScript(t) && !t.attrs.has('src') && t.content.trim()).map((t) => sha256(t.content)))];
  const styles = [...new Set(all.filter((t) => t.name === 'style').map((t) => sha256(t.content)))];
  const dirs = policy.split(';').map((d) => d.trim().split(/\s+/).filter(Boolean)).filter((d) => d.length);
  const get = (n) => dirs.find((d) => d[0].toLowerCase() === n);
  const changed = [];
  const allow = (name, hashes, extra) => {
    let d = get(name);
    const fallback = get('default-src');
    if (!d) {
      if (!fallback) return; // not restricted
      d = [name, ...fallback.slice(1)];
      dirs.push(d);
    }
    const has = (s) => d.slice(1).some((x) => x.toLowerCase() === s);
    const inlineOk = has("'unsafe-inline'") && !d.slice(1).some((x) => /^'(sha(256|384|512)-|nonce-)/i.test(x));
    const add = [];
    if (!inlineOk) add.push(...hashes.filter((h) => !d.includes(h)));
    for (const e of extra) if (!has(e) && !(e === "'wasm-unsafe-eval'" && has("'unsafe-eval'"))) add.push(e);
    if (!add.length) return;
    const none = d.findIndex((x) => x.toLowerCase() === "'none'");
    if (none > 0) d.splice(none, 1);
    d.push(...add);
    const n = add.filter((a) => a.startsWith("'sha256-")).length;
    changed.push(`${name} +${n ? ` ${n} sha256 hash${n > 1 ? 'es' : ''} (the inlined ${name.startsWith('script') ? 'scripts' : 'styles'})` : ''}${add.filter((a) => !a.startsWith("'sha256-")).map((a) => ` ${a}`).join('')}`);
  };
  allow('script-src', scripts, ["'wasm-unsafe-eval'"]);
  if (get('script-src-elem')) allow('script-src-elem', scripts, []);
  allow('style-src', styles, []);
  if (get('style-src-elem')) allow('style-src-elem', styles, []);
  if (worker) {
    // The worker starts from a blob: URL; worker-src falls back to child-src, script-src, default-src.
    const from = get('worker-src') ?? get('child-src') ?? get('script-src') ?? get('default-src');
    if (from && !from.slice(1).some((x) => x.toLowerCase() === 'blob:' || x === '*')) {
      if (!get('worker-src')) dirs.push(['worker-src', ...from.slice(1).filter((x) => !/^'(sha|nonce|wasm-unsafe-eval|unsafe-inline|strict-dynamic)/i.test(x))]);
      allow('worker-src', [], ['blob:']);
    }
  }
  const hasData = (n) => { const d = get(n) ?? get('default-src'); return !d || d.slice(1).some((x) => x.toLowerCase() === 'data:' || x === '*'); };
  for (const n of data) if (!hasData(n)) allow(n, [], ['data:']);
  if (!changed.length) return html;
  const text = dirs.map((d) => d.join(' ')).join('; ');
  note(`${where}: Content-Security-Policy rewritten so the inlined widget may run: ${changed.join('; ')}. Now: ${text}`);
  // Re-find the content attribute in the meta tag's own text, and replace just its value.
  const tagText = html.slice(meta.start, meta.end);
  const newTag = tagText.replace(/(\scontent\s*=\s*)("[^"]*"|'[^']*'|[^\s>]+)/i, `$1"${escapeAttr(text)}"`);
  return html.slice(0, meta.start) + newTag + html.slice(meta.end);
}

// ---- the demo pages, and the command line ---------------------------------------------------------

const LANGS = ['zh', 'en'];

/** Writes DIST/offline/permlab-<lang>.html from DIST/demo/<lang>.html; returns [{file, bytes}]. */
export function buildOffline(dist = 'dist', notes = []) {
  const out = join(dist, 'offline');
  mkdirSync(out, { recursive: true });
  const links = Object.fromEntries(LANGS.map((l) => [`${l}.html`, `permlab-${l}.html`]));
  return LANGS.map((lang) => bundleTo(join(dist, 'demo', `${lang}.html`), join(out, `permlab-${lang}.html`), { dist, links, notes }));
}

/** Bundles `page` into the file `out`; returns {file, bytes}. */
export function bundleTo(page, out, opts = {}) {
  const text = bundle(page, opts);
  mkdirSync(dirname(resolve(out)), { recursive: true });
  writeFileSync(out, text);
  return { file: out, bytes: Buffer.byteLength(text) };
}

const USAGE = `usage: scripts/bundle PAGE.html OUT.html [--dist DIR] [--root DIR]
                      [--worker | --no-worker] [--link FROM=TO]…
  --dist DIR     the release build to use (default dist/)
  --root DIR     the directory a root-relative URL (/css/site.css) means
  --worker       include the worker (self-check with its fixtures, Codex .rules import, lint of a
                 pasted config: about 1 MB more); by default only when a lesson has a Codex preset
  --no-worker    leave it out
  --link FROM=TO rewrite href="FROM" to href="TO" (pages bundled side by side)
   or: node web/tools/single-file.mjs [DIST]   (the demo pages → DIST/offline/)`;

function main(argv) {
  const pos = [];
  const opts = { notes: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--dist' || a === '--root') {
      if (argv[i + 1] === undefined) throw new BundleError([`${a} needs a directory\n${USAGE}`]);
      opts[a.slice(2)] = argv[++i];
    } else if (a === '--link') {
      const m = /^([^=]+)=(.+)$/.exec(argv[++i] ?? '');
      if (!m) throw new BundleError([`--link needs FROM=TO (an href of the page, and what it becomes)\n${USAGE}`]);
      (opts.links ??= {})[m[1]] = m[2];
    } else if (a === '--scenes' || a === '--no-scenes') {
      opts.notes.push(`${a} has no effect: the bundle inlined is the one the page's placeholders need (with scenes when one is a scene).`);
    } else if (a === '--worker') opts.worker = true;
    else if (a === '--no-worker') opts.worker = false;
    else if (a === '-h' || a === '--help') { console.log(USAGE); return; }
    else if (a.startsWith('-')) throw new BundleError([`unknown option ${a}\n${USAGE}`]);
    else pos.push(a);
  }
  if (pos.length === 2) {
    const dist = opts.dist ?? 'dist';
    if (!existsSync(join(dist, 'permlab.js'))) throw new BundleError([`${dist}/permlab.js: no release build there (run scripts/bundle, which builds it, or trunk build --release)`]);
    const { file, bytes } = bundleTo(pos[0], pos[1], { ...opts, dist });
    for (const n of opts.notes) console.error(`note: ${n}`);
    console.error(`${file}: ${bytes} B (${(bytes / 1024).toFixed(0)} KiB)`);
  } else if (pos.length <= 1) {
    for (const { file, bytes } of buildOffline(pos[0] ?? 'dist', opts.notes)) {
      console.log(`${file}: ${bytes} B (${(bytes / 1024).toFixed(0)} KiB)`);
    }
  } else {
    throw new BundleError([USAGE]);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    main(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof BundleError)) throw err;
    for (const p of err.problems) console.error(`bundle: ${p}`);
    if (err.problems.length > 1 || !err.problems[0].startsWith('usage')) console.error('bundle: nothing written.');
    process.exit(1);
  }
}
