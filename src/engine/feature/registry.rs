//! The list of features: one line each. Adding a feature is its file in
//! `feature/` and its line here.

use super::retry_budget;
use super::{datacenters, decisions, drift, ejection, failures, fdb, health, idle_reports};
use super::{keying, membership, nginx_round_robin, panic, retries, slow_start, table_updates};
use super::{limits, per_connection, CameBack, Placing, Sending};
use super::{Arrived, Completed, Created, Freed, Marked, Outbox, Report, Returned, Sent, View};
use super::{Asks, Decisions, Feature, FeatureTimer, Heard, Locality, Outliers, Picked, Points};
use super::{HedgeTally, Hedges, Hedging};
use crate::engine::RaceTally;
use crate::scenario::failures::Failure;
use crate::scenario::Scenario;
use crate::time::Time;

/// The dispatch of each point on the path of every request: to each
/// present feature that hears it, in the registry's order.
macro_rules! on_the_path {
    ($features:tt $($point:ident: $told:ident at $flag:ident,)*) => {
        impl Owned {
            $(on_the_path!(@point $features $point $told $flag);)*
        }
    };
    (@point [$($field:ident: $feature:ty = $id:ident,)*] $point:ident $told:ident $flag:ident) => {
        pub fn $point(&mut self, told: $told, view: &View, list: &mut Outbox) {
            $(if let Some(feature) = self.$field.as_mut().filter(|_| <$feature>::HEARS.has(Points::$flag)) {
                feature.$point(told, view, &mut Asks { id: FeatureId::$id, list });
            })*
        }
    };
}

