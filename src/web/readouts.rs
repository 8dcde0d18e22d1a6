//! The key figures in large type: p50 and p99 queue time and throughput
//! over the last simulated second, bounces per second, simulated time, and
//! the speed actually achieved. Updated a few times a second.

use super::controls::group_thousands;
use super::dom;
use lbsim::Snapshot;
use wasm_bindgen::JsValue;
use web_sys::HtmlElement;

const INTERVAL_MS: f64 = 150.0;

pub struct Readouts {
    p50: HtmlElement,
    p99: HtmlElement,
    throughput: HtmlElement,
    bounces: HtmlElement,
    sim_time: HtmlElement,
    actual_speed: HtmlElement,
    last_ms: f64,
}

impl Readouts {
    pub fn new() -> Result<Readouts, JsValue> {
        Ok(Readouts {
            p50: dom::by_id("p50")?,
            p99: dom::by_id("p99")?,
            throughput: dom::by_id("throughput")?,
            bounces: dom::by_id("bounces")?,
            sim_time: dom::by_id("sim-time")?,
            actual_speed: dom::by_id("actual-speed")?,
            last_ms: f64::NEG_INFINITY,
        })
    }

    /// Shows the snapshot's figures, at most every `INTERVAL_MS` unless forced.
    /// `actual_speed` is simulated time per wall time over recent frames.
    pub fn show(&mut self, snapshot: &Snapshot, actual_speed: Option<f64>, now_ms: f64, force: bool) {
        if !force && now_ms - self.last_ms < INTERVAL_MS {
            return;
        }
        self.last_ms = now_ms;
        let latest = snapshot.latest.unwrap_or_default();
        set(&self.p50, &milliseconds(latest.queue_p50));
        set(&self.p99, &milliseconds(latest.queue_p99));
        set(&self.throughput, &compact_count(latest.throughput));
        set(&self.bounces, &compact_count(latest.bounce_rate));
        set(&self.sim_time, &format!("{:.1}", snapshot.time_ms / 1000.0));
        let speed = match actual_speed {
            Some(speed) => format!("{}× real time", significant(speed)),
            None => "paused".to_string(),
        };
        set(&self.actual_speed, &speed);
    }
}

/// Counts in at most five characters: 4,536, 89.7k, 120k, 1.2M.
fn compact_count(x: f64) -> String {
    match x {
        x if x >= 1e6 => format!("{:.1}M", x / 1e6),
        x if x >= 1e5 => format!("{:.0}k", x / 1e3),
        x if x >= 1e4 => format!("{:.1}k", x / 1e3),
        x => group_thousands(x.round() as u64),
    }
}

/// Writes only when the text changes, sparing the page a relayout.
fn set(element: &HtmlElement, text: &str) {
    if element.text_content().as_deref() != Some(text) {
        element.set_text_content(Some(text));
    }
}

fn milliseconds(ms: f64) -> String {
    if ms >= 100.0 {
        format!("{ms:.0}")
    } else {
        format!("{ms:.1}")
    }
}

/// Two significant figures: 0.43, 1.0, 10.
fn significant(x: f64) -> String {
    if x >= 10.0 {
        format!("{x:.0}")
    } else if x >= 1.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}
