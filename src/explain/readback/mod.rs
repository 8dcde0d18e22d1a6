//! Sentences that read a simulation's numbers back in words, for the
//! explainer's sections and for screen readers. A section chooses which
//! sentences it shows; each is computed from the whole run's summary (and
//! its versus twin's), so it always says what the picture shows.

mod said;
mod words;

use crate::engine::Comparison;
use crate::format::grouped;
use crate::scenario::Demand;
use crate::{Scenario, Summary};
use said::say;

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

/// Requests completed after the warm-up, which the figures count.
pub fn measured_requests(summary: &Summary) -> u64 {
    summary.latency_ms.count
}

#[cfg(test)]
mod tests;
