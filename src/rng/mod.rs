//! The simulation's one random generator and the draws the model needs.
//!
//! Every draw is built from 64-bit integers and `libm`'s portable maths, so a
//! seed yields the same numbers natively and in WebAssembly (where `usize` is
//! 32 bits and the platform maths library differs).

mod ziggurat;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

pub struct SimRng(Xoshiro256PlusPlus);

impl SimRng {
    pub fn new(seed: u64) -> SimRng {
        SimRng(Xoshiro256PlusPlus::seed_from_u64(seed))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A uniform index in `0..n` (Lemire's multiply-and-reject). `n` must be > 0.
    pub fn index(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        let n = n as u64;
        let threshold = n.wrapping_neg() % n;
        loop {
            let product = (self.next_u64() as u128) * (n as u128);
            if (product as u64) >= threshold {
                return (product >> 64) as usize;
            }
        }
    }

    /// A uniform float in the open interval (0, 1).
    pub fn unit(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// An exponential draw with the given mean.
    pub fn exponential(&mut self, mean: f64) -> f64 {
        mean * ziggurat::exponential(self)
    }

    /// A standard normal draw (Box–Muller, one of the pair).
    pub fn normal(&mut self) -> f64 {
        let radius = libm::sqrt(-2.0 * libm::log(self.unit()));
        radius * libm::cos(2.0 * std::f64::consts::PI * self.unit())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let mut a = SimRng::new(7);
        let mut b = SimRng::new(7);
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
    }

    #[test]
    fn index_stays_in_range_and_covers_it() {
        let mut rng = SimRng::new(1);
        let mut seen = [0u32; 7];
        for _ in 0..7_000 {
            seen[rng.index(7)] += 1;
        }
        // Each cell expects 1000 with sd ~29; 6 sd either side.
        assert!(seen.iter().all(|&c| (826..=1174).contains(&c)), "{seen:?}");
    }

    #[test]
    fn exponential_mean_matches() {
        let mut rng = SimRng::new(3);
        let n = 200_000;
        let mean = (0..n).map(|_| rng.exponential(2.0)).sum::<f64>() / n as f64;
        // Standard error is 2 / sqrt(n) = 0.0045; allow 5 of them.
        assert!((mean - 2.0).abs() < 0.0225, "{mean}");
    }

    #[test]
    fn normal_has_unit_variance() {
        let mut rng = SimRng::new(4);
        let n = 200_000;
        let draws: Vec<f64> = (0..n).map(|_| rng.normal()).collect();
        let mean = draws.iter().sum::<f64>() / n as f64;
        let var = draws.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n as f64;
        // se(mean) = 0.0022, se(var) = sqrt(2/n) = 0.0032.
        assert!(mean.abs() < 0.011, "{mean}");
        assert!((var - 1.0).abs() < 0.016, "{var}");
    }
}
