//! Uniform random choice: needs no information and cannot herd.

use super::{ChooserView, Descriptor, Pick, Policy, Routing};
use crate::rng::{Draw, SimRng};

pub static RANDOM: Descriptor = Descriptor {
    name: "random",
    title: "random",
    description: "uniformly random server",
    properties: &[],
    routing: Routing::Picks(|_, _, _| Box::new(RandomPick)),
};

pub struct RandomPick;

impl Policy for RandomPick {
    fn pick(&mut self, view: &ChooserView, rng: &mut SimRng) -> Pick {
        Pick::at(rng.index(view.pool_len()))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{testing::view, Known};
    use super::*;

    #[test]
    fn covers_the_pool() {
        let known = [Known::default(); 4];
        let loads = [0; 4];
        let mut rng = SimRng::new(5);
        let mut seen = [false; 4];
        for _ in 0..100 {
            seen[RandomPick.pick(&view(&known, &loads), &mut rng).position] = true;
        }
        assert_eq!(seen, [true; 4]);
    }
}
