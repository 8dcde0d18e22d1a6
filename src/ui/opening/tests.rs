use super::*;

fn at(client: u32, hop: Hop) -> RequestView {
    RequestView { hop, from: 0, to: 0, progress: 0.5, retries: 0, client }
}

#[test]
fn a_view_without_an_opening_plays_at_its_speed_from_the_start() {
    let mut opening = Opening::new(false);
    assert!(opening.is_over());
    assert_eq!(opening.speed(0.5), 0.5);
    assert_eq!(opening.observe(0.0, &[at(3, Hop::ClientToServer)]), None);
}

#[test]
fn the_first_request_is_followed_out_and_back_at_a_walking_pace_then_released() {
    let mut opening = Opening::new(true);
    assert_eq!((opening.speed(1.0), opening.is_over()), (WAITING_PACE, false));
    assert_eq!(opening.observe(1.0, &[]), None);
    // A request already on its way back is no trip to show from its start.
    assert_eq!(opening.observe(1.5, &[at(4, Hop::ServerToClient)]), None);
    assert_eq!(
        opening.observe(2.0, &[at(4, Hop::InService), at(7, Hop::Handshake), at(2, Hop::Handshake)]),
        Some(Cue::Follow(7))
    );
    // Its client opens a connection first: that passes at the waiting
    // pace, not the trip's.
    assert_eq!((opening.speed(1.0), opening.following()), (WAITING_PACE, Some(7)));
    assert_eq!(opening.observe(10.0, &[at(7, Hop::Handshake)]), None);
    assert_eq!(opening.speed(1.0), WAITING_PACE);
    assert_eq!(opening.observe(15.0, &[at(7, Hop::ClientToServer)]), None);
    assert_eq!((opening.speed(1.0), opening.following()), (WALKING_PACE, Some(7)));
    // A view slowed to a tenth walks its trip no slower than one at real time.
    assert_eq!(opening.speed(0.1), WALKING_PACE);
    assert_eq!(opening.speed(0.005), 0.005, "nor faster than the view's own");
    // Out, into the queue and a slot: still followed, whatever the others do.
    for (now, hop) in [(20.0, Hop::ClientToServer), (30.0, Hop::Queued), (40.0, Hop::InService)] {
        assert_eq!(opening.observe(now, &[at(2, Hop::ServerToClient), at(7, hop)]), None);
        assert!(!opening.is_over());
    }
    assert_eq!(opening.observe(45.0, &[at(7, Hop::ServerToClient)]), None);
    // Answered, the client sends its session's next request: the trip is over.
    assert_eq!(opening.observe(50.0, &[at(7, Hop::ClientToServer)]), Some(Cue::Release(7)));
    assert!(opening.is_over());
    assert_eq!((opening.speed(0.1), opening.following()), (0.1, None));
    assert_eq!(opening.observe(60.0, &[at(9, Hop::ClientToServer)]), None);
}

#[test]
fn a_trip_that_vanishes_or_drags_on_ends_the_opening() {
    let mut bounced = Opening::new(true);
    bounced.observe(0.0, &[at(1, Hop::ClientToServer)]);
    assert_eq!(bounced.observe(10.0, &[at(4, Hop::Queued)]), Some(Cue::Release(1)));
    let mut slow = Opening::new(true);
    slow.observe(0.0, &[at(1, Hop::ClientToServer)]);
    assert_eq!(slow.observe(LONGEST_TRIP_MS, &[at(1, Hop::Queued)]), None);
    assert_eq!(slow.observe(LONGEST_TRIP_MS + 1.0, &[at(1, Hop::Queued)]), Some(Cue::Release(1)));
}

#[test]
fn the_opening_says_how_slow_its_trip_and_the_rest_are() {
    assert_eq!(of_real_time(1.0), "real time");
    assert_eq!(of_real_time(0.1), "a tenth of real time");
    assert_eq!(of_real_time(0.3), "0.3× real time");
    let said = words(0.1);
    assert!(
        said.starts_with("One request's trip first, at a hundredth of real time and the only dot drawn"),
        "{said}"
    );
    assert!(said.ends_with("Then everyone, at a tenth of real time."), "{said}");
    assert!(words(0.005).starts_with("One request's trip first, at 0.005× real time"));
}
