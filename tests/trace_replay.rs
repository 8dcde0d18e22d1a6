//! Replaying a trace: each of its requests arrives at its time, brings its
//! service time and key, and a trace of Poisson arrivals with exponential
//! service gives the figures of the scenario that generates the same.

use lbsim::engine::{Arrival, Replay};
use lbsim::metrics::{t_975, Interval};
use lbsim::rng::{Draw, SimRng};
use lbsim::{Scenario, ScenarioError, Simulation, Time};
use std::io::Write;
use std::process::{Command, Stdio};

#[path = "common/command.rs"]
mod command;

use command::{lbsim, TempFile};

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

/// `lbsim ARGS`'s exit code, standard output and standard error.
fn outcome(args: &[&str]) -> (Option<i32>, String, String) {
    let out = lbsim(args);
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// `lbsim ARGS --json`'s summary, the command having succeeded.
fn summary(args: &[&str]) -> serde_json::Value {
    let (code, stdout, stderr) = outcome(&[args, &["--json"]].concat());
    assert_eq!(code, Some(0), "{args:?}: {stderr}");
    serde_json::from_str::<serde_json::Value>(&stdout).unwrap()["summary"].clone()
}

#[test]
fn a_looped_replay_at_the_highest_speed_ends_with_the_time_it_can_count() {
    // Rows ten thousand million seconds apart, looped at a million times:
    // the second pass would start at 2 × 10^19 ns of trace time, past
    // 2^64, so the truth over 18,000 s (1.8 × 10^19 ns) is the two rows.
    // Wrapped, the trace's clock came round and added 57 more.
    let far = TempFile::new("far.csv", b"time_s\n0\n10000000000\n");
    let args = ["run", "default", "--trace", far.path(), "--trace-loop", "--trace-speed", "1000000"];
    let settings = ["--set", "servers=1", "--set", "clients=1", "--duration"];
    let run = summary(&[&args[..], &settings, &["18000"]].concat());
    assert_eq!(run["counts"]["created"], 2, "{}", run["counts"]);
    // Past the time a replay counts, the run is refused, naming the limit.
    let (code, stdout, stderr) = outcome(&[&args[..], &settings, &["19000"]].concat());
    assert_eq!((code, stdout.as_str()), (Some(2), ""));
    assert_eq!(
        stderr,
        "lbsim: --trace-loop at --trace-speed 1000000 over 19000 simulated s plays 1.900e10 s of the trace, more than the 1.845e10 s (584 years) a replay counts: give --duration 18446 or less, or a lower --trace-speed\n"
    );
}

#[test]
fn capacity_searches_only_speeds_the_trace_can_be_played_at() {
    // Thirteen rows a month apart: at speed 1 the year offers the default
    // servers load 12 / 31,536,000 s × 20 ms / 100 slots.
    let mut text = String::from("time_s\n");
    for month in 0..=12 {
        text += &format!("{}\n", month * 2_628_000);
    }
    let year = TempFile::new("year.csv", text.as_bytes());
    let (code, stdout, stderr) = outcome(&["capacity", "default", "--slo", "p99=50", "--trace", year.path()]);
    assert_eq!((code, stdout.as_str()), (Some(2), ""));
    assert_eq!(
        stderr,
        format!("lbsim: {}: at speed 1 it offers load 0.0000000000761, so the loads capacity searches (0.05 to 1) need speeds 657000000 to 13140000000, and --trace-speed takes 0.001 to 1000000: fewer servers or slots raise the load it offers, more lower it\n", year.path())
    );
}

/// `lbsim ARGS` reading `input` from a pipe as its standard input.
fn piped(args: &[&str], input: &[u8]) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_lbsim"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A refusal may close the pipe before it is all written.
    let _ = child.stdin.take().unwrap().write_all(input);
    let out = child.wait_with_output().unwrap();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn a_trace_from_a_pipe_is_refused_where_it_would_be_read_twice() {
    let rows: String = std::iter::once("time_s".to_string())
        .chain((0..2000).map(|i| format!("{}", i as f64 / 100.0)))
        .collect::<Vec<_>>()
        .join("\n");
    let trace = ["--trace", "/dev/stdin", "--duration", "30"];
    for (command, why) in [
        (vec!["compare", "default", "--vs", "seed=1"], "compare reads it once for A and once for B"),
        (vec!["sweep", "default", "--set", "policy=random,random"], "sweep reads it once for each row"),
        (vec!["run", "default", "--trace-loop"], "--trace-loop reads it again for each pass"),
    ] {
        let (code, stdout, stderr) = piped(&[&command[..], &trace].concat(), rows.as_bytes());
        assert_eq!((code, stdout.as_str()), (Some(2), ""), "{command:?}");
        assert_eq!(
            stderr,
            format!("lbsim: --trace /dev/stdin is not a regular file and can be read only once, but {why}: save it to a file first\n")
        );
    }
    // Read once, a pipe replays as a file does.
    let (code, stdout, stderr) =
        piped(&[&["run", "default", "--json"], &trace[..]].concat(), rows.as_bytes());
    assert_eq!(code, Some(0), "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["summary"]["counts"]["created"], 2000);
}

#[test]
fn a_replay_reports_the_traces_class_mix_and_the_load_it_offers() {
    // Every row of class b, whose mean service is ten times a's: the
    // scenario's mean is 20 ms over a mix of half each, so b's is
    // 20 × 10 / 5.5 ms. A row every 10 ms offers 100 / s × 36.36 ms over
    // the default 100 slots.
    let rows: Vec<String> = (0..1000).map(|i| format!("{}.{:02},b", i / 100, i % 100)).collect();
    let trace = TempFile::new("all-b.csv", format!("time_s,class\n{}\n", rows.join("\n")).as_bytes());
    let scenario =
        TempFile::new("two-classes.toml", b"class_shares = [1.0, 1.0]\nclass_costs = [1.0, 10.0]\n");
    let (code, stdout, stderr) =
        outcome(&["trace", trace.path(), scenario.path(), "--trace-classes", "a,b", "--json"]);
    assert_eq!(code, Some(0), "{stderr}");
    let offered =
        serde_json::from_str::<serde_json::Value>(&stdout).unwrap()["offered_load"].as_f64().unwrap();
    let expected = 100.0 * (20.0 * 10.0 / 5.5) / 1000.0 / 100.0;
    assert!((offered - expected).abs() < 1e-9, "{offered}, not {expected}");
    let run = summary(&[
        "run",
        scenario.path(),
        "--trace",
        trace.path(),
        "--trace-classes",
        "a,b",
        "--duration",
        "12",
    ]);
    let shares: Vec<f64> =
        run["classes"].as_array().unwrap().iter().map(|c| c["share"].as_f64().unwrap()).collect();
    assert_eq!(shares, [0.0, 1.0]);
}

#[test]
fn two_presets_compare_on_the_same_replayed_trace() {
    // Envoy's least request against NGINX's round robin, each replaying the
    // diurnal sample at 60 times its speed: both meet the same requests,
    // and B is NGINX's preset with A's seed.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/traces/diurnal.csv");
    let args = ["compare", "envoy-least-request", "--vs-preset", "nginx", "--duration", "10"];
    let args = [&args[..], &["--trace", path, "--trace-speed", "60"]].concat();
    let out = lbsim(&args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.starts_with(&format!("replaying {path} at speed 60: each row one request")), "{stdout}");
    assert!(stdout.contains("B (preset=nginx, policy=weighted-round-robin, retry_budget=9"), "{stdout}");
    let json: serde_json::Value =
        serde_json::from_slice(&lbsim(&[&args[..], &["--json"]].concat()).stdout).unwrap();
    let (a, b) = (&json["a"]["summary"]["counts"], &json["b"]["summary"]["counts"]);
    assert_eq!(a["created"], b["created"], "both replay the same rows");
    assert!(a["created"].as_u64().unwrap() > 25_000, "{a}");
    assert_eq!(json["b"]["scenario"]["policy"], "weighted-round-robin");
    assert_eq!(json["common_random_numbers"], true);
}
