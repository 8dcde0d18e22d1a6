//! Two runs on the same axes: A, the scenario, and B, A with some settings
//! changed, as `lbsim compare` runs them. Either their client-experience
//! curves or their p99 over simulated time. A is dashed in the muted colour,
//! as the lab draws the curve from before a change, B solid; a legend above
//! the chart names them by the settings that differ.

use super::percentiles::{over_time, Trace};
use super::stroke::{legend_above, Chip, Stroke};
use super::{clients, ChartStyle, Drawn, SeriesMetric, Span};
use crate::metrics::SamplePoint;
use plotters::coord::Shift;
use plotters::prelude::*;

/// A's stroke and B's, `width` CSS pixels wide.
fn strokes(style: &ChartStyle, width: f64) -> [Stroke; 2] {
    [
        Stroke { colour: style.palette.muted, width, dashes: Some((7.0, 4.0)) },
        Stroke { colour: style.palette.request, width, dashes: None },
    ]
}

/// The legend's entries: `A: ` and `B: ` before each side's settings.
fn names(settings: [&str; 2]) -> [String; 2] {
    [format!("A: {}", settings[0]), format!("B: {}", settings[1])]
}

/// Session time by percentile of sessions, p0 to p100, for A and B: each
/// side's settings that differ and its curve.
pub fn sessions<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    sides: [(&str, &[f64]); 2],
    style: &ChartStyle,
) -> Drawn
where
    DB::ErrorType: 'static,
{
    let [a, b] = strokes(style, 3.0);
    let [name_a, name_b] = names(sides.map(|(settings, _)| settings));
    let area = legend_above(area, &[(Chip::Line(a), &name_a), (Chip::Line(b), &name_b)], style)?;
    clients::curves(&area, &[(a, sides[0].1), (b, sides[1].1)], style)
}

/// The p99 of `metric` over the whole run, for A and B: each side's
/// settings that differ and its series.
pub fn series<'s, DB, S>(
    area: &DrawingArea<DB, Shift>,
    sides: [(&str, S); 2],
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
    let [name_a, name_b] = names(sides.map(|(settings, _)| settings));
    let area = legend_above(area, &[(Chip::Line(a), &name_a), (Chip::Line(b), &name_b)], style)?;
    let traces = [
        Trace { name: "A p99", stroke: a, series: sides[0].1, percentile: 2 },
        Trace { name: "B p99", stroke: b, series: sides[1].1, percentile: 2 },
    ];
    over_time(&area, &traces, (metric, None), Span::Whole, &[], style)
}
