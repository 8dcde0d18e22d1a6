//! The marks of servers that are not active members, or not in every
//! pool, over their rows or cells (see `servers`): a cross when crashed or
//! down (or flapping), a veil when removed or ejected, a dashed outline
//! while it drains, a dotted one while it answers with errors; and in the
//! detailed view the state's word, placed clear of the row's queue and of
//! the server's name.

use super::layout::{Layout, Rect};
use super::row::Row;
use super::servers::name_font;
use crate::theme::Palette;
use lbsim::engine::{ServerState, ServerView};
use lbsim::ui::bounces::BounceMark;
use lbsim::ui::marks::{speed_label, state_word_x};
use web_sys::CanvasRenderingContext2d;

/// The marks of servers that are not active members, or not in every
/// pool, each word clear of its row's queue and of its length (where a
/// copy's needle moved it, from `counts_from`); returns where each
/// server's word begins (x, CSS px), infinity where it has none.
pub fn draw(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    (servers, bounces): (&[ServerView], &[BounceMark]),
    (word_from, counts_from): (f64, &[f64]),
    palette: &Palette,
) -> Vec<f64> {
    let mut words_from = vec![f64::INFINITY; servers.len()];
    let gone = servers.iter().enumerate().filter(|(_, s)| s.state != ServerState::Active || s.ejected > 0);
    let px = layout.label_px();
    context.set_font(&super::font(700, px));
    context.set_text_baseline("middle");
    context.set_text_align("left");
    for (i, server) in gone {
        let c = layout.servers.cell(i);
        let veil = match server.state {
            ServerState::Removed => 0.75,
            _ if server.ejected > 0 => 0.5,
            _ => 0.0,
        };
        if veil > 0.0 {
            context.set_global_alpha(veil);
            context.set_fill_style_str(&palette.panel.css());
            context.fill_rect(c.x, c.y, c.w, c.h);
            context.set_global_alpha(1.0);
        }
        match server.state {
            ServerState::Draining => outline(context, c, ((5.0, 4.0), 1.5), palette),
            ServerState::Crashed | ServerState::Down | ServerState::Flapping => {
                context.set_stroke_style_str(&palette.ink.css());
                context.set_line_width(2.5);
                context.begin_path();
                context.move_to(c.x + 2.0, c.y + 2.0);
                context.line_to(c.x + c.w - 2.0, c.y + c.h - 2.0);
                context.move_to(c.x + c.w - 2.0, c.y + 2.0);
                context.line_to(c.x + 2.0, c.y + c.h - 2.0);
                context.stroke();
            }
            ServerState::Failing => outline(context, c, ((2.0, 3.0), 2.0), palette),
            ServerState::Active | ServerState::Slow | ServerState::Removed => {}
        }
        if !layout.compact && c.h >= px {
            // A slowed server says how slow ("¼ speed"), beside its hatched
            // slots where its row has room.
            let state = match server.state {
                ServerState::Slow => speed_label(server.speed),
                _ => server.state.name().to_string(),
            };
            let word = match server.ejected {
                0 => state,
                1 => format!("{state} · ejected"),
                n => format!("{state} · ejected by {n}"),
            };
            let width = context.measure_text(&word).map_or(px * 4.0, |m| m.width());
            let row = Row::of(layout, i, server);
            let moved = counts_from.get(i).copied().unwrap_or(f64::INFINITY);
            let queue_from = row.queue_from(server.queued).min(moved);
            let name = name_span(context, layout, c, Row::name(i, servers.len()));
            // Where rows write their share of the answers, the word stays
            // past it; where the server has bounced a request, past its
            // name, as the bounce's mark and count take the room before it.
            let marked = server.bounced > 0 || bounces.iter().any(|mark| mark.server == i);
            let floor = match (word_from > 0.0, marked) {
                (true, _) => c.x + word_from,
                (false, true) => name.1,
                (false, false) => layout.crossing_from(),
            };
            let lane = state_word_x(c.x + (c.w * 0.2).max(word_from), queue_from, (name, floor), width);
            // With no room in the lane, above the slots or under them, where
            // the row has room; else not written: the hatched slots and the
            // key still say it, and no count is covered.
            let b = row.box_rect;
            let (x, y) = match lane {
                Some(x) => (x, c.y + c.h / 2.0),
                None if b.y - c.y >= px * 1.2 + 2.0 => (b.x, b.y - px * 0.6 - 2.0),
                None if c.y + c.h - b.y - b.h >= px * 1.2 + 2.0 => (b.x, b.y + b.h + px * 0.6 + 2.0),
                None => continue,
            };
            context.set_fill_style_str(&palette.panel.css());
            context.fill_rect(x - 3.0, y - px * 0.6, width + 6.0, px * 1.2);
            context.set_fill_style_str(&palette.ink.css());
            let _ = context.fill_text(&word, x, y);
            if lane.is_some() {
                words_from[i] = x;
            }
        }
    }
    words_from
}

/// A broken outline round `c`: dashes `dash` (on, off) of `width` px.
fn outline(context: &CanvasRenderingContext2d, c: Rect, (dash, width): ((f64, f64), f64), palette: &Palette) {
    let _ = context.set_line_dash(&js_sys::Array::of2(&dash.0.into(), &dash.1.into()));
    context.set_stroke_style_str(&palette.ink.css());
    context.set_line_width(width);
    context.stroke_rect(c.x + 1.0, c.y + 1.0, c.w - 2.0, c.h - 2.0);
    let _ = context.set_line_dash(&js_sys::Array::new());
}

/// Where each server's name is written in the detailed view (left and right
/// edges), where its row holds one, so that a test can click it.
pub(super) fn name_spans(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    servers: usize,
) -> Vec<Option<[f64; 2]>> {
    let span = |i: usize| {
        let cell = layout.servers.cell(i);
        let written = !layout.compact && Row::holds_label(cell, layout.small_px());
        written.then(|| name_span(context, layout, cell, Row::name(i, servers)).into())
    };
    (0..servers).map(span).collect()
}

/// Where server `name` is written in its row `cell` (left and right edges),
/// measured in the rows' label font; the word's font is set again after.
fn name_span(context: &CanvasRenderingContext2d, layout: &Layout, cell: Rect, name: String) -> (f64, f64) {
    let font = context.font();
    context.set_font(&name_font(layout.small_px()));
    let width = context.measure_text(&name).map_or(0.0, |m| m.width());
    context.set_font(&font);
    Row::name_span(cell, layout.small_px(), width)
}
