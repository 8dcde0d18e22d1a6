//! Imbalance, measured: how unevenly work is spread across servers, and
//! whether the unevenness is temporal (servers take turns being busier, and
//! it evens out) or persistent (some servers are always busier).
//!
//! Each sample interval gives every server's work started, per unit of its
//! speed. The variance of those values over all (server, interval) pairs
//! splits exactly into the variance of the servers' own means (persistent)
//! and the average variance of each server around its mean (temporal). The
//! lag-1 autocorrelation of each server's deviation from the interval's mean
//! says how long an imbalance lasts: near 0, it is gone by the next quarter
//! second; near 1, it stays.

use serde::Serialize;

/// Running sums over the measured samples.
#[derive(Clone, Debug, Default)]
pub struct ImbalanceSums {
    samples: u64,
    /// Per server: sum of work, and of work squared.
    sum: Vec<f64>,
    sum_sq: Vec<f64>,
    /// Per server: the last deviation from its interval's mean.
    last_deviation: Vec<f64>,
    /// Sums of deviation × previous deviation, and of deviation squared
    /// (from the second sample on, so both cover the same pairs).
    lagged: f64,
    squared: f64,
}

/// The split, as the summary reports it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Imbalance {
    /// Standard deviation over mean of work across servers and intervals.
    pub cv: f64,
    /// The share of that variance that is persistent (between servers'
    /// means); the rest is temporal.
    pub persistent_share: f64,
    /// Lag-1 autocorrelation of servers' deviations from the interval mean.
    pub autocorrelation: f64,
}

impl ImbalanceSums {
    pub fn new(servers: usize) -> ImbalanceSums {
        ImbalanceSums {
            sum: vec![0.0; servers],
            sum_sq: vec![0.0; servers],
            last_deviation: vec![0.0; servers],
            ..ImbalanceSums::default()
        }
    }

    /// A server joins: its sums start at zero, as if it had had no work.
    pub fn add_server(&mut self) {
        self.sum.push(0.0);
        self.sum_sq.push(0.0);
        self.last_deviation.push(0.0);
    }

    /// One interval: each server's work, and their mean.
    pub fn add(&mut self, work: &[f64], mean: f64) {
        for (i, &w) in work.iter().enumerate() {
            self.sum[i] += w;
            self.sum_sq[i] += w * w;
            let deviation = w - mean;
            if self.samples > 0 {
                self.lagged += deviation * self.last_deviation[i];
                self.squared += deviation * deviation;
            }
            self.last_deviation[i] = deviation;
        }
        self.samples += 1;
    }

    pub fn imbalance(&self) -> Imbalance {
        let (n, t) = (self.sum.len() as f64, self.samples as f64);
        if n == 0.0 || t < 2.0 {
            return Imbalance::default();
        }
        let grand = self.sum.iter().sum::<f64>() / (n * t);
        let total = (self.sum_sq.iter().sum::<f64>() / (n * t) - grand * grand).max(0.0);
        let persistent = self.sum.iter().map(|s| (s / t - grand).powi(2)).sum::<f64>() / n;
        Imbalance {
            cv: if grand > 0.0 { total.sqrt() / grand } else { 0.0 },
            persistent_share: if total > 0.0 { (persistent / total).min(1.0) } else { 0.0 },
            autocorrelation: if self.squared > 0.0 { self.lagged / self.squared } else { 0.0 },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_always_busier_is_persistent_and_taking_turns_is_temporal() {
        let mut always = ImbalanceSums::new(2);
        let mut turns = ImbalanceSums::new(2);
        for t in 0..100 {
            always.add(&[3.0, 1.0], 2.0);
            let (a, b) = if t % 2 == 0 { (3.0, 1.0) } else { (1.0, 3.0) };
            turns.add(&[a, b], 2.0);
        }
        let (always, turns) = (always.imbalance(), turns.imbalance());
        // Both: values 3 and 1 around 2, standard deviation 1, cv 0.5.
        assert!((always.cv - 0.5).abs() < 1e-12 && (turns.cv - 0.5).abs() < 1e-12);
        assert!((always.persistent_share - 1.0).abs() < 1e-12);
        assert!(turns.persistent_share.abs() < 1e-12);
        assert!((always.autocorrelation - 1.0).abs() < 1e-12);
        assert!((turns.autocorrelation + 1.0).abs() < 1e-12);
    }
}
