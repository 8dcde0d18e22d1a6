//! The policies production balancers use, in the seed essay's model
//! (`scenarios/continuous-random.toml`: 10 servers × 10 slots, 20 clients,
//! load 0.9, 100 ms queue timeout), each against random on common random
//! numbers: the p99 queue time of the policy over random's, with its 95%
//! interval from paired batches; and the imbalance they leave.

mod common;

use common::scenario_file;
use lbsim::engine::Comparison;
use lbsim::{Scenario, Simulation, Time};

fn run(scenario: &Scenario) -> Simulation {
    let mut sim = Simulation::new(scenario).unwrap();
    sim.advance_to(Time::from_secs(scenario.duration_s), u64::MAX);
    assert!(sim.books().balanced());
    sim
}

#[test]
fn practical_policies_beat_random_at_load_0_9() {
    for seed in ["1", "2", "3"] {
        let random = run(&scenario_file("continuous-random.toml", &[("seed", seed)]));
        for policy in ["join-idle-queue", "peak-ewma", "least-request"] {
            let other = run(&scenario_file("continuous-random.toml", &[("seed", seed), ("policy", policy)]));
            let ratio = Comparison::of(&random, &other).queue_p99;
            let (low, high) = ratio.bounds().unwrap();
            println!(
                "seed {seed}: {policy} p99 queue time / random's = {:.3} ({low:.3} to {high:.3})",
                ratio.estimate
            );
            // Each cuts random's p99 queue time by more than 40%, beyond its interval.
            assert!(high < 0.6, "{policy}, seed {seed}: {ratio:?}");
        }
    }
}

/// Weighted policies share requests in proportion to nominal weights: with
/// weights 1 and 3 over two servers, a quarter and three quarters.
#[test]
fn weighted_policies_follow_the_weights() {
    for policy in ["weighted-random", "weighted-round-robin"] {
        let scenario = scenario_file(
            "continuous-random.toml",
            &[
                ("policy", policy),
                ("servers", "2"),
                ("server_weights", "1,3"),
                ("server_speeds", "1,3"),
                ("duration_s", "20"),
            ],
        );
        let summary = run(&scenario).summary();
        let done = &summary.completed_per_server;
        let share = done[0] as f64 / (done[0] + done[1]) as f64;
        // About 36,000 requests in sessions of 10, each session on one server:
        // ~3,600 independent draws, a standard error of √(0.25 × 0.75 / 3600)
        // = 0.0072 on the share; 5 of them.
        println!("{policy}: share of the weight-1 server {share:.4} (expected 0.25)");
        assert!((share - 0.25).abs() < 0.036, "{policy}: {share}");
    }
}

/// The seed's split of imbalance: round-robin over servers of unequal speed
/// leaves the slow ones always busier (persistent); random over equal
/// servers makes them take turns (temporal). The persistent share of the
/// variance over 5 seeds, judged 4 standard errors from one half.
#[test]
fn imbalance_is_persistent_under_weightless_round_robin_and_temporal_under_random() {
    let share = |pairs: &[(&str, &str)]| {
        let values: Vec<f64> = (1..=5)
            .map(|seed| {
                let seed = seed.to_string();
                let pairs = [pairs, &[("seed", seed.as_str()), ("duration_s", "30")]].concat();
                run(&scenario_file("continuous-random.toml", &pairs)).summary().imbalance.persistent_share
            })
            .collect();
        common::Estimate::of(&values)
    };
    let round_robin = share(&[("policy", "round-robin"), ("server_speeds", "1,2"), ("load", "0.6")]);
    let random = share(&[("policy", "random"), ("load", "0.6")]);
    println!(
        "persistent share: round-robin over speeds 1,2 {round_robin:?}; random over equal servers {random:?}"
    );
    assert!(round_robin.mean - 4.0 * round_robin.se > 0.5, "{round_robin:?}");
    assert!(random.mean + 4.0 * random.se < 0.5, "{random:?}");
}
