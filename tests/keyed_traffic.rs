//! Keyed traffic in the engine: every chooser sends a key to the same
//! server under the hash schemes, and what affinity costs against
//! load-aware policies on the same arrivals, with bounded loads between.
//! `cargo test --release --test keyed_traffic -- --nocapture` prints the figures.

mod common;

use common::{scenario, Estimate};
use lbsim::format::thousands;
use lbsim::Simulation;

#[test]
fn every_balancer_sends_a_key_to_the_same_server() {
    for policy in ["modulo", "ranges", "table", "ring", "rendezvous", "maglev", "bounded-load"] {
        let sim = Simulation::new(&scenario(&[("policy", policy), ("balancers", "4"), ("servers", "12")]))
            .unwrap_or_else(|e| panic!("{e}"));
        for key in 0..2_000 {
            let first = sim.server_for_key(0, key).expect("a placement");
            assert!((1..4).all(|b| sim.server_for_key(b, key) == Some(first)), "{policy} key {key}");
        }
    }
    let random = Simulation::new(&scenario(&[("balancers", "4")])).unwrap();
    assert_eq!(random.server_for_key(0, 1), None);
}

#[test]
fn adding_keys_changes_no_unkeyed_run() {
    // The key stream is drawn after the others and read only by the
    // key-placing policies: an unkeyed run is the same whatever its keys.
    let run = |pairs: &[(&str, &str)]| {
        let mut sim = Simulation::new(&scenario(pairs)).unwrap();
        sim.run();
        sim.trace_hash()
    };
    let base = [("duration_s", "5"), ("policy", "power-of-d")];
    let keyed =
        [("duration_s", "5"), ("policy", "power-of-d"), ("key_space", "7"), ("key_popularity", "1.2")];
    assert_eq!(run(&base), run(&keyed));
}

/// p99 queue time (ms) and the max over mean of requests completed per
/// server, for `policy` on a keyed scenario run with `seed`.
fn tail_and_spread(policy: &str, seed: u64) -> (f64, f64) {
    let seed = seed.to_string();
    let pairs = [
        ("policy", policy),
        ("servers", "20"),
        ("clients", "200"),
        ("load", "0.7"),
        ("key_space", "1000"),
        ("key_popularity", "0.8"),
        ("duration_s", "60"),
        ("warmup_s", "5"),
        ("seed", &seed),
    ];
    let mut sim = Simulation::new(&scenario(&pairs)).unwrap();
    sim.run();
    let summary = sim.summary();
    let per_server = &summary.completed_per_server;
    let mean = per_server.iter().sum::<u64>() as f64 / per_server.len() as f64;
    let max = *per_server.iter().max().unwrap() as f64;
    (summary.queue_ms.p99, max / mean)
}

/// Seeds run independently, so each policy's figures over them have a
/// standard error.
const SEEDS: u64 = 5;

#[test]
fn affinity_costs_tail_and_bounded_loads_win_most_of_it_back() {
    let figures = |policy: &str| (1..=SEEDS).map(|seed| tail_and_spread(policy, seed)).collect::<Vec<_>>();
    let (ring, bounded, aware) = (figures("ring"), figures("bounded-load"), figures("power-of-d"));
    let tail = |runs: &[(f64, f64)]| Estimate::of(&runs.iter().map(|r| r.0).collect::<Vec<_>>());
    let spread = |runs: &[(f64, f64)]| Estimate::of(&runs.iter().map(|r| r.1).collect::<Vec<_>>());
    // The ring's p99 over power-of-d's, seed by seed (the same arrivals).
    let ratio = Estimate::of(&ring.iter().zip(&aware).map(|(r, a)| r.0 / a.0).collect::<Vec<_>>());
    let shown = |e: Estimate| format!("{:.2} ± {:.2}", e.mean, e.se);
    println!(
        "Zipf 0.8 over 1000 keys, 20 servers, load 0.7, {SEEDS} seeds: p99 queue ms (max/mean completed) \
         ring {} ({}), bounded-load c=1.25 {} ({}), power-of-d {} ({}); ring / power-of-d {}",
        shown(tail(&ring)),
        shown(spread(&ring)),
        shown(tail(&bounded)),
        shown(spread(&bounded)),
        shown(tail(&aware)),
        shown(spread(&aware)),
        shown(ratio)
    );
    // Affinity costs the tail a hundredfold (measured: 155 ± 5): the ratio
    // exceeds 100 by more than 4 standard errors.
    assert!(ratio.above(&Estimate { mean: 100.0, se: 0.0 }, 4.0), "{ratio:?}");
    assert!(tail(&ring).above(&tail(&bounded), 4.0) && spread(&ring).above(&spread(&bounded), 4.0));
}

