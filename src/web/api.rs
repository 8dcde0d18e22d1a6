//! The script API, for authors who want more than an iframe:
//!
//! ```js
//! import init, { mount, run } from './lbsim-web.js';
//! await init();
//! const view = mount(element, { policy: 'power-of-d', load: 0.95 }, { controls: ['policy', 'load'] });
//! view.pause(); view.step(); view.set('policy', 'random'); view.play();
//! const summary = view.summary();            // a plain object, as `lbsim run --json` prints
//! const figure = run({ policy: 'random' }, 30); // headless, to 30 simulated seconds
//! ```
//!
//! Scenario objects take the scenario's fields (`lbsim fields`), with
//! numbers, strings, lists (`server_speeds: [1, 2]`) and `null` for "none";
//! view options take the embed's entries (`controls`, `charts`, `caption`,
//! `height`, `autoplay`, `theme`, `versus`, `say`). Anything that cannot be
//! used raises an `Error` whose message names the field and what it allows,
//! as the command line says it.

use super::hash::{self, Fields};
use super::json;
use super::options::{Kind, Options};
use super::page::{self, Mounted};
use super::params::Params;
use js_sys::{Array, Object};
use lbsim::scenario::fields;
use lbsim::{ScenarioError, Simulation, Time};
use serde::Serialize;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

/// A simulation view mounted by a script.
#[wasm_bindgen]
pub struct SimulationView {
    mounted: Rc<Mounted>,
}

/// Mounts a simulation view on `element`: the scenario's fields from
/// `scenario`, the view's look from `options` (both optional objects).
#[wasm_bindgen]
pub fn mount(element: HtmlElement, scenario: JsValue, options: JsValue) -> Result<SimulationView, JsError> {
    let params = params_of(&scenario)?;
    let mut chosen = Options::defaults(Kind::Embed);
    for (key, text) in entries_of(&options, "options")? {
        if !Options::has(&key) {
            let keys = super::options::KEYS.join(", ");
            return Err(JsError::new(&format!("option `{key}` is not known; expected one of {keys}")));
        }
        chosen.set(&key, &text).map_err(|e| error(&e))?;
    }
    let settings = hash::format(&params, &chosen, Kind::Embed, Fields::Every);
    let mounted = page::add_view(&element, Kind::Embed, &settings).map_err(|e| {
        JsError::new(&e.as_string().unwrap_or_else(|| "the view could not be mounted".to_string()))
    })?;
    Ok(SimulationView { mounted })
}

/// Runs a scenario headless to `until_s` simulated seconds (or its
/// `duration_s`) and returns its summary.
#[wasm_bindgen]
pub fn run(scenario: JsValue, until_s: Option<f64>) -> Result<JsValue, JsError> {
    let mut params = params_of(&scenario)?;
    if let Some(seconds) = until_s {
        params.set("duration_s", &fields::format_number(seconds)).map_err(|e| error(&e))?;
    }
    let mut sim = Simulation::new(&params.scenario).map_err(|e| error(&e))?;
    sim.run();
    plain(&sim.summary())
}

#[wasm_bindgen]
impl SimulationView {
    pub fn play(&self) {
        self.act(|view| view.set_playing(true));
    }

    pub fn pause(&self) {
        self.act(|view| view.set_playing(false));
    }

    /// Pauses, then processes exactly one event (as Shift+Step does).
    pub fn step(&self) {
        self.act(|view| view.step(false));
    }

    /// Starts over from the same seed.
    pub fn reset(&self) {
        self.act(|view| view.reset());
    }

    /// Advances by `ms` simulated milliseconds at once.
    pub fn advance(&self, ms: f64) -> Result<(), JsError> {
        if !(ms.is_finite() && ms >= 0.0 && Time::from_ms(ms) < Time::NEVER) {
            return Err(JsError::new(&format!(
                "advance: `{ms}` is not allowed; expected milliseconds of 0 or more"
            )));
        }
        self.act(|view| view.advance(ms));
        Ok(())
    }

