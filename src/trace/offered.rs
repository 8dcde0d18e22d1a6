//! The load a trace offers a scenario's servers, over its whole time and at
//! its busiest, and what the lab's trace box says of it. Outside the
//! `trace` feature, so the lab's module, which reads no trace itself, says
//! it from the summary its trace worker sends (the `Gist` of it it needs).

use super::replay::{offered_load, unnamed_classes, SPEEDS};
use crate::scenario::fields::three_figures;
use crate::Scenario;
use serde::Deserialize;

/// Below this load at its peak, the trace box says which speed would
/// give [`BUSY_LOAD`] there.
const LIGHT_LOAD: f64 = 0.5;
/// The peak load a speed is suggested for: the lab's default scenario's
/// load, which its servers carry with short queues.
const BUSY_LOAD: f64 = 0.9;

/// What the load of a trace depends on, as `lbsim trace --json` gives it
/// in its summary (the fields of `TraceSummary` of the same names).
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Gist {
    pub requests: u64,
    pub duration_s: f64,
    pub rate_per_s: Option<f64>,
    pub service: Option<ServiceMean>,
    pub classes: Vec<ClassCount>,
    pub rate_over_time: RatePeak,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct ServiceMean {
    pub mean_ms: f64,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct ClassCount {
    pub class: String,
    pub requests: u64,
}

#[derive(Clone, Debug, Default, Deserialize)]
pub struct RatePeak {
    pub per_s: Vec<f64>,
}

/// The mean service time of `requests` rows, `classes` of them counted by
/// the class they name, read as `named` (empty: [`unnamed_classes`]): a
/// row of a class the scenario has takes that class's mean; one of no
/// class (or of one the replay would refuse), the scenario's mix's.
pub fn mix_mean_service_ms<'a>(
    scenario: &Scenario,
    named: &[String],
    requests: u64,
    classes: impl Iterator<Item = (&'a str, u64)>,
) -> f64 {
    let unnamed = unnamed_classes(scenario.class_shares.len());
    let names = if named.is_empty() { &unnamed } else { named };
    let means = scenario.class_means_ms();
    let of_class = |class: &str| match names.is_empty() {
        // One class takes every row, whatever it names.
        true => means[0],
        false => names.iter().position(|n| n == class).map_or(scenario.service_mean_ms, |c| means[c]),
    };
    let (mut classed, mut work) = (0, 0.0);
    for (class, count) in classes {
        classed += count;
        work += count as f64 * of_class(class);
    }
    let unclassed = requests.saturating_sub(classed) as f64 * scenario.service_mean_ms;
    (work + unclassed) / requests.max(1) as f64
}

/// The load a trace offers at speed 1, on average and in its busiest bin
/// of the rate over time, and how long one pass of it lasts (to one mean
/// gap after its last row, where a looped replay starts again).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Offered {
    pub mean: f64,
    pub peak: f64,
    pub pass_s: f64,
}

impl Offered {
    /// What `gist`, its classes read as `named`, offers `scenario`'s
    /// servers; `None` for a trace without a rate (one instant).
    pub fn of(gist: &Gist, scenario: &Scenario, named: &[String]) -> Option<Offered> {
        let rate = gist.rate_per_s.filter(|r| *r > 0.0)?;
        let mean_ms = match &gist.service {
            Some(service) => service.mean_ms,
            None => {
                let classes = gist.classes.iter().map(|c| (c.class.as_str(), c.requests));
                mix_mean_service_ms(scenario, named, gist.requests, classes)
            }
        };
        let mean = offered_load(scenario, rate, Some(mean_ms));
        let peak_rate = gist.rate_over_time.per_s.iter().copied().fold(rate, f64::max);
        Some(Offered { mean, peak: mean * peak_rate / rate, pass_s: gist.duration_s + 1.0 / rate })
    }

    /// What the trace box says of it at `speed`: both loads and a pass's
    /// length, and, when even its peak leaves the servers idle, the speed
    /// that would load them to [`BUSY_LOAD`] at its peak (a speed for its
    /// mean would overload them wherever the trace is busier than that).
    pub fn words(&self, speed: f64) -> String {
        let said = format!("it offers these servers {}", self.at(speed));
        if self.peak * speed >= LIGHT_LOAD || self.peak <= 0.0 {
            return said;
        }
        let busier = (BUSY_LOAD / self.peak).clamp(SPEEDS.0, SPEEDS.1);
        format!("{said}; speed {} would offer {}", three_figures(busier), self.at(busier))
    }

    /// "load 0.5 on average and 0.9 at its peak, one pass lasting 4.8 s".
    fn at(&self, speed: f64) -> String {
        format!(
            "load {} on average and {} at its peak, one pass lasting {} s",
            three_figures(self.mean * speed),
            three_figures(self.peak * speed),
            three_figures(self.pass_s / speed)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gist(classes: &[(&str, u64)], service_ms: Option<f64>) -> Gist {
        Gist {
            requests: 101,
            duration_s: 100.0,
            rate_per_s: Some(1.0),
            service: service_ms.map(|mean_ms| ServiceMean { mean_ms }),
            classes: classes.iter().map(|(c, n)| ClassCount { class: c.to_string(), requests: *n }).collect(),
            rate_over_time: RatePeak { per_s: vec![0.5, 1.8, 0.7] },
        }
    }

    #[test]
    fn a_light_trace_is_suggested_the_speed_that_loads_its_peak_and_says_its_mean_and_pass() {
        let scenario = Scenario::default();
        let offered = Offered::of(&gist(&[], None), &scenario, &[]).unwrap();
        let mean = offered_load(&scenario, 1.0, None);
        assert!((offered.mean - mean).abs() < 1e-12 && (offered.peak - 1.8 * mean).abs() < 1e-12);
        assert_eq!(offered.pass_s, 101.0);
        let speed = BUSY_LOAD / offered.peak;
        assert_eq!(
            offered.words(1.0),
            format!(
                "it offers these servers load {} on average and {} at its peak, one pass lasting 101 s; \
                 speed {} would offer load {} on average and 0.900 at its peak, one pass lasting {} s",
                three_figures(mean),
                three_figures(1.8 * mean),
                three_figures(speed),
                three_figures(0.5),
                three_figures(101.0 / speed)
            )
        );
        assert!(!offered.words(speed).contains("would offer"), "{}", offered.words(speed));
    }

    #[test]
    fn the_mean_service_weighs_the_scenarios_class_means_by_the_traces_mix() {
        let scenario =
            Scenario { class_shares: vec![0.5, 0.5], class_costs: vec![1.0, 3.0], ..Scenario::default() };
        let means = scenario.class_means_ms();
        let named = ["api".to_string(), "static".to_string()];
        let offered = Offered::of(&gist(&[("api", 1), ("static", 100)], None), &scenario, &named).unwrap();
        let mean_ms = (means[0] + 100.0 * means[1]) / 101.0;
        let expected = offered_load(&scenario, 1.0, Some(mean_ms));
        assert!((offered.mean - expected).abs() < 1e-12, "{} vs {expected}", offered.mean);
        let measured = Offered::of(&gist(&[("api", 1)], Some(7.0)), &scenario, &named).unwrap();
        assert_eq!(measured.mean, offered_load(&scenario, 1.0, Some(7.0)));
    }
}