#[test]
fn key_shares_count_every_key_of_a_million_under_modulo() {
    // Every 10th key of a million, taken with a stride, all fall on ten of
    // a hundred servers under modulo; each server in fact holds 10,000.
    let pairs = [("policy", "modulo"), ("servers", "100"), ("key_space", "1000000")];
    let sim = Simulation::new(&scenario(&pairs)).unwrap();
    assert_eq!(sim.key_counts().unwrap(), vec![10_000; 100]);
    let spread = sim.key_spread().unwrap();
    assert_eq!((spread.key_share_cv, spread.key_share_max_over_mean), (0.0, 1.0));
    assert_eq!(spread.keys.to_string(), "all 1,000,000 keys");
}

#[test]
fn a_key_space_too_large_to_count_is_sampled_at_random_and_said_so() {
    let pairs = [("policy", "modulo"), ("servers", "100"), ("key_space", "100000000")];
    let sim = Simulation::new(&scenario(&pairs)).unwrap();
    let spread = sim.key_spread().unwrap();
    assert!(spread.keys.drawn_at_random);
    let counted = spread.keys.counted as f64;
    assert_eq!(sim.key_counts().unwrap().iter().sum::<u64>(), spread.keys.counted);
    assert_eq!(
        spread.keys.to_string(),
        format!("{} keys drawn at random from 100,000,000", thousands(spread.keys.counted))
    );
    // A fair share of a uniform sample: each of the 100 servers' counts is
    // binomial (counted, p = 1/100), so their sd/mean is near
    // sqrt((1 - p) / (counted p)); no aliasing. The sd of 100 near-normal
    // counts is itself uncertain, by a relative standard error of
    // 1 / sqrt(2 (100 - 1)) (about 7%): allow 4 of them.
    let (servers, p): (f64, f64) = (100.0, 0.01);
    let expected = ((1.0 - p) / (counted * p)).sqrt();
    let tolerance = 4.0 / (2.0 * (servers - 1.0)).sqrt();
    let off = spread.key_share_cv / expected - 1.0;
    assert!(off.abs() < tolerance, "sd/mean {} is {off:+.3} from {expected}", spread.key_share_cv);
}

#[test]
fn key_counts_are_those_of_the_placement_chooser_0_routes_with() {
    // Under subsets and class pools chooser 0 holds a part of the servers:
    // the counts are over its pool, and each key counts where it sends it.
    for pairs in [
        vec![("policy", "ring"), ("subset_size", "1")],
        vec![("policy", "ring"), ("subset_size", "3"), ("clients", "5")],
        vec![
            ("policy", "maglev"),
            ("class_shares", "0.5,0.5"),
            ("class_costs", "1,1"),
            ("class_pools", "0-6,7-9"),
        ],
    ] {
        let sim = Simulation::new(&scenario(&pairs)).unwrap();
        let placement = sim.key_placement().unwrap();
        let pool = placement.members().to_vec();
        let mut expected = vec![0u64; pool.len()];
        for key in 0..10_000 {
            let server = sim.server_for_key(0, key).unwrap();
            expected[pool.binary_search(&server).unwrap()] += 1;
        }
        assert_eq!(sim.key_counts().unwrap(), expected, "{pairs:?}");
    }
}
