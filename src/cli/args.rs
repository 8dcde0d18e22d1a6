//! Command-line arguments.

use super::bins::BinsArgs;
use super::command::{Cli, Commands, ScenarioArgs, TimeArgs, VersusArgs};
use super::grid::Shard;
use super::plot::{ChartKind, Metric, Plot, Theme};
use super::refusal;
pub use super::replay::TraceReplay;
pub use super::source::ScenarioSource;
use super::trace::TraceArgs;
use super::trace_args::{ReplayArgs, TraceReading};
use clap::error::ErrorKind;
use clap::Parser;
use lbsim::capacity::Objective;
use lbsim::charts::Palette;
use lbsim::presets::Preset;
use lbsim::scenario::duration::{self, Duration, Unit, LATEST_S};
use lbsim::scenario::echo;
use lbsim::scenario::fields::format_number;
use lbsim::trace::TraceOptions;
use std::path::PathBuf;

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
    Fields {
        markdown: bool,
    },
    Policies,
    Presets,
    /// A shell's completion script, to print.
    Completions(clap_complete::Shell),
    /// Where to write the man pages.
    Man(PathBuf),
    /// Help or version text, to print as it is.
    Show(String),
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
            | Command::Completions(_)
            | Command::Man(_)
            | Command::Show(_) => None,
        }
    }
}

#[derive(Debug, Default, PartialEq)]
pub struct RunArgs {
    pub scenario: ScenarioSource,
    /// `(key, value)` in the order given; for a sweep, the swept one too.
    pub sets: Vec<(String, String)>,
    /// For a comparison: what B sets on top of A, and whether B draws from
    /// the next seed rather than A's.
    pub vs: Vec<(String, String)>,
    /// For a comparison: the preset B starts from instead of A's scenario.
    pub vs_preset: Option<&'static Preset>,
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

/// What the words after `lbsim` ask for. Help and version text come back
/// as [`Command::Show`]; a refusal is one line naming the option, the
/// value given and what is allowed.
pub fn parse(argv: &[String]) -> Result<Command, String> {
    let words = std::iter::once("lbsim".to_string()).chain(argv.iter().cloned());
    let cli = match Cli::try_parse_from(words) {
        Ok(cli) => cli,
        Err(error) if matches!(error.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            return Ok(Command::Show(error.render().to_string()))
        }
        Err(error) => return Err(refusal::one_line(&error, argv)),
    };
    Ok(match cli.command {
        Commands::Run(c) => Command::Run(RunArgs {
            until_precision: c.until_precision,
            csv: c.csv,
            record_trace: c.record_trace,
            json: c.json,
            ..RunArgs::of(c.scenario, Some(c.time), Some(c.replay))?
        }),
        Commands::Sweep(c) => Command::Sweep(RunArgs {
            seeds: c.seeds,
            shard: c.shard,
            json: c.json,
            ..RunArgs::of(c.scenario, Some(c.time), Some(c.replay))?
        }),
        Commands::Compare(c) => {
            if c.versus.vs.is_empty() && c.versus.vs_preset.is_none() {
                return Err(
                    "compare needs at least one --vs key=value, or --vs-preset NAME: what B changes from A"
                        .into(),
                );
            }
            Command::Compare(RunArgs {
                json: c.json,
                ..RunArgs::of(c.scenario, Some(c.time), Some(c.replay))?.versus(c.versus)?
            })
        }
        Commands::Capacity(c) => {
            let slo = c.slo.ok_or("capacity needs --slo p99=MS (queue time) or latency-p99=MS")?;
            Command::Capacity(RunArgs {
                slo: Some(slo),
                json: c.json,
                ..RunArgs::of(c.scenario, Some(c.time), Some(c.replay))?
            })
        }
        Commands::Plot(c) => {
            let plot =
                PlotArgs { chart: c.chart, metric: c.metric, theme: c.theme.map(Theme::palette), out: c.out };
            let run =
                RunArgs { plot, ..RunArgs::of(c.scenario, Some(c.time), Some(c.replay))?.versus(c.versus)? };
            let figure = Plot::of(&run)?;
            Command::Plot(run, figure)
        }
        Commands::Keys(c) => Command::Keys(RunArgs { json: c.json, ..RunArgs::of(c.scenario, None, None)? }),
        Commands::Bins(c) => Command::Bins(BinsArgs::of(c)?),
        Commands::Trace(c) => Command::Trace(TraceArgs::of(c)?),
        Commands::Fields { markdown } => Command::Fields { markdown },
        Commands::Policies => Command::Policies,
        Commands::Presets => Command::Presets,
        Commands::Completions { shell } => Command::Completions(shell),
        Commands::Man { out } => Command::Man(out),
    })
}

impl RunArgs {
    /// A command's scenario with its settings in order (the seed, the
    /// duration and the warm-up first, then each `--set`), and its trace.
    fn of(
        scenario: ScenarioArgs,
        time: Option<TimeArgs>,
        replay: Option<ReplayArgs>,
    ) -> Result<RunArgs, String> {
        let ScenarioArgs { scenario, sets: given, seed } = scenario;
        let (duration, warmup) = time.map_or((None, None), |t| (t.duration, t.warmup));
        let mut sets = Vec::new();
        for (key, flag, value) in [
            ("seed", "--seed", seed),
            ("duration_s", "--duration", duration),
            ("warmup_s", "--warmup", warmup),
        ] {
            let Some(value) = value else { continue };
            if let Some((_, other)) = given.iter().find(|(k, _)| k == key) {
                return Err(format!("{flag} and --set {key}={other} both set {key}; give one"));
            }
            sets.push((key.to_string(), value));
        }
        sets.extend(given);
        Ok(RunArgs {
            scenario,
            sets,
            trace: replay.map(ReplayArgs::replay).transpose()?.flatten(),
            ..RunArgs::default()
        })
    }

