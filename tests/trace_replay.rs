//! Replaying a trace: each of its requests arrives at its time, brings its
//! service time and key, and a trace of Poisson arrivals with exponential
//! service gives the figures of the scenario that generates the same.

use lbsim::engine::{Arrival, Replay};
use lbsim::metrics::{t_975, Interval};
use lbsim::rng::{Draw, SimRng};
use lbsim::{Scenario, ScenarioError, Simulation, Time};

fn scenario(pairs: &[(&str, &str)]) -> Scenario {
    let mut scenario = Scenario::default();
    scenario.set_many([("session_length", "1")].into_iter().chain(pairs.iter().copied())).unwrap();
    scenario
}

fn replay(arrivals: Vec<Arrival>) -> Replay {
    Box::new(arrivals.into_iter())
}

fn arrival(at_ns: u64) -> Arrival {
    Arrival { at: Time(at_ns), key: None, class: None, service: None }
}

/// Steps `sim` through its duration, noting the time at which the count `of` grows.
fn times_of(sim: &mut Simulation, of: impl Fn(&Simulation) -> u64) -> Vec<Time> {
    let end = Time::from_secs(sim.scenario().duration_s);
    let mut times = Vec::new();
    let mut seen = of(sim);
    while let Some(time) = sim.step().filter(|&t| t <= end) {
        let now = of(sim);
        times.extend(std::iter::repeat_n(time, (now - seen) as usize));
        seen = now;
    }
    times
}

#[test]
fn each_row_arrives_at_its_time_to_the_nanosecond() {
    // Uneven gaps down to one nanosecond, two rows at the same instant.
    let at = [1, 2, 2, 999_999_937, 1_000_000_000, 1_250_000_001, 1_999_999_999];
    let mut sim = Simulation::replaying(
        &scenario(&[("duration_s", "3"), ("warmup_s", "0")]),
        replay(at.iter().map(|&ns| arrival(ns)).collect()),
    )
    .unwrap();
    let started = times_of(&mut sim, |s| s.metrics().counts.sessions_started);
    assert_eq!(started, at.map(Time));
    let counts = sim.summary().counts;
    assert_eq!((counts.created, counts.completed), (at.len() as u64, at.len() as u64));
}

#[test]
fn a_request_is_served_for_the_time_the_trace_gives() {
    // One server, nothing else in flight, no network delay: each request
    // completes exactly its service time (at speed 1, or 1/speed) after it arrives.
    let services = [3_217_001, 40_000_000, 1, 123_456_789];
    let rows: Vec<Arrival> = services
        .iter()
        .enumerate()
        .map(|(i, &s)| Arrival { service: Some(Time(s)), ..arrival(i as u64 * 1_000_000_000 + 7) })
        .collect();
    for speed in ["1", "2"] {
        let pairs = [
            ("duration_s", "5"),
            ("warmup_s", "0"),
            ("servers", "1"),
            ("clients", "1"),
            ("client_delay_ms", "0"),
            ("server_speeds", speed),
        ];
        let mut sim = Simulation::replaying(&scenario(&pairs), replay(rows.clone())).unwrap();
        let done = times_of(&mut sim, |s| s.metrics().counts.completed);
        let divisor: u64 = speed.parse().unwrap();
        let expected: Vec<Time> =
            rows.iter().map(|r| Time(r.at.0 + r.service.unwrap().0.div_ceil(divisor))).collect();
        // A request keeps its demand as a single-precision float: exact to
        // the nanosecond up to 2^24 ns (16.7 ms), within one part in 2^24
        // beyond; at speed 2 the service is then rounded to a nanosecond.
        for ((done, expected), row) in done.iter().zip(&expected).zip(&rows) {
            let service = row.service.unwrap().0;
            let allowed = 1 + service / (1 << 24);
            assert!(
                done.0.abs_diff(expected.0) <= allowed,
                "speed {speed}: done at {done:?}, expected {expected:?} (± {allowed} ns)"
            );
        }
        assert_eq!(done.len(), rows.len());
    }
}

#[test]
fn a_trace_key_places_its_request() {
    // Under a ring, every request with the same key goes to the same server.
    let rows: Vec<Arrival> =
        (0..200).map(|i| Arrival { key: Some(0xfeed_beef), ..arrival(1_000 + i * 5_000_000) }).collect();
    let mut sim = Simulation::replaying(
        &scenario(&[("duration_s", "2"), ("warmup_s", "0"), ("policy", "ring")]),
        replay(rows),
    )
    .unwrap();
    sim.run();
    let per_server = sim.summary().completed_per_server;
    assert_eq!(per_server.iter().sum::<u64>(), 200);
    assert_eq!(per_server.iter().filter(|&&n| n > 0).count(), 1, "{per_server:?}");
}

