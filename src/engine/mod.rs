//! The discrete-event simulation: clients, optional balancers, servers.
//!
//! Integer time; one event queue ordered by `(time, sequence)`; one seed,
//! split into a random stream per purpose (see [`Streams`]) so that two
//! settings compare on common random numbers; no wall clock. The API suits a frame
//! loop: build from a scenario, [`Simulation::advance_to`] a simulated time
//! with a cap on events, change live settings with [`Simulation::set`], and
//! read a [`Snapshot`] for drawing or a [`Summary`] for numbers.

mod arrivals;
mod attempts;
mod board;
mod chooser;
mod compare;
mod connections;
mod copies;
mod events;
mod failures;
mod feature;
mod flight;
mod flow;
mod huge_pages;
mod journal;
mod keyed;
mod learned;
mod lengths;
mod live;
mod marks;
mod membership;
#[cfg(test)]
mod membership_tests;
mod prefetch;
mod queue;
mod requests;
mod server;
mod service;
mod serving;
mod snapshot;
mod sorted;
mod summary;
#[cfg(test)]
mod tests;
mod timing;
mod wheel;

pub use arrivals::{Arrival, Replay};
pub use compare::Comparison;
pub use copies::RaceTally;
pub use events::Event;
pub use failures::{ErrorKind, Outcome};
pub use feature::HedgeTally;
pub use feature::Hedging;
pub use feature::{Candidate, Decision, Locality, Outliers};
pub use feature::{FeatureId, FeatureTimer};
pub use flight::Flight;
pub use journal::{Happening, Reply, Step, Whose};
pub use learned::LearnedLoad;
pub use membership::{ChangeReport, KeyMoves, KeySpread, ServerState};
pub use requests::Stage;
pub use serving::SendBack;
pub use snapshot::{Hop, RequestView, ServerView, Snapshot};
pub use summary::{Books, ClassSummary, Confidence, Summary, Tally};

use crate::metrics::Metrics;
use crate::rng::Streams;
use crate::scenario::{Demand, Scenario, ScenarioError};
use crate::time::Time;
use arrivals::Arrivals;
use board::LoadBoard;
use chooser::{Choosers, Subsets};
use connections::Connections;
use events::EventQueue;
use feature::{Action, Owned};
use requests::{Identity, Requests};
use server::Server;
use service::Work;
use timing::Timing;

pub struct Simulation {
    scenario: Scenario,
    now: Time,
    streams: Streams,
    events: EventQueue,
    servers: Vec<Server>,
    /// One per balancer, or one per client when clients choose for themselves.
    choosers: Choosers,
    /// With balancers: each client's connection to each balancer,
    /// `clients × balancers` entries.
    client_links: Connections,
    requests: Requests,
    /// Server loads as of the last refresh, for policies reading stale load.
    board: LoadBoard,
    /// The continuous arrival clock.
    arrivals: Arrivals,
    /// Why the simulation stopped for good, if it did.
    halt: Option<Halt>,
    /// Each request's class and service demand.
    work: Work,
    /// How many requests each session sends.
    lengths: lengths::SessionLengths,
    /// Where keys live over every member, to measure what a membership
    /// change moves.
    directory: membership::KeyDirectory,
    /// The attempts features sent for their own, out.
    attempts: attempts::Attempts,
    /// The features that own their state (see `feature/mod.rs`), and
    /// what they asked of the core at the latest point.
    owned: Owned,
    asked: Vec<(FeatureId, Action)>,
    /// How each server treats the requests that reach it, as features
    /// mark it.
    marks: marks::Marks,
    /// Requests per second all servers together complete at full load.
    capacity_per_sec: f64,
    timing: Timing,
    metrics: Metrics,
    /// While a step is journaled, what happened in it (see `journal.rs`).
    journal: Option<Vec<journal::Happening>>,
    /// How many events the simulation had scheduled once its membership
    /// and failure schedules were: those of them due when a live change
    /// would apply come before the schedule's entry for it in the run
    /// replayed (see `Simulation::live_instant`).
    scheduled_at_build: u64,
    events_processed: u64,
    trace_hash: u64,
}

/// The most requests a simulation holds in flight at once. Past it (an
/// overload with no queue timeout, run long enough) the simulation stops
/// with [`Halt::TooManyInFlight`] rather than grow its memory without bound.
pub const MAX_IN_FLIGHT: u64 = 1 << 24;

/// Why a simulation stopped before its time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Halt {
    /// A new request would have exceeded [`MAX_IN_FLIGHT`] at this time.
    TooManyInFlight { at: Time },
    /// A replayed trace's request at this time names a class the
    /// scenario does not have (it has `classes`).
    UnknownClass { at: Time, class: u8, classes: usize },
}

