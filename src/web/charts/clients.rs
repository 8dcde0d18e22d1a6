//! The client-experience curve: session time at each percentile of
//! sessions, p0 (the fastest client) to p100 (the slowest). A reference
//! curve, kept from before the last change of a setting, shows the
//! difference the change made.

use super::{nice_ceiling, ChartStyle, Drawn};
use plotters::coord::Shift;
use plotters::prelude::*;

pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    current: &[f64],
    reference: Option<&[f64]>,
    style: &ChartStyle,
) -> Drawn
where
    DB::ErrorType: 'static,
{
    let highest = current.iter().chain(reference.into_iter().flatten()).fold(0.0, |a: f64, b| a.max(*b));
    let top = nice_ceiling(highest * 1.05);
    let mut chart = style.chart(
        area,
        0.0..100.0,
        0.0..top,
        ("percentile of sessions (p0 fastest)", "session time (ms)"),
    )?;
    let palette = style.palette;
    let curves = reference.map(|c| (c, palette.muted)).into_iter().chain([(current, palette.request)]);
    for (values, colour) in curves {
        let points = values.iter().enumerate().map(|(p, ms)| (p as f64, *ms));
        chart.draw_series(LineSeries::new(points, style.stroke(colour, 3.0)))?;
    }
    Ok(())
}
