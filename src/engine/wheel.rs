//! A timing wheel for events at random times (service completions,
//! arrivals, timeouts): the event queue's replacement for a binary heap.
//!
//! Time is cut into buckets of `2^BUCKET_SHIFT` ns; a ring of `BUCKETS`
//! buckets covers the near future, and events beyond it wait in a heap until
//! the ring reaches them. Scheduling is an append to a bucket; when the clock
//! reaches a bucket its few events are sorted once and taken from the end.
//! This is the calendar-queue idea (Brown, 1988) with a fixed width and a
//! bitmap of occupied buckets. A binary heap of the ~10,000 pending service
//! completions of a large simulation costs a dozen cache-missing levels per
//! event; the wheel costs a sort of a bucket of a few dozen.
//!
//! Events come out in exactly the order of their keys, as from a heap.

use super::events::Scheduled;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Bucket width: 2^18 ns, about a quarter of a millisecond.
const BUCKET_SHIFT: u32 = 18;
/// Buckets in the ring: with the width above, about 4.3 s of simulated time.
const BUCKETS: usize = 1 << 14;
const WORDS: usize = BUCKETS / 64;

pub struct Wheel {
    /// Events of bucket `b` (for `current < b < current + BUCKETS`) at `b % BUCKETS`.
    ring: Vec<Vec<Scheduled>>,
    /// Bit `i` is set when `ring[i]` holds events.
    occupied: Vec<u64>,
    /// Every event of bucket `current` or earlier, earliest first, from
    /// `due[next]` on (the earlier ones have been taken). Exhausted only when
    /// the whole wheel is empty.
    due: Vec<Scheduled>,
    next: usize,
    current: u64,
    /// Events beyond the ring's reach, earliest on top.
    far: BinaryHeap<Reverse<Scheduled>>,
    /// Emptied bucket buffers, reused most recent first: only the buckets in
    /// use hold memory, and it stays warm in the cache.
    spare: Vec<Vec<Scheduled>>,
}

impl Default for Wheel {
    fn default() -> Wheel {
        Wheel {
            ring: vec![Vec::new(); BUCKETS],
            occupied: vec![0; WORDS],
            due: Vec::new(),
            next: 0,
            current: 0,
            far: BinaryHeap::new(),
            spare: Vec::new(),
        }
    }
}

fn bucket_of(scheduled: &Scheduled) -> u64 {
    scheduled.time >> BUCKET_SHIFT
}

impl Wheel {
    /// The earliest event, if any.
    pub fn peek(&self) -> Option<&Scheduled> {
        self.due.get(self.next)
    }

    /// The event `distance` places behind the earliest, within its bucket.
    pub fn ahead(&self, distance: usize) -> Option<&Scheduled> {
        self.due.get(self.next + distance)
    }

    pub fn push(&mut self, scheduled: Scheduled) {
        self.place(scheduled);
        if self.next == self.due.len() {
            self.refill();
        }
    }

    pub fn pop(&mut self) -> Option<Scheduled> {
        let first = self.due.get(self.next).copied();
        self.next += 1;
        if self.next >= self.due.len() {
            self.refill();
        }
        first
    }

    fn place(&mut self, scheduled: Scheduled) {
        let bucket = bucket_of(&scheduled);
        if bucket <= self.current {
            let at = self.next + self.due[self.next..].partition_point(|s| s.key() < scheduled.key());
            self.due.insert(at, scheduled);
        } else if bucket < self.current + BUCKETS as u64 {
            let slot = bucket as usize % BUCKETS;
            let events = &mut self.ring[slot];
            if events.capacity() == 0 {
                *events = self.spare.pop().unwrap_or_default();
            }
            events.push(scheduled);
            self.occupied[slot / 64] |= 1 << (slot % 64);
        } else {
            self.far.push(Reverse(scheduled));
        }
    }

    /// Moves the next occupied bucket into `due` (the wheel's earliest
    /// events), bringing far events into the ring as it comes within reach.
    ///
    /// A bucket holds its events in the order they were scheduled, except
    /// that events brought in from far come first, in key order, and were
    /// scheduled before any other event of their bucket. So among events at
    /// the same time the order in the bucket is the sequence order, and a
    /// stable sort by time alone puts the bucket in key order.
    fn refill(&mut self) {
        let mut drained = std::mem::take(&mut self.due);
        if drained.capacity() > 0 {
            drained.clear();
            self.spare.push(drained);
        }
        self.next = 0;
        while self.due.is_empty() {
            match self.next_occupied() {
                Some(bucket) => {
                    self.current = bucket;
                    let slot = bucket as usize % BUCKETS;
                    self.occupied[slot / 64] &= !(1 << (slot % 64));
                    self.due = std::mem::take(&mut self.ring[slot]);
                    self.due.sort_by_key(|s| s.time);
                }
                None => match self.far.peek() {
                    Some(Reverse(next)) => self.current = bucket_of(next),
                    None => return,
                },
            }
            while let Some(Reverse(next)) = self.far.peek() {
                if bucket_of(next) >= self.current + BUCKETS as u64 {
                    break;
                }
                let Some(Reverse(next)) = self.far.pop() else { break };
                self.place(next);
            }
        }
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
    use crate::rng::SimRng;

    fn at(time: u64, sequence: u64) -> Scheduled {
        Scheduled { time, sequence, event: Event::Sample }
    }

    /// Pushes and pops interleaved at random, against a sorted list.
    #[test]
    fn pops_in_key_order_like_a_heap() {
        let mut rng = SimRng::new(3);
        let mut wheel = Wheel::default();
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
