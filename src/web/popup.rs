//! Opens a pop-up (the Key, More's drawer, a folded chart) inside the
//! window by the one rule `lbsim::ui::popup` gives: where its view's style
//! puts it, moved and if need be shortened to lie wholly inside the window
//! (More's drawer opened upwards past the top of a phone's screen).

use super::dom;
use lbsim::number;
use lbsim::ui::popup::{inside_window, Area};
use web_sys::HtmlElement;

/// The properties the rule sets, which its view's style sets otherwise.
const PLACED: [&str; 8] = ["top", "left", "right", "bottom", "width", "height", "margin", "overflow"];

/// Forgets where the rule last put `popup`: its view's style places it
/// again (the view may have changed size since).
pub fn unplace(popup: &HtmlElement) {
    let style = popup.style();
    for property in PLACED {
        let _ = style.remove_property(property);
    }
}

/// Moves `popup`, open where its view's style puts it, inside the window;
/// it scrolls what it holds where shortened.
pub fn place(popup: &HtmlElement) {
    let shown = popup.get_bounding_client_rect();
    let root = dom::document().document_element();
    let Some(window) = root.map(|root| (f64::from(root.client_width()), f64::from(root.client_height())))
    else {
        return;
    };
    let wanted = Area { left: shown.left(), top: shown.top(), width: shown.width(), height: shown.height() };
    let placed = inside_window(wanted, window);
    if shown.width() == 0.0 || placed == wanted {
        return;
    }
    // Offsets from where it is now, in its containing block's terms (its
    // margins set aside).
    let margin = |side: &str| {
        let computed = dom::window().get_computed_style(popup).ok().flatten();
        let value = computed.and_then(|style| style.get_property_value(&format!("margin-{side}")).ok());
        value.and_then(|v| number::parse(v.trim_end_matches("px"))).unwrap_or(0.0)
    };
    let left = f64::from(popup.offset_left()) - margin("left") + placed.left - wanted.left;
    let top = f64::from(popup.offset_top()) - margin("top") + placed.top - wanted.top;
    let style = popup.style();
    for (property, px) in [("left", left), ("top", top), ("width", placed.width), ("height", placed.height)] {
        let _ = style.set_property(property, &format!("{px:.0}px"));
    }
    for property in ["right", "bottom"] {
        let _ = style.set_property(property, "auto");
    }
    let _ = style.set_property("margin", "0");
    let _ = style.set_property("overflow", "auto");
}
