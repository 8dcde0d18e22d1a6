//! Each server's share written beside its row: of the answers at the
//! row's entrance where a server errs (the figure a sentence about it
//! gives), or of the requests sent lately in the column right of the rows
//! where one is slowed (`lbsim::ui::marks` decides which).

use super::layout::Layout;
use super::row::{Row, NARROW_ROW_PX};
use super::servers::slowed;
use crate::theme::Palette;
use lbsim::engine::ServerView;
use lbsim::format::percent;
use web_sys::CanvasRenderingContext2d;

/// Writes each row's share of the requests sent lately in the column
/// right of the rows, right-aligned at `right`; the slowed servers' in
/// bold.
pub(super) fn draw_sent_shares(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    (servers, shares): (&[ServerView], &[f64]),
    right: f64,
    palette: &Palette,
) {
    let px = layout.small_px();
    context.set_text_baseline("middle");
    context.set_text_align("right");
    context.set_fill_style_str(&palette.ink.css());
    for (i, (server, share)) in servers.iter().zip(shares).enumerate() {
        let weight = if slowed(server) { 700 } else { 500 };
        context.set_font(&super::font(weight, px));
        let cell = layout.servers.cell(i);
        // A narrow row's "10/10" reaches the column (a phone's: "10/1010.7%"),
        // so its share is written in whole percent.
        let text = match cell.w < NARROW_ROW_PX {
            true => format!("{:.0}%", share * 100.0),
            false => percent(*share),
        };
        let _ = context.fill_text(&text, right - 2.0, cell.y + cell.h / 2.0);
    }
}

/// Writes each row's share of the answers (as the sentence about a server
/// that errs words it: "27.0%") at the row's entrance, where no queue's
/// length is written; the erring servers' in bold. Returns how far into
/// the rows the labels reach.
pub(super) fn draw_answer_shares(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    servers: &[ServerView],
    shares: &[f64],
    palette: &Palette,
) -> f64 {
    let px = layout.small_px();
    let font = |weight| super::font(weight, px);
    context.set_font(&font(700));
    let widest = context.measure_text("100.0%").map_or(px * 4.0, |m| m.width());
    context.set_text_baseline("middle");
    context.set_text_align("left");
    for (i, (server, share)) in servers.iter().zip(shares).enumerate() {
        let cell = layout.servers.cell(i);
        let row = Row::of(layout, i, server);
        if !Row::holds_label(cell, px) || row.queue_start + widest + 4.0 > row.queue_from(server.queued) {
            continue;
        }
        let (text, y) = (percent(*share), cell.y + cell.h / 2.0);
        context.set_font(&font(if server.erred > 0 { 700 } else { 500 }));
        let width = context.measure_text(&text).map_or(widest, |m| m.width());
        // On the panel's colour, over the lane's line.
        context.set_fill_style_str(&palette.panel.css());
        context.fill_rect(row.queue_start - 2.0, y - px * 0.6, width + 4.0, px * 1.2);
        context.set_fill_style_str(&palette.ink.css());
        let _ = context.fill_text(&text, row.queue_start, y);
    }
    widest + 12.0
}
