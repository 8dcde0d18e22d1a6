//! Command-line arguments.

use super::bins::{self, BinsArgs};
use super::capacity::parse_objective;
use super::grid::{parse_seeds, Shard};
use super::plot::{theme, ChartKind, Metric, Plot};
pub use super::replay::TraceReplay;
pub use super::source::ScenarioSource;
use super::trace::{self, TraceArgs};
use lbsim::capacity::Objective;
use lbsim::charts::Palette;
use lbsim::scenario::duration::{self, Duration, Unit, LATEST_S};
use lbsim::scenario::echo;
use lbsim::scenario::fields::format_number;
use lbsim::trace::TraceOptions;
use std::path::PathBuf;

pub const USAGE: &str = "\
lbsim: a load-balancing laboratory (simulation engine)

usage:
  lbsim run SCENARIO [--seed N] [--duration D] [--warmup D] [--set key=value]... [--json]
                [--until-precision P%] [--csv DIR] [--record-trace FILE]
                --until-precision stops once the p99 queue time's 95% interval is within P% of it, over
                at least 10 batches of 100 requests each (duration_s stays the limit); --csv writes the series and per-server CSV files to DIR;
                --record-trace writes every request the run creates to FILE as a trace (time_s,key,class,service_ms)
                run, compare, sweep, plot and capacity take [--trace FILE] [--trace-speed K] [--trace-loop] and the trace
                options of lbsim trace: the trace's requests arrive instead of the scenario's, each a session of one
                (capacity searches over the trace's speed; docs/traces.md)
  lbsim sweep SCENARIO --set key=v1,v2,... [--set key=v1,v2,...]... [--set key=value]... [--seed N | --seeds 1-50]
                [--shard I/N] [--duration D] [--warmup D] [--json]
                a row for each value of one list; with several lists, a row for each point of their grid (the
                first list varying slowest) under each of --seeds (a range, a list, or both: 1-3,9), as a table
                or with --json a JSON line each; --shard I/N runs the I-th of N contiguous blocks of those rows,
                so the shards' outputs concatenated in shard order are the whole sweep's (docs/cli.md)
  lbsim compare SCENARIO [--set key=value]... --vs key=value [--vs key=value]... [--independent-seeds]
                [--seed N] [--duration D] [--warmup D] [--json]
                runs A (the scenario with --set) and B (A with --vs) on the same random numbers, and
                prints both summaries and B over A with 95% intervals; --independent-seeds gives B
                the next seed instead, to see how much wider the intervals are without them; both are
                measured over the same time, so --vs cannot change duration_s or warmup_s
  lbsim capacity SCENARIO --slo p99=MS [--set policy=a,b,...] [--set key=value]... [--seed N]
                [--duration D] [--warmup D] [--json]
                for each policy, the highest load at which the p99 queue time (or latency-p99=MS) stays
                within the objective: bisection on load, policies in parallel on every core
  lbsim plot SCENARIO --chart percentiles|clients|load|compare --out FILE.svg [--metric queue|latency|session]
                [--theme light|dark] [--set key=value]... [--vs key=value]... [--independent-seeds]
                [--seed N] [--duration D] [--warmup D]
                runs the scenario and draws one of the lab's charts to an SVG file: percentiles (p50, p90 and
                p99 over the run of --metric queue, the default, latency or session), clients (session time p0 to
                p100), load (each server at the end), or compare (A and B, as compare runs them: the p99 of
                --metric queue or latency over the run, or with --metric session their session-time curves)
  lbsim keys SCENARIO [--set key=value]... [--json]
                under a placement scheme (policy modulo, ranges, table, ring, rendezvous, maglev or
                bounded-load): the server of each key before any load, and the spread of the servers' shares
  lbsim bins [--balls M] [--bins N] [--choices 1,2,...] [--method best-of-d,random,round-robin,hash]
                [--trials T] [--seed N] [--json]
                throws M balls (10^6) into N bins (100), T times (200), by each method: best-of-d gives a row
                for each d of --choices (1 is random; 1,2 by default); prints the mean max − mean and max − min
                with standard errors beside theory, trials in parallel on every core; M × T is at most
                10^10 a method (minutes on a core)
  lbsim trace FILE [--trace-columns time=NAME[:s|:ms|:rfc3339],key=NAME,class=NAME,service=NAME[:s|:ms]]
                [--trace-classes a,b,...] [--trace-skip-bad] [--json] [SCENARIO]
                summarises a request trace (CSV with a header, or JSON lines; docs/traces.md): its duration
                and rate over time, the index of dispersion of counts, service-time percentiles, classes'
                shares, key popularity with a fitted Zipf exponent, and with SCENARIO the load it offers
                its servers; --trace-classes names the classes allowed, --trace-skip-bad leaves out bad rows
                and says how many and why
  lbsim trace --generate poisson|on-off|diurnal [--rows N] [--seed S] --out FILE
                writes a sample trace drawn from the seed (10,000 rows and seed 1 by default)
  lbsim fields [--markdown]   list every scenario field with its default and allowed values
  lbsim policies              list the routing policies
  lbsim presets               list the presets: the scenarios/ files, compiled in

