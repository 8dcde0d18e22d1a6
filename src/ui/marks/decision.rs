//! How long a decision's lines and badges stay beside the servers they
//! describe, and what the badges say.

use crate::engine::{Candidate, Decision, LearnedLoad, ServerView};
use crate::policy::Measure;

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
/// (or gone after 2.4 s if none does). Drawn only while the rows agreed,
/// which in a running chapter 5 was 3 frames in 237, a reader never saw
/// the servers compared that the legend names.
///
/// Held beside rows that have moved on, it is drawn as past: at half
/// strength at once, without the rings that tie it to the rows as they
/// are now (see [`rings_drawn`]), its badges saying what the chooser saw
/// then (see [`badges`]). Drawn full, a solid ring round a row that had since become
/// the busier of the two read as power of two taking the busier server
/// (reader 10 on a phone: it "took server 3 with 2 queued over server 5
/// with 0 queued and a free slot"). Sam Rose's load-balancing post shows
/// a choice as the request's own trip to the server it went to, never as
/// a mark left beside servers that have changed since.
///
/// Paused, where a reader studies one still picture, all of it only
/// beside rows as the decision met them.
pub fn decision_ink(age_ms: f64, running: bool, moved: bool) -> f64 {
    match (running, moved) {
        (false, true) => 0.0,
        (false, false) => 1.0,
        (true, _) if age_ms >= CHOICE_GONE_MS => 0.0,
        (true, _) => {
            let faded = ((age_ms - CHOICE_FULL_MS) / CHOICE_FADE_MS).clamp(0.0, 1.0);
            let ink = 1.0 - (1.0 - CHOICE_FAINTEST) * faded;
            if moved {
                ink.min(CHOICE_FAINTEST)
            } else {
                ink
            }
        }
    }
}

/// Whether a decision's candidates are ringed: only beside rows as it met
/// them (see [`decision_ink`]); once they have moved on, its lines alone.
pub fn rings_drawn(moved: bool) -> bool {
    !moved
}

/// Candidates past which only the taken server has a badge: at ten
/// choices ten badges stood on one another beside the rows.
const BADGED_CANDIDATES: usize = 3;

