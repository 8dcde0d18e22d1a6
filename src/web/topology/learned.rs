//! A client's copies of the servers' loads, beside what is true: under a
//! policy that learns load from responses (p2c-piggyback), a column right
//! of the rows writes the load the client last heard from each server
//! ("14", "–" if never), in the ink colour, fading as the copy ages
//! (`lbsim::ui::marks::heard_label`), and a needle through each row
//! (`CopyMark`) marks that load on the row's own scale (its busy slots
//! along them, then its queue left of the slots, a request a slot's width),
//! so the gap between the needle and the row's fill is the copy's error. Where they disagree, the client is comparing old
//! news: why learned load buys less than live load, and less with more
//! clients, each hearing from each server less often. (A line under each
//! row, the first design, was read by no student.)

use super::layout::Layout;
use super::row::Row;
use crate::theme::Palette;
use lbsim::engine::{LearnedLoad, ServerView};
use lbsim::ui::marks::{heard_label, CopyMark};
use web_sys::CanvasRenderingContext2d;

pub fn draw(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    servers: &[ServerView],
    learned: &[LearnedLoad],
    palette: &Palette,
) {
    let Some((_, right)) = layout.side_column.filter(|_| !learned.is_empty()) else { return };
    let px = layout.small_px();
    context.set_font(&super::font(700, px));
    context.set_text_baseline("middle");
    context.set_text_align("right");
    context.set_fill_style_str(&palette.ink.css());
    let marks = copy_marks(layout, servers, learned);
    for (i, mark) in marks.iter().enumerate() {
        let copy = learned.iter().find(|copy| copy.server as usize == i);
        let Some((text, ink)) = heard_label(copy) else { continue };
        let cell = layout.servers.cell(i);
        context.set_global_alpha(ink);
        let _ = context.fill_text(&text, right - 2.0, cell.y + cell.h / 2.0);
        if let Some(mark) = mark {
            draw_mark(context, mark, palette);
        }
    }
    context.set_global_alpha(1.0);
}

/// The mark of each server's copy, where the client has heard from it:
/// where the load it heard ends on the row's one scale for slots and
/// queue (see `lbsim::ui::row_scale`).
pub fn copy_marks(layout: &Layout, servers: &[ServerView], learned: &[LearnedLoad]) -> Vec<Option<CopyMark>> {
    let px = layout.small_px();
    let mark = |(i, server): (usize, &ServerView)| {
        let copy = learned.iter().find(|copy| copy.server as usize == i && copy.age.is_some())?;
        let cell = layout.servers.cell(i);
        let row = Row::of(layout, i, server);
        let b = row.box_rect;
        let place = row.scale()?.place(copy.busy + copy.queued);
        let gap = (cell.y + cell.h - (b.y + b.h)).max(0.0);
        Some(CopyMark::new(place.x, (b.y, b.y + b.h), gap, px))
    };
    match layout.side_column.is_some() && !learned.is_empty() {
        true => servers.iter().enumerate().map(mark).collect(),
        false => vec![None; servers.len()],
    }
}

/// A needle through the row with an upward head below it, in the ink,
/// haloed in the panel's colour so that it reads over busy slots and
/// queues alike.
fn draw_mark(context: &CanvasRenderingContext2d, mark: &CopyMark, palette: &Palette) {
    let head_h = (mark.head * 0.6).min(mark.bottom - mark.top);
    context.begin_path();
    context.move_to(mark.x, mark.bottom - head_h);
    context.line_to(mark.x + mark.head / 2.0, mark.bottom);
    context.line_to(mark.x - mark.head / 2.0, mark.bottom);
    context.close_path();
    context.rect(mark.x - mark.stroke / 2.0, mark.top, mark.stroke, mark.bottom - mark.top - head_h + 1.0);
    context.set_stroke_style_str(&palette.panel.css());
    context.set_line_width(2.0);
    context.stroke();
    context.fill();
}
