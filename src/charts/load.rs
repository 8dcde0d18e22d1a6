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

/// Each of `servers`' `(busy, queued)`, busiest first (of two as busy, the
/// one with more in service first), into `loads` (kept from one drawing
/// to the next).
///
/// Each pair is sorted as one number, (2^32 − 1 − total) × 2^32 +
/// (2^32 − 1 − busy), through the sort of `u64`s the event wheel has
/// already: a copy of the standard sort for these pairs of its own weighed
/// 7 KB of the browser's module.
pub fn busiest_first(servers: &[ServerView], loads: &mut Vec<(u32, u32)>) {
    let packed =
        |s: &ServerView| u64::from(u32::MAX - (s.busy + s.queued)) << 32 | u64::from(u32::MAX - s.busy);
    let mut order: Vec<u64> = servers.iter().map(packed).collect();
    order.sort_unstable();
    loads.clear();
    loads.extend(order.into_iter().map(|number| {
        let (total, busy) = (u32::MAX - (number >> 32) as u32, u32::MAX - number as u32);
        (busy, total - busy)
    }));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn servers_come_busiest_first_and_of_two_as_busy_the_one_with_more_in_service() {
        let servers: Vec<ServerView> = [(3, 1), (10, 7), (4, 0), (0, 0), (10, 7), (2, 9), (0, 4)]
            .into_iter()
            .map(|(busy, queued)| ServerView { busy, queued, ..ServerView::default() })
            .collect();
        let mut loads = vec![(1, 1)];
        busiest_first(&servers, &mut loads);
        assert_eq!(loads, [(10, 7), (10, 7), (2, 9), (4, 0), (3, 1), (0, 4), (0, 0)]);
    }
}
