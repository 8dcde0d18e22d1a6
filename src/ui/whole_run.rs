//! The figures a view's readouts show once its run is over (a spike whose
//! sessions have all ended, a run that got to its end): the whole run's,
//! since a last second of nothing, or the run's final second beside an
//! idle picture ("2,896/s" of throughput under servers with nothing left
//! to do), tells the reader nothing true of what they see.

use crate::metrics::SamplePoint;
use crate::ui::spike;
use crate::{Simulation, Summary};

/// Whether nothing more will happen in `sim`: a spike's sessions have all
/// ended, or the run has halted for good.
pub fn is_over(sim: &Simulation) -> bool {
    spike::is_over(sim) || sim.halted().is_some()
}

/// What `sim`'s readouts show of its own run: the whole run's figures once
/// it is over, `None` (the last second's) while it goes on. Each picture
/// asks of its own run, so a twin's pane, whose spike may end before or
/// after the view's, says of its run what the view says of its own.
pub fn once_over(sim: &Simulation) -> Option<SamplePoint> {
    is_over(sim).then(|| figures(&sim.summary()))
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

    /// The lab's twin pane kept its last second's readouts under a spike
    /// that was over (its throughput beside an idle picture): each run,
    /// the view's and its twin's, reads its own whole run once over.
    #[test]
    fn a_twin_over_reads_its_own_whole_run() {
        let mut scenario = Scenario::default();
        scenario.set_many([("demand", "spike"), ("clients", "100"), ("duration_s", "60")]).unwrap();
        let versus = [("policy", "power-of-d".to_string())];
        let twin = crate::ui::twins::twin_of(&scenario, &versus).unwrap();
        let mut sim = Simulation::new(&twin).unwrap();
        sim.advance_to(crate::Time::from_ms(50.0), u64::MAX);
        assert_eq!(once_over(&sim), None, "under way, the last second's figures");
        sim.run();
        let summary = sim.summary();
        let whole = once_over(&sim).expect("over, the whole run's");
        assert_eq!((whole.throughput, whole.queue_p99), (summary.throughput, summary.queue_ms.p99));
    }
}
