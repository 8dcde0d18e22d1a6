//! The counts behind a summary's figures of time: running moments, counts
//! of arrivals in windows (for the index of dispersion) and in bins (for
//! the rate over time).

use super::{Dispersion, RateOverTime, RATE_BINS};
use crate::time::Time;

/// Count, mean and sum of squared deviations (Welford's running form).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Moments {
    pub(super) n: u64,
    pub(super) mean: f64,
    m2: f64,
}

impl Moments {
    pub(super) fn add(&mut self, value: f64) {
        self.n += 1;
        let delta = value - self.mean;
        self.mean += delta / self.n as f64;
        self.m2 += delta * (value - self.mean);
    }

    /// `k` zeros at once (Chan et al.'s merge of a group whose mean and
    /// spread are 0): a long gap between arrivals costs one step.
    pub(super) fn add_zeros(&mut self, k: u64) {
        if k == 0 {
            return;
        }
        let n = self.n + k;
        let delta = -self.mean;
        self.m2 += delta * delta * self.n as f64 * k as f64 / n as f64;
        self.mean += delta * k as f64 / n as f64;
        self.n = n;
    }

    /// The sample variance (over n − 1).
    pub(super) fn variance(&self) -> f64 {
        if self.n < 2 {
            0.0
        } else {
            self.m2 / (self.n - 1) as f64
        }
    }
}

/// Counts of arrivals in consecutive windows; the window in progress (the
/// last, cut short by the end of the trace) is left out.
#[derive(Default)]
pub(super) struct Windows {
    current: u64,
    count: u64,
    pub(super) counts: Moments,
}

impl Windows {
    pub(super) fn add(&mut self, window: u64) {
        if window > self.current {
            self.counts.add(self.count as f64);
            self.counts.add_zeros(window - self.current - 1);
            self.current = window;
            self.count = 0;
        }
        self.count += 1;
    }

    pub(super) fn dispersion(&self, window_s: f64) -> Dispersion {
        let c = &self.counts;
        Dispersion {
            window_s,
            windows: c.n,
            mean_count: c.mean,
            index: if c.mean > 0.0 { c.variance() / c.mean } else { 0.0 },
            poisson_standard_error: (2.0 / (c.n - 1) as f64).sqrt(),
        }
    }
}

/// Arrivals in [`RATE_BINS`] bins, each 1, 2 or 5 times a power of ten
/// milliseconds wide; when an arrival falls past the last bin, neighbours
/// merge (by 2 from a width of 1 × 10^k, by 5 from 2 × 10^k).
pub(super) struct Bins {
    width: u64,
    counts: [u64; RATE_BINS],
}

impl Default for Bins {
    fn default() -> Self {
        Bins { width: Time::NANOS_PER_MS, counts: [0; RATE_BINS] }
    }
}

impl Bins {
    pub(super) fn add(&mut self, since: u64) {
        while since / self.width >= RATE_BINS as u64 {
            let leading = self.width / 10u64.pow(self.width.ilog10());
            let factor = if leading == 2 { 5 } else { 2 };
            let mut merged = [0; RATE_BINS];
            for (i, count) in self.counts.iter().enumerate() {
                merged[i / factor] += count;
            }
            self.counts = merged;
            self.width *= factor as u64;
        }
        self.counts[(since / self.width) as usize] += 1;
    }

    /// Arrivals per second in each bin up to the one of the last arrival,
    /// `span` after the first of `requests`; the last bin ends one mean gap
    /// after the last arrival, or at its full width if that is sooner.
    pub(super) fn rates(&self, span: Time, requests: u64) -> RateOverTime {
        let bin_s = Time(self.width).as_secs();
        if span.0 == 0 {
            return RateOverTime { bin_s, last_bin_s: 0.0, per_s: Vec::new() };
        }
        let last = span.0 / self.width;
        let end = span.0.saturating_add(span.0 / (requests - 1));
        let last_bin_s = Time((end - last * self.width).min(self.width)).as_secs();
        let per_s = self.counts[..=last as usize]
            .iter()
            .enumerate()
            .map(|(i, count)| *count as f64 / if i as u64 == last { last_bin_s } else { bin_s })
            .collect();
        RateOverTime { bin_s, last_bin_s, per_s }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moments_take_zeros_in_one_step() {
        let mut one_by_one = Moments::default();
        let mut at_once = Moments::default();
        for value in [3.0, 5.0] {
            one_by_one.add(value);
            at_once.add(value);
        }
        (0..7).for_each(|_| one_by_one.add(0.0));
        at_once.add_zeros(7);
        assert_eq!(one_by_one.n, at_once.n);
        assert!((one_by_one.mean - at_once.mean).abs() < 1e-12);
        assert!((one_by_one.variance() - at_once.variance()).abs() < 1e-12);
    }
}
