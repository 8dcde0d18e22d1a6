//! How the topology marks what it shows, where a rule decides what a
//! reader can read off the picture: a queue's length, where a server's
//! state is written beside it, how long a decision's lines and badges
//! stay beside the servers they describe, each
//! server's share of the answers where one errs (of the requests sent
//! lately where one is slowed), and what a client heard
//! of each server's load and where its mark stands.

use crate::engine::{Decision, LearnedLoad, ServerView};
use crate::policy::Measure;

/// How a server's queue is drawn in its lane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum QueueMark {
    /// One cell a request, to count, while every queue's requests fit.
    Cells(usize),
    /// When the longest queue would not fit as cells: the first `head`
    /// requests a cell each, then a bar `rest` cells long for the others,
    /// on one scale for every queue, the longest filling the lane, so ten
    /// long queues still differ as their lengths do (cells cut at the
    /// lane's end made them look alike). The head keeps short queues
    /// apart: scaled to a longest of 20, a queue of 1 and one of 3 were
    /// both drawn as one cell (chapter 5), and the pile-ups its point is
    /// about hid among them.
    Bar { head: usize, rest: f64 },
    /// Cells filling the lane, cut at its start with a mark saying the
    /// queue runs on: on a row drawn to one scale (see
    /// [`crate::ui::row_scale`]), a queue longer than its lane.
    RunsOff(usize),
}

impl QueueMark {
    /// How many cells long the mark is.
    pub fn cells(&self) -> f64 {
        match *self {
            QueueMark::Cells(cells) | QueueMark::RunsOff(cells) => cells as f64,
            QueueMark::Bar { head, rest } => head as f64 + rest,
        }
    }
}

/// The shortest bar past a queue's head, in cells: long enough to see, so
/// a queue one longer than the head is told from the head alone.
const LEAST_REST: f64 = 0.5;

/// The mark of a queue of `queued` requests, when the longest queue drawn
/// beside it holds `longest` and a lane takes `cells` cells.
pub fn queue_mark(queued: u32, longest: u32, cells: usize) -> QueueMark {
    // An empty queue draws nothing, whatever the scale.
    if queued == 0 || longest as usize <= cells {
        return QueueMark::Cells(queued as usize);
    }
    // Half the lane counts requests (at least three, to tell 0 to 3
    // apart, where the lane holds more), the rest of it scales the others.
    let head = (cells / 2).max(3).min(cells.saturating_sub(1));
    if queued as usize <= head {
        return QueueMark::Cells(queued as usize);
    }
    // The bar grows from its least length, one past the head, to the rest
    // of the lane, the longest's: every request more draws it longer (a
    // least length clamped under the scale drew 4, 5 and 6 alike beside a
    // queue of 40).
    let (others, longest_others) = (queued as usize - head, longest as usize - head);
    let room = ((cells - head) as f64 - LEAST_REST).max(0.0);
    let rest = match longest_others {
        1 => room + LEAST_REST,
        _ => LEAST_REST + room * (others - 1) as f64 / (longest_others - 1) as f64,
    };
    QueueMark::Bar { head, rest }
}

/// The mark of a queue of `queued` requests on a row drawn to one scale,
/// whose lane takes `cells` cells: a cell a request, as far as the lane
/// goes.
pub fn queue_to_scale(queued: u32, cells: usize) -> QueueMark {
    match queued as usize > cells {
        true => QueueMark::RunsOff(cells),
        false => QueueMark::Cells(queued as usize),
    }
}

/// What a server running at `speed` (of its own) says above its slots,
/// where it is not at speed 1: "¼ speed", as a reader says it, for the
/// speeds a click or a link gives; "0.3× speed" for any other. "speed
/// ×0.25" beside slots drawn pale was read as free slots.
pub fn speed_label(speed: f64) -> String {
    const FRACTIONS: [(f64, &str); 4] = [(0.25, "¼"), (0.5, "½"), (0.75, "¾"), (1.0 / 3.0, "⅓")];
    match FRACTIONS.iter().find(|(value, _)| (speed - value).abs() < 1e-9) {
        Some((_, fraction)) => format!("{fraction} speed"),
        None => format!("{speed}× speed"),
    }
}

