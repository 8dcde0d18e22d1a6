//! The spread of a comparison over seeds (`seeds=N`): a view with a twin
//! runs one pair of runs, so its two p99s land a few percent to either
//! side of each other by chance alone, and its picture cannot say "the
//! same within chance" (reader 13 saw repick at 88.9 against random's
//! 86.8 ms). Once the reader has answered the question (or where none is
//! asked, at once), the view runs the same pair again headless on more
//! seeds, its own first, a slice at a time within the frame's budget,
//! and draws each seed's p99 ratio as a dot beside a line at 1, so that
//! the reader sees how far one run strays and which way the many lean:
//! the explorables' way of showing chance (several runs, one dot each)
//! rather than saying it.
//!
//! Each run lasts [`RUN_S`], the span over which the explainer's claims
//! are checked (`tests/explainer_claims.rs` reads it from here), so the
//! dots of chapter 4 are the twenty seeds its prose's 0.997 ± 0.004 is
//! the mean of. Which dot is which seed, the ratio's axis, how dots
//! stack and the sentence under them are here; `web::spread_chart`
//! draws them.

use super::guess::Answer;
use super::twins::Sides;
use crate::metrics::Distribution;
use crate::time::Time;
use crate::{Scenario, Simulation};

/// Simulated seconds of each seed's runs.
pub const RUN_S: f64 = 30.0;
/// Events a slice of a run processes: about a millisecond's work in the
/// browser, so that a frame stops close to its budget.
pub const STEP_EVENTS: u64 = 2_000;
/// The most wall milliseconds of a frame the seeds take: with the page's
/// whole run-ahead budget (8 ms) a frame that ran them cost 10.1 ms at the
/// median and 36 ms at p95 (370 frames in 11.9 s, about 31 a second).
pub const FRAME_SHARE_MS: f64 = 4.0;
/// The most seeds a link may ask for.
pub const MOST_SEEDS: u32 = 50;
/// How many standard errors from 1 the seeds' mean ratio stands, at
/// least, for one tail to count as the longer: independent seeds put their
/// mean this far from the truth by chance about one time in twenty.
pub const CHANCE_ERRORS: f64 = 2.0;

/// One seed's two runs: the view's own and the twin's p99 queue time (ms).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dot {
    pub seed: u64,
    pub own_ms: f64,
    pub twin_ms: f64,
}

impl Dot {
    /// The own run's p99 over the twin's.
    pub fn ratio(&self) -> f64 {
        self.own_ms / self.twin_ms
    }
}

/// The seed's two runs under way.
struct Pair {
    seed: u64,
    own: Simulation,
    twin: Simulation,
}

/// The seeds' runs: those done (dots), the one under way, those to come.
pub struct Spread {
    own: Scenario,
    twin: Scenario,
    /// How many seeds, from the view's own on.
    seeds: u32,
    dots: Vec<Dot>,
    running: Option<Pair>,
    /// Whether the runs may go on (after the reader's answer).
    started: bool,
    /// A run that could not be made: no more dots come.
    stopped: bool,
    /// The wall milliseconds the last slice took, so that a frame stops
    /// before a slice would overrun its budget.
    step_wall_ms: f64,
}

impl Spread {
    /// The spread of `seeds` seeds of the view's `own` scenario against
    /// its `twin`, from the view's own seed on (the pictures' run is the
    /// first dot), each run [`RUN_S`] long; waiting until [`Spread::start`].
    pub fn new(own: &Scenario, twin: &Scenario, seeds: u32) -> Spread {
        let lasting = |scenario: &Scenario| Scenario { duration_s: RUN_S, ..scenario.clone() };
        Spread {
            own: lasting(own),
            twin: lasting(twin),
            seeds,
            dots: Vec::new(),
            running: None,
            started: false,
            stopped: false,
            step_wall_ms: 0.0,
        }
    }

    /// Whether this spread is of `own` against `twin` with `seeds` seeds
    /// (a change of settings that leaves them so keeps its dots).
    pub fn is_of(&self, own: &Scenario, twin: &Scenario, seeds: u32) -> bool {
        let other = Spread::new(own, twin, seeds);
        (self.own == other.own) && (self.twin == other.twin) && self.seeds == seeds
    }

