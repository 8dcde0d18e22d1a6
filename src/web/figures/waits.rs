//! The waits chart: how many requests waited how long in a queue since
//! the run began (after its warm-up, as the sentences count), with the
//! median, the mean and the p99 marked on it; its legend gives the three
//! figures in the sentence's words, and its caption what lies off the
//! chart's right edge. Beside sentences, it counts the requests they
//! counted when last rewritten (a second apart), so that its median and
//! p99 are theirs; alone (the lab's tab), those so far. Its axes only
//! grow during a run, gliding to each new end (see
//! `lbsim::ui::growing_axis`), so that the pile keeps its look between
//! two looks.

use super::{canvas, legend, Area, Figure, Frame, Place};
use crate::dom;
use lbsim::charts::{self, Drawn, Rescale, Waits as Binned, WAIT_BINS};
use lbsim::metrics::Histogram;
use lbsim::ui::growing_axis::GrowingAxis;
use lbsim::Simulation;
use wasm_bindgen::JsValue;
use web_sys::{HtmlCanvasElement, HtmlElement};

pub struct Waits {
    canvas: HtmlCanvasElement,
    /// The legend's texts: the median's, the mean's and the p99's.
    figures: Vec<HtmlElement>,
    /// The caption's note on the waits past the right edge.
    beyond: HtmlElement,
    /// The waits as the sentences last counted them, if they did, and
    /// whether a request had ended then.
    said: Option<(Histogram, bool)>,
    /// Where the time axis (ms) and the count axis end.
    reach: GrowingAxis,
    top: GrowingAxis,
    /// The caption's note on a reach grown far, and what it follows.
    rescaled: HtmlElement,
    rescale: Rescale,
}

pub fn build(place: &Place) -> Result<Box<dyn Figure>, JsValue> {
    let figure = place.figure;
    let caption: HtmlElement = dom::child(figure, "figcaption", "")?;
    let title = "How long each request waited in a queue, since the run began";
    dom::text_child(&caption, "span", "chart-title", title)?;
    let beyond = dom::text_child(&caption, "span", "spread", "")?;
    beyond.set_id(&place.ids.of("waits-beyond"));
    let rescaled = dom::text_child(&caption, "span", "spread", "")?;
    rescaled.set_id(&place.ids.of("waits-rescaled"));
    let entries = legend(
        figure,
        &[
            ("line dotted", "var(--c-p50)", "median"),
            ("line dashed", "var(--ink)", "mean"),
            ("line", "var(--c-p99)", "p99"),
        ],
    )?;
    let figures: Vec<HtmlElement> = entries.into_iter().map(|(_, text)| text).collect();
    for (text, part) in figures.iter().zip(["waits-median", "waits-mean", "waits-p99"]) {
        text.set_id(&place.ids.of(part));
    }
    let label = "How many requests waited how long in a queue, with the median, the mean and the p99 marked";
    let canvas = canvas(figure, "", &place.canvas_id, label)?;
    let still = dom::prefers(crate::page::REDUCED_MOTION);
    Ok(Box::new(Waits {
        canvas,
        figures,
        beyond,
        said: None,
        reach: GrowingAxis::new(LEAST_REACH_MS, still),
        top: GrowingAxis::counting(LEAST_TOP, still),
        rescaled,
        rescale: Rescale::default(),
    }))
}

impl Figure for Waits {
    fn canvas(&self) -> &HtmlCanvasElement {
        &self.canvas
    }

    fn min_size(&self) -> (f64, f64) {
        (240.0, 140.0)
    }

    fn draw(&mut self, area: &Area, frame: &Frame) -> Drawn {
        let now_ms = dom::now_ms();
        let (histogram, ended) = match &self.said {
            Some((histogram, ended)) => (histogram.clone(), *ended),
            None => Binned::measured(frame.sim),
        };
        let reach = &mut self.reach;
        let mut waits = Binned {
            ended,
            ..Binned::within(&histogram, WAIT_BINS, |f| reach.end(Binned::needed(f), now_ms))
        };
        waits.top = self.top.end(Binned::top_needed(&waits.counts), now_ms);
        for (text, mark) in self.figures.iter().zip(waits.marks()) {
            dom::set_text(text, &mark.label);
        }
        if !self.reach.gliding(now_ms) {
            // Mid-glide the edge stands at no tidy value: the note waits.
            dom::set_text(&self.beyond, waits.beyond_note().as_deref().unwrap_or(""));
            let waited = waits.figures.p99 > 0.0;
            let told = self.rescale.observe(waits.reach(), waited, frame.sim.now().as_ms());
            dom::set_text(&self.rescaled, told.as_deref().unwrap_or(""));
        }
        charts::waits(area, &waits, frame.style)
    }

    fn gliding(&self, now_ms: f64) -> bool {
        self.reach.gliding(now_ms) || self.top.gliding(now_ms)
    }

    fn words_said(&mut self, sim: &Simulation) {
        self.said = Some(Binned::measured(sim));
    }

    fn restarted(&mut self) {
        self.said = None;
        self.reach.restart();
        self.top.restart();
        self.rescale = Rescale::default();
    }
}

/// Where the time axis ends before anything waited (ms): a bar at zero.
const LEAST_REACH_MS: f64 = 1.0;

/// Where the count axis ends at least: its first requests would step it
/// 1, 1.5, 2, 3 … 10 within a second of the run.
const LEAST_TOP: f64 = 10.0;
