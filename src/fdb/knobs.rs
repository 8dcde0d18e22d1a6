//! FoundationDB's knobs that the two balancers read, at their defaults, in
//! simulated time. Each value is taken from `flow/Knobs.cpp` (the `FLOW_KNOBS`)
//! of apple/foundationdb unless its comment names another file; the knob's
//! name is kept so it can be looked up there.

use crate::time::Time;

const MS: u64 = Time::NANOS_PER_MS;
const US: u64 = MS / 1_000;

/// `LOAD_BALANCE_START_BACKOFF` (0.01 s): the first backoff, once every
/// alternative has been tried.
pub const LOAD_BALANCE_START_BACKOFF: Time = Time(10 * MS);
/// `LOAD_BALANCE_MAX_BACKOFF` (5 s): backoffs grow no further.
pub const LOAD_BALANCE_MAX_BACKOFF: Time = Time(5_000 * MS);
/// `LOAD_BALANCE_BACKOFF_RATE` (2): each backoff after the first is this many
/// times the one before.
pub const LOAD_BALANCE_BACKOFF_RATE: u64 = 2;

/// `LOAD_BALANCE_MAX_BAD_OPTIONS` (1): with no more bad local alternatives
/// than this, `loadBalance` looks no further than the local datacenter.
pub const LOAD_BALANCE_MAX_BAD_OPTIONS: usize = 1;
/// The penalty above which a server counts as bad when the candidates are
/// chosen (`qd.penalty > 1.001` in `loadBalanceImpl`,
/// `fdbrpc/include/fdbrpc/LoadBalance.actor.h`, under
/// `LOAD_BALANCE_PENALTY_IS_BAD`, true by default).
pub const BAD_PENALTY: f64 = 1.001;

/// `QUEUE_MODEL_SMOOTHING_AMOUNT` (2 s): the e-folding time of each server's
/// smoothed count of outstanding requests.
pub const QUEUE_MODEL_SMOOTHING_AMOUNT: Time = Time(2_000 * MS);
/// A server's latency before it has answered once (`QueueData`'s initial
/// 0.001 s, `fdbrpc/include/fdbrpc/QueueModel.h`).
pub const INITIAL_LATENCY: Time = Time(MS);

/// `FUTURE_VERSION_INITIAL_BACKOFF` (1 s): how long a server that answered
/// "future version" is left alone the first time.
pub const FUTURE_VERSION_INITIAL_BACKOFF: Time = Time(1_000 * MS);
/// `FUTURE_VERSION_MAX_BACKOFF` (8 s).
pub const FUTURE_VERSION_MAX_BACKOFF: Time = Time(8_000 * MS);
/// `FUTURE_VERSION_BACKOFF_GROWTH` (2).
pub const FUTURE_VERSION_BACKOFF_GROWTH: u64 = 2;

/// `BASE_SECOND_REQUEST_TIME` (0.0005 s): added to the second candidate's
/// latency to give the first request's timeout.
pub const BASE_SECOND_REQUEST_TIME: Time = Time(500 * US);
/// `INSTANT_SECOND_REQUEST_MULTIPLIER` (2): when the best candidate's latency
/// is more than this many times the timeout, the second request goes at once.
pub const INSTANT_SECOND_REQUEST_MULTIPLIER: f64 = 2.0;
/// `SECOND_REQUEST_MULTIPLIER_GROWTH` (0.01): the timeout's multiplier grows
/// by this much with each second request sent...
pub const SECOND_REQUEST_MULTIPLIER_GROWTH: f64 = 0.01;
/// `SECOND_REQUEST_MULTIPLIER_DECAY` (0.00025): ...and shrinks by this much,
/// down to 1, with each reply to a first request.
pub const SECOND_REQUEST_MULTIPLIER_DECAY: f64 = 0.00025;
/// `SECOND_REQUEST_BUDGET_GROWTH` (0.05): each reply to a first request earns
/// this much of a second request; one costs 1.
pub const SECOND_REQUEST_BUDGET_GROWTH: f64 = 0.05;
/// `SECOND_REQUEST_MAX_BUDGET` (100).
pub const SECOND_REQUEST_MAX_BUDGET: f64 = 100.0;

/// `ALTERNATIVES_FAILURE_RESET_TIME` (5 s): a quiet spell this long starts the
/// count of how long every alternative has been failing afresh.
pub const ALTERNATIVES_FAILURE_RESET_TIME: Time = Time(5_000 * MS);
/// `ALTERNATIVES_FAILURE_MIN_DELAY` (0.05 s): the shortest wait for an
/// alternative before `all_alternatives_failed`.
pub const ALTERNATIVES_FAILURE_MIN_DELAY: Time = Time(50 * MS);
/// `ALTERNATIVES_FAILURE_DELAY_RATIO` (0.2) of the failing spell, up to
/// `ALTERNATIVES_FAILURE_MAX_DELAY` (1 s)...
pub const ALTERNATIVES_FAILURE_DELAY_RATIO: f64 = 0.2;
pub const ALTERNATIVES_FAILURE_MAX_DELAY: Time = Time(1_000 * MS);
/// ...or `ALTERNATIVES_FAILURE_SLOW_DELAY_RATIO` (0.04) of it, up to
/// `ALTERNATIVES_FAILURE_SLOW_MAX_DELAY` (30 s), whichever is longer.
pub const ALTERNATIVES_FAILURE_SLOW_DELAY_RATIO: f64 = 0.04;
pub const ALTERNATIVES_FAILURE_SLOW_MAX_DELAY: Time = Time(30_000 * MS);
/// `ALTERNATIVES_FAILURE_SKIP_DELAY` (1 s): at most one short wait this often.
pub const ALTERNATIVES_FAILURE_SKIP_DELAY: Time = Time(1_000 * MS);

/// `DELAY_JITTER_OFFSET` (0.9) and `DELAY_JITTER_RANGE` (0.2): a jittered
/// delay (`delayJittered`, `flow/include/flow/flow.h`) lasts 0.9 to 1.1 times
/// the delay asked.
pub const DELAY_JITTER_OFFSET: f64 = 0.9;
pub const DELAY_JITTER_RANGE: f64 = 0.2;
