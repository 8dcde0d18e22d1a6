//! Hand-computed cases for the engine's mechanics.

use super::Simulation;
use crate::scenario::Scenario;
use crate::time::Time;

/// One server with one slot, constant 1 s service, no network: three clients
/// arrive at once; one is served, two wait.
pub(super) fn one_slot(pairs: &[(&str, &str)]) -> Simulation {
    let mut scenario = Scenario::default();
    let base = [
        ("servers", "1"),
        ("slots", "1"),
        ("clients", "3"),
        ("demand", "spike"),
        ("session_length", "1"),
        ("service", "constant"),
        ("service_mean_ms", "1000"),
        ("client_delay_ms", "0"),
        ("handshake_round_trips", "0"),
        ("queue_timeout_ms", "100"),
        ("retry_budget", "0"),
    ];
    scenario.set_many(base.iter().chain(pairs).copied()).unwrap();
    Simulation::new(&scenario).unwrap()
}

#[test]
fn queued_requests_bounce_exactly_at_their_timeout() {
    let mut sim = one_slot(&[]);
    sim.advance_to(Time::from_ms(99.999), u64::MAX);
    assert_eq!((sim.books().failed, sim.summary().counts.bounces), (0, 0));
    sim.advance_to(Time::from_ms(100.0), u64::MAX);
    // Both waiting requests time out together; with no retry budget they fail.
    assert_eq!((sim.books().failed, sim.summary().counts.bounces), (2, 2));
    sim.advance_to(Time::from_ms(1000.0), u64::MAX);
    assert_eq!(sim.books().completed, 1);
    assert!(sim.books().balanced());
}

/// The picture marks the server that bounced a request and counts its
/// bounces beside it: each server's count is its own, and together they
/// are the run's.
#[test]
fn each_server_counts_the_requests_its_queue_bounced() {
    let mut sim = one_slot(&[]);
    sim.advance_to(Time::from_ms(100.0), u64::MAX);
    assert_eq!(sim.snapshot(0).servers[0].bounced, 2);
    let mut pair = one_slot(&[("servers", "2"), ("clients", "9")]);
    pair.advance_to(Time::from_ms(100.0), u64::MAX);
    let bounced: Vec<u64> = pair.snapshot(0).servers.iter().map(|s| s.bounced).collect();
    assert_eq!(bounced.iter().sum::<u64>(), pair.summary().counts.bounces);
    assert!(bounced.iter().all(|&n| n > 0), "{bounced:?}");
}

#[test]
fn a_lengthened_timeout_applies_to_requests_already_waiting() {
    let mut sim = one_slot(&[]);
    sim.advance_to(Time::from_ms(50.0), u64::MAX);
    sim.set("queue_timeout_ms", "500").unwrap();
    sim.advance_to(Time::from_ms(499.0), u64::MAX);
    assert_eq!(sim.summary().counts.bounces, 0);
    sim.advance_to(Time::from_ms(500.0), u64::MAX);
    assert_eq!(sim.summary().counts.bounces, 2);
}

#[test]
fn a_shortened_timeout_fires_at_once_for_requests_past_it() {
    let mut sim = one_slot(&[("queue_timeout_ms", "400")]);
    sim.advance_to(Time::from_ms(300.0), u64::MAX);
    sim.set("queue_timeout_ms", "200").unwrap();
    sim.advance_to(Time::from_ms(300.0), u64::MAX);
    assert_eq!(sim.summary().counts.bounces, 2);
}

#[test]
fn no_timeout_means_waiting_for_a_slot() {
    let mut sim = one_slot(&[("queue_timeout_ms", "none")]);
    sim.advance_to(Time::from_ms(3000.0), u64::MAX);
    let summary = sim.summary();
    assert_eq!((summary.counts.bounces, summary.counts.completed), (0, 3));
    // Waits of 0, 1 and 2 seconds.
    assert_eq!((summary.queue_ms.p0, summary.queue_ms.p100), (0.0, 2000.0));
    assert!((summary.queue_ms.mean - 1000.0).abs() < 1e-9);
}

#[test]
fn queue_time_counts_the_trip_back_after_a_timeout() {
    // Two clients, 10 ms from one one-slot server with 150 ms service. Both
    // arrive at 10 ms; A is served until 160 ms. B queues at 10 ms, times out
    // at 110, is back at its client at 120 and at the server at 130, and gets
    // the slot at 160: a queue time of 150 ms, the 20 ms trip included.
    let mut sim = one_slot(&[
        ("clients", "2"),
        ("client_delay_ms", "10"),
        ("service_mean_ms", "150"),
        ("retry_budget", "5"),
    ]);
    sim.advance_to(Time::from_secs(1.0), u64::MAX);
    let summary = sim.summary();
    assert_eq!((summary.counts.completed, summary.counts.bounces), (2, 1));
    assert_eq!((summary.queue_ms.p0, summary.queue_ms.p100), (0.0, 150.0));
    // B's latency: 160 + 150 service + 10 back = 320 ms from its start at 0.
    assert_eq!(summary.latency_ms.p100, 320.0);
}

