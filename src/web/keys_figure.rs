//! The "where keys live" figure: shown only while the policy places
//! requests by key. Its caption gives the spread of the servers' key
//! shares; the picture is `lbsim::charts::keys`, fed from the running
//! simulation's placement and the latest key the engine says it placed.

use super::dom;
use lbsim::charts::{self, ChartStyle, KeyPicture};
use lbsim::keys::{hash, key_counts, spread};
use lbsim::{Simulation, Snapshot};
use plotters::coord::Shift;
use plotters::prelude::*;
use wasm_bindgen::JsValue;
use web_sys::HtmlElement;

/// Keys counted for the shares: the whole space up to this many.
const SAMPLE_KEYS: u64 = 20_000;

pub struct KeysFigure {
    figure: HtmlElement,
    spread: HtmlElement,
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
        Ok(KeysFigure { figure: figure.clone(), spread })
    }

    /// Shows the figure only while `sim`'s policy places by key.
    pub fn show_for(&self, sim: &Simulation) {
        self.figure.set_hidden(sim.key_placement().is_none());
    }

    pub fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        (sim, snapshot): (&Simulation, &Snapshot),
        style: &ChartStyle,
    ) -> charts::Drawn
    where
        DB::ErrorType: 'static,
    {
        let Some(placement) = sim.key_placement() else { return Ok(()) };
        let keys = u64::from(sim.scenario().key_space).min(SAMPLE_KEYS);
        let counts = key_counts(placement, keys);
        let (cv, max) = spread(&counts);
        let text = format!("over {} servers: sd/mean {cv:.2}, max/mean {max:.2}", counts.len());
        self.spread.set_text_content(Some(&text));
        let landed =
            snapshot.decisions.iter().rev().find_map(|d| d.key.map(|key| (hash::key(key), d.winner)));
        let picture = KeyPicture { ring: placement.ring_points(), counts: &counts, landed };
        charts::keys(area, &picture, style)
    }
}
