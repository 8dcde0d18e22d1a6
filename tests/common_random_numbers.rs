//! Comparisons on common random numbers: two settings run on one seed see
//! the same arrivals and the same work, so the ratio of their figures is
//! known more sharply than from two independent runs of the same length.

mod common;

use common::scenario_file;
use lbsim::engine::Comparison;
use lbsim::{Scenario, Simulation, Time};

fn run(scenario: &Scenario) -> Simulation {
    let mut sim = Simulation::new(scenario).unwrap();
    sim.advance_to(Time::from_secs(scenario.duration_s), u64::MAX);
    sim
}

/// Half-widths of the 95% intervals of B over A for p99 queue time, p99
/// latency and throughput: random (A) against power of two with live load
/// (B), the essay's continuous scenario, 60 simulated seconds each.
fn widths(seed: u64, independent: bool) -> [f64; 3] {
    let seed_a = seed.to_string();
    let seed_b = if independent { (seed + 1000).to_string() } else { seed_a.clone() };
    let a = run(&scenario_file("continuous-random.toml", &[("seed", &seed_a)]));
    let b = run(&scenario_file("continuous-random.toml", &[("seed", &seed_b), ("policy", "power-of-d")]));
    let c = Comparison::of(&a, &b);
    assert!(c.batches >= 16, "{}", c.batches);
    // Power of two cuts the p99 queue time to well under half of random's.
    assert!(c.queue_p99.bounds().unwrap().1 < 0.5, "{:?}", c.queue_p99);
    [c.queue_p99, c.latency_p99, c.throughput].map(|r| r.half_width.unwrap())
}

#[test]
fn common_random_numbers_narrow_the_ratio_interval() {
    // Per seed, log(shared width / independent width); the widths are
    // themselves estimates, so the claim is about their mean over seeds,
    // judged by its standard error.
    let seeds: Vec<u64> = (1..=24).collect();
    let logs: Vec<[f64; 3]> = seeds
        .iter()
        .map(|&s| {
            let (shared, independent) = (widths(s, false), widths(s, true));
            [0, 1, 2].map(|i| (shared[i] / independent[i]).ln())
        })
        .collect();
    for (i, name) in ["p99 queue time", "p99 latency", "throughput"].iter().enumerate() {
        let values: Vec<f64> = logs.iter().map(|l| l[i]).collect();
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let sd = (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        let se = sd / n.sqrt();
        println!(
            "{name}: interval with common random numbers {:.2}× as wide as with independent seeds (geometric mean over {} seeds; 3 se {:.2}× to {:.2}×)",
            mean.exp(),
            n,
            (mean - 3.0 * se).exp(),
            (mean + 3.0 * se).exp()
        );
        assert!(mean + 3.0 * se < 0.0, "{name}: {values:?}");
    }
}

#[test]
fn the_throughput_ratio_is_of_the_rates_each_summary_prints() {
    // Runs of different lengths complete different numbers of requests at
    // much the same rate: the ratio is of completions per measured second.
    let scenario = |duration: &str| scenario_file("continuous-random.toml", &[("duration_s", duration)]);
    let (a, b) = (run(&scenario("4")), run(&scenario("8")));
    let ratio = Comparison::of(&a, &b).throughput.estimate;
    let printed = b.summary().throughput / a.summary().throughput;
    assert!((ratio - printed).abs() < 1e-12, "{ratio} against {printed}");
}
