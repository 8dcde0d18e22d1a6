//! The load chart: requests in service and queued at each server right
//! now, busiest first, on a scale that never shrinks below the most any
//! server has held since the start; its caption gives the imbalance.

use super::{canvas, legend, Area, Figure, Frame, Place};
use crate::dom;
use lbsim::charts::{self, Drawn};
use wasm_bindgen::JsValue;
use web_sys::{HtmlCanvasElement, HtmlElement};

pub struct Load {
    canvas: HtmlCanvasElement,
    /// The caption's live imbalance figure.
    spread: HtmlElement,
    /// Each server's (busy, queued), busiest first: reused each drawing.
    loads: Vec<(u32, u32)>,
    /// The most requests any server has held since the start.
    peak: u32,
}

pub fn build(place: &Place) -> Result<Box<dyn Figure>, JsValue> {
    let figure = place.figure;
    let caption: HtmlElement = dom::child(figure, "figcaption", "")?;
    dom::text_child(&caption, "span", "chart-title", "Load across servers right now")?;
    let spread = dom::text_child(&caption, "span", "spread", "")?;
    spread.set_id(&place.ids.of("load-cv"));
    legend(
        figure,
        &[
            ("", "var(--c-busy)", "in service"),
            ("", "var(--c-queued)", "queued"),
            ("line dashed", "var(--muted)", "slots per server"),
        ],
    )?;
    let label = "Requests in service and queued at each server, busiest first";
    let canvas = canvas(figure, "", &place.canvas_id, label)?;
    Ok(Box::new(Load { canvas, spread, loads: Vec::new(), peak: 0 }))
}

impl Figure for Load {
    fn canvas(&self) -> &HtmlCanvasElement {
        &self.canvas
    }

    fn min_size(&self) -> (f64, f64) {
        (200.0, 100.0)
    }

    fn draw(&mut self, area: &Area, frame: &Frame) -> Drawn {
        let servers = &frame.snapshot.servers;
        charts::busiest_first(servers, &mut self.loads);
        let slots = servers.first().map_or(0, |s| s.slots);
        if let Some(latest) = frame.snapshot.latest {
            let text = format!("imbalance: CoV of work across servers {:.2}", latest.load_cv);
            self.spread.set_text_content(Some(&text));
        }
        let highest = self.loads.first().map_or(0, |(busy, queued)| busy + queued);
        self.peak = self.peak.max(highest);
        charts::load(area, &self.loads, slots, self.peak, frame.style)
    }

    fn restarted(&mut self) {
        self.peak = 0;
    }
}
