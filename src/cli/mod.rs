//! The native command line: run a scenario, sweep one field, compare two
//! settings, search for capacity, draw a chart to SVG, list fields,
//! policies and presets.

pub mod args;
mod capacity;
mod parallel;
mod plot;
pub mod report;
mod runner;

pub use runner::main_with;
