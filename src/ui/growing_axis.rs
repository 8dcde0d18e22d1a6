//! Where a chart's axis ends during a run: further only when the data
//! needs it, in steps of 1, 2 and 5 × 10^k (a count's axis in finer ones,
//! [`COUNT_STEPS`]), never back until the run starts over, and gliding to
//! each new end rather than jumping. Chapter 1's waits chart reached
//! whatever its data needed at each draw, so its end moved with every
//! wobble of the p99 (0–40, 0–50, 0–150, 0–400 ms in one reading) and the
//! same pile looked different at each look (reader 13).

/// Wall milliseconds an axis takes to glide to a new end.
pub const GLIDE_MS: f64 = 600.0;

/// The steps of a time axis, × 10^k.
const TIME_STEPS: &[f64] = &[1.0, 2.0, 5.0];

/// The steps of a count axis, × 10^k: from one to the next at most 1.5
/// times, so that a bar that needs the axis a quarter past it stands at
/// least half the axis's height. By 1, 2 and 5, chapter 1's tallest bar,
/// 170, needing 212, stood under an axis of 500, its ticks running to 400
/// with nothing there (reader 15).
const COUNT_STEPS: &[f64] = &[1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0];

/// An axis that only grows during a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GrowingAxis {
    /// The end it starts from, and starts over at.
    least: f64,
    /// The end it glides from, the end it glides to, and since when (wall
    /// ms) it glides.
    from: f64,
    to: f64,
    since_ms: f64,
    /// How long a glide lasts (wall ms): none for a reader who asked for
    /// reduced motion.
    glide_ms: f64,
    /// The steps it grows by, × 10^k.
    steps: &'static [f64],
}

impl GrowingAxis {
    /// An axis that ends at `least` until its data needs more, gliding to
    /// each new end over [`GLIDE_MS`] unless `reduced_motion`.
    pub fn new(least: f64, reduced_motion: bool) -> GrowingAxis {
        let glide_ms = if reduced_motion { 0.0 } else { GLIDE_MS };
        GrowingAxis {
            least,
            from: least,
            to: least,
            since_ms: f64::NEG_INFINITY,
            glide_ms,
            steps: TIME_STEPS,
        }
    }

    /// An axis of counts: as [`GrowingAxis::new`], in [`COUNT_STEPS`].
    pub fn counting(least: f64, reduced_motion: bool) -> GrowingAxis {
        GrowingAxis { steps: COUNT_STEPS, ..GrowingAxis::new(least, reduced_motion) }
    }

    /// The end to draw at wall time `now_ms` for data that needs the axis
    /// to reach `needed`: where it ends already if that is far enough,
    /// else gliding on to the next step at or past `needed`.
    pub fn end(&mut self, needed: f64, now_ms: f64) -> f64 {
        if needed > self.to {
            self.from = self.drawn(now_ms);
            self.to = step_in(needed, self.steps);
            self.since_ms = now_ms;
        }
        self.drawn(now_ms)
    }

    /// Where the axis ends at `now_ms`, partway through a glide.
    pub fn drawn(&self, now_ms: f64) -> f64 {
        let t = match self.glide_ms > 0.0 {
            true => ((now_ms - self.since_ms) / self.glide_ms).clamp(0.0, 1.0),
            false => 1.0,
        };
        // Smoothstep: the glide eases in and out.
        let eased = t * t * (3.0 - 2.0 * t);
        self.from + (self.to - self.from) * eased
    }

    /// The end it glides to, or stands at.
    pub fn target(&self) -> f64 {
        self.to
    }

    /// Whether the axis is still gliding to a new end at `now_ms`.
    pub fn gliding(&self, now_ms: f64) -> bool {
        self.drawn(now_ms) < self.to
    }

    /// The run starts over: the axis ends at its least again.
    pub fn restart(&mut self) {
        *self = GrowingAxis { steps: self.steps, ..GrowingAxis::new(self.least, self.glide_ms == 0.0) };
    }
}

/// The least of 1, 2 and 5 × 10^k at or past `v` (1 for nothing to show).
pub fn step_at_least(v: f64) -> f64 {
    step_in(v, TIME_STEPS)
}

