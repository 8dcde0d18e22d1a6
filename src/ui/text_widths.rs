//! Text widths measured once per font and string. The topology measures
//! each label it places every frame (the tiers' wordings, each queue's
//! count, each row's name), most of them the same as the frame before,
//! and each measure is a call into the page with the string copied across;
//! the charts measure their ticks, titles and notes each time they draw,
//! by a box the chart library reads from a span put into the page (a
//! layout of the page each time). Widths and boxes depend on the font and the string
//! alone (the page's fonts are the system's, loaded before the first
//! frame), so they are kept; past [`KEPT`] strings the table starts again,
//! so that a long run's changing counts cannot grow it without bound.

use std::collections::HashMap;

/// The most widths kept before the table is emptied.
pub const KEPT: usize = 2048;

/// Each font's strings and what they measure: by default a width, `None`
/// where it could not be measured; `M` may be any measure of a text in a
/// font (a chart's label box).
#[derive(Debug, Default)]
pub struct TextWidths<M = Option<f64>> {
    widths: HashMap<String, HashMap<String, M>>,
    kept: usize,
}

impl<M: Copy> TextWidths<M> {
    /// The width of `text` in `font`: the one kept, or `measure`'s (called
    /// with that font set), which is then kept; a failed measure is kept
    /// alike.
    pub fn width(&mut self, font: &str, text: &str, measure: impl FnOnce() -> M) -> M {
        if let Some(width) = self.widths.get(font).and_then(|texts| texts.get(text)) {
            return *width;
        }
        if self.kept >= KEPT {
            self.widths.clear();
            self.kept = 0;
        }
        let width = measure();
        self.widths.entry(font.to_owned()).or_default().insert(text.to_owned(), width);
        self.kept += 1;
        width
    }

    /// How many widths are kept.
    pub fn len(&self) -> usize {
        self.kept
    }

    pub fn is_empty(&self) -> bool {
        self.kept == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn a_string_is_measured_once_per_font() {
        let mut widths = TextWidths::default();
        let calls = Cell::new(0);
        let measure = |width: f64| {
            calls.set(calls.get() + 1);
            Some(width)
        };
        assert_eq!(widths.width("600 11px sans-serif", "17", || measure(12.5)), Some(12.5));
        assert_eq!(widths.width("600 11px sans-serif", "17", || measure(99.0)), Some(12.5));
        assert_eq!(calls.get(), 1);
        // Another font or another string is measured afresh.
        assert_eq!(widths.width("700 11px sans-serif", "17", || measure(13.0)), Some(13.0));
        assert_eq!(widths.width("600 11px sans-serif", "18", || measure(12.75)), Some(12.75));
        assert_eq!(calls.get(), 3);
        assert_eq!(widths.len(), 3);
    }

    #[test]
    fn a_failed_measure_is_kept_as_none() {
        let mut widths = TextWidths::default();
        assert_eq!(widths.width("11px sans-serif", "x", || None), None);
        assert_eq!(widths.width("11px sans-serif", "x", || Some(5.0)), None);
    }

    #[test]
    fn any_measure_is_kept_as_a_width_is() {
        let mut boxes: TextWidths<Option<(u32, u32)>> = TextWidths::default();
        assert_eq!(boxes.width("sans-serif normal 12", "10 s", || Some((23, 15))), Some((23, 15)));
        assert_eq!(boxes.width("sans-serif normal 12", "10 s", || Some((99, 99))), Some((23, 15)));
        assert_eq!(boxes.width("sans-serif normal 13", "10 s", || Some((25, 16))), Some((25, 16)));
        assert_eq!(boxes.len(), 2);
    }

    #[test]
    fn a_full_table_starts_again() {
        let mut widths = TextWidths::default();
        for n in 0..KEPT {
            widths.width("11px sans-serif", &n.to_string(), || Some(n as f64));
        }
        assert_eq!(widths.len(), KEPT);
        // The next new string empties the table before it is kept ...
        assert_eq!(widths.width("11px sans-serif", "new", || Some(1.0)), Some(1.0));
        assert_eq!(widths.len(), 1);
        // ... so a string kept before is measured again, by its new measure.
        assert_eq!(widths.width("11px sans-serif", "0", || Some(7.0)), Some(7.0));
    }
}
