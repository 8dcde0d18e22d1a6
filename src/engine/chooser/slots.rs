//! Where what a chooser knows of each server of its pool stays: a slot in
//! its part of the table, which the server keeps while the pool changes
//! around it (an ejection, a readmission, a redraw, a membership change).
//! The pool holds each position's slot (none while the positions are the
//! slots, as for a pool of every server), so a policy reads by position
//! through it ([`Column`](crate::policy::Column)). A server that leaves
//! the pool has its slot reset, so that coming back it starts afresh, and
//! a newcomer takes the lowest slot free; nothing is moved.
//!
//! A part has room for the largest pool its chooser has had: only a pool
//! that outgrows it (a redraw to larger subsets, servers joining a pool of
//! every member) lays the table out again, each part's entries copied whole
//! to the same slots of a larger part.
//!
//! A pool that shrinks keeps its room, on purpose: giving it back would
//! not lower a run's peak memory. Measured (`/usr/bin/time -f %M`, `lbsim
//! run default --set clients=100000 --set servers=40 --set load=0.5
//! --duration 3 --warmup 0`, a table of 4 million entries): 91.6 MB at
//! most without a change; with one server removed at 1 s, 128.8 MB; with
//! 30 of the 40 removed, 144.3 MB (servers 0 to 29, which puts the pools
//! out of slot order) or 127.0 MB (39 down to 10); with 10 servers from
//! the start, 44.2 MB. The peak comes with the first removal, which
//! turns each pool of every server into a list of its own while the
//! table, 39 fortieths used, is still needed; room given back at 10 of 40
//! could only come later, and laying the table out again needs the new
//! one beside the old. What it would save is resident memory after the
//! shrink (about 3 million entries here), until a run that ends in
//! seconds ends; and in the browser a WebAssembly memory never shrinks.

use super::{len_of, server_at, Choosers};

impl Choosers {
    /// Gives chooser `member` its new pool `pool`: each server that stays
    /// keeps its slot, each that leaves has its slot reset, and each
    /// newcomer takes the lowest slot free, the part growing first if the
    /// pool outgrows it.
    pub(super) fn reslot(&mut self, member: usize, pool: Option<Vec<u32>>) {
        let len = len_of(&pool, self.servers);
        if len > self.members[member].room {
            let mut rooms: Vec<usize> = self.members.iter().map(|m| m.room).collect();
            rooms[member] = len;
            self.make_room(&rooms);
        }
        let m = &self.members[member];
        let stays: Vec<Option<usize>> =
            (0..len).map(|p| self.position_of(member, server_at(&pool, p)).map(|old| m.slot(old))).collect();
        let mut taken = vec![false; m.room];
        stays.iter().flatten().for_each(|&slot| taken[slot] = true);
        for old in 0..self.pool_len(member) {
            if !taken[m.slot(old)] {
                self.table.reset(m.entry(old));
            }
        }
        let mut free = (0..m.room).filter(|&slot| !taken[slot]);
        let slots: Vec<u32> = stays
            .into_iter()
            .map(|slot| slot.or_else(|| free.next()).expect("a part has room for its whole pool") as u32)
            .collect();
        let in_order = slots.iter().enumerate().all(|(position, &slot)| position == slot as usize);
        let m = &mut self.members[member];
        m.slots = (!in_order).then_some(slots);
        m.pool = pool;
    }

    /// Gives each chooser a part of at least `rooms[chooser]` slots: when
    /// one is short, the table is laid out again, every part's entries
    /// copied to the same slots of its new place.
    pub(super) fn make_room(&mut self, rooms: &[usize]) {
        if self.members.iter().zip(rooms).all(|(m, &room)| room <= m.room) {
            return;
        }
        let total = self.members.iter().zip(rooms).map(|(m, &room)| room.max(m.room)).sum();
        let mut table = self.table.fresh(total);
        let mut start = 0;
        for (m, &room) in self.members.iter_mut().zip(rooms) {
            for slot in 0..m.room {
                self.table.copy(m.start + slot, &mut table, start + slot);
            }
            m.start = start;
            m.room = m.room.max(room);
            start += m.room;
        }
        self.table = table;
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Subsets, Timing};
    use super::*;
    use crate::rng::SimRng;
    use crate::scenario::PolicyKind;
    use crate::time::Time;

