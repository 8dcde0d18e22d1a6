//! How long an outlier ejection lasts, the kth of a server's run of
//! ejections (`eject_growth`, `eject_jitter`):
//! - linear, Envoy's: the base ejection time × k, up to its maximum
//!   (`outlier_detection_impl.cc`, `ejectHost` and `checkHostForUneject`);
//! - exponential, Linkerd's failure accrual: the base × 2^(k−1), held to
//!   the maximum, plus a uniform draw of up to `jitter` × that, held to the
//!   maximum again (linkerd2-proxy `linkerd/exp-backoff/src/lib.rs`,
//!   `ExponentialBackoff::base` and `jitter`, a fresh stream each time the
//!   breaker shuts in `consecutive_failures.rs`);
//! - equal-jittered, Finagle's: the base, then h = base × 2^(k−2) held to
//!   the maximum, plus a uniform draw below `jitter` × h (1 in Finagle),
//!   held to the maximum (finagle-core `Backoff.scala`, `EqualJittered.next`;
//!   `FailureAccrualFactory.jitteredBackoff`, 5 s to 300 s).
//!
//! A draw is made only when it can change the length (some jitter, and a
//! length short of the maximum), from a generator of the ejection's own
//! (`Demands::of_ejection`), so a jitter shifts no other draw.

use crate::rng::Draw;
use crate::scenario::{EjectBackoff, EjectGrowth};
use crate::time::Time;

/// How long ejections last: the base and maximum ejection times, their
/// growth and jitter, and Envoy's sweep interval.
pub(super) struct Lengths {
    pub base: Time,
    /// At least `base`: Envoy takes the larger of the two.
    pub max: Time,
    pub sweep: Option<Time>,
    pub backoff: EjectBackoff,
}

impl Lengths {
    /// A server's count of ejections once ejected again, having been
    /// ejected `times` (not yet forgotten): Envoy stops counting once the
    /// length has reached the maximum; a back-off, whose lengths stop
    /// growing there too, counts on.
    pub fn count_after(&self, times: u32) -> u32 {
        let linear = self.backoff.growth == EjectGrowth::Linear;
        if !linear || u64::from(times) * self.base.0 < self.max.0 + self.base.0 {
            times.saturating_add(1)
        } else {
            times
        }
    }

    /// How long an ejection lasts that is a server's `count`th, jittered
    /// by a draw from `rng` when the jitter can lengthen it.
    pub fn of(&self, count: u32, rng: &mut impl Draw) -> Time {
        let (grown, jittered) = self.grown(count);
        let grown = grown.min(self.max.0);
        if !jittered || self.backoff.jitter == 0.0 || grown >= self.max.0 {
            return Time(grown);
        }
        let stretch = grown as f64 * self.backoff.jitter * rng.unit();
        Time(grown.saturating_add(stretch as u64).min(self.max.0))
    }

    /// The `count`th ejection's length before jitter and the maximum, in
    /// nanoseconds, and whether jitter lengthens it (not Finagle's first).
    fn grown(&self, count: u32) -> (u64, bool) {
        let doubled = |doublings: u32| {
            let factor = 1u64.checked_shl(doublings).unwrap_or(u64::MAX);
            self.base.0.saturating_mul(factor)
        };
        match self.backoff.growth {
            EjectGrowth::Linear => (self.base.0.saturating_mul(count.into()), true),
            EjectGrowth::Exponential => (doubled(count.saturating_sub(1)), true),
            EjectGrowth::EqualJittered if count <= 1 => (self.base.0, false),
            EjectGrowth::EqualJittered => (doubled(count - 2), true),
        }
    }
}

#[cfg(test)]
mod tests;
