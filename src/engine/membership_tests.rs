//! Hand-computed cases for membership changes: a drain, a crash, refusals.

use super::tests::one_slot;
use super::{ServerState, Simulation};
use crate::scenario::{Scenario, ScenarioError};
use crate::time::Time;

/// One server with one slot, constant 1 s service, no network and no queue
/// timeout: three clients arrive at once; one is served, two wait.
fn one_busy_server(pairs: &[(&str, &str)]) -> Simulation {
    one_slot(&[&[("queue_timeout_ms", "none")], pairs].concat())
}

fn states(sim: &Simulation) -> Vec<ServerState> {
    sim.snapshot(0).servers.iter().map(|s| s.state).collect()
}

#[test]
fn a_removed_server_finishes_what_it_holds_and_takes_nothing_new() {
    let mut sim = one_busy_server(&[]);
    sim.advance_to(Time::from_ms(500.0), u64::MAX);
    assert_eq!(sim.add_server(), Ok(1));
    sim.remove_server(0).unwrap();
    assert_eq!(states(&sim), [ServerState::Draining, ServerState::Active]);
    // Server 0 serves its three in turn, at 1, 2 and 3 s; server 1 gets none.
    sim.advance_to(Time::from_ms(2999.0), u64::MAX);
    assert_eq!(sim.books().completed, 2);
    sim.advance_to(Time::from_secs(3.0), u64::MAX);
    let summary = sim.summary();
    assert_eq!((summary.counts.completed, summary.completed_per_server.clone()), (3, vec![3, 0]));
    assert_eq!(states(&sim), [ServerState::Removed, ServerState::Active]);
    assert_eq!(summary.counts.crash_replaced, 0);
    assert!(sim.books().balanced());
}

#[test]
fn a_crashed_servers_requests_are_placed_again_and_none_is_lost() {
    let mut sim = one_busy_server(&[]);
    sim.advance_to(Time::from_ms(500.0), u64::MAX);
    sim.add_server().unwrap();
    sim.crash_server(0).unwrap();
    assert_eq!(states(&sim), [ServerState::Crashed, ServerState::Active]);
    let crashed = sim.snapshot(0).servers[0];
    assert_eq!((crashed.busy, crashed.queued, crashed.slots), (0, 0, 0));
    // A live change applies at the next whole millisecond: the server joins
    // at 0.501 s and server 0 crashes at 0.502 s. All three requests go to
    // server 1 then, with no delay: served from 0.502 to 1.502, 2.502 and
    // 3.502 s. The first one's completion at 1 s on server 0 is void.
    sim.advance_to(Time::from_ms(1501.0), u64::MAX);
    assert_eq!(sim.books().completed, 0);
    sim.advance_to(Time::from_ms(3502.0), u64::MAX);
    let summary = sim.summary();
    assert_eq!((summary.counts.completed, summary.completed_per_server.clone()), (3, vec![0, 3]));
    assert_eq!((summary.counts.crash_replaced, summary.counts.bounces, summary.counts.failed), (3, 0, 0));
    assert!(sim.books().balanced());
    let report = &summary.membership[1];
    assert_eq!(
        (report.server, report.members_before, report.members_after, report.crash_replaced),
        (0, 2, 1, 3)
    );
    // Restored, it is empty and takes requests again.
    sim.restore_server(0).unwrap();
    assert_eq!(states(&sim), [ServerState::Active, ServerState::Active]);
    assert_eq!(sim.snapshot(0).servers[0].slots, 1);
}

#[test]
fn changes_that_cannot_apply_are_refused_naming_the_field() {
    let mut sim = one_busy_server(&[("servers", "2")]);
    let refused = |result: Result<(), ScenarioError>, words: &str| {
        let error = result.unwrap_err();
        assert_eq!(error.field(), Some("membership"));
        assert!(error.to_string().contains(words), "{error}");
    };
    refused(sim.remove_server(5), "there is no server 5: servers are numbered 0 to 1");
    sim.crash_server(1).unwrap();
    refused(sim.crash_server(1), "server 1 has crashed already");
    refused(sim.remove_server(0), "server 0 cannot leave: it is the last member");
    refused(sim.restore_server(0), "server 0 is a member already");
    assert_eq!(sim.membership_changes().len(), 1);
}

