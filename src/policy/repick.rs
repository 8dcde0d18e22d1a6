//! Random choice that, after a queue timeout, picks a different server than
//! the one that sent the request back.

use super::{ChooserView, Descriptor, Pick, Policy, Routing};
use crate::rng::{Draw, SimRng};

pub static REPICK: Descriptor = Descriptor {
    name: "repick",
    // Without a comma: "random, repick after a bounce" over a picture
    // beside one titled "random" read as two options of one (reader 12).
    title: "random that repicks after a bounce",
    description: "random; after a queue timeout, a different server",
    properties: &[],
    routing: Routing::Picks(|_, _, _| Box::new(Repick)),
};

pub struct Repick;

impl Policy for Repick {
    fn pick(&mut self, view: &ChooserView, rng: &mut SimRng) -> Pick {
        match view.avoid {
            Some(avoid) if view.pool_len() > 1 => {
                let position = rng.index(view.pool_len() - 1);
                Pick::at(if position >= avoid { position + 1 } else { position })
            }
            _ => Pick::at(rng.index(view.pool_len())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{testing::view, Known};
    use super::*;

    #[test]
    fn never_returns_to_the_server_that_bounced() {
        let known = [Known::default(); 3];
        let loads = [0; 3];
        let mut rng = SimRng::new(2);
        let mut counts = [0; 3];
        for _ in 0..300 {
            let mut v = view(&known, &loads);
            v.avoid = Some(1);
            counts[Repick.pick(&v, &mut rng).position] += 1;
        }
        assert_eq!(counts[1], 0);
        assert!(counts[0] > 100 && counts[2] > 100, "{counts:?}");
    }

    #[test]
    fn a_pool_of_one_has_no_alternative() {
        let known = [Known::default(); 1];
        let loads = [0; 1];
        let mut v = view(&known, &loads);
        v.avoid = Some(0);
        assert_eq!(Repick.pick(&v, &mut SimRng::new(1)).position, 0);
    }
}
