//! Hedged requests (Dean and Barroso, "The Tail at Scale", 2013): a chooser
//! that has had no response `hedge_after_ms` after sending a request (or,
//! with `hedge_percentile`, that percentile of the latencies it saw on its
//! last 64 responses) sends a copy to a different server. The first of the two to finish service
//! answers; the other loses: removed if it is still queued, dropped when it
//! reaches its server if still on its way, and in service either cancelled
//! at once or left to finish (`hedge_cancel`). Since a response takes the
//! same time back from any server of a chooser, the first to finish service
//! is the first response. A loser learns it has lost at that instant (the
//! cancellation takes no network time).
//!
//! A copy takes a session place of its own, a copy of its session's with
//! [`Fate::Copy`], so that every event still names one place and finds one
//! request there; the two places are twins until the race ends. When the
//! copy wins, its place becomes the session's and the original's loses.
//! Service time spent on losers is wasted work, counted in the summary.

use super::flight::Flight;
use super::journal::Happening;
use super::session::{Fate, Request, Stage};
use super::{Event, Simulation, MAX_IN_FLIGHT};
use crate::rng::Draw;
use crate::time::Time;

const NO_TWIN: u32 = u32::MAX;

/// Per session place: when its request's hedge is due, its twin, if any,
/// and which request of its session last sent a copy (empty until hedging
/// first arms); per chooser, the latencies it saw.
#[derive(Default)]
pub struct Hedges {
    due: Vec<Time>,
    twin: Vec<u32>,
    /// Whether the place's request is a copy (one that won its race stays
    /// one until its session's next request).
    copy: Vec<bool>,
    sent_copy: Vec<RequestKey>,
    observed: Vec<Observed>,
    scratch: Vec<Time>,
}

/// A request, by its session's number and the requests to follow it: a
/// place reused by a later request, or a later session, holds another key.
type RequestKey = (u32, u16);

const NO_REQUEST: RequestKey = (u32::MAX, u16::MAX);

/// How many of a chooser's latest latencies its percentile is taken over,
/// and how often (in responses) it is taken again.
const WINDOW: usize = 64;
const REFRESH: u64 = 16;

/// The latencies one chooser saw on its last responses, and the
/// percentile of them it hedges after.
#[derive(Default)]
struct Observed {
    recent: Vec<Time>,
    seen: u64,
    percentile: Option<Time>,
}

impl Hedges {
    /// `chooser` saw a response `latency` after its request was created:
    /// every `REFRESH` responses, once it has `WINDOW`, its `percentile`
    /// (nearest rank) is taken again.
    pub fn observe(&mut self, chooser: usize, latency: Time, percentile: f64) {
        if self.observed.len() <= chooser {
            self.observed.resize_with(chooser + 1, Observed::default);
        }
        let o = &mut self.observed[chooser];
        match o.recent.len() {
            WINDOW => o.recent[(o.seen % WINDOW as u64) as usize] = latency,
            _ => o.recent.push(latency),
        }
        o.seen += 1;
        if o.recent.len() == WINDOW && o.seen % REFRESH == 0 {
            let rank = (libm::ceil(percentile / 100.0 * WINDOW as f64) as usize).clamp(1, WINDOW);
            self.scratch.clone_from(&o.recent);
            let (_, at_rank, _) = self.scratch.select_nth_unstable(rank - 1);
            o.percentile = Some(*at_rank);
        }
    }

    /// The percentile of `chooser`'s latencies, once it has seen enough.
    fn percentile_of(&self, chooser: usize) -> Option<Time> {
        self.observed.get(chooser)?.percentile
    }

    fn grow_to(&mut self, id: u32) {
        let len = id as usize + 1;
        if self.due.len() < len {
            self.due.resize(len, Time::NEVER);
            self.twin.resize(len, NO_TWIN);
            self.copy.resize(len, false);
            self.sent_copy.resize(len, NO_REQUEST);
        }
    }

    fn arm(&mut self, id: u32, due: Time) {
        self.grow_to(id);
        self.due[id as usize] = due;
    }

    /// Whether place `id`'s hedge is due at `now`.
    pub(super) fn is_due(&self, id: u32, now: Time) -> bool {
        self.due.get(id as usize) == Some(&now)
    }

    /// Whether place `id`'s hedge is due at `now`; disarms it if so.
    fn take_due(&mut self, id: u32, now: Time) -> bool {
        let is_due = self.is_due(id, now);
        if is_due {
            self.due[id as usize] = Time::NEVER;
        }
        is_due
    }

    /// Races `copy` against `original`. The copy's place may still hold the
    /// hedge of an earlier request there, which would find the copy, once
    /// it has won, answering without a hedge of its own: it is void.
    fn link(&mut self, original: u32, copy: u32) {
        self.grow_to(original.max(copy));
        self.twin[original as usize] = copy;
        self.twin[copy as usize] = original;
        self.due[copy as usize] = Time::NEVER;
        self.copy[copy as usize] = true;
    }

