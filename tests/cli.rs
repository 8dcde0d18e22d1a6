//! The command line, run as a user would run it.

use std::process::{Command, Output};

#[path = "common/command.rs"]
mod command;

use command::{lbsim, TempFile};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn run_prints_a_readable_summary() {
    let out = lbsim(&["run", "scenarios/p2c-cheating.toml", "--duration", "5", "--seed", "3"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for words in ["policy power-of-d", "queue time", "session", "latency", "completed per server"] {
        assert!(stdout.contains(words), "{stdout}");
    }
}

#[test]
fn json_output_is_complete_and_repeatable() {
    let args =
        ["run", "default", "--duration", "3s", "--warmup", "500ms", "--set", "policy=repick", "--json"];
    let first: serde_json::Value = serde_json::from_slice(&lbsim(&args).stdout).unwrap();
    let second: serde_json::Value = serde_json::from_slice(&lbsim(&args).stdout).unwrap();
    assert_eq!(first["summary"], second["summary"]);
    let summary = &first["summary"];
    assert_eq!(summary["policy"], "repick");
    assert_eq!(first["scenario"]["warmup_s"], 0.5);
    assert_eq!(summary["completed_per_server"].as_array().unwrap().len(), 10);
    assert!(summary["queue_ms"]["p99"].as_f64().unwrap() > 0.0);
    assert!(summary["session_ms"]["p50"].as_f64().unwrap() > 0.0);
    assert!(summary["events"].as_u64().unwrap() > 1000);
    assert!(first["wall_s"].as_f64().is_some());
    let counts = &summary["counts"];
    let created = counts["created"].as_u64().unwrap();
    let ended = counts["completed"].as_u64().unwrap() + counts["failed"].as_u64().unwrap();
    assert_eq!(created, ended + summary["in_flight"].as_u64().unwrap());
}

#[test]
fn sweep_prints_one_row_per_value() {
    let out = lbsim(&["sweep", "default", "--set", "load=0.5,0.7,0.9", "--duration", "3"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let rows: Vec<&str> = stdout.lines().collect();
    assert_eq!(rows.len(), 4, "{stdout}");
    assert!(rows[0].starts_with("load") && rows[1].starts_with("0.5") && rows[3].starts_with("0.9"));
}

/// `sweep` over a grid: the cartesian product in order (the last list
/// fastest, seeds fastest of all), a JSON line a row.
fn grid(extra: &[&str]) -> Output {
    let mut args = vec![
        "sweep",
        "default",
        "--set",
        "policy=random,power-of-d",
        "--set",
        "load=0.5,0.8",
        "--seeds",
        "1-3,9",
        "--duration",
        "0.5",
        "--warmup",
        "0",
        "--json",
    ];
    args.extend_from_slice(extra);
    lbsim(&args)
}

#[test]
fn a_grid_sweep_prints_a_json_line_for_each_point_and_seed() {
    let out = grid(&[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<serde_json::Value> =
        text(&out.stdout).lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(lines.len(), 2 * 2 * 4);
    let row = |i: usize| {
        let line = &lines[i];
        (
            line["row"].as_u64().unwrap(),
            line["settings"]["policy"].clone(),
            line["settings"]["load"].clone(),
            line["seed"].as_u64().unwrap(),
        )
    };
    assert_eq!(row(0), (0, "random".into(), "0.5".into(), 1));
    assert_eq!(row(3), (3, "random".into(), "0.5".into(), 9));
    assert_eq!(row(4), (4, "random".into(), "0.8".into(), 1));
    assert_eq!(row(15), (15, "power-of-d".into(), "0.8".into(), 9));
    assert_eq!(lines[6]["summary"]["policy"], "random");
    assert_eq!(lines[6]["summary"]["seed"], 3);
    assert_ne!(lines[0]["summary"], lines[1]["summary"], "seeds 1 and 2 differ");
}

#[test]
fn shards_concatenated_in_order_are_the_whole_sweep() {
    let whole = grid(&[]);
    assert!(whole.status.success(), "{}", text(&whole.stderr));
    for count in [1, 3, 7] {
        let mut joined = Vec::new();
        for index in 1..=count {
            let shard = grid(&["--shard", &format!("{index}/{count}")]);
            assert!(shard.status.success(), "{}", text(&shard.stderr));
            joined.extend(shard.stdout);
        }
        assert!(joined == whole.stdout, "{count} shards:\n{}", text(&joined));
    }
    // The table too: its header comes from shard 1 alone.
    let table = |extra: &[&str]| {
        let mut args =
            vec!["sweep", "default", "--set", "load=0.5,0.8", "--seeds", "1-2", "--duration", "0.5"];
        args.extend_from_slice(extra);
        lbsim(&args).stdout
    };
    let whole = table(&[]);
    assert_eq!(text(&whole).lines().count(), 5, "{}", text(&whole));
    assert!(text(&whole).starts_with("load seed"));
    assert_eq!([table(&["--shard", "1/2"]), table(&["--shard", "2/2"])].concat(), whole);
    // One list: the shards give the sweep's grid, which is what --shard 1/1 prints.
    let one_list = |shard: &str| {
        lbsim(&[
            "sweep",
            "default",
            "--set",
            "load=0.5,0.6,0.8",
            "--duration",
            "0.5",
            "--json",
            "--shard",
            shard,
        ])
        .stdout
    };
    let joined = [one_list("1/3"), one_list("2/3"), one_list("3/3")].concat();
    assert_eq!(text(&joined).lines().count(), 3, "{}", text(&joined));
    assert_eq!(joined, one_list("1/1"));
}

#[test]
fn sweep_checks_every_value_before_running_any() {
    let out = lbsim(&["sweep", "default", "--set", "load=0.5,0.7,9", "--duration", "60"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("field `load`: `9` is not allowed"), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "", "no row may run before the bad value is found");
}

#[test]
fn an_empty_measured_period_is_reported() {
    // Ten simulated seconds of nothing: one server, a request a minute.
    let args = [
        "run",
        "default",
        "--duration",
        "10",
        "--warmup",
        "9.9",
        "--set",
        "servers=1",
        "--set",
        "slots=1",
        "--set",
        "service_mean_ms=600000",
        "--set",
        "load=0.05",
        "--json",
    ];
    let out = lbsim(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let summary = &json["summary"];
    assert_eq!(summary["latency_ms"]["count"], 0);
    assert!((summary["measured_s"].as_f64().unwrap() - 0.1).abs() < 1e-9, "the warm-up is not rounded");
    let warning = summary["warnings"][0].as_str().unwrap();
    assert!(warning.starts_with("no request completed in the 0.100 s measured"), "{warning}");
    let readable = text(&lbsim(&args[..args.len() - 1]).stdout);
    assert!(readable.contains("warning: no request completed"), "{readable}");
}

#[test]
fn the_staleness_field_is_described_as_a_refresh_period() {
    let stdout = text(&lbsim(&["fields"]).stdout);
    assert!(
        stdout.contains("staleness_ms (live)\n    period between refreshes of the load board"),
        "{stdout}"
    );
}

#[test]
fn fields_lists_every_field_with_default_and_range() {
    let stdout = text(&lbsim(&["fields"]).stdout);
    for field in lbsim::scenario::FIELDS {
        assert!(stdout.contains(field.key), "{}", field.key);
        assert!(stdout.contains(&field.allowed()), "{}", field.key);
    }
}

#[test]
fn errors_are_messages_not_panics() {
    std::fs::create_dir_all(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let broken = format!("{}/broken.toml", env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(&broken, "servers = [\n").unwrap();
    let file = |name: &str, text: &str| {
        let path = format!("{}/{name}", env!("CARGO_TARGET_TMPDIR"));
        std::fs::write(&path, text).unwrap();
        path
    };
    let quoted_load = file("quoted-load.toml", "load = \"0.5\"\n");
    let quoted_timeout = file("quoted-timeout.toml", "queue_timeout_ms = \"100\"\n");
    let repeated = file("repeated.toml", "load = 0.5\nservers = 3\nload = 0.7\n");
    let cases: &[(&[&str], &str)] = &[
        (&["walk"], "unknown command"),
        (&["run", "no/such/file.toml"], "cannot read"),
        (&["run", &broken], "not valid TOML"),
        (&["run", "default", "--set", "load=7"], "field `load`"),
        (&["run", "default", "--set", "nosuch=1"], "unknown field `nosuch`"),
        (&["run", "default", "--duration", "soon"], "--duration is a duration from 0s to 86400s"),
        (&["run", "default", "--warmup", "90", "--duration", "60"], "warmup_s"),
        (&["sweep", "default", "--set", "load=0.5"], "list of values"),
        (
            &["sweep", "default", "--set", "load=0.5,0.7", "--set", "load=0.8,0.9"],
            "sweep: `load` has two lists of values; give it one",
        ),
        (&["sweep", "default", "--set", "load=0.5,0.7", "--seeds", "1-3", "--seed", "2"], "--seeds and --seed"),
        (&["sweep", "default", "--set", "load=0.5,0.7", "--shard", "4/3"], "--shard takes I/N"),
        (&["sweep", "default", "--set", "load=0.5,0.7", "--seeds", "5-1"], "--seeds takes seeds"),
        (&["run", "default", "--shard", "1/2"], "--shard belongs to sweep, not run"),
        (&["run", "default", "--bogus"], "unknown option"),
        (&["run"], "run needs a SCENARIO: a TOML file, a preset's name (`lbsim presets`), or `default`"),
        (&["sweep", "--set", "load=0.5,0.7"], "sweep needs a SCENARIO"),
        (&["run", "default", "--set", "=3"], "a field name is empty"),
        (&["run", "default", "--set", "load="], "field `load`: an empty value is not allowed"),
        (&["run", &quoted_load], "field `load`: wrong type: `\"0.5\"` is text"),
        (&["run", &quoted_timeout], "field `queue_timeout_ms`: wrong type: `\"100\"` is text"),
        (&["run", &repeated], "(line 3): duplicate key"),
        (&["run", "default", "--set", "staleness_ms=0.0000001"], "field `staleness_ms`"),
        (&["bins", "--bins", "0"], "--bins takes a whole number from 1 to 10000000, not `0`"),
        (&["bins", "--balls", "0"], "--balls takes a whole number from 1 to 1000000000, not `0`"),
        (&["bins", "--choices", "0"], "--choices takes whole numbers from 1 to 10 separated by commas"),
        (
            &["bins", "--choices", "1,4", "--bins", "3"],
            "--choices: best of 4 draws 4 distinct bins, but --bins is 3",
        ),
        (&["bins", "--method", "least"], "--method takes random, best-of-d, round-robin or hash"),
        (&["bins", "--method", "hash", "--choices", "2"], "--choices belongs to --method best-of-d"),
        (&["bins", "--trials", "1"], "--trials takes a whole number from 2 to 100000"),
        (
            &["bins", "--balls", "1000000000", "--trials", "100000"],
            "--balls × --trials is at most 10000000000 balls a method (minutes on a core), not 100000000000000",
        ),
        (&["bins", "--seed", "-1"], "--seed takes a whole number from 0 to 9007199254740991"),
        (&["bins", "--bins"], "--bins needs a value"),
        (&["bins", "--set", "load=1"], "--set belongs to run, sweep, compare, capacity, plot, keys and trace, not bins"),
        (
            &["capacity", "continuous-random", "--slo", "p99=50ms", "--set", "demand=spike"],
            "capacity searches over load, which demand=spike ignores",
        ),
        (
            &["capacity", "continuous-random", "--slo", "p99=50ms", "--duration", "0.001"],
            "random: the probe at load 0.050 measured nothing: no request completed after the warm-up in its 0.001 s run; lengthen --duration",
        ),
    ];
    for (args, words) in cases {
        let out = lbsim(args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with("lbsim: ") && stderr.contains(words), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
}

#[test]
fn docs_list_every_field_as_the_command_line_does() {
    let table = text(&lbsim(&["fields", "--markdown"]).stdout);
    let model = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/model.md")).unwrap();
    assert!(
        model.contains(&table),
        "docs/model.md's field table is out of date: paste `lbsim fields --markdown`"
    );
}

#[test]
fn compare_prints_both_runs_and_b_over_a_with_intervals() {
    let base =
        ["compare", "scenarios/continuous-random.toml", "--duration", "20", "--vs", "policy=power-of-d"];
    let out = lbsim(&base);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for words in [
        "A: policy random",
        "B: policy power-of-d",
        "common random numbers: both seed 1",
        "queue time p99 ms",
    ] {
        assert!(stdout.contains(words), "{words}: {stdout}");
    }
    let json: serde_json::Value =
        serde_json::from_slice(&lbsim(&[&base[..], &["--json"]].concat()).stdout).unwrap();
    let p99 = |side: &str| json[side]["summary"]["queue_ms"]["p99"].as_f64().unwrap();
    let ratio = &json["comparison"]["queue_p99"];
    let (estimate, half) = (ratio["estimate"].as_f64().unwrap(), ratio["half_width"].as_f64().unwrap());
    assert!((estimate - p99("b") / p99("a")).abs() < 1e-12, "{ratio}");
    assert!(half > 0.0 && estimate + half < 1.0, "{ratio}");
    assert_eq!(json["a"]["scenario"]["seed"], json["b"]["scenario"]["seed"]);
    assert_eq!(json["common_random_numbers"], true);

    let independent: serde_json::Value =
        serde_json::from_slice(&lbsim(&[&base[..], &["--json", "--independent-seeds"]].concat()).stdout)
            .unwrap();
    assert_eq!(independent["b"]["scenario"]["seed"], 2);
    assert_eq!(independent["common_random_numbers"], false);
}

#[test]
fn compare_runs_two_presets_on_the_same_requests() {
    // A's --set, seed and run length carry over to the preset B names.
    let base = ["compare", "envoy-round-robin", "--vs-preset", "envoy-least-request", "--duration", "20"];
    let sets = ["--seed", "7", "--set", "load=0.85"];
    let out = lbsim(&[&base[..], &sets].concat());
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let changes = "B (preset=envoy-least-request, policy=least-request-with-replacement) over A · \
        common random numbers: both seed 7";
    assert!(stdout.contains(changes), "{stdout}");
    let json: serde_json::Value =
        serde_json::from_slice(&lbsim(&[&base[..], &sets, &["--json"]].concat()).stdout).unwrap();
    for field in ["seed", "duration_s", "warmup_s", "load"] {
        assert_eq!(json["a"]["scenario"][field], json["b"]["scenario"][field], "{field}");
    }
    assert_eq!(json["b"]["scenario"]["policy"], "least-request-with-replacement");
    let missing = text(&lbsim(&["compare", "default", "--vs-preset", "nginx-plus"]).stderr);
    assert!(
        missing.contains("--vs-preset takes a preset's name (`lbsim presets` lists them), not `nginx-plus`"),
        "{missing}"
    );
}

#[test]
fn compare_names_what_is_wrong() {
    let out = lbsim(&["compare", "default", "--set", "policy=random"]);
    assert!(text(&out.stderr).contains("--vs"), "{}", text(&out.stderr));
    let out = lbsim(&["compare", "default", "--vs", "policy=fastest"]);
    let stderr = text(&out.stderr);
    assert!(!out.status.success() && stderr.contains("--vs") && stderr.contains("policy"), "{stderr}");
    let out = lbsim(&["run", "default", "--vs", "policy=random"]);
    assert!(text(&out.stderr).contains("belongs to compare"), "{}", text(&out.stderr));
    // A and B are measured over one stretch of simulated time, or their
    // figures are not comparable.
    for (vs, field) in [("duration_s=8", "duration_s"), ("warmup_s=1.5", "warmup_s")] {
        for command in ["compare", "plot"] {
            let out = lbsim(&[command, "continuous-random", "--duration", "3", "--vs", vs]);
            let stderr = text(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{command} {vs}: {stderr}");
            assert!(stderr.contains(&format!("--vs cannot change {field}")), "{command} {vs}: {stderr}");
        }
    }
    let out = lbsim(&["compare", "default", "--vs", "seed=4", "--independent-seeds"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--vs seed=4 and --independent-seeds both set B's seed"), "{stderr}");
}

#[test]
fn compare_says_which_seeds_it_ran() {
    let base = ["compare", "continuous-random", "--duration", "3", "--vs", "seed=2"];
    let out = lbsim(&base);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("independent seeds: A 1, B 2"), "{stdout}");
    assert!(!stdout.contains("common random numbers"), "{stdout}");
    let json: serde_json::Value =
        serde_json::from_slice(&lbsim(&[&base[..], &["--json"]].concat()).stdout).unwrap();
    assert_eq!(json["common_random_numbers"], false);
    assert_eq!((json["seeds"]["a"].as_u64(), json["seeds"]["b"].as_u64()), (Some(1), Some(2)));
}

#[test]
fn csv_files_name_their_origin_and_hold_the_whole_run() {
    let dir = std::env::temp_dir().join(format!("lbsim-csv-{}", std::process::id()));
    let out = lbsim(&[
        "run",
        "scenarios/continuous-random.toml",
        "--duration",
        "150",
        "--seed",
        "4",
        "--csv",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let version = env!("CARGO_PKG_VERSION");
    let series =
        std::fs::read_to_string(dir.join(format!("continuous-random_seed-4_lbsim-{version}_series.csv")))
            .unwrap();
    let servers =
        std::fs::read_to_string(dir.join(format!("continuous-random_seed-4_lbsim-{version}_servers.csv")))
            .unwrap();
    assert!(series.starts_with("time_s,queue_p50_ms,"), "{series}");
    // A sample every 250 ms from the first to the last: more than the two
    // minutes the simulation itself keeps.
    assert_eq!(series.lines().count(), 1 + 600);
    assert!(series.lines().last().unwrap().starts_with("150,"));
    assert!(servers.starts_with("server,completed,") && servers.lines().count() == 1 + 10, "{servers}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn until_precision_stops_once_the_p99_is_known_that_well() {
    let args = [
        "run",
        "scenarios/continuous-random.toml",
        "--duration",
        "3600",
        "--until-precision",
        "5%",
        "--json",
    ];
    let json: serde_json::Value = serde_json::from_slice(&lbsim(&args).stdout).unwrap();
    let simulated = json["summary"]["simulated_s"].as_f64().unwrap();
    assert_eq!(json["precision"]["reached"], true, "{}", json["precision"]);
    assert!(simulated < 3600.0, "{simulated}");
    let p99 = &json["summary"]["confidence"]["queue_ms"]["p99"];
    assert!(p99["half_width"].as_f64().unwrap() <= 0.05 * p99["estimate"].as_f64().unwrap(), "{p99}");
    let short = lbsim(&["run", "default", "--duration", "5", "--until-precision", "0.1%"]);
    assert!(text(&short.stdout).contains("precision not reached"), "{}", text(&short.stdout));
}

#[test]
fn until_precision_is_not_met_by_nothing() {
    // Ten-minute services: two requests start and none completes.
    let args =
        ["run", "default", "--until-precision", "5%", "--duration", "36", "--set", "service_mean_ms=600000"];
    let stdout = text(&lbsim(&args).stdout);
    assert!(
        stdout.starts_with("precision not reached at 36.0 s (duration_s): no request completed"),
        "{stdout}"
    );
    assert!(!stdout.contains("within ±"), "{stdout}");
    let json: serde_json::Value =
        serde_json::from_slice(&lbsim(&[&args[..], &["--json"]].concat()).stdout).unwrap();
    let precision = &json["precision"];
    assert_eq!(
        (&precision["reached"], &precision["relative_half_width"]),
        (&false.into(), &serde_json::Value::Null),
        "{precision}"
    );
    assert_eq!(precision["why_not"], "no request completed", "{precision}");
    // A handful of requests make no p99 either.
    let few =
        ["run", "default", "--until-precision", "5%", "--duration", "60", "--set", "service_mean_ms=20000"];
    let stdout = text(&lbsim(&few).stdout);
    assert!(stdout.starts_with("precision not reached at 60.0 s (duration_s): only"), "{stdout}");
}

#[test]
fn presets_run_by_name_as_their_files_do() {
    let listed = text(&lbsim(&["presets"]).stdout);
    assert!(listed.contains("\n  continuous-random\n      Sessions arrive continuously"), "{listed}");
    let by_name = lbsim(&["run", "continuous-random", "--duration", "3", "--json"]);
    let by_file = lbsim(&["run", "scenarios/continuous-random.toml", "--duration", "3", "--json"]);
    let trace = |out: &Output| {
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        json["summary"]["trace_hash"].clone()
    };
    assert_eq!(trace(&by_name), trace(&by_file));
    let missing = text(&lbsim(&["run", "no-such-preset"]).stderr);
    assert!(missing.contains("lbsim presets"), "{missing}");
}

#[test]
fn presets_are_listed_under_the_name_of_the_system_each_stands_for() {
    let listed = text(&lbsim(&["presets"]).stdout);
    assert!(listed.starts_with("lbsim's own scenarios\n  spike-random\n"), "{listed}");
    let at =
        |line: &str| listed.find(&format!("\n{line}\n")).unwrap_or_else(|| panic!("no {line}: {listed}"));
    let (haproxy, linkerd) = (at("HAProxy (docs/proxies.md)"), at("Linkerd (docs/proxies.md)"));
    for preset in ["haproxy", "haproxy-roundrobin", "haproxy-leastconn"] {
        let listed_at = at(&format!("  {preset}"));
        assert!((haproxy..linkerd).contains(&listed_at), "{preset} is not under HAProxy: {listed}");
    }
    assert!(listed.contains("\n\nEnvoy (docs/proxies.md)\n  envoy-round-robin\n"), "{listed}");
    assert_eq!(listed.matches("Envoy (docs/proxies.md)").count(), 1, "{listed}");
}

#[test]
fn capacity_finds_each_policys_highest_load_within_the_objective() {
    let args = [
        "capacity",
        "continuous-random",
        "--slo",
        "p99=50ms",
        "--set",
        "policy=random,power-of-d",
        "--duration",
        "30",
        "--json",
    ];
    let out = lbsim(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let outcomes = json["outcomes"].as_array().unwrap();
    let capacity = |i: usize| outcomes[i]["capacity"].as_f64().unwrap();
    assert_eq!(
        (outcomes[0]["policy"].as_str(), outcomes[1]["policy"].as_str()),
        (Some("random"), Some("power-of-d"))
    );
    // Power of two sustains more load than random within 50 ms of p99 queue time.
    assert!(0.05 < capacity(0) && capacity(0) + 0.05 < capacity(1) && capacity(1) <= 1.0, "{json}");
    for outcome in outcomes {
        let c = outcome["capacity"].as_f64().unwrap();
        for probe in outcome["probes"].as_array().unwrap() {
            let load = probe["load"].as_f64().unwrap();
            // The search is a bisection: every probe at or below the capacity held.
            assert_eq!(probe["holds"].as_bool().unwrap(), load <= c, "{outcome}");
        }
    }
    let missing = text(&lbsim(&["capacity", "default"]).stderr);
    assert!(missing.contains("--slo p99=MS"), "{missing}");
    let bad = text(&lbsim(&["capacity", "default", "--slo", "p50=3"]).stderr);
    assert!(bad.contains("--slo takes"), "{bad}");
}

#[test]
fn bins_prints_each_method_beside_theory_and_repeats_its_json() {
    let args = ["bins", "--balls", "20000", "--bins", "50", "--choices", "1,2", "--trials", "20"];
    let out = lbsim(&[&args[..], &["--method", "best-of-d,round-robin,hash"]].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for words in ["random", "best of 2", "round-robin", "hash", "max − mean ± se", "Raab and Steger", "Azar"]
    {
        assert!(stdout.contains(words), "{words}: {stdout}");
    }
    let json = |extra: &[&str]| -> serde_json::Value {
        let out = lbsim(&[&args[..], extra, &["--json"]].concat());
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let (first, second) = (json(&[]), json(&[]));
    let rows = first["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!((rows[0]["method"].as_str(), rows[1]["choices"].as_u64()), (Some("random"), Some(2)));
    for row in rows {
        assert!(row["wall_s"].as_f64().is_some());
        assert!(row["max_minus_mean"]["se"].as_f64().unwrap() > 0.0);
    }
    // Best of two's spread is far below random's.
    let mean = |i: usize| rows[i]["max_minus_min"]["mean"].as_f64().unwrap();
    assert!(mean(1) * 5.0 < mean(0), "{first}");
    let without_walls = |mut v: serde_json::Value| {
        v["wall_s"] = serde_json::Value::Null;
        for row in v["rows"].as_array_mut().unwrap() {
            row["wall_s"] = serde_json::Value::Null;
        }
        v["threads"] = serde_json::Value::Null;
        v
    };
    let other_seed = json(&["--seed", "2"]);
    assert_ne!(other_seed["rows"][0]["max_minus_mean"], first["rows"][0]["max_minus_mean"]);
    assert_eq!(without_walls(first), without_walls(second));
}

/// lbsim with standard output (or error) written to `/dev/full`, where
/// every write fails for want of space.
#[cfg(target_os = "linux")]
fn lbsim_into_full_device(args: &[&str], stream: &str) -> Output {
    let full = || std::fs::File::options().write(true).open("/dev/full").expect("open /dev/full");
    let mut command = Command::new(env!("CARGO_BIN_EXE_lbsim"));
    command.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
    match stream {
        "stdout" => command.stdout(full()),
        _ => command.stderr(full()),
    };
    command.output().expect("run lbsim")
}

#[cfg(target_os = "linux")]
#[test]
fn a_failed_write_is_one_error_line_not_a_panic() {
    let cases: &[&[&str]] = &[
        &["--help"],
        &["run", "--help"],
        &["--version"],
        &["completions", "bash"],
        &["fields"],
        &["policies"],
        &["presets"],
        &["run", "default", "--duration", "1"],
        &["run", "default", "--duration", "1", "--json"],
        &["sweep", "default", "--set", "load=0.5,0.6", "--duration", "1"],
        &["keys", "default", "--set", "policy=ring"],
        &["bins", "--balls", "100", "--bins", "10", "--trials", "2"],
    ];
    for args in cases {
        let out = lbsim_into_full_device(args, "stdout");
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with("lbsim: cannot write to standard output: "), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
    // With standard error failing too, there is nowhere to say so: the exit code tells.
    let dir = std::env::temp_dir().join(format!("lbsim-full-{}", std::process::id()));
    let csv = ["run", "default", "--duration", "1", "--csv", dir.to_str().unwrap()];
    assert_eq!(lbsim_into_full_device(&csv, "stderr").status.code(), Some(2));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_preset_name_means_the_preset_and_a_path_says_it_is_one() {
    let dir = std::env::temp_dir().join(format!("lbsim-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["mmc", "default", "mine"] {
        std::fs::write(dir.join(name), "servers = 3\n").unwrap();
    }
    let in_dir = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_lbsim")).args(args).current_dir(&dir).output().unwrap();
        (out.status.code(), text(&out.stdout), text(&out.stderr))
    };
    for name in ["mmc", "default"] {
        let (code, stdout, stderr) = in_dir(&["run", name, "--duration", "1", "--warmup", "0"]);
        assert_eq!(code, Some(0), "{name}: {stderr}");
        assert!(!stdout.contains("3 servers"), "{name} ran the file: {stdout}");
    }
    let (_, _, stderr) = in_dir(&["run", "mmc", "--duration", "1", "--warmup", "0"]);
    assert!(stderr.contains("`mmc` is the preset; for the file, write ./mmc"), "{stderr}");
    let (code, stdout, _) = in_dir(&["run", "./mmc", "--duration", "1"]);
    assert!(code == Some(0) && stdout.contains("3 servers"), "{stdout}");
    let (code, _, stderr) = in_dir(&["run", "mine", "--duration", "1"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("no preset is named `mine`") && stderr.contains("./mine"), "{stderr}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_scenario_file_past_one_mib_is_refused_without_reading_on() {
    let big = std::env::temp_dir().join(format!("lbsim-big-{}.toml", std::process::id()));
    std::fs::write(&big, format!("#{}\n", "x".repeat(1 << 20))).unwrap();
    let mut paths = vec![big.to_str().unwrap().to_string()];
    if cfg!(target_os = "linux") {
        paths.push("/dev/zero".into());
    }
    for path in &paths {
        let out = lbsim(&["run", path, "--duration", "1"]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{path}: {stderr}");
        assert!(stderr.contains("a scenario file may hold at most 1 MiB"), "{path}: {stderr}");
    }
    std::fs::remove_file(big).unwrap();
}

#[test]
fn keys_counts_every_key_it_can_and_says_which() {
    let args =
        ["keys", "default", "--set", "policy=modulo", "--set", "servers=100", "--set", "key_space=1000000"];
    let stdout = text(&lbsim(&args).stdout);
    assert!(stdout.contains("(all 1,000,000 keys): sd/mean 0.000, max/mean 1.000"), "{stdout}");
    let json: serde_json::Value =
        serde_json::from_slice(&lbsim(&[&args[..], &["--json"]].concat()).stdout).unwrap();
    assert_eq!(
        json["counted"],
        serde_json::json!({"counted": 1_000_000, "key_space": 1_000_000, "drawn_at_random": false})
    );
    assert_eq!(json["keys_per_server"], serde_json::json!(vec![10_000; 100]));
    let run: serde_json::Value = serde_json::from_slice(
        &lbsim(&[
            "run",
            "default",
            "--set",
            "policy=modulo",
            "--set",
            "servers=100",
            "--set",
            "key_space=1000000",
            "--duration",
            "1",
            "--json",
        ])
        .stdout,
    )
    .unwrap();
    let spread = &run["summary"]["key_spread"];
    assert_eq!(
        (spread["key_share_cv"].as_f64(), spread["key_share_max_over_mean"].as_f64()),
        (Some(0.0), Some(1.0)),
        "{spread}"
    );
}

#[test]
fn keys_lists_and_counts_keys_from_one_chooser_pool() {
    // Under subsets or class pools, chooser 0 holds part of the servers:
    // the list of key→server and the per-server counts must be its own.
    for set in [
        &["policy=ring", "subset_size=1"][..],
        &["policy=ring", "class_shares=0.5,0.5", "class_costs=1,1", "class_pools=0-6,7-9"],
    ] {
        let mut args = vec!["keys", "default", "--json"];
        args.extend(set.iter().flat_map(|s| ["--set", s]));
        let out = lbsim(&args);
        let json: serde_json::Value =
            serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("{}", text(&out.stderr)));
        let pool: Vec<u64> = json["pool"].as_array().unwrap().iter().map(|s| s.as_u64().unwrap()).collect();
        let mut counts = vec![0u64; pool.len()];
        for server in json["servers"].as_array().unwrap() {
            counts[pool.iter().position(|&p| Some(p) == server.as_u64()).unwrap()] += 1;
        }
        assert_eq!(json["keys_per_server"], serde_json::json!(counts), "{set:?}");
        assert_eq!(json["chooser"], 0);
    }
    let stdout = text(&lbsim(&["keys", "default", "--set", "policy=ring", "--set", "subset_size=1"]).stdout);
    assert!(stdout.contains("as chooser 0 places them over its pool of 1 of 10 servers"), "{stdout}");
    assert!(stdout.contains("keys per server: 5→10000"), "{stdout}");
}

#[test]
fn long_work_prints_no_progress_when_stderr_is_not_a_terminal() {
    // A few seconds of wall time, past the quiet start after which a
    // terminal would see a bar: here stderr is a pipe, and stays empty.
    let out = lbsim(&["run", "benchmark", "--duration", "30"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "");
    assert!(text(&out.stdout).starts_with("policy p2c-piggyback"), "{}", text(&out.stdout));
}

/// Every server down, a large budget and a 60 s backoff: no request ends in
/// 30 s, while 16,997 retries go out for 13,385 requests. Attempts per
/// request once divided the retries of every request by the requests that
/// ended (none) and printed 16998.000, far above the budget's 1 + 1,000.
/// Attempts sent over requests created is one population; before any
/// request there is no figure.
#[test]
fn attempts_per_request_count_the_requests_that_made_them() {
    let down: Vec<String> = (0..10).map(|server| format!("0s:down:{server}")).collect();
    let failures = format!("failures={}", down.join(","));
    let args = [
        "run",
        "default",
        "--duration",
        "30",
        "--set",
        "retry_budget=1000",
        "--set",
        "retry_backoff_ms=60000",
        "--set",
        &failures,
    ];
    let json: serde_json::Value =
        serde_json::from_slice(&lbsim(&[&args[..], &["--json"]].concat()).stdout).unwrap();
    let summary = &json["summary"];
    let counts = &summary["counts"];
    let (created, retried) = (counts["created"].as_f64().unwrap(), counts["retried"].as_f64().unwrap());
    assert_eq!(counts["completed"].as_u64().unwrap() + counts["failed"].as_u64().unwrap(), 0);
    let attempts = summary["attempts_per_request"].as_f64().unwrap();
    assert_eq!(attempts, 1.0 + retried / created);
    assert!(attempts > 2.0 && attempts < 1001.0, "{attempts}");
    let stdout = text(&lbsim(&args).stdout);
    assert!(stdout.contains(&format!(" · {attempts:.3} attempts per request · ")), "{stdout}");
    // No request ended, so there is no share of them that succeeded.
    assert!(summary["availability"].is_null(), "{}", summary["availability"]);
    assert!(stdout.contains(" · availability n/a (no request ended) · "), "{stdout}");
    let none = ["run", "default", "--duration", "0.001", "--set", "load=0.05", "--json"];
    let json: serde_json::Value = serde_json::from_slice(&lbsim(&none).stdout).unwrap();
    assert_eq!(json["summary"]["counts"]["created"], 0);
    assert!(json["summary"]["attempts_per_request"].is_null(), "{}", json["summary"]["attempts_per_request"]);
}

#[test]
fn policies_line_their_descriptions_up_after_the_longest_name() {
    let listed = text(&lbsim(&["policies"]).stdout);
    let column = listed.lines().map(|line| line.find("  ").unwrap() + 2).max().unwrap();
    for line in listed.lines() {
        let (name, description) = line.split_at(column);
        assert!(name.ends_with("  ") && !description.starts_with(' '), "{line}");
    }
}

#[test]
fn an_unstable_queues_theoretical_wait_is_infinite_in_words() {
    let out = lbsim(&["run", "theory-mm3", "--set", "load=1.5", "--duration", "20", "--warmup", "1"]);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("mean queue time: theory infinite · measured"), "{stdout}");
}

#[test]
fn a_long_argument_is_echoed_cut_short() {
    let long = "9".repeat(100_000) + "x";
    for args in [vec!["run", "default", "--duration", &long], vec!["bins", "--bins", &long], vec![&long]] {
        let stderr = text(&lbsim(&args).stderr);
        assert!(stderr.len() < 1000 && stderr.contains("(100001 characters)"), "{}", &stderr[..200]);
    }
}

/// The commands `lbsim --help` lists, but for `help` itself.
fn commands() -> Vec<String> {
    let listed = text(&lbsim(&["--help"]).stdout);
    let block = listed.split("Commands:\n").nth(1).expect("a list of commands");
    let names = block.lines().take_while(|line| line.starts_with("  "));
    names
        .filter_map(|line| line.split_whitespace().next())
        .filter(|n| *n != "help")
        .map(String::from)
        .collect()
}

#[test]
fn every_command_has_its_own_help_and_lbsim_a_version() {
    let commands = commands();
    assert_eq!(commands.len(), 13, "{commands:?}");
    for command in &commands {
        for args in [vec![command.as_str(), "--help"], vec![command, "-h"], vec!["help", command]] {
            let out = lbsim(&args);
            let stdout = text(&out.stdout);
            assert_eq!(out.status.code(), Some(0), "{args:?}: {}", text(&out.stderr));
            assert!(stdout.contains(&format!("Usage: lbsim {command}")), "{args:?}: {stdout}");
        }
    }
    let version = lbsim(&["--version"]);
    assert_eq!(text(&version.stdout), format!("lbsim {}\n", env!("CARGO_PKG_VERSION")));
    // Nothing asked for is a mistake, said in one line, not a help page
    // with a success status.
    let bare = lbsim(&[]);
    assert_eq!(bare.status.code(), Some(2));
    assert!(
        text(&bare.stderr).starts_with("lbsim: a command is needed: run, sweep, compare"),
        "{}",
        text(&bare.stderr)
    );
}

#[test]
fn docs_show_each_commands_help() {
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cli.md")).unwrap();
    let mut shown = Vec::new();
    for block in docs.split("```text\n$ lbsim ").skip(1) {
        let (call, rest) = block.split_once('\n').unwrap();
        let quoted = rest.split("\n```").next().unwrap();
        let args: Vec<&str> = call.split_whitespace().collect();
        let printed = text(&lbsim(&args).stdout);
        assert_eq!(
            quoted,
            printed.trim_end(),
            "docs/cli.md quotes `lbsim {call}` as it no longer prints: paste its output there"
        );
        shown.push(args[0].to_string());
    }
    for command in ["run", "sweep", "compare", "capacity", "plot", "keys", "bins", "trace"] {
        assert!(shown.iter().any(|s| s == command), "docs/cli.md quotes no help of {command}");
    }
}

#[test]
fn completions_for_three_shells_and_man_pages_know_every_option() {
    for (shell, marker) in [("bash", "_lbsim()"), ("zsh", "#compdef lbsim"), ("fish", "complete -c lbsim")] {
        let out = lbsim(&["completions", shell]);
        let script = text(&out.stdout);
        assert!(out.status.success() && script.contains(marker), "{shell}: {}", text(&out.stderr));
        for option in ["--trace-speed", "--until-precision", "--independent-seeds", "--choices"] {
            let name = if shell == "fish" { option.trim_start_matches('-') } else { option };
            assert!(script.contains(name), "{shell} lacks {option}");
        }
    }
    let refused = lbsim(&["completions", "tcsh"]);
    assert!(
        text(&refused.stderr).contains("SHELL takes bash, elvish, fish, powershell or zsh, not `tcsh`"),
        "{}",
        text(&refused.stderr)
    );
    let dir = std::env::temp_dir().join(format!("lbsim-man-{}", std::process::id()));
    let out = lbsim(&["man", "--out", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let page = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(page("lbsim.1").starts_with(".ie \\n(.g .ds Aq") && page("lbsim.1").contains(".TH lbsim 1"));
    for command in commands() {
        assert!(page(&format!("lbsim-{command}.1")).contains(&format!("lbsim\\-{command}")), "{command}");
    }
    assert!(page("lbsim-run.1").contains("\\-\\-trace\\-speed"));
    std::fs::remove_dir_all(dir).unwrap();
}

/// `lbsim ARGS`, refused: its one line of standard error.
fn refusal(args: &[&str]) -> String {
    let out = lbsim(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out.stderr));
    assert!(out.stdout.is_empty(), "{args:?}");
    text(&out.stderr)
}

#[test]
fn a_recording_never_empties_its_trace_nor_is_left_half_written() {
    let trace = TempFile::new("to-record.csv", b"time_s\n0.1\n0.2\n");
    let link = std::env::temp_dir().join(format!("lbsim-test-{}-link.csv", std::process::id()));
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&trace.0, &link).unwrap();
    let link = TempFile(link);
    for recorded in [trace.path(), link.path()] {
        assert_eq!(
            refusal(&["run", "default", "--trace", trace.path(), "--record-trace", recorded]),
            format!("lbsim: --record-trace {recorded} is the file --trace {} reads: recording would empty it before it is read; record to another file\n", trace.path())
        );
    }
    assert_eq!(std::fs::read(&trace.0).unwrap(), b"time_s\n0.1\n0.2\n");
    assert_eq!(
        refusal(&["run", "default", "--record-trace", ""]),
        "lbsim: --record-trace: a path is needed, not an empty value\n"
    );
    // A bad row stops the run: what was recorded goes, and the message says so.
    let bad = TempFile::new("late-fault.csv", b"time_s\n0.1\n0.2\n0.15\n");
    let recording = std::env::temp_dir().join(format!("lbsim-test-{}-recording.csv", std::process::id()));
    let shown = recording.to_str().unwrap();
    let stderr =
        refusal(&["run", "default", "--trace", bad.path(), "--record-trace", shown, "--duration", "1"]);
    assert!(stderr.ends_with(&format!("; no recording was written to {shown}\n")), "{stderr}");
    assert!(!recording.exists() && !std::path::Path::new(&format!("{shown}.partial")).exists());
}

#[test]
fn a_replay_says_what_it_does_not_use_and_when_its_rows_come() {
    let epoch = TempFile::new("epoch.csv", b"time_s\n1764752400\n1764752401\n");
    assert_eq!(
        refusal(&["run", "default", "--trace", epoch.path()]),
        format!("lbsim: {}: the first row is at 1764752400 s, after the run's end at 60 s, so no request arrived: a replay's times count from the run's start, so subtract the first row's time from each\n", epoch.path())
    );
    let trace = TempFile::new("even.csv", b"time_s\n0\n1\n2\n3\n");
    let replay = ["--trace", trace.path(), "--duration", "5"];
    for (args, given, field) in [
        (vec!["sweep", "default", "--set", "load=0.5,0.9"], "--set load=0.5,0.9", "load"),
        (vec!["compare", "default", "--vs", "demand=spike"], "--vs demand=spike", "demand"),
        (vec!["run", "default", "--set", "load=0.3"], "--set load=0.3", "load"),
    ] {
        assert_eq!(
            refusal(&[&args[..], &replay].concat()),
            format!("lbsim: {given}: a replay's requests arrive when the trace says, so the scenario's {field} is not used; scale the trace's rate with --trace-speed\n")
        );
    }
    // The header names the trace for the load; a sweep's rows name the trace.
    let out = lbsim(&[&["run", "default"], &replay[..]].concat());
    let header = text(&out.stdout).lines().nth(1).unwrap_or_default().to_string();
    assert!(header.contains(" · arrivals from the trace · ") && !header.contains("load"), "{header}");
    let out = lbsim(&[&["sweep", "default", "--set", "policy=random,ring", "--json"], &replay[..]].concat());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let report = lbsim(&["trace", trace.path(), "--json"]);
    let hash = serde_json::from_slice::<serde_json::Value>(&report.stdout).unwrap()["hash"].clone();
    let expected = serde_json::json!({ "file": trace.path(), "speed": 1.0, "looped": false, "hash": hash });
    for row in json["rows"].as_array().unwrap() {
        assert_eq!(row["trace"], expected);
    }
}
