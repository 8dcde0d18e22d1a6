//! The controls: one labelled HTML input per setting, generated from the
//! scenario's field table (names, ranges, choices) plus a short list of
//! which settings to show and how. Each control shows its value; keyboard
//! operation comes from the native inputs.

mod table;

pub use table::CONTROLS;

use super::dom;
use super::params::Params;
use lbsim::scenario::{fields, Demand, FieldKind, PolicyKind};
use table::{Control, Group, Show, Widget};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, EventTarget, HtmlElement, HtmlInputElement, HtmlSelectElement};

enum Input {
    Select(HtmlSelectElement),
    Slider(HtmlInputElement),
    Number(HtmlInputElement),
}

struct Item {
    control: &'static Control,
    input: Input,
    output: HtmlElement,
    /// A slider's values, in order; its position is an index into them.
    ladder: Vec<String>,
}

pub struct Controls {
    items: Vec<Item>,
}

impl Controls {
    /// Builds every control into the page.
    pub fn build() -> Result<Controls, JsValue> {
        let panel: HtmlElement = dom::by_id("controls")?;
        let mut containers = vec![(Group::Transport, dom::by_id::<Element>("transport")?)];
        for group in Group::PANEL {
            let fieldset = dom::create("fieldset", "group")?;
            let legend = dom::create("legend", "")?;
            legend.set_text_content(Some(group.title()));
            fieldset.append_child(&legend)?;
            panel.append_child(&fieldset)?;
            containers.push((group, fieldset.into()));
        }
        let mut items = Vec::with_capacity(CONTROLS.len());
        for control in CONTROLS {
            let (_, container) =
                containers.iter().find(|(g, _)| *g == control.group).expect("every group has a container");
            items.push(Item::build(control, container)?);
        }
        Ok(Controls { items })
    }

    /// Each control's key, its input, and the event that reports an edit.
    pub fn inputs(&self) -> Vec<(&'static str, EventTarget, &'static str)> {
        self.items
            .iter()
            .map(|item| {
                let (target, event): (&EventTarget, _) = match &item.input {
                    Input::Select(select) => (select, "change"),
                    Input::Slider(input) => (input, "input"),
                    Input::Number(input) => (input, "change"),
                };
                (item.control.key, target.clone(), event)
            })
            .collect()
    }

    /// The text the person has put in control `key`.
    pub fn read(&self, key: &str) -> Option<String> {
        let item = self.items.iter().find(|i| i.control.key == key)?;
        Some(match &item.input {
            Input::Select(select) => select.value(),
            Input::Number(input) => input.value(),
            Input::Slider(input) => {
                let index: usize = input.value().parse().ok()?;
                item.ladder.get(index)?.clone()
            }
        })
    }

    /// Shows `params` in every control.
    pub fn show(&mut self, params: &Params) {
        for item in &mut self.items {
            item.show(params);
        }
    }
}

