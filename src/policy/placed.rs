//! A placement scheme as a policy: the request's key decides the server
//! (see `crate::keys`), and the chooser's view of load is read only by a
//! scheme that bounds it. Every chooser holding the same member set sends a
//! key to the same server, and a bounce brings it back to the same one:
//! affinity, whatever the queue.
//!
//! A stale copy of a mapping table (see `table_lag_ms`) may name a server
//! that has since left the chooser's pool: the chooser knows it is gone and
//! sends the key where its hash falls over the pool instead, as `ranges`
//! would, so that choosers holding the same copy still agree.

use super::{ChooserView, Compared, Measure, Pick, Policy, Seen};
use crate::keys::{hash, Loads, Unloaded};
use crate::rng::{Draw, SimRng};

pub struct Placed;

impl Policy for Placed {
    fn pick(&mut self, view: &ChooserView, rng: &mut SimRng) -> Pick {
        let (Some(key), Some(placement)) = (view.key, view.placement) else {
            // Only a request without a key (a hedged copy's second pick)
            // comes here: any server will do.
            return Pick::at(rng.index(view.pool_len()));
        };
        Pick::at(position_of(view, key, placement.place(key, &PoolLoads(view))))
    }

    fn compared(&self, view: &ChooserView, into: &mut Vec<Seen>) -> Option<Compared> {
        let (Some(key), Some(placement)) = (view.key, view.placement) else { return None };
        let loads = PoolLoads(view);
        let (home, taken) = (placement.place(key, &Unloaded), placement.place(key, &loads));
        let seen = |server: u32| Seen {
            position: position_of(view, key, server),
            amount: loads.load(server) as f64,
        };
        into.push(seen(home));
        if taken != home {
            into.push(seen(taken));
        }
        Some(Compared { measure: Measure::Key, fell_back: false })
    }
}

/// Where `server`, the placement's answer for `key`, is in the view's pool;
/// if it has left the pool, where the key's hash falls over the pool.
fn position_of(view: &ChooserView, key: u64, server: u32) -> usize {
    view.position_in_pool(server).unwrap_or_else(|| hash::scaled(hash::key(key), view.pool_len()))
}

/// The requests at each server of a view's pool, as its board says.
struct PoolLoads<'a, 'b>(&'a ChooserView<'b>);

impl Loads for PoolLoads<'_, '_> {
    fn load(&self, server: u32) -> u64 {
        let load = self.0.board.load(server as usize);
        u64::from(load.queued()) + u64::from(load.busy())
    }

    fn total(&self) -> u64 {
        (0..self.0.pool_len()).map(|p| self.load(self.0.server(p) as u32)).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{testing::view, Known, Load};
    use super::*;
    use crate::keys::{BoundedLoad, KeyPlacement, Ring, Unloaded};

    #[test]
    fn the_key_picks_the_placements_server() {
        let known = [Known::default(); 6];
        let loads = [0; 6];
        let ring = Ring::new(&[0, 1, 2, 3, 4, 5], 10);
        let mut rng = SimRng::new(2);
        for key in 0..200 {
            let view = ChooserView { key: Some(key), placement: Some(&ring), ..view(&known, &loads) };
            assert_eq!(Placed.pick(&view, &mut rng).position as u32, ring.place(key, &Unloaded));
        }
    }

    #[test]
    fn bounded_loads_pass_a_full_server() {
        let known = [Known::default(); 2];
        let bounded = BoundedLoad::new(Ring::new(&[0, 1], 1), 1.25);
        let key = 3;
        let first = bounded.place(key, &Unloaded) as usize;
        // The first choice holds ten requests, the other none: capacity is
        // ⌈1.25 × 11 / 2⌉ = 7, so the key walks on.
        let mut loads = [0; 2];
        loads[first] = Load::new(4, 6).0;
        let view = ChooserView { key: Some(key), placement: Some(&bounded), ..view(&known, &loads) };
        assert_eq!(Placed.pick(&view, &mut SimRng::new(1)).position, 1 - first);
    }
}
