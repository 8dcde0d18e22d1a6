//! Every field at the ends of its range, alone and in the worst combinations:
//! each scenario is either refused with a message naming its fields or runs
//! with a clock that moves, balanced books and no panic, within a wall-clock
//! limit. Also: the arrival process keeps its asked rate at the highest rate
//! allowed, and the cap on requests in flight stops a runaway overload.

use lbsim::engine::{Halt, MAX_IN_FLIGHT};
use lbsim::scenario::fields::format_number;
use lbsim::scenario::{FieldKind, MAX_SESSIONS_PER_SEC};
use lbsim::{Scenario, Simulation, Time};
use std::sync::mpsc;
use std::time::Duration;

/// Events one case may process: enough to show the clock moving.
const EVENT_BUDGET: u64 = 400_000;
/// Wall time one case may take before it counts as hung.
const WALL_LIMIT: Duration = Duration::from_secs(60);

/// The values at the ends of a field's range (and its words, if any).
fn extremes(kind: FieldKind) -> Vec<String> {
    let n = |x: f64| format_number(x);
    match kind {
        FieldKind::Count { min, max } => vec![min.to_string(), max.to_string()],
        FieldKind::Number { min, max } => vec![n(min), n(max)],
        FieldKind::ZeroOrNumber { min, max } => vec!["0".into(), n(min), n(max)],
        FieldKind::Choice(names) => names.iter().map(|s| s.to_string()).collect(),
        FieldKind::MillisOrNone { min, max }
        | FieldKind::PercentileOrNone { min, max }
        | FieldKind::NumberOrNone { min, max } => {
            vec!["none".into(), n(min), n(max)]
        }
        FieldKind::CountOrAll { min, max } => vec!["all".into(), min.to_string(), max.to_string()],
        FieldKind::NumberList { min, max, max_len } => vec![
            n(min),
            n(max),
            format!("{},{}", n(min), n(max)),
            vec![n(max); max_len].join(","),
            (0..max_len).map(|i| n(if i % 2 == 0 { min } else { max })).collect::<Vec<_>>().join(","),
        ],
        FieldKind::CountList { min, max, max_len } => vec![
            min.to_string(),
            max.to_string(),
            format!("{min},{max}"),
            (0..max_len)
                .map(|i| if i % 2 == 0 { min } else { max }.to_string())
                .collect::<Vec<_>>()
                .join(","),
        ],
        FieldKind::ServerRanges => vec!["all".into(), "0-0".into(), "0-9999".into(), "0-4,5-9".into()],
        FieldKind::FailureSchedule => vec![
            "none".into(),
            "0s:down:0".into(),
            "86400s:recover:0".into(),
            "0s:slow:0:x=0.001:for=0.001ms".into(),
            "0s:fast-fail:0:p=1:after=0.001ms, 0s:flap:1:period=0.001ms".into(),
            (0..100)
                .map(|i| match i % 4 {
                    0 => format!("{}s:fast-fail:{}:p=1:after=86400s", i % 3, i % 10),
                    1 => format!("{}s:flap:{}:period=0.001ms", i % 3, i % 10),
                    2 => format!("{}s:down:{}:for=0.001ms", i % 3, i % 10),
                    _ => format!("{}s:slow:{}:x=1", i % 3, i % 10),
                })
                .collect::<Vec<_>>()
                .join(","),
        ],
        FieldKind::MembershipSchedule => vec![
            "none".into(),
            "0s:add".into(),
            "86400s:crash:0".into(),
            (0..100)
                .map(|i| {
                    if i % 2 == 0 {
                        format!("{}s:add", i % 3)
                    } else {
                        format!("{}s:crash:{}", i % 3, i / 2)
                    }
                })
                .collect::<Vec<_>>()
                .join(","),
        ],
        FieldKind::SpeedSchedule => vec![
            "none".into(),
            "0@0s:0.01".into(),
            "0@86400s:100".into(),
            (0..100).map(|i| format!("0@{}s:{}", i % 3, [0.01, 100.0][i % 2])).collect::<Vec<_>>().join(","),
        ],
    }
}

/// Runs `scenario` on another thread under the wall-clock limit: up to
/// `EVENT_BUDGET` events towards its duration. The clock must move, the
/// books balance, and nothing panic.
fn runs_or_is_refused(label: &str, pairs: &[(&str, &str)]) {
    let mut scenario = Scenario::default();
    if let Err(error) = scenario.set_many(pairs.iter().copied()) {
        let message = error.to_string();
        assert!(error.field().is_some(), "{label}: refused without naming a field: {message}");
        return;
    }
    let (done, result) = mpsc::channel();
    std::thread::spawn(move || {
        let mut sim = Simulation::new(&scenario).expect("a scenario that parsed builds");
        let end = Time::from_secs(scenario.duration_s);
        let advance = sim.advance_to(end, EVENT_BUDGET);
        let _ = done.send((advance.reached, sim.now(), sim.books(), sim.halted(), sim.summary().events));
    });
    let (reached, now, books, halted, events) = match result.recv_timeout(WALL_LIMIT) {
        Ok(outcome) => outcome,
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{label}: hung for {WALL_LIMIT:?}"),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("{label}: panicked"),
    };
    assert!(books.balanced(), "{label}: {books:?}");
    assert_eq!(halted, None, "{label}");
    assert!(reached || now > Time::ZERO, "{label}: {events} events and the clock never moved");
}

#[test]
fn every_field_at_each_end_of_its_range() {
    for field in lbsim::scenario::FIELDS {
        for value in extremes(field.kind) {
            runs_or_is_refused(&format!("{}={value}", field.key), &[(field.key, &value)]);
        }
    }
}

