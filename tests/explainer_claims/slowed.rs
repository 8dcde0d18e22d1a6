//! What the explainer's prose says of a slowed server, held to the model:
//! chapter 3's random keeps choosing it, and fewer requests reach it than
//! a neighbour; chapter 5's power of two sends it less than random does.
//! The reader slows it once the run is under way, and the shares the prose
//! quotes are those of a steady window after, as the picture's column of
//! shares sent counts them (every send, a bounced request's again).

use super::*;
use common::Estimate;
use lbsim::engine::{Happening, Whose};
use lbsim::metrics::SamplePoint;

/// When these tests slow server 3 (simulated seconds): a reader clicks
/// once the run is under way.
const SLOWED_AT_S: f64 = 5.0;
/// The steady window the prose's shares are measured over: from five
/// seconds after the slowing to the end of the run the claims check.
const STEADY: (f64, f64) = (10.0, 30.0);
/// The picture's column counts the last three seconds' sends.
const COLUMN_S: f64 = 3.0;

/// `scenario` with server 3 slowed to a quarter of its speed at `at_s`.
fn slowed(scenario: &Scenario, at_s: f64) -> Scenario {
    let mut slowed = scenario.clone();
    slowed.set("failures", &format!("{at_s}s:slow:3:x=0.25")).unwrap();
    slowed
}

/// Calls `each` with every send of `scenario`'s run at `seed` up to
/// `end_s`: when (simulated seconds), whose request, to which server.
fn for_each_send(scenario: &Scenario, seed: u64, end_s: f64, mut each: impl FnMut(f64, Whose, u32)) {
    let mut scenario = scenario.clone();
    scenario.seed = seed;
    let mut sim = Simulation::new(&scenario).unwrap();
    while let Some(step) = sim.step_journaled().filter(|step| step.time.as_secs() <= end_s) {
        for happening in step.happened {
            if let Happening::Sent { request, server } = happening {
                each(step.time.as_secs(), request, server);
            }
        }
    }
}

/// Where each send to a server came from: random's choices (a session's
/// first request, a bounced request placed again) and the requests a
/// session sends on to the server that answered its last.
#[derive(Default)]
struct Sends {
    chosen: Vec<u64>,
    followed_on: Vec<u64>,
}

/// Counts `scenario`'s sends per server over its first `SIMULATED_S`.
fn sends(scenario: &Scenario, seed: u64) -> Sends {
    let servers = scenario.servers as usize;
    let mut counted = Sends { chosen: vec![0; servers], followed_on: vec![0; servers] };
    let mut sent_before = std::collections::HashSet::new();
    for_each_send(scenario, seed, SIMULATED_S, |_, request, server| {
        let first_send = sent_before.insert((request.session, request.request));
        match first_send && request.request > 1 {
            true => counted.followed_on[server as usize] += 1,
            false => counted.chosen[server as usize] += 1,
        }
    });
    counted
}

/// Server 3's share of the requests sent in each of `windows` (simulated
/// seconds, from and to), and a neighbour's (the others' mean).
fn shares_sent(scenario: &Scenario, seed: u64, windows: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let servers = scenario.servers as usize;
    let mut counts = vec![vec![0_u64; servers]; windows.len()];
    let end_s = windows.iter().map(|w| w.1).fold(0.0, f64::max);
    for_each_send(scenario, seed, end_s, |at, _, server| {
        for (window, counts) in windows.iter().zip(&mut counts) {
            if (window.0..window.1).contains(&at) {
                counts[server as usize] += 1;
            }
        }
    });
    let share = |counts: &Vec<u64>| {
        let total = counts.iter().sum::<u64>() as f64;
        let slowed = counts[3] as f64 / total;
        (slowed, (1.0 - slowed) / (servers - 1) as f64)
    };
    counts.iter().map(share).collect()
}

