//! Scenarios: every setting of a simulation, with defaults, ranges and parsing.
//!
//! One flat table of named fields (see [`fields`]) is the single source of
//! truth: TOML files, `--set key=value` on the command line, the browser's URL
//! hash and its controls all read and write a [`Scenario`] through it, so they
//! agree on names, defaults, ranges and error messages.
//!
//! The scenario is the bottom layer: plain data, naming a policy by its
//! place in the registry ([`PolicyKind`]), which `policy/` resolves; it
//! imports no policy or placement scheme (`tests/layers.rs`).

#[macro_use]
mod help;
mod derived;
pub mod drift;
pub mod duration;
mod error;
pub mod failures;
pub mod fields;
mod key_fields;
mod kinds;
mod lookup;
pub mod membership;
mod parse;
mod policy_kind;
pub mod pools;
mod proxy_fields;
mod proxy_settings;
mod rules;
pub mod schedule;
mod table;

pub use derived::Datacenters;
pub use drift::SpeedChange;
pub use error::{echo, ScenarioError};
pub use fields::{Field, FieldKind, FIELDS};
pub use help::Help;
pub use kinds::{
    BalancePer, BudgetOf, DcOrder, Demand, EjectGrowth, HedgeCancel, KeyPer, RetryHosts, ServiceDistribution,
    SubsetMode,
};
pub use membership::{Change, Roster, Scheduled, Standing, MAX_CHANGES, MAX_SERVERS};
pub use policy_kind::PolicyKind;
pub use proxy_settings::{EjectBackoff, RateEjection, RatioBudget};
pub use table::MAX_SEED;

use serde::Serialize;

