//! Small DOM helpers; [`Ids`], the element ids of one view; and
//! [`Listeners`]: the one place event listeners are added, which keeps their
//! closures alive and can remove them all again.

use lbsim::number;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, Event, EventTarget, HtmlElement, HtmlInputElement, Window};

pub fn window() -> Window {
    web_sys::window().expect("the app runs in a browser window")
}

pub fn document() -> Document {
    window().document().expect("the window has a document")
}

/// A new element with the given tag and class (none when empty), as the
/// type the tag makes.
pub fn create<T: JsCast>(tag: &str, class: &str) -> Result<T, JsValue> {
    let element = document().create_element(tag)?;
    if !class.is_empty() {
        element.set_class_name(class);
    }
    element.dyn_into::<T>().map_err(|_| JsValue::from_str(&format!("<{tag}> is not the expected kind")))
}

/// A new element appended to `parent`.
pub fn child<T: JsCast>(parent: &Element, tag: &str, class: &str) -> Result<T, JsValue> {
    let element: Element = create(tag, class)?;
    parent.append_child(&element)?;
    element.dyn_into::<T>().map_err(|_| JsValue::from_str(&format!("<{tag}> is not the expected kind")))
}

/// A new element with text, appended to `parent`.
pub fn text_child(parent: &Element, tag: &str, class: &str, text: &str) -> Result<HtmlElement, JsValue> {
    let element: HtmlElement = child(parent, tag, class)?;
    element.set_text_content(Some(text));
    Ok(element)
}

/// An input of type `kind` with id `id`, inside a label (of class
/// `class`) whose text comes first, at the end of `parent`.
pub fn labelled_input(
    parent: &Element,
    class: &str,
    label: &str,
    (id, kind): (&str, &str),
) -> Result<HtmlInputElement, JsValue> {
    let item: HtmlElement = child(parent, "label", class)?;
    item.set_attribute("for", id)?;
    text_child(&item, "span", "", label)?;
    let input: HtmlInputElement = child(&item, "input", "")?;
    set_attributes(&input, &[("id", id), ("type", kind)])?;
    Ok(input)
}

/// Writes `text` into `element` only when it changes, sparing the page a
/// relayout; returns whether it wrote.
pub fn set_text(element: &HtmlElement, text: &str) -> bool {
    let changes = element.text_content().as_deref() != Some(text);
    if changes {
        element.set_text_content(Some(text));
    }
    changes
}

/// A share (0 to 1) as a CSS length.
pub fn percent(share: f64) -> String {
    format!("{:.2}%", share * 100.0)
}

/// Hides or shows `element` only when that changes it; returns whether it
/// did.
pub fn set_hidden(element: &HtmlElement, hidden: bool) -> bool {
    let changes = element.hidden() != hidden;
    if changes {
        element.set_hidden(hidden);
    }
    changes
}

pub fn set_attributes(element: &Element, attributes: &[(&str, &str)]) -> Result<(), JsValue> {
    for (name, value) in attributes {
        element.set_attribute(name, value)?;
    }
    Ok(())
}

/// Whether the media query (a user preference) matches.
pub fn prefers(query: &str) -> bool {
    window().match_media(query).ok().flatten().is_some_and(|list| list.matches())
}

/// Milliseconds from the page's performance clock (only for pacing frames
/// and measuring their cost; the simulation never reads it).
pub fn now_ms() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}

/// The element ids of one view's parts. Labels and descriptions need ids;
/// prefixing them with the root's id (`lab-policy`) keeps several views on
/// one page apart. A root without an id gives bare names (`policy`), which
/// only one view per page may have.
#[derive(Clone)]
pub struct Ids {
    prefix: String,
}

impl Ids {
    pub fn for_root(root: &Element) -> Ids {
        let id = root.id();
        Ids { prefix: if id.is_empty() { String::new() } else { format!("{id}-") } }
    }

    pub fn of(&self, part: &str) -> String {
        format!("{}{part}", self.prefix)
    }

    /// The ids of a part that repeats the view's own (`versus-p99`).
    pub fn nested(&self, part: &str) -> Ids {
        Ids { prefix: format!("{}{part}-", self.prefix) }
    }
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

/// Where the page keeps a paragraph a fixed room (a chapter's sentence and
/// verdict, so that the picture below never moves as they change), sets
/// its type a step smaller at a time, down to [`LEAST_TYPE`] of its size,
/// until its words fit; what still does not is cut (the drawer says a
/// sentence whole). Elsewhere the paragraph grows with its words and this
/// changes nothing.
pub fn fit_type(paragraph: &HtmlElement) {
    let style = paragraph.style();
    let _ = style.remove_property("font-size");
    let overflows =
        || paragraph.client_height() > 0 && paragraph.scroll_height() > paragraph.client_height() + 1;
    if !overflows() {
        return;
    }
    let computed = window().get_computed_style(paragraph).ok().flatten();
    let size = computed.and_then(|c| c.get_property_value("font-size").ok());
    let Some(px) = size.and_then(|s| number::parse(s.trim_end_matches("px"))) else { return };
    for step in 1..=TYPE_STEPS {
        let scale = 1.0 - (1.0 - LEAST_TYPE) * f64::from(step) / f64::from(TYPE_STEPS);
        let _ = style.set_property("font-size", &format!("{:.2}px", px * scale));
        if !overflows() {
            return;
        }
    }
}

/// The least share of its size a paragraph's type is set to, to fit its
/// room: 0.82 of a chapter's 15.2 px is 12.5 px, still read on a phone.
const LEAST_TYPE: f64 = 0.82;
/// The steps down to it.
const TYPE_STEPS: u8 = 3;
