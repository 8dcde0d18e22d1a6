//! The scale a picture's queues are drawn to, shared by every row of it
//! (and by a twin's picture beside it). Scaled to the longest queue drawn
//! at that moment, chapter 1's lone server's queue was its own longest and
//! filled its lane at any length, also as it drained. Here the scale
//! remembers the longest queue of the last [`HOLD_S`] simulated seconds
//! (so it pauses with the run and does not follow the frame rate), then
//! lets it go over [`EASE_S`] more: a queue that drains is drawn shrinking
//! against the longest it was, and a short queue after a long one is drawn
//! short. A queue that grows to new lengths is still its own longest, and
//! fills the lane: chapter 1's lone row has six cells, three of which
//! count 0 to 3, and a queue of 13 and one of 51 both fill it.

use std::collections::VecDeque;

/// How long the longest queue is remembered, in simulated seconds.
pub const HOLD_S: f64 = 5.0;
/// How long it then takes to let it go, in simulated seconds.
pub const EASE_S: f64 = 5.0;

/// The longest queues of the last seconds of a run.
#[derive(Clone, Debug, Default)]
pub struct QueueScale {
    /// Simulated time (s) and longest queue of each frame that no later
    /// frame's queue equals or passes: the longest first.
    peaks: VecDeque<(f64, u32)>,
    last_s: f64,
}

impl QueueScale {
    /// Notes the longest queue drawn at `now_s` (simulated seconds) and
    /// gives the scale every queue of the picture is drawn to: the longest
    /// remembered, eased. A run started over (its time going back) starts
    /// the memory afresh.
    pub fn observe(&mut self, now_s: f64, longest: u32) -> u32 {
        if now_s < self.last_s {
            self.peaks.clear();
        }
        self.last_s = now_s;
        while self.peaks.back().is_some_and(|&(_, queued)| queued <= longest) {
            self.peaks.pop_back();
        }
        self.peaks.push_back((now_s, longest));
        while self.peaks.front().is_some_and(|&(at, _)| now_s - at >= HOLD_S + EASE_S) {
            self.peaks.pop_front();
        }
        self.peaks.iter().map(|&(at, queued)| eased(queued, now_s - at)).max().unwrap_or(0)
    }
}

/// A queue of `queued` remembered `age_s` seconds on: whole while held,
/// then shrinking evenly to nothing.
fn eased(queued: u32, age_s: f64) -> u32 {
    let kept = (1.0 - (age_s - HOLD_S).max(0.0) / EASE_S).clamp(0.0, 1.0);
    (f64::from(queued) * kept).ceil() as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::marks::queue_mark;

    #[test]
    fn the_longest_queue_is_held_for_five_seconds_then_eased_away_over_five_more() {
        let mut scale = QueueScale::default();
        assert_eq!(scale.observe(0.0, 0), 0);
        assert_eq!(scale.observe(1.0, 40), 40);
        assert_eq!(scale.observe(2.0, 10), 40, "a shorter queue is drawn to the longest held");
        assert_eq!(scale.observe(6.0, 10), 40, "held five seconds");
        assert_eq!(scale.observe(8.5, 10), 20, "halfway eased: 40 × 0.5");
        assert_eq!(scale.observe(11.0, 10), 10, "let go: the longest since");
        assert_eq!(scale.observe(30.0, 3), 3);
    }

    #[test]
    fn a_longer_queue_raises_the_scale_at_once_and_paused_time_holds_it() {
        let mut scale = QueueScale::default();
        scale.observe(0.0, 12);
        assert_eq!(scale.observe(0.5, 30), 30);
        // Paused: frames at one simulated moment let nothing go.
        for _ in 0..100 {
            assert_eq!(scale.observe(4.0, 5), 30);
        }
    }

    #[test]
    fn a_run_started_over_forgets_the_queues_of_the_last() {
        let mut scale = QueueScale::default();
        scale.observe(12.0, 50);
        assert_eq!(scale.observe(0.0, 2), 2);
    }

    #[test]
    fn a_queue_draining_after_a_long_one_is_drawn_shrinking() {
        // Chapter 1's server given back its speed: 51 queued, then 30 and
        // 13 as it drains, on a lane of six cells. Each was drawn filling
        // the lane, scaled to itself.
        let mut scale = QueueScale::default();
        let drawn: Vec<f64> = [(15.0, 51), (15.5, 30), (16.0, 13)]
            .into_iter()
            .map(|(at, queued)| queue_mark(queued, scale.observe(at, queued), 6).cells())
            .collect();
        assert_eq!(drawn[0], 6.0, "the longest fills the lane");
        assert!(drawn.windows(2).all(|w| w[1] < w[0]), "drawn {drawn:?}");
        assert!(drawn[0] - drawn[2] >= 2.0, "51 and 13 two cells apart at least: {drawn:?}");
        for queued in 0..=3 {
            assert_eq!(queue_mark(queued, 51, 6).cells(), f64::from(queued), "the head's cells");
        }
    }
}
