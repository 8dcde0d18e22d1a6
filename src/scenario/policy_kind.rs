//! A routing policy as a scenario names it: its place in the list of
//! policies' names below, which is the registry's order. The scenario is
//! the bottom layer, so it knows a policy by name only; `policy/` resolves
//! a [`PolicyKind`] to its descriptor (what it reads, how a chooser gets
//! it), and a check at compile time there stops the build if a
//! descriptor's name and its place here disagree.

use crate::format::same_text;
use serde::{Serialize, Serializer};
use std::fmt;

/// Every policy's name, in the registry's order (`policy::POLICIES`):
/// those that pick a server, the placement schemes, then FoundationDB's
/// balancers. The scenario's `policy` field takes one of them.
const NAMES: &[&str] = &[
    "random",
    "round-robin",
    "repick",
    "least-connections",
    "power-of-d",
    "shortest-queue",
    "p2c-piggyback",
    "least-request",
    "least-request-with-replacement",
    "haproxy-random",
    "least-work",
    "peak-ewma",
    "least-time",
    "join-idle-queue",
    "weighted-round-robin",
    "weighted-random",
    "weighted-least-request",
    "weighted-p2c",
    "modulo",
    "ranges",
    "table",
    "ring",
    "rendezvous",
    "maglev",
    "bounded-load",
    "fdb-basic",
    "fdb-load-balance",
];

/// A routing policy, as scenarios name it and code passes it around: its
/// place in the registry. Code that needs one policy in particular names
/// it by a constant (`PolicyKind::RANDOM`, or one `policy/` declares).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PolicyKind(u8);

impl PolicyKind {
    pub const RANDOM: PolicyKind = PolicyKind::named("random");

    /// Every policy's name, in the registry's order.
    pub const NAMES: &'static [&'static str] = NAMES;

    /// Every policy, in the registry's order.
    pub const ALL: &'static [PolicyKind] = &{
        let mut all = [PolicyKind(0); NAMES.len()];
        let mut i = 0;
        while i < NAMES.len() {
            all[i] = PolicyKind(i as u8);
            i += 1;
        }
        all
    };

    /// The policy named `name`; the build stops if there is none.
    pub const fn named(name: &str) -> PolicyKind {
        let mut i = 0;
        while i < NAMES.len() {
            if PolicyKind(i as u8).is_named(name) {
                return PolicyKind(i as u8);
            }
            i += 1;
        }
        panic!("no policy has that name")
    }

    pub fn from_name(text: &str) -> Option<PolicyKind> {
        PolicyKind::ALL.iter().copied().find(|policy| policy.name() == text)
    }

    pub fn name(self) -> &'static str {
        NAMES[self.index()]
    }

    /// Its place in the registry's order.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Whether `name` is its name, asked at compile time too.
    pub const fn is_named(self, name: &str) -> bool {
        same_text(NAMES[self.index()], name)
    }
}

impl fmt::Debug for PolicyKind {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for PolicyKind {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}
