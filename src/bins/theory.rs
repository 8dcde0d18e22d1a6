//! What theory says of the spread after m balls go into n bins.
//!
//! - One random choice. Raab and Steger ("Balls into bins — a simple and
//!   tight analysis", RANDOM 1998): the fullest bin holds about
//!   ln n / ln(n ln n / m) balls when m < n ln n, and
//!   m/n + √(2 (m/n) ln n) when m ≫ n ln n. At m = n, Gonnet ("Expected
//!   length of the longest probe sequence in hash code searching", JACM
//!   1981) gives the sharper Γ⁻¹(n) − 3/2, of order ln n / ln ln n. These
//!   are first orders: at n = 100 the √(2 ln n) of the heavy case is 20% above
//!   what is measured, because the maximum of n normal deviations approaches
//!   √(2 ln n) only as ln ln n / ln n vanishes. So beside the order we give
//!   the expectation under the Poisson approximation: the bins' counts as n
//!   independent Poisson(m/n) variables, whose maximum and minimum have exact
//!   expectations (conditioning on the total, which the approximation drops,
//!   moves them by far less than the standard errors of our tests).
//! - Best of d ≥ 2 distinct bins, the least full kept. Azar, Broder, Karlin
//!   and Upfal ("Balanced allocations", STOC 1994): at m = n the fullest bin
//!   holds ln ln n / ln d + O(1). Berenbrink, Czumaj, Steger and Vöcking
//!   ("Balanced allocations: the heavily loaded case", STOC 2000): for any
//!   m, m/n + ln ln n / ln d + O(1): the gap no longer grows with m.
//! - Round-robin: exact. Every bin holds ⌊m/n⌋ or ⌈m/n⌉.
//! - A hash of the ball's number: as one random choice, for a hash that
//!   scatters its keys (see `hash.rs`).

use super::Method;
use serde::Serialize;

/// Theory's figures for one method at m balls and n bins.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Theory {
    /// The expected max − mean and max − min, where they can be computed.
    pub expected: Option<Expected>,
    /// The asymptotic order of max − mean, without its lower-order terms.
    pub order: Option<Order>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Expected {
    pub max_minus_mean: f64,
    pub max_minus_min: f64,
    /// How they were computed.
    pub model: &'static str,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Order {
    /// The formula for max − mean, as text.
    pub formula: &'static str,
    /// Its value at these m and n.
    pub value: f64,
    pub source: &'static str,
}

/// Theory's figures for `method` with `balls` balls in `bins` bins.
pub fn of(method: Method, balls: u64, bins: usize) -> Theory {
    let (m, n) = (balls as f64, bins as f64);
    match method {
        Method::Random | Method::Hash => {
            let (max, min) = poisson_extremes(m / n, bins);
            let expected = Expected {
                max_minus_mean: max - m / n,
                max_minus_min: max - min,
                model: "Poisson approximation: n independent Poisson(m/n) bins",
            };
            Theory { expected: Some(expected), order: one_choice_order(balls, bins) }
        }
        Method::BestOf(d) => {
            let ln_ln_n = libm::log(libm::log(n));
            let order = (ln_ln_n > 0.0).then(|| Order {
                formula: "ln ln n / ln d + O(1)",
                value: ln_ln_n / libm::log(d as f64),
                source: "Azar, Broder, Karlin and Upfal 1994 (m = n); Berenbrink, Czumaj, Steger and Vöcking 2000 (any m)",
            });
            Theory { expected: None, order }
        }
        Method::RoundRobin => {
            let uneven = balls % bins as u64 != 0;
            let expected = Expected {
                max_minus_mean: libm::ceil(m / n) - m / n,
                max_minus_min: if uneven { 1.0 } else { 0.0 },
                model: "exact: every bin holds ⌊m/n⌋ or ⌈m/n⌉",
            };
            Theory { expected: Some(expected), order: None }
        }
    }
}

/// Raab and Steger's first order for one random choice (Gonnet's at m = n).
fn one_choice_order(balls: u64, bins: usize) -> Option<Order> {
    let (m, n) = (balls as f64, bins as f64);
    let ln_n = libm::log(n);
    if bins < 3 {
        return None;
    }
    Some(if balls == bins as u64 {
        Order {
            formula: "Γ⁻¹(n) − 3/2 − 1, of order ln n / ln ln n",
            value: gamma_inverse(n) - 2.5,
            source: "Gonnet 1981",
        }
    } else if m >= n * ln_n {
        Order {
            formula: "√(2 (m/n) ln n)",
            value: libm::sqrt(2.0 * m / n * ln_n),
            source: "Raab and Steger 1998 (m ≫ n ln n)",
        }
    } else {
        Order {
            formula: "ln n / ln(n ln n / m) − m/n",
            value: ln_n / libm::log(n * ln_n / m) - m / n,
            source: "Raab and Steger 1998 (m < n ln n)",
        }
    })
}

