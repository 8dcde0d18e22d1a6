//! `--trace FILE` on run, compare, sweep, plot and capacity: the trace's
//! rows become the engine's arrivals ([`lbsim::engine::Arrival`]), read as
//! the run goes, so a long trace takes no more memory than a short one.
//!
//! A row's key is its number when it is a whole number, else a hash of its
//! text; its class is its place in `--trace-classes` (without them, a
//! scenario of one class takes every row as that class, whatever it
//! names, and one of several gives a class by its index: 0, 1, ...; see
//! [`lbsim::trace::replay::unnamed_classes`]); `--trace-speed K` divides every time by K
//! (raising the load K times); `--trace-loop` plays the
//! trace again when it ends, each pass starting one mean gap after the
//! last row of the one before. A fault the reader meets mid-run stops the
//! command with the reader's message (row and column) once the run ends:
//! no figure of a partly read trace is printed. A capacity search reads
//! the trace through first, and searches over its speed.

use lbsim::capacity;
use lbsim::engine::{Arrival, Replay};
use lbsim::scenario::duration::LATEST_S;
use lbsim::scenario::echo;
use lbsim::scenario::fields::three_figures;
use lbsim::trace::replay::{classes_to_read, fnv1a, longest_run_s, Playback, SPEEDS};
use lbsim::trace::{Fault, Skipped, TraceError, TraceOptions, TraceReader, TraceSummary};
use lbsim::{Scenario, Time};
use std::cell::RefCell;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
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
    /// The first row's time in the trace, and when it arrives in the run.
    first: Option<(Time, Time)>,
}

impl TraceReplay {
    /// The `--trace-speed` value from its text.
    pub fn speed(text: &str) -> Result<f64, String> {
        text.parse::<f64>().ok().filter(|k| (SPEEDS.0..=SPEEDS.1).contains(k)).ok_or_else(|| {
            format!("--trace-speed takes a number from {} to {}, not {}", SPEEDS.0, SPEEDS.1, echo(text))
        })
    }

    /// Refuses a looped replay whose run of `duration_s` would play more
    /// trace time than a replay counts (2^64 ns, about 584 years): past
    /// it the replay would end, leaving the rest of the run without arrivals.
    pub fn fits(&self, duration_s: f64) -> Result<(), String> {
        let longest_s = longest_run_s(self.speed);
        if !self.looped || duration_s <= longest_s {
            return Ok(());
        }
        Err(format!(
            "--trace-loop at --trace-speed {} over {duration_s} simulated s plays {:.3e} s of the trace, more than the {:.3e} s (584 years) a replay counts: give --duration {} or less, or a lower --trace-speed",
            self.speed,
            duration_s * self.speed,
            longest_run_s(1.0),
            longest_s.floor()
        ))
    }

    /// Refuses a trace that is not a regular file (a pipe, a FIFO,
    /// `/dev/stdin`) when the command reads it more than once (`rereads`
    /// says why) or loops it: such a file gives its rows once, so a second
    /// run would read what the first left.
    pub fn readable_again(&self, rereads: Option<&str>) -> Result<(), String> {
        let looped = self.looped.then_some("--trace-loop reads it again for each pass");
        let Some(why) = rereads.or(looped) else { return Ok(()) };
        match std::fs::metadata(&self.file) {
            Ok(meta) if !meta.is_file() => Err(format!(
                "--trace {} is not a regular file and can be read only once, but {why}: save it to a file first",
                self.file.display()
            )),
            // A file that cannot be opened is told when it is opened.
            _ => Ok(()),
        }
    }

    /// The trace, file, speed and looping as a sweep's rows record them,
    /// with the FNV-1a hash of its bytes (as `lbsim trace` gives it), so
    /// that a row names the very data it replayed.
    pub fn provenance(&self) -> Result<serde_json::Value, String> {
        let shown = self.file.display();
        let mut file = File::open(&self.file).map_err(|e| format!("cannot open trace {shown}: {e}"))?;
        let (mut hash, mut chunk) = (0xcbf2_9ce4_8422_2325, vec![0; 1 << 16]);
        loop {
            match file.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => hash = fnv1a(hash, &chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(format!("cannot read trace {shown}: {e}")),
            }
        }
        Ok(serde_json::json!({
            "file": self.file, "speed": self.speed, "looped": self.looped, "hash": format!("{hash:016x}"),
        }))
    }

