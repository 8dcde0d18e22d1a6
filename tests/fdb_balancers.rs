//! FoundationDB's two balancers driven by the engine (seed 002), measured:
//! `loadBalance`'s queue model and server-reported penalties against
//! `basicLoadBalance`'s random pick when one server is slow, datacenter
//! awareness keeping traffic local, a down server routed around, and
//! `all_alternatives_failed` when every server is down past the wait.
//! Directions are asserted with tolerances of several standard errors over
//! seeds run independently.

mod common;

use common::{over_seeds, scenario, summary_of};
use lbsim::engine::Summary;
use lbsim::fdb::knobs::{ALTERNATIVES_FAILURE_DELAY_RATIO, DELAY_JITTER_OFFSET, DELAY_JITTER_RANGE};
use lbsim::Scenario;

const SEEDS: u64 = 5;

/// Ten servers at 70% load, server 0 at a fifth of its speed throughout.
fn one_slow_server(policy: &str, seed: u64) -> Scenario {
    let seed = seed.to_string();
    scenario(&[
        ("policy", policy),
        ("load", "0.7"),
        ("failures", "0s:slow:0:x=0.2"),
        ("duration_s", "30"),
        ("warmup_s", "5"),
        ("seed", &seed),
    ])
}

#[test]
fn load_balance_with_penalties_keeps_p99_lower_than_basic_load_balance_when_one_server_is_slow() {
    let p99 = |policy: &str, seed: u64| summary_of(&one_slow_server(policy, seed)).latency_ms.p99;
    // Paired on each seed: the same arrivals and service demands.
    let (difference, error) =
        over_seeds(SEEDS, |seed| p99("fdb-basic", seed) - p99("fdb-load-balance", seed));
    let (basic, _) = over_seeds(SEEDS, |seed| p99("fdb-basic", seed));
    println!("p99 basicLoadBalance {basic:.1} ms, loadBalance lower by {difference:.1} ± {error:.1} ms");
    assert!(difference > 4.0 * error, "{difference:.1} ± {error:.1}");
    // Not a sliver: the slow server's queue shows in its penalty and in
    // the client's smoothed outstanding requests, and loadBalance turns away.
    assert!(difference > 0.2 * basic, "{difference:.1} of {basic:.1}");
}

/// Two datacenters 10 ms apart one way, five servers and ten clients in each.
fn two_datacenters(policy: &str, dc_order: &str, seed: u64) -> Scenario {
    let seed = seed.to_string();
    scenario(&[
        ("policy", policy),
        ("datacenters", "2"),
        ("cross_dc_delay_ms", "10"),
        ("dc_order", dc_order),
        ("load", "0.7"),
        ("duration_s", "20"),
        ("warmup_s", "2"),
        ("seed", &seed),
    ])
}

/// The share of requests sent within the sender's datacenter.
fn local_share(summary: &Summary) -> f64 {
    let counts = summary.counts.locality;
    counts.sent_local as f64 / (counts.sent_local + counts.sent_remote) as f64
}

#[test]
fn datacenter_awareness_keeps_most_traffic_local() {
    let share = |policy: &str, order: &str| {
        over_seeds(SEEDS, |seed| local_share(&summary_of(&two_datacenters(policy, order, seed))))
    };
    let (aware, aware_error) = share("fdb-load-balance", "local-first");
    let (unaware, unaware_error) = share("fdb-load-balance", "any");
    let (random, random_error) = share("random", "local-first");
    println!("local share: local-first {aware:.4} ± {aware_error:.4}, any {unaware:.4} ± {unaware_error:.4}, random {random:.4} ± {random_error:.4}");
    // Random ignores datacenters: half its requests stay local.
    assert!((random - 0.5).abs() < 4.0 * random_error.max(0.002), "{random:.4} ± {random_error:.4}");
    // Local-first sends abroad only when both candidates are there, which
    // takes the whole local datacenter failed or far worse than the other:
    // here none fails, and no request leaves.
    assert_eq!(aware, 1.0, "{aware:.4}");
    // Without it the queue model's latency still leans local, more than
    // random's half, but far less than local-first.
    assert!(unaware - 0.5 > 4.0 * (unaware_error.powi(2) + random_error.powi(2)).sqrt(), "{unaware:.4}");
    let gap = aware - unaware;
    assert!(
        gap > 4.0 * (aware_error.powi(2) + unaware_error.powi(2)).sqrt(),
        "{aware:.4} against {unaware:.4}"
    );
    let p50 = |order: &str| {
        over_seeds(SEEDS, |seed| summary_of(&two_datacenters("fdb-load-balance", order, seed)).latency_ms.p50)
    };
    let ((local_p50, local_error), (any_p50, any_error)) = (p50("local-first"), p50("any"));
    println!(
        "p50 latency: local-first {local_p50:.1} ± {local_error:.1} ms, any {any_p50:.1} ± {any_error:.1} ms"
    );
    assert!(any_p50 - local_p50 > 4.0 * (local_error.powi(2) + any_error.powi(2)).sqrt());
}