/// Server 3's share of the requests sent over the steady window, and a
/// neighbour's, each over the seeds.
fn steady_shares(scenario: &Scenario) -> (Estimate, Estimate) {
    let shares: Vec<(f64, f64)> =
        SEEDS.iter().map(|&seed| shares_sent(scenario, seed, &[STEADY])[0]).collect();
    let of = |pick: fn(&(f64, f64)) -> f64| Estimate::of(&shares.iter().map(pick).collect::<Vec<_>>());
    (of(|s| s.0), of(|s| s.1))
}

/// The consecutive windows of the picture's column over the steady window.
fn columns() -> Vec<(f64, f64)> {
    let count = ((STEADY.1 - STEADY.0) / COLUMN_S) as usize;
    (0..count).map(|i| (STEADY.0 + i as f64 * COLUMN_S, STEADY.0 + (i + 1) as f64 * COLUMN_S)).collect()
}

/// Asserts the prose quotes `quoted` and that the figure in it, `percent`,
/// is `measured` (a share) within three standard errors, or the half
/// tenth the quote rounds to.
fn quotes(said: &str, quoted: &str, percent: f64, measured: &Estimate) {
    let (mean, se) = (100.0 * measured.mean, 100.0 * measured.se);
    println!("{quoted}: {mean:.2}% ± {se:.2}");
    assert!(said.contains(quoted), "the prose no longer says “{quoted}”: {said}");
    assert!((mean - percent).abs() <= (3.0 * se).max(0.05), "{quoted}: measured {mean:.2}% ± {se:.2}");
}

/// Chapter 3 asks the reader to slow a server to a quarter of its speed,
/// and says its queue stays among the shortest while what it cannot do
/// bounces (a reader looked for it to fill, and found it the shortest): no
/// request waits in a queue past the timeout, and in that time the slowed
/// server takes a quarter as many into its slots. This holds the prose to
/// the model on every seed.
#[test]
fn chapter_3s_slowed_server_has_the_shortest_queue_as_its_prose_says() {
    let said = prose("continuous");
    assert!(
        said.contains("so its queue stays among the shortest while much of what it is sent bounces"),
        "{said}"
    );
    let section = section("continuous");
    let mut slowed = section.scenario.clone();
    slowed.set("failures", "0s:slow:3:x=0.25").unwrap();
    for seed in SEEDS {
        let summary = run(&slowed, seed);
        let queued = &summary.mean_queued_per_server;
        let others = queued.iter().enumerate().filter(|&(i, _)| i != 3).map(|(_, &q)| q);
        let shortest_other = others.fold(f64::INFINITY, f64::min);
        assert!(
            queued[3] < shortest_other,
            "seed {seed}: server 3 queues {:.1}, the others at least {shortest_other:.1}",
            queued[3]
        );
        let done = &summary.completed_per_server;
        let share = of_a_neighbours(done, 3);
        assert!(
            (0.2..0.3).contains(&share),
            "seed {seed}: server 3 completed {share:.2} of a neighbour's count"
        );
    }
}

