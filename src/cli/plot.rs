//! `lbsim plot`: runs a scenario (or A and B, as `compare` does) and draws
//! one of the lab's charts to an SVG file, with the code the browser draws
//! them with.

use super::args::RunArgs;
use super::output;
use super::report;
use super::runner::{self, simulate};
use lbsim::charts::{self, ChartStyle, Drawer, Palette, PlotFigure, Plotted, SeriesMetric, Span};
use lbsim::format::or_list;
use lbsim::metrics::percentile_curve;
use lbsim::scenario::echo;
use lbsim::scenario::fields;
use lbsim::Scenario;
use plotters::prelude::*;
use std::path::PathBuf;

/// The chart `--chart` names: one of those the charts registry
/// (`charts::CHARTS`) says `lbsim plot` draws, so that `--help` and the
/// refusals list them from there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChartKind(&'static Plotted, &'static str);

/// How many charts `lbsim plot` draws.
const PLOTTED: usize = Drawer::Plot.count();

impl ChartKind {
    const ALL: [ChartKind; PLOTTED] = {
        let descriptors = Drawer::Plot.charts::<PLOTTED>();
        let mut all = [ChartKind::of(descriptors[0]); PLOTTED];
        let mut i = 1;
        while i < PLOTTED {
            all[i] = ChartKind::of(descriptors[i]);
            i += 1;
        }
        all
    };

    /// The chart `descriptor` describes, which `lbsim plot` must draw (else
    /// the build stops here).
    const fn of(descriptor: &'static charts::Descriptor) -> ChartKind {
        let Some(plotted) = &descriptor.plot else { panic!("a chart lbsim plot draws says how") };
        ChartKind(plotted, descriptor.key)
    }

    /// Every chart's key, as a person reads a choice: "a, b or c".
    fn choices() -> String {
        or_list(ChartKind::ALL.map(|chart| chart.1.to_string()))
    }

    fn figure(self) -> PlotFigure {
        self.0.figure
    }
}

impl clap::ValueEnum for ChartKind {
    fn value_variants<'a>() -> &'a [ChartKind] {
        &ChartKind::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.1).help(self.0.help))
    }
}

/// The time `--metric` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Metric {
    /// Time waiting in a queue
    Queue,
    /// Time from a request's creation to its answer
    Latency,
    /// Time from a session's first request to its last answer
    Session,
}

/// The colours `--theme` names: the stylesheet's light or dark ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Theme {
    Light,
    Dark,
}

impl Theme {
    pub fn palette(self) -> Palette {
        match self {
            Theme::Light => Palette::LIGHT,
            Theme::Dark => Palette::DARK,
        }
    }
}

/// What a plot draws.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Figure {
    /// p50, p90 and p99 over the whole run, with the servers' failures and
    /// membership changes marked.
    Percentiles(SeriesMetric),
    /// How many requests waited how long in a queue, over the whole run.
    Waits,
    /// Session time, p0 to p100.
    Clients,
    /// Each server's busy slots and queue at the end, busiest first.
    Load,
    /// A's and B's p99 over the whole run.
    CompareSeries(SeriesMetric),
    /// A's and B's session time, p0 to p100.
    CompareSessions,
}

/// A plot, its options checked together.
#[derive(Debug, PartialEq)]
pub struct Plot {
    pub figure: Figure,
    pub palette: Palette,
    pub out: PathBuf,
}

impl Plot {
    /// Whether the chart compares two runs, A and B.
    pub fn compares(&self) -> bool {
        matches!(self.figure, Figure::CompareSeries(_) | Figure::CompareSessions)
    }
}

/// The SVG's width and height, in CSS pixels.
const SIZE: (u32, u32) = (800, 450);

impl Plot {
    pub fn of(run: &RunArgs) -> Result<Plot, String> {
        let options = &run.plot;
        let chart = options.chart.ok_or_else(|| format!("plot needs --chart {}", ChartKind::choices()))?;
        let series = |metric| match metric {
            None | Some(Metric::Queue) => Ok::<_, String>(SeriesMetric::QueueTime),
            Some(Metric::Latency) => Ok(SeriesMetric::Latency),
            Some(Metric::Session) => Ok(SeriesMetric::SessionTime),
        };
        let figure = match (chart.figure(), options.metric) {
            (PlotFigure::Percentiles, metric) => Figure::Percentiles(series(metric)?),
            (PlotFigure::Waits, None | Some(Metric::Queue)) => Figure::Waits,
            (PlotFigure::Clients, None | Some(Metric::Session)) => Figure::Clients,
            (PlotFigure::Waits | PlotFigure::Clients | PlotFigure::Load, Some(_)) => {
                return Err("--metric belongs to --chart percentiles and compare: waits always shows \
                    queue time, clients session time, and load requests at each server"
                    .into())
            }
            (PlotFigure::Load, None) => Figure::Load,
            (PlotFigure::Compare, Some(Metric::Session)) => Figure::CompareSessions,
            (PlotFigure::Compare, metric) => Figure::CompareSeries(series(metric)?),
        };
        let compared = chart.figure() == PlotFigure::Compare;
        if compared && run.vs.is_empty() && run.vs_preset.is_none() {
            return Err("--chart compare needs at least one --vs key=value, or --vs-preset NAME: what B changes from A".into());
        }
        if !compared && (!run.vs.is_empty() || run.vs_preset.is_some() || run.independent_seeds) {
            return Err("--vs, --vs-preset and --independent-seeds belong to --chart compare".into());
        }
        let out = options.out.clone().ok_or("plot needs --out FILE.svg")?;
        if out.extension().is_none_or(|e| e != "svg") {
            return Err(format!(
                "--out writes SVG: give a file name ending in .svg, not {}",
                echo(&out.display().to_string())
            ));
        }
        Ok(Plot { figure, palette: options.theme.unwrap_or(Palette::LIGHT), out })
    }
}

