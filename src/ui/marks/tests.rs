use super::heard::HEARD_FAINTEST;
use super::*;
use crate::engine::{Candidate, Decision, LearnedLoad};
use crate::policy::Measure;

#[test]
fn a_queue_drawn_to_scale_is_a_cell_a_request_cut_at_the_lanes_end() {
    assert_eq!(queue_to_scale(6, 10), QueueMark::Cells(6), "whatever the longest beside it");
    assert_eq!(queue_to_scale(10, 10), QueueMark::Cells(10));
    assert_eq!(queue_to_scale(14, 10), QueueMark::RunsOff(10));
    assert_eq!(queue_to_scale(0, 10), QueueMark::Cells(0));
}

#[test]
fn totals_are_drawn_in_proportion_on_one_scale_from_zero() {
    // Chapter 2's spike over, at 1440 × 900: 270 and 140 completed on a
    // lane of 190 px, drawn 170 and 113 px as queues' marks.
    let (busiest, quietest) = (bar_to_scale(270, 270, 190.0), bar_to_scale(140, 270, 190.0));
    assert_eq!(busiest, 190.0, "the most fills the lane");
    assert!((busiest / quietest - 270.0 / 140.0).abs() < 1e-9, "{busiest} against {quietest}");
    assert_eq!(bar_to_scale(0, 270, 190.0), 0.0);
    assert_eq!(bar_to_scale(5, 0, 190.0), 0.0, "nothing completed: no bar, no division by zero");
}

#[test]
fn a_slowed_server_says_its_speed_as_a_fraction() {
    assert_eq!(speed_label(0.25), "¼ speed");
    assert_eq!(speed_label(0.5), "½ speed");
    assert_eq!(speed_label(0.3), "0.3× speed");
    assert_eq!(speed_label(2.0), "2× speed");
}

#[test]
fn a_state_word_ends_clear_of_the_queue_and_its_length_and_never_covers_the_name() {
    // A row from x = 100 whose name "3" spans 100 to 107; the word 30 wide.
    let (name, floor) = ((100.0, 107.0), 52.0);
    let word = |preferred, queue_from| state_word_x(preferred, queue_from, (name, floor), 30.0);
    // A short queue leaves the word where rows put it.
    assert_eq!(word(160.0, 260.0), Some(160.0));
    // A longer one, its length written from x = 180: the word ends 6 px
    // before it, where at 160 it ran to 190 across the "24".
    assert_eq!(word(160.0, 180.0), Some(144.0));
    // A full lane (chapter 5 after the choices slider: "3slow"): not
    // over the name but before it, out where requests cross.
    assert_eq!(word(160.0, 130.0), Some(64.0));
    assert!(64.0 + 30.0 < name.0, "it ends before the name starts");
    // No room before the name (the floor) nor clear of the queue: not
    // in the lane, where just after the name it covered the queue's
    // length.
    assert_eq!(state_word_x(160.0, 130.0, (name, 80.0), 30.0), None);
    // Chapter 1's lone server, named "server" from 76 to 114 (its row
    // from 100, the floor well left of it), its queue full: "slow server".
    assert_eq!(state_word_x(160.0, 120.0, ((76.0, 114.0), 28.0), 24.0), Some(46.0));
    // Once it has bounced, the bounce's mark takes the room before its
    // name (the floor is the name's end): off the lane.
    assert_eq!(state_word_x(160.0, 120.0, ((76.0, 114.0), 114.0), 48.0), None);
}

#[test]
fn a_queues_length_steps_left_of_a_needle_that_would_stand_on_it() {
    // A needle at x = 170 with a head 9.6 wide: it covers 165.2 to
    // 174.8, its halo and a gap 162.2 to 177.8.
    let mark = CopyMark::new(170.0, (180.0, 190.0), 4.0, 12.0);
    // A "2" 7 px wide, ending at 171 (as chapter 6 drew it): left of it.
    assert!((count_clear_of(171.0, 7.0, Some(&mark)) - 162.2).abs() < 1e-9);
    // Clear of it on either side, or no needle: where it was.
    assert_eq!(count_clear_of(160.0, 7.0, Some(&mark)), 160.0);
    assert_eq!(count_clear_of(186.0, 7.0, Some(&mark)), 186.0);
    assert_eq!(count_clear_of(171.0, 7.0, None), 171.0);
}

