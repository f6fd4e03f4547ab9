// permlab page loader — the one script a course page includes:
//
//   <script type="module" src="https://your.site/permlab/permlab.js"></script>
//   <div id="a3" data-permlab data-lang="zh" data-lesson="#lesson-a3">…static table…</div>
//
// It finds every `[data-permlab]` placeholder and loads nothing until one nears the viewport;
// then it fetches the widget (wasm-bindgen glue + wasm + stylesheet, by URLs relative to this
// file, so the whole build can live under any sub-path) and mounts each placeholder as it comes
// near. There are two builds of the widget: the page bundle (table widgets and scenes) and a
// smaller one with the table widget alone. A page whose placeholders are all tables gets the
// small one; a page with a scene gets the page bundle for everything, so it is paid once.
// Each placeholder is its own widget (its own state, its own URL-hash namespace: its `id`).
// The placeholder's own content stays until its widget replaces it, and comes back on
// `unmount`. If loading fails, a readable message (zh or en) is put at the top of the
// placeholder and its static content stays. No inline script is needed: the page can run under
// `script-src 'self' 'wasm-unsafe-eval'`.
//
// Exports, for pages that mount by hand:
//   mount(element, lesson?) → Promise<Handle>   mounts now (lesson: an object or its JSON
//                                               text, else the element's data-lesson)
//   evaluate({engine, rules | config, call, context, lang})
//                           → Promise<{decision, rule, matched, steps, reason}>
//                                               any engine's verdict (permlab-core), e.g. to
//                                               check a lesson's answer in page script
// A mounted widget dispatches bubbling CustomEvents on its element (README, "Progress events"):
// permlab:ready, permlab:guess, permlab:reveal, permlab:answer, permlab:reorder and
// permlab:complete (a quiz's score). Its handle has state() / restore(state) / reset().
//   unmount(element)                            removes it, puts the original content back
//   scan(root = document)                       watches placeholders added after load
//   load()                                      → Promise of the started wasm module (the
//                                               bundle this page's placeholders need)

// Tells the wasm's start function that this loader decides when to mount (see
// crates/widget/src/lib.rs, `start`). Set before the wasm can start.
globalThis.permlabLoader = true;

// The build's file names, relative to this file. `trunk build` hashes them; its post_build
// hook (web/tools/post-build.mjs) rewrites this line with the names of that build.
const BUILD = { glue: 'permlab-widget.js', wasm: 'permlab-widget_bg.wasm', tableGlue: 'permlab-table.js', tableWasm: 'permlab-table_bg.wasm', css: 'permlab.css' };

/** Placeholders start loading this far before they scroll into view. */
const AHEAD = '100% 0px';

const here = (name) => new URL(name, import.meta.url).href;
const handles = new Map();
/** The lesson each element was mounted with by `mount` (its JSON text), to tell a new one. */
const lessons = new Map();
/** The bundles started so far, by kind: 'page' (tables and scenes) or 'table' (tables only). */
const started = {};

/**
 * The bundle a placeholder needs (`el`), or the page (no `el`): the page bundle for a scene, for
 * any widget of a page that has a scene placeholder, and once the page bundle is on its way (a
 * page never pays for both unless a scene is added after its tables were mounted); else the
 * table-only bundle.
 */
function bundleFor(el) {
  const scenes = el?.hasAttribute('data-scene') || document.querySelector('[data-permlab][data-scene]');
  return scenes || started.page ? 'page' : 'table';
}

/** Starts loading the widget once (later calls return the same promise). */
export function load(kind = bundleFor()) {
  if (!started[kind]) {
    const p = Promise.all([glue(kind), stylesheet()]).then(([g]) => g);
    started[kind] = p;
    // A failed load may be retried later (e.g. the learner came back online).
    p.catch(() => { if (started[kind] === p) delete started[kind]; });
  }
  return started[kind];
}

// ---- fetching (web/tools/single-file.mjs replaces each of these blocks in a single file) ----
/** A bundle's glue and wasm ('page': table widgets and scenes; 'table': tables only), both downloading at once. */
async function glue(kind) {
  const [glueName, wasmName] = kind === 'table' ? [BUILD.tableGlue, BUILD.tableWasm] : [BUILD.glue, BUILD.wasm];
  // The wasm's request starts before the glue's import, not after it: on a slow link the two
  // round trips overlap (the glue then compiles the wasm as it streams in).
  // Our own fetch: a 404 becomes a plain error, not a compile error on an HTML error page. The
  // error page is read to its end as soon as it comes (a response left unread while the glue
  // loads is reported as an aborted request).
  const wasm = fetch(here(wasmName)).then(async (response) => {
    if (response.ok) return response;
    await response.arrayBuffer().catch(() => {});
    throw new Error(`${wasmName}: HTTP ${response.status}`);
  });
  wasm.catch(() => {}); // reported below, after the glue
  const g = await import(here(glueName));
  await g.default({ module_or_path: await wasm });
  return g;
}
// ---- end of fetching ----

