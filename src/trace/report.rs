//! A trace read through once: what `lbsim trace` prints, and what the
//! lab shows beside a dropped trace, from the same code. The file's size
//! and FNV-1a hash are taken as it is read, so that a link to a replay
//! can name the trace it needs and the lab can tell whether a file is it.

use super::error::Skipped;
use super::reader::{TraceOptions, TraceReader, TraceRow};
use super::replay::fnv1a;
use super::summary::{RateOverTime, TraceSummary};
use super::{Columns, ServiceUnit, TimeFormat};
use crate::scenario::echo;
use crate::scenario::fields::three_figures;
use crate::Scenario;
use std::cell::Cell;
use std::fmt::Write as _;
use std::io::{self, Read};
use std::rc::Rc;

/// A trace read through.
pub struct Report {
    /// The name it is shown by.
    pub file: String,
    pub bytes: u64,
    /// The 64-bit FNV-1a hash of its bytes.
    pub hash: u64,
    pub summary: TraceSummary,
    /// Each role's column, and how it is read when that varies:
    /// `("time", "ts", Some("rfc3339"))`.
    pub columns: Vec<(&'static str, String, Option<&'static str>)>,
    pub skipped: Skipped,
    /// The classes it was read with (`--trace-classes`), which say the
    /// scenario's class each row's class is.
    pub named_classes: Vec<String>,
}

impl Report {
    /// Reads the trace `source`, shown as `file`, through, handing each
    /// row to `keep` as it goes; fails with the first fault, its row and
    /// column named.
    pub fn read<R: Read>(
        file: &str,
        source: R,
        options: TraceOptions,
        mut keep: impl FnMut(&TraceRow),
    ) -> Result<Report, String> {
        let named_classes = options.classes.clone();
        let digest = Rc::new(Cell::new((0, 0xcbf2_9ce4_8422_2325)));
        let source = Digesting { inner: source, digest: Rc::clone(&digest) };
        let mut reader = TraceReader::new(source, options).map_err(|e| format!("{file}: {e}"))?;
        let mut error = None;
        let rows =
            reader.by_ref().map_while(|row| row.map_err(|e| error = Some(e)).ok()).inspect(|row| keep(row));
        let summary = TraceSummary::of(rows);
        if let Some(error) = error {
            return Err(format!("{file}: {error}"));
        }
        let columns = columns_read(reader.columns(), reader.time_format());
        let (bytes, hash) = digest.get();
        Ok(Report {
            file: file.to_string(),
            bytes,
            hash,
            summary,
            columns,
            skipped: reader.skipped().clone(),
            named_classes,
        })
    }

    /// The hash as links write it: 16 hexadecimal digits.
    pub fn hash_text(&self) -> String {
        format!("{:016x}", self.hash)
    }

    /// The report for people; with a scenario, the load it would offer it.
    pub fn text(&self, scenario: Option<&Scenario>) -> String {
        let read: Vec<String> = self
            .columns
            .iter()
            .map(|(role, name, how)| match how {
                Some(how) => format!("{role} {} ({how})", echo(name)),
                None => format!("{role} {}", echo(name)),
            })
            .collect();
        let mut text = describe(self, &read.join(", "));
        if let Some((scenario, offered)) =
            scenario.and_then(|s| Some((s, self.summary.offered_load(s, &self.named_classes)?)))
        {
            text += &offered_load(scenario, offered);
        }
        if self.skipped.total() > 0 {
            let _ = writeln!(text, "{}", self.skipped);
        }
        text
    }

    /// The report as JSON; with a scenario, the load it would offer it.
    pub fn json(&self, scenario: Option<&Scenario>) -> serde_json::Value {
        let by_fault: Vec<_> = self
            .skipped
            .by_fault()
            .iter()
            .map(|(fault, rows, first)| {
                serde_json::json!({ "reason": fault.reason(), "rows": rows, "first": first.to_string() })
            })
            .collect();
        serde_json::json!({
            "file": self.file,
            "bytes": self.bytes,
            "hash": self.hash_text(),
            "columns": self
                .columns
                .iter()
                .map(|(role, name, how)| (role.to_string(), serde_json::json!({ "name": name, "as": how })))
                .collect::<serde_json::Map<_, _>>(),
            "summary": self.summary,
            "skipped": { "rows": self.skipped.total(), "by_reason": by_fault },
            "offered_load": scenario.and_then(|s| self.summary.offered_load(s, &self.named_classes)),
        })
    }
}

