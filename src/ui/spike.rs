//! A spike (`demand=spike`) is over in seconds: every client starts one
//! session at once and none after. Once they have all ended nothing more
//! will happen, so the view stops on its final picture and its charts
//! must show that picture, drawn from every session there was, however
//! few.
//!
//! Started once half its picture is in sight below the chapter's heading
//! (see `pace`), chapter 2's spike ran while a reader was still reading
//! the three paragraphs above it, and was over before they looked: a
//! spike that ran without its whole picture in sight plays once more when
//! it comes wholly in sight ([`Seen`]).
//!
//! Opened by its link, with its heading at the window's top and half its
//! picture in sight, the spike ran at once and was over within the 4 s the
//! reader spent on the text above it (reader 12). An explainer's spike now
//! holds at its start until its whole picture has been in sight for a
//! second ([`Start`]), so a reader who lands on the chapter, or scrolls
//! to it, meets it from its first moment.

use crate::scenario::Demand;
use crate::Simulation;

/// Sessions a session-time curve waits for before it is drawn, while more
/// may come: fewer would draw noise.
pub const MIN_CURVE_SESSIONS: u64 = 100;

/// Whether `sim` is a spike whose sessions have all ended.
pub fn is_over(sim: &Simulation) -> bool {
    let books = sim.books();
    sim.scenario().demand == Demand::Spike && books.created > 0 && books.in_flight == 0
}

/// Whether a curve of `sessions` ended sessions is drawn: once there are
/// enough, or once a spike is `over` and they are all there will be (a
/// spike of fifty clients has fifty sessions, never a hundred, and waiting
/// for more left its chart blank under "collecting… 50 sessions").
pub fn curve_drawn(sessions: u64, over: bool) -> bool {
    sessions >= MIN_CURVE_SESSIONS || (over && sessions > 0)
}

/// A running spike's session curve, from p0 as far as its sessions have
/// ended: `ended_curve` is p0 to p100 of the `ended` sessions, of `total`
/// the spike has. Its sessions all started at one instant, so those ended
/// are its quickest, and the curve of all of them is known as far as the
/// share ended (57 of 200 ended: p0 to p28). Waiting for a hundred, the
/// chart sat at "collecting…" through the whole spike of chapter 2.
pub fn partial_curve(ended_curve: &[f64], ended: u64, total: u64) -> Vec<f64> {
    if ended == 0 || ended_curve.len() != 101 {
        return Vec::new();
    }
    let total = total.max(ended) as f64;
    let reach = (100.0 * ended as f64 / total).floor() as usize;
    (0..=reach).map(|p| ended_curve[((p as f64 * total / ended as f64).round() as usize).min(100)]).collect()
}

/// How much of a spike's run (simulated time) its whole picture must have
/// been in sight for its reader to have seen it run: half.
const SEEN_SHARE: f64 = 0.5;

/// Whether a spike's reader can have seen it run: its whole picture in
/// sight for [`SEEN_SHARE`] of its run at least. A moment was enough
/// before, and reader 11's scroll (the chapter brought to the middle of
/// the window, then its heading to the top) passed the whole picture for
/// a frame on its way: the spike ran on half in sight, was over when
/// they scrolled to the picture, and did not play again.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Seen {
    /// Simulated ms at the last frame that ran, the run's ms so far, and
    /// those run with the whole picture in sight.
    last_ms: f64,
    run_ms: f64,
    whole_ms: f64,
    held: bool,
}

impl Seen {
    /// A frame of the spike running, at `now_ms` (simulated), its picture
    /// `whole`ly in sight or not (see `pace::wholly_in_sight`): the run
    /// since the last frame counts as in sight as this frame is.
    pub fn ran(&mut self, now_ms: f64, whole: bool) {
        let step = (now_ms - self.last_ms).max(0.0);
        self.last_ms = now_ms;
        self.run_ms += step;
        if whole {
            self.whole_ms += step;
        }
    }

    /// The reader paused or stepped it: it is in their hands.
    pub fn held(&mut self) {
        self.held = true;
    }

    /// Whether the spike, `over` or not, plays again now, its picture
    /// `whole`ly in sight or not: once over unseen, when the reader can
    /// see all of it.
    pub fn replay_due(self, over: bool, whole: bool) -> bool {
        over && whole && !self.held && self.whole_ms < SEEN_SHARE * self.run_ms
    }
}

/// How long (wall-clock ms) a spike's whole picture is in sight before
/// it starts: long enough for a reader who scrolled to it to look, not
/// a frame passed on the way.
pub const SETTLE_MS: f64 = 1_000.0;

/// Whether an explainer's spike may start: once its whole picture has
/// been in sight for [`SETTLE_MS`] together, or the reader played or
/// stepped it. Open, it stays open (a replay runs at once).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Start {
    /// Wall-clock ms since which the whole picture has been in sight.
    whole_since_ms: Option<f64>,
    open: bool,
}

impl Start {
    /// At wall-clock `now_ms`, its picture `whole`ly in sight or not:
    /// whether the spike may run.
    pub fn may_run(&mut self, now_ms: f64, whole: bool) -> bool {
        if !self.open {
            self.whole_since_ms = whole.then(|| self.whole_since_ms.unwrap_or(now_ms));
            self.open = self.whole_since_ms.is_some_and(|since| now_ms - since >= SETTLE_MS);
        }
        self.open
    }

