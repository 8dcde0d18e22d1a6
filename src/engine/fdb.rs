//! FoundationDB's balancers in the simulation (issue 15; seed 002): under
//! `fdb-basic` and `fdb-load-balance` a chooser routes each request with one
//! of the state machines of [`crate::fdb`], carrying out its actions and
//! feeding it the replies and timers they lead to.
//!
//! The request waits at its chooser (at [`Stage::Held`]) while its
//! balancer works. Each request the balancer sends is an attempt: an
//! [`Attempt`], kept here and named by its [`Flight`], that travels,
//! queues and is served like any request, and whose reply goes back to
//! the balancer rather than on to the client. When the balancer delivers
//! a reply, the request goes on to its client as if that server had answered it; when
//! the balancer fails it, it fails. Attempts still out after that are the
//! source's lagging requests: their replies still teach the client's queue
//! model, and the machine lives until the last of them is back.
//!
//! The engine's outcomes, as FoundationDB's errors:
//! - a connection refused (the server is down) is `broken_promise`, and the
//!   client's failure monitor marks the server failed until its failure
//!   ends (or a flapping server comes up), when waiting balancers hear
//!   that an alternative is up;
//! - a request sent back to its chooser (a queue timeout, a crash) is
//!   `broken_promise`: the server never answered;
//! - a fast-failing server's error is `server_overloaded`: the server
//!   answered, with a penalty.
//!
//! A server reports a penalty with each reply from its queue, through a
//! [`PenaltyCurve`] in requests with a target of three times its slots and
//! a spring of its slots: 1 until more requests wait than it has slots,
//! then one more for every further `slots` waiting.
//!
//! Choosers and servers may stand in several datacenters (`datacenters`,
//! `cross_dc_delay_ms`); under `dc_order = "local-first"` a balancer's
//! alternatives put its own datacenter's servers first, as the nearest.

use super::flight::{Flight, Kept};
use super::journal::Happening;
use super::requests::{Origin, Request, Stage};
use super::{ErrorKind, Event, Outcome, Simulation};
use crate::fdb::{self, Action, Alternative, Alternatives, BasicLoadBalance, Context, Datacenter};
use crate::fdb::{FailureMonitor, Knowledge, LoadBalance, PenaltyCurve};
use crate::metrics::FailureReason;
use crate::rng::SimRng;
use crate::scenario::{DcOrder, PolicyKind};
use crate::time::Time;
use std::sync::Arc;

/// A timer a balancer asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Timer {
    Backoff,
    SecondRequest,
    Wait,
}

impl Timer {
    fn event(self) -> fdb::Event {
        match self {
            Timer::Backoff => fdb::Event::BackoffDone,
            Timer::SecondRequest => fdb::Event::SecondRequestDue,
            Timer::Wait => fdb::Event::WaitDone,
        }
    }
}

enum Balancer {
    Basic(BasicLoadBalance),
    Load(LoadBalance),
}

/// One request's balancer.
struct Machine {
    balancer: Balancer,
    /// The place, among the core's requests, of the request it routes.
    owner: u32,
    chooser: usize,
    /// Attempts sent so far.
    sends: u16,
}

/// A request a balancer sent for its own: its reply goes back to the
/// balancer.
pub struct Attempt {
    /// The balancer that sent it (its reply finds no other that took the
    /// balancer's place since).
    tag: Tag,
    /// Which of its balancer's attempts it is, from 0.
    pub index: u16,
    pub origin: Origin,
    pub outcome: Outcome,
    pub request: Request,
}

/// A machine's place and its generation, which tells a timer or a wait
/// left by an earlier machine in the same place from one of its own.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Tag {
    machine: u32,
    generation: u16,
}

/// Every chooser's failure monitor and queue model, and the balancers of
/// the requests under way.
pub struct FdbRouting {
    machines: Vec<Option<Machine>>,
    generations: Vec<u16>,
    free: Vec<u32>,
    /// The attempts out, by place; freed places are reused.
    attempts: Vec<Option<Attempt>>,
    free_attempts: Vec<u32>,
    monitors: Vec<FailureMonitor>,
    knowledge: Vec<Knowledge>,
    /// Machines waiting for an alternative to come up.
    waiting: Vec<Tag>,
    /// Timers due, each named by its place here in its event; freed places
    /// are reused.
    timers: Vec<Option<(Tag, Timer)>>,
    free_timers: Vec<u32>,
    curve: PenaltyCurve,
}

