//! `loadBalance`'s flowcharts, path by path, each test named for its path.

use super::queue_model::Ended;
use super::testing::{answered, broken, sent_to, servers, value, Bench, MS};
use super::{Action, Alternative, Alternatives, Datacenter, ErrorKind, Event, QueueModel};
use crate::rng::Draw;
use crate::time::Time;
use std::sync::Arc;

/// Loads the client's model so that the servers rank in `order`, least
/// loaded first, and moves the clock on until the smoothing has caught up.
fn rank(bench: &mut Bench, order: &[usize]) {
    for (outstanding, &server) in order.iter().enumerate() {
        for _ in 0..outstanding {
            bench.models.add_request(server, bench.now);
        }
    }
    bench.now = bench.now + Time(60_000 * MS.0);
}

/// Every send among `actions`, in order.
fn sends(actions: &[Action]) -> Vec<usize> {
    actions
        .iter()
        .filter_map(|action| if let Action::Send { server } = action { Some(*server) } else { None })
        .collect()
}

#[test]
fn no_alternatives_never_completes() {
    let mut bench = Bench::new(1);
    let (mut balancer, actions) = bench.load_balance(&servers(0));
    assert!(actions.is_empty() && balancer.is_never());
    for event in [Event::AlternativeUp, Event::WaitDone, Event::SecondRequestDue, value(0)] {
        assert!(bench.on(&mut balancer, event).is_empty());
    }
}

#[test]
fn a_healthy_pick_and_a_reply() {
    let mut bench = Bench::new(1);
    rank(&mut bench, &[2, 0, 1]);
    let start = bench.now;
    let (mut balancer, actions) = bench.load_balance(&servers(3));
    // The least loaded goes first; the runner-up's latency (1 ms, never
    // measured) plus 0.5 ms is the first request's timeout.
    assert_eq!(
        actions,
        [Action::Send { server: 2 }, Action::SecondRequestAt { at: start + Time(1_500_000) }]
    );
    bench.now = start + Time(3 * MS.0);
    let reply = Event::Reply { server: 2, error: None, penalty: Some(1.5) };
    assert_eq!(bench.on(&mut balancer, reply), [Action::Deliver { server: 2 }]);
    assert!(balancer.is_done());
    let known = bench.models.measurement(2);
    assert_eq!((known.latency, known.penalty), (Time(3 * MS.0), 1.5));
    // The timeout, come too late, does nothing.
    assert!(bench.on(&mut balancer, Event::SecondRequestDue).is_empty());
}

#[test]
fn an_exception_is_passed_to_the_caller() {
    let mut bench = Bench::new(2);
    let (mut balancer, actions) = bench.load_balance(&servers(3));
    let reply = answered(sent_to(&actions), ErrorKind::Exception);
    assert_eq!(bench.on(&mut balancer, reply), [Action::Fail(ErrorKind::Exception)]);
}

#[test]
fn a_broken_connection_leads_to_the_next_alternative_then_a_backoff_and_a_retry() {
    let mut bench = Bench::new(3);
    rank(&mut bench, &[0, 1]);
    let (mut balancer, _) = bench.load_balance(&servers(2));
    assert_eq!(bench.on(&mut balancer, broken(0)), [Action::Send { server: 1 }]);
    // Both alternatives tried: a backoff of 10 ms, then the first again.
    let backoff_from = bench.now;
    assert_eq!(
        bench.on(&mut balancer, broken(1)),
        [Action::Backoff { until: backoff_from + Time(10 * MS.0) }]
    );
    assert_eq!(bench.on(&mut balancer, Event::BackoffDone), [Action::Send { server: 0 }]);
    assert_eq!(bench.on(&mut balancer, value(0)), [Action::Deliver { server: 0 }]);
}

#[test]
fn without_budget_the_timeout_sends_no_second_request() {
    let mut bench = Bench::new(4);
    let (mut balancer, _) = bench.load_balance(&servers(3));
    assert!(bench.on(&mut balancer, Event::SecondRequestDue).is_empty());
}

#[test]
fn the_first_request_times_out_and_a_second_goes_out_either_reply_winning() {
    for winner in [0, 1] {
        let mut bench = Bench::new(5);
        rank(&mut bench, &[0, 1, 2]);
        bench.known.second_budget = 1.0;
        let (mut balancer, _) = bench.load_balance(&servers(3));
        assert_eq!(bench.on(&mut balancer, Event::SecondRequestDue), [Action::Send { server: 1 }]);
        let known = &bench.known;
        assert_eq!((known.second_budget, known.second_multiplier), (0.0, 1.01));
        assert_eq!(balancer.in_flight(), 2);
        assert_eq!(bench.on(&mut balancer, value(winner)), [Action::Deliver { server: winner }]);
        // The loser is left to finish; its reply only informs the model.
        assert_eq!(balancer.in_flight(), 1);
        bench.now = bench.now + Time(40 * MS.0);
        assert!(bench.on(&mut balancer, value(1 - winner)).is_empty());
        assert_eq!(balancer.in_flight(), 0);
        assert_eq!(bench.models.measurement(1 - winner).latency, Time(40 * MS.0));
    }
}

