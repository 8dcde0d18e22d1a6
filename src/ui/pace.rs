//! How far the simulation moves each frame: wall time since the last frame
//! times the speed, with two caps so that a slow frame never snowballs.
//!
//! The wall time one frame may account for is capped (a tab coming back from
//! the background resumes where it was, with no catch-up), and so is the
//! number of events one frame may process. The event cap follows a measured
//! rate so the simulation's share of a frame stays near a fixed budget; when
//! the cap bites the simulation simply runs slower than asked, owing nothing.
//!
//! Whether a view gets frames at all is here too ([`Sight`]): out of sight
//! it rests, and a brief one (a spike, an opening trip) shows a still
//! picture until most of it is in sight.

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
    /// Simulated time per wall time over recent frames (a moving average).
    actual_speed: f64,
}

impl Default for Pace {
    fn default() -> Pace {
        Pace { last_frame_ms: None, events_per_ms: 2_000.0, actual_speed: 1.0 }
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

    /// Records that a frame of `wall_ms` moved the simulation `sim_ms`.
    pub fn achieved(&mut self, sim_ms: f64, wall_ms: f64) {
        self.actual_speed += 0.1 * (sim_ms / wall_ms - self.actual_speed);
    }

    /// Simulated time per wall time over recent frames: below the speed
    /// asked once the event cap bites.
    pub fn actual_speed(&self) -> f64 {
        self.actual_speed
    }
}

/// What a view does with one of the page's frames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// Nothing: out of sight, in a hidden tab, or waiting with its still
    /// picture drawn.
    Rest,
    /// Draws the run at its present moment without running it: the view
    /// waits for more of it to come in sight, and the reader should meet
    /// its clients and servers rather than a blank box.
    Still,
    /// Runs, and draws.
    Run,
}

/// Whether a view is in sight, whether the still picture it shows
/// while it waits for more of it to come in sight has been drawn (once is
/// enough: nothing runs while it waits), and whether it is at rest.
#[derive(Default)]
pub struct Sight {
    /// Scrolled into sight, as the page's observer last said: not until it
    /// first says so, so that a view never in sight never runs.
    on_screen: bool,
    still_drawn: bool,
    /// The view wanted no frame after its last turn (see
    /// [`Sight::takes_turn`]).
    at_rest: bool,
}

impl Sight {
    /// A view's sight as it mounts, `on_screen` if its box meets the
    /// viewport then (so that a view in sight draws in the page's first
    /// frame, before the observer first reports).
    pub fn new(on_screen: bool) -> Sight {
        Sight { on_screen, ..Sight::default() }
    }

    /// Notes whether the view wanted another frame after its turn: one
    /// running does; one paused, over or out of sight does not.
    pub fn wanted_more(&mut self, more: bool) {
        self.at_rest = !more;
    }

    /// Whether the view takes its turn in a frame that something outside
    /// the page's loop `asked` for (an event, a scroll, a view mounted), or
    /// one the loop goes on to for other views: a view at rest keeps the
    /// picture it drew, which would be drawn again the same (chapter 2's
    /// spike, over, was drawn sixty times a second while the view below it
    /// ran).
    pub fn takes_turn(&self, asked: bool) -> bool {
        asked || !self.at_rest
    }

    pub fn set_on_screen(&mut self, on_screen: bool) {
        self.on_screen = on_screen;
    }

    pub fn on_screen(&self) -> bool {
        self.on_screen
    }

    /// What the view does with a frame of a tab `tab_shown` or hidden.
    /// `in_sight_to_run` (see [`in_sight_to_run`]) measures the page, so it
    /// is asked only of a view on screen in a shown tab.
    pub fn turn(&mut self, tab_shown: bool, in_sight_to_run: impl FnOnce() -> bool) -> Turn {
        if !tab_shown || !self.on_screen {
            return Turn::Rest;
        }
        if in_sight_to_run() {
            return Turn::Run;
        }
        match std::mem::replace(&mut self.still_drawn, true) {
            false => Turn::Still,
            true => Turn::Rest,
        }
    }
}

/// How much of a brief view's picture must be in sight before it runs
/// whatever the page's scroll: nearly all of it, or of the window's
/// height when the picture is the taller.
const BRIEF_WHOLE: f64 = 0.9;

/// How much will do once the reader has come to the view's chapter, its
/// top above [`READER_AT`] of the window: half.
const BRIEF_HALF: f64 = 0.5;

/// Where the top of a chapter stands, as a share of the window's height
/// from its top, once the reader has scrolled to it.
const READER_AT: f64 = 0.25;

/// Whether what a view shows is over in seconds: a spike, or the opening
/// trip of a view that starts with one request (`first=one`) not yet
/// shown.
pub fn is_brief(demand: Demand, opening_over: bool) -> bool {
    demand == Demand::Spike || !opening_over
}

/// Where a view stands in a window `window_h` tall: its picture from
/// `picture.0` to `picture.1` and the top of the chapter that holds it
/// (the view's own top where no chapter does, as in an embed), in CSS px
/// from the window's top.
#[derive(Clone, Copy, Debug)]
pub struct Place {
    pub picture: (f64, f64),
    pub chapter_top: f64,
    pub window_h: f64,
}

