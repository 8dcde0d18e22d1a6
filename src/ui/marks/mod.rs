//! How the topology marks what it shows, where a rule decides what a
//! reader can read off the picture: here a queue's length, where a
//! server's state is written beside it and each server's share of the
//! answers where one errs (of the requests sent lately where one is
//! slowed); how long a decision's lines and badges stay beside the
//! servers they describe in `decision.rs`; what a client heard of each
//! server's load, and where its mark stands, in `heard.rs`; where a
//! followed client's request stands in its row, in `followed.rs`; how
//! finely every row draws its queue once one outgrows its lane, in
//! `queue_pitch.rs`.

use crate::engine::ServerView;
use crate::metrics::{SAMPLE_INTERVAL, SENT_WINDOW};

mod decision;
mod followed;
mod heard;
mod queue_pitch;
pub use decision::*;
pub use followed::*;
pub use heard::*;
pub use queue_pitch::*;

/// How a server's queue is drawn in its lane, in every chapter and the
/// lab: a cell a request, as far as the lane goes (cells narrower on
/// every row once a queue outgrows its lane, see [`shared_queue_pitch`]).
/// Drawn as cells up to
/// three, then a bar scaled to the longest queue beside it, chapters 2 to
/// 5 drew queues of 17 and 51 four and six cells long (reader 16), while
/// chapter 6 drew them to length; the reader learned only there that the
/// pictures before had hidden how long queues were.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum QueueMark {
    /// One cell a request: the whole queue fits its lane.
    Cells(usize),
    /// Cells filling the lane, cut at its start with a mark saying the
    /// queue runs on (the key says so; its count is written beside it).
    RunsOff(usize),
}

impl QueueMark {
    /// How many cells long the mark is.
    pub fn cells(&self) -> f64 {
        match *self {
            QueueMark::Cells(cells) | QueueMark::RunsOff(cells) => cells as f64,
        }
    }
}

/// How long a bar counting `count` is drawn on a lane `lane_px` long,
/// when the largest count beside it is `most`: in proportion, on one
/// scale from zero, the largest filling the lane. A server's total of
/// completed requests once chapter 2's spike is over; drawn as a queue's
/// mark (three cells counting one each, then a bar), 140 and 270 were
/// drawn 1.5× apart where one is 1.9× the other.
pub fn bar_to_scale(count: u64, most: u64, lane_px: f64) -> f64 {
    match most {
        0 => 0.0,
        most => lane_px * count.min(most) as f64 / most as f64,
    }
}

/// The mark of a queue of `queued` requests on a lane of `cells` cells:
/// a cell a request, as far as the lane goes.
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

/// The headings of [`sent_shares`]' column, longest first (the picture
/// writes the longest that fits beside the servers' name): what it
/// counts, requests, over how long. Chapter 3 says random chooses the
/// slowed server for a tenth of the new sessions, and a reader set that
/// tenth against the column's 4% under "% sent" (reader 13): its sessions
/// send it fewer requests.
pub fn sent_titles() -> Vec<String> {
    let secs = SAMPLE_INTERVAL.as_secs() * SENT_WINDOW as f64;
    vec![format!("% of requests, last {secs:.0} s"), "% of requests".to_string(), "% sent".to_string()]
}

#[cfg(test)]
mod tests;