impl FdbRouting {
    pub fn new(choosers: usize, slots: u32) -> FdbRouting {
        let slots = f64::from(slots);
        FdbRouting {
            machines: Vec::new(),
            generations: Vec::new(),
            free: Vec::new(),
            attempts: Vec::new(),
            free_attempts: Vec::new(),
            monitors: vec![FailureMonitor::default(); choosers],
            knowledge: vec![Knowledge::default(); choosers],
            waiting: Vec::new(),
            timers: Vec::new(),
            free_timers: Vec::new(),
            curve: PenaltyCurve { target: 3.0 * slots, spring: slots },
        }
    }

    fn store(&mut self, machine: Machine) -> Tag {
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

    fn send(&mut self, attempt: Attempt) -> u32 {
        match self.free_attempts.pop() {
            Some(place) => {
                self.attempts[place as usize] = Some(attempt);
                place
            }
            None => {
                self.attempts.push(Some(attempt));
                (self.attempts.len() - 1) as u32
            }
        }
    }

    fn take_attempt(&mut self, place: u32) -> Option<Attempt> {
        let attempt = self.attempts.get_mut(place as usize)?.take()?;
        self.free_attempts.push(place);
        Some(attempt)
    }

    pub fn attempt(&self, place: u32) -> Option<&Attempt> {
        self.attempts.get(place as usize)?.as_ref()
    }

    pub fn attempt_mut(&mut self, place: u32) -> Option<&mut Attempt> {
        self.attempts.get_mut(place as usize)?.as_mut()
    }

    /// The attempts out.
    pub fn attempts(&self) -> impl Iterator<Item = Flight> + '_ {
        let out = self.attempts.iter().enumerate().filter(|(_, a)| a.is_some());
        out.map(|(place, _)| Flight::attempt(place as u32))
    }

    /// How many attempts are out.
    pub fn attempts_out(&self) -> u64 {
        (self.attempts.len() - self.free_attempts.len()) as u64
    }

    /// Whether `tag` names the machine now in its place.
    fn current(&self, tag: Tag) -> bool {
        self.generations.get(tag.machine as usize) == Some(&tag.generation)
    }

    fn get_mut(&mut self, tag: Tag) -> Option<&mut Machine> {
        if !self.current(tag) {
            return None;
        }
        self.machines[tag.machine as usize].as_mut()
    }

    /// What the machine does on `event`, with its chooser's failure monitor
    /// and queue model; `None` when the machine is no longer there.
    fn hear(&mut self, tag: Tag, event: fdb::Event, now: Time, rng: &mut SimRng) -> Option<Vec<Action>> {
        if !self.current(tag) {
            return None;
        }
        let machine = self.machines[tag.machine as usize].as_mut()?;
        let mut cx = Context { now, monitor: &self.monitors[machine.chooser], rng };
        Some(match &mut machine.balancer {
            Balancer::Basic(b) => b.on(event, &mut cx),
            Balancer::Load(b) => b.on(event, &mut cx, &mut self.knowledge[machine.chooser]),
        })
    }

    /// Frees the machine once the caller has its answer and, under
    /// `loadBalance`, no attempt of it is still out.
    fn retire_if_done(&mut self, tag: Tag) {
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
    fn server_up(&mut self, server: usize) -> Vec<Tag> {
        for monitor in &mut self.monitors {
            monitor.set_failed(server, false);
        }
        std::mem::take(&mut self.waiting)
    }
}

/// The error a failed request ends with, in the engine's terms.
fn failure_reason(kind: fdb::ErrorKind) -> FailureReason {
    match kind {
        fdb::ErrorKind::AllAlternativesFailed => FailureReason::AllAlternativesFailed,
        fdb::ErrorKind::BrokenPromise | fdb::ErrorKind::RequestMaybeDelivered => FailureReason::Refused,
        _ => FailureReason::ServerError,
    }
}

impl Simulation {
    /// The balancers' state, made when a FoundationDB policy first routes.
    fn fdb_routing(&mut self) -> &mut FdbRouting {
        let (choosers, slots) = (self.choosers.count(), self.scenario.slots);
        self.features.fdb.get_or_insert_with(|| Box::new(FdbRouting::new(choosers, slots)))
    }

