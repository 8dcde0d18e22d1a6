//! The explainer's claims, checked natively. Each section of `explain.html`
//! states what its prose asserts in `data-claim` and configures its
//! simulation (and its versus twin) in `data-lbsim-settings`. The browser
//! test checks each claim at the page's own seed; this one checks that it
//! is no accident of that seed: it holds on every one of several seeds,
//! after the same 30 simulated seconds the browser test runs. The settings
//! are read as the page reads them, by `lbsim::ui::hash`.

mod common;

use common::Estimate;
use lbsim::explain::Claim;
use lbsim::ui::options::Kind;
use lbsim::ui::{hash, twins};
use lbsim::{Scenario, Simulation, Summary};

const SEEDS: [u64; 5] = [1, 2, 3, 4, 5];
const SIMULATED_S: &str = "30";

struct Section {
    id: String,
    claims: Vec<Claim>,
    scenario: Scenario,
    versus: Option<Scenario>,
}

/// The value of `name="..."` in `tag`, with its HTML escapes undone.
fn attribute(tag: &str, name: &str) -> Option<String> {
    let start = tag.find(&format!("{name}=\""))? + name.len() + 2;
    let end = start + tag[start..].find('"')?;
    Some(tag[start..end].replace("&amp;", "&"))
}

fn sections() -> Vec<Section> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/explain.html");
    let html = std::fs::read_to_string(path).unwrap();
    let mut sections = Vec::new();
    for chunk in html.split("<section").skip(1) {
        let Some(claim) = attribute(chunk, "data-claim") else { continue };
        let id = attribute(chunk, "id").unwrap();
        let settings =
            attribute(chunk, "data-lbsim-settings").unwrap_or_else(|| panic!("{id}: no simulation"));
        // The explainer's simulations are embeds.
        let parsed = hash::parse(&settings, Kind::Embed);
        assert!(parsed.notices.is_empty(), "{id}: {:?}", parsed.notices);
        let mut scenario = parsed.params.scenario;
        scenario.set("duration_s", SIMULATED_S).unwrap();
        let versus = (!parsed.options.versus.is_empty()).then(|| {
            twins::twin_of(&scenario, &parsed.options.versus).unwrap_or_else(|e| panic!("{id}: {e}"))
        });
        let claims = Claim::parse_all(&claim).unwrap_or_else(|e| panic!("{id}: {e}"));
        sections.push(Section { id, claims, scenario, versus });
    }
    sections
}

fn run(scenario: &Scenario, seed: u64) -> Summary {
    let mut scenario = scenario.clone();
    scenario.seed = seed;
    let mut sim = Simulation::new(&scenario).unwrap();
    sim.run();
    assert!(sim.books().balanced());
    sim.summary()
}

/// A chapter is one `<section>` of the page: every test takes the list from
/// there, so a new chapter needs no test edited. Every section holding a
/// simulation must say what it shows (`data-claim`), under an id of its own.
#[test]
fn every_section_with_a_simulation_has_its_own_id_and_a_claim() {
    let html = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/explain.html")).unwrap();
    let with_simulation = html
        .split("<section")
        .skip(1)
        .map(|chunk| &chunk[..chunk.find("</section>").unwrap_or(chunk.len())])
        .filter(|section| section.contains("data-lbsim=\"embed\""))
        .count();
    let mut ids: Vec<String> = sections().into_iter().map(|s| s.id).collect();
    assert!(with_simulation > 0, "explain.html holds no simulation");
    assert_eq!(ids.len(), with_simulation, "a section with a simulation has no data-claim: {ids:?}");
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), with_simulation, "two sections share an id");
}

