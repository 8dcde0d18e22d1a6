//! How an embed keeps its shape in the box it is given: this measures the
//! view and applies what `lbsim::ui::fit` decides from the measures (which
//! parts fold, in which order, and the height a view needs when its
//! controls cannot show). The page's `ResizeObserver` reports a changed
//! box; each fold is a class on the root (the charts folded away open
//! over the picture from a "Chart" button), and two also move their part:
//! the readouts into the row of buttons as one line, the controls into the
//! "More" drawer (where the downloads live). A part never overlaps another
//! or leaves the box.
//!
//! Stacked (narrow, or given no height: a view a script mounts without
//! one), the view takes the height its parts need (a phone scrolls the
//! page); on the embed page, a frame that is then too short says which
//! height its author should give it, as does any view whose controls had
//! to fold (in its drawer, beside them).

use super::{dom, popup};
use lbsim::number;
use lbsim::ui::fit::{self as rules, Fitting, Fold, Measure, Pictures, Short};
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

/// Applies a part's fold: the class; the readouts move into the row of
/// buttons, those that wrap past its one line left out; the controls move
/// into the drawer.
fn set_fold(root: &HtmlElement, fold: Fold, folded: bool) {
    let _ = root.class_list().toggle_with_force(fold.class(), folded);
    match fold {
        Fold::Readouts => strip_readouts(root, folded),
        Fold::Controls => drawer_controls(root, folded),
        _ => {}
    }
}

/// How often (wall ms) a running view checks that its content, which
/// changes as it runs (a longer sentence, a notice), still fits.
const CHECK_MS: f64 = 250.0;

/// One embed's fitting: what is folded, whether its box changed since it
/// last fitted, and when it last checked.
pub struct Fit {
    root: HtmlElement,
    fitting: Fitting,
    dirty: bool,
    last_check_ms: f64,
}

impl Fit {
    /// Stacks a view built narrow at once (a view out of sight gets no
    /// frame to fit itself in, and must not stick out of its page); the
    /// rest waits for its first frame.
    pub fn new(root: &HtmlElement) -> Fit {
        let _ = root.class_list().toggle_with_force("stacked", stacks(root));
        Fit { root: root.clone(), fitting: Fitting::start(), dirty: true, last_check_ms: f64::NEG_INFINITY }
    }

    /// The view's box or content changed: fit afresh on the next frame.
    pub fn invalidate(&mut self) {
        self.dirty = true;
    }

    /// Called each frame the view draws (`strip_changed`: whether the
    /// readouts may wrap otherwise since this frame, see
    /// `Readouts::show`): fits afresh when asked to, and now and then
    /// folds more parts if what the view shows has grown.
    pub fn frame(&mut self, now_ms: f64, strip_changed: bool) {
        let check = now_ms - self.last_check_ms >= CHECK_MS;
        // The figures change width as they run: the strip is laid out again
        // in the frame a figure changes its shape, so that one grown too
        // wide leaves the line before it is drawn (every quarter second, the
        // strip wrapped to two lines for a moment and moved chapter 2's
        // picture); and at each check, for anything else in its row. Laid
        // out every frame, it cost a layout of the page per view per frame,
        // the largest new cost in the explainer's scrolling frame since
        // e2f29b1 (a profile of the production builds).
        if (strip_changed || check) && self.fitting.folded().contains(Fold::Readouts) {
            strip_readouts(&self.root, true);
        }
        if std::mem::take(&mut self.dirty) {
            self.refit();
            self.last_check_ms = now_ms;
        } else if check {
            self.last_check_ms = now_ms;
            if !is(&self.root, "stacked") {
                let fitted = self.fold_until_fits();
                // A sentence a line longer for a moment folds the legend:
                // it comes back once the view has room for it again.
                if self.fitting.retry_due(&fitted) {
                    self.show_legend_if_room();
                    self.remeasure_controls();
                }
            }
            self.show_size_note();
        }
    }

    /// Opens or closes the charts of a view whose charts are folded away.
    /// They keep their place at the view's foot: ended above the buttons,
    /// a 680 × 400 embed's keys ring shrank below 150 px.
    pub fn toggle_chart(&self) {
        let open = toggle_open(&self.root, "chart-open", ".chart-toggle");
        place_popup(&self.root, ".charts", open);
    }

