//! The journal of each step explains its event, the narration built from
//! it names what the step involved, and keeping a journal changes nothing
//! in the run.

use lbsim::engine::{Event, FeatureId, Flight, Happening, SendBack, Step};
use lbsim::narration::tell;
use lbsim::{Scenario, Simulation, Time};

const STEPS: usize = 6_000;

fn scenarios() -> Vec<(&'static str, Scenario)> {
    let runs: [(&str, &[(&str, &str)]); 6] = [
        ("plain", &[("load", "1.2"), ("queue_timeout_ms", "20"), ("servers", "3")]),
        ("hedging", &[("hedge_after_ms", "5"), ("policy", "least-request"), ("queue_timeout_ms", "30")]),
        (
            "retries and failures",
            &[
                ("servers", "3"),
                ("failures", "0s:down:0, 0s:fast-fail:1:p=1, 0s:flap:2:period=20ms"),
                ("retry_backoff_ms", "1"),
            ],
        ),
        (
            "foundationdb",
            &[("servers", "4"), ("policy", "fdb-load-balance"), ("failures", "0.1s:down:1:for=0.2s")],
        ),
        (
            "membership",
            &[("servers", "4"), ("load", "0.9"), ("membership", "0.1s:crash:1,0.2s:restore:1,0.3s:add")],
        ),
        ("balancers", &[("balancers", "2"), ("hedge_after_ms", "10"), ("queue_timeout_ms", "25")]),
    ];
    runs.iter()
        .map(|(name, pairs)| {
            let mut scenario = Scenario::default();
            scenario.set_many(pairs.iter().copied()).unwrap();
            (*name, scenario)
        })
        .collect()
}

fn has(step: &Step, what: impl Fn(&Happening) -> bool) -> bool {
    step.happened.iter().any(what)
}

/// Whether the journal says what became of the request the event concerns.
fn explained(step: &Step) -> bool {
    let place = step.event.flight();
    let own = |h: &Happening| match h {
        Happening::Discarded { request, .. }
        | Happening::Heard { request, .. }
        | Happening::ServiceEnded { request, .. }
        | Happening::Refused { request, .. }
        | Happening::Queued { request, .. }
        | Happening::SentBack { request, .. }
        | Happening::CopyDropped { request, .. }
        | Happening::ServiceStarted { request, .. }
        | Happening::Completed { request, .. }
        | Happening::Failed { request, .. }
        | Happening::ReachedBalancer { request }
        | Happening::Sent { request, .. } => Some(request.place) == place,
        _ => false,
    };
    match step.event {
        Event::SessionArrival { .. } | Event::ClientStarts { .. } => has(step, |h| {
            matches!(h, Happening::SessionStarted { .. } | Happening::ArrivalDropped | Happening::Halted)
        }),
        Event::ServiceDone { .. } => has(step, |h| match h {
            Happening::ServiceEnded { .. } | Happening::Discarded { .. } => own(h),
            Happening::ServiceVoided { place: voided } => Some(*voided) == place,
            _ => false,
        }),
        Event::ArriveAtServer { .. }
        | Event::ArriveAtBalancer { .. }
        | Event::BounceArrives { .. }
        | Event::ResponseAtBalancer { .. }
        | Event::ResponseAtClient { .. } => has(step, own),
        Event::Sample => has(step, |h| *h == Happening::Sampled),
        Event::BoardRefresh { .. } => has(step, |h| matches!(h, Happening::BoardRefreshed { .. })),
        Event::FeatureTimer { timer } => match timer.feature() {
            FeatureId::Membership => has(step, |h| {
                matches!(h, Happening::MembershipChanged { .. } | Happening::ChangeDropped { .. })
            }),
            FeatureId::Failures => has(step, |h| {
                matches!(
                    h,
                    Happening::FailureStarted { .. }
                        | Happening::Recovered { .. }
                        | Happening::FailureTurned { .. }
                )
            }),
            _ => true,
        },
        _ => true,
    }
}

#[test]
fn each_step_journal_explains_its_event_and_its_narration_names_what_it_involved() {
    for (name, scenario) in scenarios() {
        let mut sim = Simulation::new(&scenario).unwrap();
        let mut seen = Vec::new();
        for _ in 0..STEPS {
            let hedged_before = sim.snapshot(0).counts.copies;
            let Some(step) = sim.step_journaled() else { break };
            assert!(
                explained(&step),
                "{name}: the journal of {:?} says nothing of it: {:?}",
                step.event,
                step.happened
            );
            let hedged = sim.snapshot(0).counts.copies > hedged_before;
            assert_eq!(
                hedged,
                has(&step, |h| matches!(h, Happening::Hedged { .. })),
                "{name}: a hedge counted is a hedge noted: {step:?}"
            );
            let told = tell(&step, sim.scenario());
            assert!(!told.text.is_empty(), "{name}: {step:?}");
            if let Some(server) = told.server {
                assert!(told.text.contains(&format!("server {server}")), "{name}: {told:?} of {step:?}");
            }
            if let Some(client) = told.client {
                assert!(told.text.contains(&format!("client {client}")), "{name}: {told:?} of {step:?}");
            }
            for happening in &step.happened {
                let sent_to = match happening {
                    Happening::ServiceEnded { request, server, .. } => Some((request, *server)),
                    Happening::SentBack { request, server, why: SendBack::QueueTimeout, .. } => {
                        Some((request, *server))
                    }
                    _ => None,
                };
                if let Some((request, server)) = sent_to.filter(|(r, _)| Some(r.place) == step.event.flight())
                {
                    assert_eq!(told.client, Some(request.client), "{name}: {told:?}");
                    assert_eq!(told.server, Some(server), "{name}: {told:?}");
                }
            }
            seen.extend(step.happened.iter().map(std::mem::discriminant));
        }
        let saw = |h: Happening| seen.contains(&std::mem::discriminant(&h));
        let request = lbsim::engine::Whose {
            place: Flight::request(0),
            session: 0,
            client: 0,
            balancer: None,
            request: 1,
            length: 1,
        };
        assert!(
            saw(Happening::ServiceEnded { request, server: 0, outcome: lbsim::engine::Outcome::Ok }),
            "{name}"
        );
        let expected = match name {
            "hedging" => Happening::Hedged { request, waited: Time::ZERO, cancelled_en_route: false },
            "retries and failures" => Happening::BackingOff { request, wait: Time::ZERO },
            "foundationdb" => Happening::BalancerActed { actions: Vec::new() },
            "membership" => Happening::MembershipChanged { change: lbsim::scenario::Change::Add, server: 0 },
            "balancers" => Happening::Forwarded { request },
            _ => Happening::SentBack { request, server: 0, why: SendBack::QueueTimeout, waited: Time::ZERO },
        };
        assert!(saw(expected.clone()), "{name}: no step noted {expected:?}");
    }
}

#[test]
fn keeping_a_journal_changes_nothing_in_the_run() {
    for (name, scenario) in scenarios() {
        let mut journaled = Simulation::new(&scenario).unwrap();
        let mut noted = 0;
        for _ in 0..STEPS {
            noted += journaled.step_journaled().map_or(0, |step| step.happened.len());
        }
        let mut plain = Simulation::new(&scenario).unwrap();
        plain.advance_to(Time::NEVER, STEPS as u64);
        assert!(noted > STEPS, "{name}: only {noted} happenings noted");
        assert_eq!(journaled.events_processed(), plain.events_processed(), "{name}");
        assert_eq!(journaled.trace_hash(), plain.trace_hash(), "{name}");
    }
}
