//! Where each chooser places keys, under a key-placing policy: its copy of
//! the placement over its pool, which under a lagging mapping table may be
//! an old version with newer ones pending, and the count of requests routed
//! while it lagged.

use super::Choosers;
use crate::keys::KeyPlacement;
use crate::scenario::Scenario;
use crate::time::Time;
use std::rc::Rc;

impl Choosers {
    /// Requests routed by key while their chooser's table copy lagged, and
    /// those of them sent elsewhere than the current version says.
    pub fn lag_counts(&self) -> (u64, u64) {
        (self.lag_routes, self.misrouted)
    }

    /// Where `chooser` places keys, if its policy does.
    pub fn placement(&self, chooser: usize) -> Option<&dyn KeyPlacement> {
        self.members.get(chooser)?.placement.as_deref()
    }

    /// Whether the policy places requests by their key.
    pub fn reads_keys(&self) -> bool {
        self.members.first().is_some_and(|m| m.placement.is_some())
    }

    /// Builds every chooser's placement over its pool under the scenario's
    /// policy, if it places by key, and returns the one over every member.
    /// Choosers whose pool is every member share that one, and neighbours
    /// with equal pools one.
    pub fn place_keys(&mut self, scenario: &Scenario) -> Option<Rc<dyn KeyPlacement>> {
        let scheme = scenario.policy.scheme();
        let shared = scheme.map(|scheme| (scheme.build)(&self.active, scenario));
        let mut last: Option<(&[u32], Rc<dyn KeyPlacement>)> = None;
        for member in &mut self.members {
            member.pending.clear();
            member.placement = match (&member.pool, scheme) {
                (Some(pool), Some(_)) if *pool == self.active => shared.clone(),
                (Some(pool), Some(scheme)) => {
                    let built = match &last {
                        Some((previous, built)) if *previous == pool.as_slice() => built.clone(),
                        _ => (scheme.build)(pool, scenario),
                    };
                    last = Some((pool, built.clone()));
                    Some(built)
                }
                _ => shared.clone(),
            };
        }
        shared
    }

    /// Gives every chooser its placement for the new member set, rebuilt
    /// from the latest version it holds or will hold (so a mapping table
    /// moves only what must move); one whose pool is every member takes
    /// `directory`, the version over all of them. `due` says when chooser
    /// `member` takes it: `None` at once, else it keeps routing by its copy
    /// until then (a lagging table).
    pub fn update_placements(
        &mut self,
        directory: &Rc<dyn KeyPlacement>,
        due: impl Fn(usize) -> Option<Time>,
    ) {
        let mut last: Option<(*const u8, Vec<u32>, Rc<dyn KeyPlacement>)> = None;
        for (index, member) in self.members.iter_mut().enumerate() {
            let Some(held) = member.pending.last().map(|(_, p)| p).or(member.placement.as_ref()).cloned()
            else {
                continue;
            };
            let pool = member.pool.as_deref().unwrap_or(&self.active);
            let next = if pool == directory.members() {
                directory.clone()
            } else {
                let from = Rc::as_ptr(&held) as *const u8;
                match &last {
                    Some((previous, members, built)) if *previous == from && members == pool => built.clone(),
                    _ => {
                        let built = held.rebuilt(pool);
                        last = Some((from, pool.to_vec(), built.clone()));
                        built
                    }
                }
            };
            match due(index) {
                Some(at) => member.pending.push((at, next)),
                None => {
                    member.pending.clear();
                    member.placement = Some(next);
                }
            }
        }
    }

    /// When chooser `member` takes the newest version of its table still
    /// pending, if one is.
    pub fn table_due(&self, member: usize) -> Option<Time> {
        Some(self.members.get(member)?.pending.last()?.0)
    }

    /// Chooser `member` takes every newer version of its table due by `now`.
    pub fn take_tables(&mut self, member: usize, now: Time) {
        let Some(member) = self.members.get_mut(member) else { return };
        let due = member.pending.iter().take_while(|(at, _)| *at <= now).count();
        if let Some((_, newest)) = member.pending.drain(..due).next_back() {
            member.placement = Some(newest);
        }
    }
}
