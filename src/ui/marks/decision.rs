//! How long a decision's lines and badges stay beside the servers they
//! describe, and what the badges say.

use crate::engine::{Decision, ServerView};
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