    /// Session place `owner`'s request starts under `chooser`'s FoundationDB
    /// balancer.
    pub(super) fn balance(&mut self, owner: u32, chooser: usize) {
        let alternatives = self.alternatives_of(chooser);
        let load_balance = self.scenario.policy == PolicyKind::FDB_LOAD_BALANCE;
        let now = self.now;
        if let Some(session) = self.requests.get_mut(owner) {
            session.request.travel(Stage::Held, now, now);
        }
        self.fdb_routing();
        let (Some(fdb), rng) = (self.features.fdb.as_deref_mut(), &mut self.streams.routing) else { return };
        let mut cx = Context { now, monitor: &fdb.monitors[chooser], rng };
        let (balancer, actions) = if load_balance {
            let (b, actions) = LoadBalance::start(alternatives, false, &mut cx, &mut fdb.knowledge[chooser]);
            (Balancer::Load(b), actions)
        } else {
            let (b, actions) = BasicLoadBalance::start(alternatives, false, &mut cx);
            (Balancer::Basic(b), actions)
        };
        let tag = fdb.store(Machine { balancer, owner, chooser, sends: 0 });
        self.carry_out(tag, actions);
    }

    /// `chooser`'s pool as a balancer's alternatives.
    fn alternatives_of(&mut self, chooser: usize) -> Arc<Alternatives> {
        let servers =
            (0..self.choosers.pool_len(chooser)).map(|p| self.choosers.server_at(chooser, p) as usize);
        let split = self.scenario.datacenters();
        if split.count == 1 || self.scenario.dc_order == DcOrder::Any {
            return Arc::new(Alternatives::equally_near(servers));
        }
        let list = servers
            .map(|server| Alternative { server, datacenter: Datacenter(split.of_server(server as u32)) })
            .collect();
        let local = Datacenter(split.of_chooser(self.choosers.base_of(chooser)));
        Arc::new(Alternatives::local_first(list, local, &mut self.streams.routing))
    }

    fn carry_out(&mut self, tag: Tag, actions: Vec<Action>) {
        if self.journal.is_some() && !actions.is_empty() {
            self.note(Happening::BalancerActed { actions: actions.clone() });
        }
        for action in actions {
            match action {
                Action::Send { server } => self.send_attempt(tag, server),
                Action::Backoff { until } => self.arm_balancer_timer(tag, Timer::Backoff, until),
                Action::SecondRequestAt { at } => self.arm_balancer_timer(tag, Timer::SecondRequest, at),
                Action::Wait { until } => {
                    self.fdb_routing().waiting.push(tag);
                    if until != Time::NEVER {
                        self.arm_balancer_timer(tag, Timer::Wait, until);
                    }
                }
                Action::Deliver { server } => self.deliver(tag, server),
                Action::Fail(kind) => {
                    if let Some(owner) = self.fdb_routing().get_mut(tag).map(|m| m.owner) {
                        self.fail(owner, failure_reason(kind));
                    }
                }
            }
        }
        self.fdb_routing().retire_if_done(tag);
    }

    fn arm_balancer_timer(&mut self, tag: Tag, timer: Timer, at: Time) {
        let fdb = self.fdb_routing();
        let place = match fdb.free_timers.pop() {
            Some(place) => {
                fdb.timers[place as usize] = Some((tag, timer));
                place
            }
            None => {
                fdb.timers.push(Some((tag, timer)));
                (fdb.timers.len() - 1) as u32
            }
        };
        self.events.push(at.max(self.now), Event::BalancerTimer { timer: place });
    }

    /// A balancer's timer is due (stale unless its machine is still there).
    pub(super) fn balancer_timer(&mut self, place: u32) {
        let fdb = self.fdb_routing();
        let Some((tag, timer)) = fdb.timers.get_mut(place as usize).and_then(Option::take) else { return };
        fdb.free_timers.push(place);
        self.balancer_hears(tag, timer.event());
    }

    /// Tells the machine `event`, if it is still there, and carries out
    /// what it does; returns whether it did anything.
    fn balancer_hears(&mut self, tag: Tag, event: fdb::Event) -> bool {
        let now = self.now;
        let (Some(fdb), rng) = (self.features.fdb.as_deref_mut(), &mut self.streams.routing) else {
            return false;
        };
        let Some(actions) = fdb.hear(tag, event, now, rng) else { return false };
        let acted = !actions.is_empty();
        self.carry_out(tag, actions);
        acted
    }

