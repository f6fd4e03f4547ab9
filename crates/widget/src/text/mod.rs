//! Every word the widget shows, in its language: the string table ([`i18n`]) and the wording
//! of data the core and the worker return — errors ([`error_text`]), import warnings
//! ([`warning_text`]), lint findings ([`lint_text`]), why a lesson cannot be shown
//! ([`lesson_error`]). Nothing here decides a verdict.

pub mod error_text;
pub mod i18n;
pub mod lesson_error;
pub mod lint_text;
pub mod spans;
pub mod warning_text;
