//! A log-linear histogram of non-negative integer values (nanoseconds).
//!
//! Values below 256 are counted exactly; above, each power of two is split
//! into 128 equal buckets, so a reported value (a bucket's midpoint) is within
//! 0.4% of every value in its bucket. Memory grows only with the largest value
//! seen (about 3,300 counters for values up to a second).

const EXACT: u64 = 256;
const SUB_BITS: u32 = 7;
const SUB: u64 = 1 << SUB_BITS;

#[derive(Clone, Debug, Default)]
pub struct Histogram {
    counts: Vec<u64>,
    total: u64,
    sum: u128,
    min: u64,
    max: u64,
}

fn bucket_of(value: u64) -> usize {
    if value < EXACT {
        return value as usize;
    }
    let top_bit = 63 - value.leading_zeros();
    let shift = top_bit - SUB_BITS;
    let mantissa = value >> shift;
    (EXACT + (shift as u64 - 1) * SUB + (mantissa - SUB)) as usize
}

/// The midpoint of a bucket: the value reported for every count in it.
fn bucket_value(index: usize) -> u64 {
    let index = index as u64;
    if index < EXACT {
        return index;
    }
    let shift = (index - EXACT) / SUB + 1;
    let mantissa = (index - EXACT) % SUB + SUB;
    let low = mantissa << shift;
    low + (1u64 << shift) / 2
}

impl Histogram {
    #[inline]
    pub fn record(&mut self, value: u64) {
        let index = bucket_of(value);
        if index >= self.counts.len() {
            self.counts.resize(index + 1, 0);
        }
        self.counts[index] += 1;
        if self.total == 0 || value < self.min {
            self.min = value;
        }
        self.max = self.max.max(value);
        self.total += 1;
        self.sum += value as u128;
    }

    pub fn count(&self) -> u64 {
        self.total
    }

    /// How many recorded values were exactly zero.
    pub fn zeros(&self) -> u64 {
        self.counts.first().copied().unwrap_or(0)
    }

    /// Each bucket holding a count, as (its reported value, its count), in
    /// ascending order: what a chart of the values themselves bins.
    pub fn buckets(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        let counted = self.counts.iter().enumerate().filter(|(_, count)| **count > 0);
        counted.map(|(index, count)| (bucket_value(index).clamp(self.min, self.max), *count))
    }

    /// The exact sum of every value recorded.
    pub fn sum(&self) -> u128 {
        self.sum
    }

    pub fn mean(&self) -> Option<f64> {
        (self.total > 0).then(|| self.sum as f64 / self.total as f64)
    }

    pub fn clear(&mut self) {
        self.counts.iter_mut().for_each(|c| *c = 0);
        self.total = 0;
        self.sum = 0;
        self.min = 0;
        self.max = 0;
    }

    pub fn merge(&mut self, other: &Histogram) {
        if other.total == 0 {
            return;
        }
        if other.counts.len() > self.counts.len() {
            self.counts.resize(other.counts.len(), 0);
        }
        for (mine, theirs) in self.counts.iter_mut().zip(&other.counts) {
            *mine += theirs;
        }
        if self.total == 0 || other.min < self.min {
            self.min = other.min;
        }
        self.max = self.max.max(other.max);
        self.total += other.total;
        self.sum += other.sum;
    }

    /// What was recorded after `earlier`, a copy of this histogram taken
    /// before: the distribution of only the later records (for the browser's
    /// client-experience curve since a setting changed). Their exact minimum
    /// and maximum are unknown, so the ends are bucket values.
    pub fn since(&self, earlier: &Histogram) -> Histogram {
        let mut counts = self.counts.clone();
        for (count, before) in counts.iter_mut().zip(&earlier.counts) {
            *count = count.saturating_sub(*before);
        }
        let ends = |index: Option<usize>| index.map_or(0, bucket_value);
        Histogram {
            total: counts.iter().sum(),
            sum: self.sum.saturating_sub(earlier.sum),
            min: ends(counts.iter().position(|c| *c > 0)),
            max: ends(counts.iter().rposition(|c| *c > 0)),
            counts,
        }
    }