impl std::fmt::Display for Halt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Halt::TooManyInFlight { at } => write!(
                f,
                "the simulation stopped at {:.3} simulated s with {MAX_IN_FLIGHT} requests in flight, the most it holds: the servers cannot keep up (lower load, or set queue_timeout_ms so that waiting requests bounce and fail)",
                at.as_secs()
            ),
            Halt::UnknownClass { at, class, classes } => write!(
                f,
                "the replay stopped at {:.3} simulated s: the trace's request there is of class {class}, and the scenario has {classes} (class_shares): give it as many classes as the trace names",
                at.as_secs()
            ),
        }
    }
}

/// What one call to [`Simulation::advance_to`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Advance {
    pub events: u64,
    /// False when the event cap stopped it short of the target time.
    pub reached: bool,
}

impl Simulation {
    /// Builds a simulation; `scenario.seed` seeds its generator.
    pub fn new(scenario: &Scenario) -> Result<Simulation, ScenarioError> {
        Simulation::build(scenario, Arrivals::default())
    }

    /// Builds a simulation whose requests are `replay`'s, a trace's, each
    /// a session of its own: the scenario's `session_length` must be 1,
    /// and its `load` and `demand` are not used.
    pub fn replaying(scenario: &Scenario, replay: Replay) -> Result<Simulation, ScenarioError> {
        if scenario.session_length != 1 || scenario.session_length_shape.is_some() {
            return Err(ScenarioError::Combination {
                fields: "session_length, session_length_shape",
                message: "a replayed trace sends each request as a session of its own: set session_length = 1 and leave session_length_shape out".into(),
            });
        }
        Simulation::build(scenario, Arrivals::replaying(replay))
    }

    fn build(scenario: &Scenario, arrivals: Arrivals) -> Result<Simulation, ScenarioError> {
        scenario.validate()?;
        let scenario = scenario.clone();
        let mut streams = Streams::new(scenario.seed);
        let servers: Vec<Server> = (0..scenario.servers as usize)
            .map(|i| Server::new(scenario.slots, scenario.speed_of(i), scenario.priority_levels()))
            .collect();
        let n = servers.len();
        let policy = (scenario.policy, scenario.choices);
        let timing = Timing::of(&scenario);
        let pools = (Subsets::of(&scenario), scenario.balancers == 0, &timing);
        let choosers = Choosers::new(
            (scenario.choosers() as usize, &scenario.class_pools),
            (scenario.weights(), scenario.class_means_ms()),
            pools,
            policy,
            &mut streams.routing,
        );
        let links =
            if scenario.balancers > 0 { scenario.clients as usize * scenario.balancers as usize } else { 0 };
        let mut sim = Simulation {
            now: Time::ZERO,
            events: EventQueue::new(Self::random_time_events_per_sec(&scenario)),
            servers,
            choosers,
            client_links: Connections::new(links, true, &timing),
            requests: Requests::default(),
            board: LoadBoard::new(n),
            arrivals,
            halt: None,
            work: Work::from_scenario(&scenario),
            lengths: lengths::SessionLengths::new(&scenario, streams.lengths),
            directory: membership::KeyDirectory::default(),
            attempts: attempts::Attempts::default(),
            owned: Owned::for_scenario(&scenario),
            asked: Vec::new(),
            marks: marks::Marks::default(),
            capacity_per_sec: scenario.capacity_per_sec(),
            timing,
            metrics: Metrics::new(n, Time::from_secs(scenario.warmup_s), scenario.class_shares.len()),
            journal: None,
            scheduled_at_build: 0,
            events_processed: 0,
            trace_hash: 0xcbf2_9ce4_8422_2325,
            streams,
            scenario,
        };
        let directory = sim.choosers.place_keys(&sim.scenario);
        sim.directory.set(directory);
        sim.tell_policies_built();
        match sim.scenario.demand {
            _ if sim.arrivals.replays() => sim.start_arrivals(),
            Demand::Spike => {
                for client in 0..sim.scenario.clients {
                    sim.events.push(Time::ZERO, Event::ClientStarts { client });
                }
            }
            Demand::Continuous => sim.start_arrivals(),
        }
        sim.restart_board();
        sim.events.push(sim.metrics.first_sample(), Event::Sample);
        sim.start_features();
        sim.scheduled_at_build = sim.events.scheduled();
        Ok(sim)
    }

    /// About how many events at random times (mostly service completions) a
    /// simulated second holds: the servers' throughput.
    fn random_time_events_per_sec(scenario: &Scenario) -> f64 {
        let busy = match scenario.demand {
            Demand::Continuous => scenario.load.min(1.0),
            Demand::Spike => 1.0,
        };
        scenario.capacity_per_sec() * busy
    }

    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// Whether a request sent from now on can still wait for a handshake,
    /// which the picture draws: to a server its chooser has not yet
    /// connected to, or to a balancer, or over a connection that goes cold
    /// when idle.
    pub fn handshakes_to_come(&self) -> bool {
        let links = self.scenario.clients as usize * self.scenario.balancers as usize;
        self.choosers.handshakes_to_come(self.now) || self.client_links.handshakes_to_come(links, self.now)
    }

