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
//! busy, and does worse than random), and keeps as many reports as its pool
//! has servers, the oldest falling off.
//!
//! The idle queue is what the chooser has heard, so it lives with the
//! chooser ([`IdleQueue`], kept by server, which outlasts a policy rebuilt
//! over a changed pool); the chooser takes the freshest report for each
//! pick and the policy sees it as [`ChooserView::idle`].

use super::{ChooserView, Descriptor, Pick, Policy, Property, Routing};
use crate::rng::{Draw, SimRng};
use std::collections::VecDeque;

pub static JOIN_IDLE_QUEUE: Descriptor = Descriptor {
    name: "join-idle-queue",
    title: "join the idle queue",
    description: "a server that fell idle and told this chooser; random when none did",
    properties: &[Property::HearsIdleServers],
    routing: Routing::Picks(|_, _, _| Box::new(JoinIdleQueue)),
};

pub struct JoinIdleQueue;

impl Policy for JoinIdleQueue {
    fn pick(&mut self, view: &ChooserView, rng: &mut SimRng) -> Pick {
        match view.idle {
            Some(position) => Pick::at(position),
            None => Pick::at(rng.index(view.pool_len())),
        }
    }
}

/// The servers that fell idle and told a chooser, freshest last.
#[derive(Default)]
pub struct IdleQueue(VecDeque<u32>);

impl IdleQueue {
    /// `server` fell idle and told the chooser, whose pool holds `pool_len` servers.
    pub fn heard(&mut self, server: u32, pool_len: usize) {
        if self.0.len() >= pool_len.max(1) {
            self.0.pop_front();
        }
        self.0.push_back(server);
    }

    /// The freshest report, taken off the queue.
    pub fn take(&mut self) -> Option<u32> {
        self.0.pop_back()
    }

    /// Forgets every report.
    pub fn clear(&mut self) {
        self.0.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::super::{testing::view, Known};
    use super::*;

    #[test]
    fn takes_the_freshest_report_first_and_keeps_one_per_server_of_the_pool() {
        let mut queue = IdleQueue::default();
        for server in [2, 0, 1, 1] {
            queue.heard(server, 3);
        }
        // Four reports, room for three: the first (2) fell off.
        let taken: Vec<_> = std::iter::from_fn(|| queue.take()).collect();
        assert_eq!(taken, [1, 1, 0]);
    }

    #[test]
    fn picks_the_reported_server_or_else_at_random() {
        let known = [Known::default(); 3];
        let loads = [0; 3];
        let mut rng = SimRng::new(2);
        let reported = ChooserView { idle: Some(2), ..view(&known, &loads) };
        assert_eq!(JoinIdleQueue.pick(&reported, &mut rng).position, 2);
        let counts = (0..3000).fold([0; 3], |mut counts, _| {
            counts[JoinIdleQueue.pick(&view(&known, &loads), &mut rng).position] += 1;
            counts
        });
        assert!(counts.iter().all(|&c| c > 800), "{counts:?}");
    }
}