#[test]
fn an_instant_second_request_when_the_best_is_much_slower_than_the_next() {
    let mut bench = Bench::new(6);
    rank(&mut bench, &[0, 1, 2]);
    bench.known.second_budget = 1.0;
    // Server 0's last latency, 10 ms, is over twice the 1.5 ms timeout.
    let ended =
        Ended { latency: Time(10 * MS.0), penalty: None, delta: 0.0, clean: true, future_version: false };
    bench.models.end_request(0, bench.now, ended);
    let (_, actions) = bench.load_balance(&servers(3));
    assert_eq!(sends(&actions), [0, 1]);
}

#[test]
fn both_initial_candidates_fail_then_the_rest_in_round_robin() {
    let mut bench = Bench::new(7);
    // Ranked 1, 2, 3, 0: the walk from best 1 with start 2 goes 1, 2, 3, 0.
    rank(&mut bench, &[1, 2, 3, 0]);
    bench.known.second_budget = 1.0;
    let (mut balancer, actions) = bench.load_balance(&servers(4));
    assert_eq!(sends(&actions), [1]);
    assert_eq!(bench.on(&mut balancer, Event::SecondRequestDue), [Action::Send { server: 2 }]);
    // The first fails: the second may still win, so nothing is sent...
    assert!(bench.on(&mut balancer, broken(1)).is_empty());
    // ...until it fails too; then the others, one at a time.
    assert_eq!(bench.on(&mut balancer, broken(2)), [Action::Send { server: 3 }]);
    assert_eq!(bench.on(&mut balancer, broken(3)), [Action::Send { server: 0 }]);
    // Four attempts over four alternatives: back off, then round again.
    assert!(matches!(bench.on(&mut balancer, broken(0))[..], [Action::Backoff { .. }]));
    assert_eq!(bench.on(&mut balancer, Event::BackoffDone), [Action::Send { server: 1 }]);
}

#[test]
fn with_only_the_first_request_left_it_waits_for_its_reply() {
    let mut bench = Bench::new(8);
    rank(&mut bench, &[0, 1]);
    bench.known.second_budget = 2.0;
    let (mut balancer, _) = bench.load_balance(&servers(2));
    // The timeout finds the only other alternative down.
    bench.monitor.set_failed(1, true);
    assert!(bench.on(&mut balancer, Event::SecondRequestDue).is_empty());
    // The first fails: it is tried again, being the only one up.
    assert_eq!(bench.on(&mut balancer, broken(0)), [Action::Send { server: 0 }]);
    assert_eq!(bench.on(&mut balancer, value(0)), [Action::Deliver { server: 0 }]);
}

#[test]
fn every_alternative_failed_then_all_alternatives_failed_after_the_wait() {
    let mut bench = Bench::new(9);
    bench.now = Time(10_000 * MS.0);
    for server in 0..3 {
        bench.monitor.set_failed(server, true);
    }
    let (mut balancer, actions) = bench.load_balance(&servers(3));
    // The first wait of a spell: 50 ms, jittered by up to a tenth.
    let [Action::Wait { until }] = actions[..] else { panic!("expected a wait, got {actions:?}") };
    let wait = until - bench.now;
    assert!(Time(45 * MS.0) <= wait && wait <= Time(55 * MS.0), "{wait:?}");
    bench.now = until;
    assert_eq!(bench.on(&mut balancer, Event::WaitDone), [Action::Fail(ErrorKind::AllAlternativesFailed)]);
}

#[test]
fn every_alternative_failed_then_one_comes_up_within_the_wait() {
    let mut bench = Bench::new(10);
    for server in 0..3 {
        bench.monitor.set_failed(server, true);
    }
    let (mut balancer, actions) = bench.load_balance(&servers(3));
    let [Action::Wait { until: first_until }] = actions[..] else {
        panic!("expected a wait, got {actions:?}")
    };
    bench.monitor.set_failed(1, false);
    assert_eq!(bench.on(&mut balancer, Event::AlternativeUp), [Action::Send { server: 1 }]);
    // Server 1's connection breaks at once and it is down again: a second
    // wait, which the first one's timeout, when it comes, does not end.
    bench.monitor.set_failed(1, true);
    bench.now = bench.now + Time(20 * MS.0);
    let actions = bench.on(&mut balancer, broken(1));
    let [Action::Wait { until }] = actions[..] else { panic!("expected a wait, got {actions:?}") };
    bench.now = first_until;
    assert!(first_until < until);
    assert!(bench.on(&mut balancer, Event::WaitDone).is_empty());
    bench.now = until;
    assert_eq!(bench.on(&mut balancer, Event::WaitDone), [Action::Fail(ErrorKind::AllAlternativesFailed)]);
}