/// Where a server's state word ("slow", "crashed · ejected"), `width` px
/// wide, starts in its row's lane: at `preferred` when it ends clear of
/// the queue and the length written beside it, which begin at
/// `queue_from`, and starts clear of the server's name, written from
/// `name.0` to `name.1`; else just before the name, out into the space
/// requests cross on their way in, but never left of `floor`. `None` where
/// neither has room: the word goes off the lane (above or below the slots,
/// where the row has room). Drawn at a fixed share of the row, "slow"
/// covered the slowed server's queue length, the very number a reader
/// watches grow; pushed left of that, it ran into the name ("3slow" after
/// the choices slider restarted chapter 5); written just after the name,
/// "¼ speed" covered chapter 1's queue length once its lone server,
/// slowed, had bounced a request (the bounce's mark takes the room before
/// the name) and its queue filled the lane.
pub fn state_word_x(
    preferred: f64,
    queue_from: f64,
    (name, floor): ((f64, f64), f64),
    width: f64,
) -> Option<f64> {
    const GAP: f64 = 6.0;
    let after_name = (name.1 + GAP).max(floor);
    let clear_of_queue = preferred.min(queue_from - GAP - width);
    let before_name = name.0 - GAP - width;
    if clear_of_queue >= after_name {
        Some(clear_of_queue)
    } else if before_name >= floor {
        Some(before_name)
    } else {
        None
    }
}

/// Wall milliseconds a running decision's lines and rings show at full
/// strength, before they fade.
const CHOICE_FULL_MS: f64 = 400.0;
/// Wall milliseconds over which they then fade to [`CHOICE_FAINTEST`].
const CHOICE_FADE_MS: f64 = 1_200.0;
/// The faintest they are drawn: the ink colour at half strength still
/// stands 3:1 off the panel.
const CHOICE_FAINTEST: f64 = 0.5;
/// Wall milliseconds after which a running decision that nothing has
/// replaced is no longer drawn (the view's sentence holds one 1.6 s).
const CHOICE_GONE_MS: f64 = 2_400.0;

/// How strongly a decision's lines, rings and badges are drawn (1 full),
/// shown `age_ms` ago, while the view runs or not, and whether the rows of
/// its candidates have `moved` since. Running, they are held: full at
/// first, fading to half over 1.2 s, until the next decision replaces them
/// (or gone after 2.4 s if none does), whatever the rows do since. Drawn
/// only while the rows agreed, which in a running chapter 5 was 3 frames
/// in 237, a reader never saw the servers compared that the legend names.
///
/// Held, the lines keep their badges, what the chooser saw ("saw 7"). Sam
/// Rose's load-balancing post shows a choice as the request's own trip to
/// the server it went to, never as a mark left beside servers that have
/// changed since; a mark held here to be seen must carry its reasons
/// with it, the moment as the chooser met it. A solid line alone, to a
/// server that had since become the busier of the two, read as "power of
/// two picked the worse one"; with "saw 3" and "saw 5" on its candidates
/// it reads as what it was, a choice made a moment ago on what was there
/// then. The word "saw" keeps a badge from being read as the row's own
/// figure ("21" beside a server at 6/10), the reason the badges once
/// faded within 0.8 s, long before their lines.
///
/// Paused, where a reader studies one still picture, all of it only
/// beside rows as the decision met them: a ring round the taken server
/// beside a row that was by then the busier read as power of two picking
/// the worse.
pub fn decision_ink(age_ms: f64, running: bool, moved: bool) -> f64 {
    match (running, moved) {
        (false, true) => 0.0,
        (false, false) => 1.0,
        (true, _) if age_ms >= CHOICE_GONE_MS => 0.0,
        (true, _) => {
            let faded = ((age_ms - CHOICE_FULL_MS) / CHOICE_FADE_MS).clamp(0.0, 1.0);
            1.0 - (1.0 - CHOICE_FAINTEST) * faded
        }
    }
}

