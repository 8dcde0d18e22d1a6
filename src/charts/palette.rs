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
pub(crate) mod tests {
    use super::*;

    #[test]
    fn colours_read_and_write_as_css_hex() {
        assert_eq!(Colour::hex(0x0072b2), Colour { r: 0x00, g: 0x72, b: 0xb2 });
        assert_eq!(Colour::hex(0xd55e00).css(), "#d55e00");
        assert_eq!(Colour::hex(0x000000).mix(Colour::hex(0xffffff), 0.5).css(), "#808080");
    }

    /// WCAG 2 contrast between two colours, from 1 (alike) to 21.
    pub(crate) fn contrast(a: Colour, b: Colour) -> f64 {
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

    /// A slowed server's busy slots keep the busy colour, crossed by
    /// stripes of the panel's (see the topology's `draw_slowed_busy`): the
    /// stripes stand 3:1 off the slots in either theme, so they read as a
    /// mark on busy slots, where slots drawn pale were read as free.
    #[test]
    fn a_slowed_servers_hatch_stands_out_from_its_busy_slots_in_both_themes() {
        for (theme, palette) in [("light", Palette::LIGHT), ("dark", Palette::DARK)] {
            let ratio = contrast(palette.busy, palette.panel);
            assert!(
                ratio >= 3.0,
                "{theme}: busy {} against panel {}: {ratio:.2}:1",
                palette.busy.css(),
                palette.panel.css()
            );
        }
    }

    /// `www/style.css`'s declaration block that opens with `selector`.
    fn block(selector: &str) -> &'static str {
        let css = include_str!("../../www/style.css");
        let start = css.find(selector).expect(selector);
        let open = start + css[start..].find('{').unwrap() + 1;
        &css[open..open + css[open..].find('}').unwrap()]
    }

    /// A colour property from the first of `blocks` that declares it.
    pub(crate) fn declared(blocks: &[&str], property: &str) -> Colour {
        let hex = |line: &str| {
            let hex = line.trim().strip_prefix(property)?.strip_prefix(':')?.trim();
            u32::from_str_radix(hex.strip_prefix('#')?.strip_suffix(';')?, 16).ok()
        };
        Colour::hex(blocks.iter().find_map(|b| b.lines().find_map(hex)).expect(property))
    }

    /// The light theme's block, and the dark theme's over it.
    pub(crate) fn themes() -> [(&'static str, Vec<&'static str>); 2] {
        let light = block(":root {");
        [("light", vec![light]), ("dark", vec![block("[data-theme=\"dark\"] {"), light])]
    }

    /// The build script's palettes are the stylesheet's, read here anew
    /// through [`Palette::read`]: a dark theme takes the light one's
    /// value where it declares none (as the page does).
    #[test]
    fn the_fixed_palettes_are_the_stylesheets() {
        let palette = |blocks: &[&str]| Palette::read(|property| declared(blocks, property));
        let [(_, light), (_, dark)] = themes();
        assert_eq!(Palette::LIGHT, palette(&light));
        assert_eq!(Palette::DARK, palette(&dark));
    }

    /// CIE L*a*b* (D65) of a colour: lightness and the two opponent axes.
    fn lab(c: Colour) -> [f64; 3] {
        let linear = |c: u8| {
            let c = f64::from(c) / 255.0;
            if c <= 0.040_45 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        let (r, g, b) = (linear(c.r), linear(c.g), linear(c.b));
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.950_47;
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.088_83;
        let f = |t: f64| if t > 0.008_856 { t.cbrt() } else { 7.787 * t + 16.0 / 116.0 };
        [116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z))]
    }

    /// A request dot and a waiting client sit side by side in the picture
    /// (a client sends, the dot leaves it): in the dark they were pale blue
    /// and sky blue, 2° of hue and ΔE 23 apart, and a reader took the dot
    /// for a client. In both themes they now differ in hue by 30° or more,
    /// in lightness by 10 or more, by ΔE 30 or more, and the client stands
    /// 3:1 from the panel it is drawn on.
    #[test]
    fn a_request_dot_and_a_waiting_client_differ_in_hue_and_lightness_in_both_themes() {
        for (theme, blocks) in themes() {
            let (request, client) = (declared(&blocks, "--c-request"), declared(&blocks, "--c-client"));
            let ([l1, a1, b1], [l2, a2, b2]) = (lab(request), lab(client));
            let delta_e = ((l1 - l2).powi(2) + (a1 - a2).powi(2) + (b1 - b2).powi(2)).sqrt();
            let hue = |a: f64, b: f64| b.atan2(a).to_degrees();
            let turn = (hue(a1, b1) - hue(a2, b2)).abs();
            let hue_apart = turn.min(360.0 - turn);
            let on_panel = contrast(client, declared(&blocks, "--panel"));
            let said = format!(
                "{theme}: request {} client {}: ΔE {delta_e:.1}, hue {hue_apart:.0}°, lightness {:.0}, client on panel {on_panel:.2}:1",
                request.css(),
                client.css(),
                (l1 - l2).abs()
            );
            assert!(
                delta_e >= 30.0 && hue_apart >= 30.0 && (l1 - l2).abs() >= 10.0 && on_panel >= 3.0,
                "{said}"
            );
        }
    }
}