    /// The balancer sends an attempt of its request to `server`.
    fn send_attempt(&mut self, tag: Tag, server: usize) {
        let Some(machine) = self.fdb_routing().get_mut(tag) else { return };
        let (owner, chooser, sends) = (machine.owner, machine.chooser, machine.sends);
        machine.sends = sends.saturating_add(1);
        if sends > 0 {
            self.metrics.counts.retried += 1;
        }
        let Some(position) = self.choosers.position_of(chooser, server as u32) else {
            // The server left the pool (ejected, removed) since the
            // alternatives were drawn: the connection cannot be made.
            let error = Some(fdb::ErrorKind::BrokenPromise);
            self.balancer_hears(tag, fdb::Event::Reply { server, error, penalty: None });
            return;
        };
        let Some(session) = self.requests.get(owner) else { return };
        let (origin, class) = (session.origin(), session.request.class);
        let demand = match sends {
            0 => session.request.demand,
            _ => self.work.copy_demand(self.streams.work, (origin.number, origin.remaining), class),
        };
        let request = Request::new(self.now, (class, demand));
        let attempt = Attempt { tag, index: sends, origin, outcome: session.outcome, request };
        let place = self.fdb_routing().send(attempt);
        self.metrics.counts.attempts_sent += 1;
        self.send_to_server(Flight::attempt(place), chooser, position);
    }

    /// If `flight` is an attempt whose reply (or bounce) just reached its
    /// chooser: gives the reply to its balancer and returns true.
    pub(super) fn attempt_replied(&mut self, flight: Flight) -> bool {
        let Kept::Attempt(place) = flight.kept() else { return false };
        let Some(seen) = self.in_flight(flight) else { return false };
        let bounced = seen.request.stage == Stage::Bounced;
        let (outcome, queued) = (seen.outcome, seen.request.reported.load().queued());
        let heard = self.tell_chooser(flight);
        let attempt = self.fdb_routing().take_attempt(place);
        self.metrics.counts.attempts_ended += 1;
        let (Some((chooser, server)), Some(tag)) = (heard, attempt.map(|a| a.tag)) else {
            return true;
        };
        let fdb = self.fdb_routing();
        let penalty = Some(fdb.curve.penalty(f64::from(queued)));
        let (error, penalty) = match (bounced, outcome) {
            (true, _) => (Some(fdb::ErrorKind::BrokenPromise), None),
            (false, Outcome::Ok) => (None, penalty),
            (false, Outcome::Error(ErrorKind::Refused)) => {
                fdb.monitors[chooser].set_failed(server as usize, true);
                (Some(fdb::ErrorKind::BrokenPromise), None)
            }
            (false, Outcome::Error(ErrorKind::ServerError)) => {
                (Some(fdb::ErrorKind::ServerOverloaded), penalty)
            }
        };
        self.balancer_hears(tag, fdb::Event::Reply { server: server as usize, error, penalty });
        true
    }

    /// The balancer's answer is `server`'s reply: the request goes on to
    /// its client as if that server had answered it.
    fn deliver(&mut self, tag: Tag, server: usize) {
        let Some(owner) = self.fdb_routing().get_mut(tag).map(|m| m.owner) else { return };
        let Some(session) = self.requests.get_mut(owner) else { return };
        session.request.server = server as u32;
        session.outcome = Outcome::Ok;
        if self.scenario.balancers > 0 {
            self.forward_to_client(owner);
        } else {
            self.complete_at_client(owner);
        }
    }

    /// `server` takes connections again: every failure monitor marks it up,
    /// and the balancers waiting for an alternative hear so.
    pub(super) fn balancers_see_up(&mut self, server: usize) {
        let Some(fdb) = self.features.fdb.as_deref_mut() else { return };
        for tag in fdb.server_up(server) {
            // One whose alternatives are all still failed waits on.
            if !self.balancer_hears(tag, fdb::Event::AlternativeUp)
                && self.fdb_routing().get_mut(tag).is_some()
            {
                self.fdb_routing().waiting.push(tag);
            }
        }
    }
}
