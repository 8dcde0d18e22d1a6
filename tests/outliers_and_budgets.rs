//! Envoy's success-rate and failure-percentage outlier ejection on
//! constructed pools, and retry budgets as a share of requests under a
//! total outage (Envoy's, and Linkerd's and Finagle's), against the rules
//! the proxies document.

mod common;

use common::behind_one_balancer;
use lbsim::engine::Happening;
use lbsim::{Scenario, Simulation, Time};

/// Ten servers (or `servers`) behind one balancer, each answering 50
/// requests a second (500 an interval); server 0 fails a share `p0` of
/// its requests and the others 1%. Envoy's outlier detection sweeps every
/// 10 s and may hold 10% of the pool out; no retries.
fn erring(servers: u32, p0: f64, extra: &[(&str, &str)]) -> Scenario {
    let failures = format!("0s:fast-fail:0:p={p0}:after=10ms")
        + &(1..servers).map(|s| format!(",0s:fast-fail:{s}:p=0.01:after=10ms")).collect::<String>();
    let servers = servers.to_string();
    let base = [
        ("servers", servers.as_str()),
        ("slots", "1"),
        ("service_mean_ms", "10"),
        ("load", "0.5"),
        ("policy", "round-robin"),
        ("retry_budget", "0"),
        ("failures", failures.as_str()),
        ("eject_interval_ms", "10000"),
        ("eject_for_ms", "30000"),
        ("eject_max_fraction", "0.1"),
        ("duration_s", "30"),
    ];
    behind_one_balancer(&[&base, extra])
}

/// Which servers the balancer holds out at `t_s`.
fn held_out_at(sim: &mut Simulation, t_s: f64) -> Vec<usize> {
    sim.advance_to(Time::from_ms(t_s * 1000.0), u64::MAX);
    let servers = sim.snapshot(0).servers;
    (0..servers.len()).filter(|&s| servers[s].ejected > 0).collect()
}

const ENVOY_SUCCESS_RATE: (&str, &str) = ("success_rate_stdev_factor", "1900");

#[test]
fn a_server_failing_30_percent_among_nine_failing_1_percent_is_ejected_at_the_first_sweep() {
    // Rates near 70% and 99% over 500 answers each (standard errors 2% and
    // 0.45%): the mean is near 96.1, the deviation near 8.6, the threshold
    // near 79.7, more than 4 standard errors from each.
    let mut sim = Simulation::new(&erring(10, 0.3, &[ENVOY_SUCCESS_RATE])).unwrap();
    assert_eq!(held_out_at(&mut sim, 9.99), Vec::<usize>::new());
    assert_eq!(held_out_at(&mut sim, 10.01), vec![0]);
    assert_eq!(held_out_at(&mut sim, 39.99), vec![0], "ejected 30 s, to the first sweep after");
}

#[test]
fn too_little_volume_or_too_few_servers_eject_none() {
    // 500 answers an interval, short of a volume of 1000.
    let few_answers = erring(10, 0.3, &[ENVOY_SUCCESS_RATE, ("success_rate_request_volume", "1000")]);
    let mut sim = Simulation::new(&few_answers).unwrap();
    assert_eq!(held_out_at(&mut sim, 30.0), Vec::<usize>::new());
    // Four servers, short of Envoy's minimum of five.
    let mut sim = Simulation::new(&erring(4, 0.3, &[ENVOY_SUCCESS_RATE])).unwrap();
    assert_eq!(held_out_at(&mut sim, 30.0), Vec::<usize>::new());
}

#[test]
fn among_n_servers_one_is_at_most_root_n_minus_1_deviations_below_so_four_never_eject_at_1_9() {
    // One server at 0% among three at 100%: mean 75, deviation 43.3, and
    // 0 lies √3 ≈ 1.73 deviations below: never an outlier at 1.9, even
    // with the minimum lowered to four. Ten servers allow 3.
    let all_or_nothing = [ENVOY_SUCCESS_RATE, ("success_rate_minimum_hosts", "4")];
    let mut sim = Simulation::new(&erring(4, 1.0, &all_or_nothing)).unwrap();
    assert_eq!(held_out_at(&mut sim, 30.0), Vec::<usize>::new());
    let mut sim = Simulation::new(&erring(10, 1.0, &all_or_nothing)).unwrap();
    assert_eq!(held_out_at(&mut sim, 10.01), vec![0]);
}

