//! Failures and the reactions to them, measured: the fast-failing black
//! hole under least-connections and peak-EWMA (and not under random), its
//! cure by outlier ejection, and retries amplifying load during an outage
//! unless a budget bounds them. Directions are asserted with tolerances of
//! several standard errors, from seeds run independently or from theory.

mod common;

use common::{over_seeds, scenario, summary_of};
use lbsim::engine::{ServerState, Summary};
use lbsim::scenario::failures::Failure;
use lbsim::{Scenario, Simulation, Time};

const SEEDS: u64 = 5;

/// One balancer before 10 servers, server 0 answering 90% of its requests
/// with an error after 1 ms; sessions of one request, no retries, so every
/// error reaches the caller.
fn black_hole(policy: &str, eject_after: &str, seed: u64) -> Scenario {
    let seed = seed.to_string();
    scenario(&[
        ("servers", "10"),
        ("slots", "4"),
        ("clients", "20"),
        ("balancers", "1"),
        ("session_length", "1"),
        ("load", "0.8"),
        ("policy", policy),
        ("failures", "0s:fast-fail:0:p=0.9:after=1ms"),
        ("retry_budget", "0"),
        ("eject_after", eject_after),
        ("duration_s", "20"),
        ("seed", &seed),
    ])
}

/// The share of attempts that went to server 0 (answered or not).
fn share_of_server_0(summary: &Summary) -> (u64, u64) {
    let at = |s: usize| summary.completed_per_server[s] + summary.errors_per_server[s];
    (at(0), (0..summary.completed_per_server.len()).map(at).sum())
}

#[test]
fn a_fast_failing_server_draws_far_more_than_its_share_under_load_aware_policies_and_not_under_random() {
    // Random: each attempt is server 0's with probability 1/10 exactly.
    let (mut hits, mut total) = (0, 0);
    for seed in 1..=SEEDS {
        let (h, t) = share_of_server_0(&summary_of(&black_hole("random", "0", seed)));
        (hits, total) = (hits + h, total + t);
    }
    let share = hits as f64 / total as f64;
    let error = (0.1 * 0.9 / total as f64).sqrt();
    assert!((share - 0.1).abs() < 4.0 * error, "random: {share:.4} ± {error:.4}");
    // Its errors come back within a millisecond, so the count in flight
    // (and peak-EWMA's timed cost) says it is the least loaded.
    for (policy, at_least) in [("least-connections", 0.2), ("peak-ewma", 0.15)] {
        let (share, error) = over_seeds(SEEDS, |seed| {
            let (h, t) = share_of_server_0(&summary_of(&black_hole(policy, "0", seed)));
            h as f64 / t as f64
        });
        assert!(share - 3.0 * error > at_least, "{policy}: {share:.3} ± {error:.3}");
    }
}

#[test]
fn ejection_restores_availability() {
    for policy in ["least-connections", "peak-ewma"] {
        let (without, error_without) =
            over_seeds(SEEDS, |seed| summary_of(&black_hole(policy, "0", seed)).availability.unwrap());
        let (with, error_with) =
            over_seeds(SEEDS, |seed| summary_of(&black_hole(policy, "3", seed)).availability.unwrap());
        let error = (error_without.powi(2) + error_with.powi(2)).sqrt();
        assert!(with - without - 3.0 * error > 0.1, "{policy}: {without:.4} → {with:.4} ± {error:.4}");
        assert!(with > 0.99, "{policy}: {with:.4}");
    }
}

/// Four servers, three of them down throughout, random picks: each attempt
/// is refused with probability 3/4.
fn outage(retry_budget: u32) -> Scenario {
    let budget = retry_budget.to_string();
    scenario(&[
        ("servers", "4"),
        ("slots", "4"),
        ("clients", "20"),
        ("session_length", "1"),
        ("load", "0.15"),
        ("policy", "random"),
        ("failures", "0s:down:1, 0s:down:2, 0s:down:3"),
        ("retry_budget", &budget),
        ("duration_s", "30"),
    ])
}

/// Mean and standard deviation of the attempts a request makes when each
/// is refused with probability `p` and at most `budget` retries follow.
fn attempts_theory(p: f64, budget: u32) -> (f64, f64) {
    let chance = |k: u32| if k <= budget { p.powi(k as i32 - 1) * (1.0 - p) } else { p.powi(budget as i32) };
    let (mut mean, mut square) = (0.0, 0.0);
    for k in 1..=budget + 1 {
        mean += k as f64 * chance(k);
        square += (k * k) as f64 * chance(k);
    }
    (mean, (square - mean * mean).sqrt())
}

