//! The theory a summary prints beside the measurement, for the scenarios in
//! `scenarios/theory-*.toml`: the measured mean wait's 95% interval (batch
//! means, from the summary itself) against the model's value.

mod common;

use common::scenario_file;
use lbsim::metrics::t_975;
use lbsim::{Simulation, Summary};

fn summary(file: &str) -> Summary {
    let mut sim = Simulation::new(&scenario_file(file, &[])).unwrap();
    sim.run();
    sim.summary()
}

/// The measured mean wait and its standard error (the interval's half-width
/// over Student's t), and the theory's value.
fn measured_and_theory(file: &str) -> (f64, f64, f64, Vec<String>) {
    let s = summary(file);
    let theory = s.theory.clone().unwrap_or_else(|| panic!("{file}: no theory"));
    let mean = s.confidence.queue_ms.mean;
    let se = mean.half_width.unwrap() / t_975(s.confidence.batches - 1);
    println!(
        "{file}: {} · measured {:.3} ± {:.3} ms (95%, {} batches of {} s) · theory {:.3} ms",
        theory.model,
        mean.estimate,
        mean.half_width.unwrap(),
        s.confidence.batches,
        s.confidence.batch_s,
        theory.mean_wait_ms
    );
    assert!(se / theory.mean_wait_ms < 0.1, "{file}: too few batches or too short a run to test anything");
    (mean.estimate, se, theory.mean_wait_ms, theory.caveats)
}

#[test]
fn erlang_c_for_mm3_and_mm100() {
    for file in ["theory-mm3.toml", "theory-mm100.toml"] {
        let (measured, se, theory, caveats) = measured_and_theory(file);
        assert!(caveats.is_empty(), "{file}: {caveats:?}");
        assert!((measured - theory).abs() <= 4.0 * se, "{file}: {measured} ± {se} vs {theory}");
    }
}

/// The summary compares with the n → ∞ limit and says so; 100 servers wait
/// longer than the limit, by a finite-size gap that we bound by 5% (see
/// `queueing_theory.rs`, where it closes at n = 1,000).
#[test]
fn the_supermarket_model_at_n_100() {
    let (measured, se, theory, caveats) = measured_and_theory("theory-supermarket.toml");
    assert!(caveats.len() == 1 && caveats[0].contains("n → ∞"), "{caveats:?}");
    assert!(measured - theory > 4.0 * se, "no finite-size gap: {measured} ± {se} vs {theory}");
    assert!(measured - theory <= 0.05 * theory + 4.0 * se, "{measured} ± {se} vs {theory}");
}