/// Chapter 3 says random keeps choosing the slowed server for a tenth of
/// the new sessions and bounced requests (a reader measured 412/s against
/// 590/s and expected a tenth each), though only about two fifths as many
/// requests reach it as a neighbour: a session sends its next request to
/// the server that answered its last, and the slowed one answers a quarter
/// as many. The prose said "about half"; a later reader saw 3.9% against
/// 10.7% in the picture's column. Its share of random's choices is a tenth
/// within four standard errors of a binomial share; the shares sent over
/// the steady window are the prose's, and the column's three seconds read
/// from about a third to about a half of a neighbour's (0.34 to 0.53 on
/// these seeds).
#[test]
fn chapter_3s_slowed_server_is_chosen_a_tenth_of_the_time_and_reached_two_fifths_as_often() {
    let said = prose("continuous");
    assert!(
        said.contains(
            "keeps choosing it for a tenth of the new sessions and of the bounced requests, though only \
             about two fifths as many requests reach it as reach a neighbour"
        ),
        "{said}"
    );
    assert!(
        said.contains(
            "since a session sends its next request to its server once the last is answered, and the \
             slowed server answers a quarter as many"
        ),
        "{said}"
    );
    let section = section("continuous");
    for seed in SEEDS {
        let Sends { chosen, .. } = sends(&slowed(&section.scenario, 0.0), seed);
        let choices = chosen.iter().sum::<u64>() as f64;
        let (share, fair) = (chosen[3] as f64 / choices, 0.1);
        let standard_error = (fair * (1.0 - fair) / choices).sqrt();
        assert!(
            (share - fair).abs() < 4.0 * standard_error,
            "seed {seed}: server 3 drew {share:.4} of {choices} choices (± {standard_error:.4})"
        );
    }
    let scenario = slowed(&section.scenario, SLOWED_AT_S);
    let (slowed_share, neighbour) = steady_shares(&scenario);
    quotes(
        &said,
        "over twenty seconds, typically, the mean of five seeds: 4.4% of the requests sent",
        4.4,
        &slowed_share,
    );
    quotes(&said, "sent against 10.6%;", 10.6, &neighbour);
    let ratio = slowed_share.mean / neighbour.mean;
    assert!((0.35..0.45).contains(&ratio), "two fifths: {ratio:.2}");
    // Random's choosing is said before the question; that fewer requests
    // reach the slowed server, which gave the answer away (reader 12),
    // only in the reveal after the picture.
    let (before, after) = said.split_once("<figure").expect("the chapter has a figure");
    assert!(before.contains(
        "Random cannot see that it is slow: it goes on choosing it for a tenth of the new sessions."
    ));
    assert!(
        !before.contains("two fifths") && after.contains("only about two fifths as many requests reach it")
    );
    // Where the reader first meets the column, the opening says it counts
    // requests, not the sessions random chooses a tenth of (reader 13 set
    // that tenth against the column's 4%), over the window it is headed
    // with.
    let heading = &lbsim::ui::marks::sent_titles()[0];
    assert_eq!(heading, &format!("% of requests, last {COLUMN_S:.0} s"));
    assert!(before.contains(
        "the column that appears right of the rows once a server is slowed counts requests, not sessions: \
         each server's share of the requests sent over the last three seconds."
    ));
    assert!(said.contains(
        "in the column of the last three seconds that appears right of the rows once a server is slowed, \
         from about a third to about a half"
    ));
    for seed in SEEDS {
        let ratios: Vec<f64> = shares_sent(&scenario, seed, &columns()).iter().map(|(s, n)| s / n).collect();
        assert!(ratios.iter().all(|r| (0.3..0.6).contains(r)), "seed {seed}: column ratios {ratios:.2?}");
    }
}

/// Chapter 5 says power of two sends a slowed server less than random
/// does (a reader saw 3.1% against 3.5% in the column three seconds after
/// slowing it): over the steady window the shares are the prose's, less
/// but not much less, and every three-second column from the slowing on
/// shows it, by the few tenths of a point to a point and a half it says
/// (0.4 to 1.4 on these seeds).
#[test]
fn chapter_5s_power_of_two_sends_a_slowed_server_less_than_random_as_its_prose_says() {
    let said = prose("power-of-two");
    let section = section("power-of-two");
    let own = slowed(&section.scenario, SLOWED_AT_S);
    let twin = slowed(section.versus.as_ref().unwrap(), SLOWED_AT_S);
    let (power_of_two, random) = (steady_shares(&own).0, steady_shares(&twin).0);
    quotes(&said, "over twenty seconds, 2.9% of the requests", 2.9, &power_of_two);
    quotes(&said, "requests against 3.8%;", 3.8, &random);
    // Not "a quarter less": the paragraph's other quarter is of a
    // neighbour's share, and reader 15 read the two as one figure.
    assert!(
        said.contains("sends it less than random does, though not much less")
            && !said.contains("quarter less")
    );
    assert!(said.contains(
        "in the column of the last three seconds, by a few tenths of a point to a point and a half"
    ));
    // Every column from the slowing on, each second.
    let columns: Vec<(f64, f64)> =
        (SLOWED_AT_S as usize..STEADY.1 as usize - 3).map(|s| (s as f64, s as f64 + COLUMN_S)).collect();
    for seed in SEEDS {
        let (own, twin) = (shares_sent(&own, seed, &columns), shares_sent(&twin, seed, &columns));
        let gaps: Vec<f64> = own.iter().zip(&twin).map(|(own, twin)| 100.0 * (twin.0 - own.0)).collect();
        assert!(gaps.iter().all(|gap| (0.3..1.6).contains(gap)), "seed {seed}: gaps in points {gaps:.1?}");
    }
}

