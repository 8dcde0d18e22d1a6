//! How much of its gain over a twin a view's own run keeps, against a
//! third run on the same arrivals that gets the whole of it (`reference=`):
//! chapter 6's learned copies against chapter 5's live load, power of two
//! with each against random. Its pictures show how wrong one client's
//! copies are, not what that costs; three bars of p99 do, the part of
//! the gain lost a gap between the reference's bar and the view's own,
//! which grows as the reader adds clients. Sam Rose's load-balancing post
//! puts its contenders' figures side by side in one small chart for the
//! same reason.

use super::twins::{twin_of, Sides};
use super::whole_run::Counted;
use crate::format::grouped;
use crate::metrics::SamplePoint;
use crate::Scenario;

/// One span's p99 queue time of each run (ms).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gain {
    /// The twin's, whose tail the other two shorten (random).
    pub twin_ms: f64,
    /// The reference's, with the whole of the gain (live load).
    pub reference_ms: f64,
    /// The view's own, with what it keeps of it (learned load).
    pub own_ms: f64,
}

impl Gain {
    /// The three runs' p99 over one span, where each has counted finished
    /// requests: before any had (a run waiting at its question, or the
    /// first moments after a warm-up), every p99 read 0.0 ms and the words
    /// said "live load takes nothing off random's p99 here" (reader 13).
    pub fn of_runs(twin: &SamplePoint, reference: &SamplePoint, own: &SamplePoint) -> Option<Gain> {
        let counted = [twin, reference, own].iter().all(|p| Counted::of(Some(p)) == Counted::Some);
        counted.then(|| Gain::of(twin.queue_p99, reference.queue_p99, own.queue_p99)).flatten()
    }

    /// The three figures, where each has counted a request.
    pub fn of(twin_ms: f64, reference_ms: f64, own_ms: f64) -> Option<Gain> {
        let counted = [twin_ms, reference_ms, own_ms].iter().all(|ms| ms.is_finite() && *ms >= 0.0);
        counted.then_some(Gain { twin_ms, reference_ms, own_ms })
    }

    /// The bars' lengths, as the runs are listed (twin, reference, own),
    /// each a share of the longest; and where the own run's bar passes the
    /// reference's, the part past it, the gain lost (`lost`: from, to).
    pub fn bars(&self) -> Bars {
        let longest = self.twin_ms.max(self.reference_ms).max(self.own_ms);
        let share = |ms: f64| match longest > 0.0 {
            true => ms / longest,
            false => 0.0,
        };
        let [twin, reference, own] = [self.twin_ms, self.reference_ms, self.own_ms].map(share);
        Bars { lengths: [twin, reference, own], lost: (own > reference).then_some((reference, own)) }
    }

    /// The share of the reference's gain over the twin that the own run
    /// loses: 0 where it does as well, 1 where it does no better than the
    /// twin; `None` where the reference gains nothing to lose.
    pub fn lost_share(&self) -> Option<f64> {
        let gain = self.twin_ms - self.reference_ms;
        (gain > 0.0).then(|| ((self.own_ms - self.reference_ms) / gain).clamp(0.0, 1.0))
    }

    /// The gap in words, naming the runs as the bars do (`names`: twin,
    /// reference, own): "Of the 46.8 ms live load takes off random's p99,
    /// learned load loses 7.1 ms (15%)."
    pub fn words(&self, [twin, reference, own]: &[String; 3]) -> String {
        let ms = |ms: f64| format!("{} ms", grouped(ms, 1));
        let Some(share) = self.lost_share() else {
            return format!("{reference} takes nothing off {twin}'s p99 here, so {own} has nothing to lose.");
        };
        let gain = ms(self.twin_ms - self.reference_ms);
        let of = format!("Of the {gain} {reference} takes off {twin}'s p99, {own}");
        match share {
            0.0 => format!("{of} loses none."),
            1.0 => format!("{of} loses all: it does no better than {twin}."),
            share => {
                let lost = ms(self.own_ms - self.reference_ms);
                format!("{of} loses {lost} ({:.0}%).", share * 100.0)
            }
        }
    }
}