SCENARIO is a TOML file's path (at most 1 MiB), which holds a `/` or ends in .toml (./mine, runs/a.toml); any other
word is a preset's name (`continuous-random`: see `lbsim presets`), or `default` for every field at its
default, even where a file of that name exists.
Durations are seconds, or take a unit: 500ms, 30s, 2m.";

#[derive(Debug, PartialEq)]
pub enum Command {
    Run(RunArgs),
    Sweep(RunArgs),
    Compare(RunArgs),
    Capacity(RunArgs),
    Plot(RunArgs, Plot),
    Keys(RunArgs),
    Bins(BinsArgs),
    Trace(TraceArgs),
    Fields { markdown: bool },
    Policies,
    Presets,
    Help,
}

impl Command {
    /// The options of a command that runs a scenario.
    pub fn run_args(&self) -> Option<&RunArgs> {
        match self {
            Command::Run(run)
            | Command::Sweep(run)
            | Command::Compare(run)
            | Command::Capacity(run)
            | Command::Plot(run, _)
            | Command::Keys(run) => Some(run),
            Command::Bins(_)
            | Command::Trace(_)
            | Command::Fields { .. }
            | Command::Policies
            | Command::Presets
            | Command::Help => None,
        }
    }
}

#[derive(Debug, PartialEq)]
pub struct RunArgs {
    pub scenario: ScenarioSource,
    /// `(key, value)` in the order given; for a sweep, the swept one too.
    pub sets: Vec<(String, String)>,
    /// For a comparison: what B sets on top of A, and whether B draws from
    /// the next seed rather than A's.
    pub vs: Vec<(String, String)>,
    pub independent_seeds: bool,
    /// For a run: stop once the p99 queue time's interval is this narrow
    /// (a fraction of it), and where to write CSV files.
    pub until_precision: Option<f64>,
    pub csv: Option<PathBuf>,
    /// For a run: where to write its requests as a trace.
    pub record_trace: Option<PathBuf>,
    /// For a capacity search: the objective.
    pub slo: Option<Objective>,
    /// For a sweep over a grid: the seeds of every point, and which share
    /// of the rows to run.
    pub seeds: Option<Vec<u64>>,
    pub shard: Option<Shard>,
    /// A trace to replay instead of the scenario's own arrivals.
    pub trace: Option<TraceReplay>,
    /// For a plot: its options as given.
    pub plot: PlotArgs,
    pub json: bool,
}

/// `lbsim plot`'s options as given; [`Plot::of`] checks them together.
#[derive(Debug, Default, PartialEq)]
pub struct PlotArgs {
    pub chart: Option<ChartKind>,
    pub metric: Option<Metric>,
    pub theme: Option<Palette>,
    pub out: Option<PathBuf>,
}

