//! Failure modes while a simulation runs (issue 15; seed 002: a balancer
//! routes around trouble), on the scenario's schedule or live: a server
//! down (connections refused at once), slow (speed times a factor),
//! fast-failing (a share of its requests answered with an error after a
//! short time) or flapping (down and up in turn). One made live as a
//! person makes it (`fail_server_live`) joins the schedule, so that the
//! scenario replays it.
//!
//! Errors are responses: they travel back like any response, carrying an
//! [`Outcome`], and the chooser that hears one retries the request
//! elsewhere within the retry budget (see `flow.rs`), or the request fails
//! to its caller with the error's kind. Every load signal hears an error
//! as it hears a response: least-connections' count drops when it comes
//! back, and peak-EWMA times its round trip as Finagle and Linkerd do, so
//! a server that fails fast looks lightly loaded to both (the black hole
//! that outlier ejection cures, see `chooser/ejection.rs`).

use super::flight::Flight;
use super::hedge::Race;
use super::journal::Happening;
use super::{Event, Simulation};
use crate::rng::Draw;
use crate::scenario::duration::LATEST_S;
use crate::scenario::failures::{Failure, ScheduledFailure, MAX_FAILURES};
use crate::scenario::ScenarioError;
use crate::time::Time;
use serde::Serialize;

/// What kind of error a response carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorKind {
    /// The server was down: the connection was refused at once.
    Refused,
    /// A fast-failing server answered with an error.
    ServerError,
}

impl From<ErrorKind> for crate::metrics::FailureReason {
    fn from(kind: ErrorKind) -> crate::metrics::FailureReason {
        use crate::metrics::FailureReason;
        match kind {
            ErrorKind::Refused => FailureReason::Refused,
            ErrorKind::ServerError => FailureReason::ServerError,
        }
    }
}

/// How a response answers its request.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Outcome {
    #[default]
    Ok,
    Error(ErrorKind),
}

/// One server's failure under way.
#[derive(Clone, Copy, Debug)]
struct Active {
    failure: Failure,
    /// When it ends by itself; `Time::NEVER`: on a recovery.
    ends: Time,
    /// A flapping server's next turn; whether it is down now.
    turns: Time,
    refusing: bool,
}

/// A server's flag: it refuses connections now.
const REFUSING: u8 = 1;
/// A server's flag: it fails a share of the requests it serves.
const FAILING_FAST: u8 = 2;

/// Which servers are failing, and how.
#[derive(Default)]
pub struct Faults {
    active: Vec<Option<Active>>,
    /// Per server, what arrivals and service starts read of `active`, a
    /// byte each so that all of them stay in the caches: [`REFUSING`],
    /// [`FAILING_FAST`].
    flags: Vec<u8>,
    /// Whether any server is failing: arrivals and service starts read
    /// only this while none is.
    any: bool,
}

impl Faults {
    pub fn new(servers: usize) -> Faults {
        Faults { active: vec![None; servers], flags: vec![0; servers], any: false }
    }

    pub fn add_server(&mut self) {
        self.active.push(None);
        self.flags.push(0);
    }

    #[inline]
    pub fn any(&self) -> bool {
        self.any
    }

    /// Whether `server` refuses connections now (down, or flapping down).
    #[inline]
    pub fn refuses(&self, server: usize) -> bool {
        self.flags.get(server).is_some_and(|f| f & REFUSING != 0)
    }

    /// A fast-failing server's (share, time to the error).
    #[inline]
    pub fn fast_fail(&self, server: usize) -> Option<(f64, Time)> {
        if self.flags.get(server).is_none_or(|f| f & FAILING_FAST == 0) {
            return None;
        }
        match self.active.get(server).copied().flatten()?.failure {
            Failure::FastFail { share, after_ms } => Some((share, Time::from_ms(after_ms))),
            _ => None,
        }
    }

