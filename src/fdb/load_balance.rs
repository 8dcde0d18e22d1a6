//! `loadBalance` (`loadBalanceImpl`, `fdbrpc/include/fdbrpc/LoadBalance.actor.h`):
//! the balancer FoundationDB's clients read storage servers with.
//!
//! Two initial candidates come from the client's [`QueueModel`] (see
//! `candidates`), preferring the local datacenter. The first request goes to
//! the best; if no reply comes before a timeout set from the runner-up's
//! latency, and the client's budget of second requests allows, a second
//! request goes to the next alternative and the first reply to succeed wins.
//! After that the alternatives are tried round the [`Walk`], one request (or
//! one beside a first still in flight) at a time, with a backoff once each
//! alternative has had a try. When the failure monitor believes every
//! alternative down, the balancer waits for one to come up, and gives the
//! caller `all_alternatives_failed` if none does in time. A request that lost
//! the race stays in flight; its reply, when it comes, still informs the
//! model (the source's "lagging requests").
//!
//! Not modelled: test storage servers, the replica comparison, and running
//! without a queue model.

use super::candidates::{self, SecondRequest};
use super::knobs::{SECOND_REQUEST_BUDGET_GROWTH, SECOND_REQUEST_MAX_BUDGET};
use super::knobs::{SECOND_REQUEST_MULTIPLIER_DECAY, SECOND_REQUEST_MULTIPLIER_GROWTH};
use super::queue_model::Ended;
use super::{
    grown_backoff, Action, Alternatives, AlternativesFailures, Context, ErrorKind, Event, QueueModel, Walk,
};
use crate::time::Time;
use std::sync::Arc;

/// What a client keeps across all its requests under `loadBalance`,
/// beside its queue model: the budget and multiplier of second requests
/// (the source's `QueueModel` holds them) and its record of waits.
#[derive(Clone, Debug)]
pub struct Knowledge {
    /// Scales the timeout of first requests; grows with each second request.
    pub second_multiplier: f64,
    /// Second requests the client may still send.
    pub second_budget: f64,
    pub failures: AlternativesFailures,
}

impl Default for Knowledge {
    fn default() -> Knowledge {
        Knowledge { second_multiplier: 1.0, second_budget: 0.0, failures: AlternativesFailures::default() }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// There were no alternatives: the request never completes.
    Never,
    /// Every alternative is failed: waiting for one to come up, or for this
    /// time (a timeout from an earlier wait is not this one's).
    Waiting { until: Time },
    /// One request out, until its reply or, the first time, its timeout.
    FirstOnly,
    /// No other alternative is up: waiting for the request still out.
    AwaitingFirst,
    /// An additional request beside the first; the first success wins.
    Racing,
    /// The caller has its reply or its error.
    Done,
}

/// One request sent (or about to be, after a backoff) to an alternative.
#[derive(Clone, Copy, Debug)]
struct Attempt {
    alt: usize,
    /// `None` while backing off.
    sent_at: Option<Time>,
    /// What the queue model counted it as.
    delta: f64,
    /// Every alternative had been tried when it was sent.
    tried_all: bool,
}

/// What a reply means for the request (`checkAndProcessResult`).
enum Outcome {
    Success,
    Retry,
    Throw(ErrorKind),
}

/// One request under `loadBalance`.
#[derive(Clone, Debug)]
pub struct LoadBalance {
    alternatives: Arc<Alternatives>,
    walk: Walk,
    /// The request must not run twice (see [`ErrorKind::RequestMaybeDelivered`]).
    at_most_once: bool,
    tried_all: bool,
    attempts: usize,
    backoff: Time,
    /// The first request's timeout is still to come.
    second_armed: bool,
    first: Option<Attempt>,
    second: Option<Attempt>,
    stage: Stage,
}

impl LoadBalance {
    /// Starts the request, and says what to do first.
    pub fn start(
        alternatives: Arc<Alternatives>,
        at_most_once: bool,
        cx: &mut Context,
        known: &mut Knowledge,
    ) -> (Self, Vec<Action>) {
        let (walk, second_request, stage) = if alternatives.is_empty() {
            // Never walked: a walk needs an alternative.
            (Walk::new(1, 0, 0), SecondRequest::Never, Stage::Never)
        } else {
            let (walk, second) =
                candidates::choose(&alternatives, (cx.monitor, &*cx.model), known, cx.now, &mut *cx.rng);
            // The first attempt below sets the stage.
            (walk, second, Stage::Done)
        };
        let mut balancer = LoadBalance {
            alternatives,
            walk,
            at_most_once,
            tried_all: false,
            attempts: 0,
            backoff: Time::ZERO,
            second_armed: false,
            first: None,
            second: None,
            stage,
        };
        let mut actions = Vec::new();
        if stage == Stage::Never {
            return (balancer, actions);
        }
        balancer.attempt(cx, known, &mut actions);
        if balancer.stage == Stage::FirstOnly {
            match second_request {
                SecondRequest::Never => {}
                SecondRequest::Now => {
                    balancer.second_armed = true;
                    balancer.second_request_due(cx, known, &mut actions);
                }
                SecondRequest::After(timeout) => {
                    balancer.second_armed = true;
                    actions.push(Action::SecondRequestAt { at: cx.now + timeout });
                }
            }
        }
        (balancer, actions)
    }

