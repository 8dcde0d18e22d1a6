use super::*;
use std::cell::Cell;

/// A small pair, a few thousand requests a run: two servers of one slot,
/// repick against random, at 95% load with a queue timeout.
fn pair() -> (Scenario, Scenario) {
    let mut own = Scenario::default();
    let small = [("servers", "2"), ("slots", "1"), ("clients", "2"), ("load", "0.95"), ("policy", "repick")];
    own.set_many(small).unwrap();
    let mut twin = own.clone();
    twin.set("policy", "random").unwrap();
    (own, twin)
}

fn sides() -> Sides {
    Sides { own: "repick".to_string(), twin: "random".to_string() }
}

/// A spread holding `ratios` as its dots (the twin at 100 ms).
fn holding(ratios: &[f64], seeds: u32) -> Spread {
    let (own, twin) = pair();
    let mut spread = Spread::new(&own, &twin, seeds);
    spread.start();
    spread.dots = ratios
        .iter()
        .enumerate()
        .map(|(i, r)| Dot { seed: i as u64 + 1, own_ms: r * 100.0, twin_ms: 100.0 })
        .collect();
    spread
}

/// Every run of `scenario` on `seed` to [`RUN_S`], at once.
fn p99_of(scenario: &Scenario, seed: u64) -> f64 {
    let mut sim = Simulation::new(&Scenario { seed, duration_s: RUN_S, ..scenario.clone() }).unwrap();
    sim.run();
    sim.summary().queue_ms.p99
}

#[test]
fn each_dot_is_its_seeds_two_runs_run_whole_the_views_own_seed_first() {
    let (mut own, twin) = pair();
    own.seed = 7;
    let twin = Scenario { seed: 7, ..twin };
    let mut spread = Spread::new(&own, &twin, 3);
    assert!(!spread.pending(), "nothing runs before the answer");
    assert!(!spread.run((|| 0.0, f64::INFINITY)), "not started: no slice");
    assert_eq!(spread.dots().len(), 0);
    spread.start();
    while spread.pending() {
        spread.run((|| 0.0, 0.0));
    }
    let seeds: Vec<u64> = spread.dots().iter().map(|dot| dot.seed).collect();
    assert_eq!(seeds, [7, 8, 9]);
    assert_eq!(spread.own_seed(), 7);
    for dot in spread.dots() {
        // Sliced 2,000 events at a time, the same figures as run whole.
        assert_eq!(dot.own_ms, p99_of(&own, dot.seed), "seed {}", dot.seed);
        assert_eq!(dot.twin_ms, p99_of(&twin, dot.seed), "seed {}", dot.seed);
        assert!(dot.own_ms > 0.0 && dot.twin_ms > 0.0, "queues formed: {dot:?}");
    }
    assert!(spread.done());
}

#[test]
fn a_frame_takes_one_slice_at_least_and_none_past_its_budget() {
    let (own, twin) = pair();
    let mut spread = Spread::new(&own, &twin, 2);
    spread.start();
    // Each reading of the clock moves it a millisecond: a slice reads it
    // twice and the loop's test once, so a slice "costs" 1 ms and a check 1.
    let clock = Cell::new(0.0);
    let wall = || {
        clock.set(clock.get() + 1.0);
        clock.get()
    };
    spread.run((wall, 0.0));
    assert!(spread.running.is_some(), "past its budget already, a frame still takes a slice");
    let events = |spread: &Spread| spread.running.as_ref().map_or(0, |p| p.own.events_processed());
    assert_eq!(events(&spread), 0, "that slice made the seed's runs");
    let start = clock.get();
    spread.run((wall, start + 10.0));
    // Slices while the clock, plus the last slice's 1 ms, stays within 10.
    let taken = events(&spread) / STEP_EVENTS;
    assert!((3..=5).contains(&taken), "{taken} slices in a 10 ms budget of 2 ms slices");
    assert!(clock.get() <= start + 12.0, "stopped at {} for a budget to {}", clock.get(), start + 10.0);
}

#[test]
fn a_spread_of_the_same_runs_keeps_its_dots_and_another_does_not() {
    let (own, twin) = pair();
    let spread = Spread::new(&own, &twin, 20);
    assert!(spread.is_of(&own, &twin, 20));
    assert!(!spread.is_of(&own, &twin, 10), "another count");
    let louder = Scenario { load: 0.9, ..own.clone() };
    assert!(!spread.is_of(&louder, &twin, 20), "the load slider moved");
    let longer = Scenario { duration_s: 600.0, ..own.clone() };
    assert!(spread.is_of(&longer, &twin, 20), "each seed runs 30 s whatever the view's duration");
    assert_eq!(spread.seeds().collect::<Vec<_>>(), (1..=20).collect::<Vec<_>>());
}

#[test]
fn the_sentence_gives_the_range_which_side_of_one_and_at_the_end_the_mean() {
    let (own, twin) = pair();
    let waiting = Spread::new(&own, &twin, 20);
    assert_eq!(
        waiting.words(&sides()),
        "Once you answer, 20 seeds run repick and random for 30 s each: one dot a seed."
    );
    assert_eq!(holding(&[], 20).words(&sides()), "Running repick and random on 20 more seeds, 30 s each…");
    assert_eq!(
        holding(&[0.98, 1.04, 1.01], 20).words(&sides()),
        "3 of 20 seeds so far: the p99 with repick is 0.98 to 1.04 times that with random; 2 above 1, 1 below."
    );
    let done = holding(&[0.98, 1.02, 0.99, 1.01], 4);
    assert!(done.done());
    assert_eq!(
        done.words(&sides()),
        "4 seeds of 30 s: the p99 with repick is 0.98 to 1.02 times that with random; as many above 1 as \
         below; on average 1.000, that average known to ±0.009 (a standard error)."
    );
    assert!(holding(&[1.0, 1.1], 3).words(&sides()).ends_with("1 above 1, 0 below, 1 at 1."));
}