    /// The trace's arrivals for one run of a scenario of `classes` request
    /// classes, and where the run's outcome will be told. Fails at once on
    /// a trace that cannot be opened or whose header is wrong.
    pub fn arrivals(&self, classes: usize) -> Result<(Replay, Rc<RefCell<Outcome>>), String> {
        let trace = self.with_classes(classes)?;
        let outcome = Rc::new(RefCell::new(Outcome::default()));
        let first = trace.open()?;
        let playback = Playback::new(trace.speed, trace.looped);
        let rows = Rows { trace, reader: first, playback, outcome: Rc::clone(&outcome) };
        Ok((Box::new(rows), outcome))
    }

    /// The trace as a scenario of `classes` request classes reads it: the
    /// classes named, or else [`lbsim::trace::replay::unnamed_classes`].
    fn with_classes(&self, classes: usize) -> Result<TraceReplay, String> {
        let mut trace = self.clone();
        trace.options.classes = classes_to_read(&self.options.classes, classes, "--trace-classes")?;
        Ok(trace)
    }

    fn open(&self) -> Result<TraceReader<BufReader<File>>, String> {
        let shown = self.file.display();
        let file = lbsim::trace::open(&self.file, self.options.max_bytes)?;
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
        let trace = self.with_classes(scenario.class_shares.len())?;
        let mut reader = trace.open()?;
        let mut fault = None;
        let rows = reader.by_ref().map_while(|row| row.map_err(|e| fault = Some(e)).ok());
        let summary = TraceSummary::of(rows);
        if let Some(error) = fault {
            return Err(format!("{shown}: {error}"));
        }
        match (summary.offered_load(scenario, &trace.options.classes), summary.rate_per_s) {
            (Some(load), Some(rate)) if load > 0.0 => Ok((load, rate)),
            _ => Err(format!("{shown}: the trace has no rate to scale (it needs rows at two times or more)")),
        }
    }

    /// Refuses a capacity search the trace cannot make at the speeds
    /// `--trace-speed` takes: load x is speed x / `at_speed_1`, for every
    /// load searched, and the longest probe, looped at the highest speed,
    /// must stay within the trace time a replay counts.
    pub fn searchable(&self, at_speed_1: f64, duration_s: f64) -> Result<(), String> {
        let (slowest, fastest) = (capacity::LOWEST / at_speed_1, capacity::HIGHEST / at_speed_1);
        if slowest < SPEEDS.0 || fastest > SPEEDS.1 {
            return Err(format!(
                "{}: at speed 1 it offers load {}, so the loads capacity searches ({} to {}) need speeds {} to {}, and --trace-speed takes {} to {}: fewer servers or slots raise the load it offers, more lower it",
                self.file.display(),
                three_figures(at_speed_1),
                capacity::LOWEST,
                capacity::HIGHEST,
                three_figures(slowest),
                three_figures(fastest),
                SPEEDS.0,
                SPEEDS.1
            ));
        }
        let fastest = TraceReplay { speed: fastest, looped: true, ..self.clone() };
        fastest.fits(duration_s * capacity::LONGER).map_err(|e| format!("capacity's longest probe: {e}"))
    }

    /// What a capacity search on the trace reports first: what a load
    /// means, and each policy's capacity as a speed of the trace.
    pub fn describe_search(
        &self,
        at_speed_1: f64,
        outcomes: &[capacity::Outcome],
        speeds: &[Option<f64>],
    ) -> String {
        let load = three_figures(at_speed_1);
        let mut out = format!(
            "searching over the speed of {}: at speed 1 it offers load {load}, so load x is speed x / {load} (looped)\n",
            self.file.display()
        );
        for (o, speed) in outcomes.iter().zip(speeds) {
            let speed = speed.map_or("below the lowest load".to_string(), three_figures);
            out += &format!("  {}: the trace at speed {speed}\n", o.policy);
        }
        out
    }

