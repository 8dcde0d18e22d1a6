//! The core's side of the feature interface: it tells the features what
//! happened, with a view of itself, and carries out what they ask.

use super::{Action, FeatureId, FeatureTimer, Picked, Points, Sent, View};
use crate::engine::{Event, Simulation};

/// A read-only view of `$sim`'s core, borrowing its fields one by one so
/// that its features and the list of their actions stay free to change.
macro_rules! view {
    ($sim:ident) => {
        View {
            now: $sim.now,
            scenario: &$sim.scenario,
            servers: &$sim.servers,
            choosers: &$sim.choosers,
            journaled: $sim.journal.is_some(),
            board: &$sim.board,
            stale_board: $sim.timing.board_refresh.is_some(),
        }
    };
}

impl Simulation {
    /// The run is built: each feature sets what it is due to do.
    pub(in crate::engine) fn start_features(&mut self) {
        self.owned.start(&view!(self), &mut self.asked);
        self.carry_out_asked();
    }

    /// A timer of feature `id` is due, with its payload. Kept out of line:
    /// inlined, the handler of every event would grow past what the event
    /// loop inlines.
    #[inline(never)]
    pub(in crate::engine) fn feature_timer(&mut self, timer: FeatureTimer) {
        self.owned.timer(timer, &view!(self), &mut self.asked);
        self.carry_out_asked();
    }

    /// A chooser's policy picked a server: a flag's test, unless a feature
    /// hears it.
    #[inline(always)]
    pub(in crate::engine) fn tell_picked(&mut self, picked: Picked) {
        if self.owned.hears(Points::PICKED) {
            self.tell_features_picked(picked);
        }
    }

    #[inline(never)]
    fn tell_features_picked(&mut self, picked: Picked) {
        self.owned.picked(picked, &view!(self), &mut self.asked);
        self.carry_out_asked();
    }

    /// Every chooser's policy was built anew.
    pub(in crate::engine) fn tell_policies_rebuilt(&mut self) {
        self.owned.policies_rebuilt();
    }

    /// A request left its chooser for a server: a flag's test, unless a
    /// feature hears it.
    #[inline(always)]
    pub(in crate::engine) fn tell_sent(&mut self, sent: Sent) {
        if self.owned.hears(Points::SENT) {
            self.tell_features_sent(sent);
        }
    }

    #[inline(never)]
    fn tell_features_sent(&mut self, sent: Sent) {
        self.owned.sent(sent, &view!(self), &mut self.asked);
        self.carry_out_asked();
    }

    /// Carries out what the features asked, in the order they asked it.
    fn carry_out_asked(&mut self) {
        let mut asked = std::mem::take(&mut self.asked);
        for (id, action) in asked.drain(..) {
            self.carry(id, action);
        }
        self.asked = asked;
    }

    fn carry(&mut self, id: FeatureId, action: Action) {
        match action {
            Action::Timer { at, payload } => {
                self.events.push(at, Event::FeatureTimer { timer: FeatureTimer::new(id, payload) });
            }
            Action::SetSpeed { server, speed } => {
                if let Some(server) = self.servers.get_mut(server as usize) {
                    server.speed = speed;
                }
            }
            Action::Note(happening) => self.note(happening),
        }
    }
}
