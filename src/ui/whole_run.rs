//! The figures a view's readouts show: the last second's while the run
//! goes on; since the run began where the sentences beside them count that
//! span (chapter 1's sentence gave the whole run's median 5.8 ms beside the
//! strip's last-second p50 of 7.2 ms, and a reader needed a paragraph to
//! reconcile them); and the whole run's once it is over, since a last
//! second of nothing, or the run's final second beside an idle picture
//! ("2,896/s" of throughput under servers with nothing left to do), tells
//! the reader nothing true of what they see.
//!
//! The summary over every request is dear to build, so [`Kept`] builds the
//! figures only when asked and keeps them until the run's clock moves (a
//! step) or the run starts over: a view over, drawn each frame, builds
//! them once.

use crate::metrics::SamplePoint;
use crate::ui::options::Kind;
use crate::ui::spike;
use crate::{Simulation, Summary, Time};

/// Whether nothing more will happen in `sim`: a spike's sessions have all
/// ended, or the run has halted for good.
pub fn is_over(sim: &Simulation) -> bool {
    spike::is_over(sim) || sim.halted().is_some()
}

/// What a view's readouts count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Span {
    /// The last simulated second: the figures swing as queues fill and drain.
    LastSecond,
    /// Every request since the run began, as the sentences count.
    SinceStart,
    /// Every request since a run's warm-up ended, as the sentences count:
    /// a chapter with a warm-up counts nothing of it, and "since the run
    /// began" beside a clock already past it read as counting it too.
    SinceWarmUp,
    /// The whole run, over.
    WholeRun,
}

impl Span {
    /// The span of a run `over` or not, whose view's sentences, `beside`
    /// the figures, count since the run began (or since its warm-up ended,
    /// where it has one, `warmup_s`) or not.
    pub fn of(over: bool, beside: bool, warmup_s: f64) -> Span {
        match (over, beside) {
            (true, _) => Span::WholeRun,
            (false, true) if warmup_s > 0.0 => Span::SinceWarmUp,
            (false, true) => Span::SinceStart,
            (false, false) => Span::LastSecond,
        }
    }

    /// Whether the figures count a longer span than the last second, as
    /// the sentences do, and not yet the whole run.
    pub fn since(self) -> bool {
        matches!(self, Span::SinceStart | Span::SinceWarmUp)
    }

    /// Whether a view of `kind` has sentences beside its figures that
    /// count since the run began: an embed's (an explainer chapter's) that
    /// reads a run's tail (`tail`), or compares its run with a twin
    /// (`twin`), whose verdict reads both runs so far. The lab's figures
    /// stay the last second's, its dashboard's live pulse.
    pub fn counted_as_sentences(kind: Kind, tail: bool, twin: bool) -> bool {
        kind == Kind::Embed && (tail || twin)
    }

    /// The span in words, the one place they are kept: the strip's label
    /// ([`Span::label`]) and a figure's note ([`Span::note`]) say them.
    pub fn words(self) -> &'static str {
        match self {
            Span::LastSecond => "last second",
            Span::SinceStart => "since the run began",
            Span::SinceWarmUp => "since the warm-up",
            Span::WholeRun => "whole run",
        }
    }

    /// How the strip names the span ahead of its figures: "Whole run:".
    pub fn label(self) -> String {
        let words = self.words();
        let mut first = words.chars();
        let capital = first.next().map(|c| c.to_ascii_uppercase()).into_iter();
        capital.chain(first).chain(std::iter::once(':')).collect()
    }

    /// How a figure's note under its name says the span: "(whole run)".
    pub fn note(self) -> String {
        format!("({})", self.words())
    }

    /// The strip's label over figures that count `counted`: the span,
    /// and, where they count no finished request, why its figures are
    /// dashes ("Last second: none finished yet").
    /// During the opening the words stand alone, no longer than "Since
    /// the run began: none finished yet": with the span ahead of them the
    /// strip at 1440 × 900 had no room left for its p99.
    pub fn label_of(self, counted: Counted) -> String {
        match counted.why_empty() {
            Some(why) if counted == Counted::FirstOnItsWay => why.to_string(),
            Some(why) => format!("{} {why}", self.label()),
            None => self.label(),
        }
    }
}