/// Runs what `plot` needs and writes its chart to its file.
pub fn plot(run: &RunArgs, plot: &Plot) -> Result<(), String> {
    let mut svg = String::new();
    {
        let area = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        let style = ChartStyle { palette: plot.palette, scale: 1.0, type_scale: 1.0 };
        let drawn = match plot.figure {
            Figure::Percentiles(metric) => {
                let scenario = runner::load(run, &[])?;
                let (sim, series) = runner::simulate_keeping_series(&scenario, run.trace.as_ref())?;
                let theory_ms = sim.theory().map(|t| t.mean_wait_ms);
                let events = charts::server_events(sim.scenario(), sim.now().as_secs());
                charts::percentiles_figure(&area, &series, (metric, theory_ms), Span::Whole, &events, &style)
                    .map(drop)
            }
            Figure::Waits => {
                let (sim, _) = simulate(&runner::load(run, &[])?, run.trace.as_ref())?;
                let waits = charts::Waits::of(&sim.metrics().queue_time.measured(), charts::WAIT_BINS);
                charts::waits_figure(&area, &waits, &style)
            }
            Figure::Clients => {
                let (sim, _) = simulate(&runner::load(run, &[])?, run.trace.as_ref())?;
                charts::clients(
                    &area,
                    &percentile_curve(&sim.metrics().session_time.measured()),
                    None,
                    &style,
                )
            }
            Figure::Load => {
                let (sim, _) = simulate(&runner::load(run, &[])?, run.trace.as_ref())?;
                let servers = sim.snapshot(0).servers;
                let mut loads = Vec::new();
                charts::busiest_first(&servers, &mut loads);
                let slots = servers.first().map_or(0, |s| s.slots);
                charts::load_figure(&area, &loads, slots, &style)
            }
            Figure::CompareSeries(metric) => {
                let (a, b) = runner::sides(run)?;
                let (_, series_a) = runner::simulate_keeping_series(&a, run.trace.as_ref())?;
                let (_, series_b) = runner::simulate_keeping_series(&b, run.trace.as_ref())?;
                let [name_a, name_b] = settings(run, [&a, &b]);
                let seeds = report::seeds(a.seed, b.seed);
                charts::compare_series(
                    &area,
                    [(&name_a, &series_a), (&name_b, &series_b)],
                    &seeds,
                    metric,
                    &style,
                )
            }
            Figure::CompareSessions => {
                let (a, b) = runner::sides(run)?;
                let curve = |scenario| {
                    simulate(scenario, run.trace.as_ref())
                        .map(|(sim, _)| percentile_curve(&sim.metrics().session_time.measured()))
                };
                let (curve_a, curve_b) = (curve(&a)?, curve(&b)?);
                let [name_a, name_b] = settings(run, [&a, &b]);
                let seeds = report::seeds(a.seed, b.seed);
                charts::compare_sessions(&area, [(&name_a, &curve_a), (&name_b, &curve_b)], &seeds, &style)
            }
        };
        drawn
            .and_then(|()| area.present().map_err(Into::into))
            .map_err(|e| format!("drawing the chart: {e}"))?;
    }
    std::fs::write(&plot.out, svg).map_err(|e| format!("cannot write {}: {e}", plot.out.display()))?;
    output::note(format_args!("wrote {}\n", plot.out.display()))?;
    Ok(())
}

/// What tells A and B apart, for each: the `--vs` fields' values in each
/// (`policy=random`); the legend's note says which seeds they ran.
fn settings(run: &RunArgs, sides: [&Scenario; 2]) -> [String; 2] {
    sides.map(|scenario| {
        let pairs: Vec<String> = run
            .vs
            .iter()
            .filter_map(|(key, _)| fields::find(key).ok())
            .map(|field| format!("{}={}", field.key, field.text(scenario)))
            .collect();
        pairs.join(", ")
    })
}
