//! Features that own their state: each is a state machine beside the
//! core, as FoundationDB's balancers are (`src/fdb`, driven by `fdb/`).
//!
//! A feature is told what happened at the core's points and at its own
//! timers, reads a read-only [`View`] of the core, and answers with
//! [`Action`]s that the core carries out, in the order given, after the
//! point (`carry.rs`). It never reaches into the core's fields, and the
//! core's types name none of it: the core's [`Event`] has one variant for
//! every feature's timers, [`Event::FeatureTimer`], carrying the feature's
//! [`FeatureId`] and a payload of the feature's own (one word, as every
//! event's). A feature keeps its counters and its part of the summary
//! itself.
//!
//! The points so far, each a method of [`Feature`] that does nothing
//! unless the feature overrides it:
//! - `start`: the run is built (a schedule's timers are set here);
//! - `timer`: one of its own timers is due;
//! - `picked`: a chooser's policy picked a server;
//! - `sent`: a request left its chooser for a server;
//! - `arrived`: a request reached a server;
//! - `heard`: a chooser heard a response, or an error, from a server;
//! - `returned`: a try came back to its chooser with nothing it can pass
//!   on (sent back, or an error): a feature may try it again;
//! - `freed`: a slot of a server freed;
//! - `created`: a place holds a request just created;
//! - `carried`: an action it asked for was carried out, with what came of
//!   it (a chooser's ejection can be refused);
//! - `policies_built`: every chooser's policy was built, at the start or
//!   anew (what a chooser knew of its pool is gone);
//! - `members_changed`: the servers that are members changed;
//! - `completed`: a request completed at its client;
//! - `sending`: a request is about to leave its chooser for a server (a
//!   feature may hold it there, or fail it);
//! - `came_back`: a chooser heard back from a server, by a response, an
//!   error or a request sent back;
//! - `placing`: a chooser's policy is about to place a request (a feature
//!   may send it itself, or keep it and send attempts of its own);
//! - `marked`: how a server treats the requests that reach it changed (a
//!   server down came up);
//!
//! and two questions the core asks: `hop`, what a hop between a chooser
//! and a server adds to its tier's delay, and `stands`, whether a timer
//! due now still concerns its request (the trace names none for a stale
//! one).
//!
//! The actions: `Timer`, `Note`, `SetSpeed`/`ScaleSpeed`, `Mark` (how a
//! server treats the requests that reach it: serves, refuses, fails
//! fast), `Eject`/`Readmit`/`ReadmitNow`/`SetHealth` (a server out of a chooser's pool,
//! or of every chooser's: the eligibility the choosers keep per server),
//! `Retry`/`Release` (a request back at its chooser goes out again, at
//! once or after a wait), `ReportIdle`, `ChangeMembers` (a server joins or leaves, and every pool is drawn anew),
//! `MakeCopy`/`SendCopy` (a copy of a request, made to race it, then
//! sent to another server), `TakeTables` (a chooser takes its table's pending versions),
//! `PanicBelow` (the choosers' panic threshold), `SetWeight` (a
//! server's weight, as the weighted policies read it), and
//! `Hold`/`SendTo`/`Fail` (a request kept at its chooser, then sent on
//! or failed there; or sent where a feature says), and
//! `Keep`/`SendAttempt`/`Answer` (a request kept at its chooser while the
//! feature sends attempts of its own, kept by the core as requests are,
//! each reply back to the feature as [`Report::Replied`], until it
//! answers the request as a server would have, or fails it). A feature
//! that decides where requests go draws from the routing stream
//! ([`Asks::routing`]), between the choosers' own draws.
//!
//! The registry (`registry.rs`) lists the features: adding one is its
//! file here and a line there. Dispatch is static (each feature is a
//! field of [`Owned`], present only when the run uses it). The points on
//! the path of every request (`picked`, `sent`, `arrived`, `heard`,
//! `returned`, `freed`, `created`, `completed`, `hop`) are told only to the features that name
//! them in [`Feature::HEARS`] and listen now ([`Feature::listening`], for
//! a feature a live setting turns on and off), and the core tests one
//! flag per point, [`Owned::hears`], before it builds anything: a run
//! without such a feature pays that test and nothing else.
//!
//! Membership is `membership.rs` (the roster, the schedule and what each
//! change did; the core grows, crashes and restores servers and draws the
//! pools anew), the table copies' updates `table_updates.rs`, FoundationDB's
//! driver `fdb/`; keyed placement's keys are `keying.rs`, asked by
//! the core (`Owned::key`), and its placements the choosers'. Hedging
//! (`hedging/`: its timers, settings and counters) asks for copies; a copy
//! and its race with its original, the first to finish service answering,
//! are the core's (`engine/copies/`), as any request is.
//!
//! Of the mechanisms real proxies ship (issue 42), these are built, each
//! one file and one registry line: the panic threshold (`panic.rs`, which
//! sets the choosers' rule, applied as each pool changes), ejections that
//! grow and end at sweeps, ejection by success rate and failure
//! percentage at those sweeps, back-offs with jitter, and a probe on an
//! ejected server's return (`ejection/`, the probe at `sending`, `sent`
//! and `heard`), NGINX's round robin with its failure counting
//! (`nginx_round_robin.rs`, picking at `placing`, counting at `heard`), health
//! checks with rise, fall and a timeout (`health.rs`), slow start (`slow_start.rs`, stepping each
//! joining server's weight from `policies_built` on its own timer), retry
//! budgets as a share of requests (`retry_budget.rs`, two features, one of
//! which hears `created` to count requests, each deciding at `returned` as
//! `retries.rs` does, present in its stead), concurrency limits at the
//! proxy (`limits.rs`: HAProxy's maxconn, maxqueue and timeout queue,
//! Envoy's max_requests, at `sending` and `came_back`), and balancing per
//! connection (`per_connection.rs`: a connection pinned to the server its
//! first request went to, at `placing` and `sent`). Those that come next
//! fit it the same way, with what they use:
//! //! - health checks per proxy instance, each on its own schedule: a timer
//!   per chooser, and a `SetHealth` for one chooser's pool;
//!
//! A point is one method with a default here and one line of dispatch in
//! `registry.rs`; an action, one variant in `actions.rs` and one arm in
//! `carry.rs`.

