//! How an embed runs ahead, headless, while its sentences have no point to
//! make yet (no bounce so far, a twin that has not parted from the run, a
//! scheduled change far off), so that a reader who scrolls to it meets the
//! point rather than the warm-up; and how that run ahead spreads over the
//! page's frames so that each keeps its time to draw in.
//!
//! The run is reached through [`Ahead`], so that the rule is tested here
//! with a run and a clock made up for it; the browser's view is one.

use super::guess::run_ahead_s;
use crate::time::Time;

/// How far an embed runs ahead at most to get to its point (simulated
/// seconds), in steps of how long (simulated ms) or how many events
/// (a few milliseconds' work in the browser, whatever the scenario's
/// size), and for how long a page's frame at most (wall ms), shared by
/// every view running ahead in it.
pub const LIMIT_S: f64 = 20.0;
pub const STEP_MS: f64 = 100.0;
pub const STEP_EVENTS: u64 = 5_000;
pub const BUDGET_MS: f64 = 8.0;

/// What running ahead needs of a run (a view's simulation and its twin).
pub trait Ahead {
    /// The run's simulated time.
    fn now(&self) -> Time;
    /// Whether the run has stopped for good.
    fn halted(&self) -> bool;
    /// The earliest the run's sentences could have their point: before it
    /// none is asked whether they have.
    fn earliest(&self) -> Time;
    /// Whether the run's sentences have their point now.
    fn has_point(&self) -> bool;
    /// Advances the run by `ms` of simulated time, or by `events` if it
    /// gets there first.
    fn advance(&mut self, ms: f64, events: u64);
}

/// The view that runs ahead: whether it does at all (only an embed does),
/// whether it asks a question first (then it runs through its warm-up
/// only, see [`run_ahead_s`]), and its scenario's warm-up.
#[derive(Clone, Copy, Debug)]
pub struct Goal {
    pub runs_ahead: bool,
    pub asks: bool,
    pub warmup_s: f64,
}

/// Where a view's run ahead stands.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunAhead {
    /// Whether the run has got to its point since it started.
    arrived: bool,
    /// The wall milliseconds the last step took, so that a frame stops
    /// before a step would overrun its budget.
    step_wall_ms: f64,
}

impl RunAhead {
    /// Whether the run has got to its point since it (last) started.
    pub fn arrived(&self) -> bool {
        self.arrived
    }

    /// The run starts from its seed again: it has its point to get to.
    pub fn start_over(&mut self) {
        self.arrived = false;
    }

