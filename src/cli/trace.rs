//! `lbsim trace`: what a request trace is, before anything is simulated;
//! and `lbsim trace --generate`, the sample traces lbsim makes itself.

use super::output;
use super::source::ScenarioSource;
use super::trace_args::TraceCommand;
use lbsim::scenario::echo;
use lbsim::trace::{generate, Report, Shape, TraceOptions};
use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::path::PathBuf;

#[derive(Debug, PartialEq)]
pub enum TraceArgs {
    /// Summarise FILE, and its offered load on SCENARIO when given.
    Summarise {
        file: PathBuf,
        options: TraceOptions,
        scenario: Option<ScenarioSource>,
        /// Fields set on the scenario.
        sets: Vec<(String, String)>,
        json: bool,
    },
    /// Write a sample trace.
    Generate { shape: Shape, rows: u64, seed: u64, out: PathBuf },
}

/// The most rows `--generate` writes: enough for a long trace, few enough
/// that a typo does not fill the disk.
const MOST_GENERATED_ROWS: u64 = 100_000_000;

impl TraceArgs {
    /// What `lbsim trace` asks for: a summary, or with `--generate` a
    /// sample, whose options are not mixed.
    pub fn of(options: TraceCommand) -> Result<TraceArgs, String> {
        let TraceCommand { file, scenario, sets, reading, json, generate, rows, seed, out } = options;
        let reading = reading.options();
        if let Some(shape) = generate {
            if file.is_some()
                || scenario.is_some()
                || !sets.is_empty()
                || json
                || reading != TraceOptions::default()
            {
                return Err("trace --generate takes only --rows, --seed and --out".into());
            }
            let out = out.ok_or("trace --generate needs --out FILE")?;
            let rows = rows.map_or(Ok(10_000), |text| whole("--rows", &text, 1..=MOST_GENERATED_ROWS))?;
            let seed = seed.map_or(Ok(1), |text| whole("--seed", &text, 0..=u64::MAX))?;
            return Ok(TraceArgs::Generate { shape, rows, seed, out });
        }
        if rows.is_some() || seed.is_some() || out.is_some() {
            return Err("--rows, --seed and --out belong to trace --generate".into());
        }
        let file = file.ok_or("trace needs a FILE: a CSV or JSON-lines trace (see docs/traces.md)")?;
        if scenario.is_none() && !sets.is_empty() {
            return Err("--set sets a field of the SCENARIO after FILE, which is missing: lbsim trace FILE default --set servers=4".into());
        }
        Ok(TraceArgs::Summarise { file, options: reading, scenario, sets, json })
    }
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
        TraceArgs::Summarise { file, options, scenario, sets, json } => {
            let scenario = scenario.as_ref().map(|source| with_sets(source, sets)).transpose()?;
            let shown = file.display();
            let opened = lbsim::trace::open(file, options.max_bytes)?;
            let report = Report::read(&shown.to_string(), opened, options.clone(), |_| {})?;
            match json {
                true => output::line(report.json(scenario.as_ref())),
                false => output::out(report.text(scenario.as_ref())),
            }
        }
    }
}

/// `source`'s scenario with `sets` applied.
fn with_sets(source: &ScenarioSource, sets: &[(String, String)]) -> Result<lbsim::Scenario, String> {
    let mut scenario = source.scenario()?;
    scenario.set_many(sets.iter().map(|(k, v)| (k.as_str(), v.as_str()))).map_err(|e| e.to_string())?;
    Ok(scenario)
}

#[cfg(test)]
mod tests {
    use super::super::args::tests::args;
    use super::super::args::{parse, Command};
    use super::*;
    use lbsim::trace::Columns;

    /// `lbsim trace` with the words of `line`.
    fn trace(line: &str) -> Result<TraceArgs, String> {
        match parse(&args(&format!("trace {line}")))? {
            Command::Trace(trace) => Ok(trace),
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn parses_a_summary_and_a_generation() {
        let Ok(TraceArgs::Summarise { file, options, scenario, sets, json }) =
            trace("t.csv --trace-columns time=ts:ms --trace-skip-bad --json default --set servers=4")
        else {
            panic!("not a summary")
        };
        assert_eq!((file, json, options.skip_bad), ("t.csv".into(), true, true));
        assert_eq!(options.columns, Columns::parse("time=ts:ms").unwrap());
        assert_eq!(scenario, Some(ScenarioSource::parse("default").unwrap()));
        assert_eq!(sets, vec![("servers".to_string(), "4".to_string())]);
        assert_eq!(
            trace("--generate on-off --rows 5 --seed 2 --out o.csv"),
            Ok(TraceArgs::Generate { shape: Shape::OnOff, rows: 5, seed: 2, out: "o.csv".into() })
        );
        for (line, error) in [
            ("", "trace needs a FILE"),
            ("t.csv --trace-columns when", "--trace-columns: `when` is not role=column"),
            ("--generate weekly --out o.csv", "--generate takes poisson, on-off or diurnal, not `weekly`"),
            ("--generate diurnal", "needs --out"),
            ("--generate diurnal --rows 0 --out o.csv", "--rows takes a whole number from 1"),
            ("t.csv --rows 3", "belong to trace --generate"),
            ("t.csv default extra", "unexpected argument `extra`: trace takes FILE, SCENARIO and options"),
            ("t.csv --set servers=4", "--set sets a field of the SCENARIO after FILE, which is missing"),
        ] {
            let given = trace(line).expect_err(line);
            assert!(given.contains(error), "{line}: {given}");
        }
    }
}