pub fn parse(args: &[String]) -> Result<Command, String> {
    let Some(command) = args.first() else { return Ok(Command::Help) };
    match command.as_str() {
        "run" => Ok(Command::Run(parse_run("run", &args[1..])?)),
        "sweep" => Ok(Command::Sweep(parse_run("sweep", &args[1..])?)),
        "compare" => {
            let run = parse_run("compare", &args[1..])?;
            if run.vs.is_empty() {
                return Err("compare needs at least one --vs key=value: what B changes from A".into());
            }
            Ok(Command::Compare(run))
        }
        "capacity" => {
            let run = parse_run("capacity", &args[1..])?;
            if run.slo.is_none() {
                return Err("capacity needs --slo p99=MS (queue time) or latency-p99=MS".into());
            }
            Ok(Command::Capacity(run))
        }
        "plot" => {
            let run = parse_run("plot", &args[1..])?;
            let plot = Plot::of(&run)?;
            Ok(Command::Plot(run, plot))
        }
        "keys" => Ok(Command::Keys(parse_run("keys", &args[1..])?)),
        "bins" => Ok(Command::Bins(bins::parse(&args[1..])?)),
        "trace" => Ok(Command::Trace(trace::parse(&args[1..])?)),
        "fields" => match &args[1..] {
            [] => Ok(Command::Fields { markdown: false }),
            [flag] if flag == "--markdown" => Ok(Command::Fields { markdown: true }),
            _ => Err("fields takes only --markdown".into()),
        },
        "policies" => nothing_more(command, &args[1..], Command::Policies),
        "presets" => nothing_more(command, &args[1..], Command::Presets),
        "help" | "--help" | "-h" => nothing_more(command, &args[1..], Command::Help),
        other => Err(format!(
            "unknown command {shown}; expected run, sweep, compare, capacity, plot, keys, bins, trace, fields, policies or presets", shown = echo(other)
        )),
    }
}

/// `command`, which takes no arguments, if none follow it.
fn nothing_more(command: &str, rest: &[String], parsed: Command) -> Result<Command, String> {
    match rest.first() {
        None => Ok(parsed),
        Some(extra) => Err(format!("unexpected argument {shown}: {command} takes none", shown = echo(extra))),
    }
}

fn parse_run(command: &str, args: &[String]) -> Result<RunArgs, String> {
    let mut scenario = None;
    let mut sets = Vec::new();
    let mut vs = Vec::new();
    let mut independent_seeds = false;
    let mut until_precision = None;
    let mut csv = None;
    let mut record_trace = None;
    let mut slo = None;
    let mut seeds = None;
    let mut shard = None;
    let mut trace: Option<TraceReplay> = None;
    let mut trace_options = (TraceOptions::default(), 1.0, false);
    let mut plot = PlotArgs::default();
    let mut json = false;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let mut value_of = |flag: &str| rest.next().cloned().ok_or_else(|| format!("{flag} needs a value"));
        match arg.as_str() {
            "--json" => json = true,
            "--seed" => sets.push(("seed".into(), value_of("--seed")?)),
            "--duration" => {
                sets.push(("duration_s".into(), seconds("--duration", &value_of("--duration")?)?))
            }
            "--warmup" => sets.push(("warmup_s".into(), seconds("--warmup", &value_of("--warmup")?)?)),
            "--set" => sets.push(key_value("--set", &value_of("--set")?)?),
            "--vs" | "--independent-seeds" if command != "compare" && command != "plot" => {
                return Err(format!("{arg} belongs to compare and plot, not {command}"))
            }
            "--vs" => vs.push(changed_by_b(key_value("--vs", &value_of("--vs")?)?)?),
            "--until-precision" | "--csv" | "--record-trace" if command != "run" => {
                return Err(format!("{arg} belongs to run, not {command}"))
            }
            "--until-precision" => until_precision = Some(percent(&value_of("--until-precision")?)?),
            "--csv" => csv = Some(PathBuf::from(value_of("--csv")?)),
            "--record-trace" => record_trace = Some(PathBuf::from(value_of(arg)?)),
            "--slo" if command != "capacity" => {
                return Err(format!("--slo belongs to capacity, not {command}"))
            }
            "--slo" => slo = Some(parse_objective(&value_of("--slo")?)?),
            "--seeds" | "--shard" if command != "sweep" => {
                return Err(format!("{arg} belongs to sweep, not {command}"))
            }
            "--seeds" => seeds = Some(parse_seeds(&value_of("--seeds")?)?),
            "--shard" => shard = Some(Shard::parse(&value_of("--shard")?)?),
            flag if flag.starts_with("--trace")
                && !matches!(command, "run" | "compare" | "sweep" | "plot" | "capacity") =>
            {
                return Err(format!(
                    "{flag} belongs to run, compare, sweep, plot and capacity, not {command}"
                ))
            }
            "--trace" => {
                let file = PathBuf::from(value_of(arg)?);
                trace =
                    Some(TraceReplay { file, options: TraceOptions::default(), speed: 1.0, looped: false })
            }
            flag if trace::READING_OPTIONS.contains(&flag) => {
                trace::read_option(flag, &mut trace_options.0, || value_of(flag))?
            }
            "--trace-speed" => trace_options.1 = TraceReplay::speed(&value_of(arg)?)?,
            "--trace-loop" => trace_options.2 = true,
            "--chart" | "--metric" | "--theme" | "--out" if command != "plot" => {
                return Err(format!("{arg} belongs to plot, not {command}"))
            }
            "--chart" => plot.chart = Some(ChartKind::parse(&value_of("--chart")?)?),
            "--metric" => plot.metric = Some(Metric::parse(&value_of("--metric")?)?),
            "--theme" => plot.theme = Some(theme(&value_of("--theme")?)?),
            "--out" => plot.out = Some(PathBuf::from(value_of("--out")?)),
            "--independent-seeds" => independent_seeds = true,
            flag if flag.starts_with("--") => {
                return Err(format!("unknown option {shown}", shown = echo(flag)))
            }
            source if scenario.is_none() => scenario = Some(ScenarioSource::parse(source)?),
            extra => return Err(format!("unexpected argument {shown}", shown = echo(extra))),
        }
    }
    let scenario = scenario.ok_or_else(|| {
        format!("{command} needs a SCENARIO: a TOML file, a preset's name (`lbsim presets`), or `default` for every field at its default")
    })?;
    let trace = match trace {
        Some(trace) => Some(TraceReplay { options: trace_options.0, speed: trace_options.1, looped: trace_options.2, ..trace }),
        None if trace_options != (TraceOptions::default(), 1.0, false) => {
            return Err("--trace-columns, --trace-classes, --trace-skip-bad, --trace-speed and --trace-loop need --trace FILE".into())
        }
        None => None,
    };
    Ok(RunArgs {
        scenario,
        sets,
        vs,
        independent_seeds,
        until_precision,
        csv,
        record_trace,
        slo,
        seeds,
        shard,
        trace,
        plot,
        json,
    })
}

