//! Membership changes while a simulation runs (seed 004: servers come and
//! go, and data moves with them): a server added, removed (drained),
//! crashed or restored, live or on the scenario's schedule. The roster and
//! the schedule are the membership feature's (`feature/membership.rs`);
//! here the core carries a change out when a feature asks
//! (`Action::ChangeMembers`), and takes changes made live.
//!
//! Servers keep their index for good. After any change every chooser's
//! pool is an explicit list of members and its policy is rebuilt over it;
//! placements are rebuilt from the new member set (the mapping table from
//! its previous version, so only what must move moves). A crashed server's
//! requests go back to their choosers to be placed again, as a queue
//! timeout's do but counted apart (`crash_replaced`) and without using the
//! retry budget: the seam where errors-as-responses and retries would go.
//!
//! For each change the engine measures (`keys`), over the counted keys
//! (every key while that is cheap, see [`CountedKeys`]), the share whose
//! server changed against the share that had to (the removed server's
//! keys, or the newcomer's 1/N), and, under a lagging table, the requests
//! its choosers sent elsewhere than the current version says.

mod keys;

pub(super) use keys::KeyDirectory;
pub use keys::{KeyMoves, KeySpread};

use super::copies::Race;
use super::feature::{FeatureId, FeatureTimer, Report};
use super::flight::Flight;
use super::requests::{Identity, Stage};
use super::{Event, Simulation};
use crate::scenario::failures::Failure;
use crate::scenario::{duration, Change, ScenarioError, Scheduled, Standing, MAX_CHANGES};
use crate::time::Time;
use serde::Serialize;

/// What one membership change did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChangeReport {
    pub at_s: f64,
    pub change: Change,
    /// The server it concerned (the new one's index, for an add).
    pub server: u32,
    pub members_before: u32,
    pub members_after: u32,
    /// Under a key-placing policy: the share of the counted keys whose
    /// server changed, and the share that had to (the server's own keys
    /// when one leaves; 1/N when one joins, N counting it).
    pub keys_moved: Option<f64>,
    pub keys_ideal: Option<f64>,
    /// Under a key-placing policy: the share of the counted keys on the
    /// server concerned, after it joined or came back, or before it left.
    /// Those keys had to move under any scheme that puts them where this
    /// one does, so no fewer moved; with uneven shares it is not 1/N.
    pub server_keys: Option<f64>,
    /// Requests sent back by the crash to be placed again.
    pub crash_replaced: u64,
    /// Under a lagging table, from this change to the next: requests
    /// routed by a chooser whose copy lagged, and those of them sent to
    /// another server than the current version names.
    pub routed_during_lag: u64,
    pub misrouted: u64,
}

/// A server's part in the membership, as the snapshot shows it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ServerState {
    #[default]
    Active,
    /// Removed, still finishing what it holds.
    Draining,
    /// Removed and empty.
    Removed,
    Crashed,
    /// A member refusing connections.
    Down,
    /// A member running at a fraction of its speed.
    Slow,
    /// A member answering a share of its requests with errors.
    Failing,
    /// A member down and up in turn.
    Flapping,
}

impl ServerState {
    pub fn name(self) -> &'static str {
        match self {
            ServerState::Active => "active",
            ServerState::Draining => "draining",
            ServerState::Removed => "removed",
            ServerState::Crashed => "crashed",
            ServerState::Down => "down",
            ServerState::Slow => "slow",
            ServerState::Failing => "failing",
            ServerState::Flapping => "flapping",
        }
    }
}

impl Simulation {
    /// Adds a server, with the next index; returns it.
    ///
    /// A change made live, by this method or the three below, applies at
    /// the next whole millisecond (the simulation runs up to it) and joins
    /// the scenario's schedule there, processed as the event its entry is,
    /// so that [`Simulation::scenario`] runs the same again from the seed,
    /// event for event.
    pub fn add_server(&mut self) -> Result<u32, ScenarioError> {
        self.change_live(Change::Add)
    }

    /// Removes server `server` from every member set: it takes no new
    /// requests, and those it holds (queued, in service, on their way)
    /// finish there.
    pub fn remove_server(&mut self, server: usize) -> Result<(), ScenarioError> {
        self.change_live(Change::Remove(server as u32)).map(drop)
    }

    /// Crashes server `server`: it leaves every member set at once, and the
    /// requests it held, queued or in service, go back to their choosers to
    /// be placed again (counted in `crash_replaced`; none is lost).
    pub fn crash_server(&mut self, server: usize) -> Result<(), ScenarioError> {
        self.change_live(Change::Crash(server as u32)).map(drop)
    }

    /// Restores a removed or crashed server to every member set it can join.
    pub fn restore_server(&mut self, server: usize) -> Result<(), ScenarioError> {
        self.change_live(Change::Restore(server as u32)).map(drop)
    }

