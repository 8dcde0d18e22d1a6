//! A server: `slots` workers and a FIFO queue.
//!
//! A request that leaves the queue early (its timeout sent it back) stays in
//! the deque as a dead entry, recognised by its ticket and skipped later, so
//! removal is O(1); `queued` counts only live entries.

use crate::policy::Load;
use std::collections::VecDeque;

pub struct Server {
    pub slots: u32,
    pub speed: f64,
    pub busy: u32,
    pub queued: u32,
    /// (session, ticket) in arrival order, including dead entries.
    queue: VecDeque<(u32, u32)>,
}

impl Server {
    pub fn new(slots: u32, speed: f64) -> Server {
        Server { slots, speed, busy: 0, queued: 0, queue: VecDeque::new() }
    }

    pub fn load(&self) -> Load {
        Load::new(self.queued, self.busy)
    }

    pub fn has_free_slot(&self) -> bool {
        self.busy < self.slots
    }

    pub fn enqueue(&mut self, session: u32, ticket: u32) {
        self.queue.push_back((session, ticket));
        self.queued += 1;
    }

    /// A queued request left without being served; its entry is now dead.
    pub fn forget_one(&mut self, is_live: impl Fn(u32, u32) -> bool) {
        self.queued -= 1;
        self.drop_dead_front(is_live);
    }

    /// Takes the oldest live entry.
    pub fn pop_live(&mut self, is_live: impl Fn(u32, u32) -> bool) -> Option<u32> {
        while let Some((session, ticket)) = self.queue.pop_front() {
            if is_live(session, ticket) {
                self.queued -= 1;
                return Some(session);
            }
        }
        None
    }

    /// Live entries, oldest first.
    pub fn live_entries<'a>(
        &'a self,
        is_live: impl Fn(u32, u32) -> bool + 'a,
    ) -> impl Iterator<Item = (u32, u32)> + 'a {
        self.queue.iter().copied().filter(move |&(s, t)| is_live(s, t))
    }

    fn drop_dead_front(&mut self, is_live: impl Fn(u32, u32) -> bool) {
        while let Some(&(session, ticket)) = self.queue.front() {
            if is_live(session, ticket) {
                break;
            }
            self.queue.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skips_entries_that_left_early() {
        let mut server = Server::new(1, 1.0);
        server.enqueue(1, 10);
        server.enqueue(2, 11);
        server.enqueue(3, 12);
        let live = |s: u32, _t: u32| s != 2;
        server.forget_one(live);
        assert_eq!(server.queued, 2);
        assert_eq!(server.live_entries(live).count(), 2);
        assert_eq!(server.pop_live(live), Some(1));
        assert_eq!(server.pop_live(live), Some(3));
        assert_eq!(server.pop_live(live), None);
        assert_eq!(server.queued, 0);
    }
}
