//! When a view's sentences have their point to make. A reader who scrolls
//! to a section should not meet the non-event ("no bounce yet", a twin
//! still identical to the run, "no server has joined yet"): a view runs
//! its simulation and twin ahead, headless, until [`Readback::ready`]
//! holds, and the sentences meanwhile say what they wait for.

use super::readback::{measured_requests, Readback, Sentence, Versus, MIN_COMPLETED};
use crate::{Scenario, Summary};

/// How long before a scheduled membership change a view stops running
/// ahead, so that the reader sees the change happen (simulated seconds).
pub const LEAD_S: f64 = 0.5;
/// How long a run with a warm-up measures after it before its figures
/// make a point (simulated seconds): one batch of the confidence intervals.
pub const MEASURED_S: f64 = 1.0;

impl Readback {
    /// Whether every sentence has its point to make about the run so far:
    /// the run has got to [`Readback::earliest_s`]; if it has a warm-up,
    /// it has measured enough requests after it; the twin has parted from
    /// the run (unless it runs the same settings, which no waiting
    /// changes); and what each sentence reads has happened.
    pub fn ready(&self, scenario: &Scenario, summary: &Summary, versus: Option<&Versus>) -> bool {
        let measured = scenario.warmup_s == 0.0 || measured_requests(summary) >= MIN_COMPLETED;
        let parted = versus.is_none_or(|v| v.same_settings || !v.identical_to(summary));
        summary.simulated_s >= self.earliest_s(scenario)
            && measured
            && parted
            && self.0.iter().all(|sentence| has_happened(*sentence, summary))
    }

    /// The simulated time before which the sentences cannot be ready, from
    /// the scenario alone: [`MEASURED_S`] past its warm-up, if it has one;
    /// [`LEAD_S`] before its first scheduled membership change, for the
    /// sentence that reads it; for those that read failures, twice the
    /// start of the first, so that what they count is at least half
    /// failure. A view runs ahead to it without asking [`Readback::ready`],
    /// which takes a summary.
    pub fn earliest_s(&self, scenario: &Scenario) -> f64 {
        let warm = match scenario.warmup_s > 0.0 {
            true => scenario.warmup_s + MEASURED_S,
            false => 0.0,
        };
        let first = |times: &mut dyn Iterator<Item = f64>| times.reduce(f64::min);
        let scheduled = |sentence: &Sentence| match sentence {
            Sentence::Moved => first(&mut scenario.membership.iter().map(|c| c.at_s)).map(|at| at - LEAD_S),
            Sentence::Errors | Sentence::Retries => {
                let failures = scenario.failures.iter().filter(|f| f.failure.is_some());
                first(&mut failures.map(|f| f.at_s)).map(|at| 2.0 * at)
            }
            _ => None,
        };
        self.0.iter().filter_map(scheduled).fold(warm, f64::max)
    }
}

