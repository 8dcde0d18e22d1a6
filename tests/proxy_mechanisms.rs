//! The mechanisms real proxies ship, against their documented behaviour:
//! Envoy's outlier ejections growing 30, 60, 90 … 300 s (and ending at its
//! sweeps), slow start's share of requests over its window from Envoy's
//! formula, within binomial standard errors, and HAProxy's health checks
//! seeing a crash `fall` checks later, less the phase; NGINX's and
//! Linkerd's probe of an ejected server's return, one request each time;
//! Linkerd's and Finagle's back-offs, each kth ejection's range and mean;
//! Finagle's deterministic aperture spreading requests evenly.

mod common;

use common::{behind_one_balancer, scenario, summary_of, Estimate};
use lbsim::{Scenario, Simulation, Time};

/// One balancer before 10 servers, server 0 answering every request with
/// an error after 1 ms from the start; Envoy's outlier detection on the
/// others' side: 5 errors in a row, 30 s growing to 300 s, 10% of hosts.
fn black_hole(extra: &[(&str, &str)]) -> Scenario {
    let base = [
        ("servers", "10"),
        ("slots", "1"),
        ("service_mean_ms", "100"),
        ("load", "0.3"),
        ("retry_budget", "0"),
        ("failures", "0s:fast-fail:0:p=1:after=1ms"),
        ("eject_after", "5"),
        ("eject_for_ms", "30000"),
        ("eject_max_for_ms", "300000"),
        ("eject_max_fraction", "0.1"),
        ("duration_s", "2400"),
    ];
    behind_one_balancer(&[&base, extra])
}

/// Each time server 0 was held out of the balancer's pool, (from, to) in
/// seconds, read every `step_s`.
fn times_out(scenario: &Scenario, step_s: f64) -> Vec<(f64, f64)> {
    let mut sim = Simulation::new(scenario).unwrap();
    let (mut spans, mut since) = (Vec::new(), None);
    for step in 1..=(scenario.duration_s / step_s) as u64 {
        let t = step as f64 * step_s;
        sim.advance_to(Time::from_ms(t * 1000.0), u64::MAX);
        match (sim.snapshot(0).servers[0].ejected > 0, since) {
            (true, None) => since = Some(t),
            (false, Some(from)) => {
                spans.push((from, t));
                since = None;
            }
            _ => {}
        }
    }
    spans
}

const ENVOY_LENGTHS_S: [f64; 11] = [30.0, 60.0, 90.0, 120.0, 150.0, 180.0, 210.0, 240.0, 270.0, 300.0, 300.0];

#[test]
fn envoys_ejections_of_a_failing_host_last_30_60_90_s_and_so_on_up_to_300_s() {
    let step = 0.25;
    let spans = times_out(&black_hole(&[]), step);
    let lengths: Vec<f64> = spans.iter().map(|(from, to)| to - from).collect();
    assert!(lengths.len() >= ENVOY_LENGTHS_S.len(), "{lengths:?}");
    for (length, expected) in lengths.iter().zip(ENVOY_LENGTHS_S) {
        assert!((length - expected).abs() <= step, "{lengths:?}");
    }
    // Without a maximum, each lasts the base time, as before.
    let spans = times_out(&black_hole(&[("eject_max_for_ms", "none"), ("duration_s", "200")]), step);
    assert!(spans.len() >= 5 && spans.iter().all(|(from, to)| (to - from - 30.0).abs() <= step), "{spans:?}");
}

#[test]
fn with_envoys_10_s_interval_an_ejection_ends_at_the_first_sweep_after_its_time() {
    let step = 0.25;
    let spans = times_out(&black_hole(&[("eject_interval_ms", "10000")]), step);
    assert!(spans.len() >= ENVOY_LENGTHS_S.len(), "{spans:?}");
    for (&(from, to), expected) in spans.iter().zip(ENVOY_LENGTHS_S) {
        let sweep = to.div_euclid(10.0) * 10.0;
        assert!(to - sweep <= step, "ends at {to} s, not at a sweep: {spans:?}");
        let length = to - from;
        assert!(length >= expected - step && length < expected + 10.0 + step, "{spans:?}");
    }
}

