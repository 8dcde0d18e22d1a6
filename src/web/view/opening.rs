//! A view's opening (`first=one`): one request's trip followed at a
//! walking pace, then the rest at the view's speed. Where the opening
//! stands is `opening`'s, tested natively; this is its wiring.

use super::*;
use crate::opening::Cue;

impl View {
    /// Starts the opening the link asks for: none for a reader who asked
    /// for reduced motion, who sees no request travel.
    pub(super) fn open(&mut self) {
        self.opening = Opening::new(self.options.one_first && !self.reduced_motion);
    }

    /// Whether the view's opening, if it has one, has been shown.
    pub fn opening_over(&self) -> bool {
        self.opening.is_over()
    }

    /// Moves the opening on from the requests just drawn: follows the first
    /// request's client, and lets it go once its trip is over (unless the
    /// reader has since followed another). While it follows, that trip is
    /// the one request drawn travelling: one moving part at a time.
    pub(super) fn opening_moves_on(&mut self) {
        match self.opening.observe(self.snapshot.time_ms, &self.snapshot.requests) {
            Some(Cue::Follow(client)) => {
                self.follow(Some(client));
                self.parts.event_log.room_over_picture = false;
            }
            Some(Cue::Release(client)) => {
                if self.followed == Some(client) {
                    self.follow(None);
                }
                // Its words and the following line go: the view fits afresh.
                self.resized();
            }
            _ => {}
        }
        if let Some(client) = self.opening.following() {
            self.snapshot.requests.retain(|request| request.client == client);
        }
    }
}
