//! The command line's grammar, declared with clap: every command, its
//! options and their help. `--help`, `help COMMAND`, `--version`, the shell
//! completions and the man page are all made from these declarations, and
//! docs/cli.md shows the help they print (a test keeps the two alike).
//! [`super::args`] turns what clap parsed into the commands that run.

use super::args::{key_value, percent, seconds, set_pair};
use super::capacity::parse_objective;
use super::grid::{parse_seeds, Shard};
use super::plot::{ChartKind, Metric, Theme};
use super::source::ScenarioSource;
use super::trace_args::{ReplayArgs, TraceCommand};
use clap::{Args, Parser, Subcommand};
use lbsim::capacity::Objective;
use lbsim::presets::Preset;
use std::path::PathBuf;

/// What the help says after the list of commands, and after each command
/// that runs a scenario.
const SCENARIOS: &str = "\
SCENARIO is a TOML file's path (at most 1 MiB), which holds a `/` or ends in .toml (./mine, runs/a.toml); \
any other word is a preset's name (`lbsim presets` lists them), or `default` for every field at its \
default, even where a file of that name exists. `lbsim fields` lists the fields --set takes. \
Durations are seconds, or take a unit: 500ms, 30s, 2m.";

#[derive(Debug, Parser)]
#[command(
    name = "lbsim",
    version,
    about = "a load-balancing laboratory (simulation engine)",
    long_about = "lbsim: a load-balancing laboratory (simulation engine). Runs, sweeps, compares and plots \
        scenarios of clients, balancers and servers, searches for capacity, replays request traces, \
        and throws balls into bins; `lbsim COMMAND --help` says more of each command.",
    after_long_help = SCENARIOS,
    max_term_width = 100,
    disable_help_subcommand = false
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Commands,
}

#[derive(Debug, Subcommand)]
pub enum Commands {
    /// Runs a scenario and prints its summary
    #[command(
        long_about = "Runs a scenario and prints its summary: counts, queue time, latency and session time \
            percentiles with 95% intervals, each server's share, and theory beside measurement where \
            queueing theory knows the answer.",
        after_long_help = SCENARIOS
    )]
    Run(RunCommand),
    /// Runs a scenario for each value of a list, or each point of a grid
    #[command(
        long_about = "Runs a scenario for each value of one --set list, as a table (or with --json one \
            JSON object). With several lists, --seeds or --shard it is a grid: a row for each point of \
            the lists' cartesian product (the first list varying slowest) under each seed (fastest of \
            all), each as a table row or with --json a JSON line.",
        after_long_help = SCENARIOS
    )]
    Sweep(SweepCommand),
    /// Runs A and B on the same random numbers and prints B over A
    #[command(
        long_about = "Runs A (the scenario with --set) and B (A with --vs, or the preset --vs-preset \
            names) on the same random numbers, and prints both summaries and B over A with 95% intervals. \
            Both are measured over the same simulated time, so --vs cannot change duration_s or warmup_s.",
        after_long_help = SCENARIOS
    )]
    Compare(CompareCommand),
    /// Finds each policy's highest load within a latency objective
    #[command(
        long_about = "For each policy of --set policy=a,b,... (or the scenario's own), the highest load at \
            which the p99 queue time (or latency-p99) stays within the objective: bisection on load, the \
            policies in parallel on every core. With --trace it searches over the trace's speed, looping it.",
        after_long_help = SCENARIOS
    )]
    Capacity(CapacityCommand),
    /// Draws one of the lab's charts to an SVG file
    #[command(
        long_about = "Runs the scenario and draws one of the lab's charts to an SVG file: percentiles (p50, \
            p90 and p99 over the run of --metric), clients (session time p0 to p100), load (each server at \
            the end), or compare (A and B, as compare runs them: the p99 of --metric over the run, or with \
            --metric session their session-time curves).",
        after_long_help = SCENARIOS
    )]
    Plot(PlotCommand),
    /// Says where each key goes under a placement scheme
    #[command(
        long_about = "Under a placement scheme (policy modulo, ranges, table, ring, rendezvous, maglev or \
            bounded-load): the server of each key before any load, and the spread of the servers' shares.",
        after_long_help = SCENARIOS
    )]
    Keys(KeysCommand),
    /// Throws balls into bins by each method, beside theory
    #[command(long_about = "Throws M balls into N bins, T times, by each method, and prints the mean of \
        max − mean and of max − min with standard errors beside theory; trials in parallel on every core. \
        best-of-d gives a row for each d of --choices (1 is random).")]
    Bins(BinsCommand),
    /// Summarises a request trace, or writes a sample one
    #[command(
        long_about = "Summarises a request trace (CSV with a header, or JSON lines; docs/traces.md): its \
            duration and rate over time, the index of dispersion of counts, service-time percentiles, the \
            classes' shares, key popularity with a fitted Zipf exponent, and with SCENARIO the load it \
            offers that scenario's servers. With --generate, writes a sample trace drawn from a seed.",
        after_long_help = SCENARIOS
    )]
    Trace(TraceCommand),
    /// Lists every scenario field with its default and allowed values
    Fields {
        /// As the Markdown table of docs/model.md
        #[arg(long)]
        markdown: bool,
    },
    /// Lists the routing policies
    Policies,
    /// Lists the presets: the scenarios/ files, compiled in
    Presets,
    /// Prints a shell's completion script for lbsim
    #[command(long_about = "Prints a shell's completion script for lbsim to standard output: for bash, \
        `lbsim completions bash > ~/.local/share/bash-completion/completions/lbsim`; for zsh, into a \
        file named _lbsim on $fpath; for fish, into ~/.config/fish/completions/lbsim.fish.")]
    Completions {
        /// The shell
        #[arg(value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
    /// Writes lbsim's man pages (lbsim.1, and lbsim-COMMAND.1 for each command)
    Man {
        /// The folder to write them to (made if missing)
        #[arg(long, value_name = "DIR", value_parser = path)]
        out: PathBuf,
    },
}

