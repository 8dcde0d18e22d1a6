//! Features that own their state: each is a state machine beside the
//! core, as FoundationDB's balancers are (`src/fdb`, `engine/fdb.rs`).
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
//! - `heard`: a chooser heard a response, or an error, from a server;
//! - `carried`: an action it asked for was carried out, with what came of
//!   it (a chooser's ejection can be refused);
//! - `policies_rebuilt`: every chooser's policy was built anew (what a
//!   chooser knew of its pool is gone);
//!
//! and one question the core asks, `hop`: what a hop between a chooser
//! and a server adds to its tier's delay.
//!
//! The registry at the end of this file lists the features: adding one is
//! its file here and a line there. Dispatch is static (each feature is a
//! field of [`Owned`], present only when the run uses it). The points on
//! the path of every request (`picked`, `sent`, `heard`, `hop`) are told only to
//! the features that name them in [`Feature::HEARS`], and the core tests
//! one flag per point, [`Owned::hears`], before it builds anything: a run
//! without such a feature pays that test and nothing else.
//!
//! The features still to move onto this interface (hedging, retries,
//! failures, keyed placement,
//! membership, join-the-idle-queue's reports, FoundationDB's balancers)
//! and the mechanisms real proxies ship that come next each fit it as one
//! file, with the points and actions they add:
//! - slow start: `server_changed` (a server joins or recovers) starts a
//!   ramp; a question, the weight a chooser gives the server now;
//! - panic threshold: `server_changed` counts the healthy; a question,
//!   whether a chooser ignores health (too few healthy to be choosy);
//! - ejection that grows, and success-rate ejection: `answered`/`failed`
//!   count per server; actions mark a server out of a chooser's pool and
//!   set the timer that readmits it, the ejection's length its own state;
//! - ratio retry budgets: `created` and `failed` keep the ratio; a
//!   question, whether a retry may go, before the core sends it;
//! - health checks with thresholds: its timer checks each server through
//!   the view and counts passes and failures; an action marks a server;
//! - concurrency limits: `sent` and `answered` count what is out per
//!   server; a question, whether a chooser may send there now.
//!
//! Each adds its points and actions here as it moves in: a point is one
//! method with a default and one line of dispatch; an action, one variant
//! and one arm in `carry.rs`.

mod carry;
mod datacenters;
mod decisions;
mod drift;
mod ejection;
mod health;

use super::board::LoadBoard;
use super::chooser::Choosers;
use super::failures::Faults;
use super::journal::Happening;
use super::server::Server;
use crate::engine::Outcome;
use crate::policy::{Board, Pick};
use crate::scenario::Scenario;
use crate::time::Time;

#[cfg(doc)]
use super::Event;

pub use datacenters::Locality;
pub use decisions::{Candidate, Decision, Decisions};
pub use ejection::Outliers;

/// A read-only view of the core, as a feature reads it at a point.
pub(super) struct View<'a> {
    pub now: Time,
    pub scenario: &'a Scenario,
    pub servers: &'a [Server],
    pub choosers: &'a Choosers,
    /// Whether the run keeps a journal: a feature notes a happening only
    /// then (building one costs).
    pub journaled: bool,
    pub(super) board: &'a LoadBoard,
    /// Whether policies read the load board rather than live load.
    pub(super) stale_board: bool,
    /// The failures under way (a feature of its own still to move here).
    pub(super) faults: &'a Faults,
}

impl View<'_> {
    /// Reads the servers' loads as the choosers' policies read them: the
    /// load board when it is stale, otherwise live.
    pub fn read_board<R>(&self, read: impl FnOnce(Board) -> R) -> R {
        let servers = self.servers;
        let live = |s: usize| servers[s].load();
        read(self.board.or_live(self.stale_board, &live))
    }

    /// Whether `server` refuses connections now (down, or flapping down).
    pub fn refuses(&self, server: usize) -> bool {
        self.faults.refuses(server)
    }
}

/// What a feature asks the core to do.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Action {
    /// Tell the feature at `at`, with `payload` (a timer of its own).
    Timer { at: Time, payload: u32 },
    /// `server` serves at `speed` from now on.
    SetSpeed { server: u32, speed: f64 },
    /// Note a happening in the journal.
    Note(Happening),
    /// `chooser` ejects `server` from its pool until `until`, unless that
    /// would hold more than `max_fraction` of its pool out (or leave it
    /// empty); the feature hears [`Report::Ejected`] if it did.
    Eject { chooser: u32, server: u32, until: Time, max_fraction: f64 },
    /// `chooser` readmits the servers whose ejection is over.
    Readmit { chooser: u32 },
    /// Every chooser holds `server` out of its pool while it is not
    /// healthy, and readmits it once it is.
    SetHealth { server: u32, healthy: bool },
}