/// Lists the features, each a field of [`Owned`] under a [`FeatureId`],
/// and dispatches each point to them in the list's order. On the path of
/// every request (`picked`, `sent`) the view is built only for a feature
/// the run has.
macro_rules! registry {
    ($($field:ident: $feature:ty = $id:ident,)*) => {
        on_the_path! {
            [$($field: $feature = $id,)*]
            picked: Picked at PICKED,
            sent: Sent at SENT,
            arrived: Arrived at ARRIVED,
            heard: Heard at HEARD,
            returned: Returned at RETURNED,
            freed: Freed at FREED,
            created: Created at CREATED,
            completed: Completed at COMPLETED,
            sending: Sending at SENDING,
            came_back: CameBack at CAME_BACK,
            placing: Placing at PLACING,
        }

        /// Which feature a timer is for.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum FeatureId {
            $($id,)*
        }

        impl FeatureId {
            /// In the registry's order, each at its own index.
            pub(super) const ALL: &[FeatureId] = &[$(FeatureId::$id,)*];
        }

        /// Every feature, each present only when the run uses it.
        pub(in crate::engine) struct Owned {
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
                    Some(ref feature) if feature.listening() => <$feature>::HEARS,
                    Some(_) => Points::NONE,
                    None => Points::NONE,
                }))*;
            }

            /// Whether a present feature hears `point`: the core's one test
            /// on the path of every request.
            #[inline(always)]
            pub fn hears(&self, point: Points) -> bool {
                self.hears.has(point)
            }

            pub fn start(&mut self, view: &View, list: &mut Outbox) {
                $(if let Some(feature) = &mut self.$field {
                    feature.start(view, &mut Asks { id: FeatureId::$id, list });
                })*
            }

            pub fn timer(&mut self, timer: FeatureTimer, view: &View, list: &mut Outbox) {
                let (id, payload) = (timer.feature(), timer.payload());
                match id {
                    $(FeatureId::$id => if let Some(feature) = &mut self.$field {
                        feature.timer(payload, view, &mut Asks { id, list });
                    },)*
                }
            }





            /// Tells feature `id` what came of an action it asked for.
            pub fn carried(
                &mut self,
                (id, report): (FeatureId, Report),
                view: &View,
                list: &mut Outbox,
            ) {
                match id {
                    $(FeatureId::$id => if let Some(feature) = &mut self.$field {
                        feature.carried(report, view, &mut Asks { id, list });
                    },)*
                }
            }

            pub fn policies_built(&mut self, view: &View, list: &mut Outbox) {
                $(if let Some(feature) = &mut self.$field {
                    feature.policies_built(view, &mut Asks { id: FeatureId::$id, list });
                })*
                self.hear();
            }



            pub fn members_changed(&mut self, view: &View, list: &mut Outbox) {
                $(if let Some(feature) = &mut self.$field {
                    feature.members_changed(view, &mut Asks { id: FeatureId::$id, list });
                })*
            }

            pub fn marked(&mut self, marked: Marked, view: &View, list: &mut Outbox) {
                $(if let Some(feature) = &mut self.$field {
                    feature.marked(marked, view, &mut Asks { id: FeatureId::$id, list });
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

            /// Whether `timer`, due at `now`, still stands (see
            /// `Feature::stands`).
            pub fn stands(&self, timer: FeatureTimer, now: Time) -> bool {
                match timer.feature() {
                    $(FeatureId::$id => self.$field.as_ref().is_none_or(|f| f.stands(timer.payload(), now)),)*
                }
            }

            /// Whether `id`'s timers are each for a request.
            pub fn timers_name_places(id: FeatureId) -> bool {
                match id {
                    $(FeatureId::$id => <$feature>::TIMERS_NAME_PLACES,)*
                }
            }

            /// `id`'s timer with `payload` as the trace names it.
            pub fn trace(id: FeatureId, payload: u32) -> (u64, u32) {
                match id {
                    $(FeatureId::$id => <$feature>::trace(payload),)*
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
    nginx_round_robin: nginx_round_robin::NginxRoundRobin = NginxRoundRobin,
    health: health::HealthChecks = HealthChecks,
    retries: retries::Retries = Retries,
    retry_budget: retry_budget::RetryBudget<retry_budget::Concurrent> = RetryBudget,
    retry_window: retry_budget::RetryBudget<retry_budget::Windowed> = RetryWindow,
    idle_reports: idle_reports::IdleReports = IdleReports,
    membership: membership::Membership = Membership,
    failures: failures::Failures = Failures,
    hedging: Hedges = Hedging,
    table_updates: table_updates::TableUpdates = TableUpdates,
    keying: keying::Keying = Keying,
    panic: panic::PanicThreshold = PanicThreshold,
    slow_start: slow_start::SlowStart = SlowStart,
    limits: limits::Limits = Limits,
    fdb: fdb::FdbDriver = Fdb,
    per_connection: per_connection::PerConnection = PerConnection,
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

    /// Which servers are members, and what each change did.
    pub fn membership(&self) -> &membership::Membership {
        self.membership.as_ref().expect("membership, present in every run")
    }

    /// `server`'s failure, if it has one.
    pub fn failure_of(&self, server: usize) -> Option<Failure> {
        self.failures.as_ref().and_then(|f| f.of(server))
    }

    /// Fails `server` by hand at once (or with none, recovers it).
    pub fn fail_by_hand(
        &mut self,
        (server, failure): (usize, Option<Failure>),
        now: Time,
        list: &mut Outbox,
    ) {
        let Some(failures) = &mut self.failures else { return };
        let out = &mut Asks { id: FeatureId::Failures, list };
        match failure {
            Some(failure) => failures.fail((server, failure, None), now, out),
            None => failures.recover(server, out),
        }
    }

    /// Whether choosers balance per connection.
    pub fn balances_per_connection(&self) -> bool {
        self.per_connection.is_some()
    }

    /// The sends' locality, when the run has several datacenters.
    pub fn locality(&self) -> Locality {
        self.datacenters.as_ref().map(|d| d.locality()).unwrap_or_default()
    }
}

/// Keyed placement's keys.
impl Owned {
    /// The session at place `place` is a replayed trace's, which gave it
    /// `key` (or none: it then draws one).
    pub fn replay_key(&mut self, place: u32, key: Option<u64>) {
        if let Some(keying) = &mut self.keying {
            keying.replay_key(place, key);
        }
    }

    /// Whether each request draws a key of its own (else its session's).
    pub fn keys_per_request(&self) -> bool {
        self.keying.as_ref().is_some_and(|k| k.per_request())
    }

    /// The key of the request at place `place`, session `number`'s with
    /// `remaining` more behind it.
    pub fn key(&self, place: u32, request: (u32, u16)) -> Option<u64> {
        Some(self.keying.as_ref()?.key(place, request))
    }
}

/// Hedging's settings, which a live change sets, and its counts.
impl Owned {
    /// Takes the scenario's hedging settings on a live change: hedging
    /// starts the first time they hedge, and keeps its hedges after.
    pub fn configure_hedging(&mut self, scenario: &Scenario) {
        match &mut self.hedging {
            Some(hedges) => hedges.configure(scenario),
            None => self.hedging = Hedges::for_scenario(scenario),
        }
        self.hear();
    }

    /// What hedging counted after the warm-up.
    pub fn hedge_tally(&self) -> HedgeTally {
        self.hedging.as_ref().map(|h| h.tally).unwrap_or_default()
    }

    /// Hedging's section of the summary (see `Hedges::summary`).
    pub fn hedging(
        &self,
        completed: u64,
        busy_ns: f64,
        races: impl FnOnce() -> (RaceTally, u64),
    ) -> Option<Hedging> {
        self.hedging.as_ref()?.summary(completed, busy_ns, races())
    }
}
