//! A server: `slots` workers and a FIFO queue.
//!
//! Every queued request has the same timeout, so the oldest is always the
//! first to expire: requests leave the queue only from its front, and one
//! pending timeout event per server, due when its oldest request expires, is
//! enough.

use crate::policy::Load;
use crate::time::Time;
use std::collections::VecDeque;

/// One cache line, aligned to a line: every arrival and completion reads it.
#[repr(align(64))]
pub struct Server {
    pub slots: u32,
    pub speed: f64,
    pub busy: u32,
    /// Sessions whose request waits here, oldest first.
    pub queue: VecDeque<u32>,
    /// When this server's pending timeout event is due, if it has one.
    pub timeout_due: Option<Time>,
}

impl Server {
    pub fn new(slots: u32, speed: f64) -> Server {
        Server { slots, speed, busy: 0, queue: VecDeque::new(), timeout_due: None }
    }

    pub fn queued(&self) -> u32 {
        self.queue.len() as u32
    }

    pub fn load(&self) -> Load {
        Load::new(self.queued(), self.busy)
    }

    pub fn has_free_slot(&self) -> bool {
        self.busy < self.slots
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_server_fills_one_cache_line() {
        assert_eq!(std::mem::size_of::<super::Server>(), 64);
    }
}