#[test]
fn a_schedule_far_beyond_the_run_changes_nothing() {
    let run = |membership: &str| {
        let mut scenario = Scenario::default();
        scenario.set_many([("duration_s", "3"), ("membership", membership)]).unwrap();
        let mut sim = Simulation::new(&scenario).unwrap();
        sim.run();
        sim.trace_hash()
    };
    assert_eq!(run("none"), run("1000s:add,2000s:remove:3"));
}

#[test]
fn a_change_made_live_equals_the_same_change_scheduled() {
    let pairs = [("duration_s", "4"), ("policy", "least-connections"), ("balancers", "2")];
    let mut scenario = Scenario::default();
    scenario.set_many(pairs).unwrap();
    let mut live = Simulation::new(&scenario).unwrap();
    live.advance_to(Time::from_ms(1000.0001), u64::MAX);
    live.crash_server(3).unwrap();
    assert_eq!(live.now(), Time::from_ms(1001.0), "a live change applies at the next whole millisecond");
    live.run();
    scenario.set("membership", "1.001s:crash:3").unwrap();
    let mut scheduled = Simulation::new(&scenario).unwrap();
    scheduled.run();
    assert_eq!(live.trace_hash(), scheduled.trace_hash());
    let (a, b) = (live.summary(), scheduled.summary());
    assert_eq!((a.counts, a.completed_per_server.clone()), (b.counts, b.completed_per_server.clone()));
    assert!(a.counts.crash_replaced > 0);
}

#[test]
fn a_change_made_live_joins_the_schedule_so_the_scenario_runs_the_same_again() {
    let mut scenario = Scenario::default();
    scenario.set_many([("duration_s", "3"), ("policy", "ring")]).unwrap();
    let mut live = Simulation::new(&scenario).unwrap();
    live.advance_to(Time::from_ms(700.0), u64::MAX);
    live.crash_server(2).unwrap();
    live.advance_to(Time::from_ms(1500.0), u64::MAX);
    assert_eq!(live.add_server().unwrap(), 10);
    let recorded = live.scenario().clone();
    assert_eq!(scenario_text(&recorded), "0.701s:crash:2,1.501s:add");
    live.run();
    let mut again = Simulation::new(&recorded).unwrap();
    again.run();
    // A live change is processed as the event its schedule's entry is in
    // the replay, at the same instant and before the same others.
    assert_eq!(live.trace_hash(), again.trace_hash());
    let (a, b) = (live.summary(), again.summary());
    assert_eq!((a.counts, &a.completed_per_server), (b.counts, &b.completed_per_server));
    assert_eq!((a.queue_ms.p99, a.latency_ms.mean), (b.queue_ms.p99, b.latency_ms.mean));
    assert!(a.counts.crash_replaced > 0);
}

fn scenario_text(scenario: &Scenario) -> String {
    crate::scenario::fields::find("membership").unwrap().text(scenario)
}

#[test]
fn the_keys_a_join_moves_all_arrive_at_the_new_server() {
    let mut scenario = Scenario::default();
    scenario.set_many([("duration_s", "2"), ("policy", "ring"), ("membership", "1s:add")]).unwrap();
    let mut sim = Simulation::new(&scenario).unwrap();
    sim.run();
    let moves = sim.key_moves().expect("a ring counts the keys it moves");
    let (left, arrived): (u32, u32) = (moves.left.iter().sum(), moves.arrived.iter().sum());
    assert_eq!(left, arrived);
    assert_eq!(moves.arrived[10], arrived, "every moved key went to the new server");
    let moved = sim.membership_changes()[0].keys_moved.unwrap();
    assert!((f64::from(left) / 10_000.0 - moved).abs() < 1e-12, "{left} keys of 10,000 against {moved}");
    assert_eq!(moves.at_ms, 1000.0);
}
