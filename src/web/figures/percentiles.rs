//! The percentile chart: p50, p90 and p99 of queue time, latency or
//! session time over the last half minute, with the choice of which in its
//! caption, queueing theory's level named in its legend (clear of the
//! curves), and marks where settings changed live and where servers
//! failed, recovered, joined or left. In the lab's compare mode it plots
//! B's too, in grey, and its legend says which lines are A's and which
//! B's; under an embed's two pictures, each run's p50 and p99, named by
//! the run (see `lbsim::charts::twin_percentiles`).

use super::{canvas, legend, Area, Figure, Frame, Input, Place};
use crate::dom;
use crate::twins::Sides;
use lbsim::charts::{self, Drawn, SeriesMetric, SettingsChanges, Span};
use lbsim::ui::options::Kind;
use lbsim::Simulation;
use wasm_bindgen::JsValue;
use web_sys::{HtmlCanvasElement, HtmlElement, HtmlSelectElement};

pub struct Percentiles {
    canvas: HtmlCanvasElement,
    title: HtmlElement,
    select: HtmlSelectElement,
    metric: SeriesMetric,
    /// The legend's entry for the theory level, and its text.
    theory: (HtmlElement, HtmlElement),
    /// What that entry says, while it is shown.
    theory_named: Option<String>,
    /// Live changes of settings, marked.
    changes: SettingsChanges,
    /// The legend's entries and texts for p50, p90 and p99, and its
    /// entries for each side's lines in compare mode (the view's own, then
    /// the twin's) and those entries' texts.
    percentiles: Vec<(HtmlElement, HtmlElement)>,
    own: (HtmlElement, HtmlElement),
    versus: (HtmlElement, HtmlElement),
    /// Beside a twin: its lines are drawn too, as the lab's compare mode
    /// or as an embed draws them.
    compared: Option<Compared>,
    /// The names of the lines drawn last.
    lines: Vec<String>,
}

/// How a chart beside a twin draws the two runs.
enum Compared {
    /// The lab's compare mode: p50, p90 and p99 of each, named "A p99".
    Letters,
    /// An embed's: p50 and p99 of each, named by its run (own, then twin).
    Named([String; 2]),
}

/// The percentiles drawn, in words: p50 and p99 of each run beside an
/// embed's twin (`named`), else p50, p90 and p99.
fn drawn(named: bool) -> &'static str {
    match named {
        true => "p50 and p99 of each run",
        false => "p50, p90 and p99",
    }
}

/// The caption for `metric`: exactly what the chart plots.
fn title(metric: SeriesMetric, named: bool) -> String {
    format!("{}: {} over a rolling one-second window", metric.title(), drawn(named))
}

fn label(metric: SeriesMetric, named: bool) -> String {
    format!("{} {} over simulated time", drawn(named), metric.title().to_ascii_lowercase())
}

pub fn build(place: &Place) -> Result<Box<dyn Figure>, JsValue> {
    let (figure, metric) = (place.figure, place.metric);
    let caption: HtmlElement = dom::child(figure, "figcaption", "with-choice")?;
    let title = dom::text_child(&caption, "span", "chart-title", &title(metric, false))?;
    let choice: HtmlElement = dom::child(&caption, "label", "metric-choice")?;
    dom::text_child(&choice, "span", "", "Plot")?;
    let select: HtmlSelectElement = dom::child(&choice, "select", "")?;
    select.set_id(&place.ids.of("metric"));
    for each in SeriesMetric::ALL {
        dom::text_child(&select, "option", "", &each.title().to_ascii_lowercase())?
            .set_attribute("value", each.key())?;
    }
    select.set_value(metric.key());
    let mut entries = legend(
        figure,
        &[
            ("line", "var(--c-p99)", ""),
            ("line dotted", "var(--c-p50)", "p50"),
            ("line dashed", "var(--c-p90)", "p90"),
            ("line", "var(--c-p99)", "p99"),
            ("line", "var(--muted)", ""),
            ("line dashed", "var(--ink)", ""),
        ],
    )?;
    let theory = entries.pop().ok_or("no legend")?;
    let versus = entries.pop().ok_or("no legend")?;
    let own = entries.remove(0);
    theory.0.set_hidden(true);
    versus.0.set_hidden(true);
    own.0.set_hidden(true);
    for (item, _) in &entries {
        // Each line is named at its end on the chart too, so a narrow
        // chart's legend can leave these out (see the stylesheet).
        item.class_list().add_1("named-on-chart")?;
    }
    let percentiles = entries;
    let canvas = canvas(figure, "", &place.canvas_id, &label(metric, false))?;
    Ok(Box::new(Percentiles {
        canvas,
        title,
        select,
        metric,
        theory,
        theory_named: None,
        changes: SettingsChanges::default(),
        percentiles,
        own,
        versus,
        compared: None,
        lines: Vec::new(),
    }))
}

