//! After a spike, each server's total of completed requests, drawn in its
//! row's empty lane as a bar, every row to one scale from zero (the most
//! completed filling the lane), with the total written left of it: drawn
//! as a queue's mark (its first three a cell each, the rest a bar), 140
//! and 270 stood 1.5× apart, not 1.9× (reader 13). Once a spike is
//! over every row is idle, and the final picture showed nothing of the
//! unevenness the sentence gives ("the busiest server has completed 542
//! requests, the quietest 453"): the bars are that uneven draw.

use super::layout::Layout;
use super::row::Row;
use super::servers::write_counts;
use crate::theme::Palette;
use lbsim::engine::ServerView;
use lbsim::ui::marks::bar_to_scale;
use web_sys::CanvasRenderingContext2d;

/// Draws each row's total of answered requests (see
/// `ServerView::answered`), in the responses' colour.
pub fn draw(context: &CanvasRenderingContext2d, layout: &Layout, servers: &[ServerView], palette: &Palette) {
    let most = servers.iter().map(total).max().unwrap_or(0);
    if layout.compact || most == 0 {
        return;
    }
    context.begin_path();
    let mut texts = Vec::new();
    for ((i, server), length) in servers.iter().enumerate().zip(lengths(layout, servers)) {
        let cell = layout.servers.cell(i);
        let row = Row::of(layout, i, server);
        context.rect(row.queue_end - length, cell.y + (cell.h - row.side) / 2.0, length, row.side);
        texts.push((row.queue_end - length - 4.0, cell.y + cell.h / 2.0, total(server).to_string()));
    }
    context.set_fill_style_str(&palette.response.css());
    context.fill();
    write_counts(context, layout, &texts, palette);
}

/// How long each row's bar of completed requests is drawn (CSS px): in
/// proportion to its total, the most filling the lane (see
/// `lbsim::ui::marks::bar_to_scale`).
fn lengths(layout: &Layout, servers: &[ServerView]) -> Vec<f64> {
    let most = servers.iter().map(total).max().unwrap_or(0);
    let row = |i: usize| Row::of(layout, i, &servers[i]);
    (0..servers.len()).map(|i| bar_to_scale(total(&servers[i]), most, row(i).lane_px())).collect()
}

/// A server's answered requests, as a bar's count.
fn total(server: &ServerView) -> u64 {
    server.answered
}
