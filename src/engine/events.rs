//! The event queue: events ordered by `(time, sequence)`, so events due at
//! the same instant run in the order they were scheduled.

use super::feature::FeatureTimer;
use super::flight::Flight;
use super::wheel::Wheel;
use crate::time::Time;
use std::cmp::Ordering;
use std::collections::VecDeque;

/// Something that happens at an instant. A request in flight is named by
/// a [`Flight`]; one at its chooser (not yet sent, or backing off), by its
/// place among the core's requests.
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
        place: u32,
    },
    ArriveAtServer {
        flight: Flight,
    },
    /// The oldest request queued at `server` may have timed out (stale unless
    /// it is the server's pending timeout).
    QueueTimeout {
        server: u32,
    },
    ServiceDone {
        flight: Flight,
    },
    /// A request sent back by a queue timeout reaches its chooser.
    BounceArrives {
        flight: Flight,
    },
    ResponseAtBalancer {
        flight: Flight,
    },
    ResponseAtClient {
        flight: Flight,
    },
    /// The load board is copied from the servers (stale unless `generation` is current).
    BoardRefresh {
        generation: u32,
    },
    /// A point of the live series is taken.
    Sample,
    /// A timer a feature beside the core asked for is due: which feature,
    /// and the payload it gave, packed in one word as every event's payload
    /// is (see `feature/mod.rs`).
    FeatureTimer {
        timer: FeatureTimer,
    },
}

impl Event {
    /// The request the core's event moves, if it moves one (a feature's
    /// timer for a request names it with [`FeatureTimer::place`]).
    pub fn flight(self) -> Option<Flight> {
        match self {
            Event::ArriveAtServer { flight }
            | Event::ServiceDone { flight }
            | Event::BounceArrives { flight }
            | Event::ResponseAtBalancer { flight }
            | Event::ResponseAtClient { flight } => Some(flight),
            Event::ArriveAtBalancer { place } => Some(Flight::request(place)),
            Event::SessionArrival { .. }
            | Event::ClientStarts { .. }
            | Event::QueueTimeout { .. }
            | Event::BoardRefresh { .. }
            | Event::Sample
            | Event::FeatureTimer { .. } => None,
        }
    }
}

/// An event stays one word with its kind, so a scheduled one takes 24 bytes.
const _: () = assert!(std::mem::size_of::<Event>() == 8);

/// An event with its place in the order, `(time, sequence)`.
#[derive(Clone, Copy, Debug)]
pub struct Scheduled {
    pub time: u64,
    pub sequence: u64,
    pub event: Event,
}

impl Scheduled {
    /// Time in the high 64 bits, sequence in the low: one integer comparison
    /// orders events. (Kept as two words, an event takes 24 bytes, not 32.)
    pub fn key(&self) -> u128 {
        u128::from(self.time) << 64 | u128::from(self.sequence)
    }
}

impl PartialEq for Scheduled {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}
impl Eq for Scheduled {}
impl PartialOrd for Scheduled {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Scheduled {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key().cmp(&other.key())
    }
}

/// Events scheduled a fixed delay ahead (network hops, queue timeouts) arrive
/// in time order, so each such delay gets a FIFO lane; events at random
/// times (service completions, arrivals) go to a timing [`Wheel`]. Popping
/// takes the earliest `(time, sequence)` of the wheel and the lane fronts,
/// so the order is exactly that of a single priority queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    /// One-way client delay.
    Client,
    /// A handshake's round trips, then the one-way client delay.
    AfterHandshake,
    /// One-way balancer delay.
    Balancer,
}

const LANES: usize = 3;

pub struct EventQueue {
    wheel: Wheel,
    lanes: [VecDeque<Scheduled>; LANES],
    /// The key of each lane's first event, then of the wheel's, `u128::MAX`
    /// when empty.
    fronts: [u128; LANES + 1],
    /// The lane whose front is earliest: the next event is there or in the
    /// wheel, one comparison.
    earliest_lane: usize,
    next_sequence: u64,
    /// Where the last event was taken from (a lane's index, or `WHEEL`).
    taken_from: usize,
    /// Service completions made void while due (a crash took the request
    /// with its server): (the request, when due). Each is still handled,
    /// as nothing, and traced, naming no request.
    voided: Vec<(Flight, Time)>,
}

