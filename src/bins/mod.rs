//! Balls into bins: the experiment behind power of two choices, apart from
//! any queue. m balls go one after another into n bins, each bin chosen by
//! a [`Method`]: uniformly at random, the least full of d distinct bins drawn
//! at random, round-robin, or a hash of the ball's number. What it measures
//! is the spread at the end, max − mean and max − min, over many trials,
//! beside what theory says of it ([`theory`]).
//!
//! The seed post (`shared/seeds/003_*`) throws 10⁶ balls into 100 bins and
//! finds a spread (max − min) of about 500 for random and about 4 for best
//! of two. The command line's `lbsim bins` repeats it; the browser's
//! `bins.html` throws balls live. Both use [`Bins`], drawing from the
//! project's generator, so a seed gives the same bins on either.

mod hash;
pub mod theory;
mod trials;

pub use theory::Theory;
pub use trials::{trial_seed, Estimate, Experiment, Outcome};

use crate::policy::{distinct_candidates, lowest, MAX_CHOICES};
use crate::rng::{Draw, SimRng};
use serde::Serialize;

/// Most bins: 10⁷ counts of 4 bytes each.
pub const MAX_BINS: usize = 10_000_000;
/// Most balls in one trial, so that no count can overflow 32 bits.
pub const MAX_BALLS: u64 = 1_000_000_000;
/// Most bins drawn by best of d (the routing policies' own limit).
pub const MAX_D: usize = MAX_CHOICES;

/// How a ball's bin is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// One bin uniformly at random (best of one).
    Random,
    /// `d` ≥ 2 distinct bins at random, the least full kept; ties broken
    /// uniformly at random.
    BestOf(usize),
    /// Bin 0, 1, ..., n − 1, 0, ...
    RoundRobin,
    /// A fixed hash of the ball's number; a trial numbers its balls from a
    /// random start.
    Hash,
}

impl Method {
    /// Best of `d`: random for d = 1. `d` must be from 1 to [`MAX_D`].
    pub fn best_of(d: usize) -> Method {
        debug_assert!((1..=MAX_D).contains(&d));
        if d <= 1 {
            Method::Random
        } else {
            Method::BestOf(d)
        }
    }

    /// Bins drawn per ball, for the methods that draw (1 for random).
    pub fn choices(self) -> Option<usize> {
        match self {
            Method::Random => Some(1),
            Method::BestOf(d) => Some(d),
            Method::RoundRobin | Method::Hash => None,
        }
    }

    /// The method in words: `random`, `best of 2`, `round-robin`, `hash`.
    pub fn describe(self) -> String {
        match self {
            Method::Random => "random".into(),
            Method::BestOf(d) => format!("best of {d}"),
            Method::RoundRobin => "round-robin".into(),
            Method::Hash => "hash".into(),
        }
    }
}

/// As its words (`best of 2`), for JSON.
impl Serialize for Method {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.describe())
    }
}

/// The spread of one filling.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Spread {
    /// The fullest bin's count less the mean count, m/n.
    pub max_minus_mean: f64,
    /// The fullest bin's count less the emptiest's.
    pub max_minus_min: u32,
}

/// n bins being filled by one method, a ball or many at a time.
pub struct Bins {
    counts: Vec<u32>,
    method: Method,
    rng: SimRng,
    thrown: u64,
    /// The hash method's number for ball 0 (the others follow it).
    first_key: u64,
}

impl Bins {
    /// `bins` empty bins (at least 1), filled by `method` from `seed`. Best
    /// of more bins than there are draws them all.
    pub fn new(bins: usize, method: Method, seed: u64) -> Bins {
        let bins = bins.clamp(1, MAX_BINS);
        let method = match method {
            Method::BestOf(d) => Method::best_of(d.min(bins)),
            other => other,
        };
        let mut rng = SimRng::new(seed);
        let first_key = rng.next_u64();
        Bins { counts: vec![0; bins], method, rng, thrown: 0, first_key }
    }

