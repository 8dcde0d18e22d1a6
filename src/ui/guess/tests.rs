use super::*;
use crate::{Scenario, Simulation};

/// A summary of a short run, with its p99 queue time set by hand.
fn with_p99(p99: f64) -> Summary {
    let mut scenario = Scenario::default();
    scenario.set("duration_s", "2").unwrap();
    let mut sim = Simulation::new(&scenario).unwrap();
    sim.run();
    let mut summary = sim.summary();
    summary.queue_ms.p99 = p99;
    summary.measured_s = 20.0;
    summary
}

fn sides() -> Sides {
    Sides { own: "power of two choices, live load".into(), twin: "random".into() }
}

fn asked() -> Guess {
    Guess::for_view(true, "", Some(&sides())).unwrap()
}

#[test]
fn a_question_is_asked_only_when_the_link_asks_and_there_is_a_twin() {
    assert_eq!(Guess::for_view(false, "", Some(&sides())), None);
    assert_eq!(Guess::for_view(true, "Which?", None), None);
    let guess = asked();
    assert_eq!(guess.stage(), Stage::Asking);
    assert!(guess.waits());
    assert_eq!(
        guess.prompt(),
        "Which has the longer tail, the slowest 1% of waits in the queue: power of two choices, live load or random?"
    );
    let worded =
        Guess::for_view(true, " With a board refreshed every second, which? ", Some(&sides())).unwrap();
    assert_eq!(worded.prompt(), "With a board refreshed every second, which?");
}

#[test]
fn the_answers_name_each_side_by_what_differs() {
    let words: Vec<String> = Answer::ALL.iter().map(|a| a.words(&sides())).collect();
    assert_eq!(words, ["power of two choices, live load", "random", "About the same"]);
}

#[test]
fn an_answer_or_a_skip_ends_the_wait_and_the_first_answer_stands() {
    let mut guess = asked();
    guess.answer(Answer::Twin);
    assert!(!guess.waits());
    guess.answer(Answer::Own);
    guess.skip();
    assert_eq!(guess.stage(), Stage::Answered(Answer::Twin));
    let mut skipped = asked();
    skipped.skip();
    assert_eq!(skipped.stage(), Stage::Skipped);
    assert!(!skipped.waits());
}

#[test]
fn exactly_one_answer_holds_away_from_the_lines_between_them() {
    let twin = with_p99(20.0);
    for (own, right) in [(8.0, Answer::Twin), (19.0, Answer::Same), (22.0, Answer::Same), (30.0, Answer::Own)]
    {
        let holding: Vec<Answer> =
            Answer::ALL.into_iter().filter(|a| a.holds(&with_p99(own), &twin)).collect();
        assert_eq!(holding, [right], "own p99 {own} ms against 20 ms");
    }
}

#[test]
fn the_verdict_says_whether_the_guess_held_with_the_numbers() {
    let (own, twin) = (with_p99(8.1), with_p99(24.3));
    let mut guess = asked();
    assert_eq!(guess.verdict(&sides(), &own, &twin), None);
    guess.answer(Answer::Twin);
    assert_eq!(
        guess.verdict(&sides(), &own, &twin).unwrap(),
        "Your guess held: random has the longer tail; over 20 simulated seconds, p99 queue time is 8.1 ms \
         with power of two choices, live load against 24.3 ms with random."
    );
    let mut wrong = asked();
    wrong.answer(Answer::Same);
    assert_eq!(
        wrong.verdict(&sides(), &own, &twin).unwrap(),
        "Your guess, about the same, did not hold: random has the longer tail; over 20 simulated seconds, \
         p99 queue time is 8.1 ms with power of two choices, live load against 24.3 ms with random."
    );
    let mut skipped = asked();
    skipped.skip();
    let same = skipped.verdict(&sides(), &with_p99(21.0), &with_p99(20.0)).unwrap();
    assert!(same.starts_with("The answer: the two are within 15% of each other; "), "{same}");
}

#[test]
fn a_guess_answered_then_overtaken_by_a_settings_change_is_retired_not_graded_again() {
    let (own, twin) = (with_p99(8.1), with_p99(24.3));
    let mut guess = asked();
    guess.settings_changed();
    assert_eq!(guess.stage(), Stage::Asking, "a question still waiting has no guess to retire");
    guess.answer(Answer::Twin);
    guess.settings_changed();
    assert_eq!(guess.stage(), Stage::Retired(Answer::Twin));
    assert!(!guess.waits());
    assert_eq!(
        guess.verdict(&sides(), &own, &twin).unwrap(),
        "You changed the settings: the run now differs from the one you guessed about; over 20 simulated \
         seconds, p99 queue time is 8.1 ms with power of two choices, live load against 24.3 ms with random."
    );
    guess.answer(Answer::Own);
    assert_eq!(guess.stage(), Stage::Retired(Answer::Twin), "an answer after the change is not taken");
    let mut skipped = asked();
    skipped.skip();
    skipped.settings_changed();
    assert_eq!(skipped.stage(), Stage::Skipped, "the answer without a guess is read from the new run");
}

#[test]
fn a_view_that_asks_runs_ahead_only_through_its_warm_up() {
    assert_eq!(run_ahead_s(true, 0.0, 20.0), 0.0, "chapter 4: watched from its first request");
    assert_eq!(run_ahead_s(true, 2.0, 20.0), 2.0, "chapter 5: its warm-up, which no figure counts");
    assert_eq!(run_ahead_s(false, 2.0, 20.0), 20.0, "a view that does not ask runs to its point");
    assert!(WATCHING.contains("same requests reach A and B at the same moments"));
}
