//! Every preset, every policy and each feature, run briefly, must keep its
//! trace hash: the hash of every event the engine handled, in order. A change
//! that is meant to preserve behaviour (a restructuring) leaves this file's
//! golden list alone; a change that is meant to alter results updates the list
//! with `LBSIM_BLESS=1 cargo test --test trace_hashes` and says in its commit
//! which runs moved and why.

use lbsim::presets::PRESETS;
use lbsim::{Scenario, Simulation};

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/trace_hashes.txt");

/// Short enough for a debug build; long enough that every feature acts.
const BRIEF: [(&str, &str); 2] = [("duration_s", "2"), ("warmup_s", "0.5")];

/// Runs beyond the presets: each policy on the default scenario, and the
/// features that no preset switches on.
const VARIANTS: &[(&str, &[(&str, &str)])] = &[
    ("long-handshake", &[("handshake_round_trips", "20"), ("client_delay_ms", "50")]),
    ("idle-timeout", &[("idle_timeout_ms", "30"), ("load", "0.3")]),
    ("hedging", &[("hedge_after_ms", "30"), ("policy", "least-request")]),
    ("retries-backoff", &[("queue_timeout_ms", "20"), ("retry_backoff_ms", "5"), ("load", "1.2")]),
    ("membership", &[("membership", "0.5s:add,1s:remove:2,1.2s:crash:4,1.6s:restore:4"), ("policy", "ring")]),
    (
        "failures-eject",
        &[
            ("failures", "0.3s:fast-fail:3:p=0.9,0.8s:down:5:for=0.5s"),
            ("eject_after", "3"),
            ("policy", "least-connections"),
        ],
    ),
    (
        "peak-ewma-eject",
        &[("failures", "0.3s:fast-fail:3:p=0.9"), ("eject_after", "3"), ("policy", "peak-ewma")],
    ),
    ("health-checks", &[("failures", "0.5s:flap:2:period=200ms"), ("health_check_ms", "50")]),
    ("datacenters-fdb", &[("datacenters", "2"), ("policy", "fdb-load-balance"), ("balancers", "0")]),
    ("fdb-basic", &[("policy", "fdb-basic"), ("failures", "0.5s:down:1:for=0.5s")]),
    (
        "classes",
        &[
            ("class_shares", "9,1"),
            ("class_costs", "1,10"),
            ("class_priorities", "1,0"),
            ("policy", "least-work"),
        ],
    ),
    (
        "class-pools",
        &[
            ("class_shares", "1,1"),
            ("class_costs", "1,1"),
            ("class_pools", "0-6,7-9"),
            ("policy", "power-of-d"),
        ],
    ),
    ("subsets-stale", &[("subset_size", "3"), ("policy", "power-of-d"), ("staleness_ms", "50")]),
    ("speed-drift", &[("server_speeds", "1,2"), ("speed_changes", "3@1s:0.25"), ("policy", "peak-ewma")]),
    (
        "keys-bounded",
        &[
            ("policy", "bounded-load"),
            ("key_popularity", "1.1"),
            ("key_per", "request"),
            ("key_space", "1000"),
        ],
    ),
    ("keys-table", &[("policy", "table"), ("membership", "1s:add"), ("table_lag_ms", "100")]),
    ("heavy-sessions", &[("session_length_shape", "1.5"), ("service", "pareto")]),
    ("balancers", &[("balancers", "4"), ("policy", "p2c-piggyback")]),
    (
        "hedging-races",
        &[
            ("hedge_percentile", "90"),
            ("hedge_cancel", "queued"),
            ("queue_timeout_ms", "40"),
            ("failures", "0.4s:down:2:for=0.6s,0.5s:fast-fail:6:p=0.5"),
            ("load", "0.95"),
            ("balancers", "2"),
        ],
    ),
    (
        "hedging-idle-queue",
        &[
            ("hedge_after_ms", "20"),
            ("policy", "join-idle-queue"),
            ("membership", "0.7s:crash:1,1.4s:restore:1"),
        ],
    ),
    (
        "hedging-datacenters",
        &[
            ("hedge_after_ms", "25"),
            ("datacenters", "2"),
            ("cross_dc_delay_ms", "3"),
            ("retry_backoff_ms", "4"),
            ("failures", "0.5s:fast-fail:0:p=1"),
        ],
    ),
    (
        "ejection-grows",
        &[
            ("failures", "0.2s:fast-fail:3:p=1,0.2s:fast-fail:6:p=1"),
            ("eject_after", "2"),
            ("eject_for_ms", "100"),
            ("eject_max_for_ms", "500"),
            ("eject_interval_ms", "50"),
            ("eject_max_fraction", "0.1"),
            ("eject_always_one_host", "yes"),
        ],
    ),
    (
        "ejection-probe",
        &[
            ("failures", "0.2s:fast-fail:3:p=1:for=0.5s"),
            ("eject_after", "2"),
            ("eject_for_ms", "100"),
            ("eject_probe", "yes"),
        ],
    ),
    (
        "ejection-backs-off",
        &[
            ("failures", "0.2s:fast-fail:3:p=1"),
            ("eject_after", "2"),
            ("eject_for_ms", "50"),
            ("eject_max_for_ms", "3000"),
            ("eject_growth", "exponential"),
            ("eject_jitter", "0.5"),
            ("eject_probe", "yes"),
        ],
    ),
    (
        "panic-threshold",
        &[
            ("failures", "0.3s:down:1,0.3s:down:2,0.3s:down:3:for=1s"),
            ("health_check_ms", "50"),
            ("healthy_panic_threshold", "80"),
        ],
    ),
    (
        "health-thresholds",
        &[
            ("failures", "0.3s:flap:2:period=300ms,0.5s:slow:4:x=0.05"),
            ("health_check_ms", "50"),
            ("health_check_rise", "2"),
            ("health_check_fall", "3"),
            ("health_check_timeout_ms", "30"),
        ],
    ),
    (
        "slow-start",
        &[
            ("policy", "weighted-round-robin"),
            ("membership", "0.5s:add,1s:crash:2,1.2s:restore:2"),
            ("slow_start_window_ms", "1000"),
            ("slow_start_aggression", "2"),
        ],
    ),
    (
        "proxy-limits",
        &[
            ("balancers", "2"),
            ("load", "1.1"),
            ("server_maxconn", "8"),
            ("server_maxqueue", "3"),
            ("timeout_queue_ms", "15"),
            ("max_requests", "70"),
        ],
    ),
    (
        "per-connection",
        &[
            ("balancers", "2"),
            ("balance_per", "connection"),
            ("connections_per_client", "2"),
            ("max_connection_age_ms", "300"),
            ("policy", "least-request"),
        ],
    ),
    ("balancer-workers", &[("balancers", "2"), ("workers_per_balancer", "3"), ("policy", "least-request")]),
    ("per-connection-clients", &[("balance_per", "connection"), ("max_connection_age_ms", "500")]),
    (
        "subsets-deterministic",
        &[("subset_size", "4"), ("subset_mode", "deterministic"), ("policy", "least-request")],
    ),
    (
        "outlier-rates",
        &[
            ("failures", "0s:fast-fail:3:p=0.5,0s:fast-fail:6:p=0.9"),
            ("balancers", "1"),
            ("eject_interval_ms", "300"),
            ("success_rate_stdev_factor", "1000"),
            ("success_rate_request_volume", "20"),
            ("failure_percentage_threshold", "85"),
            ("failure_percentage_request_volume", "10"),
        ],
    ),
    (
        "retry-budget-active",
        &[
            ("failures", "0.3s:fast-fail:3:p=1,0.3s:fast-fail:6:p=1"),
            ("balancers", "2"),
            ("retry_budget_percent", "2"),
            ("min_retry_concurrency", "1"),
            ("retry_backoff_ms", "5"),
            ("retry_backoff_max_ms", "8"),
            ("retry_hosts", "previous_hosts"),
        ],
    ),
    (
        "retry-budget-requests",
        &[
            ("failures", "0.3s:fast-fail:3:p=1,0.3s:fast-fail:6:p=1"),
            ("balancers", "2"),
            ("retry_budget_percent", "2"),
            ("retry_budget_of", "requests"),
            ("min_retries_per_second", "5"),
            ("retry_budget_ttl_ms", "1000"),
        ],
    ),
];

