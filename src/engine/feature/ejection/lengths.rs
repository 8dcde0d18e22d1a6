//! How long an outlier ejection lasts: Envoy's base ejection time times
//! the server's count of ejections, up to its maximum
//! (`outlier_detection_impl.cc`, `ejectHost` and `checkHostForUneject`).

use crate::time::Time;

/// How long ejections last: Envoy's base and maximum ejection times, and
/// its sweep interval.
pub(super) struct Lengths {
    pub base: Time,
    /// At least `base`: Envoy takes the larger of the two.
    pub max: Time,
    pub sweep: Option<Time>,
}

impl Lengths {
    /// A server's count of ejections once ejected again, having been
    /// ejected `times` (not yet forgotten): Envoy stops counting once the
    /// length has reached the maximum.
    pub fn count_after(&self, times: u32) -> u32 {
        if u64::from(times) * self.base.0 < self.max.0 + self.base.0 {
            times + 1
        } else {
            times
        }
    }

    /// How long an ejection lasts that is a server's `count`th.
    pub fn of(&self, count: u32) -> Time {
        Time(self.base.0.saturating_mul(count.into()).min(self.max.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn envoy() -> Lengths {
        Lengths { base: Time::from_ms(30_000.0), max: Time::from_ms(300_000.0), sweep: None }
    }

    #[test]
    fn envoys_ejections_last_30_s_times_each_ejection_up_to_300_s() {
        let lengths = envoy();
        let mut times = 0;
        let mut seconds = Vec::new();
        for _ in 0..12 {
            times = lengths.count_after(times);
            seconds.push(lengths.of(times).as_ms() / 1000.0);
        }
        let expected = [30.0, 60.0, 90.0, 120.0, 150.0, 180.0, 210.0, 240.0, 270.0, 300.0, 300.0, 300.0];
        assert_eq!(seconds, expected);
        // Envoy stops counting one past the cap, so a sweep's forgetting
        // shortens the next ejection at once.
        assert_eq!(times, 11);
        assert_eq!(lengths.of(times - 1).as_ms(), 300_000.0);
    }

    #[test]
    fn without_a_maximum_every_ejection_lasts_the_base_time() {
        let base = Time::from_ms(10_000.0);
        let lengths = Lengths { base, max: base, sweep: None };
        let mut times = 0;
        for _ in 0..5 {
            times = lengths.count_after(times);
            assert_eq!(lengths.of(times), base);
        }
    }
}