    /// Copies `server`'s failure into its flags.
    fn set_flags(&mut self, server: usize) {
        self.flags[server] = match self.active[server] {
            Some(Active { refusing: true, .. }) => REFUSING,
            Some(Active { failure: Failure::FastFail { .. }, .. }) => FAILING_FAST,
            _ => 0,
        };
    }

    /// `server`'s failure, if it has one.
    pub fn of(&self, server: usize) -> Option<Failure> {
        self.active.get(server).copied().flatten().map(|a| a.failure)
    }
}

impl Simulation {
    /// Makes `server` fail from now on (ending any failure it had), until
    /// [`Simulation::recover_server`].
    pub fn fail_server(&mut self, server: usize, failure: Failure) -> Result<(), ScenarioError> {
        self.check_failing_server(server)?;
        self.start_failure(server, failure, None);
        Ok(())
    }

    /// Ends `server`'s failure, if it has one.
    pub fn recover_server(&mut self, server: usize) -> Result<(), ScenarioError> {
        self.check_failing_server(server)?;
        self.end_failure(server);
        Ok(())
    }

    /// Makes `server` fail as a person does from the page, and adds that
    /// to the scenario's failure schedule, so that [`Simulation::scenario`]
    /// runs the same again, event for event. It applies at the next whole
    /// simulated millisecond, after every event due before it and, as the
    /// schedule's entry will in the replay, before any other due then;
    /// returns that instant. An instant at which an event the simulation
    /// was built with is due (the first sample, another entry of a
    /// schedule) is passed over for the next millisecond, since in the
    /// replay those come first. Only the starting servers can be named.
    pub fn fail_server_live(&mut self, server: usize, failure: Failure) -> Result<Time, ScenarioError> {
        self.failure_live(server, Some(failure))
    }

    /// Ends `server`'s failure as [`Simulation::fail_server_live`] starts one.
    pub fn recover_server_live(&mut self, server: usize) -> Result<Time, ScenarioError> {
        self.failure_live(server, None)
    }

    /// A failure, or with `None` a recovery, made live and recorded.
    fn failure_live(&mut self, server: usize, failure: Option<Failure>) -> Result<Time, ScenarioError> {
        let text = failure.map_or("recover".into(), Failure::text);
        let refuse =
            |reason: String| ScenarioError::Refused { field: "failures", value: text.clone(), reason };
        let starting = self.scenario.servers as usize;
        if server >= starting {
            return Err(ScenarioError::BadValue {
                field: "failures",
                value: server.to_string(),
                allowed: format!("one of the starting servers, 0 to {}", starting - 1),
            });
        }
        if self.scenario.failures.len() >= MAX_FAILURES {
            return Err(refuse(format!("the schedule holds at most {MAX_FAILURES} entries")));
        }
        let at = self.live_instant(LATEST_S).map_err(refuse)?;
        self.scenario.failures.push(ScheduledFailure {
            at_s: at.as_secs(),
            server: server as u32,
            failure,
            for_s: None,
        });
        let entry = self.scenario.failures.len() as u32 - 1;
        self.process(at, Event::FailureDue { entry });
        Ok(at)
    }

    fn check_failing_server(&self, server: usize) -> Result<(), ScenarioError> {
        if server < self.servers.len() {
            return Ok(());
        }
        Err(ScenarioError::BadValue {
            field: "failures",
            value: server.to_string(),
            allowed: format!("a server from 0 to {}", self.servers.len() - 1),
        })
    }

    /// The failure schedule, as events.
    pub(super) fn schedule_failures(&mut self) {
        for (entry, due) in self.scenario.failures.iter().enumerate() {
            self.events.push(Time::from_secs(due.at_s), Event::FailureDue { entry: entry as u32 });
        }
        self.scheduled_at_build = self.events.scheduled();
    }

    /// The scenario's `entry`th scheduled failure or recovery is due.
    pub(super) fn scheduled_failure(&mut self, entry: u32) {
        let Some(&due) = self.scenario.failures.get(entry as usize) else { return };
        match due.failure {
            Some(failure) => self.start_failure(due.server as usize, failure, due.for_s),
            None => self.end_failure(due.server as usize),
        }
        if self.journal.is_some() {
            self.note(match due.failure {
                Some(failure) => Happening::FailureStarted { server: due.server, failure },
                None => Happening::Recovered { server: due.server },
            });
        }
    }

