//! The comparison run again on more seeds (`seeds=N`), headless, in what
//! is left of the page's frame budget once the view has drawn, from the
//! reader's answer on; each seed's dot under the pictures. The runs and
//! their rule are `lbsim::ui::spread`'s, tested natively; this is their
//! wiring.

use super::*;
use crate::twins::{twin_of, Sides};

impl View {
    /// Keeps the spread where the runs it compares are the same (a reset,
    /// a change that leaves them so), and starts a new one where they
    /// changed (the load slider): its dots described other runs.
    pub(super) fn renew_spread(&mut self) {
        let seeds = self.options.seeds;
        let twin = twin_of(&self.params.scenario, &self.options.versus).ok();
        let Some(twin) = twin.filter(|_| self.parts.spread.is_some() && seeds > 0) else {
            self.spread = None;
            return;
        };
        let own = &self.params.scenario;
        if !self.spread.as_ref().is_some_and(|spread| spread.is_of(own, &twin, seeds)) {
            self.spread = Some(Spread::new(own, &twin, seeds));
            if let Some(chart) = &mut self.parts.spread {
                chart.forget();
            }
        }
    }

    /// Runs the seeds until `until` (wall ms), once no question waits for
    /// the reader's guess, and draws what they have come to.
    pub(super) fn run_spread(&mut self, until: f64) {
        let waits = self.waits_for_guess();
        let (Some(spread), Some(chart)) = (&mut self.spread, &mut self.parts.spread) else { return };
        if !waits {
            spread.start();
        }
        spread.run((dom::now_ms, until.min(dom::now_ms() + lbsim::ui::spread::FRAME_SHARE_MS)));
        if !chart.due(spread) {
            return;
        }
        if let Some(sides) = Sides::of(&self.params.scenario, &self.options.versus) {
            chart.show(spread, &sides);
        }
    }
}