fn hash(scenario: &Scenario) -> u64 {
    let mut simulation = Simulation::new(scenario).unwrap_or_else(|e| panic!("{e}"));
    simulation.run();
    simulation.trace_hash()
}

fn brief(mut scenario: Scenario, pairs: &[(&str, &str)]) -> Scenario {
    scenario.set_many(BRIEF.iter().chain(pairs).copied()).unwrap_or_else(|e| panic!("{e}"));
    scenario
}

fn runs() -> Vec<(String, Scenario)> {
    let mut runs = Vec::new();
    for preset in PRESETS {
        runs.push((format!("preset {}", preset.name), brief(preset.scenario().unwrap(), &[])));
    }
    for policy in lbsim::scenario::PolicyKind::NAMES {
        runs.push((format!("policy {policy}"), brief(Scenario::default(), &[("policy", policy)])));
    }
    for (name, pairs) in VARIANTS {
        runs.push((format!("variant {name}"), brief(Scenario::default(), pairs)));
    }
    runs
}

#[test]
fn trace_hashes_match_the_golden_list() {
    let found: String =
        runs().iter().map(|(name, scenario)| format!("{name}: {:016x}\n", hash(scenario))).collect();
    if std::env::var_os("LBSIM_BLESS").is_some() {
        std::fs::write(GOLDEN, &found).unwrap();
        return;
    }
    let golden = std::fs::read_to_string(GOLDEN).unwrap_or_default();
    let changed: Vec<String> = found
        .lines()
        .filter(|line| !golden.lines().any(|g| g == *line))
        .map(|line| format!("  {line} (golden: {})", golden_for(&golden, line)))
        .collect();
    assert!(
        changed.is_empty() && golden.lines().count() == found.lines().count(),
        "trace hashes differ from tests/golden/trace_hashes.txt:\n{}\n(if the change is meant to alter results, \
         rerun with LBSIM_BLESS=1 and say which runs moved and why)",
        changed.join("\n")
    );
}

fn golden_for<'a>(golden: &'a str, line: &str) -> &'a str {
    let name = line.split(": ").next().unwrap_or_default();
    golden
        .lines()
        .find(|g| g.split(": ").next() == Some(name))
        .map_or("none", |g| g.rsplit(": ").next().unwrap_or(""))
}
