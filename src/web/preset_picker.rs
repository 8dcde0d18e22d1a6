//! The lab's presets: the repository's `scenarios/*.toml` files, compiled
//! into the library, so the browser offers exactly what `lbsim run NAME`
//! runs. Choosing one loads its every field (the speed stays); the menu
//! names the preset the settings match, if any.

use super::dom::{self, Ids};
use lbsim::presets::{by_system, Preset};
use lbsim::Scenario;
use wasm_bindgen::JsValue;
use web_sys::{Element, HtmlElement, HtmlSelectElement};

/// The menu's entry for settings that match no preset.
const CUSTOM: &str = "";

pub struct PresetPicker {
    pub select: HtmlSelectElement,
    description: HtmlElement,
}

/// Adds every preset to `select` as an option valued by its name, a real
/// system's under its name, as `lbsim presets` lists them.
pub fn add_presets(select: &HtmlSelectElement) -> Result<(), JsValue> {
    for (system, presets) in by_system() {
        let group: Element = match system {
            Some(name) => {
                let group: Element = dom::child(select, "optgroup", "")?;
                group.set_attribute("label", name)?;
                group
            }
            None => select.clone().into(),
        };
        for preset in presets {
            dom::text_child(&group, "option", "", preset.name)?.set_attribute("value", preset.name)?;
        }
    }
    Ok(())
}

impl PresetPicker {
    /// Builds the menu at the end of `panel`.
    pub fn build(panel: &Element, ids: &Ids) -> Result<PresetPicker, JsValue> {
        let row: HtmlElement = dom::child(panel, "div", "control preset")?;
        let id = ids.of("preset");
        let label = dom::text_child(&row, "label", "", "Preset (a file of scenarios/)")?;
        label.set_attribute("for", &id)?;
        let select: HtmlSelectElement = dom::child(&row, "select", "")?;
        let help_id = ids.of("preset-help");
        dom::set_attributes(&select, &[("id", &id), ("aria-describedby", &help_id)])?;
        dom::text_child(&select, "option", "", "your own settings")?.set_attribute("value", CUSTOM)?;
        add_presets(&select)?;
        let description = dom::text_child(&row, "p", "help", "")?;
        description.set_id(&help_id);
        Ok(PresetPicker { select, description })
    }

    /// The preset chosen, with its scenario.
    pub fn chosen(&self) -> Option<(&'static Preset, Scenario)> {
        let preset = Preset::find(&self.select.value())?;
        Some((preset, preset.scenario().ok()?))
    }

    /// Names the preset `scenario` is (its run length aside), if any.
    pub fn show(&self, scenario: &Scenario) {
        let matching = Preset::of(scenario);
        self.select.set_value(matching.map_or(CUSTOM, |p| p.name));
        let text = matching.map_or_else(
            || "Settings of your own; choose a preset to load one.".to_string(),
            |p| p.description(),
        );
        self.description.set_text_content(Some(&text));
    }
}