#[test]
fn failure_percentage_ejects_a_server_at_90_percent_errors_and_not_one_at_70() {
    // Envoy's threshold of 85%, 50 answers; over 500 answers the standard
    // error of 90% is 1.3%, of 70% 2%.
    let envoy = [("failure_percentage_threshold", "85")];
    let mut sim = Simulation::new(&erring(10, 0.9, &envoy)).unwrap();
    assert_eq!(held_out_at(&mut sim, 9.99), Vec::<usize>::new());
    assert_eq!(held_out_at(&mut sim, 10.01), vec![0]);
    let mut sim = Simulation::new(&erring(10, 0.7, &envoy)).unwrap();
    assert_eq!(held_out_at(&mut sim, 30.0), Vec::<usize>::new());
}

/// Ten servers behind one balancer (no delays on the way), every one
/// answering every request with an error after 10 ms: a total outage.
/// Each request may retry 3 times, at once.
fn outage(load: &str, extra: &[(&str, &str)]) -> Scenario {
    let failures = (0..10).map(|s| format!("0s:fast-fail:{s}:p=1:after=10ms")).collect::<Vec<_>>().join(",");
    let base = [
        ("servers", "10"),
        ("slots", "10"),
        ("service_mean_ms", "10"),
        ("client_delay_ms", "0"),
        ("balancer_delay_ms", "0"),
        ("handshake_round_trips", "0"),
        ("load", load),
        ("retry_budget", "3"),
        ("failures", failures.as_str()),
        ("duration_s", "60"),
        ("seed", "7"),
    ];
    behind_one_balancer(&[&base, extra])
}

/// The requests created and the retries sent over the run.
fn created_and_retried(scenario: &Scenario) -> (f64, f64) {
    let mut sim = Simulation::new(scenario).unwrap();
    sim.run();
    let counts = sim.metrics().counts;
    (counts.created as f64, counts.retried as f64)
}

#[test]
fn without_a_ratio_budget_each_request_retries_its_own_budget() {
    let (created, retried) = created_and_retried(&outage("0.05", &[]));
    // Those still out at the end may not have made all three.
    assert!((retried - 3.0 * created).abs() <= 3.0 * 20.0, "{retried} retries of {created} requests");
}

#[test]
fn linkerds_and_finagles_budget_holds_retries_to_a_fifth_of_requests_plus_ten_a_second() {
    // 500 requests a second, each wanting three retries: 100 a second
    // from the ratio and 10 from the reserve, over each 10 s window.
    let finagle = [("retry_budget_percent", "20"), ("retry_budget_of", "requests")];
    let (created, retried) = created_and_retried(&outage("0.05", &finagle));
    let bound = 0.2 * created + 10.0 * 60.0;
    // The window is counted in ten slices, so it may reach back 9 s to
    // 10 s: a window's reserve more over the run at most, and Poisson
    // noise on a fifth of the requests (4 standard errors).
    let slack = 100.0 + 4.0 * 0.2 * created.sqrt();
    assert!(retried <= bound + slack, "{retried} retries, bound {bound:.0} + {slack:.0}");
    assert!(retried >= bound - slack, "{retried} retries: the budget should be spent, bound {bound:.0}");
    // A tenth of the ratio's, with the reserve alone.
    let reserve_only = [finagle[0], finagle[1], ("retry_budget_percent", "0")];
    let (_, retried) = created_and_retried(&outage("0.05", &reserve_only));
    assert!((retried - 600.0).abs() <= 10.0, "{retried} retries from a reserve of 10 a second");
}

#[test]
fn envoys_budget_holds_retries_outstanding_to_a_fifth_of_requests_outstanding() {
    // 4,000 requests a second, each try out 10 ms: about 40 outstanding,
    // of which at most 20% (8) may be retries, above the minimum of 3.
    // Every try lasts the same, so by Little's law retries outstanding
    // over requests outstanding is retries over tries.
    let envoy = [("retry_budget_percent", "20"), ("retry_budget_of", "active")];
    let (created, retried) = created_and_retried(&outage("0.4", &envoy));
    let tries = created + retried;
    let share = retried / tries;
    let error = (0.2 * 0.8 / tries).sqrt();
    assert!(share <= 0.2 + 4.0 * error, "{retried} retries of {tries} tries: {share:.4}");
    assert!(share >= 0.1, "{retried} retries of {tries} tries: {share:.4}");
}

