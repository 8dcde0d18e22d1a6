//! How a failure schedule strays from the models, whose servers never fail
//! (issue 38). A server down for the whole measured time leaves no stretch
//! of the run that the model describes: the scenario runs on fewer servers
//! than the model's, with a share of its sends refused and retried, so the
//! models say nothing of it. A failure for a while leaves the rest of the
//! run to the model, and a caveat says how many servers failed and for how
//! long.

use crate::scenario::failures::{Failure, ScheduledFailure};

/// One server's failure over a stretch of simulated seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Spell {
    server: u32,
    failure: Failure,
    from_s: f64,
    /// Infinite when nothing ends it.
    to_s: f64,
}

/// The measured seconds, from the warm-up's end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measured {
    pub from_s: f64,
    pub to_s: f64,
}

impl Measured {
    fn overlap(self, spell: &Spell) -> (f64, f64) {
        (spell.from_s.max(self.from_s), spell.to_s.min(self.to_s))
    }
}

/// The schedule's failures as spells, in the order they start: each lasts
/// until it ends by itself (`for=`) or its server's next entry (a failure
/// or a recovery) ends it, as the engine runs them (entries due at the same
/// instant in the schedule's order).
fn spells(schedule: &[ScheduledFailure]) -> Vec<Spell> {
    let mut entries: Vec<&ScheduledFailure> = schedule.iter().collect();
    crate::sort::sort_by(&mut entries, |a, b| a.at_s.total_cmp(&b.at_s));
    let ended_by = |i: usize| {
        let entry = entries[i];
        let next = entries[i + 1..].iter().find(|later| later.server == entry.server);
        let by_itself = entry.for_s.map_or(f64::INFINITY, |for_s| entry.at_s + for_s);
        next.map_or(by_itself, |next| by_itself.min(next.at_s))
    };
    (0..entries.len())
        .filter_map(|i| {
            let entry = entries[i];
            let failure = entry.failure?;
            Some(Spell { server: entry.server, failure, from_s: entry.at_s, to_s: ended_by(i) })
        })
        .collect()
}

/// Seconds of `spell` within `measured` that its server is down (for a
/// flapping one, its down turns: down first, then up, a period each), or
/// slow, or failing fast.
fn failing_s(spell: &Spell, measured: Measured) -> f64 {
    let (from, to) = measured.overlap(spell);
    if to <= from {
        return 0.0;
    }
    match spell.failure {
        Failure::Flap { period_ms } => {
            let period = period_ms / 1000.0;
            let down_by = |t: f64| {
                let since = t - spell.from_s;
                let cycles = libm::floor(since / (2.0 * period));
                cycles * period + (since - cycles * 2.0 * period).min(period)
            };
            down_by(to) - down_by(from)
        }
        _ => to - from,
    }
}

/// Whether some server is down (not flapping: down) for all of `measured`,
/// or from its start on while it has no length yet.
pub fn down_throughout(schedule: &[ScheduledFailure], measured: Measured) -> bool {
    let spells = spells(schedule);
    let mut servers: Vec<u32> = spells.iter().map(|spell| spell.server).collect();
    crate::sort::sort(&mut servers);
    servers.dedup();
    servers.iter().any(|&server| {
        let covered_to = spells
            .iter()
            .filter(|spell| spell.server == server && spell.failure == Failure::Down)
            .fold(measured.from_s, |covered, spell| {
                if spell.from_s <= covered && covered < spell.to_s {
                    spell.to_s
                } else {
                    covered
                }
            });
        covered_to >= measured.to_s && covered_to > measured.from_s
    })
}

/// The kinds of failure a caveat tells apart: a flapping server is down
/// in turns.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Down,
    Slow,
    FailingFast,
}

impl Kind {
    const ALL: [Kind; 3] = [Kind::Down, Kind::Slow, Kind::FailingFast];

    fn of(failure: Failure) -> Kind {
        match failure {
            Failure::Down | Failure::Flap { .. } => Kind::Down,
            Failure::Slow { .. } => Kind::Slow,
            Failure::FastFail { .. } => Kind::FailingFast,
        }
    }

    /// What one server does, what several do, and what the models assume.
    fn words(self) -> [&'static str; 3] {
        match self {
            Kind::Down => ["is down", "are down", "the model's servers are always up"],
            Kind::Slow => ["runs slower", "run slower", "the model's servers keep their speed"],
            Kind::FailingFast => [
                "answers a share of its requests with an error",
                "answer a share of their requests with an error",
                "the model's servers never fail",
            ],
        }
    }
}

