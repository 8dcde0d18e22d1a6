//! What hedging keeps: per place of the core's requests, its hedge and
//! which request last sent a copy; per chooser, the latencies it saw; the
//! scenario's settings; and what it counted. How each race stands is the
//! core's (`engine/copies/`).

use crate::scenario::Scenario;
use crate::time::Time;

/// Per place of the core's requests: when its request's hedge is due, and
/// which request of its session last sent a copy (both empty until
/// hedging first arms); per chooser, the latencies it saw; the scenario's
/// settings and what hedging counted.
#[derive(Default)]
pub struct Hedges {
    /// How long a chooser waits for a response before it hedges; `None`:
    /// never.
    pub(super) after: Option<Time>,
    /// The percentile of its observed latencies a chooser hedges after.
    pub(super) percentile: Option<f64>,
    /// Whether choosers hedge (after a delay, or a percentile, or both):
    /// read on every send.
    pub(super) on: bool,
    pub(in crate::engine) tally: HedgeTally,
    due: Vec<Time>,
    sent_copy: Vec<RequestKey>,
    observed: Vec<Observed>,
    scratch: Vec<Time>,
}

/// What hedging counted after the warm-up (the summary's `hedging`).
#[derive(Clone, Copy, Debug, Default)]
pub struct HedgeTally {
    /// Copies sent.
    pub sent: u64,
    /// Completed requests that had sent a copy.
    pub completed: u64,
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
    /// Takes the scenario's settings (at the start, and on a live change).
    pub(in crate::engine::feature) fn configure(&mut self, scenario: &Scenario) {
        self.after = scenario.hedge_after_ms.map(Time::from_ms);
        self.percentile = scenario.hedge_percentile;
        self.on = self.after.is_some() || self.percentile.is_some();
    }

    /// `chooser` saw a response `latency` after its request was created:
    /// every `REFRESH` responses, once it has `WINDOW`, its `percentile`
    /// (nearest rank) is taken again.
    pub(super) fn observe(&mut self, chooser: usize, latency: Time, percentile: f64) {
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
    pub(super) fn percentile_of(&self, chooser: usize) -> Option<Time> {
        self.observed.get(chooser)?.percentile
    }

    fn grow_to(&mut self, id: u32) {
        let len = id as usize + 1;
        if self.due.len() < len {
            self.due.resize(len, Time::NEVER);
            self.sent_copy.resize(len, NO_REQUEST);
        }
    }

    pub(super) fn arm(&mut self, id: u32, due: Time) {
        self.grow_to(id);
        self.due[id as usize] = due;
    }

    /// Whether place `id`'s hedge is due at `now`.
    pub(super) fn is_due(&self, id: u32, now: Time) -> bool {
        self.due.get(id as usize) == Some(&now)
    }

    /// Whether place `id`'s hedge is due at `now`; disarms it if so.
    pub(super) fn take_due(&mut self, id: u32, now: Time) -> bool {
        let is_due = self.is_due(id, now);
        if is_due {
            self.due[id as usize] = Time::NEVER;
        }
        is_due
    }

    /// Place `id` now holds a copy: the hedge of an earlier request
    /// there, still armed, would find the copy, once it has won,
    /// answering without a hedge of its own: it is void.
    pub(super) fn disarm(&mut self, id: u32) {
        if let Some(due) = self.due.get_mut(id as usize) {
            *due = Time::NEVER;
        }
    }

    /// Notes that request `key`, at place `id`, sent a copy.
    pub(super) fn sent_copy_for(&mut self, id: u32, key: RequestKey) {
        self.grow_to(id);
        self.sent_copy[id as usize] = key;
    }

    /// Whether request `key`, at place `id`, sent a copy.
    pub(super) fn has_sent_copy(&self, id: u32, key: RequestKey) -> bool {
        self.sent_copy.get(id as usize) == Some(&key)
    }
}
