//! A histogram over a sliding window of recent simulated time, kept as a ring
//! of slices so memory stays bounded however long the simulation runs.

use super::Histogram;
use crate::time::Time;

#[derive(Clone, Debug)]
pub struct WindowedHistogram {
    slices: Vec<Histogram>,
    slice_length: u64,
    /// Index (time / slice_length) of the newest slice.
    newest: u64,
}

impl WindowedHistogram {
    pub fn new(slice_length: Time, slices: usize) -> WindowedHistogram {
        WindowedHistogram {
            slices: vec![Histogram::default(); slices.max(1)],
            slice_length: slice_length.0.max(1),
            newest: 0,
        }
    }

    /// Drops slices that have slid out of the window ending at `now`.
    pub fn advance(&mut self, now: Time) {
        let target = now.0 / self.slice_length;
        if target <= self.newest {
            return;
        }
        let stale = (target - self.newest).min(self.slices.len() as u64);
        for k in 1..=stale {
            let index = ((self.newest + k) % self.slices.len() as u64) as usize;
            self.slices[index].clear();
        }
        self.newest = target;
    }

    pub fn record(&mut self, now: Time, value: u64) {
        self.advance(now);
        let index = (self.newest % self.slices.len() as u64) as usize;
        self.slices[index].record(value);
    }

    /// Everything recorded within the window, merged into `into`.
    pub fn merged_into(&self, into: &mut Histogram) {
        into.clear();
        for slice in &self.slices {
            into.merge(slice);
        }
    }

    pub fn span(&self) -> Time {
        Time(self.slice_length * self.slices.len() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_values_slide_out() {
        let mut w = WindowedHistogram::new(Time(10), 3);
        w.record(Time(0), 1);
        w.record(Time(15), 2);
        w.record(Time(25), 3);
        let mut merged = Histogram::default();
        w.merged_into(&mut merged);
        assert_eq!(merged.count(), 3);
        w.advance(Time(31));
        w.merged_into(&mut merged);
        assert_eq!(merged.count(), 2);
        w.advance(Time(1_000));
        w.merged_into(&mut merged);
        assert_eq!(merged.count(), 0);
        assert_eq!(w.span(), Time(30));
    }
}
