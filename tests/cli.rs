//! The command line, run as a user would run it.

use std::process::{Command, Output};

fn lbsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lbsim"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run lbsim")
}

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
    let cases: &[(&[&str], &str)] = &[
        (&["walk"], "unknown command"),
        (&["run", "no/such/file.toml"], "cannot read"),
        (&["run", &broken], "not valid TOML"),
        (&["run", "default", "--set", "load=7"], "field `load`"),
        (&["run", "default", "--set", "nosuch=1"], "unknown field `nosuch`"),
        (&["run", "default", "--duration", "soon"], "not a duration"),
        (&["run", "default", "--warmup", "90", "--duration", "60"], "warmup_s"),
        (&["sweep", "default", "--set", "load=0.5"], "list of values"),
        (&["run", "default", "--bogus"], "unknown option"),
    ];
    for (args, words) in cases {
        let out = lbsim(args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.starts_with("lbsim: ") && stderr.contains(words), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn readme_documents_every_field_as_the_command_line_does() {
    let table = text(&lbsim(&["fields", "--markdown"]).stdout);
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(readme.contains(&table), "README's field table is out of date: paste `lbsim fields --markdown`");
}
