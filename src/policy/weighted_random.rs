//! Weighted random: each server is picked with probability proportional to
//! its nominal weight (`server_weights`), as proxies do when told machines'
//! capacities. Drawn in constant time with Walker's alias method (Vose's
//! construction): one uniform column, one biased coin.

use super::{ChooserView, Descriptor, Pick, Policy, Property, Routing};
use crate::rng::{Draw, SimRng};

pub static WEIGHTED_RANDOM: Descriptor = Descriptor {
    name: "weighted-random",
    title: "weighted random",
    description: "random, in proportion to the servers' nominal weights",
    properties: &[Property::ReadsWeights],
    routing: Routing::Picks(|_, weights, _| Box::new(WeightedRandom::new(weights))),
};

pub struct WeightedRandom {
    /// Column `i` keeps itself with probability `keep[i]`, else gives `alias[i]`.
    keep: Vec<f64>,
    alias: Vec<usize>,
}

impl WeightedRandom {
    /// `weights`: one positive weight per pool position.
    pub fn new(weights: &[f64]) -> WeightedRandom {
        let n = weights.len().max(1);
        let total: f64 = weights.iter().sum();
        let mut scaled: Vec<f64> = weights.iter().map(|w| w * n as f64 / total).collect();
        scaled.resize(n, 1.0);
        let (mut keep, mut alias) = (vec![1.0; n], (0..n).collect::<Vec<_>>());
        let (mut small, mut large): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| scaled[i] < 1.0);
        while let (Some(s), Some(&l)) = (small.pop(), large.last()) {
            keep[s] = scaled[s];
            alias[s] = l;
            scaled[l] -= 1.0 - scaled[s];
            if scaled[l] < 1.0 {
                large.pop();
                small.push(l);
            }
        }
        WeightedRandom { keep, alias }
    }
}

impl Policy for WeightedRandom {
    fn pick(&mut self, view: &ChooserView, rng: &mut SimRng) -> Pick {
        let column = rng.index(view.pool_len().min(self.keep.len()));
        let position = if rng.chance(self.keep[column]) { column } else { self.alias[column] };
        Pick::at(position)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{testing::view, Known};
    use super::*;

    #[test]
    fn picks_in_proportion_to_weight() {
        let weights = [1.0, 2.0, 3.0, 0.5, 3.5];
        let known = [Known::default(); 5];
        let loads = [0; 5];
        let mut policy = WeightedRandom::new(&weights);
        let mut rng = SimRng::new(12);
        let n = 100_000;
        let mut counts = [0u32; 5];
        for _ in 0..n {
            counts[policy.pick(&view(&known, &loads), &mut rng).position] += 1;
        }
        for (count, w) in counts.iter().zip(weights) {
            let p = w / 10.0;
            let sd = (n as f64 * p * (1.0 - p)).sqrt();
            assert!((f64::from(*count) - n as f64 * p).abs() < 5.0 * sd, "{counts:?}");
        }
    }
}
