//! What a trace is, in one pass and bounded memory: its length and rate,
//! the rate over time, how bursty its arrivals are, its service times, its
//! classes and how popular its keys are. `docs/traces.md` defines each
//! figure.

mod counts;

use super::offered::mix_mean_service_ms;
use super::popular::{Popular, KEY_COUNTERS};
use super::reader::TraceRow;
use super::replay::offered_load;
use crate::metrics::Histogram;
use crate::scenario::Scenario;
use crate::time::Time;
use counts::{Bins, Moments, Windows};
use serde::Serialize;
use std::collections::BTreeMap;

/// The windows that counts of arrivals are taken over for the index of
/// dispersion, in seconds.
pub const DISPERSION_WINDOWS_S: [f64; 3] = [0.1, 1.0, 10.0];
/// The bins of the rate over time: at most 100, each 1, 2 or 5 times a
/// power of ten milliseconds wide, widened as the trace goes on.
const RATE_BINS: usize = 100;
/// The most classes counted by name; any further ones count together.
const MAX_CLASSES: usize = 100;
/// The name the classes beyond [`MAX_CLASSES`] count under.
const OTHER_CLASSES: &str = "(other classes)";
/// The fewest whole windows a dispersion is reported for.
const FEWEST_WINDOWS: u64 = 10;
/// The top ranks the Zipf exponent is fitted to.
const ZIPF_RANKS: usize = 10;
/// The keys shown.
const TOP_KEYS: usize = 10;

#[derive(Clone, Debug, Serialize)]
pub struct TraceSummary {
    pub requests: u64,
    pub first_s: f64,
    pub last_s: f64,
    /// From the first arrival to the last.
    pub duration_s: f64,
    /// Arrivals a second: the gaps between arrivals over the duration they
    /// fill, (requests − 1) / duration, which is also the rate a looped
    /// replay keeps (each pass starts one mean gap after the last);
    /// `None` when the duration is zero.
    pub rate_per_s: Option<f64>,
    pub rate_over_time: RateOverTime,
    pub dispersion: Vec<Dispersion>,
    pub service: Option<ServiceTimes>,
    pub classes: Vec<ClassShare>,
    pub keys: Option<KeyPopularity>,
}

/// Arrivals per second in equal bins from the first arrival. The trace is
/// taken to end one mean gap after its last arrival, where a looped
/// replay's next pass starts, so that the last bin, cut short by that end,
/// is divided by its own width and a steady trace reads steady to its end.
/// No bins when the trace has no span (one row, or all at one instant).
#[derive(Clone, Debug, Serialize)]
pub struct RateOverTime {
    pub bin_s: f64,
    /// The last bin's width: `bin_s`, or less when cut short.
    pub last_bin_s: f64,
    pub per_s: Vec<f64>,
}

