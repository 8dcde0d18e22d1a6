//! Everything drawn each frame: the topology on every frame, the charts in
//! turn at a throttled rate so they never cost the animation its frames.

use super::charts::{self, ChartStyle, Marker};
use super::dom;
use super::surface::Surface;
use super::theme::Palette;
use super::topology;
use lbsim::metrics::{percentile_curve, Histogram};
use lbsim::{Simulation, Snapshot};
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsValue;
use web_sys::HtmlElement;

/// Wall milliseconds between two chart redraws (each chart is redrawn every
/// `CHARTS` times this while the simulation runs).
const CHART_INTERVAL_MS: f64 = 120.0;
const CHARTS: usize = 3;
const CHART_IDS: [&str; CHARTS] = ["chart-percentiles", "chart-clients", "chart-load"];
/// Live changes remembered for marking.
const MAX_MARKERS: usize = 8;

pub struct View {
    topology: Surface,
    charts: [Surface; CHARTS],
    palette: Palette,
    /// Charts whose data or size changed since they were last drawn.
    stale: [bool; CHARTS],
    next_chart: usize,
    last_chart_ms: f64,
    /// The client-experience curve from before the last change.
    reference: Vec<f64>,
    /// Its entry in the chart's legend, and the entry's text.
    reference_legend: HtmlElement,
    reference_label: HtmlElement,
    /// Session times recorded when a setting last changed live: the current
    /// curve shows only the sessions completed since.
    baseline: Option<Histogram>,
    current_label: HtmlElement,
    /// Live changes of settings, marked on the percentile chart.
    markers: Vec<Marker>,
    /// The legend's entry for the compact view, shown while it is.
    compact_legend: HtmlElement,
    /// Reused each redraw of the load chart.
    loads: Vec<(u32, u32)>,
}

impl View {
    pub fn new() -> Result<View, JsValue> {
        Ok(View {
            topology: Surface::new("topology")?,
            charts: [Surface::new(CHART_IDS[0])?, Surface::new(CHART_IDS[1])?, Surface::new(CHART_IDS[2])?],
            palette: Palette::read(),
            stale: [true; CHARTS],
            next_chart: 0,
            last_chart_ms: f64::NEG_INFINITY,
            reference: Vec::new(),
            reference_legend: dom::by_id("reference-legend")?,
            reference_label: dom::by_id("reference-label")?,
            baseline: None,
            current_label: dom::by_id("current-label")?,
            markers: Vec::new(),
            compact_legend: dom::by_id("compact-legend")?,
            loads: Vec::new(),
        })
    }

    /// Re-reads the palette (the colour scheme changed) and redraws all.
    pub fn restyle(&mut self) {
        self.palette = Palette::read();
        self.invalidate();
    }

    /// Marks every chart for redrawing: its data changed outside a frame.
    pub fn invalidate(&mut self) {
        self.stale = [true; CHARTS];
    }

    /// Whether a chart still waits to be redrawn.
    pub fn pending(&self) -> bool {
        self.stale.iter().any(|s| *s)
    }

    /// Settings are about to change from `before` to `after` (both in
    /// words): keeps the current client-experience curve for comparison
    /// and, for a change made live (the simulation goes on), marks it on the
    /// percentile chart and starts the current curve afresh.
    pub fn settings_changing(&mut self, sim: &Simulation, before: &str, after: &str, live: bool) {
        let curve = self.current_curve(sim);
        if !curve.is_empty() {
            self.reference = curve;
            self.reference_label.set_text_content(Some(&format!("before, with {before}")));
            self.reference_legend.set_hidden(false);
        }
        if live {
            if self.markers.len() == MAX_MARKERS {
                self.markers.remove(0);
            }
            self.markers.push(Marker { time_s: sim.now().as_secs(), label: after.to_string() });
            self.baseline = Some(sim.metrics().session_time.clone());
            let text = format!("since the change at {:.1} s", sim.now().as_secs());
            self.current_label.set_text_content(Some(&text));
        } else {
            self.restarted();
        }
    }

    /// The simulation starts over: the current curve covers it all.
    pub fn restarted(&mut self) {
        self.baseline = None;
        self.markers.clear();
        self.current_label.set_text_content(Some("since the start"));
    }

    /// Session time by percentile, since the start or the last live change.
    fn current_curve(&self, sim: &Simulation) -> Vec<f64> {
        let sessions = &sim.metrics().session_time;
        match &self.baseline {
            Some(baseline) => percentile_curve(&sessions.since(baseline)),
            None => percentile_curve(sessions),
        }
    }

    /// Shows the legend's entry for the compact view when `servers` need it.
    pub fn show_compact_legend(&self, servers: usize) {
        self.compact_legend.set_hidden(servers <= topology::COMPACT_ABOVE);
    }

    /// Draws the topology, and one chart when one is due.
    pub fn draw(&mut self, sim: &Simulation, snapshot: &Snapshot, now_ms: f64, running: bool) {
        self.topology.fit();
        topology::draw(snapshot, &self.topology, &self.palette);
        for (surface, stale) in self.charts.iter_mut().zip(&mut self.stale) {
            *stale |= surface.fit();
        }
        if running && now_ms - self.last_chart_ms >= CHART_INTERVAL_MS {
            self.stale[self.next_chart] = true;
        }
        let Some(index) = (0..CHARTS).map(|k| (self.next_chart + k) % CHARTS).find(|i| self.stale[*i]) else {
            return;
        };
        self.draw_chart(index, sim, snapshot);
        self.stale[index] = false;
        self.next_chart = (index + 1) % CHARTS;
        self.last_chart_ms = now_ms;
    }

    fn draw_chart(&mut self, index: usize, sim: &Simulation, snapshot: &Snapshot) {
        let surface = &self.charts[index];
        let Some(backend) = CanvasBackend::with_canvas_object(surface.canvas.clone()) else { return };
        let area = backend.into_drawing_area();
        let style = ChartStyle { palette: &self.palette, scale: surface.scale };
        let drawn = match index {
            0 => charts::percentiles(&area, &sim.metrics().series, &self.markers, &style),
            1 => {
                let current = self.current_curve(sim);
                let reference = (!self.reference.is_empty()).then_some(self.reference.as_slice());
                charts::clients(&area, &current, reference, &style)
            }
            _ => {
                self.loads.clear();
                self.loads.extend(snapshot.servers.iter().map(|s| (s.busy, s.queued)));
                self.loads.sort_unstable_by_key(|(busy, queued)| std::cmp::Reverse(busy + queued));
                let slots = snapshot.servers.first().map_or(0, |s| s.slots);
                charts::load(&area, &self.loads, slots, &style)
            }
        };
        if let Err(error) = drawn.and_then(|()| area.present().map_err(Into::into)) {
            web_sys::console::warn_1(&JsValue::from_str(&format!("{}: {error}", CHART_IDS[index])));
        }
    }
}
