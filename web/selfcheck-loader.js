// Starts the self-check worker (built by Trunk into selfcheck/, see index.html). A loader of
// our own because Trunk's shim names its files relative to its own folder twice.
importScripts('./selfcheck/selfcheck.js');
wasm_bindgen({ module_or_path: './selfcheck/selfcheck_bg.wasm' });
