//! A quantity recorded once per value and read two ways: over a sliding
//! window of recent simulated time (for live charts) and over the whole run
//! after the warm-up (for summaries).
//!
//! Values go into a ring of time slices, laid out so that one begins exactly
//! where the warm-up ends. When a slice slides out of the window it is added
//! to the settled batches if it began at or after the end of the warm-up.
//! Memory stays bounded however long the simulation runs.

use super::{Batches, Histogram};
use crate::time::Time;

#[derive(Clone, Debug)]
pub struct Recorder {
    slices: Vec<Histogram>,
    slice_length: u64,
    /// Added to every time before it is cut into slices, so that the
    /// warm-up's end falls on a slice boundary.
    shift: u64,
    /// Index ((time + shift) / slice_length) of the newest slice, and where it is in `slices`.
    newest: u64,
    newest_slot: usize,
    /// Where the newest slice ends: `advance` has nothing to do before it.
    newest_end: u64,
    /// The first slice after the warm-up.
    first_measured: u64,
    /// Slices that left the window after the warm-up, merged into batches.
    settled: Batches,
}

impl Recorder {
    pub fn new(slice_length: Time, slices: usize, warmup_end: Time) -> Recorder {
        let slice_length = slice_length.0.max(1);
        let shift = (slice_length - warmup_end.0 % slice_length) % slice_length;
        Recorder {
            slices: vec![Histogram::default(); slices.max(1)],
            slice_length,
            shift,
            newest: 0,
            newest_slot: 0,
            newest_end: slice_length,
            first_measured: (warmup_end.0 + shift) / slice_length,
            settled: Batches::new(Time::from_secs(1.0).0 / slice_length),
        }
    }

    /// Slides the window to end at `now`, settling the slices that leave it.
    #[inline]
    pub fn advance(&mut self, now: Time) {
        let shifted = now.0 + self.shift;
        if shifted >= self.newest_end {
            self.slide(shifted);
        }
    }

    /// Slides to the slice holding the (shifted) time `shifted`.
    fn slide(&mut self, shifted: u64) {
        let target = shifted / self.slice_length;
        // The window holds slices (newest - n, newest] and will hold
        // (target - n, target]; those in the first but not the second leave.
        let n = self.slices.len() as u64;
        if target >= n {
            for index in (self.newest + 1).saturating_sub(n)..=self.newest.min(target - n) {
                self.settle(index);
            }
        }
        self.newest = target;
        self.newest_slot = (target % n) as usize;
        self.newest_end = (target + 1).saturating_mul(self.slice_length);
    }

    fn settle(&mut self, index: u64) {
        let slot = (index % self.slices.len() as u64) as usize;
        if self.measures(index) {
            self.settled.add(index - self.first_measured, &self.slices[slot]);
        }
        self.slices[slot].clear();
    }

    pub fn record(&mut self, now: Time, value: u64) {
        self.advance(now);
        self.slices[self.newest_slot].record(value);
    }

    /// Everything recorded within the window, merged into `into`.
    pub fn window_into(&self, into: &mut Histogram) {
        into.clear();
        for slice in &self.slices {
            into.merge(slice);
        }
    }

    /// Whether slice `index` lies after the warm-up.
    fn measures(&self, index: u64) -> bool {
        index >= self.first_measured
    }

    /// Everything recorded after the warm-up.
    pub fn measured(&self) -> Histogram {
        let mut total = self.settled.total();
        let n = self.slices.len() as u64;
        for index in self.newest.saturating_sub(n - 1)..=self.newest {
            if self.measures(index) {
                total.merge(&self.slices[(index % n) as usize]);
            }
        }
        total
    }

    /// The batches of measured time that have left the window, and how
    /// long each is.
    pub fn batches(&self) -> (&[Histogram], Time) {
        (self.settled.complete(), Time(self.settled.length() * self.slice_length))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(r: &Recorder) -> (u64, u64) {
        let mut window = Histogram::default();
        r.window_into(&mut window);
        (window.count(), r.measured().count())
    }

    #[test]
    fn old_values_slide_out_of_the_window_but_stay_measured() {
        let mut r = Recorder::new(Time(10), 3, Time::ZERO);
        r.record(Time(0), 1);
        r.record(Time(15), 2);
        r.record(Time(25), 3);
        assert_eq!(counts(&r), (3, 3));
        r.advance(Time(31));
        assert_eq!(counts(&r), (2, 3));
        r.advance(Time(1_000));
        assert_eq!(counts(&r), (0, 3));
        r.record(Time(1_001), 4);
        assert_eq!(counts(&r), (1, 4));
    }

    #[test]
    fn slices_before_the_warmup_are_not_measured() {
        let mut r = Recorder::new(Time(10), 2, Time(20));
        for t in (0..60).step_by(5) {
            r.record(Time(t), t);
        }
        // Slices 0 and 1 (times 0..20) are warm-up; 2 to 5 count.
        assert_eq!(r.measured().count(), 8);
        assert_eq!(r.measured().quantile(0.0), Some(20));
        r.advance(Time(10_000));
        assert_eq!(r.measured().count(), 8);
    }

    #[test]
    fn a_warmup_between_slice_boundaries_is_kept_exactly() {
        let mut r = Recorder::new(Time(10), 2, Time(25));
        for t in (0..60).step_by(5) {
            r.record(Time(t), t);
        }
        // Values at 25, 30, ..., 55 count; 20 (just before) does not.
        assert_eq!(r.measured().count(), 7);
        assert_eq!(r.measured().quantile(0.0), Some(25));
        r.advance(Time(10_000));
        assert_eq!(r.measured().count(), 7);
    }
}