    /// The reader played or stepped it: it runs as they ask.
    pub fn open(&mut self) {
        self.open = true;
    }

    /// Whether it waits, its whole picture in sight, for the second to
    /// pass: frames must keep coming, though nothing else moves.
    pub fn settling(&self) -> bool {
        !self.open && self.whole_since_ms.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Scenario;

    fn spike(clients: u32) -> Simulation {
        let mut scenario = Scenario::default();
        for (key, value) in [("demand", "spike"), ("clients", &clients.to_string()), ("duration_s", "60")] {
            scenario.set(key, value).unwrap();
        }
        Simulation::new(&scenario).unwrap()
    }

    #[test]
    fn a_spike_is_over_once_every_session_has_ended_and_steady_demand_never_is() {
        let mut sim = spike(50);
        assert!(!is_over(&sim), "before its sessions start");
        sim.advance_to(crate::Time::from_ms(10.0), u64::MAX);
        assert!(!is_over(&sim), "while its sessions run");
        sim.run();
        assert!(is_over(&sim));
        assert_eq!(sim.metrics().sessions_since_mark.1.count(), 50);
        let mut steady = Simulation::new(&Scenario::default()).unwrap();
        steady.advance_to(crate::Time::from_secs(2.0), u64::MAX);
        assert!(!is_over(&steady));
    }

    #[test]
    fn a_curve_waits_for_a_hundred_sessions_unless_a_spike_has_no_more_to_give() {
        assert!(!curve_drawn(99, false));
        assert!(curve_drawn(100, false));
        assert!(curve_drawn(50, true), "a spike of fifty clients is drawn once over");
        assert!(curve_drawn(99, true));
        assert!(!curve_drawn(0, true));
    }

    #[test]
    fn a_running_spikes_curve_reaches_as_far_as_its_sessions_have_ended() {
        let ended: Vec<f64> = (0..=100).map(|p| 100.0 + f64::from(p)).collect();
        let partial = partial_curve(&ended, 57, 200);
        assert_eq!(partial.len(), 29, "p0 to p28: 57 of 200");
        assert_eq!(partial[0], 100.0, "the quickest is the quickest of all");
        assert_eq!(*partial.last().unwrap(), 198.0, "p28 of all, the slowest ended so far nearly");
        assert!(partial.windows(2).all(|w| w[1] >= w[0]));
        assert_eq!(partial_curve(&ended, 200, 200), ended, "all ended: the whole curve");
        assert!(partial_curve(&ended, 0, 200).is_empty());
        assert!(partial_curve(&[], 3, 200).is_empty());
    }

    #[test]
    fn a_spike_over_before_its_whole_picture_was_in_sight_plays_again_once_it_is() {
        let mut seen = Seen::default();
        // Half its picture in sight: it runs, and is over.
        seen.ran(16.0, false);
        seen.ran(600.0, false);
        assert!(!seen.replay_due(false, false), "still running");
        assert!(!seen.replay_due(true, false), "over, and still half in sight");
        assert!(seen.replay_due(true, true), "over, and now all of it in sight");
        // Replayed (a new run, a new `Seen`) with all of it in sight: once.
        let mut replayed = Seen::default();
        replayed.ran(300.0, true);
        replayed.ran(600.0, false);
        assert!(!replayed.replay_due(true, true));
        // Paused or stepped by the reader: theirs to replay.
        let mut held = Seen::default();
        held.ran(600.0, false);
        held.held();
        assert!(!held.replay_due(true, true));
    }

    #[test]
    fn a_spike_starts_once_its_whole_picture_has_been_in_sight_for_a_second() {
        let mut start = Start::default();
        // Landed by its link: heading at the top, half the picture in sight.
        assert!(!start.may_run(0.0, false) && !start.settling());
        assert!(!start.may_run(4_000.0, false), "read the text above for 4 s: still at its start");
        // Reader 11's scroll passes the whole picture for a frame.
        assert!(!start.may_run(4_016.0, true) && start.settling());
        assert!(!start.may_run(4_032.0, false) && !start.settling(), "the second starts over");
        // Scrolled to it: a second later it runs, and keeps running.
        assert!(!start.may_run(6_000.0, true));
        assert!(!start.may_run(6_000.0 + SETTLE_MS - 1.0, true));
        assert!(start.may_run(6_000.0 + SETTLE_MS, true));
        assert!(start.may_run(9_000.0, false) && !start.settling(), "open, it stays open");
        // Played by the reader: at once.
        let mut played = Start::default();
        played.open();
        assert!(played.may_run(0.0, false));
    }

    #[test]
    fn a_whole_picture_passed_for_a_frame_on_the_way_is_not_a_spike_seen() {
        // Reader 11's scroll: whole for one frame (a sixtieth of a second
        // at a quarter of real time), then half in sight to the end.
        let mut seen = Seen::default();
        seen.ran(4.0, true);
        seen.ran(8.0, false);
        seen.ran(650.0, false);
        assert!(seen.replay_due(true, true));
        // Whole for most of it: seen.
        let mut most = Seen::default();
        most.ran(400.0, true);
        most.ran(650.0, false);
        assert!(!most.replay_due(true, true));
    }
}