#[test]
fn the_warmup_ends_exactly_where_it_is_asked_to() {
    // The same run measured from 0 and from 0.1 s: what the second measures
    // is what the first recorded after 0.1 s. (The warm-up once rounded up
    // to the next 250 ms.)
    let run = |warmup: &str| {
        let mut scenario = Scenario::default();
        scenario.set_many([("duration_s", "2"), ("warmup_s", warmup)]).unwrap();
        Simulation::new(&scenario).unwrap()
    };
    let mut whole = run("0");
    whole.advance_to(Time::from_ms(100.0), u64::MAX);
    let (latency_before, queue_before) =
        (whole.metrics().latency.measured().count(), whole.metrics().queue_time.measured().count());
    whole.run();
    let mut measured = run("0.1");
    measured.run();
    let (whole_s, measured_s) = (whole.summary(), measured.summary());
    assert_eq!(measured_s.latency_ms.count, whole_s.latency_ms.count - latency_before);
    assert_eq!(measured_s.queue_ms.count, whole_s.queue_ms.count - queue_before);
    assert!(latency_before > 0 && measured_s.latency_ms.count > 0);
    assert!((measured_s.measured_s - 1.9).abs() < 1e-9, "{}", measured_s.measured_s);
    // Samples are taken every 250 ms counted from the end of the warm-up.
    let first = measured.metrics().series.front().unwrap().time_ms;
    assert_eq!(first, 100.0);
}

/// Each session's arrival time and client, and the service time of each
/// request served, keyed by (session number, requests still to follow).
type RoutingFreeDraws = (Vec<(Time, u32)>, std::collections::HashMap<(u32, u16), Time>);

/// What a run drew that does not depend on routing.
fn routing_free_draws(pairs: &[(&str, &str)]) -> RoutingFreeDraws {
    let mut scenario = Scenario::default();
    scenario.set_many([("duration_s", "2")].iter().chain(pairs).copied()).unwrap();
    let mut sim = Simulation::new(&scenario).unwrap();
    let (mut arrivals, mut demands) = (Vec::new(), std::collections::HashMap::new());
    while sim.step().is_some_and(|t| t < Time::from_secs(2.0)) {
        if sim.metrics.counts.sessions_started > arrivals.len() as u64 {
            let newest = sim.requests.iter().map(|(_, s)| s).max_by_key(|s| s.number).unwrap();
            arrivals.push((sim.now, newest.client));
        }
        for (_, session) in sim.requests.iter() {
            if session.request.stage == super::Stage::InService {
                let key = (session.number, session.remaining);
                demands.entry(key).or_insert(session.request.arrives - session.request.departs);
            }
        }
    }
    (arrivals, demands)
}

#[test]
fn routing_does_not_shift_arrivals_or_service_demands() {
    let (arrivals, demands) = routing_free_draws(&[("policy", "random")]);
    assert!(arrivals.len() > 500 && demands.len() > 5_000, "{} {}", arrivals.len(), demands.len());
    for other in [
        &[("policy", "shortest-queue")][..],
        &[("policy", "p2c-piggyback"), ("subset_size", "3")],
        &[("policy", "power-of-d"), ("choices", "3"), ("staleness_ms", "50")],
        &[("policy", "least-connections"), ("balancers", "3")],
    ] {
        let (other_arrivals, other_demands) = routing_free_draws(other);
        assert_eq!(arrivals, other_arrivals, "{other:?}: arrivals differ");
        let common: Vec<_> = demands.keys().filter(|k| other_demands.contains_key(k)).collect();
        assert!(common.len() > demands.len() * 9 / 10, "{other:?}: {} in common", common.len());
        for key in common {
            assert_eq!(demands[key], other_demands[key], "{other:?}: request {key:?}");
        }
    }
}

#[test]
fn the_after_curve_counts_only_sessions_started_after_the_mark() {
    let mut scenario = Scenario::default();
    scenario.set("policy", "random").unwrap();
    let mut sim = Simulation::new(&scenario).unwrap();
    sim.advance_to(Time::from_secs(5.0), u64::MAX);
    let (before, all_before) =
        (sim.metrics().counts.sessions_completed, sim.metrics().sessions_since_mark.1.count());
    assert_eq!(all_before, before, "without a mark the curve has every session");
    sim.mark_sessions();
    scenario.set("policy", "power-of-d").unwrap();
    sim.set_live_fields(&scenario).unwrap();
    // No session lasts less than ten round trips of 10 ms: in the next
    // 50 ms sessions end, but every one of them began before the mark.
    sim.advance_to(Time::from_secs(5.05), u64::MAX);
    assert!(sim.metrics().counts.sessions_completed > before, "no session ended at all");
    assert_eq!(sim.metrics().sessions_since_mark.1.count(), 0);
    sim.advance_to(Time::from_secs(10.0), u64::MAX);
    let after = sim.metrics().sessions_since_mark.1.count();
    let completed_since = sim.metrics().counts.sessions_completed - before;
    assert!(after > 100 && after < completed_since, "{after} of {completed_since}");
}

