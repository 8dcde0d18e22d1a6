//! The scenario's durations, converted once into the engine's time: the
//! hops between tiers, the handshake, the timeouts and the load board's
//! refresh.

use super::events::Lane;
use crate::scenario::Scenario;
use crate::time::Time;

/// The scenario's durations, converted once.
#[derive(Clone, Copy)]
pub(super) struct Timing {
    pub client_delay: Time,
    pub balancer_delay: Time,
    pub handshake: Time,
    pub queue_timeout: Option<Time>,
    pub idle_timeout: Option<Time>,
    /// How often the load board is refreshed; `None`: policies read live load.
    pub board_refresh: Option<Time>,
}

impl Timing {
    pub fn of(scenario: &Scenario) -> Timing {
        let client_delay = Time::from_ms(scenario.client_delay_ms);
        Timing {
            client_delay,
            balancer_delay: Time::from_ms(scenario.balancer_delay_ms),
            handshake: Time(client_delay.0 * 2 * u64::from(scenario.handshake_round_trips)),
            queue_timeout: scenario.queue_timeout_ms.map(Time::from_ms),
            idle_timeout: scenario.idle_timeout_ms.map(Time::from_ms),
            // The field's range keeps a positive period at 1 µs or more, so a
            // refresh never reschedules itself at the same instant.
            board_refresh: (scenario.staleness_ms > 0.0).then(|| Time::from_ms(scenario.staleness_ms)),
        }
    }

    /// The delay, and its event lane, between a server and the tier that
    /// sent it requests (a balancer, or the client itself).
    pub fn server_hop(&self, via_balancer: bool) -> (Time, Lane) {
        if via_balancer {
            (self.balancer_delay, Lane::Balancer)
        } else {
            (self.client_delay, Lane::Client)
        }
    }
}

#[cfg(test)]
impl Timing {
    /// No delays, handshakes, timeouts, hedges or backoff: tests change
    /// what they need from here.
    pub fn untimed() -> Timing {
        Timing {
            client_delay: Time::ZERO,
            balancer_delay: Time::ZERO,
            handshake: Time::ZERO,
            queue_timeout: None,
            idle_timeout: None,
            board_refresh: None,
        }
    }
}
