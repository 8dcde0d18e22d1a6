//! A bench for the balancers' tests: the clock, the failure monitor, the
//! generator and the client's knowledge, and the replies a server can give.

use super::queue_model::QueueData;
use super::{
    Action, Alternatives, BasicLoadBalance, Context, ErrorKind, Event, FailureMonitor, Knowledge,
    LoadBalance, QueueModel,
};
use crate::rng::SimRng;
use crate::time::Time;
use std::sync::Arc;

/// What the seed's appendix script prints, run with python3 (3.11) after
/// `random.seed(k)` at its entry, `NUM_ALTERNATIVES` as given, the sleep
/// dropped and two passes instead of the endless loop; `draw` is its
/// `random.randint(0, alts.size() - 2)` before the shift past `best_alt`.
pub struct AppendixRun {
    pub seed: u64,
    pub size: usize,
    pub draw: usize,
    pub best_alt: usize,
    pub start_alt: usize,
    pub start_distance: usize,
    /// The alternatives attempted, in one pass.
    pub order: &'static [usize],
}

pub const APPENDIX: &[AppendixRun] = &[
    AppendixRun {
        seed: 0,
        size: 10,
        draw: 6,
        best_alt: 6,
        start_alt: 7,
        start_distance: 9,
        order: &[6, 7, 8, 9, 0, 1, 2, 3, 4, 5],
    },
    AppendixRun {
        seed: 1,
        size: 10,
        draw: 1,
        best_alt: 2,
        start_alt: 1,
        start_distance: 1,
        order: &[2, 1, 3, 4, 5, 6, 7, 8, 9, 0],
    },
    AppendixRun {
        seed: 2,
        size: 10,
        draw: 1,
        best_alt: 0,
        start_alt: 2,
        start_distance: 8,
        order: &[0, 2, 3, 4, 5, 6, 7, 8, 9, 1],
    },
    AppendixRun {
        seed: 3,
        size: 10,
        draw: 8,
        best_alt: 3,
        start_alt: 9,
        start_distance: 4,
        order: &[3, 9, 0, 1, 2, 4, 5, 6, 7, 8],
    },
    AppendixRun {
        seed: 7,
        size: 10,
        draw: 2,
        best_alt: 5,
        start_alt: 2,
        start_distance: 3,
        order: &[5, 2, 3, 4, 6, 7, 8, 9, 0, 1],
    },
    AppendixRun {
        seed: 42,
        size: 10,
        draw: 0,
        best_alt: 1,
        start_alt: 0,
        start_distance: 1,
        order: &[1, 0, 2, 3, 4, 5, 6, 7, 8, 9],
    },
    AppendixRun {
        seed: 0,
        size: 3,
        draw: 1,
        best_alt: 1,
        start_alt: 2,
        start_distance: 2,
        order: &[1, 2, 0],
    },
    AppendixRun {
        seed: 7,
        size: 3,
        draw: 0,
        best_alt: 1,
        start_alt: 0,
        start_distance: 1,
        order: &[1, 0, 2],
    },
    AppendixRun {
        seed: 42,
        size: 3,
        draw: 0,
        best_alt: 2,
        start_alt: 0,
        start_distance: 2,
        order: &[2, 0, 1],
    },
];

pub const MS: Time = Time(Time::NANOS_PER_MS);

/// A failure monitor of its own, as a test sets it.
#[derive(Default)]
pub struct Monitor {
    failed: Vec<bool>,
}

impl Monitor {
    pub fn set_failed(&mut self, server: usize, failed: bool) {
        if server >= self.failed.len() {
            self.failed.resize(server + 1, false);
        }
        self.failed[server] = failed;
    }
}

impl FailureMonitor for Monitor {
    fn is_failed(&self, server: usize) -> bool {
        self.failed.get(server).copied().unwrap_or(false)
    }
}

/// A client's queue model, in a vector by server number.
#[derive(Default)]
pub struct Models {
    servers: Vec<QueueData>,
}

impl QueueModel for Models {
    fn measurement(&self, server: usize) -> QueueData {
        self.servers.get(server).copied().unwrap_or_default()
    }

    fn data(&mut self, server: usize) -> &mut QueueData {
        if server >= self.servers.len() {
            self.servers.resize(server + 1, QueueData::default());
        }
        &mut self.servers[server]
    }
}

pub struct Bench {
    pub now: Time,
    pub monitor: Monitor,
    pub models: Models,
    pub rng: SimRng,
    pub known: Knowledge,
}

impl Bench {
    pub fn new(seed: u64) -> Bench {
        Bench {
            now: Time::ZERO,
            monitor: Monitor::default(),
            models: Models::default(),
            rng: SimRng::new(seed),
            known: Knowledge::default(),
        }
    }

    pub fn basic(
        &mut self,
        alternatives: &Arc<Alternatives>,
        at_most_once: bool,
    ) -> (BasicLoadBalance, Vec<Action>) {
        let mut cx =
            Context { now: self.now, monitor: &self.monitor, model: &mut self.models, rng: &mut self.rng };
        BasicLoadBalance::start(Arc::clone(alternatives), at_most_once, &mut cx)
    }

    pub fn on_basic(&mut self, balancer: &mut BasicLoadBalance, event: Event) -> Vec<Action> {
        let mut cx =
            Context { now: self.now, monitor: &self.monitor, model: &mut self.models, rng: &mut self.rng };
        balancer.on(event, &mut cx)
    }

    pub fn load_balance(&mut self, alternatives: &Arc<Alternatives>) -> (LoadBalance, Vec<Action>) {
        let mut cx =
            Context { now: self.now, monitor: &self.monitor, model: &mut self.models, rng: &mut self.rng };
        LoadBalance::start(Arc::clone(alternatives), false, &mut cx, &mut self.known)
    }

    pub fn on(&mut self, balancer: &mut LoadBalance, event: Event) -> Vec<Action> {
        let mut cx =
            Context { now: self.now, monitor: &self.monitor, model: &mut self.models, rng: &mut self.rng };
        balancer.on(event, &mut cx, &mut self.known)
    }
}

/// `count` servers, numbered from 0, equally near.
pub fn servers(count: usize) -> Arc<Alternatives> {
    Arc::new(Alternatives::equally_near(0..count))
}

/// A value from `server`, which reports no penalty beyond the usual 1.
pub fn value(server: usize) -> Event {
    Event::Reply { server, error: None, penalty: Some(1.0) }
}

/// An error `server` answered with.
pub fn answered(server: usize, kind: ErrorKind) -> Event {
    Event::Reply { server, error: Some(kind), penalty: Some(1.0) }
}

/// The connection to `server` broke before it answered.
pub fn broken(server: usize) -> Event {
    Event::Reply { server, error: Some(ErrorKind::BrokenPromise), penalty: None }
}

/// The server of the only send among `actions`.
pub fn sent_to(actions: &[Action]) -> usize {
    let sends: Vec<usize> = actions
        .iter()
        .filter_map(|action| if let Action::Send { server } = action { Some(*server) } else { None })
        .collect();
    assert_eq!(sends.len(), 1, "expected one send in {actions:?}");
    sends[0]
}
