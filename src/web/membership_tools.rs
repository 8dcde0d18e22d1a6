//! The lab's servers box: add a server, or remove (drain), crash or
//! restore the one chosen, or make it fail (down, slow, failing fast,
//! flapping) and recover, while the simulation runs. A change applies at
//! the next whole simulated millisecond and joins the scenario's
//! `membership` or `failures` schedule, so the link reproduces it. The
//! status line says what the last change did: requests sent back, under a
//! placement scheme the keys that moved against the fewest that had to,
//! and for a failure what the server now does.

use super::dom::{self, Ids};
use lbsim::engine::{ChangeReport, ServerState};
use lbsim::scenario::failures::Failure;
use lbsim::scenario::fields::format_number;
use lbsim::scenario::Change;
use lbsim::{Scenario, Snapshot, Time};
use wasm_bindgen::JsValue;
use web_sys::{Element, HtmlElement, HtmlSelectElement};

/// What a button of the box asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    Add,
    Remove,
    Crash,
    Restore,
    /// The chosen server fails as the failure menu says.
    Fail,
    Recover,
}

/// What a click on a server gives it: a noisy neighbour, a quarter of its speed.
pub const NOISY_NEIGHBOUR: Failure = Failure::Slow { factor: 0.25 };

/// The failures the menu offers, with their names in it.
const FAILURES: [(Failure, &str); 4] = [
    (Failure::Down, "down"),
    (NOISY_NEIGHBOUR, "slow, ¼ speed"),
    (Failure::FastFail { share: 0.9, after_ms: 1.0 }, "fast-fail, 90%"),
    (Failure::Flap { period_ms: 500.0 }, "flap, 500 ms"),
];

pub struct MembershipTools {
    pub buttons: Vec<(HtmlElement, Ask)>,
    pub select: HtmlSelectElement,
    /// Which of [`FAILURES`] the fail button applies.
    failure: HtmlSelectElement,
    status: HtmlElement,
    /// Each server's state as the menu lists it.
    listed: Vec<ServerState>,
}

impl MembershipTools {
    pub fn build(panel: &Element, ids: &Ids) -> Result<MembershipTools, JsValue> {
        let group: HtmlElement = dom::child(panel, "section", "group membership")?;
        group.set_attribute("aria-labelledby", &ids.of("membership-title"))?;
        dom::text_child(&group, "h3", "", "Servers joining, leaving and failing")?
            .set_id(&ids.of("membership-title"));
        let add = dom::text_child(&group, "button", "quiet", "Add a server")?;
        dom::set_attributes(&add, &[("id", &ids.of("add-server")), ("type", "button")])?;
        let mut buttons = vec![(add, Ask::Add)];
        // A menu a row, its buttons under it: the two menus line up.
        let grid: HtmlElement = dom::child(&group, "div", "membership-grid")?;
        let row = |label: &str, id: &str| -> Result<(HtmlElement, HtmlSelectElement), JsValue> {
            dom::text_child(&grid, "label", "", label)?.set_attribute("for", &ids.of(id))?;
            let select: HtmlSelectElement = dom::child(&grid, "select", "")?;
            select.set_id(&ids.of(id));
            Ok((dom::child(&grid, "div", "membership-buttons")?, select))
        };
        let (servers, select) = row("Server", "member")?;
        let (failures, failure) = row("Failure", "failure-kind")?;
        for (i, (_, name)) in FAILURES.iter().enumerate() {
            dom::text_child(&failure, "option", "", name)?.set_attribute("value", &i.to_string())?;
        }
        for (row, ask, text, id) in [
            (&servers, Ask::Remove, "Remove", "remove-server"),
            (&servers, Ask::Crash, "Crash", "crash-server"),
            (&servers, Ask::Restore, "Restore", "restore-server"),
            (&failures, Ask::Fail, "Fail", "fail-server"),
            (&failures, Ask::Recover, "Recover", "recover-server"),
        ] {
            let button = dom::text_child(row, "button", "quiet", text)?;
            dom::set_attributes(&button, &[("id", &ids.of(id)), ("type", "button")])?;
            buttons.push((button, ask));
        }
        let status = dom::text_child(
            &group,
            "p",
            "help",
            "Remove drains a server (it finishes what it holds); crash sends what it holds back to be placed again. A failing server stays in the pools until something takes it out.",
        )?;
        dom::set_attributes(&status, &[("id", &ids.of("membership-status")), ("role", "status")])?;
        Ok(MembershipTools { buttons, select, failure, status, listed: Vec::new() })
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

    /// Chooses `server` in the menu (clicked in the topology).
    pub fn choose(&self, server: usize) {
        self.select.set_value(&server.to_string());
    }

    /// The failure chosen in the failure menu.
    pub fn failure(&self) -> Failure {
        let chosen = self.failure.value().parse().ok().and_then(|i: usize| FAILURES.get(i));
        chosen.map_or(FAILURES[0].0, |(failure, _)| *failure)
    }

    /// Says what a failure (or, `None`, a recovery) of `server` that
    /// applied `at` does, and whether anything takes the server out of the
    /// pools under `scenario`.
    pub fn tell_failure(&self, server: usize, failure: Option<Failure>, at: Time, scenario: &Scenario) {
        let at = format!("{:.3} s", at.as_secs());
        let what = match failure {
            None => format!("Server {server} recovered at {at}"),
            Some(Failure::Down) => format!("Server {server} went down at {at}: it refuses connections"),
            Some(Failure::Slow { factor }) => {
                format!("Server {server} runs at {}× its speed from {at}", format_number(factor))
            }
            Some(Failure::FastFail { share, after_ms }) => format!(
                "Server {server} fails fast from {at}: {}% of its requests get an error after {} ms",
                format_number(share * 100.0),
                format_number(after_ms)
            ),
            Some(Failure::Flap { period_ms }) => format!(
                "Server {server} flaps from {at}: down and up in turn, {} ms each",
                format_number(period_ms)
            ),
        };
        // Health checks find a server down, never one failing fast.
        let (ejects, checks) = (scenario.eject_after > 0, scenario.health_check_ms.is_some());
        let guarded = match failure {
            Some(Failure::FastFail { .. }) => ejects,
            Some(Failure::Down | Failure::Flap { .. }) => ejects || checks,
            Some(Failure::Slow { .. }) | None => true,
        };
        let hint = match (guarded, scenario.policy.reads_keys()) {
            (_, true) if failure.is_some() => "; its keys stay on it: a placement scheme takes no server out",
            (false, _) => "; nothing takes it out of the pools (see “When servers fail”)",
            _ => "",
        };
        self.status.set_text_content(Some(&format!("{what}{hint}.")));
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
        // The server's own keys had to move; with uneven shares a fair
        // share (keys_ideal) is no bound on what moved.
        if let (Some(moved), Some(own)) = (report.keys_moved, report.server_keys) {
            text += &format!(
                "; {:.1}% of keys moved, where {:.1}% had to (the server's own)",
                moved * 100.0,
                own * 100.0
            );
        }
        self.status.set_text_content(Some(&format!("{text}.")));
    }

    pub fn refuse(&self, message: &str) {
        self.status.set_text_content(Some(message));
    }
}
