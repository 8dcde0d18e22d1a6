//! Consistent hashing with bounded loads (Mirrokni, Thorup and
//! Zadimoghaddam, "Consistent hashing with bounded loads", SODA 2018). A
//! key walks the ring from its point, as on a plain ring, but passes every
//! server already holding its capacity, ⌈c × (total + 1) / N⌉ with the
//! total counting the load being placed: no server goes above c times the
//! mean (plus the one rounding up adds). With c near 1 the load is nearly
//! even; the larger c, the more keys stay where the plain ring puts them.

use super::{KeyPlacement, Loads, Ring, Scheme};
use crate::policy::{Descriptor, Property, Routing};
use std::rc::Rc;

pub static BOUNDED_LOAD: Descriptor = Descriptor {
    name: "bounded-load",
    title: "consistent hashing, bounded loads",
    description:
        "the ring's answer, walking on past servers holding more than bounded_load_c times the mean load",
    properties: &[Property::ReadsBoard],
    routing: Routing::Keys(Scheme {
        settings: &["virtual_nodes", "bounded_load_c"],
        build: |members, scenario| {
            Rc::new(BoundedLoad::new(Ring::new(members, scenario.virtual_nodes), scenario.bounded_load_c))
        },
    }),
};

pub struct BoundedLoad {
    ring: Ring,
    c: f64,
}

impl BoundedLoad {
    /// `c` must be above 1, so that some server is always below capacity.
    pub fn new(ring: Ring, c: f64) -> BoundedLoad {
        BoundedLoad { ring, c }
    }

    /// The most load any one server may hold once one more is placed.
    pub fn capacity(&self, total: u64) -> u64 {
        let servers = self.ring.members().len() as f64;
        libm::ceil(self.c * (total + 1) as f64 / servers) as u64
    }
}

impl KeyPlacement for BoundedLoad {
    fn place(&self, key: u64, loads: &dyn Loads) -> u32 {
        let capacity = self.capacity(loads.total());
        let points = self.ring.points();
        let start = self.ring.successor(super::hash::key(key));
        // Some server is below capacity (N × capacity > total), so the walk
        // ends within one turn; the first point's owner is a safe answer.
        (0..points.len())
            .map(|step| points[(start + step) % points.len()].1)
            .find(|&server| loads.load(server) < capacity)
            .unwrap_or(points[start].1)
    }

    fn members(&self) -> &[u32] {
        self.ring.members()
    }

    fn rebuilt(&self, members: &[u32]) -> Rc<dyn KeyPlacement> {
        Rc::new(BoundedLoad::new(self.ring.rebuilt_ring(members), self.c))
    }

    fn ring_points(&self) -> Option<&[(u64, u32)]> {
        Some(self.ring.points())
    }
}

#[cfg(test)]
mod tests {
    use super::super::Unloaded;
    use super::*;
    use std::cell::RefCell;

    /// Keys placed one after another, each adding one to its server's load.
    struct Tally(RefCell<Vec<u64>>);

    impl Loads for Tally {
        fn load(&self, server: u32) -> u64 {
            self.0.borrow()[server as usize]
        }
        fn total(&self) -> u64 {
            self.0.borrow().iter().sum()
        }
    }

    #[test]
    fn no_server_exceeds_c_times_the_mean_plus_one() {
        let members: Vec<u32> = (0..10).collect();
        for c in [1.05, 1.25, 2.0] {
            let bounded = BoundedLoad::new(Ring::new(&members, 1), c);
            let tally = Tally(RefCell::new(vec![0; 10]));
            for key in 0..10_000 {
                let server = bounded.place(key, &tally);
                tally.0.borrow_mut()[server as usize] += 1;
            }
            let max = *tally.0.borrow().iter().max().unwrap() as f64;
            assert!(max <= c * 1_000.0 + 1.0, "c = {c}: {max}");
        }
    }

    #[test]
    fn without_load_it_is_the_plain_ring() {
        let members: Vec<u32> = (0..8).collect();
        let (ring, bounded) = (Ring::new(&members, 20), BoundedLoad::new(Ring::new(&members, 20), 1.25));
        assert!((0..2_000).all(|k| ring.place(k, &Unloaded) == bounded.place(k, &Unloaded)));
    }
}
