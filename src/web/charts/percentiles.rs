//! Queue time over simulated time: p50, p90 and p99 over the last second,
//! sampled every quarter second, for the last half minute, with the moments
//! settings changed live marked.

use super::{nice_ceiling, ChartStyle, Drawn};
use crate::web::theme::Colour;
use lbsim::metrics::SamplePoint;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::collections::VecDeque;

/// A percentile's name, colour, dash and gap (none: solid), and where a
/// sample keeps it. Dashes tell the lines apart without their colours.
type Line = (&'static str, Colour, Option<(f64, f64)>, fn(&SamplePoint) -> f64);

/// A setting changed live at `time_s` simulated seconds, as `label` says.
pub struct Marker {
    pub time_s: f64,
    pub label: String,
}

/// Simulated seconds shown.
const WINDOW_S: f64 = 30.0;

pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    series: &VecDeque<SamplePoint>,
    markers: &[Marker],
    style: &ChartStyle,
) -> Drawn
where
    DB::ErrorType: 'static,
{
    let end_s = series.back().map_or(0.0, |p| p.time_ms / 1000.0);
    let start_s = (end_s - WINDOW_S).max(0.0);
    let shown = || series.iter().filter(move |p| p.time_ms / 1000.0 >= start_s);
    let top = nice_ceiling(shown().map(|p| p.queue_p99).fold(0.0, f64::max) * 1.1);
    let mut chart = style.chart(
        area,
        start_s..start_s + WINDOW_S,
        0.0..top,
        ("simulated time (s)", "queue time (ms)"),
    )?;
    let palette = style.palette;
    let (left, right) = (start_s, start_s + WINDOW_S);
    for marker in markers.iter().filter(|m| (left..=right).contains(&m.time_s)) {
        let line = [(marker.time_s, 0.0), (marker.time_s, top)];
        let (dash, gap) = (style.px(4.0), style.px(3.0));
        chart.draw_series(DashedLineSeries::new(line, dash, gap, style.stroke(palette.muted, 1.0)))?;
        let offset = (style.px(4.0) as i32, style.px(2.0) as i32);
        let text = Text::new(marker.label.clone(), offset, style.text(12.0, palette.muted));
        chart.plotting_area().draw(&(EmptyElement::at((marker.time_s, top)) + text))?;
    }
    let lines: [Line; 3] = [
        ("p99", palette.p99, None, |p| p.queue_p99),
        ("p90", palette.p90, Some((6.0, 4.0)), |p| p.queue_p90),
        ("p50", palette.p50, Some((2.0, 3.0)), |p| p.queue_p50),
    ];
    for (name, colour, dashes, value) in lines {
        let points = shown().map(|p| (p.time_ms / 1000.0, value(p)));
        let stroke = style.stroke(colour, 2.5);
        match dashes {
            None => chart.draw_series(LineSeries::new(points, stroke))?,
            Some((dash, gap)) => {
                chart.draw_series(DashedLineSeries::new(points, style.px(dash), style.px(gap), stroke))?
            }
        };
        // Each line is named where it ends, beside its newest point.
        if let Some(last) = series.back() {
            let offset = (style.px(5.0) as i32, -(style.px(7.0) as i32));
            let text = Text::new(name, offset, style.text(12.0, colour));
            chart.plotting_area().draw(&(EmptyElement::at((last.time_ms / 1000.0, value(last))) + text))?;
        }
    }
    Ok(())
}
