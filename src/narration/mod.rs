//! One step of a simulation told in words: for stepping through a run
//! ("request 2/10 of session 41 (client 7) is sent back by server 3 after
//! 100 ms in its queue") and for highlighting what the step involved. The
//! engine notes what happened in the step as data (its journal, see
//! [`Happening`]); the words are all here.

mod events;
mod words;

use crate::engine::{Event, FeatureId, Flight, Happening, Step, Whose};
use crate::format::thousands;
use crate::scenario::Scenario;
use crate::time::Time;
use crate::Simulation;
use serde::Serialize;
use words::{did_words, words};

/// An event that just happened, in words, with what it involved.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Told {
    pub time_ms: f64,
    pub text: String,
    pub session: Option<u32>,
    pub client: Option<u32>,
    pub balancer: Option<u32>,
    pub server: Option<u32>,
}

/// Processes exactly one event of `sim` and tells what it was; `None` when
/// no event is left or the simulation has halted.
pub fn step_told(sim: &mut Simulation) -> Option<Told> {
    let step = sim.step_journaled()?;
    Some(tell(&step, sim.scenario()))
}

/// The most events one step to a decision passes: a session stays with its
/// server between bounces, so power of two decides only about every
/// hundred events; this bounds a press where decisions have stopped.
pub const DECISION_WITHIN: u64 = 10_000;

/// Processes events of `sim` until one makes a decision (of those it keeps,
/// see [`Simulation::record_decisions`]), or [`DECISION_WITHIN`] have
/// passed, and tells the last, saying how many came before it. A reader
/// stepping to see a decision drawn need not press a hundred times.
/// `None` when no event is left or the simulation has halted.
pub fn step_to_decision(sim: &mut Simulation) -> Option<Told> {
    let made = sim.decisions_made();
    let mut passed = 0;
    let mut step = sim.step_journaled()?;
    while sim.decisions_made() == made && passed + 1 < DECISION_WITHIN {
        let Some(next) = sim.step_journaled() else { break };
        (step, passed) = (next, passed + 1);
    }
    let mut told = tell(&step, sim.scenario());
    let decided = sim.decisions_made() > made;
    let events = format!("{} event{}", thousands(passed), if passed == 1 { "" } else { "s" });
    told.text = match (passed, decided) {
        (0, _) => told.text,
        (_, true) => format!("{} (stepped past {events} to this decision)", told.text),
        (_, false) => format!("{} (stepped past {events}, none a decision)", told.text),
    };
    Some(told)
}

/// `step`, of a simulation of `scenario`, in words.
pub fn tell(step: &Step, scenario: &Scenario) -> Told {
    let mut told = Told {
        time_ms: step.time.as_ms(),
        session: step.flight().and_then(Flight::place),
        ..Told::default()
    };
    told.text = Teller { step, told: &mut told }.text(scenario);
    told
}

/// Words for a step, noting what it involved in `told` as it goes.
struct Teller<'a> {
    step: &'a Step,
    told: &'a mut Told,
}

impl Teller<'_> {
    fn find<T>(&self, what: impl Fn(&Happening) -> Option<T>) -> Option<T> {
        self.step.happened.iter().find_map(what)
    }

    fn involve(&mut self, request: &Whose, server: Option<u32>) {
        self.told.client = Some(request.client);
        self.told.balancer = request.balancer;
        self.told.server = server;
    }

    /// Where the request went next: the first send of the step.
    fn sent(&self) -> Option<u32> {
        self.find(|h| match h {
            Happening::Sent { server, .. } => Some(*server),
            _ => None,
        })
    }

    fn forwarded(&self) -> bool {
        self.find(|h| matches!(h, Happening::Forwarded { .. }).then_some(())).is_some()
    }

    fn backed_off(&self) -> Option<Time> {
        self.find(|h| match h {
            Happening::BackingOff { wait, .. } => Some(*wait),
            _ => None,
        })
    }

    /// The place of the event's own request ended, its race lost (rather
    /// than a copy dropped): at which server.
    fn lost_race(&self) -> Option<(Whose, u32)> {
        let place = self.step.flight()?;
        let dropped = self.find(|h| match h {
            Happening::CopyDropped { request, .. } if request.place == place => Some(()),
            _ => None,
        });
        if dropped.is_some() {
            return None;
        }
        self.find(|h| match h {
            Happening::Discarded { request, server } if request.place == place => Some((*request, *server)),
            _ => None,
        })
    }

    /// What FoundationDB's balancers did in the step, in words.
    fn balancers_did(&self) -> Option<String> {
        did_words(&self.step.happened, self.step.time)
    }

    fn text(&mut self, scenario: &Scenario) -> String {
        let event = self.step.event;
        if let Some((request, server, reply)) = self.find(|h| match h {
            Happening::Heard { request, server, reply, attempt: true } => Some((*request, *server, *reply)),
            _ => None,
        }) {
            return self.attempt_heard(&request, server, reply);
        }
        if let Some((request, server)) = self.lost_race() {
            self.involve(&request, Some(server));
            return format!("a copy of {} that lost its race ends at server {server}", words(&request));
        }
        match event {
            Event::SessionArrival { .. } | Event::ClientStarts { .. } => self.session_start(),
            Event::ArriveAtBalancer { .. } => self.at_balancer(),
            Event::ArriveAtServer { .. } => self.at_server(),
            Event::QueueTimeout { server } => self.queue_timeout(server, scenario),
            Event::ServiceDone { .. } => self.service_done(),
            Event::BounceArrives { .. }
            | Event::ResponseAtBalancer { .. }
            | Event::ResponseAtClient { .. } => self.back_at_chooser(),
            Event::FeatureTimer { timer } => match timer.feature() {
                FeatureId::Fdb => match self.balancers_did() {
                    Some(did) => format!("a FoundationDB balancer's timer is due: it {did}"),
                    None => "a FoundationDB balancer's timer is due, but the balancer has moved on".into(),
                },
                FeatureId::HealthChecks => "every server is health-checked".into(),
                FeatureId::Hedging => self.hedge(),
                FeatureId::TableUpdates => {
                    format!("chooser {} takes the new version of the mapping table", timer.payload())
                }
                FeatureId::Retries => self.retry_due(),
                FeatureId::Ejection => {
                    format!("chooser {} readmits the servers whose ejection is over", timer.payload())
                }
                _ => self.scheduled(),
            },
            Event::BoardRefresh { .. } | Event::Sample => self.scheduled(),
        }
    }
}

#[cfg(test)]
mod tests;
