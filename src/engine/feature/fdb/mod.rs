//! FoundationDB's balancers in the simulation (issue 15; seed 002): under
//! `fdb-basic` and `fdb-load-balance` a chooser routes each request with one
//! of the state machines of [`crate::fdb`]; this feature turns their
//! actions into the core's and feeds them the replies and timers they
//! lead to.
//!
//! At `placing` the feature keeps the request at its chooser
//! ([`Action::Keep`]) and starts its balancer. Each request the balancer
//! sends is an attempt ([`Action::SendAttempt`], kept by the core,
//! `engine/attempts.rs`) that travels, queues and is served like any
//! request, and whose reply comes back here ([`Report::Replied`]) rather
//! than going on to the client. When the balancer delivers a reply, the
//! request goes on to its client as if that server had answered it
//! ([`Action::Answer`]); when the balancer fails it, it fails. Attempts
//! still out after that are the source's lagging requests: their replies
//! still teach the client's queue model, and the machine lives until the
//! last of them is back.
//!
//! The engine's outcomes, as FoundationDB's errors:
//! - a connection refused (the server is down) is `broken_promise`, and the
//!   client's failure monitor marks the server failed until its failure
//!   ends (or a flapping server comes up: `marked`), when waiting
//!   balancers hear that an alternative is up;
//! - a request sent back to its chooser (a queue timeout, a crash), or an
//!   attempt for a server its chooser's pool no longer holds, is
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
//!
//! [`PenaltyCurve`]: crate::fdb::PenaltyCurve

mod machines;

use super::{Action, Asks, Feature, Marked, Placing, Points, Report, View};
use crate::engine::journal::Happening;
use crate::engine::marks::Mark;
use crate::engine::{ErrorKind, Outcome};
use crate::fdb::{self, Alternative, Alternatives, BasicLoadBalance, Context, Datacenter, LoadBalance};
use crate::metrics::FailureReason;
use crate::rng::SimRng;
use crate::scenario::{DcOrder, PolicyKind, Scenario};
use crate::time::Time;
use machines::{Balancer, Machine, Machines, Tag, Timer};
use std::sync::Arc;

/// FoundationDB's driver: present in every run, as a live change may
/// choose a FoundationDB policy, and listening while one routes.
pub(in crate::engine) struct FdbDriver {
    /// Whether the choosers route with a FoundationDB policy now.
    routes: bool,
    /// The balancers' state, made when a FoundationDB policy first routes.
    machines: Option<Box<Machines>>,
}

impl Feature for FdbDriver {
    /// The kind `BalancerTimer` had.
    const TRACE_KIND: u64 = 21;
    const HEARS: Points = Points::PLACING;

    fn for_scenario(scenario: &Scenario) -> Option<FdbDriver> {
        Some(FdbDriver { routes: scenario.policy.is_fdb(), machines: None })
    }

    fn listening(&self) -> bool {
        self.routes
    }

    fn policies_built(&mut self, view: &View, _out: &mut Asks) {
        self.routes = view.scenario.policy.is_fdb();
    }

    /// The request starts under its chooser's balancer (told while
    /// another feature that places requests listens, it leaves them be).
    fn placing(&mut self, placing: Placing, view: &View, out: &mut Asks) {
        if !self.routes {
            return;
        }
        let Placing { place: owner, chooser } = placing;
        let alternatives = alternatives_of(chooser, view, out.routing());
        out.push(Action::Keep { place: owner });
        let (choosers, slots) = (view.choosers.count(), view.scenario.slots);
        let machines = self.machines.get_or_insert_with(|| Box::new(Machines::new(choosers, slots)));
        let (monitor, mut model, known) = machines.of_chooser(chooser);
        let mut cx = Context { now: view.now, monitor: &monitor, model: &mut model, rng: out.routing() };
        let (balancer, actions) = if view.scenario.policy == PolicyKind::FDB_LOAD_BALANCE {
            let (b, actions) = LoadBalance::start(alternatives, false, &mut cx, known);
            (Balancer::Load(b), actions)
        } else {
            let (b, actions) = BasicLoadBalance::start(alternatives, false, &mut cx);
            (Balancer::Basic(b), actions)
        };
        let tag = machines.store(Machine { balancer, owner, chooser, sends: 0 });
        self.carry_out(tag, actions, view, out);
    }

    /// A balancer's timer is due (stale unless its machine is still there).
    fn timer(&mut self, place: u32, view: &View, out: &mut Asks) {
        let Some((tag, timer)) = self.machines.as_mut().and_then(|m| m.take_timer(place)) else { return };
        self.hears(tag, timer.event(), view, out);
    }

    /// An attempt's reply is back: its balancer hears it as
    /// FoundationDB's error, or its penalty.
    fn carried(&mut self, report: Report, view: &View, out: &mut Asks) {
        let Report::Replied { token, chooser, server, bounced, outcome, queued } = report else { return };
        let Some(machines) = self.machines.as_mut() else { return };
        let penalty = Some(machines.curve.penalty(f64::from(queued)));
        let (error, penalty) = match (bounced, outcome) {
            (true, _) => (Some(fdb::ErrorKind::BrokenPromise), None),
            (false, Outcome::Ok) => (None, penalty),
            (false, Outcome::Error(ErrorKind::Refused)) => {
                machines.set_failed(chooser as usize, server);
                (Some(fdb::ErrorKind::BrokenPromise), None)
            }
            (false, Outcome::Error(ErrorKind::ServerError)) => {
                (Some(fdb::ErrorKind::ServerOverloaded), penalty)
            }
        };
        let reply = fdb::Event::Reply { server: server as usize, error, penalty };
        self.hears(Tag::of_token(token), reply, view, out);
    }

