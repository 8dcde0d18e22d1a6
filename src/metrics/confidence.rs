//! 95% confidence intervals by batch means: a figure measured over the
//! whole run, with an uncertainty from how much the same figure varies from
//! one batch of simulated time to the next (see [`super::Batches`]).
//!
//! For a batch size large compared with how long the system remembers its
//! past, batch figures are nearly independent and nearly normal, so the
//! figure's standard error is the batches' standard deviation over √k, and
//! the interval uses Student's t with k − 1 degrees of freedom. Quantiles
//! are taken over the whole run; their batch values only set the width.

use super::Histogram;
use crate::time::Time;
use serde::Serialize;

/// A figure and the half-width of its 95% confidence interval (`None` with
/// fewer than two batches to judge by).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Interval {
    pub estimate: f64,
    pub half_width: Option<f64>,
}

impl Interval {
    /// `estimate`, with a standard error of `sd / √k` from `k` batches.
    fn from_spread(estimate: f64, sd: f64, k: usize) -> Interval {
        let half_width = (k >= 2).then(|| t_975(k - 1) * sd / (k as f64).sqrt());
        Interval { estimate, half_width }
    }

    /// The figure whose batch values are `batches`.
    pub fn of(estimate: f64, batches: &[f64]) -> Interval {
        Interval::from_spread(estimate, standard_deviation(batches.iter().copied()), batches.len())
    }

    /// `b / a`, two figures measured on aligned batches (the same stretches
    /// of simulated time): the delta method's interval, from the spread of
    /// `b_i − ratio × a_i`. When the two runs share their random numbers,
    /// `a_i` and `b_i` move together and the interval is narrower than with
    /// independent runs of the same length.
    pub fn ratio(b: f64, a: f64, b_batches: &[f64], a_batches: &[f64]) -> Interval {
        if a == 0.0 {
            return Interval { estimate: f64::NAN, half_width: None };
        }
        let ratio = b / a;
        let k = a_batches.len().min(b_batches.len());
        let mean_a = a_batches.iter().take(k).sum::<f64>() / k.max(1) as f64;
        let residuals = b_batches.iter().zip(a_batches).map(|(b, a)| b - ratio * a);
        let sd = standard_deviation(residuals);
        match mean_a > 0.0 {
            true => Interval::from_spread(ratio, sd / mean_a, k),
            false => Interval { estimate: ratio, half_width: None },
        }
    }

    /// The interval's ends, when it has a width. The low end is no lower
    /// than 0: every figure lbsim bounds (a time, a rate, a ratio of two)
    /// is positive, so cutting off the part below 0 loses no coverage,
    /// while a short run's wide interval would otherwise print a negative
    /// ratio ("0.44× (−1.57–2.46)").
    pub fn bounds(&self) -> Option<(f64, f64)> {
        self.half_width.map(|h| ((self.estimate - h).max(0.0), self.estimate + h))
    }
}

/// Mean, median and p99 of a quantity in milliseconds, each with its interval.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Figures {
    pub mean: Interval,
    pub p50: Interval,
    pub p99: Interval,
}

impl Figures {
    /// From the whole run's histogram and its complete batches (nanoseconds).
    pub fn of(whole: &Histogram, batches: &[Histogram]) -> Figures {
        let with_values: Vec<&Histogram> = batches.iter().filter(|b| b.count() > 0).collect();
        let ms = |ns: Option<u64>| ns.map_or(0.0, |ns| Time(ns).as_ms());
        let mean = |h: &Histogram| h.mean().map_or(0.0, |ns| ns / Time::NANOS_PER_MS as f64);
        let figure = |of: &dyn Fn(&Histogram) -> f64| {
            let values: Vec<f64> = with_values.iter().map(|h| of(h)).collect();
            Interval::of(of(whole), &values)
        };
        Figures {
            mean: figure(&mean),
            p50: figure(&|h| ms(h.quantile(0.5))),
            p99: figure(&|h| ms(h.quantile(0.99))),
        }
    }
}

/// The sample standard deviation (n − 1 in the denominator); 0 for fewer than two values.
pub fn standard_deviation(values: impl Iterator<Item = f64> + Clone) -> f64 {
    let n = values.clone().count();
    if n < 2 {
        return 0.0;
    }
    let mean = values.clone().sum::<f64>() / n as f64;
    (values.map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1) as f64).sqrt()
}

/// Student's t at 0.975 with `df` degrees of freedom: the multiplier of a
/// two-sided 95% interval. Tabulated to 30; beyond, the Cornish–Fisher
/// expansion around the normal's 1.96 (within 0.001 of the exact value).
pub fn t_975(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df - 1],
        _ => {
            let (z, n): (f64, f64) = (1.959_964, df as f64);
            let (z3, z5) = (z * z * z, z * z * z * z * z);
            z + (z3 + z) / (4.0 * n) + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * n * n)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_table_joins_the_expansion_smoothly() {
        // Exact values: t(31) = 2.0395, t(60) = 2.0003, t(120) = 1.9799.
        assert!((t_975(31) - 2.0395).abs() < 1e-3);
        assert!((t_975(60) - 2.0003).abs() < 1e-3);
        assert!((t_975(120) - 1.9799).abs() < 1e-3);
        assert!(t_975(30) > t_975(31));
    }

    #[test]
    fn interval_of_batch_means_by_hand() {
        // Values 1..=5: sd = √2.5, se = √0.5, t(4) = 2.776.
        let interval = Interval::of(3.0, &[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert!((interval.half_width.unwrap() - 2.776 * 0.5f64.sqrt()).abs() < 1e-9);
        assert_eq!(Interval::of(3.0, &[3.0]).half_width, None);
        // Two batches far apart: t(1) = 12.706 makes the interval reach
        // below 0, where no figure lbsim bounds can be.
        let wide = Interval::of(1.0, &[0.5, 1.5]);
        assert_eq!(wide.bounds(), Some((0.0, 1.0 + 12.706 * 0.5)));
    }

    #[test]
    fn a_ratio_of_batches_that_move_together_is_sharp() {
        let a = [10.0, 20.0, 30.0, 40.0];
        let together = [5.0, 10.0, 15.0, 20.0];
        let apart = [20.0, 5.0, 15.0, 10.0];
        let sharp = Interval::ratio(12.5, 25.0, &together, &a);
        assert_eq!(sharp.estimate, 0.5);
        assert!(sharp.half_width.unwrap() < 1e-12);
        let loose = Interval::ratio(12.5, 25.0, &apart, &a);
        // Residuals b − a/2 = 15, −5, 0, −10: sd 10.8; over √4 and mean(a) 25.
        let expected = 3.182 * (350.0f64 / 3.0).sqrt() / 2.0 / 25.0;
        assert!((loose.half_width.unwrap() - expected).abs() < 1e-9, "{loose:?} vs {expected}");
    }
}