    /// True once the caller has a reply or an error.
    pub fn is_done(&self) -> bool {
        self.stage == Stage::Done
    }

    /// True when there were no alternatives: nothing will ever happen.
    pub fn is_never(&self) -> bool {
        self.stage == Stage::Never
    }

    /// Requests sent and not yet answered (after the caller has its answer,
    /// the one that lost the race).
    pub fn in_flight(&self) -> usize {
        [self.first, self.second].iter().flatten().filter(|attempt| attempt.sent_at.is_some()).count()
    }

    pub fn on(&mut self, event: Event, cx: &mut Context, known: &mut Knowledge) -> Vec<Action> {
        let mut actions = Vec::new();
        match (self.stage, event) {
            (Stage::Waiting { .. }, Event::AlternativeUp) if self.alternatives.any_up(cx.monitor) => {
                self.attempts = 0;
                self.end_of_loop(false, cx, known, &mut actions);
            }
            (Stage::Waiting { until }, Event::WaitDone) if cx.now >= until => {
                self.finish(Action::Fail(ErrorKind::AllAlternativesFailed), &mut actions)
            }
            (Stage::FirstOnly, Event::SecondRequestDue) if self.second_armed => {
                self.second_request_due(cx, known, &mut actions)
            }
            (Stage::FirstOnly | Stage::Racing, Event::BackoffDone) => {
                let waiting = if self.stage == Stage::Racing { &mut self.second } else { &mut self.first };
                if let Some(attempt) = waiting.as_mut().filter(|attempt| attempt.sent_at.is_none()) {
                    send(attempt, &self.alternatives, cx.now, cx.model, &mut actions);
                }
            }
            (_, Event::Reply { server, error, penalty }) => {
                self.reply(server, error, penalty, cx, known, &mut actions)
            }
            _ => {}
        }
        actions
    }

    /// The top of the source's loop: the next alternative up in the walk,
    /// other than the one the first request went to.
    fn attempt(&mut self, cx: &mut Context, known: &mut Knowledge, actions: &mut Vec<Action>) {
        let first_alt = self.first.map(|first| first.alt);
        let mut found = None;
        for _ in 0..self.alternatives.len() {
            let alt = self.walk.current();
            if !cx.monitor.is_failed(self.alternatives.server(alt)) && first_alt != Some(alt) {
                found = Some(alt);
                break;
            }
            self.tried_all |= self.walk.advance();
        }
        match (found, first_alt.is_some()) {
            (None, false) => {
                let until = known.failures.wait_until(cx.now, &mut *cx.rng);
                self.stage = Stage::Waiting { until };
                actions.push(Action::Wait { until });
            }
            (None, true) => self.stage = Stage::AwaitingFirst,
            (Some(alt), first_out) => {
                let attempt = self.begin(alt, cx.now, cx.model, actions);
                if first_out {
                    self.second = Some(attempt);
                    self.stage = Stage::Racing;
                } else {
                    self.first = Some(attempt);
                    self.stage = Stage::FirstOnly;
                }
            }
        }
    }

    fn begin(&self, alt: usize, now: Time, model: &mut dyn QueueModel, actions: &mut Vec<Action>) -> Attempt {
        let mut attempt = Attempt { alt, sent_at: None, delta: 0.0, tried_all: self.tried_all };
        if self.backoff > Time::ZERO {
            actions.push(Action::Backoff { until: now + self.backoff });
        } else {
            send(&mut attempt, &self.alternatives, now, model, actions);
        }
        attempt
    }

    /// The first request's timeout: a second request, if the budget has one.
    fn second_request_due(&mut self, cx: &mut Context, known: &mut Knowledge, actions: &mut Vec<Action>) {
        self.second_armed = false;
        if known.second_budget >= 1.0 {
            known.second_multiplier += SECOND_REQUEST_MULTIPLIER_GROWTH;
            known.second_budget -= 1.0;
            self.end_of_loop(true, cx, known, actions);
        }
    }

