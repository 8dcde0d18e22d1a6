//! What a view's frame does with its words, and how long the keys moved by
//! a membership change are seen moving, decided from where the view
//! stands.

/// What the sentences under a view do in a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Words {
    /// Say what the opening shows (one request's trip first).
    Opening,
    /// Hold their words while the run runs ahead to its point: a sentence
    /// of the warm-up would stay on screen after it.
    Hold,
    /// Say nothing: the question comes first, and no sentence answers it
    /// before.
    Hide,
    /// Read the run back, as due.
    Update,
}

/// Where a view stands in a frame, for its words.
#[derive(Clone, Copy, Debug)]
pub struct Moment {
    /// Playing and still short of its point (see
    /// [`RunAhead`](super::run_ahead::RunAhead)).
    pub running_ahead: bool,
    /// Its opening, if it has one, has been shown.
    pub opening_over: bool,
    /// A question waits for the reader's guess.
    pub asking: bool,
    pub playing: bool,
}

impl Words {
    pub fn for_frame(at: Moment) -> Words {
        match (at.running_ahead, at.opening_over) {
            (true, false) => Words::Opening,
            (true, true) => Words::Hold,
            (false, _) if at.asking => Words::Hide,
            // Drawn still before its opening, the view says what the
            // opening will show: the first frame's words, a line shorter,
            // left room for the strip of figures that folded once it ran.
            (false, false) if !at.playing => Words::Opening,
            (false, _) => Words::Update,
        }
    }
}

/// How long keys are seen moving after a membership change (wall ms).
pub const MOVES_SHOWN_MS: f64 = 3_000.0;

/// The last membership change whose moving keys were shown: its simulated
/// time, and the wall time they first were.
#[derive(Clone, Copy, Debug, Default)]
pub struct MovesShown(Option<(f64, f64)>);

impl MovesShown {
    /// The run's last membership change applied at `at_ms` (simulated),
    /// seen at `now_ms` (wall); returns whether it has just applied, so
    /// that its sentence is due now.
    pub fn observe(&mut self, at_ms: f64, now_ms: f64) -> bool {
        let new = self.0.is_none_or(|(shown_ms, _)| shown_ms != at_ms);
        if new {
            self.0 = Some((at_ms, now_ms));
        }
        new
    }

    /// While the keys are seen moving at `now_ms`, how far each mark is
    /// through its one-second trip (0 to 1).
    pub fn phase(&self, now_ms: f64) -> Option<f64> {
        let (_, started) = self.0?;
        let elapsed = now_ms - started;
        (elapsed < MOVES_SHOWN_MS).then_some((elapsed / 1000.0).fract())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAYING: Moment = Moment { running_ahead: false, opening_over: true, asking: false, playing: true };

    #[test]
    fn the_words_wait_for_the_opening_the_point_and_the_guess() {
        let words = |moment| Words::for_frame(moment);
        assert_eq!(words(PLAYING), Words::Update);
        assert_eq!(words(Moment { running_ahead: true, opening_over: false, ..PLAYING }), Words::Opening);
        assert_eq!(words(Moment { running_ahead: true, ..PLAYING }), Words::Hold);
        assert_eq!(words(Moment { asking: true, ..PLAYING }), Words::Hide);
        // A question waiting is answered by no word, opening or not.
        assert_eq!(
            words(Moment { asking: true, opening_over: false, playing: false, ..PLAYING }),
            Words::Hide
        );
        // Drawn still before its opening, the view says what it will show;
        // playing its opening (not running ahead), it reads the run back.
        assert_eq!(words(Moment { opening_over: false, playing: false, ..PLAYING }), Words::Opening);
        assert_eq!(words(Moment { opening_over: false, ..PLAYING }), Words::Update);
        assert_eq!(words(Moment { playing: false, ..PLAYING }), Words::Update);
    }

    #[test]
    fn a_changes_keys_are_seen_moving_for_three_seconds_from_when_it_applied() {
        let mut shown = MovesShown::default();
        assert_eq!(shown.phase(0.0), None);
        assert!(shown.observe(1_000.0, 50.0), "a change just applied");
        assert!(!shown.observe(1_000.0, 66.0), "the same change, seen again");
        assert_eq!(shown.phase(50.0), Some(0.0));
        assert_eq!(shown.phase(1_800.0), Some(0.75));
        assert_eq!(shown.phase(50.0 + MOVES_SHOWN_MS), None);
        assert!(shown.observe(4_000.0, 5_000.0), "the next change");
        assert_eq!(shown.phase(5_250.0), Some(0.25));
    }
}
