//! Under a twin's two pictures, where a link names a third run
//! (`reference=`): the three runs' p99 as bars, the part of the gain the
//! view's own run loses drawn as a hatched gap past the reference's bar,
//! and a sentence saying it once the run has measured long enough, a line
//! under the bars saying what the third run is (the rules and words are
//! `lbsim::ui::gain`'s). Its figures are those the readouts show, over
//! the same span.

use super::dom::{self, percent, set_hidden, set_text};
use lbsim::format::grouped;
use lbsim::ui::gain::{words_after, Gain};
use lbsim::ui::whole_run::Span;
use wasm_bindgen::JsValue;
use web_sys::{Element, HtmlElement};

/// One bar: its run's name, the bar and the figure.
struct Row {
    name: HtmlElement,
    track: HtmlElement,
    bar: HtmlElement,
    value: HtmlElement,
}

pub struct GainBars {
    root: HtmlElement,
    span: HtmlElement,
    /// Twin, reference, own: the order the bars are drawn.
    rows: [Row; 3],
    /// The own run's bar past the reference's.
    lost: HtmlElement,
    /// What the reference run is: it is never drawn.
    note: HtmlElement,
    words: HtmlElement,
    names: Option<[String; 3]>,
}

impl GainBars {
    /// Builds the bars, hidden until they have figures, at the end of
    /// `parent`.
    pub fn build(parent: &Element) -> Result<GainBars, JsValue> {
        let root: HtmlElement = dom::child(parent, "div", "gain")?;
        root.set_hidden(true);
        // The title and bars in one box, the sentence beside it where there
        // is room, else under it.
        let figure: HtmlElement = dom::child(&root, "div", "gain-chart")?;
        let title = dom::text_child(&figure, "p", "gain-title", "p99 queue time ")?;
        let span = dom::text_child(&title, "span", "window", "")?;
        let chart: HtmlElement = dom::child(&figure, "div", "gain-bars")?;
        let row = |class: &str| -> Result<Row, JsValue> {
            let name = dom::text_child(&chart, "span", "gain-name", "")?;
            let track: HtmlElement = dom::child(&chart, "span", "gain-track")?;
            let bar = dom::child(&track, "span", &format!("gain-bar {class}"))?;
            let value = dom::text_child(&chart, "span", "gain-value", "")?;
            Ok(Row { name, track, bar, value })
        };
        let rows = [row("twin")?, row("reference")?, row("own")?];
        let lost: HtmlElement = dom::child(&rows[2].track, "span", "gain-lost")?;
        let note = dom::text_child(&figure, "p", "gain-note", "")?;
        let words = dom::text_child(&root, "p", "gain-words", "")?;
        Ok(GainBars { root, span, rows, lost, note, words, names: None })
    }

    /// Names the three runs (twin, reference, own; `None` without a twin)
    /// and says what the reference is (`note`).
    pub fn name(&mut self, names: Option<[String; 3]>, note: Option<String>) {
        if let Some(names) = &names {
            for (row, name) in self.rows.iter().zip(names) {
                set_text(&row.name, name);
            }
        }
        set_text(&self.note, note.as_deref().unwrap_or_default());
        self.names = names;
    }

    /// Shows `gain` over `span`, after `measured_s` simulated seconds of
    /// measuring; while a run has finished nothing, the bars keep their
    /// room but show nothing, so that the pictures above them do not move
    /// as the first figures come (steady.test).
    pub fn show(&self, (span, measured_s): (Span, f64), gain: Option<Gain>) {
        let Some(names) = &self.names else {
            set_hidden(&self.root, true);
            return;
        };
        set_hidden(&self.root, false);
        let style = self.root.style();
        let Some(gain) = gain else {
            let _ = style.set_property("visibility", "hidden");
            return;
        };
        let _ = style.set_property("visibility", "visible");
        set_text(&self.span, &span.note());
        let bars = gain.bars();
        let figures = [gain.twin_ms, gain.reference_ms, gain.own_ms];
        for ((row, length), ms) in self.rows.iter().zip(bars.lengths).zip(figures) {
            let _ = row.bar.style().set_property("width", &percent(length));
            set_text(&row.value, &format!("{} ms", grouped(ms, 1)));
        }
        set_hidden(&self.lost, bars.lost.is_none());
        if let Some((from, to)) = bars.lost {
            let style = self.lost.style();
            let _ = style.set_property("left", &percent(from));
            let _ = style.set_property("width", &percent(to - from));
        }
        set_text(&self.words, &words_after(&gain, names, measured_s));
    }
}