/// Server 3 of ten down from 2 s to 12 s, sessions of one request.
fn one_down(policy: &str, seed: u64) -> Scenario {
    let seed = seed.to_string();
    scenario(&[
        ("policy", policy),
        ("load", "0.6"),
        ("session_length", "1"),
        ("failures", "2s:down:3:for=10s"),
        ("duration_s", "15"),
        ("seed", &seed),
    ])
}

/// Requests a second at `scenario`'s load: its share of the servers' capacity.
fn arrival_rate(scenario: &Scenario) -> f64 {
    scenario.load * f64::from(scenario.servers * scenario.slots) / (scenario.service_mean_ms / 1000.0)
}

#[test]
fn both_balancers_route_around_a_down_server_without_failing_a_request() {
    for policy in ["fdb-basic", "fdb-load-balance"] {
        for seed in 1..=SEEDS {
            let scenario = one_down(policy, seed);
            let summary = summary_of(&scenario);
            // A refused connection is a broken promise: the next alternative
            // is tried, and the failure monitor keeps the server out after.
            assert_eq!(summary.counts.failed, 0, "{policy} seed {seed}: {:?}", summary.failures);
            assert!(summary.counts.refused > 0, "{policy} seed {seed}: nothing was refused");
            // Each chooser is refused once, and then only for what it sent
            // before that refusal came back a round trip later: at most every
            // request sent in a round trip (a Poisson count, given four
            // standard deviations). Thousands if the monitor kept nothing.
            let choosers = f64::from(scenario.clients);
            let round_trip_s = 2.0 * scenario.client_delay_ms / 1000.0;
            let in_flight = arrival_rate(&scenario) * round_trip_s;
            let most = choosers + in_flight + 4.0 * in_flight.sqrt();
            let refused = summary.counts.refused;
            assert!((refused as f64) < most, "{policy} seed {seed}: {refused} refusals, more than {most:.0}");
        }
    }
}

/// When every server goes down, and for how long, in seconds.
const OUTAGE_S: (f64, f64) = (2.0, 2.0);

/// Every server down from 2 s to 4 s, the clients sending on.
fn all_down(policy: &str) -> Scenario {
    let (at, length) = OUTAGE_S;
    let failures: Vec<String> = (0..4).map(|s| format!("{at}s:down:{s}:for={length}s")).collect();
    scenario(&[
        ("policy", policy),
        ("servers", "4"),
        ("load", "0.5"),
        ("session_length", "1"),
        ("failures", &failures.join(",")),
        ("duration_s", "8"),
    ])
}

#[test]
fn with_every_server_down_load_balance_gives_up_and_basic_load_balance_waits() {
    let scenario = all_down("fdb-load-balance");
    let load = summary_of(&scenario);
    let given_up = load.failures.iter().find(|(r, _)| r.name() == "all-alternatives-failed");
    // A wait for an alternative lasts a share of how long the client has
    // been failing, jittered, and that is never longer than the run so
    // far. So every request that arrives during the outage, once a round
    // trip has told the clients, and the longest wait before its end,
    // gives up (a Poisson count, given four standard deviations).
    let (at, length) = OUTAGE_S;
    let longest_wait_s =
        ALTERNATIVES_FAILURE_DELAY_RATIO * (at + length) * (DELAY_JITTER_OFFSET + DELAY_JITTER_RANGE);
    let round_trip_s = 2.0 * scenario.client_delay_ms / 1000.0;
    let arrivals = arrival_rate(&scenario) * (length - round_trip_s - longest_wait_s);
    let least = arrivals - 4.0 * arrivals.sqrt();
    assert!(given_up.is_some_and(|&(_, n)| n as f64 > least), "{:?}, fewer than {least:.0}", load.failures);
    let basic = summary_of(&all_down("fdb-basic"));
    // basicLoadBalance waits as long as it takes: nothing fails, and what
    // waited is served once the servers are back. Some request arrives
    // within a round trip of the outage's start (about λ × round trip = 10
    // are due there; none comes with probability e^-10), and waits out the
    // rest of it.
    assert_eq!(basic.counts.failed, 0, "{:?}", basic.failures);
    let waited_out_ms = (length - 2.0 * round_trip_s) * 1000.0;
    assert!(basic.latency_ms.p100 > waited_out_ms, "{:?}, under {waited_out_ms} ms", basic.latency_ms);
}
