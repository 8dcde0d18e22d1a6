//! How one server's row is laid out in the detailed view: its number at
//! the left end, its queue's lane growing leftwards from its box of
//! slots, the box, and room on the right for the slots in use ("10/10").

use super::layout::{least_labelled_row_h, Layout, Rect};
use lbsim::engine::ServerView;
use lbsim::ui::marks::{queue_cell_w, queue_to_scale, QueueMark, Stand};
use lbsim::ui::row_scale::{pitch_holding_a_queue, RowScale};
use web_sys::CanvasRenderingContext2d;

/// Room at a lane's entrance for a queue's length, written left of it,
/// at the least (CSS px): three digits of 12 px and the gap after them.
const COUNT_W: f64 = 30.0;
/// A digit's width in the rows' label font, in label heights: the widest
/// sans-serif bold digits take 0.7 (DejaVu Sans Bold's). The room for a
/// count grows with the labels: at a presenter's 27 px a count of two
/// digits reached 8 px past the 30 px kept for it.
const DIGIT_EM: f64 = 0.7;
/// Room at a row's left end for the server's number (two digits), in
/// label heights: a sentence names "server 4", and the reader finds it
/// without counting rows.
const NUMBER_EM: f64 = 1.5;
/// A row narrower than this (CSS px: a phone's, a small frame's) gives its
/// slots a smaller share and their count less room, so that its queue's
/// lane still holds a few cells: at half, a 390 px screen's lanes held
/// none, and every queue, of 1 or of 44, was drawn as the same square.
pub(super) const NARROW_ROW_PX: f64 = 260.0;

/// How one server row is laid out in the detailed view.
pub struct Row {
    /// Distance between slot cells, and a cell's side.
    pub(super) pitch: f64,
    pub(super) side: f64,
    /// Distance between queue cells: the slots' pitch, or the finer one
    /// every row draws its queue at where a queue outgrew its lane (see
    /// `lbsim::ui::marks::shared_queue_pitch`).
    queue_pitch: f64,
    /// Slot cells per line in the box; 0 draws the slots as one bar.
    per_line: usize,
    pub(super) box_rect: Rect,
    /// Right edge of the queue, which grows leftwards from it.
    pub(super) queue_end: f64,
    pub(super) queue_start: f64,
    /// Room at the lane's entrance for the queue's length (see [`COUNT_W`]).
    count_w: f64,
    /// Whether a queued request takes a slot's width (see `scale`).
    to_scale: bool,
    slots: u32,
}

impl Row {
    /// Server `i`'s row in `layout`, holding `server`'s slots: to one
    /// scale with its queue where the layout draws queues to scale; its
    /// queue at the layout's pitch for queues where it has one.
    pub(super) fn of(layout: &Layout, i: usize, server: &ServerView) -> Row {
        let cell = layout.servers.cell(i);
        let row = Row::new(cell, server.slots as usize, layout.small_px(), layout.queues_to_scale);
        match layout.queue_pitch {
            Some(pitch) => Row { queue_pitch: row.pitch.min(pitch), ..row },
            None => row,
        }
    }

