//! The keys a membership change moves, under a key-placing policy: the
//! placements rebuilt for the new member set, the share of the counted
//! keys whose server changed against the share that had to, and the
//! spread of the key shares and of the load across the members.

use super::*;
use crate::keys::{key_counts_of, spread, CountedKeys, KeyPlacement, Unloaded};
use crate::scenario::PolicyKind;
use serde::Serialize;
use std::cell::OnceCell;
use std::rc::Rc;

/// Where keys live over every member (the current version of the
/// choosers' placements), to measure what a membership change moves.
#[derive(Default)]
pub(in crate::engine) struct KeyDirectory {
    current: Option<Rc<dyn KeyPlacement>>,
    /// Each count of the counted keys as chooser 0 places them, worked
    /// out when asked and forgotten when its placement changes.
    key_counts: OnceCell<Vec<u64>>,
    /// The counted keys the last change moved, for the picture.
    moves: Option<KeyMoves>,
}

impl KeyDirectory {
    pub fn set(&mut self, directory: Option<Rc<dyn KeyPlacement>>) {
        self.current = directory;
        self.forget_key_counts();
    }

    /// A chooser's placement changed (a lagging table taking a version).
    pub fn forget_key_counts(&mut self) {
        self.key_counts = OnceCell::new();
    }
}

/// Keys moved, the ideal share and the server's own (see [`ChangeReport`]).
type KeysReported = (Option<f64>, Option<f64>, Option<f64>);

/// The spread across members of their share of the key space and of the
/// requests they completed (seed 001's "what hashing costs").
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct KeySpread {
    pub keys: CountedKeys,
    /// When chooser 0's pool is not every member (subsets, class pools):
    /// how many servers it holds, which the key shares are over.
    pub chooser_pool: Option<u32>,
    /// Standard deviation over mean, and max over mean, of each server's
    /// share of the counted keys as chooser 0 places them.
    pub key_share_cv: f64,
    pub key_share_max_over_mean: f64,
    /// The same of the requests each member completed after the warm-up.
    pub load_cv: f64,
    pub load_max_over_mean: f64,
}

/// The counted keys a membership change moved: how many left each server
/// and how many arrived at each, server by server.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct KeyMoves {
    /// When the change applied, in simulated ms.
    pub at_ms: f64,
    pub left: Vec<u32>,
    pub arrived: Vec<u32>,
}

/// (share of the counted keys whose server differs, share `before` placed
/// on `server`), counting into `moves` the keys that left and arrived at
/// each server.
fn moved_and_held(
    (before, after): (&dyn KeyPlacement, &dyn KeyPlacement),
    server: u32,
    key_space: u64,
    moves: &mut KeyMoves,
) -> KeyShares {
    let (mut moved, mut held, mut holds, mut n) = (0u64, 0u64, 0u64, 0u64);
    for key in CountedKeys::for_placement(before, key_space).keys() {
        let (was, is) = (before.place(key, &Unloaded), after.place(key, &Unloaded));
        if was != is {
            moved += 1;
            moves.left[was as usize] += 1;
            moves.arrived[is as usize] += 1;
        }
        held += u64::from(was == server);
        holds += u64::from(is == server);
        n += 1;
    }
    let share = |count: u64| count as f64 / n as f64;
    KeyShares { moved: share(moved), held: share(held), holds: share(holds) }
}

/// Shares of the counted keys around one membership change: those whose
/// server changed, and those on the server concerned before and after.
struct KeyShares {
    moved: f64,
    held: f64,
    holds: f64,
}

impl Simulation {
    /// The keys the last membership change moved, under a key-placing policy.
    pub fn key_moves(&self) -> Option<&KeyMoves> {
        self.directory.moves.as_ref()
    }

    /// Under a key-placing policy: which keys the key shares count.
    pub fn counted_keys(&self) -> Option<CountedKeys> {
        Some(CountedKeys::for_placement(self.key_placement()?, self.scenario.key_space.into()))
    }

    /// Under a key-placing policy: how many of the counted keys each
    /// server of chooser 0's pool holds, server by server, as chooser 0
    /// places them (the placement [`Simulation::key_placement`] gives and
    /// the engine routes its requests by; under subsets or class pools,
    /// over part of the servers).
    pub fn key_counts(&self) -> Option<&[u64]> {
        let (placement, keys) = (self.key_placement()?, self.counted_keys()?);
        Some(self.directory.key_counts.get_or_init(|| key_counts_of(placement, keys.keys())))
    }

    /// Under a key-placing policy: the spread of the key shares of chooser
    /// 0's pool, and of the requests every member completed.
    pub fn key_spread(&self) -> Option<KeySpread> {
        let directory = self.directory.current.as_ref()?;
        let pool = self.key_placement()?.members().len();
        let (key_share_cv, key_share_max_over_mean) = spread(self.key_counts()?);
        let completed: Vec<u64> =
            directory.members().iter().map(|&s| self.metrics.completed_per_server[s as usize]).collect();
        let (load_cv, load_max_over_mean) = spread(&completed);
        Some(KeySpread {
            keys: self.counted_keys()?,
            chooser_pool: (pool != directory.members().len()).then_some(pool as u32),
            key_share_cv,
            key_share_max_over_mean,
            load_cv: if load_cv.is_finite() { load_cv } else { 0.0 },
            load_max_over_mean: if load_max_over_mean.is_finite() { load_max_over_mean } else { 0.0 },
        })
    }

    /// Rebuilds the placements for the new member set (the table from its
    /// previous version, taken by each chooser after its share of the lag)
    /// and measures the keys that moved; (moved, ideal, the server's own)
    /// under a key-placing policy.
    pub(super) fn move_keys(&mut self, change: Change, server: u32, members: &[u32]) -> KeysReported {
        let Some(before) = self.directory.current.clone() else { return (None, None, None) };
        let after = before.rebuilt(members);
        let lag = Time::from_ms(self.scenario.table_lag_ms);
        let lagging = self.scenario.policy == PolicyKind::TABLE && lag > Time::ZERO;
        let (now, choosers) = (self.now, self.scenario.choosers() as u64);
        let per_chooser = (self.choosers.count() as u64 / choosers.max(1)).max(1);
        // Chooser i of n takes the new version (i + 1)/n of the way through the lag.
        let due = |member: usize| {
            let chooser = member as u64 / per_chooser;
            lagging
                .then(|| now + Time((lag.0 as u128 * u128::from(chooser + 1) / u128::from(choosers)) as u64))
        };
        self.choosers.update_placements(&after, due);
        let servers = self.servers.len();
        let mut moves = KeyMoves { at_ms: now.as_ms(), left: vec![0; servers], arrived: vec![0; servers] };
        let shares = moved_and_held(
            (before.as_ref(), after.as_ref()),
            server,
            self.scenario.key_space.into(),
            &mut moves,
        );
        self.directory.moves = Some(moves);
        let (ideal, own) = match change {
            Change::Add | Change::Restore(_) => (1.0 / members.len() as f64, shares.holds),
            Change::Remove(_) | Change::Crash(_) => (shares.held, shares.held),
        };
        self.directory.set(Some(after));
        (Some(shares.moved), Some(ideal), Some(own))
    }
}
