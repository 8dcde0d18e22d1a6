//! Outlier ejection (Envoy's consecutive-errors detection): a chooser that
//! hears `eject_after` errors in a row from a server takes it out of its
//! pool, holding at most `eject_max_fraction` of the pool out (or one
//! server, with `eject_always_one_host`), and readmits it when its time is
//! up. A membership change or a redraw of pools readmits every server (the
//! choosers' own rule).
//!
//! An ejection lasts `eject_for_ms` × the times the chooser ejected that
//! server, up to `eject_max_for_ms` (Envoy's `base_ejection_time` and
//! `max_ejection_time`, `outlier_detection_impl.cc`); with no maximum, as
//! before, every one lasts `eject_for_ms`. With `eject_growth`, it backs
//! off exponentially instead, with `eject_jitter` (Linkerd's and
//! Finagle's failure accrual, `lengths.rs`). With `eject_interval_ms`
//! (Envoy's `interval`), ejections end only at a sweep, and each sweep that
//! finds a server in its chooser's pool forgets one of its ejections, so
//! a server that stays well is ejected for less the next time.
//!
//! With sweeps, a chooser may also eject by success rate or failure
//! percentage over each interval (`rates.rs`); those ejections are counted,
//! last and end as the consecutive errors' do (`lengths.rs`). With
//! `eject_probe`, a server whose ejection ends is probed with one request
//! before it is back for good (`probe.rs`).

mod lengths;
mod probe;
mod rates;

use super::{Action, Asks, Feature, Heard, Points, Report, Sending, Sent, View};
use crate::engine::chooser::ByServer;
use crate::engine::Outcome;
use crate::scenario::Scenario;
use crate::time::Time;
use lengths::Lengths;
use probe::Probes;
use rates::Rates;
use serde::Serialize;

pub(in crate::engine) struct Ejection {
    /// Errors in a row that eject; 0: none do (only the rates).
    after: u32,
    rates: Option<Rates>,
    lengths: Lengths,
    max_fraction: f64,
    always_one: bool,
    /// Each chooser's run of consecutive errors from each server (0: its
    /// last answer was a success).
    runs: ByServer<u32>,
    /// Each chooser's count of ejections of each server it has not
    /// forgotten (0: none).
    times: ByServer<u32>,
    /// When each chooser's ejection of each server it holds out ends
    /// (`None`: it holds it in), kept only with sweeps, which forget the
    /// others' ejections, or probes, which follow each return. A server
    /// the chooser readmits by its own rule (a membership change or a
    /// redraw of pools) is forgotten as the policies are rebuilt: else its
    /// old time would start a probe on a server long back, or ejected
    /// since.
    out: ByServer<Option<Time>>,
    outliers: Outliers,
    /// With `eject_probe`, the returning servers' probes.
    probes: Option<Probes>,
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
        if outcome == Outcome::Ok {
            self.runs.reset(chooser, server);
            return false;
        }
        let errors = self.runs.get_mut(chooser, server);
        *errors += 1;
        if *errors < self.after {
            return false;
        }
        *errors = 0;
        true
    }

    /// How many times `chooser` has ejected `server`, not yet forgotten.
    fn times(&self, chooser: usize, server: u32) -> u32 {
        self.times.get(chooser, server)
    }

    /// `chooser` ejected `server`: counts it.
    fn count(&mut self, chooser: usize, server: u32) {
        self.outliers.ejections += 1;
        *self.times.get_mut(chooser, server) = self.lengths.count_after(self.times(chooser, server));
    }

    /// Whether it keeps the servers each chooser holds out (`out`).
    fn keeps_out(&self) -> bool {
        self.lengths.sweep.is_some() || self.probes.is_some()
    }

    /// `chooser` readmits the servers whose ejection is over by `now`; with
    /// probes, each is probed.
    fn readmit_due(&mut self, chooser: usize, now: Time, out: &mut Asks) {
        let due: Vec<u32> =
            self.out.row(chooser).filter(|&(_, until)| is_due(until, now)).map(|(s, _)| s).collect();
        for server in due {
            self.out.reset(chooser, server);
            if let Some(probes) = &mut self.probes {
                probes.returned(chooser, server);
            }
        }
        out.push(Action::Readmit { chooser: chooser as u32 });
    }

    /// `chooser` heard the probe of `server` answered, `ok` or not: a
    /// success readmits it and forgets its ejections; a failure makes the
    /// hold its next ejection.
    fn probe_answered(&mut self, (chooser, server): (usize, u32), ok: bool, out: &mut Asks) {
        if !ok {
            self.count(chooser, server);
            return;
        }
        self.out.reset(chooser, server);
        self.times.reset(chooser, server);
        out.push(Action::ReadmitNow { chooser: chooser as u32, server });
    }

    /// A sweep at `now`: each chooser forgets one ejection of each server
    /// it held in since the last sweep, readmits the servers whose time is
    /// up (Envoy's `checkHostForUneject`), then ejects the outliers by rate
    /// among the others.
    fn sweep(&mut self, view: &View, out: &mut Asks) {
        self.forget_one_of_each_held_in();
        for chooser in 0..view.choosers.count() {
            if self.out.row(chooser).any(|(_, until)| is_due(until, view.now)) {
                self.readmit_due(chooser, view.now, out);
            }
        }
        self.eject_outliers_by_rate(view, out);
    }

    /// Each chooser ejects the servers its rates find outliers over the
    /// interval just ended.
    fn eject_outliers_by_rate(&mut self, view: &View, out: &mut Asks) {
        for chooser in 0..view.choosers.count() {
            let Some(rates) = &mut self.rates else { return };
            let held = &self.out;
            let outliers = rates.outliers(chooser, |server| held.get(chooser, server).is_some());
            for server in outliers {
                self.eject(chooser, server, view, out);
            }
        }
    }

    /// `chooser` ejects `server` now, for as long as its count of
    /// ejections makes it.
    fn eject(&self, chooser: usize, server: u32, view: &View, out: &mut Asks) {
        self.eject_within(chooser, server, view, (self.max_fraction, self.always_one), out);
    }

    /// The same, held to `limits` (a fraction of the pool, and whether one
    /// may always go): a probe's hold is held to none, its server out
    /// before.
    fn eject_within(&self, chooser: usize, server: u32, view: &View, limits: (f64, bool), out: &mut Asks) {
        let count = self.lengths.count_after(self.times(chooser, server));
        let mut jitter = view.demands.of_ejection(chooser as u32, server, view.now);
        let until = view.now + self.lengths.of(count, &mut jitter);
        let (max_fraction, always_one) = limits;
        out.push(Action::Eject { chooser: chooser as u32, server, until, max_fraction, always_one });
    }

    /// Each chooser forgets one ejection of each server it holds in.
    fn forget_one_of_each_held_in(&mut self) {
        let held = &self.out;
        for (_, count) in
            self.times.each_mut().filter(|&((chooser, server), _)| held.get(chooser, server).is_none())
        {
            *count = count.saturating_sub(1);
        }
    }
}