/// What came of an action, told to the feature that asked for it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Report {
    /// The chooser ejected the server until `until`.
    Ejected { chooser: u32, until: Time },
}

/// Where a feature puts the actions it asks for at a point: the core's
/// list, each action with the feature that asked.
pub(super) struct Asks<'a> {
    id: FeatureId,
    list: &'a mut Vec<(FeatureId, Action)>,
}

impl Asks<'_> {
    #[inline]
    pub fn push(&mut self, action: Action) {
        self.list.push((self.id, action));
    }
}

/// Which of the points on the path of every request a feature hears (or
/// the run's features hear, together).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Points(u8);

impl Points {
    pub const NONE: Points = Points(0);
    pub const PICKED: Points = Points(1);
    pub const SENT: Points = Points(2);
    pub const HOP: Points = Points(4);
    pub const HEARD: Points = Points(8);

    pub const fn and(self, other: Points) -> Points {
        Points(self.0 | other.0)
    }

    #[inline(always)]
    pub const fn has(self, point: Points) -> bool {
        self.0 & point.0 != 0
    }
}

/// A feature's timer as the core's event holds it: which feature, in the
/// top bits, and the feature's payload below, one word as every event's
/// payload is (a payload across two fields made the event loop's code
/// carry the whole event in one register and test it again; see
/// `Owned`'s registry).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FeatureTimer(u32);

/// The bits of a feature's timer that hold its payload: enough for a
/// request's place (the core holds at most 2^24 requests).
const PAYLOAD_BITS: u32 = 27;
const _: () = assert!(1 << PAYLOAD_BITS >= super::MAX_IN_FLIGHT);

impl FeatureTimer {
    fn new(id: FeatureId, payload: u32) -> FeatureTimer {
        debug_assert!(payload < 1 << PAYLOAD_BITS, "a feature's timer payload {payload} is too large");
        FeatureTimer((id as u32) << PAYLOAD_BITS | payload)
    }

    pub fn feature(self) -> FeatureId {
        FeatureId::ALL[(self.0 >> PAYLOAD_BITS) as usize]
    }

    pub fn payload(self) -> u32 {
        self.0 & ((1 << PAYLOAD_BITS) - 1)
    }

    /// Its kind of event and its word in the trace hash.
    pub(super) fn traced(self) -> (u64, u64) {
        (Owned::trace_kind(self.feature()), self.payload().into())
    }
}

/// A chooser's pick, as `picked` is told it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Picked {
    pub chooser: usize,
    /// The server that sent the request back, which the pick avoided.
    pub avoid: Option<u32>,
    /// The request's key, for a policy that reads it.
    pub key: Option<u64>,
    pub pick: Pick,
}

/// A response (or an error) a chooser heard from a server, as `heard` is
/// told it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Heard {
    pub chooser: usize,
    pub server: u32,
    pub outcome: Outcome,
}

/// A request sent from a chooser to a server, as `sent` is told it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Sent {
    /// What the hop adds to its tier's delay (see `Feature::hop`).
    pub extra: Option<Time>,
}

/// A feature: a state machine beside the core (see the module's doc).
pub(super) trait Feature: Sized {
    /// Its timers' kind in the trace hash (the kind the event of its own
    /// had before the interface, so that hashes hold).
    const TRACE_KIND: u64;

    /// The points on the path of every request it hears: it is told
    /// `picked`, `sent` or asked `hop` only if it names them here.
    const HEARS: Points = Points::NONE;

    /// The feature as `scenario` starts it; none when the scenario leaves
    /// it off.
    fn for_scenario(scenario: &Scenario) -> Option<Self>;

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

    /// An action it asked for was carried out, and this came of it.
    fn carried(&mut self, _report: Report, _view: &View, _out: &mut Asks) {}

    /// What a hop between `server` and the client or balancer `base`
    /// gives (asked only when needed) adds to its tier's delay; `None`,
    /// nothing.
    #[inline(always)]
    fn hop(&self, _base: &impl Fn() -> u32, _server: u32) -> Option<Time> {
        None
    }

    /// Every chooser's policy was built anew.
    fn policies_rebuilt(&mut self) {}
}

