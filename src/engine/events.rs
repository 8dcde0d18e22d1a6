//! The event queue: events ordered by `(time, sequence)`, so events due at
//! the same instant run in the order they were scheduled.

use crate::time::Time;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Something that happens at an instant. Requests are named by their
/// session, which has at most one request in flight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// The next session of continuous demand arrives (stale unless `generation` is current).
    SessionArrival {
        generation: u32,
    },
    /// A client starts a session (spike demand).
    ClientStarts {
        client: u32,
    },
    ArriveAtBalancer {
        session: u32,
    },
    ArriveAtServer {
        session: u32,
    },
    /// A queued request's timeout; stale unless the request still holds `ticket`.
    QueueTimeout {
        session: u32,
        ticket: u32,
    },
    ServiceDone {
        session: u32,
    },
    /// A request sent back by a queue timeout reaches its chooser.
    BounceArrives {
        session: u32,
    },
    ResponseAtBalancer {
        session: u32,
    },
    ResponseAtClient {
        session: u32,
    },
    /// The load board is copied from the servers (stale unless `generation` is current).
    BoardRefresh {
        generation: u32,
    },
    /// A point of the live series is taken.
    Sample,
}

#[derive(Clone, Copy, Debug)]
struct Scheduled {
    time: Time,
    sequence: u64,
    event: Event,
}

impl PartialEq for Scheduled {
    fn eq(&self, other: &Self) -> bool {
        (self.time, self.sequence) == (other.time, other.sequence)
    }
}
impl Eq for Scheduled {}
impl PartialOrd for Scheduled {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Scheduled {
    /// Reversed, so the max-heap pops the earliest event first.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.time, other.sequence).cmp(&(self.time, self.sequence))
    }
}

#[derive(Default)]
pub struct EventQueue {
    heap: BinaryHeap<Scheduled>,
    next_sequence: u64,
}

impl EventQueue {
    pub fn push(&mut self, time: Time, event: Event) {
        self.heap.push(Scheduled { time, sequence: self.next_sequence, event });
        self.next_sequence += 1;
    }

    pub fn next_time(&self) -> Option<Time> {
        self.heap.peek().map(|s| s.time)
    }

    pub fn pop(&mut self) -> Option<(Time, Event)> {
        self.heap.pop().map(|s| (s.time, s.event))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earliest_first_and_ties_in_insertion_order() {
        let mut q = EventQueue::default();
        q.push(Time(5), Event::Sample);
        q.push(Time(1), Event::ClientStarts { client: 1 });
        q.push(Time(5), Event::ClientStarts { client: 2 });
        q.push(Time(1), Event::ClientStarts { client: 3 });
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(
            order,
            vec![
                (Time(1), Event::ClientStarts { client: 1 }),
                (Time(1), Event::ClientStarts { client: 3 }),
                (Time(5), Event::Sample),
                (Time(5), Event::ClientStarts { client: 2 }),
            ]
        );
    }
}