/// Whether what `sentence` reads has happened in the run so far. The
/// tail's sentence needs enough requests measured for its percentiles
/// to mean much, warm-up or not: at chapter 1's tenth of real time they
/// took 4.5 s of the reader's time to collect, under "Collecting: 27
/// requests completed so far", which running ahead now skips.
fn has_happened(sentence: Sentence, s: &Summary) -> bool {
    match sentence {
        Sentence::Bounces => s.counts.bounces > 0,
        Sentence::Tail => measured_requests(s) >= MIN_COMPLETED,
        Sentence::Staleness => s.decision_staleness_ms.count > 0,
        Sentence::Hedging => s.hedging.is_none_or(|h| h.hedge_rate > 0.0),
        Sentence::Spike
        | Sentence::Versus
        | Sentence::Theory
        | Sentence::Ratios
        | Sentence::Moved
        | Sentence::Errors
        | Sentence::Retries
        | Sentence::Latency
        | Sentence::Locality => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Simulation;

    /// The scenario of `pairs`, and its summary after `seconds`.
    fn run(pairs: &[(&str, &str)], seconds: f64) -> (Scenario, Summary) {
        let mut scenario = Scenario::default();
        scenario.set_many(pairs.iter().copied()).unwrap();
        let mut sim = Simulation::new(&scenario).unwrap();
        sim.advance_to(crate::Time::from_secs(seconds), u64::MAX);
        (scenario, sim.summary())
    }

    fn versus<'a>(summary: &'a Summary, label: &'a str, same_settings: bool) -> Versus<'a> {
        Versus { summary, label, own: "this run", comparison: None, same_settings }
    }

    /// The first number before `after` in `words`, as a share ("2.9%" is 0.029).
    fn share_before(words: &str, after: &str) -> f64 {
        let end = words.find(after).unwrap_or_else(|| panic!("no \"{after}\" in: {words}"));
        let number = words[..end].trim_end().trim_end_matches('%');
        let start = number.rfind(|c: char| !(c.is_ascii_digit() || c == '.')).map_or(0, |i| i + 1);
        number[start..].parse::<f64>().unwrap() / 100.0
    }

    #[test]
    fn a_join_is_measured_against_the_keys_the_newcomer_took_not_a_fair_share() {
        // The explainer's ring with 5 virtual nodes: the newcomer takes less
        // than a fair share, so a fair share is no bound on what moved.
        let ring = [("policy", "ring"), ("membership", "10s:add"), ("load", "0.8"), ("virtual_nodes", "5")];
        let (scenario, summary) = run(&ring, 11.0);
        let change = &summary.membership[0];
        let (moved, own) = (change.keys_moved.unwrap(), change.server_keys.unwrap());
        assert!(own < 1.0 / f64::from(change.members_after), "{change:?}: the newcomer took a fair share");
        let (_, modulo) = run(&[ring.as_slice(), &[("policy", "modulo")]].concat(), 11.0);
        let said = Readback(vec![Sentence::Moved]);
        let words = said.words(&scenario, &summary, Some(versus(&modulo, "modulo", false)), None);
        assert!(!words.contains("fewest possible"), "{words}");
        // What it says had to move is no more than what moved: here,
        // every key that moved went to the newcomer.
        let (took, moved_said) = (share_before(&words, "of the keys"), share_before(&words, "of keys moved"));
        assert!(took <= moved_said && (moved_said - moved).abs() < 0.001, "{words}");
        assert_eq!(moved, own, "{change:?}");
        assert!(words.contains("to another server, only those; with modulo, "), "{words}");
        // Modulo moves keys between servers that stayed.
        let words = said.words(&scenario, &modulo, Some(versus(&summary, "ring", false)), None);
        assert!(words.contains("more than those; with ring, "), "{words}");
    }

    #[test]
    fn a_twin_with_the_same_settings_is_no_comparison() {
        // The black hole's section with its policy set to its twin's.
        let random = [
            ("policy", "random"),
            ("balancers", "1"),
            ("session_length", "1"),
            ("load", "0.8"),
            ("retry_budget", "0"),
            ("failures", "2s:fast-fail:0:p=0.9:after=1ms"),
        ];
        let (scenario, summary) = run(&random, 6.0);
        let twin = summary.clone();
        let twin = versus(&twin, "random", true);
        let said = Readback::parse("errors,versus,latency").unwrap();
        let words = said.words(&scenario, &summary, Some(twin), None);
        assert!(words.starts_with("The twin (random) now runs exactly these settings"), "{words}");
        assert!(!words.contains("with random") && !words.contains("than"), "{words}");
        // Nothing to wait for: it never becomes a comparison.
        assert!(said.ready(&scenario, &summary, Some(&versus(&summary, "random", true))));
    }

    #[test]
    fn a_twin_that_has_not_parted_from_the_run_is_waited_for() {
        // Repick differs from random only after a bounce, the first of which
        // comes between 7 and 8 simulated seconds at seed 1.
        let repick = [("policy", "repick"), ("load", "0.95")];
        let random = [("policy", "random"), ("load", "0.95")];
        let said = Readback::parse("versus,bounces").unwrap();
        for (seconds, parted) in [(5.0, false), (10.0, true)] {
            let ((scenario, summary), (_, twin)) = (run(&repick, seconds), run(&random, seconds));
            let twin = versus(&twin, "random", false);
            let words = said.words(&scenario, &summary, Some(versus(twin.summary, "random", false)), None);
            assert_eq!(said.ready(&scenario, &summary, Some(&twin)), parted, "{seconds} s: {words}");
            assert_eq!(words.contains('×'), parted, "{words}");
            assert_eq!(words.contains("Waiting for the first bounce"), !parted, "{words}");
            assert!(!words.contains("0 requests"), "{words}");
        }
    }

    #[test]
    fn the_tail_is_ready_once_enough_requests_are_measured() {
        let said = Readback(vec![Sentence::Tail]);
        for (seconds, ready) in [(0.1, false), (2.0, true)] {
            let (scenario, summary) = run(&[("servers", "1"), ("load", "0.9")], seconds);
            assert_eq!(said.ready(&scenario, &summary, None), ready, "{seconds} s");
            let collecting = said.words(&scenario, &summary, None, None).starts_with("Collecting");
            assert_eq!(collecting, !ready, "ready exactly when the sentence stops collecting");
        }
    }

    #[test]
    fn figures_that_straddle_a_change_of_settings_say_so() {
        let (scenario, summary) = run(&[("servers", "1"), ("load", "0.9")], 5.0);
        let said = Readback(vec![Sentence::Tail]);
        assert!(!said.words(&scenario, &summary, None, None).contains("change"));
        let words = said.words(&scenario, &summary, None, Some(2.5));
        assert!(
            words.ends_with("across the change of settings at 2.5 s: Reset measures the new settings alone.")
        );
    }

    #[test]
    fn a_scheduled_change_is_ready_just_before_it_happens() {
        let table = [("policy", "table"), ("membership", "10s:add"), ("load", "0.8")];
        let said = Readback(vec![Sentence::Moved]);
        for (seconds, ready) in [(5.0, false), (10.0 - LEAD_S, true), (11.0, true)] {
            let (scenario, summary) = run(&table, seconds);
            assert_eq!(said.ready(&scenario, &summary, None), ready, "{seconds} s");
            let words = said.words(&scenario, &summary, None, None);
            assert_eq!(words.contains("a server joins at 10.0 s"), seconds < 10.0, "{words}");
        }
        let failing = [("failures", "2s:down:0"), ("retry_budget", "2")];
        let said = Readback(vec![Sentence::Retries]);
        for (seconds, ready) in [(3.0, false), (4.0, true)] {
            let (scenario, summary) = run(&failing, seconds);
            assert_eq!(said.ready(&scenario, &summary, None), ready, "{seconds} s");
        }
    }
}
