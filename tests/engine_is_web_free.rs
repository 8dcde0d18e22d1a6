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

/// What no engine source may name: the browser's bindings and the drawing crate.
const WEB_WORDS: &[&str] = &["wasm_bindgen", "web_sys", "js_sys", "plotters"];

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");

/// The modules `source` declares (`mod name;`, public or not), each with
/// whether a `#[cfg(..)]` attribute puts it behind a feature or a target.
fn modules_declared_in(source: &str) -> Vec<(String, bool)> {
    let text = std::fs::read_to_string(format!("{SRC}/{source}")).unwrap();
    let mut modules = Vec::new();
    let mut gated = false;
    for line in text.lines().map(str::trim) {
        let declared = line.strip_prefix("pub ").unwrap_or(line).strip_prefix("mod ");
        if let Some(name) = declared.and_then(|rest| rest.strip_suffix(';')) {
            modules.push((name.to_string(), gated));
        }
        gated = line.starts_with("#[cfg(");
    }
    modules
}

/// The sources of module `name` of `src/`: its file, or its folder's every file.
fn sources_of(name: &str) -> Vec<std::path::PathBuf> {
    let folder = std::path::PathBuf::from(format!("{SRC}/{name}"));
    match folder.is_dir() {
        true => files_below(folder.to_str().unwrap()),
        false => vec![folder.with_extension("rs")],
    }
}

/// The engine is every module the library declares for every build, read
/// from `lib.rs`, so a new one is checked without being listed here. The
/// front end is what is behind a feature (`charts`, `ui`), the command
/// line's binary (`main.rs` and its `cli`) and the browser's crate
/// (`src/web`, a package of its own).
#[test]
fn engine_sources_do_not_touch_the_web() {
    let engine: Vec<String> =
        modules_declared_in("lib.rs").into_iter().filter(|(_, gated)| !gated).map(|(name, _)| name).collect();
    assert!(engine.iter().any(|m| m == "engine"), "lib.rs read as declaring {engine:?}");
    for module in &engine {
        for path in sources_of(module) {
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            for word in WEB_WORDS {
                assert!(!text.contains(word), "{} mentions {word}", path.display());
            }
        }
    }
    // Every entry of `src/` is the engine's, the front end's, a crate root
    // (`src/bin` holds the binaries beside the command line), or a crate of
    // its own (a folder with its manifest).
    let front_end: Vec<String> = modules_declared_in("lib.rs")
        .into_iter()
        .filter(|(_, gated)| *gated)
        .chain(modules_declared_in("main.rs"))
        .map(|(name, _)| name)
        .collect();
    for entry in std::fs::read_dir(SRC).unwrap() {
        let file_name = entry.unwrap().file_name().into_string().unwrap();
        let name = file_name.strip_suffix(".rs").unwrap_or(&file_name).to_string();
        let own_crate = std::path::Path::new(&format!("{SRC}/{name}/Cargo.toml")).exists();
        let known = engine.contains(&name)
            || front_end.contains(&name)
            || own_crate
            || ["lib", "main", "bin"].contains(&name.as_str());
        assert!(known, "src/{file_name} is no module of lib.rs or main.rs");
    }
}

/// The views' logic beside the browser says what it shows, never how; the
/// command line draws SVG with plotters, and nothing of the web.
#[test]
fn front_end_logic_outside_the_browser_does_not_touch_the_web() {
    for (module, words) in [("ui", WEB_WORDS), ("cli", &WEB_WORDS[..3])] {
        for path in sources_of(module) {
            let text = std::fs::read_to_string(&path).unwrap();
            for word in words {
                assert!(!text.contains(word), "{} mentions {word}", path.display());
            }
        }
    }
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