    /// Each server's part in the membership, index by index.
    pub fn server_state(&self, server: usize) -> ServerState {
        match self.owned.membership().standing(server) {
            Standing::Member => match self.owned.failure_of(server) {
                None => ServerState::Active,
                Some(Failure::Down) => ServerState::Down,
                Some(Failure::Slow { .. }) => ServerState::Slow,
                Some(Failure::FastFail { .. }) => ServerState::Failing,
                Some(Failure::Flap { .. }) => ServerState::Flapping,
            },
            Standing::Crashed => ServerState::Crashed,
            Standing::Removed => {
                let s = &self.servers[server];
                let holds = s.busy > 0 || !s.queue.is_empty();
                if holds {
                    ServerState::Draining
                } else {
                    ServerState::Removed
                }
            }
        }
    }

    /// What each membership change did, in order.
    pub fn membership_changes(&self) -> Vec<ChangeReport> {
        self.owned.membership().changes(self.choosers.lag_counts())
    }

    /// Requests sent, so far, to another server than the current version
    /// of the chooser's mapping table names (while its copy lagged).
    pub fn misrouted(&self) -> u64 {
        self.choosers.lag_counts().1
    }

    /// Applies a change made live and adds it to the schedule, which holds
    /// at most [`MAX_CHANGES`] of them: at the next whole millisecond, as
    /// the schedule's entry will in the replay (see `live_instant`).
    fn change_live(&mut self, change: Change) -> Result<u32, ScenarioError> {
        let refuse =
            |reason: String| ScenarioError::Refused { field: "membership", value: change.text(), reason };
        if self.scenario.membership.len() >= MAX_CHANGES {
            return Err(refuse(format!("the schedule holds at most {MAX_CHANGES} changes")));
        }
        let at = self.live_instant(duration::LATEST_S).map_err(refuse)?;
        // Checked once the simulation stands just before it applies.
        self.owned.membership().check(change).map_err(refuse)?;
        self.scenario.membership.push(Scheduled { at_s: at.as_secs(), change });
        let entry = self.scenario.membership.len() as u32 - 1;
        let timer = FeatureTimer::new(FeatureId::Membership, entry);
        self.process(at, Event::FeatureTimer { timer });
        Ok(self.owned.membership().last_server())
    }

    /// Carries out `change`, the members after it being `members`: the
    /// servers, the pools, the policies and the key placements follow it;
    /// returns what it moved, for the feature that asked.
    pub(super) fn change_members(&mut self, change: Change, members: &[u32]) -> Report {
        let server = change.server().unwrap_or(self.servers.len() as u32);
        let mut crash_replaced = 0;
        match change {
            Change::Add => self.grow(),
            Change::Crash(s) => crash_replaced = self.crash(s as usize),
            Change::Restore(s) => self.servers[s as usize].restore(self.scenario.slots),
            Change::Remove(_) => {}
        }
        self.choosers.change_members(members, &mut self.streams.routing);
        self.choosers
            .rebuild_policies((self.scenario.policy, self.scenario.choices), &mut self.streams.routing);
        self.tell_policies_built();
        let (keys_moved, keys_ideal, server_keys) = self.move_keys(change, server, members);
        self.tell_members_changed();
        Report::MembersChanged { keys_moved, keys_ideal, server_keys, crash_replaced }
    }

    /// A server joins with the next index, empty, at its place in the
    /// scenario's pattern of speeds and weights.
    fn grow(&mut self) {
        let index = self.servers.len();
        let levels = self.scenario.priority_levels();
        self.servers.push(super::server::Server::new(
            self.scenario.slots,
            self.scenario.speed_of(index),
            levels,
        ));
        self.choosers.add_server(self.scenario.weight_of(index));
        self.board.add_server();
        self.metrics.add_server();
    }

    /// Sends back every request `server` holds, queued or in service, and
    /// takes its slots away; returns how many went back.
    fn crash(&mut self, server: usize) -> u64 {
        self.servers[server].set_timeout_due(None);
        let mut sent_back = 0;
        while let Some(id) = self.servers[server].queue.pop_next() {
            sent_back += u64::from(self.send_back(id, server, super::serving::SendBack::Crash));
        }
        let sessions = self.requests.iter().map(|(id, _)| Flight::request(id));
        let attempts = self.attempts.flights();
        let mut in_service: Vec<(Time, Identity, Flight, Option<Race>, Time)> = sessions
            .chain(attempts)
            .filter_map(|flight| {
                let r = self.in_flight(flight)?.request;
                let race = flight.place().map(|id| self.requests.races.race(id));
                let in_service = r.server as usize == server && r.stage == Stage::InService;
                (in_service && race != Some(Race::Cancelled)).then_some((
                    r.departs,
                    self.identity_of(flight)?,
                    flight,
                    race,
                    r.arrives,
                ))
            })
            .collect();
        // In the order their services started, wherever they are kept.
        crate::sort::sort_by_key(&mut in_service, |&(started, identity, ..)| (started, identity));
        for (started, _, flight, race, due) in in_service {
            self.events.void_service(flight, due);
            self.servers[server].busy -= 1;
            match (race, flight.place()) {
                (Some(Race::Lost), Some(id)) => {
                    self.count_wasted(self.now - started);
                    self.discard(id);
                }
                _ => sent_back += u64::from(self.send_back(flight, server, super::serving::SendBack::Crash)),
            }
        }
        self.servers[server].crash();
        sent_back
    }
}
