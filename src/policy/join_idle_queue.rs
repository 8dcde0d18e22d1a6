//! Join-the-idle-queue (Lu, Xie, Kliot, Geller, Larus and Greenberg, 2011):
//! a server that falls idle tells one chooser, picked at random, which keeps
//! it in its idle queue; a request goes to the server at the front of that
//! queue, or to a random one when the queue is empty. Nothing is measured at
//! decision time and no message is on the request's path.
//!
//! Here a server counts as idle when it has a free slot and nothing queued,
//! and reports once until a request reaches it; a report is instantaneous.
//! An entry can be stale: the server may have taken work from another
//! chooser since. So the chooser takes the freshest report first (the paper
//! takes the oldest; with several slots per server and sessions that come
//! back to their chooser, oldest-first sends requests to servers long since
//! busy, and does worse than random), and keeps at most one report per
//! server of its pool, the oldest falling off.

use super::{ChooserView, Pick, Policy};
use crate::rng::{Draw, SimRng};
use std::collections::VecDeque;

pub struct JoinIdleQueue {
    idle: VecDeque<usize>,
    capacity: usize,
}

impl JoinIdleQueue {
    pub fn new(pool_len: usize) -> JoinIdleQueue {
        JoinIdleQueue { idle: VecDeque::new(), capacity: pool_len.max(1) }
    }
}

impl Policy for JoinIdleQueue {
    fn pick(&mut self, view: &ChooserView, rng: &mut SimRng) -> Pick {
        match self.idle.pop_back() {
            Some(position) if position < view.pool_len() => Pick::at(position),
            _ => Pick::at(rng.index(view.pool_len())),
        }
    }

    fn on_idle(&mut self, position: usize) {
        if self.idle.len() == self.capacity {
            self.idle.pop_front();
        }
        self.idle.push_back(position);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{testing::view, Known};
    use super::*;

    #[test]
    fn takes_the_freshest_report_first_and_keeps_one_per_server() {
        let known = [Known::default(); 3];
        let loads = [0; 3];
        let mut policy = JoinIdleQueue::new(3);
        let mut rng = SimRng::new(2);
        for position in [2, 0, 1, 1] {
            policy.on_idle(position);
        }
        // Four reports, room for three: the first (2) fell off.
        let picks: Vec<usize> =
            (0..3).map(|_| policy.pick(&view(&known, &loads), &mut rng).position).collect();
        assert_eq!(picks, [1, 1, 0]);
        assert!(policy.pick(&view(&known, &loads), &mut rng).position < 3);
    }
}
