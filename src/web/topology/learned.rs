//! A client's copies of the servers' loads, beside what is true: under a
//! policy that learns load from responses (p2c-piggyback), a column right
//! of the rows writes the load the client last heard from each server
//! ("14", "–" if never), in the ink colour, fading as the copy ages
//! (`lbsim::ui::marks::heard_label`), and a caret under each row marks
//! that load on the row's own scale (its queue left of the slots, its busy
//! slots along them), so the gap between the caret and the row's fill is
//! the copy's error. Where they disagree, the client is comparing old
//! news: why learned load buys less than live load, and less with more
//! clients, each hearing from each server less often. (A line under each
//! row, the first design, was read by no student.)

use super::layout::Layout;
use super::servers::Row;
use crate::theme::Palette;
use lbsim::engine::{LearnedLoad, ServerView};
use lbsim::ui::marks::heard_label;
use web_sys::CanvasRenderingContext2d;

/// The caret's height (CSS px), at most; its width is the same.
const CARET_H: f64 = 6.0;

pub fn draw(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    servers: &[ServerView],
    learned: &[LearnedLoad],
    palette: &Palette,
) {
    let Some((_, right)) = layout.heard_column.filter(|_| !learned.is_empty()) else { return };
    let px = layout.small_px();
    context.set_font(&format!("700 {px}px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"));
    context.set_text_baseline("middle");
    context.set_text_align("right");
    context.set_fill_style_str(&palette.ink.css());
    let longest = servers.iter().map(|s| s.queued).max().unwrap_or(0);
    for (i, server) in servers.iter().enumerate() {
        let copy = learned.iter().find(|copy| copy.server as usize == i);
        let Some((text, ink)) = heard_label(copy) else { continue };
        let cell = layout.servers.cell(i);
        context.set_global_alpha(ink);
        let _ = context.fill_text(&text, right - 2.0, cell.y + cell.h / 2.0);
        if let Some(copy) = copy.filter(|copy| copy.age.is_some()) {
            draw_caret(context, layout, (i, server), copy, longest);
        }
    }
    context.set_global_alpha(1.0);
}

/// A caret under server `i`'s row pointing up at the load `copy` has, on
/// the row's scale: the far end of its queue, else of its busy slots.
fn draw_caret(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    (i, server): (usize, &ServerView),
    copy: &LearnedLoad,
    longest: u32,
) {
    let cell = layout.servers.cell(i);
    let row = Row::new(cell, server.slots as usize, layout.small_px());
    let b = row.box_rect;
    let x = match copy.queued {
        0 => {
            b.x + 2.0 + (b.w - 4.0) * f64::from(copy.busy.min(server.slots)) / f64::from(server.slots.max(1))
        }
        queued => (row.queue_end - row.queue_length(queued, longest.max(queued))).max(row.queue_start),
    };
    let top = b.y + b.h + 1.0;
    let h = CARET_H.min(cell.y + cell.h - top);
    if h < 2.0 {
        return;
    }
    context.begin_path();
    context.move_to(x, top);
    context.line_to(x + h * 0.6, top + h);
    context.line_to(x - h * 0.6, top + h);
    context.close_path();
    context.fill();
}