    /// Whether place `id`'s request is a hedged copy.
    #[inline]
    pub(super) fn is_copy(&self, id: u32) -> bool {
        self.copy.get(id as usize) == Some(&true)
    }

    /// Place `id` holds a new request, its session's own.
    #[inline]
    pub(super) fn forget_copy(&mut self, id: u32) {
        if let Some(copy) = self.copy.get_mut(id as usize) {
            *copy = false;
        }
    }

    /// Notes that request `key`, at place `id`, sent a copy.
    fn sent_copy_for(&mut self, id: u32, key: RequestKey) {
        self.grow_to(id);
        self.sent_copy[id as usize] = key;
    }

    /// Whether request `key`, at place `id`, sent a copy.
    pub(super) fn has_sent_copy(&self, id: u32, key: RequestKey) -> bool {
        self.sent_copy.get(id as usize) == Some(&key)
    }

    /// Ends the race of place `id`: returns its twin, if it had one.
    pub(super) fn unlink(&mut self, id: u32) -> Option<u32> {
        let twin = *self.twin.get(id as usize)?;
        if twin == NO_TWIN {
            return None;
        }
        self.twin[id as usize] = NO_TWIN;
        self.twin[twin as usize] = NO_TWIN;
        Some(twin)
    }
}

impl Simulation {
    /// `chooser` had a response to a request never sent back, `latency`
    /// after its creation: it counts towards the percentile it hedges after.
    #[cold]
    pub(super) fn observe_latency(&mut self, chooser: usize, latency: Option<Time>) {
        if let (Some(percentile), Some(latency)) = (self.timing.hedge_percentile, latency) {
            self.features.hedges.observe(chooser, latency, percentile);
        }
    }

    /// A request was sent to a server: if it is the request's first send,
    /// schedule its hedge (hedging is on).
    #[cold]
    pub(super) fn arm_hedge(&mut self, id: u32) {
        let Some(session) = self.sessions.get(id) else { return };
        if session.fate != Fate::Answers || session.request.retries > 0 {
            return;
        }
        let chooser = self.choosers.member(session.chooser(), session.request.class);
        let percentile =
            self.timing.hedge_percentile.and_then(|_| self.features.hedges.percentile_of(chooser));
        if let Some(after) = percentile.or(self.timing.hedge_after) {
            self.features.hedges.arm(id, self.now + after);
            self.events.push(self.now + after, Event::HedgeDue { session: id });
        }
    }

    /// The service of place `id`'s request, racing or lost, ended and
    /// freed its slot: a loser left to finish ends, its service wasted; a
    /// racer wins. Returns whether it ended.
    #[cold]
    pub(super) fn hedge_service_ended(&mut self, id: u32, fate: Fate) -> bool {
        if fate != Fate::Lost {
            self.win(id);
            return false;
        }
        if let Some(r) = self.sessions.get(id).map(|s| &s.request) {
            self.metrics.on_wasted(self.now, self.now - r.departs);
        }
        self.discard(id);
        true
    }

    /// Sends a copy of place `id`'s request to another server, if its hedge
    /// is due and no response has come.
    #[cold]
    pub(super) fn hedge_due(&mut self, id: u32) {
        if !self.features.hedges.take_due(id, self.now) || !self.timing.hedging {
            return;
        }
        let Some(session) = self.sessions.get(id) else { return };
        let chooser = self.choosers.member(session.chooser(), session.request.class);
        if session.fate != Fate::Answers
            || self.choosers.pool_len(chooser) < 2
            || self.flights() >= MAX_IN_FLIGHT
        {
            return;
        }
        let key = (session.number, session.remaining);
        let to_chooser = match session.balancer() {
            Some(_) => Stage::ResponseToBalancer,
            None => Stage::ResponseToClient,
        };
        match session.request.stage {
            Stage::ToServer | Stage::Queued | Stage::InService | Stage::Bounced => {}
            stage if stage == to_chooser => {
                // The response is on its way to the chooser, who cannot know
                // it: the copy goes out, and the response, a hop at most
                // from the chooser, cancels it before it reaches its server.
                self.metrics.on_hedge(self.now);
                self.metrics.counts.discarded += 1;
                self.features.hedges.sent_copy_for(id, key);
                self.note_hedged(id, true);
                return;
            }
            _ => return,
        }
        let mut copy = session.clone();
        let class = copy.request.class;
        copy.fate = Fate::Copy;
        copy.request = Request::new(self.now, (class, self.work.copy_demand(self.streams.work, key, class)));
        // The copy answers for the request: its latency runs from the request's creation.
        copy.request.created = session.request.created;
        let avoid = session.request.server;
        let started = self.sessions.started(id);
        let copy_id = self.sessions.insert(copy, started);
        if let Some(original) = self.sessions.get_mut(id) {
            original.fate = Fate::Raced;
        }
        self.features.hedges.link(id, copy_id);
        // Either twin may answer: both carry the request's key.
        self.features.hedges.sent_copy_for(id, key);
        self.features.hedges.sent_copy_for(copy_id, key);
        self.metrics.on_hedge(self.now);
        self.note_hedged(id, false);
        let position = self.pick_other(chooser, avoid);
        self.send_to_server(Flight::session(copy_id), chooser, position);
    }

