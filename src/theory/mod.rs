//! Theory beside measurement: for the scenarios whose mean queue wait
//! queueing theory knows, that value, and in words how far the scenario
//! strays from the model's assumptions.
//!
//! The models: M/M/c (one server with c slots, or any number of them under
//! random routing, which splits Poisson arrivals into Poisson streams); M/G/1
//! by Pollaczek–Khinchine for one slot and any service distribution; and the
//! supermarket model for power of d with live load and one slot.
//!
//! None of them has servers that fail: a failure for a while is a caveat,
//! a server down all the measured time leaves the models out (`failures.rs`).

mod failures;
mod formulas;

use failures::Measured;

pub use formulas::{erlang_c, mg1_wait, mmc_wait, supermarket_wait};

use crate::scenario::{Demand, PolicyKind, Scenario, ServiceDistribution};
use serde::Serialize;

/// A model's answer for a scenario.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Theory {
    /// The model, in words.
    pub model: String,
    /// Mean time in queue, ms; infinite when the queue is unstable or the
    /// service time's variance is infinite.
    pub mean_wait_ms: f64,
    /// The probability that a request waits at all, where the model gives it.
    pub waited_share: Option<f64>,
    /// Why the scenario is only near the model; empty when it is the model.
    pub caveats: Vec<String>,
}

/// The known answer for `s` run to its duration, if its model has one.
pub fn of(s: &Scenario) -> Option<Theory> {
    measured_until(s, s.duration_s)
}

/// The known answer for `s` measured from its warm-up's end until
/// `until_s` (a run in the lab goes on past its duration), if its model
/// has one.
pub fn measured_until(s: &Scenario, until_s: f64) -> Option<Theory> {
    let measured = Measured { from_s: s.warmup_s, to_s: until_s.max(s.warmup_s) };
    if s.demand != Demand::Continuous || failures::down_throughout(&s.failures, measured) {
        return None;
    }
    let (c, n, rho) = (s.slots, s.servers, s.load);
    let speeds = &s.server_speeds;
    let speed = speeds.iter().sum::<f64>() / speeds.len() as f64;
    let service_ms = s.service_mean_ms / speed;
    let random_routing = [PolicyKind::RANDOM, PolicyKind::REPICK].contains(&s.policy);
    let mut caveats = failures::caveats(&s.failures, n, measured);
    caveats.extend(common_caveats(s));
    let (model, wait, waited_share) = if n == 1 || random_routing {
        if let Some(k) = s.subset_size.filter(|&k| k < n) {
            caveats.push(format!(
                "each chooser picks among a subset of {k} servers, so servers need not all see the same rate"
            ));
        }
        let each = if n == 1 { String::new() } else { format!(" at each of {n} servers (random routing)") };
        match (s.service, c) {
            (ServiceDistribution::Exponential, _) => {
                (format!("M/M/{c}{each}, Erlang C"), mmc_wait(c, rho), Some(erlang_c(c, rho * f64::from(c))))
            }
            (service, 1) => {
                let cv2 = match service {
                    ServiceDistribution::Constant => 0.0,
                    ServiceDistribution::Lognormal => s.service_cv * s.service_cv,
                    ServiceDistribution::Pareto if s.pareto_shape > 2.0 => {
                        1.0 / (s.pareto_shape * (s.pareto_shape - 2.0))
                    }
                    _ => f64::INFINITY,
                };
                (format!("M/G/1{each}, Pollaczek–Khinchine"), mg1_wait(rho, cv2), Some(rho))
            }
            _ => return None,
        }
    } else if s.policy == PolicyKind::POWER_OF_D
        && c == 1
        && s.service == ServiceDistribution::Exponential
        && s.choices >= 2
        && s.choices < n
    {
        let d = s.choices;
        caveats.push(format!(
            "the model's value is its limit as n → ∞; {n} servers wait a little longer (the gap shrinks like 1/n)"
        ));
        let hop_ms = if s.balancers > 0 { s.balancer_delay_ms } else { s.client_delay_ms };
        if hop_ms > 0.0 {
            caveats.push(format!(
                "a request reaches its server {hop_ms} ms after the choice, which cannot see requests still on their way; the model places each at once"
            ));
        }
        if s.staleness_ms > 0.0 {
            caveats.push(format!(
                "load is read from a board refreshed every {} ms; the model reads it live",
                s.staleness_ms
            ));
        }
        if let Some(k) = s.subset_size.filter(|&k| k < n) {
            caveats.push(format!("each chooser samples from a subset of {k} servers; the model from all"));
        }
        (
            format!("supermarket model, d = {d}, n → ∞ (Mitzenmacher; Vvedenskaya et al.)"),
            supermarket_wait(d, rho),
            Some(libm::pow(rho, f64::from(d))),
        )
    } else {
        return None;
    };
    let unstable = rho >= 1.0;
    Some(Theory {
        model,
        mean_wait_ms: if unstable { f64::INFINITY } else { wait * service_ms },
        waited_share: if unstable { Some(1.0) } else { waited_share },
        caveats,
    })
}