#[test]
fn a_host_that_stays_well_has_its_ejections_forgotten_one_a_sweep() {
    // Failing for 100 s: ejected for 30 s, then 60 s (the second ends at
    // 100 s or just after). Well for 100 s, ten sweeps forget both
    // ejections: failing again at 200 s, its next ejection lasts 30 s.
    let scenario = black_hole(&[
        ("failures", "0s:fast-fail:0:p=1:after=1ms:for=95s, 200s:fast-fail:0:p=1:after=1ms"),
        ("eject_interval_ms", "10000"),
        ("duration_s", "260"),
    ]);
    let spans = times_out(&scenario, 0.25);
    let after: Vec<f64> = spans.iter().filter(|(from, _)| *from > 200.0).map(|(f, t)| t - f).collect();
    assert!(!after.is_empty() && (30.0..40.5).contains(&after[0]), "{spans:?}");
}

/// The black hole with NGINX's passive checks instead of Envoy's growth:
/// every ejection lasts 10 s (its fail_timeout), after 5 errors in a row
/// (Linkerd's consecutive failures, so that a return without a probe
/// costs five requests), probed or not.
fn nginx_black_hole(probe: &str, extra: &[(&str, &str)]) -> Scenario {
    let base = [
        ("eject_for_ms", "10000"),
        ("eject_max_for_ms", "none"),
        ("duration_s", "300"),
        ("eject_probe", probe),
    ];
    black_hole(&[&base[..], extra].concat())
}

#[test]
fn a_server_that_stays_broken_gets_one_probe_per_ejection_after_the_first() {
    let probed = summary_of(&nginx_black_hole("yes", &[]));
    let (errors, ejections) = (probed.errors_per_server[0], probed.counts.outliers.ejections);
    // 10 s out and about a third of a second until server 0 is picked
    // again (3 requests a second reach it) each time: about 29 in 300 s.
    assert!((25..=30).contains(&ejections), "{ejections} ejections");
    assert_eq!(errors, 5 + (ejections - 1), "5 errors, then one probe each return");
    // Without the probe, each return costs the 5 errors that eject it.
    let whole = summary_of(&nginx_black_hole("no", &[]));
    assert_eq!(whole.errors_per_server[0], 5 * whole.counts.outliers.ejections);
}

#[test]
fn a_repaired_server_is_readmitted_after_one_successful_probe() {
    // Broken for 15 s: ejected at about 1.7 s, probed at about 12 s (which
    // fails: out until about 22 s), probed again once repaired.
    let repaired = [("failures", "0s:fast-fail:0:p=1:after=1ms:for=15s"), ("duration_s", "100")];
    let probed = nginx_black_hole("yes", &repaired);
    let outcome = summary_of(&probed);
    assert_eq!((outcome.counts.outliers.ejections, outcome.errors_per_server[0]), (2, 6));
    let spans = times_out(&probed, 0.01);
    let last = spans.iter().rev().find(|(from, to)| to - from > 1.0).copied();
    assert!(last.is_some_and(|(_, to)| (21.0..24.0).contains(&to)), "{spans:?}");
    let blips: Vec<_> = spans.iter().filter(|(from, _)| *from > 24.0).collect();
    assert!(blips.iter().all(|(from, to)| to - from <= 0.02), "held out after its success: {spans:?}");
    // From then on it takes its tenth of about 30 requests a second.
    let others = outcome.completed_per_server[1..].iter().sum::<u64>() as f64 / 9.0;
    assert!(outcome.completed_per_server[0] as f64 > 0.7 * others, "{:?}", outcome.completed_per_server);
}

#[test]
fn a_server_readmitted_by_a_membership_change_is_not_probed_when_its_old_ejection_ends() {
    // Broken for 4 s: ejected at about 2.5 s until about 12.5 s, and
    // readmitted at 5 s, when a server joins (every pool is drawn anew).
    // The hold-out list kept its entry, so once that time had passed the
    // first request there was taken for a probe and the server held out
    // again while it was answered (from 13.75 to 13.79 s).
    let rejoined =
        [("failures", "0s:fast-fail:0:p=1:after=1ms:for=4s"), ("membership", "5s:add"), ("duration_s", "20")];
    let probed = nginx_black_hole("yes", &rejoined);
    let spans = times_out(&probed, 0.01);
    assert!(spans.len() == 1 && (4.9..5.1).contains(&spans[0].1), "held out after 5 s: {spans:?}");
    assert_eq!(summary_of(&probed).counts.outliers.ejections, 1);
}

