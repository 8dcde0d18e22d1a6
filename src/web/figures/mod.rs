//! The charts a view shows beside its topology, each a [`Figure`]: it
//! builds its caption, legend and canvas into the `<figure>` it is given,
//! draws on that canvas from a [`Frame`] when its turn comes (see
//! `canvases`, which redraws them in turn), and says the smallest size at
//! which it is still of use. Hooks that only some figures need (a change
//! of settings, a baseline pinned, a restart, compare mode, a policy that
//! hides the figure) do nothing unless a figure takes them up.
//!
//! [`REGISTRY`] maps each chart a view can show, by its key, to its
//! figure's constructor. The charts themselves are listed once, in
//! `lbsim::charts::CHARTS` (web-free, read by the links' parser and by
//! `lbsim plot` too): a new chart a view shows is its descriptor there and
//! its figure's file and line here, and the build stops if the two lists
//! disagree.

mod backend;
mod clients;
mod keys;
mod load;
mod percentiles;
mod waits;

use super::dom::{self, Ids};
use super::options::Chart;
use super::twins::Sides;
pub use backend::Canvas;
use lbsim::charts::{ChartStyle, Drawn, SeriesMetric};
use lbsim::engine::Decision;
use lbsim::ui::options::Kind;
use lbsim::{Simulation, Snapshot};
use plotters::coord::Shift;
use plotters::prelude::*;
use wasm_bindgen::JsValue;
use web_sys::{Element, HtmlCanvasElement, HtmlElement};

/// Each chart's key and the constructor of its figure.
pub const REGISTRY: &[(&str, Constructor)] = &[
    ("percentiles", percentiles::build),
    ("waits", waits::build),
    ("clients", clients::build),
    ("load", load::build),
    ("keys", keys::build),
];

const _: () = assert!(
    lbsim::charts::figures_match(REGISTRY),
    "REGISTRY must hold a figure for each chart lbsim::charts::CHARTS says views draw, in its order"
);

/// Builds a figure into the `<figure>` element [`Place`] names.
pub type Constructor = fn(&Place) -> Result<Box<dyn Figure>, JsValue>;

/// Where a figure is built, and what it starts with.
pub struct Place<'a> {
    /// The `<figure>` element that holds it.
    pub figure: &'a HtmlElement,
    /// Its canvas's id; its other parts' ids are named after it or by `ids`.
    pub canvas_id: String,
    pub ids: &'a Ids,
    /// What the percentile chart plots.
    pub metric: SeriesMetric,
}

/// What a figure draws from, each time it draws.
pub struct Frame<'a> {
    pub sim: &'a Simulation,
    /// The view's versus twin (compare mode's B), at the same time.
    pub twin: Option<&'a Simulation>,
    pub snapshot: &'a Snapshot,
    /// The decision the topology shows, if any.
    pub decision: Option<&'a Decision>,
    /// Colours and sizes for this figure's canvas.
    pub style: &'a ChartStyle,
}

/// A figure's canvas as plotters draws on it.
pub type Area = DrawingArea<Canvas, Shift>;

/// Something a person can press or choose in a figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// Keep the client-experience curve as the baseline.
    PinBaseline,
    /// What the percentile chart plots.
    Metric,
}

impl Input {
    /// The DOM event it reports with.
    pub fn event(self) -> &'static str {
        match self {
            Input::PinBaseline => "click",
            Input::Metric => "change",
        }
    }
}

pub trait Figure {
    /// The canvas it draws on.
    fn canvas(&self) -> &HtmlCanvasElement;

    /// The smallest canvas (width, height in CSS pixels) at which it reads
    /// well: a layout gives it at least that height or folds it away, and
    /// that width unless the picture's share of the smallest frames needs
    /// some of it.
    fn min_size(&self) -> (f64, f64);

    /// Draws on `area`, its canvas, and updates the words beside it.
    fn draw(&mut self, area: &Area, frame: &Frame) -> Drawn;

