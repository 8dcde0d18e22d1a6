//! Sentences that read a simulation's numbers back in words, for the
//! explainer's sections and for screen readers. A section chooses which
//! sentences it shows; each is computed from the whole run's summary (and
//! its versus twin's), so it always says what the picture shows.

mod words;

use super::claims::failing;
use crate::engine::Comparison;
use crate::format::{grouped, ms, percent, thousands};
use crate::scenario::{Change, Demand};
use crate::{Scenario, Summary};
use words::{bounce_rate, bounces, change_words, compare, named, seconds, times, times_said};

/// Requests a run must have completed before its sentences mean anything.
pub const MIN_COMPLETED: u64 = 200;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sentence {
    /// Median, mean and p99 queue time: why percentiles, not averages.
    Tail,
    /// How a spike fell on the servers, and whether it is over.
    Spike,
    /// How many requests the queue timeout sent back, and what that does
    /// to queue time.
    Bounces,
    /// p99 and mean queue time against the versus twin's.
    Versus,
    /// How old the counters behind piggybacked decisions were, and how
    /// often that falls back to random.
    Staleness,
    /// Queueing theory's mean wait beside the measured one and its 95%
    /// interval, and why the scenario is only near the model, where it is;
    /// nothing where theory knows no answer.
    Theory,
    /// The twin (B) over this simulation (A), figure by figure, with 95%
    /// intervals from their paired batches.
    Ratios,
    /// How many requests were hedged, what the copies cost, and p99
    /// latency against the twin's.
    Hedging,
    /// What the last membership change moved: the share of keys placed on
    /// another server, against the server's own keys (which had to move)
    /// and the twin's.
    Moved,
    /// Which servers answer with errors, the share of attempts they drew
    /// against their fair share and the twin's, and the share of requests
    /// that succeeded.
    Errors,
    /// Attempts per request (the load retries add) and the share of
    /// requests that succeeded, against the twin's.
    Retries,
    /// Median and p99 latency, against the twin's.
    Latency,
    /// The share of requests sent within the sender's datacenter, against
    /// the twin's.
    Locality,
}

impl Sentence {
    const NAMES: [(&'static str, Sentence); 13] = [
        ("tail", Sentence::Tail),
        ("spike", Sentence::Spike),
        ("bounces", Sentence::Bounces),
        ("versus", Sentence::Versus),
        ("staleness", Sentence::Staleness),
        ("theory", Sentence::Theory),
        ("ratios", Sentence::Ratios),
        ("hedging", Sentence::Hedging),
        ("moved", Sentence::Moved),
        ("errors", Sentence::Errors),
        ("retries", Sentence::Retries),
        ("latency", Sentence::Latency),
        ("locality", Sentence::Locality),
    ];

    pub fn name(self) -> &'static str {
        Sentence::NAMES.iter().find(|(_, s)| *s == self).map_or("", |(n, _)| n)
    }
}

/// The sentences a view shows, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Readback(pub Vec<Sentence>);

/// The twin a view is compared with: its summary, and words for how it
/// differs ("random", "subset_size = all").
pub struct Versus<'a> {
    pub summary: &'a Summary,
    pub label: &'a str,
    /// The same words for the simulation compared with it ("power of two
    /// choices, live load", "subset_size = 5"), so that a sentence names
    /// both sides as the pictures are titled.
    pub own: &'a str,
    /// The twin over this simulation, batch by batch.
    pub comparison: Option<&'a Comparison>,
    /// Whether the twin runs exactly this simulation's settings (a
    /// control set to what the twin changes): then they are one run.
    pub same_settings: bool,
}

impl Versus<'_> {
    /// Whether the twin has so far done exactly what this simulation did,
    /// event for event (the same trace): nothing to compare, yet or ever.
    pub fn identical_to(&self, summary: &Summary) -> bool {
        self.summary.trace_hash == summary.trace_hash
    }

    /// Why there is nothing to compare with the twin.
    fn nothing_to_compare(&self) -> String {
        match self.same_settings {
            true => format!(
                "The twin ({}) now runs exactly these settings, so the two are one run and there is nothing to compare.",
                self.label
            ),
            false => format!(
                "So far this simulation has done exactly what its twin with {} did, event for event: waiting for the first choice they make differently…",
                self.label
            ),
        }
    }
}