/// Each candidate's server and its badge's wordings, longest first: what
/// the chooser saw of it, at the decision's moment ("saw 7", "saw 3.2
/// ms"), then the figure alone ("7"), for where the longer does not fit
/// between the clients' column and the row (the legend says the figure is
/// what the chooser saw: on a phone "saw 25" covered the clients); or
/// "stale", else "?", where it found its counters too old to compare (the
/// legend says so: chapter 6's narrow rows on a phone had no room for the
/// word, and a decision was drawn without its reason). Drawn with the
/// decision's lines (see [`decision_ink`]) beside rows that may have
/// moved on since.
///
/// A key's placement compares nothing, so it says nothing was seen: where
/// a bound on load passed the key's place over, that place is "full";
/// else no badge (chapter 13's modulo wrote "saw 14" beside the one
/// server a key can go to).
pub fn badges(decision: &Decision) -> Vec<(u32, Vec<String>)> {
    let words = |texts: &[&str]| texts.iter().map(|text| text.to_string()).collect::<Vec<_>>();
    if decision.measure == Measure::Key {
        let passed = decision.candidates.iter().filter(|c| c.server != decision.winner);
        return passed.map(|c| (c.server, words(&["full"]))).collect();
    }
    let wordings = |seen| match decision.fell_back {
        true => words(&["stale", "?"]),
        false => {
            let figure = amount(seen, decision);
            vec![format!("saw {figure}"), figure]
        }
    };
    decision.candidates.iter().map(|c| (c.server, wordings(c.seen))).collect()
}

/// A seen amount as drawn: requests whole, milliseconds to one decimal.
pub fn amount(seen: f64, decision: &Decision) -> String {
    match decision.measure {
        Measure::Load | Measure::Reported | Measure::InFlight | Measure::Key => format!("{seen:.0}"),
        Measure::Work | Measure::Cost => format!("{seen:.1} ms"),
    }
}

/// Whether the rows of `decision`'s candidates have moved on: a server's
/// load (in its slots and queue) is no longer the one the decision met.
pub fn rows_moved(decision: &Decision, servers: &[ServerView]) -> bool {
    let load = |server: u32| servers.get(server as usize).map(|s| s.busy + s.queued);
    decision.candidates.iter().any(|c| load(c.server) != Some(c.load))
}

/// The decision to show among `latest` (oldest first), none older than
/// the one shown (made at `shown_ms`): the newest whose rows are still as
/// it met them, so that it is drawn beside rows that agree with it; else
/// the newest, told in words only. Never an older one than is shown: a
/// step forward once brought back a decision 5 ms older, whose rows
/// happened to agree again.
pub fn decision_to_show<'a>(
    latest: &'a [Decision],
    servers: &[ServerView],
    shown_ms: Option<f64>,
) -> Option<&'a Decision> {
    let not_older = |d: &&Decision| shown_ms.is_none_or(|shown| d.time_ms >= shown);
    latest.iter().rev().filter(not_older).find(|d| !rows_moved(d, servers)).or(latest.last())
}

/// Each server's share of the requests answered so far (completed or with
/// an error), once some server has answered with an error: the figure the
/// sentence about a server that errs gives ("drew 27.0% of the attempts"),
/// which the picture writes beside each row, where a failing server's
/// row otherwise looks the quietest (it lets go of each request at once).
pub fn answer_shares(servers: &[ServerView]) -> Option<Vec<f64>> {
    let total: u64 = servers.iter().map(|s| s.answered).sum();
    let erring = servers.iter().any(|s| s.erred > 0);
    (erring && total > 0).then(|| servers.iter().map(|s| s.answered as f64 / total as f64).collect())
}

/// Each server's share of the requests sent over the last three seconds,
/// where a server is slowed and none errs (where one errs, its rows write
/// the answers, [`answer_shares`]), written in a column right of the rows
/// (where their entrance, crowded by queues, dropped the slowed row's
/// share, the one that matters): what the policy sends the slowed
/// server against its neighbours, which is power of two's point in
/// chapter 5 ("sends it less"). Its answers would not say it: a server at
/// a quarter of its speed answers less under any policy.
pub fn sent_shares(servers: &[ServerView]) -> Option<Vec<f64>> {
    let total: u64 = servers.iter().map(|s| s.sent_lately).sum();
    // A lone server is sent every request, slowed or not.
    let slowed =
        servers.len() > 1 && servers.iter().any(|s| s.speed < 1.0) && !servers.iter().any(|s| s.erred > 0);
    (slowed && total > 0).then(|| servers.iter().map(|s| s.sent_lately as f64 / total as f64).collect())
}

/// How long a learned copy of a server's load takes to fade by a factor
/// of e (ms): adding clients (each hears from each server less often)
/// visibly greys the copies out.
const COPY_FADE_MS: f64 = 1_000.0;

/// The faintest a copy's number is written: still legible (about 3:1 on
/// the panel), where a line could go fainter and stay seen.
const HEARD_FAINTEST: f64 = 0.45;

