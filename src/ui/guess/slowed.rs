//! The question a view alone asks (chapter 3): the reader will slow a
//! server to a quarter of its speed; where will its queue stand among the
//! others'? Most readers expect it longer (reader 9 did). Random keeps
//! sending the slowed server its share, but no request waits in a queue
//! past the timeout, and in that time the slowed server takes a quarter as
//! many into its slots: its queue stays shorter than the others' while
//! what it cannot take bounces on to its neighbours, whose queues swell.
//! That takes time to show: over the first five seconds after a click at
//! 5 s the slowed queue stood from the third to the seventh shortest of
//! ten (chapter 3, ten seeds), so the verdict waits [`SETTLE_S`] and reads the
//! servers' samples (the engine's `server_history`, one each
//! [`SAMPLE_INTERVAL`]) over the last [`VERDICT_SPAN_S`] of them.

use super::{simulated_seconds, Answer, Guess, Stage, Topic, VERDICT_SPAN_S};
use crate::format::{grouped, ms};
use crate::metrics::SAMPLE_INTERVAL;
use crate::ui::waits::clearing_ms;
use crate::Snapshot;
use std::collections::VecDeque;

/// Simulated seconds from the slowing to the verdict.
pub const SETTLE_S: f64 = 10.0;

/// The question, unless the link words it.
pub(super) const PLAIN_QUESTION: &str =
    "Once it runs, you will click a server to slow it to a quarter of its speed. Where will its queue stand \
     among the others'?";

/// What the reveal says once the reader has answered, until a server is
/// slowed, after the answer it echoes.
pub const SLOW_ONE: &str =
    "Now slow a server: click one in the picture (or focus the picture and press its number).";

/// Where a slowed server's queue stands among the others' over a span of
/// samples: its mean queue, the others' mean, and the queues they were
/// drawn with.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub server: usize,
    pub queued: f64,
    /// The other servers' queues: the mean of them all, over the span.
    pub others_mean: f64,
    /// The shortest and the longest queue any other server held at any
    /// sample of the span: what the picture drew them as. The range of
    /// their means, "each from 48.0 to 51.0", read as a misprint beside
    /// neighbours drawn with 33 to 69 (reader 14).
    pub others_drawn: (u32, u32),
}

impl Standing {
    /// Where `server`'s queue stands over `samples`, each server's (busy
    /// slots, queued requests) at each sample; `None` without samples or
    /// another server to stand against.
    pub fn of<'a>(
        samples: impl Iterator<Item = &'a Vec<(u32, u32)>> + Clone,
        server: usize,
    ) -> Option<Standing> {
        let count = samples.clone().count() as f64;
        let servers = samples.clone().next()?.len();
        if server >= servers || servers < 2 || samples.clone().any(|sample| sample.len() != servers) {
            return None;
        }
        let mean = |i: usize| samples.clone().map(|sample| f64::from(sample[i].1)).sum::<f64>() / count;
        let others =
            || samples.clone().flat_map(|sample| sample.iter().enumerate()).filter(|&(i, _)| i != server);
        let others_mean =
            others().map(|(_, &(_, queued))| f64::from(queued)).sum::<f64>() / (count * (servers - 1) as f64);
        let others_drawn = others()
            .fold((u32::MAX, 0), |(low, high), (_, &(_, queued))| (low.min(queued), high.max(queued)));
        Some(Standing { server, queued: mean(server), others_mean, others_drawn })
    }

    /// Its range of the others' queues widened to the queues the picture
    /// draws now (`snapshot`), which a sample up to a quarter second old
    /// had not seen: at the verdict's frame a neighbour's queue drawn 74
    /// stood beside "ran from 1 to 66" (CI, chapter 3 under load).
    fn drawn_now(mut self, snapshot: &Snapshot) -> Standing {
        let others = snapshot.servers.iter().enumerate().filter(|&(i, _)| i != self.server);
        for (_, server) in others {
            self.others_drawn =
                (self.others_drawn.0.min(server.queued), self.others_drawn.1.max(server.queued));
        }
        self
    }

    /// The answer that holds, by the slowed queue over the others' mean,
    /// with the bounds of the question about tails (`SAME_TAIL`): one
    /// server against the others' longest or shortest turned on one seed's
    /// luck (chapter 3's slowed queue was the shortest 10 s after the click
    /// on 13 seeds of 20, the fifth shortest on one).
    pub fn answer(&self) -> Answer {
        match self.queued / self.others_mean {
            ratio if ratio > 1.15 => Answer::Longer,
            ratio if ratio < 0.87 => Answer::Shorter,
            _ => Answer::AsLong,
        }
    }

    fn outcome(&self) -> String {
        let place = match self.answer() {
            Answer::Longer => "longer than the others'".to_string(),
            Answer::Shorter => "shorter than the others'".to_string(),
            _ => "about as long as the others'".to_string(),
        };
        format!("server {}'s queue is {place}", self.server)
    }

    /// Why it stands there, in the run's own figures (`snapshot`, the
    /// frame the verdict comes in): a reader told only that the guess
    /// failed found the why in the prose below (reader 15). A queue's wait
    /// is how long its mean length takes to clear at its server's speed
    /// (`ui::waits`, as the rows write theirs), the bounces each server's
    /// count so far, the crosses by the rows. `None` where queues never
    /// time out. Short: at 1440 × 900 a verdict of two more lines pushed
    /// the box over the picture and folded the chart.
    fn why(&self, snapshot: &Snapshot) -> Option<String> {
        let timeout = snapshot.queue_timeout_ms.filter(|&ms| ms > 0.0)?;
        let servers = &snapshot.servers;
        let others = || servers.iter().enumerate().filter(|&(i, _)| i != self.server).map(|(_, s)| s);
        let clears = |queued, server| clearing_ms(queued, server, snapshot.service_mean_ms);
        let slowed = clears(self.queued, servers.get(self.server)?)?;
        let waits: Vec<f64> = others().filter_map(|server| clears(self.others_mean, server)).collect();
        let theirs = waits.iter().sum::<f64>() / waits.len() as f64;
        let bounced = others().map(|server| server.bounced);
        let (low, high) = (bounced.clone().min()?, bounced.max()?);
        let against = if slowed > timeout { "past" } else { "within" };
        Some(format!(
            "At its speed its queue takes {} to clear, {against} the {} timeout, theirs {}: it has bounced {} \
             requests, each other server {} to {}",
            ms(slowed),
            ms(timeout),
            ms(theirs),
            grouped(servers[self.server].bounced as f64, 0),
            grouped(low as f64, 0),
            grouped(high as f64, 0),
        ))
    }
}

