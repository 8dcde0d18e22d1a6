//! Envoy's success-rate and failure-percentage outlier detection
//! (`source/common/upstream/outlier_detection_impl.cc`,
//! `processSuccessRateEjections` and `successRateEjectionThreshold`): a
//! chooser counts what each server answered it over an interval; at the
//! sweep that ends it, of the servers it does not hold ejected and that
//! answered at least a request volume, if there are at least a minimum
//! number, it ejects
//! - by success rate, each whose success rate (in percent) is below the
//!   mean less a factor times the standard deviation (of the population:
//!   the sum of squares over the number of servers);
//! - by failure percentage, each whose errors are at least the threshold
//!   percentage of its answers.
//!
//! Envoy may eject a server found by both rules twice (its second
//! `ejectHost` counts one more ejection); here each is asked once.

use crate::engine::chooser::ByServer;
use crate::scenario::{RateEjection, Scenario};

/// What one chooser heard from one server in the current interval.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Answers {
    successes: u32,
    total: u32,
}

/// A server's answers in an interval, as the rules read them.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Rate {
    pub server: u32,
    /// Successes per hundred answers.
    pub success_percent: f64,
    pub volume: u32,
}

/// One rule's test: which servers count, and whether there are enough.
#[derive(Clone, Copy, Debug)]
struct Counted {
    minimum_hosts: u32,
    request_volume: u32,
}

impl Counted {
    fn of(settings: RateEjection) -> Counted {
        Counted { minimum_hosts: settings.minimum_hosts, request_volume: settings.request_volume }
    }

    /// The servers of `rates` with enough answers, if there are enough.
    fn servers(self, rates: &[Rate]) -> Option<impl Iterator<Item = &Rate> + Clone> {
        let counted = rates.iter().filter(move |r| r.volume >= self.request_volume);
        (counted.clone().count() >= self.minimum_hosts as usize).then_some(counted)
    }
}

/// Success-rate and failure-percentage detection, each on when its limit is
/// set, with each chooser's answers per server since the last sweep.
pub(super) struct Rates {
    /// The standard deviations below the mean (Envoy's factor ÷ 1000).
    success_rate: Option<(Counted, f64)>,
    /// The percentage of errors that ejects.
    failure_percentage: Option<(Counted, f64)>,
    /// What each chooser heard from each server since its last sweep.
    answers: ByServer<Answers>,
}

impl Rates {
    /// The detection `scenario` asks for; none when both rules are off.
    pub fn for_scenario(scenario: &Scenario) -> Option<Rates> {
        let rule =
            |settings: RateEjection, scale: f64| settings.limit.map(|l| (Counted::of(settings), l / scale));
        let success_rate = rule(scenario.success_rate, 1000.0);
        let failure_percentage = rule(scenario.failure_percentage, 1.0);
        (success_rate.is_some() || failure_percentage.is_some()).then(|| Rates {
            success_rate,
            failure_percentage,
            answers: ByServer::new(Answers::default()),
        })
    }

    /// `chooser` heard from `server`: a success or an error.
    #[inline]
    pub fn count(&mut self, chooser: usize, server: u32, success: bool) {
        let answers = self.answers.get_mut(chooser, server);
        answers.total += 1;
        answers.successes += u32::from(success);
    }

    /// The servers `chooser` finds outliers at a sweep, over what they
    /// answered since the last, leaving out those `held_out`; the interval
    /// starts afresh.
    pub fn outliers(&mut self, chooser: usize, held_out: impl Fn(u32) -> bool) -> Vec<u32> {
        // An entry is written by an answer, so its total is at least one.
        let rates: Vec<Rate> = self
            .answers
            .row(chooser)
            .filter(|&(server, _)| !held_out(server))
            .map(|(server, a)| Rate {
                server,
                success_percent: f64::from(a.successes) * 100.0 / f64::from(a.total),
                volume: a.total,
            })
            .collect();
        self.answers.forget_row(chooser);
        self.outliers_among(&rates)
    }

