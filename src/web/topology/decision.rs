//! A decision of a policy that compares a sample of servers, drawn over the
//! topology: a line from the chooser to each candidate (thin grey dashes
//! for those passed over, solid in the ink colour, the topology's colour
//! for "look here", and [`TAKEN_WIDTH`] times as thick for the one taken),
//! a ring round each candidate while its row is as the decision met it,
//! and beside it what the chooser saw of it, held together (see
//! `lbsim::ui::marks::decision_ink`). Drawn in one ink, the one taken
//! 1.6 times as thick, the two lines were told apart by the dash alone.

use super::layout::{Layout, Rect};
use super::row::Row;
use super::servers::Entrances;
use crate::theme::Palette;
use lbsim::engine::{Decision, LearnedLoad, ServerView};
use lbsim::ui::marks::{badge_spot, badges, badges_past, rings_drawn, rows_moved, BadgeRoom};
use web_sys::CanvasRenderingContext2d;

/// Draws `decision` over the rows of `servers`, with its badges left of
/// where each row's entrance labels begin, or once past on the stretch of
/// its lane left free (`entrances`), returning where the ring round its
/// winner went, if it was ringed.
pub fn draw(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    decision: &Decision,
    (servers, entrances, copies): (&[ServerView], &Entrances, &[LearnedLoad]),
    palette: &Palette,
) -> Option<Rect> {
    let chooser = match decision.by_balancer {
        true => layout.balancer_anchor(decision.chooser as usize),
        false => layout.client_anchor(decision.chooser as usize),
    };
    let width = (layout.label_px() / 6.0).max(2.0);
    let ring = |server: u32| {
        ring_round(layout, (servers, &entrances.labels_from), server as usize, width * TAKEN_WIDTH)
    };
    let ringed = rings_drawn(rows_moved(decision, servers));
    for taken in [false, true] {
        let dash = js_sys::Array::new();
        if !taken {
            dash.push(&(width * 2.5).into());
            dash.push(&(width * 2.0).into());
        }
        let _ = context.set_line_dash(&dash);
        context.set_stroke_style_str(&if taken { palette.ink } else { palette.muted }.css());
        context.set_line_width(if taken { width * TAKEN_WIDTH } else { width });
        context.begin_path();
        for candidate in decision.candidates.iter().filter(|c| (c.server == decision.winner) == taken) {
            let rect = ring(candidate.server);
            let (x, y) = match layout.compact {
                true => layout.server_anchor(candidate.server as usize),
                false => (rect.x, rect.y + rect.h / 2.0),
            };
            context.move_to(chooser.0, chooser.1);
            context.line_to(x, y);
            if ringed {
                context.rect(rect.x, rect.y, rect.w, rect.h);
            }
        }
        context.stroke();
    }
    let _ = context.set_line_dash(&js_sys::Array::new());
    draw_amounts(context, layout, (decision, (servers, copies), entrances), palette);
    ringed.then(|| ring(decision.winner))
}

/// How many times as thick as a line to a server passed over the line to
/// the server taken is drawn.
const TAKEN_WIDTH: f64 = 2.5;

/// The ring round server `i`, drawn with lines up to `widest` px wide: in
/// the compact view round its cell; in the detailed view inside its row,
/// from left of the labels at its entrance (`entrances`, x in CSS px) to
/// just right of its slots, the load the chooser compared. Round the
/// whole row, on a phone it ran past the count of slots in use ("10/10")
/// to the picture's edge, and its edges lay across the rows beside.
fn ring_round(layout: &Layout, (servers, entrances): (&[ServerView], &[f64]), i: usize, widest: f64) -> Rect {
    let cell = layout.servers.cell(i);
    if layout.compact {
        const PAD: f64 = 4.0;
        return Rect { x: cell.x - PAD, y: cell.y - PAD, w: cell.w + 2.0 * PAD, h: cell.h + 2.0 * PAD };
    }
    const PAD: f64 = 3.0;
    let left = entrances.get(i).map_or(cell.x, |x| x.min(cell.x)) - PAD;
    let right = servers.get(i).map_or(cell.x + cell.w, |server| {
        let slots = Row::of(layout, i, server).box_rect;
        slots.x + slots.w + PAD
    });
    // Inside the row, so that neighbours' rings meet without overlapping.
    let inset = widest / 2.0 + 0.5;
    Rect { x: left, y: cell.y + inset, w: right - left, h: cell.h - 2.0 * inset }
}

