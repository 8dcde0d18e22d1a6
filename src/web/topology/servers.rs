//! Servers. Detailed view: one row each, its slots as cells (filled while
//! busy) in a box, its queue as cells growing leftwards towards arriving
//! requests, a cell a request (narrower on every row once a queue of the
//! run outgrew its lane) as far as its lane goes, then cut with a mark
//! saying it runs on (see `lbsim::ui::marks::QueueMark`), and each with
//! its length beside it; a
//! slowed server's busy slots hatched. Compact view: one cell each, shaded
//! by busy slots, with a bar for its queue. A server that has left, is
//! leaving or is failing is marked over its row or cell by shape as well
//! as by word (see `states`). With several datacenters, a dashed line
//! parts each one's rows from the next, named on either side (the compact
//! view's header counts them). Each row's share of the answers or of
//! the requests sent is written by `shares`.

use super::layout::{Layout, Rect};
use super::row::Row;
use super::{shares, states};
use crate::theme::{Palette, LOAD_SHADES};
use lbsim::engine::{ServerState, ServerView};
use lbsim::ui::bounces::BounceMark;
use lbsim::ui::marks::{answer_shares, count_clear_of, sent_shares, speed_label, CopyMark, QueueMark};

use web_sys::CanvasRenderingContext2d;

/// Where each row's labels begin (x, CSS px: its name, its state's word,
/// or its entrance where it writes neither), and the stretch of its lane
/// left free (from after its name to its queue's length, its queue, a
/// copy's needle or its state's word): none in the compact view.
pub struct Entrances {
    pub labels_from: Vec<f64>,
    pub lanes_free: Vec<(f64, f64)>,
}

/// Draws the servers, each queue's length clear of the needle of a
/// client's copy of its load (`needles`, see `learned`); returns where
/// each row's labels begin and its lane is free.
pub fn draw(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    (servers, bounces, needles): (&[ServerView], &[BounceMark], &[Option<CopyMark>]),
    palette: &Palette,
) -> Entrances {
    // Where a server errs, each row says its share of the answers at its
    // entrance, and a failing row's word stands clear of it; where one is
    // slowed, its share of the requests sent lately in the column right
    // of the rows.
    let (mut labels_from, mut counts_from, mut lanes_free) = (Vec::new(), Vec::new(), Vec::new());
    if layout.compact {
        draw_cells(context, layout, servers, palette);
    } else {
        (labels_from, counts_from, lanes_free) = draw_rows(context, layout, (servers, needles), palette);
        draw_datacenters(context, layout, servers, palette);
    }
    let shares = answer_shares(servers).filter(|_| !layout.compact);
    let word_from = match &shares {
        Some(shares) => shares::draw_answer_shares(context, layout, servers, shares, palette),
        None => 0.0,
    };
    // Where a row writes its share of the answers on its lane, the lane
    // leaves no room for a decision's badge.
    if shares.is_some() {
        lanes_free.clear();
    }
    let words_from = states::draw(context, layout, (servers, bounces), (word_from, &counts_from), palette);
    for (i, word) in words_from.into_iter().enumerate() {
        if let Some(from) = labels_from.get_mut(i) {
            *from = from.min(word);
        }
        if let Some(lane) = lanes_free.get_mut(i).filter(|lane| word > lane.0) {
            lane.1 = lane.1.min(word);
        }
    }
    if let (Some(shares), Some((_, right))) = (sent_shares(servers), layout.side_column) {
        shares::draw_sent_shares(context, layout, (servers, &shares), right, palette);
    }
    Entrances { labels_from, lanes_free }
}