/// A `--vs` pair, unless it would change the stretch of simulated time
/// that both runs are measured over: figures over different stretches are
/// not comparable, batch by batch or as a whole.
fn changed_by_b((key, value): (String, String)) -> Result<(String, String), String> {
    if key == "duration_s" || key == "warmup_s" {
        return Err(format!(
            "--vs cannot change {key}: A and B are measured over the same simulated time; set it for both with --duration or --warmup"
        ));
    }
    Ok((key, value))
}

/// `2%` (or `2`) as the fraction 0.02; above 0 and below 100%.
fn percent(text: &str) -> Result<f64, String> {
    let number = text.trim();
    match number.strip_suffix('%').unwrap_or(number).trim().parse::<f64>() {
        Ok(value) if value > 0.0 && value < 100.0 => Ok(value / 100.0),
        _ => Err(format!(
            "--until-precision takes a percentage above 0 and below 100, such as 2%, not {shown}",
            shown = echo(text)
        )),
    }
}

fn key_value(flag: &str, pair: &str) -> Result<(String, String), String> {
    let (key, value) = pair
        .split_once('=')
        .ok_or_else(|| format!("{flag} takes key=value, not {shown}", shown = echo(pair)))?;
    Ok((key.trim().to_string(), value.trim().to_string()))
}