/// Simulated seconds of measuring (after any warm-up) before the gain lost
/// is put in words: chapter 6 said "learned load loses 7.3 ms (53%)" 1.9 s
/// in and "(15%)" at 9 s (reader 16), a p99 of a few seconds' queues
/// swinging with the one pile-up it holds. The bars show the figures as
/// they come; the sentence waits.
pub const STEADY_AFTER_S: f64 = 10.0;

/// The gain lost in words after `measured_s` seconds of measuring: the
/// sentence of [`Gain::words`] once steady, else how long it waits
/// ("Measuring: 8 s more before saying what learned load loses.").
pub fn words_after(gain: &Gain, names: &[String; 3], measured_s: f64) -> String {
    let left = (STEADY_AFTER_S - measured_s.max(0.0)).ceil();
    match left > 0.0 {
        false => gain.words(names),
        true => format!(
            "Measuring: {left} s more before saying what {} loses; over a few seconds a p99 swings.",
            names[2]
        ),
    }
}

/// What the reference run is, for a reader who sees only its bar: it is
/// never drawn, and chapter 6's "live load" bar came with no word on
/// what run it was (reader 16). Named `name`, as its bar is: "live load:
/// a third run on the same arrivals, not drawn: best of 2 random servers
/// by their true load."
pub fn reference_note(scenario: &Scenario, reference: &[(&str, String)], name: &str) -> Option<String> {
    let run = twin_of(scenario, reference).ok()?;
    // "best of d random servers by their true load (d: choices)".
    let how = run.policy.describe().split(" (").next().unwrap_or_default();
    let how = how.replace(" d ", &format!(" {} ", run.choices));
    Some(format!("{name}: a third run on the same arrivals, not drawn: {how}."))
}

/// Three bars' lengths (shares of the longest) and the part of the last
/// past the second's, the gain lost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bars {
    pub lengths: [f64; 3],
    pub lost: Option<(f64, f64)>,
}

