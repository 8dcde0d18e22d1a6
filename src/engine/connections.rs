//! Whether a connection is warm: the first request over a cold one waits
//! for a handshake.
//!
//! Clients choosing servers for themselves hold a connection to every server
//! of their pool, so there is one entry per pool place, in step with the
//! choosers' table of knowledge; behind balancers, each client holds one to
//! every balancer. Without an idle timeout a connection stays
//! warm once opened and one bit records it (a million connections in 128 KB,
//! which the caches hold); with one, each entry is the time it goes cold.
//!
//! A client has one connection to each server (seed 000: sessions stick to a
//! server because a handshake is expensive, so the client opens it once), so
//! a request that finds its connection's handshake still under way waits for
//! that handshake to end rather than overtaking it or opening a second one.

use super::Timing;
use crate::time::Time;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

pub enum Connections {
    /// No handshakes are owed: balancers keep their connections warm, or
    /// the scenario has no handshake.
    Untracked,
    /// Without an idle timeout: a bit per connection, set once its
    /// handshake began, and the handshakes not yet over.
    Lasting(Vec<u64>, UnderWay),
    /// With an idle timeout: when each connection goes cold, the idle
    /// timeout after the last request sent over it left (a handshake's end,
    /// while one is under way).
    Expiring(Vec<Time>),
}

impl Connections {
    /// `entries` cold connections, tracked when `clients_connect` and the
    /// scenario has a handshake.
    pub fn new(entries: usize, clients_connect: bool, timing: &Timing) -> Connections {
        let kind = if !clients_connect || timing.handshake == Time::ZERO {
            Connections::Untracked
        } else if timing.idle_timeout.is_none() {
            Connections::Lasting(Vec::new(), UnderWay::default())
        } else {
            Connections::Expiring(Vec::new())
        };
        kind.cold(entries)
    }

    /// The same kind of table, `entries` long, every connection cold.
    pub fn cold(&self, entries: usize) -> Connections {
        match self {
            Connections::Untracked => Connections::Untracked,
            Connections::Lasting(..) => {
                Connections::Lasting(vec![0; entries.div_ceil(64)], UnderWay::default())
            }
            Connections::Expiring(_) => Connections::Expiring(super::huge_pages::filled(entries, Time::ZERO)),
        }
    }

    /// How long a request sent over connection `entry` at `now` waits
    /// before it leaves: a whole handshake on a cold connection (which it
    /// begins), the rest of one under way, nothing on a warm one.
    pub fn open(&mut self, entry: usize, now: Time, timing: &Timing) -> Time {
        match self {
            Connections::Untracked => Time::ZERO,
            Connections::Lasting(bits, under_way) => {
                under_way.forget_ended(now);
                if is_open(bits, entry) {
                    under_way.rest(entry, now)
                } else {
                    mark_open(bits, entry);
                    under_way.begin(entry, now + timing.handshake);
                    timing.handshake
                }
            }
            Connections::Expiring(goes_cold) => match (goes_cold.get_mut(entry), timing.idle_timeout) {
                (Some(goes_cold), Some(idle)) => {
                    let wait = if now < *goes_cold {
                        // The last request left at `goes_cold - idle`: later
                        // than now only when it waits for a handshake.
                        (*goes_cold - idle).saturating_sub(now)
                    } else {
                        timing.handshake
                    };
                    *goes_cold = now + wait + idle;
                    wait
                }
                _ => Time::ZERO,
            },
        }
    }

    /// Copies the state of connection `from` to connection `to` of `into`.
    pub fn copy_into(&self, from: usize, into: &mut Connections, to: usize) {
        match (self, into) {
            (Connections::Lasting(old, old_under_way), Connections::Lasting(new, new_under_way)) => {
                if let Some(word) = new.get_mut(to / 64) {
                    let bit = 1 << (to % 64);
                    *word = if is_open(old, from) { *word | bit } else { *word & !bit };
                    new_under_way.copy(old_under_way.ends_at(from), to);
                }
            }
            (Connections::Expiring(old), Connections::Expiring(new)) => {
                if let (Some(&old), Some(new)) = (old.get(from), new.get_mut(to)) {
                    *new = old;
                }
            }
            _ => {}
        }
    }

