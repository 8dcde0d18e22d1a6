//! Retry budgets as a share of requests, each chooser's its own, as each
//! proxy instance keeps one: a try that would retry (within its request's
//! `retry_budget`, as `retries.rs` decides) goes out again only if the
//! budget allows; else its request fails or its error goes on, as past
//! `retry_budget`.
//!
//! - Envoy's (`retry_budget_of` active; `circuit_breaker.proto`
//!   `RetryBudget`, `resource_manager_impl.h` `RetryBudgetImpl`): a retry
//!   may start while the chooser's retries outstanding are fewer than
//!   `retry_budget_percent` of its requests outstanding, rounded down, or
//!   than `min_retry_concurrency`. A retry is outstanding from the
//!   decision until its request's next decision or its end
//!   (`retry_state_impl.cc`, `resetRetry`): here, a request outstanding
//!   that has been retried, other than the one deciding.
//! - Linkerd's and Finagle's (`retry_budget_of` requests), as Finagle's
//!   `RetryBudget.scala` counts (Linkerd's has the same parameters, and
//!   tower's budget under it follows Finagle's design): each request the
//!   chooser creates deposits
//!   1000 tokens, a retry costs 1000 ÷ the ratio, a reserve of
//!   `min_retries_per_second` × the window's seconds retries stands
//!   always, and deposits and withdrawals expire after
//!   `retry_budget_ttl_ms`, counted in ten slices of it (Twitter's
//!   `WindowedAdder`), so over any window the retries are at most the
//!   ratio of its requests plus the reserve.

use super::retries::{next_try, try_again};
use super::{Action, Asks, Created, Feature, Points, Returned, View};
use crate::scenario::{BudgetOf, Scenario};
use crate::time::Time;

/// The slices a window is counted in.
const SLICES: usize = 10;
/// Tokens a request deposits (Finagle's `ScaleFactor`).
const DEPOSIT: i64 = 1000;

pub(in crate::engine) struct RetryBudget {
    /// The share of requests, a fraction.
    ratio: f64,
    rule: Rule,
}

enum Rule {
    Active { min_retry_concurrency: u32 },
    Requests(Windows),
}

/// Each chooser's tokens over the window, and what every window shares.
struct Windows {
    /// Tokens a retry costs.
    cost: i64,
    reserve: i64,
    slice: Time,
    windows: Vec<Window>,
}

/// One chooser's deposits less withdrawals, per slice of the window.
#[derive(Clone, Default)]
struct Window {
    slices: [i64; SLICES],
    current: usize,
    /// When the current slice began.
    since: Time,
}

impl Window {
    /// Moves on to the slice holding `now`, emptying those it passes.
    fn advance(&mut self, now: Time, slice: Time) {
        let passed = (now.0 - self.since.0) / slice.0;
        for _ in 0..passed.min(SLICES as u64) {
            self.current = (self.current + 1) % SLICES;
            self.slices[self.current] = 0;
        }
        self.since = Time(self.since.0 + passed * slice.0);
    }

    fn tokens(&self) -> i64 {
        self.slices.iter().sum()
    }
}

impl Windows {
    /// Chooser `chooser`'s window, moved on to `now`.
    fn of(&mut self, chooser: usize, now: Time) -> &mut Window {
        if self.windows.len() <= chooser {
            self.windows.resize_with(chooser + 1, Window::default);
        }
        let window = &mut self.windows[chooser];
        window.advance(now, self.slice);
        window
    }

    /// Whether `chooser` may retry now; if so, it pays for the retry.
    fn withdraw(&mut self, chooser: usize, now: Time) -> bool {
        let (cost, reserve) = (self.cost, self.reserve);
        let window = self.of(chooser, now);
        let allowed = reserve + window.tokens() >= cost;
        if allowed {
            window.slices[window.current] -= cost;
        }
        allowed
    }
}

/// The chooser of place `place`'s request, if it is still out.
fn chooser_of(place: u32, view: &View) -> Option<usize> {
    let request = view.requests.get(place)?;
    Some(view.choosers.member(request.chooser(), request.request.class))
}