/// What the chooser saw of each candidate, as a badge in the ink colour
/// (outlined on the panel's colour once past: the rows, or the column of
/// copies, no longer write what it saw) just left of the candidate ("saw
/// 3 queued", or "stale" when it ignored its counters; see
/// `lbsim::ui::marks::badges`), so that it does not read as one of the
/// server's own figures; left of the labels at its row's entrance, where a
/// slowed server's word or a bounce's mark stands before the name (a badge
/// "16" covered chapter 5's "¼ speed"), and right of the clients' column
/// (and the balancers'): where "saw 25" does not fit between them, as on a
/// phone, where it covered the clients for as long as the decision was
/// held, the figure alone. A past badge that finds no room there goes on
/// its row's lane, after the server's name, where the lane is free (see
/// `lbsim::ui::marks::badge_spot`); where not even that fits, no badge.
fn draw_amounts(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    (decision, (servers, copies), entrances): (&Decision, (&[ServerView], &[LearnedLoad]), &Entrances),
    palette: &Palette,
) {
    const GAP: f64 = 10.0;
    // The plate reaches this far beyond its text on each side.
    const PLATE_PAD: f64 = 5.0;
    // Beside rows, the plate (1.4 times the text) no taller than a row, so
    // that a badge stays on its own row, over no neighbour's line.
    let px = match layout.compact {
        true => layout.label_px(),
        false => layout.label_px().min(layout.servers.cell_h / 1.4).max(9.0),
    };
    context.set_font(&super::font(700, px));
    context.set_text_align("right");
    context.set_text_baseline("middle");
    // Past, beside rows (or copies) that have moved on: ink on an
    // outlined plate of the panel's colour, which hides the dots behind it
    // (the panel's colour on a plate of half-strength ink, over the dots,
    // could not be read), its text at least at [`PAST_TEXT_INK`].
    let past = badges_past(decision, (servers, copies));
    context.set_stroke_style_str(&palette.ink.css());
    // A plate may come this close to the clients' column: 10 px off it,
    // chapter 6's random picture on a phone had no room for "stale".
    let floor = layout.tiers_right() + 4.0;
    let ink_given = context.global_alpha();
    for (server, wordings) in badges(decision, (servers, copies)) {
        let (_, y) = layout.server_anchor(server as usize);
        let entrance = entrances.labels_from.get(server as usize).map_or(f64::INFINITY, |x| x - GAP);
        let right = (layout.servers.cell(server as usize).x - GAP).min(entrance);
        let widths: Vec<f64> =
            wordings.iter().map(|text| context.measure_text(text).map_or(px * 2.0, |m| m.width())).collect();
        let room =
            BadgeRoom { before: (floor, right), lane: entrances.lanes_free.get(server as usize).copied() };
        let Some((chosen, right)) = badge_spot(&widths, room, past, PLATE_PAD) else { continue };
        let (text, width) = (&wordings[chosen], widths[chosen]);
        context.begin_path();
        let _ = context.round_rect_with_f64(
            right - width - PLATE_PAD,
            y - px * 0.7,
            width + 2.0 * PLATE_PAD,
            px * 1.4,
            px * 0.3,
        );
        match past {
            false => {
                context.set_fill_style_str(&palette.ink.css());
                context.fill();
                context.set_fill_style_str(&palette.panel.css());
            }
            true => {
                context.set_global_alpha(1.0);
                context.set_fill_style_str(&palette.panel.css());
                context.fill();
                context.set_global_alpha(ink_given);
                context.set_line_width(1.0);
                context.stroke();
                context.set_global_alpha(ink_given.max(PAST_TEXT_INK));
                context.set_fill_style_str(&palette.ink.css());
            }
        }
        let _ = context.fill_text(text, right, y);
        context.set_global_alpha(ink_given);
    }
}

/// The least strength a past badge's text is drawn at: its lines fade to
/// half, but "saw 8/10" at half strength over the requests was too faint
/// to read (reader 11).
const PAST_TEXT_INK: f64 = 0.8;
