//! Balancing per connection (`balance_per = "connection"`): a chooser
//! picks a server once for each client connection, and every request the
//! connection carries goes there. kube-proxy does so (iptables: a random
//! endpoint when a connection's first packet is NATed; IPVS: its scheduler,
//! round robin by default), as do L4 balancers and TCP proxies; HTTP/2 and
//! gRPC carry a client's concurrent requests on one long-lived connection,
//! so the pick pins the client. A client holds `connections_per_client`
//! connections, a session riding the one its number gives; with
//! `max_connection_age_ms` (gRPC's MAX_CONNECTION_AGE) a connection that
//! old is closed, and the next request on it opens a new one, picked anew.
//!
//! It lives beside `engine/connections.rs`, which says whether a client's
//! connection to a server is warm (a handshake owed); this says which
//! server a connection leads to. Its picks are the policy's: the first
//! send on a connection with no server pins it, and `placing` sends the
//! requests after it to the pinned server while the server is in the
//! chooser's pool (else the policy picks, and the connection is pinned
//! anew). A retry placed elsewhere leaves the pin as it was.

use super::{Action, Asks, Feature, Placing, Points, Sent, View};
use crate::engine::sorted::Sorted;
use crate::scenario::{BalancePer, Scenario};
use crate::time::Time;

pub(in crate::engine) struct PerConnection {
    connections_per_client: u32,
    max_age: Option<Time>,
    /// Each open connection's server and when it opened, by its chooser
    /// and the client's connection number.
    pins: Sorted<(usize, u32), Pin>,
}

#[derive(Clone, Copy)]
struct Pin {
    server: u32,
    opened: Time,
}

impl PerConnection {
    /// The connection place `place`'s request rides from `chooser`: its
    /// client's, the one its session's number gives.
    fn connection(&self, place: u32, chooser: usize, view: &View) -> Option<(usize, u32)> {
        let session = view.requests.get(place)?;
        let per_client = self.connections_per_client;
        Some((chooser, session.client * per_client + session.number % per_client))
    }

    /// Whether a connection opened at `opened` is still open at `now`.
    fn open(&self, opened: Time, now: Time) -> bool {
        self.max_age.is_none_or(|age| now < opened + age)
    }
}

impl Feature for PerConnection {
    /// It has no timers.
    const TRACE_KIND: u64 = 0;
    const HEARS: Points = Points::PLACING.and(Points::SENT);

    fn for_scenario(scenario: &Scenario) -> Option<PerConnection> {
        (scenario.balance_per == BalancePer::Connection).then(|| PerConnection {
            connections_per_client: scenario.connections_per_client.max(1),
            max_age: scenario.max_connection_age_ms.map(Time::from_ms),
            pins: Sorted::default(),
        })
    }

    /// Sends a request on an open connection to its server; a connection
    /// past its age is closed, and the policy picks for the request.
    fn placing(&mut self, Placing { place, chooser }: Placing, view: &View, out: &mut Asks) {
        let Some(connection) = self.connection(place, chooser, view) else { return };
        let Some(&Pin { server, opened }) = self.pins.get(connection) else { return };
        if !self.open(opened, view.now) {
            self.pins.remove(connection);
        } else if view.choosers.position_of(chooser, server).is_some() {
            out.push(Action::SendTo { place, server });
        }
    }

    /// The first send on a connection with no server (or whose server
    /// left the pool) pins it there.
    fn sent(&mut self, sent: Sent, view: &View, _out: &mut Asks) {
        let Some(place) = sent.place else { return };
        let Some(request) = view.requests.get(place) else { return };
        let chooser = view.choosers.member(request.chooser(), request.request.class);
        let Some(connection) = self.connection(place, chooser, view) else { return };
        let server = request.request.server;
        let pinned = self
            .pins
            .get(connection)
            .is_some_and(|pin| view.choosers.position_of(chooser, pin.server).is_some());
        if !pinned {
            self.pins.insert(connection, Pin { server, opened: view.now });
        }
    }
}
