//! Queue time, latency or session time over simulated time: p50, p90 and p99 over the last
//! second, sampled every quarter second, for the last half minute or the
//! whole run, with the moments settings changed live and servers failed,
//! recovered, joined or left marked (see `markers`).

use super::marker_names::label_markers;
use super::markers::Marker;
use super::registry::{Descriptor, PlotFigure, Plotted};
use super::stroke::{legend_above, Chip, Stroke};
use super::{nice_ceiling, ChartStyle, Colour, Lines};
use crate::metrics::SamplePoint;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::ops::Range;

/// The percentile chart: a view's first, an embed's one chart.
pub static CHART: Descriptor = Descriptor {
    key: "percentiles",
    tab_label: Some("Over time"),
    plot: Some(Plotted { figure: PlotFigure::Percentiles, help: "p50, p90 and p99 over the run" }),
};

/// Which time a request spent, as the series' percentiles give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeriesMetric {
    /// From first entering a queue to leaving one for a slot.
    QueueTime,
    /// From wanting to send to the response.
    Latency,
    /// A whole session of requests, as its client saw it.
    SessionTime,
}

impl SeriesMetric {
    pub const ALL: [SeriesMetric; 3] =
        [SeriesMetric::QueueTime, SeriesMetric::Latency, SeriesMetric::SessionTime];

    /// The name a link or a command line gives it.
    pub fn key(self) -> &'static str {
        match self {
            SeriesMetric::QueueTime => "queue",
            SeriesMetric::Latency => "latency",
            SeriesMetric::SessionTime => "session",
        }
    }

    /// What it is, for people: "Queue time".
    pub fn title(self) -> &'static str {
        match self {
            SeriesMetric::QueueTime => "Queue time",
            SeriesMetric::Latency => "Latency",
            SeriesMetric::SessionTime => "Session time",
        }
    }

    fn axis_title(self) -> &'static str {
        match self {
            SeriesMetric::QueueTime => "queue time (ms)",
            SeriesMetric::Latency => "latency (ms)",
            SeriesMetric::SessionTime => "session time (ms)",
        }
    }

    /// p50, p90 and p99 at a sample, in milliseconds.
    fn percentiles(self, p: &SamplePoint) -> [f64; 3] {
        match self {
            SeriesMetric::QueueTime => [p.queue_p50, p.queue_p90, p.queue_p99],
            SeriesMetric::Latency => [p.latency_p50, p.latency_p90, p.latency_p99],
            SeriesMetric::SessionTime => [p.session_p50, p.session_p90, p.session_p99],
        }
    }
}

/// How much simulated time a chart over time shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Span {
    /// The run so far, growing with it up to the last half minute, as a
    /// live view shows it: a fixed half minute left a view arriving at 3 s
    /// with its curves in the first tenth of the chart.
    Live,
    /// From the start to the newest sample.
    Whole,
}

/// Simulated seconds a live chart shows at most.
const LIVE_S: f64 = 30.0;
/// Simulated seconds a live chart shows at least, so the first samples
/// are not stretched across the whole width.
const LIVE_MIN_S: f64 = 2.0;

impl Span {
    /// Simulated seconds on the x axis, given the newest sample's, with
    /// `room` (a share of the span) right of it for the lines' names.
    fn seconds(self, end_s: f64, room: f64) -> Range<f64> {
        match self {
            Span::Live => {
                let width_s = end_s.clamp(LIVE_MIN_S, LIVE_S);
                let start_s = (end_s - width_s).max(0.0);
                start_s..start_s + width_s * (1.0 + room)
            }
            Span::Whole => 0.0..(end_s * (1.0 + room)).max(1.0),
        }
    }
}

/// One line over time: its name (and a shorter one, for a chart too
/// narrow to write the longer whole), its stroke, the samples it follows,
/// and which of their percentiles (0: p50, 1: p90, 2: p99).
pub(super) struct Trace<'n, S> {
    pub name: &'n str,
    pub short: &'n str,
    pub stroke: Stroke,
    pub series: S,
    pub percentile: usize,
}

impl<'n, S> Trace<'n, S> {
    /// Its name, or its short one.
    fn named(&self, short: bool) -> &'n str {
        match short {
            true => self.short,
            false => self.name,
        }
    }
}

/// The level queueing theory gives for `metric`, when it gives one: its
/// mean wait, for queue time.
pub fn theory_level(metric: SeriesMetric, theory_ms: Option<f64>) -> Option<f64> {
    theory_ms.filter(|ms| metric == SeriesMetric::QueueTime && ms.is_finite())
}

/// What the theory level is called in a legend, with the run's `measured`
/// mean wait beside it where known: the level is a mean, and drawn beside
/// percentiles alone it read as a mismatch ("theory: mean wait 33.0 ms"
/// against a p50 of about 10 ms, in chapter 3).
pub fn theory_label(ms: f64, measured: Option<f64>) -> String {
    match measured {
        Some(mean) => format!("theory: mean wait {ms:.1} ms; measured mean {mean:.1} ms"),
        None => format!("theory: mean wait {ms:.1} ms"),
    }
}