#[test]
fn a_future_version_error_makes_an_alternative_unavailable_until_its_time() {
    let mut bench = Bench::new(11);
    rank(&mut bench, &[0, 1, 2]);
    let (mut balancer, actions) = bench.load_balance(&servers(3));
    assert_eq!(sends(&actions), [0]);
    // The caller gets the error; server 0 is left alone for 2 s.
    let reply = answered(0, ErrorKind::FutureVersion);
    assert_eq!(bench.on(&mut balancer, reply), [Action::Fail(ErrorKind::FutureVersion)]);
    let failed_until = bench.now + Time(2_000 * MS.0);
    assert_eq!(bench.models.measurement(0).failed_until, failed_until);
    // The caller retries 10 ms later (FUTURE_VERSION_RETRY_DELAY): server 1 goes first...
    bench.now = bench.now + Time(10 * MS.0);
    let (_, actions) = bench.load_balance(&servers(3));
    assert_eq!(sends(&actions), [1]);
    // ...and after the 2 s, server 0 again.
    bench.now = failed_until + Time(1);
    let (_, actions) = bench.load_balance(&servers(3));
    assert_eq!(sends(&actions), [0]);
}

#[test]
fn process_behind_is_retried_until_every_alternative_was_tried() {
    let mut bench = Bench::new(12);
    rank(&mut bench, &[0, 1]);
    let (mut balancer, _) = bench.load_balance(&servers(2));
    let behind = |server| answered(server, ErrorKind::ProcessBehind);
    assert_eq!(bench.on(&mut balancer, behind(0)), [Action::Send { server: 1 }]);
    assert!(matches!(bench.on(&mut balancer, behind(1))[..], [Action::Backoff { .. }]));
    assert_eq!(bench.on(&mut balancer, Event::BackoffDone), [Action::Send { server: 0 }]);
    // Sent once every option had been tried: the caller gets the error.
    assert_eq!(bench.on(&mut balancer, behind(0)), [Action::Fail(ErrorKind::ProcessBehind)]);
}

#[test]
fn an_overloaded_server_sends_the_request_on() {
    let mut bench = Bench::new(13);
    rank(&mut bench, &[0, 1]);
    let (mut balancer, _) = bench.load_balance(&servers(2));
    let overloaded = answered(0, ErrorKind::ServerOverloaded);
    assert_eq!(bench.on(&mut balancer, overloaded), [Action::Send { server: 1 }]);
}

/// Six servers, 0 to 2 in the local datacenter and 3 to 5 in the other.
fn two_datacenters(rng: &mut impl Draw) -> Arc<Alternatives> {
    let list =
        (0..6).map(|server| Alternative { server, datacenter: Datacenter((server / 3) as u8) }).collect();
    Arc::new(Alternatives::local_first(list, Datacenter(0), rng))
}

/// Of `requests` sequential requests, each answered in 1 ms with the
/// penalty its server reports, how many went first to a local server.
fn local_firsts(bench: &mut Bench, requests: usize, penalty: impl Fn(usize) -> f64) -> usize {
    let mut local = 0;
    for _ in 0..requests {
        let alternatives = two_datacenters(&mut bench.rng);
        let (mut balancer, actions) = bench.load_balance(&alternatives);
        let server = sends(&actions)[0];
        local += usize::from(server < 3);
        bench.now = bench.now + MS;
        let reply = Event::Reply { server, error: None, penalty: Some(penalty(server)) };
        assert_eq!(bench.on(&mut balancer, reply), [Action::Deliver { server }]);
    }
    local
}

#[test]
fn local_alternatives_are_preferred_while_they_are_healthy() {
    let mut bench = Bench::new(14);
    assert_eq!(local_firsts(&mut bench, 1_000, |_| 1.0), 1_000);
    // With two local servers asking to be spared, the remote ones are ranked too.
    let mut bench = Bench::new(14);
    for server in [0, 1] {
        let ended = Ended { latency: MS, penalty: Some(3.0), delta: 0.0, clean: true, future_version: false };
        bench.models.end_request(server, bench.now, ended);
    }
    let local = local_firsts(&mut bench, 1_000, |server| if server < 2 { 3.0 } else { 1.0 });
    assert!(local < 900, "{local} of 1000 local");
}
