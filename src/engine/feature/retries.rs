//! Retries: a try sent back by its server (a queue timeout) or answered
//! with an error goes out again from its chooser, within the request's
//! `retry_budget`, at once or after an exponential backoff with full
//! jitter (AWS's "exponential backoff and jitter": the k-th retry waits a
//! time drawn uniformly below `retry_backoff_ms` · 2^(k-1)). The wait is
//! drawn from the request's own random stream, so a backoff shifts no
//! other draw. A try sent back past the budget fails its request, and an
//! error past it goes on to the client (the core's rule).

use super::{Action, Asks, Back, Feature, Points, Returned, View};
use crate::engine::Happening;
use crate::rng::Draw;
use crate::scenario::Scenario;
use crate::time::Time;

/// The most doublings of the backoff: 2^16 times the first.
const MAX_DOUBLINGS: u16 = 16;

/// Stateless: the budget and the backoff are live settings, read at use,
/// so the feature is present in every run (a try comes back rarely).
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
    Some(Time(libm::floor(draws.unit() * ceiling) as u64))
}

impl Feature for Retries {
    const TRACE_KIND: u64 = 18;
    const HEARS: Points = Points::RETURNED;
    const TIMERS_NAME_PLACES: bool = true;

    fn for_scenario(_scenario: &Scenario) -> Option<Retries> {
        Some(Retries)
    }

    /// Tries the request again if its budget allows the try.
    fn returned(&mut self, returned: Returned, view: &View, out: &mut Asks) {
        let Returned { place, why, tries, request } = returned;
        let tries = match why {
            Back::SentBack => tries,
            Back::Error => tries.saturating_add(1),
        };
        if u32::from(tries) > view.scenario.retry_budget {
            return;
        }
        let wait = wait(view, request, tries);
        out.push(Action::Retry { place, tries, wait });
        let Some(wait) = wait else { return };
        out.push(Action::Timer { at: view.now + wait, payload: place });
        if let Some(request) = view.whose(place).filter(|_| view.journaled) {
            out.push(Action::Note(Happening::BackingOff { request, wait }));
        }
    }

    /// Place `place`'s backoff is over.
    fn timer(&mut self, place: u32, _view: &View, out: &mut Asks) {
        out.push(Action::Release { place });
    }
}
