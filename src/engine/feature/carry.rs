//! The core's side of the feature interface: it tells the features what
//! happened, with a view of itself, and carries out what they ask.

use super::{Action, FeatureId, Owned, Picked, Sent, View};
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
    pub(in crate::engine) fn feature_timer(&mut self, id: FeatureId, payload: u32) {
        self.owned.timer((id, payload), &view!(self), &mut self.asked);
        self.carry_out_asked();
    }

    /// A chooser's policy picked a server.
    #[inline(always)]
    pub(in crate::engine) fn tell_picked(&mut self, picked: Picked) {
        self.owned.picked(picked, || view!(self), &mut self.asked);
        self.carry_out_asked();
    }

    /// Every chooser's policy was built anew.
    pub(in crate::engine) fn tell_policies_rebuilt(&mut self) {
        self.owned.policies_rebuilt();
    }

    /// A request left its chooser for a server.
    #[inline(always)]
    pub(in crate::engine) fn tell_sent(&mut self, sent: Sent) {
        self.owned.sent(sent, || view!(self), &mut self.asked);
        self.carry_out_asked();
    }

    /// Carries out what the features asked, in the order they asked it.
    #[inline(always)]
    fn carry_out_asked(&mut self) {
        if !self.asked.is_empty() {
            self.carry_out_each();
        }
    }

    #[inline(never)]
    fn carry_out_each(&mut self) {
        let mut asked = std::mem::take(&mut self.asked);
        for (id, action) in asked.drain(..) {
            self.carry(id, action);
        }
        self.asked = asked;
    }

    fn carry(&mut self, id: FeatureId, action: Action) {
        match action {
            Action::Timer { at, payload } => {
                self.events.push(at, Event::FeatureTimer { feature: id, payload });
            }
            Action::SetSpeed { server, speed } => {
                if let Some(server) = self.servers.get_mut(server as usize) {
                    server.speed = speed;
                }
            }
            Action::Note(happening) => self.note(happening),
        }
    }

    /// Its trace hash's kind of event and word for feature `id`'s timer.
    pub(in crate::engine) fn traced_timer(id: FeatureId, payload: u32) -> (u64, u64) {
        (Owned::trace_kind(id), payload.into())
    }
}
