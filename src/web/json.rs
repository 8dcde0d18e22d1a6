//! JSON for the page's readers (the script API and the test hooks), written
//! by the browser: a value becomes a JavaScript object through
//! serde-wasm-bindgen and `JSON.stringify` writes its text. The module so
//! carries no JSON writer of its own (serde_json's, with the tables it
//! formats numbers by, weighed about 20 KB gzipped). The text reads as the
//! command line's `--json` does once parsed: the same fields and numbers,
//! and `null` for a missing value or a number that is not finite.

use js_sys::JSON;
use serde::Serialize;
use serde_wasm_bindgen::Serializer;
use wasm_bindgen::JsValue;

/// `value` as JSON text.
pub fn text(value: &impl Serialize) -> Result<String, JsValue> {
    let object = value.serialize(&Serializer::json_compatible())?;
    JSON::stringify(&object)?.as_string().ok_or_else(|| JsValue::from_str("a value has no JSON text"))
}

/// `value` as a plain JavaScript object: its JSON text, parsed (so a
/// number that is not finite is `null`, as in the text).
pub fn object(value: &impl Serialize) -> Result<JsValue, JsValue> {
    JSON::parse(&text(value)?)
}
