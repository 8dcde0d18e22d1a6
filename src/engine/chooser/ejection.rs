//! Outlier ejection and health checks act on a chooser's pool (Envoy's
//! outlier detection): an ejected server leaves the pool, and the chooser's
//! policy is rebuilt over what is left, as after a membership change, so
//! no policy needs to know. What the chooser knew of the servers that
//! stay is kept; of an ejected one it starts afresh when readmitted.

use super::{len_of, old_positions, server_at, Choosers};
use crate::policy::Known;
use crate::rng::SimRng;
use crate::time::Time;

impl Choosers {
    /// Chooser `member`'s servers, ejected ones too, ascending.
    fn full_pool(&self, member: usize) -> Vec<u32> {
        let m = &self.members[member];
        let len = len_of(&m.pool, self.servers);
        let mut full: Vec<u32> = (0..len).map(|p| server_at(&m.pool, p)).collect();
        for &(server, _) in &m.ejected {
            let at = full.partition_point(|&s| s < server);
            full.insert(at, server);
        }
        full
    }

    /// Chooser `member` ejects `server` until `until` (`Time::NEVER`: until
    /// a health check readmits it), unless the server is not in its pool,
    /// the pool would be left empty, or, for an outlier, ejecting it would
    /// hold more than `max_fraction` of the pool out. Returns whether it did.
    pub fn eject(
        &mut self,
        member: usize,
        server: u32,
        until: Time,
        max_fraction: f64,
        rng: &mut SimRng,
    ) -> bool {
        if self.reads_keys() || self.position_of(member, server).is_none() || self.pool_len(member) < 2 {
            return false;
        }
        let m = &self.members[member];
        let outliers = m.ejected.iter().filter(|(_, t)| *t != Time::NEVER).count() + 1;
        let full = self.pool_len(member) + m.ejected.len();
        if until != Time::NEVER && outliers as f64 > max_fraction * full as f64 {
            return false;
        }
        let mut ejected = m.ejected.clone();
        ejected.push((server, until));
        self.repool(&[(member, ejected)], rng);
        true
    }

    /// Chooser `member` readmits the servers whose ejection is over by `now`.
    pub fn readmit_due(&mut self, member: usize, now: Time, rng: &mut SimRng) {
        let Some(m) = self.members.get(member) else { return };
        if m.ejected.iter().any(|&(_, until)| until <= now) {
            let ejected = m.ejected.iter().copied().filter(|&(_, until)| until > now).collect();
            self.repool(&[(member, ejected)], rng);
        }
    }

    /// A health check found `server` refusing (`healthy` false): every
    /// chooser ejects it until one finds it healthy, when every chooser
    /// readmits it.
    pub fn set_health(&mut self, server: u32, healthy: bool, rng: &mut SimRng) {
        let changes: Vec<(usize, Vec<(u32, Time)>)> = (0..self.members.len())
            .filter_map(|member| {
                let m = &self.members[member];
                let held = m.ejected.contains(&(server, Time::NEVER));
                let mut ejected = m.ejected.clone();
                if healthy && held {
                    ejected.retain(|&e| e != (server, Time::NEVER));
                } else if !healthy
                    && !held
                    && self.position_of(member, server).is_some()
                    && self.pool_len(member) > 1
                {
                    ejected.push((server, Time::NEVER));
                } else {
                    return None;
                }
                Some((member, ejected))
            })
            .collect();
        if !changes.is_empty() && !self.reads_keys() {
            self.repool(&changes, rng);
        }
    }

    /// Every chooser readmits every server it ejected (before its pool is
    /// redrawn or the membership changes).
    pub fn lift_ejections(&mut self, rng: &mut SimRng) {
        let changes: Vec<_> = (0..self.members.len())
            .filter(|&m| !self.members[m].ejected.is_empty())
            .map(|m| (m, Vec::new()))
            .collect();
        if !changes.is_empty() {
            self.repool(&changes, rng);
        }
    }

    /// Every server some chooser holds ejected, once per such chooser.
    pub fn ejected(&self) -> impl Iterator<Item = u32> + '_ {
        self.members.iter().flat_map(|m| m.ejected.iter().map(|&(server, _)| server))
    }

    /// Gives each chooser of `changes` its new ejected servers, its pool
    /// the rest of its servers, and a policy rebuilt over them. Each
    /// chooser's part of the table keeps room for its whole pool, so only
    /// that part is rewritten: what it knew of the servers that stay moves
    /// to their new positions, and a readmitted one starts afresh.
    fn repool(&mut self, changes: &[(usize, Vec<(u32, Time)>)], rng: &mut SimRng) {
        for (member, ejected) in changes {
            let start = self.members[*member].start;
            let mut pool = self.full_pool(*member);
            pool.retain(|s| !ejected.iter().any(|(e, _)| e == s));
            let moved = old_positions(&self.members[*member].pool, self.servers, pool.iter().copied());
            let known: Vec<Known> =
                moved.iter().map(|p| p.map_or_else(Known::default, |p| self.known[start + p])).collect();
            let work: Vec<f32> = if self.work.is_empty() {
                Vec::new()
            } else {
                moved.iter().map(|p| p.map_or(0.0, |p| self.work[start + p])).collect()
            };
            let mut connections = self.connections.cold(pool.len());
            for (position, old) in moved.iter().enumerate() {
                if let Some(old) = old {
                    self.connections.copy_into(start + old, &mut connections, position);
                }
            }
            for position in 0..pool.len() {
                self.known[start + position] = known[position];
                if let Some(w) = self.work.get_mut(start + position) {
                    *w = work[position];
                }
                connections.copy_into(position, &mut self.connections, start + position);
            }
            // A pool of every server again reads as one (no search per response).
            let every_server = ejected.is_empty() && !self.explicit && pool.len() == self.servers;
            self.members[*member].pool = if every_server { None } else { Some(pool) };
            self.members[*member].ejected = ejected.clone();
            self.rebuild_policy(*member, rng);
        }
    }
}
