//! The animation frame loop, one per page whatever the number of views: at
//! most one frame in flight. A frame asks for the next only while some view
//! wants one (running, or charts left to draw); anything else that changes
//! the picture calls [`FrameLoop::request`]. Each frame is told whether
//! such a request came since the last: a frame that only goes on for a
//! view that wants it changes nothing in the others.

use super::dom;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

type FrameCallback = Closure<dyn FnMut(f64)>;

pub struct FrameLoop {
    /// The id of the frame in flight, if any.
    pending: Cell<Option<i32>>,
    /// Whether [`FrameLoop::request`] was called since the last frame.
    asked: Cell<bool>,
    callback: RefCell<Option<FrameCallback>>,
}

impl FrameLoop {
    /// Starts the loop with a first frame; `tick` draws one frame at
    /// `now_ms`, told whether it was asked for (see [`FrameLoop::request`])
    /// or only goes on, and says whether another is wanted.
    pub fn start(mut tick: impl FnMut(f64, bool) -> bool + 'static) -> Rc<FrameLoop> {
        let frames = Rc::new(FrameLoop {
            pending: Cell::new(None),
            asked: Cell::new(false),
            callback: RefCell::new(None),
        });
        let weak = Rc::downgrade(&frames);
        let callback = FrameCallback::new(move |now_ms: f64| {
            let Some(frames) = weak.upgrade() else { return };
            frames.pending.set(None);
            if tick(now_ms, frames.asked.take()) {
                frames.go_on();
            }
        });
        *frames.callback.borrow_mut() = Some(callback);
        frames.request();
        frames
    }

    /// Asks for a frame in which every view takes its turn: something
    /// changed outside the loop (an event, a hook, a view mounted).
    pub fn request(&self) {
        self.asked.set(true);
        self.go_on();
    }

    /// Asks for the next frame unless one is already in flight.
    fn go_on(&self) {
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
