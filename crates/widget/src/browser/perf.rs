//! Performance marks (`performance.mark`/`measure`) around the work the benchmarks time: a
//! reorder, compiling an engine, parsing a table. A leaf module: the model marks its own work
//! without depending on the rest of the browser glue. Natively (tests, the CLI) they do
//! nothing.

fn performance() -> Option<web_sys::Performance> {
    // Native unit tests go through the same code: no browser, no marks.
    if cfg!(not(target_arch = "wasm32")) {
        return None;
    }
    web_sys::window()?.performance()
}

/// `performance.mark("<name>-start")`.
pub fn mark_start(name: &str) {
    if let Some(p) = performance() {
        let _ = p.mark(&format!("{name}-start"));
    }
}

/// `performance.mark("<name>-end")` and a measure `<name>` from the mark
/// `<prefix>-start` (where `<prefix>` is `name` up to its last `-frame`).
pub fn mark_end(name: &str) {
    if let Some(p) = performance() {
        let end = format!("{name}-end");
        let start = format!("{}-start", name.trim_end_matches("-frame"));
        let _ = p.mark(&end);
        let _ = p.measure_with_start_mark_and_end_mark(name, &start, &end);
    }
}
