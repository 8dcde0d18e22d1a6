//! Least request with its candidates drawn independently, as Envoy's
//! `LEAST_REQUEST` (`choice_count`, default 2), gRPC's `least_request` and
//! HAProxy's `random(<draws>)` draw them: each draw is a uniform pick over
//! the pool, so one server can be drawn twice and then wins unopposed.
//! Envoy's proto says what that costs with two hosts: the busier one is
//! chosen a quarter of the time (envoy `least_request.proto`, its FULL_SCAN
//! comment; `least_request_lb.cc`, `unweightedHostPickNChoices`). lbsim's
//! `least-request` draws distinct candidates, as Linkerd, NGINX's `random
//! two` and Finagle do (envoyproxy/envoy#11006 asked Envoy to do the same).
//!
//! A tie between candidates is broken uniformly, which is what Envoy's
//! "keep the first unless a later one has strictly fewer" amounts to when
//! the draws are independent.

use super::{BestOfD, Descriptor, Property, Routing, Signal};

pub static LEAST_REQUEST_WITH_REPLACEMENT: Descriptor = Descriptor {
    name: "least-request-with-replacement",
    title: "least requests of d, drawn with replacement",
    description: "best of d servers drawn independently (one may come up twice) by this chooser's requests in flight (d: choices)",
    properties: &[Property::UsesChoices, Property::ComparesASample],
    routing: Routing::Picks(|choices, _, _| {
        Box::new(BestOfD::with_replacement(choices as usize, Signal::InFlight))
    }),
};

#[cfg(test)]
mod tests {
    use super::super::{build, testing::view, Known, PolicyKind};
    use super::*;
    use crate::rng::SimRng;

    /// How often a policy named `name` with d = 2 picks the busier of two
    /// servers (one request in flight against none), in `picks` picks.
    fn busier_picks(name: &str, picks: u32) -> u32 {
        let mut known = [Known::default(); 2];
        known[1].in_flight = 1;
        let loads = [0; 2];
        let mut rng = SimRng::new(20261214);
        let mut policy = build(PolicyKind::from_name(name).unwrap(), 2, &[1.0; 2], &mut rng);
        (0..picks).filter(|_| policy.pick(&view(&known, &loads), &mut rng).position == 1).count() as u32
    }

    #[test]
    fn with_two_servers_the_busier_is_picked_a_quarter_of_the_time() {
        // Only when both draws land on it: probability 1/4. Binomial(40000,
        // 1/4) has a standard error of 86.6 picks; allow 4 of them.
        let picks = 40_000;
        let busier = busier_picks("least-request-with-replacement", picks);
        let expected = f64::from(picks) / 4.0;
        let standard_error = (f64::from(picks) * 0.25 * 0.75).sqrt();
        assert!((f64::from(busier) - expected).abs() < 4.0 * standard_error, "{busier} of {picks}");
        assert_eq!(busier_picks("least-request", picks), 0, "distinct draws compare both servers");
    }

    #[test]
    fn a_pool_of_one_is_its_only_server() {
        let known = [Known::default(); 1];
        let mut rng = SimRng::new(3);
        let mut policy = BestOfD::with_replacement(2, Signal::InFlight);
        for _ in 0..10 {
            assert_eq!(super::super::Policy::pick(&mut policy, &view(&known, &[0]), &mut rng).position, 0);
        }
    }
}
