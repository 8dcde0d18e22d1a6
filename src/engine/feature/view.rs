//! What a feature reads of the core: a read-only view, built only when a
//! run has a feature that hears the point.

use crate::engine::board::LoadBoard;
use crate::engine::chooser::Choosers;
use crate::engine::flight::Flight;
use crate::engine::journal::Whose;
use crate::engine::lengths::SessionLengths;
use crate::engine::marks::{Mark, Marks};
use crate::engine::requests::Requests;
use crate::engine::server::Server;
use crate::policy::Board;
use crate::rng::Demands;
use crate::scenario::Scenario;
use crate::time::Time;

/// A read-only view of the core, as a feature reads it at a point.
pub(in crate::engine) struct View<'a> {
    pub now: Time,
    pub scenario: &'a Scenario,
    pub servers: &'a [Server],
    pub choosers: &'a Choosers,
    /// Whether the run keeps a journal: a feature notes a happening only
    /// then (building one costs).
    pub journaled: bool,
    /// Whether the warm-up is over: a feature counts only then.
    pub measuring: bool,
    pub(in crate::engine) board: &'a LoadBoard,
    /// Whether policies read the load board rather than live load.
    pub(in crate::engine) stale_board: bool,
    /// How each server treats the requests that reach it.
    pub(in crate::engine) marks: &'a Marks,
    pub(in crate::engine) requests: &'a Requests,
    pub(in crate::engine) lengths: &'a SessionLengths,
    /// What keys each request's own draws.
    pub demands: Demands,
}

impl View<'_> {
    /// Reads the servers' loads as the choosers' policies read them: the
    /// load board when it is stale, otherwise live.
    pub fn read_board<R>(&self, read: impl FnOnce(Board) -> R) -> R {
        let servers = self.servers;
        let live = |s: usize| servers[s].load();
        read(self.board.or_live(self.stale_board, &live))
    }

    /// Who place `place`'s request is, for a happening of its own; none
    /// once it has ended.
    pub fn whose(&self, place: u32) -> Option<Whose> {
        let kept = self.requests.get(place)?;
        Some(Whose::of(Flight::request(place), kept.origin(), (self.lengths, self.scenario)))
    }

    /// Whether `server` refuses connections now (down, or flapping down).
    pub fn refuses(&self, server: usize) -> bool {
        self.marks.of(server) == Mark::Refuses
    }
}
