//! Small hooks for tests and benchmarks: `window.lbsim` reads the running
//! simulations and steps them deterministically, and [`summary_json`] runs a
//! scenario headless to compare with the native command line.

use super::dom;
use super::frame::FrameLoop;
use super::hash;
use super::options::Kind;
use super::page::Mounted;
use js_sys::{Array, Float64Array, Object, Reflect};
use lbsim::Simulation;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// Installs `window.lbsim`:
/// - `simTime()`, `summary()`, `advance(ms)`, `frameCosts()`: those of the
///   page's first view (see [`view_hooks`]);
/// - `views()`: the same four hooks for every view on the page, in page
///   order, plus `onScreen()`;
/// - `wasmMemoryBytes()`: the size of the WebAssembly memory;
/// - `panic()`: panics, to show that a panic is reported on the page.
pub fn install(views: &Rc<Vec<Rc<Mounted>>>, frames: &Rc<FrameLoop>) -> Result<(), JsValue> {
    let all = Array::new();
    for mounted in views.iter() {
        all.push(&view_hooks(mounted, frames)?.into());
    }
    let hooks = match views.first() {
        Some(first) => view_hooks(first, frames)?,
        None => Object::new(),
    };
    let set = |name: &str, value: JsValue| Reflect::set(&hooks, &JsValue::from_str(name), &value).map(|_| ());
    set("views", Closure::<dyn Fn() -> Array>::new(move || all.clone()).into_js_value())?;
    let memory = || {
        wasm_bindgen::memory()
            .unchecked_into::<js_sys::WebAssembly::Memory>()
            .buffer()
            .unchecked_into::<js_sys::ArrayBuffer>()
            .byte_length() as f64
    };
    set("wasmMemoryBytes", Closure::<dyn Fn() -> f64>::new(memory).into_js_value())?;
    set(
        "panic",
        Closure::<dyn Fn()>::new(|| panic!("panic requested by window.lbsim.panic()")).into_js_value(),
    )?;
    Reflect::set(&dom::window(), &JsValue::from_str("lbsim"), &hooks)?;
    Ok(())
}

/// One view's hooks:
/// - `simTime()`: simulated milliseconds so far;
/// - `summary()`: the running simulation's summary, as JSON;
/// - `advance(ms)`: advances the simulation by `ms` simulated milliseconds;
/// - `frameCosts()`: wall milliseconds each frame since the last call spent
///   simulating and drawing;
/// - `onScreen()`: whether the view is in sight (and so gets frames).
fn view_hooks(mounted: &Mounted, frames: &Rc<FrameLoop>) -> Result<Object, JsValue> {
    let hooks = Object::new();
    let set = |name: &str, value: JsValue| Reflect::set(&hooks, &JsValue::from_str(name), &value).map(|_| ());
    let view = &mounted.view;
    let reader = view.clone();
    set("simTime", Closure::<dyn Fn() -> f64>::new(move || reader.borrow().sim_time_ms()).into_js_value())?;
    let reader = view.clone();
    set(
        "summary",
        Closure::<dyn Fn() -> String>::new(move || reader.borrow().summary_json()).into_js_value(),
    )?;
    let (stepper, frames) = (view.clone(), frames.clone());
    let advance = move |ms: f64| {
        stepper.borrow_mut().advance(ms);
        frames.request();
    };
    set("advance", Closure::<dyn Fn(f64)>::new(advance).into_js_value())?;
    let reader = view.clone();
    let costs = move || Float64Array::from(reader.borrow_mut().take_frame_costs().as_slice());
    set("frameCosts", Closure::<dyn Fn() -> Float64Array>::new(costs).into_js_value())?;
    let reader = view.clone();
    set("onScreen", Closure::<dyn Fn() -> bool>::new(move || reader.borrow().on_screen()).into_js_value())?;
    Ok(hooks)
}

/// Runs the scenario a URL hash describes to its `duration_s` and returns
/// its summary as JSON, exactly as `lbsim run default --set ... --json`
/// computes it. Any entry that cannot be used is an error.
#[wasm_bindgen]
pub fn summary_json(hash: &str) -> Result<String, JsValue> {
    let parsed = hash::parse(hash, Kind::Embed);
    if let Some(notice) = parsed.notices.first() {
        return Err(JsValue::from_str(&notice.message));
    }
    let mut sim = Simulation::new(&parsed.params.scenario).map_err(|e| JsValue::from_str(&e.to_string()))?;
    sim.run();
    serde_json::to_string(&sim.summary()).map_err(|e| JsValue::from_str(&e.to_string()))
}