/// The three runs' names, twin, reference, own: the twin's as its picture
/// is titled; the other two by what tells them apart, where they share
/// what comes before the comma ("live load" and "learned load" for "power
/// of two choices, live load" and "power of two, learned load"), else
/// whole.
pub fn names(
    scenario: &Scenario,
    versus: &[(&str, String)],
    reference: &[(&str, String)],
) -> Option<[String; 3]> {
    let twin = Sides::of(scenario, versus)?.twin;
    let Sides { own, twin: reference } = Sides::of(scenario, reference)?;
    let before_comma = |name: &str| name.split(", ").next().unwrap_or(name).to_string();
    let after_comma = |name: &str| name.split_once(", ").map(|(_, rest)| rest.to_string());
    let kin = before_comma(&own).starts_with(&before_comma(&reference))
        || before_comma(&reference).starts_with(&before_comma(&own));
    match (kin, after_comma(&reference), after_comma(&own)) {
        (true, Some(apart), Some(own_apart)) if apart != own_apart => Some([twin, apart, own_apart]),
        _ => Some([twin, reference, own]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario(link: &str) -> Scenario {
        let mut scenario = Scenario::default();
        for (key, value) in link.split('&').filter_map(|pair| pair.split_once('=')) {
            scenario.set(key, value).unwrap();
        }
        scenario
    }

    #[test]
    fn the_gain_lost_is_the_part_of_the_own_bar_past_the_references() {
        let gain = Gain::of(64.0, 16.0, 28.0).unwrap();
        let bars = gain.bars();
        assert_eq!(bars.lengths, [1.0, 0.25, 28.0 / 64.0]);
        assert_eq!(bars.lost, Some((0.25, 28.0 / 64.0)));
        assert_eq!(gain.lost_share(), Some(0.25), "12 of the 48 ms gained");
        let names = ["random", "live load", "learned load"].map(String::from);
        assert_eq!(
            gain.words(&names),
            "Of the 48.0 ms live load takes off random's p99, learned load loses 12.0 ms (25%)."
        );
    }

    #[test]
    fn doing_as_well_loses_none_and_no_better_than_the_twin_loses_all() {
        let names = ["random", "live load", "learned load"].map(String::from);
        let better = Gain::of(64.0, 16.0, 15.0).unwrap();
        assert_eq!(better.bars().lost, None, "a chance lead draws no gap");
        assert_eq!(
            better.words(&names),
            "Of the 48.0 ms live load takes off random's p99, learned load loses none."
        );
        let worse = Gain::of(64.0, 16.0, 70.0).unwrap();
        assert_eq!(worse.lost_share(), Some(1.0));
        assert!(worse.words(&names).ends_with("loses all: it does no better than random."));
        let nothing = Gain::of(10.0, 12.0, 11.0).unwrap();
        assert_eq!(nothing.lost_share(), None);
        assert!(nothing.words(&names).starts_with("live load takes nothing off random's p99"));
    }

    #[test]
    fn a_run_that_has_counted_nothing_has_no_bars() {
        assert_eq!(Gain::of(f64::NAN, 16.0, 20.0), None);
        assert_eq!(Gain::of(0.0, 0.0, 0.0).map(|g| g.bars().lengths), Some([0.0; 3]));
    }

    #[test]
    fn runs_that_have_finished_no_request_have_no_bars() {
        let sim = crate::Simulation::new(&scenario("policy=p2c-piggyback")).unwrap();
        let nothing = super::super::whole_run::figures(&sim.summary());
        let counted = SamplePoint { queue_p99: 20.0, throughput: 900.0, availability: 1.0, ..nothing };
        assert_eq!(Gain::of_runs(&nothing, &nothing, &nothing), None, "before the run: no bars");
        assert_eq!(Gain::of_runs(&counted, &nothing, &counted), None, "one run not yet counted");
        assert_eq!(Gain::of_runs(&counted, &counted, &counted).map(|g| g.own_ms), Some(20.0));
    }

    #[test]
    fn the_gain_lost_is_put_in_words_once_ten_seconds_are_measured() {
        let names = ["random", "live load", "learned load"].map(String::from);
        // Chapter 6 at 1.9 s: "loses 7.3 ms (53%)", 15% by 9 s.
        let early = Gain::of(27.2, 13.3, 20.6).unwrap();
        assert_eq!(
            words_after(&early, &names, 1.9),
            "Measuring: 9 s more before saying what learned load loses; over a few seconds a p99 swings."
        );
        assert!(words_after(&early, &names, 9.5).starts_with("Measuring: 1 s more"));
        assert_eq!(words_after(&early, &names, STEADY_AFTER_S), early.words(&names));
        assert!(words_after(&early, &names, 30.0).ends_with("learned load loses 7.3 ms (53%)."));
    }

    #[test]
    fn the_reference_run_says_what_it_is() {
        let own = scenario("policy=p2c-piggyback");
        let reference = [("policy", "power-of-d".to_string())];
        assert_eq!(
            reference_note(&own, &reference, "live load").as_deref(),
            Some("live load: a third run on the same arrivals, not drawn: best of 2 random servers by their true load.")
        );
    }

    #[test]
    fn chapter_6s_runs_are_named_by_what_tells_them_apart() {
        let own = scenario("policy=p2c-piggyback");
        let versus = [("policy", "random".to_string())];
        let reference = [("policy", "power-of-d".to_string())];
        assert_eq!(
            names(&own, &versus, &reference),
            Some(["random", "live load", "learned load"].map(String::from))
        );
        assert_eq!(names(&own, &[], &reference), None, "no twin, nothing to gain over");
    }
}