const EMPTY: u128 = u128::MAX;
const WHEEL: usize = LANES;

impl EventQueue {
    /// A queue for a simulation of about `events_per_sec` events at random
    /// times per simulated second (it sizes the wheel's buckets).
    pub fn new(events_per_sec: f64) -> EventQueue {
        EventQueue {
            wheel: Wheel::for_rate(events_per_sec),
            lanes: Default::default(),
            fronts: [EMPTY; LANES + 1],
            earliest_lane: 0,
            next_sequence: 0,
            taken_from: WHEEL,
            voided: Vec::new(),
        }
    }

    /// The service completion of the request `flight` names, due at `due`,
    /// is void.
    pub fn void_service(&mut self, flight: Flight, due: Time) {
        self.voided.push((flight, due));
    }

    /// Whether the service completion of `flight` due at `now` is void.
    #[inline]
    pub fn is_void(&self, flight: Flight, now: Time) -> bool {
        !self.voided.is_empty() && self.voided.contains(&(flight, now))
    }

    /// Whether the service completion of `flight` due at `now` is void;
    /// forgets it if so (it is handled once).
    #[inline]
    pub fn take_void(&mut self, flight: Flight, now: Time) -> bool {
        if self.voided.is_empty() {
            return false;
        }
        let found = self.voided.iter().position(|&v| v == (flight, now));
        found.map(|i| self.voided.swap_remove(i)).is_some()
    }

    #[inline(always)]
    pub fn push(&mut self, time: Time, event: Event) {
        let scheduled = self.stamp(time, event);
        self.push_wheel(scheduled);
    }

    /// Schedules into a FIFO lane; falls back to the wheel when `time` is
    /// earlier than the lane's last event (a handshake or a changed setting
    /// broke the lane's order).
    #[inline(always)]
    pub fn push_in_lane(&mut self, lane: Lane, time: Time, event: Event) {
        let scheduled = self.stamp(time, event);
        let index = lane as usize;
        let queue = &mut self.lanes[index];
        match queue.back() {
            Some(last) if last.key() > scheduled.key() => self.push_wheel(scheduled),
            Some(_) => queue.push_back(scheduled),
            None => {
                queue.push_back(scheduled);
                self.fronts[index] = scheduled.key();
                if scheduled.key() < self.fronts[self.earliest_lane] {
                    self.earliest_lane = index;
                }
            }
        }
    }

    /// Schedules the end of a network hop in its lane, or, when a feature
    /// adds `extra` to it (its delay then not the lane's), on the wheel.
    #[inline(always)]
    pub fn push_hop(&mut self, lane: Lane, at: Time, extra: Option<Time>, event: Event) {
        match extra {
            None => self.push_in_lane(lane, at, event),
            Some(extra) => self.push(at + extra, event),
        }
    }

    #[inline(always)]
    fn push_wheel(&mut self, scheduled: Scheduled) {
        self.fronts[WHEEL] = self.fronts[WHEEL].min(scheduled.key());
        self.wheel.push(scheduled);
    }

    fn stamp(&mut self, time: Time, event: Event) -> Scheduled {
        self.next_sequence += 1;
        Scheduled { time: time.0, sequence: self.next_sequence, event }
    }

    /// Which front holds the earliest event, and its key (`EMPTY` if none).
    fn earliest(&self) -> (usize, u128) {
        let (lane, wheel) = (self.fronts[self.earliest_lane], self.fronts[WHEEL]);
        if lane < wheel {
            (self.earliest_lane, lane)
        } else {
            (WHEEL, wheel)
        }
    }

    pub fn next_time(&self) -> Option<Time> {
        self.next_due().map(|(time, _)| time)
    }