/// The scenario, and the settings on top of it.
#[derive(Debug, Args)]
pub struct ScenarioArgs {
    /// A TOML file's path, a preset's name, or `default` (see below)
    #[arg(value_name = "SCENARIO", value_parser = ScenarioSource::parse)]
    pub scenario: ScenarioSource,
    /// Sets a scenario field (`lbsim fields`); repeat it for several
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = set_pair)]
    pub sets: Vec<(String, String)>,
    /// The seed (the field `seed`)
    #[arg(allow_negative_numbers = true, long, value_name = "N")]
    pub seed: Option<String>,
}

/// The stretch of simulated time a run covers.
#[derive(Debug, Args)]
pub struct TimeArgs {
    /// Simulated time of the run (duration_s)
    #[arg(allow_negative_numbers = true, long, value_name = "D", value_parser = |text: &str| seconds("--duration", text))]
    pub duration: Option<String>,
    /// Simulated time at the start left out of the statistics (warmup_s)
    #[arg(allow_negative_numbers = true, long, value_name = "D", value_parser = |text: &str| seconds("--warmup", text))]
    pub warmup: Option<String>,
}

/// `--vs-preset`'s preset, by name.
fn vs_preset(name: &str) -> Result<&'static Preset, String> {
    Preset::find(name).ok_or_else(|| {
        format!(
            "--vs-preset takes a preset's name (`lbsim presets` lists them), not {}",
            lbsim::scenario::echo(name)
        )
    })
}

#[derive(Debug, Args)]
pub struct RunCommand {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    #[command(flatten)]
    pub time: TimeArgs,
    /// Stops once the p99 queue time's 95% interval is within P% of it, over at least 10 batches of
    /// 100 requests each (duration_s stays the limit)
    #[arg(allow_negative_numbers = true, long = "until-precision", value_name = "P%", value_parser = percent)]
    pub until_precision: Option<f64>,
    /// Writes the live series and each server's figures as CSV files to DIR
    #[arg(long, value_name = "DIR", value_parser = path)]
    pub csv: Option<PathBuf>,
    /// Writes every request the run creates to FILE as a trace (time_s,key,class,service_ms)
    #[arg(long = "record-trace", value_name = "FILE", value_parser = path)]
    pub record_trace: Option<PathBuf>,
    /// Prints the result as JSON, for programs
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub replay: ReplayArgs,
}

#[derive(Debug, Args)]
pub struct SweepCommand {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    #[command(flatten)]
    pub time: TimeArgs,
    /// Runs every point under each of these seeds: a range, a list, or both (1-3,9)
    #[arg(allow_negative_numbers = true, long, value_name = "SEEDS", value_parser = parse_seeds)]
    pub seeds: Option<std::vec::Vec<u64>>,
    /// Runs the I-th of N contiguous blocks of the grid's rows: the N shards' outputs, concatenated in
    /// shard order, are those of the same sweep with --shard 1/1
    #[arg(allow_negative_numbers = true, long, value_name = "I/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Prints the rows as JSON, for programs
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub replay: ReplayArgs,
}

/// What B changes from A, and which seed it draws from.
#[derive(Debug, Args)]
pub struct VersusArgs {
    /// What B sets on top of A (not duration_s or warmup_s); repeat it for several
    #[arg(long = "vs", value_name = "KEY=VALUE", value_parser = |text: &str| key_value("--vs", text))]
    pub vs: Vec<(String, String)>,
    /// Makes B the preset NAME (with A's --set, seed and run length), to compare two systems on the
    /// same requests
    #[arg(long = "vs-preset", value_name = "NAME", value_parser = vs_preset)]
    pub vs_preset: Option<&'static Preset>,
    /// Gives B the next seed instead of A's, to see how much wider the intervals are without
    /// common random numbers
    #[arg(long = "independent-seeds")]
    pub independent_seeds: bool,
}

#[derive(Debug, Args)]
pub struct CompareCommand {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    #[command(flatten)]
    pub time: TimeArgs,
    #[command(flatten)]
    pub versus: VersusArgs,
    /// Prints both runs and the ratios as JSON, for programs
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub replay: ReplayArgs,
}

