//! Simulated time: an integer count of nanoseconds.
//!
//! The engine never uses floating-point seconds for its clock, so event order
//! is exact and the same on every platform.

use serde::Serialize;
use std::ops::{Add, Sub};

/// An instant or a span of simulated time, in nanoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Time(pub u64);

impl Time {
    pub const ZERO: Time = Time(0);
    /// An instant that never comes: the sentinel for "not yet" and "forever".
    pub const NEVER: Time = Time(u64::MAX);
    pub const NANOS_PER_MS: u64 = 1_000_000;

    /// Converts milliseconds to simulated time, rounding to the nearest nanosecond.
    /// Negative and non-finite inputs become zero; callers validate ranges first.
    pub fn from_ms(ms: f64) -> Time {
        if ms.is_finite() && ms > 0.0 {
            Time((ms * Self::NANOS_PER_MS as f64).round() as u64)
        } else {
            Time(0)
        }
    }

    pub fn from_secs(s: f64) -> Time {
        Time::from_ms(s * 1000.0)
    }

    pub fn as_ms(self) -> f64 {
        self.0 as f64 / Self::NANOS_PER_MS as f64
    }

    pub fn as_secs(self) -> f64 {
        self.as_ms() / 1000.0
    }

    pub fn saturating_sub(self, other: Time) -> Time {
        Time(self.0.saturating_sub(other.0))
    }
}

impl Add for Time {
    type Output = Time;
    fn add(self, rhs: Time) -> Time {
        Time(self.0.saturating_add(rhs.0))
    }
}

impl Sub for Time {
    type Output = Time;
    fn sub(self, rhs: Time) -> Time {
        Time(self.0.saturating_sub(rhs.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_milliseconds_both_ways() {
        assert_eq!(Time::from_ms(1.5), Time(1_500_000));
        assert_eq!(Time::from_secs(2.0).as_ms(), 2000.0);
        assert_eq!(Time::from_ms(-3.0), Time::ZERO);
        assert_eq!(Time::from_ms(f64::NAN), Time::ZERO);
    }

    #[test]
    fn arithmetic_saturates_instead_of_wrapping() {
        assert_eq!(Time(3) - Time(5), Time::ZERO);
        assert_eq!(Time(u64::MAX) + Time(1), Time(u64::MAX));
    }
}