/// The x ≥ 2 at which Γ(x) = `y` (y ≥ 1), by bisection on ln Γ.
pub fn gamma_inverse(y: f64) -> f64 {
    let target = libm::log(y);
    let (mut low, mut high) = (2.0, 4.0);
    while libm::lgamma(high) < target {
        high *= 2.0;
    }
    for _ in 0..100 {
        let middle = 0.5 * (low + high);
        if libm::lgamma(middle) < target {
            low = middle;
        } else {
            high = middle;
        }
    }
    0.5 * (low + high)
}

/// The expected maximum and minimum of `n` independent Poisson(`lambda`)
/// counts: E max = Σ_k P(max > k) = Σ_k (1 − F(k)ⁿ), E min = Σ_k (1 − F(k))ⁿ.
/// The sums run over λ ± 16√λ + 40, outside which every term is 0 or 1 to
/// double precision for n up to 10⁹.
pub fn poisson_extremes(lambda: f64, n: usize) -> (f64, f64) {
    if lambda <= 0.0 {
        return (0.0, 0.0);
    }
    let reach = 16.0 * libm::sqrt(lambda) + 40.0;
    let low = libm::floor(lambda - reach).max(0.0) as u64;
    let high = libm::ceil(lambda + reach) as u64;
    let ln_lambda = libm::log(lambda);
    let pmf: Vec<f64> = (low..=high)
        .map(|k| libm::exp(k as f64 * ln_lambda - lambda - libm::lgamma(k as f64 + 1.0)))
        .collect();
    // Both tails summed from their own end, so that neither 1 − F nor F is
    // taken as the difference of nearly equal numbers.
    let mut below = Vec::with_capacity(pmf.len());
    let mut sum = 0.0;
    for p in &pmf {
        sum += p;
        below.push(sum);
    }
    let mut above = vec![0.0; pmf.len()];
    let mut sum = 0.0;
    for (i, p) in pmf.iter().enumerate().rev() {
        above[i] = sum;
        sum += p;
    }
    let n = n as f64;
    let (mut max, mut min) = (low as f64, low as f64);
    for (&f, &tail) in below.iter().zip(&above) {
        let ln_f = if tail < 0.5 { libm::log1p(-tail) } else { libm::log(f) };
        max += 1.0 - libm::exp(n * ln_f);
        min += libm::exp(n * libm::log(tail));
    }
    (max, min)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn poisson_extremes_by_hand() {
        // One bin: its expected count is λ, both ways.
        let (max, min) = poisson_extremes(3.0, 1);
        assert!((max - 3.0).abs() < 1e-12 && (min - 3.0).abs() < 1e-12, "{max} {min}");
        // Two Poisson(1) bins: E max = Σ_k 1 − F(k)², F(0) = 1/e, F(1) = 2/e, ...
        let e = std::f64::consts::E;
        let mut f = 0.0;
        let mut expected = 0.0;
        let mut term = 1.0 / e;
        for k in 0..60 {
            f += term;
            term /= f64::from(k + 1);
            expected += 1.0 - f * f;
        }
        let (max, min) = poisson_extremes(1.0, 2);
        assert!((max - expected).abs() < 1e-12, "{max} {expected}");
        assert!((max + min - 2.0).abs() < 1e-12, "E max + E min = E sum = 2λ");
    }

    #[test]
    fn heavily_loaded_bins_are_normal_maxima() {
        // λ = 10⁶: counts are nearly normal, sd 1000, and the expected maximum
        // of 100 standard normals is 2.50759 (Tippett's tables); the Poisson
        // skew adds (z² − 1) / 6 ≈ 0.88 sd / 1000.
        let (max, min) = poisson_extremes(1e6, 100);
        assert!((max - 1e6 - 2507.59).abs() < 2.0, "{max}");
        assert!((1e6 - min - 2507.59).abs() < 2.0, "{min}");
    }

    #[test]
    fn gamma_inverse_by_hand() {
        assert!((gamma_inverse(24.0) - 5.0).abs() < 1e-9);
        assert!((gamma_inverse(720.0) - 7.0).abs() < 1e-9);
    }

    #[test]
    fn orders_follow_the_regimes() {
        let heavy = of(Method::Random, 1_000_000, 100).order.unwrap();
        assert!((heavy.value - (2.0 * 1e4 * 100f64.ln()).sqrt()).abs() < 1e-9);
        let equal = of(Method::Random, 1_000, 1_000).order.unwrap();
        assert_eq!(equal.source, "Gonnet 1981");
        let two = of(Method::BestOf(2), 1_000_000, 100).order.unwrap();
        assert!((two.value - 100f64.ln().ln() / 2f64.ln()).abs() < 1e-12);
        let even = of(Method::RoundRobin, 1_000, 100).expected.unwrap();
        assert_eq!((even.max_minus_mean, even.max_minus_min), (0.0, 0.0));
        let uneven = of(Method::RoundRobin, 1_030, 100).expected.unwrap();
        assert!((uneven.max_minus_mean - 0.7).abs() < 1e-12 && uneven.max_minus_min == 1.0);
    }
}
