//! Settings of proxy mechanisms that come in groups (issue 42), each group
//! as the proxy's configuration groups it: Envoy's success-rate and
//! failure-percentage outlier detection, which share one shape, and the
//! retry budgets that bound retries as a share of requests (Envoy's, and
//! Linkerd's and Finagle's). Each group is off by default, so a scenario
//! that names none of their fields runs as it did.

use super::kinds::{BudgetOf, EjectGrowth};
use serde::Serialize;

/// Outlier ejection by the rate of errors a chooser heard from each server
/// over an ejection interval (Envoy's `success_rate_*` and
/// `failure_percentage_*`, `outlier_detection.proto`): only servers that
/// answered at least `request_volume` requests count, and only when at
/// least `minimum_hosts` of them did.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RateEjection {
    /// For success rate, the standard deviations below the mean, in
    /// thousandths (Envoy's `stdev_factor`); for failure percentage, the
    /// percentage of errors at which a server is ejected. `None`: off.
    pub limit: Option<f64>,
    pub minimum_hosts: u32,
    pub request_volume: u32,
}

impl RateEjection {
    /// Envoy's defaults for success-rate ejection, off.
    pub const SUCCESS_RATE: RateEjection =
        RateEjection { limit: None, minimum_hosts: 5, request_volume: 100 };
    /// Envoy's defaults for failure-percentage ejection, off (as there).
    pub const FAILURE_PERCENTAGE: RateEjection =
        RateEjection { limit: None, minimum_hosts: 5, request_volume: 50 };
}

/// A retry budget as a share of requests: Envoy's `retry_budget`
/// (`circuit_breaker.proto`: retries outstanding at once at most
/// `percent` of the requests outstanding, and at least
/// `min_retry_concurrency`), or Linkerd's and Finagle's (retries over
/// `ttl_ms` at most `percent` of the requests made in it, plus
/// `min_retries_per_second` for each second of it).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RatioBudget {
    /// `None`: no such budget; each request retries up to `retry_budget`.
    pub percent: Option<f64>,
    pub of: BudgetOf,
    pub min_retry_concurrency: u32,
    pub min_retries_per_second: f64,
    pub ttl_ms: f64,
}

impl Default for RatioBudget {
    /// Off, with Envoy's minimum concurrency and Linkerd's and Finagle's
    /// reserve and window.
    fn default() -> RatioBudget {
        RatioBudget {
            percent: None,
            of: BudgetOf::Active,
            min_retry_concurrency: 3,
            min_retries_per_second: 10.0,
            ttl_ms: 10_000.0,
        }
    }
}

/// How a server's ejections lengthen as they repeat (`eject_growth`) and
/// how much each is lengthened at random (`eject_jitter`, a share of its
/// length): Envoy's linear growth unjittered by default, Linkerd's and
/// Finagle's exponential back-offs with their jitter when set.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EjectBackoff {
    pub growth: EjectGrowth,
    pub jitter: f64,
}

impl Default for EjectBackoff {
    /// Envoy's growth, without jitter: what lbsim did before.
    fn default() -> EjectBackoff {
        EjectBackoff { growth: EjectGrowth::Linear, jitter: 0.0 }
    }
}