    /// Notes in the journal, if one is kept, that place `id`'s chooser
    /// hedged it.
    fn note_hedged(&mut self, id: u32, cancelled_en_route: bool) {
        if self.journal.is_some() {
            let waited = self.sessions.get(id).map_or(Time::ZERO, |s| self.now - s.request.created);
            self.note_request(Flight::session(id), |request| Happening::Hedged {
                request,
                waited,
                cancelled_en_route,
            });
        }
    }

    /// The chooser's policy's pick avoiding `avoid`; a policy that ignores
    /// what to avoid and picks it anyway gets another server of the pool
    /// drawn at random.
    fn pick_other(&mut self, chooser: usize, avoid: u32) -> usize {
        let pick = self.choose(chooser, Some(avoid), None).position;
        match self.choosers.position_of(chooser, avoid) {
            Some(taken) if pick == taken => {
                let len = self.choosers.pool_len(chooser);
                (taken + 1 + self.streams.routing.index(len - 1)) % len
            }
            _ => pick,
        }
    }

    /// Place `id`'s request (raced, or a copy) finished service first: it
    /// answers, and its twin loses.
    pub(super) fn win(&mut self, id: u32) {
        if let Some(session) = self.sessions.get_mut(id) {
            if session.fate == Fate::Copy {
                self.metrics.on_copy_won(self.now);
            }
            session.fate = Fate::Answers;
        }
        if let Some(twin) = self.features.hedges.unlink(id) {
            self.lose(twin);
        }
    }

    /// Place `id`'s request lost its race (or its twin failed): its chooser
    /// forgets it, and it stops as far as it can at once.
    #[cold]
    pub(super) fn lose(&mut self, id: u32) {
        self.features.hedges.unlink(id);
        let Some(session) = self.sessions.get_mut(id) else { return };
        let chooser = self.choosers.member(session.chooser(), session.request.class);
        let r = &session.request;
        let (server, class, stage, started) = (r.server, r.class, r.stage, r.departs);
        self.choosers.on_cancel(chooser, server, class);
        match stage {
            Stage::Queued => {
                self.servers[server as usize].queue.remove(Flight::session(id));
                self.discard(id);
            }
            Stage::InService if self.scenario.hedge_cancel.cancels_in_service() => {
                session.fate = Fate::Cancelled;
                self.metrics.on_wasted(self.now, self.now - started);
                self.free_slot(server as usize);
            }
            _ => session.fate = Fate::Lost,
        }
    }

    /// A queued copy timed out: it is dropped (not sent back), and its twin
    /// races no more.
    #[cold]
    pub(super) fn drop_copy(&mut self, id: u32) {
        if self.journal.is_some() {
            let server = self.sessions.get(id).map_or(0, |s| s.request.server);
            self.note_request(Flight::session(id), |request| Happening::CopyDropped { request, server });
        }
        let twin = self.features.hedges.unlink(id).and_then(|twin| self.sessions.get_mut(twin));
        if let Some(original) = twin {
            original.fate = Fate::Answers;
        }
        if let Some(session) = self.sessions.get(id) {
            let chooser = self.choosers.member(session.chooser(), session.request.class);
            self.choosers.on_cancel(chooser, session.request.server, session.request.class);
        }
        self.discard(id);
    }

    /// A copy that answers for no one ends.
    #[cold]
    pub(super) fn discard(&mut self, id: u32) {
        if self.journal.is_some() {
            let server = self.sessions.get(id).map_or(0, |s| s.request.server);
            self.note_request(Flight::session(id), |request| Happening::Discarded { request, server });
        }
        self.sessions.remove(id);
        self.metrics.counts.discarded += 1;
    }

    /// Place `id` is freed as its session ends (or fails): a copy still
    /// racing its request loses. (A hedge still due finds the place's next
    /// request not yet sent, or sent and due its own hedge.)
    pub(super) fn end_place(&mut self, id: u32) {
        if let Some(Fate::Raced) = self.sessions.remove(id).map(|s| s.fate) {
            if let Some(twin) = self.features.hedges.unlink(id) {
                self.lose(twin);
            }
        }
    }
}