#[test]
fn a_running_decision_is_held_and_fades_a_paused_one_only_beside_its_rows() {
    assert_eq!(decision_ink(0.0, true, false), 1.0);
    assert_eq!(decision_ink(400.0, true, false), 1.0);
    assert_eq!(decision_ink(1_000.0, true, false), 0.75);
    assert_eq!(decision_ink(1_600.0, true, false), 0.5, "as faint as it goes when the next replaces it");
    assert_eq!(decision_ink(2_399.0, true, false), 0.5);
    assert_eq!(decision_ink(2_400.0, true, false), 0.0, "none replaced it: gone");
    assert_eq!(decision_ink(5_000.0, false, false), 1.0);
    assert_eq!(decision_ink(0.0, false, true), 0.0, "paused beside rows that moved on: no ring");
}

#[test]
fn a_decision_held_past_its_rows_is_drawn_as_past_faint_and_unringed() {
    assert_eq!(decision_ink(0.0, true, true), 0.5, "held though the rows moved on, at half at once");
    assert_eq!(decision_ink(2_000.0, true, true), 0.5);
    assert_eq!(decision_ink(2_400.0, true, true), 0.0);
    assert!(rings_drawn(false) && !rings_drawn(true));
}

fn words(texts: &[&str]) -> Vec<String> {
    texts.iter().map(|t| t.to_string()).collect()
}

#[test]
fn a_badge_says_what_the_chooser_saw_as_the_row_writes_it() {
    // Server 3 had ten in its slots and two queued; server 7 five of ten.
    let mut servers = vec![row(10, 0); 10];
    servers[3] = row(10, 2);
    servers[7] = row(5, 0);
    let compared = decision(1.0, [(3, 12), (7, 5)], 7);
    assert_eq!(
        badges(&compared, (&servers, &[])),
        vec![(3, words(&["saw 2 queued", "2 queued", "2"])), (7, words(&["saw 5/10", "5/10"]))],
        "the queue's length and the slots in use, as the row writes them: never \"saw 12\""
    );
    assert_eq!(seen_words(&compared, &servers), "saw 2 queued and 5/10", "its sentence in the badges' words");
    let timed = Decision {
        measure: Measure::Cost,
        candidates: vec![Candidate { server: 2, load: 4, seen: 3.25 }],
        ..Decision::default()
    };
    assert_eq!(badges(&timed, (&servers, &[])), vec![(2, words(&["saw 3.2 ms", "3.2 ms"]))]);
    let stale = Decision { fell_back: true, ..compared.clone() };
    assert_eq!(
        badges(&stale, (&servers, &[])),
        vec![(3, words(&["stale", "?"])), (7, words(&["stale", "?"]))]
    );
    // The rows move on: server 3's queue is now 4 long. What it saw is
    // no longer a figure the rows write: each of its badges' wordings
    // says "then" (outlined, "saw 2 queued" read as the row's present;
    // on a phone, "2 queued" read as the row's), shortest "2 then", which
    // fits a phone's room before the row where "2 queued then" did not.
    servers[3] = row(10, 4);
    assert!(badges_past(&compared, (&servers, &[])));
    assert_eq!(
        badges(&compared, (&servers, &[])),
        vec![
            (3, words(&["saw 2 queued then", "2 queued then", "2 then"])),
            (7, words(&["saw 5/10 then", "5/10 then"]))
        ],
        "what the chooser saw, said as past"
    );
    // A copy a client learned is written whole, as its column writes it
    // ("13"), never in the row's terms, whose "3" matched nothing there.
    let learned = Decision { measure: Measure::Reported, ..compared };
    assert_eq!(
        badges(&learned, (&servers, &[])),
        vec![(3, words(&["saw 12", "12"])), (7, words(&["saw 5", "5"]))]
    );
    let full = Decision { measure: Measure::Reported, ..decision(1.0, [(3, 10), (7, 5)], 7) };
    assert_eq!(badges(&full, (&servers, &[]))[0].1, words(&["saw 10", "10"]));
    let heard = LearnedLoad { server: 3, queued: 2, busy: 10, age: Some(crate::Time::from_ms(5.0)) };
    let column = heard_label(Some(&heard)).unwrap().0;
    assert_eq!(
        badges(&learned, (&servers, &[]))[0].1.last(),
        Some(&column),
        "the badge's shortest is the column's figure"
    );
    // Beside the column of the client's copies: while it writes what was
    // compared, one more for the server taken (its request); once a new
    // copy comes, no badge.
    let copy = |server, busy, queued| LearnedLoad { server, busy, queued, age: None };
    let agreeing = [copy(3, 10, 2), copy(7, 6, 0)];
    assert_eq!(badges(&learned, (&servers, &agreeing)).len(), 2, "7 took the request: 6 where it saw 5");
    assert!(!badges_past(&learned, (&servers, &agreeing)));
    let answered = [copy(3, 10, 0), copy(7, 6, 0)];
    assert!(badges_past(&learned, (&servers, &answered)), "3's answer brought 10 where it saw 12");
    // Past, in the one notation of a past badge: never the bare "12" its
    // column may no longer write, nor a second notation ("(12)").
    assert_eq!(
        badges(&learned, (&servers, &answered)),
        vec![(3, words(&["saw 12 then", "12 then"])), (7, words(&["saw 5 then", "5 then"]))]
    );
    let passed_over_plus_one = [copy(3, 10, 3), copy(7, 5, 0)];
    assert!(badges_past(&learned, (&servers, &passed_over_plus_one)), "nothing was sent to 3");
    // Slots just full, and no queue: "full" where "10/10" has no room.
    servers[3] = row(10, 0);
    assert_eq!(
        badges(&decision(1.0, [(3, 10), (7, 5)], 7), (&servers, &[]))[0].1,
        words(&["saw 10/10", "10/10", "full"])
    );
    // Past, "full then": a word, not a bare figure, said as seen then.
    servers[3] = row(10, 1);
    assert_eq!(
        badges(&decision(1.0, [(3, 10), (7, 5)], 7), (&servers, &[]))[0].1,
        words(&["saw 10/10 then", "10/10 then", "full then"])
    );
}

