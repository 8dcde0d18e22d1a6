//! The app: the settings, the running simulation and what the page shows of
//! them. One instance lives behind `Rc<RefCell<..>>` (see `shell`); DOM
//! events and animation frames call its methods. Each frame is "simulate,
//! draw, ask for the next".

use super::controls::Controls;
use super::dom;
use super::hash::{self, Notice};
use super::notice::Notices;
use super::pace::Pace;
use super::params::Params;
use super::readouts::Readouts;
use super::topology;
use super::view::View;
use lbsim::scenario::FIELDS;
use lbsim::{Scenario, Simulation, Snapshot, Time};
use wasm_bindgen::JsValue;
use web_sys::HtmlElement;

/// Frame costs kept for the test hooks (about a minute of frames).
const MAX_FRAME_COSTS: usize = 4_096;
/// Wall milliseconds one press of "step" accounts for: one frame at 60 Hz.
const STEP_WALL_MS: f64 = 1000.0 / 60.0;

pub struct App {
    params: Params,
    sim: Simulation,
    snapshot: Snapshot,
    playing: bool,
    pace: Pace,
    /// Simulated time per wall time over recent frames.
    actual_speed: f64,
    view: View,
    controls: Controls,
    readouts: Readouts,
    readouts_stale: bool,
    notices: Notices,
    play_button: HtmlElement,
    /// Wall milliseconds recent frames spent simulating and drawing.
    frame_costs: Vec<f64>,
}

impl App {
    /// The app for the settings in `hash`, showing notices for any entry
    /// that could not be used.
    pub fn new(hash: &str, controls: Controls) -> Result<App, JsValue> {
        let (params, notices) = hash::parse(hash);
        let mut app = App {
            sim: Simulation::new(&Scenario::default()).map_err(|e| JsValue::from_str(&e.to_string()))?,
            params: Params::default(),
            snapshot: Snapshot::default(),
            playing: true,
            pace: Pace::default(),
            actual_speed: 1.0,
            view: View::new()?,
            controls,
            readouts: Readouts::new()?,
            readouts_stale: true,
            notices: Notices::new()?,
            play_button: dom::by_id("play")?,
            frame_costs: Vec::with_capacity(MAX_FRAME_COSTS),
        };
        app.notices.show(&notices);
        app.change_to(params);
        app.settings_changed();
        Ok(app)
    }

    /// One animation frame; returns whether another one is wanted.
    pub fn frame(&mut self, now_ms: f64) -> bool {
        let started = dom::now_ms();
        let wall_ms = self.pace.wall_step(now_ms);
        if self.playing && wall_ms > 0.0 {
            let before = self.sim.now();
            let target = before + Time::from_ms(wall_ms * self.params.speed);
            let advance = self.sim.advance_to(target, self.pace.event_cap());
            self.pace.observe(advance.events, dom::now_ms() - started);
            let achieved = (self.sim.now() - before).as_ms() / wall_ms;
            self.actual_speed += 0.1 * (achieved - self.actual_speed);
            self.stop_if_halted();
        }
        let max_requests = topology::max_requests(self.params.scenario.servers as usize);
        self.sim.snapshot_into(&mut self.snapshot, max_requests);
        self.view.draw(&self.sim, &self.snapshot, now_ms, self.playing);
        let speed = self.playing.then_some(self.actual_speed);
        self.readouts.show(&self.snapshot, speed, now_ms, std::mem::take(&mut self.readouts_stale));
        if self.frame_costs.len() < MAX_FRAME_COSTS {
            self.frame_costs.push(dom::now_ms() - started);
        }
        self.playing || self.view.pending()
    }

    /// The person edited control `key`.
    pub fn control_changed(&mut self, key: &str) {
        let Some(text) = self.controls.read(key) else { return };
        let mut next = self.params.clone();
        match next.set(key, &text) {
            Ok(()) => self.change_to(next),
            Err(error) => {
                self.notices.show(&[Notice::rejected(key, &text, &error, &self.params.text(key))]);
                self.controls.show(&self.params);
            }
        }
    }