impl Readback {
    pub fn names() -> Vec<&'static str> {
        Sentence::NAMES.iter().map(|(n, _)| *n).collect()
    }

    /// A comma-separated list of sentence names ("none" or empty for none).
    pub fn parse(text: &str) -> Option<Readback> {
        if matches!(text.trim(), "" | "none") {
            return Some(Readback::default());
        }
        let mut sentences = Vec::new();
        for name in text.split(',').map(str::trim) {
            let sentence = Sentence::NAMES.iter().find(|(n, _)| *n == name)?.1;
            if !sentences.contains(&sentence) {
                sentences.push(sentence);
            }
        }
        Some(Readback(sentences))
    }

    pub fn text(&self) -> String {
        match self.0.is_empty() {
            true => "none".to_string(),
            false => self.0.iter().map(|s| s.name()).collect::<Vec<_>>().join(","),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The sentences for a run of `scenario` with `summary`, beside its twin;
    /// empty when none applies (theory, for a scenario it does not know).
    /// A twin that has done exactly what the run did is no comparison: the
    /// sentences say so instead of reading ratios of 1. `changed_at_s`:
    /// when the run's settings last changed without starting over, so that
    /// its figures mix two settings, which the sentences then say.
    pub fn words(
        &self,
        scenario: &Scenario,
        summary: &Summary,
        versus: Option<Versus>,
        changed_at_s: Option<f64>,
    ) -> String {
        self.sentences(scenario, summary, versus, changed_at_s).join(" ")
    }

    /// [`Readback::words`], each sentence asked for (or the one line that
    /// stands for them all while the figures are not ready) apart, so a
    /// view short of room can show the first alone.
    pub fn sentences(
        &self,
        scenario: &Scenario,
        summary: &Summary,
        versus: Option<Versus>,
        changed_at_s: Option<f64>,
    ) -> Vec<String> {
        let (versus, note) = match versus {
            Some(v) if v.identical_to(summary) => (None, Some(v.nothing_to_compare())),
            versus => (versus, None),
        };
        let said = self.0.iter().filter_map(|sentence| say(*sentence, scenario, summary, versus.as_ref()));
        let mut sentences: Vec<String> = note.into_iter().chain(said).collect();
        if sentences.is_empty() {
            return sentences;
        }
        if summary.simulated_s < scenario.warmup_s {
            return vec![format!(
                "Warming up: the figures count from {} s, once the servers' queues have filled from empty…",
                grouped(scenario.warmup_s, 1)
            )];
        }
        let measured = measured_requests(summary);
        if measured < MIN_COMPLETED {
            if !spike_over(scenario, summary) {
                return vec![format!(
                    "Collecting: {measured} requests completed so far, {MIN_COMPLETED} needed before these numbers mean much…"
                )];
            }
            // No more will come: what was collected is said, with how far
            // it goes (a spike of 5 clients waited for 200 forever).
            sentences.push(format!(
                "Only {measured} requests completed, fewer than the {MIN_COMPLETED} these figures need to mean much: more clients make a bigger spike."
            ));
        }
        if let Some(at) = changed_at_s {
            sentences.push(format!(
                "These figures cover the whole run, across the change of settings at {} s: Reset measures the new settings alone.",
                grouped(at, 1)
            ));
        }
        sentences
    }
}

/// Whether `summary` is of a spike whose sessions have all ended: nothing
/// more will come to measure.
fn spike_over(scenario: &Scenario, summary: &Summary) -> bool {
    scenario.demand == Demand::Spike && summary.in_flight == 0 && summary.counts.sessions_started > 0
}

/// The span a sentence measures, as its opening words: the run's measured
/// seconds and its warm-up, so that a sentence over the whole run is not
/// read as one over the last second beside it.
fn span(s: &Summary) -> String {
    let warm_up = match s.simulated_s - s.measured_s {
        w if w > 0.0 => format!(" after a {w:.0} s warm-up"),
        _ => String::new(),
    };
    format!("Over {} simulated seconds{warm_up}", seconds(s.measured_s))
}

fn say(sentence: Sentence, scenario: &Scenario, s: &Summary, versus: Option<&Versus>) -> Option<String> {
    let timeout =
        scenario.queue_timeout_ms.map_or("queue timeout".to_string(), |t| format!("{} timeout", ms(t)));
    Some(match sentence {
        Sentence::Tail => {
            let q = &s.queue_ms;
            let tail = match q.mean > 0.0 {
                true => format!(", {:.1}× the mean", q.p99 / q.mean),
                false => String::new(),
            };
            format!(
                "{}, of {} requests the median waited {} in a queue and the mean {}; one in a hundred waited more than {}{tail}.",
                span(s),
                thousands(q.count),
                ms(q.p50),
                ms(q.mean),
                ms(q.p99),
            )
        }
        Sentence::Spike => {
            let per_server = &s.completed_per_server;
            let (max, min) = (per_server.iter().max()?, per_server.iter().min()?);
            let tail = match spike_over(scenario, s) {
                true => " The spike is over: press Replay to watch it again.",
                false => "",
            };
            // A request can bounce more than once: bounces are counted, not
            // set against the requests as a share.
            format!(
                "{} requests so far, and {} (a request that waits out the {timeout} goes back to pick again); the busiest server has completed {} requests, the quietest {}.{tail}",
                thousands(s.counts.created),
                bounces(s.counts.bounces),
                thousands(*max),
                thousands(*min),
            )
        }
        Sentence::Bounces => {
            if s.counts.bounces == 0 {
                return Some(format!(
                    "Waiting for the first bounce: no request has yet waited out the {timeout} and gone back to pick again."
                ));
            }
            let longest = match scenario.queue_timeout_ms {
                Some(t) if s.queue_ms.p100 > t => format!(
                    " The longest queue time so far, {}, is longer than the timeout: it counts the trip back and the wait at the next server.",
                    ms(s.queue_ms.p100)
                ),
                _ => " No request has yet waited longer than the timeout.".to_string(),
            };
            format!(
                "{} so far, {}: each time, a request waited out the {timeout} and went back to pick again.{longest}",
                bounces(s.counts.bounces),
                bounce_rate(s.counts.bounces, s.counts.created),
            )
        }
        Sentence::Versus => {
            let v = versus?;
            let with = format!("with {}", v.label);
            format!(
                "{}, p99 queue time with {} is {} on the same arrivals ({} against {}); the mean is {}.",
                span(s),
                v.own,
                compare(s.queue_ms.p99, v.summary.queue_ms.p99, &with),
                ms(s.queue_ms.p99),
                ms(v.summary.queue_ms.p99),
                compare(s.queue_ms.mean, v.summary.queue_ms.mean, "")
            )
        }
        Sentence::Theory => {
            let theory = s.theory.as_ref()?;
            let measured = s.confidence.queue_ms.mean;
            let interval = measured.half_width.map_or(String::new(), |h| format!(" ± {}", ms(h)));
            let near = match theory.caveats.first() {
                Some(caveat) => format!(" Only near the model: {caveat}."),
                None => " The scenario is the model exactly.".to_string(),
            };
            format!(
                "Theory ({}) gives a mean queue wait of {}; measured {}{interval} (95%, batch means).{near}",
                theory.model,
                ms(theory.mean_wait_ms),
                ms(measured.estimate),
            )
        }
        Sentence::Ratios => {
            let c = versus?.comparison?;
            let (a, b) = c.measured_bounces;
            let bounces = format!("bounces {} in A, {} in B", thousands(a), thousands(b));
            format!(
                "B ({}) over A ({}): p99 queue time {}, mean queue time {}, p99 latency {}, throughput {}; {bounces}.",
                versus?.label,
                versus?.own,
                times(&c.queue_p99),
                times(&c.queue_mean),
                times(&c.latency_p99),
                times(&c.throughput),
            )
        }
        Sentence::Hedging => {
            let tail = match versus {
                Some(v) => format!(
                    "; p99 latency is {} on the same arrivals ({} against {})",
                    compare(s.latency_ms.p99, v.summary.latency_ms.p99, &format!("with {}", v.label)),
                    ms(s.latency_ms.p99),
                    ms(v.summary.latency_ms.p99)
                ),
                None => String::new(),
            };
            match &s.hedging {
                Some(h) => format!(
                    "{:.1}% of requests sent a second copy, costing {:.1}% more work{tail}.",
                    100.0 * h.hedge_rate,
                    100.0 * h.extra_work
                ),
                None => format!("No request is hedged{tail}."),
            }
        }
        Sentence::Moved => {
            let Some(change) = s.membership.last() else {
                let coming = scenario.membership.iter().find(|c| c.at_s >= s.simulated_s);
                return Some(match coming {
                    Some(next) => format!(
                        "No server has joined or left yet: {} at {} s.",
                        change_words(next.change).1,
                        grouped(next.at_s, 1)
                    ),
                    None => "No server has joined or left yet.".to_string(),
                });
            };
            let (moved, own) = (change.keys_moved?, change.server_keys?);
            // The server's own keys had to move; a fair share (1/N) is not
            // a bound, since shares are uneven.
            let whose = match change.change {
                Change::Add | Change::Restore(_) => format!(
                    "took {} of the keys (an even share would be {})",
                    percent(own),
                    percent(1.0 / f64::from(change.members_after))
                ),
                Change::Remove(_) | Change::Crash(_) => format!("held {} of the keys", percent(own)),
            };
            let beyond = match moved > own {
                true => format!("{} more than those", percent(moved - own)),
                false => "only those".to_string(),
            };
            let twin = versus.and_then(|v| {
                let moved = v.summary.membership.last()?.keys_moved?;
                Some(format!("; with {}, {} moved", v.label, percent(moved)))
            });
            format!(
                "At {} s {}, which {whose}: {} of keys moved to another server, {beyond}{}.",
                grouped(change.at_s, 1),
                change_words(change.change).0,
                percent(moved),
                twin.unwrap_or_default()
            )
        }
        Sentence::Errors => {
            let Some(erring) = failing(s) else {
                let coming =
                    scenario.failures.iter().find(|f| f.failure.is_some() && f.at_s >= s.simulated_s);
                return Some(match coming {
                    Some(next) => format!(
                        "No server has answered with an error yet: server {} starts failing at {} s.",
                        next.server,
                        grouped(next.at_s, 1)
                    ),
                    None => "No server has answered with an error yet.".to_string(),
                });
            };
            let fair = erring.servers.len() as f64 / s.completed_per_server.len() as f64;
            let share_twin = versus.map_or(String::new(), |v| {
                format!("; with {}, {}", v.label, percent(failing(v.summary).map_or(0.0, |f| f.share)))
            });
            let ejections = match (scenario.eject_after, s.counts.outliers.ejections) {
                (0, _) => String::new(),
                (_, 0) => " No server has been ejected yet.".to_string(),
                (_, n) => format!(
                    " A server has been ejected from a pool {}, for {} each time.",
                    times_said(n),
                    ms(scenario.eject_for_ms)
                ),
            };
            format!(
                "{}, answering with errors, drew {} of the attempts, {:.1}× a fair share of {}{share_twin}. {}{ejections}",
                named(&erring.servers),
                percent(erring.share),
                erring.share / fair,
                percent(fair),
                succeeded(s, versus),
            )
        }
        Sentence::Retries => {
            let Some(attempts) = s.attempts_per_request else {
                return Some("No request has been made yet.".to_string());
            };
            let budget = scenario.retry_budget;
            let twin = versus
                .and_then(|v| {
                    Some(format!("; with {}, {:.2} each", v.label, v.summary.attempts_per_request?))
                })
                .unwrap_or_default();
            format!(
                "Requests made {attempts:.2} attempts each on average ({} retries in all), where a budget of {} retries allows at most {}{twin}. {}",
                thousands(s.retries),
                thousands(budget.into()),
                thousands(u64::from(budget) + 1),
                succeeded(s, versus),
            )
        }
        Sentence::Latency => {
            let v = versus?;
            let (mine, theirs) = (&s.latency_ms, &v.summary.latency_ms);
            format!(
                "p99 latency is {} against {} with {}: {}. The median is {} against {}: {}.",
                ms(mine.p99),
                ms(theirs.p99),
                v.label,
                compare(mine.p99, theirs.p99, ""),
                ms(mine.p50),
                ms(theirs.p50),
                compare(mine.p50, theirs.p50, ""),
            )
        }
        Sentence::Locality => {
            let share = s.local_share()?;
            let twin = versus
                .and_then(|v| {
                    Some(format!(", against {} with {}", percent(v.summary.local_share()?), v.label))
                })
                .unwrap_or_default();
            format!(
                "{} of the requests went to a server in their sender's own datacenter{twin}.",
                percent(share)
            )
        }
        Sentence::Staleness => {
            let staleness = &s.decision_staleness_ms;
            if staleness.count == 0 {
                return Some("No decision has compared two learned counters yet.".to_string());
            }
            let fallback = staleness.p50.sqrt().min(100.0);
            format!(
                "The median decision compared counters {} old, so such a decision falls back to random about {fallback:.0}% of the time.",
                ms(staleness.p50)
            )
        }
    })
}

/// Requests completed after the warm-up, which the figures count.
pub fn measured_requests(summary: &Summary) -> u64 {
    summary.latency_ms.count
}

/// "73.7% of requests succeeded, against 91.6% with random."
fn succeeded(s: &Summary, versus: Option<&Versus>) -> String {
    let Some(availability) = s.availability else {
        return "Waiting for the first request to end, to count how many succeed.".to_string();
    };
    let twin = versus
        .and_then(|v| Some((v.summary.availability?, v.label)))
        .map_or(String::new(), |(a, label)| format!(", against {} with {label}", percent(a)));
    format!("{} of requests succeeded{twin}.", percent(availability))
}

#[cfg(test)]
mod tests;
