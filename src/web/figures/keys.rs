//! The "where keys live" figure: shown only while the policy places
//! requests by key. Its caption gives the spread of the servers' key
//! shares; the picture is `lbsim::charts::keys`, fed from the running
//! simulation's placement and the key of the decision the topology shows.

use super::{canvas, Area, Figure, Frame, Place};
use crate::dom;
use lbsim::charts::{self, Drawn, KeyPicture};
use lbsim::keys::{hash, spread};
use lbsim::Simulation;
use wasm_bindgen::JsValue;
use web_sys::{HtmlCanvasElement, HtmlElement};

pub struct Keys {
    figure: HtmlElement,
    canvas: HtmlCanvasElement,
    spread: HtmlElement,
}

pub fn build(place: &Place) -> Result<Box<dyn Figure>, JsValue> {
    let figure = place.figure;
    let caption: HtmlElement = dom::child(figure, "figcaption", "")?;
    dom::text_child(&caption, "span", "chart-title", "Where keys live")?;
    let spread = dom::text_child(&caption, "span", "spread", "")?;
    spread.set_id(&format!("{}-spread", place.canvas_id));
    let legend: HtmlElement = dom::child(figure, "p", "figure-note")?;
    let note =
        "Bars: each server's share of the key space (1 = a fair share). On a ring: a tick per virtual node; \
         in bold, the arcs of the server that took the latest key, and that key walking clockwise to it. \
         Where the ring has no room beside the bars, it is drawn alone.";
    legend.set_text_content(Some(note));
    let label = format!("Each server's share of the key space, and the hash ring. {note}");
    let canvas = canvas(figure, "", &place.canvas_id, &label)?;
    Ok(Box::new(Keys { figure: figure.clone(), canvas, spread }))
}

impl Figure for Keys {
    fn canvas(&self) -> &HtmlCanvasElement {
        &self.canvas
    }

    fn min_size(&self) -> (f64, f64) {
        (240.0, 160.0)
    }

    fn draw(&mut self, area: &Area, frame: &Frame) -> Drawn {
        let sim = frame.sim;
        let (Some(placement), Some(counts)) = (sim.key_placement(), sim.key_counts()) else { return Ok(()) };
        let (cv, max) = spread(counts);
        let text = format!("over {} servers: sd/mean {cv:.2}, max/mean {max:.2}", counts.len());
        self.spread.set_text_content(Some(&text));
        // The key of the decision the topology shows, and the server that
        // took it, so that the ring tells the same story.
        let landed = frame.decision.and_then(|d| d.key.map(|key| (hash::key(key), d.winner)));
        let picture = KeyPicture { ring: placement.ring_points(), counts, landed };
        charts::keys(area, &picture, frame.style)
    }

    /// Shows the figure only while `sim`'s policy places by key.
    fn show_for(&mut self, sim: &Simulation) {
        self.figure.set_hidden(sim.key_placement().is_none());
    }
}
