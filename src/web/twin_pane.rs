//! Compare mode's second half: the versus twin drawn beside the view's own
//! simulation, with its own readouts and topology, at the same simulated
//! time. The lab shows it whenever its link names a twin (`versus`); the
//! explainer's sections keep their twins unseen.

use super::canvases::Canvases;
use super::dom::{self, Ids};
use super::readouts::Readouts;
use super::surface::Surface;
use lbsim::{Simulation, Snapshot};
use wasm_bindgen::JsValue;
use web_sys::{Element, HtmlCanvasElement, HtmlElement, HtmlInputElement};

pub struct TwinPane {
    readouts: Readouts,
    topology: Surface,
    snapshot: Snapshot,
}

impl TwinPane {
    /// Builds the pane at the end of `parent`, titled with what B changes.
    pub fn build(parent: &Element, ids: &Ids, label: &str) -> Result<TwinPane, JsValue> {
        let pane: Element = dom::child(parent, "div", "pane pane-b")?;
        dom::text_child(&pane, "h2", "pane-title", &format!("B: {label}"))?;
        let ids = ids.nested("versus");
        let readouts = Readouts::build(&pane, &ids)?;
        let canvas: HtmlCanvasElement = dom::child(&pane, "canvas", "topology")?;
        let description = format!("The same clients and servers with {label}, at the same simulated time");
        dom::set_attributes(
            &canvas,
            &[("id", &ids.of("topology")), ("role", "img"), ("aria-label", &description)],
        )?;
        Ok(TwinPane { readouts, topology: Surface::new(canvas)?, snapshot: Snapshot::default() })
    }

    /// Draws the twin as it is now, in the view's colours.
    pub fn draw(
        &mut self,
        twin: &Simulation,
        canvases: &Canvases,
        max_requests: usize,
        now_ms: f64,
        speed: Option<f64>,
        force: bool,
    ) {
        twin.snapshot_into(&mut self.snapshot, max_requests);
        self.topology.fit();
        canvases.draw_topology_on(&self.snapshot, &self.topology);
        self.readouts.show(&self.snapshot, (speed, None), now_ms, force);
    }
}

/// The lab's form for compare mode: which settings B changes.
pub struct CompareForm {
    pub input: HtmlInputElement,
    pub button: HtmlElement,
}

impl CompareForm {
    /// Builds the form at the end of `panel`, showing `versus` (the
    /// settings B changes now, as the link writes them).
    pub fn build(panel: &Element, ids: &Ids, versus: &str) -> Result<CompareForm, JsValue> {
        let group: Element = dom::child(panel, "fieldset", "group compare")?;
        dom::text_child(&group, "legend", "", "Compare")?;
        let row: HtmlElement = dom::child(&group, "div", "control")?;
        let id = ids.of("versus");
        let label = dom::text_child(&row, "label", "", "B differs from A in")?;
        label.set_attribute("for", &id)?;
        let line: HtmlElement = dom::child(&row, "div", "seed-line")?;
        let input: HtmlInputElement = dom::child(&line, "input", "")?;
        let help_id = ids.of("versus-help");
        dom::set_attributes(
            &input,
            &[
                ("id", &id),
                ("type", "text"),
                // The lab starts on random: the example compares it with
                // something else.
                ("placeholder", "policy:power-of-d"),
                ("aria-describedby", &help_id),
            ],
        )?;
        input.set_value(versus);
        let button = dom::text_child(&line, "button", "quiet", "Compare")?;
        dom::set_attributes(&button, &[("id", &ids.of("compare")), ("type", "button")])?;
        let help = dom::text_child(
            &row,
            "p",
            "help",
            "settings as key:value, separated by ; (policy:power-of-d;load:0.95); B runs beside A on the same seed, \
             seeing the same arrivals; empty stops comparing",
        )?;
        help.set_id(&help_id);
        Ok(CompareForm { input, button })
    }
}