/// A source that counts and hashes the bytes read from it.
struct Digesting<R> {
    inner: R,
    digest: Rc<Cell<(u64, u64)>>,
}

impl<R: Read> Read for Digesting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let read = self.inner.read(buf)?;
        let (bytes, hash) = self.digest.get();
        self.digest.set((bytes + read as u64, fnv1a(hash, &buf[..read])));
        Ok(read)
    }
}

/// The summary for people, and the columns as read.
fn describe(report: &Report, columns: &str) -> String {
    let (s, file) = (&report.summary, &report.file);
    let mut out = String::new();
    let _ = writeln!(out, "trace {file}: {}", span(s));
    let _ = writeln!(out, "file: {} bytes, FNV-1a hash {}", report.bytes, report.hash_text());
    let _ = writeln!(out, "columns read: {columns}");
    if let Some(line) = rate_over_time(&s.rate_over_time) {
        let _ = writeln!(out, "{line}");
    }
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

/// The requests, their span and their rate; a rate needs rows at two
/// times, so one row, or rows all at one instant, say so instead.
fn span(s: &TraceSummary) -> String {
    match (s.requests, s.rate_per_s) {
        (1, _) => format!("1 request, at {:.3} s; a rate needs two rows or more", s.first_s),
        (n, None) => {
            format!("{n} requests, all at {:.3} s; a rate needs rows at two times or more", s.first_s)
        }
        (n, Some(rate)) => format!(
            "{n} requests over {:.3} s, {rate:.2} a second (first at {:.3} s, last at {:.3} s)",
            s.duration_s, s.first_s, s.last_s
        ),
    }
}

/// The rate over time's range and sparkline; `None` without bins.
fn rate_over_time(rates: &RateOverTime) -> Option<String> {
    let per_s = &rates.per_s;
    let highest = per_s.iter().copied().reduce(f64::max)?;
    let lowest = per_s.iter().copied().fold(f64::INFINITY, f64::min);
    let last = match rates.last_bin_s < rates.bin_s {
        true => format!(", the last {:.3} s to a mean gap past the last arrival", rates.last_bin_s),
        false => String::new(),
    };
    Some(format!(
        "rate over time, a second, in {} bins of {} s{last}: {lowest:.1} to {highest:.1}\n  {}",
        per_s.len(),
        rates.bin_s,
        sparkline(per_s)
    ))
}

/// Each role's column as read, and how it is read when that varies:
/// `("time", "ts", Some("rfc3339"))`.
fn columns_read(
    columns: &Columns,
    format: Option<TimeFormat>,
) -> Vec<(&'static str, String, Option<&'static str>)> {
    let mut read = Vec::new();
    if let Some(time) = &columns.time {
        let how = match format {
            Some(TimeFormat::Seconds) => "seconds",
            Some(TimeFormat::Milliseconds) => "milliseconds",
            Some(TimeFormat::Rfc3339) => "rfc3339",
            None => "unread",
        };
        read.push(("time", time.name.clone(), Some(how)));
    }
    for (role, name) in [("key", &columns.key), ("class", &columns.class)] {
        if let Some(name) = name {
            read.push((role, name.clone(), None));
        }
    }
    if let Some(service) = &columns.service {
        let unit = if service.unit == Some(ServiceUnit::Seconds) { "seconds" } else { "milliseconds" };
        read.push(("service", service.name.clone(), Some(unit)));
    }
    read
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

fn offered_load(scenario: &Scenario, offered: f64) -> String {
    let speeds: f64 = (0..scenario.servers as usize).map(|i| scenario.speed_of(i)).sum();
    format!(
        "offered load on {} servers × {} slots (summed speed {speeds}): {} (rate × mean service time / (summed speed × slots))\n",
        scenario.servers,
        scenario.slots,
        three_figures(offered)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sparkline_scales_to_the_highest() {
        assert_eq!(sparkline(&[0.0, 1.0, 2.0]), "▁▅█");
        assert_eq!(sparkline(&[0.0, 0.0]), "▁▁");
    }

    #[test]
    fn the_size_and_hash_are_of_the_bytes_read() {
        let text = "time_s\n0.5\n1.5\n";
        let report = Report::read("t.csv", text.as_bytes(), TraceOptions::default(), |_| {}).unwrap();
        assert_eq!(report.bytes, text.len() as u64);
        assert_eq!(report.hash, fnv1a(0xcbf2_9ce4_8422_2325, text.as_bytes()));
        assert_eq!(report.summary.requests, 2);
    }
}