    /// The runs may go on: the reader has answered, or skipped.
    pub fn start(&mut self) {
        self.started = true;
    }

    pub fn started(&self) -> bool {
        self.started
    }

    /// The seeds in the order they run: the view's own first.
    pub fn seeds(&self) -> impl Iterator<Item = u64> {
        let first = self.own.seed;
        (0..u64::from(self.seeds)).map(move |i| first.wrapping_add(i))
    }

    /// The seed the view's pictures run, whose dot is ringed.
    pub fn own_seed(&self) -> u64 {
        self.own.seed
    }

    pub fn dots(&self) -> &[Dot] {
        &self.dots
    }

    /// How many seeds are asked for.
    pub fn count(&self) -> u32 {
        self.seeds
    }

    /// Whether every seed has its dot, or no more can come.
    pub fn done(&self) -> bool {
        self.stopped || self.dots.len() >= self.seeds as usize
    }

    /// Whether the runs want frames: started and not done.
    pub fn pending(&self) -> bool {
        self.started && !self.done()
    }

    /// Runs slices until the wall clock `wall_ms` reads `until`, a slice at
    /// least each frame, as running ahead spreads over frames (see
    /// `run_ahead`); returns whether a dot came.
    pub fn run(&mut self, (wall_ms, until): (impl Fn() -> f64, f64)) -> bool {
        let before = self.dots.len();
        let mut stepped = false;
        while self.pending() && (!stepped || wall_ms() + self.step_wall_ms <= until) {
            let started = wall_ms();
            self.step();
            self.step_wall_ms = wall_ms() - started;
            stepped = true;
        }
        self.dots.len() > before
    }

    /// One slice: the own run first, then the twin's, each to [`RUN_S`];
    /// then the seed's dot, and the next seed's runs made.
    fn step(&mut self) {
        let end = Time::from_secs(RUN_S);
        let Some(pair) = &mut self.running else {
            let seed = self.seeds().nth(self.dots.len()).unwrap_or(self.own.seed);
            self.running = self.pair(seed);
            self.stopped = self.running.is_none();
            return;
        };
        for run in [&mut pair.own, &mut pair.twin] {
            if run.now() < end && run.halted().is_none() {
                run.advance_to(end, STEP_EVENTS);
                return;
            }
        }
        // The queue time's p99 as the summary reads it, without the rest
        // of a summary (theory, intervals, every server's share): at the
        // end of each seed it cost a frame a spike (bench.mjs's spread).
        let p99 = |run: &Simulation| Distribution::of(&run.metrics().queue_time.measured()).p99;
        self.dots.push(Dot { seed: pair.seed, own_ms: p99(&pair.own), twin_ms: p99(&pair.twin) });
        self.running = None;
    }

    /// Both runs of `seed`; none where either cannot be made (the view
    /// has made both on its own seed, so a seed alone cannot refuse them).
    fn pair(&self, seed: u64) -> Option<Pair> {
        let on = |scenario: &Scenario| Simulation::new(&Scenario { seed, ..scenario.clone() }).ok();
        Some(Pair { seed, own: on(&self.own)?, twin: on(&self.twin)? })
    }

    fn ratios(&self) -> Vec<f64> {
        self.dots.iter().map(Dot::ratio).collect()
    }

    /// Which tail the dots say is the longer, once they are all in: the
    /// own run's where their mean ratio stands more than
    /// [`CHANCE_ERRORS`] standard errors above 1, the twin's where it
    /// stands so far below, neither in between. `None` while they come,
    /// or with fewer than two.
    pub fn longer_tail(&self) -> Option<Answer> {
        let ratios = self.ratios();
        if !self.done() || ratios.len() < 2 {
            return None;
        }
        let (mean, se) = mean_and_error(&ratios);
        Some(match mean - 1.0 {
            above if above > CHANCE_ERRORS * se => Answer::Own,
            below if -below > CHANCE_ERRORS * se => Answer::Twin,
            _ => Answer::Same,
        })
    }

