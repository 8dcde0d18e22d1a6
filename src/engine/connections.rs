//! Whether a connection is warm: the first request over a cold one waits
//! for a handshake.
//!
//! Clients choosing servers for themselves hold a connection to every server
//! of their pool, so there is one entry per pool place, in step with the
//! choosers' table of knowledge; behind balancers, each client holds one to
//! every balancer. Without an idle timeout a connection stays
//! warm once opened and one bit records it (a million connections in 128 KB,
//! which the caches hold); with one, each entry is the time it goes cold.

use super::Timing;
use crate::time::Time;

pub enum Connections {
    /// No handshakes are owed: balancers keep their connections warm, or
    /// the scenario has no handshake.
    Untracked,
    /// Without an idle timeout: a bit per connection, set once it opened.
    Lasting(Vec<u64>),
    /// With an idle timeout: when each connection goes cold.
    Expiring(Vec<Time>),
}

impl Connections {
    /// `entries` cold connections, tracked when `clients_connect` and the
    /// scenario has a handshake.
    pub fn new(entries: usize, clients_connect: bool, timing: &Timing) -> Connections {
        let kind = if !clients_connect || timing.handshake == Time::ZERO {
            Connections::Untracked
        } else if timing.idle_timeout.is_none() {
            Connections::Lasting(Vec::new())
        } else {
            Connections::Expiring(Vec::new())
        };
        kind.cold(entries)
    }

    /// The same kind of table, `entries` long, every connection cold.
    pub fn cold(&self, entries: usize) -> Connections {
        match self {
            Connections::Untracked => Connections::Untracked,
            Connections::Lasting(_) => Connections::Lasting(vec![0; entries.div_ceil(64)]),
            Connections::Expiring(_) => Connections::Expiring(super::huge_pages::filled(entries, Time::ZERO)),
        }
    }

    /// The handshake owed to send over connection `entry` at `now`; it is
    /// warm from then on.
    pub fn open(&mut self, entry: usize, now: Time, timing: &Timing) -> Time {
        match self {
            Connections::Untracked => Time::ZERO,
            Connections::Lasting(bits) if !is_open(bits, entry) => {
                mark_open(bits, entry);
                timing.handshake
            }
            Connections::Lasting(_) => Time::ZERO,
            Connections::Expiring(warm_until) => match warm_until.get_mut(entry) {
                Some(warm_until) => {
                    let handshake = if now < *warm_until { Time::ZERO } else { timing.handshake };
                    *warm_until = timing.idle_timeout.map_or(Time::NEVER, |idle| now + handshake + idle);
                    handshake
                }
                None => Time::ZERO,
            },
        }
    }

    /// Copies the state of connection `from` to connection `to` of `into`.
    pub fn copy_into(&self, from: usize, into: &mut Connections, to: usize) {
        match (self, into) {
            (Connections::Lasting(old), Connections::Lasting(new)) => {
                if let Some(word) = new.get_mut(to / 64) {
                    let bit = 1 << (to % 64);
                    *word = if is_open(old, from) { *word | bit } else { *word & !bit };
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

    /// Hints that connection `entry` will be opened soon.
    pub fn prefetch(&self, entry: usize) {
        match self {
            Connections::Untracked => {}
            Connections::Lasting(bits) => {
                if let Some(word) = bits.get(entry / 64) {
                    super::prefetch::prefetch(word);
                }
            }
            Connections::Expiring(warm_until) => {
                if let Some(warm_until) = warm_until.get(entry) {
                    super::prefetch::prefetch(warm_until);
                }
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
            client_delay: Time::ZERO,
            balancer_delay: Time::ZERO,
            handshake: Time::from_ms(handshake_ms),
            queue_timeout: None,
            idle_timeout: idle_ms.map(Time::from_ms),
            board_refresh: None,
            hedge_after: None,
            hedge_percentile: None,
            hedging: false,
            retry_backoff: None,
            cross_dc: None,
        }
    }

    #[test]
    fn lasting_connections_shake_hands_once_each() {
        let timing = timing(10.0, None);
        let mut c = Connections::new(130, true, &timing);
        assert!(matches!(c, Connections::Lasting(_)));
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
    fn balancers_and_scenarios_without_handshakes_owe_none() {
        for (clients_connect, timing) in [(false, timing(10.0, None)), (true, timing(0.0, Some(5.0)))] {
            let mut c = Connections::new(4, clients_connect, &timing);
            assert_eq!(c.open(0, Time::ZERO, &timing), Time::ZERO);
        }
    }
}
