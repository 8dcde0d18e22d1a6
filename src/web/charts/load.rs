//! Load across servers, busiest first: requests in service (up to the slots)
//! and queued at each server, with the slot count marked. Many servers are
//! grouped into as many bars as the width shows, each the mean of its group.

use super::{nice_ceiling, ChartStyle, Drawn};
use plotters::coord::Shift;
use plotters::prelude::*;

/// Each server's `(busy, queued)`, sorted busiest first.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    servers: &[(u32, u32)],
    slots: u32,
    style: &ChartStyle,
) -> Drawn
where
    DB::ErrorType: 'static,
{
    let n = servers.len().max(1);
    let bars = n.min((area.dim_in_pixel().0 / style.px(4.0).max(1)) as usize).max(1);
    let highest = servers.iter().map(|(b, q)| b + q).max().unwrap_or(0);
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
    chart.draw_series(DashedLineSeries::new(
        capacity,
        style.px(6.0),
        style.px(4.0),
        style.stroke(palette.muted, 1.5),
    ))?;
    Ok(())
}
