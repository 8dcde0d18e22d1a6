//! Malformed and out-of-range scenarios: each gives a clear error naming the
//! field, never a panic.

use lbsim::{Scenario, ScenarioError, Simulation};

/// (scenario text, field the error must name, words the message must contain)
const CASES: &[(&str, &str, &str)] = &[
    ("servers = 0", "servers", "whole number from 1 to 10000"),
    ("servers = 20000", "servers", "whole number from 1 to 10000"),
    ("servers = 2.5", "servers", "whole number"),
    ("servers = \"ten\"", "servers", "whole number"),
    ("slots = -1", "slots", "from 1 to 1000"),
    ("load = 0", "load", "from 0.05 to 1.5"),
    ("load = 3.0", "load", "from 0.05 to 1.5"),
    ("load = nan", "load", "number"),
    ("policy = \"best\"", "policy", "one of random, round-robin"),
    ("policy = 2", "policy", "one of"),
    ("demand = \"bursty\"", "demand", "spike, continuous"),
    ("service = \"gamma\"", "service", "constant, exponential, lognormal, pareto"),
    ("queue_timeout_ms = -5", "queue_timeout_ms", "\"none\" or milliseconds"),
    ("queue_timeout_ms = \"never\"", "queue_timeout_ms", "\"none\""),
    ("subset_size = 0", "subset_size", "\"all\" or a whole number"),
    ("subset_size = \"some\"", "subset_size", "\"all\""),
    ("server_speeds = []", "server_speeds", "list of 1 to 100 numbers"),
    ("server_speeds = [1, \"fast\"]", "server_speeds", "list"),
    ("server_speeds = 2", "server_speeds", "list"),
    ("choices = 1", "choices", "from 2 to 10"),
    ("pareto_shape = 1.0", "pareto_shape", "from 1.05"),
    ("seed = -3", "seed", "whole number from 0"),
    ("warmup_s = 100\nduration_s = 50", "warmup_s, duration_s", "must be shorter"),
    ("clients = 100000\nservers = 1000", "clients, balancers, subset_size", "entries"),
    // Keys and placement schemes.
    ("policy = \"hash-ring\"", "policy", "ring, rendezvous, maglev, bounded-load"),
    ("virtual_nodes = 0", "virtual_nodes", "whole number from 1 to 10000"),
    ("key_space = 0", "key_space", "whole number from 1 to 2147483648"),
    ("key_popularity = -1", "key_popularity", "0, or a number from 0.01 to 10"),
    ("key_per = \"user\"", "key_per", "session, request"),
    ("bounded_load_c = 1", "bounded_load_c", "from 1.01 to 10"),
    ("servers = 10000\nvirtual_nodes = 1000", "servers, virtual_nodes", "at most 4000000 are allowed"),
    ("sever = 3", "sever", "did you mean `servers`"),
    ("colour = \"blue\"", "colour", "lbsim fields"),
    ("[servers]\ncount = 3", "servers", "whole number"),
    // A value of the wrong type says so, for every kind of field alike.
    ("load = \"0.5\"", "load", "wrong type: `\"0.5\"` is text (write numbers without quotes)"),
    ("queue_timeout_ms = \"100\"", "queue_timeout_ms", "wrong type: `\"100\"` is text"),
    ("subset_size = \"7\"", "subset_size", "wrong type: `\"7\"` is text"),
    ("servers = 2.5", "servers", "wrong type: `2.5` is a number with a decimal point"),
    ("policy = 2", "policy", "wrong type: `2` is a whole number"),
    ("server_speeds = 2", "server_speeds", "wrong type"),
    ("seed = true", "seed", "wrong type: `true` is true or false"),
    ("load = \"\"", "load", "wrong type: `\"\"` is text"),
    // A board refreshed more often than every microsecond is refused (a
    // period that rounds to zero nanoseconds once hung the simulation).
    ("staleness_ms = 0.0000001", "staleness_ms", "0, or a number from 0.001 to 60000"),
    ("staleness_ms = -1", "staleness_ms", "0, or a number from 0.001"),
    // Rates the nanosecond clock cannot represent.
    (
        "servers = 10000\nslots = 1000\nserver_speeds = [100]\nservice_mean_ms = 0.001\nsession_length = 1",
        "load, servers, slots, server_speeds, service_mean_ms, session_length",
        "at most 1e9 are allowed",
    ),
    ("class_shares = [99, 1]\nclass_costs = [1]", "class_shares, class_costs", "2 shares but 1 costs"),
    ("class_costs = [1, 100]", "class_shares, class_costs", "one share and one cost per request class"),
    ("class_shares = [0.5, 0]\nclass_costs = [1, 2]", "class_shares", "from 0.0001"),
    ("class_shares = []", "class_shares", "a list of 1 to 8 numbers"),
    (
        "class_costs = [1, 2, 3, 4, 5, 6, 7, 8, 9]\nclass_shares = [1, 1, 1, 1, 1, 1, 1, 1, 1]",
        "class_costs",
        "a list of 1 to 8 numbers",
    ),
    ("class_costs = -1", "class_costs", "from 0.001"),
    ("class_shares = \"half\"", "class_shares", "wrong type"),
    ("server_weights = [0]", "server_weights", "from 0.01 to 100"),
    ("server_weights = []", "server_weights", "a list of 1 to 100 numbers"),
    ("server_weights = [1, \"two\"]", "server_weights", "wrong type"),
    ("policy = \"least-work \"", "policy", "least-work"),
    // Priorities: whole numbers, one per class or one for all.
    ("class_priorities = [1, 0]", "class_priorities, class_shares", "2 priorities for 1 request classes"),
    (
        "class_shares = [1, 1]\nclass_costs = [1, 1]\nclass_priorities = [2, 1, 0]",
        "class_priorities, class_shares",
        "one priority per class, or one for all",
    ),
    ("class_priorities = [1.5]", "class_priorities", "something other than whole numbers"),
    ("class_priorities = [-1]", "class_priorities", "whole numbers, each from 0 to 100"),
    ("class_priorities = [101]", "class_priorities", "each from 0 to 100"),
    ("class_priorities = []", "class_priorities", "a list of 1 to 8 whole numbers"),
    ("class_priorities = \"high\"", "class_priorities", "wrong type"),
    // Class pools: one range of servers per class, within the servers.
    ("class_pools = \"0-4,5-9\"", "class_pools, class_shares", "2 pools for 1 request classes"),
    ("class_pools = \"5-3\"", "class_pools", "one range of servers FIRST-LAST per request class"),
    ("class_pools = \"0-12\"", "class_pools, servers", "runs past the last server, 9"),
    ("class_pools = [\"0-4\"]", "class_pools", "wrong type"),
    // Hedging.
    ("hedge_after_ms = 0", "hedge_after_ms", "\"none\" or milliseconds from 0.001 to 600000"),
    ("hedge_after_ms = \"soon\"", "hedge_after_ms", "\"none\" or milliseconds"),
    ("hedge_after_ms = \"40\"", "hedge_after_ms", "wrong type: `\"40\"` is text"),
    ("hedge_percentile = 100", "hedge_percentile", "\"none\" or a percentile from 1 to 99.9"),
    ("hedge_percentile = \"p99\"", "hedge_percentile", "\"none\" or a percentile"),
    ("hedge_cancel = \"always\"", "hedge_cancel", "one of in-service, queued"),
    ("hedge_cancel = true", "hedge_cancel", "wrong type: `true` is true or false"),
    // Drift.
    ("speed_changes = \"3@10:0.25\"", "speed_changes", "entry 1 of `speed_changes`, `3@10:0.25`: the time is a duration from 0s to 86400s, written as a number with its unit: 250ms, 30s or 2m; not `10`"),
    ("speed_changes = \"0@1s:0\"", "speed_changes", "the speed is a number from 0.01 to 100, not `0`"),
    ("speed_changes = \"0@90000s:1\"", "speed_changes", "from 0s to 86400s, written as a number with its unit: 250ms, 30s or 2m; not `90000s`"),
    ("speed_changes = \"0@1441m:1\"", "speed_changes", "from 0s to 86400s, written as a number with its unit: 250ms, 30s or 2m; not `1441m`"),
    ("speed_changes = \"0@1s:1,\"", "speed_changes", "entry 2 of `speed_changes`, an empty value: a comma too many?"),
    ("speed_changes = \"12@1s:0.5\"", "speed_changes, servers", "entry 1 of `speed_changes`, `12@1s:0.5`, names server 12, but the largest is 9"),
    ("speed_changes = [\"0@1s:1\"]", "speed_changes", "wrong type: `[\"0@1s:1\"]` is a list"),
    ("speed_changes = 3", "speed_changes", "wrong type"),
    // Membership changes: well formed, and possible when they come.
    ("membership = \"20s:remove:12\"", "membership, servers", "there is no server 12: servers are numbered 0 to 9"),
    ("membership = \"20s:remove:3, 10s:add, 30s:crash:3\"", "membership, servers", "at 30 s (crash:3) cannot apply: server 3 was removed already"),
    ("membership = \"1s:restore:2\"", "membership, servers", "server 2 is a member already"),
    ("servers = 1\nmembership = \"5s:crash:0\"", "membership, servers", "it is the last member"),
    (
        "servers = 4\nclass_shares = [1, 1]\nclass_costs = [1, 1]\nclass_pools = \"0-1,2-3\"\nmembership = \"1s:remove:2,2s:crash:3\"",
        "membership, servers",
        "class 1's pool, servers 2 to 3, would have none",
    ),
    ("membership = \"-1s:add\"", "membership", "from 0s to 86400s, written as a number with its unit: 250ms, 30s or 2m; not `-1s`"),
    ("membership = \"10:add\"", "membership", "the time is a duration from 0s to 86400s, written as a number with its unit"),
    ("membership = \"10s:grow\"", "membership", "add, remove, crash or restore, not `grow`"),
    ("membership = \"10s:remove\"", "membership", "remove needs a server"),
    ("membership = \"10s:add,\"", "membership", "entry 2 of `membership`, an empty value"),
    ("membership = [\"10s:add\"]", "membership", "wrong type"),
    ("table_lag_ms = -1", "table_lag_ms", "a number from 0 to 600000"),
    // Failures and the reactions to them.
    ("failures = \"10s:down:12\"", "failures, servers", "entry 1 of `failures`, `10s:down:12`, names server 12, but the largest is 9: `failures` names only the 10 starting servers, not those `membership` adds"),
    ("failures = \"10s:sideways:3\"", "failures", "KIND is down, slow, fast-fail, flap or recover, not `sideways`"),
    ("failures = \"10s:slow:3\"", "failures", "slow needs x=FACTOR"),
    ("failures = \"10s:slow:3:x=2\"", "failures", "x, the factor, is a number from 0.001 to 1, not `2`"),
    ("failures = \"10s:fast-fail:3:p=1.5\"", "failures", "p, the share, is a number from 0 to 1, not `1.5`"),
    ("failures = \"10s:flap:3:period=2\"", "failures", "written as a number with its unit: 250ms, 30s or 2m; not `2`"),
    ("failures = \"10s:down:3:x=1\"", "failures", "down takes no option `x`"),
    ("failures = \"10s:recover:3:for=1s\"", "failures", "recover takes no for="),
    ("failures = [\"10s:down:3\"]", "failures", "wrong type"),
    // A schedule's error names the entry at fault and its position.
    ("failures = \"1s:down:1, 2s:down:1, 0s:dwn:4\"", "failures", "entry 3 of `failures`, `0s:dwn:4`: KIND is"),
    ("failures = \"10s:down:3:for=0s\"", "failures", "for is a duration from 0.001ms to 86400s, written as a number with its unit: 250ms, 30s or 2m; not `0s`"),
    ("failures = \"10s:fast-fail:3:p=1:after=0ms\"", "failures", "after is a duration from 0.001ms to 86400s, written as a number with its unit: 250ms, 30s or 2m; not `0ms`"),
    ("membership = \"0.2s:remove:10000\"", "membership, servers", "there is no server 10000"),
    ("retry_backoff_ms = -1", "retry_backoff_ms", "0, or a number from 0.001 to 60000"),
    ("eject_after = 2.5", "eject_after", "whole number"),
    ("eject_for_ms = 0", "eject_for_ms", "a number from 0.001 to 3600000"),
    ("eject_max_fraction = 1.5", "eject_max_fraction", "a number from 0 to 1"),
    ("health_check_ms = 0.5", "health_check_ms", "\"none\" or milliseconds from 1 to 3600000"),
    // The proxies' mechanisms.
    ("eject_max_for_ms = 0", "eject_max_for_ms", "\"none\" or milliseconds from 0.001 to 3600000"),
    ("eject_interval_ms = 0.5", "eject_interval_ms", "\"none\" or milliseconds from 1 to 3600000"),
    ("eject_always_one_host = \"true\"", "eject_always_one_host", "one of no, yes"),
    ("eject_probe = 1", "eject_probe", "one of no, yes"),
    ("eject_growth = \"doubling\"", "eject_growth", "one of linear, exponential, equal-jittered"),
    ("eject_jitter = 1.5", "eject_jitter", "a number from 0 to 1"),
    ("max_fails = -1", "max_fails", "a whole number from 0 to 1000"),
    ("fail_timeout_s = 2.5", "fail_timeout_s", "whole number"),
    ("healthy_panic_threshold = 150", "healthy_panic_threshold", "a number from 0 to 100"),
    ("health_check_fall = 0", "health_check_fall", "a whole number from 1 to 100"),
    ("health_check_rise = 2.5", "health_check_rise", "whole number"),
    ("health_check_timeout_ms = 0", "health_check_timeout_ms", "\"none\" or milliseconds from 0.001 to 3600000"),
    ("slow_start_window_ms = 0", "slow_start_window_ms", "\"none\" or milliseconds from 1 to 3600000"),
    ("slow_start_aggression = 0", "slow_start_aggression", "a number from 0.01 to 100"),
    ("slow_start_min_weight_percent = 101", "slow_start_min_weight_percent", "a number from 0 to 100"),
    ("server_maxconn = -1", "server_maxconn", "a whole number from 0 to 100000"),
    ("server_maxqueue = 1.5", "server_maxqueue", "whole number"),
    ("timeout_queue_ms = 0", "timeout_queue_ms", "\"none\" or milliseconds from 0.001 to 3600000"),
    ("max_requests = 2000000", "max_requests", "a whole number from 0 to 1000000"),
    ("balance_per = \"session\"", "balance_per", "one of request, connection"),
    ("subset_mode = \"rings\"", "subset_mode", "one of random, deterministic, aperture"),
    ("connections_per_client = 0", "connections_per_client", "a whole number from 1 to 1000"),
    ("max_connection_age_ms = 0.5", "max_connection_age_ms", "\"none\" or milliseconds from 1 to 86400000"),
    ("workers_per_balancer = 0", "workers_per_balancer", "a whole number from 1 to 256"),
    (
        "workers_per_balancer = 4",
        "workers_per_balancer, balancers",
        "fields workers_per_balancer, balancers: workers_per_balancer is 4 but balancers is 0: workers are a balancer's; give balancers, or leave workers_per_balancer at 1",
    ),
    // Ejection by rate, and retry budgets as a share of requests.
    ("success_rate_stdev_factor = -1", "success_rate_stdev_factor", "\"none\" or a number from 0 to 100000"),
    ("success_rate_minimum_hosts = 0", "success_rate_minimum_hosts", "a whole number from 1 to 100000"),
    ("failure_percentage_threshold = 101", "failure_percentage_threshold", "\"none\" or a number from 0 to 100"),
    ("failure_percentage_request_volume = 0", "failure_percentage_request_volume", "a whole number from 1 to 1000000000"),
    (
        "success_rate_stdev_factor = 1900",
        "success_rate_stdev_factor, eject_interval_ms",
        "fields success_rate_stdev_factor, eject_interval_ms: success_rate_stdev_factor is 1900 but eject_interval_ms is none: rates are compared at each interval's sweep; give eject_interval_ms (Envoy's interval, 10000 there)",
    ),
    (
        "failure_percentage_threshold = 85",
        "failure_percentage_threshold, eject_interval_ms",
        "failure_percentage_threshold is 85 but eject_interval_ms is none",
    ),
    // FoundationDB's balancers and datacenters.
    ("policy = \"fdb\"", "policy", "fdb-basic, fdb-load-balance"),
    ("datacenters = 0", "datacenters", "whole number from 1 to 8"),
    ("datacenters = 3\nservers = 2", "datacenters, servers", "each datacenter needs a server"),
    ("cross_dc_delay_ms = -1", "cross_dc_delay_ms", "from 0 to 1000"),
    ("dc_order = \"nearest\"", "dc_order", "local-first, any"),
    ("session_length_shape = 1", "session_length_shape", "\"none\" or a number from 1.05 to 10"),
    ("session_length_shape = \"heavy\"", "session_length_shape", "\"none\" or a number"),
    // Whole numbers beyond TOML's 64 bits, which its parser refuses itself.
    ("seed = 18446744073709551615", "seed", "`18446744073709551615` is not allowed; expected a whole number from 0"),
    ("servers = 99999999999999999999999 # many", "servers", "whole number from 1 to 10000"),
    ("load = 0.5\nslots = -99_999_999_999_999_999_999", "slots", "from 1 to 1000"),
];

