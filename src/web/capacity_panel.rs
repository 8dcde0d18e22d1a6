//! The lab's capacity panel: for each policy asked for, the highest offered
//! load at which the view's scenario meets a p99 objective, found by the
//! same search as `lbsim capacity` and run a slice per animation frame, with
//! a progress bar, then p99 against load for each policy drawn with the
//! objective and the capacities marked.

use super::canvases::Canvases;
use super::dom::{self, Ids};
use super::figures::Canvas;
use super::surface::Surface;
use lbsim::capacity::{Objective, Search, MOST_PROBES};
use lbsim::charts;
use lbsim::number;
use lbsim::scenario::PolicyKind;
use lbsim::Scenario;
use plotters::prelude::*;
use wasm_bindgen::JsValue;
use web_sys::{Element, HtmlCanvasElement, HtmlElement, HtmlInputElement};

/// Events a frame spends on the search (a few milliseconds' worth).
const EVENTS_PER_FRAME: u64 = 60_000;

pub struct CapacityPanel {
    slo: HtmlInputElement,
    policies: HtmlInputElement,
    pub button: HtmlElement,
    progress: HtmlElement,
    status: HtmlElement,
    chart: Surface,
    /// The searches under way (or done), and the objective they share.
    searches: Vec<Search>,
    objective: Objective,
}

impl CapacityPanel {
    /// Builds the panel, folded, at the end of `parent`.
    pub fn build(parent: &Element, ids: &Ids) -> Result<CapacityPanel, JsValue> {
        let figure: HtmlElement = dom::child(parent, "figure", "capacity")?;
        dom::text_child(
            &figure,
            "figcaption",
            "",
            "Effective capacity: the highest load that meets a p99 objective",
        )?;
        let row: HtmlElement = dom::child(&figure, "div", "capacity-form")?;
        let field = |label: &str, part: &str, value: &str, kind: &str| -> Result<HtmlInputElement, JsValue> {
            let input = dom::labelled_input(&row, "", label, (&ids.of(part), kind))?;
            input.set_value(value);
            Ok(input)
        };
        let slo = field("p99 queue time ≤ (ms)", "capacity-slo", "50", "number")?;
        dom::set_attributes(&slo, &[("min", "0.1"), ("step", "any")])?;
        let policies = field("policies", "capacity-policies", "random,round-robin,power-of-d", "text")?;
        let button = dom::text_child(&row, "button", "quiet", "Find capacity")?;
        dom::set_attributes(&button, &[("id", &ids.of("capacity-run")), ("type", "button")])?;
        let progress: HtmlElement = dom::child(&figure, "progress", "")?;
        dom::set_attributes(
            &progress,
            &[("id", &ids.of("capacity-progress")), ("max", "1"), ("value", "0")],
        )?;
        progress.set_attribute("aria-label", "Capacity search progress")?;
        let status = dom::text_child(
            &figure,
            "p",
            "help",
            "Runs the current settings at each load it tries, as the command line's lbsim capacity does.",
        )?;
        dom::set_attributes(&status, &[("id", &ids.of("capacity-status")), ("role", "status")])?;
        // Hidden until a search has curves to draw: blank, it stood 260 px
        // of empty panel under the form (in compare mode, the panel's
        // lower half).
        let canvas: HtmlCanvasElement = dom::child(&figure, "canvas", "")?;
        canvas.set_hidden(true);
        let label = "p99 against offered load for each policy, the objective and each capacity marked";
        dom::set_attributes(
            &canvas,
            &[("id", &ids.of("capacity-chart")), ("role", "img"), ("aria-label", label)],
        )?;
        Ok(CapacityPanel {
            slo,
            policies,
            button,
            progress,
            status,
            chart: Surface::new(canvas)?,
            searches: Vec::new(),
            objective: Objective { latency: false, ms: 50.0 },
        })
    }