    /// Opens or closes the legend of a view whose legend is folded, clear
    /// of the buttons.
    pub fn toggle_key(&self) {
        let open = toggle_open(&self.root, "key-open", ".key-toggle");
        let Some(legend) = find(&self.root, ".stage > .legend") else { return };
        popup::unplace(&legend);
        if open {
            open_above_transport(&self.root, ".stage > .legend");
            popup::place(&legend);
        }
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
        place_popup(&self.root, ".drawer", open);
    }

    /// Shows the chart of tab `index` when the charts are folded into tabs.
    pub fn show_tab(&self, index: usize) {
        show_tab(&self.root, index);
    }

    /// Fits the view afresh: stacks it when narrow, else shows everything
    /// and folds parts, least important first, until the rest fits.
    fn refit(&mut self) {
        let narrow = stacks(&self.root);
        let _ = self.root.class_list().toggle_with_force("stacked", narrow);
        for fold in Fold::ORDER.iter().rev() {
            set_fold(&self.root, *fold, false);
        }
        // The note is measured with the view: the height it names is the
        // view's without it.
        if let Some(note) = find(&self.root, ".size-note") {
            note.set_hidden(true);
        }
        self.fitting = Fitting::start();
        sync_tabs(&self.root);
        if !narrow {
            self.fold_until_fits();
            self.show_legend_if_room();
        }
        self.show_size_note();
    }

    /// The legend lists other entries: the next check tries it again.
    pub fn legend_changed(&mut self) {
        self.fitting.legend_changed();
    }

    /// Folds the parts still shown, as the rules pick them, until the rest
    /// fits or nothing is left to fold; returns what the view measures then.
    fn fold_until_fits(&mut self) -> Measure {
        loop {
            let measured = measure(&self.root);
            match self.fitting.step(&measured) {
                Some(fold) => set_fold(&self.root, fold, true),
                None => return measured,
            }
        }
    }

    /// Shows the legend again where the view fits with it (see
    /// `Fitting::show_legend_if_fits`).
    fn show_legend_if_room(&mut self) {
        if !self.fitting.folded().contains(Fold::Legend) {
            return;
        }
        set_fold(&self.root, Fold::Legend, false);
        if !self.fitting.show_legend_if_fits(&measure(&self.root)) {
            set_fold(&self.root, Fold::Legend, true);
        }
    }

    /// With its controls folded, the view measures itself again with them
    /// shown (and folds them back before anything is drawn), so that the
    /// height its note names follows what it shows as it runs: a sentence
    /// that grew since the controls folded needs that much more. Not while
    /// the drawer is open: moving a control would take it from the reader.
    fn remeasure_controls(&mut self) {
        if !self.fitting.folded().contains(Fold::Controls) || is(&self.root, "drawer-open") {
            return;
        }
        set_fold(&self.root, Fold::Controls, false);
        self.fitting.remeasured_controls(&measure(&self.root));
        set_fold(&self.root, Fold::Controls, true);
    }

    /// A view too short for what it must show says which height it needs,
    /// so that its author can give it that height: a stacked view on the
    /// embed page, its whole height; any view whose controls had to fold,
    /// the height that shows them.
    fn show_size_note(&self) {
        let Some(note) = find(&self.root, ".size-note") else { return };
        let stacked = is(&self.root, "stacked");
        let text = match self.fitting.controls_need() {
            Some(needed) if !stacked => {
                rules::size_note(needed, self.root.client_height(), Short::OfControls)
            }
            _ if stacked && on_embed_page() => {
                let available = dom::window().inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(0.0);
                rules::size_note(self.root.scroll_height(), available as i32, Short::Stacked)
            }
            _ => None,
        };
        if let Some(text) = &text {
            if note.text_content().as_deref() != Some(text.as_str()) {
                note.set_text_content(Some(text));
            }
            place_note(&self.root, &note, !stacked);
        }
        note.set_hidden(text.is_none());
    }
}