/// A dashed line between the last server of a datacenter and the first of
/// the next, each side named where requests arrive ("datacenter 0"
/// above, "datacenter 1" below), clear of the slots and their counts.
fn draw_datacenters(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    servers: &[ServerView],
    palette: &Palette,
) {
    let boundaries: Vec<usize> =
        (1..servers.len()).filter(|&i| servers[i].datacenter != servers[i - 1].datacenter).collect();
    if boundaries.is_empty() {
        return;
    }
    let (left, right) = (layout.servers_x, layout.width - 4.0);
    context.set_stroke_style_str(&palette.ink.css());
    context.set_line_width(1.5);
    let _ = context.set_line_dash(&js_sys::Array::of2(&6.0.into(), &4.0.into()));
    context.set_font(&super::font(600, layout.small_px()));
    context.set_fill_style_str(&palette.ink.css());
    context.set_text_align("left");
    for &i in &boundaries {
        let (above, below) = (layout.servers.cell(i - 1), layout.servers.cell(i));
        let y = (above.y + above.h + below.y) / 2.0;
        context.begin_path();
        context.move_to(left, y);
        context.line_to(right, y);
        context.stroke();
        context.set_text_baseline("bottom");
        let _ = context.fill_text(&format!("datacenter {}", servers[i - 1].datacenter), left, y - 2.0);
        context.set_text_baseline("top");
        let _ = context.fill_text(&format!("datacenter {}", servers[i].datacenter), left, y + 2.0);
    }
    let _ = context.set_line_dash(&js_sys::Array::new());
}

/// Draws the rows; returns where each one's name begins (x, CSS px), or
/// its entrance where it has no room for one, where each queue's length
/// begins where a needle moved it left (infinity elsewhere), and each
/// lane's stretch free of its queue, the queue's length and a needle.
fn draw_rows(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    (servers, needles): (&[ServerView], &[Option<CopyMark>]),
    palette: &Palette,
) -> (Vec<f64>, Vec<f64>, Vec<(f64, f64)>) {
    let rows: Vec<(Rect, Row)> = (0..servers.len())
        .map(|i| {
            let cell = layout.servers.cell(i);
            (cell, Row::of(layout, i, &servers[i]))
        })
        .collect();

    let queues: Vec<(QueueMark, f64)> =
        rows.iter().zip(servers).map(|((_, row), server)| drawn_queue(row, server.queued)).collect();
    // Every queue says how long it is, so a count needs no counting,
    // clear of a copy's needle.
    let font = name_font(layout.small_px());
    context.set_font(&font);
    let mut counts_from = vec![f64::INFINITY; servers.len()];
    let counts: Vec<Option<(f64, f64, String)>> = rows
        .iter()
        .zip(servers)
        .zip(&queues)
        .enumerate()
        .map(|(i, (((cell, row), server), (_, length)))| {
            let text = (server.queued > 0).then(|| server.queued.to_string())?;
            let width = super::text_width(context, &font, &text).unwrap_or(0.0);
            let beside = row.queue_end - length - COUNT_GAP;
            let right = count_clear_of(beside, width, needles.get(i).and_then(Option::as_ref));
            if right < beside {
                counts_from[i] = right - width;
            }
            Some((right, cell.y + cell.h / 2.0, text))
        })
        .collect();

    // Lanes from each row's entrance to its box, broken round its
    // queue's length (written on the lane, the line struck it through),
    // and the boxes.
    context.begin_path();
    let mut lanes_free = Vec::with_capacity(rows.len());
    for (i, (((cell, row), count), (_, length))) in rows.iter().zip(&counts).zip(&queues).enumerate() {
        let y = cell.y + cell.h / 2.0;
        // After the server's number.
        let entrance = row.queue_start - 6.0;
        context.move_to(entrance, y);
        let mut taken_from = row.queue_end - length;
        if let Some((right, _, text)) = count {
            let width = super::text_width(context, &font, text).unwrap_or(0.0);
            taken_from = right - width;
            context.line_to((taken_from - COUNT_GAP).max(entrance), y);
            context.move_to(row.queue_end - length, y);
        }
        if let Some(needle) = needles.get(i).and_then(Option::as_ref) {
            taken_from = taken_from.min(needle.x - needle.head / 2.0);
        }
        lanes_free.push((entrance, taken_from));
        context.line_to(row.box_rect.x, y);
        let b = row.box_rect;
        context.rect(b.x, b.y, b.w, b.h);
    }
    context.set_stroke_style_str(&palette.line.css());
    context.set_line_width(1.0);
    context.stroke();

    // A slowed server's busy slots are drawn apart (see `draw_slowed_busy`).
    for busy in [true, false] {
        context.begin_path();
        for ((_, row), server) in rows.iter().zip(servers).filter(|(_, s)| !(busy && slowed(s))) {
            row.trace_slots(context, server, busy);
        }
        context.set_fill_style_str(&if busy { palette.busy } else { palette.free }.css());
        context.fill();
    }
    draw_slowed_busy(context, &rows, servers, palette);

    context.begin_path();
    let mut cuts = Vec::new();
    for ((cell, row), (mark, length)) in rows.iter().zip(&queues) {
        for k in 0..mark.cells() as usize {
            let c = row.queue_cell(k);
            context.rect(c.x, c.y, c.w, c.h);
        }
        if let QueueMark::RunsOff(_) = mark {
            cuts.push((row.queue_end - length + row.side * 0.6, cell.y + cell.h / 2.0, row.side));
        }
    }
    context.set_fill_style_str(&palette.queued.css());
    context.fill();
    draw_cuts(context, &cuts, palette);

    // Queue lengths in the ink colour: orange text on white is too faint.
    let texts: Vec<(f64, f64, String)> = counts.into_iter().flatten().collect();
    write_counts(context, layout, &texts, palette);
    context.set_fill_style_str(&palette.muted.css());
    context.set_text_align("left");
    let mut names_from: Vec<f64> = rows.iter().map(|(cell, _)| cell.x).collect();
    for (i, ((cell, row), server)) in rows.iter().zip(servers).enumerate() {
        if Row::holds_label(*cell, layout.small_px()) {
            let name = Row::name(i, servers.len());
            let width = super::text_width(context, &font, &name).unwrap_or(0.0);
            let (x, _) = Row::name_span(*cell, layout.small_px(), width);
            names_from[i] = x.min(cell.x);
            let _ = context.fill_text(&name, x, cell.y + cell.h / 2.0);
            let b = row.box_rect;
            // A server drifted from speed 1 says how fast it is, just
            // above its slots where the row has room (a slowed one's state
            // word says it).
            if server.speed != 1.0 && server.state != ServerState::Slow && b.y - cell.y >= 10.0 {
                let _ = context.fill_text(&speed_label(server.speed), b.x, b.y - 6.0);
            }
            let _ = context.fill_text(
                &format!("{}/{}", server.busy, server.slots),
                b.x + b.w + 6.0,
                b.y + b.h / 2.0,
            );
        }
    }
    (names_from, counts_from, lanes_free)
}

