//! `--trace FILE` on run, compare, sweep, plot and capacity: the trace's
//! rows become the engine's arrivals ([`lbsim::engine::Arrival`]), read as
//! the run goes, so a long trace takes no more memory than a short one.
//!
//! A row's key is its number when it is a whole number, else a hash of its
//! text; its class is its place in `--trace-classes` (without them, a
//! scenario of one class takes every row as that class, whatever it
//! names, and one of several gives a class by its index: 0, 1, ...; see
//! [`unnamed_classes`]); `--trace-speed K` divides every time by K
//! (raising the load K times); `--trace-loop` plays the
//! trace again when it ends, each pass starting one mean gap after the
//! last row of the one before. A fault the reader meets mid-run stops the
//! command with the reader's message (row and column) once the run ends:
//! no figure of a partly read trace is printed. A capacity search reads
//! the trace through first, and searches over its speed.

use lbsim::capacity;
use lbsim::engine::{Arrival, Replay};
use lbsim::scenario::echo;
use lbsim::trace::replay::{unnamed_classes, Playback, SPEEDS};
use lbsim::trace::{Fault, Skipped, TraceError, TraceOptions, TraceReader, TraceSummary};
use lbsim::Scenario;
use std::cell::RefCell;
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// A trace to replay, and how.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceReplay {
    pub file: PathBuf,
    pub options: TraceOptions,
    /// Times are divided by this (more than 0).
    pub speed: f64,
    pub looped: bool,
}

/// What a replay found wrong, or left out, once it has run.
#[derive(Default)]
pub struct Outcome {
    error: Option<TraceError>,
    skipped: Skipped,
}

impl TraceReplay {
    /// The `--trace-speed` value from its text.
    pub fn speed(text: &str) -> Result<f64, String> {
        text.parse::<f64>().ok().filter(|k| (SPEEDS.0..=SPEEDS.1).contains(k)).ok_or_else(|| {
            format!("--trace-speed takes a number from {} to {}, not {}", SPEEDS.0, SPEEDS.1, echo(text))
        })
    }

    /// The trace's arrivals for one run of a scenario of `classes` request
    /// classes, and where the run's outcome will be told. Fails at once on
    /// a trace that cannot be opened or whose header is wrong.
    pub fn arrivals(&self, classes: usize) -> Result<(Replay, Rc<RefCell<Outcome>>), String> {
        let mut trace = self.clone();
        let named = &mut trace.options.classes;
        if named.len() > classes {
            return Err(format!(
                "--trace-classes names {} classes and the scenario has {classes} (class_shares): give it as many",
                named.len()
            ));
        }
        if named.is_empty() {
            *named = unnamed_classes(classes);
        }
        let outcome = Rc::new(RefCell::new(Outcome::default()));
        let first = trace.open()?;
        let playback = Playback::new(trace.speed, trace.looped);
        let rows = Rows { trace, reader: first, playback, outcome: Rc::clone(&outcome) };
        Ok((Box::new(rows), outcome))
    }

    fn open(&self) -> Result<TraceReader<BufReader<File>>, String> {
        let shown = self.file.display();
        let file = File::open(&self.file).map_err(|e| format!("cannot open trace {shown}: {e}"))?;
        TraceReader::new(BufReader::new(file), self.options.clone()).map_err(|e| format!("{shown}: {e}"))
    }

    /// What a report says of the replay, before the figures.
    pub fn describe(&self) -> String {
        let looped = if self.looped { ", looped" } else { "" };
        format!(
            "replaying {} at speed {}{looped}: each row one request; the scenario's load, demand and session_length are not used\n",
            self.file.display(),
            self.speed
        )
    }

    /// The load the trace offers `scenario`'s servers at speed 1, and its
    /// rate: read through once, so that a bad row stops the command before
    /// any run rather than cutting a run short.
    pub fn offered(&self, scenario: &Scenario) -> Result<(f64, f64), String> {
        let shown = self.file.display();
        let mut reader = self.open()?;
        let mut fault = None;
        let rows = reader.by_ref().map_while(|row| row.map_err(|e| fault = Some(e)).ok());
        let summary = TraceSummary::of(rows);
        if let Some(error) = fault {
            return Err(format!("{shown}: {error}"));
        }
        match (summary.offered_load(scenario), summary.rate_per_s) {
            (Some(load), Some(rate)) if load > 0.0 => Ok((load, rate)),
            _ => Err(format!("{shown}: the trace has no rate to scale (it needs rows at two times or more)")),
        }
    }

