//! The layering rule (docs/where-to-change.md, "The layers"): the scenario
//! is the bottom layer, plain data and its field table (beside the
//! foundations every layer may use, `sort`, `format` and `number`), naming a policy
//! by a value of its own (`PolicyKind`, a place in the registry that
//! `policy/` resolves); the policies and the placement schemes stand on
//! it and name nothing that tells or draws (explain/, narration/, ui/,
//! web/, charts/) nor the engine that runs them; the charts draw what a
//! run measured and name none of what shows them (ui/, web/, explain/,
//! cli/). Each source file of a
//! layer is read for the parts of the crate it names (`crate::part`, in a
//! `use` line or a path), so a new import across the rule fails here with
//! its file and line.

use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Every `.rs` file under `dir`, sorted.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// Each part of the crate that a line of `text` names, with the line's
/// number: the word after each `crate::`.
fn parts_named(text: &str) -> Vec<(usize, String)> {
    let mut named = Vec::new();
    for (number, line) in text.lines().enumerate() {
        for (at, _) in line.match_indices("crate::") {
            let rest = &line[at + "crate::".len()..];
            let part: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            named.push((number + 1, part));
        }
    }
    named
}

/// Where the files under `dir` name a part of the crate that `allowed`
/// refuses, one line each.
fn crossings(dir: &str, allowed: impl Fn(&str) -> bool) -> Vec<String> {
    let root = Path::new(ROOT);
    let mut found = Vec::new();
    for file in sources(&root.join(dir)) {
        let text = std::fs::read_to_string(&file).unwrap();
        for (line, part) in parts_named(&text).into_iter().filter(|(_, part)| !allowed(part)) {
            found.push(format!("{}:{line} names crate::{part}", file.strip_prefix(root).unwrap().display()));
        }
    }
    found
}

#[test]
fn the_scenario_names_only_itself_and_the_crates_foundations() {
    let found = crossings("src/scenario", |part| ["scenario", "sort", "format", "number"].contains(&part));
    assert!(found.is_empty(), "the scenario is the bottom layer:\n{}", found.join("\n"));
}

#[test]
fn policies_and_schemes_name_nothing_that_runs_tells_or_draws_them() {
    const ABOVE: [&str; 8] = ["engine", "explain", "narration", "ui", "web", "charts", "cli", "presets"];
    for dir in ["src/policy", "src/keys"] {
        let found = crossings(dir, |part| !ABOVE.contains(&part));
        assert!(found.is_empty(), "{dir} stands below these:\n{}", found.join("\n"));
    }
}

#[test]
fn the_charts_name_nothing_that_shows_them() {
    let found = crossings("src/charts", |part| !["ui", "web", "explain", "cli"].contains(&part));
    assert!(
        found.is_empty(),
        "the charts stand below the views and pages that show them:\n{}",
        found.join("\n")
    );
}

#[test]
fn a_crossing_is_found_with_its_file_and_line() {
    let text = "use super::x;\nfn f() { crate::policy::build(); }\n";
    assert_eq!(parts_named(text), [(2, "policy".to_string())]);
}
