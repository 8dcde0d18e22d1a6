//! A view with a twin (`versus=`): which pictures it draws and what each
//! side is called. The two runs are drawn side by side on the same
//! arrivals, and everything that tells them apart (the pictures' titles,
//! the chart's legend, the sentences) names each by the settings in which
//! it differs ("random", "power of two choices"), never by a
//! letter alone: a reader who sees "A" must look elsewhere to learn what it
//! is, and a reader of a post cannot.

use super::params::Params;
use crate::format::thousands;
use crate::presets::{Preset, PRESETS};
use crate::scenario::fields;
use crate::{Scenario, ScenarioError};

/// The key of a `versus` pair that makes the twin a preset rather than the
/// view's own settings changed (`versus=preset:haproxy`), to compare two
/// systems on the same arrivals as `lbsim compare --vs-preset` does.
pub const PRESET_KEY: &str = "preset";

/// The twin's scenario: `scenario` with the `versus` pairs applied, or,
/// where they name a preset, that preset run as `scenario` is (from its
/// seed, for its duration and warm-up, so that both meet the same
/// requests) with the other pairs on top.
pub fn twin_of(scenario: &Scenario, versus: &[(&str, String)]) -> Result<Scenario, ScenarioError> {
    let mut twin = match preset_named(versus) {
        Some(preset) => {
            let mut twin = preset.scenario()?;
            (twin.seed, twin.duration_s, twin.warmup_s) =
                (scenario.seed, scenario.duration_s, scenario.warmup_s);
            twin
        }
        None => scenario.clone(),
    };
    twin.set_many(fields_of(versus).map(|(key, value)| (key, value.as_str())))?;
    Ok(twin)
}

/// The preset a `versus` names, if it names one.
fn preset_named(versus: &[(&str, String)]) -> Option<&'static Preset> {
    versus.iter().find(|(key, _)| *key == PRESET_KEY).and_then(|(_, name)| Preset::find(name))
}

/// The `versus` pairs that set fields, the preset's aside.
fn fields_of<'a>(versus: &'a [(&str, String)]) -> impl Iterator<Item = (&'a str, &'a String)> {
    versus.iter().filter(|(key, _)| *key != PRESET_KEY).map(|(key, value)| (*key, value))
}

/// `key:value` pairs separated by `;`, each a scenario field and a value
/// it accepts, or at most one `preset:NAME`, as the option `field` (a
/// twin's `versus`, or a third run's `reference`) takes them.
pub fn parse_versus(field: &'static str, text: &str) -> Result<Vec<(&'static str, String)>, ScenarioError> {
    let bad = |why: String| ScenarioError::BadValue {
        field,
        value: text.to_string(),
        allowed: format!(
            "settings as key:value pairs separated by \";\" (policy:random;staleness_ms:0), or a preset \
             (preset:haproxy); {why}"
        ),
    };
    let mut pairs = Vec::new();
    for pair in text.split(';').map(str::trim).filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once(':').ok_or_else(|| bad(format!("`{pair}` has no `:`")))?;
        if key.trim() == PRESET_KEY {
            pairs.push((PRESET_KEY, versus_preset(value.trim(), &pairs).map_err(bad)?));
            continue;
        }
        let field = fields::find(key.trim()).map_err(|e| bad(e.to_string()))?;
        let value = value.trim().to_string();
        Params::default().set(field.key, &value).map_err(|e| bad(e.to_string()))?;
        pairs.push((field.key, value));
    }
    Ok(pairs)
}

/// Settings as [`parse_versus`] reads them back: `key:value` pairs joined
/// by `;`.
pub fn settings_text(pairs: &[(&str, String)]) -> String {
    pairs.iter().map(|(key, value)| format!("{key}:{value}")).collect::<Vec<_>>().join(";")
}

