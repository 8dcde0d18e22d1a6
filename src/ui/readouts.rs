//! Which of a view's readouts (the key figures over its picture) it shows,
//! as a link names them (`readouts=p50,p99,throughput`): a chapter whose
//! prose cites three figures shows those three, where the six took a
//! phone's screen from the chart the chapter is about. What the strip
//! shows is also what the view's live region tells screen readers
//! ([`spoken`]).

use crate::format::{grouped, thousands};
use crate::ui::whole_run::{Counted, Span};

/// One of the readouts, in the order the strip shows them unless a link
/// lists its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Readout {
    /// The median queue time.
    P50,
    /// The 99th percentile of queue time.
    P99,
    /// Requests completed per second.
    Throughput,
    /// Tries sent back per second, with the errors under them.
    Bounces,
    /// The share of requests answered, with the failures under it.
    Availability,
    /// Simulated time, with the speed achieved under it.
    Time,
}

impl Readout {
    /// Every readout, in the strip's order: a link's list shows in it too.
    pub const ALL: [Readout; 6] = [
        Readout::P50,
        Readout::P99,
        Readout::Throughput,
        Readout::Bounces,
        Readout::Availability,
        Readout::Time,
    ];

    /// Its name in links (`readouts=`).
    pub fn key(self) -> &'static str {
        match self {
            Readout::P50 => "p50",
            Readout::P99 => "p99",
            Readout::Throughput => "throughput",
            Readout::Bounces => "bounces",
            Readout::Availability => "availability",
            Readout::Time => "time",
        }
    }

    /// Every readout's name in links, in the strip's order.
    pub fn keys() -> [&'static str; 6] {
        Readout::ALL.map(Readout::key)
    }

    /// The readouts `keys` names, in the list's order (each once): a
    /// chapter that teaches the median before the tail names p50 first.
    pub fn of_keys(keys: &[&str]) -> Vec<Readout> {
        let mut chosen: Vec<Readout> = Vec::new();
        for key in keys {
            if let Some(readout) = Readout::ALL.into_iter().find(|r| r.key() == *key) {
                if !chosen.contains(&readout) {
                    chosen.push(readout);
                }
            }
        }
        chosen
    }
}

/// A time in ms to as many places as the sentences write it
/// (`lbsim::format::ms`): a wait under a millisecond to the hundredth, so
/// that the strip's median of 0.96 ms does not read "1.0" under a sentence
/// saying 0.96 ms.
pub fn milliseconds(ms: f64) -> String {
    match ms {
        ms if ms >= 100.0 => grouped(ms, 0),
        ms if ms >= 1.0 => format!("{ms:.1}"),
        ms => format!("{ms:.2}"),
    }
}

/// How the bounces readout gives its figure over `span`, from the rate
/// over the last second (`rate`, per second, as the strip writes it) and
/// the count since the run began (`count`): the figure and its unit.
/// Over the last second, a rate ("27", "/s"); over a longer span, the
/// count, as the sentence and the crosses count them ("812", no unit):
/// "Whole run: … Bounces 27 /s" read as 27 bounces in the whole run
/// (reader 13, chapter 2), where the sentence said 812.
pub fn bounces_figure(span: Span, rate: String, count: u64) -> (String, &'static str) {
    match span {
        Span::LastSecond => (rate, "/s"),
        Span::SinceStart | Span::SinceWarmUp | Span::WholeRun => (thousands(count), ""),
    }
}

/// A figure's text with each digit written 0. The strip's figures are set
/// in tabular numerals (every digit as wide as 0), so two figures of one
/// shape take one width, and a strip whose figures keep their shapes
/// wraps as it did: "12.5" after "3.4" may move a readout to a second
/// line; "3.5" after "3.4" cannot.
pub fn figure_shape(text: &str) -> String {
    text.chars().map(|c| if c.is_ascii_digit() { '0' } else { c }).collect()
}

/// What the view's live region tells screen readers: the strip's
/// percentiles as the strip shows them, over its `span` (`counted`, the
/// p50 and the p99 in ms), the p99's `trend` (", rising" or nothing), and
/// the bounces the picture counts since the run began. It
/// once read the last second's "p99 queue time 0.00 ms; 0 requests bounced
/// in the last second" beside a strip counting since the run began and
/// 1,204 bounces drawn.
pub fn spoken(span: Span, counted: Counted, (p50, p99): (f64, f64), trend: &str, bounced: u64) -> String {
    let figures = match counted.why_empty() {
        Some(why) => why.to_string(),
        None => {
            format!("p50 queue time {} ms, p99 queue time {} ms{trend}", milliseconds(p50), milliseconds(p99))
        }
    };
    // Bounces, as the sentence and the crosses count them: a request can
    // bounce more than once, and "requests bounced" read as another count.
    let bounces = if bounced == 1 { "bounce" } else { "bounces" };
    format!("{} {figures}; {} {bounces} since the run began.", span.label(), thousands(bounced))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_of_one_shape_differ_only_in_their_digits() {
        assert_eq!(figure_shape("3.4"), figure_shape("9.1"));
        assert_eq!(figure_shape("1,204"), "0,000");
        assert_ne!(figure_shape("3.4"), figure_shape("12.5"));
        assert_ne!(figure_shape("–"), figure_shape("0"));
        assert_ne!(figure_shape("99.9"), figure_shape("100"));
    }

    #[test]
    fn the_live_region_says_what_the_strip_and_the_picture_say() {
        let since = spoken(Span::SinceStart, Counted::Some, (2.94, 29.3), ", rising", 1_204);
        assert_eq!(
            since,
            "Since the run began: p50 queue time 2.9 ms, p99 queue time 29.3 ms, rising; \
             1,204 bounces since the run began."
        );
        let early = spoken(Span::SinceStart, Counted::NoneFinished, (0.0, 0.0), "", 0);
        assert_eq!(early, "Since the run began: none finished yet; 0 bounces since the run began.");
        let lab = spoken(Span::LastSecond, Counted::Some, (0.64, 212.4), "", 1);
        assert_eq!(
            lab,
            "Last second: p50 queue time 0.64 ms, p99 queue time 212 ms; 1 bounce since the run began."
        );
    }

    #[test]
    fn bounces_are_a_rate_over_the_last_second_and_a_count_over_the_run() {
        let rate = || "27".to_string();
        assert_eq!(bounces_figure(Span::LastSecond, rate(), 812), ("27".to_string(), "/s"));
        assert_eq!(bounces_figure(Span::WholeRun, rate(), 1_812), ("1,812".to_string(), ""));
        assert_eq!(bounces_figure(Span::SinceStart, rate(), 0), ("0".to_string(), ""));
    }

    #[test]
    fn a_list_of_names_gives_its_readouts_in_its_own_order() {
        assert_eq!(
            Readout::of_keys(&["throughput", "p50", "p99", "p50"]),
            [Readout::Throughput, Readout::P50, Readout::P99]
        );
        assert_eq!(Readout::of_keys(&Readout::keys()), Readout::ALL);
        assert_eq!(Readout::of_keys(&[]), []);
    }

    #[test]
    fn every_readout_has_its_own_name() {
        let keys = Readout::keys();
        for (i, key) in keys.iter().enumerate() {
            assert!(!keys[i + 1..].contains(key), "{key} names two readouts");
        }
    }
}