#[test]
fn retries_without_a_budget_amplify_load_during_an_outage_and_a_budget_bounds_it() {
    let mut amplification = Vec::new();
    for budget in [1000, 2] {
        let summary = summary_of(&outage(budget));
        let ended = summary.counts.completed + summary.counts.failed;
        let (mean, sd) = attempts_theory(0.75, budget);
        let error = sd / (ended as f64).sqrt();
        let measured = summary.attempts_per_request.unwrap();
        assert!(
            (measured - mean).abs() < 4.0 * error,
            "budget {budget}: {measured:.3}, theory {mean:.3} ± {error:.3}"
        );
        let availability = 1.0 - 0.75f64.powi(budget as i32 + 1);
        let error = (availability * (1.0 - availability) / ended as f64).sqrt().max(1e-9);
        assert!((summary.availability.unwrap() - availability).abs() < 4.0 * error + 1e-3, "budget {budget}");
        amplification.push(measured);
    }
    assert!(amplification[0] > 1.5 * amplification[1], "{amplification:?}");
}

#[test]
fn backoffs_wait_below_a_doubling_ceiling_with_full_jitter() {
    // Budget 2, first backoff 10 ms, 5 ms each way: a request that fails
    // made three attempts of 10 ms each and waited U(0, 10) + U(0, 20) ms.
    let mut scenario = outage(2);
    scenario
        .set_many([("retry_backoff_ms", "10"), ("client_delay_ms", "5"), ("handshake_round_trips", "0")])
        .unwrap();
    let failed = summary_of(&scenario).failure_latency_ms;
    let sd = ((100.0 + 400.0) / 12.0f64).sqrt();
    let error = sd / (failed.count as f64).sqrt();
    // The histogram reports values to within 0.4%; 1% leaves room.
    assert!(failed.p0 >= 30.0 * 0.99 && failed.p100 < 60.0 * 1.01, "{failed:?}");
    assert!((failed.mean - 45.0).abs() < 4.0 * error + 0.45, "{failed:?} ± {error:.3}");
    // With nothing to retry, a backoff draws nothing: the run is the same.
    let calm = |backoff: &str| {
        let mut calm = common::scenario(&[("duration_s", "3"), ("queue_timeout_ms", "none")]);
        calm.set("retry_backoff_ms", backoff).unwrap();
        summary_of(&calm).trace_hash
    };
    assert_eq!(calm("0"), calm("25"));
}

#[test]
fn runs_without_failures_are_the_runs_they_were() {
    // Trace hashes of the presets over 5 simulated s, as before failures
    // existed but for requests that now wait for a handshake under way.
    for (toml, hash) in [
        (include_str!("../scenarios/benchmark.toml"), "89b55d7656980b36"),
        (include_str!("../scenarios/balancers-3.toml"), "fdcdb8548d90394e"),
        (include_str!("../scenarios/subsets.toml"), "523a3e62fd6819fb"),
        (include_str!("../scenarios/p2c-stale.toml"), "07300e579ec247a7"),
    ] {
        let mut scenario = Scenario::from_toml(toml).unwrap();
        scenario.set("duration_s", "5").unwrap();
        assert_eq!(summary_of(&scenario).trace_hash, hash);
    }
}

#[test]
fn a_failure_made_live_equals_the_same_failure_scheduled() {
    let mut scenario =
        scenario(&[("duration_s", "4"), ("policy", "least-connections"), ("retry_budget", "3")]);
    let mut live = Simulation::new(&scenario).unwrap();
    live.advance_to(Time::from_ms(1000.0001), u64::MAX);
    live.fail_server(3, Failure::FastFail { share: 0.5, after_ms: 1.0 }).unwrap();
    assert_eq!(live.snapshot(0).servers[3].state, ServerState::Failing);
    live.advance_to(Time::from_ms(2000.0001), u64::MAX);
    live.recover_server(3).unwrap();
    assert_eq!(live.snapshot(0).servers[3].state, ServerState::Active);
    live.run();
    scenario.set("failures", "1.0000000001s:fast-fail:3:p=0.5:after=1ms:for=1s").unwrap();
    let mut scheduled = Simulation::new(&scenario).unwrap();
    scheduled.run();
    let (a, b) = (live.summary(), scheduled.summary());
    assert_eq!((a.counts, a.errors_per_server.clone()), (b.counts, b.errors_per_server.clone()));
    assert!(a.counts.server_errors > 0 && a.counts.retried > 0);
    assert!(live.fail_server(10, Failure::Down).is_err_and(|e| e.field() == Some("failures")));
}

