use super::words::{compare, named};
use super::*;
use crate::explain::claims::failing;
use crate::format::{ms, percent, thousands};
use crate::Simulation;

fn run(pairs: &[(&str, &str)]) -> (Scenario, Summary) {
    let mut scenario = Scenario::default();
    for (key, value) in pairs {
        scenario.set(key, value).unwrap();
    }
    let mut sim = Simulation::new(&scenario).unwrap();
    sim.run();
    (scenario, sim.summary())
}

#[test]
fn sentences_read_the_summary_back() {
    let (scenario, random) = run(&[("duration_s", "10")]);
    let (_, p2c) = run(&[("duration_s", "10"), ("policy", "power-of-d")]);
    let readback = Readback::parse("tail, versus").unwrap();
    let words = readback.words(
        &scenario,
        &p2c,
        Some(Versus {
            summary: &random,
            label: "random",
            own: "power-of-d",
            comparison: None,
            same_settings: false,
        }),
        None,
    );
    let ratio = random.queue_ms.p99 / p2c.queue_ms.p99;
    assert!(
        words.contains(&format!("p99 queue time with power-of-d is {ratio:.1}× lower than with random on")),
        "{words}"
    );
    assert!(words.contains(&format!("waited more than {}", ms(p2c.queue_ms.p99))), "{words}");
    // Without a twin, the comparison is left out rather than made up.
    assert!(!readback.words(&scenario, &p2c, None, None).contains("than with"));
}

#[test]
fn the_tail_sentence_says_the_span_it_measures() {
    let (scenario, summary) = run(&[("duration_s", "6"), ("warmup_s", "2")]);
    let words = Readback::parse("tail").unwrap().words(&scenario, &summary, None, None);
    let expected = format!(
        "Over 4.0 simulated seconds after a 2 s warm-up, of {} requests the median waited {}",
        thousands(summary.queue_ms.count),
        ms(summary.queue_ms.p50)
    );
    assert!(words.starts_with(&expected), "{words}");
}

#[test]
fn the_tail_sentence_says_no_wait_in_words() {
    let (scenario, summary) = run(&[("load", "0.2"), ("duration_s", "2")]);
    assert_eq!(summary.queue_ms.p50, 0.0, "most requests find a free slot");
    let words = Readback::parse("tail").unwrap().words(&scenario, &summary, None, None);
    assert!(words.contains("the median waited no time in a queue and the mean"), "{words}");
    assert!(!words.contains("0.00 ms"), "{words}");
}

#[test]
fn ratios_are_read_with_their_intervals() {
    let scenario = Scenario::default();
    let mut a = Simulation::new(&scenario).unwrap();
    let mut twin = scenario.clone();
    twin.set("policy", "power-of-d").unwrap();
    let mut b = Simulation::new(&twin).unwrap();
    a.run();
    b.run();
    let comparison = Comparison::of(&a, &b);
    let (low, high) = comparison.queue_p99.bounds().unwrap();
    let b_summary = b.summary();
    let versus = Versus {
        summary: &b_summary,
        label: "power-of-d",
        own: "random",
        comparison: Some(&comparison),
        same_settings: false,
    };
    let words = Readback::parse("ratios").unwrap().words(&scenario, &a.summary(), Some(versus), None);
    let expected = format!(
        "B (power-of-d) over A (random): p99 queue time {:.2}× ({low:.2}–{high:.2})",
        comparison.queue_p99.estimate
    );
    assert!(words.starts_with(&expected), "{words}");
}

