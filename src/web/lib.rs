//! The browser app: the engine, compiled to WebAssembly, running inside
//! `requestAnimationFrame` and drawn on canvases, with controls bound to the
//! scenario's field table and every setting mirrored in the URL hash.
//!
//! A crate of its own beside the engine (the package at the top of the
//! repository), it uses the engine as any outside crate would; it is built
//! only for wasm32, and is empty on any other target.
//!
//! A page holds any number of simulation views ([`view::View`]), each
//! mounted on an element it is given and owning everything inside it; the
//! lab (`index.html`) and an embed (`embed.html`) are one view each;
//! `bins.html` holds a balls-into-bins view ([`bins_view`]), driven by the
//! same loop. The shape follows eframe's web runner: each view behind
//! `Rc<RefCell<..>>`, one helper that adds DOM listeners and keeps their
//! closures ([`dom::Listeners`]), one animation loop per page with at most
//! one frame in flight ([`frame::FrameLoop`]), and a `destroy()` that stops
//! it all ([`page`]).

#![cfg(target_arch = "wasm32")]
// What the test hooks read of the views is compiled in every build but
// used only by the test build's hooks (the feature `test-hooks`); a
// production module leaves it out at link time. Clippy with the feature
// (scripts/test.sh) still finds code that nothing uses.
#![cfg_attr(not(feature = "test-hooks"), allow(dead_code))]

mod api;
mod bins_view;
mod canvases;
mod capacity_panel;
mod controls;
mod decision_caption;
mod dom;
mod event_log;
mod figures;
mod fit;
mod frame;
mod gain_bars;
mod handle;
#[cfg(feature = "test-hooks")]
mod hooks;
mod json;
mod lab;
mod membership_tools;
mod narration;
mod notice;
mod page;
mod panic;
mod parts;
mod popup;
mod preset_picker;
mod question;
mod readouts;
mod recording;
mod share;
mod spread_chart;
mod surface;
mod take_away;
mod theme;
mod topology;
mod trace_panel;
mod traces;
mod transport;
mod twin_pane;
mod view;
mod waiting;

// The views' pure logic lives in the library (`lbsim::ui`, tested natively);
// these names let the DOM code below reach it as its own.
use lbsim::ui::{draining, guess, hash, opening, options, pace, params, spike, twins};

use wasm_bindgen::prelude::*;

#[wasm_bindgen(start)]
pub fn start() -> Result<(), JsValue> {
    panic::install();
    page::mount()
}