impl Percentiles {
    /// Says in the caption and to screen readers which percentiles are
    /// drawn, of what.
    fn name_what_is_drawn(&self) {
        let named = matches!(self.compared, Some(Compared::Named(_)));
        self.title.set_text_content(Some(&title(self.metric, named)));
        let _ = self.canvas.set_attribute("aria-label", &label(self.metric, named));
    }

    /// Names the theory level in the legend, with the `measured` mean
    /// wait to compare it with, or hides its entry.
    fn name_theory(&mut self, level: Option<f64>, measured: Option<f64>) {
        let named = level.map(|ms| charts::theory_label(ms, measured));
        if named != self.theory_named {
            self.theory.0.set_hidden(named.is_none());
            self.theory.1.set_text_content(named.as_deref());
            self.theory_named = named;
        }
    }
}

impl Figure for Percentiles {
    fn canvas(&self) -> &HtmlCanvasElement {
        &self.canvas
    }

    fn min_size(&self) -> (f64, f64) {
        (240.0, 120.0)
    }

    fn draw(&mut self, area: &Area, frame: &Frame) -> Drawn {
        let sim = frame.sim;
        let theory = sim.theory().map(|t| t.mean_wait_ms);
        let level = charts::theory_level(self.metric, theory);
        let measured = level.and_then(|_| sim.metrics().queue_time.measured().mean()).map(|ns| ns / 1e6);
        self.name_theory(level, measured);
        let mut markers = self.changes.markers().to_vec();
        markers.extend(charts::server_events(sim.scenario(), sim.now().as_secs()));
        lbsim::sort::sort_by(&mut markers, |a, b| a.time_s.total_cmp(&b.time_s));
        let series = &sim.metrics().series;
        let plotted = (self.metric, theory);
        let twin = frame.twin.map(|twin| &twin.metrics().series);
        let lines = match (twin, &self.compared) {
            (Some(twin), Some(Compared::Letters)) => {
                charts::compare_percentiles(area, [series, twin], plotted, Span::Live, &markers, frame.style)
            }
            (Some(twin), Some(Compared::Named([own_name, twin_name]))) => {
                let sides = [(own_name.as_str(), series), (twin_name.as_str(), twin)];
                charts::twin_percentiles(area, sides, plotted, Span::Live, &markers, frame.style)
            }
            _ => charts::percentiles(area, series, plotted, Span::Live, &markers, frame.style),
        };
        self.lines = lines?;
        Ok(())
    }

    fn lines(&self) -> Vec<String> {
        self.lines.clone()
    }

    fn compare_with(&mut self, sides: &Sides, kind: Kind) {
        let lab = kind == Kind::Lab;
        self.compared = Some(match lab {
            true => Compared::Letters,
            false => Compared::Named([sides.own.clone(), sides.twin.clone()]),
        });
        // The legend names each side in a sentence's words: "A: random,
        // repick after a bounce, in colour" read as three parts.
        let sides = &sides.in_prose();
        for ((item, text), percentile) in self.percentiles.iter().zip(["p50", "p90", "p99"]) {
            // An embed draws no p90 beside a twin.
            item.set_hidden(!lab && percentile == "p90");
            text.set_text_content(Some(&match lab {
                true => format!("A {percentile}"),
                false => percentile.to_string(),
            }));
        }
        let same = if lab { "the same percentiles" } else { "its p50 and p99" };
        self.own.1.set_text_content(Some(&format!("A: {}, in colour", sides.own)));
        self.versus.1.set_text_content(Some(&format!("B: {}, {same} in grey", sides.twin)));
        self.own.0.set_hidden(false);
        self.versus.0.set_hidden(false);
        self.name_what_is_drawn();
    }

    fn settings_changing(&mut self, sim: &Simulation, _before: &str, after: &str, live: bool) {
        if live {
            self.changes.push(sim.now().as_secs(), after);
        }
    }

    fn restarted(&mut self) {
        self.changes.clear();
    }

    fn set_metric(&mut self, metric: SeriesMetric) {
        self.metric = metric;
        self.select.set_value(metric.key());
        self.name_what_is_drawn();
    }

    fn chosen_metric(&self) -> Option<SeriesMetric> {
        let chosen = self.select.value();
        SeriesMetric::ALL.into_iter().find(|metric| metric.key() == chosen)
    }

    fn inputs(&self) -> Vec<(HtmlElement, Input)> {
        vec![(HtmlElement::from(self.select.clone()), Input::Metric)]
    }
}
