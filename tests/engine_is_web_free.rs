//! The engine never imports web code: no web crate among the native
//! dependencies, and no mention of one in the engine's sources. Natively
//! only the command line draws charts (plotters' SVG backend, behind the
//! `charts` feature), so the engine alone depends on no drawing crate.

const WEB_CRATES: &[&str] = &["wasm-bindgen", "web-sys", "js-sys", "plotters-canvas", "getrandom"];

#[test]
fn web_crates_are_wasm32_only_dependencies() {
    let manifest = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    let manifest: toml::Table = toml::from_str(&manifest).unwrap();
    let native = manifest["dependencies"].as_table().unwrap();
    for krate in WEB_CRATES {
        assert!(!native.contains_key(*krate), "{krate} is a native dependency");
    }
    // The charts draw natively for the command line, never for the engine alone.
    if let Some(plotters) = native.get("plotters") {
        let optional = plotters.get("optional").and_then(|o| o.as_bool());
        assert_eq!(optional, Some(true), "plotters must stay optional natively");
    }
}

#[test]
fn engine_sources_do_not_touch_the_web() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
    let mut checked = 0;
    for (folder, words) in [
        ("engine", &["wasm_bindgen", "web_sys", "js_sys", "plotters"][..]),
        ("policy", &["wasm_bindgen", "web_sys", "js_sys", "plotters"]),
        ("metrics", &["wasm_bindgen", "web_sys", "js_sys", "plotters"]),
        ("scenario", &["wasm_bindgen", "web_sys", "js_sys", "plotters"]),
        ("explain", &["wasm_bindgen", "web_sys", "js_sys", "plotters"]),
        ("fdb", &["wasm_bindgen", "web_sys", "js_sys", "plotters"]),
        // The views' logic beside the browser: what it shows, never how.
        ("ui", &["wasm_bindgen", "web_sys", "js_sys", "plotters"]),
        // The command line draws SVG with plotters, and nothing of the web.
        ("cli", &["wasm_bindgen", "web_sys", "js_sys"]),
    ] {
        for path in files_below(&format!("{root}/{folder}")) {
            let text = std::fs::read_to_string(&path).unwrap();
            for word in words {
                assert!(!text.contains(word), "{} mentions {word}", path.display());
            }
            checked += 1;
        }
    }
    assert!(checked > 20);
}

/// Every file in `folder` and its subfolders.
fn files_below(folder: &str) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(files_below(path.to_str().unwrap()));
        } else {
            files.push(path);
        }
    }
    files
}