/// A caveat for each kind of failure within `measured`: which server or
/// how many of the `servers`, and for how long.
pub fn caveats(schedule: &[ScheduledFailure], servers: u32, measured: Measured) -> Vec<String> {
    let spells = spells(schedule);
    let over = seconds(measured.to_s - measured.from_s);
    Kind::ALL
        .into_iter()
        .filter_map(|kind| {
            let failing: Vec<(u32, f64)> = spells
                .iter()
                .filter(|spell| Kind::of(spell.failure) == kind)
                .map(|spell| (spell.server, failing_s(spell, measured)))
                .filter(|&(_, s)| s > 0.0)
                .collect();
            let total_s: f64 = failing.iter().map(|(_, s)| s).sum();
            let mut named: Vec<u32> = failing.iter().map(|&(server, _)| server).collect();
            crate::sort::sort(&mut named);
            named.dedup();
            let [one, several, model] = kind.words();
            match named[..] {
                [] => None,
                [server] => Some(format!(
                    "server {server} {one} for {} of the {over} measured; {model}",
                    seconds(total_s)
                )),
                _ => Some(format!(
                    "{} of {servers} servers {several}, for {} between them in the {over} measured; {model}",
                    named.len(),
                    seconds(total_s)
                )),
            }
        })
        .collect()
}

/// Seconds to three figures or so: 0.25 s, 7.5 s, 1800 s.
fn seconds(s: f64) -> String {
    match s {
        s if s < 1.0 => format!("{s:.2} s"),
        s if s < 100.0 => format!("{s:.1} s"),
        s => format!("{s:.0} s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::failures::parse;

    const RUN: Measured = Measured { from_s: 10.0, to_s: 60.0 };

    fn caveats_of(schedule: &str) -> Vec<String> {
        caveats(&parse(schedule).unwrap(), 10, RUN)
    }

    #[test]
    fn a_server_down_for_a_while_is_named_with_its_time() {
        assert_eq!(
            caveats_of("5s:down:3:for=10s"),
            ["server 3 is down for 5.0 s of the 50.0 s measured; the model's servers are always up"]
        );
        // Ended by a recovery, then down again until the end; another
        // server's failure is its own.
        assert_eq!(
            caveats_of("20s:down:3, 30s:recover:3, 50s:down:3, 40s:down:4:for=2500ms"),
            ["2 of 10 servers are down, for 22.5 s between them in the 50.0 s measured; the model's servers are always up"]
        );
        assert_eq!(
            caveats_of("1s:down:3:for=9s, 60s:down:2"),
            Vec::<String>::new(),
            "outside the measured time"
        );
    }

    #[test]
    fn a_flapping_server_is_down_every_other_period() {
        // Down 9–11, 13–15, ..., 57–59: the first's last second within the
        // measured 10–60, then 12 turns of 2 s.
        assert_eq!(
            caveats_of("9s:flap:1:period=2s"),
            ["server 1 is down for 25.0 s of the 50.0 s measured; the model's servers are always up"]
        );
    }

    #[test]
    fn each_kind_of_failure_says_what_the_model_assumes() {
        assert_eq!(
            caveats_of("20s:slow:2:x=0.5:for=10s, 30s:fast-fail:4:p=0.5, 40s:fast-fail:5:p=1:for=1s"),
            [
                "server 2 runs slower for 10.0 s of the 50.0 s measured; the model's servers keep their speed",
                "2 of 10 servers answer a share of their requests with an error, for 31.0 s between them in the 50.0 s measured; the model's servers never fail",
            ]
        );
    }

    #[test]
    fn down_throughout_means_every_measured_instant() {
        let throughout = |schedule: &str, measured| down_throughout(&parse(schedule).unwrap(), measured);
        assert!(throughout("0s:down:1", RUN));
        assert!(throughout("0s:down:1:for=60s", RUN));
        assert!(throughout("0s:down:1:for=20s, 20s:down:1", RUN), "down again as the first ends");
        assert!(!throughout("0s:down:1:for=59s", RUN));
        assert!(!throughout("11s:down:1", RUN));
        assert!(!throughout("0s:down:1, 30s:slow:1:x=0.5", RUN), "slow is not down");
        assert!(!throughout("0s:flap:1:period=1s", RUN), "up half the time");
        // The lab at its start: no measured time yet.
        let start = Measured { from_s: 0.0, to_s: 0.0 };
        assert!(throughout("0s:down:1", start));
        assert!(!throughout("1s:down:1", start));
    }
}
