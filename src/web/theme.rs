//! Colours, read from the stylesheet's custom properties so the page, its
//! legend and the canvases share one palette (Okabe–Ito hues for request and
//! server states; light and dark variants follow the system setting or the
//! view's `theme` option).

use super::dom;
pub use lbsim::charts::Colour;
use std::ops::Deref;
use web_sys::Element;

/// `#rrggbb`; anything else is black.
fn parse(text: &str) -> Colour {
    let hex = text.trim().trim_start_matches('#');
    let part = |i: usize| hex.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok()).unwrap_or(0);
    Colour { r: part(0), g: part(2), b: part(4) }
}

/// Shades of server load in the compact view: idle, four steps of busy
/// slots, full.
pub const LOAD_SHADES: usize = 6;

/// The page's colours: the charts' (read by the names of their one list,
/// `lbsim::charts::PROPERTIES`, and reached through this palette as its
/// own fields) and those only the page draws with.
pub struct Palette {
    charts: lbsim::charts::Palette,
    pub retry: Colour,
    pub bounce: Colour,
    pub response: Colour,
    pub handshake: Colour,
    pub free: Colour,
    pub client: Colour,
    pub balancer: Colour,
    /// `LOAD_SHADES` colours from free to busy, as CSS text.
    pub load_shades: Vec<String>,
    /// `LOAD_SHADES` colours from free to a waiting client, as CSS text.
    pub client_shades: Vec<String>,
}

impl Palette {
    /// The palette the stylesheet declares for `element` (a view's root,
    /// which may have a theme of its own).
    pub fn read(element: &Element) -> Palette {
        let style = dom::window().get_computed_style(element).ok().flatten();
        let get = |name: &str| {
            parse(&style.as_ref().and_then(|s| s.get_property_value(name).ok()).unwrap_or_default())
        };
        let (free, client) = (get("--c-free"), get("--c-client"));
        let shades = |to: Colour| {
            (0..LOAD_SHADES).map(|i| free.mix(to, i as f64 / (LOAD_SHADES - 1) as f64).css()).collect()
        };
        let charts = lbsim::charts::Palette::read(get);
        Palette {
            charts,
            retry: get("--c-retry"),
            bounce: get("--c-bounce"),
            response: get("--c-response"),
            handshake: get("--c-handshake"),
            free,
            client,
            balancer: get("--c-balancer"),
            load_shades: shades(charts.busy),
            client_shades: shades(client),
        }
    }

    /// The colours the charts draw with.
    pub fn charts(&self) -> lbsim::charts::Palette {
        self.charts
    }
}

/// A chart's colour is read as the page's own (`palette.ink`).
impl Deref for Palette {
    type Target = lbsim::charts::Palette;

    fn deref(&self) -> &lbsim::charts::Palette {
        &self.charts
    }
}