/// The preset a `versus` pair names, where `pairs` before it named none.
fn versus_preset(name: &str, pairs: &[(&'static str, String)]) -> Result<String, String> {
    if pairs.iter().any(|(key, _)| *key == PRESET_KEY) {
        return Err("name one preset".to_string());
    }
    match Preset::find(name) {
        Some(preset) => Ok(preset.name.to_string()),
        None => {
            let names: Vec<&str> = PRESETS.iter().map(|preset| preset.name).collect();
            Err(format!("preset:NAME takes one of {}, not `{name}`", names.join(", ")))
        }
    }
}

/// The names of a view's two runs, each by its value of the settings the
/// twin changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sides {
    /// The view's own run, as its settings are now.
    pub own: String,
    /// The twin: the same settings with `versus` applied.
    pub twin: String,
}

impl Sides {
    /// The sides of a view running `scenario` beside a twin that changes
    /// `versus`; `None` without a twin, or when the twin's settings do not
    /// apply (the view says why elsewhere).
    pub fn of(scenario: &Scenario, versus: &[(&str, String)]) -> Option<Sides> {
        if versus.is_empty() {
            return None;
        }
        let twin = twin_of(scenario, versus).ok()?;
        let keys: Vec<&str> = fields_of(versus).map(|(key, _)| key).collect();
        if let Some(preset) = preset_named(versus) {
            return Some(Sides::presets(scenario, preset, &twin, &keys));
        }
        let (own, twin) = (words(scenario, &keys), words(&twin, &keys));
        Some(match keys.as_slice() {
            ["policy"] => Sides::shortest(own, twin),
            _ => Sides { own, twin },
        })
    }

    /// A view beside a preset: each side by its preset's name (the view's
    /// own, when its settings are one, else "your settings"), the twin's
    /// with the settings changed on top of its preset.
    fn presets(scenario: &Scenario, preset: &Preset, twin: &Scenario, keys: &[&str]) -> Sides {
        let own = Preset::of(scenario).map_or("your settings", |own| own.name).to_string();
        let twin = match keys {
            [] => preset.name.to_string(),
            keys => format!("{} with {}", preset.name, words(twin, keys)),
        };
        Sides { own, twin }
    }

    /// Two policies' names, each up to its first comma ("power of two choices" for "power
    /// of two choices, live load"), where the short names still tell the
    /// two apart (neither begins the other): a
    /// name is read in a picture's title, a legend and a sentence, often in
    /// a small frame, and the qualifier after the comma matters only when
    /// it is what tells the two apart ("power of two, learned load"
    /// against "power of two choices, live load").
    fn shortest(own: String, twin: String) -> Sides {
        let short = |name: &str| name.split(", ").next().unwrap_or(name).to_string();
        let (a, b) = (short(&own), short(&twin));
        match a.starts_with(&b) || b.starts_with(&a) {
            true => Sides { own, twin },
            false => Sides { own: a, twin: b },
        }
    }

    /// The sides as a sentence names them: a name that holds a comma in
    /// quotes, so that "with power of two choices, live load against power
    /// of two, learned load" does not read as three contenders, where
    /// each names one. A name without a comma
    /// reads as one already, and stays bare.
    pub fn in_prose(&self) -> Sides {
        Sides { own: quoted(&self.own), twin: quoted(&self.twin) }
    }

    /// The labels in the order the pictures are drawn: the view's own run
    /// first.
    pub fn in_order(&self) -> [&str; 2] {
        [&self.own, &self.twin]
    }

    /// Each picture's title, own then twin: its letter and side, and
    /// where the view's sentences speak of bounces, how rare they are in
    /// its run (`bounced`: bounces and requests so far, own then twin), so
    /// that a reader sees beside each picture that a repick, which acts
    /// only after a bounce, has little to act on.
    /// Each title comes in two parts, the side's name and how rare its
    /// bounces are, so that a narrow picture can cut the name short and
    /// keep the count.
    pub fn titles(&self, bounced: Option<[(u64, u64); 2]>) -> [(String, Option<String>); 2] {
        let [own, twin] = self.in_order();
        let rarities =
            bounced.map(|[own, twin]| [format!(" · {}", rarity(own)), format!(" · {}", rarity(twin))]);
        let [own_rarity, twin_rarity] = rarities.map_or([None, None], |[own, twin]| [Some(own), Some(twin)]);
        [(format!("A: {own}"), own_rarity), (format!("B: {twin}"), twin_rarity)]
    }
}

/// `name` in curly quotes where it holds a comma (see [`Sides::in_prose`]).
fn quoted(name: &str) -> String {
    match name.contains(',') {
        true => format!("“{name}”"),
        false => name.to_string(),
    }
}

/// How rare bounces are among `requests`, in few enough words for a
/// picture's title: "1 in 1,117 bounced".
fn rarity((bounces, requests): (u64, u64)) -> String {
    match bounces {
        0 => "no bounce yet".to_string(),
        n => format!("1 in {} bounced", thousands((requests as f64 / n as f64).round() as u64)),
    }
}

/// The pictures a view draws: one per run, titled by its side when there
/// are two.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pictures {
    /// The view's own run alone, untitled.
    One,
    /// The view's run and its twin's, titled with their sides.
    Two(Sides),
}

impl Pictures {
    /// What a view running `scenario` with the twin `versus` draws.
    pub fn for_view(scenario: &Scenario, versus: &[(&str, String)]) -> Pictures {
        Sides::of(scenario, versus).map_or(Pictures::One, Pictures::Two)
    }

    pub fn count(&self) -> usize {
        match self {
            Pictures::One => 1,
            Pictures::Two(_) => 2,
        }
    }

    pub fn sides(&self) -> Option<&Sides> {
        match self {
            Pictures::One => None,
            Pictures::Two(sides) => Some(sides),
        }
    }
}

/// What `scenario` is, in the settings named by `keys`: the policy's name
/// for people when the policy alone differs, how often a server is picked
/// when that alone differs ("one pick per connection": a title, an answer's
/// button and a sentence all read it), else `key = value` pairs.
fn words(scenario: &Scenario, keys: &[&str]) -> String {
    match keys {
        ["policy"] => policy_words(scenario),
        ["balance_per"] => format!("one pick per {}", scenario.balance_per.name()),
        keys => keys
            .iter()
            .filter_map(|key| fields::find(key).ok())
            .map(|field| format!("{} = {}", field.key, field.text(scenario)))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// The policy's name for people, with the number of choices in words
/// where the policy draws them ("power of two choices, live load").
fn policy_words(scenario: &Scenario) -> String {
    let title = scenario.policy.title();
    if !scenario.policy.uses_choices() {
        return title.to_string();
    }
    // The d stands before a word ("power of d choices") or a comma ("least
    // requests of d, drawn with replacement").
    let count = number_words(scenario.choices);
    let at = title.find(" d ").or_else(|| title.find(" d,"));
    at.map_or_else(|| title.to_string(), |at| format!("{} {count}{}", &title[..at], &title[at + 2..]))
}

/// A small count in words, as prose writes it; digits from ten up.
fn number_words(n: u32) -> String {
    const WORDS: [&str; 10] =
        ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
    WORDS.get(n as usize).map_or_else(|| n.to_string(), |word| word.to_string())
}

#[cfg(test)]
mod tests;
