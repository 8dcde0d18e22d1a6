//! A trace's edges: a quote left open, keys told apart as the replay tells
//! them, timestamps that are RFC 3339 and only those, JSON numbers out of
//! range, a JSON row that changes its time column, the size limit named
//! alike by every command, the classes a trace may name, and the rate
//! over time of a trace too short for one or cut short at its end.

use lbsim::trace::replay::key_number;
use lbsim::trace::{Fault, Report, TraceError, TraceOptions, TraceReader, TraceRow};
use std::time::Instant;

#[path = "common/command.rs"]
mod command;

use command::{lbsim, TempFile};

fn read(text: &str, options: TraceOptions) -> Result<Vec<TraceRow>, TraceError> {
    TraceReader::new(text.as_bytes(), options)?.collect()
}

fn error(text: &str) -> TraceError {
    read(text, TraceOptions::default()).expect_err(text)
}

fn report(text: &str) -> String {
    Report::read("t.csv", text.as_bytes(), TraceOptions::default(), |_| {}).unwrap().text(None)
}

#[test]
fn a_quote_left_open_is_refused_where_it_opened() {
    let text = "time_s,key\n1,a\n2,\"b\n3,c\n4,d\n";
    let given = error(text);
    assert_eq!(given.fault, Fault::QuoteLeftOpen);
    assert_eq!(
        given.to_string(),
        "trace row 2 (line 3): a quote opens a value on this line and is never closed, so the rest of the file would be that one value: close it (a quote within a quoted value is written \"\")"
    );
    // Skipped when asked, and counted with its reason.
    let skip = TraceOptions { skip_bad: true, ..TraceOptions::default() };
    let mut reader = TraceReader::new(text.as_bytes(), skip).unwrap();
    assert_eq!(reader.by_ref().map(Result::unwrap).count(), 1);
    assert!(reader
        .skipped()
        .to_string()
        .starts_with("skipped 1 bad row\n  1 quote never closed: the first, trace row 2 (line 3)"));
    // In the header, before any row; and quotes closed, or within a value, are fine.
    assert_eq!(error("time_s,\"key\n1,a\n").to_string().split(':').next(), Some("trace line 1"));
    let fine = read("time_s,key\n1,\"a\"\"b\"\n2,\"c\nd\"\n3,e\"f\n", TraceOptions::default()).unwrap();
    let keys: Vec<_> = fine.iter().map(|r| r.key.as_deref().unwrap()).collect();
    assert_eq!(keys, ["a\"b", "c\nd", "e\"f"]);
}

#[test]
fn keys_are_one_rule_for_the_summary_and_the_replay() {
    // `7`, `007`, `+7` and `07` are four keys to both: only the first is
    // the number 7, the others are hashed as text.
    let text = "time_s,key\n0,7\n1,007\n2,+7\n3,07\n4,7\n";
    let keys = Report::read("t.csv", text.as_bytes(), TraceOptions::default(), |_| {}).unwrap();
    let popularity = keys.summary.keys.unwrap();
    let numbers: std::collections::BTreeSet<u64> = ["7", "007", "+7", "07"].map(key_number).into();
    assert_eq!((popularity.distinct, numbers.len()), (4, 4));
    assert_eq!(key_number("7"), 7);
    // A JSON number key is taken by its own text, never through f64: keys
    // past 2^64 that f64 would round to one stay two.
    let json = "{\"time_s\": 0, \"key\": 18446744073709551616}\n{\"time_s\": 1, \"key\": 18446744073709551617}\n{\"time_s\": 2, \"key\": 7.0}\n";
    let rows = read(json, TraceOptions::default()).unwrap();
    let texts: Vec<_> = rows.iter().map(|r| r.key.as_deref().unwrap()).collect();
    assert_eq!(texts, ["18446744073709551616", "18446744073709551617", "7.0"]);
    assert_ne!(key_number(texts[0]), key_number(texts[1]));
    assert_ne!(key_number(texts[2]), 7);
}

