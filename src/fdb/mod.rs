//! FoundationDB's two client-side load balancers, `basicLoadBalance` and
//! `loadBalance`, as pure state machines over simulated time.
//!
//! They follow the seed's design note (`shared/seeds/002_*`, FoundationDB's
//! `design/LoadBalancing/LoadBalancing.md`: its flowcharts and the appendix
//! script that prints the order of alternatives) and the source it describes,
//! apple/foundationdb's `fdbrpc/include/fdbrpc/LoadBalance.actor.h`,
//! `fdbrpc/LoadBalance.cpp`, `fdbrpc/include/fdbrpc/QueueModel.h`,
//! `fdbrpc/QueueModel.cpp` and `fdbrpc/include/fdbrpc/MultiInterface.h`. The
//! knobs they read are in [`knobs`], each named as in the source.
//!
//! A balancer serves one request. It is started with the request's
//! [`Alternatives`] and answers each [`Event`] (a reply, a timer that fell
//! due, a server coming back up) with the [`Action`]s it takes: send to a
//! server, wait, deliver a reply or fail. Nothing here knows of the engine;
//! the engine (or a test) carries the actions out and feeds the events back.
//! Time is the engine's integer [`Time`], randomness its [`SimRng`].
//!
//! # Driving them from the engine
//!
//! A chooser (a client, or a balancer of the tier) using either policy keeps
//! a [`FailureMonitor`] over the servers it talks to (a trait: the engine keeps
//! the monitors with what else each chooser knows of each server), a
//! [`QueueModel`] (a trait too, kept as the monitors are), and under
//! `loadBalance` a [`Knowledge`] (its budget of second requests and its
//! record of waits); all live as long as the chooser. Each request gets its [`Alternatives`], built once
//! per chooser and shared (`Arc`): every server of the pool, or under
//! datacenter awareness [`Alternatives::local_first`] with the chooser's
//! datacenter, the engine adding the cross-datacenter delay to every hop
//! between datacenters. The request's balancer is started with them and
//! kept beside the request until it is done and, under `loadBalance`, has
//! nothing [`LoadBalance::in_flight`] (a lagging reply still informs the
//! model). The engine then carries out each action and maps its own events
//! back:
//!
//! | action | the engine | event back |
//! |---|---|---|
//! | `Send { server }` | sends a copy of the request to the server | `Reply { server, .. }` when its response arrives |
//! | `Backoff { until }` | schedules a timer | `BackoffDone` at `until` |
//! | `SecondRequestAt { at }` | schedules a timer | `SecondRequestDue` at `at` |
//! | `Wait { until }` | notes that the request waits for a server to come up; schedules a timer unless `until` is `Time::NEVER` | `AlternativeUp` when the monitor marks one of its servers up; `WaitDone` at `until` |
//! | `Deliver { server }` | that server's response is the request's: it travels back to the client | |
//! | `Fail(kind)` | the request fails with `kind` (the caller may start it again: after `FutureVersion`, 10 ms later) | |
//!
//! A server's response is `Reply { error: None, penalty }` with the penalty
//! from its queue ([`PenaltyCurve`]); a connection that breaks (a crashed or
//! removed server, once membership changes exist) is `BrokenPromise` with
//! no penalty, and the engine marks the server failed in the monitor, and
//! up again, with `AlternativeUp`, when it returns. Timers that arrive after
//! the balancer moved on are ignored, so the engine never needs to cancel
//! one. Every event goes with a [`Context`] holding the current time.

pub mod alternatives;
pub mod basic;
pub mod knobs;
pub mod load_balance;
pub mod queue_model;

mod candidates;
mod failure_delay;
#[cfg(test)]
mod flowcharts;
#[cfg(test)]
mod testing;

pub use alternatives::{Alternative, Alternatives, Datacenter, Walk};
pub use basic::BasicLoadBalance;
pub use failure_delay::AlternativesFailures;
pub use load_balance::{Knowledge, LoadBalance};
pub use queue_model::{PenaltyCurve, QueueModel};

use crate::rng::SimRng;
use crate::time::Time;
use knobs::{LOAD_BALANCE_BACKOFF_RATE, LOAD_BALANCE_MAX_BACKOFF, LOAD_BALANCE_START_BACKOFF};

