use super::*;
use crate::rng::SimRng;

fn lengths(base_s: f64, max_s: f64, growth: EjectGrowth, jitter: f64) -> Lengths {
    let (base, max) = (Time::from_ms(base_s * 1000.0), Time::from_ms(max_s * 1000.0));
    Lengths { base, max, sweep: None, backoff: EjectBackoff { growth, jitter } }
}

/// The seconds each of a run of `n` ejections lasts.
fn run_of(lengths: &Lengths, n: usize, rng: &mut SimRng) -> Vec<f64> {
    let mut times = 0;
    (0..n)
        .map(|_| {
            times = lengths.count_after(times);
            lengths.of(times, rng).as_ms() / 1000.0
        })
        .collect()
}

#[test]
fn envoys_ejections_last_30_s_times_each_ejection_up_to_300_s() {
    let lengths = lengths(30.0, 300.0, EjectGrowth::Linear, 0.0);
    let mut rng = SimRng::new(1);
    let expected = [30.0, 60.0, 90.0, 120.0, 150.0, 180.0, 210.0, 240.0, 270.0, 300.0, 300.0, 300.0];
    assert_eq!(run_of(&lengths, 12, &mut rng), expected);
    // Envoy stops counting one past the cap, so a sweep's forgetting
    // shortens the next ejection at once.
    let times = (0..12).fold(0, |times, _| lengths.count_after(times));
    assert_eq!(times, 11);
    assert_eq!(lengths.of(times - 1, &mut rng).as_ms(), 300_000.0);
}

#[test]
fn without_a_maximum_every_ejection_lasts_the_base_time() {
    let lengths = lengths(10.0, 10.0, EjectGrowth::Linear, 0.0);
    assert_eq!(run_of(&lengths, 5, &mut SimRng::new(1)), [10.0; 5]);
}

/// The mean of min(h × (1 + jitter × U), max) for U uniform on [0, 1).
fn mean_held(h: f64, jitter: f64, max: f64) -> f64 {
    if h >= max {
        return max;
    }
    if jitter == 0.0 || h * (1.0 + jitter) <= max {
        return h * (1.0 + jitter / 2.0);
    }
    let reached = (max / h - 1.0) / jitter;
    h * (reached + jitter * reached * reached / 2.0) + (1.0 - reached) * max
}

/// Over many runs of `lengths`, the kth ejection of each lies in
/// [h, min(h × (1 + jitter), max)] and its mean is the closed form's
/// within four standard errors, for the unjittered lengths `h` given.
fn check_runs(lengths: &Lengths, h: &[f64], jitter: &[f64], max: f64) {
    let runs = 4_000;
    let mut rng = SimRng::new(20261205);
    let samples: Vec<Vec<f64>> = (0..runs).map(|_| run_of(lengths, h.len(), &mut rng)).collect();
    for (k, (&h, &jitter)) in h.iter().zip(jitter).enumerate() {
        let of_k: Vec<f64> = samples.iter().map(|run| run[k]).collect();
        let top = (h * (1.0 + jitter)).min(max);
        assert!(
            of_k.iter().all(|&s| s >= h.min(max) - 1e-9 && s <= top + 1e-9),
            "ejection {}: {h}..{top}",
            k + 1
        );
        let mean = of_k.iter().sum::<f64>() / runs as f64;
        let variance = of_k.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (runs - 1) as f64;
        let se = (variance / runs as f64).sqrt();
        let expected = mean_held(h, jitter, max);
        assert!(
            (mean - expected).abs() <= 4.0 * se + 1e-9,
            "ejection {}: mean {mean} against {expected} ± {se}",
            k + 1
        );
    }
}

#[test]
fn linkerds_back_off_doubles_from_1_s_to_60_s_lengthened_by_up_to_half() {
    // ExponentialBackoff { min: 1 s, max: 60 s, jitter: 0.5 }: base(i) =
    // min(1 s × 2^i, 60 s), plus U × 0.5 × base held to max − base.
    let lengths = lengths(1.0, 60.0, EjectGrowth::Exponential, 0.5);
    let h = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 60.0, 60.0];
    check_runs(&lengths, &h, &[0.5; 8], 60.0);
}

#[test]
fn finagles_equal_jittered_back_off_runs_5_s_then_doubling_halves_to_300_s() {
    // Backoff.equalJittered(5 s, 300 s): 5 s, then h + U × h with h = 5,
    // 10, 20 … s, 300 s once h + U × h reaches it (the 7th: 160 s + U ×
    // 160 s, 300 s an eighth of the time; the 8th on, 300 s).
    let lengths = lengths(5.0, 300.0, EjectGrowth::EqualJittered, 1.0);
    let h = [5.0, 5.0, 10.0, 20.0, 40.0, 80.0, 160.0, 320.0, 640.0];
    let jitter = [0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0];
    check_runs(&lengths, &h, &jitter, 300.0);
    assert!((mean_held(160.0, 1.0, 300.0) - 238.75).abs() < 1e-9);
}
