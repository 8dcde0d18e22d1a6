//! Modulo-N (seed 004's first routing algorithm): key `k` goes to member
//! `k mod N`. Fast, even and needing no shared state, but when N changes
//! almost every key changes server: adding one to N moves about N/(N+1) of
//! them.

use super::{KeyPlacement, Loads, Scheme};
use crate::policy::{Descriptor, Routing};
use std::rc::Rc;

pub static MODULO: Descriptor = Descriptor {
    name: "modulo",
    title: "key modulo servers",
    description: "the server at the key's number modulo the pool size",
    properties: &[],
    routing: Routing::Keys(Scheme { settings: &[], build: |members, _| Rc::new(Modulo::new(members)) }),
};

pub struct Modulo {
    members: Vec<u32>,
}

impl Modulo {
    pub fn new(members: &[u32]) -> Modulo {
        Modulo { members: members.to_vec() }
    }
}

impl KeyPlacement for Modulo {
    fn place(&self, key: u64, _loads: &dyn Loads) -> u32 {
        self.members[(key % self.members.len() as u64) as usize]
    }

    fn members(&self) -> &[u32] {
        &self.members
    }

    fn rebuilt(&self, members: &[u32]) -> Rc<dyn KeyPlacement> {
        Rc::new(Modulo::new(members))
    }
}

#[cfg(test)]
mod tests {
    use super::super::Unloaded;
    use super::*;

    #[test]
    fn keys_go_round_the_members() {
        let modulo = Modulo::new(&[4, 6, 9]);
        let placed: Vec<u32> = (0..6).map(|k| modulo.place(k, &Unloaded)).collect();
        assert_eq!(placed, [4, 6, 9, 4, 6, 9]);
    }
}
