use super::*;

fn at(client: u32, hop: Hop) -> RequestView {
    RequestView { hop, from: 0, to: 0, progress: 0.5, retries: 0, client }
}

#[test]
fn a_view_without_an_opening_plays_at_its_speed_from_the_start() {
    let mut opening = Opening::new(false);
    assert!(opening.is_over());
    assert_eq!(opening.pace(), 1.0);
    assert_eq!(opening.observe(0.0, &[at(3, Hop::ClientToServer)]), None);
}

#[test]
fn the_first_request_is_followed_out_and_back_at_a_walking_pace_then_released() {
    let mut opening = Opening::new(true);
    assert_eq!((opening.pace(), opening.is_over()), (WAITING_PACE, false));
    assert_eq!(opening.observe(1.0, &[]), None);
    // A request already on its way back is no trip to show from its start.
    assert_eq!(opening.observe(1.5, &[at(4, Hop::ServerToClient)]), None);
    assert_eq!(
        opening.observe(2.0, &[at(4, Hop::InService), at(7, Hop::Handshake), at(2, Hop::Handshake)]),
        Some(Cue::Follow(7))
    );
    assert_eq!((opening.pace(), opening.following()), (WALKING_PACE, Some(7)));
    // Out, into the queue and a slot: still followed, whatever the others do.
    for (now, hop) in [(20.0, Hop::ClientToServer), (30.0, Hop::Queued), (40.0, Hop::InService)] {
        assert_eq!(opening.observe(now, &[at(2, Hop::ServerToClient), at(7, hop)]), None);
        assert!(!opening.is_over());
    }
    assert_eq!(opening.observe(45.0, &[at(7, Hop::ServerToClient)]), None);
    // Answered, the client sends its session's next request: the trip is over.
    assert_eq!(opening.observe(50.0, &[at(7, Hop::ClientToServer)]), Some(Cue::Release(7)));
    assert!(opening.is_over());
    assert_eq!((opening.pace(), opening.following()), (1.0, None));
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
