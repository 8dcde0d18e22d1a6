//! Invariants under random scenarios (with request classes, priorities,
//! class pools, hedging and drift) and random live changes: the books always balance,
//! every request and every hedged copy ends or is in flight, and a seed
//! fixes the whole run.

mod common;
use lbsim::scenario::{Demand, HedgeCancel, KeyPer, PolicyKind, ServiceDistribution, SpeedChange};
use lbsim::{Scenario, Simulation, Time};
use proptest::prelude::*;

fn small_scenario() -> impl Strategy<Value = Scenario> {
    (
        (1u32..12, 1u32..5, 1u32..25, 0u32..4, 1u32..6),
        (0usize..PolicyKind::ALL.len(), 0usize..2, 0usize..4, 2u32..4),
        (0.1f64..1.5, prop::option::of(1.0f64..150.0), 0u32..4, prop::option::of(1u32..12)),
        // Staleness is 0 (live load) or at least 1 µs, as the field allows.
        (
            0.0f64..8.0,
            0.0f64..4.0,
            0u32..3,
            prop::option::of(5.0f64..200.0),
            prop_oneof![Just(0.0), 0.001f64..30.0],
        ),
        (
            0usize..3,
            0u32..3,
            prop::option::of(0.5f64..60.0),
            0usize..2,
            prop::option::of((0.0f64..2.0, 0.05f64..4.0)),
        ),
        any::<u64>(),
    )
        .prop_map(|(sizes, choices, rates, network, extras, seed)| {
            let (servers, slots, clients, balancers, session_length) = sizes;
            let (policy, demand, service, d) = choices;
            let (load, queue_timeout_ms, retry_budget, subset_size) = rates;
            let (client_delay_ms, balancer_delay_ms, handshake_round_trips, idle_timeout_ms, staleness_ms) =
                network;
            // One, two or three request classes, the last the dearest and the first the most urgent.
            let (extra_classes, top_priority, hedge_after_ms, cancel, drift) = extras;
            let classes = 1 + extra_classes;
            let class_shares = (0..classes).map(|c| [8.0, 2.0, 1.0][c]).collect();
            let class_costs = (0..classes).map(|c| [1.0, 4.0, 30.0][c]).collect();
            let class_priorities = (0..classes as u32).map(|c| top_priority.saturating_sub(c)).collect();
            // With two or three classes, at times a pool of servers per class
            // (the first class on all of them, the others on the first half).
            let class_pools = if classes > 1 && top_priority == 2 {
                (0..classes).map(|c| (0, if c == 0 { servers - 1 } else { (servers - 1) / 2 })).collect()
            } else {
                Vec::new()
            };
            Scenario {
                servers,
                slots,
                clients,
                balancers,
                session_length,
                policy: PolicyKind::ALL[policy],
                demand: [Demand::Spike, Demand::Continuous][demand],
                service: ServiceDistribution::ALL[service],
                service_mean_ms: 5.0,
                choices: d,
                load,
                queue_timeout_ms,
                retry_budget,
                subset_size,
                client_delay_ms,
                balancer_delay_ms,
                handshake_round_trips,
                idle_timeout_ms,
                staleness_ms,
                class_shares,
                class_costs,
                class_priorities,
                class_pools,
                hedge_after_ms,
                hedge_cancel: HedgeCancel::ALL[cancel],
                // Server 0 drifts to another speed during the run.
                speed_changes: drift
                    .map(|(at_s, speed)| SpeedChange { server: 0, at_s, speed })
                    .into_iter()
                    .collect(),
                seed: seed >> 11,
                duration_s: 2.0,
                ..Scenario::default()
            }
        })
}

