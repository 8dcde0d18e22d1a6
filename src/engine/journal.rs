//! The journal: what one step did, as data. While a step is asked for with
//! [`Simulation::step_journaled`], the points of the request's path and the
//! features note what happens there (sent, queued, sent back, hedged,
//! heard, retried, failed, completed…); the narration above the engine
//! reads these notes. A run that asks for none pays one test of a flag at
//! each point.

use super::flight::Flight;
use super::lengths::SessionLengths;
use super::requests::Origin;
use super::serving::SendBack;
use super::{Event, Outcome, Simulation};
use crate::fdb::Action;
use crate::metrics::FailureReason;
use crate::scenario::failures::Failure;
use crate::scenario::{Change, Scenario};
use crate::time::Time;

/// The request a happening concerns: where it is, whose it is, and which
/// of its session's requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Whose {
    /// Where it is kept (a copy or a FoundationDB attempt has a
    /// place of its own).
    pub place: Flight,
    /// Its session's number, counted from 0 in the order sessions start.
    pub session: u32,
    pub client: u32,
    pub balancer: Option<u32>,
    /// Which request of the session it is, from 1.
    pub request: u32,
    /// How many requests the session sends.
    pub length: u32,
}

/// What a chooser heard back from a server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    Response,
    Error,
    /// The request itself, sent back.
    SentBack,
}

/// One thing that happened in a step.
#[derive(Clone, Debug, PartialEq)]
pub enum Happening {
    /// An arrival scheduled before the load changed finds its clock restarted.
    ArrivalDropped,
    /// Too many requests are in flight: the simulation stops for good.
    Halted,
    SessionStarted {
        request: Whose,
    },
    ReachedBalancer {
        request: Whose,
    },
    /// The request leaves its chooser for `server`.
    Sent {
        request: Whose,
        server: u32,
    },
    /// `server`, failing, refuses the request on arrival.
    Refused {
        request: Whose,
        server: u32,
    },
    /// The request takes a slot of `server`, after `queued` in its queue.
    ServiceStarted {
        request: Whose,
        server: u32,
        queued: Time,
    },
    /// The request joins `server`'s queue, `waiting` with it.
    Queued {
        request: Whose,
        server: u32,
        waiting: u32,
    },
    /// `server` sends the request back to its chooser after `waited`.
    SentBack {
        request: Whose,
        server: u32,
        why: SendBack,
        waited: Time,
    },
    /// A copy still racing that would have been sent back is dropped instead.
    CopyDropped {
        request: Whose,
        server: u32,
    },
    /// A place that answers for no one ends without going further: a
    /// request or copy that lost its race, or a copy dropped.
    Discarded {
        request: Whose,
        server: u32,
    },
    ServiceEnded {
        request: Whose,
        server: u32,
        outcome: Outcome,
    },
    /// The service due to end for the request at `place` ended when its
    /// server crashed, which sent the request back.
    ServiceVoided {
        place: Flight,
    },
    /// The chooser, with no answer after `waited`, sends a copy; or it
    /// would, but the response is a hop away and cancels it en route.
    Hedged {
        request: Whose,
        waited: Time,
        cancelled_en_route: bool,
    },
    /// The chooser hears back from `server`; `attempt`: the request is an
    /// attempt of a FoundationDB balancer, which hears it.
    Heard {
        request: Whose,
        server: u32,
        reply: Reply,
        attempt: bool,
    },
    /// The chooser retries after a backoff of `wait`.
    BackingOff {
        request: Whose,
        wait: Time,
    },
    /// The response goes on from the balancer to the client.
    Forwarded {
        request: Whose,
    },
    Failed {
        request: Whose,
        reason: FailureReason,
    },
    /// The client has its response, `latency` after the request's creation;
    /// `last`: the session is complete.
    Completed {
        request: Whose,
        latency: Time,
        last: bool,
    },
    /// What a FoundationDB balancer did.
    BalancerActed {
        actions: Vec<Action>,
    },
    /// The load board is copied from the servers (`current`), or a refresh
    /// from an earlier period is dropped.
    BoardRefreshed {
        current: bool,
    },
    Sampled,
    SpeedChanged {
        server: u32,
        speed: f64,
    },
    /// A scheduled membership change applies, concerning `server`.
    MembershipChanged {
        change: Change,
        server: u32,
    },
    /// A scheduled membership change a live change made impossible.
    ChangeDropped {
        change: Change,
    },
    FailureStarted {
        server: u32,
        failure: Failure,
    },
    Recovered {
        server: u32,
    },
    /// A failure's end or a flapping server's turn: `failing` is what it
    /// fails with now, if anything.
    FailureTurned {
        server: u32,
        failing: Option<Failure>,
    },
}