#[test]
fn a_past_badge_with_no_room_before_its_row_goes_on_the_rows_free_lane() {
    // A phone's chapter 6: the clients end at 38, the row's name at 91;
    // "saw 13 then" 70 px, "13 then" 45, plates 5 px beyond the text.
    let widths = [70.0, 45.0];
    let room = |lane| BadgeRoom { before: (38.0, 81.0), lane };
    // Neither fits in the 43 px before the row; on its lane, from its
    // entrance at 115 (past the name) to the queue's length at 198: the
    // longer, its text from 120 (after the plate's 5 px) to 190, its plate
    // to 195, 3 px short of the queue's length.
    assert_eq!(badge_spot(&widths, room(Some((115.0, 198.0))), true, 5.0), Some((0, 190.0)));
    // A longer queue leaves room for the shorter only: 120 + 45 + 5 + 3.
    assert_eq!(badge_spot(&widths, room(Some((115.0, 173.0))), true, 5.0), Some((1, 165.0)));
    assert_eq!(badge_spot(&widths, room(Some((115.0, 172.0))), true, 5.0), None, "nor that, a pixel less");
    assert_eq!(badge_spot(&widths, room(None), true, 5.0), None, "a row that draws no lane");
    // A present badge stays off the lane, where a bare "3" beside the
    // queue's own "3" would read as the row's.
    assert_eq!(badge_spot(&widths, room(Some((115.0, 200.0))), false, 5.0), None);
    // Where it fits before the row, there, right-aligned, as on a wide
    // screen: the longest that fits, past or present.
    let wide = BadgeRoom { before: (38.0, 100.0), lane: Some((160.0, 400.0)) };
    assert_eq!(
        badge_spot(&widths, wide, true, 5.0),
        Some((1, 100.0)),
        "before the row, though the lane holds the longer"
    );
    assert_eq!(
        badge_spot(&widths, BadgeRoom { before: (38.0, 113.0), ..wide }, false, 5.0),
        Some((0, 113.0))
    );
}

#[test]
fn at_many_choices_only_the_taken_server_has_a_badge_which_says_of_how_many() {
    let servers = (0..10).map(|i| row(10, i)).collect::<Vec<_>>();
    let candidates =
        (0..10).map(|i| Candidate { server: i, load: 10 + i, seen: f64::from(10 + i) }).collect();
    let ten = Decision { candidates, winner: 1, ..Decision::default() };
    assert_eq!(
        badges(&ten, (&servers, &[])),
        vec![(1, words(&["saw 1 queued, least of 10", "saw 1 queued", "1 queued", "1"]))]
    );
    let three = Decision { candidates: ten.candidates[..3].to_vec(), ..ten };
    assert_eq!(badges(&three, (&servers, &[])).len(), 3, "three still each have theirs");
}

