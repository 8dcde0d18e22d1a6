use super::{step_to_decision, step_told};
use crate::{Scenario, Simulation};

/// Asserts that some step says each of `phrases`.
fn says(texts: &[String], phrases: &[&str]) {
    for words in phrases {
        assert!(texts.iter().any(|t| t.contains(words)), "no step says `{words}`");
    }
}

#[test]
fn each_step_is_one_event_told_in_words() {
    let mut scenario = Scenario::default();
    scenario.set_many([("load", "1.2"), ("queue_timeout_ms", "20"), ("servers", "3")]).unwrap();
    let mut sim = Simulation::new(&scenario).unwrap();
    let mut texts = Vec::new();
    for _ in 0..20_000 {
        let before = sim.events_processed();
        let told = step_told(&mut sim).unwrap();
        assert_eq!(sim.events_processed(), before + 1);
        assert!(!told.text.is_empty());
        texts.push(told.text);
    }
    says(
        &texts,
        &[
            "starts at client",
            "and takes a free slot",
            "and joins its queue",
            "is sent back by server",
            "which sends it to server",
            "the response heads back to the client",
            "and sends request 2/10",
            "a point is added to the live charts",
        ],
    );
    assert!(sim.books().balanced());
}

#[test]
fn failures_and_retries_are_told() {
    let mut scenario = Scenario::default();
    let failures = "0s:down:0, 0s:fast-fail:1:p=1, 0s:down:2:for=1s";
    scenario.set_many([("servers", "3"), ("failures", failures), ("retry_backoff_ms", "1")]).unwrap();
    let mut sim = Simulation::new(&scenario).unwrap();
    let texts: Vec<String> = (0..5_000).map(|_| step_told(&mut sim).unwrap().text).collect();
    says(
        &texts,
        &[
            "server 0 fails: down",
            "is down and refuses",
            "an error heads back to the client",
            "hears an error from server",
            "it retries after a backoff",
            "is placed again",
            "server 2 is healthy",
        ],
    );
}

#[test]
fn hedges_and_their_races_are_told() {
    let mut scenario = Scenario::default();
    let pairs = [
        ("hedge_after_ms", "5"),
        ("queue_timeout_ms", "30"),
        ("failures", "0.2s:down:1:for=0.5s"),
        ("balancers", "2"),
    ];
    scenario.set_many(pairs).unwrap();
    let mut sim = Simulation::new(&scenario).unwrap();
    let texts: Vec<String> = (0..40_000).map(|_| step_told(&mut sim).unwrap().text).collect();
    says(
        &texts,
        &[
            "ms and sends a copy to server",
            "which the response already on its way cancels",
            "that lost its race ends at server",
            "the copy is dropped",
            "passes balancer",
        ],
    );
}

#[test]
fn what_foundationdb_balancers_do_is_told() {
    // A slow server for second requests, one that goes down and comes
    // back for broken connections, then all four down for backoffs and
    // all_alternatives_failed.
    let failures = "0s:slow:0:x=0.05, 1s:down:1:for=1s, 3s:down:0:for=2s, 3s:down:1:for=2s, 3s:down:2:for=2s, 3s:down:3:for=2s";
    let mut texts = Vec::new();
    for policy in ["fdb-load-balance", "fdb-basic"] {
        let mut scenario = Scenario::default();
        let pairs =
            [("servers", "4"), ("clients", "4"), ("load", "0.5"), ("failures", failures), ("policy", policy)];
        scenario.set_many(pairs).unwrap();
        let mut sim = Simulation::new(&scenario).unwrap();
        while sim.now().as_secs() < 6.0 {
            texts.push(step_told(&mut sim).unwrap().text);
        }
        assert!(sim.books().balanced(), "{:?}", sim.books());
    }
    says(
        &texts,
        &[
            "; its FoundationDB balancer sends it to server",
            "a second request goes out after",
            "FoundationDB balancer hears a reply from server",
            ": it gives the client server",
            "FoundationDB balancer hears an error from server",
            "a FoundationDB balancer's timer is due: it sends it to server",
            "waits up to",
            "fails the request with all_alternatives_failed",
            "waits for a server to come back up",
            "backs off for",
        ],
    );
}

/// Chapter 5's reader presses Step to see power of two decide: each press
/// goes on to the next decision, however many events come between (about
/// a hundred, since a session keeps its server until a bounce), and says
/// how many it passed.
#[test]
fn a_step_to_a_decision_passes_the_events_between_and_says_how_many() {
    let mut scenario = Scenario::default();
    scenario.set_many([("policy", "power-of-d"), ("load", "0.9")]).unwrap();
    let mut sim = Simulation::new(&scenario).unwrap();
    sim.record_decisions(4);
    sim.advance_to(crate::time::Time::from_ms(3_000.0), u64::MAX);
    let (events, made) = (sim.events_processed(), sim.decisions_made());
    let presses = 20;
    for _ in 0..presses {
        let before = (sim.events_processed(), sim.decisions_made());
        let told = step_to_decision(&mut sim).unwrap();
        assert_eq!(sim.decisions_made(), before.1 + 1, "{}", told.text);
        let passed = sim.events_processed() - before.0 - 1;
        let noun = if passed == 1 { "event" } else { "events" };
        if passed > 0 {
            let said = format!(" (stepped past {passed} {noun} to this decision)");
            assert!(told.text.ends_with(&said), "{}", told.text);
        }
    }
    assert_eq!(sim.decisions_made(), made + presses);
    let per_press = (sim.events_processed() - events) as f64 / presses as f64;
    assert!(per_press > 20.0, "{per_press:.1} events a press");
}