#[test]
fn only_rfc_3339_timestamps_are_read() {
    let accepted = "time\n2026-12-03T15:04:05Z\n2026-12-03 15:04:06z\n2026-12-03t16:04:07.5+01:00\n";
    let times: Vec<u64> = read(accepted, TraceOptions::default()).unwrap().iter().map(|r| r.time.0).collect();
    assert_eq!(times, [0, 1_000_000_000, 2_500_000_000]);
    let form = "times are seconds from the start, or timestamps of a date, T, a time with seconds (a fraction optional) and Z or an offset within ±23:59, such as 2026-12-03T15:04:05.25Z or 2026-12-03T16:04:05+01:00";
    for (value, reason) in [
        ("2026-12-03T09:00Z", "not a date and a time with seconds, as 2026-12-03T15:04:05"),
        ("20261203T090000Z", "not a date and a time with seconds, as 2026-12-03T15:04:05"),
        ("2026-12-03T09:00:00+0100", "its offset is not Z or ±HH:MM within ±23:59"),
        ("2026-12-03T09:00:00+24:00", "its offset is not Z or ±HH:MM within ±23:59"),
        ("2026-12-03T09:00:00Z[Europe/Paris]", "text after its offset"),
        ("2026-02-30T09:00:00Z", "no such date or time of day"),
    ] {
        let given = error(&format!("time\n2026-12-03T08:00:00Z\n{value}\n"));
        assert_eq!(given.fault, Fault::BadTimestamp);
        assert_eq!(
            given.to_string(),
            format!("trace row 2 (line 3), column `time`: `{value}` is not an RFC 3339 timestamp ({reason}): {form}")
        );
    }
    // A leap second has no instant in lbsim's time (POSIX time's): refused,
    // not folded onto :59, which could put it before the row it follows.
    let leap = error("time\n2016-12-31T23:59:59.5Z\n2016-12-31T23:59:60.2Z\n");
    assert_eq!(
        leap.to_string(),
        "trace row 2 (line 3), column `time`: `2016-12-31T23:59:60.2Z` is a leap second, which lbsim's times (POSIX time) do not have: write it as 23:59:59.999999999, or leave the row out with --trace-skip-bad"
    );
}

#[test]
fn a_json_number_out_of_range_is_said_so_on_its_own_line() {
    let first = error("{\"time_s\":1e400}\n");
    assert_eq!(
        first.to_string(),
        "trace row 1 (line 1), column `time_s`: `1e400` is too large; expected a time in seconds from the start, less than 2^64 nanoseconds (584 years)"
    );
    let later = error("# made by hand\n{\"time_s\":1}\n\n{\"time_s\":2, \"service_ms\": 1e400}\n");
    assert_eq!(
        later.to_string(),
        "trace row 2 (line 4), column `service_ms`: `1e400` is too large; expected a service time in milliseconds, less than 2^64 nanoseconds (584 years)"
    );
    // Broken JSON is placed by the file's line, and the line's character.
    let broken = error("{\"time_s\":1}\n\n{\"time_s\": 2\n");
    assert_eq!(
        broken.to_string(),
        "trace row 2 (line 3): not a JSON object: EOF while parsing an object (at character 12)"
    );
}

#[test]
fn a_json_row_that_changes_its_time_column_is_told_so() {
    let given = error("{\"time_s\": 1}\n{\"time_ms\": 2000}\n");
    assert_eq!(
        given.to_string(),
        "trace row 2 (line 2), column `time_s`: this row gives its time as `time_ms` where row 1 fixed the time column as `time_s`: every row gives its time in the same column"
    );
    let columns = lbsim::trace::Columns::parse("time=at").unwrap();
    let mapped = TraceOptions { columns, ..TraceOptions::default() };
    let given = read("{\"at\": 1}\n{\"time_s\": 2}\n", mapped).unwrap_err();
    assert!(given.to_string().ends_with("this row gives its time as `time_s` where --trace-columns maps the time column to `at`: every row gives its time in the same column"), "{given}");
}

