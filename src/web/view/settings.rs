//! A view's settings: a control edited, a link pasted, a script's call;
//! what changes in place and what starts the run over (with its twin),
//! and how the page shows the settings once they changed.

use super::*;
use crate::twins::{self, Pictures};
use lbsim::ui::settings_change::SettingsChange;

impl View {
    /// The person edited control `key`.
    pub fn control_changed(&mut self, key: &str) {
        let Some(text) = self.parts.controls.read(key) else { return };
        if Controls::unused(key, &self.params) {
            self.parts.controls.show(&self.params);
            return;
        }
        let mut next = self.params.clone();
        match next.set(key, &text) {
            Ok(()) => self.apply(next),
            Err(error) => {
                self.parts.notices.show(&[Notice::rejected(key, &text, &error, &self.params.text(key))]);
                self.parts.controls.show(&self.params);
            }
        }
    }

    /// The URL hash changed (a pasted or edited link). Returns false when
    /// the view must be built again, because its options changed.
    pub fn hash_changed(&mut self, hash: &str) -> bool {
        let Parsed { mut params, options, notices } = hash::parse(hash, self.kind);
        if options != self.options {
            return false;
        }
        // A link that does not say how fast (an essay's step) keeps the
        // speed the person chose.
        if !hash::names(hash, SPEED_KEY) {
            params.speed = self.params.speed;
        }
        self.parts.notices.show(&notices);
        self.apply(params);
        self.settings_changed();
        true
    }

    /// Whether the view runs the scenario `link` (a hash) describes,
    /// whatever the speed.
    pub fn shows(&self, link: &str) -> bool {
        let Parsed { params, notices, .. } = hash::parse(link, self.kind);
        notices.is_empty() && params.scenario == self.params.scenario
    }

    /// Sets one setting from a script; on error nothing changes.
    pub fn set(&mut self, key: &str, text: &str) -> Result<(), ScenarioError> {
        let mut next = self.params.clone();
        next.set(key, text)?;
        self.change_to(next)
    }

    /// Moves to `next`, saying so on the page when it cannot.
    pub(super) fn apply(&mut self, next: Params) {
        if let Err(error) = self.change_to(next) {
            self.parts.notices.show(&[Notice::plain(format!("Settings not applied: {error}."))]);
        }
    }

    /// Moves to `next`: live settings change in place; structural ones
    /// rebuild the simulation from the same seed. On error nothing changes.
    pub(super) fn change_to(&mut self, next: Params) -> Result<(), ScenarioError> {
        if next == self.params {
            return Ok(());
        }
        // A run that stopped because it was over (a spike whose sessions all
        // ended) plays again with the new setting: the reader who moved a
        // control wants to see what it does. One paused by the reader stays.
        let was_over = !self.playing && self.spike_over();
        let (old, new) = (&self.params.scenario, &next.scenario);
        let change = SettingsChange::between(old, new, self.kind, &self.options);
        let (changed, structural) = (!change.fields.is_empty(), change.starts_over);
        if changed {
            let (before, after) = (change.words(old, "="), change.words(new, "→"));
            self.parts.canvases.settings_changing(&self.sim, &before, &after, !structural);
        }
        let applied = if structural {
            simulate(new, self.replay()).map(|sim| self.sim = sim)
        } else {
            self.sim.mark_sessions();
            self.sim.set_live_fields(new)
        };
        let applied = applied.map(|()| self.params = next);
        if applied.is_ok() {
            self.read_again_for_classes();
        }
        if applied.is_ok() && changed {
            self.run_changed();
        }
        if structural {
            self.restart_twin();
            self.started_over();
            if was_over {
                self.set_playing(true);
            }
        } else if applied.is_ok() && changed {
            self.changed_at = Some(self.sim.now());
        }
        self.settings_changed();
        applied
    }

    /// Starts the versus twin (if the options ask for one) from the seed,
    /// beside a simulation that has just started too.
    pub(super) fn restart_twin(&mut self) {
        if self.options.versus.is_empty() {
            return;
        }
        self.twin = self.run_beside(&self.options.versus, "versus");
        if self.parts.gain.is_some() {
            self.reference = self.run_beside(&self.options.reference, "reference");
        }
    }

    /// A run of the view's scenario with `settings` changed, on its
    /// arrivals; none, saying why, where they do not apply (`what`: the
    /// option that names them).
    fn run_beside(&self, settings: &[(&str, String)], what: &str) -> Option<Simulation> {
        let made = twins::twin_of(&self.params.scenario, settings).and_then(|scenario| match self.replay() {
            Some(replay) => Simulation::replaying(&scenario, replay),
            None => Simulation::new(&scenario),
        });
        made.map_err(|error| {
            self.parts.notices.show(&[Notice::plain(format!("No {what} simulation: {error}."))])
        })
        .ok()
    }

    /// Shows the settings in the controls and the URL, and redraws all.
    pub(super) fn settings_changed(&mut self) {
        self.parts.controls.show(&self.params);
        if let Some(presets) = &self.parts.presets {
            presets.show(&self.params.scenario);
        }
        if let Some(panel) = &self.parts.trace_panel {
            panel.show(&self.options, &self.params.scenario, self.trace.as_deref());
        }
        self.link.settings_changed();
        self.write_link_if_due();
        self.name_sides();
        self.renew_spread();
        self.show_question();
        let twin_drawn = self.twin.as_ref().filter(|_| self.parts.twin_pane.is_some());
        self.parts.canvases.show_for((&self.sim, twin_drawn), self.servers());
        self.parts.take_away.offer_shown();
        self.resized();
        self.readouts_stale = true;
    }

    /// Mirrors the settings in the URL (of a view that owns it), if due.
    pub(super) fn write_link_if_due(&mut self) {
        if !self.link.take_due() || !self.owns_hash {
            return;
        }
        let url = format!("#{}", hash::format(&self.params, &self.options, self.kind, Fields::Shown));
        if let Ok(history) = dom::window().history() {
            let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
        }
    }

    /// Names the two runs, where the view draws both, by what each is now
    /// (a control may have changed the view's own): the pictures' titles
    /// and the charts' legends.
    fn name_sides(&mut self) {
        if let Some(bars) = &mut self.parts.gain {
            let (scenario, options) = (&self.params.scenario, &self.options);
            let names = lbsim::ui::gain::names(scenario, &options.versus, &options.reference);
            let note = names.as_ref().and_then(|[_, reference, _]| {
                lbsim::ui::gain::reference_note(scenario, &options.reference, reference)
            });
            bars.name(names, note);
        }
        let Some(pane) = &mut self.parts.twin_pane else { return };
        if let Pictures::Two(sides) = Pictures::for_view(&self.params.scenario, &self.options.versus) {
            pane.name(&sides);
            self.parts.canvases.compare_with(&sides, self.kind);
        }
    }
}