    /// Envoy's two rules over `rates`, success rate's outliers first, each
    /// server once.
    fn outliers_among(&self, rates: &[Rate]) -> Vec<u32> {
        let mut outliers: Vec<u32> = Vec::new();
        if let Some((counted, factor)) = self.success_rate {
            outliers.extend(below_the_mean(counted.servers(rates), factor));
        }
        if let Some((counted, threshold)) = self.failure_percentage {
            let failing = counted.servers(rates).into_iter().flatten();
            let failing = failing.filter(|r| 100.0 - r.success_percent >= threshold).map(|r| r.server);
            outliers.extend(failing.filter(|s| !outliers.contains(s)).collect::<Vec<_>>());
        }
        outliers
    }
}

/// The servers whose success rate is below the mean less `factor`
/// standard deviations, among `counted` (none when too few count).
fn below_the_mean<'a>(counted: Option<impl Iterator<Item = &'a Rate> + Clone>, factor: f64) -> Vec<u32> {
    let Some(counted) = counted else { return Vec::new() };
    let threshold = ejection_threshold(counted.clone().map(|r| r.success_percent), factor);
    counted.filter(|r| r.success_percent < threshold).map(|r| r.server).collect()
}

/// Envoy's success-rate ejection threshold: the mean less `factor` times
/// the population standard deviation.
fn ejection_threshold(rates: impl Iterator<Item = f64> + Clone, factor: f64) -> f64 {
    let n = rates.clone().count() as f64;
    let mean = rates.clone().sum::<f64>() / n;
    let variance = rates.map(|r| (r - mean) * (r - mean)).sum::<f64>() / n;
    mean - factor * libm::sqrt(variance)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rates(rates: &[(f64, u32)]) -> Vec<Rate> {
        let rate = |(i, &(success_percent, volume)): (usize, &(f64, u32))| Rate {
            server: i as u32,
            success_percent,
            volume,
        };
        rates.iter().enumerate().map(rate).collect()
    }

    fn envoy(success_rate: bool, failure_percentage: bool) -> Rates {
        let counted = |volume| Counted { minimum_hosts: 5, request_volume: volume };
        Rates {
            success_rate: success_rate.then_some((counted(100), 1.9)),
            failure_percentage: failure_percentage.then_some((counted(50), 85.0)),
            answers: ByServer::new(Answers::default()),
        }
    }

    #[test]
    fn envoys_worked_example_50_100_100_100_100_has_mean_90_and_threshold_52() {
        let threshold = ejection_threshold([50.0, 100.0, 100.0, 100.0, 100.0].into_iter(), 1.9);
        assert_eq!(threshold, 90.0 - 1.9 * 20.0);
        // 50 is below 52: ejected.
        let pool = rates(&[(50.0, 100), (100.0, 100), (100.0, 100), (100.0, 100), (100.0, 100)]);
        assert_eq!(envoy(true, false).outliers_among(&pool), vec![0]);
    }

    #[test]
    fn too_few_servers_with_enough_volume_eject_none() {
        // Four of five have 100 answers: fewer than the minimum of 5.
        let pool = rates(&[(50.0, 100), (100.0, 100), (100.0, 100), (100.0, 100), (100.0, 99)]);
        assert_eq!(envoy(true, false).outliers_among(&pool), Vec::<u32>::new());
    }

    #[test]
    fn equal_rates_eject_none_as_the_threshold_is_the_mean_itself() {
        let pool = rates(&[(90.0, 200); 6]);
        assert_eq!(envoy(true, true).outliers_among(&pool), Vec::<u32>::new());
    }

    #[test]
    fn failure_percentage_ejects_at_the_threshold_and_once_with_both_rules() {
        let pool = rates(&[(15.0, 50), (16.0, 50), (99.0, 50), (99.0, 50), (99.0, 50), (99.0, 49)]);
        // 85% errors ejects, 84% does not; the sixth has too little volume
        // for either rule, and success rate needs 100 answers.
        assert_eq!(envoy(false, true).outliers_among(&pool), vec![0]);
        let pool = rates(&[(15.0, 100), (99.0, 100), (99.0, 100), (99.0, 100), (99.0, 100), (99.0, 100)]);
        assert_eq!(envoy(true, true).outliers_among(&pool), vec![0]);
    }
}
