//! Finagle's weighted power of two (finagle-core
//! `loadbalancer/aperture/WeightedP2CPick.scala`, over
//! `ProbabilityDistribution.tryPickSecond`): two servers drawn in
//! proportion to their weights, the second drawn again up to five times
//! while it is the first; of the two, the fewer requests in flight per
//! weight, the first on a tie. Under Finagle's deterministic aperture
//! (`subset_mode = "aperture"`) the weights are each server's overlap
//! with the chooser's arc, so a server the arc only grazes is seldom drawn.
//! Finagle compares health first; lbsim's ejection takes a server out of
//! the pool instead.

use super::{
    ChooserView, Compared, Descriptor, Measure, Pick, Policy, Property, Routing, Seen, WeightedRandom,
};
use crate::rng::SimRng;

pub static WEIGHTED_P2C: Descriptor = Descriptor {
    name: "weighted-p2c",
    title: "power of two by weight (Finagle's aperture)",
    description: "of two servers drawn in proportion to their weights (their overlap with the chooser's arc under subset_mode = aperture), the fewer requests in flight per weight",
    properties: &[Property::ComparesASample, Property::ReadsWeights],
    routing: Routing::Picks(|_, weights, _| Box::new(WeightedP2c::new(weights))),
};

/// How many draws Finagle makes for a second server other than the first.
const SECOND_DRAWS: usize = 5;

/// Finagle takes weights this close as equal, and compares loads alone.
const SAME_WEIGHT: f64 = 1e-4;

pub struct WeightedP2c {
    draw: WeightedRandom,
    weights: Vec<f64>,
    /// The last pick's two draws, for the picture of its decision.
    drawn: Option<[usize; 2]>,
}

impl WeightedP2c {
    /// `weights`: one positive weight per pool position.
    pub fn new(weights: &[f64]) -> WeightedP2c {
        WeightedP2c { draw: WeightedRandom::new(weights), weights: weights.to_vec(), drawn: None }
    }

    /// The weight at a pool position; 1 past the weights given.
    fn weight(&self, position: usize) -> f64 {
        self.weights.get(position).copied().unwrap_or(1.0)
    }
}

impl Policy for WeightedP2c {
    fn pick(&mut self, view: &ChooserView, rng: &mut SimRng) -> Pick {
        let first = self.draw.pick(view, rng).position;
        let mut second = first;
        for _ in 0..SECOND_DRAWS {
            if second != first {
                break;
            }
            second = self.draw.pick(view, rng).position;
        }
        self.drawn = Some([first, second]);
        let load = |position: usize| f64::from(view.known[position].in_flight);
        let (a, b) = (self.weight(first), self.weight(second));
        let first_wins = if (a - b).abs() < SAME_WEIGHT {
            load(first) <= load(second)
        } else {
            load(first) / a <= load(second) / b
        };
        Pick::at(if first_wins { first } else { second })
    }

    fn compared(&self, view: &ChooserView, into: &mut Vec<Seen>) -> Option<Compared> {
        let drawn = self.drawn?;
        into.extend(
            drawn
                .iter()
                .map(|&position| Seen { position, amount: f64::from(view.known[position].in_flight) }),
        );
        Some(Compared { measure: Measure::InFlight, fell_back: false })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{testing::view, Known};
    use super::*;

    #[test]
    fn the_fewer_in_flight_per_weight_wins_the_first_on_a_tie() {
        let mut known = [Known::default(); 2];
        let loads = [0; 2];
        let mut rng = SimRng::new(5);
        // 3 in flight at weight 3 against 1 at weight 1: a tie, to the first draw.
        known[0].in_flight = 3;
        known[1].in_flight = 1;
        let mut policy = WeightedP2c::new(&[3.0, 1.0]);
        for _ in 0..500 {
            let pick = policy.pick(&view(&known, &loads), &mut rng).position;
            assert_eq!(pick, policy.drawn.unwrap()[0]);
        }
        // 4 at weight 3 against 1 at weight 1: server 1, whenever both are drawn.
        known[0].in_flight = 4;
        for _ in 0..500 {
            let pick = policy.pick(&view(&known, &loads), &mut rng).position;
            let [a, b] = policy.drawn.unwrap();
            assert_eq!(pick, if a == b { a } else { 1 });
        }
    }
}