#[test]
fn a_keys_placement_says_no_server_was_seen_only_that_its_place_was_full() {
    let keyed = |candidates: &[(u32, u32)], winner| Decision {
        measure: Measure::Key,
        key: Some(37),
        candidates: candidates
            .iter()
            .map(|&(server, load)| Candidate { server, load, seen: f64::from(load) })
            .collect(),
        winner,
        ..Decision::default()
    };
    // Modulo: one candidate, the key's place, taken whatever its load.
    let servers = vec![row(10, 4); 8];
    assert_eq!(badges(&keyed(&[(4, 14)], 4), (&servers, &[])), vec![]);
    // Bounded loads: the key's place over the bound, passed over.
    assert_eq!(badges(&keyed(&[(4, 14), (6, 3)], 6), (&servers, &[])), vec![(4, vec!["full".to_string()])]);
}

#[test]
fn the_decision_shown_is_the_newest_whose_rows_still_agree() {
    let servers = [row(7, 0), row(10, 3), row(5, 0)];
    let older = decision(1.0, [(1, 13), (2, 5)], 2);
    let newest = decision(2.0, [(1, 10), (0, 7)], 0);
    let latest = [decision(0.5, [(1, 9), (2, 5)], 2), older.clone(), newest.clone()];
    assert!(rows_moved(&newest, &servers), "server 1 has 13 now, not 10");
    assert_eq!(decision_to_show(&latest, &servers, (None, None)), Some(&older));
    assert_eq!(decision_to_show(&latest, &servers, (Some(1.0), None)), Some(&older));
    assert_eq!(
        decision_to_show(&latest[2..], &servers, (None, None)),
        Some(&newest),
        "none agrees: the newest, in words"
    );
    assert_eq!(
        decision_to_show(&latest, &servers, (Some(2.0), None)),
        Some(&newest),
        "the older one agrees, but the newest is shown already: never back in time"
    );
    assert_eq!(decision_to_show(&[], &servers, (None, None)), None);
    assert_eq!(
        decision_to_show(&latest, &servers, (Some(50_360.0), None)),
        Some(&older),
        "a run started over: the one shown, at 50.36 s, was the last run's"
    );
}

#[test]
fn where_one_clients_copies_are_written_only_its_decisions_are_shown() {
    let servers = [row(7, 0), row(10, 3), row(5, 0)];
    let by = |chooser, time_ms| Decision { chooser, ..decision(time_ms, [(1, 13), (2, 5)], 2) };
    let latest = [by(5, 1.0), by(0, 2.0), by(5, 3.0)];
    assert_eq!(decision_to_show(&latest, &servers, (None, Some(0))), Some(&latest[1]));
    assert_eq!(decision_to_show(&latest, &servers, (None, Some(5))), Some(&latest[2]));
    assert_eq!(decision_to_show(&latest, &servers, (None, Some(9))), None, "none of client 9's");
    let balancer = Decision { by_balancer: true, ..by(0, 4.0) };
    assert_eq!(decision_to_show(&[balancer], &servers, (None, Some(0))), None, "balancer 0 is not client 0");
}

fn row(busy: u32, queued: u32) -> ServerView {
    ServerView { busy, queued, slots: 10, ..ServerView::default() }
}

fn decision(time_ms: f64, candidates: [(u32, u32); 2], winner: u32) -> Decision {
    let candidates =
        candidates.iter().map(|&(server, load)| Candidate { server, load, seen: f64::from(load) }).collect();
    Decision { time_ms, candidates, winner, ..Decision::default() }
}

#[test]
fn the_copies_column_is_headed_heard_over_it_after_their_ages_where_they_fit() {
    let copy = |age_s: Option<f64>| LearnedLoad {
        server: 0,
        queued: 2,
        busy: 10,
        age: age_s.map(crate::Time::from_secs),
    };
    let learned = [copy(Some(0.005)), copy(Some(2.14)), copy(None), copy(Some(0.5))];
    assert_eq!(
        heard_titles(0, &learned, false),
        ["5 ms to 2.1 s ago, client 0 heard", "5 ms–2.1 s ago, heard", "client 0 heard", "heard"],
        "each ends in the word set over the column; shorter, the ages still (a phone)"
    );
    assert_eq!(
        heard_titles(3, &[copy(Some(0.04))], false)[..2],
        ["40 ms ago, client 3 heard", "40 ms ago, heard"]
    );
    assert_eq!(
        heard_titles(0, &[copy(Some(0.9)), copy(Some(12.4))], false)[0],
        "900 ms to 12 s ago, client 0 heard"
    );
    assert_eq!(heard_titles(0, &[copy(None)], false), ["client 0 heard", "heard"], "nothing heard: no age");
    assert_eq!(
        heard_titles(19, &learned, true),
        ["5 ms–2.1 s ago, heard", "heard"],
        "a followed client is named by its line, left of the heading"
    );
}