/// The complete description of one simulation run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Scenario {
    pub servers: u32,
    pub slots: u32,
    /// `None`: requests wait in the queue for as long as it takes.
    pub queue_timeout_ms: Option<f64>,
    /// Relative speed of each server, repeated in order across the servers.
    pub server_speeds: Vec<f64>,
    /// Nominal weight of each server (what weighted policies believe),
    /// repeated in order across the servers.
    pub server_weights: Vec<f64>,
    /// Scheduled changes of servers' speeds, in any order.
    pub speed_changes: Vec<SpeedChange>,
    /// Scheduled membership changes, in any order.
    pub membership: Vec<membership::Scheduled>,
    /// Scheduled failures and recoveries, in any order.
    pub failures: Vec<failures::ScheduledFailure>,
    pub service: ServiceDistribution,
    pub service_mean_ms: f64,
    /// Request classes: each one's share of requests and relative cost (its
    /// mean service time over the lightest's), in the same order.
    pub class_shares: Vec<f64>,
    pub class_costs: Vec<f64>,
    /// Each class's priority (higher is served first), or one for all.
    pub class_priorities: Vec<u32>,
    /// Each class's range of servers, first to last; empty: all servers.
    pub class_pools: Vec<(u32, u32)>,
    pub service_cv: f64,
    pub pareto_shape: f64,
    pub clients: u32,
    pub session_length: u32,
    /// `None`: every session has `session_length` requests; else the tail
    /// index of Pareto lengths with that mean.
    pub session_length_shape: Option<f64>,
    pub handshake_round_trips: u32,
    /// `None`: a warm connection never goes cold.
    pub idle_timeout_ms: Option<f64>,
    /// `None`: every chooser may pick any server.
    pub subset_size: Option<u32>,
    pub subset_mode: SubsetMode,
    /// Finagle's minimum aperture: the servers' worth of ring an aperture spans.
    pub min_aperture: u32,
    pub balancers: u32,
    /// Envoy's worker threads, NGINX's worker processes: each balancer's
    /// choosers, each balancing on its own (see [`Scenario::choosers`]).
    pub workers_per_balancer: u32,
    pub client_delay_ms: f64,
    pub balancer_delay_ms: f64,
    pub demand: Demand,
    pub load: f64,
    pub policy: PolicyKind,
    pub choices: u32,
    pub staleness_ms: f64,
    pub retry_budget: u32,
    /// The first retry's backoff; each next one doubles it, and the wait
    /// is drawn uniformly below it (full jitter). 0: retries go at once.
    pub retry_backoff_ms: f64,
    /// Envoy's `max_interval`: no backoff waits longer; `None`: no cap.
    pub retry_backoff_max_ms: Option<f64>,
    pub retry_hosts: RetryHosts,
    /// Envoy's `host_selection_retry_max_attempts`: picks made again under
    /// `previous_hosts` before the last is taken.
    pub host_selection_retry_max_attempts: u32,
    pub retry_ratio: RatioBudget,
    /// Consecutive errors from a server after which a chooser ejects it
    /// from its pool; 0: never.
    pub eject_after: u32,
    pub eject_for_ms: f64,
    /// The largest share of a chooser's pool it may hold ejected.
    pub eject_max_fraction: f64,
    /// Envoy's `max_ejection_time`: each ejection of a server lasts
    /// `eject_for_ms` × the times it was ejected, up to this; `None`: every
    /// ejection lasts `eject_for_ms`.
    pub eject_max_for_ms: Option<f64>,
    /// Linkerd's and Finagle's back-offs: how ejections lengthen.
    pub eject_backoff: EjectBackoff,
    /// Envoy's outlier `interval`: ejections end at these sweeps, and each
    /// sweep that finds a server in forgets one of its ejections; `None`:
    /// an ejection ends when its time is up.
    pub eject_interval_ms: Option<f64>,
    /// Envoy's `always_eject_one_host`: a chooser may eject one server
    /// whatever `eject_max_fraction` says.
    pub eject_always_one_host: bool,
    /// NGINX's and Linkerd's probe: a server whose ejection ends is sent
    /// one request before it is back for good.
    pub eject_probe: bool,
    /// NGINX's passive health checks under its round robin: fails that
    /// take a peer out for `fail_timeout_s` (0: none counted).
    pub max_fails: u32,
    pub fail_timeout_s: u32,
    pub success_rate: RateEjection,
    pub failure_percentage: RateEjection,
    /// Envoy's `healthy_panic_threshold`, in percent: a chooser with fewer
    /// of its pool's servers in than this routes to all of them; 0: never.
    pub healthy_panic_threshold: f64,
    /// Envoy's `slow_start_window`: a server that joins has its weight
    /// ramped up over this; `None`: no slow start.
    pub slow_start_window_ms: Option<f64>,
    pub slow_start_aggression: f64,
    pub slow_start_min_weight_percent: f64,
    /// `None`: no health checks.
    pub health_check_ms: Option<f64>,
    /// HAProxy's rise and fall: checks in a row that bring a server back,
    /// and that take it out.
    pub health_check_rise: u32,
    pub health_check_fall: u32,
    /// A check that would wait this long for a slot fails; `None`: only a
    /// server that refuses connections fails one.
    pub health_check_timeout_ms: Option<f64>,
    /// HAProxy's server `maxconn` and `maxqueue`, per chooser (0: no
    /// limit), and its `timeout queue` (`None`: a request waits).
    pub server_maxconn: u32,
    pub server_maxqueue: u32,
    pub timeout_queue_ms: Option<f64>,
    /// Envoy's circuit breaker `max_requests`, per chooser; 0: no limit.
    pub max_requests: u32,
    /// Whether a chooser picks a server once per client connection, which
    /// then carries the client's requests until it is `max_connection_age_ms` old.
    pub balance_per: BalancePer,
    pub connections_per_client: u32,
    pub max_connection_age_ms: Option<f64>,
    /// `None`: choosers never hedge.
    pub hedge_after_ms: Option<f64>,
    /// `None`: the hedge delay is `hedge_after_ms` alone.
    pub hedge_percentile: Option<f64>,
    pub hedge_cancel: HedgeCancel,
    pub key_space: u32,
    /// 0: uniform; above 0, Zipf's exponent.
    pub key_popularity: f64,
    pub key_per: KeyPer,
    pub virtual_nodes: u32,
    pub bounded_load_c: f64,
    /// How long the last chooser's copy of the mapping table lags a change.
    pub table_lag_ms: f64,
    /// Datacenters the servers and choosers are split across (1: one).
    pub datacenters: u32,
    /// Added to every one-way hop between a chooser and a server in
    /// another datacenter.
    pub cross_dc_delay_ms: f64,
    pub dc_order: DcOrder,
    pub seed: u64,
    pub duration_s: f64,
    pub warmup_s: f64,
}