/// Server `server`'s count as a share of the mean of the others'.
fn of_a_neighbours(counts: &[u64], server: usize) -> f64 {
    let others = (counts.iter().sum::<u64>() - counts[server]) as f64 / (counts.len() - 1) as f64;
    counts[server] as f64 / others
}

/// Where a queue time stands among the bands a bounce makes (ms): a
/// request that waited out `k` queues, each to the timeout, and travelled
/// back to its client and out again after each, has waited at most
/// `timeout + k (timeout + the round trip)`, the top of band `k`. Returns
/// how far below the nearest top `ms` lies, as a share of it (negative:
/// above).
fn below_a_bands_top(ms: f64, timeout_ms: f64, round_trip_ms: f64) -> f64 {
    let k = ((ms - timeout_ms) / (timeout_ms + round_trip_ms)).round().max(0.0);
    let top = timeout_ms + k * (timeout_ms + round_trip_ms);
    (top - ms) / top
}

/// Chapter 3's chart climbs in steps once a server is slowed (a reader
/// asked why p90 and p99 stepped up at 18 and 21 s), and its prose says
/// why: the ten can then do less than the load offered, the excess comes
/// back as bounces, more each second, and a request's queue time is about
/// a timeout for each queue it waited out plus a round trip after each, so
/// the percentiles stand near the tops of those bands and step from one to
/// the next. Slowed at the end of the warm-up, as soon as a reader can,
/// and checked on every seed: the bounces per second over the last five
/// of thirty seconds after at least three times those five to ten seconds
/// after the slowing (79 to 2,856 on seed 3 when this was written), and
/// over the last ten seconds at least two thirds of p90's and p99's
/// samples within 10% under a band's top, or 3% over it (the histogram's
/// buckets; 0.95 to 1.00 of them were).
#[test]
fn chapter_3s_percentiles_after_the_click_stand_at_the_tops_of_the_bounces_bands() {
    let said = prose("continuous");
    let section = section("continuous");
    // Slowed as the reader first can, at the end of the warm-up, and
    // watched for thirty seconds after.
    let clicked = section.scenario.warmup_s;
    let scenario = slowed(&section.scenario, clicked);
    let servers = f64::from(scenario.servers);
    let left = (servers - 1.0 + 0.25) / servers;
    assert!(scenario.load > left, "load {} within the {left} left", scenario.load);
    let (timeout, round_trip) = (scenario.queue_timeout_ms.unwrap(), 2.0 * scenario.client_delay_ms);
    let top = |k: f64| timeout + k * (timeout + round_trip);
    let tops = format!("near {}, {}, {} and {}&nbsp;ms", top(0.0), top(1.0), top(2.0), top(3.0));
    assert!(said.contains(&tops), "the prose no longer says “{tops}”: {said}");
    let end_s = clicked + 30.0;
    for seed in SEEDS {
        let mut scenario = scenario.clone();
        scenario.seed = seed;
        let mut sim = Simulation::new(&scenario).unwrap();
        sim.advance_to(lbsim::Time::from_secs(end_s), u64::MAX);
        let within = |from: f64| sim.metrics().series.iter().filter(move |p| p.time_ms >= 1000.0 * from);
        let rate = |from: f64, to: f64| {
            let rates: Vec<f64> =
                within(from).filter(|p| p.time_ms < 1000.0 * to).map(|p| p.bounce_rate).collect();
            rates.iter().sum::<f64>() / rates.len() as f64
        };
        let (early, late) = (rate(clicked + 5.0, clicked + 10.0), rate(end_s - 5.0, end_s));
        assert!(late > 3.0 * early, "seed {seed}: bounces {early:.0}/s, then {late:.0}/s");
        for (name, pick) in [("p90", (|p| p.queue_p90) as fn(&SamplePoint) -> f64), ("p99", |p| p.queue_p99)]
        {
            let off: Vec<f64> =
                within(end_s - 10.0).map(|p| below_a_bands_top(pick(p), timeout, round_trip)).collect();
            let near = off.iter().filter(|o| (-0.03..0.1).contains(*o)).count() as f64 / off.len() as f64;
            println!(
                "seed {seed}: bounces {early:.0}/s then {late:.0}/s; {name} {near:.2} of {} near a top",
                off.len()
            );
            assert!(near >= 2.0 / 3.0, "seed {seed}: {name}'s samples under a top by {off:.2?}");
        }
    }
}