mod actions;
mod carry;
mod datacenters;
mod decisions;
mod drift;
mod ejection;
mod failures;
mod fdb;
mod health;
mod hedging;
mod idle_reports;
mod keying;
mod limits;
mod membership;
mod nginx_round_robin;
mod panic;
mod per_connection;
mod points;
mod registry;
mod retries;
mod retry_budget;
mod slow_start;
mod table_updates;
mod view;

use crate::scenario::Scenario;
use crate::time::Time;

#[cfg(doc)]
use super::Event;

pub(super) use actions::{Action, Asks, Outbox, Report, SpeedBy};
pub use datacenters::Locality;
pub use decisions::{Candidate, Decision, Decisions};
pub use ejection::Outliers;
pub(super) use hedging::Hedges;
pub use hedging::{HedgeTally, Hedging};
pub use points::FeatureTimer;
pub(super) use points::{
    Arrived, Back, CameBack, Completed, Created, Freed, Heard, Marked, Picked, Points, Returned,
};
pub(super) use points::{Placing, Sending, Sent};
pub use registry::FeatureId;
pub(super) use registry::Owned;
pub(super) use view::View;

/// A feature: a state machine beside the core (see the module's doc).
trait Feature: Sized {
    /// Its timers' kind in the trace hash (the kind the event of its own
    /// had before the interface, so that hashes hold).
    const TRACE_KIND: u64;

    /// The points on the path of every request it hears: it is told
    /// `picked`, `sent` or asked `hop` only if it names them here.
    const HEARS: Points = Points::NONE;

    /// Whether each of its timers is for a request, its payload the
    /// request's place: the trace then names the request by its identity,
    /// as it names every request.
    const TIMERS_NAME_PLACES: bool = false;

