//! What FoundationDB's driver keeps: every chooser's failure monitor and
//! queue model, the balancers of the requests under way, and the timers
//! they asked for.

use crate::engine::chooser::ByServer;
use crate::fdb::queue_model::QueueData;
use crate::fdb::{self, Action, BasicLoadBalance, Context, FailureMonitor, Knowledge, LoadBalance};
use crate::fdb::{PenaltyCurve, QueueModel};
use crate::rng::SimRng;
use crate::time::Time;

/// A timer a balancer asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Timer {
    Backoff,
    SecondRequest,
    Wait,
}

impl Timer {
    pub fn event(self) -> fdb::Event {
        match self {
            Timer::Backoff => fdb::Event::BackoffDone,
            Timer::SecondRequest => fdb::Event::SecondRequestDue,
            Timer::Wait => fdb::Event::WaitDone,
        }
    }
}

pub(super) enum Balancer {
    Basic(BasicLoadBalance),
    Load(LoadBalance),
}

/// One request's balancer.
pub(super) struct Machine {
    pub balancer: Balancer,
    /// The place, among the core's requests, of the request it routes.
    pub owner: u32,
    pub chooser: usize,
    /// Attempts sent so far.
    pub sends: u16,
}

/// A machine's place and its generation, which tells a timer or a reply
/// left by an earlier machine in the same place from one of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Tag {
    machine: u32,
    generation: u16,
}

impl Tag {
    /// The tag as an attempt's token (see `Action::SendAttempt`).
    pub fn token(self) -> u64 {
        u64::from(self.machine) << 16 | u64::from(self.generation)
    }

    pub fn of_token(token: u64) -> Tag {
        Tag { machine: (token >> 16) as u32, generation: token as u16 }
    }
}

/// Every chooser's failure monitor and queue model, and the balancers of
/// the requests under way.
pub(super) struct Machines {
    machines: Vec<Option<Machine>>,
    generations: Vec<u16>,
    free: Vec<u32>,
    /// Whether each chooser's failure monitor holds each server failed.
    failed: ByServer<bool>,
    /// Each chooser's queue model, of the servers it sent to.
    models: ByServer<QueueData>,
    /// Each chooser's budget of second requests and record of waits.
    knowledge: Vec<Knowledge>,
    /// Machines waiting for an alternative to come up.
    pub waiting: Vec<Tag>,
    /// Timers due, each named by its place here in its payload; freed
    /// places are reused.
    timers: Vec<Option<(Tag, Timer)>>,
    free_timers: Vec<u32>,
    pub curve: PenaltyCurve,
}

/// One chooser's failure monitor, as its balancers read it.
pub(super) struct MonitorOf<'a> {
    failed: &'a ByServer<bool>,
    chooser: usize,
}

impl FailureMonitor for MonitorOf<'_> {
    fn is_failed(&self, server: usize) -> bool {
        self.failed.get(self.chooser, server as u32)
    }
}

/// One chooser's queue model, as its balancers read and write it.
pub(super) struct ModelOf<'a> {
    models: &'a mut ByServer<QueueData>,
    chooser: usize,
}

impl QueueModel for ModelOf<'_> {
    fn measurement(&self, server: usize) -> QueueData {
        self.models.get(self.chooser, server as u32)
    }

    fn data(&mut self, server: usize) -> &mut QueueData {
        self.models.get_mut(self.chooser, server as u32)
    }
}

impl Machines {
    /// `chooser`'s failure monitor, queue model and the rest of what it
    /// knows, as a balancer starts with them.
    pub fn of_chooser(&mut self, chooser: usize) -> (MonitorOf<'_>, ModelOf<'_>, &mut Knowledge) {
        let monitor = MonitorOf { failed: &self.failed, chooser };
        (monitor, ModelOf { models: &mut self.models, chooser }, &mut self.knowledge[chooser])
    }

    /// `chooser`'s failure monitor marks `server` failed (a connection
    /// refused).
    pub fn set_failed(&mut self, chooser: usize, server: u32) {
        *self.failed.get_mut(chooser, server) = true;
    }

