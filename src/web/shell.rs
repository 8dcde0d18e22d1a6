//! Mounting the app on the page: the app, its frame loop, and every DOM
//! listener (controls, buttons, keyboard, URL hash, window size, colour
//! scheme), kept together until [`destroy`].

use super::app::App;
use super::controls::Controls;
use super::dom::{self, Listeners};
use super::frame::FrameLoop;
use super::hooks;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Event, EventTarget, KeyboardEvent};

/// What a listener does to the app.
type Action = Box<dyn Fn(&mut App, &Event)>;

struct Shell {
    frames: Rc<FrameLoop>,
    listeners: Listeners,
}

thread_local! {
    static SHELL: RefCell<Option<Shell>> = const { RefCell::new(None) };
}

pub fn mount() -> Result<(), JsValue> {
    let window = dom::window();
    let controls = Controls::build()?;
    let app = Rc::new(RefCell::new(App::new(&window.location().hash()?, controls)?));
    let frames = FrameLoop::start(app.clone());
    let mut listeners = Listeners::default();

    // Every listener does something to the app, then asks for a frame.
    let mut on = |target: &EventTarget, kind: &'static str, action: Action| {
        let (app, frames) = (app.clone(), frames.clone());
        listeners.add(target, kind, move |event| {
            action(&mut app.borrow_mut(), &event);
            frames.request();
        })
    };
    for (key, target, kind) in app.borrow().controls().inputs() {
        on(&target, kind, Box::new(move |app, _| app.control_changed(key)))?;
    }
    let button = |id: &str| dom::by_id::<EventTarget>(id);
    on(&button("play")?, "click", Box::new(|app, _| app.toggle_play()))?;
    on(&button("step")?, "click", Box::new(|app, _| app.step()))?;
    on(&button("reset")?, "click", Box::new(|app, _| app.reset()))?;
    on(&button("notice-dismiss")?, "click", Box::new(|app, _| app.dismiss_notices()))?;
    on(&window, "keydown", Box::new(shortcut))?;
    // A new window size needs nothing but a frame, which fits the canvases.
    on(&window, "resize", Box::new(|_, _| {}))?;
    on(
        &window,
        "hashchange",
        Box::new(|app, _| app.hash_changed(&dom::window().location().hash().unwrap_or_default())),
    )?;
    if let Ok(Some(scheme)) = window.match_media("(prefers-color-scheme: dark)") {
        on(&scheme, "change", Box::new(|app, _| app.restyle()))?;
    }
    hooks::install(&app, &frames)?;
    SHELL.with(|shell| *shell.borrow_mut() = Some(Shell { frames, listeners }));
    Ok(())
}

/// Keyboard shortcuts, outside text fields and menus: space plays or
/// pauses (unless a button has focus: space presses it), "s" steps, "r"
/// resets.
fn shortcut(app: &mut App, event: &Event) {
    let Some(key) = event.dyn_ref::<KeyboardEvent>() else { return };
    let tag = event.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).map(|e| e.tag_name());
    if matches!(tag.as_deref(), Some("INPUT" | "SELECT" | "TEXTAREA"))
        || key.ctrl_key()
        || key.meta_key()
        || key.alt_key()
    {
        return;
    }
    match key.key().as_str() {
        " " if tag.as_deref() != Some("BUTTON") => app.toggle_play(),
        "s" => app.step(),
        "r" => app.reset(),
        _ => return,
    }
    event.prevent_default();
}

/// Stops the app: cancels its frame and removes its listeners.
#[wasm_bindgen]
pub fn destroy() {
    if let Some(mut shell) = SHELL.with(|shell| shell.borrow_mut().take()) {
        shell.frames.destroy();
        shell.listeners.remove_all();
    }
}