/// The waits of the retries that backed off in the first `steps` events.
fn backoffs(scenario: &Scenario, steps: usize) -> Vec<f64> {
    let mut sim = Simulation::new(scenario).unwrap();
    let mut waits = Vec::new();
    for _ in 0..steps {
        let Some(step) = sim.step_journaled() else { break };
        for happening in &step.happened {
            if let Happening::BackingOff { wait, .. } = happening {
                waits.push(wait.as_ms());
            }
        }
    }
    waits
}

#[test]
fn envoys_max_interval_caps_each_backoff() {
    // 25 ms doubling: the third retry's wait is drawn below 100 ms, and
    // capped at 50 half the time.
    let backoff = [("retry_backoff_ms", "25")];
    let uncapped = backoffs(&outage("0.05", &backoff), 20_000);
    assert!(uncapped.iter().any(|&w| w > 50.0), "{} waits", uncapped.len());
    let capped = backoffs(&outage("0.05", &[backoff[0], ("retry_backoff_max_ms", "50")]), 20_000);
    assert!(capped.iter().all(|&w| w <= 50.0));
    let at_cap = capped.iter().filter(|&&w| w == 50.0).count() as f64;
    // A third of the waits are third retries', half of those at the cap:
    // a sixth, within 4 binomial standard errors.
    let n = capped.len() as f64;
    let error = (n / 6.0 * 5.0 / 6.0).sqrt();
    assert!((at_cap - n / 6.0).abs() < 4.0 * error, "{at_cap} of {n} at the cap");
}

/// Two servers picked at random, server 0 failing every request: one
/// retry each.
fn one_of_two_failing(retry_hosts: &[(&str, &str)]) -> Scenario {
    let base = [
        ("servers", "2"),
        ("slots", "10"),
        ("load", "0.2"),
        ("policy", "random"),
        ("retry_budget", "1"),
        ("failures", "0s:fast-fail:0:p=1:after=1ms"),
        ("duration_s", "30"),
    ];
    behind_one_balancer(&[&base, retry_hosts])
}

#[test]
fn envoys_previous_hosts_predicate_picks_again_when_a_retry_draws_its_server() {
    // A request fails when it draws server 0 (1/2), and its retry draws it
    // again: 1/2 with no predicate, 1/4 with Envoy's previous_hosts and
    // one more pick, 1/64 with five.
    let cases = [
        (&[][..], 1.0 / 4.0),
        (&[("retry_hosts", "previous_hosts")][..], 1.0 / 8.0),
        (&[("retry_hosts", "previous_hosts"), ("host_selection_retry_max_attempts", "5")][..], 1.0 / 128.0),
    ];
    for (retry_hosts, p) in cases {
        let mut sim = Simulation::new(&one_of_two_failing(retry_hosts)).unwrap();
        sim.run();
        let counts = sim.metrics().counts;
        let (failed, created) = (counts.failed as f64, counts.created as f64);
        let error = (created * p * (1.0 - p)).sqrt();
        assert!((failed - created * p).abs() < 4.0 * error, "{retry_hosts:?}: {failed} of {created} failed");
    }
}

#[test]
fn envoys_max_retries_breaker_is_a_budget_of_nothing_with_a_minimum_of_three() {
    // At most 3 retries out at once, each out 10 ms: at most 300 a
    // second, 18,000 over the run (and 3 at its end), where 4,000
    // requests a second would make 12,000.
    let max_retries =
        [("retry_budget_percent", "0"), ("retry_budget_of", "active"), ("min_retry_concurrency", "3")];
    let (_, retried) = created_and_retried(&outage("0.4", &max_retries));
    assert!(retried <= 18_003.0, "{retried} retries");
    assert!(retried >= 0.95 * 18_000.0, "{retried} retries: the breaker should be full");
}
