//! The browser glue: the few Web APIs the widget calls ([`web`]) and the performance marks
//! the benchmarks read ([`perf`], a leaf the model may use). Each fails quietly outside a
//! browser.

pub(crate) mod perf;
pub(crate) mod web;
