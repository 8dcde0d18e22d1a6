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
//! A copy is a request of its own, kept by the core in a place of its own
//! with the origin of the request it races (see `requests.rs`): its own
//! demand, server and path, so that every event names one place and finds
//! one request there. Hedging keeps, per place, whether it holds a copy
//! and how its race stands ([`Race`]); the two places are twins until the
//! race ends. When the copy wins, it answers for its session, whose next
//! request then takes its place, and the original loses. Service time
//! spent on losers is wasted work, counted in the summary.

use super::flight::Flight;
use super::journal::Happening;
use super::requests::{Outstanding, Request, Stage};
use super::{Event, Simulation, MAX_IN_FLIGHT};
use crate::rng::Draw;
use crate::time::Time;

const NO_TWIN: u32 = u32::MAX;

/// How the request a place holds stands in a hedging race.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Race {
    /// In none: its session waits on it (every request without hedging,
    /// and a copy that won).
    #[default]
    Out,
    /// Racing its twin: the first of the two to finish service answers.
    Running,
    /// Lost: it ends at its next event (when it reaches its server, or,
    /// left to finish, when its service ends).
    Lost,
    /// Lost in service and cancelled: its slot is free, and its pending
    /// service completion ends it.
    Cancelled,
}

/// Per place of the core's requests: when its request's hedge is due, how
/// it stands in a race and its twin, if any, whether it is a copy, and
/// which request of its session last sent a copy (all empty until hedging
/// first arms); per chooser, the latencies it saw.
#[derive(Default)]
pub struct Hedges {
    due: Vec<Time>,
    race: Vec<Race>,
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
            self.race.resize(len, Race::Out);
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
        self.race[original as usize] = Race::Running;
        self.race[copy as usize] = Race::Running;
        self.due[copy as usize] = Time::NEVER;
        self.copy[copy as usize] = true;
    }

    /// Whether place `id`'s request is a hedged copy.
    #[inline]
    pub(super) fn is_copy(&self, id: u32) -> bool {
        self.copy.get(id as usize) == Some(&true)
    }

    /// How place `id`'s request stands in a race.
    #[inline]
    pub(super) fn race(&self, id: u32) -> Race {
        self.race.get(id as usize).copied().unwrap_or_default()
    }

    /// Whether place `id`'s request is a copy still racing.
    pub(super) fn is_racing_copy(&self, id: u32) -> bool {
        self.race(id) == Race::Running && self.is_copy(id)
    }

    /// Whether place `id`'s request is the one its session waits on: out
    /// of any race, or the original in one.
    pub(super) fn answers(&self, id: u32) -> bool {
        match self.race(id) {
            Race::Out => true,
            Race::Running => !self.is_copy(id),
            Race::Lost | Race::Cancelled => false,
        }
    }

    fn set_race(&mut self, id: u32, race: Race) {
        self.grow_to(id);
        self.race[id as usize] = race;
    }

    /// Place `id` holds a new request, its session's own, in no race.
    #[inline]
    pub(super) fn new_request(&mut self, id: u32) {
        if let Some(copy) = self.copy.get_mut(id as usize) {
            *copy = false;
            self.race[id as usize] = Race::Out;
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
        let Some(session) = self.requests.get(id) else { return };
        if self.features.hedges.race(id) != Race::Out || session.request.retries > 0 {
            return;
        }
        let chooser = self.choosers.member(session.chooser(), session.request.class);
        let percentile =
            self.timing.hedge_percentile.and_then(|_| self.features.hedges.percentile_of(chooser));
        if let Some(after) = percentile.or(self.timing.hedge_after) {
            self.features.hedges.arm(id, self.now + after);
            self.events.push(self.now + after, Event::HedgeDue { place: id });
        }
    }

    /// The service of place `id`'s request, racing or lost, ended and
    /// freed its slot: a loser left to finish ends, its service wasted; a
    /// racer wins. Returns whether it ended.
    #[cold]
    pub(super) fn hedge_service_ended(&mut self, id: u32, race: Race) -> bool {
        if race != Race::Lost {
            self.win(id);
            return false;
        }
        if let Some(r) = self.requests.get(id).map(|s| &s.request) {
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
        let Some(session) = self.requests.get(id) else { return };
        let chooser = self.choosers.member(session.chooser(), session.request.class);
        if self.features.hedges.race(id) != Race::Out
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
        let class = session.request.class;
        let mut request =
            Request::new(self.now, (class, self.work.copy_demand(self.streams.work, key, class)));
        // The copy answers for the request: its latency runs from the request's creation.
        request.created = session.request.created;
        let copy = Outstanding::copy_of(session, request);
        let avoid = session.request.server;
        let started = self.requests.session_started(id);
        let copy_id = self.requests.insert(copy, started);
        self.features.hedges.link(id, copy_id);
        // Either twin may answer: both carry the request's key.
        self.features.hedges.sent_copy_for(id, key);
        self.features.hedges.sent_copy_for(copy_id, key);
        self.metrics.on_hedge(self.now);
        self.note_hedged(id, false);
        let position = self.pick_other(chooser, avoid);
        self.send_to_server(Flight::request(copy_id), chooser, position);
    }

    /// Notes in the journal, if one is kept, that place `id`'s chooser
    /// hedged it.
    fn note_hedged(&mut self, id: u32, cancelled_en_route: bool) {
        if self.journal.is_some() {
            let waited = self.requests.get(id).map_or(Time::ZERO, |s| self.now - s.request.created);
            self.note_request(Flight::request(id), |request| Happening::Hedged {
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

    /// Races still running: a copy and its original both out, neither
    /// finished. They count as neither won nor lost.
    pub(super) fn races_running(&self) -> u64 {
        let hedges = &self.features.hedges;
        let racing = |id: u32| hedges.is_racing_copy(id) && self.requests.get(id).is_some();
        (0..hedges.copy.len() as u32).filter(|&id| racing(id)).count() as u64
    }

    /// Place `id`'s request (raced, or a copy) finished service first: it
    /// answers, and its twin loses.
    pub(super) fn win(&mut self, id: u32) {
        if self.requests.get(id).is_some() {
            if self.features.hedges.is_racing_copy(id) {
                self.metrics.on_copy_won(self.now);
            }
            self.features.hedges.set_race(id, Race::Out);
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
        let Some(session) = self.requests.get(id) else { return };
        let chooser = self.choosers.member(session.chooser(), session.request.class);
        let r = &session.request;
        let (server, class, stage, started) = (r.server, r.class, r.stage, r.departs);
        self.choosers.on_cancel(chooser, server, class);
        match stage {
            Stage::Queued => {
                self.servers[server as usize].queue.remove(Flight::request(id));
                self.discard(id);
            }
            Stage::InService if self.scenario.hedge_cancel.cancels_in_service() => {
                self.features.hedges.set_race(id, Race::Cancelled);
                self.metrics.on_wasted(self.now, self.now - started);
                self.free_slot(server as usize);
            }
            _ => self.features.hedges.set_race(id, Race::Lost),
        }
    }

    /// Place `id`'s request, racing a copy, races no more: the copy loses.
    pub(super) fn call_off_race(&mut self, id: u32) {
        if let Some(twin) = self.features.hedges.unlink(id) {
            self.lose(twin);
        }
        self.features.hedges.set_race(id, Race::Out);
    }

    /// A queued copy timed out: it is dropped (not sent back), and its twin
    /// races no more.
    #[cold]
    pub(super) fn drop_copy(&mut self, id: u32) {
        if self.journal.is_some() {
            let server = self.requests.get(id).map_or(0, |s| s.request.server);
            self.note_request(Flight::request(id), |request| Happening::CopyDropped { request, server });
        }
        if let Some(original) = self.features.hedges.unlink(id) {
            if self.requests.get(original).is_some() {
                self.features.hedges.set_race(original, Race::Out);
            }
        }
        if let Some(session) = self.requests.get(id) {
            let chooser = self.choosers.member(session.chooser(), session.request.class);
            self.choosers.on_cancel(chooser, session.request.server, session.request.class);
        }
        self.discard(id);
    }

    /// A copy that answers for no one ends.
    #[cold]
    pub(super) fn discard(&mut self, id: u32) {
        if self.journal.is_some() {
            let server = self.requests.get(id).map_or(0, |s| s.request.server);
            self.note_request(Flight::request(id), |request| Happening::Discarded { request, server });
        }
        self.requests.remove(id);
        self.metrics.counts.discarded += 1;
    }

    /// Place `id` is freed as its session ends (or fails): a copy still
    /// racing its request loses. (A hedge still due finds the place's next
    /// request not yet sent, or sent and due its own hedge.)
    pub(super) fn end_place(&mut self, id: u32) {
        let racing = self.features.hedges.race(id) == Race::Running && !self.features.hedges.is_copy(id);
        if self.requests.remove(id).is_some() && racing {
            if let Some(twin) = self.features.hedges.unlink(id) {
                self.lose(twin);
            }
        }
    }
}