    /// `choosers` choosers among `servers` servers, each drawing `size` of them.
    fn choosers(choosers: usize, servers: usize, size: Option<u32>, rng: &mut SimRng) -> Choosers {
        let timing = Timing { handshake: Time(7), ..Timing::untimed() };
        Choosers::new(
            (choosers, &[]),
            (vec![1.0; servers], vec![1.0]),
            (Subsets::random(size), true, &timing),
            (PolicyKind::RANDOM, 2),
            rng,
        )
    }

    /// Sends `server + 1` requests from each chooser to each server of its pool.
    fn send_each(choosers: &mut Choosers) {
        for chooser in 0..choosers.count() {
            for position in 0..choosers.pool_len(chooser) {
                for _ in 0..=choosers.server_at(chooser, position) {
                    choosers.on_send(chooser, position, 10, 0);
                }
            }
        }
    }

    /// What the table holds, slot by slot: each entry's requests in flight.
    fn in_flight_by_slot(choosers: &Choosers) -> Vec<u32> {
        choosers.table.known.iter().map(|known| known.in_flight).collect()
    }

    #[test]
    fn an_ejection_moves_nothing_and_resets_only_the_ejected_servers_slot() {
        let mut rng = SimRng::new(3);
        let mut choosers = choosers(1, 5, None, &mut rng);
        send_each(&mut choosers);
        assert_eq!(in_flight_by_slot(&choosers), [1, 2, 3, 4, 5]);
        assert!(choosers.eject(0, (1, Time(100)), (1.0, false), &mut rng));
        assert_eq!(in_flight_by_slot(&choosers), [1, 0, 3, 4, 5]);
        assert_eq!(choosers.members[0].slots.as_deref(), Some(&[0, 2, 3, 4][..]));
        // Read by position through the pool: server 2 is at position 1.
        assert_eq!((choosers.server_at(0, 1), choosers.entry(0, 1).in_flight), (2, 3));
        assert_eq!(choosers.in_flight_total(0), 13);
        // Readmitted, server 1 takes the slot left free, fresh, and the
        // positions are the slots again.
        choosers.readmit_due(0, Time(100), &mut rng);
        assert_eq!(choosers.members[0].slots, None);
        assert_eq!((choosers.in_flight_at(0, 1), choosers.table.known.len()), (0, 5));
        assert_eq!(
            choosers.connect(0, 1, Time(200), &Timing { handshake: Time(7), ..Timing::untimed() }),
            Time(7)
        );
    }

    #[test]
    fn a_part_grows_only_when_its_pool_outgrows_it_and_keeps_each_servers_slot() {
        let mut rng = SimRng::new(4);
        let mut choosers = choosers(3, 12, Some(4), &mut rng);
        send_each(&mut choosers);
        let knew = |c: &Choosers, chooser: usize| -> Vec<(u32, u32)> {
            (0..c.pool_len(chooser))
                .map(|p| (c.server_at(chooser, p), c.entry(chooser, p).in_flight))
                .collect()
        };
        let before: Vec<Vec<(u32, u32)>> = (0..3).map(|c| knew(&choosers, c)).collect();
        choosers.redraw_pools(Subsets::random(Some(6)), &mut rng);
        assert_eq!(choosers.table.known.len(), 18, "three parts of 6");
        let mut stayed = 0;
        for (chooser, before) in before.iter().enumerate() {
            let m = &choosers.members[chooser];
            assert_eq!((m.start, m.room), (6 * chooser, 6));
            for (position, &(server, in_flight)) in knew(&choosers, chooser).iter().enumerate() {
                // A server that stayed is in the slot it had (its old
                // position, the slots having been the positions), with what
                // was known of it; a newcomer is fresh, in a slot of its own
                // (one a server that left had, reset, or one of the new).
                match before.iter().position(|&(s, _)| s == server) {
                    Some(old) => {
                        stayed += 1;
                        assert_eq!((m.slot(position), in_flight), (old, before[old].1));
                    }
                    None => assert_eq!(in_flight, 0),
                }
            }
            let mut slots: Vec<usize> = (0..6).map(|position| m.slot(position)).collect();
            slots.sort_unstable();
            assert_eq!(slots, [0, 1, 2, 3, 4, 5]);
        }
        assert!(stayed > 0, "some server stayed in a pool");
        choosers.redraw_pools(Subsets::random(Some(3)), &mut rng);
        assert_eq!(choosers.table.known.len(), 18, "a smaller pool keeps its room");
        for chooser in 0..3 {
            let total: u32 = knew(&choosers, chooser).iter().map(|&(_, in_flight)| in_flight).sum();
            assert_eq!(choosers.in_flight_total(chooser), total, "free slots are fresh");
        }
    }
}
