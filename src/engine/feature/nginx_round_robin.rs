//! NGINX's round robin with its passive health checks (`max_fails`,
//! `fail_timeout_s`): under `weighted-round-robin`, a chooser picks as
//! `ngx_http_upstream_get_peer` does and counts failures as
//! `ngx_http_upstream_free_round_robin_peer` does
//! (`src/http/ngx_http_upstream_round_robin.c`, nginx 1.31.4, 3f6f782).
//!
//! Each pick walks the chooser's pool in order. A peer with `fails` at
//! least `max_fails` is skipped while `now - checked <= fail_timeout`; each
//! other peer gains its effective weight in credit, which then regrows by
//! one towards its weight; the peer with the most credit is picked and pays
//! the total, and if `fail_timeout` has passed since it was last checked it
//! is checked now (so one request a window goes to a failed peer: its
//! probe). A failure counts one more fail, sets `accessed` and `checked`
//! to now and cuts the effective weight by weight / max_fails (whole
//! numbers, not below 0); a success resets `fails` if the peer was checked
//! since its last failure. Time is NGINX's, whole seconds (`ngx_time()`),
//! and weights are whole numbers, as NGINX's are. A pool of one server is
//! picked whatever it did and its fails forgotten (NGINX's `single`); a
//! pool whose every peer is skipped answers at once with an error (NGINX's
//! "no live upstreams", a 502), counted as an overflow.
//!
//! It takes the policy's place at `placing` (the policy's credits are
//! NGINX's too, without the fails), so a chooser's failed peers stay in its
//! pool: skipped, not ejected. Not modelled: the `tried` peers a retry
//! passes over, and `max_conns`.

use super::limits::OVERFLOW;
use super::{Action, Asks, Feature, Heard, Placing, Points, View};
use crate::engine::Outcome;
use crate::scenario::Scenario;
use crate::time::Time;

pub(in crate::engine) struct NginxRoundRobin {
    max_fails: u32,
    /// In whole seconds, as NGINX keeps it.
    fail_timeout: i64,
    /// Each chooser's peers, by server; empty until it first picks.
    peers: Vec<Vec<Peer>>,
}

/// A peer's state at one chooser: `ngx_http_upstream_rr_peer_t`'s fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Peer {
    current_weight: i64,
    /// `None` until the chooser first walks past it: its weight then.
    effective_weight: Option<i64>,
    fails: u32,
    accessed: i64,
    checked: i64,
}

/// NGINX's clock: whole seconds.
fn seconds(now: Time) -> i64 {
    (now.as_secs()).floor() as i64
}

/// A server's weight as NGINX's whole-number weights have it.
fn whole_weight(view: &View, server: u32) -> i64 {
    (view.choosers.weight(server).round() as i64).max(1)
}

impl NginxRoundRobin {
    /// Chooser `chooser`'s peers, room made for every server.
    fn peers_of(&mut self, chooser: usize, servers: usize) -> &mut Vec<Peer> {
        if self.peers.len() <= chooser {
            self.peers.resize_with(chooser + 1, Vec::new);
        }
        let peers = &mut self.peers[chooser];
        if peers.len() < servers {
            peers.resize(servers, Peer::default());
        }
        peers
    }

    /// `ngx_http_upstream_get_peer`: the server `chooser` picks at `now`,
    /// if any peer is live.
    fn pick(&mut self, chooser: usize, view: &View) -> Option<u32> {
        let now = seconds(view.now);
        let pool: Vec<(u32, i64)> = (0..view.choosers.pool_len(chooser))
            .map(|position| view.choosers.server_at(chooser, position))
            .map(|server| (server, whole_weight(view, server)))
            .collect();
        let servers = pool.iter().map(|&(s, _)| s as usize + 1).max().unwrap_or(0);
        let (max_fails, fail_timeout) = (self.max_fails, self.fail_timeout);
        let peers = self.peers_of(chooser, servers);
        // The best so far, with its credit (each peer is walked once).
        let (mut best, mut total): (Option<(u32, i64)>, i64) = (None, 0);
        for &(server, weight) in &pool {
            let peer = &mut peers[server as usize];
            // Failed max_fails times and checked within fail_timeout.
            if peer.fails >= max_fails && now - peer.checked <= fail_timeout {
                continue;
            }
            let effective = peer.effective_weight.unwrap_or(weight);
            peer.current_weight += effective;
            total += effective;
            peer.effective_weight = Some(if effective < weight { effective + 1 } else { effective });
            if best.is_none_or(|(_, credit)| peer.current_weight > credit) {
                best = Some((server, peer.current_weight));
            }
        }
        let (server, _) = best?;
        let chosen = &mut peers[server as usize];
        chosen.current_weight -= total;
        if now - chosen.checked > fail_timeout {
            chosen.checked = now;
        }
        Some(server)
    }

    /// `ngx_http_upstream_free_round_robin_peer`: `chooser` heard from
    /// `server`, `ok` or not.
    fn free(&mut self, (chooser, server): (usize, u32), ok: bool, view: &View) {
        let single = view.choosers.pool_len(chooser) == 1;
        let weight = whole_weight(view, server);
        let max_fails = i64::from(self.max_fails);
        let peer = &mut self.peers_of(chooser, server as usize + 1)[server as usize];
        if single {
            peer.fails = 0;
        } else if !ok {
            let now = seconds(view.now);
            peer.fails += 1;
            (peer.accessed, peer.checked) = (now, now);
            let effective = peer.effective_weight.unwrap_or(weight) - weight / max_fails;
            peer.effective_weight = Some(effective.max(0));
        } else if peer.accessed < peer.checked {
            peer.fails = 0;
        }
    }
}

impl Feature for NginxRoundRobin {
    /// It has no timers.
    const TRACE_KIND: u64 = 0;
    const HEARS: Points = Points::PLACING.and(Points::HEARD);

    fn for_scenario(scenario: &Scenario) -> Option<NginxRoundRobin> {
        (scenario.policy.counts_fails() && scenario.max_fails > 0).then(|| NginxRoundRobin {
            max_fails: scenario.max_fails,
            fail_timeout: scenario.fail_timeout_s.into(),
            peers: Vec::new(),
        })
    }

    fn placing(&mut self, Placing { place, chooser }: Placing, view: &View, out: &mut Asks) {
        if view.choosers.pool_len(chooser) == 1 {
            return;
        }
        match self.pick(chooser, view) {
            Some(server) => out.push(Action::SendTo { place, server }),
            None => out.push(Action::Fail { place, reason: OVERFLOW }),
        }
    }

    fn heard(&mut self, heard: Heard, view: &View, _out: &mut Asks) {
        self.free((heard.chooser, heard.server), heard.outcome == Outcome::Ok, view);
    }
}