/// Lists the features, each a field of [`Owned`] under a [`FeatureId`],
/// and dispatches each point to them in the list's order. On the path of
/// every request (`picked`, `sent`) the view is built only for a feature
/// the run has.
macro_rules! registry {
    ($($field:ident: $feature:ty = $id:ident,)*) => {
        /// Which feature a timer is for.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum FeatureId {
            $($id,)*
        }

        impl FeatureId {
            /// In the registry's order, each at its own index.
            const ALL: &[FeatureId] = &[$(FeatureId::$id,)*];
        }

        /// Every feature, each present only when the run uses it.
        pub(super) struct Owned {
            $($field: Option<$feature>,)*
            /// The points the present features hear, together.
            hears: Points,
        }

        impl Owned {
            pub fn for_scenario(scenario: &Scenario) -> Owned {
                let mut owned = Owned {
                    $($field: <$feature>::for_scenario(scenario),)*
                    hears: Points::NONE,
                };
                owned.hear();
                owned
            }

            /// Sums up which points the present features hear.
            fn hear(&mut self) {
                self.hears = Points::NONE$(.and(match self.$field {
                    Some(_) => <$feature>::HEARS,
                    None => Points::NONE,
                }))*;
            }

            /// Whether a present feature hears `point`: the core's one test
            /// on the path of every request.
            #[inline(always)]
            pub fn hears(&self, point: Points) -> bool {
                self.hears.has(point)
            }

            pub fn start(&mut self, view: &View, list: &mut Vec<(FeatureId, Action)>) {
                $(if let Some(feature) = &mut self.$field {
                    feature.start(view, &mut Asks { id: FeatureId::$id, list });
                })*
            }

            pub fn timer(&mut self, timer: FeatureTimer, view: &View, list: &mut Vec<(FeatureId, Action)>) {
                let (id, payload) = (timer.feature(), timer.payload());
                match id {
                    $(FeatureId::$id => if let Some(feature) = &mut self.$field {
                        feature.timer(payload, view, &mut Asks { id, list });
                    },)*
                }
            }

            pub fn picked(&mut self, picked: Picked, view: &View, list: &mut Vec<(FeatureId, Action)>) {
                $(if let Some(feature) = self.$field.as_mut().filter(|_| <$feature>::HEARS.has(Points::PICKED)) {
                    feature.picked(picked, view, &mut Asks { id: FeatureId::$id, list });
                })*
            }

            pub fn sent(&mut self, sent: Sent, view: &View, list: &mut Vec<(FeatureId, Action)>) {
                $(if let Some(feature) = self.$field.as_mut().filter(|_| <$feature>::HEARS.has(Points::SENT)) {
                    feature.sent(sent, view, &mut Asks { id: FeatureId::$id, list });
                })*
            }

            pub fn heard(&mut self, heard: Heard, view: &View, list: &mut Vec<(FeatureId, Action)>) {
                $(if let Some(feature) = self.$field.as_mut().filter(|_| <$feature>::HEARS.has(Points::HEARD)) {
                    feature.heard(heard, view, &mut Asks { id: FeatureId::$id, list });
                })*
            }

            /// Tells feature `id` what came of an action it asked for.
            pub fn carried(
                &mut self,
                (id, report): (FeatureId, Report),
                view: &View,
                list: &mut Vec<(FeatureId, Action)>,
            ) {
                match id {
                    $(FeatureId::$id => if let Some(feature) = &mut self.$field {
                        feature.carried(report, view, &mut Asks { id, list });
                    },)*
                }
            }

            pub fn policies_rebuilt(&mut self) {
                $(if let Some(feature) = &mut self.$field {
                    feature.policies_rebuilt();
                })*
            }

            /// What the hop adds: the first feature's answer that is some.
            #[inline(always)]
            pub fn hop(&self, base: impl Fn() -> u32, server: u32) -> Option<Time> {
                if !self.hears(Points::HOP) {
                    return None;
                }
                None$(.or_else(|| {
                    self.$field.as_ref().filter(|_| <$feature>::HEARS.has(Points::HOP))?.hop(&base, server)
                }))*
            }

            /// The kind of `id`'s timers in the trace hash.
            pub fn trace_kind(id: FeatureId) -> u64 {
                match id {
                    $(FeatureId::$id => <$feature>::TRACE_KIND,)*
                }
            }
        }
    };
}

registry! {
    drift: drift::Drift = Drift,
    datacenters: datacenters::Datacenters = Datacenters,
    decisions: decisions::Decisions = Decisions,
    ejection: ejection::Ejection = Ejection,
    health: health::HealthChecks = HealthChecks,
}

impl Owned {
    /// Keeps the latest `keep` decisions from now on; 0 keeps none.
    pub fn record_decisions(&mut self, keep: usize) {
        self.decisions = (keep > 0).then(|| Decisions::new(keep));
        self.hear();
    }

    pub fn decisions(&self) -> Option<&Decisions> {
        self.decisions.as_ref()
    }

    /// What outlier ejection counted, when the run has it.
    pub fn outliers(&self) -> Outliers {
        self.ejection.as_ref().map(|e| e.outliers()).unwrap_or_default()
    }

    /// The sends' locality, when the run has several datacenters.
    pub fn locality(&self) -> Locality {
        self.datacenters.as_ref().map(|d| d.locality()).unwrap_or_default()
    }
}
