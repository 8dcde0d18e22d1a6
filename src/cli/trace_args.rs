//! The command line's options for traces: how to read one (for `lbsim
//! trace` and every replay), `--trace` and its companions on the commands
//! that run a scenario, and `lbsim trace`'s own, declared with clap as the
//! rest of [`super::command`].

use super::args::set_pair;
use super::command::path;
use super::replay::TraceReplay;
use super::source::ScenarioSource;
use clap::Args;
use lbsim::trace::replay::SPEEDS;
use lbsim::trace::{Columns, Shape, TraceOptions};
use std::path::PathBuf;

/// How to read a trace, for `lbsim trace` and for every replay.
#[derive(Debug, Args)]
pub struct TraceReading {
    /// Which columns hold what, by role: time=NAME[:s|:ms|:rfc3339], key=NAME, class=NAME,
    /// service=NAME[:s|:ms]
    #[arg(long = "trace-columns", value_name = "ROLE=NAME,...", value_parser = columns)]
    pub columns: Option<Columns>,
    /// The classes a row may name, in the order of the scenario's class_shares
    #[arg(long = "trace-classes", value_name = "A,B,...",
          value_parser = |text: &str| TraceOptions::classes_from(text, "--trace-classes"))]
    pub classes: Option<std::vec::Vec<String>>,
    /// Leaves out rows with a fault of their own, and says how many and why
    #[arg(long = "trace-skip-bad")]
    pub skip_bad: bool,
}

/// A trace replayed instead of the scenario's own arrivals.
#[derive(Debug, Args)]
#[command(next_help_heading = "Replaying a trace (docs/traces.md)")]
pub struct ReplayArgs {
    /// Replays FILE's requests instead of the scenario's arrivals, each a session of one
    #[arg(long = "trace", value_name = "FILE", value_parser = path)]
    pub file: Option<PathBuf>,
    /// Divides every time of the trace by K (K times the load)
    #[arg(allow_negative_numbers = true, long = "trace-speed", value_name = "K", value_parser = TraceReplay::speed,
          help = speed_help())]
    pub speed: Option<f64>,
    /// Plays the trace again each time it ends
    #[arg(long = "trace-loop")]
    pub looped: bool,
    #[command(flatten)]
    pub reading: TraceReading,
}

fn speed_help() -> String {
    format!("Divides every time of the trace by K, from {} to {} (K times the load)", SPEEDS.0, SPEEDS.1)
}

#[derive(Debug, Args)]
pub struct TraceCommand {
    /// The trace: CSV with a header, or JSON lines
    #[arg(value_name = "FILE", value_parser = path)]
    pub file: Option<PathBuf>,
    /// A scenario whose servers the trace's offered load is measured against
    #[arg(value_name = "SCENARIO", value_parser = ScenarioSource::parse)]
    pub scenario: Option<ScenarioSource>,
    /// Sets a field of SCENARIO (`lbsim fields`); repeat it for several
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = set_pair)]
    pub sets: Vec<(String, String)>,
    #[command(flatten)]
    pub reading: TraceReading,
    /// Prints the summary as JSON, for programs
    #[arg(long)]
    pub json: bool,
    /// Writes a sample trace of this shape instead: poisson, on-off or diurnal
    #[arg(long, value_name = "SHAPE", value_parser = shape, help_heading = "Writing a sample trace")]
    pub generate: Option<Shape>,
    /// Rows the sample has [default: 10000]
    #[arg(allow_negative_numbers = true, long, value_name = "N", help_heading = "Writing a sample trace")]
    pub rows: Option<String>,
    /// The seed the sample is drawn from [default: 1]
    #[arg(allow_negative_numbers = true, long, value_name = "S", help_heading = "Writing a sample trace")]
    pub seed: Option<String>,
    /// The file to write the sample to
    #[arg(long, value_name = "FILE", value_parser = path, help_heading = "Writing a sample trace")]
    pub out: Option<PathBuf>,
}

fn columns(text: &str) -> Result<Columns, String> {
    Columns::parse(text).map_err(|e| e.message)
}

fn shape(text: &str) -> Result<Shape, String> {
    Shape::parse(text).ok_or_else(|| {
        format!("--generate takes poisson, on-off or diurnal, not {}", lbsim::scenario::echo(text))
    })
}
