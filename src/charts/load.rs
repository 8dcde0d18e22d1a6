//! Load across servers, busiest first: requests in service (up to the slots)
//! and queued at each server, with the slot count marked. Many servers are
//! grouped into as many bars as the width shows, each the mean of its group.

use super::registry::{Descriptor, PlotFigure, Plotted};
use super::stroke::{legend_above, Chip, Stroke};
use super::{nice_ceiling, ChartStyle, Drawn};
use crate::engine::ServerView;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The load across servers.
pub static CHART: Descriptor = Descriptor {
    key: "load",
    tab_label: Some("Load"),
    plot: Some(Plotted { figure: PlotFigure::Load, help: "Each server at the end" }),
};

/// Each of `servers`' `(busy, queued)`, busiest first, into `loads` (kept
/// from one drawing to the next, so as not to allocate each time).
pub fn busiest_first(servers: &[ServerView], loads: &mut Vec<(u32, u32)>) {
    loads.clear();
    loads.extend(servers.iter().map(|s| (s.busy, s.queued)));
    loads.sort_unstable_by_key(|(busy, queued)| std::cmp::Reverse(busy + queued));
}

/// The slot count's line.
fn slots_stroke(style: &ChartStyle) -> Stroke {
    Stroke { colour: style.palette.muted, width: 1.5, dashes: Some((6.0, 4.0)) }
}

/// The chart with its legend above it, for a figure that stands alone.
pub fn figure<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    servers: &[(u32, u32)],
    slots: u32,
    style: &ChartStyle,
) -> Drawn
where
    DB::ErrorType: 'static,
{
    let entries = [
        (Chip::Swatch(style.palette.busy), "in service"),
        (Chip::Swatch(style.palette.queued), "queued"),
        (Chip::Line(slots_stroke(style)), "slots per server"),
    ];
    draw(&legend_above(area, &entries, style)?, servers, slots, 0, style)
}

/// Each server's `(busy, queued)`, sorted busiest first. The scale reaches
/// at least `peak`, the most any server has held so far, so that it does
/// not rescale as conditions change and hide the contrast it should show.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    servers: &[(u32, u32)],
    slots: u32,
    peak: u32,
    style: &ChartStyle,
) -> Drawn
where
    DB::ErrorType: 'static,
{
    let n = servers.len().max(1);
    let bars = n.min((area.dim_in_pixel().0 / style.px(4.0).max(1)) as usize).max(1);
    let highest = servers.iter().map(|(b, q)| b + q).max().unwrap_or(0).max(peak);
    let top = nice_ceiling((f64::from(highest) * 1.1).max(f64::from(slots) * 1.25));
    let mut chart =
        style.chart(area, 0.0..n as f64, 0.0..top, ("servers, busiest first", "requests at server"))?;
    let palette = style.palette;
    let width = n as f64 / bars as f64;
    let gap = if bars <= 60 { width * 0.15 } else { 0.0 };
    let mean = |bar: usize| {
        let group = servers.get(bar * n / bars..(bar + 1) * n / bars).unwrap_or(&[]);
        let count = group.len().max(1) as f64;
        let busy = group.iter().map(|(b, _)| f64::from(*b)).sum::<f64>() / count;
        let queued = group.iter().map(|(_, q)| f64::from(*q)).sum::<f64>() / count;
        (bar as f64 * width, busy, queued)
    };
    chart.draw_series((0..bars).map(|bar| {
        let (x, busy, _) = mean(bar);
        Rectangle::new([(x + gap, 0.0), (x + width - gap, busy)], palette.busy.rgb().filled())
    }))?;
    chart.draw_series((0..bars).map(|bar| {
        let (x, busy, queued) = mean(bar);
        Rectangle::new([(x + gap, busy), (x + width - gap, busy + queued)], palette.queued.rgb().filled())
    }))?;
    let capacity = [(0.0, f64::from(slots)), (n as f64, f64::from(slots))];
    slots_stroke(style).draw(&mut chart, capacity, style)
}