/// Room between a queue cut at its lane's start and the mark saying so.
const CUT_GAP: f64 = 2.0;
/// Room between a queue's length and its queue, or the lane before it.
const COUNT_GAP: f64 = 4.0;

/// How a queue of `queued` is drawn on `row`, and how far left of the
/// row's box it reaches (CSS px), the mark of a queue cut at its lane's
/// start included.
fn drawn_queue(row: &Row, queued: u32) -> (QueueMark, f64) {
    let mark = row.queue_mark(queued);
    let length = row.queue_length(queued);
    match mark {
        QueueMark::RunsOff(_) => (mark, length + CUT_GAP + row.side * 0.6),
        _ => (mark, length),
    }
}

/// Marks each queue cut at its lane's start (right end x, middle y, the
/// cells' side) with a chevron pointing on, the way it runs: on a row
/// drawn to one scale, a queue longer than its lane.
fn draw_cuts(context: &CanvasRenderingContext2d, cuts: &[(f64, f64, f64)], palette: &Palette) {
    context.begin_path();
    for &(x, y, side) in cuts {
        context.move_to(x, y - side * 0.6);
        context.line_to(x - side * 0.6, y);
        context.line_to(x, y + side * 0.6);
    }
    context.set_stroke_style_str(&palette.ink.css());
    context.set_line_width(1.5);
    context.stroke();
}

/// Writes counts (x, y, text) right-aligned at x, in the rows' label font
/// and the ink colour, left of the bars they count.
pub(super) fn write_counts(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    counts: &[(f64, f64, String)],
    palette: &Palette,
) {
    context.set_font(&name_font(layout.small_px()));
    context.set_text_baseline("middle");
    context.set_text_align("right");
    context.set_fill_style_str(&palette.ink.css());
    for (x, y, text) in counts {
        let _ = context.fill_text(text, *x, *y);
    }
}

