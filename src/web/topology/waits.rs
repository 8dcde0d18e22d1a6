//! Each queue's wait drawn as a line under it, where a server runs slowed
//! (see `lbsim::ui::waits`): how long its queue takes to clear at its
//! server's speed, to one scale on every row with the queue timeout
//! ticked at one place, the part past the timeout in the bounce's colour.
//! Chapter 3's slowed server had the shortest queue and bounced the most,
//! and a reader saw which, not why: its 17 queued, at a quarter of the
//! speed, wait past the tick, where a neighbour's 44 stop short of it.

use super::layout::Layout;
use super::row::Row;
use crate::theme::Palette;
use lbsim::engine::ServerView;
use web_sys::CanvasRenderingContext2d;

/// Where the timeout stands on every row's line, in shares of its lane
/// (from its box leftwards), and the longest wait drawn, in timeouts: a
/// queue twice the timeout reaches 0.9 of the lane.
const TIMEOUT_AT: f64 = 0.45;
const LONGEST_DRAWN: f64 = 2.0;

/// Draws under each row's queue its wait over the timeout (`waits`; see
/// `lbsim::ui::waits::waits_over_timeout`) and the timeout's tick.
pub(super) fn draw(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    (servers, waits): (&[ServerView], &[Option<f64>]),
    palette: &Palette,
) {
    if layout.compact {
        return;
    }
    let thick = (layout.small_px() / 4.0).clamp(2.0, 4.0);
    let mut lines = [Vec::new(), Vec::new()];
    let mut ticks = Vec::new();
    for (i, (server, wait)) in servers.iter().zip(waits).enumerate() {
        let (cell, row) = (layout.servers.cell(i), Row::of(layout, i, server));
        let lane = row.queue_end - row.queue_start;
        // Under the queue's squares and its count (written across the
        // row's middle in the small size), the tick within the row: where
        // rows stand closer (the presenter view at 1280 × 720), a tick
        // went through the next row's count, and nothing is drawn.
        let y = cell.y + cell.h / 2.0 + (row.side / 2.0).max(layout.small_px() / 2.0) + 2.0;
        if y + 2.0 * thick > cell.y + cell.h {
            return;
        }
        let timeout_x = row.queue_end - TIMEOUT_AT * lane;
        ticks.push((timeout_x, y));
        let Some(wait) = *wait else { continue };
        let x = row.queue_end - wait.min(LONGEST_DRAWN) * TIMEOUT_AT * lane;
        lines[0].push((timeout_x.max(x), row.queue_end, y));
        if x < timeout_x {
            lines[1].push((x, timeout_x, y));
        }
    }
    for (spans, colour) in lines.iter().zip([palette.muted, palette.bounce]) {
        context.begin_path();
        for &(from, to, y) in spans {
            context.rect(from, y, to - from, thick);
        }
        context.set_fill_style_str(&colour.css());
        context.fill();
    }
    context.begin_path();
    for (x, y) in ticks {
        context.move_to(x, y);
        context.line_to(x, y + 2.0 * thick);
    }
    context.set_stroke_style_str(&palette.ink.css());
    context.set_line_width(1.5);
    context.stroke();
}
