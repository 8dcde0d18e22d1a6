//! The controls: one labelled HTML input per setting a view shows,
//! generated from the scenario's field table (names, ranges, choices) plus a
//! short list of how to show each setting (`lbsim::ui::controls`). Each
//! control shows its value; keyboard operation comes from the native inputs.

use super::dom::{self, Ids};
use super::params::Params;
use lbsim::scenario::{fields, FieldKind, PolicyKind};
use lbsim::ui::controls::{self, Control, Group, Show, Widget, CONTROLS};
use wasm_bindgen::prelude::*;
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
    row: HtmlElement,
    /// The field's help, or why the control does nothing at the moment.
    help: Option<HtmlElement>,
    /// A slider's values, in order; its position is an index into them.
    ladder: Vec<String>,
    /// The scale under a slider naming its decades, where it has one
    /// (see `controls::decades`), and how many rungs it was laid out for.
    scale: Option<(HtmlElement, usize)>,
}

pub struct Controls {
    items: Vec<Item>,
    /// The seed control's "New seed" button, when the seed has a control.
    pub new_seed: Option<HtmlElement>,
}

/// Where a view puts its controls.
pub enum Placement<'a> {
    /// The lab's: the speed beside the transport buttons, the rest in the
    /// panel, in titled groups, in the table's order.
    Grouped { transport: &'a Element, panel: &'a Element },
    /// An embed's: all in one row, in the order asked for.
    Flat(&'a Element),
}

impl Controls {
    /// Builds the controls for `keys` (keys of [`CONTROLS`]).
    pub fn build(keys: &[&'static str], placement: Placement, ids: &Ids) -> Result<Controls, JsValue> {
        let mut items = Vec::with_capacity(keys.len());
        let mut new_seed = None;
        // An embed's sliders name their decades under them; the lab's,
        // in narrow columns and beside the transport buttons, have no room
        // for them and show the value beside each label.
        let scaled = matches!(placement, Placement::Flat(_));
        let mut add = |control: &'static Control, container: &Element| -> Result<(), JsValue> {
            let (item, button) = Item::build(control, container, ids, scaled)?;
            new_seed = new_seed.take().or(button);
            items.push(item);
            Ok(())
        };
        match placement {
            Placement::Grouped { transport, panel } => {
                let mut groups: Vec<(Group, Element)> = vec![(Group::Transport, transport.clone())];
                for control in CONTROLS.iter().filter(|c| keys.contains(&c.key)) {
                    let container = match groups.iter().find(|(g, _)| *g == control.group) {
                        Some((_, container)) => container.clone(),
                        None => {
                            let fieldset: Element = dom::child(panel, "fieldset", "group")?;
                            // Named, so that a part of the lab can sit after it.
                            fieldset.set_attribute("data-group", control.group.title())?;
                            dom::text_child(&fieldset, "legend", "", control.group.title())?;
                            groups.push((control.group, fieldset.clone()));
                            fieldset
                        }
                    };
                    add(control, &container)?;
                }
            }
            Placement::Flat(row) => {
                for key in keys {
                    if let Some(control) = CONTROLS.iter().find(|c| c.key == *key) {
                        add(control, row)?;
                    }
                }
            }
        }
        Ok(Controls { items, new_seed })
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

    /// Whether control `key` has no effect under `params` (so an edit of it
    /// is refused).
    pub fn unused(key: &str, params: &Params) -> bool {
        controls::unused_under(key, params).is_some()
    }

    /// Shows `params` in every control.
    pub fn show(&mut self, params: &Params) {
        for item in &mut self.items {
            item.show(params);
        }
    }
}

impl Item {
    /// Builds the control into `container`, a slider with its scale where
    /// `scaled`; returns it and its "New seed" button, if it has one.
    fn build(
        control: &'static Control,
        container: &Element,
        ids: &Ids,
        scaled: bool,
    ) -> Result<(Item, Option<HtmlElement>), JsValue> {
        let key = control.key;
        let (id, value_id, help_id) =
            (ids.of(key), ids.of(&format!("{key}-value")), ids.of(&format!("{key}-help")));
        let field_kind = fields::find(key).ok().map(|f| f.kind);
        // A choice is marked, so that a row of buttons can put it beside its label.
        let class = match control.widget {
            Widget::Choice => "control choice",
            _ => "control",
        };
        let row: HtmlElement = dom::child(container, "div", class)?;
        let head: HtmlElement = dom::child(&row, "div", "control-head")?;
        let label = dom::text_child(&head, "label", "", control.label)?;
        label.set_attribute("for", &id)?;
        if fields::find(key).is_ok_and(|f| !f.is_live()) {
            // Marked, so nobody is surprised when the run starts over.
            let mark = dom::text_child(&label, "span", "restarts", " ↻")?;
            dom::set_attributes(&mark, &[("aria-hidden", "true"), ("title", RESTARTS)])?;
            dom::text_child(&label, "span", "visually-hidden", &format!(" ({RESTARTS})"))?;
        }
        let output_class = match control.show {
            Show::PolicyDescription => "value description",
            _ => "value",
        };
        let output: HtmlElement = dom::child(&head, "output", output_class)?;
        dom::set_attributes(&output, &[("for", &id), ("id", &value_id)])?;

        let (input, ladder) = match (&control.widget, field_kind) {
            (Widget::Choice, Some(FieldKind::Choice(names))) => {
                let select: HtmlSelectElement = dom::create("select", "")?;
                for name in names {
                    // Policies by their names for people; links keep the identifiers.
                    let text =
                        PolicyKind::from_name(name).filter(|_| key == "policy").map_or(*name, |p| p.title());
                    dom::text_child(&select, "option", "", text)?.set_attribute("value", name)?;
                }
                (Input::Select(select), Vec::new())
            }
            (Widget::Seed, Some(FieldKind::Count { min, max })) => {
                let input = new_input("number")?;
                dom::set_attributes(
                    &input,
                    &[("min", &min.to_string()), ("max", &max.to_string()), ("step", "1")],
                )?;
                (Input::Number(input), Vec::new())
            }
            _ => match control.ladder() {
                Some(ladder) => (Input::Slider(new_input("range")?), ladder),
                None => {
                    return Err(JsValue::from_str(&format!("control {key} does not fit its field's kind")))
                }
            },
        };
        let element: &HtmlElement = match &input {
            Input::Select(select) => select,
            Input::Slider(input) | Input::Number(input) => input,
        };
        element.set_id(&id);
        let new_seed = match control.widget {
            Widget::Seed => {
                let line: HtmlElement = dom::child(&row, "div", "seed-line")?;
                line.append_child(element)?;
                let button = dom::text_child(&line, "button", "quiet new-seed", "New seed")?;
                dom::set_attributes(
                    &button,
                    &[("id", &ids.of("new-seed")), ("type", "button"), ("title", "Draw a random seed")],
                )?;
                Some(button)
            }
            _ => {
                row.append_child(element)?;
                None
            }
        };
        // Under the slider, the decades its rungs pass, where it passes three.
        let scale = match !scaled || controls::decades(&ladder).is_empty() {
            true => None,
            false => {
                let scale: HtmlElement = dom::child(&row, "div", "ladder-scale")?;
                row.class_list().add_1("laddered")?;
                scale.set_attribute("aria-hidden", "true")?;
                Some((scale, 0))
            }
        };
        // The policy's description stands in for the field's help.
        let help = if matches!(control.show, Show::PolicyDescription) {
            element.set_attribute("aria-describedby", &value_id)?;
            None
        } else {
            let help = dom::text_child(&row, "p", "help", Params::help(key))?;
            help.set_id(&help_id);
            element.set_attribute("aria-describedby", &format!("{value_id} {help_id}"))?;
            Some(help)
        };
        Ok((Item { control, input, output, row, help, ladder, scale }, new_seed))
    }

