//! One scale along a server's row for its slots and its queue, where a
//! client's copies of the servers' loads are drawn against the truth
//! (chapter 6). A copy is a load, busy slots and queue together; its
//! needle must stand where that load would end on the row, and the row's
//! own fill must end where the true load does, so that the gap between
//! them is the copy's error. Drawn with the slots as cells and the queue
//! as bars scaled to the longest queue, every copy above the slots ("17"
//! on ten slots) stood at one place, the row's end, and the gap vanished
//! exactly where the copy was most wrong. Here a queued request takes a
//! slot's width: the lane left of the slots holds a queue as long as the
//! slots, and a longer one (or a copy of one) is cut at the lane's start
//! with a mark saying so. Every row is drawn so, with copies or not: a
//! queued request as wide as a slot, its lane holding [`LANE_REQUESTS`]
//! where the row has room ([`pitch_holding_a_queue`]).

/// The row, in CSS px: slot cells of `pitch` from `slots_from` rightwards,
/// queue cells of the same pitch from `queue_end` leftwards, no further
/// than `lane_start`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RowScale {
    pub pitch: f64,
    pub slots: u32,
    pub slots_from: f64,
    pub queue_end: f64,
    pub lane_start: f64,
}

/// Where a load ends on a row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Place {
    pub x: f64,
    /// Whether the load runs past the lane's start, where it is cut.
    pub runs_off: bool,
}

impl RowScale {
    /// Queue cells the lane holds.
    pub fn lane_cells(&self) -> u32 {
        ((self.queue_end - self.lane_start) / self.pitch).floor().max(0.0) as u32
    }

    /// Where a load of `load` (busy slots and queue) ends: at the right
    /// end of its busy slots while it fits in them, else at the far end of
    /// a queue of the rest, else cut at the lane's start.
    pub fn place(&self, load: u32) -> Place {
        if load <= self.slots {
            return Place { x: self.slots_from + f64::from(load) * self.pitch, runs_off: false };
        }
        let queued = load - self.slots;
        let runs_off = queued > self.lane_cells();
        let x = self.queue_end - f64::from(queued.min(self.lane_cells())) * self.pitch;
        Place { x, runs_off }
    }
}

/// The requests a row's lane is given room for, beside its slots: chapter
/// 3's queues beside a slowed server run from 12 to 51, chapter 5's
/// random from 10 to 23, chapter 2's at 500 clients from 27 to 46. Chapter
/// 6 gave its lane as many cells as slots, ten, and chapters 2 to 5 six at
/// least, three of which counted requests and the rest a bar scaled to
/// the longest queue: 17 and 51 queued were drawn four and six cells long
/// (reader 16).
pub const LANE_REQUESTS: u32 = 24;
/// The finest pitch (CSS px) a row's lane is drawn at to hold
/// [`LANE_REQUESTS`]: a request more is a step a reader sees, and three
/// queued requests on a phone's presenter view are 18 px long.
pub const FINEST_PITCH: f64 = 6.0;
/// The queue cells a row's lane holds at least, where its room is too
/// short for [`LANE_REQUESTS`]: a lane of two (chapter 5 at 1440 × 900,
/// where ten slots took half the row) drew every queue of 1 to 5 as the
/// same cell, and a lane of none (chapter 3 on a phone, at
/// [`FINEST_PITCH`]) drew every queue as its cut's mark alone.
pub const LEAST_LANE_CELLS: u32 = 6;
/// The least pitch of a row drawn as one line of cells (CSS px).
pub const LEAST_PITCH: f64 = 5.0;
/// The widest pitch of a row drawn as one line of cells (CSS px): a long
/// row gives its lane more requests, not larger cells. Chapter 1's lone
/// server's row at 1440 × 900, 11.3 px a cell, held 24 and drew queues of
/// 26 and 108 alike; at 8 px it holds 38.
pub const WIDEST_PITCH: f64 = 8.0;

