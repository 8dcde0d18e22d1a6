//! Which decision of a comparing policy the topology shows, and the
//! sentence under it that reads it out. The engine keeps its latest
//! decisions; at normal speed there are thousands a second, so one is shown
//! at a time and its sentence held long enough to read before the newest
//! replaces it, its lines and badges on the picture fading meanwhile.
//! Paused, a step shows the decision it made at once.

use super::dom::{self, Ids};
use lbsim::engine::{Decision, ServerView};
use lbsim::format::and_list;
use lbsim::policy::Measure;
use lbsim::ui::marks::{amount, decision_ink, decision_to_show, rows_moved, seen_words};
use wasm_bindgen::JsValue;
use web_sys::{Element, HtmlElement};

/// How long a decision stays on screen while the simulation runs.
const HOLD_MS: f64 = 1_600.0;

pub struct DecisionCaption {
    caption: HtmlElement,
    shown: Option<Decision>,
    since_ms: f64,
    /// Where the ring round the winner was last drawn (x, y, w, h), for tests.
    pub winner_ring: Option<[f64; 4]>,
    /// How strongly its lines, rings and badges were last drawn, for
    /// tests.
    pub ink_drawn: f64,
}

impl DecisionCaption {
    pub fn build(parent: &Element, ids: &Ids) -> Result<DecisionCaption, JsValue> {
        let caption: HtmlElement = dom::child(parent, "p", "decision")?;
        caption.set_id(&ids.of("decision"));
        caption.set_hidden(true);
        Ok(DecisionCaption { caption, shown: None, since_ms: 0.0, winner_ring: None, ink_drawn: 0.0 })
    }

    /// Takes a new one of `latest` (the snapshot's decisions, beside the
    /// rows of `servers`) when the one shown has been read, or at once when
    /// paused: the newest whose rows still agree with it, of the client
    /// whose copies the picture writes if it writes some (`copies_of`; see
    /// [`decision_to_show`]). None of that client's among the latest, the
    /// one shown stays.
    pub fn update(
        &mut self,
        (latest, servers): (&[Decision], &[ServerView]),
        copies_of: Option<u32>,
        now_ms: f64,
        playing: bool,
    ) {
        let shown_ms = self.shown.as_ref().map(|d| d.time_ms);
        let Some(newest) = decision_to_show(latest, servers, (shown_ms, copies_of)) else {
            if latest.is_empty() && self.shown.take().is_some() {
                self.caption.set_hidden(true);
                self.winner_ring = None;
            }
            return;
        };
        let read = self.shown.is_none() || !playing || now_ms - self.since_ms >= HOLD_MS;
        if read && self.shown.as_ref() != Some(newest) {
            self.caption.set_text_content(Some(&sentence(newest, servers)));
            self.caption.set_hidden(false);
            self.shown = Some(newest.clone());
            self.since_ms = now_ms;
        }
    }

    pub fn shown(&self) -> Option<&Decision> {
        self.shown.as_ref()
    }

    /// How strongly the shown decision's lines, rings and badges are drawn at
    /// `now_ms`, beside `servers` as they are now.
    pub fn ink(&self, now_ms: f64, playing: bool, servers: &[ServerView]) -> f64 {
        let Some(shown) = &self.shown else { return 0.0 };
        decision_ink(now_ms - self.since_ms, playing, rows_moved(shown, servers))
    }

    pub fn text(&self) -> String {
        self.caption.text_content().unwrap_or_default()
    }
}

/// "At 12.34 s client 7 compared servers 12 and 40 (saw 3 queued and
/// 9/10) and sent to server 40.", what it saw in the words of its badges
/// beside `rows`.
fn sentence(decision: &Decision, rows: &[ServerView]) -> String {
    let chooser = match decision.by_balancer {
        true => format!("balancer {}", decision.chooser),
        false => format!("client {}", decision.chooser),
    };
    let servers = and_list(decision.candidates.iter().map(|c| c.server.to_string()));
    let seen = and_list(decision.candidates.iter().map(|c| amount(c.seen, decision)));
    let really = and_list(decision.candidates.iter().map(|c| c.load.to_string()));
    let honest = decision.candidates.iter().all(|c| c.seen == f64::from(c.load));
    let what = match decision.measure {
        Measure::Load if honest => seen_words(decision, rows),
        Measure::Load => format!("the board says {seen}; really {really}"),
        Measure::Reported => format!("last reported {seen}; really {really}"),
        Measure::InFlight => format!("its own requests in flight: {seen}"),
        Measure::Work => format!("its own work in flight: {seen}"),
        Measure::Cost => format!("peak-EWMA cost {seen}"),
        Measure::Key => format!("{seen} requests there"),
    };
    let when = format!("At {:.2} s", decision.time_ms / 1000.0);
    let after = if decision.after_bounce { ", after a bounce," } else { "" };
    if let (Some(key), Measure::Key) = (decision.key, decision.measure) {
        return match decision.candidates.as_slice() {
            [home, taken] => format!(
                "{when}{after} {chooser} found key {key}'s place, server {}, over the bound on load ({:.0} requests there) and sent it on to server {} ({:.0}).",
                home.server, home.seen, taken.server, taken.seen
            ),
            _ => format!("{when}{after} {chooser} sent key {key} to its place, server {} ({seen} requests there).", decision.winner),
        };
    }
    match decision.fell_back {
        true => format!(
            "{when}{after} {chooser} drew servers {servers}, found its counters too stale to trust and sent to server {} at random.",
            decision.winner
        ),
        false => format!("{when}{after} {chooser} compared servers {servers} ({what}) and sent to server {}.", decision.winner),
    }
}