    /// The URL hash changed (a pasted or edited link).
    pub fn hash_changed(&mut self, hash: &str) {
        let (params, notices) = hash::parse(hash);
        self.notices.show(&notices);
        self.change_to(params);
        self.settings_changed();
    }

    /// Moves to `next`: live settings change in place; structural ones
    /// rebuild the simulation from the same seed.
    fn change_to(&mut self, next: Params) {
        if next == self.params {
            return;
        }
        let (old, new) = (&self.params.scenario, &next.scenario);
        let changed: Vec<_> = FIELDS.iter().filter(|f| f.text(old) != f.text(new)).collect();
        let structural = changed.iter().any(|f| !f.live);
        if !changed.is_empty() {
            let describe = |scenario, joint: &str| {
                let words: Vec<_> = changed
                    .iter()
                    .take(2)
                    .map(|f| format!("{} {joint} {}", f.key, f.text(scenario)))
                    .collect();
                words.join(", ")
            };
            self.view.settings_changing(&self.sim, &describe(old, "="), &describe(new, "→"), !structural);
        }
        let applied = if structural {
            Simulation::new(new).map(|sim| self.sim = sim)
        } else {
            self.sim.set_live_fields(new)
        };
        match applied {
            Ok(()) => self.params = next,
            Err(error) => self.notices.show(&[Notice { message: format!("Settings not applied: {error}.") }]),
        }
        self.settings_changed();
    }

    /// Shows the settings in the controls and the URL, and redraws all.
    fn settings_changed(&mut self) {
        self.controls.show(&self.params);
        let url = format!("#{}", hash::format(&self.params));
        if let Ok(history) = dom::window().history() {
            let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
        }
        self.view.show_compact_legend(self.params.scenario.servers as usize);
        self.view.invalidate();
        self.readouts_stale = true;
    }

    pub fn toggle_play(&mut self) {
        self.set_playing(!self.playing);
    }

    fn set_playing(&mut self, playing: bool) {
        self.playing = playing;
        self.pace.pause();
        self.play_button.set_text_content(Some(if playing { "Pause" } else { "Play" }));
        let _ = self.play_button.set_attribute("aria-pressed", if playing { "false" } else { "true" });
        self.readouts_stale = true;
    }

    /// Pauses, then advances by one frame's worth of simulated time.
    pub fn step(&mut self) {
        self.set_playing(false);
        self.advance(STEP_WALL_MS * self.params.speed);
    }

    /// Advances the simulation by `ms` of simulated time at once.
    pub fn advance(&mut self, ms: f64) {
        let target = self.sim.now() + Time::from_ms(ms);
        self.sim.advance_to(target, u64::MAX);
        self.stop_if_halted();
        self.view.invalidate();
        self.readouts_stale = true;
    }

    /// Pauses, saying why, when the simulation has stopped for good.
    fn stop_if_halted(&mut self) {
        if let Some(halt) = self.sim.halted() {
            self.set_playing(false);
            self.notices.show(&[Notice { message: format!("{halt}. Reset to start again.") }]);
        }
    }

    /// Starts the same scenario over from its seed.
    pub fn reset(&mut self) {
        if let Ok(sim) = Simulation::new(&self.params.scenario) {
            self.sim = sim;
            self.view.restarted();
        }
        self.view.invalidate();
        self.readouts_stale = true;
    }

    pub fn dismiss_notices(&self) {
        self.notices.dismiss();
    }

    pub fn restyle(&mut self) {
        self.view.restyle();
    }

    pub fn controls(&self) -> &Controls {
        &self.controls
    }

    pub fn sim_time_ms(&self) -> f64 {
        self.sim.now().as_ms()
    }

    pub fn summary_json(&self) -> String {
        serde_json::to_string(&self.sim.summary()).unwrap_or_default()
    }

    /// The frame costs recorded since the last call.
    pub fn take_frame_costs(&mut self) -> Vec<f64> {
        std::mem::take(&mut self.frame_costs)
    }
}
