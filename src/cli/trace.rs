//! `lbsim trace`: what a request trace is, before anything is simulated;
//! and `lbsim trace --generate`, the sample traces lbsim makes itself.

use super::output;
use super::source::ScenarioSource;
use lbsim::scenario::echo;
use lbsim::trace::{
    generate, Columns, ServiceUnit, Shape, TimeFormat, TraceOptions, TraceReader, TraceSummary,
};
use lbsim::Scenario;
use std::fmt::Write as _;
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
            let mut reader =
                TraceReader::new(opened, options.clone()).map_err(|e| format!("{shown}: {e}"))?;
            let mut error = None;
            let summary =
                TraceSummary::of(reader.by_ref().map_while(|row| row.map_err(|e| error = Some(e)).ok()));
            if let Some(error) = error {
                return Err(format!("{shown}: {error}"));
            }
            let skipped = reader.skipped();
            let columns = columns_read(reader.columns(), reader.time_format());
            let offered = scenario.as_ref().and_then(|s| summary.offered_load(s));
            if *json {
                let by_fault: Vec<_> = skipped
                    .by_fault()
                    .iter()
                    .map(|(fault, rows, first)| {
                        serde_json::json!({ "reason": fault.reason(), "rows": rows, "first": first.to_string() })
                    })
                    .collect();
                let out = serde_json::json!({
                    "file": file,
                    "columns": columns
                        .iter()
                        .map(|(role, name, how)| (role.to_string(), serde_json::json!({ "name": name, "as": how })))
                        .collect::<serde_json::Map<_, _>>(),
                    "summary": summary,
                    "skipped": { "rows": skipped.total(), "by_reason": by_fault },
                    "offered_load": offered,
                });
                output::line(out)
            } else {
                let read: Vec<String> = columns
                    .iter()
                    .map(|(role, name, how)| match how {
                        Some(how) => format!("{role} {} ({how})", echo(name)),
                        None => format!("{role} {}", echo(name)),
                    })
                    .collect();
                let mut text = describe(&file.display().to_string(), &read.join(", "), &summary);
                if let (Some(scenario), Some(offered)) = (&scenario, offered) {
                    text += &offered_load(scenario, offered);
                }
                if skipped.total() > 0 {
                    let _ = writeln!(text, "{skipped}");
                }
                output::out(text)
            }
        }
    }
}