#[test]
fn a_trace_over_the_size_limit_is_refused_alike_and_at_once() {
    // A sparse file of 9 GiB (no disk used): one line of zeros, which read
    // would first be a row too long; its size refuses it before reading.
    let big = TempFile::new("big.csv", b"");
    std::fs::File::options().write(true).open(big.path()).unwrap().set_len(9 << 30).unwrap();
    let expected = format!(
        "lbsim: {}: trace: the trace is 9663676416 bytes, more than the limit of 8589934592 bytes (8 GiB)\n",
        big.path()
    );
    for command in [&["trace", big.path()][..], &["run", "default", "--trace", big.path()]] {
        let started = Instant::now();
        let out = lbsim(command);
        assert_eq!(out.status.code(), Some(2), "{command:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), expected, "{command:?}");
        assert!(started.elapsed().as_secs_f64() < 5.0, "{command:?}: {:?}", started.elapsed());
    }
    // Read from what has no size, the limit is named the same way.
    let small = TraceOptions { max_bytes: 2048, ..TraceOptions::default() };
    let given = read(&format!("time_s\n{}", "1\n".repeat(2000)), small).unwrap_err();
    assert_eq!(given.to_string(), "trace: the trace is larger than the limit of 2048 bytes (2 KiB)");
}

#[test]
fn the_classes_are_each_named_once() {
    assert_eq!(
        TraceOptions::classes_from(" api, static ", "--trace-classes"),
        Ok(vec!["api".into(), "static".into()])
    );
    let allowed = "expected the classes' names, comma-separated in the order of class_shares, each once (such as api,static)";
    for (text, fault) in [
        ("", "--trace-classes is empty".to_string()),
        (" ", "--trace-classes is empty".to_string()),
        ("api,,static", "--trace-classes `api,,static` has no name in place 2".to_string()),
        ("api,", "--trace-classes `api,` has no name in place 2".to_string()),
        ("api,api", "--trace-classes `api,api` names `api` twice".to_string()),
    ] {
        assert_eq!(
            TraceOptions::classes_from(text, "--trace-classes"),
            Err(format!("{fault}; {allowed}")),
            "{text}"
        );
    }
    let file = TempFile::new("classes.csv", b"time_s,class\n0,api\n1,api\n");
    let out = lbsim(&["trace", file.path(), "--trace-classes", "api,api"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains(&format!("--trace-classes `api,api` names `api` twice; {allowed}")));
}

#[test]
fn a_rate_needs_two_rows_and_a_last_bin_is_divided_by_its_own_width() {
    let one = report("time_s\n0.5\n");
    assert!(one.starts_with("trace t.csv: 1 request, at 0.500 s; a rate needs two rows or more\n"), "{one}");
    assert!(!one.contains("rate over time"), "{one}");
    let instant = report("time_s\n0.5\n0.5\n");
    assert!(
        instant
            .starts_with("trace t.csv: 2 requests, all at 0.500 s; a rate needs rows at two times or more\n"),
        "{instant}"
    );
    assert!(!instant.contains("rate over time"), "{instant}");
    // 100 a second for 12.33 s: bins of 0.2 s, the last from 12.2 s ending
    // a mean gap (10 ms) after the last arrival, so 0.14 s wide.
    let steady: String = (0..1234).map(|i| format!("{}.{:02}\n", i / 100, i % 100)).collect();
    let text = report(&format!("time_s\n{steady}"));
    assert!(
        text.contains("rate over time, a second, in 62 bins of 0.2 s, the last 0.140 s to a mean gap past the last arrival: 100.0 to 100.0\n"),
        "{text}"
    );
}

#[test]
fn a_sparse_traces_offered_load_is_given_to_three_figures() {
    // Three rows 30 days apart: 3 requests over 90 days (one mean gap past
    // the last), 10 ms each, on 10 servers of 10 slots: 7.72e-11.
    let file = TempFile::new("sparse.csv", b"time_s\n0\n2592000\n5184000\n");
    let out = lbsim(&["trace", file.path(), "default"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("(summed speed 10): 0.0000000000772 (rate"), "{text}");
}