/// Whether a view at `place` is in sight enough to run. Any of its
/// picture is enough for steady demand. A `brief` view waits for nearly
/// all of its picture, or for half of it once its chapter's top is in the
/// window's upper quarter: started as its picture's top edge came into
/// sight, chapter 2's spike was over while the reader was still reading
/// the text above it; asked for all of it, it stayed still with its
/// heading at the top of a 1440 × 900 window and half its picture in
/// sight (from 681 px). Half alone was not enough: chapter 1's picture is
/// as much in sight at the page's load, under the introduction the reader
/// is reading, its opening trip over before they came to it.
pub fn in_sight_to_run(brief: bool, place: Place) -> bool {
    let (shown, most) = place.shown();
    let come_to = place.chapter_top <= READER_AT * place.window_h;
    match brief {
        true => shown > 0.0 && (shown >= BRIEF_WHOLE * most || (come_to && shown >= BRIEF_HALF * most)),
        false => shown > 0.0,
    }
}

/// Whether nearly all of the picture at `place` is in sight (or of the
/// window's height, when the picture is the taller): the reader can see
/// what happens in it, not only that something does.
pub fn wholly_in_sight(place: Place) -> bool {
    let (shown, most) = place.shown();
    shown > 0.0 && shown >= BRIEF_WHOLE * most
}

impl Place {
    /// How much of the picture is in sight (CSS px), and the most that
    /// could be.
    fn shown(self) -> (f64, f64) {
        let (top, bottom) = self.picture;
        (bottom.min(self.window_h) - top.max(0.0), (bottom - top).min(self.window_h))
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
    fn the_speed_achieved_moves_a_tenth_of_the_way_to_each_frames() {
        let mut pace = Pace::default();
        assert_eq!(pace.actual_speed(), 1.0, "as asked, before any frame");
        // A frame of 20 ms that moved the simulation 120 ms: speed 6.
        pace.achieved(120.0, 20.0);
        assert!((pace.actual_speed() - 1.5).abs() < 1e-12);
        // Held back by the event cap, frames fall short of the speed asked,
        // and the estimate follows them down.
        for _ in 0..200 {
            pace.achieved(20.0, 20.0);
        }
        assert!((pace.actual_speed() - 1.0).abs() < 1e-6);
    }

    #[test]
    fn a_spike_or_an_opening_runs_once_most_of_its_picture_is_in_sight() {
        let (spike, steady) = (is_brief(Demand::Spike, true), is_brief(Demand::Continuous, true));
        assert!(!steady && spike);
        assert!(is_brief(Demand::Continuous, false), "an opening not yet shown is brief too");
        let at = |picture, chapter_top| Place { picture, chapter_top, window_h: 900.0 };
        // Chapter 2's picture, 412 px tall, its top 120 px in sight of a
        // 900 px window: the reader is still reading the text above.
        assert!(!in_sight_to_run(spike, at((780.0, 1192.0), 0.0)));
        assert!(in_sight_to_run(steady, at((780.0, 1192.0), 0.0)));
        // Its heading at the window's top, its picture from 681 px: the
        // reader has come to it, and half the picture is in sight.
        assert!(in_sight_to_run(spike, at((681.0, 1093.0), -29.0)));
        // Chapter 1's at the page's load: as much of it in sight, under
        // the introduction.
        assert!(!in_sight_to_run(spike, at((686.0, 1098.0), 307.0)));
        // Scrolled on, its picture whole in sight.
        assert!(in_sight_to_run(spike, at((486.0, 898.0), 107.0)));
        assert!(in_sight_to_run(spike, at((110.0, 522.0), 2_000.0)), "whole, whatever the chapter");
        // Taller than the window: nearly all the window will do.
        let tall = Place { picture: (-200.0, 1200.0), chapter_top: 400.0, window_h: 844.0 };
        assert!(in_sight_to_run(spike, tall));
        assert!(!in_sight_to_run(spike, at((1000.0, 1680.0), -500.0)), "out of sight");
        // Chapter 2 runs with its heading at the top, but the reader sees
        // only half of what happens; scrolled on, all of it.
        assert!(!wholly_in_sight(at((681.0, 1093.0), -29.0)));
        assert!(wholly_in_sight(at((486.0, 898.0), 107.0)));
        assert!(wholly_in_sight(tall), "nearly all of the window");
        assert!(!wholly_in_sight(at((1000.0, 1680.0), -500.0)));
    }

    #[test]
    fn a_view_waiting_to_be_in_sight_draws_its_still_picture_once_then_runs_once_in_sight() {
        let mut sight = Sight::default();
        let never_measured = || unreachable!("a view out of sight is not measured");
        assert_eq!(sight.turn(true, never_measured), Turn::Rest, "not yet reported in sight");
        sight.set_on_screen(true);
        assert_eq!(sight.turn(false, never_measured), Turn::Rest, "a hidden tab");
        assert_eq!(sight.turn(true, || false), Turn::Still, "its top edge in sight: drawn, not run");
        assert_eq!(sight.turn(true, || false), Turn::Rest, "drawn once is enough");
        sight.set_on_screen(false);
        sight.set_on_screen(true);
        assert_eq!(sight.turn(true, || false), Turn::Rest, "scrolled away and back, still drawn");
        assert_eq!(sight.turn(true, || true), Turn::Run, "most of it in sight");
        assert_eq!(sight.turn(true, || true), Turn::Run);
    }

    #[test]
    fn a_view_at_rest_takes_only_the_frames_asked_for() {
        let mut sight = Sight::new(true);
        assert!(sight.takes_turn(false), "a view mounted takes the frames that go on");
        sight.wanted_more(true);
        assert!(sight.takes_turn(false), "running, every frame");
        sight.wanted_more(false);
        assert!(!sight.takes_turn(false), "paused: not the frames that go on for other views");
        assert!(sight.takes_turn(true), "but every frame asked for (a click, a scroll)");
        sight.wanted_more(true);
        assert!(sight.takes_turn(false), "playing again");
    }
}