    fn start_failure(&mut self, server: usize, failure: Failure, for_s: Option<f64>) {
        self.end_failure(server);
        let ends = for_s.map_or(Time::NEVER, |s| self.now + Time::from_secs(s));
        let (refusing, turns) = match failure {
            Failure::Down => (true, Time::NEVER),
            Failure::Flap { period_ms } => (true, self.now + Time::from_ms(period_ms)),
            Failure::Slow { factor } => {
                self.servers[server].speed *= factor;
                (false, Time::NEVER)
            }
            Failure::FastFail { .. } => (false, Time::NEVER),
        };
        self.features.faults.active[server] = Some(Active { failure, ends, turns, refusing });
        self.features.faults.set_flags(server);
        self.features.faults.any = true;
        for due in [ends, turns].into_iter().filter(|&t| t != Time::NEVER) {
            self.events.push(due, Event::FailureTurn { server: server as u32 });
        }
    }

    fn end_failure(&mut self, server: usize) {
        let Some(active) = self.features.faults.active[server].take() else { return };
        self.features.faults.set_flags(server);
        if active.refusing {
            self.balancers_see_up(server);
        }
        if let Failure::Slow { factor } = active.failure {
            self.servers[server].speed /= factor;
        }
        self.features.faults.any = self.features.faults.active.iter().any(Option::is_some);
    }

    /// `server`, down, refuses the request `flight` names: the error goes
    /// back at once. A hedged copy is dropped instead, and a request with
    /// a copy racing it calls the race off, as a crash's send-back does.
    pub(super) fn refuse(&mut self, flight: Flight, server: usize) {
        if let Some(id) = flight.place() {
            if self.requests.get(id).is_none() {
                return;
            }
            if self.features.hedges.is_racing_copy(id) {
                self.drop_copy(id);
                return;
            }
            if self.features.hedges.race(id) == Race::Running {
                self.call_off_race(id);
            }
        }
        let Some((_, outcome)) = self.in_flight_mut(flight) else { return };
        *outcome = Outcome::Error(ErrorKind::Refused);
        self.respond(flight, server);
    }

    /// The error a fast-failing `server` answers the request `id` names
    /// with, drawn from the stream of the request's try: how long the
    /// service lasts if it does (and the request's outcome is then an error).
    pub(super) fn fails_fast(&mut self, id: Flight, server: usize) -> Option<Time> {
        let (share, after) = self.features.faults.fast_fail(server)?;
        let seen = self.in_flight(id)?;
        let (origin, tries) = (seen.origin, seen.tries());
        let mut draws = self.streams.work.of_attempt(origin.number, origin.remaining, tries);
        if draws.unit() >= share {
            return None;
        }
        *self.in_flight_mut(id)?.1 = Outcome::Error(ErrorKind::ServerError);
        Some(after)
    }

    /// A failure's end, or a flapping server's turn, may be due (stale
    /// unless one of them is due now).
    pub(super) fn failure_turn(&mut self, server: usize) {
        self.turn_failure(server);
        if self.journal.is_some() {
            let failing = self.features.faults.of(server);
            self.note(Happening::FailureTurned { server: server as u32, failing });
        }
    }

    fn turn_failure(&mut self, server: usize) {
        let Some(active) = self.features.faults.active[server].as_mut() else { return };
        if active.ends == self.now {
            self.end_failure(server);
        } else if active.turns == self.now {
            if let Failure::Flap { period_ms } = active.failure {
                active.refusing = !active.refusing;
                active.turns = self.now + Time::from_ms(period_ms);
                let up = !active.refusing;
                self.events.push(active.turns, Event::FailureTurn { server: server as u32 });
                self.features.faults.set_flags(server);
                if up {
                    self.balancers_see_up(server);
                }
            }
        }
    }
}
