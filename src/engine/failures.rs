//! Errors, and what a failing server does to a request (issue 15; seed
//! 002: a balancer routes around trouble). Which servers fail, how and
//! when (down, slow, fast-failing, flapping; on the scenario's schedule or
//! by hand) is the failures feature's (`feature/failures.rs`); it marks a
//! server (`marks.rs`), and the core here refuses a request at a server
//! that refuses connections, or cuts its service short with an error at
//! one that fails fast. A failure made live as a person makes it
//! (`fail_server_live`) joins the schedule, so that the scenario replays
//! it.
//!
//! Errors are responses: they travel back like any response, carrying an
//! [`Outcome`], and the chooser that hears one retries the request
//! elsewhere within the retry budget (see `feature/retries.rs`), or the
//! request fails to its caller with the error's kind. Every load signal
//! hears an error as it hears a response: least-connections' count drops
//! when it comes back, and peak-EWMA times its round trip as Finagle and
//! Linkerd do, so a server that fails fast looks lightly loaded to both
//! (the black hole that outlier ejection cures, see `chooser/ejection.rs`).

use super::copies::Race;
use super::feature::{FeatureId, FeatureTimer, Heard};
use super::flight::Flight;
use super::journal::Happening;
use super::marks::Mark;
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
            ErrorKind::Refused => FailureReason::REFUSED,
            ErrorKind::ServerError => FailureReason::SERVER_ERROR,
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

impl Simulation {
    /// Makes `server` fail from now on (ending any failure it had), until
    /// [`Simulation::recover_server`].
    pub fn fail_server(&mut self, server: usize, failure: Failure) -> Result<(), ScenarioError> {
        self.check_failing_server(server)?;
        self.fail_by_hand(server, Some(failure));
        Ok(())
    }

    /// Ends `server`'s failure, if it has one.
    pub fn recover_server(&mut self, server: usize) -> Result<(), ScenarioError> {
        self.check_failing_server(server)?;
        self.fail_by_hand(server, None);
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
        self.process(at, Event::FeatureTimer { timer: FeatureTimer::new(FeatureId::Failures, entry) });
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

    /// `server`, down, refuses the request `flight` names: the error goes
    /// back at once. A copy still racing is dropped instead, and a request
    /// with a copy racing it calls the race off, as a crash's send-back does.
    fn refuse(&mut self, flight: Flight, server: usize) {
        if let Some(id) = flight.place() {
            if self.requests.get(id).is_none() {
                return;
            }
            if self.requests.races.is_racing_copy(id) {
                self.drop_copy(id);
                return;
            }
            if self.requests.races.race(id) == Race::Running {
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
    fn fails_fast(&mut self, id: Flight, server: usize) -> Option<Time> {
        let Mark::FailsFast { share, after } = self.marks.of(server) else { return None };
        let seen = self.in_flight(id)?;
        let (origin, tries) = (seen.origin, seen.tries());
        let mut draws = self.streams.work.of_attempt(origin.number, origin.remaining, tries);
        if draws.unit() >= share {
            return None;
        }
        *self.in_flight_mut(id)?.1 = Outcome::Error(ErrorKind::ServerError);
        Some(after)
    }
}

impl Simulation {
    /// Whether `server`, failing, refuses the request `id` names on arrival.
    #[inline]
    pub(super) fn refused_at_server(&mut self, id: Flight, server: usize) -> bool {
        if !(self.marks.any() && self.marks.of(server) == Mark::Refuses) {
            return false;
        }
        if self.journal.is_some() {
            self.note_request(id, |request| Happening::Refused { request, server: server as u32 });
        }
        self.refuse(id, server);
        true
    }

    /// How long the service of the request `id` names at `server` lasts if
    /// a fault cuts it short with an error (a fast-failing server).
    #[inline]
    pub(super) fn service_cut_short(&mut self, id: Flight, server: usize) -> Option<Time> {
        if !self.marks.any() {
            return None;
        }
        self.fails_fast(id, server)
    }

    /// `chooser` heard `outcome` from `server` in a response (not a bounce),
    /// `round_trip` after the request's creation if it was never sent back:
    /// the core counts errors, and the features hear it.
    #[inline]
    pub(super) fn on_heard(
        &mut self,
        chooser: usize,
        server: u32,
        outcome: Outcome,
        round_trip: Option<Time>,
    ) {
        let counts = &mut self.metrics.counts;
        match outcome {
            Outcome::Ok => {}
            Outcome::Error(ErrorKind::Refused) => counts.refused += 1,
            Outcome::Error(ErrorKind::ServerError) => counts.server_errors += 1,
        }
        if outcome != Outcome::Ok {
            self.metrics.errors_per_server[server as usize] += 1;
        }
        self.tell_heard(Heard { chooser, server, outcome, round_trip });
    }
}
