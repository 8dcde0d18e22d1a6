//! Engine throughput: events per second and simulated requests per
//! wall-clock second, median of several runs (the machine is shared and
//! noisy, so medians, not single runs).
//!
//! `cargo bench --bench engine` runs the small M/M/3 scenario for 1,000
//! simulated s (its state stays in the caches, so it gauges how fast the
//! shared machine runs the engine just then); scenarios/benchmark.toml
//! (1,000 servers × 10 slots, load 0.9, power-of-two with piggybacked load
//! from 1,000 clients, about 100,000 requests per simulated second for 60 s);
//! the same with each client choosing among a subset of 10 servers (as the
//! essay advises, and far less client state); and the same with the default
//! 20 clients (the benchmark's settings with nothing else changed from the
//! defaults); and the benchmark with two request classes (10% of requests
//! costing 10 times the others, served after them) and hedging after
//! 300 ms (a copy for about 6% of requests); the benchmark with servers
//! failing fast, down and flapping, and every reaction on (retries with
//! backoff, outlier ejection, health checks); and scenarios/failures.toml
//! (20 servers, least-connections, the same failures); and the benchmark
//! under FoundationDB's loadBalance, each client over a subset of 10 servers
//! in two datacenters (a state machine per request). The cases take turns, round after round, so a slow spell of
//! the machine falls on all of them. For the benchmark's scenarios it gives
//! their speed relative to M/M/3 in the same rounds and whether the medians
//! meet the engine's targets: at least 10 million events per second, and the
//! 60 simulated seconds in under 3 s of wall time.
//! `LBSIM_BENCH_RUNS=N` sets the number of runs (default 5).

use lbsim::{Scenario, Simulation};
use std::time::Instant;

struct Run {
    wall_s: f64,
    events: u64,
    requests: u64,
}

fn run_once(scenario: &Scenario) -> Run {
    let mut sim = Simulation::new(scenario).expect("valid scenario");
    let started = Instant::now();
    sim.run();
    let wall_s = started.elapsed().as_secs_f64();
    let books = sim.books();
    Run { wall_s, events: sim.events_processed(), requests: books.completed + books.failed }
}

fn median(values: impl Iterator<Item = f64>) -> f64 {
    let mut values: Vec<f64> = values.collect();
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() {
    let runs: usize = std::env::var("LBSIM_BENCH_RUNS").ok().and_then(|n| n.parse().ok()).unwrap_or(5);
    // The first case is the gauge of the machine's speed.
    let classes_and_hedging: &[(&str, &str)] = &[
        ("class_shares", "9,1"),
        ("class_costs", "1,10"),
        ("class_priorities", "1,0"),
        ("hedge_after_ms", "300"),
    ];
    let failures_and_reactions: &[(&str, &str)] = &[
        ("failures", "10s:fast-fail:3:p=0.9:after=1ms, 20s:down:7:for=10s, 40s:flap:11:period=500ms"),
        ("retry_backoff_ms", "5"),
        ("eject_after", "5"),
        ("health_check_ms", "1000"),
    ];
    let foundationdb: &[(&str, &str)] =
        &[("policy", "fdb-load-balance"), ("subset_size", "10"), ("datacenters", "2")];
    let cases: [(&str, &[(&str, &str)]); 8] = [
        ("mmc.toml", &[("duration_s", "1000")]),
        ("benchmark.toml", &[]),
        ("benchmark.toml", &[("subset_size", "10")]),
        ("benchmark.toml", &[("clients", "20")]),
        ("benchmark.toml", classes_and_hedging),
        ("benchmark.toml", failures_and_reactions),
        ("failures.toml", &[]),
        ("benchmark.toml", foundationdb),
    ];
    let scenarios: Vec<(String, Scenario)> = cases
        .iter()
        .map(|&(name, changes)| {
            let path = format!("{}/scenarios/{name}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).expect("scenario file");
            let mut scenario = Scenario::from_toml(&text).expect("valid scenario");
            scenario.set_many(changes.iter().copied()).expect("valid settings");
            let label = match changes {
                [] => name.to_string(),
                _ => {
                    let settings: Vec<String> = changes.iter().map(|(f, v)| format!("{f} = {v}")).collect();
                    format!("{name} with {}", settings.join(", "))
                }
            };
            (label, scenario)
        })
        .collect();
    // Each round's M/M/3 run says how fast the machine was just then.
    let mut results: Vec<Vec<Run>> = scenarios.iter().map(|_| Vec::new()).collect();
    for _ in 0..runs {
        for ((_, scenario), results) in scenarios.iter().zip(&mut results) {
            results.push(run_once(scenario));
        }
    }
    let events_per_s = |run: &Run| run.events as f64 / run.wall_s;
    let gauge = &results[0];
    for (index, ((label, scenario), results)) in scenarios.iter().zip(&results).enumerate() {
        let walls: Vec<f64> = results.iter().map(|r| r.wall_s).collect();
        let wall_s = median(walls.iter().copied());
        let events = median(results.iter().map(events_per_s));
        let requests_per_s = median(results.iter().map(|r| r.requests as f64 / r.wall_s));
        println!(
            "{label}: {:.0} simulated s, {} events, {} requests per run; {runs} runs",
            scenario.duration_s, results[0].events, results[0].requests
        );
        println!("  wall time      median {wall_s:.3} s   (runs: {:?})", rounded(&walls));
        println!("  events/s       median {:.2} M", events / 1e6);
        println!("  requests/s     median {:.2} M simulated requests per wall second", requests_per_s / 1e6);
        if index == 0 {
            println!("  (small enough to stay in the caches: how fast the machine runs the engine just now)");
            continue;
        }
        let relative = median(results.iter().zip(gauge).map(|(r, m)| events_per_s(r) / events_per_s(m)));
        println!("  vs M/M/3       {relative:.2} of its events/s in the same rounds");
        println!(
            "  targets        ≥ 10 M events/s: {}; 60 simulated s in under 3 s: {}",
            verdict(events >= 10e6),
            verdict(wall_s < 3.0)
        );
    }
}

fn verdict(met: bool) -> &'static str {
    if met {
        "met"
    } else {
        "not met"
    }
}

fn rounded(values: &[f64]) -> Vec<f64> {
    values.iter().map(|v| (v * 1000.0).round() / 1000.0).collect()
}