    /// Runs `run` ahead for `goal` until the wall clock `wall_ms` reads
    /// `until`, a step at least each frame, so that a long run ahead
    /// spreads over frames, drawn as they pass.
    pub fn run(&mut self, goal: Goal, (wall_ms, until): (impl Fn() -> f64, f64), run: &mut impl Ahead) {
        self.arrived |= !goal.runs_ahead || run.halted();
        if self.arrived {
            return;
        }
        let limit = Time::from_secs(run_ahead_s(goal.asks, goal.warmup_s, LIMIT_S));
        // Up to the earliest the sentences could be ready, no summary is
        // needed to know they are not.
        let floor = run.earliest().min(limit);
        let mut stepped = false;
        while !self.arrived && (!stepped || wall_ms() + self.step_wall_ms <= until) {
            let now = run.now();
            if now >= floor {
                self.arrived = now >= limit || (!goal.asks && run.has_point());
                if self.arrived {
                    return;
                }
            }
            let step = match floor > now {
                true => (floor - now).as_ms().min(STEP_MS),
                false => STEP_MS,
            };
            let before = wall_ms();
            run.advance(step, STEP_EVENTS);
            self.step_wall_ms = wall_ms() - before;
            stepped = true;
            self.arrived |= run.halted();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// A run made up for the rule: each step costs `step_cost` wall ms on
    /// `clock`; its point comes at `point_at`, it halts at `halts_at`.
    struct Made<'a> {
        now: Time,
        earliest: Time,
        point_at: Option<Time>,
        halts_at: Option<Time>,
        clock: &'a Cell<f64>,
        step_cost: f64,
        steps: Vec<f64>,
    }

    impl<'a> Made<'a> {
        fn new(clock: &'a Cell<f64>) -> Made<'a> {
            Made {
                now: Time::ZERO,
                earliest: Time::ZERO,
                point_at: None,
                halts_at: None,
                clock,
                step_cost: 1.0,
                steps: Vec::new(),
            }
        }
    }

    impl Ahead for Made<'_> {
        fn now(&self) -> Time {
            self.now
        }
        fn halted(&self) -> bool {
            self.halts_at.is_some_and(|at| self.now >= at)
        }
        fn earliest(&self) -> Time {
            self.earliest
        }
        fn has_point(&self) -> bool {
            self.point_at.is_some_and(|at| self.now >= at)
        }
        fn advance(&mut self, ms: f64, events: u64) {
            assert_eq!(events, STEP_EVENTS);
            self.now = self.now + Time::from_ms(ms);
            self.steps.push(ms);
            self.clock.set(self.clock.get() + self.step_cost);
        }
    }

    const EMBED: Goal = Goal { runs_ahead: true, asks: false, warmup_s: 2.0 };

    /// Runs frames of the page's budget until the run arrives; returns
    /// how many it took.
    fn frames(ahead: &mut RunAhead, goal: Goal, run: &mut Made) -> u32 {
        let mut frames = 0;
        while !ahead.arrived() {
            let until = run.clock.get() + BUDGET_MS;
            let clock = run.clock;
            ahead.run(goal, (|| clock.get(), until), run);
            frames += 1;
            assert!(frames < 1_000, "the run ahead never arrives");
        }
        frames
    }

    #[test]
    fn a_view_that_is_no_embed_never_runs_ahead() {
        let clock = Cell::new(0.0);
        let mut run = Made::new(&clock);
        let mut ahead = RunAhead::default();
        ahead.run(Goal { runs_ahead: false, ..EMBED }, (|| clock.get(), 8.0), &mut run);
        assert!(ahead.arrived());
        assert!(run.steps.is_empty());
    }

    #[test]
    fn it_steps_to_the_earliest_moment_unasked_then_stops_at_the_point() {
        let clock = Cell::new(0.0);
        let mut run = Made::new(&clock);
        run.earliest = Time::from_ms(250.0);
        run.point_at = Some(Time::from_ms(610.0));
        run.step_cost = 0.0;
        let mut ahead = RunAhead::default();
        assert_eq!(frames(&mut ahead, EMBED, &mut run), 1);
        // To the floor in steps of at most 100 ms, the last cut to land
        // on it; then 100 ms steps until the point.
        assert_eq!(run.steps, [100.0, 100.0, 50.0, 100.0, 100.0, 100.0, 100.0]);
        assert_eq!(run.now, Time::from_ms(650.0));
    }

    #[test]
    fn without_a_point_it_stops_at_its_limit_and_a_view_that_asks_after_its_warm_up() {
        let clock = Cell::new(0.0);
        let mut run = Made::new(&clock);
        run.step_cost = 0.0;
        let mut ahead = RunAhead::default();
        frames(&mut ahead, EMBED, &mut run);
        assert_eq!(run.now, Time::from_secs(LIMIT_S));
        // One that asks runs through its warm-up only, whatever its
        // sentences say: the point is for the reader to watch.
        let mut run = Made::new(&clock);
        run.step_cost = 0.0;
        run.point_at = Some(Time::from_ms(500.0));
        let mut ahead = RunAhead::default();
        frames(&mut ahead, Goal { asks: true, ..EMBED }, &mut run);
        assert_eq!(run.now, Time::from_secs(2.0));
        // Started over, it runs ahead again.
        ahead.start_over();
        assert!(!ahead.arrived());
    }

    #[test]
    fn a_long_run_ahead_spreads_over_frames_a_step_at_least_in_each() {
        let clock = Cell::new(0.0);
        let mut run = Made::new(&clock);
        run.step_cost = 3.0;
        let mut ahead = RunAhead::default();
        let until = BUDGET_MS;
        ahead.run(EMBED, (|| clock.get(), until), &mut run);
        // Steps of 3 ms in a budget of 8: the third would overrun it.
        assert_eq!(run.steps.len(), 2);
        assert!(!ahead.arrived());
        // A frame with its budget already spent still takes one step.
        let spent = clock.get() + BUDGET_MS + 1.0;
        clock.set(spent);
        ahead.run(EMBED, (|| clock.get(), spent - 1.0), &mut run);
        assert_eq!(run.steps.len(), 3);
        // Over the 20 s limit, 200 steps of 100 ms in frames of two.
        let frames = frames(&mut ahead, EMBED, &mut run);
        assert_eq!((run.steps.len(), frames), (200, 99));
    }

    #[test]
    fn a_run_that_halts_has_arrived() {
        let clock = Cell::new(0.0);
        let mut run = Made::new(&clock);
        run.halts_at = Some(Time::from_ms(300.0));
        let mut ahead = RunAhead::default();
        frames(&mut ahead, EMBED, &mut run);
        assert_eq!(run.now, Time::from_ms(300.0));
    }
}
