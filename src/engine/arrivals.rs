//! Where sessions come from. Continuous demand: one Poisson clock at the
//! rate the load asks, started again (a new generation, so that the
//! arrival already due is dropped) whenever the load changes. Spike
//! demand: every client starts one session at time zero.

use super::journal::Happening;
use super::{Event, Simulation};
use crate::rng::Draw;
use crate::time::Time;

/// The continuous arrival clock.
#[derive(Default)]
pub(super) struct Arrivals {
    /// Arrivals of an earlier generation are stale.
    generation: u32,
    /// The fraction of a nanosecond the clock owes the next gap, so that
    /// rounding gaps to whole nanoseconds keeps the asked rate exactly.
    carry: f64,
}

impl Simulation {
    /// An arrival of generation `generation` is due: if it is current, a
    /// session starts at a client drawn at random and the next arrival is
    /// scheduled.
    pub(super) fn session_arrives(&mut self, generation: u32) {
        if generation == self.arrivals.generation {
            self.schedule_next_arrival();
            let client = self.streams.arrivals.index(self.scenario.clients as usize) as u32;
            self.start_session(client);
        } else if self.journal.is_some() {
            self.note(Happening::ArrivalDropped);
        }
    }

    pub(super) fn schedule_next_arrival(&mut self) {
        let requests_per_sec = self.scenario.load * self.capacity_per_sec;
        let sessions_per_sec = requests_per_sec / self.lengths.mean();
        // Whole nanoseconds, carrying the fraction to the next gap: rounding
        // each gap on its own would shift the rate by up to half a tick per
        // gap, several percent when gaps are a few nanoseconds long.
        let exact = self.streams.arrivals.exponential(1e9 / sessions_per_sec) + self.arrivals.carry;
        let whole = libm::floor(exact);
        self.arrivals.carry = exact - whole;
        let gap = Time(whole as u64);
        let generation = self.arrivals.generation;
        self.events.push(self.now + gap, Event::SessionArrival { generation });
    }

    /// The load changed: the clock starts again at the new rate.
    pub(super) fn restart_arrivals(&mut self) {
        self.arrivals.generation += 1;
        self.schedule_next_arrival();
    }
}