/// The summary for people, and the columns as read.
fn describe(file: &str, columns: &str, s: &TraceSummary) -> String {
    let mut out = String::new();
    let rate =
        s.rate_per_s.map_or("no rate (every arrival at one instant)".into(), |r| format!("{r:.2} a second"));
    let _ = writeln!(
        out,
        "trace {file}: {} requests over {:.3} s, {rate} (first at {:.3} s, last at {:.3} s)",
        s.requests, s.duration_s, s.first_s, s.last_s
    );
    let _ = writeln!(out, "columns read: {columns}");
    let per_s = &s.rate_over_time.per_s;
    let highest = per_s.iter().copied().fold(0.0, f64::max);
    let lowest = per_s.iter().copied().fold(f64::INFINITY, f64::min);
    let _ = writeln!(
        out,
        "rate over time, a second, in {} bins of {} s: {lowest:.1} to {highest:.1} (the last bin may be cut short)\n  {}",
        per_s.len(),
        s.rate_over_time.bin_s,
        sparkline(per_s)
    );
    if !s.dispersion.is_empty() {
        let _ = writeln!(
            out,
            "index of dispersion of counts (variance / mean of arrivals a window; Poisson gives 1):"
        );
        for d in &s.dispersion {
            let _ = writeln!(
                out,
                "  {:>5} s windows: {:.3} (Poisson 1 ± {:.3}; {} windows of {:.2} arrivals on average)",
                d.window_s, d.index, d.poisson_standard_error, d.windows, d.mean_count
            );
        }
    }
    if let Some(t) = &s.service {
        let _ = writeln!(
            out,
            "service time, ms ({} rows with one): mean {:.3} · p50 {:.3} · p90 {:.3} · p99 {:.3} · coefficient of variation {:.3}",
            t.requests, t.mean_ms, t.p50_ms, t.p90_ms, t.p99_ms, t.cv
        );
    }
    if !s.classes.is_empty() {
        let _ = writeln!(
            out,
            "{:<20}{:>10}{:>20}{:>16}",
            "class", "requests", "share of requests", "share of work"
        );
        for c in &s.classes {
            let work = c.work_share.map_or("n/a".into(), |w| format!("{:.2}%", 100.0 * w));
            let _ = writeln!(
                out,
                "{:<20}{:>10}{:>19.2}%{:>16}",
                c.class,
                c.requests,
                100.0 * c.request_share,
                work
            );
        }
    }
    if let Some(k) = &s.keys {
        let distinct = if k.exact {
            format!("{} distinct (exact counts)", k.distinct)
        } else {
            format!(
                "more than {} distinct (counts of the top keys may be over by the amount shown)",
                k.counters
            )
        };
        let top: Vec<String> = k
            .top
            .iter()
            .map(|t| {
                let over = if t.overcount > 0 { format!(" (+≤{})", t.overcount) } else { String::new() };
                format!("{} {:.2}%{over}", t.key, 100.0 * t.share)
            })
            .collect();
        let _ = writeln!(out, "keys ({} rows with one): {distinct}; top: {}", k.requests, top.join(", "));
        if let Some(z) = &k.zipf {
            let _ = writeln!(
                out,
                "  Zipf exponent {:.3} ± {:.3} (maximum likelihood over the top {} keys)",
                z.exponent, z.standard_error, z.ranks
            );
        }
    }
    out
}

/// Each role's column as read, and how it is read when that varies:
/// `("time", "ts", Some("rfc3339"))`.
fn columns_read(
    columns: &Columns,
    format: Option<TimeFormat>,
) -> Vec<(&'static str, &str, Option<&'static str>)> {
    let mut read = Vec::new();
    if let Some(time) = &columns.time {
        let how = match format {
            Some(TimeFormat::Seconds) => "seconds",
            Some(TimeFormat::Milliseconds) => "milliseconds",
            Some(TimeFormat::Rfc3339) => "rfc3339",
            None => "unread",
        };
        read.push(("time", time.name.as_str(), Some(how)));
    }
    for (role, name) in [("key", &columns.key), ("class", &columns.class)] {
        if let Some(name) = name {
            read.push((role, name.as_str(), None));
        }
    }
    if let Some(service) = &columns.service {
        let unit = if service.unit == Some(ServiceUnit::Seconds) { "seconds" } else { "milliseconds" };
        read.push(("service", service.name.as_str(), Some(unit)));
    }
    read
}

fn offered_load(scenario: &Scenario, offered: f64) -> String {
    let speeds: f64 = (0..scenario.servers as usize).map(|i| scenario.speed_of(i)).sum();
    format!(
        "offered load on {} servers × {} slots (summed speed {speeds}): {offered:.3} (rate × mean service time / (summed speed × slots))\n",
        scenario.servers, scenario.slots
    )
}

/// Values as a line of block characters, the highest a full block.
fn sparkline(values: &[f64]) -> String {
    const BLOCKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let highest = values.iter().copied().fold(0.0, f64::max);
    values
        .iter()
        .map(|v| if highest > 0.0 { BLOCKS[((v / highest) * 7.0).round() as usize] } else { BLOCKS[0] })
        .collect()
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

    #[test]
    fn a_sparkline_scales_to_the_highest() {
        assert_eq!(sparkline(&[0.0, 1.0, 2.0]), "▁▅█");
        assert_eq!(sparkline(&[0.0, 0.0]), "▁▁");
    }
}
