//! The least-loaded server of the whole pool by some signal: least-connections
//! (the chooser's own in-flight counts, so several balancers each see only a
//! part of the truth) or join-the-shortest-queue (true load from the board).
//! The scan starts at a random position so that ties are not always broken
//! toward the same server.

use super::{lowest, ChooserView, Descriptor, Pick, Policy, Property, Routing, Signal};
use crate::rng::SimRng;

pub static LEAST_CONNECTIONS: Descriptor = Descriptor {
    name: "least-connections",
    title: "least connections (own count)",
    description: "fewest requests this chooser has in flight",
    properties: &[],
    routing: Routing::Picks(|_, _, _| Box::new(LeastLoaded::new(Signal::InFlight))),
};

pub static SHORTEST_QUEUE: Descriptor = Descriptor {
    name: "shortest-queue",
    title: "shortest queue, live load",
    description: "least-loaded server of the pool by true load",
    properties: &[Property::ReadsBoard],
    routing: Routing::Picks(|_, _, _| Box::new(LeastLoaded::new(Signal::Board))),
};

pub static LEAST_WORK: Descriptor = Descriptor {
    name: "least-work",
    title: "least work in flight (own count)",
    description: "least work this chooser has in flight: its requests weighted by their class's mean cost",
    properties: &[],
    routing: Routing::Picks(|_, _, _| Box::new(LeastLoaded::new(Signal::Work))),
};

pub struct LeastLoaded {
    signal: Signal,
}

impl LeastLoaded {
    pub fn new(signal: Signal) -> LeastLoaded {
        LeastLoaded { signal }
    }
}

impl Policy for LeastLoaded {
    fn pick(&mut self, view: &ChooserView, rng: &mut SimRng) -> Pick {
        Pick::at(lowest(0..view.pool_len(), |position| self.signal.rank(view, position), rng))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{testing::view, Known, Load};
    use super::*;

    #[test]
    fn finds_the_shortest_queue() {
        let known = [Known::default(); 4];
        let loads = [Load::new(2, 1).0, Load::new(0, 10).0, Load::new(1, 0).0, Load::new(0, 9).0];
        let mut rng = SimRng::new(3);
        for _ in 0..20 {
            let pick = LeastLoaded::new(Signal::Board).pick(&view(&known, &loads), &mut rng);
            assert_eq!(pick.position, 3);
        }
    }

    #[test]
    fn least_connections_reads_only_its_own_counts() {
        let mut known = [Known::default(); 3];
        known[0].in_flight = 4;
        known[1].in_flight = 1;
        known[2].in_flight = 3;
        let loads = [0, 100, 0];
        let pick = LeastLoaded::new(Signal::InFlight).pick(&view(&known, &loads), &mut SimRng::new(1));
        assert_eq!(pick.position, 1);
    }
}
