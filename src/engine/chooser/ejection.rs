//! Outlier ejection and health checks act on a chooser's pool (Envoy's
//! outlier detection): an ejected server leaves the pool, and the chooser's
//! policy is rebuilt over what is left, as after a membership change, so
//! no policy needs to know. What the chooser knew of the servers that
//! stay is kept in their slots (peak-EWMA's averages too); of an ejected
//! one it starts afresh when readmitted.
//!
//! Under a panic threshold (Envoy's `healthy_panic_threshold`), a chooser
//! with fewer than that percentage of its servers in routes to all of
//! them, ejected or not, until enough are back: its pool is then its full
//! pool, and the servers it holds ejected stay listed as such.

use super::{len_of, server_at, Choosers};
use crate::rng::SimRng;
use crate::time::Time;

impl Choosers {
    /// Chooser `member`'s servers, ejected ones too, ascending.
    fn full_pool(&self, member: usize) -> Vec<u32> {
        let m = &self.members[member];
        let len = len_of(&m.pool, self.servers);
        let mut full: Vec<u32> = (0..len).map(|p| server_at(&m.pool, p)).collect();
        // A panicking pool holds its ejected servers already.
        for &(server, _) in m.ejected.iter().filter(|_| !m.panicking) {
            let at = full.partition_point(|&s| s < server);
            full.insert(at, server);
        }
        full
    }

    /// Chooser `member` ejects `server` until `until` (`Time::NEVER`: until
    /// a health check readmits it), unless the server is not in its pool
    /// (or is already held out), the pool would be left empty, or, for an
    /// outlier, ejecting it would hold more than `max_fraction` of the pool
    /// out, which `always_one` lets pass while no outlier is out (Envoy's
    /// `always_eject_one_host`). Returns whether it did.
    pub fn eject(
        &mut self,
        member: usize,
        (server, until): (u32, Time),
        (max_fraction, always_one): (f64, bool),
        rng: &mut SimRng,
    ) -> bool {
        if self.reads_keys() || self.held_in(member, server).is_none() || self.in_pool(member) < 2 {
            return false;
        }
        let m = &self.members[member];
        let outliers = m.ejected.iter().filter(|(_, t)| *t != Time::NEVER).count() + 1;
        let full = self.full_len(member);
        let over = outliers as f64 > max_fraction * full as f64 && !(always_one && outliers == 1);
        if until != Time::NEVER && over {
            return false;
        }
        let mut ejected = m.ejected.clone();
        ejected.push((server, until));
        self.repool(&[(member, ejected)], rng);
        true
    }

    /// Chooser `member` readmits the servers whose ejection is over by `now`.
    pub fn readmit_due(&mut self, member: usize, now: Time, rng: &mut SimRng) {
        self.readmit_where(member, |&(_, until)| until <= now, rng);
    }

    /// Chooser `member` readmits `server` at once, if it holds it out (a
    /// probe of it succeeded).
    pub fn readmit(&mut self, member: usize, server: u32, rng: &mut SimRng) {
        self.readmit_where(member, |&(s, _)| s == server, rng);
    }

    /// Chooser `member` readmits the servers it holds out that `ends`
    /// picks, if any.
    fn readmit_where(&mut self, member: usize, ends: impl Fn(&(u32, Time)) -> bool, rng: &mut SimRng) {
        let Some(m) = self.members.get(member) else { return };
        if m.ejected.iter().any(&ends) {
            let ejected = m.ejected.iter().copied().filter(|e| !ends(e)).collect();
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
                    && self.held_in(member, server).is_some()
                    && self.in_pool(member) > 1
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

    /// Whether chooser `member` holds `server` out of its pool now.
    pub fn holds_out(&self, member: usize, server: u32) -> bool {
        self.members.get(member).is_some_and(|m| m.ejected.iter().any(|&(s, _)| s == server))
    }

    /// Every server some chooser holds ejected, once per such chooser.
    pub fn ejected(&self) -> impl Iterator<Item = u32> + '_ {
        self.members.iter().flat_map(|m| m.ejected.iter().map(|&(server, _)| server))
    }

    /// Gives each chooser of `changes` its new ejected servers, its pool
    /// the rest of its servers, and a policy rebuilt over them. What it
    /// knew of the servers that stay stays in their slots; an ejected
    /// one's slot is reset, so that it starts afresh when readmitted.
    fn repool(&mut self, changes: &[(usize, Vec<(u32, Time)>)], rng: &mut SimRng) {
        for (member, ejected) in changes {
            let mut pool = self.full_pool(*member);
            let panicking = self.panics(pool.len(), ejected);
            if !panicking {
                pool.retain(|s| !ejected.iter().any(|(e, _)| e == s));
            }
            // A pool of every server again reads as one (no search per response).
            let every_server =
                (ejected.is_empty() || panicking) && !self.explicit && pool.len() == self.servers;
            self.reslot(*member, if every_server { None } else { Some(pool) });
            self.members[*member].ejected = ejected.clone();
            self.members[*member].panicking = panicking;
            self.rebuild_policy(*member, rng);
        }
    }

    /// From now on, a chooser with fewer than `percent` of its servers in
    /// routes to all of them (0: never).
    pub fn panic_below(&mut self, percent: f64) {
        self.panic_percent = percent;
    }

    /// Whether a pool of `full` servers with `ejected` held out panics:
    /// Envoy's test, the percentage of hosts in below the threshold.
    fn panics(&self, full: usize, ejected: &[(u32, Time)]) -> bool {
        let held_out = full.min(ejected.len());
        self.panic_percent > 0.0 && 100.0 * ((full - held_out) as f64) < self.panic_percent * full as f64
    }

    /// The position in chooser `member`'s pool of `server`, if it is in it
    /// and not held out (a panicking pool holds its ejected servers).
    fn held_in(&self, member: usize, server: u32) -> Option<usize> {
        let held_out = self.holds_out(member, server);
        self.position_of(member, server).filter(|_| !held_out)
    }

    /// How many of chooser `member`'s servers are in, not held out.
    fn in_pool(&self, member: usize) -> usize {
        self.full_len(member) - self.members[member].ejected.len()
    }

    /// How many servers chooser `member` has, held out or not.
    fn full_len(&self, member: usize) -> usize {
        let m = &self.members[member];
        self.pool_len(member) + if m.panicking { 0 } else { m.ejected.len() }
    }
}
