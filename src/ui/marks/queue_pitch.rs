//! How finely every row draws its queue once a queue outgrows its lane.
//! Cut at the lane's start, chapter 2's queues of 34 and 49 at 500
//! clients were both drawn 176 px long, and a reader read queues of 27 to
//! 41 as "fairly even" (reader 14). Where the longest queue of the run so
//! far runs past a lane at the rows' own pitch, every row draws its queue
//! on one finer pitch, so that lengths stay comparable from row to row;
//! the pitch follows the longest seen, not the longest now, so it only
//! shrinks while the run goes on (a scale changing frame to frame would
//! have a queue seem to grow as its neighbour shrinks), and it is the rows'
//! own again when the run starts over. Past [`LEAST_QUEUE_PITCH`] a queue
//! is cut as before, with its count written.

/// The finest pitch (CSS px) a queue is drawn at: a cell of 2 px and a
/// gap of 1, so that a queue of 2 still reads as two cells beside one of
/// 3 (chapter 5's point, where random's queues of 10 to 23 draw every
/// row finer). Finer, a request would be a sliver with no gap beside it.
pub const LEAST_QUEUE_PITCH: f64 = 3.0;

/// The least gap (CSS px) between two queued requests' cells: a thinner
/// one blurs into a faint stripe.
const LEAST_GAP: f64 = 1.0;

/// The shortest lane (CSS px) that draws its queue finer: a phone's
/// lanes (about 40 px) hold 13 requests at the finest pitch, too few to
/// set long queues apart, and a queue of 4 drawn 12 px long beside its
/// count read as a count and a tick (the presenter view on a 390 × 844
/// phone asks 18 px of a queue of 3 or more); there queues keep their
/// rows' pitch and are cut, their counts written.
const LEAST_FINER_LANE_PX: f64 = 100.0;

/// The pitch (CSS px) every row draws its queue at, where a queue of
/// `longest` (the run's longest so far) runs past a lane: `lanes` gives
/// each row's own pitch and its lane's length (CSS px). `None` where every
/// lane holds `longest` at its own pitch: each row keeps it. A lane too
/// short for a single cell does not set the pitch (it cuts any queue).
pub fn shared_queue_pitch(lanes: &[(f64, f64)], longest: u32) -> Option<f64> {
    let holds = |&(pitch, lane): &(f64, f64)| (lane / pitch + 1e-9).floor() >= f64::from(longest);
    let lanes: Vec<(f64, f64)> = lanes.iter().copied().filter(|&(pitch, lane)| lane >= pitch).collect();
    let short = lanes.iter().any(|&(_, lane)| lane < LEAST_FINER_LANE_PX);
    if longest == 0 || short || lanes.iter().all(holds) {
        return None;
    }
    let fitting = lanes.iter().map(|&(_, lane)| lane / f64::from(longest)).fold(f64::INFINITY, f64::min);
    Some(fitting.max(LEAST_QUEUE_PITCH))
}

/// How wide a queued request's cell is drawn at `pitch` (CSS px): a fifth
/// of it, or [`LEAST_GAP`], left between two cells.
pub fn queue_cell_w(pitch: f64) -> f64 {
    pitch - (pitch * 0.2).max(LEAST_GAP)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Chapter 2's rows at 1440 × 900: 8 px a request, lanes of 176 px
    /// (22 requests).
    const CHAPTER_2: [(f64, f64); 3] = [(8.0, 176.0), (8.0, 176.0), (8.0, 176.0)];

    #[test]
    fn rows_keep_their_pitch_while_the_longest_queue_fits_its_lane() {
        assert_eq!(shared_queue_pitch(&CHAPTER_2, 0), None);
        assert_eq!(shared_queue_pitch(&CHAPTER_2, 22), None, "22 cells of 8 px fill 176 px");
    }

    #[test]
    fn a_longer_queue_sets_one_pitch_that_fits_it_on_every_row() {
        let pitch = shared_queue_pitch(&CHAPTER_2, 49).expect("49 runs past 22 cells");
        assert!((pitch * 49.0 - 176.0).abs() < 1e-9, "49 fills the lane: {pitch}");
        // 34 and 49 drawn at it, where both were cut at 176 px.
        let (short, long) = (34.0 * pitch, 49.0 * pitch);
        assert!((long / short - 49.0 / 34.0).abs() < 1e-9, "{short:.1} px against {long:.1} px");
    }

    #[test]
    fn the_shortest_lane_sets_the_pitch() {
        let lanes = [(8.0, 176.0), (6.0, 120.0)];
        assert_eq!(shared_queue_pitch(&lanes, 20), None, "20 cells of 6 px fit 120 px");
        assert_eq!(shared_queue_pitch(&lanes, 30), Some(4.0), "120 px / 30");
        let no_lane = [(8.0, 176.0), (8.0, 3.0)];
        assert_eq!(shared_queue_pitch(&no_lane, 44), Some(4.0), "a lane without a cell sets nothing");
    }

    #[test]
    fn the_pitch_only_shrinks_as_the_longest_grows_and_stops_at_its_floor() {
        let pitches: Vec<f64> =
            (0..200).map(|longest| shared_queue_pitch(&CHAPTER_2, longest).unwrap_or(8.0)).collect();
        assert!(pitches.windows(2).all(|w| w[1] <= w[0]), "{pitches:?}");
        let finest = shared_queue_pitch(&CHAPTER_2, 58);
        assert!(finest > Some(LEAST_QUEUE_PITCH), "176 px / 58: {finest:?}");
        assert_eq!(shared_queue_pitch(&CHAPTER_2, 59), Some(LEAST_QUEUE_PITCH), "176 px / 59, under 3");
        assert_eq!(shared_queue_pitch(&CHAPTER_2, 150), Some(LEAST_QUEUE_PITCH), "cut past the floor");
    }

    /// A phone's lanes of about 40 px keep their rows' pitch, however
    /// long the queue: at the finest, a queue of 4 was 12 px beside its
    /// count.
    #[test]
    fn short_lanes_keep_their_rows_pitch() {
        let phone = [(6.0, 42.0), (6.0, 42.0)];
        assert_eq!(shared_queue_pitch(&phone, 31), None);
        assert_eq!(shared_queue_pitch(&[(6.0, 99.0), (6.0, 176.0)], 40), None, "one short lane is enough");
        let long_enough = shared_queue_pitch(&[(6.0, 100.0), (6.0, 176.0)], 40);
        assert_eq!(long_enough, Some(LEAST_QUEUE_PITCH), "100 px / 40, under the floor");
    }

    #[test]
    fn queued_requests_are_cells_with_a_gap_between() {
        assert!((queue_cell_w(8.0) - 6.4).abs() < 1e-9, "a fifth of the pitch left between");
        assert!((queue_cell_w(3.6) - 2.6).abs() < 1e-9, "a pixel left between");
        assert_eq!(queue_cell_w(LEAST_QUEUE_PITCH), 2.0, "the finest cell");
    }
}
