//! What the page shows and the URL hash mirrors: a scenario plus the speed of
//! the animation. Every setting is read and written by key through the
//! scenario's field table, so names, ranges and messages have one source.

use crate::number;
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
        match number::parse(text.trim()) {
            Some(speed) if (SPEED_MIN..=SPEED_MAX).contains(&speed) => {
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
        fields::find(key).map_or("", |f| f.help.text())
    }

    /// Whether `text` is a value `key` accepts on its own: one refused only
    /// for how it combines with the defaults (workers with no balancers)
    /// is accepted where the others allow it.
    pub fn accepts(key: &str, text: &str) -> bool {
        !matches!(Params::default().set(key, text), Err(error) if !matches!(error, ScenarioError::Combination { .. }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_speed_goes_from_a_hundredth_to_ten() {
        let mut params = Params::default();
        for (text, speed) in [("0.01", 0.01), ("10", 10.0), (" 0.5 ", 0.5)] {
            params.set(SPEED_KEY, text).unwrap();
            assert_eq!(params.speed, speed);
        }
        assert_eq!(params.text(SPEED_KEY), "0.5");
        for bad in ["0.009", "10.01", "0", "-1", "fast", "", "NaN"] {
            let error = params.set(SPEED_KEY, bad).unwrap_err();
            assert!(error.to_string().starts_with("field `speed`: "), "{error}");
            assert!(error.to_string().ends_with("expected a number from 0.01 to 10"), "{error}");
            assert_eq!(params.speed, 0.5);
        }
    }

    #[test]
    fn a_field_is_set_through_the_scenario_and_a_refusal_changes_nothing() {
        let mut params = Params::default();
        params.set("servers", "7").unwrap();
        assert_eq!((params.scenario.servers, params.text("servers")), (7, "7".to_string()));
        let before = params.clone();
        assert!(params.set("servers", "0").is_err());
        assert!(params.set("nonsense", "1").is_err());
        assert_eq!(params, before);
        assert_eq!(params.text("nonsense"), "");
    }

    #[test]
    fn set_all_keeps_what_it_can_and_returns_the_rest() {
        let mut params = Params::default();
        let entries = [("servers", "0"), ("slots", "2"), ("speed", "20")];
        let refused = params.set_all(entries.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect());
        let keys: Vec<&str> = refused.iter().map(|(key, _, _)| key.as_str()).collect();
        assert_eq!(keys, ["servers", "speed"]);
        assert_eq!(params.scenario.slots, 2);
        assert_eq!(params.scenario.servers, Params::default().scenario.servers);
    }

    #[test]
    fn help_and_acceptance_come_from_the_field_table() {
        assert_eq!(Params::help("servers"), fields::find("servers").unwrap().help.text());
        assert!(!Params::help(SPEED_KEY).is_empty());
        assert_eq!(Params::help("nonsense"), "");
        assert!(Params::accepts("subset_size", "all") && !Params::accepts("subset_size", "none"));
    }
}
