//! Turns every scenario file of `scenarios/` into its `key = value` pairs as
//! the field table reads them (`src/presets.rs`), so that the browser's
//! presets need no TOML parser: the page loads less code. A test checks
//! that the pairs give exactly what the file does.

use std::path::Path;
use std::{env, fs};

/// A TOML value as a field's text: numbers as written, lists joined by commas.
fn text(key: &str, value: &toml::Value) -> String {
    match value {
        toml::Value::String(text) => text.clone(),
        toml::Value::Integer(n) => n.to_string(),
        toml::Value::Float(x) => x.to_string(),
        toml::Value::Boolean(b) => b.to_string(),
        toml::Value::Array(items) => items.iter().map(|item| text(key, item)).collect::<Vec<_>>().join(","),
        other => panic!("scenario field `{key}`: {} values are not fields' values", other.type_str()),
    }
}

fn main() {
    println!("cargo::rerun-if-changed=scenarios");
    let mut files: Vec<_> = fs::read_dir("scenarios")
        .expect("scenarios/ is readable")
        .map(|entry| entry.expect("scenarios/ lists its files").path())
        .filter(|path| path.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    let mut out = String::from("&[\n");
    for path in files {
        let name = path.file_stem().and_then(|s| s.to_str()).expect("scenario files have names");
        let source = fs::read_to_string(&path).expect("scenario files are readable");
        let table: toml::Table =
            toml::from_str(&source).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let pairs: Vec<String> = table.iter().map(|(k, v)| format!("({k:?}, {:?})", text(k, v))).collect();
        out += &format!("    ({name:?}, &[{}]),\n", pairs.join(", "));
    }
    out += "]\n";
    let target = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("preset_pairs.rs");
    fs::write(target, out).expect("OUT_DIR is writable");
}
