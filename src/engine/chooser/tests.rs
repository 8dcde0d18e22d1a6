use super::*;

/// (server, requests in flight) for each server of `chooser`'s pool with some.
fn in_flight(choosers: &Choosers, chooser: usize) -> Vec<(u32, u32)> {
    (0..choosers.pool_len(chooser))
        .map(|p| (choosers.server_at(chooser, p), choosers.entry(chooser, p).in_flight))
        .filter(|&(_, n)| n > 0)
        .collect()
}

#[test]
fn redrawing_pools_keeps_shared_knowledge() {
    let mut rng = SimRng::new(1);
    let timing = Timing { handshake: Time(7), ..Timing::untimed() };
    let mut choosers = Choosers::new(
        (3, &[]),
        (vec![1.0; 10], vec![1.0]),
        (Subsets::random(Some(4)), true, &timing),
        (PolicyKind::RANDOM, 2),
        &mut rng,
    );
    for chooser in 0..3 {
        for position in 0..4 {
            for _ in 0..=position {
                choosers.on_send(chooser, position, 10, 0);
            }
        }
    }
    let before: Vec<_> = (0..3).map(|c| in_flight(&choosers, c)).collect();
    choosers.redraw_pools(Subsets::random(Some(6)), &mut rng);
    for (chooser, before) in before.iter().enumerate() {
        assert_eq!(choosers.pool_len(chooser), 6);
        let kept: Vec<_> =
            before.iter().copied().filter(|&(s, _)| choosers.position_of(chooser, s).is_some()).collect();
        assert_eq!(in_flight(&choosers, chooser), kept);
    }
    // A response from a server no longer in the pool changes nothing.
    let outside = (0..10).find(|&s| choosers.position_of(0, s).is_none()).unwrap();
    let total = |c: &Choosers| (0..6).map(|p| c.entry(0, p).in_flight).sum::<u32>();
    let sum = total(&choosers);
    choosers.on_return(0, outside, (policy::Load::new(0, 1).into(), Time(5)), (0, None), Time(5));
    assert_eq!(total(&choosers), sum);
}

/// What `chooser`'s peak-EWMA policy costs `server` at, in ms, when it
/// compares it with another server of its pool.
fn cost_of(choosers: &mut Choosers, chooser: usize, server: u32, rng: &mut SimRng) -> f64 {
    let board = Board::Stale(&[0; 4]);
    loop {
        choosers.pick(chooser, Time(10), board, (None, None), rng);
        let mut seen = Vec::new();
        choosers.compared(chooser, (Time(10), board, None), &mut seen);
        if let Some(s) = seen.iter().find(|s| choosers.server_at(chooser, s.position) == server) {
            return s.amount;
        }
    }
}

#[test]
fn join_idle_queue_keeps_its_reports_when_a_server_is_ejected() {
    let mut rng = SimRng::new(6);
    let mut choosers = Choosers::new(
        (1, &[]),
        (vec![1.0; 4], vec![1.0]),
        (Subsets::random(None), false, &Timing::untimed()),
        (PolicyKind::from_name("join-idle-queue").unwrap(), 2),
        &mut rng,
    );
    assert!(choosers.on_idle(0, 3));
    assert!(choosers.on_idle(0, 2));
    // Server 0 is ejected: 2 and 3 move down a position, and their
    // reports still name them.
    assert!(choosers.eject(0, (0, Time(100)), (1.0, false), &mut rng));
    let board = Board::Stale(&[0; 4]);
    for expected in [2, 3] {
        let pick = choosers.pick(0, Time(10), board, (None, None), &mut rng);
        assert_eq!(choosers.server_at(0, pick.position), expected);
    }
}

