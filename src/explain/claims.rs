//! A claim of the explainer's prose, as a comparison of two figures that a
//! test can check: `queue_p99 < 0.5 * queue_p99@versus` says the section's
//! p99 queue time is less than half its twin's. Each side is a number, or
//! a figure of the section's simulation (or, with `@versus`, of its twin),
//! optionally scaled by a number.

use crate::number;
use crate::Summary;
use std::fmt;

/// How a figure is read from a summary.
type Reader = fn(&Summary) -> f64;

/// Figures a claim can name, each read from a summary.
const FIGURES: [(&str, Reader); 20] = [
    ("queue_p50", |s| s.queue_ms.p50),
    ("queue_p99", |s| s.queue_ms.p99),
    ("queue_max", |s| s.queue_ms.p100),
    ("queue_mean", |s| s.queue_ms.mean),
    ("latency_p50", |s| s.latency_ms.p50),
    ("latency_p99", |s| s.latency_ms.p99),
    ("session_p50", |s| s.session_ms.p50),
    ("session_p99", |s| s.session_ms.p99),
    ("throughput", |s| s.throughput),
    ("bounces", |s| s.counts.bounces as f64),
    ("staleness_p50", |s| s.decision_staleness_ms.p50),
    ("hedge_rate", |s| s.hedging.as_ref().map_or(0.0, |h| h.hedge_rate)),
    ("server_spread", server_spread),
    ("keys_moved", |s| last_change(s).and_then(|c| c.keys_moved).unwrap_or(f64::NAN)),
    ("keys_ideal", |s| last_change(s).and_then(|c| c.keys_ideal).unwrap_or(f64::NAN)),
    ("misrouted", |s| last_change(s).map_or(f64::NAN, |c| c.misrouted as f64)),
    ("failing_share", |s| failing(s).map_or(0.0, |f| f.share)),
    ("availability", |s| s.availability.unwrap_or(f64::NAN)),
    ("attempts_per_request", |s| s.attempts_per_request.unwrap_or(f64::NAN)),
    ("local_share", |s| s.local_share().unwrap_or(f64::NAN)),
];

/// The last membership change of the run, which `keys_moved`,
/// `keys_ideal` and `misrouted` read (not a number when there was none, so that a claim
/// about it fails).
fn last_change(summary: &Summary) -> Option<&crate::engine::ChangeReport> {
    summary.membership.last()
}

/// The busiest server's completed requests over the quietest's (infinite
/// when one completed none).
fn server_spread(summary: &Summary) -> f64 {
    let per_server = &summary.completed_per_server;
    let (min, max) = (per_server.iter().min(), per_server.iter().max());
    match (min, max) {
        (Some(&min), Some(&max)) if min > 0 => max as f64 / min as f64,
        _ => f64::INFINITY,
    }
}

/// The servers that have answered any request with an error, and the
/// share of all answered attempts (answered well or with an error) that
/// went to them: a server that fails fast looks free, and this is how
/// much of the traffic it drew.
#[derive(Clone, Debug, PartialEq)]
pub struct Failing {
    pub servers: Vec<usize>,
    pub share: f64,
}

/// `None` while no server has answered with an error.
pub fn failing(summary: &Summary) -> Option<Failing> {
    let answered = |s: usize| summary.completed_per_server[s] + summary.errors_per_server[s];
    let all = 0..summary.completed_per_server.len().min(summary.errors_per_server.len());
    let servers: Vec<usize> = all.clone().filter(|&s| summary.errors_per_server[s] > 0).collect();
    let total: u64 = all.map(answered).sum();
    if servers.is_empty() || total == 0 {
        return None;
    }
    let drawn: u64 = servers.iter().map(|&s| answered(s)).sum();
    Some(Failing { servers, share: drawn as f64 / total as f64 })
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Term {
    Number(f64),
    Figure { scale: f64, figure: usize, versus: bool },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Less,
    Greater,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Claim {
    text: String,
    left: Term,
    op: Op,
    right: Term,
}

/// What a claim came to: both sides' values and whether it holds.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Verdict {
    pub claim: String,
    pub left: f64,
    pub right: f64,
    pub holds: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ClaimError {
    /// The text is not `term < term` or `term > term`.
    Malformed { claim: String, why: String },
    /// The claim reads the twin, and there is none.
    NoVersus { claim: String },
}

impl fmt::Display for ClaimError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ClaimError::Malformed { claim, why } => write!(f, "claim `{claim}`: {why}"),
            ClaimError::NoVersus { claim } => {
                write!(f, "claim `{claim}` reads @versus, but the simulation has no versus twin")
            }
        }
    }
}

impl std::error::Error for ClaimError {}

impl Claim {
    /// Parses every claim of a `;`-separated list.
    pub fn parse_all(text: &str) -> Result<Vec<Claim>, ClaimError> {
        text.split(';').map(str::trim).filter(|c| !c.is_empty()).map(Claim::parse).collect()
    }

