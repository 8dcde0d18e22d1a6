//! Repeated fillings and what they average to. Each trial has a seed of its
//! own, made from the experiment's seed and the trial's number, so the trials
//! may run in any order on any number of threads and give the same figures.

use super::{hash, theory, Bins, Method, Spread, Theory};
use crate::metrics::standard_deviation;
use serde::Serialize;

/// One method's experiment: `balls` into `bins`, trial after trial.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Experiment {
    pub balls: u64,
    pub bins: usize,
    pub method: Method,
    pub seed: u64,
}

/// The seed of trial `trial` of an experiment seeded `seed`.
pub fn trial_seed(seed: u64, trial: u64) -> u64 {
    hash::splitmix64(seed ^ hash::splitmix64(trial))
}

impl Experiment {
    /// The spread after trial `trial`'s filling.
    pub fn trial(&self, trial: u64) -> Spread {
        let mut bins = Bins::new(self.bins, self.method, trial_seed(self.seed, trial));
        bins.throw(self.balls);
        bins.spread()
    }
}

/// A mean over trials and its standard error (the trials' standard
/// deviation over √k; 0 with one trial).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    pub mean: f64,
    pub se: f64,
}

impl Estimate {
    pub fn of(values: &[f64]) -> Estimate {
        let k = values.len().max(1) as f64;
        let mean = values.iter().sum::<f64>() / k;
        Estimate { mean, se: standard_deviation(values.iter().copied()) / k.sqrt() }
    }
}

/// One method's result over its trials, beside theory.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outcome {
    pub method: Method,
    /// Bins drawn per ball (1 for random; none for round-robin and hash).
    pub choices: Option<usize>,
    pub trials: usize,
    pub max_minus_mean: Estimate,
    pub max_minus_min: Estimate,
    pub theory: Theory,
}

impl Outcome {
    /// From the spreads of the experiment's trials, in trial order.
    pub fn of(experiment: &Experiment, spreads: &[Spread]) -> Outcome {
        let above: Vec<f64> = spreads.iter().map(|s| s.max_minus_mean).collect();
        let range: Vec<f64> = spreads.iter().map(|s| f64::from(s.max_minus_min)).collect();
        Outcome {
            method: experiment.method,
            choices: experiment.method.choices(),
            trials: spreads.len(),
            max_minus_mean: Estimate::of(&above),
            max_minus_min: Estimate::of(&range),
            theory: theory::of(experiment.method, experiment.balls, experiment.bins),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_by_hand() {
        // Values 1..=5: sd √2.5, se √(2.5 / 5) = √0.5.
        let estimate = Estimate::of(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(estimate.mean, 3.0);
        assert!((estimate.se - 0.5f64.sqrt()).abs() < 1e-12);
        assert_eq!(Estimate::of(&[7.0]), Estimate { mean: 7.0, se: 0.0 });
    }

    #[test]
    fn trials_differ_and_repeat() {
        let experiment = Experiment { balls: 1_000, bins: 10, method: Method::Random, seed: 1 };
        assert_eq!(experiment.trial(3), experiment.trial(3));
        let spreads: Vec<Spread> = (0..20).map(|t| experiment.trial(t)).collect();
        assert!(spreads.iter().any(|s| *s != spreads[0]), "{spreads:?}");
        assert_ne!(trial_seed(1, 0), trial_seed(0, 1));
    }
}
