//! Everything a view draws each frame: the topology on every frame, its
//! charts in turn at a throttled rate so they never cost the animation its
//! frames. It builds its canvases and their HTML legends into the view.

use super::dom::{self, Ids};
use super::keys_figure::KeysFigure;
use super::options::Chart;
use super::surface::Surface;
use super::theme::Palette;
use super::topology::{self, Focus, Part};
use lbsim::charts::{self, ChartStyle, Marker, SeriesMetric, Span};
use lbsim::metrics::percentile_curve;
use lbsim::{Simulation, Snapshot};
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsValue;
use web_sys::{Element, HtmlCanvasElement, HtmlElement, HtmlSelectElement};

/// Wall milliseconds between two chart redraws (each chart is redrawn every
/// so many times this while the simulation runs).
const CHART_INTERVAL_MS: f64 = 120.0;
/// Live changes remembered for marking.
const MAX_MARKERS: usize = 8;
/// Live changes closer than this (simulated seconds) share one mark.
const MERGE_MARKERS_S: f64 = 3.0;

/// One legend entry: the chip's extra class, its colour, and its text.
type Entry = (&'static str, &'static str, &'static str);

/// The topology's legend; the last entry shows only in the compact view.
const TOPOLOGY_LEGEND: [Entry; 13] = [
    ("dot", "var(--c-request)", "request"),
    ("ring", "var(--c-retry)", "retry, after a bounce or an error"),
    ("cross", "var(--c-bounce)", "bounced by queue timeout"),
    ("dot", "var(--c-response)", "response"),
    ("", "var(--c-handshake)", "handshake"),
    ("", "var(--c-busy)", "busy slot"),
    ("", "var(--c-free)", "free slot"),
    ("", "var(--c-queued)", "queued"),
    ("dot", "var(--c-client)", "client waiting"),
    (
        "choice",
        "var(--ink)",
        "a choice: servers compared (dashed), the one taken (solid), what the chooser saw",
    ),
    (
        "cross",
        "var(--ink)",
        "server crashed or down (removed: faded; draining: dashed box; failing: dotted box; out of a pool: veiled)",
    ),
    ("", "var(--ink)", "keys moving to their new server after a change"),
    ("shades", "", "many servers: shade = share of slots busy, orange bar = queue"),
];

struct ChartSurface {
    chart: Chart,
    surface: Surface,
    /// Its data or size changed since it was last drawn.
    stale: bool,
}

/// The client chart's legend: the current curve's text, and the entry for
/// the curve from before the last change with its text.
struct ClientsLegend {
    current: HtmlElement,
    reference: HtmlElement,
    reference_label: HtmlElement,
    pin: HtmlElement,
}

pub struct PercentilesCaption {
    title: HtmlElement,
    pub select: HtmlSelectElement,
}

/// Sessions a curve waits for before it is drawn.
const MIN_CURVE_SESSIONS: u64 = 100;

/// Session time by percentile of the sessions started since the engine's
/// last mark (the start, or the last live change); empty until there are
/// enough of them to mean something.
fn current_curve(sim: &Simulation) -> Vec<f64> {
    let sessions = &sim.metrics().sessions_since_mark.1;
    match sessions.count() < MIN_CURVE_SESSIONS {
        true => Vec::new(),
        false => percentile_curve(sessions),
    }
}

/// The percentile chart's caption for `metric`: exactly what it plots.
fn percentiles_title(metric: SeriesMetric) -> String {
    format!("{}: p50, p90 and p99 over a rolling one-second window", metric.title())
}

fn percentiles_label(metric: SeriesMetric) -> String {
    format!("p50, p90 and p99 {} over simulated time", metric.title().to_lowercase())
}

pub struct Canvases {
    root: Element,
    topology: Surface,
    charts: Vec<ChartSurface>,
    palette: Palette,
    next_chart: usize,
    last_chart_ms: f64,
    /// The client-experience curve from before the last change.
    reference: Vec<f64>,
    clients_legend: Option<ClientsLegend>,
    /// The percentile chart's title and its choice of what it plots.
    pub percentiles_caption: Option<PercentilesCaption>,
    metric: SeriesMetric,
    /// The load chart's live imbalance figure.
    load_spread: Option<HtmlElement>,
    /// Where keys live, under a policy that places by key.
    keys: Option<KeysFigure>,
    /// When a setting last changed live (simulated seconds): the current
    /// curve counts only sessions started since (the engine's mark).
    changed_at: Option<f64>,
    /// In compare mode, B's name: its curve is the reference.
    versus: Option<String>,
    /// Live changes of settings, marked on the percentile chart.
    markers: Vec<Marker>,
    /// The legend's entry for the compact view, shown while it is.
    compact_legend: HtmlElement,
    /// Reused each redraw of the load chart.
    loads: Vec<(u32, u32)>,
    /// The most requests any server has held since the start: the load
    /// chart's scale never shrinks below it.
    load_peak: u32,
}

impl Canvases {
    /// Builds the topology into `pane`, its legend into `stage`, and a
    /// figure for each of `charts` into `figures`; colours come from the
    /// view's `root`.
    pub fn build(
        root: &Element,
        (pane, stage): (&Element, &Element),
        figures: &Element,
        charts: &[Chart],
        metric: SeriesMetric,
        ids: &Ids,
    ) -> Result<Canvases, JsValue> {
        let label = "Clients, balancers and servers; dots are requests travelling between them";
        let topology = canvas(pane, "topology", &ids.of("topology"), label)?;
        let (compact_legend, _) = legend(stage, &TOPOLOGY_LEGEND)?.pop().ok_or("no legend")?;
        compact_legend.set_id(&ids.of("compact-legend"));
        compact_legend.set_hidden(true);
        let mut surfaces = Vec::with_capacity(charts.len());
        let mut clients_legend = None;
        let mut percentiles_caption = None;
        let mut load_spread = None;
        let mut keys = None;
        for &chart in charts {
            let figure: HtmlElement = dom::child(figures, "figure", "")?;
            let id = ids.of(&format!("chart-{}", chart.key()));
            let canvas = match chart {
                Chart::Percentiles => {
                    let caption: HtmlElement = dom::child(&figure, "figcaption", "")?;
                    let title = dom::text_child(&caption, "span", "chart-title", &percentiles_title(metric))?;
                    let choice: HtmlElement = dom::child(&caption, "label", "metric-choice")?;
                    dom::text_child(&choice, "span", "", "Plot")?;
                    let select: HtmlSelectElement = dom::child(&choice, "select", "")?;
                    select.set_id(&ids.of("metric"));
                    for each in SeriesMetric::ALL {
                        dom::text_child(&select, "option", "", &each.title().to_lowercase())?
                            .set_attribute("value", each.key())?;
                    }
                    select.set_value(metric.key());
                    percentiles_caption = Some(PercentilesCaption { title, select });
                    legend(
                        &figure,
                        &[
                            ("line dotted", "var(--c-p50)", "p50"),
                            ("line dashed", "var(--c-p90)", "p90"),
                            ("line", "var(--c-p99)", "p99"),
                        ],
                    )?;
                    canvas(&figure, "", &id, &percentiles_label(metric))?
                }
                Chart::Clients => {
                    dom::text_child(
                        &figure,
                        "figcaption",
                        "",
                        "Client experience: session time by percentile",
                    )?;
                    let mut entries = legend(
                        &figure,
                        &[
                            ("line", "var(--c-request)", "since the start"),
                            ("line dashed", "var(--muted)", ""),
                        ],
                    )?;
                    let (reference, reference_label) = entries.pop().ok_or("no legend")?;
                    let (_, current) = entries.pop().ok_or("no legend")?;
                    reference.set_hidden(true);
                    current.set_id(&ids.of("current-label"));
                    reference.set_id(&ids.of("reference-legend"));
                    reference_label.set_id(&ids.of("reference-label"));
                    let pin =
                        dom::text_child(&figure, "button", "quiet pin", "Pin this curve as the baseline")?;
                    dom::set_attributes(&pin, &[("id", &ids.of("pin-baseline")), ("type", "button")])?;
                    clients_legend = Some(ClientsLegend { current, reference, reference_label, pin });
                    canvas(&figure, "", &id, "Session time from the fastest to the slowest client")?
                }
                Chart::Load => {
                    let caption: HtmlElement = dom::child(&figure, "figcaption", "")?;
                    dom::text_child(&caption, "span", "chart-title", "Load across servers right now")?;
                    let spread = dom::text_child(&caption, "span", "spread", "")?;
                    spread.set_id(&ids.of("load-cv"));
                    load_spread = Some(spread);
                    legend(
                        &figure,
                        &[
                            ("", "var(--c-busy)", "in service"),
                            ("", "var(--c-queued)", "queued"),
                            ("line dashed", "var(--muted)", "slots per server"),
                        ],
                    )?;
                    canvas(&figure, "", &id, "Requests in service and queued at each server, busiest first")?
                }
                Chart::Keys => {
                    keys = Some(KeysFigure::build(&figure, &id)?);
                    canvas(&figure, "", &id, "Each server's share of the key space, and the hash ring")?
                }
            };
            surfaces.push(ChartSurface { chart, surface: Surface::new(canvas)?, stale: true });
        }
        Ok(Canvases {
            root: root.clone(),
            topology: Surface::new(topology)?,
            charts: surfaces,
            palette: Palette::read(root),
            next_chart: 0,
            last_chart_ms: f64::NEG_INFINITY,
            reference: Vec::new(),
            clients_legend,
            percentiles_caption,
            load_spread,
            keys,
            metric,
            changed_at: None,
            versus: None,
            markers: Vec::new(),
            compact_legend,
            loads: Vec::new(),
            load_peak: 0,
        })
    }

    /// Re-reads the palette (the colour scheme changed) and redraws all.
    pub fn restyle(&mut self) {
        self.palette = Palette::read(&self.root);
        self.invalidate();
    }

    /// Marks every chart for redrawing: its data changed outside a frame.
    pub fn invalidate(&mut self) {
        for chart in &mut self.charts {
            chart.stale = true;
        }
    }

    /// The percentile chart plots `metric` from now on.
    pub fn set_metric(&mut self, metric: SeriesMetric) {
        self.metric = metric;
        if let Some(caption) = &self.percentiles_caption {
            caption.title.set_text_content(Some(&percentiles_title(metric)));
            caption.select.set_value(metric.key());
        }
        for chart in self.charts.iter_mut().filter(|c| c.chart == Chart::Percentiles) {
            let _ = chart.surface.canvas.set_attribute("aria-label", &percentiles_label(metric));
        }
        self.invalidate();
    }

    /// The view's colours.
    pub fn palette(&self) -> &Palette {
        &self.palette
    }

    /// The client or server drawn at a point of the topology.
    pub fn part_at(&self, snapshot: &Snapshot, point: (f64, f64)) -> Option<Part> {
        topology::part_at(snapshot, &self.topology, point)
    }

    /// Where each server of `snapshot` is drawn in the topology (x, y, w, h).
    pub fn server_cells(&self, snapshot: &Snapshot) -> Vec<[f64; 4]> {
        topology::server_cells(snapshot, &self.topology)
    }

    pub fn topology_canvas(&self) -> &HtmlCanvasElement {
        &self.topology.canvas
    }

    /// Every canvas, the topology's first, with the name of what it shows.
    pub fn elements(&self) -> Vec<(HtmlCanvasElement, String)> {
        let charts = self.charts.iter().map(|c| (c.surface.canvas.clone(), c.chart.key().to_string()));
        std::iter::once((self.topology.canvas.clone(), "topology".to_string())).chain(charts).collect()
    }

    /// Whether a chart still waits to be redrawn.
    pub fn pending(&self) -> bool {
        self.charts.iter().any(|c| c.stale)
    }

    /// Settings are about to change from `before` to `after` (both in
    /// words). The first change pins the curve so far as the baseline (it
    /// stays until another is pinned); a change made live (the simulation
    /// goes on) is marked on the percentile chart, and the current curve
    /// waits for sessions started after it.
    pub fn settings_changing(&mut self, sim: &Simulation, before: &str, after: &str, live: bool) {
        if self.reference.is_empty() {
            self.pin(sim, &format!("before, with {before}"));
        }
        if live {
            let now_s = sim.now().as_secs();
            match self.markers.last_mut() {
                // Changes close together share one mark, so labels never overprint.
                Some(last) if now_s - last.time_s < MERGE_MARKERS_S => last.label = after.to_string(),
                _ => {
                    if self.markers.len() == MAX_MARKERS {
                        self.markers.remove(0);
                    }
                    self.markers.push(Marker { time_s: now_s, label: after.to_string() });
                }
            }
            self.changed_at = Some(now_s);
        } else {
            self.restarted();
        }
    }

    /// Keeps the current curve as the baseline, named by `words`.
    pub fn pin(&mut self, sim: &Simulation, words: &str) {
        let curve = current_curve(sim);
        if curve.is_empty() {
            return;
        }
        self.reference = curve;
        if let Some(legend) = &self.clients_legend {
            legend.reference_label.set_text_content(Some(words));
            legend.reference.set_hidden(false);
        }
        self.invalidate();
    }

    /// Compare mode: B's curve (`label`) is the reference, not a baseline.
    pub fn compare_with(&mut self, label: &str) {
        self.versus = Some(label.to_string());
        if let Some(legend) = &self.clients_legend {
            legend.reference_label.set_text_content(Some(&format!("B: {label}")));
            legend.reference.set_hidden(false);
            legend.pin.set_hidden(true);
        }
    }

    /// The simulation starts over: the current curve covers it all.
    pub fn restarted(&mut self) {
        self.changed_at = None;
        self.load_peak = 0;
        self.markers.clear();
    }

    /// Says what the current curve counts, and whether it has enough yet.
    fn label_current(&self, sim: &Simulation) {
        let Some(legend) = &self.clients_legend else { return };
        let count = sim.metrics().sessions_since_mark.1.count();
        let since = match self.changed_at {
            Some(at) => format!("started since the change at {at:.1} s"),
            None => "since the start".to_string(),
        };
        let text = match count < MIN_CURVE_SESSIONS {
            true => format!("collecting… {count} sessions {since}"),
            false => format!("A: sessions {since}"),
        };
        let text = if self.versus.is_some() { text } else { text.replacen("A: ", "", 1) };
        legend.current.set_text_content(Some(&text));
        // Nothing to pin until the curve is drawn.
        let _ = match count < MIN_CURVE_SESSIONS {
            true => legend.pin.set_attribute("disabled", ""),
            false => legend.pin.remove_attribute("disabled"),
        };
    }

    /// The pin button, when the chart has one.
    pub fn pin_button(&self) -> Option<&HtmlElement> {
        self.clients_legend.as_ref().map(|legend| &legend.pin)
    }

    /// Shows the keys figure only while `sim`'s policy places by key.
    pub fn show_keys_for(&self, sim: &Simulation) {
        if let Some(keys) = &self.keys {
            keys.show_for(sim);
        }
    }

    /// Shows the legend's entry for the compact view when `servers` need it.
    pub fn show_compact_legend(&self, servers: usize) {
        self.compact_legend.set_hidden(servers <= topology::COMPACT_ABOVE);
    }

    /// Draws another simulation's topology (compare mode's twin) on
    /// `surface`, in this view's colours.
    pub fn draw_topology_on(&self, snapshot: &Snapshot, surface: &Surface) {
        topology::draw(snapshot, Focus::default(), surface, &self.palette);
    }

    /// Draws the topology, and one chart when one is due; returns where the
    /// topology ringed a decision's winner, if it drew one.
    pub fn draw(
        &mut self,
        (sim, twin): (&Simulation, Option<&Simulation>),
        snapshot: &Snapshot,
        focus: Focus,
        now_ms: f64,
        running: bool,
    ) -> Option<[f64; 4]> {
        self.topology.fit();
        let ring = topology::draw(snapshot, focus, &self.topology, &self.palette);
        if let Some(keys) = &mut self.keys {
            keys.show_decision(focus.decision);
        }
        self.draw_due_chart((sim, twin), snapshot, now_ms, running);
        ring
    }

    /// Draws one chart if one is due: stale, or the next in turn while running.
    fn draw_due_chart(
        &mut self,
        (sim, twin): (&Simulation, Option<&Simulation>),
        snapshot: &Snapshot,
        now_ms: f64,
        running: bool,
    ) {
        for chart in &mut self.charts {
            chart.stale |= chart.surface.fit();
        }
        let count = self.charts.len();
        if count == 0 {
            return;
        }
        if running && now_ms - self.last_chart_ms >= CHART_INTERVAL_MS {
            self.charts[self.next_chart % count].stale = true;
        }
        let Some(index) = (0..count).map(|k| (self.next_chart + k) % count).find(|i| self.charts[*i].stale)
        else {
            return;
        };
        self.draw_chart(index, (sim, twin), snapshot);
        self.charts[index].stale = false;
        self.next_chart = (index + 1) % count;
        self.last_chart_ms = now_ms;
    }

    fn draw_chart(
        &mut self,
        index: usize,
        (sim, twin): (&Simulation, Option<&Simulation>),
        snapshot: &Snapshot,
    ) {
        let ChartSurface { chart, surface, .. } = &self.charts[index];
        let Some(backend) = CanvasBackend::with_canvas_object(surface.canvas.clone()) else { return };
        let area = backend.into_drawing_area();
        let style = ChartStyle {
            palette: self.palette.charts(),
            scale: surface.scale,
            type_scale: ChartStyle::type_scale_for(surface.width),
        };
        let drawn = match chart {
            Chart::Percentiles => {
                let series = &sim.metrics().series;
                let theory = lbsim::theory::of(sim.scenario()).map(|t| t.mean_wait_ms);
                charts::percentiles(&area, series, (self.metric, theory), Span::Live, &self.markers, &style)
            }
            Chart::Clients => {
                self.label_current(sim);
                let current = current_curve(sim);
                let twin_curve = twin.filter(|_| self.versus.is_some()).map(current_curve);
                let reference = match &twin_curve {
                    Some(curve) => Some(curve.as_slice()),
                    None => (!self.reference.is_empty()).then_some(self.reference.as_slice()),
                };
                charts::clients(&area, &current, reference.filter(|r| !r.is_empty()), &style)
            }
            Chart::Load => {
                charts::busiest_first(&snapshot.servers, &mut self.loads);
                let slots = snapshot.servers.first().map_or(0, |s| s.slots);
                if let (Some(spread), Some(latest)) = (&self.load_spread, snapshot.latest) {
                    let text = format!("imbalance: CoV of work across servers {:.2}", latest.load_cv);
                    spread.set_text_content(Some(&text));
                }
                let highest = self.loads.first().map_or(0, |(busy, queued)| busy + queued);
                self.load_peak = self.load_peak.max(highest);
                charts::load(&area, &self.loads, slots, self.load_peak, &style)
            }
            Chart::Keys => match &self.keys {
                Some(keys) => keys.draw(&area, sim, &style),
                None => Ok(()),
            },
        };
        if let Err(error) = drawn.and_then(|()| area.present().map_err(Into::into)) {
            web_sys::console::warn_1(&JsValue::from_str(&format!("{} chart: {error}", chart.key())));
        }
    }
}

/// Appends a legend of `entries` to `parent`; returns each entry's item and
/// its text.
fn legend(parent: &Element, entries: &[Entry]) -> Result<Vec<(HtmlElement, HtmlElement)>, JsValue> {
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

fn canvas(parent: &Element, class: &str, id: &str, label: &str) -> Result<HtmlCanvasElement, JsValue> {
    let canvas: HtmlCanvasElement = dom::child(parent, "canvas", class)?;
    dom::set_attributes(&canvas, &[("id", id), ("role", "img"), ("aria-label", label)])?;
    Ok(canvas)
}
