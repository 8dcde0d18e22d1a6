//! The native command line: run a scenario, sweep one field, list fields.

pub mod args;
pub mod report;
mod runner;

pub use runner::main_with;