    pub fn now(&self) -> Time {
        self.now
    }

    /// Keeps the latest `keep` decisions of a policy that compares a
    /// sample of servers, for [`Snapshot::decisions`]; 0 keeps none.
    pub fn record_decisions(&mut self, keep: usize) {
        self.owned.record_decisions(keep);
    }

    /// How many decisions were kept since [`Simulation::record_decisions`]
    /// (0 when none are kept, or the policy compares no sample).
    pub fn decisions_made(&self) -> u64 {
        self.owned.decisions().map_or(0, |decisions| decisions.made())
    }

    pub fn events_processed(&self) -> u64 {
        self.events_processed
    }

    /// Whether its requests are a trace's, replayed.
    pub fn replays(&self) -> bool {
        self.arrivals.replays()
    }

    /// A hash of every event processed so far (its time, its kind, and what
    /// it concerns, a request by its identity): equal hashes mean the same
    /// run, event for event.
    pub fn trace_hash(&self) -> u64 {
        self.trace_hash
    }

    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// Starts the "after" curve afresh: from now on it counts only the
    /// sessions that start from now on (see `Metrics::sessions_since_mark`).
    pub fn mark_sessions(&mut self) {
        self.metrics.mark_sessions(self.now);
    }

    /// Why the simulation stopped for good, if it did; it then processes
    /// no more events.
    pub fn halted(&self) -> Option<Halt> {
        self.halt
    }

    /// Processes the next event, if any, and returns its time.
    pub fn step(&mut self) -> Option<Time> {
        if self.halt.is_some() {
            return None;
        }
        let (time, event) = self.events.pop_until(Time::NEVER)?;
        self.process(time, event);
        Some(time)
    }

    /// Inlined into the event loop (`advance_to`), as the queue's
    /// `pop_until` is: called there, the loop takes about 6% more
    /// instructions (theory-supermarket under callgrind).
    #[inline(always)]
    fn process(&mut self, time: Time, event: Event) {
        self.now = time;
        self.events_processed += 1;
        self.mix_trace(time, event);
        self.prefetch();
        self.handle(event);
    }

    /// Processes events due up to `target`, at most `max_events` of them. If
    /// all were processed the clock moves to `target` even when nothing was
    /// due. A halted simulation (see [`Simulation::halted`]) does nothing.
    pub fn advance_to(&mut self, target: Time, max_events: u64) -> Advance {
        let mut events = 0;
        while events < max_events {
            if self.halt.is_some() {
                return Advance { events, reached: false };
            }
            let Some((time, event)) = self.events.pop_until(target) else {
                self.now = self.now.max(target);
                return Advance { events, reached: true };
            };
            self.process(time, event);
            events += 1;
        }
        let reached = self.events.next_time().is_none_or(|t| t > target);
        if reached {
            self.now = self.now.max(target);
        }
        Advance { events, reached }
    }

    /// Runs to the scenario's duration.
    pub fn run(&mut self) {
        self.advance_to(Time::from_secs(self.scenario.duration_s), u64::MAX);
    }

    fn mix_trace(&mut self, time: Time, event: Event) {
        let request = |place| Some(Flight::request(place));
        let (kind, word) = match event {
            Event::SessionArrival { generation } => (1, generation.into()),
            Event::ClientStarts { client } => (2, client.into()),
            Event::ArriveAtBalancer { place: id } => (3, self.traced(request(id))),
            Event::ArriveAtServer { flight } => (4, self.traced(Some(flight))),
            Event::QueueTimeout { server } => (5, server.into()),
            Event::ServiceDone { flight } => {
                let voided = self.events.is_void(flight, time);
                (6, self.traced((!voided).then_some(flight)))
            }
            Event::BounceArrives { flight } => (7, self.traced(Some(flight))),
            Event::ResponseAtBalancer { flight } => (8, self.traced(Some(flight))),
            Event::ResponseAtClient { flight } => (9, self.traced(Some(flight))),
            Event::BoardRefresh { generation } => (10, generation.into()),
            Event::Sample => (11, 0),
            Event::FeatureTimer { timer } => {
                let (kind, payload) = timer.traced();
                let word = match timer.place() {
                    Some(place) => self.traced(request(place).filter(|_| self.owned.stands(timer, time))),
                    None => payload.into(),
                };
                (kind, word)
            }
        };
        for word in [time.0, kind << 56 ^ word] {
            self.trace_hash = (self.trace_hash ^ word).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// A request as the trace names it: by its identity, which does not
    /// depend on where it is kept; one an event no longer finds (a stale
    /// hedge, a service a crash made void) by none.
    #[inline]
    fn traced(&self, flight: Option<Flight>) -> u64 {
        flight.and_then(|flight| self.identity_of(flight)).map_or(u64::MAX, Identity::word)
    }
}