    /// Connection `entry` goes cold: its server left the pool.
    pub fn reset(&mut self, entry: usize) {
        match self {
            Connections::Untracked => {}
            Connections::Lasting(bits, under_way) => {
                if let Some(word) = bits.get_mut(entry / 64) {
                    *word &= !(1 << (entry % 64));
                }
                under_way.copy(None, entry);
            }
            Connections::Expiring(goes_cold) => {
                if let Some(goes_cold) = goes_cold.get_mut(entry) {
                    *goes_cold = Time::ZERO;
                }
            }
        }
    }

    /// Whether a request sent over one of the first `entries` connections
    /// after `now` can still wait for a handshake: one of them is cold, or
    /// its handshake is still under way, or (with an idle timeout) any can
    /// go cold again. Without one, every connection is warm a few seconds
    /// into a run (chapter 5's last handshake at 3.5 s), and the picture's
    /// legend stops listing a mark it will not draw again.
    pub fn handshakes_to_come(&self, entries: usize, now: Time) -> bool {
        match self {
            Connections::Untracked => false,
            Connections::Lasting(bits, under_way) => {
                let (whole, rest) = (entries / 64, entries % 64);
                let cold_word = bits.iter().take(whole).any(|word| *word != u64::MAX);
                let last = (1u64 << rest) - 1;
                let cold_rest = rest > 0 && bits.get(whole).is_some_and(|word| word & last != last);
                cold_word || cold_rest || under_way.by_entry.values().any(|&end| end > now)
            }
            Connections::Expiring(_) => true,
        }
    }

    /// Hints that connection `entry` will be opened soon.
    pub fn prefetch(&self, entry: usize) {
        match self {
            Connections::Untracked => {}
            Connections::Lasting(bits, _) => {
                if let Some(word) = bits.get(entry / 64) {
                    super::prefetch::prefetch(word);
                }
            }
            Connections::Expiring(goes_cold) => {
                if let Some(goes_cold) = goes_cold.get(entry) {
                    super::prefetch::prefetch(goes_cold);
                }
            }
        }
    }
}

/// The handshakes under way on lasting connections, by connection and in
/// the order they end, so that ended ones are forgotten: once every
/// connection in use has opened it is empty, and a warm send costs one
/// look at it.
#[derive(Default)]
pub struct UnderWay {
    /// When each ends, earliest first; an entry whose end no longer matches
    /// `by_entry` was overwritten by a copy and is skipped.
    ends: BinaryHeap<Reverse<(Time, usize)>>,
    by_entry: HashMap<usize, Time>,
}

impl UnderWay {
    fn forget_ended(&mut self, now: Time) {
        while let Some(&Reverse((end, entry))) = self.ends.peek() {
            if end > now {
                break;
            }
            self.ends.pop();
            if self.by_entry.get(&entry) == Some(&end) {
                self.by_entry.remove(&entry);
            }
        }
    }

    fn begin(&mut self, entry: usize, end: Time) {
        self.ends.push(Reverse((end, entry)));
        self.by_entry.insert(entry, end);
    }

    /// What is left at `now` of the handshake under way on `entry`.
    fn rest(&self, entry: usize, now: Time) -> Time {
        self.ends_at(entry).map_or(Time::ZERO, |end| end.saturating_sub(now))
    }

    fn ends_at(&self, entry: usize) -> Option<Time> {
        if self.by_entry.is_empty() {
            return None;
        }
        self.by_entry.get(&entry).copied()
    }

    /// Makes `entry`'s handshake the one ending at `end`, or none.
    fn copy(&mut self, end: Option<Time>, entry: usize) {
        match end {
            Some(end) => self.begin(entry, end),
            None => {
                self.by_entry.remove(&entry);
            }
        }
    }
}

/// Whether bit `entry` is set (an entry out of range reads as open: it owes
/// no handshake).
fn is_open(bits: &[u64], entry: usize) -> bool {
    bits.get(entry / 64).is_none_or(|word| word & 1 << (entry % 64) != 0)
}