/// The theory level's stroke.
fn theory_stroke(style: &ChartStyle) -> Stroke {
    Stroke { colour: style.palette.ink, width: 1.5, dashes: Some((10.0, 4.0)) }
}

/// p50, p90 and p99 of `metric` over `series`, with queueing theory's mean
/// wait as a level line where it is known (`theory_ms`, for queue time),
/// named by the caller's legend (the browser's, in HTML beside it);
/// returns the names of the lines drawn.
pub fn draw<'s, DB, S>(
    area: &DrawingArea<DB, Shift>,
    series: S,
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
    const NAMES: [&str; 3] = ["p99", "p90", "p50"];
    let traces = run_traces(series, (NAMES, NAMES), percentile_colours(style), 2.5);
    over_time(area, &traces, (metric, theory_level(metric, theory_ms)), span, markers, style)
}

/// The colours of p99, p90 and p50, in that order.
pub(super) fn percentile_colours(style: &ChartStyle) -> [Colour; 3] {
    [style.palette.p99, style.palette.p90, style.palette.p50]
}

/// One run's p99, p90 and p50 lines over `series`, named `names` (and
/// `shorts` where a chart has no room for them) and coloured `colours`
/// (all in that order), `width` CSS pixels wide; each percentile has its
/// own dash, so that its lines are told apart without their colour.
pub(super) fn run_traces<'n, S: Copy>(
    series: S,
    (names, shorts): ([&'n str; 3], [&'n str; 3]),
    colours: [Colour; 3],
    width: f64,
) -> [Trace<'n, S>; 3] {
    const DASHES: [Option<(f64, f64)>; 3] = [None, Some((6.0, 4.0)), Some((2.0, 3.0))];
    std::array::from_fn(|i| Trace {
        name: names[i],
        short: shorts[i],
        stroke: Stroke { colour: colours[i], width, dashes: DASHES[i] },
        series,
        percentile: 2 - i,
    })
}

/// The chart with the theory level's name in a legend above it, clear of
/// the curves, for a figure that stands alone.
pub fn figure<'s, DB, S>(
    area: &DrawingArea<DB, Shift>,
    series: S,
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
    match theory_level(metric, theory_ms) {
        Some(ms) => {
            let name = theory_label(ms, None);
            let area = legend_above(area, &[(Chip::Line(theory_stroke(style)), &name)], style)?;
            draw(&area, series, (metric, theory_ms), span, markers, style)
        }
        None => draw(area, series, (metric, theory_ms), span, markers, style),
    }
}

/// The size (CSS px, before the chart's type scale) of a line's name.
const NAME_PX: f64 = 12.0;
/// How far apart (in sizes of their type) names stand at the least: a line
/// of type, so that a "p" hanging below one clears the digits of the next
/// (13 px apart in 12 px type, they touched at a phone's width).
const NAME_LINE: f64 = 1.25;

/// `traces` of `metric` over simulated time, each named at its newest
/// point (by its short name where the chart has no room for the longer
/// ones, see [`name_room`]), with `markers` drawn first; returns the names
/// of the lines drawn (a trace with no samples yet has none).
pub(super) fn over_time<'s, DB, S>(
    area: &DrawingArea<DB, Shift>,
    traces: &[Trace<S>],
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
    let newest = |trace: &Trace<S>| trace.series.into_iter().next_back();
    let end_s = traces.iter().filter_map(newest).map(|p| p.time_ms / 1000.0).fold(0.0, f64::max);
    let names = style.text(NAME_PX, style.palette.ink).pos(Pos::new(HPos::Left, VPos::Center));
    let (room, short) = match name_room(area, traces.iter().map(|t| t.name), &names, style)? {
        Some(room) => (room, false),
        None => (name_room(area, traces.iter().map(|t| t.short), &names, style)?.unwrap_or(MOST_ROOM), true),
    };
    let seconds = span.seconds(end_s, room);
    let (left, right) = (seconds.start, seconds.end);
    let shown = |trace: &Trace<S>| {
        let percentile = trace.percentile;
        let samples = trace.series.into_iter().filter(move |p| p.time_ms / 1000.0 >= left);
        samples.map(move |p| (p.time_ms / 1000.0, metric.percentiles(p)[percentile]))
    };
    let highest = traces.iter().flat_map(shown).map(|(_, ms)| ms).fold(theory_ms.unwrap_or(0.0), f64::max);
    let top = nice_ceiling(highest * 1.1);
    let mut chart = style.chart(area, seconds, 0.0..top, ("simulated time (s)", metric.axis_title()))?;
    let palette = style.palette;
    let shown_markers: Vec<&Marker> = markers.iter().filter(|m| (left..=right).contains(&m.time_s)).collect();
    for marker in &shown_markers {
        let line = [(marker.time_s, 0.0), (marker.time_s, top)];
        let (dash, gap) = (style.px(4.0), style.px(3.0));
        chart.draw_series(DashedLineSeries::new(line, dash, gap, style.stroke(palette.muted, 1.0)))?;
    }
    label_markers(area, &chart, &shown_markers, top, style)?;
    if let Some(ms) = theory_ms {
        theory_stroke(style).draw(&mut chart, [(left, ms), (right, ms)], style)?;
    }
    for trace in traces {
        trace.stroke.draw(&mut chart, shown(trace), style)?;
    }
    // Each line is named where it ends, beside its newest point; names
    // that would overprint are moved apart.
    let ends: Vec<(&Trace<S>, (i32, i32))> = traces
        .iter()
        .filter_map(|trace| {
            let last = newest(trace)?;
            let at = (last.time_ms / 1000.0, metric.percentiles(last)[trace.percentile]);
            Some((trace, chart.backend_coord(&at)))
        })
        .collect();
    let base = area.get_base_pixel();
    let gap = style.px(NAME_PX * NAME_LINE * style.type_scale) as i32;
    let plot = (chart.backend_coord(&(left, top)).1 + gap / 2, chart.backend_coord(&(left, 0.0)).1 - gap / 2);
    let ys = apart(ends.iter().map(|(_, (_, y))| *y).collect(), gap, plot);
    for ((trace, (x, _)), y) in ends.iter().zip(ys) {
        let at = (x + style.px(5.0) as i32 - base.0, y - base.1);
        area.draw(&Text::new(trace.named(short), at, names.color(&trace.stroke.colour.rgb())))?;
    }
    Ok(ends.iter().map(|(trace, _)| trace.named(short).to_string()).collect())
}