#[test]
fn a_failure_made_live_joins_the_schedule_and_the_scenario_replays_it_event_for_event() {
    let scenario = scenario(&[
        ("duration_s", "3"),
        ("policy", "least-connections"),
        ("eject_after", "3"),
        ("health_check_ms", "500"),
        ("staleness_ms", "1"),
    ]);
    let mut live = Simulation::new(&scenario).unwrap();
    let failing = Failure::FastFail { share: 0.9, after_ms: 1.0 };
    // At 250 ms the first sample, scheduled when the simulation was built,
    // is due: it would come first in the replay, so the failure waits a
    // millisecond. At 1000 ms a health check and the board's refresh,
    // scheduled as the run went, are due: the failure comes before them.
    live.advance_to(Time::from_ms(249.5), u64::MAX);
    assert_eq!(live.fail_server_live(3, failing), Ok(Time::from_ms(251.0)));
    assert_eq!(live.now(), Time::from_ms(251.0));
    assert_eq!(live.snapshot(0).servers[3].state, ServerState::Failing);
    live.advance_to(Time::from_ms(999.25), u64::MAX);
    assert_eq!(live.fail_server_live(5, Failure::Down), Ok(Time::from_ms(1000.0)));
    live.advance_to(Time::from_ms(2000.0), u64::MAX);
    assert_eq!(live.recover_server_live(3), Ok(Time::from_ms(2001.0)));
    let recorded = live.scenario().clone();
    let text = lbsim::scenario::fields::find("failures").unwrap().text(&recorded);
    assert_eq!(text, "0.251s:fast-fail:3:p=0.9:after=1ms,1s:down:5,2.001s:recover:3");
    let mut again = scenario.clone();
    again.set("failures", &text).unwrap();
    assert_eq!(again, recorded, "the schedule's text reads back as the schedule");
    live.run();
    let mut replayed = Simulation::new(&again).unwrap();
    replayed.run();
    assert_eq!(live.trace_hash(), replayed.trace_hash());
    let (a, b) = (live.summary(), replayed.summary());
    assert_eq!((a.counts, &a.errors_per_server), (b.counts, &b.errors_per_server));
    assert!(a.counts.server_errors > 0 && a.counts.refused > 0 && a.counts.outliers.ejections > 0);
    // Only the starting servers can be named by the schedule.
    let refused = live.fail_server_live(10, Failure::Down).unwrap_err();
    assert_eq!(refused.field(), Some("failures"));
    assert!(refused.to_string().contains("0 to 9"), "{refused}");
}

#[test]
fn slow_servers_slow_and_recover_and_flapping_servers_turn() {
    let scenario = scenario(&[
        ("duration_s", "3"),
        ("failures", "0.5s:slow:1:x=0.25:for=1s, 0.5s:flap:2:period=100ms, 2s:recover:2"),
    ]);
    let mut sim = Simulation::new(&scenario).unwrap();
    let view = |sim: &mut Simulation, ms: f64| {
        sim.advance_to(Time::from_ms(ms), u64::MAX);
        sim.snapshot(0).servers
    };
    let at = view(&mut sim, 600.0);
    assert_eq!((at[1].state, at[1].speed, at[2].state), (ServerState::Slow, 0.25, ServerState::Flapping));
    let at = view(&mut sim, 1600.0);
    assert_eq!((at[1].state, at[1].speed), (ServerState::Active, 1.0));
    sim.run();
    let summary = sim.summary();
    // Down half of 1.5 s: refused, and retried (the default budget is 10).
    assert!(summary.counts.refused > 0 && summary.counts.failed == 0, "{:?}", summary.counts);
    assert_eq!(sim.snapshot(0).servers[2].state, ServerState::Active);
}

#[test]
fn health_checks_take_a_down_server_out_of_every_pool_until_it_is_up() {
    let scenario = scenario(&[
        ("duration_s", "4"),
        ("balancers", "2"),
        ("policy", "least-connections"),
        ("failures", "1s:down:4:for=2s"),
        ("health_check_ms", "100"),
    ]);
    let mut sim = Simulation::new(&scenario).unwrap();
    sim.advance_to(Time::from_ms(1500.0), u64::MAX);
    assert_eq!(sim.snapshot(0).servers[4].ejected, 2);
    let refused_then = sim.summary().counts.refused;
    sim.advance_to(Time::from_ms(2900.0), u64::MAX);
    assert_eq!(sim.summary().counts.refused, refused_then, "no request reaches it while it is out");
    sim.advance_to(Time::from_ms(3200.0), u64::MAX);
    assert_eq!(sim.snapshot(0).servers[4].ejected, 0);
}
