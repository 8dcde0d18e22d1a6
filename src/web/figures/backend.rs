//! The canvas the charts are drawn on: plotters-canvas's backend, with each
//! label's box kept once measured. plotters measures a text in a browser by
//! putting a span into the page and reading its box, a layout of the page
//! each time, and a chart measures its ticks, titles and notes every time
//! it draws, mostly the same strings as the time before (0.37 s of the
//! explainer's 20 s scroll, in e2f29b1 and main alike). A box depends on
//! the font's family, style and size and on the text alone, so it is kept
//! (see [`TextWidths`]): the charts are laid out to the same px.

use lbsim::ui::text_widths::TextWidths;
use plotters::prelude::*;
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind};
use plotters_canvas::CanvasBackend;
use std::cell::RefCell;
use web_sys::HtmlCanvasElement;

thread_local! {
    /// The boxes of the labels measured so far, by font and text.
    static BOXES: RefCell<TextWidths<Option<(u32, u32)>>> = RefCell::default();
}

/// plotters-canvas's backend on a canvas, measuring each text once.
pub struct Canvas(CanvasBackend);

impl Canvas {
    /// The backend drawing on `canvas`, if it has a 2D context.
    pub fn on(canvas: HtmlCanvasElement) -> Option<Canvas> {
        CanvasBackend::with_canvas_object(canvas).map(Canvas)
    }
}

/// plotters-canvas's error, which it does not name outside.
type CanvasError = <CanvasBackend as DrawingBackend>::ErrorType;
type Drawn = Result<(), DrawingErrorKind<CanvasError>>;

impl DrawingBackend for Canvas {
    type ErrorType = CanvasError;

    fn get_size(&self) -> (u32, u32) {
        self.0.get_size()
    }

    fn ensure_prepared(&mut self) -> Drawn {
        self.0.ensure_prepared()
    }

    fn present(&mut self) -> Drawn {
        self.0.present()
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Drawn {
        self.0.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, style: &S) -> Drawn {
        self.0.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Drawn {
        self.0.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Drawn {
        self.0.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Drawn {
        self.0.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Drawn {
        self.0.fill_polygon(vert, style)
    }

    fn draw_text<S: BackendTextStyle>(&mut self, text: &str, style: &S, pos: BackendCoord) -> Drawn {
        self.0.draw_text(text, style, pos)
    }

    fn blit_bitmap(&mut self, pos: BackendCoord, size: (u32, u32), src: &[u8]) -> Drawn {
        self.0.blit_bitmap(pos, size, src)
    }

    /// The box plotters-canvas's backend gives, measured once per font and
    /// text; a text it could not measure is measured again next time.
    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<CanvasError>> {
        let font = format!("{} {} {}", style.family().as_str(), style.style().as_str(), style.size());
        let measure = || self.0.estimate_text_size(text, style).ok();
        match BOXES.with(|boxes| boxes.borrow_mut().width(&font, text, measure)) {
            Some(size) => Ok(size),
            None => self.0.estimate_text_size(text, style),
        }
    }
}
