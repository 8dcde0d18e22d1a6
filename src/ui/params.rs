//! What the page shows and the URL hash mirrors: a scenario plus the speed of
//! the animation. Every setting is read and written by key through the
//! scenario's field table, so names, ranges and messages have one source.

use crate::scenario::fields;
use crate::{Scenario, ScenarioError};

/// The key of the animation speed, the one setting that is not a scenario field.
pub const SPEED_KEY: &str = "speed";
const SPEED_MIN: f64 = 0.01;
const SPEED_MAX: f64 = 10.0;

#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    pub scenario: Scenario,
    /// Simulated seconds per wall second.
    pub speed: f64,
}

impl Default for Params {
    fn default() -> Params {
        Params { scenario: Scenario::default(), speed: 1.0 }
    }
}

impl Params {
    /// The setting `key` as text that [`Params::set`] accepts back.
    pub fn text(&self, key: &str) -> String {
        if key == SPEED_KEY {
            return fields::format_number(self.speed);
        }
        fields::find(key).map(|f| f.text(&self.scenario)).unwrap_or_default()
    }

    /// Changes one setting; on error nothing changes.
    pub fn set(&mut self, key: &str, text: &str) -> Result<(), ScenarioError> {
        if key != SPEED_KEY {
            return self.scenario.set(key, text);
        }
        match text.trim().parse::<f64>() {
            Ok(speed) if (SPEED_MIN..=SPEED_MAX).contains(&speed) => {
                self.speed = speed;
                Ok(())
            }
            _ => Err(ScenarioError::BadValue {
                field: SPEED_KEY,
                value: text.to_string(),
                allowed: format!(
                    "a number from {} to {}",
                    fields::format_number(SPEED_MIN),
                    fields::format_number(SPEED_MAX)
                ),
            }),
        }
    }

    /// Changes every `(key, value)`; returns those refused, with why. A
    /// value refused only for how it combines with others is tried again
    /// once everything else is in place, so the order does not matter.
    pub fn set_all(&mut self, entries: Vec<(String, String)>) -> Vec<(String, String, ScenarioError)> {
        let (mut refused, mut combinations) = (Vec::new(), Vec::new());
        for (key, value) in entries {
            match self.set(&key, &value) {
                Ok(()) => {}
                Err(ScenarioError::Combination { .. }) => combinations.push((key, value)),
                Err(error) => refused.push((key, value, error)),
            }
        }
        // Together first: fields that must agree (one cost per share) are
        // each refused alone until the other is in place.
        let together = combinations.iter().map(|(k, v)| (k.as_str(), v.as_str()));
        if !combinations.is_empty() && self.scenario.set_many(together).is_err() {
            for (key, value) in combinations {
                if let Err(error) = self.set(&key, &value) {
                    refused.push((key, value, error));
                }
            }
        }
        refused
    }

    /// What the setting means, for labels' descriptions.
    pub fn help(key: &str) -> &'static str {
        if key == SPEED_KEY {
            return "simulated seconds per second of animation";
        }
        fields::find(key).map_or("", |f| f.help)
    }

    /// Whether `text` is a value `key` accepts on its own.
    pub fn accepts(key: &str, text: &str) -> bool {
        Params::default().set(key, text).is_ok()
    }
}
