//! Concurrency limits at the proxy. HAProxy's server `maxconn`: a proxy
//! has at most that many requests out at a server, and the rest wait in
//! the proxy's queue for that server, oldest first, up to `maxqueue`
//! (past it, a 503 at once) and for at most `timeout queue` (then a 503).
//! Envoy's circuit breaker `max_requests`: a cluster with that many
//! requests out answers the next at once with an error, an overflow.
//! Each chooser (a balancer is one HAProxy or one Envoy; a client, its own
//! sidecar) keeps its own limits, as each proxy instance does. What a
//! chooser has out is the core's count, the one least-request reads:
//! sent, and not yet back.
//!
//! A waiting request goes to the server its policy picked when a slot
//! there comes back (HAProxy's `random` does the same; its `roundrobin`
//! and `leastconn` would pass over a full server first), and a hedged copy
//! is never held.

use super::{Action, Asks, CameBack, Feature, Points, Sending, View};
use crate::engine::sorted::Sorted;
use crate::metrics::FailureReason;
use crate::scenario::Scenario;
use crate::time::Time;
use std::collections::VecDeque;

/// A request failed at once at its chooser: a circuit breaker's overflow
/// (Envoy's `max_requests`), a full queue at the proxy (HAProxy's
/// `maxqueue`), or no live server (NGINX's "no live upstreams").
pub(super) const OVERFLOW: FailureReason = FailureReason::named("overflow", true);
/// A request waited at its chooser for a server's slot past HAProxy's
/// `timeout queue` (a 503).
const PROXY_QUEUE_TIMEOUT: FailureReason = FailureReason::named("proxy-queue-timeout", true);

pub(in crate::engine) struct Limits {
    /// Per server and chooser; 0: no limit.
    maxconn: u32,
    maxqueue: u32,
    timeout_queue: Option<Time>,
    /// Per chooser, across its pool; 0: no limit.
    max_requests: u32,
    /// The requests waiting at each chooser for each server, oldest first.
    queues: Sorted<(usize, u32), VecDeque<u32>>,
    /// Each waiting request's chooser, server and deadline, by its place
    /// among the core's requests (`None`: it does not wait).
    waiting: Vec<Option<Waiting>>,
}

#[derive(Clone, Copy)]
struct Waiting {
    chooser: usize,
    server: u32,
    deadline: Option<Time>,
}

impl Limits {
    /// Place `place`'s entry in `waiting`, grown to hold it.
    fn waiting_at(&mut self, place: u32) -> &mut Option<Waiting> {
        let place = place as usize;
        if self.waiting.len() <= place {
            self.waiting.resize(place + 1, None);
        }
        &mut self.waiting[place]
    }

    /// Whether a request for `server` from `chooser` waits: the chooser
    /// has `maxconn` out there already.
    fn full(&self, (chooser, server): (usize, u32), view: &View) -> bool {
        self.maxconn > 0 && view.choosers.in_flight_at(chooser, server) >= self.maxconn
    }

    /// Place `place` waits at `chooser` for `server`, unless the queue is
    /// full.
    fn wait(&mut self, Sending { place, chooser, server }: Sending, now: Time, out: &mut Asks) {
        let queue = self.queues.entry((chooser, server), VecDeque::new);
        if self.maxqueue > 0 && queue.len() >= self.maxqueue as usize {
            out.push(Action::Fail { place, reason: OVERFLOW });
            return;
        }
        queue.push_back(place);
        let deadline = self.timeout_queue.map(|timeout| now + timeout);
        *self.waiting_at(place) = Some(Waiting { chooser, server, deadline });
        out.push(Action::Hold { place, server });
        if let Some(at) = deadline {
            out.push(Action::Timer { at, payload: place });
        }
    }
}

impl Feature for Limits {
    const TRACE_KIND: u64 = 25;
    const HEARS: Points = Points::SENDING.and(Points::CAME_BACK);
    const TIMERS_NAME_PLACES: bool = true;

    fn for_scenario(scenario: &Scenario) -> Option<Limits> {
        let (maxconn, max_requests) = (scenario.server_maxconn, scenario.max_requests);
        (maxconn > 0 || max_requests > 0).then(|| Limits {
            maxconn,
            maxqueue: scenario.server_maxqueue,
            timeout_queue: scenario.timeout_queue_ms.map(Time::from_ms),
            max_requests,
            queues: Sorted::default(),
            waiting: Vec::new(),
        })
    }

    /// Fails a request past the circuit breaker, and holds one for a full
    /// server.
    fn sending(&mut self, sending: Sending, view: &View, out: &mut Asks) {
        let Sending { place, chooser, server } = sending;
        if self.max_requests > 0 && view.choosers.in_flight_total(chooser) >= self.max_requests {
            out.push(Action::Fail { place, reason: OVERFLOW });
        } else if self.full((chooser, server), view) {
            self.wait(sending, view.now, out);
        }
    }

    /// A slot at `server` came back to `chooser`: the oldest request
    /// waiting for it goes.
    fn came_back(&mut self, CameBack { chooser, server }: CameBack, view: &View, out: &mut Asks) {
        if self.full((chooser, server), view) {
            return;
        }
        let Some(place) = self.queues.get_mut((chooser, server)).and_then(VecDeque::pop_front) else {
            return;
        };
        *self.waiting_at(place) = None;
        out.push(Action::SendTo { place, server });
    }

    /// Place `place` has waited `timeout_queue_ms`, if it still waits.
    fn timer(&mut self, place: u32, view: &View, out: &mut Asks) {
        if !self.stands(place, view.now) {
            return;
        }
        let Some(Waiting { chooser, server, .. }) = self.waiting_at(place).take() else { return };
        if let Some(queue) = self.queues.get_mut((chooser, server)) {
            queue.retain(|&waiting| waiting != place);
        }
        out.push(Action::Fail { place, reason: PROXY_QUEUE_TIMEOUT });
    }

    /// A timer stands while its request still waits with that deadline (a
    /// place sent on and reused waits to a later one).
    fn stands(&self, place: u32, now: Time) -> bool {
        self.waiting
            .get(place as usize)
            .copied()
            .flatten()
            .is_some_and(|waiting| waiting.deadline == Some(now))
    }
}
