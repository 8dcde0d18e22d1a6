//! A timing wheel for events at random times (service completions,
//! arrivals, timeouts): the event queue's replacement for a binary heap.
//!
//! Time is cut into buckets of `2^shift` ns; a ring of `BUCKETS` buckets
//! covers the near future, and events beyond it wait in a heap until the
//! ring reaches them. Scheduling is an append to a bucket; when the clock
//! reaches a bucket its events are sorted once and taken in order. The few
//! events scheduled into a bucket already taken up wait in a small heap.
//! This is the calendar-queue idea (Brown, 1988) with a width chosen from the
//! expected event rate (about a hundred events a bucket) and a bitmap of
//! occupied buckets. A binary heap of the ~10,000 pending service completions
//! of a large simulation costs a dozen cache-missing levels per event; the
//! wheel costs an append and a share of one sort of integers.
//!
//! Events come out in exactly the order of their keys, as from a heap.

use super::events::Scheduled;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Buckets in the ring: 17 s of simulated time at a width of 2^20 ns.
const BUCKETS: usize = 1 << 14;
/// Events a bucket should hold on average: enough that moving from bucket to
/// bucket costs little per event, and that the buckets being filled at once
/// are few (the ends they are appended to stay in the cache: with a quarter
/// as many events a bucket, the benchmark ran about 7% slower); few enough
/// that sorting one stays quick.
const EVENTS_PER_BUCKET: f64 = 128.0;
/// The narrowest and widest buckets: 2^10 ns (1 µs) and 2^30 ns (1.07 s).
const SHIFTS: (u32, u32) = (10, 30);
const WORDS: usize = BUCKETS / 64;
/// How many events `due` keeps ahead of the next one when it can.
const LOOKAHEAD: usize = 16;

pub struct Wheel {
    /// Buckets are `2^shift` ns wide.
    shift: u32,
    /// Events of bucket `b` (for `current < b < current + BUCKETS`) at `b % BUCKETS`.
    ring: Vec<Vec<Scheduled>>,
    /// Bit `i` is set when `ring[i]` holds events.
    occupied: Vec<u64>,
    /// The events of the buckets up to `current` as they were when moved
    /// here, earliest first, from `due[next]` on (the earlier ones have been
    /// taken). Exhausted only when the ring and `far` are empty; topped up
    /// with the next buckets while fewer than `LOOKAHEAD` are left, so that
    /// the events a little ahead can be seen (and their data loaded early)
    /// across bucket boundaries.
    due: Vec<Scheduled>,
    next: usize,
    current: u64,
    /// Events in the ring's buckets.
    in_ring: usize,
    /// Events scheduled into buckets already moved into `due` (the next
    /// session arrival, mostly), earliest on top: a heap push instead of an
    /// insertion into the middle of `due`.
    soon: BinaryHeap<Reverse<Scheduled>>,
    /// Events beyond the ring's reach, earliest on top.
    far: BinaryHeap<Reverse<Scheduled>>,
    /// Emptied bucket buffers, reused most recent first: only the buckets in
    /// use hold memory, and it stays warm in the cache.
    spare: Vec<Vec<Scheduled>>,
    /// Scratch for sorting a bucket: (time within the bucket, place) pairs.
    order: Vec<u64>,
}

impl Wheel {
    /// A wheel for about `events_per_sec` events per simulated second (any
    /// rate works; this one just sets the bucket width).
    pub fn for_rate(events_per_sec: f64) -> Wheel {
        let width_ns = EVENTS_PER_BUCKET / events_per_sec.max(1e-9) * 1e9;
        let shift = (libm::log2(width_ns).floor() as u32).clamp(SHIFTS.0, SHIFTS.1);
        Wheel {
            shift,
            ring: vec![Vec::new(); BUCKETS],
            occupied: vec![0; WORDS],
            due: Vec::new(),
            next: 0,
            current: 0,
            in_ring: 0,
            soon: BinaryHeap::new(),
            far: BinaryHeap::new(),
            spare: Vec::new(),
            order: Vec::new(),
        }
    }

    fn bucket_of(&self, scheduled: &Scheduled) -> u64 {
        scheduled.time >> self.shift
    }

    /// The earliest event, if any.
    pub fn peek(&self) -> Option<&Scheduled> {
        if self.soon_first() {
            self.soon.peek().map(|Reverse(soon)| soon)
        } else {
            self.due.get(self.next)
        }
    }

    /// Whether the earliest event waits in `soon` rather than in `due`.
    fn soon_first(&self) -> bool {
        let due = self.due.get(self.next);
        self.soon.peek().is_some_and(|Reverse(soon)| due.is_none_or(|due| soon.key() < due.key()))
    }

    /// The event `distance` places behind the next one of `due` (not
    /// counting the few in `soon`).
    pub fn ahead(&self, distance: usize) -> Option<&Scheduled> {
        self.due.get(self.next + distance)
    }

    #[inline(always)]
    pub fn push(&mut self, scheduled: Scheduled) {
        self.place(scheduled);
        if self.next == self.due.len() {
            self.refill();
        }
    }

    pub fn pop(&mut self) -> Option<Scheduled> {
        if self.soon_first() {
            return self.soon.pop().map(|Reverse(soon)| soon);
        }
        let first = self.due.get(self.next).copied();
        self.next += 1;
        let left = self.due.len().saturating_sub(self.next);
        if left == 0 || (left < LOOKAHEAD && self.in_ring > 0) {
            self.refill();
        }
        first
    }

