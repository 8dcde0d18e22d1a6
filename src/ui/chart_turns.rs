//! Which of a view's charts is drawn in a frame: the topology is drawn on
//! every frame, the charts one at most, in turn at a throttled rate while
//! the run plays, so that they never cost the animation its frames; a
//! chart whose data or size changed is drawn first. A chart with no room
//! on the page (a tab not shown, folded away) waits until it has some.
//!
//! And how large a chart with no room is drawn for a picture of its own
//! (a download, a poster).

/// Wall milliseconds between two charts drawn in turn while the run plays.
pub const INTERVAL_MS: f64 = 120.0;

/// A chart drawn for a picture while it has no room on the page is at
/// least this big (CSS pixels): a picture of its own.
pub const PICTURE_LEAST: (f64, f64) = (640.0, 360.0);

/// Each chart's turn: whether it waits to be drawn, and whose turn is next.
#[derive(Debug)]
pub struct ChartTurns {
    /// Whether each chart's data or size changed since it was drawn.
    stale: Vec<bool>,
    next: usize,
    last_ms: f64,
}

impl ChartTurns {
    /// The turns of `count` charts, each waiting to be drawn.
    pub fn new(count: usize) -> ChartTurns {
        ChartTurns { stale: vec![true; count], next: 0, last_ms: f64::NEG_INFINITY }
    }

    /// Every chart waits to be drawn: their data changed outside a frame.
    pub fn invalidate(&mut self) {
        self.stale.fill(true);
    }

    /// Chart `index` waits to be drawn: its size changed, or its axes glide.
    pub fn redraw(&mut self, index: usize) {
        self.stale[index] = true;
    }

    /// Whether a chart still waits to be drawn.
    pub fn pending(&self) -> bool {
        self.stale.contains(&true)
    }

    /// The chart to draw in the frame at `now_ms`, if one is due, of the
    /// charts that have `room`: a stale one, or, while `running` and once
    /// [`INTERVAL_MS`] has passed since the last, the next in turn. Those
    /// with no room are not drawn; their size changing when they get some
    /// makes them stale.
    pub fn due(&mut self, room: &[bool], now_ms: f64, running: bool) -> Option<usize> {
        assert_eq!(room.len(), self.stale.len(), "a turn for each chart");
        let count = room.len();
        let next = self.next;
        let in_turn = || (0..count).map(move |k| (next + k) % count).filter(|&i| room[i]);
        if running && now_ms - self.last_ms >= INTERVAL_MS {
            if let Some(next) = in_turn().next() {
                self.stale[next] = true;
            }
        }
        let Some(index) = in_turn().find(|&i| self.stale[i]) else {
            // Only charts with no room can be stale: nothing to draw.
            self.stale.fill(false);
            return None;
        };
        self.stale[index] = false;
        self.next = (index + 1) % count;
        self.last_ms = now_ms;
        Some(index)
    }
}

/// The size a chart with no room on the page is drawn at for a picture: as
/// large as the largest of the charts `shown` (width, height in CSS px),
/// and at least [`PICTURE_LEAST`].
pub fn picture_size(shown: impl IntoIterator<Item = (f64, f64)>) -> (f64, f64) {
    shown.into_iter().fold(PICTURE_LEAST, |(w, h), (sw, sh)| (w.max(sw), h.max(sh)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stale_charts_are_drawn_one_a_frame_then_each_in_turn_at_the_interval() {
        let mut turns = ChartTurns::new(3);
        let room = [true; 3];
        assert_eq!(turns.due(&room, 0.0, false), Some(0));
        assert_eq!(turns.due(&room, 16.0, false), Some(1));
        assert_eq!(turns.due(&room, 32.0, false), Some(2));
        assert!(!turns.pending());
        // Paused, nothing more; running, the next in turn once the
        // interval has passed since the last drawn.
        assert_eq!(turns.due(&room, 48.0, false), None);
        assert_eq!(turns.due(&room, 48.0, true), None);
        assert_eq!(turns.due(&room, 32.0 + INTERVAL_MS, true), Some(0));
        assert_eq!(turns.due(&room, 32.0 + INTERVAL_MS + 16.0, true), None);
        assert_eq!(turns.due(&room, 32.0 + 2.0 * INTERVAL_MS, true), Some(1));
        // A chart resized goes first, out of turn.
        turns.redraw(0);
        assert!(turns.pending());
        assert_eq!(turns.due(&room, 32.0 + 2.0 * INTERVAL_MS + 16.0, true), Some(0));
        assert_eq!(turns.due(&room, 32.0 + 3.0 * INTERVAL_MS + 16.0, true), Some(1));
    }

    #[test]
    fn a_chart_with_no_room_waits_and_loses_its_turn_to_the_next() {
        let mut turns = ChartTurns::new(3);
        let room = [true, false, true];
        assert_eq!(turns.due(&room, 0.0, true), Some(0));
        assert_eq!(turns.due(&room, 16.0, true), Some(2));
        assert_eq!(turns.due(&room, 32.0, true), None, "chart 1 has no room");
        // Nothing with room waits: the roomless chart's staleness is
        // dropped too, its size changing will bring it back.
        assert!(!turns.pending());
        assert_eq!(turns.due(&room, 16.0 + INTERVAL_MS, true), Some(0));
        assert_eq!(turns.due(&room, 16.0 + 2.0 * INTERVAL_MS, true), Some(2));
        turns.redraw(1);
        assert_eq!(turns.due(&[true; 3], 16.0 + 2.0 * INTERVAL_MS + 16.0, true), Some(1));
    }

    #[test]
    fn a_view_with_no_chart_draws_none() {
        let mut turns = ChartTurns::new(0);
        assert!(!turns.pending());
        assert_eq!(turns.due(&[], 0.0, true), None);
    }

    #[test]
    fn a_picture_of_a_chart_with_no_room_is_as_large_as_the_largest_shown() {
        assert_eq!(picture_size([]), PICTURE_LEAST);
        assert_eq!(picture_size([(300.0, 500.0), (900.0, 200.0)]), (900.0, 500.0));
    }
}
