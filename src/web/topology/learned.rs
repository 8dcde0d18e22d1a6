//! A client's copies of the servers' loads, drawn under each server's row
//! beside the truth above it: under a policy that learns load from
//! responses (p2c-piggyback), a line under each row spans what the
//! client last heard of that server, its queue on the row's own scale
//! left of the slots and its busy slots along them, solid while fresh
//! and fading as the copy ages (`lbsim::ui::marks::copy_ink`). Where the
//! line and the row above it disagree, the client is comparing old news:
//! why learned load buys less than live load, and less with more
//! clients, each hearing from each server less often.

use super::layout::Layout;
use super::servers::Row;
use crate::theme::Palette;
use lbsim::engine::{LearnedLoad, ServerView};
use lbsim::ui::marks::copy_ink;
use web_sys::CanvasRenderingContext2d;

/// The copy line's thickness (CSS px).
const LINE_W: f64 = 3.0;

pub fn draw(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    servers: &[ServerView],
    learned: &[LearnedLoad],
    palette: &Palette,
) {
    if layout.compact {
        return;
    }
    let longest = servers.iter().map(|s| s.queued).max().unwrap_or(0);
    context.set_stroke_style_str(&palette.ink.css());
    context.set_line_width(LINE_W);
    context.set_line_cap("butt");
    for copy in learned {
        let (Some(server), Some(age)) = (servers.get(copy.server as usize), copy.age) else { continue };
        let cell = layout.servers.cell(copy.server as usize);
        let row = Row::new(cell, server.slots as usize, layout.small_px());
        let b = row.box_rect;
        let from = row.queue_end - row.queue_length(copy.queued, longest.max(copy.queued));
        let busy = f64::from(copy.busy.min(server.slots)) / f64::from(server.slots.max(1));
        let to = b.x + 2.0 + (b.w - 4.0) * busy;
        let y = (b.y + b.h + LINE_W / 2.0 + 1.0).min(cell.y + cell.h - LINE_W / 2.0);
        context.set_global_alpha(copy_ink(age.as_ms()));
        context.begin_path();
        // A copy of an idle server is a short stub at the box's edge, so
        // that every copy shows, and shows its age.
        context.move_to(from.min(b.x - 4.0), y);
        context.line_to(to.max(b.x + 2.0), y);
        context.stroke();
    }
    context.set_global_alpha(1.0);
}