impl Item {
    fn build(control: &'static Control, container: &Element) -> Result<Item, JsValue> {
        let key = control.key;
        let field_kind = fields::find(key).ok().map(|f| f.kind);
        let row = dom::create("div", "control")?;
        let head = dom::create("div", "control-head")?;
        let label = dom::create("label", "")?;
        label.set_attribute("for", key)?;
        label.set_text_content(Some(control.label));
        let output = dom::create("output", "value")?;
        dom::set_attributes(&output, &[("for", key), ("id", &format!("{key}-value"))])?;
        head.append_child(&label)?;
        head.append_child(&output)?;
        row.append_child(&head)?;

        let (input, ladder) = match (&control.widget, field_kind) {
            (Widget::Choice, Some(FieldKind::Choice(names))) => {
                let select: HtmlSelectElement = dom::document().create_element("select")?.dyn_into()?;
                for name in names {
                    let option = dom::create("option", "")?;
                    option.set_attribute("value", name)?;
                    option.set_text_content(Some(name));
                    select.append_child(&option)?;
                }
                (Input::Select(select), Vec::new())
            }
            (Widget::Whole, Some(FieldKind::Count { min, max })) => {
                let input = new_input("number")?;
                dom::set_attributes(
                    &input,
                    &[("min", &min.to_string()), ("max", &max.to_string()), ("step", "1")],
                )?;
                (Input::Number(input), Vec::new())
            }
            (Widget::Presets(values), _) => {
                let ladder =
                    values.iter().filter(|v| Params::accepts(key, v)).map(|v| v.to_string()).collect();
                (Input::Slider(new_input("range")?), ladder)
            }
            (Widget::Steps(step), Some(FieldKind::Number { min, max })) => {
                let scale = 1.0 / step;
                let (low, high) = ((min * scale).ceil() as i64, (max * scale).floor() as i64);
                let ladder = (low..=high).map(|k| fields::format_number(k as f64 / scale)).collect();
                (Input::Slider(new_input("range")?), ladder)
            }
            _ => return Err(JsValue::from_str(&format!("control {key} does not fit its field's kind"))),
        };
        let element: &HtmlElement = match &input {
            Input::Select(select) => select,
            Input::Slider(input) | Input::Number(input) => input,
        };
        element.set_id(key);
        row.append_child(element)?;
        // The policy's description stands in for the field's help.
        if matches!(control.show, Show::PolicyDescription) {
            element.set_attribute("aria-describedby", &format!("{key}-value"))?;
        } else {
            let help = dom::create("p", "help")?;
            help.set_id(&format!("{key}-help"));
            help.set_text_content(Some(Params::help(key)));
            row.append_child(&help)?;
            element.set_attribute("aria-describedby", &format!("{key}-value {key}-help"))?;
        }
        container.append_child(&row)?;
        Ok(Item { control, input, output, ladder })
    }

    fn show(&mut self, params: &Params) {
        let text = params.text(self.control.key);
        let shown = match self.control.show {
            Show::Nothing => String::new(),
            Show::Value(unit) if unit.is_empty() || text == "all" || text == "none" => text.clone(),
            Show::Value(unit) => format!("{text} {unit}"),
            Show::PolicyDescription => PolicyKind::from_name(&text).map_or("", |p| p.describe()).to_string(),
            Show::OfferedLoad if params.scenario.demand == Demand::Spike => {
                format!("{text} × capacity (for continuous demand)")
            }
            Show::OfferedLoad => {
                let rate = params.scenario.load * params.scenario.capacity_per_sec();
                format!("{text} × capacity ≈ {} req/s", group_thousands(rate.round() as u64))
            }
        };
        self.output.set_text_content(Some(&shown));
        match &self.input {
            Input::Select(select) => select.set_value(&text),
            Input::Number(input) => input.set_value(&text),
            Input::Slider(input) => {
                let index = match self.ladder.iter().position(|v| *v == text) {
                    Some(index) => index,
                    None => insert_in_order(&mut self.ladder, text),
                };
                let _ = input.set_attribute("max", &(self.ladder.len() - 1).to_string());
                let _ = input.set_attribute("aria-valuetext", &shown);
                input.set_value(&index.to_string());
            }
        }
    }
}

fn new_input(kind: &str) -> Result<HtmlInputElement, JsValue> {
    let input: HtmlInputElement = dom::document().create_element("input")?.dyn_into()?;
    input.set_type(kind);
    if kind == "range" {
        dom::set_attributes(&input, &[("min", "0"), ("step", "1")])?;
    }
    Ok(input)
}

/// Puts `text` among numeric values in order ("all" and "none" last) and
/// returns its index.
fn insert_in_order(ladder: &mut Vec<String>, text: String) -> usize {
    let rank = |v: &str| v.parse::<f64>().unwrap_or(f64::INFINITY);
    let index = ladder.iter().position(|v| rank(v) > rank(&text)).unwrap_or(ladder.len());
    ladder.insert(index, text);
    index
}

/// 12345 as "12,345".
pub fn group_thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
