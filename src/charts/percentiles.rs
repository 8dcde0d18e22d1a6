//! Queue time, latency or session time over simulated time: p50, p90 and p99 over the last
//! second, sampled every quarter second, for the last half minute or the
//! whole run, with the moments settings changed live marked.

use super::stroke::Stroke;
use super::{nice_ceiling, ChartStyle, Drawn};
use crate::metrics::SamplePoint;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::ops::Range;

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
    /// The last half minute, as a live view shows it.
    Live,
    /// From the start to the newest sample, with room at the right for the
    /// lines' names.
    Whole,
}

/// Simulated seconds a live chart shows.
const LIVE_S: f64 = 30.0;
/// Room for the lines' names right of the whole run, as a share of it.
const NAME_ROOM: f64 = 0.06;

impl Span {
    /// Simulated seconds on the x axis, given the newest sample's.
    fn seconds(self, end_s: f64) -> Range<f64> {
        match self {
            Span::Live => {
                let start_s = (end_s - LIVE_S).max(0.0);
                start_s..start_s + LIVE_S
            }
            Span::Whole => 0.0..(end_s * (1.0 + NAME_ROOM)).max(1.0),
        }
    }
}

/// A setting changed live at `time_s` simulated seconds, as `label` says.
pub struct Marker {
    pub time_s: f64,
    pub label: String,
}

/// One line over time: its name and stroke, the samples it follows, and
/// which of their percentiles (0: p50, 1: p90, 2: p99).
pub(super) struct Trace<S> {
    pub name: &'static str,
    pub stroke: Stroke,
    pub series: S,
    pub percentile: usize,
}

/// p50, p90 and p99 of `metric` over `series`, with queueing theory's mean
/// wait as a level line where it is known (`theory_ms`, for queue time).
pub fn draw<'s, DB, S>(
    area: &DrawingArea<DB, Shift>,
    series: S,
    (metric, theory_ms): (SeriesMetric, Option<f64>),
    span: Span,
    markers: &[Marker],
    style: &ChartStyle,
) -> Drawn
where
    DB: DrawingBackend,
    DB::ErrorType: 'static,
    S: IntoIterator<Item = &'s SamplePoint> + Copy,
    S::IntoIter: DoubleEndedIterator + Clone,
{
    let palette = style.palette;
    let line = |name, colour, dashes, percentile| Trace {
        name,
        stroke: Stroke { colour, width: 2.5, dashes },
        series,
        percentile,
    };
    let traces = [
        line("p99", palette.p99, None, 2),
        line("p90", palette.p90, Some((6.0, 4.0)), 1),
        line("p50", palette.p50, Some((2.0, 3.0)), 0),
    ];
    let theory = theory_ms.filter(|ms| metric == SeriesMetric::QueueTime && ms.is_finite());
    over_time(area, &traces, (metric, theory), span, markers, style)
}

/// `traces` of `metric` over simulated time, each named at its newest
/// point, with `markers` drawn first.
pub(super) fn over_time<'s, DB, S>(
    area: &DrawingArea<DB, Shift>,
    traces: &[Trace<S>],
    (metric, theory_ms): (SeriesMetric, Option<f64>),
    span: Span,
    markers: &[Marker],
    style: &ChartStyle,
) -> Drawn
where
    DB: DrawingBackend,
    DB::ErrorType: 'static,
    S: IntoIterator<Item = &'s SamplePoint> + Copy,
    S::IntoIter: DoubleEndedIterator + Clone,
{
    let newest = |trace: &Trace<S>| trace.series.into_iter().next_back();
    let end_s = traces.iter().filter_map(newest).map(|p| p.time_ms / 1000.0).fold(0.0, f64::max);
    let seconds = span.seconds(end_s);
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
    for marker in markers.iter().filter(|m| (left..=right).contains(&m.time_s)) {
        let line = [(marker.time_s, 0.0), (marker.time_s, top)];
        let (dash, gap) = (style.px(4.0), style.px(3.0));
        chart.draw_series(DashedLineSeries::new(line, dash, gap, style.stroke(palette.muted, 1.0)))?;
        let offset = (style.px(4.0) as i32, style.px(2.0) as i32);
        let text = Text::new(marker.label.clone(), offset, style.text(12.0, palette.muted));
        chart.plotting_area().draw(&(EmptyElement::at((marker.time_s, top)) + text))?;
    }
    if let Some(ms) = theory_ms {
        let level = Stroke { colour: palette.ink, width: 1.5, dashes: Some((10.0, 4.0)) };
        level.draw(&mut chart, [(left, ms), (right, ms)], style)?;
        let offset = (style.px(6.0) as i32, -(style.px(16.0) as i32));
        let text = Text::new(format!("theory: mean wait {ms:.1} ms"), offset, style.text(12.0, palette.ink));
        chart.plotting_area().draw(&(EmptyElement::at((left, ms)) + text))?;
    }
    for trace in traces {
        trace.stroke.draw(&mut chart, shown(trace), style)?;
        // Each line is named where it ends, beside its newest point.
        if let Some(last) = newest(trace) {
            let at = (last.time_ms / 1000.0, metric.percentiles(last)[trace.percentile]);
            let offset = (style.px(5.0) as i32, -(style.px(7.0) as i32));
            let text = Text::new(trace.name, offset, style.text(12.0, trace.stroke.colour));
            chart.plotting_area().draw(&(EmptyElement::at(at) + text))?;
        }
    }
    Ok(())
}
