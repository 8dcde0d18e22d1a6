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
//! with a mark saying so.

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

/// The pitch of a row whose `room` (CSS px, for slots and lane together)
/// holds its `slots` and a queue as long again, at most `largest`: a
/// copy's error is read in cells, so both parts share one cell size.
pub fn pitch_holding_a_queue(room: f64, slots: u32, largest: f64) -> f64 {
    (room / f64::from(2 * slots.max(1))).min(largest)
}

/// The queue cells a row's lane holds at least, where the slots beside it
/// are drawn as one line of cells: a lane of two (chapter 5 at 1440 × 900,
/// where ten slots took half the row) drew every queue of 1 to 5 as the
/// same cell.
pub const LEAST_LANE_CELLS: u32 = 6;

/// The pitch of a row whose `room` (CSS px, for slots and lane together)
/// holds its `slots` and a lane of [`LEAST_LANE_CELLS`], at most `widest`
/// (the slots' own pitch, where the lane needs no more room).
pub fn pitch_leaving_a_lane(room: f64, slots: u32, widest: f64) -> f64 {
    (room / f64::from(slots.max(1) + LEAST_LANE_CELLS)).min(widest)
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
    fn the_pitch_leaves_a_lane_of_six_beside_the_slots_where_the_row_is_short() {
        // Chapter 5's row at 1440 × 900: 203 px for ten slots of 15.7 px
        // and the lane, which then held two cells.
        let pitch = pitch_leaving_a_lane(203.0, 10, 15.7);
        assert!((pitch - 203.0 / 16.0).abs() < 1e-9);
        assert!(((203.0 - 10.0 * pitch) / pitch).floor() >= f64::from(LEAST_LANE_CELLS));
        assert_eq!(pitch_leaving_a_lane(600.0, 10, 15.7), 15.7, "a long row keeps its slots' pitch");
        assert_eq!(pitch_leaving_a_lane(70.0, 0, 16.0), 10.0, "no slots: no division by zero");
    }

    #[test]
    fn the_pitch_holds_the_slots_and_a_queue_as_long_again() {
        assert_eq!(pitch_holding_a_queue(160.0, 10, 16.0), 8.0);
        assert_eq!(pitch_holding_a_queue(1_000.0, 10, 16.0), 16.0, "never larger than a row's cells");
        assert_eq!(pitch_holding_a_queue(40.0, 0, 16.0), 16.0, "no slots: no division by zero");
    }
}
