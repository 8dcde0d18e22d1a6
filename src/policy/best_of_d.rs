//! Power of d choices (Mitzenmacher; Azar, Broder, Karlin and Upfal): draw d
//! distinct servers at random and keep the least loaded. Some proxies draw
//! the d independently instead, so that one server can be drawn twice
//! (`with_replacement.rs`).
//!
//! With piggybacked load the chooser only knows what responses told it, so,
//! following the seed essay, it falls back to a random candidate with
//! probability sqrt(staleness in ms) percent, staleness being the age of the
//! oldest counter compared (a counter never learned is infinitely stale).

use super::{lowest, ChooserView, Compared, Descriptor, Pick, Policy, Property, Routing, Seen, Signal};
use crate::rng::{Draw, SimRng};
use crate::time::Time;

pub static POWER_OF_D: Descriptor = Descriptor {
    name: "power-of-d",
    title: "power of d choices, live load",
    description: "best of d random servers by their true load (d: choices)",
    properties: &[Property::UsesChoices, Property::ReadsBoard, Property::ComparesASample],
    routing: Routing::Picks(|choices, _, _| Box::new(BestOfD::new(choices as usize, Signal::Board))),
};

pub static PIGGYBACK: Descriptor = Descriptor {
    name: "p2c-piggyback",
    title: "power of two, learned load",
    description: "best of two by load learned from responses; random when that is stale",
    properties: &[Property::ComparesASample, Property::LearnsLoad],
    routing: Routing::Picks(|_, _, _| Box::new(BestOfD::new(2, Signal::Piggyback))),
};

pub static LEAST_REQUEST: Descriptor = Descriptor {
    name: "least-request",
    title: "least requests of d (own count)",
    description: "best of d random servers by this chooser's requests in flight (d: choices)",
    properties: &[Property::UsesChoices, Property::ComparesASample],
    routing: Routing::Picks(|choices, _, _| Box::new(BestOfD::new(choices as usize, Signal::InFlight))),
};

pub const MAX_CHOICES: usize = 10;

pub struct BestOfD {
    d: usize,
    signal: Signal,
    /// Whether the d candidates are distinct (lbsim's, Linkerd's, NGINX's
    /// and Finagle's way) or drawn independently (Envoy's and gRPC's).
    distinct: bool,
    /// The last pick's candidates (the first `compared` of them) and
    /// whether it fell back to the first.
    candidates: [usize; MAX_CHOICES],
    compared: usize,
    fell_back: bool,
}

impl BestOfD {
    pub fn new(d: usize, signal: Signal) -> BestOfD {
        BestOfD {
            d: d.clamp(1, MAX_CHOICES),
            signal,
            distinct: true,
            candidates: [0; MAX_CHOICES],
            compared: 0,
            fell_back: false,
        }
    }

    /// Best of `d` drawn independently: a server may be drawn more than
    /// once, so with `d` at least the pool's size some servers still go
    /// unsampled.
    pub fn with_replacement(d: usize, signal: Signal) -> BestOfD {
        BestOfD { distinct: false, ..BestOfD::new(d, signal) }
    }

    /// Fills the first `d` candidates from a pool of `n`.
    fn draw(&mut self, d: usize, n: usize, rng: &mut SimRng) {
        if self.distinct {
            distinct_candidates(d, n, rng, &mut self.candidates);
        } else {
            self.candidates[..d].iter_mut().for_each(|candidate| *candidate = rng.index(n));
        }
    }
}

/// Probability of ignoring load that is `staleness` old: sqrt(ms) percent.
pub fn fallback_probability(staleness: Option<Time>) -> f64 {
    staleness.map_or(1.0, |age| (libm::sqrt(age.as_ms()) / 100.0).min(1.0))
}

/// Fills `into` with `d` distinct positions drawn uniformly from `0..n` in
/// random order (`d <= n`).
pub fn distinct_candidates(d: usize, n: usize, rng: &mut SimRng, into: &mut [usize; MAX_CHOICES]) {
    let mut drawn = 0;
    while drawn < d {
        let candidate = rng.index(n);
        if !into[..drawn].contains(&candidate) {
            into[drawn] = candidate;
            drawn += 1;
        }
    }
}

impl Policy for BestOfD {
    fn pick(&mut self, view: &ChooserView, rng: &mut SimRng) -> Pick {
        let n = view.pool_len();
        let d = if self.distinct { self.d.min(n) } else { self.d };
        self.fell_back = false;
        if d <= 1 {
            self.compared = 0;
            return Pick::at(rng.index(n));
        }
        self.compared = d;
        self.draw(d, n, rng);
        let candidates = &self.candidates[..d];

        let mut staleness = None;
        if self.signal.age(view, candidates[0]).is_some() {
            let oldest = candidates
                .iter()
                .map(|&c| self.signal.age(view, c).flatten())
                .try_fold(Time::ZERO, |oldest, age| age.map(|a| oldest.max(a)));
            if rng.chance(fallback_probability(oldest)) {
                self.fell_back = true;
                return Pick { position: candidates[0], staleness: oldest };
            }
            staleness = oldest;
        }
        let best = lowest(candidates.iter().copied(), |c| self.signal.rank(view, c), rng);
        Pick { position: best, staleness }
    }

