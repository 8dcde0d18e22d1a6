//! A server: `slots` workers and a queue (see [`Queue`]), one FIFO per
//! priority level.
//!
//! Every queued request has the same timeout, so within a level the oldest
//! is always the first to expire: requests time out only from the fronts of
//! the levels, and one pending timeout event per server, due when the oldest
//! of those expires, is enough.

use super::queue::Queue;
use crate::policy::Load;
use crate::time::Time;

/// One cache line, aligned to a line: every arrival and completion reads it.
#[repr(align(64))]
pub struct Server {
    pub slots: u32,
    pub busy: u32,
    pub speed: f64,
    /// Requests whose request waits here.
    pub queue: Queue,
    /// When this server's pending timeout event is due; `Time::NEVER` when
    /// it has none (an `Option<Time>` would take the line's last 8 bytes).
    timeout_due: Time,
}

impl Server {
    pub fn new(slots: u32, speed: f64, levels: usize) -> Server {
        Server { slots, busy: 0, speed, queue: Queue::new(levels), timeout_due: Time::NEVER }
    }

    pub fn queued(&self) -> u32 {
        self.queue.len() as u32
    }

    pub fn load(&self) -> Load {
        Load::new(self.queued(), self.busy)
    }

    /// A crashed server has no slots (the line has no byte to spare for a flag).
    pub fn is_down(&self) -> bool {
        self.slots == 0
    }

    /// The server stops: no slot left, nothing queued, no timeout pending.
    pub fn crash(&mut self) {
        self.slots = 0;
        self.busy = 0;
        self.set_timeout_due(None);
    }

    /// A crashed server comes back with `slots` free; a removed one is as it was.
    pub fn restore(&mut self, slots: u32) {
        if self.is_down() {
            self.slots = slots;
        }
    }

    pub fn has_free_slot(&self) -> bool {
        self.busy < self.slots
    }

    pub fn timeout_due(&self) -> Option<Time> {
        (self.timeout_due != Time::NEVER).then_some(self.timeout_due)
    }

    pub fn set_timeout_due(&mut self, due: Option<Time>) {
        self.timeout_due = due.unwrap_or(Time::NEVER);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_server_fills_one_cache_line() {
        assert_eq!(std::mem::size_of::<super::Server>(), 64);
    }
}