/// A continuous run of the essay's scenario with `pairs` set, 2 s long,
/// keeping its last `keep` decisions.
fn deciding(pairs: &[(&str, &str)], keep: usize) -> Simulation {
    let mut scenario = Scenario::default();
    scenario.set_many(pairs.iter().copied()).unwrap();
    let mut sim = Simulation::new(&scenario).unwrap();
    sim.record_decisions(keep);
    sim.advance_to(Time::from_secs(2.0), u64::MAX);
    sim
}

#[test]
fn decisions_name_the_candidates_compared_and_the_lightest_wins() {
    let sim = deciding(&[("policy", "power-of-d"), ("choices", "3"), ("load", "0.9")], 16);
    let decisions = sim.snapshot(0).decisions;
    assert_eq!(decisions.len(), 16);
    for decision in &decisions {
        let mut servers: Vec<u32> = decision.candidates.iter().map(|c| c.server).collect();
        servers.sort_unstable();
        servers.dedup();
        assert_eq!(servers.len(), 3, "{decision:?}");
        let least = decision.candidates.iter().map(|c| c.seen).fold(f64::INFINITY, f64::min);
        let winner =
            decision.candidates.iter().find(|c| c.server == decision.winner).expect("winner is a candidate");
        assert_eq!(winner.seen, least, "{decision:?}");
        // Live load: what the chooser saw is what the servers held.
        assert!(decision.candidates.iter().all(|c| c.seen == f64::from(c.load)), "{decision:?}");
        assert!(!decision.by_balancer && !decision.fell_back);
        assert!(decision.time_ms <= 2000.0);
    }
    assert!(decisions.windows(2).all(|w| w[0].time_ms <= w[1].time_ms));
}

#[test]
fn keeping_decisions_changes_nothing_else() {
    let pairs = [("policy", "p2c-piggyback"), ("balancers", "3")];
    let (kept, not) = (deciding(&pairs, 8), deciding(&pairs, 0));
    assert_eq!(kept.trace_hash(), not.trace_hash());
    let decisions = kept.snapshot(0).decisions;
    assert_eq!(decisions.len(), 8);
    assert!(decisions.iter().all(|d| d.by_balancer && d.chooser < 3 && d.candidates.len() == 2));
    assert!(not.snapshot(0).decisions.is_empty());
}

#[test]
fn policies_that_compare_no_sample_record_no_decision() {
    for policy in ["random", "round-robin", "least-connections", "shortest-queue"] {
        let sim = deciding(&[("policy", policy)], 8);
        assert!(sim.snapshot(0).decisions.is_empty(), "{policy}");
    }
    for policy in ["least-request", "peak-ewma"] {
        let sim = deciding(&[("policy", policy)], 8);
        assert_eq!(sim.snapshot(0).decisions.len(), 8, "{policy}");
    }
}

#[test]
fn a_placed_request_records_its_key_and_where_it_went() {
    let sim = deciding(&[("policy", "ring"), ("virtual_nodes", "10")], 8);
    let decisions = sim.snapshot(0).decisions;
    assert_eq!(decisions.len(), 8);
    for decision in &decisions {
        let key = decision.key.expect("a placed request has a key");
        let home = sim.server_for_key(decision.chooser as usize, key).unwrap();
        assert_eq!(decision.candidates.len(), 1, "the ring takes the key's place, whatever the load");
        assert_eq!((decision.candidates[0].server, decision.winner), (home, home));
    }
    let bounded = deciding(&[("policy", "bounded-load"), ("bounded_load_c", "1.05"), ("load", "0.95")], 64);
    let passed = bounded.snapshot(0).decisions.into_iter().filter(|d| d.candidates.len() == 2).count();
    assert!(passed > 0, "at c = 1.05 some key's place is over the bound");
}