#[test]
fn the_worst_combinations() {
    let cases: &[&[(&str, &str)]] = &[
        // The most capacity with the shortest service: refused, since sessions
        // would arrive faster than the nanosecond clock can space them.
        &[
            ("servers", "10000"),
            ("slots", "1000"),
            ("server_speeds", "100"),
            ("service_mean_ms", "0.001"),
            ("load", "1.5"),
            ("session_length", "1"),
        ],
        // The highest session rate allowed, with every request bouncing.
        &[
            ("servers", "1000"),
            ("slots", "1000"),
            ("service_mean_ms", "1"),
            ("load", "1"),
            ("session_length", "1"),
            ("queue_timeout_ms", "0.1"),
            ("retry_budget", "1000"),
        ],
        // The shortest board period over the most servers, scanned whole per arrival.
        &[("servers", "10000"), ("policy", "shortest-queue"), ("staleness_ms", "0.001"), ("load", "1.5")],
        &[("servers", "10000"), ("policy", "power-of-d"), ("choices", "10"), ("staleness_ms", "0.001")],
        // Every client at once on one slot, with the longest sessions.
        &[
            ("demand", "spike"),
            ("clients", "100000"),
            ("servers", "1"),
            ("slots", "1"),
            ("session_length", "10000"),
            ("queue_timeout_ms", "0.1"),
        ],
        // As many choosers as allowed, each tracking as many servers as allowed.
        &[("clients", "100000"), ("servers", "40"), ("policy", "p2c-piggyback"), ("idle_timeout_ms", "1")],
        &[("balancers", "1000"), ("servers", "4000"), ("clients", "100000"), ("policy", "least-connections")],
        // No delays, no handshakes, the slowest and the fastest servers mixed.
        &[
            ("client_delay_ms", "0"),
            ("balancer_delay_ms", "0"),
            ("handshake_round_trips", "0"),
            ("server_speeds", "0.01,100"),
            ("service", "pareto"),
            ("pareto_shape", "1.05"),
        ],
        &[
            ("service", "lognormal"),
            ("service_cv", "10"),
            ("service_mean_ms", "0.001"),
            ("load", "1.5"),
            ("queue_timeout_ms", "none"),
        ],
        // The longest delays and timeouts.
        &[
            ("client_delay_ms", "10000"),
            ("balancer_delay_ms", "10000"),
            ("balancers", "1000"),
            ("handshake_round_trips", "20"),
            ("queue_timeout_ms", "600000"),
            ("idle_timeout_ms", "1"),
        ],
        // The shortest run, and the longest warm-up it allows.
        &[("duration_s", "0.001"), ("warmup_s", "0.000999")],
        &[("duration_s", "86400"), ("warmup_s", "86399.999")],
    ];
    for pairs in cases {
        runs_or_is_refused(&format!("{pairs:?}"), pairs);
    }
}

#[test]
fn arrivals_keep_their_rate_at_the_highest_rate_allowed() {
    // A million servers' slots of 1 ms: 1e9 sessions a second, one per
    // nanosecond on average. Rounding each gap to the nearest nanosecond made
    // sessions arrive 4.2% too often here.
    let mut scenario = Scenario::default();
    let pairs = [
        ("servers", "1000"),
        ("slots", "1000"),
        ("service_mean_ms", "1"),
        ("load", "1"),
        ("session_length", "1"),
    ];
    scenario.set_many(pairs).unwrap();
    let rate = scenario.load * scenario.capacity_per_sec();
    assert_eq!(rate, MAX_SESSIONS_PER_SEC);
    let span = Time::from_ms(2.0);
    let mut sim = Simulation::new(&scenario).unwrap();
    sim.advance_to(span, u64::MAX);
    let arrived = sim.summary().counts.sessions_started as f64;
    let expected = rate * span.as_secs();
    // Poisson: the standard error of the count is its square root.
    let se = expected.sqrt();
    println!("{arrived} sessions in {span:?}; expected {expected} ± {se:.0}");
    assert!((arrived - expected).abs() < 4.0 * se, "{arrived} arrivals, expected {expected} ± {se}");
    assert!(sim.books().balanced());
}

#[test]
fn a_runaway_overload_stops_at_the_cap_with_its_books_balanced() {
    // Requests spend ten seconds travelling while sessions start at 1e9 a
    // second: the cap is reached after about 17 ms.
    let mut scenario = Scenario::default();
    let pairs = [
        ("servers", "1000"),
        ("slots", "1000"),
        ("service_mean_ms", "1"),
        ("load", "1"),
        ("session_length", "1"),
        ("client_delay_ms", "10000"),
        ("handshake_round_trips", "0"),
    ];
    scenario.set_many(pairs).unwrap();
    let mut sim = Simulation::new(&scenario).unwrap();
    let advance = sim.advance_to(Time::from_secs(1.0), u64::MAX);
    let Some(halt @ Halt::TooManyInFlight { at }) = sim.halted() else { panic!("no halt") };
    assert!(!advance.reached);
    assert!(at > Time::from_ms(15.0) && at < Time::from_ms(19.0), "{at:?}");
    assert_eq!(sim.books().in_flight, MAX_IN_FLIGHT);
    assert!(sim.books().balanced());
    assert!(halt.to_string().contains("requests in flight"), "{halt}");
    assert_eq!(sim.advance_to(Time::from_secs(2.0), u64::MAX).events, 0, "a halted simulation stays halted");
    assert_eq!(sim.step(), None);
}
