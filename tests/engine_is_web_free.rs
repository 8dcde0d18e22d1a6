//! The engine never imports web code: no web crate among the native
//! dependencies, and no mention of one in the engine's sources.

const WEB_CRATES: &[&str] =
    &["wasm-bindgen", "web-sys", "js-sys", "plotters", "serde-wasm-bindgen", "getrandom"];

#[test]
fn web_crates_are_wasm32_only_dependencies() {
    let manifest = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    let manifest: toml::Table = toml::from_str(&manifest).unwrap();
    let native = manifest["dependencies"].as_table().unwrap();
    for krate in WEB_CRATES {
        assert!(!native.contains_key(*krate), "{krate} is a native dependency");
    }
}

#[test]
fn engine_sources_do_not_touch_the_web() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
    let mut checked = 0;
    for folder in ["engine", "policy", "metrics", "scenario", "cli"] {
        for entry in std::fs::read_dir(format!("{root}/{folder}")).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            for word in ["wasm_bindgen", "web_sys", "js_sys", "plotters"] {
                assert!(!text.contains(word), "{} mentions {word}", path.display());
            }
            checked += 1;
        }
    }
    assert!(checked > 20);
}