/// What the column beside a server's row writes of a client's copy of its
/// load, and how strongly: the load it heard (queued and busy, the number
/// power of two compares), solid while fresh and fading by e each second
/// of age, or "–" (faintest) if the
/// server never answered it; nothing for a server outside its pool. A
/// line under each row, on the row's own scale, was read by no student:
/// a number beside the row's own "10/10" and queue is.
pub fn heard_label(copy: Option<&LearnedLoad>) -> Option<(String, f64)> {
    let copy = copy?;
    Some(match copy.age {
        Some(age) => {
            let fresh = (-age.as_ms().max(0.0) / COPY_FADE_MS).exp();
            ((copy.queued + copy.busy).to_string(), HEARD_FAINTEST + (1.0 - HEARD_FAINTEST) * fresh)
        }
        None => ("–".to_string(), HEARD_FAINTEST),
    })
}

/// The words heading the column of `client`'s copies, longest first (the
/// picture writes the longest that fits): with how long ago it heard, from
/// its freshest copy to its oldest, so that staleness reads in the picture
/// where the client decides, not only in the copies' fading ink (reader 9
/// found it only in a dense paragraph); then without it. A range, not a
/// typical age: a client hears often from the servers it has sessions on
/// and rarely from the rest (chapter 6: copies from 5 ms to 2.5 s old,
/// their median 20 to 100 ms, where the older of the two a decision
/// compares is typically 250 ms old), so one figure would belie the
/// sentence's.
pub fn heard_titles(client: u32, learned: &[LearnedLoad]) -> Vec<String> {
    let ages = learned.iter().filter_map(|copy| copy.age).map(|age| age.as_secs());
    let range = ages.fold(None, |range: Option<(f64, f64)>, age| {
        Some(range.map_or((age, age), |(low, high)| (low.min(age), high.max(age))))
    });
    let heard = format!("client {client} heard");
    let aged = range.map(|(low, high)| match (age_words(low), age_words(high)) {
        (low, high) if low == high => format!("{heard}, {low} ago"),
        (low, high) => format!("{heard}, {low} to {high} ago"),
    });
    aged.into_iter().chain([heard, "heard".to_string()]).collect()
}

/// An age as the copies' heading says it: "40 ms", "2.1 s", "12 s".
fn age_words(seconds: f64) -> String {
    match seconds {
        s if s < 0.9995 => format!("{:.0} ms", s * 1000.0),
        s if s < 9.95 => format!("{s:.1} s"),
        s => format!("{s:.0} s"),
    }
}

/// Where the mark of a client's copy of a server's load stands on the
/// row (CSS px): a needle through the row's box at `x`, the copy's load on
/// the row's own scale, from a little above the box to the bottom of the
/// `gap` free below it, with an upward head filling that gap. A caret of
/// 6 px under the row, the first design, could not be read at 1440 × 900
/// (reader 5) nor from a room's back: the needle is as tall as the row,
/// and its stroke and head grow with the labels (`label_px`), as a
/// presenter's screen makes them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CopyMark {
    pub x: f64,
    pub top: f64,
    pub bottom: f64,
    /// The needle's stroke.
    pub stroke: f64,
    /// The head's width at its base, at the needle's bottom.
    pub head: f64,
}

impl CopyMark {
    pub fn new(x: f64, (box_top, box_bottom): (f64, f64), gap: f64, label_px: f64) -> CopyMark {
        let overhang = 3.0;
        CopyMark {
            x,
            top: box_top - overhang,
            bottom: box_bottom + gap.max(overhang),
            stroke: (label_px / 5.0).max(2.5),
            head: (label_px * 0.8).max(gap.max(overhang) * 1.6),
        }
    }

    /// The box the mark covers, `[x, y, w, h]`.
    pub fn rect(&self) -> [f64; 4] {
        let w = self.head.max(self.stroke);
        [self.x - w / 2.0, self.top, w, self.bottom - self.top]
    }
}