/// A live change: (field, value).
fn live_change() -> impl Strategy<Value = (&'static str, String)> {
    prop_oneof![
        (0usize..PolicyKind::ALL.len()).prop_map(|i| ("policy", PolicyKind::NAMES[i].to_string())),
        (0.05f64..1.5).prop_map(|x| ("load", x.to_string())),
        prop_oneof![Just(0.0), 0.001f64..50.0].prop_map(|x| ("staleness_ms", x.to_string())),
        prop::option::of(1u32..12).prop_map(|s| ("subset_size", s.map_or("all".into(), |s| s.to_string()))),
        prop::option::of(1.0f64..150.0)
            .prop_map(|t| ("queue_timeout_ms", t.map_or("none".into(), |t| t.to_string()))),
        (0u32..4).prop_map(|b| ("retry_budget", b.to_string())),
        (2u32..5).prop_map(|d| ("choices", d.to_string())),
        prop::option::of(0.5f64..60.0)
            .prop_map(|t| ("hedge_after_ms", t.map_or("none".into(), |t| t.to_string()))),
        (0usize..2).prop_map(|i| ("hedge_cancel", HedgeCancel::NAMES[i].to_string())),
        prop::option::of(1.0f64..99.9)
            .prop_map(|p| ("hedge_percentile", p.map_or("none".into(), |p| p.to_string()))),
    ]
}

/// A membership change: 0 adds; 1 to 3 remove, crash or restore a server.
fn membership_change() -> impl Strategy<Value = (u8, u32)> {
    (0u8..4, 0u32..14)
}

fn change_text((kind, server): (u8, u32)) -> String {
    match kind {
        0 => "add".into(),
        1 => format!("remove:{server}"),
        2 => format!("crash:{server}"),
        _ => format!("restore:{server}"),
    }
}

/// The scheduled changes that can apply, in time order, as the scenario's
/// field (a schedule that cannot is refused when parsed, not run).
fn possible_schedule(scenario: &Scenario, changes: &[(u64, (u8, u32))]) -> String {
    let mut ordered = changes.to_vec();
    ordered.sort_by_key(|&(at, _)| at);
    let mut roster = lbsim::scenario::Roster::new(scenario.servers, &scenario.class_pools);
    let possible: Vec<String> = ordered
        .into_iter()
        .filter_map(|(at_ms, change)| {
            let text = format!("{}s:{}", at_ms as f64 / 1000.0, change_text(change));
            let parsed = lbsim::scenario::membership::parse(&text).ok()?;
            roster.apply(parsed[0].change).ok()?;
            Some(text)
        })
        .collect();
    if possible.is_empty() {
        "none".into()
    } else {
        possible.join(",")
    }
}

/// A failure or recovery of one of the first 14 servers (those past the
/// scenario's are dropped), with a duration or none.
fn failure_entry() -> impl Strategy<Value = (u64, u8, u32, Option<u64>)> {
    (1u64..2000, 0u8..5, 0u32..14, prop::option::of(1u64..1500))
}

fn failure_text(scenario: &Scenario, entries: &[(u64, u8, u32, Option<u64>)]) -> String {
    let texts: Vec<String> = entries
        .iter()
        .filter(|e| e.2 < scenario.servers)
        .map(|&(at_ms, kind, server, for_ms)| {
            let (what, options) = match kind {
                0 => ("down", String::new()),
                1 => ("slow", ":x=0.2".into()),
                2 => ("fast-fail", format!(":p={}:after=1ms", (server % 4 + 1) as f64 / 4.0)),
                3 => ("flap", format!(":period={}ms", 20 + server * 17)),
                _ => ("recover", String::new()),
            };
            let lasts = match for_ms {
                Some(ms) if kind < 4 => format!(":for={ms}ms"),
                _ => String::new(),
            };
            format!("{}s:{what}:{server}{options}{lasts}", at_ms as f64 / 1000.0)
        })
        .collect();
    if texts.is_empty() {
        "none".into()
    } else {
        texts.join(",")
    }
}

