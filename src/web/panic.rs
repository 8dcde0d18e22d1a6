//! A panic hook that shows what went wrong on the page, instead of leaving a
//! silently frozen canvas, and logs it to the console.

use super::dom;
use wasm_bindgen::JsValue;

pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        let message = format!("The simulation stopped because of an internal error: {info}");
        web_sys::console::error_1(&JsValue::from_str(&message));
        if let Some(element) = dom::document().get_element_by_id("panic") {
            element.set_text_content(Some(&format!(
                "{message}. Reloading the page restores your settings from the link."
            )));
            let _ = element.remove_attribute("hidden");
        }
    }));
}
