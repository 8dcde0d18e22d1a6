//! The figures a view's readouts show once its run is over (a spike whose
//! sessions have all ended, a run that got to its end): the whole run's,
//! since a last second of nothing, or the run's final second beside an
//! idle picture ("2,896/s" of throughput under servers with nothing left
//! to do), tells the reader nothing true of what they see.
//!
//! A view over stays on screen, drawn each frame, and the summary over
//! every request is dear to build, so [`Kept`] builds the figures once and
//! keeps them until the run's clock moves (a step) or the run starts over.

use crate::metrics::SamplePoint;
use crate::{Summary, Time};

/// The whole run's figures, built once the run is over and kept.
#[derive(Default)]
pub struct Kept {
    /// The figures, and the simulated time of the summary they were read
    /// from: a run over changes only if its clock moves.
    figures: Option<(Time, SamplePoint)>,
}

impl Kept {
    /// The whole run's figures while the run is `over` at `now`, from
    /// `summary` only when none are kept for that moment; none otherwise.
    pub fn figures(
        &mut self,
        over: bool,
        now: Time,
        summary: impl FnOnce() -> Summary,
    ) -> Option<SamplePoint> {
        if !over {
            self.figures = None;
            return None;
        }
        match self.figures {
            Some((at, figures)) if at == now => Some(figures),
            _ => {
                let whole = figures(&summary());
                self.figures = Some((now, whole));
                Some(whole)
            }
        }
    }

    /// The run started over: what was kept is of another run.
    pub fn forget(&mut self) {
        self.figures = None;
    }
}

/// The readouts' figures over the whole run of `summary`: queue-time
/// percentiles over every request, rates per measured second.
pub fn figures(summary: &Summary) -> SamplePoint {
    let per_second = |count: u64| match summary.measured_s > 0.0 {
        true => count as f64 / summary.measured_s,
        false => 0.0,
    };
    let counts = &summary.counts;
    SamplePoint {
        time_ms: summary.simulated_s * 1000.0,
        queue_p50: summary.queue_ms.p50,
        queue_p99: summary.queue_ms.p99,
        throughput: summary.throughput,
        bounce_rate: per_second(counts.bounces),
        availability: summary.availability.unwrap_or(f64::NAN),
        error_rate: per_second(counts.refused + counts.server_errors),
        failure_rate: per_second(counts.failed),
        ..SamplePoint::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Scenario, Simulation};

    #[test]
    fn a_spike_over_reads_its_whole_run() {
        let mut scenario = Scenario::default();
        for (key, value) in [("demand", "spike"), ("clients", "100"), ("duration_s", "60")] {
            scenario.set(key, value).unwrap();
        }
        let mut sim = Simulation::new(&scenario).unwrap();
        sim.run();
        let summary = sim.summary();
        let whole = figures(&summary);
        assert_eq!(whole.queue_p99, summary.queue_ms.p99);
        assert_eq!(whole.throughput, summary.throughput);
        let completed = whole.throughput * summary.measured_s;
        assert!(
            (completed - summary.counts.completed as f64).abs() < 1.0,
            "{completed} completed over the run"
        );
        assert_eq!(whole.availability, 1.0);
        assert_eq!(whole.bounce_rate, summary.counts.bounces as f64 / summary.measured_s);
    }

    #[test]
    fn a_run_over_builds_its_summary_once_until_its_clock_moves_or_it_starts_over() {
        let mut sim = Simulation::new(&Scenario::default()).unwrap();
        sim.advance_to(Time::from_secs(2.0), u64::MAX);
        let (mut kept, built) = (Kept::default(), std::cell::Cell::new(0));
        let frame = |kept: &mut Kept, over: bool, sim: &Simulation| {
            kept.figures(over, sim.now(), || {
                built.set(built.get() + 1);
                sim.summary()
            })
        };
        assert_eq!(frame(&mut kept, false, &sim), None, "a run going on shows its last second");
        assert_eq!(built.get(), 0);
        let first = frame(&mut kept, true, &sim);
        for _ in 0..100 {
            assert_eq!(frame(&mut kept, true, &sim), first);
        }
        assert_eq!(built.get(), 1, "a hundred frames over, one summary");
        assert_eq!(first, Some(figures(&sim.summary())));
        sim.step();
        let stepped = frame(&mut kept, true, &sim);
        assert_eq!((built.get(), stepped), (2, Some(figures(&sim.summary()))), "a step moves its clock");
        kept.forget();
        frame(&mut kept, true, &sim);
        assert_eq!(built.get(), 3, "a run started over is summed up again");
    }
}