#[test]
fn a_copy_is_written_as_the_load_heard_fading_with_its_age_or_a_dash_if_never_heard() {
    use crate::time::Time;
    let copy =
        |age: Option<f64>| LearnedLoad { server: 3, queued: 4, busy: 10, age: age.map(Time::from_secs) };
    assert_eq!(heard_label(Some(&copy(Some(0.0)))), Some(("14".to_string(), 1.0)));
    let (text, ink) = heard_label(Some(&copy(Some(0.5)))).unwrap();
    assert_eq!(text, "14");
    assert!((ink - 0.78).abs() < 0.01, "half a second old: lighter ({ink})");
    let (_, ink) = heard_label(Some(&copy(Some(5.0)))).unwrap();
    assert!((ink - 0.454).abs() < 0.01, "five seconds old: faint, still legible ({ink})");
    assert_eq!(heard_label(Some(&copy(None))), Some(("–".to_string(), HEARD_FAINTEST)));
    assert_eq!(heard_label(None), None, "a server outside the client's pool: nothing written");
}

#[test]
fn rows_give_their_share_of_the_answers_once_a_server_errs() {
    let server = |answered, erred| ServerView { answered, erred, ..ServerView::default() };
    assert_eq!(answer_shares(&[server(30, 0), server(10, 0)]), None, "no error, no story of shares");
    let shares = answer_shares(&[server(27, 24), server(9, 0), server(64, 0)]).unwrap();
    assert_eq!(shares, vec![0.27, 0.09, 0.64]);
    assert_eq!(answer_shares(&[server(0, 0)]), None);
}

#[test]
fn a_slowed_servers_rows_write_the_share_of_requests_sent_not_answered() {
    let row =
        |speed, answered, sent_lately| ServerView { speed, answered, sent_lately, ..ServerView::default() };
    // Server 0 at a quarter of its speed answers a tenth as many as
    // server 1, yet was sent 40 of the last 100 requests: the rows
    // say 40%, what the policy sent, not its 6% of the answers.
    let servers = [row(0.25, 10, 40), row(1.0, 100, 30), row(1.0, 50, 30)];
    assert_eq!(sent_shares(&servers), Some(vec![0.4, 0.3, 0.3]));
    let healthy = [row(1.0, 10, 40), row(1.0, 100, 60)];
    assert_eq!(sent_shares(&healthy), None, "no server slowed, no shares");
    let erring = [ServerView { erred: 5, ..row(0.25, 10, 40) }, row(1.0, 30, 60)];
    assert_eq!(sent_shares(&erring), None, "an erring server's rows tell its answers instead");
    assert!(answer_shares(&erring).is_some());
    assert_eq!(sent_shares(&[row(0.25, 0, 0), row(1.0, 0, 0)]), None, "nothing sent yet");
    assert_eq!(sent_shares(&[row(0.25, 5, 10)]), None, "a lone server is sent everything");
}

#[test]
fn a_copys_mark_spans_its_row_and_grows_with_the_labels() {
    // Chapter 6 at 1440 × 900: a box 20 px tall, 5 px free below it,
    // labels 12 px; the caret it replaces was 6 px each way.
    let desk = CopyMark::new(100.0, (10.0, 30.0), 5.0, 12.0);
    let [x, y, w, h] = desk.rect();
    assert_eq!((y, y + h), (7.0, 35.0), "from above the box to the gap's bottom");
    // A row 30 px tall whose box is 10: half the 10 px gap above it.
    let [_, y, _, h] = CopyMark::new(100.0, (10.0, 20.0), 10.0, 12.0).rect();
    assert_eq!((y, y + h), (5.0, 30.0), "as tall as four fifths of its row at least");
    assert!(h >= 24.0 && w >= 9.0 && desk.stroke >= 2.4, "{desk:?}");
    assert_eq!(x + w / 2.0, 100.0, "centred on the copy's load");
    let room = CopyMark::new(100.0, (10.0, 50.0), 8.0, 30.0);
    assert!(room.stroke >= 6.0 && room.head >= 24.0, "a projector's labels, a mark to match: {room:?}");
}

/// The column is headed by what it counts, requests (chapter 3's random
/// chooses the slowed server for a tenth of the sessions), over the
/// window the engine counts them in: 12 samples of 250 ms.
#[test]
fn the_sent_shares_column_is_headed_by_requests_and_their_window() {
    let titles = sent_titles();
    assert_eq!(titles[0], "% of requests, last 3 s");
    assert!(titles.windows(2).all(|pair| pair[0].len() > pair[1].len()), "longest first: {titles:?}");
}
