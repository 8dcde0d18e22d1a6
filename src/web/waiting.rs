//! Views mounted as they near the viewport. A page of twenty views (the
//! explainer) builds at load only those within a screen of what the reader
//! sees, so that its first picture is drawn sooner; each other view is
//! mounted once it comes within a screen of the viewport, before the reader
//! reaches it.

use super::dom;
use super::options::Kind;
use js_sys::Array;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    Element, HtmlElement, IntersectionObserver, IntersectionObserverEntry, IntersectionObserverInit,
};

/// How far beyond the viewport a view is mounted: a screen above and below.
const AHEAD: &str = "100% 0px";

/// A view still to be mounted: its root, kind and settings.
pub struct Waiter {
    pub root: HtmlElement,
    pub kind: Kind,
    pub settings: String,
}

/// The views still waiting, and the observer that mounts each as it nears.
pub struct Waiting {
    waiters: Rc<RefCell<Vec<Waiter>>>,
    observer: IntersectionObserver,
    _on_near: Closure<dyn FnMut(Array, IntersectionObserver)>,
}

/// Whether `root` is within a screen of the viewport now.
pub fn is_near(root: &Element) -> bool {
    within_screens(root, 1.0)
}

/// Whether some of `root` is in the viewport now, as the page's
/// IntersectionObserver will say of it (a view mounted in sight draws in
/// its first frame rather than a frame later, once the observer reports).
pub fn is_in_sight(root: &Element) -> bool {
    within_screens(root, 0.0)
}

/// Whether `root` overlaps the viewport widened by `screens` of its height
/// above and below.
fn within_screens(root: &Element, screens: f64) -> bool {
    let screen = dom::window().inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(0.0);
    let rect = root.get_bounding_client_rect();
    rect.bottom() >= -screens * screen && rect.top() <= (1.0 + screens) * screen
}

impl Waiting {
    /// Watches `waiters`; `mount` is handed each as it nears the viewport.
    pub fn watch(waiters: Vec<Waiter>, mount: impl Fn(Waiter) + 'static) -> Result<Waiting, JsValue> {
        let waiters = Rc::new(RefCell::new(waiters));
        let watched = waiters.clone();
        let on_near = Closure::<dyn FnMut(Array, IntersectionObserver)>::new(
            move |entries: Array, observer: IntersectionObserver| {
                for entry in entries.iter().filter_map(|e| e.dyn_into::<IntersectionObserverEntry>().ok()) {
                    if entry.is_intersecting() {
                        observer.unobserve(&entry.target());
                        if let Some(waiter) = take(&watched, &entry.target()) {
                            mount(waiter);
                        }
                    }
                }
            },
        );
        let init = IntersectionObserverInit::new();
        init.set_root_margin(AHEAD);
        let observer = IntersectionObserver::new_with_options(on_near.as_ref().unchecked_ref(), &init)?;
        for waiter in waiters.borrow().iter() {
            observer.observe(&waiter.root);
        }
        Ok(Waiting { waiters, observer, _on_near: on_near })
    }

    /// Every view still waiting, in page order, watched no more.
    pub fn take_all(&self) -> Vec<Waiter> {
        self.observer.disconnect();
        std::mem::take(&mut *self.waiters.borrow_mut())
    }
}

/// Takes the waiter whose root is `root` out of `waiters`.
fn take(waiters: &RefCell<Vec<Waiter>>, root: &Element) -> Option<Waiter> {
    let mut waiters = waiters.borrow_mut();
    let index = waiters.iter().position(|w| w.root.is_same_node(Some(root)))?;
    Some(waiters.remove(index))
}