/// How a pinned baseline names what it kept of a run of `policy`, `over`
/// or at `now_s` simulated seconds: "pinned at 0.6 s" read as if the
/// spike had been stopped there, for a curve pinned after it was over.
pub fn pinned(over: bool, now_s: f64, policy: &str) -> String {
    match over {
        true => format!("pinned: the whole run, {policy}"),
        false => format!("pinned: the first {} s, {policy}", crate::format::grouped(now_s, 1)),
    }
}

/// Whether a span's figures count finished requests. Chapter 2's strip
/// read "p99 queue time 0.00 ms, Throughput 0/s" a second into a spike,
/// beside "1,267 requests so far" and ten busy servers: before the first
/// reading (every quarter of a simulated second) there was no figure, and
/// the defaults read as if measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counted {
    /// The figures count finished requests: show them.
    Some,
    /// No reading yet: nothing has been counted.
    NoReading,
    /// A reading in which no request ended (completed or failed).
    NoneFinished,
    /// None finished yet while the view's opening shows the first
    /// request's trip at a hundredth of real time: "none finished yet"
    /// for the seconds it takes read as broken (reader 13).
    FirstOnItsWay,
}

impl Counted {
    /// What the figures `shown` count (none before the first reading).
    pub fn of(shown: Option<&SamplePoint>) -> Counted {
        match shown {
            None => Counted::NoReading,
            Some(p) if p.throughput == 0.0 && p.availability.is_nan() => Counted::NoneFinished,
            Some(_) => Counted::Some,
        }
    }

    /// What the figures count while the view's opening (`ui::opening`)
    /// shows the first trip, `opening` true, or after it.
    pub fn during_opening(self, opening: bool) -> Counted {
        match (self, opening) {
            (Counted::NoReading | Counted::NoneFinished, true) => Counted::FirstOnItsWay,
            _ => self,
        }
    }

    /// Why the figures are dashes, in words, if they are.
    pub fn why_empty(self) -> Option<&'static str> {
        match self {
            Counted::Some => None,
            Counted::NoReading => Some("none counted yet"),
            Counted::NoneFinished => Some("none finished yet"),
            Counted::FirstOnItsWay => Some("The first request is on its way: watch it"),
        }
    }
}

/// The figures of a span longer than a second, built when asked and kept.
#[derive(Default)]
pub struct Kept {
    /// The figures, and the simulated time of the summary they were read
    /// from: they change only if the run's clock moves.
    figures: Option<(Time, SamplePoint)>,
}

impl Kept {
    /// What `sim`'s readouts show of its own run over `span`: `None` for
    /// the last second (the snapshot's). Each picture asks of its own run,
    /// so a twin's pane, whose spike may end before or after the view's,
    /// says of its run what the view says of its own.
    pub fn of(&mut self, sim: &Simulation, span: Span) -> Option<SamplePoint> {
        self.figures(span, sim.now(), || sim.summary())
    }

    /// The figures over `span` at `now`, from `summary` only when none are
    /// kept for that moment; none for the last second.
    pub fn figures(
        &mut self,
        span: Span,
        now: Time,
        summary: impl FnOnce() -> Summary,
    ) -> Option<SamplePoint> {
        if span == Span::LastSecond {
            self.figures = None;
            return None;
        }
        match self.figures {
            Some((at, figures)) if at == now => Some(figures),
            _ => {
                let whole = figures(&summary());
                self.figures = Some((now, whole));
                Some(whole)
            }
        }
    }

    /// The run started over: what was kept is of another run.
    pub fn forget(&mut self) {
        self.figures = None;
    }
}