/// One client, one server with 100 slots (room for every request), constant
/// 100 ms service, 50 ms each way and a handshake of 4 round trips (400 ms),
/// with sessions of 3 requests arriving about 17 a second: several start
/// while the one connection's first handshake is under way. The first
/// request (created at t₁) pays the whole handshake; a request created at t
/// pays what is left of it, t₁ + 400 − t, and none once it is over, so its
/// latency is exactly 2 × 50 + 100 + max(0, t₁ + 400 − t) ms.
#[test]
fn requests_wait_for_a_handshake_under_way_and_pay_none_after_it() {
    for idle_timeout in ["none", "60000"] {
        let mut scenario = Scenario::default();
        let pairs = [
            ("servers", "1"),
            ("slots", "100"),
            ("clients", "1"),
            ("session_length", "3"),
            ("service", "constant"),
            ("service_mean_ms", "100"),
            ("client_delay_ms", "50"),
            ("handshake_round_trips", "4"),
            ("idle_timeout_ms", idle_timeout),
            ("load", "0.05"),
            ("duration_s", "3"),
        ];
        scenario.set_many(pairs).unwrap();
        let mut sim = Simulation::new(&scenario).unwrap();
        let mut latencies = Vec::new();
        while let Some((time, event)) = sim.events.pop_until(Time::from_secs(3.0)) {
            if let super::Event::ResponseAtClient { flight } = event {
                let created = sim.in_flight(flight).unwrap().request.created;
                latencies.push((created, time - created));
            }
            sim.process(time, event);
        }
        let first = latencies.iter().map(|&(created, _)| created).min().unwrap();
        let handshake_ends = first + Time::from_ms(400.0);
        for &(created, latency) in &latencies {
            let expected = Time::from_ms(200.0) + handshake_ends.saturating_sub(created);
            assert_eq!(latency, expected, "idle {idle_timeout}: a request created at {created:?}");
        }
        let partly = latencies.iter().filter(|&&(c, _)| c > first && c < handshake_ends).count();
        assert!(partly >= 2, "idle {idle_timeout}: only {partly} requests met the handshake under way");
        assert!(latencies.len() > 50, "idle {idle_timeout}: {} responses", latencies.len());
        let summary = sim.summary();
        assert_eq!((summary.latency_ms.p0, summary.latency_ms.p100), (200.0, 600.0));
    }
}

/// As `one_slot`, with two servers and one client: one request, hedged
/// after 100 ms under `hedge_cancel = in-service`, with `hedge_cancel` set
/// to `queued` live at `switch_ms`. The original ends at 1 s, the copy
/// (started at 100 ms) would at 1.1 s.
fn hedged_once_switching_at(switch_ms: f64) -> Simulation {
    let mut sim = one_slot(&[
        ("servers", "2"),
        ("clients", "1"),
        ("warmup_s", "0"),
        ("hedge_after_ms", "100"),
        ("hedge_cancel", "in-service"),
    ]);
    sim.advance_to(Time::from_ms(switch_ms), u64::MAX);
    sim.set("hedge_cancel", "queued").unwrap();
    sim.advance_to(Time::from_ms(2000.0), u64::MAX);
    sim
}

/// A race's loser in service stops as the rule stood when its copy was
/// made: a live change of `hedge_cancel` applies from the next copy.
#[test]
fn a_live_hedge_cancel_applies_to_copies_made_after_it() {
    let made_before = hedged_once_switching_at(500.0);
    assert_eq!(made_before.race_tally().wasted_ns, Time::from_ms(900.0).0, "cancelled at 1 s");
    let made_after = hedged_once_switching_at(50.0);
    assert_eq!(made_after.race_tally().wasted_ns, Time::from_ms(1000.0).0, "left to finish at 1.1 s");
    for sim in [made_before, made_after] {
        assert_eq!((sim.books().completed, sim.books().copies), (1, 1));
        assert!(sim.books().balanced());
    }
}

/// A followed client's queued request is placed where it waits: at one
/// server with one slot, ten clients arriving at once, nine wait, and
/// the places the clients' queued requests are given are 0 to 8, once
/// each; as the head is served, everyone moves up one.
#[test]
fn each_queued_request_has_its_own_place_in_its_queue() {
    let mut sim = one_slot(&[("clients", "10"), ("queue_timeout_ms", "10000")]);
    let places = |sim: &Simulation| {
        let mut all: Vec<u32> =
            (0..10).flat_map(|client| sim.queue_places(client)).map(|(_, ahead)| ahead).collect();
        all.sort_unstable();
        all
    };
    sim.advance_to(Time::from_ms(1.0), u64::MAX);
    assert_eq!(places(&sim), (0..9).collect::<Vec<_>>());
    let client_of_head = (0..10).find(|&c| sim.queue_places(c) == [(0, 0)]).unwrap();
    let client_of_second = (0..10).find(|&c| sim.queue_places(c) == [(0, 1)]).unwrap();
    sim.advance_to(Time::from_ms(1001.0), u64::MAX);
    assert_eq!(places(&sim), (0..8).collect::<Vec<_>>());
    assert!(sim.queue_places(client_of_head).is_empty(), "the head went into service");
    assert_eq!(sim.queue_places(client_of_second), [(0, 0)], "the second is now first");
}