impl Guess {
    /// The reader slowed `server` at `at_s` (simulated seconds): the act
    /// a question about a slowed queue asks for, so it retires nothing.
    pub fn server_slowed(&mut self, server: usize, at_s: f64) {
        self.slowed = Some((server, at_s));
        self.slowed_verdict = None;
    }

    /// The reader gave `server` back its speed: nothing is slowed to read.
    pub fn server_restored(&mut self, server: usize) {
        if self.slowed.is_some_and(|(slowed, _)| slowed == server) {
            self.slowed = None;
            self.slowed_verdict = None;
        }
    }

    /// What the reveal of a question about a slowed queue says at `now_s`
    /// (simulated seconds), given each server's last samples (`history`,
    /// oldest first) and the run as the frame draws it (`snapshot`, whose
    /// queues the range of the others' counts with the samples), and
    /// whether that is the verdict, which the prose explaining it follows:
    /// nothing while the question waits; until a server is slowed, the
    /// answer and to slow one; for [`VERDICT_SPAN_S`] after, to watch;
    /// then whether the guess held, with the mean queues over that span,
    /// and why, as first given, until a server is slowed or restored.
    pub fn slowed_words(
        &mut self,
        now_s: f64,
        history: &VecDeque<Vec<(u32, u32)>>,
        snapshot: &Snapshot,
    ) -> Option<(String, bool)> {
        if self.waits() || self.topic != Topic::SlowedQueue {
            return None;
        }
        let Some((server, at_s)) = self.slowed else {
            // The answer echoed: "Now slow a server" alone left the reader
            // to remember which they chose (reader 15).
            let words = match self.stage {
                Stage::Answered(answer) => {
                    format!("You answered {}. {SLOW_ONE}", answer.words_in_sentence(None))
                }
                _ => SLOW_ONE.to_string(),
            };
            return Some((words, false));
        };
        let span = simulated_seconds(VERDICT_SPAN_S);
        let over = |seconds: f64| {
            let count = ((seconds / SAMPLE_INTERVAL.as_secs()).round() as usize).min(history.len());
            Standing::of(history.range(history.len() - count..), server)
        };
        if now_s - at_s < SETTLE_S {
            let settle = simulated_seconds(SETTLE_S);
            let watch = format!("Watch server {server}'s queue beside one figure, the others' mean");
            // Read again each second, over the last second: a reader
            // told to compare with "the other nine" saw queues from 1 to
            // 38 and had no one thing to compare with. Each figure named:
            // "17.0 queued against 14.8" did not say whose was which
            // (reader 19).
            let now = match over(1.0) {
                Some(standing) => format!(
                    ": over the last second, server {server} {:.1} queued, the others {:.1}",
                    standing.queued, standing.others_mean
                ),
                None => String::new(),
            };
            return Some((format!("{watch}{now}. The verdict comes {settle} after the click."), false));
        }
        if let Some(verdict) = &self.slowed_verdict {
            return Some((verdict.clone(), true));
        }
        let standing = over(VERDICT_SPAN_S)?.drawn_now(snapshot);
        let first = self.opening(standing.answer(), &standing.outcome(), None)?;
        let (low, high) = standing.others_drawn;
        // On average, and the queues drawn at the others over the span.
        let numbers = format!(
            "{:.1} queued against their {:.1} (from {low} to {high}) over the last {span}",
            standing.queued, standing.others_mean
        );
        let why = standing.why(snapshot).map(|why| format!(" {why}.")).unwrap_or_default();
        let verdict = format!("{first}: {numbers}.{why}");
        self.slowed_verdict = Some(verdict.clone());
        Some((verdict, true))
    }
}
