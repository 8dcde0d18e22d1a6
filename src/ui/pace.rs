//! How far the simulation moves each frame: wall time since the last frame
//! times the speed, with two caps so that a slow frame never snowballs.
//!
//! The wall time one frame may account for is capped (a tab coming back from
//! the background resumes where it was, with no catch-up), and so is the
//! number of events one frame may process. The event cap follows a measured
//! rate so the simulation's share of a frame stays near a fixed budget; when
//! the cap bites the simulation simply runs slower than asked, owing nothing.

use crate::scenario::Demand;

/// The most wall time one frame may account for, in milliseconds.
const MAX_FRAME_MS: f64 = 100.0;
/// The wall time the simulation may use in one frame, in milliseconds.
const SIMULATION_BUDGET_MS: f64 = 5.0;
/// Fewest events a frame may process, however slow the measured rate.
const MIN_EVENTS_PER_FRAME: u64 = 500;

pub struct Pace {
    last_frame_ms: Option<f64>,
    /// Measured events per wall millisecond (a moving average).
    events_per_ms: f64,
}

impl Default for Pace {
    fn default() -> Pace {
        Pace { last_frame_ms: None, events_per_ms: 2_000.0 }
    }
}

impl Pace {
    /// The wall milliseconds this frame accounts for (0 on the first frame
    /// after a pause).
    pub fn wall_step(&mut self, now_ms: f64) -> f64 {
        let step = self.last_frame_ms.map_or(0.0, |last| (now_ms - last).clamp(0.0, MAX_FRAME_MS));
        self.last_frame_ms = Some(now_ms);
        step
    }

    /// Forgets the last frame, so the next one starts afresh.
    pub fn pause(&mut self) {
        self.last_frame_ms = None;
    }

    pub fn event_cap(&self) -> u64 {
        ((self.events_per_ms * SIMULATION_BUDGET_MS) as u64).max(MIN_EVENTS_PER_FRAME)
    }

    /// Records that `events` took `wall_ms`; only frames with enough work
    /// to time reliably move the estimate.
    pub fn observe(&mut self, events: u64, wall_ms: f64) {
        if events >= MIN_EVENTS_PER_FRAME && wall_ms > 0.5 {
            let rate = events as f64 / wall_ms;
            self.events_per_ms += 0.2 * (rate - self.events_per_ms);
        }
    }
}

/// How much of a brief view must be in sight before it runs: of its
/// height, or of the window's when the view is the taller.
const BRIEF_IN_SIGHT: f64 = 0.6;

/// Whether what a view shows is over in seconds: a spike, or the opening
/// trip of a view that starts with one request (`first=one`) not yet
/// shown.
pub fn is_brief(demand: Demand, opening_over: bool) -> bool {
    demand == Demand::Spike || !opening_over
}

/// Whether a view, its box from `top` to `bottom` in a window `window_h`
/// tall (CSS px), is in sight enough to run. Any of it is enough for
/// steady demand; a `brief` view waits for most of it: started as its top
/// edge came into sight, chapter 2's spike was over while the reader was
/// still reading the text above it, and chapter 1's first trip too.
pub fn in_sight_to_run(brief: bool, (top, bottom): (f64, f64), window_h: f64) -> bool {
    let shown = bottom.min(window_h) - top.max(0.0);
    match brief {
        true => shown > 0.0 && shown >= BRIEF_IN_SIGHT * (bottom - top).min(window_h),
        false => shown > 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_accounts_for_the_wall_time_since_the_last_up_to_a_cap() {
        let mut pace = Pace::default();
        assert_eq!(pace.wall_step(1_000.0), 0.0, "the first frame has nothing to account for");
        assert_eq!(pace.wall_step(1_016.5), 16.5);
        assert_eq!(pace.wall_step(1_016.0), 0.0, "a clock going back moves nothing");
        assert_eq!(pace.wall_step(5_000.0), MAX_FRAME_MS, "a tab coming back does not catch up");
        pace.pause();
        assert_eq!(pace.wall_step(9_000.0), 0.0, "after a pause the next frame starts afresh");
    }

    #[test]
    fn the_event_cap_follows_the_measured_rate_within_the_budget() {
        let mut pace = Pace::default();
        assert_eq!(pace.event_cap(), 10_000, "2,000 events a millisecond for 5 ms");
        pace.observe(4_000, 1.0);
        // A fifth of the way from 2,000 to 4,000 events a millisecond.
        assert_eq!(pace.event_cap(), 12_000);
        pace.observe(MIN_EVENTS_PER_FRAME - 1, 100.0);
        pace.observe(100_000, 0.4);
        assert_eq!(pace.event_cap(), 12_000, "frames too small to time are not counted");
        for _ in 0..100 {
            pace.observe(MIN_EVENTS_PER_FRAME, 1_000.0);
        }
        assert_eq!(pace.event_cap(), MIN_EVENTS_PER_FRAME, "however slow, a frame processes some events");
    }

    #[test]
    fn a_spike_or_an_opening_runs_once_most_of_its_view_is_in_sight() {
        let (spike, steady) = (is_brief(Demand::Spike, true), is_brief(Demand::Continuous, true));
        assert!(!steady && spike);
        assert!(is_brief(Demand::Continuous, false), "an opening not yet shown is brief too");
        // Chapter 2's 680 px view, its top 120 px in sight of a 900 px window.
        assert!(!in_sight_to_run(spike, (780.0, 1460.0), 900.0));
        assert!(in_sight_to_run(steady, (780.0, 1460.0), 900.0));
        assert!(in_sight_to_run(spike, (110.0, 790.0), 900.0));
        // Taller than the window: most of the window will do.
        assert!(in_sight_to_run(spike, (-200.0, 1200.0), 844.0));
        assert!(!in_sight_to_run(spike, (1000.0, 1680.0), 900.0), "out of sight");
    }
}
