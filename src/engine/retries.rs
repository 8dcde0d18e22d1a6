//! Retries: after a queue timeout or an error response, the chooser places
//! the request again elsewhere, within the request's retry budget, at once
//! or after an exponential backoff with full jitter (AWS's "exponential
//! backoff and jitter": the k-th retry waits a time drawn uniformly below
//! `retry_backoff_ms` · 2^(k-1)). The wait is drawn from the request's own
//! random stream, so a backoff shifts no other draw.

use super::feature::Heard;
use super::flight::Flight;
use super::hedge::Race;
use super::journal::Happening;
use super::requests::Stage;
use super::{ErrorKind, Event, Outcome, Simulation};
use crate::metrics::FailureReason;
use crate::rng::Draw;
use crate::time::Time;

/// The most doublings of the backoff: 2^16 times the first.
const MAX_DOUBLINGS: u16 = 16;

impl From<ErrorKind> for FailureReason {
    fn from(kind: ErrorKind) -> FailureReason {
        match kind {
            ErrorKind::Refused => FailureReason::Refused,
            ErrorKind::ServerError => FailureReason::ServerError,
        }
    }
}

impl Simulation {
    /// Place `id`'s request, sent back by or answered with an error from
    /// `server`, goes out again from `chooser`: now, or after its backoff.
    pub(super) fn retry(&mut self, id: u32, chooser: usize, server: u32) {
        self.metrics.counts.retried += 1;
        let Some(base) = self.timing.retry_backoff else {
            self.place_again(id, chooser, server);
            return;
        };
        let Some(session) = self.requests.get_mut(id) else { return };
        let retries = session.request.retries;
        let mut draws = self.streams.work.of_attempt(session.number, session.remaining, retries);
        let ceiling = base.0 as f64 * f64::from(1u32 << retries.saturating_sub(1).min(MAX_DOUBLINGS));
        let wait = Time(libm::floor(draws.unit() * ceiling) as u64);
        session.request.travel(Stage::BackingOff, self.now, self.now + wait);
        self.events.push(self.now + wait, Event::RetryDue { place: id });
        if self.journal.is_some() {
            self.note_request(Flight::request(id), |request| Happening::BackingOff { request, wait });
        }
    }

    fn place_again(&mut self, id: u32, chooser: usize, server: u32) {
        let pick = self.choose(chooser, Some(server), self.key_of(id));
        self.send_to_server(Flight::request(id), chooser, pick.position);
    }

    /// Place `id`'s backoff is over.
    pub(super) fn retry_due(&mut self, id: u32) {
        let Some(session) = self.requests.get(id) else { return };
        if self.features.hedges.race(id) == Race::Lost {
            self.discard(id);
            return;
        }
        let chooser = self.choosers.member(session.chooser(), session.request.class);
        self.place_again(id, chooser, session.request.server);
    }

    /// If place `id`'s response, just heard by `heard`'s chooser from its
    /// server, is an error with retries left in the budget: retries it and
    /// returns true. With none left the error goes on to the caller.
    pub(super) fn retried_after_error(&mut self, id: u32, heard: Option<(usize, u32)>) -> bool {
        let Some((chooser, server)) = heard else { return false };
        let budget = self.scenario.retry_budget;
        let Some(session) = self.requests.get_mut(id) else { return false };
        if session.outcome == Outcome::Ok || u32::from(session.request.retries) >= budget {
            return false;
        }
        session.request.retries = session.request.retries.saturating_add(1);
        self.retry(id, chooser, server);
        true
    }

    /// `chooser` heard `outcome` from `server`: count errors, and let
    /// outlier ejection see it.
    pub(super) fn hear_outcome(&mut self, chooser: usize, server: u32, outcome: Outcome) {
        let counts = &mut self.metrics.counts;
        match outcome {
            Outcome::Ok => {}
            Outcome::Error(ErrorKind::Refused) => counts.refused += 1,
            Outcome::Error(ErrorKind::ServerError) => counts.server_errors += 1,
        }
        if outcome != Outcome::Ok {
            self.metrics.errors_per_server[server as usize] += 1;
        }
        self.tell_heard(Heard { chooser, server, outcome });
    }
}
