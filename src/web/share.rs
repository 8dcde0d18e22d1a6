//! "Copy embed code": an `<iframe>` snippet that shows the lab's current
//! state in `embed.html`. The snippet is put on the clipboard when the
//! browser allows it, and always shown, selected, in a read-only box.

use super::dom::{self, Ids};
use js_sys::{Promise, Reflect};
use lbsim::ui::embed_size::EmbedSize;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use web_sys::{Element, HtmlElement, HtmlSelectElement, HtmlTextAreaElement};

/// The page an embed loads, beside the lab's.
const EMBED_PAGE: &str = "embed.html";

pub struct Share {
    pub button: HtmlElement,
    /// Where the embed goes: a post, a wide post or a slide.
    pub size: HtmlSelectElement,
    panel: HtmlElement,
    code: HtmlTextAreaElement,
    status: HtmlElement,
    /// What to do when the clipboard answers.
    callbacks: RefCell<Option<(Callback, Callback)>>,
}

type Callback = Closure<dyn FnMut(JsValue)>;

impl Share {
    /// Builds the button and its (hidden) snippet box at the top of
    /// `parent`, the lab's settings: at their end it sat some 6,700 px
    /// down the page, past every group of settings.
    pub fn build(parent: &Element, ids: &Ids) -> Result<Share, JsValue> {
        let share: HtmlElement = dom::child(parent, "div", "share")?;
        parent.prepend_with_node_1(&share)?;
        let button = dom::text_child(&share, "button", "quiet", "Copy embed code")?;
        dom::set_attributes(&button, &[("id", &ids.of("copy-embed")), ("type", "button")])?;
        let panel: HtmlElement = dom::child(&share, "div", "embed-code")?;
        panel.set_hidden(true);
        let size_label = dom::text_child(&panel, "label", "", "For")?;
        let size: HtmlSelectElement = dom::child(&panel, "select", "")?;
        size.set_id(&ids.of("embed-size"));
        size_label.set_attribute("for", &size.id())?;
        for each in EmbedSize::ALL {
            dom::text_child(&size, "option", "", each.label())?.set_attribute("value", each.key())?;
        }
        let label = dom::text_child(&panel, "label", "", "Paste this into a page to show this simulation:")?;
        let code: HtmlTextAreaElement = dom::child(&panel, "textarea", "")?;
        code.set_id(&ids.of("embed-code"));
        code.set_read_only(true);
        code.set_rows(4);
        label.set_attribute("for", &code.id())?;
        let status = dom::text_child(&panel, "p", "help", "")?;
        status.set_attribute("role", "status")?;
        Ok(Share { button, size, panel, code, status, callbacks: RefCell::default() })
    }

    /// The size chosen for the embed.
    pub fn size(&self) -> EmbedSize {
        EmbedSize::from_key(&self.size.value()).unwrap_or(EmbedSize::Post)
    }

    /// Shows `snippet`, selected, and tries to put it on the clipboard.
    pub fn offer(&self, snippet: &str) {
        self.code.set_value(snippet);
        self.panel.set_hidden(false);
        let _ = self.code.focus();
        self.code.select();
        let fallback = "Select the code above and copy it (the clipboard is not available here).";
        let navigator = dom::window().navigator();
        let has_clipboard =
            Reflect::get(&navigator, &JsValue::from_str("clipboard")).is_ok_and(|c| !c.is_undefined());
        if !has_clipboard {
            self.status.set_text_content(Some(fallback));
            return;
        }
        let copied: Promise = navigator.clipboard().write_text(snippet);
        let (done, failed) = (self.status.clone(), self.status.clone());
        let on_done = Closure::new(move |_| done.set_text_content(Some("Copied to the clipboard.")));
        let on_failed = Closure::new(move |_| failed.set_text_content(Some(fallback)));
        let _ = copied.then2(&on_done, &on_failed);
        // Kept until the next offer: the clipboard answers long before.
        *self.callbacks.borrow_mut() = Some((on_done, on_failed));
    }
}

/// The snippet that shows the embed at `hash` beside the current page, in
/// a frame `height` px tall.
pub fn snippet(hash: &str, height: u32) -> String {
    let location = dom::window().location();
    let page =
        format!("{}{}", location.origin().unwrap_or_default(), location.pathname().unwrap_or_default());
    let folder = &page[..page.rfind('/').map_or(page.len(), |i| i + 1)];
    let src = format!("{folder}{EMBED_PAGE}#{hash}").replace('&', "&amp;");
    format!(
        "<iframe src=\"{src}\" title=\"lbsim: a live load-balancing simulation\" width=\"100%\" \
         height=\"{height}\" style=\"border:0\" loading=\"lazy\"></iframe>"
    )
}
