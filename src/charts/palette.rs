//! The charts' colours. The browser reads them from its stylesheet's custom
//! properties (so page, legends and canvases agree); an SVG file, which has
//! no stylesheet to ask, takes the same values fixed here: `LIGHT` and
//! `DARK` are `www/style.css`'s two themes.

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

impl Palette {
    pub const LIGHT: Palette = Palette {
        ink: Colour::hex(0x1d232b),
        muted: Colour::hex(0x5c6470),
        line: Colour::hex(0xdcd9d0),
        panel: Colour::hex(0xffffff),
        request: Colour::hex(0x0072b2),
        busy: Colour::hex(0x0072b2),
        queued: Colour::hex(0xe69f00),
        p50: Colour::hex(0x0072b2),
        p90: Colour::hex(0xe69f00),
        p99: Colour::hex(0xd55e00),
    };

    pub const DARK: Palette = Palette {
        ink: Colour::hex(0xe8eaed),
        muted: Colour::hex(0xa3abb6),
        line: Colour::hex(0x343a44),
        panel: Colour::hex(0x1b1f25),
        request: Colour::hex(0xb3e0ff),
        busy: Colour::hex(0x56b4e9),
        queued: Colour::hex(0xa86400),
        p50: Colour::hex(0x56b4e9),
        p90: Colour::hex(0xe69f00),
        p99: Colour::hex(0xd55e00),
    };
}

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

    /// A change of the page's colours shows here, to be made in SVG too.
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
        let palette = |blocks: &[&str]| Palette {
            ink: value(blocks, "--ink"),
            muted: value(blocks, "--muted"),
            line: value(blocks, "--line"),
            panel: value(blocks, "--panel"),
            request: value(blocks, "--c-request"),
            busy: value(blocks, "--c-busy"),
            queued: value(blocks, "--c-queued"),
            p50: value(blocks, "--c-p50"),
            p90: value(blocks, "--c-p90"),
            p99: value(blocks, "--c-p99"),
        };
        let light = block(":root {");
        assert_eq!(Palette::LIGHT, palette(&[light]));
        assert_eq!(Palette::DARK, palette(&[block("[data-theme=\"dark\"] {"), light]));
    }
}
