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
//!
//! Each is a feature of its own (`RetryBudget<Concurrent>`,
//! `RetryBudget<Windowed>`, a registry line each), so that Envoy's, which
//! counts no request as it is created, is not told of each.

use super::retries::{next_try, try_again};
use super::{Action, Asks, Created, Feature, Points, Returned, View};
use crate::scenario::{BudgetOf, RatioBudget, Scenario};
use crate::time::Time;

/// The slices a window is counted in.
const SLICES: usize = 10;
/// Tokens a request deposits (Finagle's `ScaleFactor`).
const DEPOSIT: i64 = 1000;

/// What a budget counts, each a feature of its own so that Envoy's, which
/// counts no requests as they are created, does not hear them.
pub(in crate::engine) trait Counting: Sized {
    const HEARS: Points;

    /// The counting `budget` asks for, if it is this kind.
    fn for_budget(budget: RatioBudget) -> Option<Self>;

    /// A request of `chooser`'s was created at `now`.
    fn created(&mut self, _chooser: usize, _now: Time) {}

    /// Whether `chooser` may retry place `place`'s request now; if so, the
    /// retry is counted.
    fn allows(&mut self, chooser: usize, place: u32, view: &View) -> bool;
}

/// Envoy's: retries outstanding against requests outstanding.
pub(in crate::engine) struct Concurrent {
    /// The share of requests, a fraction.
    ratio: f64,
    min_retry_concurrency: u32,
}

impl Counting for Concurrent {
    const HEARS: Points = Points::RETURNED;

    fn for_budget(budget: RatioBudget) -> Option<Concurrent> {
        let ratio = budget.percent? / 100.0;
        let min_retry_concurrency = budget.min_retry_concurrency;
        (budget.of == BudgetOf::Active).then_some(Concurrent { ratio, min_retry_concurrency })
    }

    /// Its other retries outstanding are fewer than its share of its
    /// requests outstanding, or than the minimum.
    fn allows(&mut self, chooser: usize, place: u32, view: &View) -> bool {
        let (mut outstanding, mut retrying) = (0u64, 0u64);
        for (id, request) in view.requests.iter() {
            if view.choosers.member(request.chooser(), request.request.class) == chooser {
                outstanding += 1;
                retrying += u64::from(id != place && request.request.retries > 0);
            }
        }
        let share = libm::floor(self.ratio * outstanding as f64) as u64;
        retrying < share.max(self.min_retry_concurrency.into())
    }
}

/// Linkerd's and Finagle's: each chooser's tokens over the window, and
/// what every window shares.
pub(in crate::engine) struct Windowed {
    /// Tokens a request deposits, and a retry costs.
    deposit: i64,
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

impl Windowed {
    /// Chooser `chooser`'s window, moved on to `now`.
    fn window(&mut self, chooser: usize, now: Time) -> &mut Window {
        if self.windows.len() <= chooser {
            self.windows.resize_with(chooser + 1, Window::default);
        }
        let window = &mut self.windows[chooser];
        window.advance(now, self.slice);
        window
    }

    /// Whether `chooser`'s tokens and the reserve cover a retry at `now`;
    /// if so, it pays for it.
    fn withdraw(&mut self, chooser: usize, now: Time) -> bool {
        let (cost, reserve) = (self.cost, self.reserve);
        let window = self.window(chooser, now);
        let allowed = reserve + window.tokens() >= cost;
        if allowed {
            window.slices[window.current] -= cost;
        }
        allowed
    }
}

impl Counting for Windowed {
    const HEARS: Points = Points::RETURNED.and(Points::CREATED);

    /// Finagle's integer arithmetic: with no ratio, a retry costs one
    /// token and requests deposit none.
    fn for_budget(budget: RatioBudget) -> Option<Windowed> {
        let ratio = budget.percent? / 100.0;
        let (deposit, cost) = if ratio > 0.0 { (DEPOSIT, (DEPOSIT as f64 / ratio) as i64) } else { (0, 1) };
        let reserve = (budget.min_retries_per_second * budget.ttl_ms / 1000.0 * cost as f64) as i64;
        let slice = Time::from_ms(budget.ttl_ms / SLICES as f64);
        (budget.of == BudgetOf::Requests).then(|| Windowed {
            deposit,
            cost,
            reserve,
            slice,
            windows: Vec::new(),
        })
    }

    fn created(&mut self, chooser: usize, now: Time) {
        let deposit = self.deposit;
        let window = self.window(chooser, now);
        window.slices[window.current] += deposit;
    }

    fn allows(&mut self, chooser: usize, _place: u32, view: &View) -> bool {
        self.withdraw(chooser, view.now)
    }
}

/// A retry budget counting as `C` does.
pub(in crate::engine) struct RetryBudget<C>(C);

/// The chooser of place `place`'s request, if it is still out.
fn chooser_of(place: u32, view: &View) -> Option<usize> {
    let request = view.requests.get(place)?;
    Some(view.choosers.member(request.chooser(), request.request.class))
}

impl<C: Counting> Feature for RetryBudget<C> {
    /// Its timers are retries' backoffs, as `retries.rs`'s are.
    const TRACE_KIND: u64 = 18;
    const HEARS: Points = C::HEARS;
    const TIMERS_NAME_PLACES: bool = true;

    fn for_scenario(scenario: &Scenario) -> Option<RetryBudget<C>> {
        C::for_budget(scenario.retry_ratio).map(RetryBudget)
    }

    /// A request created counts for its chooser.
    fn created(&mut self, Created { place }: Created, view: &View, _out: &mut Asks) {
        if let Some(chooser) = chooser_of(place, view) {
            self.0.created(chooser, view.now);
        }
    }

    /// Tries the request again if its own budget and its chooser's allow.
    fn returned(&mut self, returned: Returned, view: &View, out: &mut Asks) {
        let Some(tries) = next_try(&returned, view) else { return };
        let Some(chooser) = chooser_of(returned.place, view) else { return };
        if self.0.allows(chooser, returned.place, view) {
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
    fn finagle() -> Windowed {
        let budget = RatioBudget { percent: Some(20.0), of: BudgetOf::Requests, ..RatioBudget::default() };
        Windowed::for_budget(budget).unwrap()
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
        windows.window(0, now).slices[0] += 50 * DEPOSIT;
        let allowed = (0..150).filter(|_| windows.withdraw(0, now)).count();
        assert_eq!(allowed, 100 + 10);
    }
}