    /// The value at quantile `q` (0 to 1) by nearest rank; the exact minimum
    /// and maximum at the ends. `None` when empty.
    pub fn quantile(&self, q: f64) -> Option<u64> {
        self.quantiles(&[q]).pop().flatten()
    }

    /// Several quantiles in one pass; `qs` must be ascending.
    pub fn quantiles(&self, qs: &[f64]) -> Vec<Option<u64>> {
        if self.total == 0 {
            return vec![None; qs.len()];
        }
        let mut out = Vec::with_capacity(qs.len());
        let mut buckets = self.counts.iter().enumerate();
        let mut seen = 0u64;
        let mut current = 0usize;
        for &q in qs {
            let rank = ((q.clamp(0.0, 1.0) * self.total as f64).ceil() as u64).max(1);
            while seen < rank {
                match buckets.next() {
                    Some((index, count)) => {
                        seen += count;
                        current = index;
                    }
                    None => break,
                }
            }
            let value = bucket_value(current).clamp(self.min, self.max);
            out.push(Some(if rank >= self.total { self.max } else { value }));
        }
        if let (Some(first), Some(q)) = (out.first_mut(), qs.first()) {
            if *q <= 0.0 {
                *first = Some(self.min);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_values_are_exact() {
        let mut h = Histogram::default();
        for v in 0..200 {
            h.record(v);
        }
        assert_eq!(h.quantile(0.5), Some(99));
        assert_eq!(h.quantile(0.0), Some(0));
        assert_eq!(h.quantile(1.0), Some(199));
        assert_eq!(h.mean(), Some(99.5));
    }

    #[test]
    fn relative_error_is_below_half_a_percent() {
        let mut value = 256u64;
        while value < 1 << 40 {
            let reported = bucket_value(bucket_of(value));
            let error = (reported as f64 - value as f64).abs() / value as f64;
            assert!(error <= 0.004, "{value} reported as {reported}");
            value = value * 1013 / 1000 + 1;
        }
    }

    #[test]
    fn buckets_are_contiguous_and_ordered() {
        let mut last = 0;
        for v in (0..1 << 20).step_by(97) {
            let b = bucket_of(v);
            assert!(b >= last);
            last = b;
        }
        assert_eq!(bucket_of(255), 255);
        assert_eq!(bucket_of(256), 256);
        assert_eq!(bucket_of(511), 383);
        assert_eq!(bucket_of(512), 384);
    }

    #[test]
    fn quantiles_by_nearest_rank() {
        let mut h = Histogram::default();
        for v in [10, 20, 30, 40] {
            h.record(v);
        }
        assert_eq!(
            h.quantiles(&[0.0, 0.25, 0.26, 0.5, 0.75, 1.0]),
            vec![Some(10), Some(10), Some(20), Some(20), Some(30), Some(40)]
        );
    }

    #[test]
    fn since_keeps_only_later_records() {
        let mut h = Histogram::default();
        h.record(10);
        h.record(1_000);
        let earlier = h.clone();
        for v in [20, 30, 40] {
            h.record(v);
        }
        let later = h.since(&earlier);
        assert_eq!(later.count(), 3);
        assert_eq!(later.mean(), Some(30.0));
        assert_eq!(later.quantiles(&[0.0, 0.5, 1.0]), vec![Some(20), Some(30), Some(40)]);
        assert_eq!(h.since(&h).quantile(0.5), None);
    }

    #[test]
    fn merge_adds_counts() {
        let mut a = Histogram::default();
        let mut b = Histogram::default();
        a.record(5);
        b.record(1_000_000);
        b.record(3);
        a.merge(&b);
        assert_eq!(a.count(), 3);
        assert_eq!(a.quantile(0.0), Some(3));
        assert_eq!(a.quantile(1.0), Some(1_000_000));
        a.clear();
        assert_eq!(a.quantile(0.5), None);
    }
}