/// The font of the rows' small labels: names, queue lengths, slots in use.
pub(super) fn name_font(px: f64) -> String {
    super::font(600, px)
}

/// Whether a server runs slower than its speed: its busy slots then look
/// different, not only its word.
pub(super) fn slowed(server: &ServerView) -> bool {
    server.speed < 1.0
}

/// A slowed server's busy slots, in the busy colour crossed by diagonal
/// stripes of the panel's: drawn pale, ten busy slots of a server at a
/// quarter of its speed were read as free ones, and in the dark theme as
/// empty. Busy they stay; the hatch and the row's "¼ speed" say slow.
fn draw_slowed_busy(
    context: &CanvasRenderingContext2d,
    rows: &[(Rect, Row)],
    servers: &[ServerView],
    palette: &Palette,
) {
    let slowed_rows: Vec<(&Row, &ServerView)> =
        rows.iter().zip(servers).filter(|(_, s)| slowed(s)).map(|((_, row), s)| (row, s)).collect();
    context.begin_path();
    for (row, server) in &slowed_rows {
        row.trace_slots(context, server, true);
    }
    context.set_fill_style_str(&palette.busy.css());
    context.fill();
    context.save();
    context.clip();
    context.begin_path();
    for (row, _) in &slowed_rows {
        hatch(context, row.box_rect);
    }
    context.set_stroke_style_str(&palette.panel.css());
    context.set_line_width(HATCH_STROKE);
    context.stroke();
    context.restore();
}

/// The hatch's stripes: their pitch and stroke (CSS px), thin enough that
/// the slots stay the busy colour, dense enough that every slot shows one.
const HATCH_PITCH: f64 = 6.0;
const HATCH_STROKE: f64 = 1.0;

/// Adds diagonal stripes across `area` to the path.
pub(super) fn hatch(context: &CanvasRenderingContext2d, area: Rect) {
    let mut x = area.x - area.h;
    while x < area.x + area.w {
        context.move_to(x, area.y + area.h);
        context.line_to(x + area.h, area.y);
        x += HATCH_PITCH;
    }
}

/// How far left of its box each server's queue is drawn (CSS px), in the
/// detailed view; none in the compact one.
pub fn queue_lengths(layout: &Layout, servers: &[ServerView]) -> Vec<f64> {
    let row = |i: usize| Row::of(layout, i, &servers[i]);
    match layout.compact {
        true => vec![0.0; servers.len()],
        false => (0..servers.len()).map(|i| row(i).queue_length(servers[i].queued)).collect(),
    }
}

/// The shade for a server: idle, steps of busy slots, full.
fn shade(server: &ServerView) -> usize {
    if server.busy == 0 {
        return 0;
    }
    let fraction = f64::from(server.busy) / f64::from(server.slots.max(1));
    (1 + (fraction * (LOAD_SHADES - 2) as f64) as usize).min(LOAD_SHADES - 1)
}

fn draw_cells(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    servers: &[ServerView],
    palette: &Palette,
) {
    let grid = &layout.servers;
    let inset = if grid.cell_w.min(grid.cell_h) >= 5.0 { 1.0 } else { 0.0 };
    for (level, colour) in palette.load_shades.iter().enumerate() {
        context.begin_path();
        for (i, _) in servers.iter().enumerate().filter(|(_, s)| shade(s) == level) {
            let c = grid.cell(i);
            context.rect(c.x + inset, c.y + inset, c.w - 2.0 * inset, c.h - 2.0 * inset);
        }
        context.set_fill_style_str(colour);
        context.fill();
    }
    context.begin_path();
    for (i, server) in servers.iter().enumerate().filter(|(_, s)| s.queued > 0) {
        let c = grid.cell(i);
        // At most 60% of the cell, so its shade of busy slots still shows.
        let fraction = (f64::from(server.queued) / f64::from(server.slots.max(1))).min(1.0);
        let h = ((c.h - 2.0 * inset) * 0.6 * fraction).max(1.5);
        context.rect(c.x + inset, c.y + c.h - inset - h, c.w - 2.0 * inset, h);
    }
    context.set_fill_style_str(&palette.queued.css());
    context.fill();
}