#[test]
fn every_claim_of_the_explainer_holds_on_every_seed() {
    let mut failures = Vec::new();
    for section in sections() {
        for seed in SEEDS {
            let summary = run(&section.scenario, seed);
            let versus = section.versus.as_ref().map(|twin| run(twin, seed));
            for claim in &section.claims {
                let verdict = claim.check(&summary, versus.as_ref()).unwrap();
                println!("{} seed {seed}: {claim}: {:.2} vs {:.2}", section.id, verdict.left, verdict.right);
                if !verdict.holds {
                    failures.push(format!("{} seed {seed}: {verdict:?}", section.id));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Chapter 3 asks the reader to slow a server to a quarter of its speed,
/// and says its queue stays among the shortest while what it cannot do
/// bounces (a reader looked for it to fill, and found it the shortest): no
/// request waits in a queue past the timeout, and in that time the slowed
/// server takes a quarter as many into its slots. This holds the prose to
/// the model on every seed.
#[test]
fn chapter_3s_slowed_server_has_the_shortest_queue_as_its_prose_says() {
    let said = prose("continuous");
    assert!(
        said.contains("so its queue stays among the shortest while much of what it is sent bounces"),
        "{said}"
    );
    let section = sections().into_iter().find(|s| s.id == "continuous").unwrap();
    let mut slowed = section.scenario.clone();
    slowed.set("failures", "0s:slow:3:x=0.25").unwrap();
    for seed in SEEDS {
        let summary = run(&slowed, seed);
        let queued = &summary.mean_queued_per_server;
        let others = queued.iter().enumerate().filter(|&(i, _)| i != 3).map(|(_, &q)| q);
        let shortest_other = others.fold(f64::INFINITY, f64::min);
        assert!(
            queued[3] < shortest_other,
            "seed {seed}: server 3 queues {:.1}, the others at least {shortest_other:.1}",
            queued[3]
        );
        let done = &summary.completed_per_server;
        let neighbours = (done.iter().sum::<u64>() - done[3]) as f64 / 9.0;
        let share = done[3] as f64 / neighbours;
        assert!(
            (0.2..0.3).contains(&share),
            "seed {seed}: server 3 completed {share:.2} of a neighbour's count"
        );
    }
}

/// The prose of section `id`, its whitespace as one space each.
fn prose(id: &str) -> String {
    let html = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/explain.html")).unwrap();
    let section = html.split(&format!("id=\"{id}\"")).nth(1).unwrap().split("</section>").next().unwrap();
    section.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The chapter on long-lived connections quotes its scene's p99 queue time
/// (the mean over the seeds) picked per connection, per request, with ten
/// connections for each client and with two maximum ages: each figure is
/// the model's within 10%, or 3 standard errors where those are wider.
/// Without an age, one to three of the five servers draw no connection.
#[test]
fn the_connections_chapters_figures_are_the_models() {
    let said = prose("connections");
    let section = sections().into_iter().find(|s| s.id == "connections").unwrap();
    let p99 = |pairs: &[(&str, &str)], quoted: &str, ms: f64| {
        assert!(said.contains(quoted), "the prose no longer says “{quoted}”: {said}");
        let mut scenario = section.scenario.clone();
        scenario.set_many(pairs.iter().copied()).unwrap();
        let p99s: Vec<f64> = SEEDS.iter().map(|&seed| run(&scenario, seed).queue_ms.p99).collect();
        let measured = Estimate::of(&p99s);
        println!("{pairs:?}: p99 queue time {:.1} ± {:.1} ms, said {ms}", measured.mean, measured.se);
        assert!((measured.mean - ms).abs() <= (0.1 * ms).max(3.0 * measured.se), "{pairs:?}: {measured:?}");
        measured.mean
    };
    p99(&[], "the slowest 1% of waits last seconds: 6.4&nbsp;s over 30", 6_400.0);
    let per_request = p99(&[("balance_per", "request")], "against 12&nbsp;ms picked per request", 12.0);
    p99(
        &[("connections_per_client", "10")],
        "each server draws close to a fifth and the tail is 30&nbsp;ms",
        30.0,
    );
    p99(&[("max_connection_age_ms", "1000")], "to 1.8&nbsp;s with a one-second age", 1_800.0);
    let aged = p99(&[("max_connection_age_ms", "100")], "and to 210&nbsp;ms with a 100&nbsp;ms age", 210.0);
    assert!(said.contains("and is still eighteen times the tail picked per request"), "{said}");
    assert_eq!((aged / per_request).round(), 18.0);
    assert!(said.contains("leave one to three of them idle"), "{said}");
    for seed in SEEDS {
        let idle = run(&section.scenario, seed).completed_per_server.iter().filter(|&&n| n == 0).count();
        assert!((1..=3).contains(&idle), "seed {seed}: {idle} servers idle");
    }
    assert!(said.contains("a server that joins gets connections within one age instead of never"), "{said}");
    let joined = |age: &str, seed: u64| {
        let mut scenario = section.scenario.clone();
        scenario.set_many([("membership", "10s:add"), ("max_connection_age_ms", age)]).unwrap();
        run(&scenario, seed).completed_per_server[5]
    };
    for seed in SEEDS {
        assert_eq!(joined("none", seed), 0, "seed {seed}: the server added at 10 s drew a connection");
        // At least half its fair share of the 20 s after it joins (a sixth
        // of 1,500 requests a second: 5,000); one draw a second deals it in.
        assert!(joined("1000", seed) > 2_500, "seed {seed}: {}", joined("1000", seed));
    }
}