/// The lengths in seconds of the first `k` ejections of the black hole
/// under `backoff`'s settings, probed on each return, one row per seed
/// 1..=`seeds`, read every `step_s`: a server that stays broken fails each
/// probe, so its run of ejections goes on.
fn backed_off(backoff: &[(&str, &str)], seeds: u64, k: usize, step_s: f64) -> Vec<Vec<f64>> {
    (1..=seeds)
        .map(|seed| {
            let seed = seed.to_string();
            let scenario =
                black_hole(&[backoff, &[("eject_probe", "yes"), ("load", "0.1"), ("seed", &seed)]].concat());
            let lengths = ejection_lengths(&scenario, step_s);
            assert!(lengths.len() >= k, "seed {seed}: {lengths:?}");
            lengths[..k].to_vec()
        })
        .collect()
}

/// How long each ejection of server 0 lasted, in seconds, read every
/// `step_s`: a spell out ends when the server is back in, or when a probe
/// fails (its error counted while it is held out, over half a second into
/// the spell, less than any length here: the errors of requests sent
/// before an ejection come within milliseconds of it), which starts the next ejection, however
/// soon after its return the probe went.
fn ejection_lengths(scenario: &Scenario, step_s: f64) -> Vec<f64> {
    let mut sim = Simulation::new(scenario).unwrap();
    let (mut lengths, mut since, mut erred) = (Vec::new(), None, 0);
    for step in 1..=(scenario.duration_s / step_s) as u64 {
        let t = step as f64 * step_s;
        sim.advance_to(Time::from_ms(t * 1000.0), u64::MAX);
        let server = sim.snapshot(0).servers[0];
        match (server.ejected > 0, since) {
            (true, None) => since = Some(t),
            (true, Some(from)) if server.erred > erred && t - from > 0.5 => {
                lengths.push(t - from);
                since = Some(t);
            }
            (false, Some(from)) => {
                lengths.push(t - from);
                since = None;
            }
            _ => {}
        }
        erred = server.erred;
    }
    lengths
}

/// Each kth ejection over the seeds lies within `step_s` of [h,
/// min(h × (1 + jitter), max)], and their mean is the back-off's, the mean
/// of min(h × (1 + jitter × U), max) for U uniform, within four standard
/// errors.
fn check_back_off(rows: &[Vec<f64>], h: &[f64], jitter: &[f64], max: f64, step_s: f64) {
    for (k, (&h, &jitter)) in h.iter().zip(jitter).enumerate() {
        let of_k: Vec<f64> = rows.iter().map(|row| row[k]).collect();
        let (low, high) = (h.min(max), (h * (1.0 + jitter)).min(max));
        let in_range = of_k.iter().all(|&s| s > low - step_s - 1e-9 && s < high + step_s + 1e-9);
        assert!(in_range, "ejection {}: {of_k:?} outside {low}..{high}", k + 1);
        let estimate = Estimate::of(&of_k);
        let expected = if h * (1.0 + jitter) <= max {
            h * (1.0 + jitter / 2.0)
        } else {
            let reached = (max / h - 1.0) / jitter;
            h * (reached + jitter * reached * reached / 2.0) + (1.0 - reached) * max
        };
        let error = 4.0 * estimate.se + step_s / 2.0;
        assert!(
            (estimate.mean - expected).abs() <= error,
            "ejection {}: {estimate:?} against {expected}",
            k + 1
        );
    }
}

