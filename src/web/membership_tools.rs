//! The lab's "servers joining and leaving" box: add a server, or remove
//! (drain), crash or restore the one chosen, while the simulation runs. A
//! change applies at the next whole simulated millisecond and joins the
//! scenario's `membership` schedule, so the link reproduces it. The status
//! line says what the last change did: requests sent back, and under a
//! placement scheme the keys that moved against the fewest that had to.

use super::dom::{self, Ids};
use lbsim::engine::{ChangeReport, ServerState};
use lbsim::scenario::Change;
use lbsim::Snapshot;
use wasm_bindgen::JsValue;
use web_sys::{Element, HtmlElement, HtmlSelectElement};

/// What a button of the box asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    Add,
    Remove,
    Crash,
    Restore,
}

pub struct MembershipTools {
    pub buttons: Vec<(HtmlElement, Ask)>,
    pub select: HtmlSelectElement,
    status: HtmlElement,
    /// Each server's state as the menu lists it.
    listed: Vec<ServerState>,
}

impl MembershipTools {
    pub fn build(panel: &Element, ids: &Ids) -> Result<MembershipTools, JsValue> {
        let group: HtmlElement = dom::child(panel, "section", "group membership")?;
        group.set_attribute("aria-labelledby", &ids.of("membership-title"))?;
        dom::text_child(&group, "h3", "", "Servers joining and leaving")?.set_id(&ids.of("membership-title"));
        let add = dom::text_child(&group, "button", "quiet", "Add a server")?;
        dom::set_attributes(&add, &[("id", &ids.of("add-server")), ("type", "button")])?;
        let row: HtmlElement = dom::child(&group, "div", "membership-row")?;
        let label = dom::text_child(&row, "label", "", "Server")?;
        label.set_attribute("for", &ids.of("member"))?;
        let select: HtmlSelectElement = dom::child(&row, "select", "")?;
        select.set_id(&ids.of("member"));
        let mut buttons = vec![(add, Ask::Add)];
        for (ask, text, id) in [
            (Ask::Remove, "Remove", "remove-server"),
            (Ask::Crash, "Crash", "crash-server"),
            (Ask::Restore, "Restore", "restore-server"),
        ] {
            let button = dom::text_child(&row, "button", "quiet", text)?;
            dom::set_attributes(&button, &[("id", &ids.of(id)), ("type", "button")])?;
            buttons.push((button, ask));
        }
        let status = dom::text_child(
            &group,
            "p",
            "help",
            "Remove drains a server (it finishes what it holds); crash sends what it holds back to be placed again.",
        )?;
        dom::set_attributes(&status, &[("id", &ids.of("membership-status")), ("role", "status")])?;
        Ok(MembershipTools { buttons, select, status, listed: Vec::new() })
    }

    /// Lists the servers of `snapshot` in the menu, each with its state
    /// unless active (only when something changed).
    pub fn show(&mut self, snapshot: &Snapshot) {
        let states = snapshot.servers.iter().map(|s| s.state);
        if states.clone().eq(self.listed.iter().copied()) {
            return;
        }
        self.listed = states.collect();
        let chosen = self.select.value();
        self.select.set_text_content(None);
        for (i, state) in self.listed.iter().enumerate() {
            let text = match state {
                ServerState::Active => i.to_string(),
                other => format!("{i} ({})", other.name()),
            };
            if let Ok(option) = dom::text_child(&self.select, "option", "", &text) {
                let _ = option.set_attribute("value", &i.to_string());
            }
        }
        self.select.set_value(if chosen.is_empty() { "0" } else { &chosen });
    }

    /// The server chosen in the menu.
    pub fn chosen(&self) -> Option<usize> {
        self.select.value().parse().ok()
    }

    /// Says what `report`, the change just made, did.
    pub fn tell(&self, report: &ChangeReport) {
        let what = match report.change {
            Change::Add => format!("Server {} joined", report.server),
            Change::Remove(s) => format!("Server {s} is draining"),
            Change::Crash(s) => format!("Server {s} crashed"),
            Change::Restore(s) => format!("Server {s} is back"),
        };
        let mut text = format!("{what} at {:.3} s", report.at_s);
        if report.crash_replaced > 0 {
            text += &format!("; {} requests it held went back to be placed again", report.crash_replaced);
        }
        if let (Some(moved), Some(ideal)) = (report.keys_moved, report.keys_ideal) {
            text += &format!(
                "; {:.1}% of keys moved (the fewest possible: {:.1}%)",
                moved * 100.0,
                ideal * 100.0
            );
        }
        self.status.set_text_content(Some(&format!("{text}.")));
    }

    pub fn refuse(&self, message: &str) {
        self.status.set_text_content(Some(message));
    }
}