    /// The earliest event's time and sequence (its place among the events
    /// due then), if any.
    pub fn next_due(&self) -> Option<(Time, u64)> {
        let (_, key) = self.earliest();
        (key != EMPTY).then_some((Time((key >> 64) as u64), key as u64))
    }

    /// How many events have been scheduled so far, each with its sequence.
    pub fn scheduled(&self) -> u64 {
        self.next_sequence
    }

    /// The event `distance` places behind the front of the queue the last
    /// event was taken from (half as far in the wheel, which takes about half
    /// as many of a simulation's events as its busiest lane): each time a
    /// queue moves on by one, one more of what will run soon, so that its
    /// data can be loaded ahead.
    pub fn ahead(&self, distance: usize) -> Option<Event> {
        let scheduled = match self.lanes.get(self.taken_from) {
            Some(lane) => lane.get(distance),
            None => self.wheel.ahead(distance / 2),
        };
        scheduled.map(|s| s.event)
    }

    /// Takes the earliest event if it is due at or before `until`.
    #[inline(always)]
    pub fn pop_until(&mut self, until: Time) -> Option<(Time, Event)> {
        let (place, key) = self.earliest();
        if key == EMPTY || key >> 64 > u128::from(until.0) {
            return None;
        }
        self.taken_from = place;
        let scheduled = if place == WHEEL {
            let first = self.wheel.pop();
            self.fronts[WHEEL] = self.wheel.peek().map_or(EMPTY, |s| s.key());
            first
        } else {
            let queue = &mut self.lanes[place];
            let first = queue.pop_front();
            self.fronts[place] = queue.front().map_or(EMPTY, |s| s.key());
            self.earliest_lane = (0..LANES).min_by_key(|&lane| self.fronts[lane]).unwrap_or(0);
            first
        }?;
        Some((Time(scheduled.time), scheduled.event))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A crash voids a service completion due at one instant, for one
    /// request, and it is taken once: the same request's next service,
    /// or another's due then, still counts.
    #[test]
    fn a_voided_service_completion_is_void_once_and_only_its_own() {
        let mut q = EventQueue::new(1e5);
        let (flight, due) = (Flight::request(3), Time(40));
        q.void_service(flight, due);
        assert!(!q.is_void(flight, Time(41)) && !q.is_void(Flight::attempt(3), due));
        assert!(q.is_void(flight, due));
        assert!(q.take_void(flight, due));
        assert!(!q.take_void(flight, due), "taken once");
    }

    #[test]
    fn earliest_first_and_ties_in_insertion_order() {
        let mut q = EventQueue::new(1e5);
        q.push(Time(5), Event::Sample);
        q.push(Time(1), Event::ClientStarts { client: 1 });
        q.push(Time(5), Event::ClientStarts { client: 2 });
        q.push(Time(1), Event::ClientStarts { client: 3 });
        let order: Vec<_> = std::iter::from_fn(|| q.pop_until(Time(u64::MAX))).collect();
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

    #[test]
    fn lanes_and_wheel_merge_into_one_order() {
        let mut q = EventQueue::new(1e5);
        let e = |client| Event::ClientStarts { client };
        q.push_in_lane(Lane::Client, Time(3), e(1));
        q.push(Time(3), e(2));
        q.push_in_lane(Lane::AfterHandshake, Time(2), e(3));
        q.push_in_lane(Lane::Client, Time(5), e(4));
        // Earlier than the lane's last event: it must still come out in order.
        q.push_in_lane(Lane::Client, Time(4), e(5));
        q.push_in_lane(Lane::Balancer, Time(3), e(6));
        assert_eq!(q.next_time(), Some(Time(2)));
        assert_eq!(q.pop_until(Time(1)), None);
        let order: Vec<_> =
            std::iter::from_fn(|| q.pop_until(Time(u64::MAX))).map(|(t, e)| (t.0, e)).collect();
        assert_eq!(order, vec![(2, e(3)), (3, e(1)), (3, e(2)), (3, e(6)), (4, e(5)), (5, e(4))]);
        assert_eq!(q.next_time(), None);
    }
}
