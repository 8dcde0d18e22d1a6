//! How popular each key is: uniform over the key space, or Zipf, where the
//! key of rank k (from 1) is drawn with probability proportional to
//! k^(−exponent). Key `k − 1` is the key of rank k.
//!
//! Zipf draws use rejection-inversion (Hörmann and Derflinger, "Rejection-
//! inversion to generate variates from monotone discrete distributions",
//! 1996): constant time and memory whatever the key space, with `libm`'s
//! portable maths so that native and browser draw the same keys.

use crate::rng::Draw;
use crate::scenario::Scenario;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Popularity {
    Uniform,
    Zipf(f64),
}

impl Popularity {
    /// How popular each key is under `scenario`.
    pub fn of(scenario: &Scenario) -> Popularity {
        if scenario.key_popularity > 0.0 {
            Popularity::Zipf(scenario.key_popularity)
        } else {
            Popularity::Uniform
        }
    }
}

/// Draws keys from `0..space` with the given popularity.
#[derive(Clone, Debug)]
pub enum Keys {
    Uniform { space: u64 },
    Zipf(Zipf),
}

impl Keys {
    /// `space` is from 1 to 2^31 (an index on every platform); a Zipf
    /// exponent is above 0.
    pub fn new(space: u64, popularity: Popularity) -> Keys {
        match popularity {
            Popularity::Uniform => Keys::Uniform { space },
            Popularity::Zipf(exponent) => Keys::Zipf(Zipf::new(space, exponent)),
        }
    }

    pub fn draw(&self, rng: &mut impl Draw) -> u64 {
        match self {
            Keys::Uniform { space } => rng.index(*space as usize) as u64,
            Keys::Zipf(zipf) => zipf.draw(rng) - 1,
        }
    }
}

/// Zipf's law over ranks `1..=n` with exponent `s`.
#[derive(Clone, Debug)]
pub struct Zipf {
    n: f64,
    s: f64,
    /// H(1.5) − 1 and H(n + 0.5), the ends of the range `u` is drawn from.
    low: f64,
    high: f64,
    /// Below this distance from the rank, a draw is accepted without the test.
    squeeze: f64,
}

impl Zipf {
    fn new(n: u64, s: f64) -> Zipf {
        let mut zipf = Zipf { n: n as f64, s, low: 0.0, high: 0.0, squeeze: 0.0 };
        zipf.low = zipf.integral(1.5) - 1.0;
        zipf.high = zipf.integral(n as f64 + 0.5);
        zipf.squeeze = 2.0 - zipf.integral_inverse(zipf.integral(2.5) - zipf.density(2.0));
        zipf
    }

    /// x^(−s).
    fn density(&self, x: f64) -> f64 {
        libm::exp(-self.s * libm::log(x))
    }

    /// H(x) = (x^(1−s) − 1) / (1 − s), an antiderivative of the density
    /// (ln x when s = 1), computed without cancellation near s = 1.
    fn integral(&self, x: f64) -> f64 {
        let log_x = libm::log(x);
        log_x * expm1_over_x((1.0 - self.s) * log_x)
    }

    fn integral_inverse(&self, y: f64) -> f64 {
        // (1 − s) y ≥ −1 in exact arithmetic; rounding can step past it.
        let t = (y * (1.0 - self.s)).max(-1.0);
        libm::exp(log1p_over_x(t) * y)
    }

    /// A rank from 1 to n.
    fn draw(&self, rng: &mut impl Draw) -> u64 {
        loop {
            let u = self.high + rng.unit() * (self.low - self.high);
            let x = self.integral_inverse(u);
            let k = libm::floor(x + 0.5).clamp(1.0, self.n);
            if k - x <= self.squeeze || u >= self.integral(k + 0.5) - self.density(k) {
                return k as u64;
            }
        }
    }
}

/// (e^x − 1) / x, and its limit 1 at 0.
fn expm1_over_x(x: f64) -> f64 {
    if x.abs() > 1e-8 {
        libm::expm1(x) / x
    } else {
        1.0 + x / 2.0 * (1.0 + x / 3.0)
    }
}

/// ln(1 + x) / x, and its limit 1 at 0.
fn log1p_over_x(x: f64) -> f64 {
    if x.abs() > 1e-8 {
        libm::log1p(x) / x
    } else {
        1.0 - x * (0.5 - x / 3.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SimRng;

    /// Each rank's frequency over `draws` against its exact probability,
    /// within five binomial standard errors.
    fn check_zipf(space: u64, s: f64) {
        let keys = Keys::new(space, Popularity::Zipf(s));
        let mut rng = SimRng::new(14);
        let draws = 200_000;
        let mut counts = vec![0u64; space as usize];
        for _ in 0..draws {
            counts[keys.draw(&mut rng) as usize] += 1;
        }
        let norm: f64 = (1..=space).map(|k| (k as f64).powf(-s)).sum();
        for (rank, &count) in counts.iter().enumerate().take(20) {
            let p = ((rank + 1) as f64).powf(-s) / norm;
            let se = (p * (1.0 - p) / draws as f64).sqrt();
            let seen = count as f64 / draws as f64;
            assert!((seen - p).abs() < 5.0 * se + 1e-9, "s = {s}, rank {}: {seen} vs {p}", rank + 1);
        }
    }

    #[test]
    fn zipf_draws_follow_the_law() {
        for s in [0.5, 1.0, 1.2, 2.0] {
            check_zipf(1_000, s);
        }
        check_zipf(3, 0.9);
    }

    #[test]
    fn uniform_keys_stay_in_the_space() {
        let keys = Keys::new(7, Popularity::Uniform);
        let mut rng = SimRng::new(1);
        assert!((0..1_000).all(|_| keys.draw(&mut rng) < 7));
        let one = Keys::new(1, Popularity::Zipf(1.1));
        assert!((0..100).all(|_| one.draw(&mut rng) == 0));
    }
}
