//! NGINX's round robin with its passive health checks (`max_fails`,
//! `fail_timeout_s`) against NGINX's own code: a reference of
//! `ngx_http_upstream_get_peer` and `ngx_http_upstream_free_round_robin_peer`
//! written here from `src/http/ngx_http_upstream_round_robin.c` (nginx
//! 1.31.4, 3f6f782) picks as lbsim does, pick for pick, through a run of
//! failures.

mod common;

use common::behind_one_balancer;
use lbsim::engine::{Happening, Reply};
use lbsim::{Scenario, Simulation, Time};

/// One peer of the reference: `ngx_http_upstream_rr_peer_t`'s fields.
#[derive(Clone, Copy, Debug)]
struct Peer {
    weight: i64,
    effective_weight: i64,
    current_weight: i64,
    fails: i64,
    accessed: i64,
    checked: i64,
}

/// NGINX's peers with their `max_fails` and `fail_timeout`, as
/// `ngx_http_upstream_init_round_robin` sets them (weights whole,
/// effective weight the weight, the rest zero).
struct Reference {
    peers: Vec<Peer>,
    max_fails: i64,
    fail_timeout: i64,
}

impl Reference {
    fn new(weights: &[i64], max_fails: i64, fail_timeout: i64) -> Reference {
        let peer = |&weight| Peer {
            weight,
            effective_weight: weight,
            current_weight: 0,
            fails: 0,
            accessed: 0,
            checked: 0,
        };
        Reference { peers: weights.iter().map(peer).collect(), max_fails, fail_timeout }
    }

    /// `ngx_http_upstream_get_peer`, lines 811–930, without `tried`,
    /// `down`, `max_conns` and sticky sessions (none are set here).
    fn get_peer(&mut self, now: i64) -> Option<usize> {
        let (mut best, mut total): (Option<usize>, i64) = (None, 0);
        for i in 0..self.peers.len() {
            let peer = &mut self.peers[i];
            if self.max_fails != 0 && peer.fails >= self.max_fails && now - peer.checked <= self.fail_timeout
            {
                continue;
            }
            peer.current_weight += peer.effective_weight;
            total += peer.effective_weight;
            if peer.effective_weight < peer.weight {
                peer.effective_weight += 1;
            }
            if best.is_none_or(|b| self.peers[i].current_weight > self.peers[b].current_weight) {
                best = Some(i);
            }
        }
        let best = best?;
        let peer = &mut self.peers[best];
        peer.current_weight -= total;
        if now - peer.checked > self.fail_timeout {
            peer.checked = now;
        }
        Some(best)
    }

    /// `ngx_http_upstream_free_round_robin_peer_locked`, lines 1023–1100,
    /// for a group of several peers.
    fn free_peer(&mut self, i: usize, failed: bool, now: i64) {
        let peer = &mut self.peers[i];
        if failed {
            peer.fails += 1;
            peer.accessed = now;
            peer.checked = now;
            if self.max_fails != 0 {
                peer.effective_weight -= peer.weight / self.max_fails;
            }
            if peer.effective_weight < 0 {
                peer.effective_weight = 0;
            }
        } else if peer.accessed < peer.checked {
            peer.fails = 0;
        }
    }
}

/// Four servers of weights 5, 1, 3 and 1 behind one NGINX (a balancer)
/// with max_fails 2 and fail_timeout 5 s; server 0 fails half its
/// requests from 3 s to 43 s, server 2 three in ten from 8 s to 48 s.
fn failing() -> Scenario {
    behind_one_balancer(&[&[
        ("servers", "4"),
        ("slots", "2"),
        ("service_mean_ms", "50"),
        ("load", "0.4"),
        ("retry_budget", "0"),
        ("policy", "weighted-round-robin"),
        ("server_weights", "5, 1, 3, 1"),
        ("max_fails", "2"),
        ("fail_timeout_s", "5"),
        ("failures", "3s:fast-fail:0:p=0.5:after=1ms:for=40s, 8s:fast-fail:2:p=0.3:after=1ms:for=40s"),
        ("duration_s", "60"),
        ("seed", "7"),
    ]])
}

#[test]
fn each_pick_is_the_one_nginxs_get_peer_makes_through_a_run_of_failures() {
    let scenario = failing();
    let mut sim = Simulation::new(&scenario).unwrap();
    let mut reference = Reference::new(&[5, 1, 3, 1], 2, 5);
    let (mut picks, mut failures) = (0, 0);
    let end = Time::from_ms(scenario.duration_s * 1000.0);
    while let Some(step) = sim.step_journaled().filter(|step| step.time <= end) {
        // NGINX's clock, ngx_time(): whole seconds.
        let now = (step.time.as_secs()).floor() as i64;
        for happening in &step.happened {
            match *happening {
                Happening::Sent { server, .. } => {
                    assert_eq!(
                        reference.get_peer(now),
                        Some(server as usize),
                        "pick {picks} at {:?}",
                        step.time
                    );
                    picks += 1;
                }
                Happening::Heard { server, reply, .. } => {
                    failures += u64::from(reply == Reply::Error);
                    reference.free_peer(server as usize, reply == Reply::Error, now);
                }
                _ => {}
            }
        }
    }
    assert!(picks > 3_000 && failures > 20, "{picks} picks, {failures} failures");
}

#[test]
fn with_every_peer_failed_nginx_answers_at_once_and_a_single_peer_is_always_tried() {
    // Both servers broken: each fails, is skipped for 10 s (longer than the
    // run), and the requests after are answered at the proxy ("no live
    // upstreams").
    let broken = |servers: &str, failures: &str| {
        behind_one_balancer(&[&[
            ("servers", servers),
            ("failures", failures),
            ("retry_budget", "0"),
            ("policy", "weighted-round-robin"),
            ("max_fails", "1"),
            ("fail_timeout_s", "10"),
            ("duration_s", "5"),
        ]])
    };
    let mut sim =
        Simulation::new(&broken("2", "0s:fast-fail:0:p=1:after=1ms, 0s:fast-fail:1:p=1:after=1ms")).unwrap();
    sim.run();
    let books = sim.books();
    assert!(books.balanced(), "{books:?}");
    // The servers' own errors: those sent before each's first was heard.
    let at_servers = books.failed - books.failed_at_proxy;
    assert!((2..=10).contains(&at_servers) && books.failed_at_proxy > 1_000, "{books:?}");
    // One server alone is tried whatever it did (NGINX's single peer).
    let mut sim = Simulation::new(&broken("1", "0s:fast-fail:0:p=1:after=1ms")).unwrap();
    sim.run();
    assert_eq!(sim.books().failed_at_proxy, 0);
}
