//! Hedged requests (Dean and Barroso, "The Tail at Scale", 2013), the
//! feature's side: a chooser that has had no response `hedge_after_ms`
//! after sending a request (or, with `hedge_percentile`, that percentile
//! of the latencies it saw on its last 64 responses) sends a copy to a
//! different server. Hedging arms a timer when a request is first sent,
//! asks the core for a copy ([`Action::MakeCopy`]) when it is due and the
//! request is in no race, and has the copy sent ([`Action::SendCopy`]).
//! The copy races its original as every copy does, the first to finish
//! service answering (the core's, `engine/copies/`); hedging says only how
//! a loser in service stops (`hedge_cancel`), when it asks for the copy.

mod state;
mod summary;

use super::{Action, Asks, Completed, Feature, Heard, Points, Report, Sent, View};
use crate::engine::copies::Race;
use crate::engine::Happening;
use crate::scenario::Scenario;
use crate::time::Time;

pub use state::{HedgeTally, Hedges};
pub use summary::Hedging;

impl Feature for Hedges {
    /// The kind `HedgeDue` had.
    const TRACE_KIND: u64 = 12;
    const HEARS: Points = Points::SENT.and(Points::HEARD).and(Points::COMPLETED);
    const TIMERS_NAME_PLACES: bool = true;

    /// Present once the scenario hedges (a live change may turn it on
    /// later, see `Owned::configure_hedging`).
    fn for_scenario(scenario: &Scenario) -> Option<Hedges> {
        let mut hedges = Hedges::default();
        hedges.configure(scenario);
        hedges.on.then_some(hedges)
    }

    /// A hedge is stale unless its place's request still waits on it.
    fn stands(&self, place: u32, now: Time) -> bool {
        self.is_due(place, now)
    }

    /// A request's first send arms its hedge.
    fn sent(&mut self, sent: Sent, view: &View, out: &mut Asks) {
        let Some(place) = sent.place.filter(|_| self.on) else { return };
        let Some(session) = view.requests.get(place) else { return };
        if view.requests.races.race(place) != Race::Out || session.request.retries > 0 {
            return;
        }
        let chooser = view.choosers.member(session.chooser(), session.request.class);
        let percentile = self.percentile.and_then(|_| self.percentile_of(chooser));
        if let Some(after) = percentile.or(self.after) {
            self.arm(place, view.now + after);
            out.push(Action::Timer { at: view.now + after, payload: place });
        }
    }

    /// A response to a request on its first try counts towards the
    /// percentile its chooser hedges after.
    fn heard(&mut self, heard: Heard, _view: &View, _out: &mut Asks) {
        if let (Some(percentile), Some(latency)) = (self.percentile, heard.round_trip) {
            self.observe(heard.chooser, latency, percentile);
        }
    }

    fn completed(&mut self, Completed { place, request }: Completed, view: &View, _out: &mut Asks) {
        if view.measuring && self.has_sent_copy(place, request) {
            self.tally.completed += 1;
        }
    }

    /// Place `place`'s hedge is due: a copy, if no response has come.
    fn timer(&mut self, place: u32, view: &View, out: &mut Asks) {
        if self.take_due(place, view.now) && self.on && view.requests.races.race(place) == Race::Out {
            let cancels_in_service = view.scenario.hedge_cancel.cancels_in_service();
            out.push(Action::MakeCopy { place, cancels_in_service });
        }
    }

    /// The copy was made, racing its original: it goes out.
    fn carried(&mut self, report: Report, view: &View, out: &mut Asks) {
        let Report::Copied { place, copy, request } = report else { return };
        if view.measuring {
            self.tally.sent += 1;
        }
        // Either twin may answer: both carry the request's key.
        self.sent_copy_for(place, request);
        if let Some(copy) = copy {
            self.disarm(copy);
            self.sent_copy_for(copy, request);
        }
        let Some(original) = view.requests.get(place) else { return };
        if let Some(whose) = view.whose(place).filter(|_| view.journaled) {
            let waited = view.now - original.request.created;
            let cancelled_en_route = copy.is_none();
            out.push(Action::Note(Happening::Hedged { request: whose, waited, cancelled_en_route }));
        }
        if let Some(copy) = copy {
            out.push(Action::SendCopy { copy, avoid: original.request.server });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The trace names a hedge's request only while the hedge is the
    /// place's pending one, as it named `HedgeDue`'s.
    #[test]
    fn a_hedge_stands_only_while_it_is_its_places_pending_one() {
        let mut hedges = Hedges::default();
        let due = Time::from_ms(5.0);
        hedges.arm(3, due);
        assert!(hedges.stands(3, due));
        assert!(!hedges.stands(3, Time::from_ms(4.0)), "a hedge armed anew leaves the earlier one stale");
        assert!(!hedges.stands(2, due), "another place holds no hedge");
        assert!(hedges.take_due(3, due));
        assert!(!hedges.stands(3, due), "a hedge taken is stale");
    }
}