/// The index of dispersion of counts: the variance of the number of
/// arrivals in each whole window from the first arrival over its mean.
#[derive(Clone, Debug, Serialize)]
pub struct Dispersion {
    pub window_s: f64,
    pub windows: u64,
    pub mean_count: f64,
    pub index: f64,
    /// Its standard error were the arrivals Poisson (√(2 / (windows − 1))).
    pub poisson_standard_error: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct ServiceTimes {
    /// Rows with a service time.
    pub requests: u64,
    pub mean_ms: f64,
    /// From the histogram of service times, each within 0.4%.
    pub p50_ms: f64,
    pub p90_ms: f64,
    pub p99_ms: f64,
    /// Coefficient of variation: standard deviation over mean.
    pub cv: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct ClassShare {
    pub class: String,
    pub requests: u64,
    pub request_share: f64,
    /// Its share of the summed service times, when the trace has them.
    pub work_share: Option<f64>,
}

#[derive(Clone, Debug, Serialize)]
pub struct KeyPopularity {
    /// Rows with a key.
    pub requests: u64,
    /// Distinct keys: exact when `exact`, else at least this many.
    pub distinct: usize,
    /// Whether every count is exact (no more distinct keys than counters).
    pub exact: bool,
    pub counters: usize,
    pub top: Vec<KeyShare>,
    pub zipf: Option<ZipfFit>,
}

#[derive(Clone, Debug, Serialize)]
pub struct KeyShare {
    pub key: String,
    pub requests: u64,
    pub share: f64,
    /// How much `requests` may be over the truth (0 when exact).
    pub overcount: u64,
}

/// Zipf's exponent by maximum likelihood over the top ranks: the `s`
/// under which rank r of the top `ranks` has probability r^−s / Σ j^−s.
#[derive(Clone, Debug, Serialize)]
pub struct ZipfFit {
    pub exponent: f64,
    /// 1 / √(requests in the top ranks × the variance of ln r under the fit).
    pub standard_error: f64,
    pub ranks: usize,
}

impl TraceSummary {
    /// The summary of every row (the reader's errors are the caller's).
    pub fn of(rows: impl IntoIterator<Item = TraceRow>) -> TraceSummary {
        let mut tally = Tally::default();
        rows.into_iter().for_each(|row| tally.add(&row));
        tally.finish()
    }

    /// The load the trace offers a scenario's servers, its rows' classes
    /// read as `named` (`--trace-classes`; empty, `unnamed_classes`):
    /// its rate times the mean service time over the servers' capacity,
    /// their summed speeds times slots. The mean is the trace's, or else
    /// the scenario's classes' means weighted by the trace's mix of them,
    /// as a replay draws each row's service from its class.
    pub fn offered_load(&self, scenario: &Scenario, named: &[String]) -> Option<f64> {
        let mean_ms = match &self.service {
            Some(service) => service.mean_ms,
            None => self.mean_class_service_ms(scenario, named),
        };
        self.rate_per_s.map(|rate| offered_load(scenario, rate, Some(mean_ms)))
    }

    /// The mean of the scenario's class means over the trace's rows (see
    /// [`mix_mean_service_ms`], which the lab's trace box uses too).
    fn mean_class_service_ms(&self, scenario: &Scenario, named: &[String]) -> f64 {
        let classes = self.classes.iter().map(|c| (c.class.as_str(), c.requests));
        mix_mean_service_ms(scenario, named, self.requests, classes)
    }
}

/// The running tallies behind a summary.
#[derive(Default)]
pub struct Tally {
    requests: u64,
    first: Option<Time>,
    last: Time,
    bins: Bins,
    windows: [Windows; DISPERSION_WINDOWS_S.len()],
    service: Histogram,
    service_ms: Moments,
    classes: BTreeMap<String, (u64, u128)>,
    popular: Popular,
}

impl Tally {
    pub fn add(&mut self, row: &TraceRow) {
        self.requests += 1;
        let first = *self.first.get_or_insert(row.time);
        self.last = row.time;
        let since = (row.time - first).0;
        self.bins.add(since);
        for (windows, width_s) in self.windows.iter_mut().zip(DISPERSION_WINDOWS_S) {
            windows.add(since / Time::from_secs(width_s).0);
        }
        if let Some(service) = row.service {
            self.service.record(service.0);
            self.service_ms.add(service.as_ms());
        }
        if let Some(class) = &row.class {
            let name = if self.classes.len() < MAX_CLASSES || self.classes.contains_key(class) {
                class.as_str()
            } else {
                OTHER_CLASSES
            };
            // Looked up before inserting, so that a class already counted
            // costs no allocation.
            let entry = match self.classes.get_mut(name) {
                Some(entry) => entry,
                None => self.classes.entry(name.to_string()).or_default(),
            };
            entry.0 += 1;
            entry.1 += u128::from(row.service.map_or(0, |s| s.0));
        }
        if let Some(key) = &row.key {
            self.popular.add(key);
        }
    }

    pub fn finish(self) -> TraceSummary {
        let first = self.first.unwrap_or_default();
        let duration_s = (self.last - first).as_secs();
        let dispersion = self
            .windows
            .iter()
            .zip(DISPERSION_WINDOWS_S)
            .filter(|(windows, _)| windows.counts.n >= FEWEST_WINDOWS)
            .map(|(windows, window_s)| windows.dispersion(window_s))
            .collect();
        let service = (self.service.count() > 0).then(|| {
            let ms = |q: f64| self.service.quantile(q).map_or(0.0, |ns| Time(ns).as_ms());
            let mean_ms = self.service_ms.mean;
            ServiceTimes {
                requests: self.service.count(),
                mean_ms,
                p50_ms: ms(0.5),
                p90_ms: ms(0.9),
                p99_ms: ms(0.99),
                cv: if mean_ms > 0.0 { self.service_ms.variance().sqrt() / mean_ms } else { 0.0 },
            }
        });
        let class_requests: u64 = self.classes.values().map(|(n, _)| n).sum();
        let work: u128 = self.classes.values().map(|(_, w)| w).sum();
        let mut classes: Vec<ClassShare> = self
            .classes
            .into_iter()
            .map(|(class, (requests, class_work))| ClassShare {
                class,
                requests,
                request_share: requests as f64 / class_requests as f64,
                work_share: (work > 0).then(|| class_work as f64 / work as f64),
            })
            .collect();
        classes.sort_by(|a, b| b.requests.cmp(&a.requests).then(a.class.cmp(&b.class)));
        TraceSummary {
            requests: self.requests,
            first_s: first.as_secs(),
            last_s: self.last.as_secs(),
            duration_s,
            rate_per_s: (duration_s > 0.0).then(|| (self.requests - 1) as f64 / duration_s),
            rate_over_time: self.bins.rates(self.last - first, self.requests),
            dispersion,
            service,
            classes,
            keys: key_popularity(&self.popular),
        }
    }
}

fn key_popularity(popular: &Popular) -> Option<KeyPopularity> {
    if popular.total() == 0 {
        return None;
    }
    let share = |count: u64| count as f64 / popular.total() as f64;
    let top = popular
        .top(TOP_KEYS)
        .into_iter()
        .map(|(key, requests, overcount)| KeyShare {
            key: key.into(),
            requests,
            share: share(requests),
            overcount,
        })
        .collect();
    let ranked: Vec<u64> = popular.top(ZIPF_RANKS).iter().map(|(_, count, _)| *count).collect();
    Some(KeyPopularity {
        requests: popular.total(),
        distinct: popular.distinct(),
        exact: popular.exact(),
        counters: KEY_COUNTERS,
        top,
        zipf: fit_zipf(&ranked),
    })
}

/// Zipf's exponent for counts in rank order by maximum likelihood: the
/// likelihood's derivative is zero where the mean of ln r under the model
/// equals the observed one, and that mean falls as the exponent grows, so
/// bisection finds it. `None` with fewer than 3 ranks.
fn fit_zipf(counts: &[u64]) -> Option<ZipfFit> {
    if counts.len() < 3 {
        return None;
    }
    let total: u64 = counts.iter().sum();
    // libm rather than the platform's: the lab's worker must give the
    // command line's figures to the last bit.
    let logs: Vec<f64> = (1..=counts.len()).map(|r| libm::log(r as f64)).collect();
    let observed = counts.iter().zip(&logs).map(|(c, l)| *c as f64 * l).sum::<f64>() / total as f64;
    // The mean and variance of ln r under exponent s.
    let moments = |s: f64| {
        let weights: Vec<f64> = logs.iter().map(|l| libm::exp(-s * l)).collect();
        let sum: f64 = weights.iter().sum();
        let mean = weights.iter().zip(&logs).map(|(w, l)| w * l).sum::<f64>() / sum;
        let variance = weights.iter().zip(&logs).map(|(w, l)| w * (l - mean) * (l - mean)).sum::<f64>() / sum;
        (mean, variance)
    };
    let (mut low, mut high) = (0.0_f64, 20.0_f64);
    for _ in 0..100 {
        let middle = (low + high) / 2.0;
        if moments(middle).0 > observed {
            low = middle;
        } else {
            high = middle;
        }
    }
    let exponent = (low + high) / 2.0;
    let variance = moments(exponent).1;
    Some(ZipfFit { exponent, standard_error: 1.0 / (total as f64 * variance).sqrt(), ranks: counts.len() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(seconds: &[f64]) -> Vec<TraceRow> {
        seconds
            .iter()
            .map(|s| TraceRow { time: Time::from_secs(*s), key: None, class: None, service: None })
            .collect()
    }

    #[test]
    fn counts_windows_and_gaps_between_them() {
        // Windows of 0.1 s: counts 2, 0 × 30, 1, 0 × 13 (the window of 4.5 s
        // is cut short): 45 windows of mean 3/45.
        let summary = TraceSummary::of(at(&[0.0, 0.05, 3.15, 4.5]));
        let tenth = summary.dispersion.iter().find(|d| d.window_s == 0.1).unwrap();
        assert_eq!(tenth.windows, 45);
        assert!((tenth.mean_count - 3.0 / 45.0).abs() < 1e-12);
        // Variance over 44: (2² + 1² − 45 × (3/45)²) / 44.
        let variance = (5.0 - 9.0 / 45.0) / 44.0;
        assert!((tenth.index - variance / (3.0 / 45.0)).abs() < 1e-9, "{}", tenth.index);
        // Four whole windows of 1 s are too few to report.
        assert_eq!(summary.dispersion.len(), 1);
        assert_eq!((summary.requests, summary.duration_s, summary.rate_per_s), (4, 4.5, Some(3.0 / 4.5)));
    }

    #[test]
    fn rate_bins_widen_by_one_two_five() {
        let summary = TraceSummary::of(at(&[0.0, 0.05, 0.25, 1.3]));
        // 1.3 s needs 100 bins of at least 13 ms: 1, 2, 10 then 20 ms.
        assert_eq!(summary.rate_over_time.bin_s, 0.02);
        let per_s = &summary.rate_over_time.per_s;
        assert_eq!(per_s.len(), 66);
        assert_eq!((per_s[0], per_s[2], per_s[12]), (50.0, 50.0, 50.0));
        // The last bin, from 1.3 s to a mean gap (1.3 / 3) past 1.3 s, is
        // cut short to its full 20 ms.
        assert_eq!((per_s[65], summary.rate_over_time.last_bin_s), (50.0, 0.02));
        assert_eq!(per_s.iter().sum::<f64>(), 200.0);
    }

    #[test]
    fn a_steady_trace_reads_steady_to_its_last_bin() {
        // 100 a second for 12.33 s: bins of 200 ms, the last from 12.2 s
        // holding 14 arrivals and ending a gap (10 ms) after 12.33 s.
        let rows =
            (0..1234).map(|i| TraceRow { time: Time(i * 10_000_000), key: None, class: None, service: None });
        let rates = TraceSummary::of(rows).rate_over_time;
        assert_eq!((rates.bin_s, rates.per_s.len()), (0.2, 62));
        assert!((rates.last_bin_s - 0.14).abs() < 1e-12, "{}", rates.last_bin_s);
        assert!(rates.per_s.iter().all(|r| (r - 100.0).abs() < 1e-9), "{:?}", rates.per_s);
    }

    #[test]
    fn a_trace_without_a_span_has_no_rate_over_time() {
        for seconds in [&[0.5][..], &[0.5, 0.5, 0.5]] {
            let summary = TraceSummary::of(at(seconds));
            assert_eq!((summary.rate_per_s, summary.rate_over_time.per_s.len()), (None, 0), "{seconds:?}");
        }
    }

    #[test]
    fn fits_the_exponent_of_exact_zipf_counts() {
        for s in [0.5, 1.0, 1.5] {
            let counts: Vec<u64> = (1..=10).map(|r| (1e9 * (r as f64).powf(-s)).round() as u64).collect();
            let fit = fit_zipf(&counts).unwrap();
            assert!((fit.exponent - s).abs() < 1e-6, "{s}: {}", fit.exponent);
        }
        assert!(fit_zipf(&[5, 3]).is_none());
    }
}
