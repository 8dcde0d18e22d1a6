//! The notice area: settings that could not be used as given, each naming
//! the entry and the value used instead. Visible until dismissed.

use super::dom;
use super::hash::Notice;
use wasm_bindgen::JsValue;
use web_sys::HtmlElement;

pub struct Notices {
    root: HtmlElement,
    list: HtmlElement,
}

impl Notices {
    pub fn new() -> Result<Notices, JsValue> {
        Ok(Notices { root: dom::by_id("notice")?, list: dom::by_id("notice-list")? })
    }

    pub fn show(&self, notices: &[Notice]) {
        for notice in notices {
            if let Ok(item) = dom::create("li", "") {
                item.set_text_content(Some(&notice.message));
                let _ = self.list.append_child(&item);
            }
        }
        if !notices.is_empty() {
            self.root.set_hidden(false);
        }
    }

    pub fn dismiss(&self) {
        self.root.set_hidden(true);
        self.list.set_text_content(None);
    }
}
