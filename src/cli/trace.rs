//! `lbsim trace`: what a request trace is, before anything is simulated;
//! and `lbsim trace --generate`, the sample traces lbsim makes itself.

use super::output;
use super::source::ScenarioSource;
use lbsim::scenario::echo;
use lbsim::trace::{generate, Columns, Report, Shape, TraceOptions};
use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::path::PathBuf;

#[derive(Debug, PartialEq)]
pub enum TraceArgs {
    /// Summarise FILE, and its offered load on SCENARIO when given.
    Summarise { file: PathBuf, options: TraceOptions, scenario: Option<ScenarioSource>, json: bool },
    /// Write a sample trace.
    Generate { shape: Shape, rows: u64, seed: u64, out: PathBuf },
}

/// The most rows `--generate` writes: enough for a long trace, few enough
/// that a typo does not fill the disk.
const MOST_GENERATED_ROWS: u64 = 100_000_000;

pub fn parse(args: &[String]) -> Result<TraceArgs, String> {
    let mut file = None;
    let mut scenario = None;
    let mut options = TraceOptions::default();
    let mut json = false;
    let (mut shape, mut rows, mut seed, mut out) = (None, None, None, None);
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let mut value_of = |flag: &str| rest.next().cloned().ok_or_else(|| format!("{flag} needs a value"));
        match arg.as_str() {
            "--json" => json = true,
            flag if READING_OPTIONS.contains(&flag) => read_option(flag, &mut options, || value_of(flag))?,
            "--generate" => {
                let text = value_of(arg)?;
                shape = Some(Shape::parse(&text).ok_or_else(|| {
                    format!("--generate takes poisson, on-off or diurnal, not {}", echo(&text))
                })?)
            }
            "--rows" => rows = Some(whole(arg, &value_of(arg)?, 1..=MOST_GENERATED_ROWS)?),
            "--seed" => seed = Some(whole(arg, &value_of(arg)?, 0..=u64::MAX)?),
            "--out" => out = Some(PathBuf::from(value_of(arg)?)),
            flag if flag.starts_with("--") => return Err(format!("unknown option {}", echo(flag))),
            path if file.is_none() && shape.is_none() => file = Some(PathBuf::from(path)),
            source if scenario.is_none() && file.is_some() => scenario = Some(ScenarioSource::parse(source)?),
            extra => return Err(format!("unexpected argument {}", echo(extra))),
        }
    }
    if let Some(shape) = shape {
        if file.is_some() || json || options != TraceOptions::default() {
            return Err("trace --generate takes only --rows, --seed and --out".into());
        }
        let out = out.ok_or("trace --generate needs --out FILE")?;
        return Ok(TraceArgs::Generate { shape, rows: rows.unwrap_or(10_000), seed: seed.unwrap_or(1), out });
    }
    if rows.is_some() || seed.is_some() || out.is_some() {
        return Err("--rows, --seed and --out belong to trace --generate".into());
    }
    let file = file.ok_or("trace needs a FILE: a CSV or JSON-lines trace (see docs/traces.md)")?;
    Ok(TraceArgs::Summarise { file, options, scenario, json })
}

/// The options that say how to read a trace, taken by `lbsim trace` and by
/// every command that replays one.
pub const READING_OPTIONS: [&str; 3] = ["--trace-columns", "--trace-classes", "--trace-skip-bad"];

/// Reads one of [`READING_OPTIONS`], `flag`, into `options`; `value` gives
/// the text after it, for the two that take one.
pub fn read_option(
    flag: &str,
    options: &mut TraceOptions,
    value: impl FnOnce() -> Result<String, String>,
) -> Result<(), String> {
    match flag {
        "--trace-skip-bad" => options.skip_bad = true,
        "--trace-columns" => {
            options.columns =
                Columns::parse(&value()?).map_err(|e| format!("--trace-columns: {}", e.message))?
        }
        _ => options.classes = value()?.split(',').map(|c| c.trim().to_string()).collect(),
    }
    Ok(())
}

fn whole(flag: &str, text: &str, range: std::ops::RangeInclusive<u64>) -> Result<u64, String> {
    text.parse().ok().filter(|n| range.contains(n)).ok_or_else(|| {
        format!("{flag} takes a whole number from {} to {}, not {}", range.start(), range.end(), echo(text))
    })
}

pub fn run(args: &TraceArgs) -> Result<(), String> {
    match args {
        TraceArgs::Generate { shape, rows, seed, out } => {
            let file = File::create(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
            let mut writer = BufWriter::new(file);
            generate(*shape, *rows, *seed, &mut writer)
                .and_then(|()| writer.flush())
                .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
            output::note(format_args!("wrote {}\n", out.display()))
        }
        TraceArgs::Summarise { file, options, scenario, json } => {
            let scenario = scenario.as_ref().map(ScenarioSource::scenario).transpose()?;
            let shown = file.display();
            let opened = File::open(file).map_err(|e| format!("cannot open {shown}: {e}"))?;
            let size = opened.metadata().map_err(|e| format!("cannot read {shown}: {e}"))?.len();
            if size > options.max_bytes {
                return Err(format!(
                    "{shown}: the trace is {size} bytes, more than the limit of {} bytes",
                    options.max_bytes
                ));
            }
            let report = Report::read(&shown.to_string(), opened, options.clone(), |_| {})?;
            match json {
                true => output::line(report.json(scenario.as_ref())),
                false => output::out(report.text(scenario.as_ref())),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::args::tests::args;
    use super::*;

    #[test]
    fn parses_a_summary_and_a_generation() {
        let Ok(TraceArgs::Summarise { file, options, scenario, json }) =
            parse(&args("t.csv --trace-columns time=ts:ms --trace-skip-bad --json default"))
        else {
            panic!("not a summary")
        };
        assert_eq!((file, json, options.skip_bad), ("t.csv".into(), true, true));
        assert_eq!(options.columns, Columns::parse("time=ts:ms").unwrap());
        assert_eq!(scenario, Some(ScenarioSource::parse("default").unwrap()));
        assert_eq!(
            parse(&args("--generate on-off --rows 5 --seed 2 --out o.csv")),
            Ok(TraceArgs::Generate { shape: Shape::OnOff, rows: 5, seed: 2, out: "o.csv".into() })
        );
        for (line, error) in [
            ("", "trace needs a FILE"),
            ("t.csv --trace-columns when", "--trace-columns: `when` is not role=column"),
            ("--generate weekly --out o.csv", "--generate takes poisson, on-off or diurnal, not `weekly`"),
            ("--generate diurnal", "needs --out"),
            ("--generate diurnal --rows 0 --out o.csv", "--rows takes a whole number from 1"),
            ("t.csv --rows 3", "belong to trace --generate"),
            ("t.csv default extra", "unexpected argument `extra`"),
        ] {
            let given = parse(&args(line)).expect_err(line);
            assert!(given.contains(error), "{line}: {given}");
        }
    }
}