    fn compared(&self, view: &ChooserView, into: &mut Vec<Seen>) -> Option<Compared> {
        let candidates = &self.candidates[..self.compared];
        into.extend(
            candidates.iter().map(|&position| Seen { position, amount: self.signal.amount(view, position) }),
        );
        (!candidates.is_empty())
            .then_some(Compared { measure: self.signal.measure(), fell_back: self.fell_back })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{testing::view, Known, Load};
    use super::*;

    #[test]
    fn candidates_are_distinct_and_in_range() {
        let mut rng = SimRng::new(9);
        let mut buf = [0; MAX_CHOICES];
        for n in 2..12 {
            for d in 2..=n.min(MAX_CHOICES) {
                distinct_candidates(d, n, &mut rng, &mut buf);
                let mut c = buf[..d].to_vec();
                assert!(c.iter().all(|&x| x < n));
                c.sort();
                c.dedup();
                assert_eq!(c.len(), d);
            }
        }
    }

    #[test]
    fn with_two_servers_always_takes_the_lighter() {
        let known = [Known::default(); 2];
        let loads = [Load::new(3, 10).0, Load::new(0, 4).0];
        let mut rng = SimRng::new(1);
        for _ in 0..50 {
            let pick = BestOfD::new(2, Signal::Board).pick(&view(&known, &loads), &mut rng);
            assert_eq!(pick.position, 1);
        }
    }

    #[test]
    fn reports_the_candidates_it_compared_and_what_it_saw() {
        let known = [Known::default(); 5];
        let loads: Vec<u64> = [4, 0, 2, 7, 1].iter().map(|&q| Load::new(q, 3).0).collect();
        let mut rng = SimRng::new(12);
        let mut policy = BestOfD::new(3, Signal::Board);
        for _ in 0..50 {
            let view = view(&known, &loads);
            let pick = policy.pick(&view, &mut rng);
            let mut seen = Vec::new();
            let compared = policy.compared(&view, &mut seen);
            assert_eq!(compared, Some(Compared { measure: super::super::Measure::Load, fell_back: false }));
            assert_eq!(seen.len(), 3);
            for s in &seen {
                let queued = Load(loads[s.position]).queued();
                assert_eq!(s.amount, f64::from(queued) + 3.0);
            }
            let least = seen.iter().map(|s| s.amount).fold(f64::INFINITY, f64::min);
            let winner = seen.iter().find(|s| s.position == pick.position).expect("winner among candidates");
            assert_eq!(winner.amount, least);
        }
        let mut single = BestOfD::new(1, Signal::Board);
        single.pick(&view(&known, &loads), &mut rng);
        assert_eq!(single.compared(&view(&known, &loads), &mut Vec::new()), None);
    }

    #[test]
    fn fallback_follows_square_root_of_staleness() {
        assert_eq!(fallback_probability(Some(Time::ZERO)), 0.0);
        assert!((fallback_probability(Some(Time::from_ms(100.0))) - 0.1).abs() < 1e-12);
        assert_eq!(fallback_probability(Some(Time::from_ms(10_000.0))), 1.0);
        assert_eq!(fallback_probability(None), 1.0);
    }

    #[test]
    fn piggyback_with_fresh_counters_uses_them() {
        let mut known = [Known::default(); 2];
        let now = Time::from_ms(1000.0);
        known[0].learn(Load::new(5, 10), now);
        known[1].learn(Load::new(0, 1), now);
        let loads = [0, 0];
        let mut rng = SimRng::new(4);
        for _ in 0..50 {
            let pick = BestOfD::new(2, Signal::Piggyback).pick(&view(&known, &loads), &mut rng);
            assert_eq!(pick.position, 1);
            assert_eq!(pick.staleness, Some(Time::ZERO));
        }
    }

    #[test]
    fn piggyback_never_learned_is_random() {
        let known = [Known::default(); 2];
        let loads = [0, 0];
        let mut rng = SimRng::new(4);
        let mut counts = [0; 2];
        for _ in 0..400 {
            let pick = BestOfD::new(2, Signal::Piggyback).pick(&view(&known, &loads), &mut rng);
            counts[pick.position] += 1;
        }
        // Binomial(400, 1/2): sd 10; allow 5 sd.
        assert!((150..=250).contains(&counts[0]), "{counts:?}");
    }
}