/// The pitch of a row whose `room` (CSS px, for slots and lane together)
/// holds its `slots` and a lane of [`LANE_REQUESTS`] requests, no finer
/// than [`FINEST_PITCH`]; where that leaves the lane less than
/// [`LEAST_LANE_CELLS`], finer, to [`LEAST_PITCH`]; never larger than
/// `largest` nor [`WIDEST_PITCH`]. Slots and queued requests share one cell size, so that a
/// copy's error is read in cells and a queue's length against the slots'.
/// A queue longer than its lane is cut at its start.
pub fn pitch_holding_a_queue(room: f64, slots: u32, largest: f64) -> f64 {
    let long_lane = room / f64::from(slots + LANE_REQUESTS);
    let least_lane = room / f64::from(slots + LEAST_LANE_CELLS);
    long_lane.max(FINEST_PITCH.min(least_lane)).max(LEAST_PITCH).min(largest).min(WIDEST_PITCH)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Chapter 6's row at 1440 × 900: ten slots of 8 px from x = 200, the
    /// lane from 120 to 194 (nine cells).
    fn row() -> RowScale {
        RowScale { pitch: 8.0, slots: 10, slots_from: 200.0, queue_end: 194.0, lane_start: 120.0 }
    }

    #[test]
    fn a_load_within_the_slots_ends_at_its_last_busy_slot() {
        assert_eq!(row().place(0), Place { x: 200.0, runs_off: false });
        assert_eq!(row().place(6), Place { x: 248.0, runs_off: false });
        assert_eq!(row().place(10), Place { x: 280.0, runs_off: false });
    }

    #[test]
    fn a_copy_of_17_stands_five_cells_from_a_truth_of_12() {
        // The sixth reader's case: both were drawn at the row's end.
        let (copy, truth) = (row().place(17), row().place(12));
        assert_eq!(truth, Place { x: 178.0, runs_off: false });
        assert_eq!(copy, Place { x: 138.0, runs_off: false });
        assert_eq!(truth.x - copy.x, 5.0 * 8.0, "the copy's error of five, in cells");
    }

    #[test]
    fn a_load_past_the_lane_is_cut_at_its_start_and_says_so() {
        assert_eq!(row().lane_cells(), 9);
        assert_eq!(row().place(19), Place { x: 122.0, runs_off: false });
        assert_eq!(row().place(20), Place { x: 122.0, runs_off: true });
        assert_eq!(row().place(44), Place { x: 122.0, runs_off: true });
    }

    #[test]
    fn the_pitch_holds_the_slots_and_a_lane_of_twenty_four_requests() {
        // Chapter 3's row at 1440 × 900: 219 px for ten slots and the lane.
        let pitch = pitch_holding_a_queue(219.0, 10, 15.7);
        assert!((pitch - 219.0 / 34.0).abs() < 1e-9);
        let row = RowScale {
            pitch,
            slots: 10,
            slots_from: 219.0 - 10.0 * pitch,
            queue_end: 219.0 - 10.0 * pitch - 6.0,
            lane_start: 0.0,
        };
        assert_eq!(row.lane_cells(), 23, "the lane's 6 px gap before the slots aside");
        // The slowed server's 17 drawn 17 cells long, a neighbour's 51 cut
        // at the lane's start (its count written beside it).
        let drawn = |queued: u32| crate::ui::marks::queue_to_scale(queued, row.lane_cells() as usize);
        assert_eq!(drawn(17).cells(), 17.0);
        assert_eq!(drawn(12).cells() / drawn(18).cells(), 12.0 / 18.0, "in proportion");
        assert_eq!(drawn(51), crate::ui::marks::QueueMark::RunsOff(23));
        assert_eq!(pitch_holding_a_queue(1_000.0, 10, 16.0), WIDEST_PITCH, "a long row's lane holds more");
        assert_eq!(pitch_holding_a_queue(170.0, 10, 16.0), FINEST_PITCH, "a shorter row's lane holds fewer");
        // Chapter 3 on a phone: 80 px, the lane six cells of 5 px, where
        // at 6 px the slots took the whole row.
        assert_eq!(pitch_holding_a_queue(80.0, 10, 16.0), 5.0);
        assert_eq!(pitch_holding_a_queue(50.0, 10, 16.0), LEAST_PITCH, "never finer");
        assert_eq!(pitch_holding_a_queue(100.0, 10, 4.0), 4.0, "never larger than the row's cells");
        assert_eq!(pitch_holding_a_queue(68.0, 0, 16.0), FINEST_PITCH, "no slots: no division by zero");
    }
}