/// Flag `flag`'s duration as seconds text: `90`, `90s`, `1500ms` or `2m`,
/// read as every duration is, but for a bare number being seconds.
fn seconds(flag: &str, text: &str) -> Result<String, String> {
    let day = (Duration::seconds(0.0), Duration::seconds(LATEST_S));
    duration::read(flag, text, day, Some(Unit::Seconds)).map(|d| format_number(d.as_seconds()))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A command line's words, as `main` passes them.
    pub(in crate::cli) fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_a_run() {
        let parsed =
            parse(&args("run a.toml --seed 3 --duration 2m --warmup 500ms --set policy=random --json"));
        assert_eq!(
            parsed,
            Ok(Command::Run(RunArgs {
                scenario: ScenarioSource::File("a.toml".into()),
                sets: vec![
                    ("seed".into(), "3".into()),
                    ("duration_s".into(), "120".into()),
                    ("warmup_s".into(), "0.5".into()),
                    ("policy".into(), "random".into()),
                ],
                vs: Vec::new(),
                independent_seeds: false,
                until_precision: None,
                csv: None,
                record_trace: None,
                slo: None,
                seeds: None,
                shard: None,
                trace: None,
                plot: PlotArgs::default(),
                json: true,
            }))
        );
    }

    #[test]
    fn rejects_what_it_does_not_know() {
        assert!(parse(&args("walk")).is_err());
        assert!(parse(&args("run a.toml --fast")).is_err());
        assert_eq!(
            parse(&args("run a.toml --duration soon")),
            Err("--duration is a duration from 0s to 86400s, written as a number of seconds, or one with a unit: 250ms, 30s or 2m; not `soon`".into())
        );
        assert!(parse(&args("run a.toml --warmup 2h")).is_err());
        assert!(parse(&args("run a.toml --set policy")).is_err());
        assert!(parse(&args("run a.toml --seed")).is_err());
        assert!(parse(&args("run a.toml b.toml")).is_err());
        assert!(parse(&args("run --seed 3")).is_err());
        assert!(parse(&args("run a.toml --vs policy=random")).is_err());
        assert!(parse(&args("compare a.toml --set policy=random")).is_err());
        assert!(parse(&args("run a.toml --until-precision 0%")).is_err());
        assert!(parse(&args("run a.toml --until-precision soon")).is_err());
        assert!(parse(&args("run a.toml --until-precision 5%%")).is_err());
        for extra in ["policies extra", "presets --json", "help me", "fields --markdown extra"] {
            assert!(parse(&args(extra)).is_err(), "{extra}");
        }
        assert!(parse(&args("sweep a.toml --set load=1,2 --csv out")).is_err());
    }

    #[test]
    fn parses_a_precision_and_a_csv_folder() {
        let Ok(Command::Run(run)) = parse(&args("run a.toml --until-precision 2% --csv out")) else {
            panic!("not a run");
        };
        assert_eq!((run.until_precision, run.csv), (Some(0.02), Some("out".into())));
    }

    #[test]
    fn parses_a_comparison() {
        let Ok(Command::Compare(run)) =
            parse(&args("compare a.toml --set policy=random --vs policy=power-of-d --independent-seeds"))
        else {
            panic!("not a comparison");
        };
        assert_eq!(run.sets, vec![("policy".into(), "random".into())]);
        assert_eq!(run.vs, vec![("policy".into(), "power-of-d".into())]);
        assert!(run.independent_seeds);
    }

    #[test]
    fn parses_a_plot_and_checks_its_options_together() {
        use super::super::plot::Figure;
        use lbsim::charts::SeriesMetric;
        let line =
            "plot a.toml --chart compare --vs policy=power-of-d --metric latency --theme dark --out f.svg";
        let Ok(Command::Plot(run, plot)) = parse(&args(line)) else { panic!("not a plot") };
        assert_eq!(run.vs, vec![("policy".into(), "power-of-d".into())]);
        let expected = Plot {
            figure: Figure::CompareSeries(SeriesMetric::Latency),
            palette: Palette::DARK,
            out: "f.svg".into(),
        };
        assert_eq!(plot, expected);
        let Ok(Command::Plot(_, plot)) = parse(&args("plot a.toml --chart percentiles --out f.svg")) else {
            panic!("not a plot")
        };
        assert_eq!(
            (plot.figure, plot.palette),
            (Figure::Percentiles(SeriesMetric::QueueTime), Palette::LIGHT)
        );
        for (line, error) in [
            ("plot a.toml --out f.svg", "plot needs --chart"),
            (
                "plot a.toml --chart pie --out f.svg",
                "--chart takes percentiles, clients, load or compare, not `pie`",
            ),
            (
                "plot a.toml --chart percentiles --metric speed --out f.svg",
                "--metric takes queue, latency or session",
            ),
            ("plot a.toml --chart load --metric queue --out f.svg", "--metric belongs to"),
            ("plot a.toml --chart compare --out f.svg", "needs at least one --vs"),
            ("plot a.toml --chart clients --vs policy=random --out f.svg", "belong to --chart compare"),
            ("plot a.toml --chart clients", "plot needs --out"),
            ("plot a.toml --chart clients --json --out f.svg", "--json belongs to run"),
            ("plot a.toml --chart clients --out f.png", "ending in .svg, not `f.png`"),
            ("plot a.toml --chart clients --theme sepia --out f.svg", "--theme takes light or dark"),
            ("run a.toml --chart clients", "--chart belongs to plot, not run"),
        ] {
            let error_given = parse(&args(line)).expect_err(line);
            assert!(error_given.contains(error), "{line}: {error_given}");
        }
    }
}
