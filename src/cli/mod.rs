//! The native command line: run a scenario, sweep one field, compare two
//! settings, search for capacity, draw a chart to SVG, say where keys go,
//! throw balls into bins, summarise or generate a request trace, list
//! fields, policies and presets.

pub mod args;
mod bins;
mod capacity;
mod command;
mod grid;
mod keys;
mod manual;
mod output;
mod parallel;
mod plot;
mod precision;
mod progress;
mod refusal;
mod replay;
pub mod report;
mod runner;
mod source;
mod trace;
mod trace_args;

pub use runner::main_with;
