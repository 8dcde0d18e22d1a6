//! Effective capacity: p99 against offered load for each policy searched,
//! the objective as a level line and each policy's capacity marked where
//! its curve last stays under it. Lines differ by dash as well as colour.

use super::stroke::{legend_above, Chip, Stroke};
use super::{nice_ceiling, ChartStyle, Drawn};
use crate::capacity::{Objective, Outcome};
use plotters::coord::Shift;
use plotters::prelude::*;

/// Each policy's line, in the order searched (cycling if more).
const DASHES: [Option<(f64, f64)>; 4] = [None, Some((8.0, 4.0)), Some((2.0, 3.0)), Some((10.0, 3.0))];

pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    outcomes: &[Outcome],
    objective: Objective,
    style: &ChartStyle,
) -> Drawn
where
    DB::ErrorType: 'static,
{
    let palette = style.palette;
    let colours = [palette.p99, palette.request, palette.p90, palette.ink];
    let strokes: Vec<Stroke> = (0..outcomes.len())
        .map(|i| Stroke { colour: colours[i % colours.len()], width: 2.5, dashes: DASHES[i % DASHES.len()] })
        .collect();
    let entries: Vec<(Chip, &str)> =
        outcomes.iter().zip(&strokes).map(|(o, s)| (Chip::Line(*s), o.policy.as_str())).collect();
    let area = legend_above(area, &entries, style)?;
    let points = |o: &Outcome| -> Vec<(f64, f64)> {
        o.probes.iter().filter_map(|p| p.p99_ms.map(|ms| (p.load, ms.estimate))).collect()
    };
    // The objective sits mid-height; curves climbing far past it are cut.
    let top = nice_ceiling(objective.ms * 2.2);
    let what = if objective.latency { "p99 latency (ms)" } else { "p99 queue time (ms)" };
    let mut chart = style.chart(&area, 0.0..1.0, 0.0..top, ("offered load (fraction of capacity)", what))?;
    let level = Stroke { colour: palette.muted, width: 1.5, dashes: Some((6.0, 4.0)) };
    level.draw(&mut chart, [(0.0, objective.ms), (1.0, objective.ms)], style)?;
    for (outcome, stroke) in outcomes.iter().zip(&strokes) {
        let shown: Vec<(f64, f64)> = points(outcome).into_iter().map(|(x, y)| (x, y.min(top))).collect();
        stroke.draw(&mut chart, shown.iter().copied(), style)?;
        let dots = shown.iter().map(|&p| Circle::new(p, style.px(2.5), stroke.colour.rgb().filled()));
        chart.draw_series(dots)?;
        if let Some(capacity) = outcome.capacity {
            let at = outcome.probes.iter().find(|p| p.load == capacity).and_then(|p| p.p99_ms);
            let y = at.map_or(objective.ms, |ms| ms.estimate.min(top));
            let mark =
                Circle::new((capacity, y), style.px(6.0), stroke.colour.rgb().stroke_width(style.px(2.5)));
            chart.draw_series([mark])?;
        }
    }
    Ok(())
}
