//! The measured period cut into consecutive batches of equal length, each
//! with its own histogram: the raw material of confidence intervals by
//! batch means.
//!
//! Batches start one second long. When a run outgrows [`MAX_BATCHES`] of
//! them, neighbours merge in pairs and batches double in length, so a long
//! run ends with between 16 and 32 batches, each long compared with how
//! long queues remember their past: the condition under which batch
//! statistics are nearly independent.

use super::Histogram;

/// Batches kept at most; a run past this many merges them in pairs.
pub const MAX_BATCHES: usize = 32;

#[derive(Clone, Debug)]
pub struct Batches {
    batches: Vec<Histogram>,
    /// Slices (of the recorder's slice length) per batch.
    length: u64,
    /// How many measured slices have been added, counting empty ones.
    slices: u64,
}

impl Batches {
    pub fn new(first_length: u64) -> Batches {
        Batches { batches: Vec::new(), length: first_length.max(1), slices: 0 }
    }

    /// Adds the measured slice `offset` (0 for the first after the
    /// warm-up). Slices arrive in order; one never added counts as empty.
    pub fn add(&mut self, offset: u64, slice: &Histogram) {
        while offset / self.length >= MAX_BATCHES as u64 {
            self.merge_pairs();
        }
        let batch = (offset / self.length) as usize;
        if self.batches.len() <= batch {
            self.batches.resize(batch + 1, Histogram::default());
        }
        self.batches[batch].merge(slice);
        self.slices = self.slices.max(offset + 1);
    }

    fn merge_pairs(&mut self) {
        let merged = self
            .batches
            .chunks(2)
            .map(|pair| {
                let mut both = pair[0].clone();
                if let Some(second) = pair.get(1) {
                    both.merge(second);
                }
                both
            })
            .collect();
        self.batches = merged;
        self.length *= 2;
    }

    /// The batches whose every slice has been added, oldest first.
    pub fn complete(&self) -> &[Histogram] {
        let complete = (self.slices / self.length) as usize;
        &self.batches[..complete.min(self.batches.len())]
    }

    /// Slices per batch.
    pub fn length(&self) -> u64 {
        self.length
    }

    /// Everything added, merged.
    pub fn total(&self) -> Histogram {
        let mut total = Histogram::default();
        for batch in &self.batches {
            total.merge(batch);
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slice(values: &[u64]) -> Histogram {
        let mut h = Histogram::default();
        values.iter().for_each(|&v| h.record(v));
        h
    }

    #[test]
    fn slices_group_into_batches_and_only_whole_ones_are_complete() {
        let mut b = Batches::new(2);
        b.add(0, &slice(&[1]));
        b.add(1, &slice(&[2, 3]));
        b.add(2, &slice(&[4]));
        assert_eq!(b.complete().iter().map(Histogram::count).collect::<Vec<_>>(), vec![3]);
        assert_eq!(b.total().count(), 4);
        // A slice never added (nothing happened) still completes its batch.
        b.add(4, &slice(&[]));
        assert_eq!(b.complete().iter().map(Histogram::count).collect::<Vec<_>>(), vec![3, 1]);
    }

    #[test]
    fn a_long_run_merges_neighbours_and_doubles_the_length() {
        let mut b = Batches::new(1);
        for offset in 0..MAX_BATCHES as u64 {
            b.add(offset, &slice(&[offset]));
        }
        assert_eq!((b.complete().len(), b.length()), (MAX_BATCHES, 1));
        b.add(MAX_BATCHES as u64, &slice(&[99]));
        assert_eq!(b.length(), 2);
        assert_eq!(b.complete().len(), MAX_BATCHES / 2);
        assert!(b.complete().iter().all(|batch| batch.count() == 2));
        assert_eq!(b.complete()[3].quantiles(&[0.0, 1.0]), vec![Some(6), Some(7)]);
        assert_eq!(b.total().count(), MAX_BATCHES as u64 + 1);
        // Far ahead: merged as often as needed.
        b.add(1_000, &slice(&[5]));
        assert_eq!(b.length(), 32);
        assert_eq!(b.total().count(), MAX_BATCHES as u64 + 2);
    }
}
