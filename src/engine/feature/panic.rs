//! The panic threshold (Envoy's `healthy_panic_threshold`, 50% there,
//! `load_balancer_impl.cc` `isHostSetInPanic`): when fewer than that
//! percentage of a chooser's servers are in its pool, the rest held out by
//! outlier ejection or failed health checks, it routes to all of them, so
//! that a few failures do not pile every request onto the servers left.
//! Which servers are held out changes only when a pool does, so the rule is
//! the choosers' (`chooser/ejection.rs`), applied as each pool changes; the
//! feature sets it when the run starts.

use super::{Action, Asks, Feature, View};
use crate::scenario::Scenario;

pub(in crate::engine) struct PanicThreshold {
    percent: f64,
}

impl Feature for PanicThreshold {
    /// It has no timers.
    const TRACE_KIND: u64 = 0;

    fn for_scenario(scenario: &Scenario) -> Option<PanicThreshold> {
        let percent = scenario.healthy_panic_threshold;
        (percent > 0.0).then_some(PanicThreshold { percent })
    }

    fn start(&mut self, _view: &View, out: &mut Asks) {
        out.push(Action::PanicBelow { percent: self.percent });
    }
}
