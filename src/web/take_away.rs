//! Figures to take away from any view: the live series and each server's
//! share of the work as CSV (the same files `lbsim run --csv` writes), and
//! each chart shown as a PNG, all named after the view, the seed and the
//! version. A chart hidden for now (where keys live, under a policy that
//! ignores keys) offers no picture: it would be an empty file.

use super::dom::{self, Ids};
use super::recording;
use lbsim::{export, Simulation};
use wasm_bindgen::prelude::*;
use web_sys::{Element, HtmlAnchorElement, HtmlCanvasElement, HtmlElement};

/// What a button downloads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Download {
    Series,
    Servers,
    /// The view's canvas of this index: the topology, then each chart.
    Picture(usize),
    /// The picture and charts under the sentence, as one PNG.
    Poster,
    /// A few seconds of the running view, as WebM.
    Clip,
}

pub struct TakeAway {
    /// Each button and what it downloads.
    pub buttons: Vec<(HtmlElement, Download)>,
    canvases: Vec<HtmlCanvasElement>,
    /// What the last poster drew, for tests.
    pub poster_drawn: Option<recording::Drawn>,
}

/// Whether `canvas` is hidden, or inside something hidden.
fn hidden(canvas: &HtmlCanvasElement) -> bool {
    canvas.closest("[hidden]").ok().flatten().is_some()
}

impl TakeAway {
    /// Builds a "Take away" box at the end of `parent`, offering the CSV
    /// files and a PNG of each of `canvases` (with their names); folded,
    /// unless `open` (in a drawer, which is itself folded).
    pub fn build(
        parent: &Element,
        ids: &Ids,
        canvases: Vec<(HtmlCanvasElement, String)>,
        open: bool,
    ) -> Result<TakeAway, JsValue> {
        let details: HtmlElement = dom::child(parent, "details", "take-away")?;
        if open {
            details.set_attribute("open", "")?;
        }
        details.set_id(&ids.of("take-away"));
        dom::text_child(&details, "summary", "", "Take away: data and pictures")?;
        let row: HtmlElement = dom::child(&details, "div", "take-away-buttons")?;
        let mut buttons = Vec::new();
        let mut add = |part: &str, text: &str, download| -> Result<(), JsValue> {
            let button = dom::text_child(&row, "button", "quiet", text)?;
            dom::set_attributes(&button, &[("id", &ids.of(part)), ("type", "button")])?;
            buttons.push((button, download));
            Ok(())
        };
        add("download-series", "Series (CSV)", Download::Series)?;
        add("download-servers", "Servers (CSV)", Download::Servers)?;
        add("download-poster", "Poster (PNG)", Download::Poster)?;
        let clip = format!("Clip ({:.0} s, WebM)", recording::CLIP_SECONDS);
        add("download-clip", &clip, Download::Clip)?;
        let mut kept = Vec::with_capacity(canvases.len());
        for (index, (canvas, name)) in canvases.into_iter().enumerate() {
            add(
                &format!("download-{name}"),
                &format!("{} (PNG)", capitalised(&name)),
                Download::Picture(index),
            )?;
            kept.push(canvas);
        }
        Ok(TakeAway { buttons, canvases: kept, poster_drawn: None })
    }

    /// The view's canvases, the topology's first.
    pub fn canvases(&self) -> &[HtmlCanvasElement] {
        &self.canvases
    }

    /// The button that records a clip, to say how long it has left.
    pub fn clip_button(&self) -> Option<&HtmlElement> {
        self.buttons.iter().find(|(_, what)| *what == Download::Clip).map(|(button, _)| button)
    }

    /// Offers a picture of each canvas shown, and none of one hidden.
    pub fn offer_shown(&self) {
        for (button, download) in &self.buttons {
            if let Download::Picture(index) = download {
                button.set_hidden(self.canvases.get(*index).is_none_or(hidden));
            }
        }
    }

    /// What the picture of canvas `index` is called in its file's name
    /// ("topology", "percentiles"), if it is offered: none of a canvas
    /// hidden for now.
    pub fn picture_part(&self, index: usize) -> Option<String> {
        let canvas = self.canvases.get(index).filter(|canvas| !hidden(canvas))?;
        Some(canvas.id().rsplit('-').next().unwrap_or("chart").to_string())
    }

    /// Downloads `what` of `sim`, its files named after `name`.
    pub fn download(&self, what: Download, name: &str, sim: &Simulation) {
        let seed = sim.scenario().seed;
        let result = match what {
            Download::Series => {
                let file = export::file_name(name, seed, "series.csv");
                save_text(&file, &export::series_csv(&sim.metrics().series))
            }
            Download::Servers => {
                save_text(&export::file_name(name, seed, "servers.csv"), &export::servers_csv(&sim.summary()))
            }
            // The view draws or composes these from its parts (see
            // `View::download`).
            Download::Picture(_) | Download::Poster | Download::Clip => Ok(()),
        };
        if let Err(error) = result {
            web_sys::console::error_1(&error);
        }
    }
}

/// `name` with its first letter a capital. Chart names are ASCII, and
/// `char::to_uppercase` would bring Unicode's case tables into the module.
fn capitalised(name: &str) -> String {
    let mut name = name.to_owned();
    if let Some(first) = name.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    name
}

/// Saves `text` as a CSV file called `file`.
fn save_text(file: &str, text: &str) -> Result<(), JsValue> {
    let url = format!("data:text/csv;charset=utf-8,{}", js_sys::encode_uri_component(text));
    save_url(file, &url)
}

/// Saves what `url` holds as `file`, by a click on a link that says so.
pub fn save_url(file: &str, url: &str) -> Result<(), JsValue> {
    let link: HtmlAnchorElement = dom::create("a", "")?;
    link.set_href(url);
    link.set_download(file);
    link.click();
    Ok(())
}
