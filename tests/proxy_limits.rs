//! Concurrency limits at the proxy against queueing theory: HAProxy's
//! `maxconn` c with a queue of K before a server of c slots is M/M/c/(c+K),
//! Envoy's `max_requests` c before it is Erlang's loss system M/M/c/c, and
//! HAProxy's `timeout queue` D before one slot is M/M/1 with deterministic
//! patience D. Poisson arrivals, exponential service of 1 ms, no network
//! delay: the share of requests the proxy fails, by batch means over a long
//! fixed-seed run, within 4 standard errors of the closed form.

mod common;

use common::{classic, Estimate};
use lbsim::{Scenario, Simulation, Time};

/// One balancer before one server of `slots` slots at load `rho`, with the
/// balancer's limits `limits`.
fn behind_a_proxy(slots: u32, rho: f64, limits: &[(&str, &str)]) -> Scenario {
    let mut scenario = classic(1, slots, rho, "random", 200.0);
    let tier = [("balancers", "1"), ("balancer_delay_ms", "0")];
    scenario.set_many(tier.iter().chain(limits).copied()).unwrap_or_else(|e| panic!("{e}"));
    scenario
}

/// The share of requests created that the proxy failed, by batch means.
fn failed_at_proxy(scenario: &Scenario, batches: u64) -> Estimate {
    let mut sim = Simulation::new(scenario).unwrap_or_else(|e| panic!("{e}"));
    let start = Time::from_secs(scenario.warmup_s);
    let span = Time::from_secs(scenario.duration_s) - start;
    sim.advance_to(start, u64::MAX);
    let mut before = sim.books();
    let mut shares = Vec::new();
    for k in 1..=batches {
        sim.advance_to(start + Time(span.0 / batches * k), u64::MAX);
        let now = sim.books();
        shares.push(
            (now.failed_at_proxy - before.failed_at_proxy) as f64 / (now.created - before.created) as f64,
        );
        before = now;
    }
    assert!(sim.books().balanced(), "{:?}", sim.books());
    Estimate::of(&shares)
}

/// M/M/c/N's blocking probability, offered load `a` = λ/μ: the share of
/// time all N places are taken, `a^n/n!` up to c and `a^c/c! (a/c)^(n-c)` past it.
fn mmcn_blocking(c: u32, places: u32, a: f64) -> f64 {
    let weights: Vec<f64> = (0..=places)
        .scan(1.0, |weight, n| {
            if n > 0 {
                *weight *= a / f64::from(n.min(c));
            }
            Some(*weight)
        })
        .collect();
    weights[places as usize] / weights.iter().sum::<f64>()
}

fn check(label: &str, estimate: Estimate, theory: f64) {
    println!("{label}: simulated {:.4} ± {:.4}, theory {theory:.4}", estimate.mean, estimate.se);
    assert!(estimate.se < 0.05 * theory, "{label}: the standard error is too large to test anything");
    assert!((estimate.mean - theory).abs() <= 4.0 * estimate.se, "{label}: {estimate:?} against {theory}");
}

#[test]
fn haproxys_maxconn_with_a_queue_of_k_blocks_as_m_m_c_c_plus_k() {
    for (slots, queue, rho) in [(3, 2, 0.9), (1, 4, 0.8), (5, 5, 1.1)] {
        let (maxconn, maxqueue) = (slots.to_string(), queue.to_string());
        let limits = [("server_maxconn", maxconn.as_str()), ("server_maxqueue", maxqueue.as_str())];
        let estimate = failed_at_proxy(&behind_a_proxy(slots, rho, &limits), 40);
        let theory = mmcn_blocking(slots, slots + queue, rho * f64::from(slots));
        check(&format!("M/M/{slots}/{} at rho {rho}", slots + queue), estimate, theory);
    }
}

#[test]
fn envoys_max_requests_answers_the_overflow_at_once_as_erlangs_loss_system() {
    for (slots, rho) in [(3, 0.9), (10, 0.8)] {
        let max = slots.to_string();
        let estimate = failed_at_proxy(&behind_a_proxy(slots, rho, &[("max_requests", &max)]), 40);
        check(
            &format!("Erlang B, {slots} servers at rho {rho}"),
            estimate,
            mmcn_blocking(slots, slots, rho * f64::from(slots)),
        );
    }
    assert!((mmcn_blocking(3, 3, 2.7) - 0.3087).abs() < 1e-4);
}

/// M/M/1 where a request that would wait longer than `patience` leaves
/// (FIFO, so its wait is the work ahead of it): the work's density is
/// `p0 λ e^-(μ-λ)x` up to the patience and `p0 λ e^-(μ-λ)D e^-μ(x-D)` past
/// it, so P(leave) = `p0 (λ/μ) e^-(μ-λ)D`.
fn mm1_patience_loss(rho: f64, patience_ms: f64) -> f64 {
    let (lambda, mu) = (rho, 1.0);
    let tail = (-(mu - lambda) * patience_ms).exp();
    let p0 = 1.0 / (1.0 + lambda * (1.0 - tail) / (mu - lambda) + rho * tail);
    p0 * rho * tail
}

#[test]
fn haproxys_timeout_queue_fails_a_wait_past_it_as_m_m_1_with_deterministic_patience() {
    for (rho, patience) in [(0.9, 2.0), (0.7, 0.5)] {
        let timeout = patience.to_string();
        let limits = [("server_maxconn", "1"), ("timeout_queue_ms", timeout.as_str())];
        let estimate = failed_at_proxy(&behind_a_proxy(1, rho, &limits), 40);
        check(&format!("M/M/1+D, rho {rho}, D {patience} ms"), estimate, mm1_patience_loss(rho, patience));
    }
}

/// The limits beside everything that moves requests about (hedges, retries
/// with backoff, a crash and a removal, per-connection balancing, both
/// tiers): every request is still accounted for.
#[test]
fn limits_keep_the_books_balanced_beside_hedges_retries_crashes_and_pinned_connections() {
    for balancers in ["0", "2"] {
        let settings = [
            ("balancers", balancers),
            ("load", "1.2"),
            ("server_maxconn", "3"),
            ("server_maxqueue", "2"),
            ("timeout_queue_ms", "20"),
            ("max_requests", "40"),
            ("hedge_after_ms", "30"),
            ("queue_timeout_ms", "50"),
            ("retry_backoff_ms", "5"),
            ("membership", "1s:crash:2,2s:restore:2,3s:remove:5"),
            ("balance_per", "connection"),
            ("max_connection_age_ms", "700"),
            ("duration_s", "5"),
        ];
        let summary = common::summary_of(&common::scenario(&settings));
        assert!(summary.completed_per_server.iter().sum::<u64>() > 0);
    }
}