#[test]
fn peak_ewma_keeps_its_averages_when_a_server_is_ejected_and_readmitted() {
    let mut rng = SimRng::new(5);
    let mut choosers = Choosers::new(
        (1, &[]),
        (vec![1.0; 4], vec![1.0]),
        (Subsets::random(None), true, &Timing::untimed()),
        (PolicyKind::from_name("peak-ewma").unwrap(), 2),
        &mut rng,
    );
    // Server s answered in 10 (s + 1) ms: server 3 is the slowest.
    for server in 0..4 {
        let round_trip = Time::from_ms(10.0 * f64::from(server + 1));
        choosers.on_send(0, server as usize, 1, 0);
        choosers.on_return(
            0,
            server,
            (policy::Load::new(0, 0).into(), Time(1)),
            (0, Some(round_trip)),
            Time(1),
        );
    }
    let before: Vec<f64> = (0..4).map(|s| cost_of(&mut choosers, 0, s, &mut rng)).collect();
    assert_eq!(before, [10.0, 20.0, 30.0, 40.0]);
    // Server 1 is ejected: the servers after it move down a position,
    // and their averages, staying in their slots, are read through it.
    assert!(choosers.eject(0, (1, Time(100)), (1.0, false), &mut rng));
    for server in [0, 2, 3] {
        assert_eq!(cost_of(&mut choosers, 0, server, &mut rng), before[server as usize], "server {server}");
    }
    // Readmitted, server 1 is new to the chooser: it costs the typical
    // round trip (the four came in ever slower at one instant, so the
    // peak, 40 ms), while the others keep theirs.
    choosers.readmit_due(0, Time(100), &mut rng);
    assert_eq!(choosers.pool_len(0), 4);
    for server in [0, 2, 3] {
        assert_eq!(cost_of(&mut choosers, 0, server, &mut rng), before[server as usize], "server {server}");
    }
    assert_eq!(cost_of(&mut choosers, 0, 1, &mut rng), 40.0);
}

/// One chooser picking at random among `servers` servers.
fn one_chooser(servers: usize, rng: &mut SimRng) -> Choosers {
    let timing = Timing::untimed();
    Choosers::new(
        (1, &[]),
        (vec![1.0; servers], vec![1.0]),
        (Subsets::random(None), false, &timing),
        (PolicyKind::RANDOM, 2),
        rng,
    )
}

/// The servers chooser 0 routes to.
fn routed_to(choosers: &Choosers) -> Vec<u32> {
    (0..choosers.pool_len(0)).map(|p| choosers.server_at(0, p)).collect()
}

#[test]
fn under_envoys_panic_threshold_a_pool_with_under_half_its_servers_in_routes_to_all() {
    let mut rng = SimRng::new(3);
    let mut choosers = one_chooser(10, &mut rng);
    choosers.panic_below(50.0);
    let health = |choosers: &mut Choosers, server, healthy, rng: &mut SimRng| {
        choosers.set_health(server, healthy, rng);
    };
    // Five of ten failing: 50% in is not under 50%, so the five left serve.
    for server in 0..5 {
        health(&mut choosers, server, false, &mut rng);
    }
    assert_eq!(routed_to(&choosers), [5, 6, 7, 8, 9]);
    // A sixth: 40% in, and every server takes requests again.
    health(&mut choosers, 5, false, &mut rng);
    assert_eq!(routed_to(&choosers), (0..10).collect::<Vec<_>>());
    // The failing stay held out: a seventh fails and one comes back (four
    // in), still all; a second comes back (five in) and the pool is what
    // it would have been without the panic.
    health(&mut choosers, 6, false, &mut rng);
    health(&mut choosers, 0, true, &mut rng);
    assert_eq!(routed_to(&choosers), (0..10).collect::<Vec<_>>());
    health(&mut choosers, 1, true, &mut rng);
    assert_eq!(routed_to(&choosers), [0, 1, 7, 8, 9]);
    health(&mut choosers, 6, true, &mut rng);
    assert_eq!(routed_to(&choosers), [0, 1, 6, 7, 8, 9]);
    // With no threshold, the same ejections leave two servers.
    let mut calm = one_chooser(10, &mut rng);
    for server in 0..8 {
        health(&mut calm, server, false, &mut rng);
    }
    assert_eq!(routed_to(&calm), [8, 9]);
}

