//! The client-experience curve: session time at each percentile of
//! sessions, p0 (the fastest client) to p100 (the slowest). A reference
//! curve, kept from before the last change of a setting, shows the
//! difference the change made.

use super::{nice_ceiling, ChartStyle, Drawn};
use plotters::coord::Shift;
use plotters::prelude::*;

/// A labelled curve of 101 values, p0 to p100, in milliseconds.
pub struct Curve<'a> {
    pub label: &'a str,
    pub values: &'a [f64],
}

pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    current: Curve,
    reference: Option<Curve>,
    style: &ChartStyle,
) -> Drawn
where
    DB::ErrorType: 'static,
{
    let highest =
        current.values.iter().chain(reference.iter().flat_map(|r| r.values)).fold(0.0, |a, b| b.max(a));
    let top = nice_ceiling(highest * 1.05);
    let mut chart = style.chart(
        area,
        0.0..100.0,
        0.0..top,
        ("percentile of sessions (p0 fastest)", "session time (ms)"),
    )?;
    let palette = style.palette;
    let curves = reference.iter().map(|c| (c, palette.muted)).chain([(&current, palette.request)]);
    for (curve, colour) in curves {
        let points = curve.values.iter().enumerate().map(|(p, ms)| (p as f64, *ms));
        chart
            .draw_series(LineSeries::new(points, style.stroke(colour, 3.0)))?
            .label(curve.label)
            .legend(style.legend_line(colour));
    }
    style.legend(&mut chart)
}
