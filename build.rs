//! Turns every scenario file of `scenarios/` into its `key = value` pairs as
//! the field table reads them (`src/presets.rs`), so that the browser's
//! presets need no TOML parser: the page loads less code. A test checks
//! that the pairs give exactly what the file does.
//!
//! Fixes the charts' two palettes, `Palette::LIGHT` and `Palette::DARK`,
//! from `www/style.css`, the one place the colours are written: an SVG
//! file has no stylesheet to ask, so the values it draws with are the
//! stylesheet's own, read here (`src/charts/properties.rs` lists which).

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
    preset_pairs();
    palettes();
}

include!("src/charts/properties.rs");

/// The block of declarations `css` opens with `selector`.
fn block<'a>(css: &'a str, selector: &str) -> &'a str {
    let start = css.find(selector).unwrap_or_else(|| panic!("www/style.css has no `{selector}`"));
    let open = start + css[start..].find('{').expect("a block opens") + 1;
    &css[open..open + css[open..].find('}').expect("a block closes")]
}

/// The `#rrggbb` value of `property` in the first of `blocks` that
/// declares it, as `0xrrggbb`.
fn declared(blocks: &[&str], property: &str) -> String {
    let value = |line: &str| {
        let hex = line.trim().strip_prefix(property)?.strip_prefix(':')?.trim();
        let hex = hex.strip_suffix(';')?.strip_prefix('#')?;
        (hex.len() == 6 && u32::from_str_radix(hex, 16).is_ok()).then(|| format!("0x{hex}"))
    };
    let found = blocks.iter().find_map(|b| b.lines().find_map(value));
    found.unwrap_or_else(|| panic!("www/style.css declares no #rrggbb {property}"))
}

/// `Palette::LIGHT` (the `:root` block), `Palette::DARK` (the
/// `[data-theme="dark"]` block over it) and `Palette::read`.
fn palettes() {
    println!("cargo::rerun-if-changed=www/style.css");
    println!("cargo::rerun-if-changed=src/charts/properties.rs");
    let css = fs::read_to_string("www/style.css").expect("www/style.css is readable");
    let light = block(&css, ":root {");
    let dark = block(&css, "[data-theme=\"dark\"] {");
    let palette = |blocks: &[&str]| {
        let fields = PROPERTIES
            .map(|(field, property)| format!("{field}: Colour::hex({})", declared(blocks, property)));
        format!("Palette {{ {} }}", fields.join(", "))
    };
    let fields = PROPERTIES.map(|(field, _)| field).join(", ");
    let out = format!(
        "impl Palette {{\n    pub const LIGHT: Palette = {};\n    pub const DARK: Palette = {};\n\n    \
         /// The palette whose colours `read` gives for each custom property.\n    \
         pub fn read(read: impl Fn(&str) -> Colour) -> Palette {{\n        \
         let [{fields}] = PROPERTIES.map(|(_, property)| read(property));\n        \
         Palette {{ {fields} }}\n    }}\n}}\n",
        palette(&[light]),
        palette(&[dark, light]),
    );
    let target = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("palettes.rs");
    fs::write(target, out).expect("OUT_DIR is writable");
}

/// Each scenario file's pairs, as `src/presets.rs` includes them.
fn preset_pairs() {
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
