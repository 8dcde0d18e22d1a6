//! Closed forms for the mean wait in queue, in units of the mean service
//! time, and the probability of waiting.

/// Erlang C: the probability that an arrival waits in an M/M/c queue with
/// offered load `a` = λ/μ (in slots); 1 when `a` reaches `c`, where the
/// queue grows without bound.
///
/// Through Erlang B's recursion, B(0) = 1, B(k) = a·B(k−1) / (k + a·B(k−1)),
/// then C = c·B / (c − a·(1 − B)): every B lies in (0, 1], where the sum of
/// a^k / k! it replaces overflows once a passes about 709.
pub fn erlang_c(c: u32, a: f64) -> f64 {
    let slots = f64::from(c);
    if a >= slots {
        return 1.0;
    }
    let b = (1..=c).fold(1.0, |b, k| a * b / (f64::from(k) + a * b));
    slots * b / (slots - a * (1.0 - b))
}

/// Mean wait of M/M/c at utilisation `rho`: C(c, a) / (c − a), with a = c·ρ.
pub fn mmc_wait(c: u32, rho: f64) -> f64 {
    let a = rho * f64::from(c);
    erlang_c(c, a) / (f64::from(c) - a)
}

/// Pollaczek–Khinchine: the mean wait of M/G/1 at utilisation `rho` with
/// service times of squared coefficient of variation `cv2`.
pub fn mg1_wait(rho: f64, cv2: f64) -> f64 {
    rho * (1.0 + cv2) / (2.0 * (1.0 - rho))
}

/// Mitzenmacher's supermarket model (Vvedenskaya, Dobrushin and Karpelevich,
/// 1996): n → ∞ single-slot servers with unit exponential service, arrivals
/// at rate λn, each joining the shortest of `d` queues chosen at random. In
/// the limit the fraction of queues holding at least i requests is
/// λ^((dⁱ − 1)/(d − 1)), so the mean time in system is the sum over i ≥ 1 of
/// λ^((dⁱ − d)/(d − 1)); the wait is that less the unit of service.
pub fn supermarket_wait(d: u32, lambda: f64) -> f64 {
    let d = f64::from(d);
    let mut total = 0.0;
    let mut d_to_i = d;
    for _ in 1..64 {
        let term = libm::pow(lambda, (d_to_i - d) / (d - 1.0));
        total += term;
        if term < 1e-15 {
            break;
        }
        d_to_i *= d;
    }
    total - 1.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_values() {
        // M/M/1: P(wait) = ρ, W = ρ / (1 − ρ).
        assert!((erlang_c(1, 0.5) - 0.5).abs() < 1e-12);
        assert!((mmc_wait(1, 0.5) - 1.0).abs() < 1e-12);
        // M/M/2 at ρ = 0.5: C = 1/3, W = (1/3) / (2 − 1).
        assert!((mmc_wait(2, 0.5) - 1.0 / 3.0).abs() < 1e-12);
        // M/M/3 with λ = 10, μ = 4: a = 2.5, C = 0.7022 (tables).
        assert!((erlang_c(3, 2.5) - 0.7022).abs() < 1e-4);
        // P-K: exponential service (cv² = 1) gives M/M/1's wait; constant, half of it.
        assert!((mg1_wait(0.8, 1.0) - mmc_wait(1, 0.8)).abs() < 1e-12);
        assert!((mg1_wait(0.8, 0.0) - 2.0).abs() < 1e-12);
        // d = 2: the time in system is 1 + λ² + λ⁶ + λ¹⁴ + ..., the wait that less 1.
        let expected = 0.5f64.powi(2) + 0.5f64.powi(6) + 0.5f64.powi(14) + 0.5f64.powi(30);
        assert!((supermarket_wait(2, 0.5) - expected).abs() < 1e-12);
    }

    /// Past about 710 slots at 90% load, a^k / k! overflowed and Erlang C
    /// came out NaN. The references are exact: with a whole, C is the
    /// fraction a^c·c / ((c − a)·Σ_{k<c} a^k·c!/k! + a^c·c) of integers,
    /// computed with Python 3's big integers and `fractions.Fraction`, then
    /// rounded to a double.
    #[test]
    fn erlang_c_holds_for_thousands_of_slots() {
        for (c, a, reference) in [
            (1_000, 900.0, 0.0005926699663787812),
            (1_000, 990.0, 0.6590804218808545),
            (10_000, 9_000.0, 2.09161979441929e-25),
            (10_000, 9_900.0, 0.22277692886414824),
            (10_000, 9_990.0, 0.8805417113739897),
        ] {
            let (computed, wait) = (erlang_c(c, a), mmc_wait(c, a / f64::from(c)));
            assert!((computed / reference - 1.0).abs() < 1e-9, "C({c}, {a}) = {computed}, not {reference}");
            let reference_wait = reference / (f64::from(c) - a);
            assert!((wait / reference_wait - 1.0).abs() < 1e-9, "W({c}, {a}) = {wait}, not {reference_wait}");
        }
        assert_eq!((erlang_c(4, 4.0), erlang_c(4, 5.0)), (1.0, 1.0));
    }
}