/// Whether Envoy's budget lets `chooser` retry place `place`'s request:
/// its other retries outstanding are fewer than `ratio` of its requests
/// outstanding, or than `min_retry_concurrency`.
fn active_allows(
    ratio: f64,
    min_retry_concurrency: u32,
    (chooser, place): (usize, u32),
    view: &View,
) -> bool {
    let (mut outstanding, mut retrying) = (0u64, 0u64);
    for (id, request) in view.requests.iter() {
        if view.choosers.member(request.chooser(), request.request.class) == chooser {
            outstanding += 1;
            retrying += u64::from(id != place && request.request.retries > 0);
        }
    }
    let share = libm::floor(ratio * outstanding as f64) as u64;
    retrying < share.max(min_retry_concurrency.into())
}

impl Feature for RetryBudget {
    /// Its timers are retries' backoffs, as `retries.rs`'s are.
    const TRACE_KIND: u64 = 18;
    const HEARS: Points = Points::RETURNED.and(Points::CREATED);
    const TIMERS_NAME_PLACES: bool = true;

    fn for_scenario(scenario: &Scenario) -> Option<RetryBudget> {
        let budget = scenario.retry_ratio;
        let ratio = budget.percent? / 100.0;
        let rule = match budget.of {
            BudgetOf::Active => Rule::Active { min_retry_concurrency: budget.min_retry_concurrency },
            BudgetOf::Requests => {
                // Finagle's integer arithmetic: with no ratio, a retry costs
                // one token and requests deposit none.
                let cost = if ratio > 0.0 { (DEPOSIT as f64 / ratio) as i64 } else { 1 };
                let seconds = budget.ttl_ms / 1000.0;
                let reserve = (budget.min_retries_per_second * seconds * cost as f64) as i64;
                let slice = Time::from_ms(budget.ttl_ms / SLICES as f64);
                Rule::Requests(Windows { cost, reserve, slice, windows: Vec::new() })
            }
        };
        Some(RetryBudget { ratio, rule })
    }

    /// A request created deposits its share in its chooser's window.
    fn created(&mut self, Created { place }: Created, view: &View, _out: &mut Asks) {
        let Rule::Requests(windows) = &mut self.rule else { return };
        let Some(chooser) = chooser_of(place, view) else { return };
        let deposit = if self.ratio > 0.0 { DEPOSIT } else { 0 };
        let window = windows.of(chooser, view.now);
        window.slices[window.current] += deposit;
    }

    /// Tries the request again if its own budget and its chooser's allow.
    fn returned(&mut self, returned: Returned, view: &View, out: &mut Asks) {
        let Some(tries) = next_try(&returned, view) else { return };
        let Some(chooser) = chooser_of(returned.place, view) else { return };
        let allowed = match &mut self.rule {
            Rule::Active { min_retry_concurrency } => {
                active_allows(self.ratio, *min_retry_concurrency, (chooser, returned.place), view)
            }
            Rule::Requests(windows) => windows.withdraw(chooser, view.now),
        };
        if allowed {
            try_again(&returned, tries, view, out);
        }
    }

    /// Place `place`'s backoff is over.
    fn timer(&mut self, place: u32, _view: &View, out: &mut Asks) {
        out.push(Action::Release { place });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Finagle's default: 20%, 10 a second, 10 s.
    fn finagle() -> Windows {
        let cost = 5000;
        Windows { cost, reserve: 10 * 10 * cost, slice: Time::from_ms(1000.0), windows: Vec::new() }
    }

    #[test]
    fn with_no_requests_the_reserve_allows_ten_a_second_over_the_window() {
        let mut windows = finagle();
        let allowed = (0..150).filter(|_| windows.withdraw(0, Time::ZERO)).count();
        assert_eq!(allowed, 100);
        // Ten seconds on, the withdrawals have expired.
        let later = Time::from_ms(10_000.0);
        assert_eq!((0..150).filter(|_| windows.withdraw(0, later)).count(), 100);
    }

    #[test]
    fn each_request_adds_a_fifth_of_a_retry() {
        let mut windows = finagle();
        let now = Time::from_ms(500.0);
        windows.of(0, now).slices[0] += 50 * DEPOSIT;
        let allowed = (0..150).filter(|_| windows.withdraw(0, now)).count();
        assert_eq!(allowed, 100 + 10);
    }
}