/// Each badged candidate's server and its badge's wordings, longest first,
/// for `decision` beside the rows of `servers` as they are now: what the
/// chooser saw of it, at the decision's moment, in the row's own terms,
/// slots in use ("saw 8/10") or, past full slots, the queue ("saw 3
/// queued"), the figures the row writes beside its slots and its queue
/// (chapter 5 said "saw 13" of a row written "10/10" and "3", busy plus
/// queued, which no reader could match to the picture); then shorter
/// ("3 queued", "3"), for where the longer does not fit between the
/// clients' column and the row (on a phone "saw 25" covered the clients).
/// A measure with no row to match (milliseconds, a client's own requests
/// in flight) says its figure ("saw 3.2 ms").
///
/// Once the rows have moved on (see [`badges_past`]), every wording of a
/// badge ends "then": "saw 8/10 then", "saw 3 queued then", shorter "3
/// queued then" and, last, "3 then" (on a phone, "2 queued then", some
/// 90 px, fitted neither before the row nor on its lane, and chapter 5
/// wrote a past badge in 59 of 332 frames); slots just full "full then"
/// where "10/10 then" finds no room: drawn as past, outlined and fading.
/// Ending "then", even a bare figure does not read as the row's present
/// count, as chapter 6's copies "13 then" do not.
/// "saw 8/10" drawn outlined still read as the row's present (reader 16,
/// chapters 5 and 6), and chapter 6 said the same past a second way, a
/// copy in brackets ("(13)"). A phone's "saw 5", where "saw 5 queued"
/// found no room, had no unit and stood over the server's number (reader
/// 15). A bare "5 queued" beside rows then at 2 and 0 read as the row's own
/// count (reader 11, on a phone); with no badge once the rows moved on,
/// which they do within a frame or two, a running chapter 5 drew 8 badges
/// in 298 frames and chapter 6 hardly any (reader 12 never saw one).
///
/// A copy a client learned ([`Measure::Reported`]) is written whole, as
/// the column of that client's copies (`copies`) writes it ("saw 13",
/// "13"): in the row's terms, its short "3" (of "3 queued") matched
/// nothing in that column, which writes "13" (reader 11, chapter 6); past
/// once an answer brings a new copy.
///
/// Past [`BADGED_CANDIDATES`], only the taken server: "saw 1 queued,
/// least of 10" (at ten choices the badges piled up unreadably).
///
/// "stale", else "?", where the chooser found its counters too old to
/// compare (the legend says so).
///
/// A key's placement compares nothing, so it says nothing was seen: where
/// a bound on load passed the key's place over, that place is "full";
/// else no badge (chapter 13's modulo wrote "saw 14" beside the one
/// server a key can go to).
pub fn badges(
    decision: &Decision,
    (servers, copies): (&[ServerView], &[LearnedLoad]),
) -> Vec<(u32, Vec<String>)> {
    let words = |texts: &[&str]| texts.iter().map(|text| text.to_string()).collect::<Vec<_>>();
    if decision.measure == Measure::Key {
        let passed = decision.candidates.iter().filter(|c| c.server != decision.winner);
        return passed.map(|c| (c.server, words(&["full"]))).collect();
    }
    let past = badges_past(decision, (servers, copies));
    let many = decision.candidates.len() > BADGED_CANDIDATES;
    let wordings = |candidate: &Candidate| {
        if decision.fell_back {
            return words(&["stale", "?"]);
        }
        let slots = servers.get(candidate.server as usize).map_or(0, |s| s.slots);
        let (longer, shorter) = in_row_terms(candidate.seen, slots, decision);
        let then = if past { " then" } else { "" };
        let mut said = vec![format!("saw {longer}{then}")];
        if many {
            said.insert(0, format!("saw {longer}{then}, least of {}", decision.candidates.len()));
        }
        let shorter = shorter.map(|text| format!("{text}{then}"));
        said.extend([format!("{longer}{then}")].into_iter().chain(shorter));
        said.dedup();
        said
    };
    let badged = decision.candidates.iter().filter(|c| !many || c.server == decision.winner);
    badged.map(|c| (c.server, wordings(c))).collect()
}

/// Where a badge may stand on its server's row (CSS px): `before` the
/// row, from the right edge of the columns left of the servers to where
/// its text may end (short of the labels at the row's entrance); and the
/// row's `lane`, from its entrance after the server's name to where the
/// lane is taken (its queue and the queue's length, a copy's needle, a
/// state's word), where the row's drawing leaves one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BadgeRoom {
    pub before: (f64, f64),
    pub lane: Option<(f64, f64)>,
}

/// Which of a badge's wordings, `widths` px wide (longest first), is
/// written, and where its text ends (x of its right edge), its plate
/// reaching `pad` beyond the text on each side: the longest that fits
/// before the row, right-aligned there; else, once `past`, the longest
/// that fits on the row's free lane, just after the server's name; else
/// none. On a phone a past badge ("7/10 then", "13 then") seldom fitted
/// between the clients and the rows (chapter 5 wrote one in 59 of 332
/// frames, chapter 6 none of 774 past copies), where the lane left of a
/// short queue lay empty. Only a past badge goes on the lane: outlined
/// and ending "then", it does not read as the row's own count, which a
/// present "3" beside the queue's "3" would.
pub fn badge_spot(widths: &[f64], room: BadgeRoom, past: bool, pad: f64) -> Option<(usize, f64)> {
    // Between the plate and what takes the lane (the lane's entrance
    // already stands clear of the server's name).
    const LANE_GAP: f64 = 3.0;
    let (floor, right) = room.before;
    let before = widths.iter().position(|width| right - width - pad >= floor).map(|i| (i, right));
    let on_lane = || {
        let (from, to) = room.lane.filter(|_| past)?;
        let text_from = from + pad;
        let i = widths.iter().position(|width| text_from + width + pad + LANE_GAP <= to)?;
        Some((i, text_from + widths[i]))
    };
    before.or_else(on_lane)
}