/// What can go wrong with a request, in FoundationDB's error codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// `broken_promise`: the connection to the server failed before it
    /// answered. The balancer tries another alternative.
    BrokenPromise,
    /// `request_maybe_delivered`: the server may or may not have acted on
    /// the request; retried like a broken connection unless the request may
    /// run at most once, when the caller gets this error.
    RequestMaybeDelivered,
    /// `future_version`: the server has not yet caught up with the version
    /// read. The caller gets it (and retries after its own delay, NativeAPI's
    /// `FUTURE_VERSION_RETRY_DELAY` of 0.01 s, `fdbclient/ClientKnobs.cpp`);
    /// `loadBalance` leaves the server alone for a while.
    FutureVersion,
    /// `process_behind`: the server is behind; another alternative is tried,
    /// and the caller gets it once every alternative has been.
    ProcessBehind,
    /// `server_overloaded`: `loadBalance` tries another alternative.
    ServerOverloaded,
    /// Any other error the server answers with: passed to the caller.
    Exception,
    /// `all_alternatives_failed`: no alternative came up in time.
    AllAlternativesFailed,
}

impl ErrorKind {
    /// The error's name in FoundationDB's source.
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::BrokenPromise => "broken_promise",
            ErrorKind::RequestMaybeDelivered => "request_maybe_delivered",
            ErrorKind::FutureVersion => "future_version",
            ErrorKind::ProcessBehind => "process_behind",
            ErrorKind::ServerOverloaded => "server_overloaded",
            ErrorKind::Exception => "an exception",
            ErrorKind::AllAlternativesFailed => "all_alternatives_failed",
        }
    }
}

/// What a balancer is told.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Event {
    /// `server` answered the request sent to it: a value when `error` is
    /// `None`. `penalty` is what the server reported with it, `None` when
    /// nothing came from the server itself (a broken connection).
    Reply { server: usize, error: Option<ErrorKind>, penalty: Option<f64> },
    /// The backoff asked for by [`Action::Backoff`] is over.
    BackoffDone,
    /// The failure monitor saw a server come back up (see [`Action::Wait`]).
    AlternativeUp,
    /// The first request's timeout, asked for by [`Action::SecondRequestAt`].
    SecondRequestDue,
    /// The wait asked for by [`Action::Wait`] timed out.
    WaitDone,
}

/// What a balancer does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Send the request to `server`.
    Send { server: usize },
    /// Send nothing until `until`, then say [`Event::BackoffDone`]; the
    /// balancer then sends to the alternative it had chosen.
    Backoff { until: Time },
    /// Every alternative is failed: say [`Event::AlternativeUp`] when the
    /// failure monitor sees one come back, or [`Event::WaitDone`] at `until`
    /// ([`Time::NEVER`] under `basicLoadBalance`, which waits for ever).
    Wait { until: Time },
    /// Say [`Event::SecondRequestDue`] at `at`, unless the balancer is done.
    SecondRequestAt { at: Time },
    /// The reply from `server` is the answer: give it to the caller.
    Deliver { server: usize },
    /// Give the caller this error.
    Fail(ErrorKind),
}

/// Which servers the client believes are down (FoundationDB's failure
/// monitor), by server number: the engine keeps it with what else its
/// chooser knows of each server, the balancers only read it.
pub trait FailureMonitor {
    fn is_failed(&self, server: usize) -> bool;
}

/// What every event is handled with: the time, the client's failure
/// monitor and queue model, and the simulation's generator.
pub struct Context<'a> {
    pub now: Time,
    pub monitor: &'a dyn FailureMonitor,
    /// Read and written under `loadBalance` only.
    pub model: &'a mut dyn QueueModel,
    pub rng: &'a mut SimRng,
}

/// The backoff after another attempt, once each alternative has had one:
/// doubled, from 10 ms up to 5 s (the same step in both balancers).
fn grown_backoff(backoff: Time) -> Time {
    Time(backoff.0.saturating_mul(LOAD_BALANCE_BACKOFF_RATE))
        .max(LOAD_BALANCE_START_BACKOFF)
        .min(LOAD_BALANCE_MAX_BACKOFF)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_starts_at_ten_milliseconds_and_doubles_up_to_five_seconds() {
        let mut backoff = Time::ZERO;
        let mut seen = Vec::new();
        for _ in 0..12 {
            backoff = grown_backoff(backoff);
            seen.push(backoff.as_ms());
        }
        assert_eq!(&seen[..4], [10.0, 20.0, 40.0, 80.0]);
        assert_eq!(seen[9], 5_000.0);
        assert_eq!(seen[11], 5_000.0);
    }
}
