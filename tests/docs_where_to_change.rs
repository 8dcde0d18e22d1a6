//! docs/where-to-change.md kept in step with the registries: every path
//! it names exists, every registry it names (`NAME` in `path`) is declared
//! in that file, and every chart and policy is where the page says a chart
//! or a policy lives.

use lbsim::charts::{Drawer, CHARTS};
use lbsim::scenario::PolicyKind;
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn page() -> String {
    std::fs::read_to_string(Path::new(ROOT).join("docs/where-to-change.md")).unwrap()
}

fn source(path: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The page's code spans, `like this`, in order (a span may break a line).
fn spans(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .map(|span| span.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

fn is_path(span: &str) -> bool {
    ["src/", "tests/", "docs/"].iter().any(|p| span.starts_with(p)) || span == "explain.html"
}

#[test]
fn every_path_the_page_names_exists() {
    let paths: Vec<String> = spans(&page()).into_iter().filter(|s| is_path(s)).collect();
    assert!(paths.len() > 10, "{paths:?}");
    for path in paths {
        assert!(
            Path::new(ROOT).join(&path).exists(),
            "docs/where-to-change.md names {path}, which is not there"
        );
    }
}

#[test]
fn every_registry_the_page_names_is_declared_where_it_says() {
    let spans = spans(&page());
    let page = page().split_whitespace().collect::<Vec<_>>().join(" ");
    let mut named = Vec::new();
    for pair in spans.windows(2) {
        let (name, path) = (&pair[0], &pair[1]);
        let upper = name.chars().all(|c| c.is_ascii_uppercase() || c == '_');
        if !(upper && is_path(path) && page.contains(&format!("`{name}` in `{path}`"))) {
            continue;
        }
        let text = source(path);
        assert!(
            text.contains(&format!("const {name}:")) || text.contains(&format!("static {name}:")),
            "docs/where-to-change.md says {path} holds the registry {name}"
        );
        named.push(name.as_str());
    }
    assert_eq!(
        named,
        ["PICKING", "NAMES", "SCHEMES", "FIELDS", "CONTROLS", "CHARTS", "REGISTRY"],
        "each written `NAME` in `path`"
    );
}

#[test]
fn every_chart_is_a_file_of_its_key_and_its_figure_too_when_a_view_draws_it() {
    for chart in CHARTS {
        let file = format!("src/charts/{}.rs", chart.key);
        assert!(source(&file).contains("pub static CHART: Descriptor"), "{file} holds no CHART");
        let figure = Path::new(ROOT).join(format!("src/web/figures/{}.rs", chart.key));
        assert_eq!(figure.exists(), Drawer::Views.draws(chart), "{}: its figure's file", chart.key);
    }
}

#[test]
fn every_policy_is_declared_in_a_file_of_policy_or_keys() {
    let files: Vec<String> = ["src/policy", "src/keys"]
        .iter()
        .flat_map(|dir| std::fs::read_dir(Path::new(ROOT).join(dir)).unwrap())
        .map(|entry| std::fs::read_to_string(entry.unwrap().path()).unwrap_or_default())
        .collect();
    for policy in PolicyKind::ALL {
        let declared = format!("name: \"{}\",", policy.name());
        assert_eq!(files.iter().filter(|f| f.contains(&declared)).count(), 1, "{policy:?}");
    }
}