#[test]
fn envoys_max_ejection_percent_holds_ten_percent_out_or_with_always_eject_one_host_one() {
    let mut rng = SimRng::new(4);
    let outlier = |server| (server, Time(100));
    // Ten servers at 10%: one, not two (100 × 2 / 10 = 20% > 10%).
    let mut ten = one_chooser(10, &mut rng);
    assert!(ten.eject(0, outlier(0), (0.1, false), &mut rng));
    assert!(!ten.eject(0, outlier(1), (0.1, false), &mut rng));
    // Nine servers at 10%: none (11% > 10%), unless one is always allowed,
    // and then only one.
    let mut nine = one_chooser(9, &mut rng);
    assert!(!nine.eject(0, outlier(0), (0.1, false), &mut rng));
    assert!(nine.eject(0, outlier(0), (0.1, true), &mut rng));
    assert!(!nine.eject(0, outlier(1), (0.1, true), &mut rng));
    assert_eq!(routed_to(&nine), (1..9).collect::<Vec<_>>());
    // Twenty at 10%: two.
    let mut twenty = one_chooser(20, &mut rng);
    let ejected = (0..5).filter(|&s| twenty.eject(0, outlier(s), (0.1, true), &mut rng)).count();
    assert_eq!(ejected, 2);
}

#[test]
fn a_panicking_pool_does_not_eject_a_server_it_already_holds_out() {
    let mut rng = SimRng::new(5);
    let mut choosers = one_chooser(4, &mut rng);
    choosers.panic_below(50.0);
    for server in 0..3 {
        choosers.eject(0, (server, Time(100)), (1.0, false), &mut rng);
    }
    // 2 of 4 out was 50%: the third made it 25%, so all four serve.
    assert_eq!(routed_to(&choosers), [0, 1, 2, 3]);
    assert!(!choosers.eject(0, (0, Time(200)), (1.0, false), &mut rng));
    choosers.readmit_due(0, Time(100), &mut rng);
    assert_eq!(routed_to(&choosers), [0, 1, 2, 3]);
    assert_eq!(choosers.ejected().count(), 0);
}

/// How many of `choosers`' pools hold each of `servers` servers, pools drawn as `subsets` says.
fn memberships(choosers: usize, servers: usize, subsets: Subsets) -> Vec<u32> {
    let mut rng = SimRng::new(3);
    let timing = Timing::untimed();
    let built = Choosers::new(
        (choosers, &[]),
        (vec![1.0; servers], vec![1.0]),
        (subsets, false, &timing),
        (PolicyKind::RANDOM, 2),
        &mut rng,
    );
    let mut counts = vec![0; servers];
    for chooser in 0..choosers {
        assert_eq!(built.pool_len(chooser), subsets.size.unwrap() as usize);
        for position in 0..built.pool_len(chooser) {
            counts[built.server_at(chooser, position) as usize] += 1;
        }
    }
    counts
}

#[test]
fn deterministic_subsetting_puts_every_server_in_as_many_pools_when_choosers_are_whole_rounds() {
    let deterministic = |size| Subsets {
        size: Some(size),
        mode: crate::scenario::SubsetMode::Deterministic,
        min_aperture: 12,
    };
    // The SRE book's example: 300 clients, 300 backends, subsets of 10 (30
    // subsets a round, 10 rounds): each backend in exactly 10 pools.
    assert_eq!(memberships(300, 300, deterministic(10)), vec![10; 300]);
    // 60 choosers over 12 servers in subsets of 4: 20 rounds of 3.
    assert_eq!(memberships(60, 12, deterministic(4)), vec![20; 12]);
    // Drawn at random, the same pools are far from even.
    let random = memberships(300, 300, Subsets::random(Some(10)));
    let (least, most) = (random.iter().min().unwrap(), random.iter().max().unwrap());
    assert!(most - least >= 8, "{least} to {most}");
    // Subsets differ between rounds: round 1 is not round 0 again.
    let pools = |chooser| {
        let built = Choosers::new(
            (6, &[]),
            (vec![1.0; 12], vec![1.0]),
            (deterministic(4), false, &Timing::untimed()),
            (PolicyKind::RANDOM, 2),
            &mut SimRng::new(1),
        );
        (0..4).map(|p| built.server_at(chooser, p)).collect::<Vec<_>>()
    };
    assert_ne!(pools(0), pools(3));
}