/// Whether an ejection ending at `until` (`None`: none held) is over by `now`.
fn is_due(until: Option<Time>, now: Time) -> bool {
    until.is_some_and(|until| until <= now)
}

impl Feature for Ejection {
    const TRACE_KIND: u64 = 20;
    const HEARS: Points = Points::HEARD.and(Points::SENDING).and(Points::SENT);

    fn for_scenario(scenario: &Scenario) -> Option<Ejection> {
        let base = Time::from_ms(scenario.eject_for_ms);
        let max = scenario.eject_max_for_ms.map_or(base, |max| Time::from_ms(max).max(base));
        let sweep = scenario.eject_interval_ms.map(Time::from_ms);
        let rates = sweep.and_then(|_| Rates::for_scenario(scenario));
        (scenario.eject_after > 0 || rates.is_some()).then(|| Ejection {
            after: scenario.eject_after,
            rates,
            lengths: Lengths { base, max, sweep, backoff: scenario.eject_backoff },
            max_fraction: scenario.eject_max_fraction,
            always_one: scenario.eject_always_one_host,
            runs: ByServer::new(0),
            times: ByServer::new(0),
            out: ByServer::new(None),
            outliers: Outliers::default(),
            probes: scenario.eject_probe.then(Probes::default),
        })
    }

    /// With sweeps, the first is due an interval in.
    fn start(&mut self, _view: &View, out: &mut Asks) {
        if let Some(sweep) = self.lengths.sweep {
            out.push(Action::Timer { at: sweep, payload: 0 });
        }
    }

    fn heard(&mut self, heard: Heard, view: &View, out: &mut Asks) {
        let ok = heard.outcome == Outcome::Ok;
        if let Some(rates) = &mut self.rates {
            rates.count(heard.chooser, heard.server, ok);
        }
        let probe = self.probes.as_mut().and_then(|p| p.answered(heard.chooser, heard.server, ok));
        if let Some(ok) = probe {
            self.probe_answered((heard.chooser, heard.server), ok, out);
            return;
        }
        if self.after > 0 && self.run_reaches_threshold(heard) {
            self.eject(heard.chooser, heard.server, view, out);
        }
    }

    /// A request about to leave for a returning server is its probe.
    fn sending(&mut self, sending: Sending, _view: &View, _out: &mut Asks) {
        if let Some(probes) = &mut self.probes {
            probes.sending(sending.place, sending.chooser, sending.server);
        }
    }

    /// A probe left: its chooser holds its server out until it is
    /// answered, for as long as a failure would eject it.
    fn sent(&mut self, sent: Sent, view: &View, out: &mut Asks) {
        let Some(probes) = &mut self.probes else { return };
        if let Some((chooser, server)) = sent.place.and_then(|place| probes.sent(place)) {
            self.eject_within(chooser, server, view, (1.0, true), out);
        }
    }

    /// The chooser ejected the server (or held it out for its probe, which
    /// counts once the probe fails): without sweeps, its readmission is
    /// due at `until`.
    fn carried(&mut self, report: Report, _view: &View, out: &mut Asks) {
        let Report::Ejected { chooser, server, until } = report else { return };
        let held = self.probes.as_mut().is_some_and(|p| p.holds(chooser as usize, server));
        if !held {
            self.count(chooser as usize, server);
        }
        if self.keeps_out() {
            *self.out.get_mut(chooser as usize, server) = Some(until);
        }
        if self.lengths.sweep.is_none() {
            out.push(Action::Timer { at: until, payload: chooser });
        }
    }

    /// The policies were rebuilt, perhaps over pools drawn anew, which
    /// readmits every server: what a chooser no longer holds out is
    /// forgotten.
    fn policies_built(&mut self, view: &View, _out: &mut Asks) {
        self.out.retain(|chooser, server, _| view.choosers.holds_out(chooser, server));
    }

    /// Without sweeps, chooser `chooser`'s ejections due to end by now
    /// end; with them, a sweep is due.
    fn timer(&mut self, chooser: u32, view: &View, out: &mut Asks) {
        match self.lengths.sweep {
            None if self.probes.is_some() => self.readmit_due(chooser as usize, view.now, out),
            None => out.push(Action::Readmit { chooser }),
            Some(interval) => {
                self.sweep(view, out);
                out.push(Action::Timer { at: view.now + interval, payload: 0 });
            }
        }
    }
}