/// Where a queue's length, `width` px wide and written right-aligned at
/// `right` just left of its queue, goes so that a copy's needle (`mark`,
/// haloed 1 px) does not stand on it: where it would, just left of the
/// needle. A copy one or two requests above the queue puts the needle
/// where the length is written (chapter 6 on a phone: a needle reached
/// 6.5 px into a queue's "2").
pub fn count_clear_of(right: f64, width: f64, mark: Option<&CopyMark>) -> f64 {
    const HALO: f64 = 1.0;
    const GAP: f64 = 2.0;
    let Some(mark) = mark else { return right };
    let [x, _, w, _] = mark.rect();
    let (from, to) = (x - HALO - GAP, x + w + HALO + GAP);
    match right - width < to && right > from {
        true => from,
        false => right,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Candidate;

    #[test]
    fn queues_that_fit_are_cells_and_longer_ones_bars_to_one_scale() {
        assert_eq!(queue_mark(6, 8, 8), QueueMark::Cells(6));
        assert_eq!(queue_mark(0, 8, 8), QueueMark::Cells(0));
        // A lane of 8 cells beside a longest of 12: the first 4 requests a
        // cell each, the other 8 of the longest over the other 4 cells.
        let (six, twelve) = (queue_mark(6, 12, 8), queue_mark(12, 12, 8));
        assert_eq!(six, QueueMark::Bar { head: 4, rest: 1.0 });
        assert_eq!(twelve, QueueMark::Bar { head: 4, rest: 4.0 });
        assert_eq!(twelve.cells(), 8.0, "the longest fills the lane");
        assert_eq!(queue_mark(12, 40, 8), QueueMark::Bar { head: 4, rest: 0.5 + 3.5 * 7.0 / 35.0 });
        assert_eq!(
            queue_mark(0, 40, 8),
            QueueMark::Cells(0),
            "an empty queue beside long ones draws nothing"
        );
    }

    #[test]
    fn short_queues_beside_a_long_one_are_a_cell_a_request() {
        // Chapter 5 at 1440 × 900: a lane of 6 cells beside a queue of 20.
        let drawn: Vec<f64> = (0..=5).map(|q| queue_mark(q, 20, 6).cells()).collect();
        assert_eq!(drawn[..4], [0.0, 1.0, 2.0, 3.0], "0 to 3 told apart, a cell each");
        assert_eq!(drawn[4], 3.5, "one past the head: a bar of the least length");
        assert_eq!(queue_mark(20, 20, 6).cells(), 6.0, "the longest fills the lane");
        // Longer queues still differ as their lengths do.
        let (ten, fifteen) = (queue_mark(10, 20, 6), queue_mark(15, 20, 6));
        assert!(fifteen.cells() > ten.cells() + 0.5, "{ten:?} {fifteen:?}");
        // Every length at least as long as a shorter one, in any lane.
        for cells in 0..12 {
            let lengths: Vec<f64> = (0..=30).map(|q| queue_mark(q, 30, cells).cells()).collect();
            assert!(lengths.windows(2).all(|w| w[1] >= w[0]), "a lane of {cells}: {lengths:?}");
            if cells >= 2 {
                assert!(lengths.windows(2).all(|w| w[1] > w[0]), "each one more is longer: {lengths:?}");
            }
            assert!(lengths.iter().all(|&l| l <= cells.max(1) as f64), "a lane of {cells}: {lengths:?}");
        }
        // A lane of 3 cells: two counted, a third past them a bar.
        assert_eq!(queue_mark(2, 20, 3), QueueMark::Cells(2));
        assert_eq!(queue_mark(3, 20, 3), QueueMark::Bar { head: 2, rest: LEAST_REST });
    }

    #[test]
    fn a_queue_drawn_to_scale_is_a_cell_a_request_cut_at_the_lanes_end() {
        assert_eq!(queue_to_scale(6, 10), QueueMark::Cells(6), "whatever the longest beside it");
        assert_eq!(queue_to_scale(10, 10), QueueMark::Cells(10));
        assert_eq!(queue_to_scale(14, 10), QueueMark::RunsOff(10));
        assert_eq!(queue_to_scale(0, 10), QueueMark::Cells(0));
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
        assert_eq!(decision_ink(400.0, true, true), 1.0, "running, held though the rows moved on");
        assert_eq!(decision_ink(1_000.0, true, true), 0.75);
        assert_eq!(decision_ink(1_600.0, true, true), 0.5, "as faint as it goes when the next replaces it");
        assert_eq!(decision_ink(2_399.0, true, false), 0.5);
        assert_eq!(decision_ink(2_400.0, true, false), 0.0, "none replaced it: gone");
        assert_eq!(decision_ink(5_000.0, false, false), 1.0);
        assert_eq!(decision_ink(0.0, false, true), 0.0, "paused beside rows that moved on: no ring");
    }

    #[test]
    fn a_badge_says_what_the_chooser_saw_so_it_never_reads_as_the_rows_figure() {
        let words = |texts: &[&str]| texts.iter().map(|t| t.to_string()).collect::<Vec<_>>();
        let compared = decision(1.0, [(3, 12), (7, 5)], 7);
        assert_eq!(badges(&compared), vec![(3, words(&["saw 12", "12"])), (7, words(&["saw 5", "5"]))]);
        let timed = Decision {
            measure: Measure::Cost,
            candidates: vec![Candidate { server: 2, load: 4, seen: 3.25 }],
            ..Decision::default()
        };
        assert_eq!(badges(&timed), vec![(2, words(&["saw 3.2 ms", "3.2 ms"]))]);
        let stale = Decision { fell_back: true, ..compared };
        assert_eq!(badges(&stale), vec![(3, words(&["stale", "?"])), (7, words(&["stale", "?"]))]);
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
        assert_eq!(badges(&keyed(&[(4, 14)], 4)), vec![]);
        // Bounded loads: the key's place over the bound, passed over.
        assert_eq!(badges(&keyed(&[(4, 14), (6, 3)], 6)), vec![(4, vec!["full".to_string()])]);
    }

    #[test]
    fn the_decision_shown_is_the_newest_whose_rows_still_agree() {
        let servers = [row(7, 0), row(10, 3), row(5, 0)];
        let older = decision(1.0, [(1, 13), (2, 5)], 2);
        let newest = decision(2.0, [(1, 10), (0, 7)], 0);
        let latest = [decision(0.5, [(1, 9), (2, 5)], 2), older.clone(), newest.clone()];
        assert!(rows_moved(&newest, &servers), "server 1 has 13 now, not 10");
        assert_eq!(decision_to_show(&latest, &servers, None), Some(&older));
        assert_eq!(decision_to_show(&latest, &servers, Some(1.0)), Some(&older));
        assert_eq!(
            decision_to_show(&latest[2..], &servers, None),
            Some(&newest),
            "none agrees: the newest, in words"
        );
        assert_eq!(
            decision_to_show(&latest, &servers, Some(2.0)),
            Some(&newest),
            "the older one agrees, but the newest is shown already: never back in time"
        );
        assert_eq!(decision_to_show(&[], &servers, None), None);
    }

    fn row(busy: u32, queued: u32) -> ServerView {
        ServerView { busy, queued, ..ServerView::default() }
    }

    fn decision(time_ms: f64, candidates: [(u32, u32); 2], winner: u32) -> Decision {
        let candidates = candidates
            .iter()
            .map(|&(server, load)| Candidate { server, load, seen: f64::from(load) })
            .collect();
        Decision { time_ms, candidates, winner, ..Decision::default() }
    }

    #[test]
    fn the_copies_column_is_headed_with_their_ages_from_freshest_to_oldest_where_it_fits() {
        let copy = |age_s: Option<f64>| LearnedLoad {
            server: 0,
            queued: 2,
            busy: 10,
            age: age_s.map(crate::Time::from_secs),
        };
        let learned = [copy(Some(0.005)), copy(Some(2.14)), copy(None), copy(Some(0.5))];
        assert_eq!(
            heard_titles(0, &learned),
            ["client 0 heard, 5 ms to 2.1 s ago", "client 0 heard", "heard"]
        );
        assert_eq!(heard_titles(3, &[copy(Some(0.04))])[0], "client 3 heard, 40 ms ago");
        assert_eq!(
            heard_titles(0, &[copy(Some(0.9)), copy(Some(12.4))])[0],
            "client 0 heard, 900 ms to 12 s ago"
        );
        assert_eq!(heard_titles(0, &[copy(None)]), ["client 0 heard", "heard"], "nothing heard: no age");
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
        let row = |speed, answered, sent_lately| ServerView {
            speed,
            answered,
            sent_lately,
            ..ServerView::default()
        };
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
        assert!(h >= 24.0 && w >= 9.0 && desk.stroke >= 2.4, "{desk:?}");
        assert_eq!(x + w / 2.0, 100.0, "centred on the copy's load");
        let room = CopyMark::new(100.0, (10.0, 50.0), 8.0, 30.0);
        assert!(room.stroke >= 6.0 && room.head >= 24.0, "a projector's labels, a mark to match: {room:?}");
    }
}
