//! Failure modes while a simulation runs (issue 15; seed 002: a balancer
//! routes around trouble), on the scenario's schedule (`failures`) or made
//! by hand: a server down (connections refused at once), slow (speed
//! times a factor), fast-failing (a share of its requests answered with
//! an error after a short time) or flapping (down and up in turn). The
//! feature keeps each server's failure and its turns; what a failing
//! server does to a request is the core's, told by a mark
//! ([`Action::Mark`], `engine/marks.rs`), and a slow server's speed is
//! scaled.

use super::{Action, Asks, Feature, SpeedBy, View};
use crate::engine::marks::Mark;
use crate::engine::Happening;
use crate::scenario::failures::Failure;
use crate::scenario::Scenario;
use crate::time::Time;

/// The payload bit of a timer for a server's turn; without it, the
/// payload is an entry of the schedule.
const TURN: u32 = 1 << 26;

/// One server's failure under way.
#[derive(Clone, Copy, Debug)]
struct Active {
    failure: Failure,
    /// When it ends by itself; `Time::NEVER`: on a recovery.
    ends: Time,
    /// A flapping server's next turn; whether it is down now.
    turns: Time,
    refusing: bool,
}

impl Active {
    fn mark(&self) -> Mark {
        match self.failure {
            _ if self.refusing => Mark::Refuses,
            Failure::FastFail { share, after_ms } => {
                Mark::FailsFast { share, after: Time::from_ms(after_ms) }
            }
            _ => Mark::Serves,
        }
    }
}

/// Present in every run: a failure can be made by hand at any time.
#[derive(Default)]
pub(in crate::engine) struct Failures {
    active: Vec<Option<Active>>,
}

impl Failures {
    /// `server`'s failure, if it has one.
    pub fn of(&self, server: usize) -> Option<Failure> {
        self.active.get(server).copied().flatten().map(|a| a.failure)
    }

    fn slot(&mut self, server: usize) -> &mut Option<Active> {
        if self.active.len() <= server {
            self.active.resize(server + 1, None);
        }
        &mut self.active[server]
    }

    /// `server` fails from now on, ending any failure it had; for `for_s`
    /// seconds, or until it recovers.
    pub fn fail(
        &mut self,
        (server, failure, for_s): (usize, Failure, Option<f64>),
        now: Time,
        out: &mut Asks,
    ) {
        self.recover(server, out);
        let ends = for_s.map_or(Time::NEVER, |s| now + Time::from_secs(s));
        let (refusing, turns) = match failure {
            Failure::Down => (true, Time::NEVER),
            Failure::Flap { period_ms } => (true, now + Time::from_ms(period_ms)),
            Failure::Slow { factor } => {
                out.push(Action::ScaleSpeed { server: server as u32, by: SpeedBy::Times(factor) });
                (false, Time::NEVER)
            }
            Failure::FastFail { .. } => (false, Time::NEVER),
        };
        let active = Active { failure, ends, turns, refusing };
        *self.slot(server) = Some(active);
        out.push(Action::Mark { server: server as u32, mark: active.mark() });
        for due in [ends, turns].into_iter().filter(|&t| t != Time::NEVER) {
            out.push(Action::Timer { at: due, payload: TURN | server as u32 });
        }
    }

    /// `server`'s failure, if it has one, ends.
    pub fn recover(&mut self, server: usize, out: &mut Asks) {
        let Some(active) = self.slot(server).take() else { return };
        out.push(Action::Mark { server: server as u32, mark: Mark::Serves });
        if let Failure::Slow { factor } = active.failure {
            out.push(Action::ScaleSpeed { server: server as u32, by: SpeedBy::Over(factor) });
        }
    }

    /// The scenario's `entry`th scheduled failure or recovery is due.
    fn scheduled(&mut self, entry: u32, view: &View, out: &mut Asks) {
        let Some(&due) = view.scenario.failures.get(entry as usize) else { return };
        let server = due.server as usize;
        match due.failure {
            Some(failure) => self.fail((server, failure, due.for_s), view.now, out),
            None => self.recover(server, out),
        }
        if view.journaled {
            out.push(Action::Note(match due.failure {
                Some(failure) => Happening::FailureStarted { server: due.server, failure },
                None => Happening::Recovered { server: due.server },
            }));
        }
    }

    /// A failure's end, or a flapping server's turn, may be due (stale
    /// unless one of them is due now).
    fn turn(&mut self, server: usize, view: &View, out: &mut Asks) {
        let now = view.now;
        match *self.slot(server) {
            Some(active) if active.ends == now => self.recover(server, out),
            Some(mut active) if active.turns == now => {
                if let Failure::Flap { period_ms } = active.failure {
                    active.refusing = !active.refusing;
                    active.turns = now + Time::from_ms(period_ms);
                    *self.slot(server) = Some(active);
                    out.push(Action::Timer { at: active.turns, payload: TURN | server as u32 });
                    out.push(Action::Mark { server: server as u32, mark: active.mark() });
                }
            }
            _ => {}
        }
        if view.journaled {
            out.push(Action::Note(Happening::FailureTurned {
                server: server as u32,
                failing: self.of(server),
            }));
        }
    }
}

impl Feature for Failures {
    /// A schedule's entry's; a turn's is its own (see `trace`).
    const TRACE_KIND: u64 = 16;

    fn for_scenario(_scenario: &Scenario) -> Option<Failures> {
        Some(Failures::default())
    }

    /// The failure schedule, as timers.
    fn start(&mut self, view: &View, out: &mut Asks) {
        for (entry, due) in view.scenario.failures.iter().enumerate() {
            out.push(Action::Timer { at: Time::from_secs(due.at_s), payload: entry as u32 });
        }
    }

    fn timer(&mut self, payload: u32, view: &View, out: &mut Asks) {
        match payload & TURN {
            0 => self.scheduled(payload, view, out),
            _ => self.turn((payload & !TURN) as usize, view, out),
        }
    }

    /// A turn's timer is traced as the kind its event had, by its server.
    fn trace(payload: u32) -> (u64, u32) {
        match payload & TURN {
            0 => (Self::TRACE_KIND, payload),
            _ => (17, payload & !TURN),
        }
    }
}