/// Departures from the models' assumptions that any scenario can make.
fn common_caveats(s: &Scenario) -> Vec<String> {
    let mut caveats = Vec::new();
    if let Some(timeout) = s.queue_timeout_ms {
        caveats.push(format!(
            "a request queued for {timeout} ms is sent back to choose again (queue_timeout_ms); the model lets it wait"
        ));
    }
    if s.session_length > 1 || s.session_length_shape.is_some() {
        caveats.push(format!(
            "sessions send {} requests one after another, so requests do not arrive as a Poisson stream",
            s.session_length
        ));
    }
    if s.handshake_round_trips > 0 && s.client_delay_ms > 0.0 {
        caveats.push(
            "a first request on a cold connection waits for a handshake, which perturbs arrivals".into(),
        );
    }
    if s.server_speeds.iter().any(|&v| v != s.server_speeds[0]) {
        caveats
            .push("servers differ in speed; the model's are identical (compared at their mean speed)".into());
    }
    caveats
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario(pairs: &[(&str, &str)]) -> Scenario {
        let mut s = Scenario::default();
        s.set_many(pairs.iter().copied()).unwrap();
        s
    }

    const EXACT: [(&str, &str); 6] = [
        ("queue_timeout_ms", "none"),
        ("session_length", "1"),
        ("handshake_round_trips", "0"),
        ("service", "exponential"),
        ("slots", "3"),
        ("servers", "1"),
    ];

    #[test]
    fn mm3_with_lambda_10_and_mu_4() {
        let s =
            scenario(&[&EXACT[..], &[("load", "0.8333333333333334"), ("service_mean_ms", "250")]].concat());
        let t = of(&s).unwrap();
        assert_eq!(t.model, "M/M/3, Erlang C");
        assert!(t.caveats.is_empty(), "{:?}", t.caveats);
        // C(3, 2.5) = 0.7022; W = C / (3μ − λ) = 0.7022 / 2 s.
        assert!((t.mean_wait_ms - 351.1).abs() < 0.1, "{}", t.mean_wait_ms);
        assert!((t.waited_share.unwrap() - 0.7022).abs() < 1e-4);
    }

    #[test]
    fn a_thousand_slots_have_a_finite_wait() {
        // The summary once read "theory infinite" and a NaN share here.
        let s = scenario(&[&EXACT[..], &[("slots", "1000"), ("load", "0.9")]].concat());
        let t = of(&s).unwrap();
        let share = t.waited_share.unwrap();
        // C(1000, 900), exactly (see `formulas.rs`); W = C / (c − a) services.
        assert!((share / 0.0005926699663787812 - 1.0).abs() < 1e-9, "{share}");
        let wait = share / 100.0 * s.service_mean_ms;
        assert!((t.mean_wait_ms / wait - 1.0).abs() < 1e-9, "{} not {wait}", t.mean_wait_ms);
    }

    #[test]
    fn near_models_say_why() {
        let s = scenario(&[("policy", "power-of-d"), ("slots", "1"), ("service", "exponential")]);
        let t = of(&s).unwrap();
        assert!(t.model.starts_with("supermarket model, d = 2"), "{}", t.model);
        let words = t.caveats.join("; ");
        for expected in ["queue_timeout_ms", "sessions send 10 requests", "n → ∞", "handshake", "5 ms after"]
        {
            assert!(words.contains(expected), "{expected}: {words}");
        }
        // No model: learned load, or several slots with a general service time.
        assert!(of(&scenario(&[("policy", "p2c-piggyback")])).is_none());
        assert!(of(&scenario(&[("service", "lognormal"), ("slots", "2"), ("servers", "1")])).is_none());
        assert!(of(&scenario(&[("demand", "spike")])).is_none());
    }

    #[test]
    fn pollaczek_khinchine_and_an_unstable_queue() {
        let s = scenario(&[&EXACT[..], &[("slots", "1"), ("service", "constant"), ("load", "0.5")]].concat());
        let t = of(&s).unwrap();
        // M/D/1 at ρ = 0.5: W = 0.5 / (2 × 0.5) = 0.5 service times.
        assert!((t.mean_wait_ms - 0.5 * s.service_mean_ms).abs() < 1e-9);
        let heavy = scenario(
            &[&EXACT[..], &[("slots", "1"), ("service", "pareto"), ("pareto_shape", "1.5")]].concat(),
        );
        assert_eq!(of(&heavy).unwrap().mean_wait_ms, f64::INFINITY);
        let over = scenario(&[&EXACT[..], &[("load", "1.2")]].concat());
        assert_eq!(of(&over).unwrap().mean_wait_ms, f64::INFINITY);
    }
}
