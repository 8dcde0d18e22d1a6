//! A chooser (a client choosing for itself, or a balancer): its pool of
//! servers, what it knows about each, and its policy.

use crate::policy::{self, Board, Known, Load, Pick, Policy, View};
use crate::rng::SimRng;
use crate::scenario::PolicyKind;
use crate::time::Time;

pub struct Chooser {
    /// Servers this chooser may pick, ascending; `None` means all.
    pub pool: Option<Vec<u32>>,
    pub known: Vec<Known>,
    pub policy: Box<dyn Policy>,
}

impl Chooser {
    pub fn new(
        pool: Option<Vec<u32>>,
        servers: usize,
        kind: PolicyKind,
        choices: u32,
        rng: &mut SimRng,
    ) -> Chooser {
        let len = pool.as_ref().map_or(servers, Vec::len);
        Chooser { pool, known: vec![Known::default(); len], policy: policy::build(kind, choices, len, rng) }
    }

    pub fn pool_len(&self) -> usize {
        self.known.len()
    }

    pub fn position_of(&self, server: u32) -> Option<usize> {
        match &self.pool {
            None => Some(server as usize).filter(|&p| p < self.known.len()),
            Some(pool) => pool.binary_search(&server).ok(),
        }
    }

    pub fn server_at(&self, position: usize) -> u32 {
        self.pool.as_ref().map_or(position as u32, |pool| pool[position])
    }

    /// Runs the policy on what this chooser knows. `avoid` is the server that
    /// just sent a request back, if any.
    pub fn pick(&mut self, now: Time, board: Board, avoid: Option<u32>, rng: &mut SimRng) -> Pick {
        let avoid = avoid.and_then(|server| self.position_of(server));
        let Chooser { pool, known, policy } = self;
        policy.pick(&View { now, pool: pool.as_deref(), known, board, avoid }, rng)
    }

    /// A request goes out to the server at `position`: count it, and assume
    /// it adds one to that server's load.
    pub fn on_send(&mut self, position: usize, slots: u32) {
        let known = &mut self.known[position];
        known.in_flight += 1;
        known.reported = known.reported.plus_one(slots);
    }

    /// A response or bounce came back from `server`, carrying its load.
    pub fn on_return(&mut self, server: u32, reported: Load, measured_at: Time) {
        if let Some(position) = self.position_of(server) {
            let known = &mut self.known[position];
            known.in_flight = known.in_flight.saturating_sub(1);
            known.learn(reported, measured_at);
        }
    }

    /// Moves to a new pool, keeping what it knew of servers in both.
    pub fn change_pool(&mut self, pool: Option<Vec<u32>>, servers: usize) {
        let len = pool.as_ref().map_or(servers, Vec::len);
        let mut known = vec![Known::default(); len];
        for (position, entry) in known.iter_mut().enumerate() {
            let server = pool.as_ref().map_or(position as u32, |p| p[position]);
            if let Some(old) = self.position_of(server) {
                *entry = self.known[old];
            }
        }
        self.pool = pool;
        self.known = known;
    }
}

/// Draws a pool of `size` servers out of `servers` (`None` when it is all of them).
/// `scratch` is any permutation of `0..servers`; a partial Fisher–Yates
/// shuffle of it gives a uniform subset.
pub fn draw_pool(
    size: Option<u32>,
    servers: usize,
    scratch: &mut [u32],
    rng: &mut SimRng,
) -> Option<Vec<u32>> {
    let size = size? as usize;
    if size >= servers {
        return None;
    }
    for i in 0..size {
        let j = i + rng.index(servers - i);
        scratch.swap(i, j);
    }
    let mut pool = scratch[..size].to_vec();
    pool.sort_unstable();
    Some(pool)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pools_are_distinct_sorted_and_in_range() {
        let mut rng = SimRng::new(8);
        let mut scratch: Vec<u32> = (0..50).collect();
        for _ in 0..100 {
            let pool = draw_pool(Some(7), 50, &mut scratch, &mut rng).unwrap();
            assert_eq!(pool.len(), 7);
            assert!(pool.windows(2).all(|w| w[0] < w[1]));
            assert!(pool.iter().all(|&s| s < 50));
        }
        assert_eq!(draw_pool(Some(50), 50, &mut scratch, &mut rng), None);
        assert_eq!(draw_pool(None, 50, &mut scratch, &mut rng), None);
    }

    #[test]
    fn changing_pool_keeps_shared_knowledge() {
        let mut rng = SimRng::new(1);
        let mut chooser = Chooser::new(Some(vec![1, 4, 7]), 10, PolicyKind::Random, 2, &mut rng);
        chooser.on_send(1, 10);
        chooser.change_pool(Some(vec![0, 4]), 10);
        assert_eq!(chooser.position_of(4), Some(1));
        assert_eq!(chooser.known[1].in_flight, 1);
        assert_eq!(chooser.known[0].in_flight, 0);
        chooser.on_return(7, Load::new(0, 1), Time(5));
        assert_eq!(chooser.known.iter().map(|k| k.in_flight).sum::<u32>(), 1);
    }
}
