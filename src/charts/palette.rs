//! The charts' colours, written once, in `www/style.css`. The browser reads
//! them from the stylesheet's custom properties ([`Palette::read`], so page,
//! legends and canvases agree); an SVG file, which has no stylesheet to
//! ask, takes the same values, which `build.rs` fixes from the stylesheet
//! as `Palette::LIGHT` and `Palette::DARK` (its two themes). Which property
//! is which colour is one list, [`PROPERTIES`].

use super::properties::PROPERTIES;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Colour {
    pub r: u8,
    pub g: u8,
    pub b: u8,
}

impl Colour {
    /// `0xrrggbb`.
    pub const fn hex(rgb: u32) -> Colour {
        Colour { r: (rgb >> 16) as u8, g: (rgb >> 8) as u8, b: rgb as u8 }
    }

    /// The colour `t` of the way (0 to 1) from `self` to `other`.
    pub fn mix(self, other: Colour, t: f64) -> Colour {
        let lerp = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * t).round() as u8;
        Colour { r: lerp(self.r, other.r), g: lerp(self.g, other.g), b: lerp(self.b, other.b) }
    }

    pub fn css(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
    }

    pub fn rgb(self) -> plotters::style::RGBColor {
        plotters::style::RGBColor(self.r, self.g, self.b)
    }
}

/// The colours a chart draws with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Palette {
    /// Axis titles.
    pub ink: Colour,
    /// Tick labels, axes, marks, and a reference curve.
    pub muted: Colour,
    /// Grid lines.
    pub line: Colour,
    /// The background.
    pub panel: Colour,
    /// The client-experience curve.
    pub request: Colour,
    pub busy: Colour,
    pub queued: Colour,
    pub p50: Colour,
    pub p90: Colour,
    pub p99: Colour,
}

// `Palette::LIGHT`, `Palette::DARK` and `Palette::read`, written by
// `build.rs` from `www/style.css`.
include!(concat!(env!("OUT_DIR"), "/palettes.rs"));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_read_and_write_as_css_hex() {
        assert_eq!(Colour::hex(0x0072b2), Colour { r: 0x00, g: 0x72, b: 0xb2 });
        assert_eq!(Colour::hex(0xd55e00).css(), "#d55e00");
        assert_eq!(Colour::hex(0x000000).mix(Colour::hex(0xffffff), 0.5).css(), "#808080");
    }

    /// WCAG 2 contrast between two colours, from 1 (alike) to 21.
    fn contrast(a: Colour, b: Colour) -> f64 {
        let channel = |c: u8| {
            let c = f64::from(c) / 255.0;
            if c <= 0.039_28 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        let luminance = |c: Colour| 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
        let (la, lb) = (luminance(a), luminance(b));
        (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
    }

    /// In the dark a request in flight and a queued one stand apart from
    /// each other and from the panel by 3:1 (WCAG's least for graphics),
    /// where sky blue and orange were 1.02:1 apart in lightness and read
    /// as one colour in a dim room or to a reader who tells few hues apart.
    #[test]
    fn in_the_dark_a_request_in_flight_and_a_queued_one_are_three_to_one_apart() {
        let dark = Palette::DARK;
        let pairs = [
            ("request", dark.request, "queued", dark.queued),
            ("request", dark.request, "panel", dark.panel),
            ("queued", dark.queued, "panel", dark.panel),
        ];
        for (a_name, a, b_name, b) in pairs {
            let ratio = contrast(a, b);
            assert!(ratio >= 3.0, "{a_name} {} against {b_name} {}: {ratio:.2}:1", a.css(), b.css());
        }
    }

    /// The build script's palettes are the stylesheet's, read here anew
    /// through [`Palette::read`]: a dark theme takes the light one's
    /// value where it declares none (as the page does).
    #[test]
    fn the_fixed_palettes_are_the_stylesheets() {
        let css = include_str!("../../www/style.css");
        let block = |selector: &str| {
            let start = css.find(selector).expect(selector);
            let open = start + css[start..].find('{').unwrap() + 1;
            &css[open..open + css[open..].find('}').unwrap()]
        };
        // A property from the first of `blocks` that declares it.
        let value = |blocks: &[&str], property: &str| {
            let declared = |line: &str| {
                let hex = line.trim().strip_prefix(property)?.strip_prefix(':')?.trim();
                u32::from_str_radix(hex.strip_prefix('#')?.strip_suffix(';')?, 16).ok()
            };
            Colour::hex(blocks.iter().find_map(|b| b.lines().find_map(declared)).expect(property))
        };
        let palette = |blocks: &[&str]| Palette::read(|property| value(blocks, property));
        let light = block(":root {");
        assert_eq!(Palette::LIGHT, palette(&[light]));
        assert_eq!(Palette::DARK, palette(&[block("[data-theme=\"dark\"] {"), light]));
    }
}
