//! The core's side of the feature interface: it tells the features what
//! happened, with a view of itself, and carries out what they ask.

use super::{
    Action, Arrived, Back, CameBack, Completed, Created, FeatureId, FeatureTimer, Freed, Heard, Picked,
};
use super::{Marked, Outbox, Owned, Placing, Points, Report, Returned, Sending, Sent, SpeedBy, View};
use crate::engine::flight::Flight;
use crate::engine::requests::Stage;
use crate::engine::{Event, Outcome, Simulation};
use crate::rng::Draw;
use crate::scenario::failures::Failure;
use crate::scenario::RetryHosts;

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
            measuring: $sim.metrics.measuring($sim.now),
            board: &$sim.board,
            stale_board: $sim.timing.board_refresh.is_some(),
            marks: &$sim.marks,
            requests: &$sim.requests,
            lengths: &$sim.lengths,
            demands: $sim.streams.work,
        }
    };
}

/// Where `$sim`'s features put what they ask, beside the view: its list
/// of actions, and its routing stream.
macro_rules! outbox {
    ($sim:ident) => {
        Outbox { list: &mut $sim.asked, routing: &mut $sim.streams.routing }
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
                    self.owned.$told($told, &view!(self), &mut outbox!(self));
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
    /// A request reached a server.
    tell_arrived / tell_features_arrived(arrived: Arrived) at ARRIVED;
    /// A slot of a server freed.
    tell_freed / tell_features_freed(freed: Freed) at FREED;
    /// A place holds a request just created.
    tell_created / tell_features_created(created: Created) at CREATED;
    /// A request completed at its client.
    tell_completed / tell_features_completed(completed: Completed) at COMPLETED;
    /// A chooser heard back from a server.
    tell_came_back / tell_features_came_back(came_back: CameBack) at CAME_BACK;
}

impl Simulation {
    /// The run is built: each feature sets what it is due to do.
    pub(in crate::engine) fn start_features(&mut self) {
        self.owned.start(&view!(self), &mut outbox!(self));
        self.carry_out_asked();
    }

    /// A timer of feature `id` is due, with its payload. Kept out of line:
    /// inlined, the handler of every event would grow past what the event
    /// loop inlines.
    #[inline(never)]
    pub(in crate::engine) fn feature_timer(&mut self, timer: FeatureTimer) {
        self.owned.timer(timer, &view!(self), &mut outbox!(self));
        self.carry_out_asked();
    }

    /// Whether place `id`'s request, back at its chooser for `why`, is
    /// tried again: a feature took it (an answer that is no error is
    /// passed on as it is).
    #[inline(always)]
    pub(in crate::engine) fn tried_again(&mut self, id: u32, why: Back) -> bool {
        match self.requests.get(id) {
            Some(session) if why == Back::SentBack || session.outcome != Outcome::Ok => {
                self.owned.hears(Points::RETURNED) && self.tell_returned(id, why)
            }
            _ => false,
        }
    }

    /// Tells the features that place `id`'s request came back for `why`;
    /// returns whether one took it.
    #[inline(never)]
    fn tell_returned(&mut self, id: u32, why: Back) -> bool {
        let Some(session) = self.requests.get(id) else { return false };
        let (tries, request) = (session.request.retries, (session.number, session.remaining));
        let returned = Returned { place: id, why, tries, request };
        self.taken_by_features(id, |owned, view, asked| owned.returned(returned, view, asked))
    }

    /// Tells the features something with `tell`, and carries out what
    /// they asked; returns whether they took place `id`'s request from the
    /// core's hands.
    fn taken_by_features(&mut self, id: u32, tell: impl FnOnce(&mut Owned, &View, &mut Outbox)) -> bool {
        tell(&mut self.owned, &view!(self), &mut outbox!(self));
        let taken = self.asked.iter().any(|(_, action)| action.takes(id));
        self.carry_out_asked();
        taken
    }

    /// Whether a feature places place `id`'s request from `chooser` itself,
    /// rather than the chooser's policy: the connection that carries it
    /// leads to a server already, or a FoundationDB balancer sends
    /// attempts of its own.
    #[inline(always)]
    pub(in crate::engine) fn placed_by_feature(&mut self, id: u32, chooser: usize) -> bool {
        self.owned.hears(Points::PLACING) && self.tell_placing(id, chooser)
    }

    #[inline(never)]
    fn tell_placing(&mut self, id: u32, chooser: usize) -> bool {
        let placing = Placing { place: id, chooser };
        self.taken_by_features(id, |owned, view, asked| owned.placing(placing, view, asked))
    }

    /// Whether the request `flight` names, about to leave `chooser` for
    /// the server at `position`, stays at the chooser: a feature held it
    /// there, or failed it. A hedged copy always goes.
    #[inline(always)]
    pub(in crate::engine) fn kept_at_chooser(
        &mut self,
        flight: Flight,
        chooser: usize,
        position: usize,
    ) -> bool {
        self.owned.hears(Points::SENDING) && self.tell_sending(flight, chooser, position)
    }

    #[inline(never)]
    fn tell_sending(&mut self, flight: Flight, chooser: usize, position: usize) -> bool {
        let Some(place) = flight.place().filter(|&place| !self.requests.races.is_copy(place)) else {
            return false;
        };
        let server = self.choosers.server_at(chooser, position);
        let sending = Sending { place, chooser, server };
        self.taken_by_features(place, |owned, view, asked| owned.sending(sending, view, asked))
    }

    /// Place `id`'s request, at its chooser, leaves for `server`, or, if
    /// the chooser's pool no longer holds it, where its policy picks.
    fn send_to(&mut self, id: u32, server: u32) {
        let Some(session) = self.requests.get(id) else { return };
        let chooser = self.choosers.member(session.chooser(), session.request.class);
        let position = match self.choosers.position_of(chooser, server) {
            Some(position) => position,
            None => self.choose(chooser, None, self.key_of(id)).position,
        };
        self.send_to_server(Flight::request(id), chooser, position);
    }

    /// Place `id`'s request, back at its chooser, is placed again,
    /// avoiding the server it came back from.
    /// Place `id`'s request, back at its chooser, is placed again, its
    /// policy told of the server it came back from (repick avoids it);
    /// under Envoy's `previous_hosts` predicate a pick of that server is
    /// made again, up to `host_selection_retry_max_attempts` times.
    fn place_again(&mut self, id: u32) {
        let Some(session) = self.requests.get(id) else { return };
        let chooser = self.choosers.member(session.chooser(), session.request.class);
        let previous = session.request.server;
        let key = self.key_of(id);
        let mut pick = self.choose(chooser, Some(previous), key);
        if self.scenario.retry_hosts == RetryHosts::PreviousHosts {
            for _ in 0..self.scenario.host_selection_retry_max_attempts {
                if self.choosers.server_at(chooser, pick.position) != previous {
                    break;
                }
                pick = self.choose(chooser, Some(previous), key);
            }
        }
        self.send_to_server(Flight::request(id), chooser, pick.position);
    }

    /// Fails `server` by hand at once (or with none, recovers it).
    pub(in crate::engine) fn fail_by_hand(&mut self, server: usize, failure: Option<Failure>) {
        self.owned.fail_by_hand((server, failure), self.now, &mut outbox!(self));
        self.carry_out_asked();
    }

    /// The servers that are members changed.
    pub(in crate::engine) fn tell_members_changed(&mut self) {
        self.owned.members_changed(&view!(self), &mut outbox!(self));
        self.carry_out_asked();
    }

    /// Every chooser's policy was built (at the start, or anew).
    pub(in crate::engine) fn tell_policies_built(&mut self) {
        self.owned.policies_built(&view!(self), &mut outbox!(self));
        self.carry_out_asked();
    }

    /// Carries out what the features asked, in the order they asked it,
    /// then what they asked on hearing what came of it, until nothing is
    /// left.
    fn carry_out_asked(&mut self) {
        let mut asked = std::mem::take(&mut self.asked);
        while !asked.is_empty() {
            for (id, action) in asked.drain(..) {
                if let Some(report) = self.carry(id, action) {
                    self.owned.carried((id, report), &view!(self), &mut outbox!(self));
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
            Action::ScaleSpeed { server, by } => {
                if let Some(server) = self.servers.get_mut(server as usize) {
                    match by {
                        SpeedBy::Times(factor) => server.speed *= factor,
                        SpeedBy::Over(factor) => server.speed /= factor,
                    }
                }
            }
            Action::Mark { server, mark } => {
                let before = self.marks.set(server as usize, mark);
                self.tell_at_once(|owned, view, out| {
                    owned.marked(Marked { server, before, mark }, view, out)
                });
            }
            Action::ChangeMembers { change, members } => return Some(self.change_members(change, &members)),
            Action::Note(happening) => self.note(happening),
            Action::Eject { chooser, server, until, max_fraction, always_one } => {
                let rng = &mut self.streams.routing;
                if self.choosers.eject(chooser as usize, (server, until), (max_fraction, always_one), rng) {
                    return Some(Report::Ejected { chooser, server, until });
                }
            }
            Action::Readmit { chooser } => {
                self.choosers.readmit_due(chooser as usize, self.now, &mut self.streams.routing);
            }
            Action::ReadmitNow { chooser, server } => {
                self.choosers.readmit(chooser as usize, server, &mut self.streams.routing);
            }
            Action::Retry { place, tries, wait } => {
                let session = self.requests.get_mut(place)?;
                session.request.retries = tries;
                self.metrics.counts.retried += 1;
                match wait {
                    Some(wait) => session.request.travel(Stage::Held, self.now, self.now + wait),
                    None => self.place_again(place),
                }
            }
            Action::Release { place } => {
                if self.requests.get(place).is_some() && !self.ended_under_way(Flight::request(place)) {
                    self.place_again(place);
                }
            }
            Action::ReportIdle { server } => {
                let chooser = self.streams.routing.index(self.choosers.count());
                let listed = self.choosers.on_idle(chooser, server);
                return Some(Report::Listed { server, listed });
            }
            Action::SetHealth { server, healthy } => {
                self.choosers.set_health(server, healthy, &mut self.streams.routing);
            }
            Action::MakeCopy { place, cancels_in_service } => {
                return self.make_copy(place, cancels_in_service)
            }
            Action::SendCopy { copy, avoid } => self.send_copy(copy, avoid),
            Action::TakeTables { member } => {
                self.choosers.take_tables(member as usize, self.now);
                self.directory.forget_key_counts();
            }
            Action::PanicBelow { percent } => self.choosers.panic_below(percent),
            Action::SetWeight { server, weight } => {
                self.choosers.set_weight(server, weight, &mut self.streams.routing);
            }
            Action::Hold { place, server } => {
                let session = self.requests.get_mut(place)?;
                session.request.server = server;
                session.request.travel(Stage::Held, self.now, self.now);
            }
            Action::SendTo { place, server } => self.send_to(place, server),
            Action::Fail { place, reason } => {
                if self.requests.get(place).is_some() {
                    self.fail(place, reason);
                }
            }
            Action::Keep { place } => {
                let session = self.requests.get_mut(place)?;
                session.request.travel(Stage::Held, self.now, self.now);
            }
            Action::SendAttempt { place, chooser, server, index, token } => {
                self.send_attempt((id, token), (place, index), chooser as usize, server);
            }
            Action::Answer { place, server } => self.answer(place, server),
        }
        None
    }

    /// Tells the features something with `tell`, and carries out what
    /// they ask at once, before what was asked already: a server's mark
    /// takes effect as it is set, and whoever hears of it acts on it
    /// before the next action of the feature that set it.
    fn tell_at_once(&mut self, tell: impl FnOnce(&mut Owned, &View, &mut Outbox)) {
        let pending = std::mem::take(&mut self.asked);
        tell(&mut self.owned, &view!(self), &mut outbox!(self));
        self.carry_out_asked();
        self.asked = pending;
    }

    /// Tells feature `id` what came of an action it asked for, outside
    /// the carrying of actions (an attempt's reply, back later).
    pub(in crate::engine) fn report_to(&mut self, id: FeatureId, report: Report) {
        self.owned.carried((id, report), &view!(self), &mut outbox!(self));
        self.carry_out_asked();
    }
}

#[cfg(test)]
mod tests {
    use super::super::points::PAYLOAD_BITS;
    use super::*;

    #[test]
    fn a_timer_word_gives_back_its_feature_and_its_payload() {
        for (id, payload) in [(FeatureId::Drift, 0), (FeatureId::HealthChecks, (1 << PAYLOAD_BITS) - 1)] {
            let timer = FeatureTimer::new(id, payload);
            assert_eq!((timer.feature(), timer.payload()), (id, payload));
        }
    }
}
