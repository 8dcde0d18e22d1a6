//! Each queue's wait drawn as a line under its row, where a server runs
//! slowed (see `lbsim::ui::waits`): how long its queue takes to clear at
//! its server's speed, to one scale on every row with the queue timeout
//! ticked at one place and named once under the last row ("100 ms"), the
//! part past the timeout twice as thick, in the bounce's colour, striped.
//! Chapter 3's slowed server had the shortest queue and bounced the most,
//! and a reader saw which, not why: its 17 queued, at a quarter of the
//! speed, wait past the tick, where a neighbour's 44 stop short of it.
//! Each line's wait is written in ms where it ends, right of the row's
//! box: a reader understood the line only after the prose (reader 15),
//! and "144 ms" past a "100 ms" tick beside "88 ms" needs none; a wait
//! past the timeout is written larger, in the bounce's colour.
//!
//! The line's scale is the row, from its left end to its box's right
//! edge, not the queue's lane: on a phone the lane is about 45 px, and
//! the part past the tick of a slowed queue of 18 was 3 to 4 px long (a
//! student reader saw a short queue that looked healthy).

use super::layout::{Layout, Rect};
use super::row::Row;
use super::servers::hatch;
use crate::theme::Palette;
use lbsim::engine::ServerView;
use lbsim::format;
use lbsim::ui::waits::WaitBand;
use web_sys::CanvasRenderingContext2d;

/// Where the timeout stands on every row's line, in shares of its span
/// (from its box's right edge leftwards), and the longest wait drawn, in
/// timeouts: 1.75 timeouts reach 0.96 of the span, and a longer wait is
/// drawn that long (its words say how long). Chapter 3's slowed queue
/// waits 1.2 to 1.8 timeouts, its neighbours' 0.6 to 1.1: the tick stands
/// far enough from the box for the part past it to be long.
const TIMEOUT_AT: f64 = 0.55;
const LONGEST_DRAWN: f64 = 1.75;
/// A wait past the timeout is written this many small labels high.
const PAST_WORDS_EM: f64 = 1.25;

/// Where a row's wait is drawn: its band's top (`y`), the timeout's tick
/// (`timeout_x`), the line's left end (`x`) and right end (`end`, its
/// box's right edge), and what it waits in timeouts; `None` for a server
/// with no wait (no slot).
struct Placed {
    y: f64,
    band: WaitBand,
    timeout_x: f64,
    line: Option<(f64, f64, f64)>,
    /// The picture's right edge, which a wait's words keep within.
    right: f64,
}

/// Where each row of `servers` draws its wait over the timeout (`waits`),
/// in `layout`; none where the picture draws no waits (a compact one, or
/// rows too close: at the presenter view's 1280 × 720 a tick went through
/// the next row's count).
fn place(layout: &Layout, servers: &[ServerView], waits: &[Option<f64>]) -> Option<Vec<Placed>> {
    if layout.compact {
        return None;
    }
    let rows = servers.iter().zip(waits).enumerate().map(|(i, (server, wait))| {
        let (cell, row) = (layout.servers.cell(i), Row::of(layout, i, server));
        // Under the queue's squares, its count (written across the row's
        // middle in the small size) and its box of slots.
        let b = row.box_rect;
        let band = WaitBand::in_row(cell.h, row.side.max(b.h), layout.small_px())?;
        let (y, end) = (cell.y + cell.h / 2.0 + band.top, b.x + b.w);
        let span = end - cell.x;
        let timeout_x = end - TIMEOUT_AT * span;
        let line = wait.map(|wait| (end - wait.min(LONGEST_DRAWN) * TIMEOUT_AT * span, end, wait));
        Some(Placed { y, band, timeout_x, line, right: layout.width })
    });
    rows.collect()
}

/// What a row's wait writes where its line ends: the wait in whole ms
/// (`wait` timeouts of `timeout_ms`).
fn wait_words(wait: f64, timeout_ms: f64) -> String {
    format!("{:.0} ms", wait * timeout_ms)
}

/// The words each row of `servers` writes for its wait (see [`wait_words`]),
/// where it writes them, as [`draw`] does.
pub(super) fn labels(
    layout: &Layout,
    servers: &[ServerView],
    (waits, timeout_ms): (&[Option<f64>], f64),
) -> Vec<Option<String>> {
    let placed = place(layout, servers, waits).unwrap_or_default();
    let words = |row: &Placed| row.line.map(|(_, _, wait)| wait_words(wait, timeout_ms));
    (0..servers.len()).map(|i| placed.get(i).and_then(words)).collect()
}

/// Draws under each row's queue its wait over the timeout (`waits`; see
/// `lbsim::ui::waits::waits_over_timeout`), the timeout's tick, the wait
/// in ms where the line ends, and under the last row the timeout,
/// `timeout_ms`, by its tick.
pub(super) fn draw(
    context: &CanvasRenderingContext2d,
    (layout, height): (&Layout, f64),
    (servers, waits, timeout_ms): (&[ServerView], &[Option<f64>], f64),
    palette: &Palette,
) {
    let Some(placed) = place(layout, servers, waits) else { return };
    let mut within = Vec::new();
    let mut past = Vec::new();
    for row in &placed {
        let Some((x, end, _)) = row.line else { continue };
        let (y, band, timeout_x) = (row.y, row.band, row.timeout_x);
        let middle = y + band.past / 2.0;
        within.push((timeout_x.max(x), end, middle - band.within() / 2.0, band.within()));
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
    for row in &placed {
        context.move_to(row.timeout_x, row.y - 1.0);
        context.line_to(row.timeout_x, row.y + row.band.past + 1.0);
    }
    context.set_stroke_style_str(&palette.ink.css());
    context.set_line_width(2.0);
    context.stroke();
    write_waits(context, &placed, layout.small_px(), (timeout_ms, palette));
    if let Some(row) = placed.last() {
        label(
            context,
            (row.timeout_x, row.y + row.band.past + 2.0, height),
            layout.small_px(),
            (timeout_ms, palette),
        );
    }
}

/// Writes each row's wait in ms just right of where its line ends (or as
/// far right as the picture lets it), under its count of slots in use: past the timeout bold, larger and in the
/// bounce's colour, as its line is drawn; within it, muted.
fn write_waits(
    context: &CanvasRenderingContext2d,
    placed: &[Placed],
    px: f64,
    (timeout_ms, palette): (f64, &Palette),
) {
    context.save();
    context.set_text_align("left");
    context.set_text_baseline("top");
    for row in placed {
        let Some((_, end, wait)) = row.line else { continue };
        let (weight, size, colour) = match wait > 1.0 {
            true => (700, px * PAST_WORDS_EM, &palette.bounce),
            false => (500, px, &palette.muted),
        };
        context.set_font(&super::font(weight, size));
        context.set_fill_style_str(&colour.css());
        // Right of its line's end, else ending at the picture's edge,
        // under its count of slots: chapter 1's lone row, its count at
        // the edge, wrote "200 ms" half off the picture.
        let words = wait_words(wait, timeout_ms);
        let width = context.measure_text(&words).map_or(0.0, |m| m.width());
        let x = (end + 3.0).min(row.right - width - 1.0);
        let _ = context.fill_text(&words, x, row.y - 1.0);
    }
    context.restore();
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
    context.set_font(&super::font(600, px));
    context.set_text_align("center");
    context.set_text_baseline("top");
    context.set_fill_style_str(&palette.ink.css());
    let _ = context.fill_text(&format::ms(ms), x, y);
    context.restore();
}
