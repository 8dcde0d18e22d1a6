//! Each queue's wait drawn as a line under it, where a server runs slowed
//! (see `lbsim::ui::waits`): how long its queue takes to clear at its
//! server's speed, to one scale on every row with the queue timeout
//! ticked at one place and named once under the last row ("100 ms"), the
//! part past the timeout twice as thick, in the bounce's colour, striped.
//! Chapter 3's slowed server had the shortest queue and bounced the most,
//! and a reader saw which, not why: its 17 queued, at a quarter of the
//! speed, wait past the tick, where a neighbour's 44 stop short of it.

use super::layout::{Layout, Rect};
use super::row::Row;
use super::servers::hatch;
use crate::theme::Palette;
use lbsim::engine::ServerView;
use lbsim::format;
use lbsim::ui::waits::WaitBand;
use web_sys::CanvasRenderingContext2d;

/// Where the timeout stands on every row's line, in shares of its lane
/// (from its box leftwards), and the longest wait drawn, in timeouts: a
/// queue twice the timeout reaches 0.9 of the lane.
const TIMEOUT_AT: f64 = 0.45;
const LONGEST_DRAWN: f64 = 2.0;

/// Draws under each row's queue its wait over the timeout (`waits`; see
/// `lbsim::ui::waits::waits_over_timeout`), the timeout's tick, and under
/// the last row the timeout, `timeout_ms`, by its tick.
pub(super) fn draw(
    context: &CanvasRenderingContext2d,
    (layout, height): (&Layout, f64),
    (servers, waits, timeout_ms): (&[ServerView], &[Option<f64>], f64),
    palette: &Palette,
) {
    if layout.compact {
        return;
    }
    let mut within = Vec::new();
    let mut past = Vec::new();
    let mut ticks = Vec::new();
    for (i, (server, wait)) in servers.iter().zip(waits).enumerate() {
        let (cell, row) = (layout.servers.cell(i), Row::of(layout, i, server));
        // Under the queue's squares and its count (written across the
        // row's middle in the small size); where rows stand closer (the
        // presenter view at 1280 × 720), a tick went through the next
        // row's count, and nothing is drawn.
        let Some(band) = WaitBand::in_row(cell.h, row.side, layout.small_px()) else { return };
        let (y, lane) = (cell.y + cell.h / 2.0 + band.top, row.queue_end - row.queue_start);
        let timeout_x = row.queue_end - TIMEOUT_AT * lane;
        ticks.push((timeout_x, y, band));
        let Some(wait) = *wait else { continue };
        let x = row.queue_end - wait.min(LONGEST_DRAWN) * TIMEOUT_AT * lane;
        let middle = y + band.past / 2.0;
        within.push((timeout_x.max(x), row.queue_end, middle - band.within() / 2.0, band.within()));
        if x < timeout_x {
            past.push((x, timeout_x, y, band.past));
        }
    }
    fill(context, &within, &palette.muted.css());
    fill(context, &past, &palette.bounce.css());
    // Striped as a slowed server's busy slots are, in the panel's colour.
    context.save();
    context.clip();
    context.begin_path();
    for &(from, to, y, h) in &past {
        hatch(context, Rect { x: from, y, w: to - from, h });
    }
    context.set_stroke_style_str(&palette.panel.css());
    context.set_line_width((layout.small_px() / 8.0).max(1.0));
    context.stroke();
    context.restore();
    context.begin_path();
    for &(x, y, band) in &ticks {
        context.move_to(x, y - 1.0);
        context.line_to(x, y + band.past + 1.0);
    }
    context.set_stroke_style_str(&palette.ink.css());
    context.set_line_width(2.0);
    context.stroke();
    if let Some(&(x, y, band)) = ticks.last() {
        label(context, (x, y + band.past + 2.0, height), layout.small_px(), (timeout_ms, palette));
    }
}

/// Fills each of `spans` (from, to, top, height) in `colour`, leaving
/// them as the context's path.
fn fill(context: &CanvasRenderingContext2d, spans: &[(f64, f64, f64, f64)], colour: &str) {
    context.begin_path();
    for &(from, to, y, h) in spans {
        context.rect(from, y, to - from, h);
    }
    context.set_fill_style_str(colour);
    context.fill();
}

/// Names the timeout once, centred under the last row's tick at `x`, its
/// top at `y`, where the picture (`height` CSS px) has room for it: under
/// every row, it meets no queue's count.
fn label(
    context: &CanvasRenderingContext2d,
    (x, y, height): (f64, f64, f64),
    px: f64,
    (ms, palette): (f64, &Palette),
) {
    if y + px > height {
        return;
    }
    context.save();
    context.set_font(&format!("600 {px}px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"));
    context.set_text_align("center");
    context.set_text_baseline("top");
    context.set_fill_style_str(&palette.ink.css());
    let _ = context.fill_text(&format::ms(ms), x, y);
    context.restore();
}