    /// The error that stopped the replay, if one did, or the first row
    /// that came after the run's `end` (times such as epoch seconds, which
    /// count from long before the run's start); else a note of the rows
    /// `--trace-skip-bad` left out, if any.
    pub fn finish(&self, outcome: &Rc<RefCell<Outcome>>, end: Time) -> Result<Option<String>, String> {
        let outcome = outcome.borrow();
        let shown = self.file.display();
        if let Some((row, at)) = outcome.first.filter(|(_, at)| *at > end) {
            let arrives = match self.speed == 1.0 {
                true => String::new(),
                false => format!(" (at speed {}, {} s into the run)", self.speed, at.as_secs()),
            };
            let longer = match at.as_secs() < LATEST_S {
                true => format!(", or give --duration over {}", at.as_secs()),
                false => String::new(),
            };
            return Err(format!(
                "{shown}: the first row is at {} s{arrives}, after the run's end at {} s, so no request arrived: a replay's times count from the run's start, so subtract the first row's time from each{longer}",
                row.as_secs(),
                end.as_secs()
            ));
        }
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
/// service time at speed 1 (milliseconds), each to the nanosecond. A
/// regular file is written under a name of its own beside it
/// (`FILE.partial`) and takes its name only once the run has succeeded, so
/// a run that stops leaves no recording that looks whole.
pub struct Recorder {
    path: PathBuf,
    /// The name written until the run succeeds; `None` for a pipe or a
    /// device, written as the run goes.
    partial: Option<PathBuf>,
    out: BufWriter<File>,
    failed: Option<std::io::Error>,
}

impl Recorder {
    /// Starts a recording of `scenario`'s run to `path` (never empty: the
    /// parser refuses that); refuses the file `--trace` reads (under any
    /// name), which creating the recording would empty before it is read.
    pub fn create(path: &Path, scenario: &str, trace: Option<&TraceReplay>) -> Result<Recorder, String> {
        if let Some(trace) = trace.filter(|t| same_file(path, &t.file)) {
            return Err(format!(
                "--record-trace {} is the file --trace {} reads: recording would empty it before it is read; record to another file",
                path.display(),
                trace.file.display()
            ));
        }
        let regular = std::fs::metadata(path).map_or(true, |m| m.is_file());
        let partial = regular.then(|| {
            let mut name = path.as_os_str().to_owned();
            name.push(".partial");
            PathBuf::from(name)
        });
        let written = partial.as_deref().unwrap_or(path);
        let file = File::create(written).map_err(|e| format!("cannot write {}: {e}", written.display()))?;
        let out = BufWriter::new(file);
        let mut recorder = Recorder { path: path.to_path_buf(), partial, out, failed: None };
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

    /// Flushes the file and gives it its name; says where it went, or why
    /// it could not.
    pub fn finish(mut self) -> Result<String, String> {
        if self.failed.is_none() {
            self.failed = self.out.flush().err();
        }
        if let (None, Some(partial)) = (&self.failed, &self.partial) {
            self.failed = std::fs::rename(partial, &self.path).err();
        }
        match self.failed {
            Some(e) => Err(format!("cannot write {}: {e}", self.path.display())),
            None => Ok(format!("wrote {}", self.path.display())),
        }
    }

    /// The run failed: removes what was written, and says so.
    pub fn abandon(self) -> String {
        let shown = self.path.display();
        match &self.partial {
            Some(partial) => {
                let _ = std::fs::remove_file(partial);
                format!("no recording was written to {shown}")
            }
            None => format!("what was written to {shown} is a partial recording"),
        }
    }
}

/// Whether two paths name one file: the same device and inode, so that
/// a link or another spelling of the path is caught too.
#[cfg(unix)]
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    }
}

/// Whether two paths name one file, as their canonical forms say.
#[cfg(not(unix))]
fn same_file(a: &Path, b: &Path) -> bool {
    matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b)
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
            Some(Ok(row)) => {
                let arrival = self.playback.play(&row.recorded(&self.trace.options.classes))?;
                self.outcome.borrow_mut().first.get_or_insert((row.time, arrival.at));
                Some(arrival)
            }
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
