//! Which scenario fields each policy reads, as its descriptor declares
//! them (`PolicyKind::reads`, which the lab's controls read to say a
//! setting has no effect): a policy run with a field it does not declare
//! changed ends with the same summary (every figure `--json` prints, the
//! requests each server completed among them); and the run below
//! exercises every declared field, so that the first check could fail.
//! All but the count of events and their hash: a load board refreshes on
//! its period whoever reads it, which adds events but changes no pick.

mod common;

use common::scenario_file;
use lbsim::scenario::PolicyKind;
use lbsim::{Scenario, Simulation};

/// Each field some policy declares, a value other than the run's, and the
/// settings it acts beside, given to the run with the change and to the
/// run without: a success rate's volume, say, counts only where success
/// rates are compared.
const CHANGES: &[(&str, &str, Settings)] = &[
    ("choices", "3", &[]),
    ("staleness_ms", "50", &[]),
    ("table_lag_ms", "200", &[]),
    ("eject_after", "2", &[]),
    ("eject_for_ms", "300", &[]),
    ("eject_max_fraction", "0.01", &[]),
    ("eject_max_for_ms", "1500", &[]),
    ("eject_growth", "equal-jittered", &[]),
    ("eject_jitter", "1", &[]),
    ("eject_interval_ms", "500", &[]),
    ("eject_always_one_host", "yes", &[("eject_max_fraction", "0.05")]),
    ("eject_probe", "yes", &[]),
    ("success_rate_stdev_factor", "500", RATES),
    ("success_rate_minimum_hosts", "11", SUCCESS_RATES),
    ("success_rate_request_volume", "1000", SUCCESS_RATES),
    ("failure_percentage_threshold", "50", RATES),
    ("failure_percentage_minimum_hosts", "11", FAILURE_PERCENTAGES),
    ("failure_percentage_request_volume", "1000", FAILURE_PERCENTAGES),
    ("health_check_ms", "100", &[]),
    ("health_check_fall", "3", &[]),
    ("health_check_rise", "3", &[]),
    ("health_check_timeout_ms", "5", &[]),
    ("healthy_panic_threshold", "95", &[]),
    ("retry_budget", "0", &[]),
    ("retry_backoff_ms", "40", &[]),
    ("key_space", "40", &[]),
    ("key_popularity", "0", &[]),
    ("key_per", "request", &[]),
    ("virtual_nodes", "3", &[]),
    ("bounded_load_c", "1.05", &[]),
    ("dc_order", "any", &[]),
    ("max_fails", "3", &[]),
    ("fail_timeout_s", "0", &[]),
    ("slow_start_window_ms", "500", &[]),
    ("slow_start_aggression", "4", &[]),
    ("slow_start_min_weight_percent", "90", &[]),
];

/// Settings as `(key, value)` pairs.
type Settings = &'static [(&'static str, &'static str)];

/// Sweeps, at which ejection by success rate or by failure percentage
/// compares what each server answered, counting a server with ten answers
/// in an interval; and no ejection by errors in a row, which would take
/// the failing servers out first.
const RATES: Settings = &[
    ("eject_interval_ms", "250"),
    ("eject_after", "0"),
    ("success_rate_request_volume", "10"),
    ("failure_percentage_request_volume", "10"),
];

/// The same, ejecting by success rate (half a standard deviation below
/// the mean).
const SUCCESS_RATES: Settings = &[
    ("eject_interval_ms", "250"),
    ("eject_after", "0"),
    ("success_rate_request_volume", "10"),
    ("success_rate_stdev_factor", "500"),
];

/// The same, ejecting by failure percentage (half its answers errors).
const FAILURE_PERCENTAGES: Settings = &[
    ("eject_interval_ms", "250"),
    ("eject_after", "0"),
    ("failure_percentage_request_volume", "10"),
    ("failure_percentage_threshold", "50"),
];

/// Failures that err, go down and flap (ejection, health checks, retries),
/// two datacenters, two balancers, keys, and a server added (a table's
/// copies have a change to follow, slow start a server to ramp), under
/// `policy` with the settings `beside`.
fn run(policy: PolicyKind, beside: Settings, change: Option<(&str, &str)>) -> serde_json::Value {
    let mut scenario: Scenario = scenario_file(
        "failures.toml",
        &[
            ("servers", "10"),
            ("failures", "0.5s:fast-fail:3:p=0.9:after=1ms, 1s:down:7:for=1s, 1.5s:flap:1:period=200ms"),
            ("membership", "1s:add"),
            ("datacenters", "2"),
            ("cross_dc_delay_ms", "5"),
            ("balancers", "2"),
            ("key_space", "1000"),
            ("key_popularity", "1"),
            ("virtual_nodes", "20"),
            ("bounded_load_c", "1.25"),
            ("slow_start_window_ms", "1500"),
            // Ejections short enough to end within the run, so that a
            // probe of a returning server could tell.
            ("eject_for_ms", "1000"),
            // Room for a second ejection to grow, and for jitter to
            // lengthen one.
            ("eject_max_for_ms", "2000"),
            // Checks often enough for a server down a second to come back
            // within the run, so a longer rise could tell.
            ("health_check_ms", "250"),
            // NGINX's fails counted under its round robin, so that a
            // change of its window could tell.
            ("max_fails", "1"),
            ("duration_s", "3"),
            ("warmup_s", "0"),
        ],
    );
    scenario.policy = policy;
    for &(key, value) in beside.iter().chain(&change) {
        scenario.set(key, value).unwrap_or_else(|e| panic!("{e}"));
    }
    let mut sim = Simulation::new(&scenario).unwrap_or_else(|e| panic!("{policy:?} {change:?}: {e}"));
    sim.run();
    let mut summary = serde_json::to_value(sim.summary()).unwrap();
    let figures = summary.as_object_mut().unwrap();
    figures.remove("events").and(figures.remove("trace_hash")).expect("events and trace_hash");
    summary
}

#[test]
fn every_declared_field_has_a_change_to_try() {
    for policy in PolicyKind::ALL {
        for field in policy.fields_read() {
            assert!(
                CHANGES.iter().any(|(key, ..)| *key == field),
                "{policy:?} declares {field}: add a change"
            );
        }
    }
    for (key, ..) in CHANGES {
        assert!(
            PolicyKind::ALL.iter().any(|p| p.fields_read().any(|f| f == *key)),
            "no policy declares {key}"
        );
    }
}

#[test]
fn a_policy_runs_the_same_whatever_the_fields_it_does_not_declare() {
    for &policy in PolicyKind::ALL {
        for &(key, value, beside) in CHANGES.iter().filter(|(key, ..)| !policy.reads(key)) {
            assert!(
                run(policy, beside, Some((key, value))) == run(policy, beside, None),
                "{policy:?} reads {key}, which it does not declare"
            );
        }
    }
}

#[test]
fn every_declared_field_changes_the_run_of_a_policy_that_declares_it() {
    for &(key, value, beside) in CHANGES {
        let changes =
            |policy: &&PolicyKind| run(**policy, beside, Some((key, value))) != run(**policy, beside, None);
        assert!(
            PolicyKind::ALL.iter().filter(|p| p.reads(key)).any(|p| changes(&p)),
            "{key}={value} changes no run: the check above could not catch a policy reading it"
        );
    }
}
