//! The client-experience curve: session time at each percentile of
//! sessions, p0 (the fastest client) to p100 (the slowest). A reference
//! curve, kept from before the last change of a setting, shows the
//! difference the change made.

use super::registry::{Descriptor, PlotFigure, Plotted};
use super::stroke::Stroke;
use super::{nice_ceiling, ChartStyle, Drawn};
use plotters::coord::Shift;
use plotters::prelude::*;

/// The client-experience curve.
pub static CHART: Descriptor = Descriptor {
    key: "clients",
    tab_label: Some("Clients"),
    plot: Some(Plotted { figure: PlotFigure::Clients, help: "Session time, p0 to p100" }),
};

pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    current: &[f64],
    reference: Option<&[f64]>,
    style: &ChartStyle,
) -> Drawn
where
    DB::ErrorType: 'static,
{
    let solid = |colour| Stroke { colour, width: 3.0, dashes: None };
    let reference = reference.map(|curve| (solid(style.palette.muted), curve));
    let shown: Vec<_> = reference.into_iter().chain([(solid(style.palette.request), current)]).collect();
    curves(area, &shown, style)
}

/// Each of `curves`, session times in ms from p0 to p100, in its stroke.
pub(super) fn curves<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    curves: &[(Stroke, &[f64])],
    style: &ChartStyle,
) -> Drawn
where
    DB::ErrorType: 'static,
{
    let highest = curves.iter().flat_map(|(_, values)| values.iter()).fold(0.0, |a: f64, b| a.max(*b));
    let top = nice_ceiling(highest * 1.05);
    let mut chart = style.chart(
        area,
        0.0..100.0,
        0.0..top,
        ("percentile of sessions (p0 fastest)", "session time (ms)"),
    )?;
    for (stroke, values) in curves {
        let points = values.iter().enumerate().map(|(p, ms)| (p as f64, *ms));
        stroke.draw(&mut chart, points, style)?;
    }
    Ok(())
}
