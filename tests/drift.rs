//! Heterogeneous servers and drift, against two claims of seed 001, each on
//! the essay's continuous scenario (10 servers × 10 slots, 20 clients, 100 ms
//! queue timeout) with every other server twice as fast (`server_speeds =
//! 2,1`), compared on common random numbers with 95% intervals from paired
//! batches.

mod common;
use common::scenario_file;
use lbsim::engine::Comparison;
use lbsim::{Simulation, Time};

fn run(pairs: &[(&str, &str)]) -> Simulation {
    let mut sim = Simulation::new(&scenario_file("continuous-random.toml", pairs)).unwrap();
    sim.advance_to(Time::from_secs(sim.scenario().duration_s), u64::MAX);
    assert!(sim.books().balanced());
    sim
}

/// "Constant-weight round-robin with weights is worse under heterogeneity:
/// the weights are set from nominal capacity, which drifts." The model
/// agrees. Weighted round-robin with the true weights (2,1) and a load-aware
/// policy (least-request over the choosers' own requests in flight, from two
/// balancers) do about as well while the weights hold; once server 0 slows
/// from 2 to 0.5 at 10 s, the weights still send it 2/15 of the requests,
/// more than three times what it can serve: about one request in ten is
/// sent back by its queue's timeout (none under least-request, which routes
/// around it), and p99 latency, capped by the timeout, doubles.
///
/// The runs resolve the ratio of p99 latencies to [`RESOLUTION`] (its 95%
/// interval's half-width); "about as well" is read as within
/// [`ABOUT_AS_WELL`] of each other, and "doubles" as the ratio after the
/// drift at most half what it was before.
/// The widest half-width of a ratio's 95% interval the test accepts: wide
/// enough for the runs' spread (0.003 to 0.007), narrow enough to tell the
/// policies apart by a few percent.
const RESOLUTION: f64 = 0.02;

/// How far from 1 the ratio may lie, whole interval, while the weights are right.
const ABOUT_AS_WELL: f64 = 0.05;

#[test]
fn nominal_weights_go_wrong_when_a_server_drifts() {
    for seed in ["1", "2"] {
        let compare = |drift: &str| {
            let pairs = |policy: &'static str| {
                [
                    ("policy", policy),
                    ("server_speeds", "2,1"),
                    ("server_weights", "2,1"),
                    ("speed_changes", drift),
                    ("balancers", "2"),
                    ("load", "0.8"),
                    ("warmup_s", "20"),
                    ("duration_s", "140"),
                    ("seed", seed),
                ]
            };
            let (weighted, aware) = (run(&pairs("weighted-round-robin")), run(&pairs("least-request")));
            let bounces = (weighted.summary().counts.bounces, aware.summary().counts.bounces);
            (Comparison::of(&weighted, &aware).latency_p99, bounces)
        };
        let (before, _) = compare("none");
        let (after, (weighted_bounces, aware_bounces)) = compare("0@10s:0.5");
        println!(
            "seed {seed}: p99 latency least-request / weighted-round-robin: weights right {:.3} ({:?}); server 0 drifted to 0.5 {:.3} ({:?}); bounces {weighted_bounces} against {aware_bounces}",
            before.estimate,
            before.bounds(),
            after.estimate,
            after.bounds()
        );
        for ratio in [before, after] {
            assert!(ratio.half_width.unwrap() <= RESOLUTION, "too short a run to tell: {ratio:?}");
        }
        let (low, high) = before.bounds().unwrap();
        assert!(
            low > 1.0 - ABOUT_AS_WELL && high < 1.0 + ABOUT_AS_WELL,
            "with the right weights they are close: {before:?}"
        );
        assert!(after.bounds().unwrap().1 < low / 2.0, "after the drift: {after:?} against {before:?}");
        assert!(weighted_bounces > 20 * aware_bounces.max(1));
    }
}

/// "Why random beats round-robin at saturation": with servers of unequal
/// speed, **the model disagrees**. Random sends each server the same share
/// of requests as round-robin does, on average, so it loads the slow
/// servers exactly as much, and adds its own variance on top: at load 0.6
/// (the slow servers at 0.9) and at 1.0 (the slow ones overloaded, the
/// fast ones not) random's mean queue time and p99 latency are both higher
/// than round-robin's (by 3.7–4× and 1.2× at 0.6, 1.2× and 1.1–1.2× at 1).
#[test]
fn random_does_not_beat_round_robin_on_unequal_servers() {
    for (load, seed) in [("0.6", "1"), ("0.6", "2"), ("1", "1"), ("1", "2")] {
        let pairs = |policy: &'static str| {
            [
                ("policy", policy),
                ("server_speeds", "2,1"),
                ("load", load),
                ("warmup_s", "10"),
                ("duration_s", "130"),
                ("seed", seed),
            ]
        };
        let (round_robin, random) = (run(&pairs("round-robin")), run(&pairs("random")));
        let c = Comparison::of(&round_robin, &random);
        println!(
            "load {load}, seed {seed}: random / round-robin: mean queue time {:.3} ({:?}), p99 latency {:.3} ({:?})",
            c.queue_mean.estimate,
            c.queue_mean.bounds(),
            c.latency_p99.estimate,
            c.latency_p99.bounds()
        );
        assert!(c.queue_mean.bounds().unwrap().0 > 1.05, "{c:?}");
        assert!(c.latency_p99.bounds().unwrap().0 > 1.02, "{c:?}");
    }
}

/// A server's speed set by hand takes effect at once, changes nothing
/// before, and is refused out of range.
#[test]
fn a_server_speed_changes_live() {
    let pairs = [("server_speeds", "1"), ("duration_s", "20")];
    let scheduled = {
        let pairs = [("server_speeds", "1"), ("duration_s", "20"), ("speed_changes", "3@10s:0.25")];
        run(&pairs)
    };
    let mut live = Simulation::new(&scenario_file("continuous-random.toml", &pairs)).unwrap();
    live.advance_to(Time::from_secs(10.0), u64::MAX);
    live.set_server_speed(3, 0.25).unwrap();
    assert_eq!(live.snapshot(0).servers[3].speed, 0.25);
    live.advance_to(Time::from_secs(20.0), u64::MAX);
    // The same run as the scheduled change, but for the change's own event.
    let (a, b) = (live.summary(), scheduled.summary());
    assert_eq!((a.counts, a.completed_per_server), (b.counts, b.completed_per_server));
    for (server, speed) in [(10, 1.0), (3, 0.0), (3, 101.0), (3, f64::NAN)] {
        let error = live.set_server_speed(server, speed).unwrap_err().to_string();
        assert!(error.starts_with("field `speed_changes`"), "{error}");
    }
}
