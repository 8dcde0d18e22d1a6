//! Where a run's scenario comes from: a file, a preset, or every field at
//! its default. One rule tells them apart, with no look at the disk: a
//! path says it is one (it holds a `/` or ends in `.toml`); any other word
//! is `default` or a preset's name, so a file in the current folder never
//! silently stands in for a preset.

use lbsim::presets::Preset;
use lbsim::scenario::echo;
use lbsim::Scenario;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest scenario file read: far above any real one (the presets
/// are under 1 KiB), and low enough that `/dev/zero` or a wrong file is
/// refused at once rather than read into memory.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

#[derive(Clone, Debug, Default, PartialEq)]
pub enum ScenarioSource {
    File(PathBuf),
    Preset(&'static Preset),
    /// `default`: every field at its default.
    #[default]
    Default,
}

impl ScenarioSource {
    /// The SCENARIO argument, by the rule above.
    pub fn parse(text: &str) -> Result<ScenarioSource, String> {
        if text.contains(['/', std::path::MAIN_SEPARATOR]) || text.ends_with(".toml") {
            return Ok(ScenarioSource::File(PathBuf::from(text)));
        }
        if text == "default" {
            return Ok(ScenarioSource::Default);
        }
        Preset::find(text).map(ScenarioSource::Preset).ok_or_else(|| {
            format!(
                "no preset is named {shown} (`lbsim presets` lists them); a scenario file's path holds a `/` or ends in .toml: ./{text}", shown = echo(text)
            )
        })
    }

    /// The scenario, read and checked.
    pub fn scenario(&self) -> Result<Scenario, String> {
        match self {
            ScenarioSource::File(path) => {
                let text = read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                Scenario::from_toml(&text).map_err(|e| format!("{}: {e}", path.display()))
            }
            ScenarioSource::Preset(preset) => {
                Scenario::from_toml(preset.toml()).map_err(|e| format!("preset {}: {e}", preset.name))
            }
            ScenarioSource::Default => Ok(Scenario::default()),
        }
    }

    /// A short name for output files: the file's stem, the preset's name,
    /// or `default`.
    pub fn name(&self) -> String {
        match self {
            ScenarioSource::File(path) => {
                path.file_stem().map_or("scenario".into(), |stem| stem.to_string_lossy().into_owned())
            }
            ScenarioSource::Preset(preset) => preset.name.into(),
            ScenarioSource::Default => "default".into(),
        }
    }

    /// A word that names both a preset (or `default`) and a file in the
    /// current folder: what to tell the user, who may have meant the file.
    pub fn shadowed_file(&self) -> Option<String> {
        let (word, meaning) = match self {
            ScenarioSource::Preset(preset) => (preset.name, "is the preset"),
            ScenarioSource::Default => ("default", "means every field at its default"),
            ScenarioSource::File(_) => return None,
        };
        Path::new(word).exists().then(|| format!("`{word}` {meaning}; for the file, write ./{word}"))
    }
}

/// A file's text, refused past [`MAX_FILE_BYTES`]: reading stops one byte
/// beyond, so an endless file costs no more.
fn read(path: &Path) -> Result<String, String> {
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(MAX_FILE_BYTES + 1).read_to_string(&mut text))
        .map_err(|e| e.to_string())?;
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(format!("a scenario file may hold at most {} MiB", MAX_FILE_BYTES >> 20));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_says_it_is_one_and_any_other_word_is_a_preset() {
        let file = |path: &str| Ok(ScenarioSource::File(path.into()));
        assert_eq!(ScenarioSource::parse("./mmc"), file("./mmc"));
        assert_eq!(ScenarioSource::parse("mine.toml"), file("mine.toml"));
        assert_eq!(ScenarioSource::parse("mmc"), Ok(ScenarioSource::Preset(Preset::find("mmc").unwrap())));
        assert_eq!(ScenarioSource::parse("default"), Ok(ScenarioSource::Default));
        assert!(ScenarioSource::parse("mine").unwrap_err().contains("./mine"));
    }
}