proptest! {
    // 256 cases each, or PROPTEST_CASES for a longer run.
    #![proptest_config(ProptestConfig::default())]

    /// After every single event, and through live changes at random instants.
    #[test]
    fn books_balance_at_every_instant(
        scenario in small_scenario(),
        changes in prop::collection::vec((1u64..400, live_change()), 0..6),
    ) {
        let mut sim = Simulation::new(&scenario).unwrap();
        for (gap_ms, (key, value)) in changes {
            let until = sim.now() + Time::from_ms(gap_ms as f64);
            while sim.now() < until && sim.step().is_some() {
                prop_assert!(sim.books().balanced(), "{:?}", sim.books());
            }
            sim.set(key, &value).unwrap();
        }
        sim.advance_to(Time::from_secs(2.0), 200_000);
        prop_assert!(sim.books().balanced(), "{:?}", sim.books());
        let snapshot = sim.snapshot(usize::MAX);
        let books = sim.books();
        // Every request a session waits on is drawn, and every copy but those
        // cancelled in service (which wait, unseen, for their place to free).
        prop_assert_eq!(snapshot.requests.len() as u64, snapshot.in_flight);
        let drawn = snapshot.in_flight;
        prop_assert!(books.in_flight <= drawn && drawn <= books.in_flight + books.copies_in_flight);
        let in_service = snapshot.requests.iter().filter(|r| r.hop == lbsim::engine::Hop::InService).count();
        let busy: u32 = snapshot.servers.iter().map(|s| s.busy).sum();
        prop_assert_eq!(in_service as u64, u64::from(busy), "every busy slot holds one drawn request");
        for request in &snapshot.requests {
            prop_assert!((0.0..=1.0).contains(&request.progress));
        }
    }

    /// Servers failing and recovering on a random schedule, and live,
    /// with retries (backoff or none), ejection and health checks on or
    /// off, at times under a FoundationDB balancer in one or two
    /// datacenters: the books balance after every event, and every request ends
    /// exactly once, completed or failed (with an error or past its
    /// budget), never lost.
    #[test]
    fn failures_lose_no_request(
        scenario in small_scenario(),
        entries in prop::collection::vec(failure_entry(), 0..8),
        live in prop::collection::vec((1u64..400, 0u32..14, prop::bool::ANY), 0..4),
        (budget, backoff_ms, eject_after, health_ms) in (0u32..4, prop_oneof![Just(0.0), 0.1f64..20.0], 0u32..4, prop::option::of(5.0f64..300.0)),
        (datacenters, fdb) in (1u32..3, prop::option::of(0usize..2)),
    ) {
        // At times one of FoundationDB's balancers, across datacenters or not.
        let policy = fdb.map_or(scenario.policy, |i| [PolicyKind::FDB_BASIC, PolicyKind::FDB_LOAD_BALANCE][i]);
        let datacenters = datacenters.min(scenario.servers);
        let mut scenario = Scenario { retry_budget: budget, retry_backoff_ms: backoff_ms, eject_after, eject_for_ms: 200.0, health_check_ms: health_ms, policy, datacenters, ..scenario };
        let schedule = failure_text(&scenario, &entries);
        scenario.set("failures", &schedule).unwrap();
        let mut sim = Simulation::new(&scenario).unwrap();
        for (gap_ms, server, fail) in live {
            let until = sim.now() + Time::from_ms(gap_ms as f64);
            while sim.now() < until && sim.step().is_some() {
                prop_assert!(sim.books().balanced(), "{:?}", sim.books());
            }
            let result = if fail {
                sim.fail_server(server as usize, lbsim::scenario::failures::Failure::Down)
            } else {
                sim.recover_server(server as usize)
            };
            if let Err(error) = result {
                prop_assert_eq!(error.field(), Some("failures"));
            }
        }
        while sim.now() < Time::from_secs(2.0) && sim.step().is_some() {
            prop_assert!(sim.books().balanced(), "{:?}", sim.books());
        }
        let books = sim.books();
        let counts = sim.summary().counts;
        prop_assert_eq!(books.created, counts.completed + counts.failed + books.in_flight);
        let snapshot = sim.snapshot(usize::MAX);
        let in_service = snapshot.requests.iter().filter(|r| r.hop == lbsim::engine::Hop::InService).count();
        let busy: u32 = snapshot.servers.iter().map(|s| s.busy).sum();
        prop_assert_eq!(in_service as u64, u64::from(busy));
    }

    /// Servers added, removed, crashed and restored, on the schedule and
    /// live, under any policy (keyed ones included, the table lagging):
    /// the books balance after every event, nothing is lost, and the
    /// snapshot keeps one entry per server index.
    #[test]
    fn membership_changes_lose_no_request(
        scenario in small_scenario(),
        scheduled in prop::collection::vec((1u64..2000, membership_change()), 0..6),
        live in prop::collection::vec((1u64..400, membership_change()), 0..6),
        lag_ms in prop_oneof![Just(0.0), 1.0f64..500.0],
        key_per in 0usize..2,
    ) {
        let mut scenario = Scenario { table_lag_ms: lag_ms, key_per: KeyPer::ALL[key_per], ..scenario };
        let schedule = possible_schedule(&scenario, &scheduled);
        scenario.set("membership", &schedule).unwrap();
        let mut sim = Simulation::new(&scenario).unwrap();
        for (gap_ms, change) in live {
            let until = sim.now() + Time::from_ms(gap_ms as f64);
            while sim.now() < until && sim.step().is_some() {
                prop_assert!(sim.books().balanced(), "{:?}", sim.books());
            }
            let result = match change {
                (0, _) => sim.add_server().map(drop),
                (1, s) => sim.remove_server(s as usize),
                (2, s) => sim.crash_server(s as usize),
                (_, s) => sim.restore_server(s as usize),
            };
            if let Err(error) = result {
                prop_assert_eq!(error.field(), Some("membership"));
            }
        }
        while sim.now() < Time::from_secs(2.0) && sim.step().is_some() {
            prop_assert!(sim.books().balanced(), "{:?}", sim.books());
        }
        let snapshot = sim.snapshot(usize::MAX);
        let changes = sim.membership_changes();
        let added = changes.iter().filter(|c| matches!(c.change, lbsim::scenario::Change::Add)).count();
        prop_assert_eq!(snapshot.servers.len(), scenario.servers as usize + added);
        let in_service = snapshot.requests.iter().filter(|r| r.hop == lbsim::engine::Hop::InService).count();
        let busy: u32 = snapshot.servers.iter().map(|s| s.busy).sum();
        prop_assert_eq!(in_service as u64, u64::from(busy));
        for request in snapshot.requests.iter().filter(|r| r.hop == lbsim::engine::Hop::InService) {
            prop_assert!(snapshot.servers[request.to as usize].state != lbsim::engine::ServerState::Crashed);
        }
        let summary = sim.summary();
        for report in &changes {
            if let (Some(moved), Some(ideal)) = (report.keys_moved, report.keys_ideal) {
                prop_assert!((0.0..=1.0).contains(&moved) && (0.0..=1.0).contains(&ideal), "{:?}", report);
            }
        }
        prop_assert_eq!(summary.membership.len(), changes.len());
    }

    /// A spike ends: every request it created completes or fails.
    #[test]
    fn a_spike_drains_completely(scenario in small_scenario()) {
        let scenario = Scenario { demand: Demand::Spike, ..scenario };
        let mut sim = Simulation::new(&scenario).unwrap();
        sim.advance_to(Time::from_secs(600.0), 2_000_000);
        let books = sim.books();
        prop_assert_eq!(books.in_flight, 0);
        prop_assert_eq!(books.copies_in_flight, 0);
        prop_assert_eq!(books.created, books.completed + books.failed);
        prop_assert_eq!(books.copies, books.discarded);
        // No slot is left taken, nor a request queued, by a copy that lost its race.
        let idle = sim.snapshot(0).servers.iter().all(|s| s.busy == 0 && s.queued == 0);
        prop_assert!(idle, "{:?}", sim.snapshot(0).servers);
        let counts = sim.summary().counts;
        let clients = u64::from(scenario.clients);
        prop_assert_eq!(counts.sessions_started, clients);
        prop_assert_eq!(counts.sessions_completed + counts.sessions_failed, clients);
        // A failure ends its session, so each failed session holds one failed request.
        prop_assert_eq!(counts.failed, counts.sessions_failed);
        if counts.failed == 0 {
            prop_assert_eq!(books.created, clients * u64::from(scenario.session_length));
        }
    }

    /// The same scenario and seed give the same run, event for event.
    #[test]
    fn a_seed_fixes_the_run(scenario in small_scenario()) {
        let run = |s: &Scenario| {
            let mut sim = Simulation::new(s).unwrap();
            sim.run();
            (serde_json::to_string(&sim.summary()).unwrap(), sim.trace_hash())
        };
        let (first, hash) = run(&scenario);
        prop_assert_eq!(run(&scenario), (first, hash));
    }
}

#[test]
fn different_seeds_give_different_runs() {
    let run = |seed: &str| {
        let mut sim = Simulation::new(&common::scenario(&[("seed", seed), ("duration_s", "3")])).unwrap();
        sim.run();
        sim.trace_hash()
    };
    assert_eq!(run("5"), run("5"));
    assert_ne!(run("5"), run("6"));
}
