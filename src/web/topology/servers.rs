//! Servers. Detailed view: one row each, its slots as cells (filled while
//! busy) in a box, its queue as cells growing leftwards towards arriving
//! requests, each a cell while every queue fits its lane, else all as
//! bars to one scale, and each with its length written beside it; a
//! slowed server's busy slots pale. Compact view: one cell each, shaded
//! by busy slots, with a bar for its queue. A server that has left, is
//! leaving or is failing is marked over its row or cell by shape as well
//! as by word (see `states`). With several datacenters, a dashed line
//! parts each one's rows from the next, named on either side (the compact
//! view's header counts them). Each row's share of the answers or of
//! the requests sent is written by `shares`.

use super::layout::{Layout, Rect};
use super::{shares, states};
use crate::theme::{Palette, LOAD_SHADES};
use lbsim::engine::ServerView;
use lbsim::ui::marks::{answer_shares, queue_mark, sent_shares, QueueMark};

/// Room at a lane's entrance for a queue's length, written left of it.
const QUEUE_LABEL_W: f64 = 30.0;
/// Room at a row's left end for the server's number (two digits), in
/// label heights: a sentence names "server 4", and the reader finds it
/// without counting rows.
const NUMBER_EM: f64 = 1.5;
/// A row narrower than this (CSS px: a phone's, a small frame's) gives its
/// slots a smaller share and their count less room, so that its queue's
/// lane still holds a few cells: at half, a 390 px screen's lanes held
/// none, and every queue, of 1 or of 44, was drawn as the same square.
pub(super) const NARROW_ROW_PX: f64 = 260.0;
use web_sys::CanvasRenderingContext2d;