    /// Sets one field (or `speed`), live or by starting over, as its
    /// control would.
    pub fn set(&self, field: &str, value: JsValue) -> Result<(), JsError> {
        let text = text_of(&value).ok_or_else(|| not_a_value(field))?;
        self.mounted.view.borrow_mut().set(field, &text).map_err(|e| error(&e))?;
        page::request_frame();
        Ok(())
    }

    /// The run's summary so far, as `lbsim run --json` gives it.
    pub fn summary(&self) -> Result<JsValue, JsError> {
        plain(&self.mounted.view.borrow().sim().summary())
    }

    /// Simulated milliseconds so far.
    #[wasm_bindgen(js_name = simTime)]
    pub fn sim_time(&self) -> f64 {
        self.mounted.view.borrow().sim_time_ms()
    }

    /// Takes the view off the page and empties its element.
    pub fn destroy(self) {
        page::remove_view(&self.mounted);
    }
}

impl SimulationView {
    fn act(&self, action: impl FnOnce(&mut super::view::View)) {
        action(&mut self.mounted.view.borrow_mut());
        page::request_frame();
    }
}

/// The settings a scenario object gives, every one checked.
fn params_of(scenario: &JsValue) -> Result<Params, JsError> {
    let mut params = Params::default();
    let refused = params.set_all(entries_of(scenario, "scenario")?);
    match refused.first() {
        Some((_, _, why)) => Err(error(why)),
        None => Ok(params),
    }
}

/// An object's entries as `(key, text)`; `undefined` and `null` have none.
fn entries_of(object: &JsValue, what: &str) -> Result<Vec<(String, String)>, JsError> {
    if object.is_undefined() || object.is_null() {
        return Ok(Vec::new());
    }
    if !object.is_object() || Array::is_array(object) {
        return Err(JsError::new(&format!(
            "{what}: expected an object of settings, as {{ policy: 'random' }}"
        )));
    }
    let pairs = Object::entries(object.unchecked_ref());
    let pair = |entry: JsValue| -> Result<(String, String), JsError> {
        let entry: Array = entry.unchecked_into();
        let key = entry.get(0).as_string().unwrap_or_default();
        let text = text_of(&entry.get(1)).ok_or_else(|| not_a_value(&key))?;
        Ok((key, text))
    };
    pairs.iter().map(pair).collect()
}

/// A value as the text a field or option reads: numbers as written, `null`
/// as "none", booleans as 1 or 0, lists joined by commas, and an object
/// (the `versus` option's) as `key:value` pairs joined by ";".
fn text_of(value: &JsValue) -> Option<String> {
    if let Some(text) = value.as_string() {
        return Some(text);
    }
    if let Some(number) = value.as_f64() {
        return Some(fields::format_number(number));
    }
    if let Some(on) = value.as_bool() {
        return Some(if on { "1" } else { "0" }.to_string());
    }
    if value.is_null() {
        return Some("none".to_string());
    }
    if Array::is_array(value) {
        let items: Array = value.clone().unchecked_into();
        return items.iter().map(|item| text_of(&item)).collect::<Option<Vec<_>>>().map(|t| t.join(","));
    }
    if value.is_object() {
        let pairs = Object::entries(value.unchecked_ref());
        let pair = |entry: JsValue| {
            let entry: Array = entry.unchecked_into();
            Some(format!("{}:{}", entry.get(0).as_string()?, text_of(&entry.get(1))?))
        };
        return pairs.iter().map(pair).collect::<Option<Vec<_>>>().map(|p| p.join(";"));
    }
    None
}

fn not_a_value(key: &str) -> JsError {
    JsError::new(&format!("field `{key}`: expected a number, a string, a list or null"))
}

fn error(error: &ScenarioError) -> JsError {
    JsError::new(&error.to_string())
}

/// A summary as a plain JavaScript object, with the fields and figures of
/// the JSON `lbsim run --json` prints (see `json`).
fn plain(value: &impl Serialize) -> Result<JsValue, JsError> {
    json::object(value).map_err(|_| JsError::new("the summary could not be written as JSON"))
}