    /// Settings are about to change from `before` to `after` (in words),
    /// `live` when the simulation goes on through the change (else it
    /// starts over, and [`Figure::restarted`] follows).
    fn settings_changing(&mut self, _sim: &Simulation, _before: &str, _after: &str, _live: bool) {}

    /// The person keeps what the figure shows now as the baseline, named
    /// by `words`.
    fn pin(&mut self, _sim: &Simulation, _words: &str) {}

    /// The simulation starts over.
    fn restarted(&mut self) {}

    /// Whether its axes glide to a new end at wall time `now_ms`: it is
    /// drawn every frame until they are there, not in its turn.
    fn gliding(&self, _now_ms: f64) -> bool {
        false
    }

    /// The view's sentences were just rewritten from `sim` as it is now: a
    /// figure that counts what they count reads its figures at this moment,
    /// so that the two agree on screen until the next rewrite.
    fn words_said(&mut self, _sim: &Simulation) {}

    /// Compare mode: the view's run (A) is drawn beside its twin (B),
    /// each named by its side, in a view of `kind` (the lab's dashboard,
    /// or an embed under its two pictures).
    fn compare_with(&mut self, _sides: &Sides, _kind: Kind) {}

    /// The names of the lines it drew last, for a figure of named lines.
    fn lines(&self) -> Vec<String> {
        Vec::new()
    }

    /// Shows or hides itself for what `sim` runs.
    fn show_for(&mut self, _sim: &Simulation) {}

    /// The percentile chart plots `metric` from now on.
    fn set_metric(&mut self, _metric: SeriesMetric) {}

    /// What the person chose in it, as the percentile chart's metric.
    fn chosen_metric(&self) -> Option<SeriesMetric> {
        None
    }

    /// What a person can press or choose in it.
    fn inputs(&self) -> Vec<(HtmlElement, Input)> {
        Vec::new()
    }
}

/// Builds the figure of `chart` at `place`, and gives its canvas the
/// figure's minimum height as the custom property `--min-h` (CSS pixels),
/// which the view's fitting honours (its width goes to the charts' column,
/// see `Canvases::build`).
pub fn build(chart: Chart, place: &Place) -> Result<Box<dyn Figure>, JsValue> {
    let (_, constructor) = REGISTRY
        .iter()
        .find(|(key, _)| *key == chart.key())
        .ok_or_else(|| JsValue::from_str(&format!("no figure for the {} chart", chart.key())))?;
    let figure = constructor(place)?;
    let (_, height) = figure.min_size();
    figure.canvas().style().set_property("--min-h", &format!("{height}px"))?;
    Ok(figure)
}

/// One legend entry: the chip's extra class, its colour, and its text.
pub type Entry = (&'static str, &'static str, &'static str);

/// Appends a legend of `entries` to `parent`; returns each entry's item and
/// its text.
pub fn legend(parent: &Element, entries: &[Entry]) -> Result<Vec<(HtmlElement, HtmlElement)>, JsValue> {
    let list: HtmlElement = dom::child(parent, "ul", "legend")?;
    list.set_attribute("aria-label", "Legend")?;
    entries
        .iter()
        .map(|(chip, colour, text)| {
            let item: HtmlElement = dom::child(&list, "li", "")?;
            let swatch: HtmlElement = dom::child(&item, "span", &format!("chip {chip}"))?;
            if !colour.is_empty() {
                swatch.style().set_property("--chip", colour)?;
            }
            let label = dom::text_child(&item, "span", "", text)?;
            Ok((item, label))
        })
        .collect()
}

/// A canvas of `class` appended to `parent`, an image described by `label`.
pub fn canvas(parent: &Element, class: &str, id: &str, label: &str) -> Result<HtmlCanvasElement, JsValue> {
    let canvas: HtmlCanvasElement = dom::child(parent, "canvas", class)?;
    dom::set_attributes(&canvas, &[("id", id), ("role", "img"), ("aria-label", label)])?;
    Ok(canvas)
}
