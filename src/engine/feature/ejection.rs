//! Outlier ejection (Envoy's consecutive-errors detection): a chooser that
//! hears `eject_after` errors in a row from a server takes it out of its
//! pool for `eject_for_ms`, holding at most `eject_max_fraction` of the
//! pool out, and readmits it when its timer is due. A membership change
//! or a redraw of pools readmits every server (the choosers' own rule).

use super::{Action, Asks, Feature, Heard, Points, Report, View};
use crate::engine::Outcome;
use crate::scenario::Scenario;
use crate::time::Time;
use serde::Serialize;

pub(in crate::engine) struct Ejection {
    after: u32,
    length: Time,
    max_fraction: f64,
    /// Each chooser's runs of consecutive errors, (server, errors) for the
    /// servers with one: usually none, so a success costs a glance.
    runs: Vec<Vec<(u32, u32)>>,
    outliers: Outliers,
}

/// What outlier ejection counted: the summary shows it beside the core's
/// counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Outliers {
    /// Servers ejected from a chooser's pool as outliers.
    pub ejections: u64,
}

impl Ejection {
    pub fn outliers(&self) -> Outliers {
        self.outliers
    }

    /// Counts `outcome` in `chooser`'s run for `server`; returns whether the
    /// run just reached the threshold (and starts it afresh).
    fn run_reaches_threshold(&mut self, Heard { chooser, server, outcome, .. }: Heard) -> bool {
        if self.runs.len() <= chooser {
            self.runs.resize(chooser + 1, Vec::new());
        }
        let runs = &mut self.runs[chooser];
        let found = runs.iter().position(|&(s, _)| s == server);
        let errors = match (outcome, found) {
            (Outcome::Ok, Some(i)) => {
                runs.swap_remove(i);
                return false;
            }
            (Outcome::Ok, None) => return false,
            (Outcome::Error(_), Some(i)) => {
                runs[i].1 += 1;
                runs[i].1
            }
            (Outcome::Error(_), None) => {
                runs.push((server, 1));
                1
            }
        };
        if errors < self.after {
            return false;
        }
        runs.retain(|&(s, _)| s != server);
        true
    }
}

impl Feature for Ejection {
    const TRACE_KIND: u64 = 20;
    const HEARS: Points = Points::HEARD;

    fn for_scenario(scenario: &Scenario) -> Option<Ejection> {
        (scenario.eject_after > 0).then(|| Ejection {
            after: scenario.eject_after,
            length: Time::from_ms(scenario.eject_for_ms),
            max_fraction: scenario.eject_max_fraction,
            runs: Vec::new(),
            outliers: Outliers::default(),
        })
    }

    fn heard(&mut self, heard: Heard, view: &View, out: &mut Asks) {
        if self.run_reaches_threshold(heard) {
            let until = view.now + self.length;
            let (chooser, server) = (heard.chooser as u32, heard.server);
            out.push(Action::Eject { chooser, server, until, max_fraction: self.max_fraction });
        }
    }

    /// The chooser ejected the server: its readmission is due at `until`.
    fn carried(&mut self, report: Report, _view: &View, out: &mut Asks) {
        let Report::Ejected { chooser, until } = report else { return };
        self.outliers.ejections += 1;
        out.push(Action::Timer { at: until, payload: chooser });
    }

    /// Chooser `chooser`'s ejections due to end by now end.
    fn timer(&mut self, chooser: u32, _view: &View, out: &mut Asks) {
        out.push(Action::Readmit { chooser });
    }
}
