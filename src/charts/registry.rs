//! Every chart lbsim draws, in one list, [`CHARTS`], that everything else
//! reads: a view's `charts=` option and its tabs (`ui::options::Chart`),
//! the browser's figures (`web/figures`, whose registry a compile-time
//! check holds to this list's view charts), and `lbsim plot --chart`
//! (`cli/plot.rs`). Each chart's file holds its [`Descriptor`]: a new chart
//! is its file here and its line in [`CHARTS`], plus its figure's file and
//! line in `web/figures` if a view shows it.
//!
//! Not every chart is drawn everywhere, and the descriptor says so: where
//! keys live needs the browser's picture of a ring beside it, so only a
//! view shows it; two runs on one axes is `lbsim plot`'s alone, as the
//! lab compares live in a mode of its own.

use super::{clients, compare, keys, load, percentiles, waits};
use crate::format::same_text;

/// A chart as the rest of lbsim knows it.
#[derive(Debug, PartialEq, Eq)]
pub struct Descriptor {
    /// Its name in links (`charts=`) and on the command line (`--chart`).
    pub key: &'static str,
    /// Its tab's label when a view shows it, `None` when no view does.
    pub tab_label: Option<&'static str>,
    /// What `lbsim plot` draws of it, `None` when it does not.
    pub plot: Option<Plotted>,
}

/// What `lbsim plot --chart KEY` draws: which figure, and its line in
/// `--help`.
#[derive(Debug, PartialEq, Eq)]
pub struct Plotted {
    pub figure: PlotFigure,
    pub help: &'static str,
}

/// The figures `lbsim plot` knows how to run and draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlotFigure {
    Percentiles,
    Waits,
    Clients,
    Load,
    Compare,
}

/// Every chart, in the order views and `--help` list them: add a new
/// one's line here.
pub const CHARTS: &[&Descriptor] =
    &[&percentiles::CHART, &waits::CHART, &clients::CHART, &load::CHART, &keys::CHART, &compare::CHART];

/// Where a chart is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drawer {
    /// A view: the lab, an embed, an explainer's section.
    Views,
    /// `lbsim plot`.
    Plot,
}

impl Drawer {
    /// Whether it draws `chart`.
    pub const fn draws(self, chart: &Descriptor) -> bool {
        match self {
            Drawer::Views => chart.tab_label.is_some(),
            Drawer::Plot => chart.plot.is_some(),
        }
    }

    /// How many charts it draws.
    pub const fn count(self) -> usize {
        let (mut n, mut i) = (0, 0);
        while i < CHARTS.len() {
            if self.draws(CHARTS[i]) {
                n += 1;
            }
            i += 1;
        }
        n
    }

    /// The `N` charts it draws, in the registry's order (`N` is their
    /// [`Drawer::count`]).
    pub const fn charts<const N: usize>(self) -> [&'static Descriptor; N] {
        let mut chosen = [CHARTS[0]; N];
        let (mut at, mut i) = (0, 0);
        while i < CHARTS.len() {
            if self.draws(CHARTS[i]) {
                chosen[at] = CHARTS[i];
                at += 1;
            }
            i += 1;
        }
        assert!(at == N, "N must be the count of charts it draws");
        chosen
    }
}

/// Whether `figures`, a front end's figures by chart key, holds exactly
/// the charts views show, in the registry's order: the browser's figures
/// assert it at compile time, so that a chart a link can name always has a
/// figure and no figure is out of reach.
pub const fn figures_match<T>(figures: &[(&str, T)]) -> bool {
    let (mut at, mut i) = (0, 0);
    while i < CHARTS.len() {
        if Drawer::Views.draws(CHARTS[i]) {
            if at >= figures.len() || !same_text(figures[at].0, CHARTS[i].key) {
                return false;
            }
            at += 1;
        }
        i += 1;
    }
    at == figures.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_chart_has_its_own_key_and_is_drawn_somewhere() {
        for (i, chart) in CHARTS.iter().enumerate() {
            assert!(CHARTS[..i].iter().all(|other| other.key != chart.key), "{} twice", chart.key);
            assert!(chart.tab_label.is_some() || chart.plot.is_some(), "{} is drawn nowhere", chart.key);
        }
        let keys = |n: &[&Descriptor]| n.iter().map(|c| c.key).collect::<Vec<_>>();
        let views = Drawer::Views.charts::<{ Drawer::Views.count() }>();
        assert_eq!(keys(&views), ["percentiles", "waits", "clients", "load", "keys"]);
        let plotted = Drawer::Plot.charts::<{ Drawer::Plot.count() }>();
        assert_eq!(keys(&plotted), ["percentiles", "waits", "clients", "load", "compare"]);
    }

    #[test]
    fn figures_match_the_view_charts_exactly_and_in_order() {
        let views = [("percentiles", ()), ("waits", ()), ("clients", ()), ("load", ()), ("keys", ())];
        assert!(figures_match(&views));
        assert!(!figures_match(&views[..4]));
        let mut swapped = views;
        swapped.swap(2, 3);
        assert!(!figures_match(&swapped));
        assert!(!figures_match(&[&views[..], &[("compare", ())]].concat()));
        let mut misspelt = views;
        misspelt[4].0 = "key";
        assert!(!figures_match(&misspelt));
    }
}
