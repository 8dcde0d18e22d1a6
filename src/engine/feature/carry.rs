//! The core's side of the feature interface: it tells the features what
//! happened, with a view of itself, and carries out what they ask.

use super::{Action, FeatureId, FeatureTimer, Heard, Picked, Points, Report, Sent, View};
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
            faults: &$sim.features.faults,
        }
    };
}

/// The core's side of the points on the path of every request: a flag's
/// test, inlined where the core calls it, and the features told out of
/// line only when one of them hears the point.
macro_rules! points {
    ($($(#[$doc:meta])* $tell:ident / $out_of_line:ident ($told:ident: $what:ty) at $flag:ident;)*) => {
        impl Simulation {
            $(
                $(#[$doc])*
                #[inline(always)]
                pub(in crate::engine) fn $tell(&mut self, $told: $what) {
                    if self.owned.hears(Points::$flag) {
                        self.$out_of_line($told);
                    }
                }

                #[inline(never)]
                fn $out_of_line(&mut self, $told: $what) {
                    self.owned.$told($told, &view!(self), &mut self.asked);
                    self.carry_out_asked();
                }
            )*
        }
    };
}

points! {
    /// A chooser's policy picked a server.
    tell_picked / tell_features_picked(picked: Picked) at PICKED;
    /// A request left its chooser for a server.
    tell_sent / tell_features_sent(sent: Sent) at SENT;
    /// A chooser heard a response, or an error, from a server.
    tell_heard / tell_features_heard(heard: Heard) at HEARD;
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

    /// Every chooser's policy was built anew.
    pub(in crate::engine) fn tell_policies_rebuilt(&mut self) {
        self.owned.policies_rebuilt();
    }

    /// Carries out what the features asked, in the order they asked it,
    /// then what they asked on hearing what came of it, until nothing is
    /// left.
    fn carry_out_asked(&mut self) {
        let mut asked = std::mem::take(&mut self.asked);
        while !asked.is_empty() {
            for (id, action) in asked.drain(..) {
                if let Some(report) = self.carry(id, action) {
                    self.owned.carried((id, report), &view!(self), &mut self.asked);
                }
            }
            std::mem::swap(&mut asked, &mut self.asked);
        }
        self.asked = asked;
    }

    /// Carries out `action` for feature `id`; returns what came of it, if
    /// the feature is to hear.
    fn carry(&mut self, id: FeatureId, action: Action) -> Option<Report> {
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
            Action::Eject { chooser, server, until, max_fraction } => {
                let rng = &mut self.streams.routing;
                if self.choosers.eject(chooser as usize, server, until, max_fraction, rng) {
                    return Some(Report::Ejected { chooser, until });
                }
            }
            Action::Readmit { chooser } => {
                self.choosers.readmit_due(chooser as usize, self.now, &mut self.streams.routing);
            }
            Action::SetHealth { server, healthy } => {
                self.choosers.set_health(server, healthy, &mut self.streams.routing);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::super::PAYLOAD_BITS;
    use super::*;

    #[test]
    fn a_timer_word_gives_back_its_feature_and_its_payload() {
        for (id, payload) in [(FeatureId::Drift, 0), (FeatureId::HealthChecks, (1 << PAYLOAD_BITS) - 1)] {
            let timer = FeatureTimer::new(id, payload);
            assert_eq!((timer.feature(), timer.payload()), (id, payload));
        }
    }
}