/// Chapter 3 runs ahead through its first ten seconds (its warm-up) and
/// tells the reader the run they meet has settled (a reader was asked to
/// click "once it has settled" with no way to tell when; the queues fill
/// slowly at 95% load: over the twenty seeds below, the ten's mean queue
/// over five seconds from 0, 4, 8 and 12 s was 7.1, 9.7, 11.4 and 11.5,
/// and 12.7 from 25 s). The mean over the five seconds after the warm-up,
/// what the reader first sees, is the mean from fifteen seconds to thirty
/// within 15% of it and three standard errors, while over the first two
/// seconds, the queues filling from empty, it is under half of it.
#[test]
fn chapter_3s_run_has_settled_by_the_end_of_its_warm_up() {
    let said = prose("continuous");
    let met_at = "The run you meet is already past its first ten seconds, in which the queues fill from empty, so it has settled";
    assert!(said.contains(met_at), "{said}");
    let section = section("continuous");
    let warmup = section.scenario.warmup_s;
    assert_eq!(warmup, 10.0);
    let mean_over = |samples: &[Vec<(u32, u32)>], (from, to): (f64, f64)| {
        let span = &samples[(from / 0.25) as usize..(to / 0.25) as usize];
        let queued: u32 = span.iter().flatten().map(|&(_, queued)| queued).sum();
        f64::from(queued) / (span.len() * span[0].len()) as f64
    };
    let (mut filling, mut met, mut steady) = (Vec::new(), Vec::new(), Vec::new());
    for seed in 1..=20 {
        let samples = super::server_samples(&section.scenario, seed, 30.0);
        filling.push(mean_over(&samples, (0.0, 2.0)));
        met.push(mean_over(&samples, (warmup, warmup + 5.0)));
        steady.push(mean_over(&samples, (warmup + 5.0, 30.0)));
    }
    let (filling, met, steady) = (Estimate::of(&filling), Estimate::of(&met), Estimate::of(&steady));
    println!("queued on average: {filling:?} filling, {met:?} as met, {steady:?} steady");
    assert!(!met.above(&steady, 3.0) && !steady.above(&met, 3.0), "{met:?} against {steady:?}");
    assert!((met.mean / steady.mean - 1.0).abs() < 0.15, "{met:?} against {steady:?}");
    assert!(
        steady.above(&filling, 3.0) && filling.mean < 0.5 * steady.mean,
        "{filling:?} against {steady:?}"
    );
}