// ---- fetching ----
/** Adds the widget's stylesheet unless the page links it already (by URL or data-permlab-css). */
function stylesheet() {
  const href = here(BUILD.css);
  const links = [...document.querySelectorAll('link[rel~="stylesheet"]')];
  if (links.some((l) => l.href === href || l.hasAttribute('data-permlab-css'))) return Promise.resolve();
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  link.setAttribute('data-permlab-css', '');
  // Resolved either way: an unstyled widget still works, and the page's own styles stay.
  const done = new Promise((resolve) => { link.onload = link.onerror = resolve; });
  document.head.append(link);
  return done;
}
// ---- end of fetching ----

/**
 * Mounts a widget in `el` now (after loading the wasm if needed). The same handle if it is
 * mounted already — unless `lesson` is another lesson than the one it shows: then it mounts
 * again with that one.
 */
export async function mount(el, lesson) {
  if (!(el instanceof Element)) {
    const got = el === null ? 'null' : typeof el;
    throw new TypeError(`permlab.mount: expected an element, e.g. document.querySelector('#a3'); got ${got}`);
  }
  const text = lesson == null ? undefined : typeof lesson === 'string' ? lesson : JSON.stringify(lesson);
  if (handles.has(el)) {
    if (text === undefined || text === lessons.get(el)) return handles.get(el);
    unmount(el);
  }
  // A mounted widget's own elements are not placeholders (its section carries data-scene
  // too): mounting one would nest a second widget, in the page's language, inside the first.
  if (el.closest?.('section.pl-widget')) {
    throw new Error('permlab.mount: this element is part of a mounted widget; mount its placeholder instead');
  }
  defaults(el);
  el.setAttribute('data-permlab-state', 'loading');
  let g;
  try {
    g = await load(bundleFor(el));
  } catch (err) {
    el.setAttribute('data-permlab-state', 'failed');
    showFailure(el, err);
    throw err;
  }
  // Another mount of the same element may have finished meanwhile (the loader's, as it came
  // into view): keep it when it shows this lesson, else replace it.
  if (handles.has(el)) {
    if (text === undefined || text === lessons.get(el)) return handles.get(el);
    unmount(el);
  }
  el.querySelector(':scope > .pl-load-error')?.remove();
  const handle = g.mount(el, text);
  handles.set(el, handle);
  lessons.set(el, text);
  el.setAttribute('data-permlab-state', 'mounted');
  return handle;
}

/** Any engine's verdict for a call (see crates/widget/src/api.rs); loads the wasm if needed. */
export async function evaluate(input) {
  const g = await load();
  return g.evaluate(input);
}

/**
 * How many times the table widgets' regions have re-read their state so far: a benchmark's
 * measure of what one action re-runs (diagnostics; not needed to embed a widget).
 */
export async function regionReads() {
  const g = await load();
  return g.regionReads();
}

/** Removes the widget from `el` and puts the placeholder's original content back. */
export function unmount(el) {
  const handle = handles.get(el);
  if (!handle) return false;
  handles.delete(el);
  lessons.delete(el);
  handle.unmount();
  handle.free();
  el.removeAttribute('data-permlab-state');
  return true;
}

// ---- fetching ----
/** The self-check's files default to this build's copies, wherever the page itself lives. */
function defaults(el) {
  if (!el.hasAttribute('data-fixtures')) el.setAttribute('data-fixtures', here('conformance/'));
  if (!el.hasAttribute('data-selfcheck')) el.setAttribute('data-selfcheck', here('selfcheck-loader.js'));
}
// ---- end of fetching ----

const near = typeof IntersectionObserver === 'function'
  ? new IntersectionObserver((entries) => {
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      near.unobserve(e.target);
      // The failure is shown in the placeholder; nothing else to do here.
      mount(e.target).catch(() => {});
    }
  }, { rootMargin: AHEAD })
  : null;
const seen = new WeakSet();

/** Watches every `[data-permlab]` under `root` not watched yet; mounts each as it nears the viewport. */
export function scan(root = document) {
  for (const el of root.querySelectorAll('[data-permlab]')) {
    if (seen.has(el)) continue;
    seen.add(el);
    if (near) near.observe(el);
    else mount(el).catch(() => {});
  }
}

// ---- load failure (this block is also inlined by web/tools/single-file.mjs) ----
function showFailure(el, err) {
  const tag = el.getAttribute('data-lang') || document.documentElement.getAttribute('lang') || '';
  const zh = /^zh/i.test(tag);
  let box = el.querySelector(':scope > .pl-load-error');
  if (!box) {
    box = document.createElement('p');
    box.className = 'pl-load-error';
    box.setAttribute('role', 'alert');
    el.prepend(box);
  }
  box.textContent = zh
    ? '交互组件没能加载,下面是本节的静态内容。请检查网络后刷新页面重试。'
    : 'The interactive widget could not be loaded; the static content below still applies. Check your connection and reload the page to try again.';
  const why = document.createElement('small');
  why.textContent = ` (${String(err?.message ?? err)})`;
  box.append(why);
}
// ---- end of load failure ----

scan();