#[test]
fn each_bad_scenario_names_its_field() {
    assert!(CASES.len() >= 15);
    for (text, field, words) in CASES {
        let error = Scenario::from_toml(text).expect_err(text);
        let message = error.to_string();
        assert_eq!(error.field(), Some(*field), "{text}: {message}");
        assert!(message.contains(words), "{text}: `{message}` lacks `{words}`");
        assert!(message.contains(field.split(',').next().unwrap()), "{text}: {message}");
    }
}

#[test]
fn syntax_errors_give_a_line() {
    match Scenario::from_toml("servers = 3\nload = = 0.5\n") {
        Err(ScenarioError::Syntax { line: Some(2), .. }) => {}
        other => panic!("{other:?}"),
    }
    // An error that starts at the very beginning of its line: the repeated key.
    match Scenario::from_toml("servers = 3\nload = 0.5\n\npolicy = \"random\"\nload = 0.7\n") {
        Err(error @ ScenarioError::Syntax { line: Some(5), .. }) => {
            assert!(error.to_string().contains("(line 5): duplicate key"), "{error}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn empty_names_and_values_are_visible_in_messages() {
    let mut scenario = Scenario::default();
    let empty_key = scenario.set("", "3").unwrap_err().to_string();
    assert_eq!(empty_key, "a field name is empty; `lbsim fields` lists them all");
    let empty_value = scenario.set("load", "").unwrap_err().to_string();
    assert_eq!(
        empty_value,
        "field `load`: an empty value is not allowed; expected a number from 0.05 to 1.5"
    );
    let spaced = scenario.set("policy", " best ").unwrap_err().to_string();
    assert!(spaced.contains("` best `"), "{spaced}");
}

#[test]
fn a_schedule_of_too_many_entries_says_how_many_it_may_hold() {
    let schedule = vec!["10s:down:3"; 101].join(",");
    let message = Scenario::from_toml(&format!("failures = \"{schedule}\"")).unwrap_err().to_string();
    assert!(message.ends_with("expected at most 100 entries, not 101") && message.len() < 300, "{message}");
}

#[test]
fn a_long_value_is_echoed_cut_short() {
    let long = format!("policy = \"{}\"", "x".repeat(100_000));
    let message = Scenario::from_toml(&long).unwrap_err().to_string();
    assert!(
        message.len() < 1000 && message.contains("(100002 characters)"),
        "{}",
        &message[..1000.min(message.len())]
    );
    let key = format!("{} = 1", "k".repeat(100_000));
    assert!(Scenario::from_toml(&key).unwrap_err().to_string().len() < 1000);
}

#[test]
fn a_useful_scenario_is_three_lines() {
    let scenario = Scenario::from_toml("servers = 50\npolicy = \"power-of-d\"\nload = 0.95\n").unwrap();
    assert_eq!((scenario.servers, scenario.load), (50, 0.95));
    assert_eq!(
        Scenario { servers: 50, load: 0.95, policy: scenario.policy, ..Scenario::default() },
        scenario
    );
}

#[test]
fn structural_fields_refuse_live_changes() {
    let mut sim = Simulation::new(&Scenario::default()).unwrap();
    assert_eq!(sim.set("servers", "20"), Err(ScenarioError::NotLive { field: "servers" }));
    assert!(matches!(sim.set("load", "9"), Err(ScenarioError::BadValue { field: "load", .. })));
    assert_eq!(sim.scenario().load, 0.9, "a refused change leaves the scenario as it was");
    assert!(sim.set("policy", "power-of-d").is_ok());
    for field in ["class_priorities", "class_pools", "speed_changes"] {
        assert_eq!(sim.set(field, "0"), Err(ScenarioError::NotLive { field }));
    }
    assert!(matches!(
        sim.set("hedge_after_ms", "0"),
        Err(ScenarioError::BadValue { field: "hedge_after_ms", .. })
    ));
}

/// Hedging switches on, changes how losers stop, moves to a percentile,
/// and switches off, live.
#[test]
fn hedging_changes_live() {
    let mut sim = Simulation::new(&Scenario { load: 0.5, ..Scenario::default() }).unwrap();
    let hedged = |sim: &mut Simulation, seconds: f64| {
        let before = sim.books().copies;
        sim.advance_to(sim.now() + lbsim::Time::from_secs(seconds), u64::MAX);
        assert!(sim.books().balanced(), "{:?}", sim.books());
        sim.books().copies - before
    };
    assert_eq!(hedged(&mut sim, 2.0), 0);
    sim.set("hedge_after_ms", "30").unwrap();
    assert!(hedged(&mut sim, 2.0) > 100);
    sim.set("hedge_cancel", "queued").unwrap();
    assert!(hedged(&mut sim, 2.0) > 100);
    sim.set("hedge_after_ms", "none").unwrap();
    sim.set("hedge_percentile", "80").unwrap();
    assert!(hedged(&mut sim, 2.0) > 100);
    sim.set("hedge_percentile", "none").unwrap();
    sim.advance_to(sim.now() + lbsim::Time::from_secs(1.0), u64::MAX);
    assert_eq!(hedged(&mut sim, 2.0), 0);
}

#[test]
fn scenarios_built_in_code_are_checked_too() {
    let bad = Scenario { servers: 0, ..Scenario::default() };
    assert!(matches!(Simulation::new(&bad), Err(ScenarioError::BadValue { field: "servers", .. })));
    let bad = Scenario { load: f64::INFINITY, ..Scenario::default() };
    assert!(Simulation::new(&bad).is_err());
}

#[test]
fn a_refused_setting_leaves_the_scenario_usable() {
    let mut scenario = Scenario { servers: 1000, ..Scenario::default() };
    let before = scenario.clone();
    assert!(scenario.set("clients", "100000").is_err(), "too many entries for full pools");
    assert_eq!(scenario, before);
    assert!(scenario.set("clients", "500").is_ok());
    assert!(scenario.set_many([("load", "0.5"), ("servers", "0")]).is_err());
    assert_eq!(scenario.load, 0.9, "nothing of a refused batch applies");
}

#[test]
fn live_membership_changes_that_cannot_apply_name_the_field() {
    let mut sim = Simulation::new(&Scenario { servers: 2, ..Scenario::default() }).unwrap();
    for (result, words) in [
        (
            sim.remove_server(7),
            "`remove:7` cannot apply now: there is no server 7: servers are numbered 0 to 1",
        ),
        (sim.restore_server(1), "server 1 is a member already"),
    ] {
        let error = result.unwrap_err();
        assert_eq!(error.field(), Some("membership"), "{error}");
        assert!(error.to_string().contains(words), "{error}");
    }
    sim.crash_server(1).unwrap();
    let error = sim.crash_server(0).unwrap_err();
    assert!(error.to_string().contains("server 0 cannot leave: it is the last member"), "{error}");
}