    pub fn parse(text: &str) -> Result<Claim, ClaimError> {
        let malformed = |why: String| ClaimError::Malformed { claim: text.to_string(), why };
        let (at, op) = text
            .find(['<', '>'])
            .map(|at| (at, if text.as_bytes()[at] == b'<' { Op::Less } else { Op::Greater }))
            .ok_or_else(|| malformed("expected `<` or `>` between two terms".to_string()))?;
        let left = parse_term(&text[..at]).map_err(malformed)?;
        let right = parse_term(&text[at + 1..]).map_err(malformed)?;
        Ok(Claim { text: text.trim().to_string(), left, op, right })
    }

    pub fn reads_versus(&self) -> bool {
        [self.left, self.right].iter().any(|t| matches!(t, Term::Figure { versus: true, .. }))
    }

    /// Checks the claim against a simulation's summary and its twin's.
    pub fn check(&self, summary: &Summary, versus: Option<&Summary>) -> Result<Verdict, ClaimError> {
        let value = |term: Term| match term {
            Term::Number(x) => Ok(x),
            Term::Figure { scale, figure, versus: false } => Ok(scale * (FIGURES[figure].1)(summary)),
            Term::Figure { scale, figure, versus: true } => versus
                .map(|v| scale * (FIGURES[figure].1)(v))
                .ok_or_else(|| ClaimError::NoVersus { claim: self.text.clone() }),
        };
        let (left, right) = (value(self.left)?, value(self.right)?);
        let holds = match self.op {
            Op::Less => left < right,
            Op::Greater => left > right,
        };
        Ok(Verdict { claim: self.text.clone(), left, right, holds })
    }
}

/// `2`, `queue_p99`, `0.5 * queue_p99@versus`.
fn parse_term(text: &str) -> Result<Term, String> {
    let text = text.trim();
    if let Some(x) = number::parse(text) {
        return Ok(Term::Number(x));
    }
    let (scale, figure) = match text.split_once('*') {
        Some((scale, figure)) => {
            let scale = scale.trim();
            (number::parse(scale).ok_or_else(|| format!("`{scale}` is not a number"))?, figure.trim())
        }
        None => (1.0, text),
    };
    let (figure, versus) = match figure.strip_suffix("@versus") {
        Some(figure) => (figure, true),
        None => (figure, false),
    };
    let figure = FIGURES.iter().position(|(name, _)| *name == figure).ok_or_else(|| {
        let names: Vec<_> = FIGURES.iter().map(|(n, _)| *n).collect();
        format!("`{figure}` is not a figure; expected one of {}", names.join(", "))
    })?;
    Ok(Term::Figure { scale, figure, versus })
}

impl fmt::Display for Claim {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Scenario, Simulation};

    fn summary(policy: &str) -> Summary {
        let mut scenario = Scenario::default();
        scenario.set("policy", policy).unwrap();
        scenario.set("duration_s", "5").unwrap();
        let mut sim = Simulation::new(&scenario).unwrap();
        sim.run();
        sim.summary()
    }

    #[test]
    fn a_claim_compares_scaled_figures_of_both_simulations() {
        let (random, p2c) = (summary("random"), summary("power-of-d"));
        let claim = Claim::parse("queue_p99 < 0.5 * queue_p99@versus").unwrap();
        let verdict = claim.check(&p2c, Some(&random)).unwrap();
        assert_eq!(verdict.left, p2c.queue_ms.p99);
        assert_eq!(verdict.right, 0.5 * random.queue_ms.p99);
        assert!(verdict.holds);
        assert!(!claim.check(&random, Some(&p2c)).unwrap().holds);
        let bounded = Claim::parse("bounces > 0").unwrap();
        assert_eq!(bounded.check(&random, None).unwrap().left, random.counts.bounces as f64);
    }

    #[test]
    fn the_failing_share_counts_every_answer_of_the_servers_that_erred() {
        let mut s = summary("random");
        s.completed_per_server = vec![6, 10, 10, 14];
        s.errors_per_server = vec![54, 0, 0, 6];
        // Servers 0 and 3 answered 60 and 20 of the 100 attempts.
        assert_eq!(failing(&s), Some(Failing { servers: vec![0, 3], share: 0.8 }));
        assert_eq!(Claim::parse("failing_share > 0.79").unwrap().check(&s, None).unwrap().left, 0.8);
        s.errors_per_server = vec![0; 4];
        assert_eq!(failing(&s), None);
        assert!(!Claim::parse("failing_share > 0").unwrap().check(&s, None).unwrap().holds);
    }

    #[test]
    fn bad_claims_say_what_is_wrong() {
        let error = |text| Claim::parse(text).unwrap_err().to_string();
        assert!(error("queue_p99").contains("expected `<` or `>`"));
        assert!(error("queue_p98 < 1").contains("`queue_p98` is not a figure; expected one of queue_p50"));
        assert!(error("x * queue_p99 < 1").contains("`x` is not a number"));
        let needs_twin = Claim::parse("queue_p99 < queue_p99@versus").unwrap();
        assert!(needs_twin.reads_versus());
        let missing = needs_twin.check(&summary("random"), None).unwrap_err();
        assert!(matches!(missing, ClaimError::NoVersus { .. }));
        assert_eq!(Claim::parse_all("bounces > 0; queue_p99 > 1 ;").unwrap().len(), 2);
    }
}