impl Default for Scenario {
    fn default() -> Scenario {
        Scenario {
            servers: 10,
            slots: 10,
            queue_timeout_ms: Some(100.0),
            server_speeds: vec![1.0],
            server_weights: vec![1.0],
            speed_changes: Vec::new(),
            membership: Vec::new(),
            failures: Vec::new(),
            service: ServiceDistribution::Exponential,
            service_mean_ms: 20.0,
            class_shares: vec![1.0],
            class_costs: vec![1.0],
            class_priorities: vec![0],
            class_pools: Vec::new(),
            service_cv: 1.0,
            pareto_shape: 2.5,
            clients: 20,
            session_length: 10,
            session_length_shape: None,
            handshake_round_trips: 2,
            idle_timeout_ms: None,
            subset_size: None,
            subset_mode: SubsetMode::Random,
            min_aperture: 12,
            balancers: 0,
            workers_per_balancer: 1,
            client_delay_ms: 5.0,
            balancer_delay_ms: 1.0,
            demand: Demand::Continuous,
            load: 0.9,
            policy: PolicyKind::RANDOM,
            choices: 2,
            staleness_ms: 0.0,
            retry_budget: 10,
            retry_backoff_ms: 0.0,
            retry_backoff_max_ms: None,
            retry_hosts: RetryHosts::Any,
            host_selection_retry_max_attempts: 1,
            retry_ratio: RatioBudget::default(),
            eject_after: 0,
            eject_for_ms: 10_000.0,
            eject_max_fraction: 0.5,
            eject_max_for_ms: None,
            eject_backoff: EjectBackoff::default(),
            eject_interval_ms: None,
            eject_always_one_host: false,
            eject_probe: false,
            max_fails: 0,
            fail_timeout_s: 10,
            success_rate: RateEjection::SUCCESS_RATE,
            failure_percentage: RateEjection::FAILURE_PERCENTAGE,
            healthy_panic_threshold: 0.0,
            slow_start_window_ms: None,
            slow_start_aggression: 1.0,
            slow_start_min_weight_percent: 10.0,
            health_check_ms: None,
            health_check_rise: 1,
            health_check_fall: 1,
            health_check_timeout_ms: None,
            server_maxconn: 0,
            server_maxqueue: 0,
            timeout_queue_ms: None,
            max_requests: 0,
            balance_per: BalancePer::Request,
            connections_per_client: 1,
            max_connection_age_ms: None,
            hedge_after_ms: None,
            hedge_percentile: None,
            hedge_cancel: HedgeCancel::InService,
            key_space: 10_000,
            key_popularity: 0.0,
            key_per: KeyPer::Session,
            virtual_nodes: 100,
            bounded_load_c: 1.25,
            table_lag_ms: 0.0,
            datacenters: 1,
            cross_dc_delay_ms: 10.0,
            dc_order: DcOrder::LocalFirst,
            seed: 1,
            duration_s: 60.0,
            warmup_s: 0.0,
        }
    }
}

/// The largest key space: keys are drawn as indices, 32 bits in WebAssembly.
pub const MAX_KEY_SPACE: u64 = 1 << 31;

/// The most points all servers together may take on a ring.
pub const MAX_RING_POINTS: u64 = 4_000_000;

/// The most request classes a scenario may declare.
pub const MAX_CLASSES: usize = 8;

/// The most sessions a continuous demand may start per simulated second: one
/// per nanosecond on average, the resolution of the simulation's clock.
pub const MAX_SESSIONS_PER_SEC: f64 = 1e9;

/// The most per-server entries all choosers together may track
/// (`clients` or `balancers`, times the pool size).
pub const MAX_KNOWLEDGE_ENTRIES: u64 = 4_000_000;
