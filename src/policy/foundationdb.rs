//! FoundationDB's balancers (`fdbrpc/LoadBalance.actor.h`) as policies a
//! scenario can name. They route each request with a state machine of its
//! own (`crate::fdb`, run by `engine::fdb`) and never ask a chooser's
//! policy, so their descriptors are all there is of them here.

use super::{Descriptor, Routing};

pub static BASIC: Descriptor = Descriptor {
    name: "fdb-basic",
    title: "FoundationDB basicLoadBalance",
    description:
        "a random alternative, the others in turn on a broken connection, backing off once all were tried",
    properties: &[],
    routing: Routing::Fdb,
};

pub static LOAD_BALANCE: Descriptor = Descriptor {
    name: "fdb-load-balance",
    title: "FoundationDB loadBalance",
    description: "the lower of two by queue model and reported penalty, a second request after a timeout, alternatives in turn",
    properties: &[],
    routing: Routing::Fdb,
};