/// One step: the event processed, when, and what happened.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub time: Time,
    pub event: Event,
    pub happened: Vec<Happening>,
}

impl Step {
    /// The request the step's event is for: the one a core's event moves,
    /// or the one a feature's timer is for.
    pub fn flight(&self) -> Option<Flight> {
        match self.event {
            Event::FeatureTimer { timer } => timer.place().map(Flight::request),
            event => event.flight(),
        }
    }
}

impl Simulation {
    /// Processes exactly one event and returns it with its journal; `None`
    /// when no event is left or the simulation has halted.
    pub fn step_journaled(&mut self) -> Option<Step> {
        if self.halt.is_some() {
            return None;
        }
        let (time, event) = self.events.pop_until(Time::NEVER)?;
        self.journal = Some(Vec::new());
        self.process(time, event);
        let happened = self.journal.take().unwrap_or_default();
        Some(Step { time, event, happened })
    }

    /// Notes `happening` in the journal (callers test that one is kept).
    #[cold]
    pub(super) fn note(&mut self, happening: Happening) {
        if let Some(journal) = &mut self.journal {
            journal.push(happening);
        }
    }

    /// Notes what happened to the request at `id`.
    #[cold]
    pub(super) fn note_request(&mut self, id: Flight, what: impl FnOnce(Whose) -> Happening) {
        if let Some(seen) = self.in_flight(id) {
            let request = self.whose(id, seen.origin);
            self.note(what(request));
        }
    }

    /// Notes that the chooser of the request at `id` heard back from
    /// `server`: the request sent back (`bounced`), or a response with
    /// `outcome`.
    #[cold]
    pub(super) fn note_heard(&mut self, id: Flight, server: u32, bounced: bool, outcome: Outcome) {
        let reply = match (bounced, outcome) {
            (true, _) => Reply::SentBack,
            (false, Outcome::Ok) => Reply::Response,
            (false, Outcome::Error(_)) => Reply::Error,
        };
        let attempt = id.place().is_none();
        self.note_request(id, |request| Happening::Heard { request, server, reply, attempt });
    }

    /// Notes that the request at `id` takes a slot of `server`.
    #[cold]
    pub(super) fn note_service_started(&mut self, id: Flight, server: u32) {
        let queued = self.in_flight(id).map_or(Time::ZERO, |f| f.request.queue_time(self.now));
        self.note_request(id, |request| Happening::ServiceStarted { request, server, queued });
    }

    fn whose(&self, place: Flight, origin: Origin) -> Whose {
        Whose::of(place, origin, (&self.lengths, &self.scenario))
    }
}

impl Whose {
    /// The request `origin` names, kept at `place`, of a session as long
    /// as `lengths` makes it.
    pub(super) fn of(
        place: Flight,
        origin: Origin,
        (lengths, scenario): (&SessionLengths, &Scenario),
    ) -> Whose {
        let length = lengths.of(origin.number);
        Whose {
            place,
            session: origin.number,
            client: origin.client,
            balancer: origin.balancer().map(|worker| scenario.balancer_of(worker)),
            request: length - u32::from(origin.remaining),
            length,
        }
    }
}