/// The most of a span left right of the newest sample for the lines'
/// names: a third of the plot.
const MOST_ROOM: f64 = 0.5;

/// The share of a span to leave right of the newest sample so that the
/// widest of `names`, written beside it in `font`, ends inside `area`;
/// `None` where that is more than [`MOST_ROOM`].
fn name_room<'n, DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    names: impl Iterator<Item = &'n str>,
    font: &TextStyle,
    style: &ChartStyle,
) -> Result<Option<f64>, Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    let mut widest = 0;
    for name in names {
        widest = widest.max(area.estimate_text_size(name, font)?.0);
    }
    // As `ChartStyle::chart` lays the plot out: the y axis's labels and
    // the margins beside it; the right margin takes a part of the name.
    let beside = style.px(58.0 * style.type_scale + 6.0 + 16.0);
    let plot = f64::from(area.dim_in_pixel().0.saturating_sub(beside));
    // A sixteenth more than the widest estimate: an estimate of a long
    // name ("power of two choices p99") fell 3 px short of its type; a
    // sixth more left chapter 5's opened chart at 1440 × 900 no room for
    // the runs' names, only their letters.
    let widest = widest + widest / 16;
    let needed = f64::from((style.px(5.0 + 4.0) + widest).saturating_sub(style.px(16.0)));
    let room = (needed / (plot - needed).max(1.0)).max(0.0);
    Ok((room <= MOST_ROOM && plot > needed).then_some(room))
}

/// `ys` (pixels, in any order) moved apart so that each is at least `gap`
/// from the next, keeping their order and their middle where it was, then
/// moved together as far as it takes to stay `within` the plot's top and
/// bottom: names crowded at a level near zero would otherwise spread
/// below the axis, among its tick labels.
fn apart(ys: Vec<i32>, gap: i32, (top, bottom): (i32, i32)) -> Vec<i32> {
    let mut order: Vec<usize> = (0..ys.len()).collect();
    crate::sort::sort_by_key(&mut order, |&i| ys[i]);
    let mut moved = ys.clone();
    for k in 1..order.len() {
        let (above, this) = (order[k - 1], order[k]);
        moved[this] = moved[this].max(moved[above] + gap);
    }
    let shift = (moved.iter().sum::<i32>() - ys.iter().sum::<i32>()) / ys.len().max(1) as i32;
    let (highest, lowest) =
        moved.iter().fold((i32::MAX, i32::MIN), |(h, l), y| (h.min(y - shift), l.max(y - shift)));
    let nudge = match (lowest > bottom, highest < top) {
        (true, _) => bottom - lowest,
        (false, true) => top - highest,
        (false, false) => 0,
    };
    moved.iter().map(|y| y - shift + nudge).collect()
}

#[cfg(test)]
mod tests {
    use super::Span;

    #[test]
    fn a_live_span_grows_with_the_run_up_to_half_a_minute() {
        assert_eq!(Span::Live.seconds(0.5, 0.0), 0.0..2.0);
        assert_eq!(Span::Live.seconds(6.0, 0.0), 0.0..6.0);
        assert_eq!(Span::Live.seconds(6.0, 0.25), 0.0..7.5);
        assert_eq!(Span::Live.seconds(30.0, 0.0), 0.0..30.0);
        assert_eq!(Span::Live.seconds(45.0, 0.0), 15.0..45.0);
    }
}