#[test]
fn linkerds_failure_accrual_backs_off_1_2_4_s_and_on_to_60_s_jittered_by_half() {
    // linkerd2-proxy's ExponentialBackoff { min 1 s, max 60 s, jitter 0.5 }
    // after 7 consecutive failures, a probe after each back-off.
    let linkerd = [
        ("eject_after", "7"),
        ("eject_for_ms", "1000"),
        ("eject_max_for_ms", "60000"),
        ("eject_growth", "exponential"),
        ("eject_jitter", "0.5"),
        ("duration_s", "240"),
    ];
    let step = 0.02;
    let rows = backed_off(&linkerd, 24, 7, step);
    check_back_off(&rows, &[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 60.0], &[0.5; 7], 60.0, step);
}

#[test]
fn finagles_failure_accrual_marks_dead_5_s_then_an_equal_jittered_5_to_10_s_and_on() {
    // Finagle's Backoff.equalJittered(5 s, 300 s) after 5 failures in a
    // row: 5 s, then h + U × h for h = 5, 10, 20, 40 s.
    let finagle = [
        ("eject_after", "5"),
        ("eject_for_ms", "5000"),
        ("eject_max_for_ms", "300000"),
        ("eject_growth", "equal-jittered"),
        ("eject_jitter", "1"),
        ("duration_s", "220"),
    ];
    let step = 0.1;
    let rows = backed_off(&finagle, 24, 5, step);
    check_back_off(&rows, &[5.0, 5.0, 10.0, 20.0, 40.0], &[0.0, 1.0, 1.0, 1.0, 1.0], 300.0, step);
}

/// Nine servers picked by weight at random; a tenth joins at 10 s, its
/// weight ramped over a 60 s window by Envoy's slow start.
fn joining(aggression: &str) -> Scenario {
    scenario(&[
        ("servers", "9"),
        ("slots", "1"),
        ("service_mean_ms", "10"),
        ("client_delay_ms", "0"),
        ("handshake_round_trips", "0"),
        ("session_length", "1"),
        ("load", "0.5"),
        ("queue_timeout_ms", "none"),
        ("policy", "weighted-random"),
        ("membership", "10s:add"),
        ("slow_start_window_ms", "60000"),
        ("slow_start_aggression", aggression),
        ("duration_s", "70"),
        ("seed", "42"),
    ])
}

#[test]
fn a_joining_servers_share_over_the_window_follows_envoys_slow_start_formula() {
    for aggression in [1.0, 2.0] {
        let scenario = joining(&aggression.to_string());
        let mut sim = Simulation::new(&scenario).unwrap();
        let answered = |sim: &Simulation| -> (u64, u64) {
            let servers = sim.snapshot(0).servers;
            (servers.iter().map(|s| s.answered).sum(), servers.get(9).map_or(0, |s| s.answered))
        };
        sim.advance_to(Time::from_ms(10_000.0), u64::MAX);
        let (mut total, mut new) = answered(&sim);
        // Each hundredth of the window, the weight Envoy gives it at the
        // step's start: max(10%, (max(t, 1 s) / 60 s)^(1/aggression)).
        let mut quarters = [(0.0, 0.0, 0u64); 4];
        for step in 0..100 {
            let t = step as f64 * 0.6;
            let weight = (t.max(1.0) / 60.0).powf(1.0 / aggression).max(0.1);
            let p = weight / (9.0 + weight);
            sim.advance_to(Time::from_ms(10_000.0 + (t + 0.6) * 1000.0), u64::MAX);
            let (total_now, new_now) = answered(&sim);
            let n = (total_now - total) as f64;
            let quarter = &mut quarters[step / 25];
            quarter.0 += n * p;
            quarter.1 += n * p * (1.0 - p);
            quarter.2 += new_now - new;
            (total, new) = (total_now, new_now);
        }
        for (i, (expected, variance, got)) in quarters.into_iter().enumerate() {
            let error = variance.sqrt();
            assert!(
                (got as f64 - expected).abs() < 4.0 * error,
                "aggression {aggression}, quarter {i}: {got} against {expected:.1} ± {error:.1}"
            );
        }
    }
}