/// The least of `steps` × 10^k at or past `v` (1 for nothing to show).
fn step_in(v: f64, steps: &[f64]) -> f64 {
    if v <= 0.0 || !v.is_finite() {
        return 1.0;
    }
    let magnitude = libm::pow(10.0, libm::log10(v).floor());
    steps
        .iter()
        .chain([&10.0])
        .map(|m| m * magnitude)
        .find(|step| *step >= v * (1.0 - 1e-12))
        .unwrap_or(10.0 * magnitude)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_one_two_and_five_times_a_power_of_ten() {
        let steps: Vec<f64> = [0.0, 0.3, 1.0, 1.5, 2.0, 34.0, 41.0, 50.0, 51.0, 260.0, 1_200.0]
            .into_iter()
            .map(step_at_least)
            .collect();
        assert_eq!(steps, [1.0, 0.5, 1.0, 2.0, 2.0, 50.0, 50.0, 50.0, 100.0, 500.0, 2_000.0]);
    }

    /// Reader 13's chapter 1: its waits chart reached 40, 50, 150 and 400
    /// ms at four looks as the p99 wobbled. Told the same wobbles, the
    /// axis grows twice and never comes back.
    #[test]
    fn the_end_only_grows_in_steps_and_never_comes_back_during_a_run() {
        let mut axis = GrowingAxis::new(1.0, true);
        let needs = [0.0, 0.0, 12.0, 30.0, 40.0, 33.0, 48.0, 26.0, 45.0, 150.0, 90.0, 60.0, 400.0, 35.0];
        let ends: Vec<f64> =
            needs.iter().enumerate().map(|(i, need)| axis.end(*need, i as f64 * 100.0)).collect();
        assert_eq!(
            ends,
            [1.0, 1.0, 20.0, 50.0, 50.0, 50.0, 50.0, 50.0, 50.0, 200.0, 200.0, 200.0, 500.0, 500.0]
        );
        axis.restart();
        assert_eq!(axis.end(0.0, 2_000.0), 1.0, "a new run starts from the least");
        assert_eq!(axis.end(30.0, 2_100.0), 50.0);
    }

    /// Reader 15's chapter 1: a tallest bar of 170 under an axis of 500
    /// (ticks to 400), and of 540 under 1,000. A count's axis, a quarter
    /// past the tallest bar, grows in finer steps: 300 and 800, and the
    /// tallest bar stands at least half the axis's height at any count.
    #[test]
    fn a_count_s_axis_grows_in_steps_that_keep_the_tallest_bar_half_its_height() {
        let end = |tallest: f64| GrowingAxis::counting(10.0, true).end(tallest * 1.25, 0.0);
        assert_eq!([end(170.0), end(540.0), end(8.0)], [300.0, 800.0, 10.0]);
        for tallest in (8..200_000).step_by(7) {
            let share = f64::from(tallest) / end(f64::from(tallest));
            assert!(share >= 0.5, "a bar of {tallest} stands {share:.2} of its axis");
        }
        let mut axis = GrowingAxis::counting(10.0, true);
        axis.end(500.0, 0.0);
        axis.restart();
        assert_eq!(axis.end(170.0 * 1.25, 0.0), 300.0, "started over, it keeps its steps");
    }

    #[test]
    fn a_new_end_is_reached_by_a_glide_that_eases_in_and_out() {
        let mut axis = GrowingAxis::new(1.0, false);
        assert_eq!(axis.end(40.0, 1_000.0), 1.0, "the glide starts where the axis was");
        assert!(axis.gliding(1_000.0));
        let half = axis.end(40.0, 1_000.0 + GLIDE_MS / 2.0);
        assert!((half - 25.5).abs() < 1e-9, "halfway in time, halfway there: {half}");
        let early = axis.drawn(1_000.0 + GLIDE_MS / 10.0);
        assert!(early > 1.0 && early < 1.0 + 49.0 * 0.1, "eases in: {early}");
        assert_eq!(axis.end(40.0, 1_000.0 + GLIDE_MS), 50.0);
        assert!(!axis.gliding(1_000.0 + GLIDE_MS));
        // Grown again mid-glide, it glides on from where it is drawn.
        let mut axis = GrowingAxis::new(1.0, false);
        axis.end(40.0, 0.0);
        let midway = axis.drawn(GLIDE_MS / 2.0);
        assert_eq!(axis.end(120.0, GLIDE_MS / 2.0), midway, "no jump");
        assert_eq!(axis.end(120.0, GLIDE_MS * 1.5), 200.0);
    }
}
