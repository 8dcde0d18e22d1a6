//! Balls into bins against theory, on fixed seeds. Each tolerance is a few
//! standard errors of the mean over the trials plus, where the theory is an
//! approximation, its stated error; so a test neither fails by chance (the
//! seeds are fixed) nor passes a model that is wrong by more than that.
//!
//! `cargo test --release --test bins -- --nocapture` prints the figures.

use lbsim::bins::theory::{self, gamma_inverse};
use lbsim::bins::{Bins, Estimate, Experiment, Method, Outcome};

/// Every trial of `method`'s experiment, one after another.
fn measure(balls: u64, bins: usize, method: Method, trials: u64, seed: u64) -> Outcome {
    let experiment = Experiment { balls, bins, method, seed };
    let spreads: Vec<_> = (0..trials).map(|t| experiment.trial(t)).collect();
    let outcome = Outcome::of(&experiment, &spreads);
    eprintln!(
        "{balls} balls, {bins} bins, {}, {trials} trials: max − mean {:.2} ± {:.2}, max − min {:.2} ± {:.2}",
        method.describe(),
        outcome.max_minus_mean.mean,
        outcome.max_minus_mean.se,
        outcome.max_minus_min.mean,
        outcome.max_minus_min.se,
    );
    outcome
}

/// `measured` is `expected` within `ses` standard errors and `model` (a
/// fraction of `expected`) for the approximation's own error.
fn near(measured: Estimate, expected: f64, ses: f64, model: f64) -> bool {
    (measured.mean - expected).abs() <= ses * measured.se + model * expected.abs()
}

/// The Poisson approximation's figures for one random choice.
fn poisson(balls: u64, bins: usize) -> (f64, f64) {
    let expected = theory::of(Method::Random, balls, bins).expected.expect("random has expected figures");
    (expected.max_minus_mean, expected.max_minus_min)
}

#[test]
fn the_seed_posts_experiment_random_in_the_hundreds_best_of_two_in_single_digits() {
    // 10⁶ balls into 100 bins, 200 trials: the post found a max − min of
    // about 500 for random and about 4 for best of two.
    let (balls, bins, trials) = (1_000_000, 100, 200);
    let random = measure(balls, bins, Method::Random, trials, 1);
    let two = measure(balls, bins, Method::BestOf(2), trials, 1);

    // Random against the Poisson approximation (n independent Poisson(10⁴)
    // bins: 251.7 and 501.5), within 4 se and 1% for the total it leaves free.
    let (above, range) = poisson(balls, bins);
    assert!(near(random.max_minus_mean, above, 4.0, 0.01), "{random:?} against {above}");
    assert!(near(random.max_minus_min, range, 4.0, 0.01), "{random:?} against {range}");
    assert!((400.0..600.0).contains(&random.max_minus_min.mean), "{random:?}");
    // Raab and Steger's first order, √(2 (m/n) ln n) = 303.5, overshoots at
    // n = 100 (the maximum of n normal deviations nears √(2 ln n) slowly):
    // the measurement is 0.80 to 0.88 of it, not 1 within noise.
    let first_order = random.theory.order.as_ref().expect("random has an order").value;
    let share = random.max_minus_mean.mean / first_order;
    assert!((0.80..0.88).contains(&share), "{share}");

    // Best of two: ln ln n / ln 2 = 2.20, + O(1); measured single digits.
    let order = two.theory.order.as_ref().expect("best of two has an order").value;
    assert!((order - 1.0..order).contains(&two.max_minus_mean.mean), "{two:?}");
    assert!((2.0..10.0).contains(&two.max_minus_min.mean), "{two:?}");
    assert!(two.max_minus_min.mean * 50.0 < random.max_minus_min.mean);
}

