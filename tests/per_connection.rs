//! Balancing per connection (kube-proxy, L4 balancers, HTTP/2 and gRPC
//! channels) against the multinomial of connections: with 10 clients of
//! one connection each over 5 servers, picked at random, each server's
//! share of requests is its share of the connections, and the connections
//! per server spread as Binomial(10, 1/5). A maximum connection age closes
//! a connection and re-balances it.

mod common;

use common::{scenario, summary_of, Estimate};
use lbsim::Scenario;

const CLIENTS: u32 = 10;
const SERVERS: usize = 5;

/// 10 clients of one connection each over 5 servers picked at random,
/// sessions of one request, at a third of capacity; `extra` applied last.
fn pinned(seed: u64, extra: &[(&str, &str)]) -> Scenario {
    let seed = seed.to_string();
    let base = [
        ("servers", "5"),
        ("clients", "10"),
        ("policy", "random"),
        ("session_length", "1"),
        ("load", "0.3"),
        ("queue_timeout_ms", "none"),
        ("balance_per", "connection"),
        ("duration_s", "10"),
        ("seed", seed.as_str()),
    ];
    scenario(&[&base[..], extra].concat())
}

/// The connections each server holds, read from its share of the
/// requests: the nearest tenth. Each share must lie within 4 binomial
/// standard errors of it (a client's sessions are drawn uniformly, so a
/// server's requests are Binomial(n, connections / 10)).
fn connections_per_server(scenario: &Scenario) -> Vec<u32> {
    let completed = summary_of(scenario).completed_per_server;
    let n: u64 = completed.iter().sum();
    completed
        .iter()
        .map(|&count| {
            let share = count as f64 / n as f64;
            let connections = (share * f64::from(CLIENTS)).round();
            let p = connections / f64::from(CLIENTS);
            let se = (p * (1.0 - p) / n as f64).sqrt();
            assert!(
                (share - p).abs() <= 4.0 * se,
                "share {share} of {n} against {connections} connections of 10"
            );
            connections as u32
        })
        .collect()
}

#[test]
fn requests_follow_their_connections_whose_count_per_server_is_binomial() {
    // Binomial(10, 1/5): mean 2, variance 10 × 0.2 × 0.8 = 1.6.
    for tier in [("balancers", "0"), ("balancers", "1")] {
        let spreads: Vec<f64> = (1..=200)
            .map(|seed| {
                let counts = connections_per_server(&pinned(seed, &[tier]));
                assert_eq!(counts.iter().sum::<u32>(), CLIENTS, "{counts:?}");
                counts.iter().map(|&c| (f64::from(c) - 2.0).powi(2)).sum::<f64>() / SERVERS as f64
            })
            .collect();
        let variance = Estimate::of(&spreads);
        println!(
            "{tier:?}: variance of connections per server {:.3} ± {:.3}, Binomial 1.6",
            variance.mean, variance.se
        );
        assert!(variance.se < 0.1, "{variance:?}");
        assert!((variance.mean - 1.6).abs() <= 4.0 * variance.se, "{variance:?}");
    }
}

/// One client on one connection over 4 servers in turn (round robin), a
/// request every 10 ms or so for 40 s: without an age it stays on one
/// server; with a 1 s age each server takes a quarter, within two
/// connections' worth (1/40 of the run each).
#[test]
fn a_maximum_connection_age_re_balances_the_connection() {
    let shares = |extra: &[(&str, &str)]| -> Vec<f64> {
        let base = [
            ("clients", "1"),
            ("servers", "4"),
            ("policy", "round-robin"),
            ("load", "0.05"),
            ("duration_s", "40"),
        ];
        let completed = summary_of(&pinned(1, &[&base[..], extra].concat())).completed_per_server;
        let n: u64 = completed.iter().sum();
        completed.iter().map(|&c| c as f64 / n as f64).collect()
    };
    let lasting = shares(&[]);
    assert!(lasting.contains(&1.0), "{lasting:?}");
    let aged = shares(&[("max_connection_age_ms", "1000")]);
    assert!(aged.iter().all(|&share| (share - 0.25).abs() <= 2.0 / 40.0), "{aged:?}");
}

/// A chapter or a shared link reaches the mechanism through the lab's URL
/// hash, which sets any scenario field.
#[test]
fn a_link_sets_balancing_per_connection_in_the_lab_and_in_an_embed() {
    use lbsim::scenario::BalancePer;
    use lbsim::ui::{hash, options::Kind};
    for kind in [Kind::Lab, Kind::Embed] {
        let parsed =
            hash::parse("#balance_per=connection&connections_per_client=2&max_connection_age_ms=5000", kind);
        assert!(parsed.notices.is_empty());
        let scenario = &parsed.params.scenario;
        assert_eq!(scenario.balance_per, BalancePer::Connection);
        assert_eq!((scenario.connections_per_client, scenario.max_connection_age_ms), (2, Some(5000.0)));
    }
}
