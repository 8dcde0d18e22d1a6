//! A view's notice area: settings of the link that could not be used as
//! given, each naming the entry and the value used instead, and the view's
//! own messages (worded by `lbsim::ui::notice`). Visible until dismissed.

use super::dom::{self, Ids};
use lbsim::ui::notice::{Notice, HEADING};
use wasm_bindgen::JsValue;
use web_sys::{Element, HtmlElement};

pub struct Notices {
    root: HtmlElement,
    heading: HtmlElement,
    list: HtmlElement,
    pub dismiss: HtmlElement,
}

impl Notices {
    /// Builds the (hidden) notice area at the end of `parent`.
    pub fn build(parent: &Element, ids: &Ids) -> Result<Notices, JsValue> {
        let root: HtmlElement = dom::child(parent, "div", "notice")?;
        dom::set_attributes(
            &root,
            &[("id", &ids.of("notice")), ("role", "status"), ("aria-live", "polite")],
        )?;
        root.set_hidden(true);
        let text: HtmlElement = dom::child(&root, "div", "")?;
        let heading = dom::text_child(&text, "strong", "", HEADING)?;
        let list: HtmlElement = dom::child(&text, "ul", "")?;
        list.set_id(&ids.of("notice-list"));
        let dismiss = dom::text_child(&root, "button", "quiet", "Dismiss")?;
        dom::set_attributes(&dismiss, &[("id", &ids.of("notice-dismiss")), ("type", "button")])?;
        Ok(Notices { root, heading, list, dismiss })
    }

    /// Adds `notices` to those shown; the heading about the link's settings
    /// shows while one of them is about the link.
    pub fn show(&self, notices: &[Notice]) {
        if notices.is_empty() {
            return;
        }
        let about_link = !self.root.hidden() && !self.heading.hidden();
        self.heading.set_hidden(!(about_link || notices.iter().any(|n| n.about_link)));
        for notice in notices {
            let _ = dom::text_child(&self.list, "li", "", &notice.message);
        }
        self.root.set_hidden(false);
    }

    pub fn dismiss(&self) {
        self.root.set_hidden(true);
        self.list.set_text_content(None);
    }
}