#[test]
fn the_mean_and_its_standard_error_are_the_claims_tests() {
    // Hand-computed: mean 2, sample variance ((1 + 0 + 1) / 2) = 1, se 1/√3.
    let (mean, se) = mean_and_error(&[1.0, 2.0, 3.0]);
    assert_eq!(mean, 2.0);
    assert!((se - 1.0 / 3.0_f64.sqrt()).abs() < 1e-12);
}

#[test]
fn the_axis_centres_one_and_reaches_the_farthest_dot_in_plain_steps() {
    let dots = |ratios: &[f64]| holding(ratios, 20).dots;
    assert_eq!(Axis::around(&dots(&[])).half_width, 0.05, "no dot: ±0.05");
    assert_eq!(Axis::around(&dots(&[0.98, 1.03])).half_width, 0.05);
    assert_eq!(Axis::around(&dots(&[0.93, 1.01])).half_width, 0.1);
    assert_eq!(Axis::around(&dots(&[1.44])).half_width, 0.5);
    let axis = Axis { half_width: 0.05 };
    assert_eq!(axis.share(1.0), 0.5);
    assert!((axis.share(0.95) - 0.0).abs() < 1e-9 && (axis.share(1.05) - 1.0).abs() < 1e-9);
    assert_eq!(axis.share(3.0), 1.0, "clamped");
    let ticks = axis.ticks();
    assert!(ticks.iter().zip([0.95, 1.0, 1.05]).all(|(t, want)| (t - want).abs() < 1e-12), "{ticks:?}");
}

#[test]
fn dots_at_the_same_ratio_stack_and_the_last_row_takes_the_rest() {
    assert_eq!(stack(&[0.5, 0.52, 0.8, 0.505, 0.51], 0.03, 3), [0, 1, 0, 2, 2]);
    assert_eq!(stack(&[0.1, 0.2, 0.3], 0.03, 2), [0, 0, 0], "apart: one row");
    assert_eq!(stack(&[], 0.03, 2), Vec::<usize>::new());
}

/// Chapter 4's verdict graded one run by "within 15% of each other" over
/// dots 0.96 to 1.05 times one another (reader 14): where the pair runs on
/// more seeds, the guess waits for their dots and is graded by them, in
/// the words of the sentence under them.
#[test]
fn a_guess_beside_the_dots_waits_for_them_and_is_graded_by_their_mean() {
    use crate::ui::guess::{Answer, Guess};
    let coming = holding(&[0.98, 1.02], 20);
    let mut guess = Guess::for_view(true, "", Some(&sides())).unwrap();
    assert!(!guess.awaits_seeds(Some(&coming)), "the question waits first");
    guess.answer(Answer::Own);
    assert!(guess.awaits_seeds(Some(&coming)));
    assert_eq!(guess.verdict_over_seeds(&sides(), &coming), None, "2 of 20 dots");
    assert!(!guess.awaits_seeds(None), "no dots to wait for");
    // Chapter 4's twenty seeds as the chart drew them: 0.96 to 1.05.
    let chapter_4 = [
        0.99, 1.01, 0.97, 1.02, 0.96, 1.00, 1.03, 0.98, 1.05, 0.99, 1.01, 0.98, 1.00, 0.97, 1.02, 0.99, 1.01,
        1.00, 0.98, 1.02,
    ];
    let dots = holding(&chapter_4, 20);
    assert!(!guess.awaits_seeds(Some(&dots)));
    assert_eq!(dots.longer_tail(), Some(Answer::Same));
    assert_eq!(
        guess.verdict_over_seeds(&sides(), &dots).unwrap(),
        "Your guess, repick, did not hold: neither tail is longer by more than chance: over the 20 seeds dotted \
         under the pictures, the p99 with repick is 0.96 to 1.05 times that with random, on average 0.999, that \
         average known to ±0.005 (a standard error)."
    );
    // Every dot a little under 1: the mean stands well outside its error.
    let shorter = holding(&[0.95, 0.97, 0.96, 0.98], 4);
    assert_eq!(shorter.longer_tail(), Some(Answer::Twin));
    let mut held = Guess::for_view(true, "", Some(&sides())).unwrap();
    held.answer(Answer::Twin);
    assert!(held
        .verdict_over_seeds(&sides(), &shorter)
        .unwrap()
        .starts_with("Your guess held: random has the longer tail: "));
    assert_eq!(holding(&[1.1, 1.2, 1.15], 3).longer_tail(), Some(Answer::Own));
    assert_eq!(holding(&[1.1], 1).longer_tail(), None, "one dot has no error");
    held.settings_changed();
    assert!(!held.awaits_seeds(Some(&coming)), "retired: it says so at once");
    assert_eq!(held.verdict_over_seeds(&sides(), &shorter), None);
}
