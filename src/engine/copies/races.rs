//! Which places of the core's requests hold copies, and how each race
//! between a request and its copy stands: the core's own bookkeeping of
//! copies, whoever asked for them (hedging does, `feature/hedging/`).

use crate::time::Time;

const NO_TWIN: u32 = u32::MAX;

/// How the request a place holds stands in a race with its copy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Race {
    /// In none: its session waits on it (every request never copied, and
    /// a copy that won).
    #[default]
    Out,
    /// Racing its twin: the first of the two to finish service answers.
    Running,
    /// Lost: it ends at its next event (when it reaches its server, or,
    /// left to finish, when its service ends).
    Lost,
    /// Lost in service and cancelled: its slot is free, and its pending
    /// service completion ends it.
    Cancelled,
}

/// Per place of the core's requests: how it stands in a race, its twin,
/// whether it is a copy, and whether, losing in service, it is cancelled
/// (all empty until the first copy is made); and what the races counted.
#[derive(Default)]
pub struct Races {
    race: Vec<Race>,
    twin: Vec<u32>,
    /// Whether the place's request is a copy (one that won its race stays
    /// one until its session's next request).
    copy: Vec<bool>,
    /// Whether the place's request, losing in service, is cancelled at
    /// once rather than left to finish: as whoever made the copy said.
    cancels_in_service: Vec<bool>,
    pub tally: RaceTally,
}

/// What the races counted after the warm-up.
#[derive(Clone, Copy, Debug, Default)]
pub struct RaceTally {
    /// Races a copy won.
    pub copies_won: u64,
    /// Service time spent on the losers of races, for nothing.
    pub wasted_ns: u64,
}

impl Races {
    /// How many places it has kept a race for.
    pub fn places(&self) -> usize {
        self.copy.len()
    }

    fn grow_to(&mut self, id: u32) {
        let len = id as usize + 1;
        if self.race.len() < len {
            self.race.resize(len, Race::Out);
            self.twin.resize(len, NO_TWIN);
            self.copy.resize(len, false);
            self.cancels_in_service.resize(len, false);
        }
    }

    /// Races `copy` against `original`; the loser, if in service, is
    /// cancelled or left to finish as `cancels_in_service` says.
    pub fn link(&mut self, (original, copy): (u32, u32), cancels_in_service: bool) {
        self.grow_to(original.max(copy));
        for (id, twin) in [(original, copy), (copy, original)] {
            self.twin[id as usize] = twin;
            self.race[id as usize] = Race::Running;
            self.cancels_in_service[id as usize] = cancels_in_service;
        }
        self.copy[copy as usize] = true;
    }

    /// Whether place `id`'s request is a copy.
    #[inline]
    pub fn is_copy(&self, id: u32) -> bool {
        self.copy.get(id as usize) == Some(&true)
    }

    /// How place `id`'s request stands in a race.
    #[inline]
    pub fn race(&self, id: u32) -> Race {
        self.race.get(id as usize).copied().unwrap_or_default()
    }

    /// Whether place `id`'s request, losing in service, is cancelled.
    pub fn cancels_in_service(&self, id: u32) -> bool {
        self.cancels_in_service.get(id as usize) == Some(&true)
    }

    /// Whether place `id`'s request is a copy still racing.
    pub fn is_racing_copy(&self, id: u32) -> bool {
        self.race(id) == Race::Running && self.is_copy(id)
    }

    /// Whether place `id`'s request is the one its session waits on: out
    /// of any race, or the original in one.
    pub fn answers(&self, id: u32) -> bool {
        match self.race(id) {
            Race::Out => true,
            Race::Running => !self.is_copy(id),
            Race::Lost | Race::Cancelled => false,
        }
    }

    pub fn set_race(&mut self, id: u32, race: Race) {
        self.grow_to(id);
        self.race[id as usize] = race;
    }

    /// Place `id` holds a new request, its session's own, in no race.
    #[inline]
    pub fn new_request(&mut self, id: u32) {
        if let Some(copy) = self.copy.get_mut(id as usize) {
            *copy = false;
            self.race[id as usize] = Race::Out;
        }
    }

    /// Ends the race of place `id`: returns its twin, if it had one.
    pub fn unlink(&mut self, id: u32) -> Option<u32> {
        let twin = *self.twin.get(id as usize)?;
        if twin == NO_TWIN {
            return None;
        }
        self.twin[id as usize] = NO_TWIN;
        self.twin[twin as usize] = NO_TWIN;
        Some(twin)
    }

    /// Counts `wasted` service on a loser.
    pub fn waste(&mut self, wasted: Time) {
        self.tally.wasted_ns += wasted.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A copy and its original race as whoever made the copy said a
    /// loser in service stops; unlinked, neither names the other.
    #[test]
    fn a_race_links_both_twins_with_the_losers_rule_and_unlinks_both() {
        let mut races = Races::default();
        races.link((2, 5), true);
        assert_eq!((races.race(2), races.race(5)), (Race::Running, Race::Running));
        assert!(races.is_racing_copy(5) && !races.is_copy(2));
        assert!(races.answers(2) && !races.answers(5), "the original answers while they race");
        assert!(races.cancels_in_service(2) && races.cancels_in_service(5));
        assert_eq!(races.unlink(5), Some(2));
        assert_eq!(races.unlink(2), None, "unlinking one twin unlinks both");
        races.new_request(5);
        assert!(!races.is_copy(5) && races.answers(5), "a place's new request is no copy");
    }
}
