//! A canvas and its 2D context, kept crisp on high-density screens: the
//! backing store follows the canvas's displayed size times the device pixel
//! ratio, checked at the start of every frame that draws it.

use super::dom;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// The property a canvas's least height is given in (see `src/web/fit.rs`).
const LEAST_HEIGHT: &str = "--min-h";

pub struct Surface {
    pub canvas: HtmlCanvasElement,
    pub context: CanvasRenderingContext2d,
    /// Displayed size in CSS pixels.
    pub width: f64,
    pub height: f64,
    /// Device pixels per CSS pixel.
    pub scale: f64,
    /// What the picture drawn beside this one (the other run of a twin)
    /// shows that this one's rows follow.
    pub beside: Beside,
    /// The longest queue of the run so far, in this picture or the twin's
    /// beside it: where it outgrows a lane, every row of both draws its
    /// queue on one finer pitch (see `lbsim::ui::marks::shared_queue_pitch`).
    pub longest_queue: u32,
}

/// What the other picture of a twin shows that both pictures' rows
/// follow, so that they share one row scale and equal queues are drawn
/// equally long: chapter 6's random twin drew its queues scaled to its
/// own longest, beside a picture where a queued request is as wide as a
/// slot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Beside {
    /// The other picture writes a client's copies of the servers' loads
    /// beside its rows: the rows here leave the same column and draw
    /// their queues to the slots' scale too (see `lbsim::ui::row_scale`).
    pub copies: bool,
}

impl Surface {
    pub fn new(canvas: HtmlCanvasElement) -> Result<Surface, JsValue> {
        let context: CanvasRenderingContext2d =
            canvas.get_context("2d")?.ok_or_else(|| JsValue::from_str("no 2D canvas context"))?.dyn_into()?;
        let beside = Beside::default();
        Ok(Surface { canvas, context, width: 0.0, height: 0.0, scale: 1.0, beside, longest_queue: 0 })
    }

    /// Matches the backing store to the displayed size; true when it changed.
    pub fn fit(&mut self) -> bool {
        let scale = dom::window().device_pixel_ratio().max(1.0);
        let (width, height) = (f64::from(self.canvas.client_width()), f64::from(self.canvas.client_height()));
        let (pixels_wide, pixels_high) = ((width * scale).round() as u32, (height * scale).round() as u32);
        if (width, height, scale) == (self.width, self.height, self.scale)
            && (pixels_wide, pixels_high) == (self.canvas.width(), self.canvas.height())
        {
            return false;
        }
        self.canvas.set_width(pixels_wide);
        self.canvas.set_height(pixels_high);
        (self.width, self.height, self.scale) = (width, height, scale);
        true
    }

    /// Tells the view's fitting (`src/web/fit.rs`) the least height (CSS
    /// px) at which the drawing reads, as a chart's figure does.
    pub fn ask_least_height(&self, px: f64) {
        let (style, value) = (self.canvas.style(), format!("{}px", px.ceil()));
        if style.get_property_value(LEAST_HEIGHT).ok().as_deref() != Some(value.as_str()) {
            let _ = style.set_property(LEAST_HEIGHT, &value);
        }
    }

    /// Clears the canvas and sets the transform so drawing is in CSS pixels.
    pub fn begin(&self) {
        let context = &self.context;
        let _ = context.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0);
        context.clear_rect(0.0, 0.0, f64::from(self.canvas.width()), f64::from(self.canvas.height()));
        let _ = context.set_transform(self.scale, 0.0, 0.0, self.scale, 0.0, 0.0);
    }
}
