//! The load board: the servers' loads as of the last refresh, for the
//! policies that read load when the scenario makes it stale
//! (`staleness_ms`). Each refresh schedules the next; a change of period
//! starts a new generation, so that the refresh already due is dropped.

use super::journal::Happening;
use super::{Event, Simulation};
use crate::policy::{Board, Load};

#[derive(Default)]
pub(super) struct LoadBoard {
    /// Each server's packed load at the last refresh.
    loads: Vec<u64>,
    generation: u32,
}

impl LoadBoard {
    pub fn new(servers: usize) -> LoadBoard {
        LoadBoard { loads: vec![0; servers], generation: 0 }
    }

    pub fn add_server(&mut self) {
        self.loads.push(0);
    }

    /// Whether a refresh of `generation` is current.
    pub fn is_current(&self, generation: u32) -> bool {
        generation == self.generation
    }

    /// What a policy reads: this board, when loads are stale, else `live`.
    pub fn or_live<'a>(&'a self, stale: bool, live: &'a dyn Fn(usize) -> Load) -> Board<'a> {
        if stale {
            Board::Stale(&self.loads)
        } else {
            Board::Live(live)
        }
    }
}

impl Simulation {
    /// A refresh of `generation` is due: if it is current, the board is
    /// copied from the servers.
    pub(super) fn board_refresh_due(&mut self, generation: u32) {
        let current = self.board.is_current(generation);
        if current {
            self.refresh_board();
        }
        if self.journal.is_some() {
            self.note(Happening::BoardRefreshed { current });
        }
    }

    /// Copies the true loads to the board and schedules the next copy, when
    /// the scenario asks for stale load.
    fn refresh_board(&mut self) {
        for (entry, server) in self.board.loads.iter_mut().zip(&self.servers) {
            *entry = server.load().0;
        }
        if let Some(period) = self.timing.board_refresh {
            let generation = self.board.generation;
            self.events.push(self.now + period, Event::BoardRefresh { generation });
        }
    }

    /// Starts a new chain of board refreshes (or none, for live load): the
    /// staleness changed, or the run starts.
    pub(super) fn restart_board(&mut self) {
        self.board.generation += 1;
        self.refresh_board();
    }
}