    /// Slots as one line of cells as wide as a queued request's, leaving
    /// the lane room for a long queue (see
    /// `lbsim::ui::row_scale::pitch_holding_a_queue`), else as several
    /// lines, else as a bar; room on the right for the count of slots in
    /// use ("10/10") in labels `label_px` high. `to_scale`, one line
    /// however many the slots, read against a client's copies.
    fn new(cell: Rect, slots: usize, label_px: f64, to_scale: bool) -> Row {
        let largest = (cell.h * 0.7).clamp(3.0, 16.0);
        let narrow = cell.w < NARROW_ROW_PX;
        let label_w = match Row::holds_label(cell, label_px) {
            true => label_px * if narrow { 3.4 } else { 3.9 },
            false => 0.0,
        };
        let queue_start = cell.x + 6.0 + Row::number_w(cell, label_px);
        let available = cell.w * if narrow { 0.4 } else { 0.5 };
        let one_line = (available / slots.max(1) as f64).min(largest);
        let per_line = ((available / largest).floor() as usize).max(1);
        let count_w = COUNT_W.max(3.0 * DIGIT_EM * label_px + 4.0);
        // Box borders (4), the gap before the box (6), the queue's length.
        let room = cell.x + cell.w - label_w - queue_start - 10.0 - count_w;
        let (pitch, per_line) = if to_scale || one_line >= 5.0 {
            (pitch_holding_a_queue(room, slots as u32, largest), slots.max(1))
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
        Row {
            pitch,
            side,
            queue_pitch: pitch,
            per_line,
            box_rect,
            queue_end: box_x - 6.0,
            queue_start,
            count_w,
            to_scale,
            slots: slots as u32,
        }
    }

    /// The row's one scale for slots and queue, where it is drawn to one.
    pub(super) fn scale(&self) -> Option<RowScale> {
        self.to_scale.then_some(RowScale {
            pitch: self.pitch,
            slots: self.slots,
            slots_from: self.box_rect.x + 2.0,
            queue_end: self.queue_end,
            lane_start: self.queue_start + self.count_w,
        })
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
        cell.h >= least_labelled_row_h(label_px)
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
    pub(super) fn trace_slots(&self, context: &CanvasRenderingContext2d, server: &ServerView, busy: bool) {
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

    /// The lane's length (CSS px), from past the room for a count written
    /// at its entrance to the row's box.
    pub(super) fn lane_px(&self) -> f64 {
        (self.queue_end - self.queue_start - self.count_w).max(0.0)
    }

    /// The row's own pitch and its lane's length (CSS px), from which the
    /// layout's pitch for queues is found.
    pub(super) fn lane(&self) -> (f64, f64) {
        (self.pitch, self.lane_px())
    }

    /// The cell of the `k`-th queued request, counted from the box: as
    /// high as a slot's, as wide as its pitch allows.
    pub(super) fn queue_cell(&self, k: usize) -> Rect {
        let w = queue_cell_w(self.queue_pitch).min(self.side);
        let x = self.queue_end - (k + 1) as f64 * self.queue_pitch;
        let y = self.box_rect.y + (self.box_rect.h - self.side) / 2.0;
        Rect { x, y, w, h: self.side }
    }

    /// The centre of a slot's or a queued request's cell (CSS px).
    pub(super) fn centre_of(&self, stand: Stand) -> (f64, f64) {
        let b = self.box_rect;
        match stand {
            Stand::Slot(_) if self.per_line == 0 => (b.x + 2.0 + self.side / 2.0, b.y + b.h / 2.0),
            Stand::Slot(slot) => self.slot_cell(slot).centre(),
            Stand::Queued(k) => self.queue_cell(k).centre(),
        }
    }

    /// Queue cells that fit between the row's entrance and its box, less
    /// room at the entrance for the queue's length written beside it.
    pub(super) fn queue_capacity(&self) -> usize {
        // A lane made to hold whole cells holds them, rounding aside.
        let cells = self.lane_px() / self.queue_pitch;
        (cells + 1e-9).floor().max(0.0) as usize
    }

    /// Where a queue of `queued` begins, with its length written left of
    /// it (CSS px): the lane left of it is free.
    pub(super) fn queue_from(&self, queued: u32) -> f64 {
        let label = if queued > 0 { self.count_w } else { 0.0 };
        self.queue_end - self.queue_length(queued) - label
    }

    /// How a queue of `queued` is drawn: a cell a request, as far as the
    /// lane goes (see `lbsim::ui::marks::QueueMark`).
    pub(super) fn queue_mark(&self, queued: u32) -> QueueMark {
        queue_to_scale(queued, self.queue_capacity())
    }

    /// How far left of its box a queue of `queued` reaches (CSS px).
    pub(super) fn queue_length(&self, queued: u32) -> f64 {
        self.queue_mark(queued).cells() * self.queue_pitch
    }
}