/// The readouts' figures over the whole run of `summary`: queue-time
/// percentiles over every request, rates per measured second.
pub fn figures(summary: &Summary) -> SamplePoint {
    let per_second = |count: u64| match summary.measured_s > 0.0 {
        true => count as f64 / summary.measured_s,
        false => 0.0,
    };
    let counts = &summary.counts;
    SamplePoint {
        time_ms: summary.simulated_s * 1000.0,
        queue_p50: summary.queue_ms.p50,
        queue_p99: summary.queue_ms.p99,
        throughput: summary.throughput,
        bounce_rate: per_second(counts.bounces),
        availability: summary.availability.unwrap_or(f64::NAN),
        error_rate: per_second(counts.refused + counts.server_errors),
        failure_rate: per_second(counts.failed),
        ..SamplePoint::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Scenario, Simulation};

    #[test]
    fn a_spike_over_reads_its_whole_run() {
        let mut scenario = Scenario::default();
        for (key, value) in [("demand", "spike"), ("clients", "100"), ("duration_s", "60")] {
            scenario.set(key, value).unwrap();
        }
        let mut sim = Simulation::new(&scenario).unwrap();
        sim.run();
        let summary = sim.summary();
        let whole = figures(&summary);
        assert_eq!(whole.queue_p99, summary.queue_ms.p99);
        assert_eq!(whole.throughput, summary.throughput);
        let completed = whole.throughput * summary.measured_s;
        assert!(
            (completed - summary.counts.completed as f64).abs() < 1.0,
            "{completed} completed over the run"
        );
        assert_eq!(whole.availability, 1.0);
        assert_eq!(whole.bounce_rate, summary.counts.bounces as f64 / summary.measured_s);
    }

    #[test]
    fn a_run_over_builds_its_summary_once_until_its_clock_moves_or_it_starts_over() {
        let mut sim = Simulation::new(&Scenario::default()).unwrap();
        sim.advance_to(Time::from_secs(2.0), u64::MAX);
        let (mut kept, built) = (Kept::default(), std::cell::Cell::new(0));
        let frame = |kept: &mut Kept, over: bool, sim: &Simulation| {
            kept.figures(Span::of(over, false, 0.0), sim.now(), || {
                built.set(built.get() + 1);
                sim.summary()
            })
        };
        assert_eq!(frame(&mut kept, false, &sim), None, "a run going on shows its last second");
        assert_eq!(built.get(), 0);
        let first = frame(&mut kept, true, &sim);
        for _ in 0..100 {
            assert_eq!(frame(&mut kept, true, &sim), first);
        }
        assert_eq!(built.get(), 1, "a hundred frames over, one summary");
        assert_eq!(first, Some(figures(&sim.summary())));
        sim.step();
        let stepped = frame(&mut kept, true, &sim);
        assert_eq!((built.get(), stepped), (2, Some(figures(&sim.summary()))), "a step moves its clock");
        kept.forget();
        frame(&mut kept, true, &sim);
        assert_eq!(built.get(), 3, "a run started over is summed up again");
    }

    /// The lab's twin pane kept its last second's readouts under a spike
    /// that was over (its throughput beside an idle picture): each run,
    /// the view's and its twin's, reads its own whole run once over.
    #[test]
    fn a_twin_over_reads_its_own_whole_run() {
        let mut scenario = Scenario::default();
        scenario.set_many([("demand", "spike"), ("clients", "100"), ("duration_s", "60")]).unwrap();
        let versus = [("policy", "power-of-d".to_string())];
        let twin = crate::ui::twins::twin_of(&scenario, &versus).unwrap();
        let mut sim = Simulation::new(&twin).unwrap();
        sim.advance_to(crate::Time::from_ms(50.0), u64::MAX);
        let span = |sim: &Simulation| Span::of(is_over(sim), false, 0.0);
        assert_eq!(Kept::default().of(&sim, span(&sim)), None, "under way, the last second's figures");
        sim.run();
        let summary = sim.summary();
        let whole = Kept::default().of(&sim, span(&sim)).expect("over, the whole run's");
        assert_eq!((whole.throughput, whole.queue_p99), (summary.throughput, summary.queue_ms.p99));
    }

    #[test]
    fn an_embed_whose_sentence_reads_the_tail_or_a_twin_counts_since_the_run_began() {
        let embed = |tail, twin| Span::counted_as_sentences(Kind::Embed, tail, twin);
        assert_eq!(Span::of(false, embed(true, false), 0.0), Span::SinceStart, "chapter 1");
        assert_eq!(Span::of(false, embed(false, true), 0.0), Span::SinceStart, "a twin");
        assert_eq!(Span::of(false, embed(false, false), 0.0), Span::LastSecond, "the rest, as before");
        assert_eq!(Span::of(true, embed(true, true), 0.0), Span::WholeRun, "a run over");
        let lab = Span::counted_as_sentences(Kind::Lab, true, true);
        assert_eq!(Span::of(false, lab, 0.0), Span::LastSecond, "the lab's compare mode");
        assert_eq!(Span::SinceStart.note(), "(since the run began)");
        assert_eq!(Span::SinceStart.label(), "Since the run began:");
        assert_eq!(Span::WholeRun.label(), "Whole run:");
        assert_eq!(Span::LastSecond.note(), "(last second)");
    }

    /// Chapter 5 opens two seconds in, past a warm-up its figures do not
    /// count, under a strip that said "Since the run began:": beside a
    /// warm-up the strip and each figure's note name where they count
    /// from, and the figures are those the summary (which starts at the
    /// warm-up's end) gives.
    #[test]
    fn figures_after_a_warm_up_say_they_count_from_its_end() {
        let twin = Span::counted_as_sentences(Kind::Embed, false, true);
        assert_eq!(Span::of(false, twin, 2.0), Span::SinceWarmUp);
        assert_eq!(Span::of(true, twin, 2.0), Span::WholeRun, "a run over is still its whole run");
        assert_eq!(Span::of(false, false, 2.0), Span::LastSecond, "the last second has no warm-up in it");
        assert_eq!(Span::SinceWarmUp.label(), "Since the warm-up:");
        assert_eq!(Span::SinceWarmUp.note(), "(since the warm-up)");
        assert!(Span::SinceWarmUp.since() && Span::SinceStart.since());
        assert!(!Span::LastSecond.since() && !Span::WholeRun.since());
        let mut scenario = Scenario::default();
        scenario.set("warmup_s", "2").unwrap();
        let mut sim = Simulation::new(&scenario).unwrap();
        sim.advance_to(Time::from_secs(4.0), u64::MAX);
        let since = Kept::default().of(&sim, Span::SinceWarmUp).expect("figures since the warm-up");
        let summary = sim.summary();
        assert_eq!((since.queue_p50, since.queue_p99), (summary.queue_ms.p50, summary.queue_ms.p99));
        assert!((summary.measured_s - 2.0).abs() < 1e-9, "the summary counts from the warm-up's end");
    }

    /// Before its first reading a run has no figures, and a reading in
    /// which nothing ended counts no wait or throughput: the strip says
    /// so rather than 0.00 ms and 0/s.
    #[test]
    fn figures_that_count_no_finished_request_say_so() {
        let mut sim = Simulation::new(&Scenario::default()).unwrap();
        assert_eq!(Counted::of(sim.snapshot(0).latest.as_ref()), Counted::NoReading);
        assert_eq!(Span::LastSecond.label_of(Counted::NoReading), "Last second: none counted yet");
        let idle = SamplePoint { availability: f64::NAN, ..SamplePoint::default() };
        assert_eq!(Counted::of(Some(&idle)), Counted::NoneFinished);
        assert_eq!(
            Span::SinceStart.label_of(Counted::NoneFinished),
            "Since the run began: none finished yet"
        );
        let all_failed = SamplePoint { availability: 0.0, ..SamplePoint::default() };
        assert_eq!(Counted::of(Some(&all_failed)), Counted::Some, "requests that failed were counted");
        // Chapter 1's opening: its first trip plays for seconds at a
        // hundredth of real time, and the strip says what to watch.
        let opening = Counted::NoneFinished.during_opening(true);
        assert_eq!(Counted::NoReading.during_opening(true), opening);
        assert_eq!(Span::SinceStart.label_of(opening), "The first request is on its way: watch it");
        assert_eq!(Counted::NoneFinished.during_opening(false), Counted::NoneFinished, "after it");
        assert_eq!(Counted::Some.during_opening(true), Counted::Some, "a request finished");
        sim.advance_to(Time::from_secs(1.0), u64::MAX);
        let latest = sim.snapshot(0).latest.expect("a reading after a second");
        assert_eq!(Counted::of(Some(&latest)), Counted::Some);
        assert_eq!(Span::LastSecond.label_of(Counted::Some), "Last second:");
    }

    #[test]
    fn a_pinned_baseline_says_which_part_of_the_run_it_kept() {
        assert_eq!(pinned(true, 0.6, "random"), "pinned: the whole run, random");
        assert_eq!(pinned(false, 12.34, "random"), "pinned: the first 12.3 s, random");
    }

    /// Chapter 1's strip gave the last second's p50 (7.2 ms) beside its
    /// sentence's median over the whole run (5.8 ms): counted since the
    /// run began, the two are one figure.
    #[test]
    fn figures_since_the_run_began_are_its_summary_s_and_follow_its_clock() {
        let mut sim = Simulation::new(&Scenario::default()).unwrap();
        let mut kept = Kept::default();
        for seconds in [1.0, 2.0] {
            sim.advance_to(Time::from_secs(seconds), u64::MAX);
            let since = kept.of(&sim, Span::SinceStart).expect("figures since the start");
            let summary = sim.summary();
            assert_eq!((since.queue_p50, since.queue_p99), (summary.queue_ms.p50, summary.queue_ms.p99));
        }
    }
}
