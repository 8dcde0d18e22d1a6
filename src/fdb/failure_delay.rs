//! How long `loadBalance` waits for an alternative to come up before it
//! gives the caller `all_alternatives_failed` (`allAlternativesFailedDelay`,
//! `fdbrpc/LoadBalance.cpp`).
//!
//! The caller answers that error by asking the cluster again where its data
//! is, so a client that keeps failing waits longer each time, in proportion
//! to how long it has been failing, to spare the proxies: at least 50 ms,
//! growing to 1 s and then slowly to 30 s; one wait a second is short.

use super::knobs::{
    ALTERNATIVES_FAILURE_DELAY_RATIO, ALTERNATIVES_FAILURE_MAX_DELAY, ALTERNATIVES_FAILURE_MIN_DELAY,
    ALTERNATIVES_FAILURE_RESET_TIME, ALTERNATIVES_FAILURE_SKIP_DELAY, ALTERNATIVES_FAILURE_SLOW_DELAY_RATIO,
    ALTERNATIVES_FAILURE_SLOW_MAX_DELAY, DELAY_JITTER_OFFSET, DELAY_JITTER_RANGE,
};
use crate::rng::Draw;
use crate::time::Time;

/// One client's record of its waits for alternatives (kept per process, in
/// `g_network->networkInfo`, in the source).
#[derive(Clone, Copy, Debug, Default)]
pub struct AlternativesFailures {
    /// When the current spell of failures began.
    oldest: Time,
    /// The last wait.
    newest: Time,
    /// The last wait allowed to be short.
    last_short: Time,
}

impl AlternativesFailures {
    /// Starts a wait at `now`; returns when it times out.
    pub fn wait_until(&mut self, now: Time, rng: &mut impl Draw) -> Time {
        if now - self.newest > ALTERNATIVES_FAILURE_RESET_TIME {
            self.oldest = now;
        }
        let mut delay = ALTERNATIVES_FAILURE_MIN_DELAY;
        if now - self.last_short > ALTERNATIVES_FAILURE_SKIP_DELAY {
            self.last_short = now;
        } else {
            let failing = (now - self.oldest).0 as f64;
            let share = |ratio: f64, cap: Time| Time((failing * ratio).round() as u64).min(cap);
            delay = delay
                .max(share(ALTERNATIVES_FAILURE_DELAY_RATIO, ALTERNATIVES_FAILURE_MAX_DELAY))
                .max(share(ALTERNATIVES_FAILURE_SLOW_DELAY_RATIO, ALTERNATIVES_FAILURE_SLOW_MAX_DELAY));
        }
        self.newest = now;
        let jitter = DELAY_JITTER_OFFSET + DELAY_JITTER_RANGE * rng.unit();
        now + Time((delay.0 as f64 * jitter).round() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SimRng;

    const SECOND: u64 = 1_000 * Time::NANOS_PER_MS;

    /// The wait without its jitter: within 0.9 to 1.1 of the delay asked.
    fn delay(failures: &mut AlternativesFailures, now_s: u64, rng: &mut SimRng) -> f64 {
        let now = Time(now_s * SECOND);
        (failures.wait_until(now, rng) - now).as_ms()
    }

    #[test]
    fn waits_grow_with_the_spell_of_failures_and_start_again_after_a_quiet_one() {
        let mut rng = SimRng::new(5);
        let mut failures = AlternativesFailures::default();
        let within = |ms: f64, asked: f64| (0.9 * asked..=1.1 * asked).contains(&ms);
        // The first wait of a spell is short (50 ms).
        assert!(within(delay(&mut failures, 100, &mut rng), 50.0));
        // Another within the second: a fifth of the spell, 50 ms at least.
        assert!(within(delay(&mut failures, 100, &mut rng), 50.0));
        // 3 s into the spell, a short wait (the last was more than 1 s ago)...
        assert!(within(delay(&mut failures, 103, &mut rng), 50.0));
        // ...then a fifth of 3 s; a minute in, 0.04 of it (a fifth is capped at 1 s).
        assert!(within(delay(&mut failures, 103, &mut rng), 600.0));
        for now in 104..160 {
            delay(&mut failures, now, &mut rng);
            delay(&mut failures, now, &mut rng);
        }
        assert!(within(delay(&mut failures, 160, &mut rng), 2_400.0));
        // After more than 5 s without a wait, a new spell.
        delay(&mut failures, 170, &mut rng);
        assert!(within(delay(&mut failures, 170, &mut rng), 50.0));
    }
}
