//! The animation frame loop, one per page whatever the number of views: at
//! most one frame in flight. A frame asks for the next only while some view
//! wants one (running, or charts left to draw); anything else that changes
//! the picture calls [`FrameLoop::request`].

use super::dom;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

type FrameCallback = Closure<dyn FnMut(f64)>;

pub struct FrameLoop {
    /// The id of the frame in flight, if any.
    pending: Cell<Option<i32>>,
    callback: RefCell<Option<FrameCallback>>,
}

impl FrameLoop {
    /// Starts the loop with a first frame; `tick` draws one frame and says
    /// whether another is wanted.
    pub fn start(mut tick: impl FnMut(f64) -> bool + 'static) -> Rc<FrameLoop> {
        let frames = Rc::new(FrameLoop { pending: Cell::new(None), callback: RefCell::new(None) });
        let weak = Rc::downgrade(&frames);
        let callback = FrameCallback::new(move |now_ms: f64| {
            let Some(frames) = weak.upgrade() else { return };
            frames.pending.set(None);
            if tick(now_ms) {
                frames.request();
            }
        });
        *frames.callback.borrow_mut() = Some(callback);
        frames.request();
        frames
    }

    /// Asks for a frame unless one is already in flight.
    pub fn request(&self) {
        if self.pending.get().is_some() {
            return;
        }
        if let Some(callback) = self.callback.borrow().as_ref() {
            if let Ok(id) = dom::window().request_animation_frame(callback.as_ref().unchecked_ref()) {
                self.pending.set(Some(id));
            }
        }
    }

    /// Cancels the frame in flight and stops the loop for good.
    pub fn destroy(&self) {
        if let Some(id) = self.pending.take() {
            let _ = dom::window().cancel_animation_frame(id);
        }
        self.callback.borrow_mut().take();
    }
}
