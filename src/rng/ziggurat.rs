//! Exponential draws by the ziggurat method (Marsaglia and Tsang, 2000).
//!
//! The area under exp(-x) is covered by 256 stacked strips of equal area:
//! 255 rectangles and a base strip that also holds the tail beyond `R`. A
//! draw picks a strip and a point across it from one 64-bit word; nearly
//! always (about 99%) the point lies under the curve for certain and is
//! returned at once. Only the rest pay for an `exp` or a `log`. The strips
//! are computed once with `libm`, so they are the same natively and in
//! WebAssembly, and so are the draws.

use super::Draw;
#[cfg(test)]
use super::SimRng;
use std::sync::OnceLock;

/// Where the tail begins, and the area of each strip, for 256 strips.
const R: f64 = 7.697_117_470_131_05;
const AREA: f64 = 0.003_949_659_822_581_557;
const STRIPS: usize = 256;

struct Strips {
    /// Right edges, widest first: `x[0]` is the base strip's area over
    /// its height, `x[1] = R`, down to `x[256] = 0`.
    x: [f64; STRIPS + 1],
    /// exp(-x) at each edge.
    f: [f64; STRIPS + 1],
}

fn strips() -> &'static Strips {
    static STRIPS_TABLE: OnceLock<Strips> = OnceLock::new();
    STRIPS_TABLE.get_or_init(|| {
        let mut x = [0.0; STRIPS + 1];
        x[0] = AREA / libm::exp(-R);
        x[1] = R;
        for i in 1..STRIPS - 1 {
            // Strip i spans heights exp(-x[i]) to exp(-x[i + 1]) with width x[i].
            x[i + 1] = -libm::log(AREA / x[i] + libm::exp(-x[i]));
        }
        x[STRIPS] = 0.0;
        let f = x.map(|edge| libm::exp(-edge));
        Strips { x, f }
    })
}

/// A draw from the exponential distribution with mean 1.
pub fn exponential<R: Draw + ?Sized>(rng: &mut R) -> f64 {
    let Strips { x, f } = strips();
    loop {
        let bits = rng.next_u64();
        let strip = (bits & 0xff) as usize;
        // The top 53 bits, which do not overlap the strip's 8.
        let across = ((bits >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
        let point = across * x[strip];
        if point < x[strip + 1] {
            return point;
        }
        if strip == 0 {
            return R - libm::log(rng.unit());
        }
        let height = f[strip + 1] + (f[strip] - f[strip + 1]) * rng.unit();
        if height < libm::exp(-point) {
            return point;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_have_equal_areas_and_end_at_zero() {
        let Strips { x, f } = strips();
        for i in 1..STRIPS - 1 {
            let area = x[i] * (f[i + 1] - f[i]);
            assert!((area - AREA).abs() < 1e-12, "strip {i}: {area}");
        }
        // The last computed edge lands near zero, where the curve tops out.
        assert!(x[STRIPS - 1] > 0.0 && x[STRIPS - 1] < 0.1, "{}", x[STRIPS - 1]);
    }

    /// Counts in bins against exp(-a) - exp(-b), each within 5 binomial
    /// standard errors; the bins cover the fast path, the wedges and the
    /// tail beyond `R`. Beyond `R` the excess over `R` has mean 1 (the
    /// distribution forgets), within 5 standard errors.
    #[test]
    fn draws_follow_the_exponential_distribution() {
        let mut rng = SimRng::new(12);
        let n = 10_000_000;
        let edges =
            [0.0, 0.01, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, R, 9.0, 11.0, f64::INFINITY];
        let mut counts = vec![0u64; edges.len() - 1];
        let (mut tail, mut excess) = (0u32, 0.0);
        for _ in 0..n {
            let draw = exponential(&mut rng);
            counts[edges.partition_point(|&e| e <= draw) - 1] += 1;
            if draw > R {
                tail += 1;
                excess += draw - R;
            }
        }
        // The excess is exponential with mean 1 and standard deviation 1.
        let mean_excess = excess / f64::from(tail);
        assert!((mean_excess - 1.0).abs() < 5.0 / f64::from(tail).sqrt(), "{mean_excess} over {tail}");
        for (bin, &count) in counts.iter().enumerate() {
            let p = libm::exp(-edges[bin]) - libm::exp(-edges[bin + 1]);
            let expected = n as f64 * p;
            let se = (n as f64 * p * (1.0 - p)).sqrt();
            let z = (count as f64 - expected) / se;
            assert!(
                z.abs() < 5.0,
                "bin {bin} [{}, {}): {count} vs {expected:.1} (z = {z:.2})",
                edges[bin],
                edges[bin + 1]
            );
        }
    }
}