    /// Throws `balls` more balls (no more than [`MAX_BALLS`] in all).
    pub fn throw(&mut self, balls: u64) {
        let n = self.counts.len();
        let (counts, rng) = (&mut self.counts, &mut self.rng);
        let numbers = self.thrown..self.thrown + balls;
        // One loop per method, so the choice of method is made once per call.
        match self.method {
            Method::Random => numbers.for_each(|_| counts[rng.index(n)] += 1),
            Method::BestOf(d) => {
                let mut candidates = [0; MAX_CHOICES];
                for _ in numbers {
                    distinct_candidates(d, n, rng, &mut candidates);
                    let least = lowest(candidates[..d].iter().copied(), |bin| counts[bin], rng);
                    counts[least] += 1;
                }
            }
            Method::RoundRobin => numbers.for_each(|ball| counts[(ball % n as u64) as usize] += 1),
            Method::Hash => {
                let first = self.first_key;
                numbers.for_each(|ball| counts[hash::bin_of(first.wrapping_add(ball), n)] += 1)
            }
        }
        self.thrown += balls;
    }

    /// Every bin's count, in bin order.
    pub fn counts(&self) -> &[u32] {
        &self.counts
    }

    pub fn thrown(&self) -> u64 {
        self.thrown
    }

    pub fn method(&self) -> Method {
        self.method
    }

    /// The mean count, m/n.
    pub fn mean(&self) -> f64 {
        self.thrown as f64 / self.counts.len() as f64
    }

    /// The fullest and the emptiest bin's counts.
    pub fn extremes(&self) -> (u32, u32) {
        let max = self.counts.iter().copied().max().unwrap_or(0);
        let min = self.counts.iter().copied().min().unwrap_or(0);
        (max, min)
    }

    pub fn spread(&self) -> Spread {
        let (max, min) = self.extremes();
        Spread { max_minus_mean: f64::from(max) - self.mean(), max_minus_min: max - min }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filled(bins: usize, method: Method, balls: u64, seed: u64) -> Bins {
        let mut filling = Bins::new(bins, method, seed);
        filling.throw(balls);
        filling
    }

    #[test]
    fn every_ball_lands_in_a_bin() {
        for method in [Method::Random, Method::BestOf(3), Method::RoundRobin, Method::Hash] {
            let bins = filled(7, method, 1_000, 2);
            assert_eq!(bins.counts().iter().map(|&c| u64::from(c)).sum::<u64>(), 1_000, "{method:?}");
            assert_eq!(bins.thrown(), 1_000);
        }
    }

    #[test]
    fn round_robin_fills_in_turn() {
        let mut bins = Bins::new(4, Method::RoundRobin, 0);
        bins.throw(6);
        assert_eq!(bins.counts(), &[2, 2, 1, 1]);
        bins.throw(2);
        assert_eq!(bins.counts(), &[2, 2, 2, 2]);
        assert_eq!(bins.spread(), Spread { max_minus_mean: 0.0, max_minus_min: 0 });
    }

    #[test]
    fn best_of_every_bin_is_always_level() {
        // Drawing all n bins finds a least full one every time: no bin
        // is ever more than one ball ahead of another.
        let mut bins = Bins::new(5, Method::BestOf(5), 3);
        for _ in 0..200 {
            bins.throw(1);
            assert!(bins.spread().max_minus_min <= 1, "{:?}", bins.counts());
        }
        // More choices than bins draws them all.
        assert_eq!(Bins::new(3, Method::BestOf(8), 1).method(), Method::BestOf(3));
        assert_eq!(Bins::new(1, Method::BestOf(2), 1).method(), Method::Random);
    }

    #[test]
    fn best_of_two_breaks_ties_evenly() {
        // Two bins, one ball: they are tied at 0, so each gets it half the time.
        let first = (0..2_000).filter(|&seed| filled(2, Method::BestOf(2), 1, seed).counts()[0] == 1).count();
        // Binomial(2000, 1/2): sd 22.4; allow 5 sd.
        assert!((888..=1112).contains(&first), "{first}");
    }

    #[test]
    fn throwing_in_steps_is_throwing_at_once() {
        for method in [Method::Random, Method::BestOf(2), Method::RoundRobin, Method::Hash] {
            let mut steps = Bins::new(10, method, 8);
            for step in [1, 7, 100, 892] {
                steps.throw(step);
            }
            assert_eq!(steps.counts(), filled(10, method, 1_000, 8).counts(), "{method:?}");
        }
    }

    #[test]
    fn a_seed_fixes_the_filling() {
        let fill = |seed| filled(50, Method::BestOf(2), 5_000, seed).counts().to_vec();
        assert_eq!(fill(4), fill(4));
        assert_ne!(fill(4), fill(5));
    }
}
