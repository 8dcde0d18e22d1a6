//! What a view is made of, built inside its root: the notice area, a
//! caption, the sentences that read the numbers back, the stage (readouts, topology and its legend, transport), the
//! lab's settings panel or an embed's few controls, and the charts. Each
//! module builds its own elements into the containers made here.

use super::canvases::Canvases;
use super::controls::{Controls, Placement};
use super::dom::{self, Ids};
use super::narration::Narration;
use super::notice::Notices;
use super::options::{Kind, Options, Theme};
use super::readouts::Readouts;
use super::share::Share;
use super::transport::Transport;
use wasm_bindgen::JsValue;
use web_sys::{Element, HtmlElement};

pub struct Parts {
    pub notices: Notices,
    pub narration: Narration,
    pub readouts: Readouts,
    pub canvases: Canvases,
    pub transport: Transport,
    /// The lab's "Copy embed code".
    pub share: Option<Share>,
    pub controls: Controls,
}

impl Parts {
    /// Empties `root` and builds a view of `kind` with `options` in it.
    pub fn build(root: &HtmlElement, kind: Kind, options: &Options) -> Result<Parts, JsValue> {
        let ids = Ids::for_root(root);
        root.set_text_content(None);
        root.set_class_name(match kind {
            Kind::Lab => "lbsim-view lbsim-lab",
            Kind::Embed => "lbsim-view lbsim-embed",
        });
        apply_look(root, options)?;
        let notices = Notices::build(root, &ids)?;
        let caption = dom::text_child(root, "p", "caption", &options.caption)?;
        caption.set_hidden(options.caption.is_empty());
        let narration = Narration::build(root, options)?;
        let layout: Element = dom::child(root, "div", "layout")?;
        // Landmarks named apart when a page holds several views.
        let named = |what: &str| match view_name(root, options) {
            Some(name) => format!("{what}: {name}"),
            None => what.to_string(),
        };
        let stage: Element = dom::child(&layout, "section", "stage")?;
        stage.set_attribute("aria-label", &named("Simulation"))?;
        let panel = match kind {
            Kind::Lab => {
                let panel: Element = dom::child(&layout, "aside", "controls")?;
                dom::set_attributes(&panel, &[("id", &ids.of("controls")), ("aria-label", "Settings")])?;
                dom::text_child(&panel, "h2", "", "Settings")?;
                Some(panel)
            }
            Kind::Embed => None,
        };
        let figures: HtmlElement = dom::child(&layout, "section", "charts")?;
        figures.set_attribute("aria-label", &named("Charts"))?;
        figures.set_hidden(options.charts.is_empty());

        let readouts = Readouts::build(&stage, &ids)?;
        let canvases = Canvases::build(root, &stage, &figures, &options.charts, &ids)?;
        let transport = Transport::build(&stage, &ids, kind == Kind::Lab)?;
        let share = panel.as_ref().map(|panel| Share::build(panel, &ids)).transpose()?;
        let placement = match &panel {
            Some(panel) => Placement::Grouped { transport: &transport.controls, panel },
            None => Placement::Flat(&transport.controls),
        };
        let controls = Controls::build(&options.controls, placement, &ids)?;
        Ok(Parts { notices, narration, readouts, canvases, transport, share, controls })
    }
}

/// What to call a view: its caption, or else the heading of the section of
/// the page it sits in (an explainer's).
fn view_name(root: &HtmlElement, options: &Options) -> Option<String> {
    if !options.caption.is_empty() {
        return Some(options.caption.clone());
    }
    let section = root.closest("section").ok().flatten()?;
    let heading = section.query_selector("h2, h3").ok().flatten()?.text_content()?;
    let heading = heading.split_whitespace().collect::<Vec<_>>().join(" ");
    (!heading.is_empty()).then_some(heading)
}

/// The options that change only how the view looks: its theme and height.
fn apply_look(root: &HtmlElement, options: &Options) -> Result<(), JsValue> {
    match options.theme {
        Theme::Auto => root.remove_attribute("data-theme")?,
        theme => root.set_attribute("data-theme", theme.name())?,
    }
    match options.height {
        Some(height) => root.style().set_property("height", &format!("{height}px"))?,
        None => root.style().remove_property("height").map(|_| ())?,
    }
    Ok(())
}
