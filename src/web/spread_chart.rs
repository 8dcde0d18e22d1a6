//! Under a twin's two pictures, where a link names a number of seeds
//! (`seeds=20`): each seed's p99 ratio of the two runs as a dot beside a
//! line at 1, the pictures' own seed ringed, and a sentence saying how
//! far they spread (the runs, the axis, the stacking and the words are
//! `lbsim::ui::spread`'s). The dots come as the runs finish, in the
//! background of the page's frames.

use super::dom::{self, percent, set_text};
use lbsim::ui::spread::{stack, Axis, Spread, RUN_S};
use lbsim::ui::twins::Sides;
use wasm_bindgen::JsValue;
use web_sys::{Element, HtmlElement};

/// Dots within this share of the axis of one drawn before stack over it
/// (a dot is 9 px; the axis 300 to 900 px wide).
const DOT_SHARE: f64 = 0.025;
/// Rows of dots the track has room for; the last takes the rest.
const ROWS: usize = 4;
/// A row's height (px).
const ROW_PX: usize = 8;

pub struct SpreadChart {
    title: HtmlElement,
    plot: HtmlElement,
    track: HtmlElement,
    ticks: [HtmlElement; 3],
    words: HtmlElement,
    /// What is drawn: the dots' count and whether the runs had started.
    shown: Option<(usize, bool)>,
}

impl SpreadChart {
    /// Builds the chart, empty, at the end of `parent`.
    pub fn build(parent: &Element) -> Result<SpreadChart, JsValue> {
        let root: HtmlElement = dom::child(parent, "div", "spread")?;
        let title = dom::text_child(&root, "p", "spread-title", "")?;
        let plot: HtmlElement = dom::child(&root, "div", "spread-plot")?;
        plot.set_attribute("role", "img")?;
        let track: HtmlElement = dom::child(&plot, "div", "spread-track")?;
        let _ = track.style().set_property("height", &format!("{}px", ROWS * ROW_PX + 2));
        let scale: HtmlElement = dom::child(&plot, "div", "spread-ticks")?;
        let tick = || dom::text_child(&scale, "span", "spread-tick", "");
        let ticks = [tick()?, tick()?, tick()?];
        let words = dom::text_child(&root, "p", "spread-words", "")?;
        Ok(SpreadChart { title, plot, track, ticks, words, shown: None })
    }

    /// Whether `spread` has come to more than is drawn.
    pub fn due(&self, spread: &Spread) -> bool {
        self.shown != Some((spread.dots().len(), spread.started()))
    }

    /// The spread drawn is gone (its runs changed): the next is drawn whole.
    pub fn forget(&mut self) {
        self.shown = None;
    }

    /// Draws `spread`'s dots and words, naming the runs by `sides`.
    pub fn show(&mut self, spread: &Spread, sides: &Sides) {
        let in_prose = sides.in_prose();
        set_text(
            &self.title,
            &format!(
                "p99 with {} ÷ p99 with {}: one dot a seed, {RUN_S:.0} s each; ringed, the seed the pictures run",
                in_prose.own, in_prose.twin
            ),
        );
        // Before a dot, the axis's ends would tell how far apart the runs
        // come (reader 14 read 0.95× to 1.05× as the answer before
        // answering): only the line at 1 is named.
        let axis = Axis::around(spread.dots());
        let named = |ratio: f64| !spread.dots().is_empty() || ratio == 1.0;
        for (tick, ratio) in self.ticks.iter().zip(axis.ticks()) {
            set_text(tick, &if named(ratio) { format!("{ratio}×") } else { String::new() });
            let _ = tick.style().set_property("left", &percent(axis.share(ratio)));
        }
        self.track.set_text_content(None);
        let one: Result<HtmlElement, _> = dom::child(&self.track, "span", "spread-one");
        if let Ok(one) = one {
            let _ = one.style().set_property("left", &percent(axis.share(1.0)));
        }
        let shares: Vec<f64> = spread.dots().iter().map(|dot| axis.share(dot.ratio())).collect();
        for ((dot, share), row) in spread.dots().iter().zip(&shares).zip(stack(&shares, DOT_SHARE, ROWS)) {
            let class = match dot.seed == spread.own_seed() {
                true => "spread-dot this-run",
                false => "spread-dot",
            };
            let Ok(drawn) = dom::child::<HtmlElement>(&self.track, "span", class) else { continue };
            let style = drawn.style();
            let _ = style.set_property("left", &percent(*share));
            let _ = style.set_property("bottom", &format!("{}px", 1 + row * ROW_PX));
            let (own, twin) = (dot.own_ms.to_string(), dot.twin_ms.to_string());
            let seed = dot.seed.to_string();
            let title =
                format!("seed {seed}: {:.1} ms ÷ {:.1} ms = {:.3}", dot.own_ms, dot.twin_ms, dot.ratio());
            let attributes =
                [("data-seed", &seed), ("data-own-ms", &own), ("data-twin-ms", &twin), ("title", &title)];
            let _ = attributes.iter().try_for_each(|(name, value)| drawn.set_attribute(name, value));
        }
        let words = spread.words(sides);
        let _ = self.plot.set_attribute("aria-label", &words);
        set_text(&self.words, &words);
        self.shown = Some((spread.dots().len(), spread.started()));
    }
}