    /// The feature as `scenario` starts it; none when the scenario leaves
    /// it off.
    fn for_scenario(scenario: &Scenario) -> Option<Self>;

    /// Its timer with `payload` as the trace names it: its kind and its
    /// word.
    fn trace(payload: u32) -> (u64, u32) {
        (Self::TRACE_KIND, payload)
    }

    /// The run is built.
    fn start(&mut self, _view: &View, _out: &mut Asks) {}

    /// A timer of its own, with the payload it gave, is due.
    fn timer(&mut self, _payload: u32, _view: &View, _out: &mut Asks) {}

    /// A chooser's policy picked a server.
    #[inline(always)]
    fn picked(&mut self, _picked: Picked, _view: &View, _out: &mut Asks) {}

    /// A request left its chooser for a server.
    #[inline(always)]
    fn sent(&mut self, _sent: Sent, _view: &View, _out: &mut Asks) {}

    /// A chooser heard a response, or an error, from a server.
    #[inline(always)]
    fn heard(&mut self, _heard: Heard, _view: &View, _out: &mut Asks) {}

    /// A try came back to its chooser with nothing it can pass on.
    #[inline(always)]
    fn returned(&mut self, _returned: Returned, _view: &View, _out: &mut Asks) {}

    /// An action it asked for was carried out, and this came of it.
    fn carried(&mut self, _report: Report, _view: &View, _out: &mut Asks) {}

    /// What a hop between `server` and the client or balancer `base`
    /// gives (asked only when needed) adds to its tier's delay; `None`,
    /// nothing.
    #[inline(always)]
    fn hop(&self, _base: &impl Fn() -> u32, _server: u32) -> Option<Time> {
        None
    }

    /// Every chooser's policy was built (at the start, or anew): what a
    /// chooser knew of its pool is gone.
    fn policies_built(&mut self, _view: &View, _out: &mut Asks) {}

    /// Whether, present, it listens now: a feature whose points depend on
    /// a live setting stops costing anything while it is off. Asked when
    /// the run is built and whenever the policies are built.
    fn listening(&self) -> bool {
        true
    }

    /// A request reached a server.
    #[inline(always)]
    fn arrived(&mut self, _arrived: Arrived, _view: &View, _out: &mut Asks) {}

    /// A slot of a server freed.
    #[inline(always)]
    fn freed(&mut self, _freed: Freed, _view: &View, _out: &mut Asks) {}

    /// A place holds a request just created.
    #[inline(always)]
    fn created(&mut self, _created: Created, _view: &View, _out: &mut Asks) {}

    /// The servers that are members changed (each chooser's table
    /// versions still to take are set).
    fn members_changed(&mut self, _view: &View, _out: &mut Asks) {}

    /// A request completed at its client.
    #[inline(always)]
    fn completed(&mut self, _completed: Completed, _view: &View, _out: &mut Asks) {}

    /// A request is about to leave its chooser for a server: the feature
    /// may hold it there ([`Action::Hold`]) or fail it ([`Action::Fail`]).
    #[inline(always)]
    fn sending(&mut self, _sending: Sending, _view: &View, _out: &mut Asks) {}

    /// A chooser's policy is about to place a request: the feature may
    /// send it itself ([`Action::SendTo`]).
    #[inline(always)]
    fn placing(&mut self, _placing: Placing, _view: &View, _out: &mut Asks) {}

    /// A chooser heard back from a server (a response, an error, or a
    /// request sent back).
    #[inline(always)]
    fn came_back(&mut self, _came_back: CameBack, _view: &View, _out: &mut Asks) {}

    /// Whether its timer with `payload`, due at `now`, still stands: the
    /// trace names no request for one that went stale (a hedge whose
    /// request was answered).
    fn stands(&self, _payload: u32, _now: Time) -> bool {
        true
    }

    /// How a server treats the requests that reach it changed.
    fn marked(&mut self, _marked: Marked, _view: &View, _out: &mut Asks) {}
}