    /// A server that refused connections takes them again: every failure
    /// monitor marks it up, and the balancers waiting for an alternative
    /// hear so.
    fn marked(&mut self, marked: Marked, view: &View, out: &mut Asks) {
        if marked.before != Mark::Refuses || marked.mark == Mark::Refuses {
            return;
        }
        let Some(machines) = self.machines.as_mut() else { return };
        for tag in machines.server_up(marked.server as usize) {
            // One whose alternatives are all still failed waits on.
            if !self.hears(tag, fdb::Event::AlternativeUp, view, out) {
                let machines = self.machines.as_mut().expect("the balancers' state");
                if machines.get_mut(tag).is_some() {
                    machines.waiting.push(tag);
                }
            }
        }
    }
}

impl FdbDriver {
    /// Tells the machine `event`, if it is still there, and carries out
    /// what it does; returns whether it did anything.
    fn hears(&mut self, tag: Tag, event: fdb::Event, view: &View, out: &mut Asks) -> bool {
        let Some(machines) = self.machines.as_mut() else { return false };
        let Some(actions) = machines.hear(tag, event, view.now, out.routing()) else { return false };
        let acted = !actions.is_empty();
        self.carry_out(tag, actions, view, out);
        acted
    }

    /// Asks the core for what the balancer's `actions` need, in order.
    fn carry_out(&mut self, tag: Tag, actions: Vec<fdb::Action>, view: &View, out: &mut Asks) {
        if view.journaled && !actions.is_empty() {
            out.push(Action::Note(Happening::BalancerActed { actions: actions.clone() }));
        }
        for action in actions {
            match action {
                fdb::Action::Send { server } => self.send_attempt(tag, server as u32, view, out),
                fdb::Action::Backoff { until } => self.arm(tag, Timer::Backoff, until, view, out),
                fdb::Action::SecondRequestAt { at } => self.arm(tag, Timer::SecondRequest, at, view, out),
                fdb::Action::Wait { until } => {
                    self.machines().waiting.push(tag);
                    if until != Time::NEVER {
                        self.arm(tag, Timer::Wait, until, view, out);
                    }
                }
                fdb::Action::Deliver { server } => {
                    if let Some(owner) = self.machines().get_mut(tag).map(|m| m.owner) {
                        out.push(Action::Answer { place: owner, server: server as u32 });
                    }
                }
                fdb::Action::Fail(kind) => {
                    if let Some(owner) = self.machines().get_mut(tag).map(|m| m.owner) {
                        out.push(Action::Fail { place: owner, reason: failure_reason(kind) });
                    }
                }
            }
        }
        self.machines().retire_if_done(tag);
    }

    fn machines(&mut self) -> &mut Machines {
        self.machines.as_mut().expect("the balancers' state, made at their first placing")
    }

    fn arm(&mut self, tag: Tag, timer: Timer, at: Time, view: &View, out: &mut Asks) {
        let place = self.machines().arm(tag, timer);
        out.push(Action::Timer { at: at.max(view.now), payload: place });
    }

    /// The balancer sends an attempt of its request to `server`; one its
    /// chooser's pool no longer holds (ejected, removed since the
    /// alternatives were drawn) cannot connect, and the balancer hears so
    /// at once.
    fn send_attempt(&mut self, tag: Tag, server: u32, view: &View, out: &mut Asks) {
        let Some(machine) = self.machines().get_mut(tag) else { return };
        let (place, chooser, index) = (machine.owner, machine.chooser, machine.sends);
        machine.sends = index.saturating_add(1);
        out.push(Action::SendAttempt { place, chooser: chooser as u32, server, index, token: tag.token() });
        if view.choosers.position_of(chooser, server).is_none() {
            let error = Some(fdb::ErrorKind::BrokenPromise);
            self.hears(tag, fdb::Event::Reply { server: server as usize, error, penalty: None }, view, out);
        }
    }
}

/// `chooser`'s pool as a balancer's alternatives.
fn alternatives_of(chooser: usize, view: &View, rng: &mut SimRng) -> Arc<Alternatives> {
    let choosers = view.choosers;
    let servers = (0..choosers.pool_len(chooser)).map(|p| choosers.server_at(chooser, p) as usize);
    let split = view.scenario.datacenters();
    if split.count == 1 || view.scenario.dc_order == DcOrder::Any {
        return Arc::new(Alternatives::equally_near(servers));
    }
    let list = servers
        .map(|server| Alternative { server, datacenter: Datacenter(split.of_server(server as u32)) })
        .collect();
    let local = Datacenter(split.of_chooser(choosers.base_of(chooser)));
    Arc::new(Alternatives::local_first(list, local, rng))
}

/// A FoundationDB balancer found every alternative failed, and none came
/// up before its wait timed out.
const ALL_ALTERNATIVES_FAILED: FailureReason = FailureReason::named("all-alternatives-failed", false);

/// The error a failed request ends with, in the engine's terms.
fn failure_reason(kind: fdb::ErrorKind) -> FailureReason {
    match kind {
        fdb::ErrorKind::AllAlternativesFailed => ALL_ALTERNATIVES_FAILED,
        fdb::ErrorKind::BrokenPromise | fdb::ErrorKind::RequestMaybeDelivered => FailureReason::REFUSED,
        _ => FailureReason::SERVER_ERROR,
    }
}
