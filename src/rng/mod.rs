//! The simulation's one random generator and the draws the model needs.
//!
//! Every draw is built from 64-bit integers and `libm`'s portable maths, so a
//! seed yields the same numbers natively and in WebAssembly (where `usize` is
//! 32 bits and the platform maths library differs).

mod ziggurat;

use crate::time::Time;
use rand::{Rng, SeedableRng};
use rand_xoshiro::{SplitMix64, Xoshiro256PlusPlus};

pub struct SimRng(Xoshiro256PlusPlus);

/// One simulation's randomness, split by purpose so that a comparison of two
/// settings runs on common random numbers: what does not depend on routing
/// (when sessions arrive, from which client, how much work each request
/// brings) is drawn the same whatever the policy, the pools or the balancers.
pub struct Streams {
    /// Session arrival gaps and the client of each session.
    pub arrivals: SimRng,
    /// Every routing decision: pools, policies' picks and starting points,
    /// the balancer of each session.
    pub routing: SimRng,
    /// The service demand of every request, keyed by the request itself.
    pub work: Demands,
    /// The seed of every request's key (see `engine::keyed`), drawn after
    /// the others so that adding it moved none of theirs.
    pub keys: u64,
    /// The seed of every session's length (see `engine::lengths`), drawn
    /// after the keys' for the same reason.
    pub lengths: u64,
}

impl Streams {
    pub fn new(seed: u64) -> Streams {
        let mut master = SimRng::new(seed);
        let arrivals = SimRng::new(master.next_u64());
        let routing = SimRng::new(master.next_u64());
        let work = Demands { seed: master.next_u64() };
        let keys = master.next_u64();
        Streams { arrivals, routing, work, keys, lengths: master.next_u64() }
    }
}

/// Service demands keyed by (session number, requests still to follow): the
/// 41st session's request with 3 more behind it brings the same work under
/// every policy, whenever and wherever it is served.
#[derive(Clone, Copy)]
pub struct Demands {
    seed: u64,
}

impl Demands {
    /// The generator of one request's demand.
    pub fn of(&self, session: u32, remaining: u16) -> Keyed {
        Keyed::new(self.seed ^ (u64::from(session) << 16 | u64::from(remaining)))
    }

    /// The generator of one attempt's draws apart from its demand (whether a
    /// fast-failing server fails it, its backoff): keyed by the request
    /// and how many retries it has made, apart from `of` and `of_copy`
    /// (the key's second bit from the top, which neither sets).
    pub fn of_attempt(&self, session: u32, remaining: u16, retries: u16) -> Keyed {
        let attempt = u64::from(retries & 0x3fff) << 48;
        Keyed::new(self.seed ^ (1 << 62 | attempt | u64::from(session) << 16 | u64::from(remaining)))
    }

    /// The generator of a hedged copy's demand: keyed by its request, apart
    /// from the request's own (the key's top bit, which `of` never sets).
    pub fn of_copy(&self, session: u32, remaining: u16) -> Keyed {
        Keyed::new(self.seed ^ (1 << 63 | u64::from(session) << 16 | u64::from(remaining)))
    }

    /// The generator of an ejection's jitter: keyed by its chooser, its
    /// server and when it begins, apart from the requests' keys (both top
    /// bits, which none of theirs sets together), so that a jitter shifts
    /// no other draw, and an ejection a chooser refuses changes nothing.
    pub fn of_ejection(&self, chooser: u32, server: u32, at: Time) -> Keyed {
        let key = (u64::from(chooser) << 40 ^ u64::from(server) << 20 ^ at.0) & !(3 << 62);
        Keyed::new(self.seed ^ (3 << 62 | key))
    }
}

impl SimRng {
    pub fn new(seed: u64) -> SimRng {
        SimRng(Xoshiro256PlusPlus::seed_from_u64(seed))
    }
}

impl Draw for SimRng {
    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
}

/// A generator for a handful of draws from one key: SplitMix64 (Steele, Lea
/// and Flood, 2014), whose state is the key and whose output function mixes
/// every bit of it, so neighbouring keys give unrelated draws. Setting one up
/// costs nothing, unlike seeding the main generator (about a tenth of the
/// engine's time when done once per request).
pub struct Keyed(SplitMix64);

impl Keyed {
    pub fn new(key: u64) -> Keyed {
        Keyed(SplitMix64::seed_from_u64(key))
    }
}

impl Draw for Keyed {
    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
}

/// The draws the model needs, from any source of 64 random bits.
pub trait Draw {
    fn next_u64(&mut self) -> u64;

    /// A uniform index in `0..n` (Lemire's multiply-and-reject). `n` must be > 0.
    /// The rejection threshold is below `n`, so its division is needed only
    /// when the product's low half is below `n` too (rarely, for small `n`):
    /// the draws are those of computing it every time, at a fraction of the cost.
    fn index(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        let n = n as u64;
        let mut product = (self.next_u64() as u128) * (n as u128);
        if (product as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (product as u64) < threshold {
                product = (self.next_u64() as u128) * (n as u128);
            }
        }
        (product >> 64) as usize
    }

    /// A uniform float in the open interval (0, 1).
    fn unit(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }

    /// True with probability `p`.
    fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// An exponential draw with the given mean.
    fn exponential(&mut self, mean: f64) -> f64 {
        mean * ziggurat::exponential(self)
    }

    /// A standard normal draw (Box–Muller, one of the pair).
    fn normal(&mut self) -> f64 {
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
    fn keyed_draws_follow_splitmix64() {
        // The key is the state: the first outputs of the reference
        // implementation (splitmix64.c) from this state.
        let mut keyed = Keyed::new(1477776061723855037);
        assert_eq!(keyed.next_u64(), 1985237415132408290);
        assert_eq!(keyed.next_u64(), 2979275885539914483);
    }

    #[test]
    fn streams_are_unrelated_and_demands_are_keyed() {
        let mut streams = Streams::new(9);
        let (a, r) = (streams.arrivals.next_u64(), streams.routing.next_u64());
        assert_ne!(a, r);
        let work = streams.work;
        assert_eq!(work.of(41, 3).next_u64(), Streams::new(9).work.of(41, 3).next_u64());
        assert_ne!(work.of(41, 3).next_u64(), work.of(41, 4).next_u64());
        assert_ne!(work.of(41, 3).next_u64(), work.of(42, 3).next_u64());
    }

    #[test]
    fn index_draws_what_rejecting_below_the_threshold_every_time_draws() {
        // The plain form of Lemire's method, which divides on every draw.
        fn reference(rng: &mut SimRng, n: u64) -> usize {
            let threshold = n.wrapping_neg() % n;
            loop {
                let product = (rng.next_u64() as u128) * (n as u128);
                if (product as u64) >= threshold {
                    return (product >> 64) as usize;
                }
            }
        }
        // Sizes just above powers of two reject most often.
        for n in [1u64, 2, 3, 7, 100, (1 << 62) + 1, (1 << 63) + 1, u64::MAX] {
            let (mut fast, mut plain) = (SimRng::new(n), SimRng::new(n));
            for _ in 0..2_000 {
                assert_eq!(fast.index(n as usize), reference(&mut plain, n), "n = {n}");
            }
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