    /// What the dots show, as the sentence under them says it: "the p99
    /// with A is 0.96 to 1.05 times that with B", and, with two or more,
    /// "on average 0.997, that average known to ±0.004 (a standard
    /// error)": "give or take 0.004" under dots spread from 0.96 to 1.05
    /// read as their spread (reader 17).
    pub fn ratio_words(&self, sides: &Sides) -> (String, Option<String>) {
        let Sides { own, twin } = sides.in_prose();
        let ratios = self.ratios();
        let (least, most) = ratios.iter().fold((f64::INFINITY, 0.0_f64), |(l, m), r| (l.min(*r), m.max(*r)));
        let range = format!("the p99 with {own} is {least:.2} to {most:.2} times that with {twin}");
        let average = (ratios.len() >= 2).then(|| {
            let (mean, se) = mean_and_error(&ratios);
            format!("on average {mean:.3}, that average known to ±{se:.3} (a standard error)")
        });
        (range, average)
    }

    /// The sentence under the dots, naming the runs as the pictures do.
    pub fn words(&self, sides: &Sides) -> String {
        let Sides { own, twin } = sides.in_prose();
        let seconds = RUN_S;
        let ratios = self.ratios();
        if ratios.is_empty() {
            return match self.started {
                true => {
                    format!("Running {own} and {twin} on {} more seeds, {seconds:.0} s each…", self.seeds)
                }
                false => format!(
                    "Once you answer, {} seeds run {own} and {twin} for {seconds:.0} s each: one dot a seed.",
                    self.seeds
                ),
            };
        }
        let above = ratios.iter().filter(|r| **r > 1.0).count();
        let below = ratios.iter().filter(|r| **r < 1.0).count();
        let sides_of_one = match (above, below, ratios.len() - above - below) {
            (a, b, 0) if a == b => "as many above 1 as below".to_string(),
            (a, b, 0) => format!("{a} above 1, {b} below"),
            (a, b, at) => format!("{a} above 1, {b} below, {at} at 1"),
        };
        let (range, average) = self.ratio_words(sides);
        match (self.done(), average) {
            (false, _) => {
                format!("{} of {} seeds so far: {range}; {sides_of_one}.", ratios.len(), self.seeds)
            }
            (true, None) => format!("1 seed of {seconds:.0} s: {range}."),
            (true, Some(average)) => {
                format!("{} seeds of {seconds:.0} s: {range}; {sides_of_one}; {average}.", ratios.len())
            }
        }
    }
}

/// The mean of `values` and its standard error (they are independent
/// seeds), as the explainer's claims are estimated.
pub fn mean_and_error(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (variance / n).sqrt())
}

/// The ratio's axis: 1 in the middle, as far either side as the farthest
/// dot, rounded up to a step a tick reads plainly (at least ±0.05).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Axis {
    pub half_width: f64,
}

impl Axis {
    const STEPS: [f64; 6] = [0.05, 0.1, 0.2, 0.5, 1.0, 2.0];

    pub fn around(dots: &[Dot]) -> Axis {
        let farthest = dots.iter().map(|dot| (dot.ratio() - 1.0).abs()).fold(0.0, f64::max);
        let half_width = Axis::STEPS.into_iter().find(|step| farthest <= *step).unwrap_or(farthest);
        Axis { half_width }
    }

    /// Where `ratio` stands across the axis, 0 at its left end, 1 at its
    /// right.
    pub fn share(&self, ratio: f64) -> f64 {
        ((ratio - 1.0) / (2.0 * self.half_width) + 0.5).clamp(0.0, 1.0)
    }

    /// The ticks' ratios: both ends and 1.
    pub fn ticks(&self) -> [f64; 3] {
        [1.0 - self.half_width, 1.0, 1.0 + self.half_width]
    }
}

/// The row each dot is drawn in, in order: the lowest where no dot drawn
/// before stands within `dot_share` of it across the axis (its shares,
/// see [`Axis::share`]), so that dots at the same ratio stack rather
/// than hide each other; at most `rows`, the last taking the rest.
pub fn stack(shares: &[f64], dot_share: f64, rows: usize) -> Vec<usize> {
    let mut placed: Vec<(f64, usize)> = Vec::with_capacity(shares.len());
    for &share in shares {
        let free =
            (0..rows).find(|row| placed.iter().all(|(s, r)| r != row || (s - share).abs() >= dot_share));
        placed.push((share, free.unwrap_or(rows.saturating_sub(1))));
    }
    placed.into_iter().map(|(_, row)| row).collect()
}

#[cfg(test)]
mod tests;