    #[inline(always)]
    fn place(&mut self, scheduled: Scheduled) {
        let bucket = self.bucket_of(&scheduled);
        if bucket <= self.current {
            self.soon.push(Reverse(scheduled));
        } else if bucket < self.current + BUCKETS as u64 {
            let slot = bucket as usize % BUCKETS;
            let events = &mut self.ring[slot];
            if events.capacity() == 0 {
                *events = self.spare.pop().unwrap_or_default();
            }
            events.push(scheduled);
            self.in_ring += 1;
            self.occupied[slot / 64] |= 1 << (slot % 64);
        } else {
            self.far.push(Reverse(scheduled));
        }
    }

    /// Moves the next occupied buckets into `due` (the wheel's earliest
    /// events) until it holds `LOOKAHEAD` events or the ring is empty,
    /// bringing far events into the ring as it comes within reach.
    ///
    /// A bucket holds its events in the order they were scheduled, except
    /// that events brought in from far come first, in key order, and were
    /// scheduled before any other event of their bucket. So among events at
    /// the same time the order in the bucket is the sequence order, and a
    /// stable sort by time alone puts the bucket in key order. Buckets are
    /// appended in time order, so `due` stays in key order.
    fn refill(&mut self) {
        self.due.drain(..self.next.min(self.due.len()));
        self.next = 0;
        while self.due.len() < LOOKAHEAD {
            let bucket = if self.in_ring > 0 { self.next_occupied() } else { None };
            match bucket {
                Some(bucket) => {
                    self.current = bucket;
                    let slot = bucket as usize % BUCKETS;
                    self.occupied[slot / 64] &= !(1 << (slot % 64));
                    let events = std::mem::take(&mut self.ring[slot]);
                    self.in_ring -= events.len();
                    self.append_sorted(events);
                }
                // Far events are later than any in `due`; they can wait.
                None if !self.due.is_empty() => return,
                None => match self.far.peek() {
                    Some(Reverse(next)) => self.current = self.bucket_of(next),
                    None => return,
                },
            }
            while let Some(Reverse(next)) = self.far.peek() {
                if self.bucket_of(next) >= self.current + BUCKETS as u64 {
                    break;
                }
                let Some(Reverse(next)) = self.far.pop() else { break };
                self.place(next);
            }
        }
    }

    /// Appends the events of bucket `current` to `due` in key order. They
    /// are in sequence order already (see `refill`), so a stable sort by
    /// time is enough; it is done on single integers, time within the
    /// bucket then place, and then applied.
    fn append_sorted(&mut self, mut events: Vec<Scheduled>) {
        const PLACE_BITS: u32 = 16;
        if events.len() > 1 << PLACE_BITS {
            crate::sort::sort_by_key(&mut events, |s| s.time);
            self.due.extend_from_slice(&events);
        } else {
            let start = self.current << self.shift;
            self.order.clear();
            self.order.extend(
                events.iter().enumerate().map(|(place, s)| (s.time - start) << PLACE_BITS | place as u64),
            );
            self.order.sort_unstable();
            let place_of = |key: &u64| (key & ((1 << PLACE_BITS) - 1)) as usize;
            self.due.extend(self.order.iter().map(|key| events[place_of(key)]));
        }
        events.clear();
        self.spare.push(events);
    }

    /// The first occupied bucket after `current`, searching the ring once round.
    fn next_occupied(&self) -> Option<u64> {
        let start = (self.current as usize + 1) % BUCKETS;
        let (first_word, first_bit) = (start / 64, start % 64);
        for step in 0..=WORDS {
            let word = (first_word + step) % WORDS;
            let mut bits = self.occupied[word];
            if step == 0 {
                bits &= u64::MAX << first_bit;
            } else if step == WORDS {
                bits &= (1u64 << first_bit).wrapping_sub(1);
            }
            if bits != 0 {
                let slot = word * 64 + bits.trailing_zeros() as usize;
                let ahead = (slot + BUCKETS - start) % BUCKETS;
                return Some(self.current + 1 + ahead as u64);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::events::Event;
    use super::*;
    use crate::rng::{Draw, SimRng};

    fn at(time: u64, sequence: u64) -> Scheduled {
        Scheduled { time, sequence, event: Event::Sample }
    }

    /// Pushes and pops interleaved at random, against a sorted list, with
    /// buckets from the narrowest to the widest.
    #[test]
    fn pops_in_key_order_like_a_heap() {
        for rate in [1e12, 1e5, 1e-3] {
            pops_in_key_order(Wheel::for_rate(rate));
        }
    }

    fn pops_in_key_order(mut wheel: Wheel) {
        let mut rng = SimRng::new(3);
        let mut reference: BinaryHeap<Reverse<u128>> = BinaryHeap::new();
        let mut now = 0u64;
        let spans = [1u64 << 10, 1 << 20, 1 << 28, 1 << 34, 1 << 40];
        for sequence in 0..200_000u64 {
            if rng.index(3) > 0 || reference.is_empty() {
                let span = spans[rng.index(spans.len())];
                let scheduled = at(now + rng.next_u64() % span, sequence);
                wheel.push(scheduled);
                reference.push(Reverse(scheduled.key()));
            } else {
                let popped = wheel.pop().map(|s| s.key());
                assert_eq!(popped, reference.pop().map(|Reverse(k)| k));
                now = (popped.unwrap_or(0) >> 64) as u64;
            }
            assert_eq!(wheel.peek().map(|s| s.key()), reference.peek().map(|Reverse(k)| *k));
        }
        while let Some(Reverse(key)) = reference.pop() {
            assert_eq!(wheel.pop().map(|s| s.key()), Some(key));
        }
        assert!(wheel.pop().is_none());
    }
}
