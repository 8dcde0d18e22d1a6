//! Strict, non-preemptive priority starves the low class (seed 001:
//! "the background class is starved rather than slowed").
//!
//! Two classes of equal cost; the high class is served first. The low
//! class's load stays at 0.25 of capacity while the high class's grows from
//! 0.25 to 0.65. Each server is exactly an M/M/1 queue with two
//! non-preemptive priority classes (Poisson arrivals split at random,
//! exponential service of 1 ms, no timeout, no network), whose mean waits
//! Cobham (1954) gives: with ρ_h the high class's load and ρ the total, and
//! W₀ = ρ · E[S] the mean residual work found on arrival,
//! W_high = W₀ / (1 − ρ_h) and W_low = W₀ / ((1 − ρ_h)(1 − ρ)).
//! Means by batch means, per class; tolerances 4 standard errors.

mod common;
use common::{classic, Estimate};
use lbsim::metrics::Histogram;
use lbsim::{Scenario, Simulation, Time};

const LOW_LOAD: f64 = 0.25;

/// Each class's mean queue wait (ms) by batch means after the warm-up, and
/// the summary's starvation figure.
fn class_waits(scenario: &Scenario, batches: usize) -> ([Estimate; 2], f64) {
    let mut sim = Simulation::new(scenario).unwrap();
    let start = Time::from_secs(scenario.warmup_s);
    let span = Time::from_secs(scenario.duration_s) - start;
    sim.advance_to(start, u64::MAX);
    let mut before = vec![Histogram::default(); 2];
    let mut values = [Vec::new(), Vec::new()];
    for k in 1..=batches as u64 {
        sim.advance_to(start + Time(span.0 / batches as u64 * k), u64::MAX);
        for (class, values) in values.iter_mut().enumerate() {
            let now = sim.metrics().class_queue_time[class].clone();
            let batch = now.since(&before[class]);
            values.push(batch.sum() as f64 / batch.count().max(1) as f64 / 1e6);
            before[class] = now;
        }
    }
    assert!(sim.books().balanced());
    let starvation = sim.summary().starvation.expect("two priorities");
    ([Estimate::of(&values[0]), Estimate::of(&values[1])], starvation)
}

fn scenario(high_load: f64) -> Scenario {
    let mut scenario = classic(20, 1, high_load + LOW_LOAD, "random", 400.0);
    let shares = format!("{high_load},{LOW_LOAD}");
    scenario
        .set_many([("class_shares", shares.as_str()), ("class_costs", "1,1"), ("class_priorities", "1,0")])
        .unwrap();
    scenario
}

#[test]
fn the_low_class_starves_as_the_high_class_grows() {
    let mut rows = Vec::new();
    for high_load in [0.25, 0.45, 0.65] {
        let rho = high_load + LOW_LOAD;
        let w0 = rho;
        let theory = [w0 / (1.0 - high_load), w0 / ((1.0 - high_load) * (1.0 - rho))];
        let ([high, low], starvation) = class_waits(&scenario(high_load), 40);
        for (name, estimate, theory) in [("high", high, theory[0]), ("low", low, theory[1])] {
            println!(
                "high-class load {high_load}, {name} class: mean wait {:.4} ± {:.4} ms, Cobham {theory:.4} ({:+.2}%)",
                estimate.mean,
                estimate.se,
                100.0 * (estimate.mean / theory - 1.0)
            );
            assert!(estimate.se / theory < 0.05, "{name} at {high_load}: standard error too large");
            assert!(
                (estimate.mean - theory).abs() <= 4.0 * estimate.se,
                "{name} at {high_load}: {estimate:?}"
            );
        }
        println!(
            "  starvation (low / high mean queue time): {starvation:.2}, theory {:.2}",
            1.0 / (1.0 - rho)
        );
        rows.push((high, low, starvation));
    }
    // From the first high-class load to the last: the low class's wait grows
    // several times as much as the high class's (theory: 19× against 3.9×),
    // judged on bounds 4 standard errors wide.
    let (first, last) = (rows[0], rows[2]);
    let high_growth = (last.0.mean + 4.0 * last.0.se) / (first.0.mean - 4.0 * first.0.se);
    let low_growth = (last.1.mean - 4.0 * last.1.se) / (first.1.mean + 4.0 * first.1.se);
    println!("growth of the mean wait, at most {high_growth:.2}× for the high class, at least {low_growth:.2}× for the low");
    assert!(low_growth > 3.0 * high_growth, "{rows:?}");
    assert!(rows.windows(2).all(|w| w[1].2 > w[0].2), "starvation rises: {rows:?}");
}
