//! The scenario files of `scenarios/`, compiled in: the presets the browser
//! offers and the command line runs by name, so both read the same files.

use crate::scenario::{Scenario, ScenarioError};

/// A scenario file by name (its file name without `.toml`), with its text.
#[derive(Debug, PartialEq)]
pub struct Preset {
    pub name: &'static str,
    pub toml: &'static str,
}

macro_rules! presets {
    ($($name:literal),+ $(,)?) => {
        &[$(Preset { name: $name, toml: include_str!(concat!("../scenarios/", $name, ".toml")) }),+]
    };
}

/// Each scenario file's `key = value` pairs, by name (see `build.rs`).
type Pairs = &'static [(&'static str, &'static [(&'static str, &'static str)])];
static PAIRS: Pairs = include!(concat!(env!("OUT_DIR"), "/preset_pairs.rs"));

/// Every file in `scenarios/` (a test checks that none is missing).
pub static PRESETS: &[Preset] = presets![
    "spike-random",
    "continuous-random",
    "continuous-repick",
    "p2c-cheating",
    "p2c-stale",
    "subsets",
    "balancers-20",
    "balancers-3",
    "theory-mm3",
    "theory-mm100",
    "theory-supermarket",
    "mmc",
    "benchmark",
    "failures",
];

impl Preset {
    pub fn find(name: &str) -> Option<&'static Preset> {
        PRESETS.iter().find(|p| p.name == name)
    }

    /// The preset's scenario, from its file's `key = value` pairs as the
    /// build read them (so the browser needs no TOML parser; a test checks
    /// they give what `Scenario::from_toml` gives).
    pub fn scenario(&self) -> Result<Scenario, ScenarioError> {
        let pairs = PAIRS.iter().find(|(name, _)| *name == self.name).map_or(&[][..], |(_, pairs)| *pairs);
        let mut scenario = Scenario::default();
        scenario.set_many(pairs.iter().copied())?;
        Ok(scenario)
    }

    /// The file's opening comment, as one paragraph: what the preset shows.
    pub fn description(&self) -> String {
        let lines = self.toml.lines().map_while(|line| line.strip_prefix('#')).map(str::trim);
        lines.collect::<Vec<_>>().join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scenario_file_is_a_preset_that_parses_and_describes_itself() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .filter_map(|name| name.strip_suffix(".toml").map(String::from))
            .collect();
        files.sort();
        let mut names: Vec<String> = PRESETS.iter().map(|p| p.name.to_string()).collect();
        names.sort();
        assert_eq!(files, names);
        for preset in PRESETS {
            let scenario = preset.scenario().unwrap_or_else(|e| panic!("{}: {e}", preset.name));
            assert_eq!(Ok(scenario), Scenario::from_toml(preset.toml), "{}", preset.name);
            assert!(preset.description().len() > 40, "{}: {}", preset.name, preset.description());
        }
        assert!(Preset::find("theory-mm3").unwrap().description().starts_with("M/M/3 exactly"));
    }
}
