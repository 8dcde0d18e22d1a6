//! A fleet of Envoys running least request, each counting only the
//! requests it sent (envoy#35935, emissary#4276: "least request stops
//! working with several pods"), as the explainer's chapter "Each proxy
//! sees only its own requests" tells it. The chapter's prose quotes this
//! sweep: the tail's ratio to random's on the same arrivals grows with the
//! fleet, yet stays below random's at a hundred Envoys.
//!
//! Each ratio is measured over independent seeds; every step of the trend
//! is asserted by more than 4 standard errors. Envoy's worker threads are
//! such a fleet inside each Envoy: B Envoys of W workers balance as B × W
//! Envoys of one.

mod common;
use common::{scenario_file, summary_of, Estimate};

const SEEDS: [u64; 5] = [1, 2, 3, 4, 5];

/// Least request's p99 queue time over random's on the same seed, with
/// `balancers` Envoys in envoy-least-request's scene, over every seed.
fn tail_over_random(balancers: &str) -> Estimate {
    tail_over_random_with_workers(balancers, "1")
}

/// The same with `workers` worker threads in each Envoy.
fn tail_over_random_with_workers(balancers: &str, workers: &str) -> Estimate {
    let ratios: Vec<f64> = SEEDS
        .iter()
        .map(|&seed| {
            let seed = seed.to_string();
            let pairs = [
                ("balancers", balancers),
                ("workers_per_balancer", workers),
                ("duration_s", "30"),
                ("warmup_s", "2"),
                ("seed", &seed),
            ];
            let least_request = summary_of(&scenario_file("envoy-least-request.toml", &pairs));
            let random = summary_of(&scenario_file(
                "envoy-least-request.toml",
                &[&pairs[..], &[("policy", "random")]].concat(),
            ));
            least_request.queue_ms.p99 / random.queue_ms.p99
        })
        .collect();
    let estimate = Estimate::of(&ratios);
    println!(
        "{balancers} Envoys of {workers} workers: least request's p99 / random's = {:.3} ± {:.3}",
        estimate.mean, estimate.se
    );
    estimate
}

#[test]
fn least_requests_gain_over_random_fades_as_the_fleet_grows_but_holds_at_a_hundred() {
    let fleets = ["1", "10", "100"].map(tail_over_random);
    assert!(fleets[1].above(&fleets[0], 4.0), "{fleets:?}");
    assert!(fleets[2].above(&fleets[1], 4.0), "{fleets:?}");
    let parity = Estimate { mean: 1.0, se: 0.0 };
    assert!(parity.above(&fleets[2], 4.0), "a hundred Envoys: {:?}", fleets[2]);
}

#[test]
fn the_chapters_figures_are_the_sweeps() {
    // "one Envoy ... a fifth, ten two fifths, twenty half, a hundred three
    // quarters, two hundred nine tenths": each within 0.05 of the measured
    // ratio, or 3 standard errors where those are wider.
    for (balancers, said) in [("1", 0.2), ("10", 0.4), ("20", 0.5), ("100", 0.75), ("200", 0.9)] {
        let fleet = tail_over_random(balancers);
        assert!(
            (fleet.mean - said).abs() < 0.05_f64.max(3.0 * fleet.se),
            "{balancers}: said {said}, measured {fleet:?}"
        );
    }
}

#[test]
fn two_envoys_of_five_workers_balance_as_ten_envoys_of_one() {
    let workers = tail_over_random_with_workers("2", "5");
    let [two, ten] = ["2", "10"].map(tail_over_random);
    let se = (workers.se.powi(2) + ten.se.powi(2)).sqrt();
    assert!((workers.mean - ten.mean).abs() < 3.0 * se, "2 × 5 workers {workers:?}, 10 Envoys {ten:?}");
    assert!(workers.above(&two, 4.0), "2 × 5 workers {workers:?}, 2 Envoys of one worker {two:?}");
}
