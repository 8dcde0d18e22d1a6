//! Where sessions come from. Continuous demand: one Poisson clock at the
//! rate the load asks, started again (a new generation, so that the
//! arrival already due is dropped) whenever the load changes. Spike
//! demand: every client starts one session at time zero. A replayed
//! trace: each of its requests arrives at its time, a session of one
//! request at a client drawn at random, bringing what the trace says of it
//! (its key, class and service time) and drawing the rest as the scenario
//! says. The trace is read one arrival ahead, so a long one takes no
//! more memory than a short one.

use super::feature::Created;
use super::journal::Happening;
use super::{Event, Simulation};
use crate::rng::Draw;
use crate::time::Time;

/// One request of a replayed trace.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arrival {
    /// When it arrives, from the start of the run (not before the one before it).
    pub at: Time,
    /// Its key, for a policy that places by key; else drawn.
    pub key: Option<u64>,
    /// Its class, an index into the scenario's classes; else drawn by their shares.
    pub class: Option<u8>,
    /// Its service time at speed 1; else drawn from its class's distribution.
    pub service: Option<Time>,
}

/// A trace's arrivals, in order of time.
pub type Replay = Box<dyn Iterator<Item = Arrival>>;

/// Where the next session comes from.
#[derive(Default)]
pub(super) struct Arrivals {
    /// Arrivals of an earlier generation are stale.
    generation: u32,
    /// The fraction of a nanosecond the clock owes the next gap, so that
    /// rounding gaps to whole nanoseconds keeps the asked rate exactly.
    carry: f64,
    /// A trace replayed instead of the clock, and its arrival due next.
    replay: Option<(Replay, Option<Arrival>)>,
    /// The requests created since the recording was last taken, when the
    /// run's arrivals are recorded.
    recorded: Option<Vec<Arrival>>,
}

impl Arrivals {
    pub fn replaying(replay: Replay) -> Arrivals {
        Arrivals { replay: Some((replay, None)), ..Arrivals::default() }
    }

    pub fn replays(&self) -> bool {
        self.replay.is_some()
    }

    pub fn records(&self) -> bool {
        self.recorded.is_some()
    }
}

impl Simulation {
    /// An arrival of generation `generation` is due: if it is current, a
    /// session starts at a client drawn at random and the next arrival is
    /// scheduled.
    pub(super) fn session_arrives(&mut self, generation: u32) {
        if generation != self.arrivals.generation {
            if self.journal.is_some() {
                self.note(Happening::ArrivalDropped);
            }
            return;
        }
        let replayed = match &mut self.arrivals.replay {
            None => None,
            Some((_, due)) => due.take(),
        };
        self.schedule_next_arrival();
        let client = self.streams.arrivals.index(self.scenario.clients as usize) as u32;
        self.start_session(client, replayed);
    }

    /// From now on, keeps each request as it is created, with what it
    /// brings (its key, class and service time at speed 1), for a trace of
    /// the run: take them with [`Simulation::take_recorded`] often enough
    /// to keep the memory they hold small.
    pub fn record_arrivals(&mut self) {
        self.arrivals.recorded.get_or_insert_with(Vec::new);
    }

    /// The requests created since the last call, in order of creation.
    pub fn take_recorded(&mut self) -> Vec<Arrival> {
        self.arrivals.recorded.as_mut().map(std::mem::take).unwrap_or_default()
    }

    #[cold]
    fn record_arrival(&mut self, id: u32) {
        let Some(session) = self.requests.get(id) else { return };
        let r = &session.request;
        let service = Time(libm::round(f64::from(r.demand)) as u64);
        let arrival =
            Arrival { at: self.now, key: self.key_carried(id), class: Some(r.class), service: Some(service) };
        if let Some(recorded) = &mut self.arrivals.recorded {
            recorded.push(arrival);
        }
    }

    /// Schedules the first arrival: the clock's, or the trace's.
    pub(super) fn start_arrivals(&mut self) {
        self.schedule_next_arrival();
    }

    fn schedule_next_arrival(&mut self) {
        if let Some((replay, due)) = &mut self.arrivals.replay {
            *due = replay.next();
            if let Some(arrival) = due {
                let at = arrival.at.max(self.now);
                let generation = self.arrivals.generation;
                self.events.push(at, Event::SessionArrival { generation });
            }
            return;
        }
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

    /// The load changed: the clock starts again at the new rate (a
    /// replayed trace keeps its own times).
    pub(super) fn restart_arrivals(&mut self) {
        if self.arrivals.replays() {
            return;
        }
        self.arrivals.generation += 1;
        self.schedule_next_arrival();
    }
}

impl Simulation {
    /// Place `id`'s request was just created, in no race; a recording of
    /// the run's arrivals keeps it.
    #[inline]
    pub(super) fn on_created(&mut self, id: u32) {
        self.requests.races.new_request(id);
        self.tell_created(Created { place: id });
        if self.arrivals.records() {
            self.record_arrival(id);
        }
    }
}
