//! Lint tests
