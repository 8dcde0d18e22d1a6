//! Retries: a try sent back by its server (a queue timeout) or answered
//! with an error goes out again from its chooser, within the request's
//! `retry_budget`, at once or after an exponential backoff with full
//! jitter (AWS's "exponential backoff and jitter": the k-th retry waits a
//! time drawn uniformly below `retry_backoff_ms` · 2^(k-1), and no longer
//! than `retry_backoff_max_ms`, Envoy's `max_interval`). The wait is drawn
//! from the request's own random stream, so a backoff shifts no other
//! draw. A try sent back past the budget fails its request, and an error
//! past it goes on to the client (the core's rule).
//!
//! A retry budget as a share of requests is `retry_budget.rs`, which
//! retries as this does once its budget allows; this feature is then
//! absent.

use super::{Action, Asks, Back, Feature, Points, Returned, View};
use crate::engine::Happening;
use crate::rng::Draw;
use crate::scenario::Scenario;
use crate::time::Time;

/// The most doublings of the backoff: 2^16 times the first.
const MAX_DOUBLINGS: u16 = 16;

/// Stateless: the budget and the backoff are live settings, read at use,
/// so the feature is present in every run without a ratio budget (a try
/// comes back rarely).
pub(in crate::engine) struct Retries;

/// How long try `tries` of `request` waits at its chooser first.
fn wait(view: &View, (number, remaining): (u32, u16), tries: u16) -> Option<Time> {
    let base = view.scenario.retry_backoff_ms;
    if base <= 0.0 {
        return None;
    }
    let base = Time::from_ms(base);
    let mut draws = view.demands.of_attempt(number, remaining, tries);
    let ceiling = base.0 as f64 * f64::from(1u32 << tries.saturating_sub(1).min(MAX_DOUBLINGS));
    let wait = Time(libm::floor(draws.unit() * ceiling) as u64);
    Some(view.scenario.retry_backoff_max_ms.map_or(wait, |max| wait.min(Time::from_ms(max))))
}

/// The try the returned request would make next, if its own budget
/// (`retry_budget`) allows one.
pub(super) fn next_try(returned: &Returned, view: &View) -> Option<u16> {
    let tries = match returned.why {
        Back::SentBack => returned.tries,
        Back::Error => returned.tries.saturating_add(1),
    };
    (u32::from(tries) <= view.scenario.retry_budget).then_some(tries)
}

/// Sends the returned request out again as try `tries`, at once or after
/// its backoff (a timer of the asking feature's, due when it is over).
pub(super) fn try_again(returned: &Returned, tries: u16, view: &View, out: &mut Asks) {
    let place = returned.place;
    let wait = wait(view, returned.request, tries);
    out.push(Action::Retry { place, tries, wait });
    let Some(wait) = wait else { return };
    out.push(Action::Timer { at: view.now + wait, payload: place });
    if let Some(request) = view.whose(place).filter(|_| view.journaled) {
        out.push(Action::Note(Happening::BackingOff { request, wait }));
    }
}

impl Feature for Retries {
    const TRACE_KIND: u64 = 18;
    const HEARS: Points = Points::RETURNED;
    const TIMERS_NAME_PLACES: bool = true;

    fn for_scenario(scenario: &Scenario) -> Option<Retries> {
        scenario.retry_ratio.percent.is_none().then_some(Retries)
    }

    /// Tries the request again if its budget allows the try.
    fn returned(&mut self, returned: Returned, view: &View, out: &mut Asks) {
        if let Some(tries) = next_try(&returned, view) {
            try_again(&returned, tries, view, out);
        }
    }

    /// Place `place`'s backoff is over.
    fn timer(&mut self, place: u32, _view: &View, out: &mut Asks) {
        out.push(Action::Release { place });
    }
}
