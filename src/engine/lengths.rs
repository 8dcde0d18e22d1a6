//! How many requests each session sends: `session_length` every time, or
//! heavy-tailed (seed 001: "if the client population's session sizes are
//! heavy-tailed, the pool has replicas carrying wildly different totals
//! that are stable for the session's duration"). Heavy-tailed lengths are
//! Pareto with tail index `session_length_shape` and mean
//! `session_length`, rounded to whole requests and capped at
//! [`MAX_LENGTH`]; each session's is drawn from its own key (the session's
//! number) in a stream of its own, so it moves no other draw and is the
//! same under every policy.

use crate::rng::{Draw, Keyed};
use crate::scenario::Scenario;

/// The longest session (`session_length`'s limit).
pub const MAX_LENGTH: u32 = 10_000;

pub struct SessionLengths {
    fixed: u32,
    /// Pareto's tail index and scale (its smallest value).
    pareto: Option<(f64, f64)>,
    seed: u64,
    /// The mean length, exactly as the rounding and the cap leave it, so
    /// that `load` keeps its meaning.
    mean: f64,
}

impl SessionLengths {
    pub fn new(scenario: &Scenario, seed: u64) -> SessionLengths {
        let fixed = scenario.session_length;
        let pareto =
            scenario.session_length_shape.map(|shape| (shape, f64::from(fixed) * (shape - 1.0) / shape));
        // The mean of a length L ≥ 1 is 1 + Σ_{k ≥ 1} P(L > k), and L > k
        // exactly when the draw is at least k + ½ (below the cap).
        let mean = match pareto {
            None => f64::from(fixed),
            Some((shape, scale)) => {
                let above = |y: f64| libm::pow(scale / y, shape).min(1.0);
                1.0 + (1..MAX_LENGTH).map(|k| above(f64::from(k) + 0.5)).sum::<f64>()
            }
        };
        SessionLengths { fixed, pareto, seed, mean }
    }

    /// The length of session `number`.
    pub fn of(&self, number: u32) -> u32 {
        let Some((shape, scale)) = self.pareto else { return self.fixed };
        let u = Keyed::new(self.seed ^ u64::from(number)).unit();
        let draw = scale * libm::pow(u, -1.0 / shape);
        (libm::round(draw).min(f64::from(MAX_LENGTH)) as u32).max(1)
    }

    pub fn mean(&self) -> f64 {
        self.mean
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_lengths_are_the_field_and_pareto_ones_keep_their_mean() {
        let mut scenario = Scenario::default();
        let fixed = SessionLengths::new(&scenario, 3);
        assert_eq!((fixed.of(0), fixed.of(77), fixed.mean()), (10, 10, 10.0));
        scenario.set_many([("session_length", "20"), ("session_length_shape", "1.5")]).unwrap();
        let heavy = SessionLengths::new(&scenario, 3);
        // Capping at 10,000 takes (scale/10000)^0.5 × ... off a mean of 20:
        // a little, and rounding adds about as much back near the scale.
        assert!((heavy.mean() - 20.0).abs() < 1.5, "{}", heavy.mean());
        let n = 400_000;
        let lengths: Vec<u32> = (0..n).map(|i| heavy.of(i)).collect();
        let mean = lengths.iter().map(|&l| f64::from(l)).sum::<f64>() / f64::from(n);
        // Shape 1.5 has infinite variance, but the cap bounds it: the
        // standard error of the mean is under sqrt(mean × cap / n) = 0.72.
        assert!((mean - heavy.mean()).abs() < 1.5, "{mean} against {}", heavy.mean());
        assert!(lengths.iter().all(|&l| (1..=MAX_LENGTH).contains(&l)));
        assert!(lengths.iter().filter(|&&l| l > 200).count() > n as usize / 200, "a heavy tail");
        assert_eq!(heavy.of(41), SessionLengths::new(&scenario, 3).of(41));
    }
}
