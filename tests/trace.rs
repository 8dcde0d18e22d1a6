//! Request traces: rows read back exactly as written, each bad trace with
//! its one message, and `lbsim trace` recovering the parameters the sample
//! traces were generated with.

use lbsim::trace::replay::in_memory;
use lbsim::trace::{
    generate, Columns, Fault, Report, Shape, TraceError, TraceOptions, TraceReader, TraceRow, TraceSummary,
};
use lbsim::Time;

#[path = "common/command.rs"]
mod command;

use command::{lbsim, TempFile};

fn read(text: &str, options: TraceOptions) -> Result<Vec<TraceRow>, TraceError> {
    TraceReader::new(text.as_bytes(), options)?.collect()
}

fn rows(text: &str) -> Vec<TraceRow> {
    read(text, TraceOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn error(text: &str, options: TraceOptions) -> TraceError {
    read(text, options).expect_err(text)
}

fn mapped(mapping: &str) -> TraceOptions {
    TraceOptions { columns: Columns::parse(mapping).unwrap(), ..TraceOptions::default() }
}

fn times(rows: &[TraceRow]) -> Vec<u64> {
    rows.iter().map(|r| r.time.0).collect()
}

#[test]
fn rows_read_equal_rows_written_to_the_nanosecond() {
    let expected = [0, 1, 1_000_000_001, 1_000_000_001, 86_399_999_999_999];
    let seconds = rows("time_s,key\n0,a\n0.000000001,b\n1.000000001,c\n1.000000001,d\n86399.999999999,e\n");
    assert_eq!(times(&seconds), expected);
    assert_eq!(seconds[2].key.as_deref(), Some("c"));
    let milliseconds =
        rows("time_ms,other\n0,x\n0.000001,x\n1000.000001,x\n1000.000001,x\n86399999.999999,x\n");
    assert_eq!(times(&milliseconds), expected);
    let by_mapping =
        read("ts\n0\n0.000001\n", mapped("time=ts:ms")).unwrap().iter().map(|r| r.time.0).collect::<Vec<_>>();
    assert_eq!(by_mapping, vec![0, 1]);
    let stamps = rows(
        "timestamp\n2026-12-03T15:04:05Z\n2026-12-03T15:04:05.000000001Z\n2026-12-03T16:04:06.000000001+01:00\n2026-12-03T15:04:06.000000001Z\n2026-12-04T15:04:04.999999999Z\n",
    );
    assert_eq!(times(&stamps), expected);
    let json = rows(concat!(
        "{\"time_s\": 0, \"key\": 7}\n",
        "{\"time_s\": \"0.000000001\", \"class\": \"api\", \"service_ms\": 2.5}\n",
        "\n",
        "{\"time_s\": 1.000000001}\n{\"time_s\": 1.000000001}\n{\"time_s\": 86399.999999999}\n",
    ));
    assert_eq!(times(&json), expected);
    // Windows line ends and a byte-order mark change nothing.
    let windows = rows("\u{feff}time_s,key\r\n0,a\r\n0.000000001,b\r\n");
    assert_eq!((times(&windows), windows[1].key.as_deref()), (vec![0, 1], Some("b")));
    assert_eq!(times(&rows("\u{feff}{\"time_s\": 0.5}\r\n")), vec![500_000_000]);
    assert_eq!(json[0].key.as_deref(), Some("7"));
    assert_eq!((json[1].class.as_deref(), json[1].service), (Some("api"), Some(Time(2_500_000))));
}

#[test]
fn a_generated_trace_reads_back_row_for_row() {
    let mut text = Vec::new();
    generate(Shape::Diurnal, 2_000, 9, &mut text).unwrap();
    let read: Vec<TraceRow> =
        TraceReader::new(&text[..], TraceOptions::default()).unwrap().map(Result::unwrap).collect();
    assert_eq!(read.len(), 2_000);
    let written: Vec<&str> = std::str::from_utf8(&text).unwrap().lines().skip(3).collect();
    for (row, line) in read.iter().zip(written) {
        let fields: Vec<&str> = line.split(',').collect();
        let (whole, micros) = fields[0].split_once('.').unwrap();
        let nanos = whole.parse::<u64>().unwrap() * 1_000_000_000 + micros.parse::<u64>().unwrap() * 1_000;
        assert_eq!(row.time.0, nanos, "{line}");
        assert_eq!((row.key.as_deref(), row.class.as_deref()), (Some(fields[1]), Some(fields[2])));
    }
}

#[test]
fn each_bad_trace_gets_one_message_naming_row_and_column() {
    let classes = TraceOptions { classes: vec!["api".into(), "static".into()], ..TraceOptions::default() };
    let small = TraceOptions { max_bytes: 100, ..TraceOptions::default() };
    let long_key = "k".repeat(70_000);
    let cases: Vec<(String, TraceOptions, Fault, &str)> = vec![
        ("time_s\n1\n0.5\n".into(), TraceOptions::default(), Fault::Backwards,
            "trace row 2 (line 3), column `time_s`: time 0.5 s is before the previous row's 1 s: rows must be in order of time"),
        ("time_s\n1\n-2\n".into(), TraceOptions::default(), Fault::Negative,
            "trace row 2 (line 3), column `time_s`: `-2` is negative; expected a time in seconds from the start, 0 or more"),
        ("# a comment\ntime_ms\n1\nsoon\n".into(), TraceOptions::default(), Fault::NotANumber,
            "trace row 2 (line 4), column `time_ms`: `soon` is not a number; expected a time in milliseconds from the start"),
        ("time_s,service_ms\n1,2\n2,-3\n".into(), TraceOptions::default(), Fault::Negative,
            "trace row 2 (line 3), column `service_ms`: `-3` is negative; expected a service time in milliseconds, 0 or more"),
        ("time_s,service_ms\n1,fast\n".into(), TraceOptions::default(), Fault::NotANumber,
            "trace row 1 (line 2), column `service_ms`: `fast` is not a number"),
        ("when,key\n1,a\n".into(), TraceOptions::default(), Fault::MissingColumn,
            "trace line 1: no time column: the header has `when`, `key`; name one time_s, time_ms, time or timestamp"),
        ("time_s,user\n1,a\n".into(), mapped("key=user_id"), Fault::MissingColumn,
            "trace, column `user_id`: the key column is not in the header, whose columns are `time_s`, `user`"),
        ("time_s,class\n1,api\n2,admin\n".into(), classes, Fault::UnknownClass,
            "trace row 2 (line 3), column `class`: `admin` is not one of the declared classes: api, static"),
        ("".into(), TraceOptions::default(), Fault::Empty, "trace: the trace is empty"),
        ("\n# only a comment\n".into(), TraceOptions::default(), Fault::Empty, "trace: the trace is empty"),
        ("time_s,key\n".into(), TraceOptions::default(), Fault::NoRows, "trace: the trace has a header and no rows"),
        (format!("time_s,key\n1,a\n2,{long_key}\n"), TraceOptions::default(), Fault::RowTooLong,
            "trace row 2: the row is longer than 65536 bytes (64 KiB), the most a row may be"),
        (format!("time_s\n{}", "1\n".repeat(100)), small, Fault::TooLarge,
            "the trace is larger than the limit of 100 bytes"),
        ("time\n2026-12-03 15:04\n".into(), TraceOptions::default(), Fault::BadTimestamp,
            "trace row 1 (line 2), column `time`: `2026-12-03 15:04` is not an RFC 3339 timestamp (not a date and a time with seconds, as 2026-12-03T15:04:05): times are seconds from the start, or timestamps of a date, T, a time with seconds (a fraction optional) and Z or an offset within ±23:59, such as 2026-12-03T15:04:05.25Z or 2026-12-03T16:04:05+01:00"),
        ("time\n2026-12-03T15:04:05Z\n2026-12-03T15:04:04Z\n".into(), TraceOptions::default(), Fault::Backwards,
            "trace row 2 (line 3), column `time`: `2026-12-03T15:04:04Z` is before the first row's timestamp"),
        ("time\n2026-12-03T15:04:05Z\n17.5\n".into(), TraceOptions::default(), Fault::BadTimestamp,
            "trace row 2 (line 3), column `time`: `17.5` is not an RFC 3339 timestamp"),
        ("time_s,key\n1,a\n2,b,c\n".into(), TraceOptions::default(), Fault::FieldCount,
            "trace row 2 (line 3): 3 fields where the header has 2"),
        ("time_s,key\n1,a\n,b\n".into(), TraceOptions::default(), Fault::MissingValue,
            "trace row 2 (line 3), column `time_s`: no time: every row needs one"),
        ("{\"time_s\": 1}\n{\"time_s\": 2\n".into(), TraceOptions::default(), Fault::NotJson,
            "trace row 2 (line 2): not a JSON object"),
        ("{\"time_s\": 1}\n{\"time_s\": [2]}\n".into(), TraceOptions::default(), Fault::NotANumber,
            "trace row 2 (line 2), column `time_s`: a list or an object; expected a number or text"),
        ("{\"at\": 1}\n".into(), TraceOptions::default(), Fault::MissingColumn, "trace row 1 (line 1): no time column: the header has `at`"),
    ];
    for (text, options, fault, message) in cases {
        let shown = &text[..text.len().min(60)];
        let given = error(&text, options);
        assert_eq!(given.fault, fault, "{shown}: {given}");
        assert!(given.to_string().contains(message), "{shown}:\n  {given}\nlacks\n  {message}");
    }
}

#[test]
fn bad_rows_are_skipped_only_when_asked_and_then_counted() {
    let text = "time_s,class\n1,api\n0.5,api\nsoon,api\n2,admin\n3,api\n-1,api\n";
    let options = TraceOptions { classes: vec!["api".into()], skip_bad: true, ..TraceOptions::default() };
    let mut reader = TraceReader::new(text.as_bytes(), options).unwrap();
    let kept: Vec<TraceRow> = reader.by_ref().map(Result::unwrap).collect();
    assert_eq!(times(&kept), vec![1_000_000_000, 3_000_000_000]);
    let skipped = reader.skipped();
    assert_eq!(skipped.total(), 4);
    let report = skipped.to_string();
    for line in [
        "skipped 4 bad rows",
        "1 time going backwards: the first, trace row 2 (line 3)",
        "1 not a number: the first, trace row 3 (line 4)",
        "1 unknown class: the first, trace row 4 (line 5)",
        "1 negative: the first, trace row 6 (line 7)",
    ] {
        assert!(report.contains(line), "{report}");
    }
    let widths = TraceOptions { skip_bad: true, ..TraceOptions::default() };
    let mut reader = TraceReader::new("time_s,key\n1,a\n2,b,c\n3,d\n".as_bytes(), widths).unwrap();
    let kept: Vec<TraceRow> = reader.by_ref().map(Result::unwrap).collect();
    assert_eq!((times(&kept), reader.skipped().total()), (vec![1_000_000_000, 3_000_000_000], 1));
    let all_bad = TraceOptions { skip_bad: true, ..TraceOptions::default() };
    let given = error("time_s\nsoon\nlater\n", all_bad);
    assert_eq!(given.fault, Fault::NoRows);
    assert!(given.to_string().contains("no good rows; skipped 2 bad rows"), "{given}");
}

#[test]
fn the_command_exits_2_with_the_message_and_never_panics() {
    for (name, text, words) in [
        ("backwards.csv", "time_s\n2\n1\n", "row 2 (line 3), column `time_s`: time 1 s is before"),
        ("empty.csv", "", "the trace is empty"),
        ("no-time.csv", "at\n1\n", "no time column"),
        ("binary.csv", "time_s\n1\n\u{0}\u{1}", "is not a number"),
    ] {
        let file = TempFile::new(name, text.as_bytes());
        let out = lbsim(&["trace", file.path()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(
            stderr.starts_with(&format!("lbsim: {}: trace", file.path())) && stderr.contains(words),
            "{stderr}"
        );
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    let invalid = TempFile::new("invalid-utf8.csv", b"time_s\n1\n\xff\xfe\n");
    let out = lbsim(&["trace", invalid.path()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not UTF-8"));
    let skipping = TempFile::new("skipping.csv", b"time_s\n1\nsoon\n2\n");
    let out = lbsim(&["trace", skipping.path(), "--trace-skip-bad"]);
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("2 requests") && stdout.contains("skipped 1 bad row\n  1 not a number"),
        "{stdout}"
    );
}

fn summary_of(path: &str) -> serde_json::Value {
    let out = lbsim(&["trace", path, "--json", "default"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn dispersion_at(summary: &serde_json::Value, window_s: f64) -> (f64, f64, f64) {
    let d = summary["dispersion"].as_array().unwrap().iter().find(|d| d["window_s"] == window_s).unwrap();
    (
        d["index"].as_f64().unwrap(),
        d["poisson_standard_error"].as_f64().unwrap(),
        d["mean_count"].as_f64().unwrap(),
    )
}

/// How many standard errors a figure may be from its expectation: 4, a
/// chance below 1 in 15,000 for a normal estimate, with fixed seeds anyway.
const K: f64 = 4.0;

#[test]
fn poisson_arrivals_have_a_dispersion_of_one() {
    let mut text = Vec::new();
    generate(Shape::Poisson, 50_000, 3, &mut text).unwrap();
    let summary =
        TraceSummary::of(TraceReader::new(&text[..], TraceOptions::default()).unwrap().map(Result::unwrap));
    // For Poisson counts in m windows, the index's standard error is
    // √(2 / (m − 1)) (the sample variance of counts of mean μ has variance
    // about 2μ² / (m − 1) for large μ); 500 s of 100 a second gives m of
    // 4,999, 499 and 49 for windows of 0.1, 1 and 10 s.
    for d in &summary.dispersion {
        assert!(d.poisson_standard_error <= (2.0 / 48.0_f64).sqrt());
        assert!((d.index - 1.0).abs() <= K * d.poisson_standard_error, "{d:?}");
    }
    let rate = summary.rate_per_s.unwrap();
    // Rate: n / T, standard error √n / T, 0.45 a second here.
    assert!((rate - 100.0).abs() <= K * (summary.requests as f64).sqrt() / summary.duration_s, "{rate}");
    let service = summary.service.unwrap();
    // Exponential service: mean 10 ms (standard error 10 / √n = 0.045) and
    // coefficient of variation 1 (its standard error is between 1 / √n and
    // √2 / √n once the mean's own error is counted; 2 / √n bounds it).
    let n = service.requests as f64;
    assert!((service.mean_ms - 10.0).abs() <= K * 10.0 / n.sqrt(), "{service:?}");
    assert!((service.cv - 1.0).abs() <= K * 2.0 / n.sqrt(), "{service:?}");
}

#[test]
fn the_on_off_sample_is_clearly_bursty() {
    let summary = &summary_of("scenarios/traces/on-off.csv")["summary"];
    // On and off periods of mean 1 s (switching at rate γ = 2 in all) and
    // 200 arrivals a second when on: the index of counts in windows of T is
    // 1 + 2 λ (1 − p) (1/γ − (1 − e^(−γT)) / (γ² T)) for the share p of
    // time on (an interrupted Poisson process). p is taken from the trace's
    // own rate (p = rate / 200) since 250 s holds only about 125 periods;
    // the estimate then agrees within 15% (not a standard error: counts of
    // a bursty process are correlated across windows, which this test does
    // not model). Poisson's 1 is hundreds of its standard errors away.
    let p = summary["rate_per_s"].as_f64().unwrap() / 200.0;
    for window_s in [0.1, 1.0] {
        let (index, poisson_se, _) = dispersion_at(summary, window_s);
        let gamma = 2.0;
        let theory = 1.0
            + 2.0
                * 200.0
                * (1.0 - p)
                * (1.0 / gamma - (1.0 - (-gamma * window_s).exp()) / (gamma * gamma * window_s));
        assert!(index > 1.0 + 100.0 * poisson_se, "{window_s}: {index}");
        assert!((index / theory - 1.0).abs() < 0.15, "{window_s}: {index} against {theory}");
    }
}

#[test]
fn the_diurnal_sample_gives_back_its_parameters() {
    let summary = &summary_of("scenarios/traces/diurnal.csv")["summary"];
    // Keys: Zipf with exponent 1, fitted by maximum likelihood over the top
    // 10 ranks; its standard error (reported, from the Fisher information)
    // is about 0.012 for 30,000 rows.
    let zipf = &summary["keys"]["zipf"];
    let (exponent, se) = (zipf["exponent"].as_f64().unwrap(), zipf["standard_error"].as_f64().unwrap());
    assert!(se < 0.015 && (exponent - 1.0).abs() <= K * se, "{exponent} ± {se}");
    assert_eq!(summary["keys"]["exact"], true);
    // Classes: api 70% of requests; a share's standard error is √(p(1 − p) / n).
    let classes = summary["classes"].as_array().unwrap();
    let requests: f64 = classes.iter().map(|c| c["requests"].as_f64().unwrap()).sum();
    let api = classes.iter().find(|c| c["class"] == "api").unwrap();
    let share = api["request_share"].as_f64().unwrap();
    assert!((share - 0.7).abs() <= K * (0.7 * 0.3 / requests).sqrt(), "{share}");
    // Work: api brings 0.7 × 20 of every 0.7 × 20 + 0.3 × 2 ms, 95.9%. The
    // share of a sum of exponential draws moves less than the request share
    // here (the two classes' means differ tenfold); within the same bound.
    let work = api["work_share"].as_f64().unwrap();
    assert!((work - 14.0 / 14.6).abs() <= K * (0.7 * 0.3 / requests).sqrt(), "{work}");
    // Dispersion in 1 s windows: a rate of 50 (1 + 0.8 sin) over one whole
    // period gives counts of variance μ + (50 × 0.8)² / 2 around a mean μ,
    // an index of 1 + 800 / μ. Its standard error is about
    // √(4 × 800 × μ / m) / μ (the cross term of rate and Poisson noise) ≈
    // 0.33 for m = 600 windows of μ = 50, and √(2 / m) ≈ 0.06 besides.
    let (index, poisson_se, mean) = dispersion_at(summary, 1.0);
    let windows = 2.0 / poisson_se.powi(2) + 1.0;
    let se = ((4.0 * 800.0 * mean / windows).sqrt() / mean).hypot(poisson_se);
    assert!(se < 0.4 && (index - (1.0 + 800.0 / mean)).abs() <= K * se, "{index} ± {se}");
}

#[test]
fn the_sample_traces_are_made_again_from_their_seeds() {
    for (shape, rows, file) in [
        (Shape::OnOff, 20_000, "scenarios/traces/on-off.csv"),
        (Shape::Diurnal, 30_000, "scenarios/traces/diurnal.csv"),
    ] {
        let mut made = Vec::new();
        generate(shape, rows, 1, &mut made).unwrap();
        let shipped = std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
        assert!(shipped.len() <= 1 << 20, "{file} is over 1 MiB");
        assert!(made == shipped, "{file} is not what `lbsim trace --generate` makes from seed 1");
    }
}

#[test]
fn the_offered_load_is_rate_times_service_over_capacity() {
    let file = TempFile::new("load.csv", b"time_s,service_ms\n0,100\n1,100\n2,100\n3,100\n4,100\n");
    let summary = summary_of(file.path());
    // A request a second (5 requests, 4 gaps over 4 s), 100 ms each, on the
    // default 10 servers × 10 slots of speed 1.
    assert_eq!(summary["columns"]["time"], serde_json::json!({ "name": "time_s", "as": "seconds" }));
    assert_eq!(
        summary["columns"]["service"],
        serde_json::json!({ "name": "service_ms", "as": "milliseconds" })
    );
    let offered = summary["offered_load"].as_f64().unwrap();
    assert!((offered - 1.0 * 0.1 / 100.0).abs() < 1e-12, "{offered}");
}

/// `lbsim ARGS --json`'s summary, the command having succeeded.
fn run_summary(args: &[&str]) -> serde_json::Value {
    let out = lbsim(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    json["summary"].clone()
}

#[test]
fn a_replay_runs_every_row_and_its_speed_scales_the_load() {
    // 20,000 rows of Poisson arrivals at 100 a second: about 200 s, all
    // over before 250 s. At speed 2 they all arrive within 125 s, so the
    // same requests over half the time: exactly twice the throughput.
    let mut text = Vec::new();
    generate(Shape::Poisson, 20_000, 5, &mut text).unwrap();
    let file = TempFile::new("poisson.csv", &text);
    let run = |speed: &str, duration: &str| {
        let args = ["run", "default", "--trace", file.path(), "--trace-speed", speed];
        run_summary(&[&args[..], &["--duration", duration, "--warmup", "0", "--json"]].concat())
    };
    let (once, twice) = (run("1", "250"), run("2", "125"));
    for summary in [&once, &twice] {
        assert_eq!(summary["counts"]["created"], 20_000);
        assert_eq!(summary["counts"]["completed"], 20_000);
    }
    let ratio = twice["throughput"].as_f64().unwrap() / once["throughput"].as_f64().unwrap();
    assert!((ratio - 2.0).abs() < 1e-9, "{ratio}");
    // Looped, the trace plays again from its end: two whole passes and
    // part of a third in 450 s.
    let looped = run_summary(&[
        "run",
        "default",
        "--trace",
        file.path(),
        "--trace-loop",
        "--duration",
        "450",
        "--json",
    ]);
    let created = looped["counts"]["created"].as_u64().unwrap();
    assert!((40_001..60_000).contains(&created), "{created}");
}

#[test]
fn without_named_classes_one_class_takes_every_row_and_several_read_indices() {
    // The diurnal sample names its classes (api, static). The default
    // scenario has one class: every row is of it, exactly as if the trace
    // had no class column.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/traces/diurnal.csv");
    let run = |extra: &[&str]| {
        let args = ["run", "default", "--trace", path, "--trace-speed", "40", "--duration", "20", "--json"];
        run_summary(&[&args[..], extra].concat())
    };
    let named = run(&[]);
    assert!(named["counts"]["completed"].as_u64().unwrap() > 20_000, "{}", named["counts"]);
    assert_eq!(named, run(&["--trace-columns", "time=time_s,key=key,service=service_ms"]));
    // With two classes a row's class is its index unless the classes are
    // named, so `api` is refused, saying how to name them.
    let out =
        lbsim(&["run", "default", "--trace", path, "--set", "class_shares=7,3", "--set", "class_costs=10,1"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("`api` is not one of the declared classes: 0, 1"), "{stderr}");
    assert!(stderr.contains("name the trace's classes with --trace-classes"), "{stderr}");
}

#[test]
fn a_replay_stops_at_a_bad_row_with_its_message() {
    let file = TempFile::new("late-fault.csv", b"time_s,service_ms\n0.1,5\n0.2,5\n0.15,5\n");
    let out = lbsim(&["run", "default", "--trace", file.path(), "--duration", "1"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("trace row 3 (line 4), column `time_s`"), "{stderr}");
    assert!(out.stdout.is_empty(), "no figures of a partly read trace");
    for (args, words) in [
        (vec!["run", "default", "--trace-speed", "2"], "need --trace FILE"),
        (
            vec!["run", "default", "--trace", file.path(), "--trace-speed", "0"],
            "--trace-speed takes a number",
        ),
        (vec!["keys", "default", "--trace", file.path()], "not keys"),
        (
            vec!["capacity", "default", "--slo", "p99=50", "--trace", file.path(), "--trace-speed", "2"],
            "leave out --trace-speed",
        ),
        (vec!["run", "default", "--trace", file.path(), "--set", "session_length=5"], "session_length = 1"),
    ] {
        let out = lbsim(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(words) && !stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn a_recorded_run_replays_to_the_same_run() {
    // A run of one-request sessions, recorded: each row is a request as it
    // was created, with its key, class and service time. Replayed, the
    // requests arrive at the same times with the same work. The replay is
    // exact only under the two conditions docs/traces.md gives: no
    // handshakes (a replay draws the clients anew, and which connections
    // are warm depends on which client sent what), and routes that do not
    // depend on the client (here random routing, whose picks do not).
    let recording = TempFile::new("recorded.csv", b"");
    let settings =
        ["--set", "handshake_round_trips=0", "--set", "class_shares=3,1", "--set", "class_costs=1,4"];
    let run = |extra: &[&str]| {
        run_summary(&[&["run", "default", "--duration", "20", "--json"], &settings[..], extra].concat())
    };
    let recorded = run(&["--set", "session_length=1", "--record-trace", recording.path()]);
    let replayed = run(&["--trace", recording.path()]);
    assert!(recorded["counts"]["created"].as_u64().unwrap() > 20_000);
    for figure in ["counts", "completed_per_server", "latency_ms", "queue_ms"] {
        assert_eq!(recorded[figure], replayed[figure], "{figure}");
    }
    // Sessions of several requests: one row for each request created.
    let sessions = run(&["--record-trace", recording.path()]);
    let text = std::fs::read(recording.path()).unwrap();
    let rows = TraceReader::new(&text[..], TraceOptions::default()).unwrap().map(Result::unwrap).count();
    assert_eq!(rows as u64, sessions["counts"]["created"].as_u64().unwrap());
}

#[test]
fn capacity_on_a_trace_searches_over_its_speed() {
    // One server of one slot; a request every 20 ms, each served in 40 ms.
    // The trace's rate is its 199 gaps over its 3.98 s span, 50 a second,
    // so at speed 1 it offers load 50 × 0.04 s = 2. Load x is then speed
    // x / 2, and with requests evenly spaced none waits while the gaps are
    // longer than the service time, as they still are at load 1: the
    // capacity is all of it, at speed 1 / 2, 25 requests a second.
    // (Taking the load for the speed would start queues at load 0.5.) No
    // handshakes: a cold connection would hold a request back and bunch it
    // with the next.
    let mut text = String::from("time_ms,service_ms\n");
    for i in 0..200 {
        text += &format!("{},40\n", i * 20);
    }
    let file = TempFile::new("even.csv", text.as_bytes());
    let out = lbsim(&[
        "capacity",
        "default",
        "--slo",
        "p99=1",
        "--trace",
        file.path(),
        "--set",
        "servers=1",
        "--set",
        "slots=1",
        "--set",
        "handshake_round_trips=0",
        "--duration",
        "20",
        "--warmup",
        "2",
        "--json",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let at_speed_1 = 199.0 / 3.98 * 0.04;
    let figure = |value: &serde_json::Value| value.as_f64().unwrap();
    assert!((figure(&json["trace"]["load_at_speed_1"]) - at_speed_1).abs() < 1e-9, "{json}");
    assert_eq!(json["outcomes"][0]["capacity"], 1.0);
    assert!((figure(&json["trace"]["speed_at_capacity"][0]) - 1.0 / at_speed_1).abs() < 1e-9, "{json}");
    let rate = figure(&json["outcomes"][0]["requests_per_sec"]);
    assert!((rate - 25.0).abs() < 1e-9, "{rate}");
}

#[test]
fn rows_held_in_memory_replay_as_the_command_line_streams_them() {
    // The lab replays the rows its trace worker read, held in memory; the
    // command line streams them from the file. Looped and sped up, both
    // must make the same run.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/traces/diurnal.csv");
    let settings = [
        ("session_length", "1"),
        ("class_shares", "0.7,0.3"),
        ("class_costs", "10,1"),
        ("policy", "ring"),
        ("duration_s", "40"),
    ];
    let classes = vec!["api".to_string(), "static".to_string()];
    let options = TraceOptions { classes: classes.clone(), ..TraceOptions::default() };
    let mut rows = Vec::new();
    let file = std::fs::File::open(path).unwrap();
    let report = Report::read(path, file, options, |row| rows.push(row.recorded(&classes))).unwrap();
    assert_eq!(rows.len() as u64, report.summary.requests);
    let mut scenario = lbsim::Scenario::default();
    scenario.set_many(settings).unwrap();
    let mut sim = lbsim::Simulation::replaying(&scenario, in_memory(rows.into(), 20.0, true)).unwrap();
    sim.run();
    let mut args = vec!["run", "default", "--trace", path, "--trace-classes", "api,static"];
    args.extend(["--trace-speed", "20", "--trace-loop", "--json"]);
    let set: Vec<String> = settings.iter().map(|(k, v)| format!("{k}={v}")).collect();
    for pair in &set {
        args.extend(["--set", pair]);
    }
    let out = lbsim(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let created = sim.summary().counts.created as f64;
    assert!(created > 1.2 * report.summary.requests as f64, "the run loops the trace: {created} requests");
    assert_eq!(json["summary"]["trace_hash"].as_str(), Some(format!("{:016x}", sim.trace_hash()).as_str()));
}
