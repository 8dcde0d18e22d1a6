//! How an embed keeps its shape in the box it is given. An embed's parts
//! have an order of importance: the picture, then one chart, then a
//! one-line strip of readouts, then the controls; the legend, further
//! charts, the full readouts, the sentences after the first and the
//! decision's caption matter less. The view measures its own box (the
//! page's `ResizeObserver` reports changes) and, starting from everything
//! shown, folds the least important part still shown until the rest fits
//! (see [`Fold`]): the legend behind a "Key" button, the charts into tabs,
//! the controls into the "More" drawer (where the downloads live), the
//! readouts to one line beside the buttons, the sentences to the first
//! (the whole in the drawer), the decision's caption away (the picture
//! draws it). A part never overlaps another or leaves the box.
//!
//! Below [`NARROW_BELOW_PX`] of width, or given no height (a view a script
//! mounts without one), the parts stack and the view takes the height they
//! need (a phone scrolls the page); on the embed page, a frame that is then
//! too short says which height its author should give it.

use super::dom;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

/// Narrower than this (CSS px), an embed stacks its parts.
const NARROW_BELOW_PX: i32 = 560;
/// What can fold, least important part first; each fold is a class on
/// the root, and two also move their part.
#[derive(Clone, Copy)]
enum Fold {
    Legend,
    Charts,
    Controls,
    Readouts,
    Sentence,
    Decision,
}

const FOLDS: [Fold; 6] =
    [Fold::Legend, Fold::Charts, Fold::Controls, Fold::Readouts, Fold::Sentence, Fold::Decision];

impl Fold {
    fn class(self) -> &'static str {
        match self {
            Fold::Legend => "fold-legend",
            Fold::Charts => "fold-charts",
            Fold::Controls => "fold-controls",
            Fold::Readouts => "fold-readouts",
            Fold::Sentence => "fold-sentence",
            Fold::Decision => "fold-decision",
        }
    }

    fn is_on(self, root: &HtmlElement) -> bool {
        is(root, self.class())
    }

    /// Folds or unfolds the part: the class; the readouts move into the
    /// row of buttons, those that wrap past its one line left out; the
    /// controls move into the drawer.
    fn set(self, root: &HtmlElement, folded: bool) {
        let _ = root.class_list().toggle_with_force(self.class(), folded);
        match self {
            Fold::Readouts => strip_readouts(root, folded),
            Fold::Controls => drawer_controls(root, folded),
            _ => {}
        }
    }
}
/// The least height (CSS px) at which the picture still reads; a chart's is
/// its figure's own (`--min-h` on its canvas, see `figures`).
const PICTURE_MIN_PX: i32 = 120;
/// In a box at least this big, the picture covers at least
/// [`PICTURE_SHARE`] of it.
const SHARE_FROM: (i32, i32) = (640, 400);
const PICTURE_SHARE: f64 = 0.4;
/// How often (wall ms) a running view checks that its content, which
/// changes as it runs (a longer sentence, a notice), still fits.
const CHECK_MS: f64 = 250.0;

/// One embed's fitting: whether its box changed since it last fitted, and
/// when it last checked.
pub struct Fit {
    root: HtmlElement,
    dirty: bool,
    last_check_ms: f64,
}

impl Fit {
    /// Stacks a view built narrow at once (a view out of sight gets no
    /// frame to fit itself in, and must not stick out of its page); the
    /// rest waits for its first frame.
    pub fn new(root: &HtmlElement) -> Fit {
        let _ = root.class_list().toggle_with_force("stacked", stacks(root));
        Fit { root: root.clone(), dirty: true, last_check_ms: f64::NEG_INFINITY }
    }

    /// The view's box or content changed: fit afresh on the next frame.
    pub fn invalidate(&mut self) {
        self.dirty = true;
    }

    /// Called each frame the view draws: fits afresh when asked to, and
    /// now and then folds more parts if what the view shows has grown.
    pub fn frame(&mut self, now_ms: f64) {
        if std::mem::take(&mut self.dirty) {
            refit(&self.root);
            self.last_check_ms = now_ms;
        } else if now_ms - self.last_check_ms >= CHECK_MS {
            self.last_check_ms = now_ms;
            // The figures change width as they run: the strip is redrawn.
            if Fold::Readouts.is_on(&self.root) {
                strip_readouts(&self.root, true);
            }
            if !is(&self.root, "stacked") {
                fold_until_fits(&self.root);
            }
            show_size_note(&self.root);
        }
    }