    /// What a capacity search on the trace reports first: what a load
    /// means, and each policy's capacity as a speed of the trace.
    pub fn describe_search(
        &self,
        at_speed_1: f64,
        outcomes: &[capacity::Outcome],
        speeds: &[Option<f64>],
    ) -> String {
        let mut out = format!(
            "searching over the speed of {}: at speed 1 it offers load {at_speed_1:.3}, so load x is speed x / {at_speed_1:.3} (looped)\n",
            self.file.display()
        );
        for (o, speed) in outcomes.iter().zip(speeds) {
            let speed = speed.map_or("below the lowest load".to_string(), |k| format!("{k:.3}"));
            out += &format!("  {}: the trace at speed {speed}\n", o.policy);
        }
        out
    }

    /// The error that stopped the replay, if one did; else a note of the
    /// rows `--trace-skip-bad` left out, if any.
    pub fn finish(&self, outcome: &Rc<RefCell<Outcome>>) -> Result<Option<String>, String> {
        let outcome = outcome.borrow();
        let shown = self.file.display();
        if let Some(error) = &outcome.error {
            let hint = match error.fault {
                Fault::UnknownClass if self.options.classes.is_empty() => {
                    " (name the trace's classes with --trace-classes, in the order of the scenario's class_shares)"
                }
                _ => "",
            };
            return Err(format!("{shown}: {error}{hint}"));
        }
        Ok((outcome.skipped.total() > 0).then(|| format!("{shown}: {}", outcome.skipped)))
    }
}

/// Writes a run's requests as a trace, a chunk at a time: the time each
/// was created (seconds), its key, its class (as its index) and its
/// service time at speed 1 (milliseconds), each to the nanosecond.
pub struct Recorder {
    path: PathBuf,
    out: BufWriter<File>,
    failed: Option<std::io::Error>,
}

impl Recorder {
    pub fn create(path: &Path, scenario: &str) -> Result<Recorder, String> {
        let file = File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let mut recorder = Recorder { path: path.to_path_buf(), out: BufWriter::new(file), failed: None };
        recorder.put(format_args!("# recorded by lbsim from {scenario}\ntime_s,key,class,service_ms\n"));
        Ok(recorder)
    }

    pub fn write(&mut self, arrivals: &[Arrival]) {
        for a in arrivals {
            let (key, class) = (a.key.unwrap_or_default(), a.class.unwrap_or_default());
            let service = a.service.unwrap_or_default().0;
            let (at, ms) = (a.at.0, service / 1_000_000);
            self.put(format_args!(
                "{}.{:09},{key},{class},{ms}.{:06}\n",
                at / 1_000_000_000,
                at % 1_000_000_000,
                service % 1_000_000
            ));
        }
    }

    fn put(&mut self, text: std::fmt::Arguments) {
        if self.failed.is_none() {
            self.failed = self.out.write_fmt(text).err();
        }
    }

    /// Flushes the file; says where it went, or why it could not.
    pub fn finish(mut self) -> Result<String, String> {
        if self.failed.is_none() {
            self.failed = self.out.flush().err();
        }
        match self.failed {
            Some(e) => Err(format!("cannot write {}: {e}", self.path.display())),
            None => Ok(format!("wrote {}", self.path.display())),
        }
    }
}

struct Rows {
    trace: TraceReplay,
    reader: TraceReader<BufReader<File>>,
    playback: Playback,
    outcome: Rc<RefCell<Outcome>>,
}

impl Iterator for Rows {
    type Item = Arrival;

    fn next(&mut self) -> Option<Arrival> {
        match self.reader.next() {
            Some(Ok(row)) => Some(self.playback.play(&row.recorded(&self.trace.options.classes))),
            Some(Err(error)) => {
                self.outcome.borrow_mut().error = Some(error);
                None
            }
            None => {
                self.outcome.borrow_mut().skipped = self.reader.skipped().clone();
                if !self.playback.again() {
                    return None;
                }
                self.reader = self.trace.open().ok()?;
                self.next()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_speed_is_a_positive_number_in_range() {
        assert_eq!(TraceReplay::speed("2.5"), Ok(2.5));
        for bad in ["0", "-1", "fast", "1e9"] {
            assert!(TraceReplay::speed(bad).unwrap_err().contains("--trace-speed takes"), "{bad}");
        }
    }
}