    fn show(&mut self, params: &Params) {
        let text = params.text(self.control.key);
        let shown = self.control.shown(params);
        self.output.set_text_content(Some(&shown));
        let unused = controls::unused_under(self.control.key, params);
        let element: &HtmlElement = match &self.input {
            Input::Select(select) => select,
            Input::Slider(input) | Input::Number(input) => input,
        };
        let _ = element.set_attribute("aria-disabled", if unused.is_some() { "true" } else { "false" });
        let _ = self.row.class_list().toggle_with_force("unused", unused.is_some());
        if let Some(help) = &self.help {
            help.set_text_content(Some(unused.as_deref().unwrap_or(Params::help(self.control.key))));
        }
        match &self.input {
            Input::Select(select) => select.set_value(&text),
            Input::Number(input) => input.set_value(&text),
            Input::Slider(input) => {
                let index = controls::rung(&mut self.ladder, text);
                let _ = input.set_attribute("max", &(self.ladder.len() - 1).to_string());
                if let Some((scale, rungs)) = &mut self.scale {
                    if *rungs != self.ladder.len() {
                        *rungs = self.ladder.len();
                        let _ = lay_out_scale(scale, &self.ladder);
                    }
                }
                let _ = input.set_attribute("aria-valuetext", &shown);
                input.set_value(&index.to_string());
            }
        }
    }
}

/// Names a slider's decades under it, each under the thumb's centre at
/// its rung: the thumb travels the track less its own width.
fn lay_out_scale(scale: &HtmlElement, ladder: &[String]) -> Result<(), JsValue> {
    scale.set_text_content(None);
    for (at, name) in controls::decades(ladder) {
        // The ends' names stand inside the slider's box.
        let class = match at {
            0.0 => "start",
            1.0 => "end",
            _ => "",
        };
        let mark = dom::text_child(scale, "span", class, &name)?;
        let left = format!("calc(var(--thumb) / 2 + (100% - var(--thumb)) * {at:.4})");
        mark.style().set_property("left", &left)?;
    }
    Ok(())
}

/// What a mark beside a label means.
const RESTARTS: &str = "changing this starts the run over, from the same seed";

fn new_input(kind: &str) -> Result<HtmlInputElement, JsValue> {
    let input: HtmlInputElement = dom::create("input", "")?;
    input.set_type(kind);
    if kind == "range" {
        dom::set_attributes(&input, &[("min", "0"), ("step", "1")])?;
    }
    Ok(input)
}