    /// Starts a search of `scenario` for the form's objective and policies.
    pub fn start(&mut self, scenario: &Scenario) {
        let ms = number::parse(self.slo.value().trim()).filter(|ms| *ms > 0.0 && ms.is_finite());
        let Some(ms) = ms else {
            self.say("The objective needs a number of milliseconds above 0.");
            return;
        };
        if let Some(why) = lbsim::capacity::unsearchable(scenario) {
            self.say(&format!("Not searched: {why}."));
            return;
        }
        let mut searches = Vec::new();
        for name in self.policies.value().split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let Some(policy) = PolicyKind::from_name(name) else {
                let names: Vec<_> = PolicyKind::ALL.iter().map(|p| p.name()).collect();
                self.say(&format!("`{name}` is not a policy; expected some of {}.", names.join(", ")));
                return;
            };
            let mut base = scenario.clone();
            base.policy = policy;
            searches.push(Search::new(name.to_string(), base, Objective { latency: false, ms }));
        }
        if searches.is_empty() {
            self.say("Name at least one policy, separated by commas.");
            return;
        }
        self.objective = Objective { latency: false, ms };
        self.searches = searches;
        self.show_progress();
    }

    /// Whether a search is under way.
    pub fn running(&self) -> bool {
        self.searches.iter().any(|s| !s.done())
    }

    /// One frame's slice of the search; draws the curves when it ends,
    /// in the view's chart style (`canvases`').
    pub fn frame(&mut self, canvases: &Canvases) {
        if !self.running() {
            return;
        }
        if let Some(search) = self.searches.iter_mut().find(|s| !s.done()) {
            search.step(EVENTS_PER_FRAME);
        }
        self.show_progress();
        if !self.running() {
            self.draw(canvases);
        }
    }

    fn show_progress(&self) {
        let planned = (MOST_PROBES * self.searches.len()) as f64;
        let done: usize =
            self.searches.iter().map(|s| if s.done() { MOST_PROBES } else { s.probes().len() }).sum();
        let _ = self.progress.set_attribute("value", &format!("{:.3}", done as f64 / planned));
        let text = match self.running() {
            true => format!("Searching… {done} of at most {planned} probes."),
            false => {
                let found: Vec<String> = self
                    .searches
                    .iter()
                    .map(|s| {
                        let outcome = s.outcome();
                        match outcome.capacity {
                            Some(c) => format!("{} {c:.2}", outcome.policy),
                            None => format!("{} below {:.2}", outcome.policy, lbsim::capacity::LOWEST),
                        }
                    })
                    .collect();
                format!("Capacity at {}: {}.", self.objective.describe(), found.join(", "))
            }
        };
        self.say(&text);
    }

    fn say(&self, text: &str) {
        self.status.set_text_content(Some(text));
    }

    /// Draws the finished search's curves again, in the view's style as it
    /// is now (the presenter view or the colours changed).
    pub fn redraw(&mut self, canvases: &Canvases) {
        if !self.searches.is_empty() && !self.running() {
            self.draw(canvases);
        }
    }

    fn draw(&mut self, canvases: &Canvases) {
        self.chart.canvas.set_hidden(false);
        self.chart.fit();
        let Some(backend) = Canvas::on(self.chart.canvas.clone()) else { return };
        let area = backend.into_drawing_area();
        let style = canvases.chart_style(&self.chart);
        let outcomes: Vec<_> = self.searches.iter().map(Search::outcome).collect();
        let drawn = charts::capacity(&area, &outcomes, self.objective, &style);
        if let Err(error) = drawn.and_then(|()| area.present().map_err(|e| e.to_string().into())) {
            web_sys::console::error_1(&JsValue::from_str(&error.to_string()));
        }
    }

    /// The capacities found, once every search is done, as JSON (for tests).
    pub fn outcomes_json(&self) -> String {
        let outcomes: Vec<_> = self.searches.iter().filter(|s| s.done()).map(Search::outcome).collect();
        super::json::text(&outcomes).unwrap_or_default()
    }
}
