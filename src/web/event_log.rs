//! The events a person stepped through, one at a time, in words: the
//! newest first, a few kept, read out politely to screen readers. The
//! newest one's client, balancer and server are highlighted in the topology
//! until the simulation plays again.

use super::dom::{self, Ids};
use lbsim::engine::Told;
use wasm_bindgen::JsValue;
use web_sys::{Element, HtmlElement};

/// Events kept in the list.
const KEPT: usize = 8;

pub struct EventLog {
    panel: HtmlElement,
    list: HtmlElement,
    /// The newest event, while it is highlighted.
    pub highlighted: Option<Told>,
}

impl EventLog {
    /// Builds the (hidden until the first step) log at the end of `parent`.
    pub fn build(parent: &Element, ids: &Ids) -> Result<EventLog, JsValue> {
        let panel: HtmlElement = dom::child(parent, "section", "event-log")?;
        dom::set_attributes(
            &panel,
            &[("id", &ids.of("event-log")), ("aria-label", "Events stepped through")],
        )?;
        panel.set_hidden(true);
        dom::text_child(&panel, "h3", "", "Step by step: the latest events")?;
        let list: HtmlElement = dom::child(&panel, "ol", "")?;
        dom::set_attributes(&list, &[("aria-live", "polite"), ("reversed", "")])?;
        Ok(EventLog { panel, list, highlighted: None })
    }

    /// Adds the event just processed, at the top, and highlights it.
    pub fn push(&mut self, told: Told) {
        self.add(Some(told.time_ms), &told.text);
        self.highlighted = Some(told);
    }

    /// There was no event to step to, and why.
    pub fn push_none(&mut self, why: &str) {
        self.add(None, why);
        self.highlighted = None;
    }

    fn add(&self, time_ms: Option<f64>, text: &str) {
        self.panel.set_hidden(false);
        if let Ok(item) = dom::create::<HtmlElement>("li", "") {
            if let Some(ms) = time_ms {
                let _ = dom::text_child(&item, "span", "at", &format!("{:.3} s", ms / 1000.0));
            }
            let _ = dom::text_child(&item, "span", "", text);
            let _ = self.list.insert_before(&item, self.list.first_child().as_ref());
        }
        while self.list.child_element_count() as usize > KEPT {
            if let Some(last) = self.list.last_element_child() {
                last.remove();
            }
        }
    }

    /// The simulation plays (or starts over): nothing is highlighted.
    pub fn unhighlight(&mut self) {
        self.highlighted = None;
    }

    /// The simulation starts over: the log is emptied and hidden.
    pub fn clear(&mut self) {
        self.list.set_text_content(None);
        self.panel.set_hidden(true);
        self.highlighted = None;
    }
}
