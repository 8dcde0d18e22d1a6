//! The client-experience chart: session time by percentile of sessions, p0
//! (the fastest client) to p100, of the sessions started since the last
//! live change, beside a reference: the curve pinned as a baseline (the
//! first change of settings pins the one before it), or in compare mode B's.

use super::{canvas, legend, Area, Figure, Frame, Input, Place};
use crate::dom;
use crate::spike;
use crate::twins::Sides;
use lbsim::charts::{self, Drawn};
use lbsim::format::{grouped, thousands};
use lbsim::metrics::percentile_curve;
use lbsim::scenario::Demand;
use lbsim::ui::options::Kind;
use lbsim::Simulation;
use wasm_bindgen::JsValue;
use web_sys::{HtmlCanvasElement, HtmlElement};

/// Session time by percentile of the sessions started since the engine's
/// last mark (the start, or the last live change); empty until there are
/// enough of them to mean something, or a spike has no more to give. A
/// spike that runs draws as far as its sessions have ended (see
/// `lbsim::ui::spike::partial_curve`).
fn current_curve(sim: &Simulation) -> Vec<f64> {
    let sessions = &sim.metrics().sessions_since_mark.1;
    if running_spike(sim) {
        let total = u64::from(sim.scenario().clients);
        return spike::partial_curve(&percentile_curve(sessions), sessions.count(), total);
    }
    match spike::curve_drawn(sessions.count(), spike::is_over(sim)) {
        true => percentile_curve(sessions),
        false => Vec::new(),
    }
}

/// Whether `sim` is a spike still running.
fn running_spike(sim: &Simulation) -> bool {
    sim.scenario().demand == Demand::Spike && !spike::is_over(sim)
}

pub struct Clients {
    canvas: HtmlCanvasElement,
    /// The legend's text for the current curve.
    current: HtmlElement,
    /// The legend's entry for the reference curve, and its text.
    reference_entry: HtmlElement,
    reference_label: HtmlElement,
    pin: HtmlElement,
    /// The baseline: the curve from before the first change, or pinned.
    reference: Vec<f64>,
    /// When a setting last changed live (simulated seconds): the current
    /// curve counts only sessions started since (the engine's mark).
    changed_at: Option<f64>,
    /// In compare mode, B's name: its curve is the reference.
    versus: Option<String>,
}

pub fn build(place: &Place) -> Result<Box<dyn Figure>, JsValue> {
    let (figure, ids) = (place.figure, place.ids);
    dom::text_child(figure, "figcaption", "plain", "Client experience: session time by percentile")?;
    let mut entries = legend(
        figure,
        &[("line", "var(--c-request)", "since the start"), ("line dashed", "var(--muted)", "")],
    )?;
    let (reference_entry, reference_label) = entries.pop().ok_or("no legend")?;
    let (_, current) = entries.pop().ok_or("no legend")?;
    reference_entry.set_hidden(true);
    current.set_id(&ids.of("current-label"));
    reference_entry.set_id(&ids.of("reference-legend"));
    reference_label.set_id(&ids.of("reference-label"));
    let pin = dom::text_child(figure, "button", "quiet pin", "Pin this curve as the baseline")?;
    dom::set_attributes(&pin, &[("id", &ids.of("pin-baseline")), ("type", "button")])?;
    let label = "Session time from the fastest to the slowest client";
    let canvas = canvas(figure, "", &place.canvas_id, label)?;
    Ok(Box::new(Clients {
        canvas,
        current,
        reference_entry,
        reference_label,
        pin,
        reference: Vec::new(),
        changed_at: None,
        versus: None,
    }))
}

impl Clients {
    /// Says what the current curve counts, and whether it has enough yet.
    fn label_current(&self, sim: &Simulation) {
        let count = sim.metrics().sessions_since_mark.1.count();
        let since = match self.changed_at {
            Some(at) => format!("started since the change at {} s", grouped(at, 1)),
            None => "since the start".to_string(),
        };
        // A running spike's curve is drawn as far as it goes, not pinned.
        let drawn = spike::curve_drawn(count, spike::is_over(sim)) && !running_spike(sim);
        let text = match (drawn, running_spike(sim) && count > 0) {
            (true, _) => format!("A: sessions {since}"),
            (false, true) => format!(
                "the quickest {} of {} sessions, ended so far",
                thousands(count),
                thousands(u64::from(sim.scenario().clients))
            ),
            (false, false) => format!("collecting… {} sessions {since}", thousands(count)),
        };
        let text = if self.versus.is_some() { text } else { text.replacen("A: ", "", 1) };
        self.current.set_text_content(Some(&text));
        // Nothing to pin until the curve is drawn.
        let _ = match drawn {
            true => self.pin.remove_attribute("disabled"),
            false => self.pin.set_attribute("disabled", ""),
        };
    }
}

impl Figure for Clients {
    fn canvas(&self) -> &HtmlCanvasElement {
        &self.canvas
    }

    fn min_size(&self) -> (f64, f64) {
        (240.0, 120.0)
    }

    fn draw(&mut self, area: &Area, frame: &Frame) -> Drawn {
        self.label_current(frame.sim);
        let current = current_curve(frame.sim);
        let twin_curve = frame.twin.filter(|_| self.versus.is_some()).map(current_curve);
        let reference = match &twin_curve {
            Some(curve) => Some(curve.as_slice()),
            None => Some(self.reference.as_slice()),
        };
        charts::clients(area, &current, reference.filter(|r| !r.is_empty()), frame.style)
    }

    /// The first change pins the curve so far as the baseline (it stays
    /// until another is pinned); after a live change the current curve
    /// waits for sessions started after it.
    fn settings_changing(&mut self, sim: &Simulation, before: &str, _after: &str, live: bool) {
        if self.reference.is_empty() {
            self.pin(sim, &format!("before, with {before}"));
        }
        if live {
            self.changed_at = Some(sim.now().as_secs());
        }
    }

    fn pin(&mut self, sim: &Simulation, words: &str) {
        let curve = current_curve(sim);
        // A running spike's curve is its quickest sessions only.
        if curve.is_empty() || running_spike(sim) {
            return;
        }
        self.reference = curve;
        self.reference_label.set_text_content(Some(words));
        self.reference_entry.set_hidden(false);
    }

    fn restarted(&mut self) {
        self.changed_at = None;
    }

    fn compare_with(&mut self, sides: &Sides, _kind: Kind) {
        self.versus = Some(sides.twin.clone());
        self.reference_label.set_text_content(Some(&format!("B: {}", sides.twin)));
        self.reference_entry.set_hidden(false);
        self.pin.set_hidden(true);
    }

    fn inputs(&self) -> Vec<(HtmlElement, Input)> {
        vec![(self.pin.clone(), Input::PinBaseline)]
    }
}