/// Whether `decision`'s badges are past: what it saw of a live reading
/// is no longer what the rows write (`servers`), or a learned copy no
/// longer what the column of the chooser's `copies` writes. A measure with
/// nothing on screen to match is never past.
pub fn badges_past(decision: &Decision, (servers, copies): (&[ServerView], &[LearnedLoad])) -> bool {
    match decision.measure {
        Measure::Load => rows_moved(decision, servers),
        Measure::Reported => copies_moved(decision, copies),
        _ => false,
    }
}

/// A seen load as its row writes it, and shorter where there is one:
/// "8/10" (slots in use, no queue), "10/10" and "full" (on a phone, past a
/// bounce's mark at the row's entrance, "10/10" found no room and the
/// badge was dropped), or "3 queued" and "3" (its queue, the slots full);
/// a learned copy as its column writes it ("13"); a measure with no row
/// to match, its amount alone.
fn in_row_terms(seen: f64, slots: u32, decision: &Decision) -> (String, Option<String>) {
    let rowed = decision.measure == Measure::Load && slots > 0;
    let load = seen.round().max(0.0) as u32;
    match rowed {
        false => (amount(seen, decision), None),
        true if load < slots => (format!("{load}/{slots}"), None),
        true if load == slots => (format!("{load}/{slots}"), Some("full".to_string())),
        true => (format!("{} queued", load - slots), Some((load - slots).to_string())),
    }
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

/// Whether the column of a client's `copies` no longer writes what
/// `decision` compared: a candidate's copy is neither what it saw nor, for
/// the server taken, one more (the request it sent). No column, nothing
/// to disagree with.
pub fn copies_moved(decision: &Decision, copies: &[LearnedLoad]) -> bool {
    let written = |server: u32| copies.iter().find(|copy| copy.server == server).map(|c| c.busy + c.queued);
    !copies.is_empty()
        && decision.candidates.iter().any(|c| {
            let seen = c.seen.round().max(0.0) as u32;
            let sent = u32::from(c.server == decision.winner);
            written(c.server).is_none_or(|now| now != seen && now != seen + sent)
        })
}

/// The decision to show among `latest` (oldest first), none older than
/// the one shown (made at `shown_ms`), and, where the picture writes one
/// client's copies of the servers' loads (`copies_of`), only that client's,
/// so that what its badges say it saw is what the column beside the rows
/// says it heard (chapter 6 drew another client's "saw 15" beside client
/// 5's copies 13 and 8): the newest whose rows are still as it met them,
/// so that it is drawn beside rows that agree with it; else the newest,
/// told in words only. Never an older one than is shown: a step forward
/// once brought back a decision 5 ms older, whose rows happened to agree
/// again.
pub fn decision_to_show<'a>(
    latest: &'a [Decision],
    servers: &[ServerView],
    (shown_ms, copies_of): (Option<f64>, Option<u32>),
) -> Option<&'a Decision> {
    // Every decision younger than the one shown: the run started over (a
    // control, Reset), and the one shown is the last run's, which stayed
    // ("At 50.36 s client 14 compared…" 7 s into the new run, reader 16).
    let restarted = latest.last().zip(shown_ms).is_some_and(|(newest, shown)| newest.time_ms < shown);
    let shown_ms = shown_ms.filter(|_| !restarted);
    let not_older = |d: &&Decision| shown_ms.is_none_or(|shown| d.time_ms >= shown);
    let whose = |d: &&Decision| copies_of.is_none_or(|client| !d.by_balancer && d.chooser == client);
    let mut shown = latest.iter().rev().filter(not_older).filter(whose);
    shown.clone().find(|d| !rows_moved(d, servers)).or_else(|| shown.next())
}

/// What `decision` saw of each of its candidates, in the words its
/// badges use beside the rows of `servers`: "saw 3 queued and 8/10", for
/// its sentence, whose "11 and 13 requests there" was a third notation
/// beside the badges' "saw 3 queued" (reader 15).
pub fn seen_words(decision: &Decision, servers: &[ServerView]) -> String {
    let slots = |server: u32| servers.get(server as usize).map_or(0, |s| s.slots);
    let each = decision.candidates.iter().map(|c| in_row_terms(c.seen, slots(c.server), decision).0);
    format!("saw {}", crate::format::and_list(each))
}