    /// Opens or closes the legend of a view whose legend is folded.
    pub fn toggle_key(&self) {
        toggle_open(&self.root, "key-open", ".key-toggle");
    }

    /// Opens or closes the drawer (downloads, and the controls once folded).
    pub fn toggle_drawer(&self) {
        let open = toggle_open(&self.root, "drawer-open", ".more-toggle");
        if let (Some(said), Some(whole)) = (find(&self.root, ".readback"), find(&self.root, ".said-in-full"))
        {
            whole.set_text_content(said.text_content().as_deref());
        }
        if let Some(drawer) = find(&self.root, ".drawer") {
            drawer.set_hidden(!open);
        }
    }

    /// Shows the chart of tab `index` when the charts are folded into tabs.
    pub fn show_tab(&self, index: usize) {
        show_tab(&self.root, index);
    }
}

/// Fits `root` afresh: stacks it when narrow, else shows everything and
/// folds parts, least important first, until the rest fits.
fn refit(root: &HtmlElement) {
    let narrow = stacks(root);
    let _ = root.class_list().toggle_with_force("stacked", narrow);
    for fold in FOLDS.iter().rev() {
        fold.set(root, false);
    }
    sync_tabs(root);
    if !narrow {
        fold_until_fits(root);
    }
    show_size_note(root);
}

/// Folds the parts still shown, least important first, until the rest fits.
fn fold_until_fits(root: &HtmlElement) {
    for fold in FOLDS.iter().filter(|fold| !fold.is_on(root)) {
        if fits(root) {
            break;
        }
        fold.set(root, true);
    }
}

/// Puts the readouts in the row of buttons as one line (the ones that wrap
/// left out), or back above the picture.
fn strip_readouts(root: &HtmlElement, folded: bool) {
    let (Some(readouts), Some(transport)) = (find(root, ".readouts"), find(root, ".transport")) else {
        return;
    };
    let strip = all(root, ".readouts > .readout");
    for readout in &strip {
        let _ = readout.class_list().remove_1("off-line");
    }
    if !folded {
        let _ = find(root, ".stage").map(|stage| stage.prepend_with_node_1(&readouts));
        return;
    }
    if readouts.parent_element().is_none_or(|parent| !parent.is_same_node(Some(&transport))) {
        let key: Option<web_sys::Node> = find(root, ".key-toggle").map(Into::into);
        let _ = transport.insert_before(&readouts, key.as_ref());
    }
    // The first line is the highest (the strip puts p99 first).
    let tops: Vec<Option<f64>> = strip
        .iter()
        .map(|r| Some(r.get_bounding_client_rect()).filter(|b| b.height() > 0.0).map(|b| b.top()))
        .collect();
    let first_line = tops.iter().flatten().copied().fold(f64::INFINITY, f64::min);
    for (readout, top) in strip.iter().zip(&tops) {
        if top.is_some_and(|top| top > first_line + 2.0) {
            let _ = readout.class_list().add_1("off-line");
        }
    }
}

/// Puts the controls in the drawer, or back beside the buttons.
fn drawer_controls(root: &HtmlElement, folded: bool) {
    let (Some(controls), Some(drawer), Some(transport)) =
        (find(root, ".transport-controls"), find(root, ".drawer"), find(root, ".transport"))
    else {
        return;
    };
    let key: Option<web_sys::Node> = find(root, ".key-toggle").map(Into::into);
    let _ = match folded {
        true => drawer.prepend_with_node_1(&controls),
        false => transport.insert_before(&controls, key.as_ref()).map(|_| ()),
    };
}