#[test]
fn under_an_aperture_each_server_gets_an_even_share_of_the_picks() {
    // 7 choosers over 30 servers, apertures of 12 servers' worth (0.4 of
    // the ring) rounded up to 3 units of 1/7 (0.43, 12.9 servers).
    let (choosers, servers, picks) = (7, 30, 60_000);
    let aperture = Subsets { size: None, mode: crate::scenario::SubsetMode::Aperture, min_aperture: 12 };
    let weighted_p2c = PolicyKind::from_name("weighted-p2c").unwrap();
    let mut rng = SimRng::new(42);
    let mut built = Choosers::new(
        (choosers, &[]),
        (vec![1.0; servers], vec![1.0]),
        (aperture, false, &Timing::untimed()),
        (weighted_p2c, 2),
        &mut rng,
    );
    let mut counts = vec![0u32; servers];
    let mut variance = vec![0.0; servers];
    let board = Board::Stale(&[0; 30]);
    for chooser in 0..choosers {
        assert!((13..=14).contains(&built.pool_len(chooser)), "{}", built.pool_len(chooser));
        // Nothing in flight: the first draw wins, in proportion to its share.
        for _ in 0..picks {
            let pick = built.pick(chooser, Time(10), board, (None, None), &mut rng);
            counts[built.server_at(chooser, pick.position) as usize] += 1;
        }
        let width = 3.0 / 7.0;
        for &(server, share) in &built.members[chooser].shares {
            let p = share / width;
            variance[server as usize] += f64::from(picks) * p * (1.0 - p);
        }
    }
    // Each server is covered 3 × 1/30 of the ring over all apertures: its
    // expected picks are picks × (3/30) / (3/7) = picks × 7 / 30.
    let expected = f64::from(picks) * choosers as f64 / servers as f64;
    for (server, &count) in counts.iter().enumerate() {
        let standard_error = variance[server].sqrt();
        assert!(
            (f64::from(count) - expected).abs() < 4.0 * standard_error,
            "server {server}: {count} against {expected:.0} ± {standard_error:.0}"
        );
    }
}

#[test]
fn after_a_membership_change_an_aperture_lies_on_the_ring_of_the_members_left() {
    let aperture = Subsets { size: None, mode: crate::scenario::SubsetMode::Aperture, min_aperture: 4 };
    let weighted_p2c = PolicyKind::from_name("weighted-p2c").unwrap();
    let mut rng = SimRng::new(3);
    let mut built = Choosers::new(
        (5, &[]),
        (vec![1.0; 20], vec![1.0]),
        (aperture, false, &Timing::untimed()),
        (weighted_p2c, 2),
        &mut rng,
    );
    // 4 servers' worth is 0.2 of the ring, one unit of 1/5: chooser 1
    // takes servers 4 to 7.
    let pool = |built: &Choosers, chooser| {
        (0..built.pool_len(chooser)).map(|p| built.server_at(chooser, p)).collect::<Vec<_>>()
    };
    assert_eq!(pool(&built, 1), [4, 5, 6, 7]);
    // Without servers 0 to 4 the ring is 5..20, 15 servers: 4 of them are
    // 1.33 units of 1/5, rounded up to 2, so 6 servers from the ring's 4th.
    let left: Vec<u32> = (5..20).collect();
    built.change_members(&left, &mut rng);
    assert_eq!(pool(&built, 1), [8, 9, 10, 11, 12, 13]);
    assert_eq!(built.members[1].shares.iter().map(|s| s.0).collect::<Vec<_>>(), [8, 9, 10, 11, 12, 13]);
}
