//! The "where keys live" figure: shown only while the policy places
//! requests by key. Its caption gives the spread of the servers' key
//! shares; the picture is `lbsim::charts::keys`, fed from the running
//! simulation's placement and the key of the decision the topology shows.

use super::dom;
use lbsim::charts::{self, ChartStyle, KeyPicture};
use lbsim::engine::Decision;
use lbsim::keys::{hash, spread};
use lbsim::Simulation;
use plotters::coord::Shift;
use plotters::prelude::*;
use wasm_bindgen::JsValue;
use web_sys::HtmlElement;

pub struct KeysFigure {
    figure: HtmlElement,
    spread: HtmlElement,
    /// The key of the decision the topology shows, and the server that
    /// took it, so that the ring tells the same story.
    landed: Option<(u64, u32)>,
}

impl KeysFigure {
    /// Fills `figure` with its caption and legend; the canvas is the caller's.
    pub fn build(figure: &HtmlElement, id: &str) -> Result<KeysFigure, JsValue> {
        let caption: HtmlElement = dom::child(figure, "figcaption", "")?;
        dom::text_child(&caption, "span", "chart-title", "Where keys live")?;
        let spread = dom::text_child(&caption, "span", "spread", "")?;
        spread.set_id(&format!("{id}-spread"));
        let legend: HtmlElement = dom::child(figure, "p", "figure-note")?;
        legend.set_text_content(Some(
            "Bars: each server's share of the key space (1 = a fair share). On a ring: a tick per virtual node; \
             in bold, the arcs of the server that took the latest key, and that key walking clockwise to it.",
        ));
        Ok(KeysFigure { figure: figure.clone(), spread, landed: None })
    }

    /// Shows the figure only while `sim`'s policy places by key.
    pub fn show_for(&self, sim: &Simulation) {
        self.figure.set_hidden(sim.key_placement().is_none());
    }

    /// Takes the key of the decision the topology shows, if it placed one.
    pub fn show_decision(&mut self, decision: Option<&Decision>) {
        self.landed = decision.and_then(|d| d.key.map(|key| (hash::key(key), d.winner)));
    }

    pub fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        sim: &Simulation,
        style: &ChartStyle,
    ) -> charts::Drawn
    where
        DB::ErrorType: 'static,
    {
        let (Some(placement), Some(counts)) = (sim.key_placement(), sim.key_counts()) else { return Ok(()) };
        let (cv, max) = spread(counts);
        let text = format!("over {} servers: sd/mean {cv:.2}, max/mean {max:.2}", counts.len());
        self.spread.set_text_content(Some(&text));
        let picture = KeyPicture { ring: placement.ring_points(), counts, landed: self.landed };
        charts::keys(area, &picture, style)
    }
}
