//! Small DOM helpers, and [`Listeners`]: the one place event listeners are
//! added, which keeps their closures alive and can remove them all again.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, Event, EventTarget, HtmlElement, Window};

pub fn window() -> Window {
    web_sys::window().expect("the app runs in a browser window")
}

pub fn document() -> Document {
    window().document().expect("the window has a document")
}

/// The element with `id`, as the type the page declares it to be.
pub fn by_id<T: JsCast>(id: &str) -> Result<T, JsValue> {
    document()
        .get_element_by_id(id)
        .ok_or_else(|| JsValue::from_str(&format!("the page has no #{id}")))?
        .dyn_into::<T>()
        .map_err(|_| JsValue::from_str(&format!("#{id} is not the expected kind of element")))
}

/// A new element with the given tag and class (none when empty).
pub fn create(tag: &str, class: &str) -> Result<HtmlElement, JsValue> {
    let element: HtmlElement = document().create_element(tag)?.dyn_into()?;
    if !class.is_empty() {
        element.set_class_name(class);
    }
    Ok(element)
}

pub fn set_attributes(element: &Element, attributes: &[(&str, &str)]) -> Result<(), JsValue> {
    for (name, value) in attributes {
        element.set_attribute(name, value)?;
    }
    Ok(())
}

/// Milliseconds from the page's performance clock (only for pacing frames
/// and measuring their cost; the simulation never reads it).
pub fn now_ms() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

/// Event listeners added through one helper, their closures kept here.
#[derive(Default)]
pub struct Listeners {
    kept: Vec<Kept>,
}

struct Kept {
    target: EventTarget,
    kind: &'static str,
    closure: Closure<dyn FnMut(Event)>,
}

impl Listeners {
    pub fn add(
        &mut self,
        target: &EventTarget,
        kind: &'static str,
        handler: impl FnMut(Event) + 'static,
    ) -> Result<(), JsValue> {
        let closure = Closure::<dyn FnMut(Event)>::new(handler);
        target.add_event_listener_with_callback(kind, closure.as_ref().unchecked_ref())?;
        self.kept.push(Kept { target: target.clone(), kind, closure });
        Ok(())
    }

    /// Removes every listener added so far.
    pub fn remove_all(&mut self) {
        for kept in self.kept.drain(..) {
            let callback = kept.closure.as_ref().unchecked_ref();
            let _ = kept.target.remove_event_listener_with_callback(kept.kind, callback);
        }
    }
}
