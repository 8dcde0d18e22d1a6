//! A server that has just bounced a request is marked where requests
//! reach it: a cross in the bounces' colour, as large as a row's label
//! and then some, just left of its name, held and fading as
//! `lbsim::ui::bounces` rules (to a thinner cross of the same size and
//! colour, not to nothing), with its count of bounces since time zero
//! written left of the cross (in the bounces' colour while the mark
//! shows, muted after). At chapter 3's load a reader saw bounces only as
//! the sentence's count; the lone cross of a request turning back, one
//! dot among sixty, was never found. Each mark lies on a plate of its
//! own, over the dots passing under it.

use super::layout::{Layout, Rect};
use super::row::Row;
use super::servers::name_font;
use crate::theme::Palette;
use lbsim::ui::bounces::{cross_ink, BounceMark};
use web_sys::CanvasRenderingContext2d;

/// The least side of a bounce's cross (CSS px): read at 1440 × 900 from
/// a reader's seat, where the rows' labels are 11 px.
const LEAST_SIDE: f64 = 16.0;
/// The room between the cross and the server's name, and between its
/// count and the cross.
const GAP: f64 = 5.0;

/// Where each mark's cross goes and the plate under it and its count
/// (see [`rects`] and [`plates`]), worked out once a frame: requests stop
/// short of the plates before [`draw`] draws on them.
pub fn place(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    servers: usize,
    marks: &[BounceMark],
) -> (Vec<Rect>, Vec<Rect>) {
    let rects = rects(context, layout, servers, marks);
    let plates = plates(context, layout, marks, &rects);
    (rects, plates)
}

/// Draws each server's bounce mark and count where [`place`] put them.
pub fn draw(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    marks: &[BounceMark],
    (rects, plates): (&[Rect], &[Rect]),
    palette: &Palette,
) {
    // Each mark on a plate of the panel's colour, from its count to its
    // cross: in the space requests cross, the count and cross sat over
    // the dots on their way in ("19 ✕" in presenter and compare views).
    context.set_fill_style_str(&palette.panel.css());
    for plate in plates {
        context.fill_rect(plate.x, plate.y, plate.w, plate.h);
    }
    context.set_line_cap("round");
    context.set_stroke_style_str(&palette.bounce.css());
    for (mark, rect) in marks.iter().zip(rects) {
        let ink = cross_ink(mark.strength);
        context.set_global_alpha(ink.opacity);
        context.set_line_width(ink.stroke_px);
        context.begin_path();
        let ((x, y), half) = (rect.centre(), rect.w / 2.0 - 2.0);
        context.move_to(x - half, y - half);
        context.line_to(x + half, y + half);
        context.move_to(x + half, y - half);
        context.line_to(x - half, y + half);
        context.stroke();
    }
    context.set_global_alpha(1.0);
    if layout.compact {
        return;
    }
    context.set_font(&name_font(layout.small_px()));
    context.set_text_baseline("middle");
    context.set_text_align("right");
    for (mark, rect) in marks.iter().zip(rects) {
        let colour = if mark.strength > 0.0 { palette.bounce } else { palette.muted };
        context.set_fill_style_str(&colour.css());
        let (_, y) = rect.centre();
        let _ = context.fill_text(&mark.bounced.to_string(), rect.x - GAP, y);
    }
}

/// The plate under each mark (see `draw`): from its count's left end to
/// its cross's right, in the rows' label font (which `rects` leaves set);
/// the cross alone in the compact grid, which writes no count.
pub fn plates(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    marks: &[BounceMark],
    rects: &[Rect],
) -> Vec<Rect> {
    let plate = |(mark, rect): (&BounceMark, &Rect)| {
        let count = match layout.compact {
            true => 0.0,
            false => context.measure_text(&mark.bounced.to_string()).map_or(0.0, |m| m.width()) + GAP,
        };
        Rect { x: rect.x - count - 2.0, y: rect.y, w: rect.w + count + 4.0, h: rect.h }
    };
    marks.iter().zip(rects).map(plate).collect()
}

/// Where each mark's cross is drawn: left of its server's name in a row
/// (whose width is measured in the rows' label font, which this leaves
/// set), over its cell in the compact grid.
pub fn rects(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    servers: usize,
    marks: &[BounceMark],
) -> Vec<Rect> {
    let label_px = layout.small_px();
    let side = (label_px + 5.0).max(LEAST_SIDE);
    context.set_font(&name_font(label_px));
    let rect = |mark: &BounceMark| {
        let cell = layout.servers.cell(mark.server);
        if layout.compact {
            let side = cell.w.min(cell.h);
            let (x, y) = cell.centre();
            return Rect { x: x - side / 2.0, y: y - side / 2.0, w: side, h: side };
        }
        let name = Row::name(mark.server, servers);
        let width = context.measure_text(&name).map_or(0.0, |m| m.width());
        let (name_left, _) = Row::name_span(cell, label_px, width);
        let y = cell.y + cell.h / 2.0;
        Rect { x: name_left - GAP - side, y: y - side / 2.0, w: side, h: side }
    };
    marks.iter().map(rect).collect()
}