/// Puts the size note where it costs the view no height it lacks: with the
/// controls in the drawer, above them (where its author looks for them);
/// a stacked view's above the caption, since its frame scrolls.
fn place_note(root: &HtmlElement, note: &HtmlElement, in_drawer: bool) {
    let home = if in_drawer { find(root, ".drawer") } else { Some(root.clone()) };
    let Some(home) = home.filter(|home| !home.is_same_node(note.parent_node().as_ref())) else { return };
    let _ = match in_drawer {
        true => home.prepend_with_node_1(note),
        false => {
            let caption: Option<web_sys::Node> = find(root, ":scope > .caption").map(Into::into);
            home.insert_before(note, caption.as_ref()).map(|_| ())
        }
    };
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
        if let Some(stage) =
            find(root, ".stage").filter(|stage| !stage.is_same_node(readouts.parent_node().as_ref()))
        {
            let _ = stage.prepend_with_node_1(&readouts);
        }
        return;
    }
    if readouts.parent_element().is_none_or(|parent| !parent.is_same_node(Some(&transport))) {
        let _ = transport.insert_before(&readouts, first_toggle(root).as_ref());
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
    // Moving a control it holds would take the focus from it: a control
    // already in place stays.
    let home = if folded { &drawer } else { &transport };
    if controls.parent_element().is_some_and(|parent| parent.is_same_node(Some(home))) {
        return;
    }
    let _ = match folded {
        true => drawer.prepend_with_node_1(&controls),
        false => transport.insert_before(&controls, first_toggle(root).as_ref()).map(|_| ()),
    };
}

/// The first of the buttons that open a folded part, at the row's end:
/// what moves into the row goes before it.
fn first_toggle(root: &HtmlElement) -> Option<web_sys::Node> {
    find(root, ".chart-toggle").map(Into::into)
}

/// What the view measures of itself with the parts folded so far.
fn measure(root: &HtmlElement) -> Measure {
    let overflow = |element: &Element| element.scroll_height() - element.client_height();
    let charts = all(root, ".charts canvas")
        .iter()
        .filter(|canvas| canvas.offset_parent().is_some())
        .map(|canvas| (canvas.client_height(), least_height(canvas)))
        .collect();
    Measure {
        width: root.client_width(),
        height: root.client_height(),
        content_height: root.scroll_height(),
        layout_overflow: find(root, ".layout").map_or(0, |layout| overflow(&layout)),
        picture: pictures(root),
        charts,
    }
}

/// The pictures shown (a twin's beside or under the view's own), and
/// whether they sit in one row.
fn pictures(root: &HtmlElement) -> Option<Pictures> {
    let shown: Vec<HtmlElement> =
        all(root, ".topology").into_iter().filter(|picture| picture.offset_parent().is_some()).collect();
    let first = shown.first()?;
    Some(Pictures {
        each: shown.iter().map(|picture| (picture.client_width(), picture.client_height())).collect(),
        in_a_row: shown.iter().all(|picture| top(picture) == top(first)),
        least: shown.iter().map(least_height).max().unwrap_or(rules::PICTURE_MIN_PX),
        frame: shown
            .iter()
            .map(|picture| picture.offset_height() - picture.client_height())
            .max()
            .unwrap_or(0),
    })
}

/// Where an element's top lies in the window, to the px.
fn top(element: &HtmlElement) -> i32 {
    element.get_bounding_client_rect().top().round() as i32
}

/// The least height of a chart's canvas, as its figure gives it, or of a
/// picture, as its drawing gives it (see `Surface::ask_least_height`).
fn least_height(canvas: &HtmlElement) -> i32 {
    let given = canvas.style().get_property_value("--min-h").unwrap_or_default();
    number::parse(given.trim().trim_end_matches("px")).map_or(rules::PICTURE_MIN_PX, |px| px.ceil() as i32)
}

/// Whether a view stacks its parts: narrow, or given no height.
fn stacks(root: &HtmlElement) -> bool {
    let bounded =
        !root.style().get_property_value("height").unwrap_or_default().is_empty() || on_embed_page();
    rules::stacks(root.client_width(), bounded)
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

/// Places the pop-up `selector` finds inside the window when it opens, by
/// the rule all pop-ups share; closed, its view's style places it again.
fn place_popup(root: &HtmlElement, selector: &str, open: bool) {
    let Some(popup) = find(root, selector) else { return };
    popup::unplace(&popup);
    if open {
        popup::place(&popup);
    }
}

/// Sets the pop-up `selector` finds to end just above the view's row of
/// buttons: at a fixed distance from the view's foot, it covered Pause,
/// Step and Reset wherever controls stand under them (chapter 3's Key).
fn open_above_transport(root: &HtmlElement, selector: &str) {
    const GAP_PX: f64 = 6.0;
    let (Some(popup), Some(transport)) = (find(root, selector), find(root, ".transport")) else { return };
    let bottom =
        root.get_bounding_client_rect().bottom() - transport.get_bounding_client_rect().top() + GAP_PX;
    let _ = popup.style().set_property("bottom", &format!("{bottom:.0}px"));
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
