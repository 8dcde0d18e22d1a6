//! The seed essay's findings, each reproduced from its scenario file.
//!
//! Every comparison replicates each configuration over several seeds and
//! asserts a difference of more than 4 standard errors (the per-seed values
//! are independent), so each claim is tested for direction and significance.

mod common;
use common::{scenario_file, Estimate};
use lbsim::{Simulation, Summary};

const SEEDS: [u64; 5] = [11, 22, 33, 44, 55];

fn run(file: &str, pairs: &[(&str, &str)], seed: u64) -> Summary {
    let mut scenario = scenario_file(file, pairs);
    scenario.seed = seed;
    scenario.warmup_s = scenario.duration_s.min(10.0) / 2.0;
    let mut sim = Simulation::new(&scenario).unwrap();
    sim.run();
    assert!(sim.books().balanced());
    sim.summary()
}

/// One figure of a run, over every seed.
fn replicate(file: &str, pairs: &[(&str, &str)], figure: fn(&Summary) -> f64) -> Estimate {
    let values: Vec<f64> = SEEDS.iter().map(|&seed| figure(&run(file, pairs, seed))).collect();
    let estimate = Estimate::of(&values);
    println!("{file} {pairs:?}: {:.2} ± {:.2}", estimate.mean, estimate.se);
    estimate
}

fn p99_queue(s: &Summary) -> f64 {
    s.queue_ms.p99
}

fn median_staleness(s: &Summary) -> f64 {
    s.decision_staleness_ms.p50
}

#[test]
fn every_scenario_file_runs_with_balanced_books() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    names.sort();
    assert!(names.len() >= 9, "{names:?}");
    for name in names {
        let summary = run(&name, &[("warmup_s", "0"), ("duration_s", "2")], 1);
        assert!(summary.counts.completed > 0, "{name}");
    }
}

#[test]
fn a_spike_cannot_be_balanced_on_the_first_send() {
    let summary = run("spike-random.toml", &[], 1);
    assert!(summary.counts.bounces > 0, "no queue timeouts in the spike");
    assert_eq!(summary.counts.sessions_completed + summary.counts.sessions_failed, 500);
}

#[test]
fn power_of_two_cheating_cuts_p99_queue_time_near_capacity() {
    let random = replicate("continuous-random.toml", &[], p99_queue);
    let cheating = replicate("p2c-cheating.toml", &[], p99_queue);
    assert!(random.above(&cheating, 4.0));
    assert!(random.mean > 2.0 * cheating.mean, "random {random:?}, p2c {cheating:?}");
}

#[test]
fn piggybacked_counters_approach_random_as_staleness_grows() {
    // More clients at the same total rate: each hears from each server less
    // often, so its counters are older when it decides.
    let mut gaps = Vec::new();
    let mut staleness = Vec::new();
    for clients in ["10", "100", "1000"] {
        let pairs = [("clients", clients)];
        let random = replicate("continuous-random.toml", &pairs, p99_queue);
        let piggyback = replicate("p2c-stale.toml", &pairs, p99_queue);
        gaps.push(Estimate {
            mean: random.mean - piggyback.mean,
            se: (random.se.powi(2) + piggyback.se.powi(2)).sqrt(),
        });
        staleness.push(replicate("p2c-stale.toml", &pairs, median_staleness));
    }
    println!("gaps {gaps:?}\nstaleness {staleness:?}");
    assert!(staleness[1].above(&staleness[0], 4.0) && staleness[2].above(&staleness[1], 4.0));
    assert!(gaps[0].above(&gaps[1], 4.0) && gaps[1].above(&gaps[2], 4.0));
    // At 1,000 clients power-of-two keeps less than a fifth of its advantage.
    assert!(gaps[2].mean < gaps[0].mean / 5.0, "{gaps:?}");
}

#[test]
fn subsets_keep_counters_fresh_for_many_slow_clients() {
    let subset = replicate("subsets.toml", &[], p99_queue);
    let everyone = replicate("subsets.toml", &[("subset_size", "all")], p99_queue);
    assert!(everyone.above(&subset, 4.0));
    let fresh = replicate("subsets.toml", &[], median_staleness);
    let stale = replicate("subsets.toml", &[("subset_size", "all")], median_staleness);
    assert!(stale.above(&fresh, 4.0));
}

#[test]
fn fewer_balancers_give_power_of_two_a_larger_advantage() {
    let advantage = |file: &str| {
        let ratios: Vec<f64> = SEEDS
            .iter()
            .map(|&seed| {
                let random = run(file, &[("policy", "random")], seed).queue_ms.p99;
                random / run(file, &[], seed).queue_ms.p99
            })
            .collect();
        let estimate = Estimate::of(&ratios);
        println!("{file}: random p99 / power-of-two p99 = {:.2} ± {:.2}", estimate.mean, estimate.se);
        estimate
    };
    let three = advantage("balancers-3.toml");
    let twenty = advantage("balancers-20.toml");
    assert!(three.above(&twenty, 4.0));
    // With twenty balancers power of two still beats random: its ratio is
    // above parity by more than 4 standard errors.
    let parity = Estimate { mean: 1.0, se: 0.0 };
    assert!(twenty.above(&parity, 4.0), "{twenty:?}");
}
