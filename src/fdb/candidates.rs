//! `loadBalance`'s two initial candidates and the first request's timeout,
//! from the queue model (the `if (model)` block of `loadBalanceImpl`,
//! `fdbrpc/include/fdbrpc/LoadBalance.actor.h`).
//!
//! Both start as random picks, the best among the nearest alternatives. Then
//! every alternative the failure monitor believes up, and the model does not
//! hold back after a future-version error, is ranked by its smoothed
//! outstanding requests: the least becomes the best, the runner-up the next.
//! Alternatives that are failed, held back or report a penalty count as bad;
//! with at most `LOAD_BALANCE_MAX_BAD_OPTIONS` bad ones among the nearest
//! (and not all of them), the remote alternatives are not looked at, unless
//! no runner-up was found.

use super::knobs::{
    BAD_PENALTY, BASE_SECOND_REQUEST_TIME, INSTANT_SECOND_REQUEST_MULTIPLIER, LOAD_BALANCE_MAX_BAD_OPTIONS,
};
use super::{Alternatives, FailureMonitor, Knowledge, QueueModel, Walk};
use crate::rng::Draw;
use crate::time::Time;

/// When the first request gives way to a second one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SecondRequest {
    /// No runner-up worth a second request.
    Never,
    /// The best is so much slower than the runner-up that both go at once.
    Now,
    /// After this long without a reply.
    After(Time),
}

/// An alternative's ranking: smoothed outstanding requests, then latency.
#[derive(Clone, Copy)]
struct Ranked {
    outstanding: f64,
    latency: Time,
}

/// The walk that starts at the best candidate and goes next to the second,
/// and when to send a second request.
pub(super) fn choose(
    alternatives: &Alternatives,
    (monitor, model): (&dyn FailureMonitor, &dyn QueueModel),
    known: &Knowledge,
    now: Time,
    rng: &mut impl Draw,
) -> (Walk, SecondRequest) {
    let size = alternatives.len();
    let nearest = alternatives.count_best();
    let random = Walk::random_from(size, rng.index(nearest), rng);
    // The random picks stand until a ranked alternative displaces them.
    let (mut best_alt, mut next_alt) = (random.best(), random.start());
    let (mut best, mut next): (Option<Ranked>, Option<Ranked>) = (None, None);
    let usable = |alt: usize| {
        let server = alternatives.server(alt);
        let data = model.measurement(server);
        (!monitor.is_failed(server) && now > data.failed_until).then_some(data)
    };
    let mut bad = 0;
    for alt in 0..size {
        if alt == nearest && bad < alt.min(LOAD_BALANCE_MAX_BAD_OPTIONS + 1) {
            break;
        }
        let Some(data) = usable(alt) else {
            bad += 1;
            continue;
        };
        if data.penalty > BAD_PENALTY {
            bad += 1;
        }
        let this = Ranked { outstanding: data.outstanding.smooth_total(now), latency: data.latency };
        if best.is_none_or(|b| this.outstanding < b.outstanding) {
            if alt != best_alt {
                (next_alt, next) = (best_alt, best);
            }
            (best_alt, best) = (alt, Some(this));
        } else if next.is_none_or(|n| this.outstanding < n.outstanding) {
            (next_alt, next) = (alt, Some(this));
        }
    }
    if next.is_none() {
        // No runner-up yet: look again among the remote alternatives, which
        // the first pass may have skipped. (As in the source, this pass may
        // land on the best itself.)
        for alt in nearest..size {
            if let Some(data) = usable(alt) {
                let this = Ranked { outstanding: data.outstanding.smooth_total(now), latency: data.latency };
                if next.is_none_or(|n| this.outstanding < n.outstanding) {
                    (next_alt, next) = (alt, Some(this));
                }
            }
        }
    }
    let second = match next {
        None => SecondRequest::Never,
        Some(next) => {
            let timeout = known.second_multiplier * next.latency.0 as f64 + BASE_SECOND_REQUEST_TIME.0 as f64;
            let best_latency = best.map_or(f64::INFINITY, |b| b.latency.0 as f64);
            if best_latency > INSTANT_SECOND_REQUEST_MULTIPLIER * timeout {
                SecondRequest::Now
            } else {
                SecondRequest::After(Time(timeout.round() as u64))
            }
        }
    };
    (Walk::new(size, best_alt, next_alt), second)
}