    fn reply(
        &mut self,
        server: usize,
        error: Option<ErrorKind>,
        penalty: Option<f64>,
        cx: &mut Context,
        known: &mut Knowledge,
        actions: &mut Vec<Action>,
    ) {
        let alternatives = &self.alternatives;
        let answered = |a: &mut Attempt| a.sent_at.is_some() && alternatives.server(a.alt) == server;
        let (attempt, is_first) = match (self.first.take_if(answered), self.second.take_if(answered)) {
            (Some(first), _) => (first, true),
            (None, Some(second)) => (second, false),
            (None, None) => return,
        };
        // A lagging request only informs the model.
        let at_most_once = self.at_most_once && self.stage != Stage::Done;
        let outcome = settle(attempt, server, error, penalty, at_most_once, cx.now, cx.model);
        if self.stage == Stage::FirstOnly {
            known.second_multiplier = (known.second_multiplier - SECOND_REQUEST_MULTIPLIER_DECAY).max(1.0);
            known.second_budget =
                (known.second_budget + SECOND_REQUEST_BUDGET_GROWTH).min(SECOND_REQUEST_MAX_BUDGET);
        }
        match (outcome, self.stage) {
            (_, Stage::Done) => {}
            (Outcome::Success, _) => self.finish(Action::Deliver { server }, actions),
            (Outcome::Throw(kind), _) => self.finish(Action::Fail(kind), actions),
            // The first failed during a race: the second may still win.
            (Outcome::Retry, Stage::Racing) if is_first => {}
            (Outcome::Retry, stage) => self.end_of_loop(stage != Stage::AwaitingFirst, cx, known, actions),
        }
    }

    /// The bottom of the source's loop: count the attempt (growing the
    /// backoff once every alternative has had one), move on round the walk.
    fn end_of_loop(
        &mut self,
        counted: bool,
        cx: &mut Context,
        known: &mut Knowledge,
        actions: &mut Vec<Action>,
    ) {
        if counted {
            self.attempts += 1;
            if self.attempts >= self.alternatives.len() {
                self.backoff = grown_backoff(self.backoff);
            }
        }
        self.tried_all |= self.walk.advance();
        self.second_armed = false;
        self.attempt(cx, known, actions);
    }

    fn finish(&mut self, action: Action, actions: &mut Vec<Action>) {
        self.stage = Stage::Done;
        // A request still backing off is never sent.
        for attempt in [&mut self.first, &mut self.second] {
            attempt.take_if(|a| a.sent_at.is_none());
        }
        actions.push(action);
    }
}

fn send(
    attempt: &mut Attempt,
    alternatives: &Alternatives,
    now: Time,
    model: &mut dyn QueueModel,
    actions: &mut Vec<Action>,
) {
    let server = alternatives.server(attempt.alt);
    attempt.delta = model.add_request(server, now);
    attempt.sent_at = Some(now);
    actions.push(Action::Send { server });
}

/// Updates the model with a reply and says what it means for the request
/// (`checkAndProcessResultImpl`). A server that answered at all counts as
/// clean, except when it said it is behind; a broken connection or a
/// request that may have been delivered are retried, unless it must run at
/// most once; "process behind" is retried until every alternative has been.
fn settle(
    attempt: Attempt,
    server: usize,
    error: Option<ErrorKind>,
    penalty: Option<f64>,
    at_most_once: bool,
    now: Time,
    model: &mut dyn QueueModel,
) -> Outcome {
    let maybe_delivered = matches!(error, Some(ErrorKind::BrokenPromise | ErrorKind::RequestMaybeDelivered));
    let clean = error != Some(ErrorKind::ProcessBehind) && !maybe_delivered;
    let future_version = matches!(error, Some(ErrorKind::FutureVersion | ErrorKind::ProcessBehind));
    let latency = now - attempt.sent_at.unwrap_or(now);
    model.end_request(server, now, Ended { latency, penalty, delta: attempt.delta, clean, future_version });
    match error {
        None => Outcome::Success,
        Some(ErrorKind::ServerOverloaded) => Outcome::Retry,
        Some(kind) if clean => Outcome::Throw(kind),
        Some(_) if at_most_once && maybe_delivered => Outcome::Throw(ErrorKind::RequestMaybeDelivered),
        Some(ErrorKind::ProcessBehind) if attempt.tried_all => Outcome::Throw(ErrorKind::ProcessBehind),
        Some(_) => Outcome::Retry,
    }
}