#[test]
fn theory_is_read_beside_the_measurement() {
    let (scenario, summary) = run(&[
        ("servers", "1"),
        ("slots", "3"),
        ("service_mean_ms", "250"),
        ("load", "0.8333333333333334"),
        ("queue_timeout_ms", "none"),
        ("session_length", "1"),
        ("handshake_round_trips", "0"),
        ("client_delay_ms", "0"),
        ("duration_s", "600"),
    ]);
    let words = Readback::parse("theory").unwrap().words(&scenario, &summary, None, None);
    let theory = summary.theory.as_ref().unwrap();
    assert!(
        words.starts_with(&format!("Theory ({}) gives a mean queue wait of 351 ms", theory.model)),
        "{words}"
    );
    assert!(words.contains("± ") && words.ends_with("The scenario is the model exactly."), "{words}");
    let (scenario, summary) = run(&[("demand", "spike"), ("clients", "50"), ("duration_s", "2")]);
    let words = Readback::parse("theory").unwrap().words(&scenario, &summary, None, None);
    assert_eq!(words, "", "theory is silent where it knows no answer");
}

#[test]
fn errors_and_retries_are_read_back_against_the_twin() {
    let failing = [
        ("servers", "4"),
        ("balancers", "1"),
        ("session_length", "1"),
        ("load", "0.3"),
        ("duration_s", "5"),
        ("failures", "0s:fast-fail:2:p=0.5"),
    ];
    let (scenario, least) = run(&[failing.as_slice(), &[("policy", "least-connections")]].concat());
    let (_, random) = run(&failing);
    let versus = Versus {
        summary: &random,
        label: "random",
        own: "power-of-d",
        comparison: None,
        same_settings: false,
    };
    let words = Readback::parse("errors").unwrap().words(&scenario, &least, Some(versus), None);
    let share = failing_share(&least);
    assert!(words.starts_with("Server 2, answering with errors, drew "), "{words}");
    assert!(words.contains(&format!("{:.1}× a fair share of 25.0%; with random, ", share / 0.25)), "{words}");
    assert!(
        words.contains(&format!("against {} with random.", percent(random.availability.unwrap()))),
        "{words}"
    );
    let words = Readback::parse("retries").unwrap().words(&scenario, &least, None, None);
    assert!(
        words.starts_with(&format!("Requests made {:.2} attempts each", least.attempts_per_request.unwrap())),
        "{words}"
    );
    assert!(words.contains("a budget of 10 retries allows at most 11."), "{words}");
    let (scenario, calm) = run(&[("duration_s", "2")]);
    let words = Readback::parse("errors").unwrap().words(&scenario, &calm, None, None);
    assert_eq!(words, "No server has answered with an error yet.");
    assert_eq!(named(&[3]), "Server 3");
    assert_eq!(named(&[0, 1, 2]), "Servers 0, 1 and 2");
    assert_eq!(named(&[0, 1, 2, 3]), "4 servers");
}

fn failing_share(summary: &Summary) -> f64 {
    failing(summary).unwrap().share
}

#[test]
fn a_run_too_short_to_mean_much_says_so() {
    let (scenario, summary) = run(&[("duration_s", "0.05")]);
    assert!(Readback::parse("tail")
        .unwrap()
        .words(&scenario, &summary, None, None)
        .starts_with("Collecting"));
}

#[test]
fn a_finished_spike_offers_a_replay() {
    let (scenario, summary) = run(&[("demand", "spike"), ("clients", "50"), ("duration_s", "10")]);
    assert_eq!(summary.in_flight, 0);
    let words = Readback::parse("spike").unwrap().words(&scenario, &summary, None, None);
    assert!(words.contains("The spike is over"), "{words}");
}

#[test]
fn a_spike_too_small_to_mean_much_says_what_it_collected_once_over() {
    let (scenario, summary) = run(&[("demand", "spike"), ("clients", "5"), ("duration_s", "10")]);
    let words = Readback::parse("spike").unwrap().words(&scenario, &summary, None, None);
    assert!(words.starts_with("50 requests so far"), "{words}");
    assert!(
        words.ends_with("Only 50 requests completed, fewer than the 200 these figures need to mean much: more clients make a bigger spike."),
        "{words}"
    );
}