/// Ten servers behind one balancer checked every 2 s, HAProxy's inter,
/// taken out after 3 failed checks and back after 2 passed (its fall and
/// rise), with `extra`.
fn checked(extra: &[(&str, &str)]) -> Scenario {
    let base = [
        ("servers", "10"),
        ("slots", "4"),
        ("balancers", "1"),
        ("load", "0.3"),
        ("queue_timeout_ms", "none"),
        ("health_check_ms", "2000"),
        ("health_check_fall", "3"),
        ("health_check_rise", "2"),
        ("duration_s", "30"),
    ];
    scenario(&[&base[..], extra].concat())
}

/// When server 3 was first seen held out, and when back in, read every
/// `step_s`.
fn out_and_back(scenario: &Scenario, step_s: f64) -> (Option<f64>, Option<f64>) {
    let mut sim = Simulation::new(scenario).unwrap();
    let (mut out, mut back) = (None, None);
    for step in 1..=(scenario.duration_s / step_s) as u64 {
        let t = step as f64 * step_s;
        sim.advance_to(Time::from_ms(t * 1000.0), u64::MAX);
        match (sim.snapshot(0).servers[3].ejected > 0, out) {
            (true, None) => out = Some(t),
            (false, Some(_)) if back.is_none() => back = Some(t),
            _ => {}
        }
    }
    (out, back)
}

#[test]
fn a_crash_is_seen_fall_checks_later_less_the_phase_and_a_recovery_rise_checks_later() {
    let step = 0.01;
    for i in 0..8 {
        // Down at 4 s plus a phase in the 2 s between checks, for 8 s.
        let phase = 0.05 + 0.24 * i as f64;
        let at = 4.0 + phase;
        let failure = format!("{at}s:down:3:for=8s");
        let (out, back) = out_and_back(&checked(&[("failures", &failure)]), step);
        let (out, back) = (out.unwrap(), back.unwrap());
        // The third failing check: 3 × 2 s less the phase.
        let detection = out - at;
        assert!((detection - (3.0 * 2.0 - phase)).abs() <= step + 1e-9, "phase {phase}: {detection}");
        // Up again at `at` + 8 s, the same phase: the second passing check.
        let recovery = back - (at + 8.0);
        assert!((recovery - (2.0 * 2.0 - phase)).abs() <= step + 1e-9, "phase {phase}: {recovery}");
    }
}

#[test]
fn a_check_that_would_wait_past_its_timeout_fails_so_a_slow_server_is_taken_out() {
    // Server 3 slows to a hundredth of its speed at 5 s: its queue grows.
    let slow = [("failures", "5s:slow:3:x=0.01"), ("policy", "random")];
    let (out, _) = out_and_back(&checked(&slow), 0.1);
    assert_eq!(out, None, "without a timeout, a slow server passes every check");
    let timed = [slow[0], slow[1], ("health_check_timeout_ms", "1000")];
    let (out, _) = out_and_back(&checked(&timed), 0.1);
    assert!(out.is_some_and(|t| t > 5.0 && t < 30.0), "{out:?}");
}

/// Finagle's deterministic aperture: 20 clients over 30 servers, each
/// client's arc 8 units of 1/20 (12 servers' worth; half of them start
/// mid-server, so take 13 servers, two in half), P2C by overlap within it.
/// Every server is covered 8/30 of a client's worth, so each gets 1/30 of
/// the requests: within 4 binomial standard errors of it (P2C spreads
/// requests more evenly than independent draws, so this is generous).
#[test]
fn finagles_aperture_gives_every_server_an_equal_share_of_requests() {
    let aperture = scenario(&[
        ("servers", "30"),
        ("clients", "20"),
        ("balancers", "0"),
        ("subset_mode", "aperture"),
        ("policy", "weighted-p2c"),
        ("session_length", "1"),
        ("load", "0.5"),
        ("duration_s", "60"),
    ]);
    let completed = summary_of(&aperture).completed_per_server;
    let total = completed.iter().sum::<u64>() as f64;
    let (share, standard_error) = (total / 30.0, (total * (1.0 / 30.0) * (29.0 / 30.0)).sqrt());
    for (server, &count) in completed.iter().enumerate() {
        assert!(
            (count as f64 - share).abs() < 4.0 * standard_error,
            "server {server}: {count} against {share:.0} ± {standard_error:.0}: {completed:?}"
        );
    }
}