    /// These arguments with what B changes from A.
    fn versus(self, versus: VersusArgs) -> Result<RunArgs, String> {
        let vs = versus.vs.into_iter().map(changed_by_b).collect::<Result<_, _>>()?;
        Ok(RunArgs { vs, vs_preset: versus.vs_preset, independent_seeds: versus.independent_seeds, ..self })
    }
}

impl ReplayArgs {
    /// The trace to replay, if `--trace` names one.
    fn replay(self) -> Result<Option<TraceReplay>, String> {
        let options = self.reading.options();
        match self.file {
            Some(file) => Ok(Some(TraceReplay { file, options, speed: self.speed.unwrap_or(1.0), looped: self.looped })),
            None if self.speed.is_some() || self.looped || options != TraceOptions::default() => Err(
                "--trace-columns, --trace-classes, --trace-skip-bad, --trace-speed and --trace-loop need --trace FILE".into(),
            ),
            None => Ok(None),
        }
    }
}

impl TraceReading {
    /// How to read the trace, from these options.
    pub fn options(self) -> TraceOptions {
        let mut options = TraceOptions { skip_bad: self.skip_bad, ..TraceOptions::default() };
        if let Some(columns) = self.columns {
            options.columns = columns;
        }
        if let Some(classes) = self.classes {
            options.classes = classes;
        }
        options
    }
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
pub(super) fn percent(text: &str) -> Result<f64, String> {
    let number = text.trim();
    match number.strip_suffix('%').unwrap_or(number).trim().parse::<f64>() {
        Ok(value) if value > 0.0 && value < 100.0 => Ok(value / 100.0),
        _ => Err(format!(
            "--until-precision takes a percentage above 0 and below 100, such as 2%, not {shown}",
            shown = echo(text)
        )),
    }
}

pub(super) fn key_value(flag: &str, pair: &str) -> Result<(String, String), String> {
    let (key, value) = pair
        .split_once('=')
        .ok_or_else(|| format!("{flag} takes key=value, not {shown}", shown = echo(pair)))?;
    Ok((key.trim().to_string(), value.trim().to_string()))
}

/// A `--set` pair.
pub(super) fn set_pair(pair: &str) -> Result<(String, String), String> {
    key_value("--set", pair)
}

/// Flag `flag`'s duration as seconds text: `90`, `90s`, `1500ms` or `2m`,
/// read as every duration is, but for a bare number being seconds.
pub(super) fn seconds(flag: &str, text: &str) -> Result<String, String> {
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
                json: true,
                ..RunArgs::default()
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
        let Ok(Command::Compare(run)) = parse(&args("compare envoy-least-request --vs-preset haproxy"))
        else {
            panic!("not a comparison");
        };
        assert_eq!((run.vs_preset, run.vs.len()), (Preset::find("haproxy"), 0));
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
                "--chart takes percentiles, waits, clients, load or compare, not `pie`",
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