#[test]
fn best_of_two_keeps_its_gap_as_balls_pile_up_while_random_grows_as_the_root() {
    // 100 bins, 10⁴ then 10⁵ balls. Random's max − mean grows with √(m/n):
    // √10 = 3.16 times. Best of two's stays where it is (Berenbrink et al.).
    let (bins, trials) = (100, 200);
    let random = [10_000, 100_000].map(|m| measure(m, bins, Method::Random, trials, 2).max_minus_mean);
    let two = [10_000, 100_000].map(|m| measure(m, bins, Method::BestOf(2), trials, 2).max_minus_mean);
    let growth = random[1].mean / random[0].mean;
    // Relative se of the ratio ≈ both relative se's together: about 1.2%.
    let se =
        growth * ((random[0].se / random[0].mean).powi(2) + (random[1].se / random[1].mean).powi(2)).sqrt();
    assert!((growth - 10f64.sqrt()).abs() < 4.0 * se + 0.01 * growth, "{growth} ± {se}");
    let difference = two[1].mean - two[0].mean;
    let se = (two[0].se.powi(2) + two[1].se.powi(2)).sqrt();
    assert!(difference.abs() < 4.0 * se + 0.05, "{difference} ± {se}");
}

#[test]
fn more_choices_level_the_bins_more() {
    let (balls, bins, trials) = (100_000, 100, 100);
    let spread = |d| measure(balls, bins, Method::best_of(d), trials, 3).max_minus_mean;
    let (one, two, three) = (spread(1), spread(2), spread(3));
    assert!(two.mean + 4.0 * two.se < one.mean - 4.0 * one.se, "{one:?} {two:?}");
    assert!(three.mean + 4.0 * three.se < two.mean - 4.0 * two.se, "{two:?} {three:?}");
    // ln ln n / ln d for d = 3 is 1.39; the O(1) part is small here.
    assert!((0.5..1.39).contains(&three.mean), "{three:?}");
}

#[test]
fn best_of_two_grows_with_the_bins_only_as_ln_ln_n() {
    // From 100 to 10⁴ bins, ten balls a bin: ln ln n / ln 2 rises by 1.0,
    // and the measured gap by a little less (the O(1) terms differ).
    let two = |bins: usize| measure(bins as u64 * 10, bins, Method::BestOf(2), 100, 4).max_minus_mean;
    let (small, large) = (two(100), two(10_000));
    let rise = large.mean - small.mean;
    assert!((0.4..1.2).contains(&rise), "{small:?} {large:?}");
}

#[test]
fn one_random_choice_with_as_many_balls_as_bins_matches_gonnet() {
    // m = n = 1000: the fullest bin holds 5.51 on average (Poisson
    // approximation), Γ⁻¹(n) − 3/2 = 5.67 (Gonnet, up to o(1)).
    let outcome = measure(1_000, 1_000, Method::Random, 2_000, 5);
    let (above, _) = poisson(1_000, 1_000);
    assert!(near(outcome.max_minus_mean, above, 4.0, 0.01), "{outcome:?} against {above}");
    let gonnet = gamma_inverse(1_000.0) - 1.5 - 1.0;
    assert!((outcome.max_minus_mean.mean - gonnet).abs() < 0.3, "{outcome:?} against {gonnet}");
}

#[test]
fn round_robin_is_level_to_one_ball_whatever_the_numbers() {
    for (balls, bins) in [(1, 1), (7, 3), (1_000, 100), (1_001, 100), (99_999, 7)] {
        let mut filling = Bins::new(bins, Method::RoundRobin, 9);
        filling.throw(balls);
        let (max, min) = filling.extremes();
        assert!(max - min <= 1, "{balls} into {bins}: {max} − {min}");
        let expected = theory::of(Method::RoundRobin, balls, bins).expected.unwrap();
        assert_eq!(f64::from(max - min), expected.max_minus_min);
        assert!((filling.spread().max_minus_mean - expected.max_minus_mean).abs() < 1e-9);
    }
}

#[test]
fn a_hash_of_the_balls_number_spreads_them_as_random_does() {
    let (balls, bins, trials) = (100_000, 100, 400);
    let hash = measure(balls, bins, Method::Hash, trials, 6);
    let random = measure(balls, bins, Method::Random, trials, 6);
    for (h, r) in [(hash.max_minus_mean, random.max_minus_mean), (hash.max_minus_min, random.max_minus_min)] {
        let se = (h.se.powi(2) + r.se.powi(2)).sqrt();
        assert!((h.mean - r.mean).abs() < 4.0 * se, "hash {h:?}, random {r:?}");
    }
    let (above, _) = poisson(balls, bins);
    assert!(near(hash.max_minus_mean, above, 4.0, 0.01), "{hash:?} against {above}");
}