/// Draws the servers; returns where each row's labels begin (x, CSS px:
/// its name, its state's word, or its entrance where it writes neither)
/// in the detailed view, none in the compact one.
pub fn draw(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    servers: &[ServerView],
    palette: &Palette,
) -> Vec<f64> {
    // Where a server errs, each row says its share of the answers at its
    // entrance, and a failing row's word stands clear of it; where one is
    // slowed, its share of the requests sent lately in the column right
    // of the rows.
    let mut labels_from = Vec::new();
    if layout.compact {
        draw_cells(context, layout, servers, palette);
    } else {
        labels_from = draw_rows(context, layout, servers, palette);
        draw_datacenters(context, layout, servers, palette);
    }
    let shares = answer_shares(servers).filter(|_| !layout.compact);
    let word_from = match &shares {
        Some(shares) => shares::draw_answer_shares(context, layout, servers, shares, palette),
        None => 0.0,
    };
    let words_from = states::draw(context, layout, servers, word_from, palette);
    for (from, word) in labels_from.iter_mut().zip(words_from) {
        *from = from.min(word);
    }
    if let (Some(shares), Some((_, right))) = (sent_shares(servers), layout.side_column) {
        shares::draw_sent_shares(context, layout, (servers, &shares), right, palette);
    }
    labels_from
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
    context.set_font(&format!(
        "600 {}px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
        layout.small_px()
    ));
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

/// How one server row is laid out in the detailed view.
pub(super) struct Row {
    /// Distance between slot (and queue) cells, and a cell's side.
    pitch: f64,
    pub(super) side: f64,
    /// Slot cells per line in the box; 0 draws the slots as one bar.
    per_line: usize,
    pub(super) box_rect: Rect,
    /// Right edge of the queue, which grows leftwards from it.
    pub(super) queue_end: f64,
    pub(super) queue_start: f64,
}

impl Row {
    /// Slots as one line of cells (shrunk down to 5 px if need be), else
    /// as several lines, else as a bar; room on the right for the count
    /// of slots in use ("10/10") in labels `label_px` high.
    pub(super) fn new(cell: Rect, slots: usize, label_px: f64) -> Row {
        let largest = (cell.h * 0.7).clamp(3.0, 16.0);
        let narrow = cell.w < NARROW_ROW_PX;
        let label_w = match Row::holds_label(cell, label_px) {
            true => label_px * if narrow { 3.4 } else { 3.9 },
            false => 0.0,
        };
        let available = cell.w * if narrow { 0.4 } else { 0.5 };
        let one_line = (available / slots.max(1) as f64).min(largest);
        let per_line = ((available / largest).floor() as usize).max(1);
        let (pitch, per_line) = if one_line >= 5.0 {
            (one_line, slots.max(1))
        } else if slots.div_ceil(per_line) as f64 * largest <= cell.h - 2.0 {
            (largest, per_line)
        } else {
            (largest, 0)
        };
        let (box_w, box_h) = match per_line {
            0 => (available, (cell.h * 0.7).min(18.0)),
            n => (slots.min(n) as f64 * pitch + 4.0, slots.div_ceil(n) as f64 * pitch + 4.0),
        };
        let box_x = cell.x + cell.w - label_w - box_w;
        let box_rect = Rect { x: box_x, y: cell.y + (cell.h - box_h) / 2.0, w: box_w, h: box_h };
        let side = (pitch * 0.8).max(2.0);
        let queue_start = cell.x + 6.0 + Row::number_w(cell, label_px);
        Row { pitch, side, per_line, box_rect, queue_end: box_x - 6.0, queue_start }
    }

    /// Room at the row's left end for its server's number, where the row
    /// holds labels.
    fn number_w(cell: Rect, label_px: f64) -> f64 {
        match Row::holds_label(cell, label_px) {
            true => label_px * NUMBER_EM,
            false => 0.0,
        }
    }

    /// The server's name as its row writes it: its number, which a
    /// sentence names ("server 4"); "server" where it is the only one, as
    /// a bare "0" was read as nothing in particular.
    pub(super) fn name(i: usize, servers: usize) -> String {
        match servers {
            1 => "server".to_string(),
            _ => i.to_string(),
        }
    }

    /// Where a name `width` px wide is written (left and right edges): from
    /// the row's left end, or ending in the room kept for it when longer,
    /// out into the space requests cross.
    pub(super) fn name_span(cell: Rect, label_px: f64, width: f64) -> (f64, f64) {
        let room_end = cell.x + Row::number_w(cell, label_px) - 4.0;
        match cell.x + width <= room_end {
            true => (cell.x, cell.x + width),
            false => (room_end - width, room_end),
        }
    }

    /// Whether a row is tall enough for its labels: a label is never
    /// drawn smaller than `label_px`, nor over its neighbour's.
    pub(super) fn holds_label(cell: Rect, label_px: f64) -> bool {
        cell.h >= (label_px + 2.0).max(14.0)
    }

    fn slot_cell(&self, i: usize) -> Rect {
        let (line, col) = (i / self.per_line, i % self.per_line);
        Rect {
            x: self.box_rect.x + 2.0 + col as f64 * self.pitch + (self.pitch - self.side) / 2.0,
            y: self.box_rect.y + 2.0 + line as f64 * self.pitch + (self.pitch - self.side) / 2.0,
            w: self.side,
            h: self.side,
        }
    }

    /// Adds `server`'s busy (or free) slots to the path: cells, or the
    /// share of a bar.
    fn trace_slots(&self, context: &CanvasRenderingContext2d, server: &ServerView, busy: bool) {
        let b = self.box_rect;
        if self.per_line == 0 {
            let fraction = f64::from(server.busy) / f64::from(server.slots.max(1));
            let (x, w) =
                if busy { (b.x, b.w * fraction) } else { (b.x + b.w * fraction, b.w * (1.0 - fraction)) };
            context.rect(x + 1.0, b.y + 1.0, (w - 2.0).max(0.0), b.h - 2.0);
        } else {
            let range = if busy { 0..server.busy } else { server.busy..server.slots };
            for slot in range {
                let c = self.slot_cell(slot as usize);
                context.rect(c.x, c.y, c.w, c.h);
            }
        }
    }

    /// Queue cells that fit between the row's entrance and its box, less
    /// room at the entrance for the queue's length written beside it.
    fn queue_capacity(&self) -> usize {
        ((self.queue_end - self.queue_start - QUEUE_LABEL_W) / self.pitch).floor().max(0.0) as usize
    }

    /// Where a queue of `queued` begins, with its length written left of
    /// it, when the longest beside it holds `longest` (CSS px): the lane
    /// left of it is free.
    pub(super) fn queue_from(&self, queued: u32, longest: u32) -> f64 {
        let label = if queued > 0 { QUEUE_LABEL_W } else { 0.0 };
        self.queue_end - self.queue_length(queued, longest) - label
    }

    /// How far left of its box a queue of `queued` reaches, when the
    /// longest drawn beside it holds `longest` (CSS px).
    pub(super) fn queue_length(&self, queued: u32, longest: u32) -> f64 {
        match queue_mark(queued, longest, self.queue_capacity()) {
            QueueMark::Cells(cells) => cells as f64 * self.pitch,
            QueueMark::Bar(share) => (share * self.queue_capacity() as f64 * self.pitch).max(self.side),
        }
    }
}

/// Draws the rows; returns where each one's name begins (x, CSS px), or
/// its entrance where it has no room for one.
fn draw_rows(
    context: &CanvasRenderingContext2d,
    layout: &Layout,
    servers: &[ServerView],
    palette: &Palette,
) -> Vec<f64> {
    let rows: Vec<(Rect, Row)> = (0..servers.len())
        .map(|i| {
            let cell = layout.servers.cell(i);
            (cell, Row::new(cell, servers[i].slots as usize, layout.small_px()))
        })
        .collect();

    // Lanes from each row's entrance to its box, and the boxes.
    context.begin_path();
    for (cell, row) in &rows {
        let y = cell.y + cell.h / 2.0;
        // After the server's number.
        context.move_to(row.queue_start - 6.0, y);
        context.line_to(row.box_rect.x, y);
        let b = row.box_rect;
        context.rect(b.x, b.y, b.w, b.h);
    }
    context.set_stroke_style_str(&palette.line.css());
    context.set_line_width(1.0);
    context.stroke();

    let mut texts = Vec::new();
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
    let longest = servers.iter().map(|s| s.queued).max().unwrap_or(0);
    for ((cell, row), server) in rows.iter().zip(servers) {
        let length = row.queue_length(server.queued, longest);
        let y = cell.y + (cell.h - row.side) / 2.0;
        match queue_mark(server.queued, longest, row.queue_capacity()) {
            QueueMark::Cells(cells) => {
                for k in 0..cells {
                    context.rect(row.queue_end - (k + 1) as f64 * row.pitch, y, row.side, row.side);
                }
            }
            QueueMark::Bar(_) => context.rect(row.queue_end - length, y, length, row.side),
        }
        // Every queue says how long it is, so a count needs no counting.
        if server.queued > 0 {
            texts.push((row.queue_end - length - 4.0, cell.y + cell.h / 2.0, server.queued.to_string()));
        }
    }
    context.set_fill_style_str(&palette.queued.css());
    context.fill();

    // Queue lengths in the ink colour: orange text on white is too faint.
    write_counts(context, layout, &texts, palette);
    context.set_fill_style_str(&palette.muted.css());
    context.set_text_align("left");
    let mut names_from: Vec<f64> = rows.iter().map(|(cell, _)| cell.x).collect();
    for (i, ((cell, row), server)) in rows.iter().zip(servers).enumerate() {
        if Row::holds_label(*cell, layout.small_px()) {
            let name = Row::name(i, servers.len());
            let width = context.measure_text(&name).map_or(0.0, |m| m.width());
            let (x, _) = Row::name_span(*cell, layout.small_px(), width);
            names_from[i] = x.min(cell.x);
            let _ = context.fill_text(&name, x, cell.y + cell.h / 2.0);
            let b = row.box_rect;
            // A server not at speed 1 (drifted, or clicked) says how fast
            // it is, just above its slots where the row has room.
            if server.speed != 1.0 && b.y - cell.y >= 10.0 {
                let _ = context.fill_text(&format!("speed ×{}", server.speed), b.x, b.y - 6.0);
            }
            let _ = context.fill_text(
                &format!("{}/{}", server.busy, server.slots),
                b.x + b.w + 6.0,
                b.y + b.h / 2.0,
            );
        }
    }
    names_from
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
    format!("600 {px}px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif")
}

/// Whether a server runs slower than its speed: its busy slots then look
/// different, not only its word.
pub(super) fn slowed(server: &ServerView) -> bool {
    server.speed < 1.0
}

/// A slowed server's busy slots, pale inside a busy-coloured outline: ten
/// busy slots of a server at a quarter of its speed drew exactly as ten of
/// a healthy one, and only the word "slow" told them apart (chapter 3).
/// The outline keeps the busy colour's contrast in either theme.
fn draw_slowed_busy(
    context: &CanvasRenderingContext2d,
    rows: &[(Rect, Row)],
    servers: &[ServerView],
    palette: &Palette,
) {
    const PALE: f64 = 0.3;
    context.begin_path();
    for ((_, row), server) in rows.iter().zip(servers).filter(|(_, s)| slowed(s)) {
        row.trace_slots(context, server, true);
    }
    let busy = palette.busy.css();
    context.set_fill_style_str(&busy);
    context.set_global_alpha(PALE);
    context.fill();
    context.set_global_alpha(1.0);
    context.set_stroke_style_str(&busy);
    context.set_line_width(1.5);
    context.stroke();
}

/// How far left of its box each server's queue is drawn (CSS px), in the
/// detailed view; none in the compact one.
pub fn queue_lengths(layout: &Layout, servers: &[ServerView]) -> Vec<f64> {
    let longest = servers.iter().map(|s| s.queued).max().unwrap_or(0);
    let row = |i: usize| Row::new(layout.servers.cell(i), servers[i].slots as usize, layout.small_px());
    match layout.compact {
        true => vec![0.0; servers.len()],
        false => (0..servers.len()).map(|i| row(i).queue_length(servers[i].queued, longest)).collect(),
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
