//! A view's question before its run (`ask=1`): it waits at its start
//! until the reader answers or skips, then runs to its point, and the
//! verdict is read from the run as its sentences are. Where the question
//! stands is `guess`'s, tested natively; this is its wiring.

use super::*;
use crate::guess::{live_change, watching_words, Answer, Guess, Topic};
use crate::twins::Pictures;
use lbsim::scenario::failures::Failure;

impl View {
    /// Puts the question the link asks for, if it asks: about tails with a
    /// twin, about a slowed server's queue alone.
    pub(super) fn ask(&mut self) {
        let pictures = Pictures::for_view(&self.params.scenario, &self.options.versus);
        self.guess = Guess::for_view(self.options.ask, &self.options.question, pictures.sides());
        self.show_question();
        let asks = self.waits_for_guess();
        self.mark_chapter("asking", asks);
        self.mark_chapter("revealed", !asks);
    }

    /// Marks the chapter the view stands in: `asking` while the question
    /// waits (its held room says the runs start at the answer), and
    /// `revealed` from the verdict, the prose that tells the answer
    /// (`data-reveal`) held back until then, and until the view is mounted
    /// (the page's style hides it where not `revealed`). The guess comes
    /// first, and the answer's prose comes with the verdict, once the
    /// figure has made its point: shown at the answer, it told chapter 4's
    /// reader "cannot be measured" while both pictures were still the
    /// same.
    fn mark_chapter(&self, class: &str, marked: bool) {
        if let Some(chapter) = self.root.closest("section.chapter").ok().flatten() {
            let _ = chapter.class_list().toggle_with_force(class, marked);
        }
    }

    /// Shows the question as it stands, its answers named as the runs are
    /// now (a control may have changed the view's own).
    pub(super) fn show_question(&mut self) {
        let pictures = Pictures::for_view(&self.params.scenario, &self.options.versus);
        if let (Some(guess), Some(question)) = (&self.guess, &mut self.parts.question) {
            question.show(guess, pictures.sides());
        }
    }

    /// The reader answered (`None`: skipped): the run goes to its point.
    pub fn guessed(&mut self, answer: Option<Answer>) {
        let Some(guess) = &mut self.guess else { return };
        match answer {
            Some(answer) => guess.answer(answer),
            None => guess.skip(),
        }
        self.show_question();
        self.mark_chapter("asking", false);
        self.resized();
        self.set_playing(true);
    }

    /// The run changed under the reader (a control, a slowed server): a
    /// guess about the run before retires rather than being graded
    /// against this one.
    pub(super) fn run_changed(&mut self) {
        if let Some(guess) = &mut self.guess {
            guess.settings_changed();
        }
    }

    /// The reader slowed `server` (`failure`), or gave it back its speed
    /// (`None`), at `at`: what a question about a slowed queue asks them
    /// to do, so it is read, where any other change retires a guess.
    pub(super) fn failure_changed(&mut self, server: usize, failure: Option<Failure>, at: Time) {
        let Some(guess) = self.guess.as_mut().filter(|guess| guess.topic() == Topic::SlowedQueue) else {
            return self.changed_live(live_change(server, matches!(failure, Some(Failure::Slow { .. }))));
        };
        match failure {
            Some(Failure::Slow { .. }) => guess.server_slowed(server, at.as_secs()),
            None => guess.server_restored(server),
            Some(_) => guess.settings_changed(),
        }
    }

    /// The reader changed both runs live (`change`, in words): a verdict
    /// about their tails, once given, stays and says so (see
    /// `Guess::changed_live`).
    fn changed_live(&mut self, change: String) {
        let pictures = Pictures::for_view(&self.params.scenario, &self.options.versus);
        match (&mut self.guess, &self.twin, pictures.sides()) {
            (Some(guess), Some(twin), Some(sides)) => {
                guess.changed_live(change, sides, &self.sim.summary(), &twin.summary())
            }
            _ => self.run_changed(),
        }
    }

    /// Whether the run waits at its start for the reader's guess.
    pub(super) fn waits_for_guess(&self) -> bool {
        self.guess.as_ref().is_some_and(Guess::waits)
    }

    /// Whether the run goes through its warm-up while it waits for the
    /// guess (see [`Guess::shows_setup`]).
    pub(super) fn shows_setup(&self) -> bool {
        self.guess.as_ref().is_some_and(Guess::shows_setup)
    }

    /// Reads the verdict again from the run, when it is due.
    pub(super) fn tell_verdict(&mut self, now_ms: f64) {
        if self.guess.as_ref().is_some_and(|guess| guess.topic() == Topic::SlowedQueue) {
            return self.tell_slowed_verdict(now_ms);
        }
        let (Some(guess), Some(question), Some(twin)) = (&self.guess, &mut self.parts.question, &self.twin)
        else {
            return;
        };
        if guess.waits() || !question.verdict_due(now_ms) {
            return;
        }
        let pictures = Pictures::for_view(&self.params.scenario, &self.options.versus);
        let Some(sides) = pictures.sides() else { return };
        // The reader watches the run from the answer on (see
        // `run_ahead_s`): no verdict before it has its point, nor before
        // it has the span its tail is read over, nor, where the pair runs
        // on more seeds, before their dots are in to grade it by.
        let own = self.sim.summary();
        let spread = self.spread.as_ref();
        let ready = self.parts.narration.ready(&self.params.scenario, &self.sim, Some(twin));
        let watching = watching_words(spread);
        if guess.watching(&own) || guess.awaits_seeds(spread) || !ready {
            question.show_verdict(&watching, now_ms);
        } else if let Some(verdict) = spread
            .and_then(|spread| guess.verdict_over_seeds(sides, spread))
            .or_else(|| guess.verdict(sides, &own, &twin.summary()))
        {
            // The view fits afresh once the verdict replaces the watching
            // words: what it folded to fit them and the first seconds'
            // sentences (at 800 × 600, the controls the link names, for the
            // five seconds the verdict waits) comes back where it has room.
            if question.says(&watching) {
                if let Some(fit) = &mut self.parts.fit {
                    fit.invalidate();
                }
            }
            question.show_verdict(&verdict, now_ms);
            self.mark_chapter("revealed", true);
        }
    }

    /// Reads again what the reveal of a question about a slowed queue
    /// says, when it is due: to slow a server, to watch it, then the
    /// verdict, with which the prose explaining it shows.
    fn tell_slowed_verdict(&mut self, now_ms: f64) {
        let (Some(guess), Some(question)) = (&mut self.guess, &mut self.parts.question) else { return };
        if !question.verdict_due(now_ms) {
            return;
        }
        let now_s = self.sim.now().as_secs();
        let Some((words, verdict)) =
            guess.slowed_words(now_s, &self.sim.metrics().server_history, &self.snapshot)
        else {
            return;
        };
        question.show_verdict(&words, now_ms);
        if verdict {
            self.mark_chapter("revealed", true);
        }
    }
}
