//! Placeholder until the engine lands; replaced by the engine's runner.

use super::SectionReport;
use crate::error::Error;
use crate::json::Value;

pub(crate) fn run(_doc: &Value) -> Result<Vec<SectionReport>, Error> {
    Err(Error::shape("engine", "this engine's conformance runner is not built yet"))
}