fn mark_open(bits: &mut [u64], entry: usize) {
    if let Some(word) = bits.get_mut(entry / 64) {
        *word |= 1 << (entry % 64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timing(handshake_ms: f64, idle_ms: Option<f64>) -> Timing {
        Timing {
            handshake: Time::from_ms(handshake_ms),
            idle_timeout: idle_ms.map(Time::from_ms),
            ..Timing::untimed()
        }
    }

    #[test]
    fn lasting_connections_shake_hands_once_each() {
        let timing = timing(10.0, None);
        let mut c = Connections::new(130, true, &timing);
        assert!(matches!(c, Connections::Lasting(..)));
        for entry in [0, 63, 64, 129] {
            assert_eq!(c.open(entry, Time(5), &timing), timing.handshake);
            assert_eq!(c.open(entry, Time::from_secs(9e4), &timing), Time::ZERO);
        }
        assert_eq!(c.open(1, Time(5), &timing), timing.handshake);
        let mut moved = c.cold(3);
        c.copy_into(129, &mut moved, 2);
        assert_eq!(
            (moved.open(2, Time(6), &timing), moved.open(0, Time(6), &timing)),
            (Time::ZERO, timing.handshake)
        );
    }

    #[test]
    fn expiring_connections_go_cold_after_the_idle_time() {
        let timing = timing(10.0, Some(100.0));
        let mut c = Connections::new(4, true, &timing);
        assert_eq!(c.open(3, Time::ZERO, &timing), timing.handshake);
        // Warm until 10 ms of handshake plus 100 ms idle.
        assert_eq!(c.open(3, Time::from_ms(109.0), &timing), Time::ZERO);
        assert_eq!(c.open(3, Time::from_ms(208.0), &timing), Time::ZERO);
        assert_eq!(c.open(3, Time::from_ms(308.0), &timing), timing.handshake);
    }

    #[test]
    fn handshakes_are_to_come_until_every_connection_is_warm_and_its_handshake_over() {
        let lasting = timing(10.0, None);
        let mut c = Connections::new(65, true, &lasting);
        assert!(c.handshakes_to_come(65, Time::ZERO));
        for entry in 0..64 {
            c.open(entry, Time::ZERO, &lasting);
        }
        assert!(c.handshakes_to_come(65, Time::from_ms(20.0)), "connection 64 is still cold");
        c.open(64, Time::from_ms(20.0), &lasting);
        assert!(c.handshakes_to_come(65, Time::from_ms(25.0)), "its handshake is under way");
        assert!(!c.handshakes_to_come(65, Time::from_ms(30.0)));
        c.reset(3);
        assert!(c.handshakes_to_come(65, Time::from_ms(30.0)), "its server left and may come back");
        assert!(Connections::new(4, true, &timing(10.0, Some(100.0))).handshakes_to_come(0, Time::NEVER));
        assert!(!Connections::new(4, false, &lasting).handshakes_to_come(4, Time::ZERO));
    }

    #[test]
    fn a_request_meeting_a_handshake_under_way_waits_for_the_rest_of_it() {
        for timing in [timing(10.0, None), timing(10.0, Some(100.0))] {
            let mut c = Connections::new(70, true, &timing);
            assert_eq!(c.open(65, Time::from_ms(2.0), &timing), timing.handshake);
            assert_eq!(c.open(65, Time::from_ms(5.0), &timing), Time::from_ms(7.0));
            assert_eq!(c.open(65, Time::from_ms(12.0), &timing), Time::ZERO);
            // A copy keeps a handshake under way.
            assert_eq!(c.open(3, Time::from_ms(20.0), &timing), timing.handshake);
            let mut moved = c.cold(2);
            c.copy_into(3, &mut moved, 1);
            assert_eq!(moved.open(1, Time::from_ms(26.0), &timing), Time::from_ms(4.0));
            assert_eq!(moved.open(1, Time::from_ms(30.0), &timing), Time::ZERO);
        }
    }

    #[test]
    fn balancers_and_scenarios_without_handshakes_owe_none() {
        for (clients_connect, timing) in [(false, timing(10.0, None)), (true, timing(0.0, Some(5.0)))] {
            let mut c = Connections::new(4, clients_connect, &timing);
            assert_eq!(c.open(0, Time::ZERO, &timing), Time::ZERO);
        }
    }
}