#[derive(Debug, Args)]
pub struct CapacityCommand {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    #[command(flatten)]
    pub time: TimeArgs,
    /// The objective: p99=MS (queue time) or latency-p99=MS, such as p99=200ms
    #[arg(long, value_name = "OBJECTIVE", value_parser = parse_objective)]
    pub slo: Option<Objective>,
    /// Prints the outcomes as JSON, for programs
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub replay: ReplayArgs,
}

#[derive(Debug, Args)]
pub struct PlotCommand {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    #[command(flatten)]
    pub time: TimeArgs,
    /// The chart to draw
    #[arg(long, value_name = "CHART")]
    pub chart: Option<ChartKind>,
    /// The time a percentiles or compare chart shows [default: queue]
    #[arg(long, value_name = "METRIC")]
    pub metric: Option<Metric>,
    /// The stylesheet's colours to draw with [default: light]
    #[arg(long, value_name = "THEME")]
    pub theme: Option<Theme>,
    /// The SVG file to write
    #[arg(long, value_name = "FILE.svg", value_parser = path)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub versus: VersusArgs,
    #[command(flatten)]
    pub replay: ReplayArgs,
}

#[derive(Debug, Args)]
pub struct KeysCommand {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// Prints each key's server and the spread as JSON, for programs
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct BinsCommand {
    /// Balls thrown in each trial, M [default: 1000000]
    #[arg(allow_negative_numbers = true, long, value_name = "M")]
    pub balls: Option<String>,
    /// Bins, N [default: 100]
    #[arg(allow_negative_numbers = true, long, value_name = "N")]
    pub bins: Option<String>,
    /// For best-of-d, the d of each row: the bins drawn for each ball [default: 1,2]
    #[arg(allow_negative_numbers = true, long, value_name = "D,...")]
    pub choices: Option<String>,
    /// The methods, one row each: best-of-d, random, round-robin or hash, separated by commas
    /// [default: best-of-d]
    #[arg(long, value_name = "METHOD,...")]
    pub method: Option<String>,
    /// Trials of each method, T; M × T is at most 10^10 a method [default: 200]
    #[arg(allow_negative_numbers = true, long, value_name = "T")]
    pub trials: Option<String>,
    /// The experiment's seed; each trial draws from a seed made of it and the trial's number
    /// [default: 1]
    #[arg(allow_negative_numbers = true, long, value_name = "N")]
    pub seed: Option<String>,
    /// Prints the rows as JSON, for programs
    #[arg(long)]
    pub json: bool,
}

/// A path option's value: anything but an empty one.
pub(super) fn path(text: &str) -> Result<PathBuf, String> {
    match text {
        "" => Err("a path is needed, not an empty value".into()),
        _ => Ok(PathBuf::from(text)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::args::parse;
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_declarations_hold_together() {
        Cli::command().debug_assert();
    }

    const TRACE: &str = "--trace t.csv --trace-speed 2 --trace-loop --trace-columns time=ts --trace-classes a,b --trace-skip-bad";

    /// For each command, a line that gives every one of its options.
    fn every_option() -> Vec<String> {
        let common = "default --set policy=random --seed 2 --duration 3 --warmup 1";
        [
            format!("run {common} --until-precision 5% --csv out --record-trace r.csv --json {TRACE}"),
            format!("sweep {common} --set load=0.5,0.6 --seeds 1-3 --shard 1/2 --json {TRACE}"),
            format!("compare {common} --vs policy=power-of-d --vs-preset haproxy --independent-seeds --json {TRACE}"),
            format!("capacity {common} --slo p99=50ms --json {TRACE}"),
            format!("plot {common} --chart compare --metric latency --theme dark --out f.svg --vs load=0.5 --vs-preset nginx --independent-seeds {TRACE}"),
            "keys default --set policy=ring --seed 2 --json".into(),
            "bins --balls 10 --bins 5 --choices 1,2 --method best-of-d,hash --trials 2 --seed 1 --json".into(),
            "trace t.csv default --set servers=4 --trace-columns time=ts --trace-classes a --trace-skip-bad --json".into(),
            "trace --generate poisson --rows 5 --seed 2 --out o.csv".into(),
            "fields --markdown".into(),
            "completions fish".into(),
            "man --out pages".into(),
        ]
        .into()
    }

    /// Each option's value goes through the type it is declared with, so
    /// a declaration that does not match its field fails here, not in a
    /// user's hands.
    #[test]
    fn every_option_of_every_command_is_read() {
        let lines = every_option();
        for line in &lines {
            let words: Vec<String> = line.split_whitespace().map(String::from).collect();
            if let Err(refused) = parse(&words) {
                panic!("{line}: {refused}");
            }
        }
        for command in Cli::command().get_subcommands() {
            let name = command.get_name();
            let given: Vec<&String> = lines.iter().filter(|l| l.split(' ').next() == Some(name)).collect();
            for long in command.get_arguments().filter_map(|a| a.get_long()).filter(|l| *l != "help") {
                let flag = format!("--{long}");
                let covered = given.iter().any(|line| line.split(' ').any(|word| word == flag));
                assert!(covered, "no line gives {name} {flag}");
            }
        }
    }
}
