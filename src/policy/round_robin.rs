//! Round-robin: each chooser cycles through its pool from its own starting
//! point. Even in count, blind to work.

use super::{ChooserView, Descriptor, Pick, Policy, Routing};
use crate::rng::{Draw, SimRng};

pub static ROUND_ROBIN: Descriptor = Descriptor {
    name: "round-robin",
    title: "round-robin",
    description: "each chooser cycles through its pool",
    properties: &[],
    routing: Routing::Picks(|_, weights, rng| {
        Box::new(RoundRobin::starting_at(rng.index(weights.len().max(1))))
    }),
};

pub struct RoundRobin {
    next: usize,
}

impl RoundRobin {
    pub fn starting_at(position: usize) -> RoundRobin {
        RoundRobin { next: position }
    }
}

impl Policy for RoundRobin {
    fn pick(&mut self, view: &ChooserView, _rng: &mut SimRng) -> Pick {
        let position = self.next % view.pool_len();
        self.next = position + 1;
        Pick::at(position)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{testing::view, Known};
    use super::*;

    #[test]
    fn cycles_from_its_start() {
        let known = [Known::default(); 3];
        let loads = [0; 3];
        let mut rng = SimRng::new(1);
        let mut policy = RoundRobin::starting_at(2);
        let picks: Vec<usize> =
            (0..5).map(|_| policy.pick(&view(&known, &loads), &mut rng).position).collect();
        assert_eq!(picks, [2, 0, 1, 2, 0]);
    }
}