/// Whether everything shown lies inside the box, with the picture and each
/// chart at least at their least useful size.
fn fits(root: &HtmlElement) -> bool {
    let inside = |element: &Element| element.scroll_height() <= element.client_height() + 1;
    let (width, height) = (root.client_width(), root.client_height());
    let Some(picture) = find(root, ".topology") else { return inside(root) };
    let picture_ok = picture.client_height() >= PICTURE_MIN_PX
        && (width < SHARE_FROM.0
            || height < SHARE_FROM.1
            || f64::from(picture.client_width() * picture.client_height())
                >= PICTURE_SHARE * f64::from(width * height));
    let charts_ok = all(root, ".charts canvas")
        .iter()
        .filter(|canvas| canvas.offset_parent().is_some())
        .all(|canvas| canvas.client_height() >= least_height(canvas));
    let layout_ok = find(root, ".layout").is_none_or(|layout| inside(&layout));
    inside(root) && layout_ok && picture_ok && charts_ok
}

/// The least height of a chart's canvas, as its figure gives it.
fn least_height(canvas: &HtmlElement) -> i32 {
    let given = canvas.style().get_property_value("--min-h").unwrap_or_default();
    given.trim().trim_end_matches("px").parse::<f64>().map_or(PICTURE_MIN_PX, |px| px.ceil() as i32)
}

/// On the embed page, a frame too short for its view says which height
/// it needs, so that its author can give the iframe that height.
fn show_size_note(root: &HtmlElement) {
    let Some(note) = find(root, ".size-note") else { return };
    if !(on_embed_page() && is(root, "stacked")) {
        note.set_hidden(true);
        return;
    }
    let needed = root.scroll_height();
    let available = dom::window().inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(0.0) as i32;
    if needed > available + 1 {
        let text = format!(
            "This view needs a frame about {} px tall at this width; this one is {available} px.",
            needed + 20
        );
        if note.text_content().as_deref() != Some(text.as_str()) {
            note.set_text_content(Some(&text));
        }
    }
    note.set_hidden(needed <= available + 1);
}

/// Whether a view stacks its parts: narrow, or given no height.
fn stacks(root: &HtmlElement) -> bool {
    let unbounded =
        root.style().get_property_value("height").unwrap_or_default().is_empty() && !on_embed_page();
    unbounded || root.client_width() < NARROW_BELOW_PX
}

/// Whether the view is the embed page's own, which fills its frame.
fn on_embed_page() -> bool {
    dom::document().body().is_some_and(|body| body.class_list().contains("embed-page"))
}

/// Sets a tab per chart when the charts are folded into tabs: the first
/// chart that can show, unless a shown one is chosen already.
fn sync_tabs(root: &HtmlElement) {
    let figures = all(root, ".charts > figure");
    for (figure, tab) in figures.iter().zip(all(root, ".chart-tabs > button")) {
        tab.set_hidden(figure.hidden());
    }
    let chosen = figures.iter().position(|f| !f.hidden() && f.class_list().contains("tab-shown"));
    let first = figures.iter().position(|f| !f.hidden());
    if let Some(index) = chosen.or(first) {
        show_tab(root, index);
    }
}

fn show_tab(root: &HtmlElement, index: usize) {
    let tabs = all(root, ".chart-tabs > button");
    for (i, figure) in all(root, ".charts > figure").iter().enumerate() {
        let _ = figure.class_list().toggle_with_force("tab-shown", i == index);
        if let Some(tab) = tabs.get(i) {
            let _ = tab.set_attribute("aria-selected", if i == index { "true" } else { "false" });
        }
    }
}

/// Flips `class` on the root and the button's `aria-expanded`; returns
/// whether it is now set.
fn toggle_open(root: &HtmlElement, class: &str, button: &str) -> bool {
    let open = root.class_list().toggle(class).unwrap_or(false);
    if let Some(button) = find(root, button) {
        let _ = button.set_attribute("aria-expanded", if open { "true" } else { "false" });
    }
    open
}

fn is(root: &HtmlElement, class: &str) -> bool {
    root.class_list().contains(class)
}

fn find(root: &HtmlElement, selector: &str) -> Option<HtmlElement> {
    root.query_selector(selector).ok().flatten().and_then(|e| e.dyn_into().ok())
}

fn all(root: &HtmlElement, selector: &str) -> Vec<HtmlElement> {
    let Ok(list) = root.query_selector_all(selector) else { return Vec::new() };
    (0..list.length()).filter_map(|i| list.item(i)?.dyn_into().ok()).collect()
}