/// Server 3's mean queue over the steady window of `scenario` at `seed`
/// (sampled every 10 simulated ms, as a reader watching the picture sees
/// it) and its neighbours' mean, with its share of the sends there and a
/// neighbour's.
fn queues_and_shares(scenario: &Scenario, seed: u64) -> ((f64, f64), (f64, f64)) {
    let mut scenario = scenario.clone();
    scenario.seed = seed;
    let servers = scenario.servers as usize;
    let mut sim = Simulation::new(&scenario).unwrap();
    let (mut queued, mut samples, mut sent) = (vec![0.0; servers], 0.0, vec![0_u64; servers]);
    let mut next_sample_s = STEADY.0;
    while let Some(step) = sim.step_journaled().filter(|step| step.time.as_secs() <= STEADY.1) {
        if step.time.as_secs() < STEADY.0 {
            continue;
        }
        for happening in step.happened {
            if let Happening::Sent { server, .. } = happening {
                sent[server as usize] += 1;
            }
        }
        while step.time.as_secs() >= next_sample_s {
            next_sample_s += 0.01;
            samples += 1.0;
            for (sum, server) in queued.iter_mut().zip(&sim.snapshot(0).servers) {
                *sum += f64::from(server.queued);
            }
        }
    }
    let neighbours = |values: Vec<f64>| {
        let others = (values.iter().sum::<f64>() - values[3]) / (servers - 1) as f64;
        (values[3], others)
    };
    let total = sent.iter().sum::<u64>() as f64;
    (
        neighbours(queued.iter().map(|q| q / samples).collect()),
        neighbours(sent.iter().map(|&n| n as f64 / total).collect()),
    )
}

/// Chapter 5's reader saw the slowed server still sent 2.9% of the
/// requests under power of two against 3.8% under random, and did not
/// link it to chapter 3's lesson. The prose says why: power of two
/// compares the requests a server holds, not its speed, so it lets the
/// slowed server's queue grow to only one and a half to two times its
/// neighbours' mean (1.64 to 2.09 on these seeds when written) and sends
/// it about a quarter of a neighbour's share (0.26 to 0.28), though at a
/// quarter of the speed that queue takes six to eight times as long to
/// clear.
#[test]
fn chapter_5s_power_of_two_keeps_a_slowed_servers_queue_as_its_neighbours_as_its_prose_says() {
    let said = prose("power-of-two");
    for words in [
        "Power of two compares how many requests each server holds, not how fast it serves them",
        "at a quarter of the speed, each request queued there waits as long as four at a neighbour",
        "So power of two lets the slowed server's queue grow to only one and a half to two times its neighbours' \
         (over twenty seconds, on five seeds), and sends it about a quarter of a neighbour's share of the requests, \
         though that queue takes six to eight times as long as a neighbour's to clear.",
    ] {
        assert!(said.contains(words), "the prose no longer says “{words}”: {said}");
    }
    let section = section("power-of-two");
    let scenario = slowed(&section.scenario, SLOWED_AT_S);
    let speed = match scenario.failures.first().and_then(|f| f.failure) {
        Some(lbsim::scenario::failures::Failure::Slow { factor }) => factor,
        other => panic!("not slowed: {other:?}"),
    };
    assert_eq!(1.0 / speed, 4.0, "a request queued there waits as long as four");
    let measured: Vec<_> = SEEDS.iter().map(|&seed| (seed, queues_and_shares(&scenario, seed))).collect();
    for (seed, ((queue, others), (share, neighbour))) in &measured {
        println!(
            "seed {seed}: queue {queue:.2} against {others:.2}; share {share:.4} against {neighbour:.4}"
        );
    }
    for (seed, ((queue, others), (share, neighbour))) in measured {
        let longer = queue / others;
        assert!((1.5..2.2).contains(&longer), "seed {seed}: queue {queue:.2} against {others:.2}");
        assert!(
            (6.0..8.8).contains(&(longer / speed)),
            "seed {seed}: {:.1} times as long to clear",
            longer / speed
        );
        let quarter = share / neighbour;
        assert!((0.2..0.35).contains(&quarter), "seed {seed}: share {quarter:.2} of a neighbour's");
    }
}