#[test]
fn a_replay_needs_sessions_of_one_request() {
    let mut scenario = Scenario::default();
    scenario.set("session_length", "10").unwrap();
    let refused = Simulation::replaying(&scenario, replay(vec![arrival(1)])).err();
    assert!(
        matches!(&refused, Some(ScenarioError::Combination { fields, .. }) if fields.contains("session_length")),
        "{refused:?}"
    );
}

#[test]
fn a_replayed_class_the_scenario_lacks_stops_the_run_with_a_message() {
    let sim_of = |classes: &[(&str, &str)]| {
        let arrivals =
            (1..=3).map(|i| Arrival { class: Some(i as u8 - 1), ..arrival(i * 1_000_000) }).collect();
        let mut sim = Simulation::replaying(&scenario(classes), replay(arrivals)).unwrap();
        sim.run();
        sim
    };
    let short = sim_of(&[("class_shares", "1,1"), ("class_costs", "1,1")]);
    let halt = short.halted().map(|h| h.to_string()).unwrap_or_default();
    assert!(
        halt.contains("the trace's request there is of class 2, and the scenario has 2 (class_shares)"),
        "{halt}"
    );
    assert_eq!(short.books().created, 2, "the requests before it ran");
    let enough = sim_of(&[("class_shares", "1,1,1"), ("class_costs", "1,1,1")]);
    assert_eq!((enough.halted(), enough.books().created), (None, 3));
}

/// Poisson arrivals at `rate` per second and exponential service of mean
/// `mean_ms`, until `until_s`.
fn poisson_trace(seed: u64, rate: f64, mean_ms: f64, until_s: f64) -> Replay {
    let mut rng = SimRng::new(seed);
    let mut at = 0.0;
    Box::new(std::iter::from_fn(move || {
        at += rng.exponential(1e9 / rate);
        let service = Time(rng.exponential(mean_ms * 1e6).round() as u64);
        (at < until_s * 1e9).then(|| Arrival { service: Some(service), ..arrival(at.round() as u64) })
    }))
}

#[test]
fn a_poisson_trace_gives_the_figures_of_the_scenario_that_generates_it() {
    let pairs = [
        ("duration_s", "400"),
        ("warmup_s", "20"),
        ("service", "exponential"),
        ("load", "0.85"),
        ("policy", "random"),
    ];
    let generated_scenario = scenario(&pairs);
    let mut generated = Simulation::new(&generated_scenario).unwrap();
    generated.run();
    let rate = generated_scenario.load * generated_scenario.capacity_per_sec();
    let trace = poisson_trace(7, rate, generated_scenario.service_mean_ms, 400.0);
    let mut replayed = Simulation::replaying(&generated_scenario, trace).unwrap();
    replayed.run();
    let (a, b) = (generated.summary(), replayed.summary());
    // Batch means give each mean a 95% interval of half-width t·SE, t
    // Student's for the batches less one. The two runs are independent:
    // their difference has SE √(SE_a² + SE_b²); four of those is the tolerance.
    for (name, x, y) in [
        ("queue time", a.confidence.queue_ms.mean, b.confidence.queue_ms.mean),
        ("latency", a.confidence.latency_ms.mean, b.confidence.latency_ms.mean),
        ("throughput", a.confidence.throughput, b.confidence.throughput),
    ] {
        let se = |i: Interval, batches: usize| i.half_width.expect("batches") / t_975(batches - 1);
        let (se_x, se_y) = (se(x, a.confidence.batches), se(y, b.confidence.batches));
        // The runs must be long enough to tell a wrong model: SE under 5% of the figure.
        assert!(se_x < 0.05 * x.estimate && se_y < 0.05 * y.estimate, "{name}: SEs {se_x}, {se_y} too wide");
        let tolerance = 4.0 * (se_x * se_x + se_y * se_y).sqrt();
        assert!(
            (x.estimate - y.estimate).abs() <= tolerance,
            "{name}: generated {:.4}, replayed {:.4}, tolerance {tolerance:.4}",
            x.estimate,
            y.estimate
        );
    }
}
