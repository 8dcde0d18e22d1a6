//! A view's playback row: play or pause, step, reset, a place for controls
//! beside them (the speed, in the lab; an embed's few controls), and in the
//! lab a line on the keyboard shortcuts.

use super::dom::{self, Ids};
use wasm_bindgen::JsValue;
use web_sys::{Element, HtmlElement};

pub struct Transport {
    pub play: HtmlElement,
    pub step: HtmlElement,
    pub reset: HtmlElement,
    /// The lab's button for the presenter view.
    pub present: Option<HtmlElement>,
    /// Where controls beside the buttons go.
    pub controls: Element,
    /// An embed's buttons for its folded charts, its folded legend and
    /// its drawer (downloads, and its controls once they are folded too).
    pub chart: Option<HtmlElement>,
    pub key: Option<HtmlElement>,
    pub more: Option<HtmlElement>,
}

impl Transport {
    /// Builds the row at the end of `parent`; `lab` adds the presenter
    /// button and the shortcuts line.
    pub fn build(parent: &Element, ids: &Ids, lab: bool) -> Result<Transport, JsValue> {
        let row: HtmlElement = dom::child(parent, "div", "transport")?;
        dom::set_attributes(&row, &[("role", "group"), ("aria-label", "Playback")])?;
        let button = |part: &str, class: &str, text: &str, title: &str| -> Result<HtmlElement, JsValue> {
            let button = dom::text_child(&row, "button", class, text)?;
            dom::set_attributes(&button, &[("id", &ids.of(part)), ("type", "button")])?;
            if !title.is_empty() {
                button.set_title(title);
            }
            Ok(button)
        };
        // A button that says what it will do (its name changes between
        // Play and Pause), so it carries no pressed state to contradict it.
        let play = button("play", "play", "Pause", "Play or pause (shortcut: space)")?;
        let step = button(
            "step",
            "",
            "Step",
            "Pause and process the next event, or run on to the next decision where decisions are drawn; \
             told below (shortcut: s; with Shift, one event)",
        )?;
        let reset = button("reset", "", "Reset", "Start over from the same seed (shortcut: r)")?;
        let present = match lab {
            true => Some(button(
                "present",
                "",
                "Present",
                "Large type for a projector; h shows the settings (shortcut: p)",
            )?),
            false => None,
        };
        let controls: Element = dom::child(&row, "div", "transport-controls")?;
        controls.set_id(&ids.of("transport"));
        let (chart, key, more) = match lab {
            true => (None, None, None),
            false => {
                let chart =
                    button("chart-toggle", "quiet chart-toggle", "Chart", "The chart, over the picture")?;
                let key =
                    button("key-toggle", "quiet key-toggle", "Key", "What the marks in the picture mean")?;
                let more = button(
                    "more-toggle",
                    "quiet more-toggle",
                    "More",
                    "Downloads, and settings that did not fit",
                )?;
                dom::set_attributes(
                    &chart,
                    &[("aria-expanded", "false"), ("aria-controls", &ids.of("charts"))],
                )?;
                dom::set_attributes(
                    &key,
                    &[("aria-expanded", "false"), ("aria-controls", &ids.of("legend"))],
                )?;
                dom::set_attributes(
                    &more,
                    &[("aria-expanded", "false"), ("aria-controls", &ids.of("drawer"))],
                )?;
                (Some(chart), Some(key), Some(more))
            }
        };
        if lab {
            // Beside the stage's other parts, so a page can place it apart.
            let line: HtmlElement = dom::child(parent, "p", "hint")?;
            line.set_inner_html(
                "Keys: <kbd>space</kbd> plays or pauses, <kbd>s</kbd> steps (to the next decision where decisions are drawn; \
                 <kbd>Shift</kbd>+<kbd>s</kbd> one event), <kbd>r</kbd> resets, \
                 <kbd>p</kbd> presents, <kbd>h</kbd> shows the settings while presenting, <kbd>Esc</kbd> leaves a control.",
            );
        }
        Ok(Transport { play, step, reset, present, controls, chart, key, more })
    }

    /// Shows whether the view is playing, or that it is over and can replay.
    pub fn show_playing(&self, playing: bool, over: bool) {
        let text = match (playing, over) {
            (true, _) => "Pause",
            (false, false) => "Play",
            (false, true) => "Replay",
        };
        self.play.set_text_content(Some(text));
    }
}
