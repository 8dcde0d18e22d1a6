//! Which settings have controls, where they sit, and how each edits and
//! shows its value. Names, ranges and choices come from the field table;
//! the controls themselves are listed in `table.rs`, and when one has no
//! effect, and why, is `unused.rs`'s to say.

mod table;
mod unused;

pub use table::CONTROLS;
pub use unused::unused_under;

use super::params::Params;
use crate::format::{grouped, thousands};
use crate::number;
use crate::scenario::{fields, Demand, FieldKind, PolicyKind};

/// Where a control sits on the page.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Group {
    Transport,
    Routing,
    Load,
    Servers,
    Failures,
    Keys,
    Run,
}

impl Group {
    pub fn title(self) -> &'static str {
        match self {
            Group::Transport => "",
            Group::Routing => "Routing",
            Group::Load => "Demand",
            Group::Servers => "Servers",
            Group::Failures => "When servers fail",
            Group::Keys => "Keys",
            Group::Run => "Run",
        }
    }
}

/// How a control edits its setting.
pub enum Widget {
    /// A drop-down of the field's names.
    Choice,
    /// A slider over these values (those the field accepts), plus the
    /// current value when it is not among them.
    Presets(&'static [&'static str]),
    /// A slider over the field's whole range in steps of this size.
    Steps(f64),
    /// A box for the seed (a whole number in the field's range), and a
    /// button that draws a new one.
    Seed,
}

/// What a control shows beside its label.
pub enum Show {
    /// Nothing: the input shows its value itself.
    Nothing,
    /// The value and its unit.
    Value(&'static str),
    /// What the chosen policy does.
    PolicyDescription,
    /// The load, and the request rate it means.
    OfferedLoad,
}

pub struct Control {
    pub key: &'static str,
    pub label: &'static str,
    pub group: Group,
    pub widget: Widget,
    pub show: Show,
}

impl Control {
    /// A slider's values, in order: the presets the field accepts, or the
    /// field's range in steps. `None` for a control that is not a slider, or
    /// whose steps do not fit its field's kind.
    pub fn ladder(&self) -> Option<Vec<String>> {
        match (&self.widget, fields::find(self.key).ok().map(|f| f.kind)) {
            (Widget::Presets(values), _) => {
                Some(values.iter().filter(|v| Params::accepts(self.key, v)).map(|v| v.to_string()).collect())
            }
            (Widget::Steps(step), Some(FieldKind::Number { min, max })) => {
                let scale = 1.0 / step;
                let (low, high) = ((min * scale).ceil() as i64, (max * scale).floor() as i64);
                Some((low..=high).map(|k| fields::format_number(k as f64 / scale)).collect())
            }
            _ => None,
        }
    }

    /// What the control shows beside its label under `params`.
    pub fn shown(&self, params: &Params) -> String {
        let text = readable(params.text(self.key));
        match self.show {
            Show::Nothing => String::new(),
            Show::Value(unit) if unit.is_empty() || text == "all" || text == "none" => text,
            Show::Value(unit) => format!("{text} {unit}"),
            Show::PolicyDescription => PolicyKind::from_name(&text).map_or("", |p| p.describe()).to_string(),
            Show::OfferedLoad if params.scenario.demand == Demand::Spike => {
                format!("{text} × capacity (for continuous demand)")
            }
            Show::OfferedLoad => {
                let rate = params.scenario.load * params.scenario.capacity_per_sec();
                format!("{text} × capacity ≈ {} req/s", thousands(rate.round() as u64))
            }
        }
    }
}

/// A setting's value as the label beside its control shows it: a whole
/// number grouped in threes ("1,000 clients", as the sentences write
/// counts), anything else as a link writes it.
fn readable(text: String) -> String {
    match number::parse(&text) {
        Some(x) if x.fract() == 0.0 && x.abs() >= 1000.0 => grouped(x, 0),
        _ => text,
    }
}

/// The rungs a scale under a slider names, each with its place along the
/// slider (0 at its left end, 1 at its right): the powers of ten, where
/// its ladder holds three or more. Such a ladder (1, 2, 5, 10, 20, 50, …)
/// steps by a like ratio each time, which a reader took for uneven steps
/// ("from 500, three presses reach 50") while no scale said so; named
/// decades under it, a step's size reads off the slider. Empty for any
/// other ladder.
pub fn decades(ladder: &[String]) -> Vec<(f64, String)> {
    let last = ladder.len().saturating_sub(1).max(1) as f64;
    let named: Vec<(f64, String)> = ladder
        .iter()
        .enumerate()
        .filter_map(|(i, v)| {
            v.parse::<f64>().ok().filter(|x| is_power_of_ten(*x)).map(|x| (i as f64 / last, x))
        })
        .map(|(at, x)| (at, if x >= 1.0 { grouped(x, 0) } else { fields::format_number(x) }))
        .collect();
    match named.len() {
        3.. => named,
        _ => Vec::new(),
    }
}

fn is_power_of_ten(x: f64) -> bool {
    x > 0.0 && (x.log10() - x.log10().round()).abs() < 1e-9
}

/// The position of `text` on a slider's `ladder`; a value that is not on
/// it (one a link gave) is first put among the numbers in order, wherever
/// the words ("none", "all") sit.
pub fn rung(ladder: &mut Vec<String>, text: String) -> usize {
    if let Some(index) = ladder.iter().position(|v| *v == text) {
        return index;
    }
    let number = number::parse;
    let index = match number(&text) {
        Some(value) => {
            ladder.iter().position(|v| number(v).is_some_and(|n| n > value)).unwrap_or_else(|| {
                ladder.iter().rposition(|v| number(v).is_some()).map_or(ladder.len(), |last| last + 1)
            })
        }
        None => ladder.len(),
    };
    ladder.insert(index, text);
    index
}

#[cfg(test)]
mod tests;
