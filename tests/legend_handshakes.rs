//! The picture's legend lists a request waiting for its handshake only
//! while one can still be drawn (`Simulation::handshakes_to_come`), in
//! every chapter of the explainer: chapters 5 and 6 listed "handshake"
//! though every connection was warm before their reader saw a frame.
//!
//! Each chapter runs from the warm-up its embed runs undrawn, its
//! requests looked at every 5 simulated ms for 8 s: a handshake is drawn
//! only where the legend listed one the step before, and a chapter whose
//! connections last lists none once all are warm.

use lbsim::engine::Hop;
use lbsim::ui::hash;
use lbsim::ui::options::Kind;
use lbsim::{Simulation, Time};

/// The value of `name="..."` in `tag`, with its HTML escapes undone.
fn attribute(tag: &str, name: &str) -> Option<String> {
    let start = tag.find(&format!("{name}=\""))? + name.len() + 2;
    let end = start + tag[start..].find('"')?;
    Some(tag[start..end].replace("&amp;", "&"))
}

#[test]
fn every_chapter_lists_a_handshake_before_drawing_one_and_not_once_all_connections_are_warm() {
    let html = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/explain.html")).unwrap();
    let mut warm_by = Vec::new();
    for chunk in html.split("<section").skip(1) {
        let (Some(id), Some(settings)) = (attribute(chunk, "id"), attribute(chunk, "data-lbsim-settings"))
        else {
            continue;
        };
        let scenario = hash::parse(&settings, Kind::Embed).params.scenario;
        let mut sim = Simulation::new(&scenario).unwrap();
        sim.advance_to(Time::from_secs(scenario.warmup_s), u64::MAX);
        let mut listed = sim.handshakes_to_come();
        let mut warm = None;
        for step in 1..=1600 {
            let now = scenario.warmup_s + step as f64 * 0.005;
            sim.advance_to(Time::from_secs(now), u64::MAX);
            let drawn = sim.snapshot(usize::MAX).requests.iter().any(|r| r.hop == Hop::Handshake);
            assert!(!drawn || listed, "{id}: a handshake drawn at {now:.3} s, not listed");
            listed = sim.handshakes_to_come();
            if !listed && warm.is_none() {
                warm = Some(now);
            }
        }
        warm_by.push((id, warm));
    }
    println!("{warm_by:?}");
    let of = |id: &str| warm_by.iter().find(|(chapter, _)| chapter == id).and_then(|(_, warm)| *warm);
    for id in ["power-of-two", "stale"] {
        assert!(
            of(id).is_some_and(|s| s < 6.0),
            "{id}: its connections are warm a few seconds in: {:?}",
            of(id)
        );
    }
}
