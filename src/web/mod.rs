//! The browser app: the engine, compiled to WebAssembly, running inside
//! `requestAnimationFrame` and drawn on canvases, with controls bound to the
//! scenario's field table and every setting mirrored in the URL hash.
//!
//! Built only for wasm32 (see `lib.rs`), it uses the engine exactly as an
//! outside crate would. Its shape follows eframe's web runner: one [`app::App`]
//! behind `Rc<RefCell<..>>`, one helper that adds DOM listeners and keeps
//! their closures ([`dom::Listeners`]), at most one animation frame in flight
//! ([`frame::FrameLoop`]), and a `destroy()` that stops it all.

mod app;
mod charts;
mod controls;
mod dom;
mod frame;
mod hash;
mod hooks;
mod notice;
mod pace;
mod panic;
mod params;
mod readouts;
mod shell;
mod surface;
mod theme;
mod topology;
mod view;

use wasm_bindgen::prelude::*;

#[wasm_bindgen(start)]
pub fn start() -> Result<(), JsValue> {
    panic::install();
    shell::mount()
}