    pub fn new(choosers: usize, slots: u32) -> Machines {
        let slots = f64::from(slots);
        Machines {
            machines: Vec::new(),
            generations: Vec::new(),
            free: Vec::new(),
            failed: ByServer::new(false),
            models: ByServer::new(QueueData::default()),
            knowledge: vec![Knowledge::default(); choosers],
            waiting: Vec::new(),
            timers: Vec::new(),
            free_timers: Vec::new(),
            curve: PenaltyCurve { target: 3.0 * slots, spring: slots },
        }
    }

    pub fn store(&mut self, machine: Machine) -> Tag {
        let index = match self.free.pop() {
            Some(index) => {
                self.machines[index as usize] = Some(machine);
                index
            }
            None => {
                self.machines.push(Some(machine));
                self.generations.push(0);
                (self.machines.len() - 1) as u32
            }
        };
        Tag { machine: index, generation: self.generations[index as usize] }
    }

    /// Keeps `timer` for `tag`; returns its place, the timer's payload.
    pub fn arm(&mut self, tag: Tag, timer: Timer) -> u32 {
        match self.free_timers.pop() {
            Some(place) => {
                self.timers[place as usize] = Some((tag, timer));
                place
            }
            None => {
                self.timers.push(Some((tag, timer)));
                (self.timers.len() - 1) as u32
            }
        }
    }

    /// Takes the timer at `place`, due now.
    pub fn take_timer(&mut self, place: u32) -> Option<(Tag, Timer)> {
        let due = self.timers.get_mut(place as usize).and_then(Option::take)?;
        self.free_timers.push(place);
        Some(due)
    }

    /// Whether `tag` names the machine now in its place.
    fn current(&self, tag: Tag) -> bool {
        self.generations.get(tag.machine as usize) == Some(&tag.generation)
    }

    pub fn get_mut(&mut self, tag: Tag) -> Option<&mut Machine> {
        if !self.current(tag) {
            return None;
        }
        self.machines[tag.machine as usize].as_mut()
    }

    /// What the machine does on `event`, with its chooser's failure monitor
    /// and queue model; `None` when the machine is no longer there.
    pub fn hear(&mut self, tag: Tag, event: fdb::Event, now: Time, rng: &mut SimRng) -> Option<Vec<Action>> {
        if !self.current(tag) {
            return None;
        }
        let machine = self.machines[tag.machine as usize].as_mut()?;
        let monitor = MonitorOf { failed: &self.failed, chooser: machine.chooser };
        let mut model = ModelOf { models: &mut self.models, chooser: machine.chooser };
        let mut cx = Context { now, monitor: &monitor, model: &mut model, rng };
        Some(match &mut machine.balancer {
            Balancer::Basic(b) => b.on(event, &mut cx),
            Balancer::Load(b) => b.on(event, &mut cx, &mut self.knowledge[machine.chooser]),
        })
    }

    /// Frees the machine once the caller has its answer and, under
    /// `loadBalance`, no attempt of it is still out.
    pub fn retire_if_done(&mut self, tag: Tag) {
        let Some(machine) = self.get_mut(tag) else { return };
        let done = match &machine.balancer {
            Balancer::Basic(b) => b.is_done(),
            Balancer::Load(b) => b.is_done() && b.in_flight() == 0,
        };
        if done {
            let index = tag.machine as usize;
            self.machines[index] = None;
            self.generations[index] = self.generations[index].wrapping_add(1);
            self.free.push(tag.machine);
        }
    }

    /// Every failure monitor marks `server` up; returns the machines that
    /// were waiting for an alternative.
    pub fn server_up(&mut self, server: usize) -> Vec<Tag> {
        for chooser in 0..self.knowledge.len() {
            self.failed.reset(chooser, server as u32);
        }
        std::mem::take(&mut self.waiting)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tag_comes_back_from_its_token() {
        for tag in [Tag { machine: 0, generation: 0 }, Tag { machine: u32::MAX, generation: u16::MAX }] {
            assert_eq!(Tag::of_token(tag.token()), tag);
        }
    }
}