#[test]
fn names_round_trip_and_unknown_names_are_refused() {
    let readback = Readback::parse("versus,staleness,versus").unwrap();
    assert_eq!(readback.text(), "versus,staleness");
    assert_eq!(Readback::parse("none").unwrap(), Readback::default());
    assert_eq!(Readback::parse("tail,oops"), None);
    assert_eq!(compare(10.0, 10.2, "with random"), "about the same as with random (0.98×)");
    assert_eq!(compare(30.0, 10.0, ""), "3.0× higher");
}

#[test]
fn latency_and_locality_are_read_back_against_the_twin() {
    let apart = [("policy", "fdb-load-balance"), ("datacenters", "2"), ("duration_s", "3")];
    let (scenario, local) = run(&[apart.as_slice(), &[("dc_order", "local-first")]].concat());
    let (_, any) = run(&[apart.as_slice(), &[("dc_order", "any")]].concat());
    let versus = Versus {
        summary: &any,
        label: "dc_order = any",
        own: "dc_order = local",
        comparison: None,
        same_settings: false,
    };
    let words = Readback::parse("locality,latency").unwrap().words(&scenario, &local, Some(versus), None);
    let (mine, theirs) = (local.local_share().unwrap(), any.local_share().unwrap());
    assert!(
        words.starts_with(&format!(
            "{} of the requests went to a server in their sender's own datacenter, against {} with dc_order = any.",
            percent(mine),
            percent(theirs)
        )),
        "{words}"
    );
    assert!(
        words.contains(&format!(
            "p99 latency is {} against {} with dc_order = any: ",
            ms(local.latency_ms.p99),
            ms(any.latency_ms.p99)
        )),
        "{words}"
    );
    // One datacenter: nothing to say of locality.
    let (scenario, one) = run(&[("duration_s", "1")]);
    assert_eq!(one.local_share(), None);
    assert_eq!(Readback::parse("locality").unwrap().words(&scenario, &one, None, None), "");
}

#[test]
fn bounces_read_per_request_once_they_outnumber_the_requests() {
    assert_eq!(words::bounce_rate(17_963, 10_000), "1.8 for every request");
    assert_eq!(words::bounce_rate(123, 10_000), "12.3 for every thousand requests");
    let (scenario, summary) = run(&[("duration_s", "10"), ("load", "1.5"), ("queue_timeout_ms", "5")]);
    assert!(summary.counts.bounces > summary.counts.created, "{:?}", summary.counts);
    let words = Readback::parse("bounces").unwrap().words(&scenario, &summary, None, None);
    assert!(words.contains(" for every request (each row's cross"), "{words}");
}

/// "53 bounces ... No request has yet waited longer than the timeout" read
/// as a contradiction (a student reader): the sentence says what a bounce
/// counts (the full timeout waited in one queue) and what a queue time
/// counts (the waits in every queue tried), over its own span, whether or
/// not the longest queue time yet exceeds the timeout.
#[test]
fn bounces_and_queue_times_are_each_said_for_what_they_count() {
    // Chapter 3's settings, as its page gives them.
    let link = "policy=random&load=0.95&warmup_s=2&duration_s=10";
    let parsed = crate::ui::hash::parse(link, crate::ui::options::Kind::Embed);
    let scenario = parsed.params.scenario;
    let mut sim = Simulation::new(&scenario).unwrap();
    sim.run();
    let mut summary = sim.summary();
    assert!(summary.counts.bounces > 0 && summary.queue_ms.p100 > 100.0, "{:?}", summary.counts);
    let readback = Readback::parse("bounces").unwrap();
    let bounce = "bounces, ";
    let each = "each waited the full 100 ms timeout in one queue and went back to pick again.";
    for longest in [summary.queue_ms.p100, 98.0] {
        summary.queue_ms.p100 = longest;
        let words = readback.words(&scenario, &summary, None, None);
        assert!(words.contains(bounce) && words.contains(each), "{words}");
        let queue_time = format!(
            "Queue time adds a request's waits in every queue it tried; the longest since the warm-up: {}.",
            ms(longest)
        );
        assert!(words.ends_with(&queue_time), "{words}");
        assert!(!words.contains("longer than the timeout"), "{words}");
    }
}
