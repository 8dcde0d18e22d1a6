//! Smooth weighted round-robin (as in nginx): every pick, each server gains
//! its weight in credit, the one with the most is chosen and pays the total.
//! Over a cycle each server gets picks in proportion to its nominal weight
//! (`server_weights`), spread out rather than in bursts. Blind to load and to
//! what machines actually do, so weights set from nominal capacity go wrong
//! when machines drift. Linear in the pool per pick.

use super::{ChooserView, Descriptor, Pick, Policy, Property, Routing};
use crate::rng::{Draw, SimRng};

pub static WEIGHTED_ROUND_ROBIN: Descriptor = Descriptor {
    name: "weighted-round-robin",
    title: "weighted round-robin",
    description: "cycles through the pool in proportion to the servers' nominal weights",
    properties: &[Property::ReadsWeights, Property::CountsFails],
    routing: Routing::Picks(|_, weights, rng| {
        Box::new(WeightedRoundRobin::new(weights, rng.index(weights.len().max(1))))
    }),
};

pub struct WeightedRoundRobin {
    weights: Vec<f64>,
    credit: Vec<f64>,
    total: f64,
}

impl WeightedRoundRobin {
    /// `weights`: one positive weight per pool position. The sequence starts
    /// `start` picks in, so that choosers do not all begin at one server.
    pub fn new(weights: &[f64], start: usize) -> WeightedRoundRobin {
        let total = weights.iter().sum();
        let mut policy =
            WeightedRoundRobin { weights: weights.to_vec(), credit: vec![0.0; weights.len()], total };
        for _ in 0..start {
            policy.next();
        }
        policy
    }

    fn next(&mut self) -> usize {
        let mut best = 0;
        for (i, credit) in self.credit.iter_mut().enumerate() {
            *credit += self.weights[i];
        }
        for i in 1..self.credit.len() {
            if self.credit[i] > self.credit[best] {
                best = i;
            }
        }
        self.credit[best] -= self.total;
        best
    }
}

impl Policy for WeightedRoundRobin {
    fn pick(&mut self, _view: &ChooserView, _rng: &mut SimRng) -> Pick {
        Pick::at(self.next())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{testing::view, Known};
    use super::*;

    #[test]
    fn a_cycle_gives_each_its_weight_spread_out() {
        let known = [Known::default(); 3];
        let loads = [0; 3];
        let mut rng = SimRng::new(1);
        let mut policy = WeightedRoundRobin::new(&[5.0, 1.0, 1.0], 0);
        let picks: Vec<usize> =
            (0..7).map(|_| policy.pick(&view(&known, &loads), &mut rng).position).collect();
        // nginx's example: a a b a c a a.
        assert_eq!(picks, [0, 0, 1, 0, 2, 0, 0]);
        // Started two picks in, the same cycle, rotated.
        let mut later = WeightedRoundRobin::new(&[5.0, 1.0, 1.0], 2);
        let rotated: Vec<usize> =
            (0..7).map(|_| later.pick(&view(&known, &loads), &mut rng).position).collect();
        assert_eq!(rotated, [1, 0, 2, 0, 0, 0, 0]);
    }
}
