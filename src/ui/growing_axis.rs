//! Where a chart's axis ends during a run: further only when the data
//! needs it, in steps of 1, 2 and 5 × 10^k, never back until the run
//! starts over, and gliding to each new end rather than jumping. Chapter
//! 1's waits chart reached whatever its data needed at each draw, so its
//! end moved with every wobble of the p99 (0–40, 0–50, 0–150, 0–400 ms in
//! one reading) and the same pile looked different at each look (reader
//! 13).

/// Wall milliseconds an axis takes to glide to a new end.
pub const GLIDE_MS: f64 = 600.0;

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
}

impl GrowingAxis {
    /// An axis that ends at `least` until its data needs more, gliding to
    /// each new end over [`GLIDE_MS`] unless `reduced_motion`.
    pub fn new(least: f64, reduced_motion: bool) -> GrowingAxis {
        let glide_ms = if reduced_motion { 0.0 } else { GLIDE_MS };
        GrowingAxis { least, from: least, to: least, since_ms: f64::NEG_INFINITY, glide_ms }
    }

    /// The end to draw at wall time `now_ms` for data that needs the axis
    /// to reach `needed`: where it ends already if that is far enough,
    /// else gliding on to the next step at or past `needed`.
    pub fn end(&mut self, needed: f64, now_ms: f64) -> f64 {
        if needed > self.to {
            self.from = self.drawn(now_ms);
            self.to = step_at_least(needed);
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
        *self = GrowingAxis::new(self.least, self.glide_ms == 0.0);
    }
}

/// The least of 1, 2 and 5 × 10^k at or past `v` (1 for nothing to show).
pub fn step_at_least(v: f64) -> f64 {
    if v <= 0.0 || !v.is_finite() {
        return 1.0;
    }
    let magnitude = libm::pow(10.0, libm::log10(v).floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
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
