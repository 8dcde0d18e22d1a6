//! Two runs on the same axes: A, the scenario, and B, A with some settings
//! changed, as `lbsim compare` runs them. Either their client-experience
//! curves or their p99 over simulated time. A is dashed in the muted colour,
//! as the lab draws the curve from before a change, B solid; a legend above
//! the chart names them by the settings that differ. And the lab's compare
//! mode, live: both runs' p50, p90 and p99, B's in the muted colour.

use super::markers::Marker;
use super::percentiles::{over_time, percentile_colours, run_traces, theory_level, Trace};
use super::registry::{Descriptor, PlotFigure, Plotted};
use super::stroke::{legend_above, Chip, Stroke};
use super::{clients, ChartStyle, Drawn, Lines, SeriesMetric, Span};
use crate::metrics::SamplePoint;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Two runs on the same axes: `lbsim plot`'s alone (the lab compares in a mode of its own).
pub static CHART: Descriptor = Descriptor {
    key: "compare",
    tab_label: None,
    plot: Some(Plotted { figure: PlotFigure::Compare, help: "A and B, as compare runs them" }),
};

/// A's stroke and B's, `width` CSS pixels wide.
fn strokes(style: &ChartStyle, width: f64) -> [Stroke; 2] {
    [
        Stroke { colour: style.palette.muted, width, dashes: Some((7.0, 4.0)) },
        Stroke { colour: style.palette.request, width, dashes: None },
    ]
}

/// The legend above the chart: each side's stroke named `A: ` and `B: `
/// before its settings, then the note on the seeds they ran; returns the
/// area below it.
fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (strokes, settings): ([Stroke; 2], [&str; 2]),
    seeds: &str,
    style: &ChartStyle,
) -> Result<DrawingArea<DB, Shift>, Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    let [a, b] = strokes;
    let (name_a, name_b) = (format!("A: {}", settings[0]), format!("B: {}", settings[1]));
    legend_above(area, &[(Chip::Line(a), &name_a), (Chip::Line(b), &name_b), (Chip::Note, seeds)], style)
}

/// Session time by percentile of sessions, p0 to p100, for A and B: each
/// side's settings that differ and its curve, and the seeds they ran
/// (`seeds`, in words).
pub fn sessions<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    sides: [(&str, &[f64]); 2],
    seeds: &str,
    style: &ChartStyle,
) -> Drawn
where
    DB::ErrorType: 'static,
{
    let [a, b] = strokes(style, 3.0);
    let area = legend(area, ([a, b], sides.map(|(settings, _)| settings)), seeds, style)?;
    clients::curves(&area, &[(a, sides[0].1), (b, sides[1].1)], style)
}

/// The p99 of `metric` over the whole run, for A and B: each side's
/// settings that differ and its series, and the seeds they ran (`seeds`,
/// in words).
pub fn series<'s, DB, S>(
    area: &DrawingArea<DB, Shift>,
    sides: [(&str, S); 2],
    seeds: &str,
    metric: SeriesMetric,
    style: &ChartStyle,
) -> Drawn
where
    DB: DrawingBackend,
    DB::ErrorType: 'static,
    S: IntoIterator<Item = &'s SamplePoint> + Copy,
    S::IntoIter: DoubleEndedIterator + Clone,
{
    let [a, b] = strokes(style, 2.5);
    let area = legend(area, ([a, b], sides.map(|(settings, _)| settings)), seeds, style)?;
    let traces = [
        Trace { name: "A p99", short: "A p99", stroke: a, series: sides[0].1, percentile: 2 },
        Trace { name: "B p99", short: "B p99", stroke: b, series: sides[1].1, percentile: 2 },
    ];
    over_time(&area, &traces, (metric, None), Span::Whole, &[], style).map(drop)
}

/// p50, p90 and p99 of `metric` for A and B on one chart, as the lab's
/// compare mode shows them live: A's lines in the percentiles' colours,
/// B's thinner in the muted colour (B's colour in the lab's other charts),
/// each percentile keeping its dash on both sides; each line is named with
/// its side ("A p99", "B p99"). The theory level is A's, and the caller's
/// legend names it, the sides, and what the colours mean; returns the
/// names of the lines drawn.
pub fn percentiles<'s, DB, S>(
    area: &DrawingArea<DB, Shift>,
    sides: [S; 2],
    (metric, theory_ms): (SeriesMetric, Option<f64>),
    span: Span,
    markers: &[Marker],
    style: &ChartStyle,
) -> Lines
where
    DB: DrawingBackend,
    DB::ErrorType: 'static,
    S: IntoIterator<Item = &'s SamplePoint> + Copy,
    S::IntoIter: DoubleEndedIterator + Clone,
{
    const A: [&str; 3] = ["A p99", "A p90", "A p50"];
    const B: [&str; 3] = ["B p99", "B p90", "B p50"];
    let a = run_traces(sides[0], (A, A), percentile_colours(style), 2.5);
    let b = run_traces(sides[1], (B, B), [style.palette.muted; 3], 1.5);
    let traces: Vec<Trace<S>> = a.into_iter().chain(b).collect();
    over_time(area, &traces, (metric, theory_level(metric, theory_ms)), span, markers, style)
}

/// p50 and p99 of `metric` for a view's run and its twin's, as an embed
/// (an explainer chapter) draws them under its two pictures: four lines,
/// each named by its run and percentile ("power of two p99", "random
/// p99"; by the run's letter, "A p99", where the chart has no room for the
/// names), the view's own in the percentiles' colours, the twin's thinner
/// in the muted colour, each percentile keeping its dash on both sides.
/// p90 is left out: six lines under two pictures, named "A p90" and "B
/// p90" among them, asked a reader to match letters to pictures before
/// reading the one comparison the chapter makes, the two runs' tails. The
/// lab's compare mode keeps all six ([`percentiles`]). `sides` are each
/// run's name and samples; returns the names of the lines drawn.
pub fn twin_percentiles<'s, DB, S>(
    area: &DrawingArea<DB, Shift>,
    sides: [(&str, S); 2],
    (metric, theory_ms): (SeriesMetric, Option<f64>),
    span: Span,
    markers: &[Marker],
    style: &ChartStyle,
) -> Lines
where
    DB: DrawingBackend,
    DB::ErrorType: 'static,
    S: IntoIterator<Item = &'s SamplePoint> + Copy,
    S::IntoIter: DoubleEndedIterator + Clone,
{
    const PERCENTILES: [&str; 3] = ["p99", "p90", "p50"];
    let named = |name: &str| PERCENTILES.map(|p| format!("{name} {p}"));
    let [(own_name, own), (twin_name, twin)] = sides;
    let [own_names, own_letters, twin_names, twin_letters] =
        [named(own_name), named("A"), named(twin_name), named("B")];
    let own_names_and_letters = (strs(&own_names), strs(&own_letters));
    let a = run_traces(own, own_names_and_letters, percentile_colours(style), 2.5);
    let b = run_traces(twin, (strs(&twin_names), strs(&twin_letters)), [style.palette.muted; 3], 1.5);
    let traces: Vec<Trace<S>> = a.into_iter().chain(b).filter(|trace| trace.percentile != 1).collect();
    over_time(area, &traces, (metric, theory_level(metric, theory_ms)), span, markers, style)
}

/// Three names as the strings a trace borrows.
fn strs(names: &[String; 3]) -> [&str; 3] {
    names.each_ref().map(String::as_str)
}
