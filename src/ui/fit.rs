//! How an embed fits the box it is given, decided from what it measured of
//! itself, with no browser in it (`src/web/fit.rs` measures and applies).
//!
//! An embed's parts have an order of importance (STYLE.md rule 13): the
//! picture first, then the controls its link names (the prose around it
//! tells the reader to move them), one chart, a one-line strip of
//! readouts; the legend, further charts, the full readouts, the sentences
//! after the first, the decision's caption and the dots of a comparison
//! over seeds matter less; then the chart,
//! which opens over the picture from a "Chart" button (a twin's picture
//! carries its comparison, and two pictures need the room). Starting from
//! everything shown, the view folds the least important part still shown
//! until the rest fits ([`Fitting`]). The controls fold last of all, into
//! the "More" drawer, and only when the box cannot hold them with the
//! picture at its least useful size; the view then says which height
//! would show them ([`size_note`]).
//!
//! Below [`NARROW_BELOW_PX`] of width, or given no height, the parts stack
//! and the view takes the height they need ([`stacks`]).

/// Narrower than this (CSS px), an embed stacks its parts.
pub const NARROW_BELOW_PX: i32 = 560;
/// The least height (CSS px) at which the picture still reads.
pub const PICTURE_MIN_PX: i32 = 120;
/// In a box at least this big, the picture covers at least
/// [`PICTURE_SHARE`] of it.
pub const SHARE_FROM: (i32, i32) = (640, 400);
pub const PICTURE_SHARE: f64 = 0.4;

/// A part that can fold: each is a class on the view's root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fold {
    /// The legend, behind a "Key" button.
    Legend,
    /// The charts, into tabs showing one at a time.
    ChartTabs,
    /// The readouts, to one line beside the buttons.
    Readouts,
    /// The sentences, to the first (the whole in the drawer).
    Sentence,
    /// The decision's caption, away (the picture draws the decision).
    Decision,
    /// The dots of the comparison over seeds (`seeds=`), away: the
    /// pictures they sit under come first.
    Spread,
    /// The charts, behind a "Chart" button that opens them over the
    /// picture.
    ChartsAway,
    /// The controls, into the "More" drawer: last, since the prose names them.
    Controls,
}

impl Fold {
    /// Least important first: the order in which parts fold.
    pub const ORDER: [Fold; 8] = [
        Fold::Legend,
        Fold::ChartTabs,
        Fold::Readouts,
        Fold::Sentence,
        Fold::Decision,
        Fold::Spread,
        Fold::ChartsAway,
        Fold::Controls,
    ];

    /// The class on the view's root while the part is folded.
    pub fn class(self) -> &'static str {
        match self {
            Fold::Legend => "fold-legend",
            Fold::ChartTabs => "fold-charts",
            Fold::Readouts => "fold-readouts",
            Fold::Sentence => "fold-sentence",
            Fold::Decision => "fold-decision",
            Fold::Spread => "fold-spread",
            Fold::ChartsAway => "fold-chart",
            Fold::Controls => "fold-controls",
        }
    }

    fn bit(self) -> u8 {
        1 << Fold::ORDER.iter().position(|&fold| fold == self).unwrap_or(0)
    }
}

/// Which parts are folded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Folds(u8);

impl Folds {
    pub fn contains(self, fold: Fold) -> bool {
        self.0 & fold.bit() != 0
    }

    pub fn with(self, fold: Fold) -> Folds {
        Folds(self.0 | fold.bit())
    }

    pub fn without(self, fold: Fold) -> Folds {
        Folds(self.0 & !fold.bit())
    }
}

/// What a view measured of itself with the parts folded so far (CSS px).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Measure {
    /// The box the view is given.
    pub width: i32,
    pub height: i32,
    /// How tall the view's content is (its scroll height).
    pub content_height: i32,
    /// How far the content of its layout (picture, charts, buttons)
    /// passes the layout's box.
    pub layout_overflow: i32,
    /// The pictures, when the view has any: one, or two with a twin.
    pub picture: Option<Pictures>,
    /// Each chart shown: its height and its figure's least height.
    pub charts: Vec<(i32, i32)>,
}

impl Measure {
    /// About how many px taller the box must be for everything shown to
    /// fit, with the picture and each chart at least at their least useful
    /// size: 0 when it fits. A pixel of overflow is rounding, not a
    /// shortfall.
    pub fn shortfall(&self) -> i32 {
        let content = self.content_height - self.height - 1;
        let layout = self.layout_overflow - 1;
        let charts = self.charts.iter().map(|&(height, least)| least - height).max().unwrap_or(0);
        [content, layout, self.picture_shortfall(), charts].into_iter().max().unwrap_or(0).max(0)
    }

    /// How much taller the box must be for the pictures: each at least its
    /// least height, and in a box of [`SHARE_FROM`] or more, together
    /// [`PICTURE_SHARE`] of the box. The pictures take what the box gains
    /// in height, so pictures of area `a` growing by `p` px² a px in a box
    /// `w` × `h` need `d` more with `a + p d = share × w (h + d)`; ones too
    /// narrow to reach their share by height alone are given the height
    /// their share would need now.
    fn picture_shortfall(&self) -> i32 {
        self.picture_shortfall_in(self.width >= SHARE_FROM.0 && self.height >= SHARE_FROM.1)
    }

    /// [`Measure::picture_shortfall`] in a box counted `big` or not.
    fn picture_shortfall_in(&self, big: bool) -> i32 {
        let Some(pictures) = &self.picture else { return 0 };
        let least = pictures.shortfall();
        let p = pictures.growth();
        if !big || p <= 0.0 {
            return least;
        }
        let (w, h) = (f64::from(self.width), f64::from(self.height));
        let missing = PICTURE_SHARE * w * h - pictures.area();
        let gain = p - PICTURE_SHARE * w;
        let share = if gain > 0.0 { missing / gain } else { missing / p };
        least.max(share.ceil() as i32)
    }
}

/// The pictures a view draws: its own run's and, with a twin, the twin's
/// beside or under it, each with its width and height (CSS px).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pictures {
    pub each: Vec<(i32, i32)>,
    /// Side by side in one row (each grows as the box grows), rather than
    /// one above the other (sharing what the box gains).
    pub in_a_row: bool,
    /// The least height (CSS px) at which each reads: the height that
    /// labels every one of its rows, where the picture asks for more than
    /// [`PICTURE_MIN_PX`] (a 640 × 400 embed of 11 servers drew its rows
    /// 12 px high, too low for their names and queues' lengths).
    pub least: i32,
    /// The px of border above and below each (its box's height less its
    /// drawing's), which the layout keeps even where it gives a picture
    /// no height.
    pub frame: i32,
}

impl Pictures {
    /// One picture of this size.
    pub fn one(width: i32, height: i32) -> Pictures {
        Pictures { each: vec![(width, height)], in_a_row: true, least: PICTURE_MIN_PX, frame: 0 }
    }

    /// The px the borders of pictures squeezed to no height take beyond
    /// what the layout's overflow shows: a picture's row shrinks to
    /// nothing, and its border lies over the row after it (in a 680 × 400
    /// embed with ten controls and a refused setting's notice the layout
    /// overflowed by 416 px where its parts needed 418).
    fn squeezed_frames(&self) -> i32 {
        let squeezed = self.each.iter().filter(|&&(_, height)| height == 0).count() as i32;
        match self.in_a_row {
            true => self.frame * squeezed.min(1),
            false => self.frame * squeezed,
        }
    }

    /// How much the lowest of them lacks of its least height: each must
    /// read on its own.
    fn shortfall(&self) -> i32 {
        let lowest = self.each.iter().map(|&(_, height)| height).min().unwrap_or(0);
        self.least.max(PICTURE_MIN_PX) - lowest
    }

    /// The area they cover together.
    fn area(&self) -> f64 {
        self.each.iter().map(|&(width, height)| f64::from(width) * f64::from(height)).sum()
    }

    /// How much area they gain for each px the box gains in height: the
    /// sum of their widths in a row, the widest when stacked.
    fn growth(&self) -> f64 {
        let widths = self.each.iter().map(|&(width, _)| f64::from(width));
        match self.in_a_row {
            true => widths.sum(),
            false => widths.fold(0.0, f64::max),
        }
    }
}

/// What the height a view needs adds for the rounding of the heights it
/// was worked out from (each a whole px): a frame of exactly the height
/// named fell a px short of the picture's share, and folded the controls
/// again (10 controls in a 680 px embed with a refused setting's notice).
const ROUNDING_PX: i32 = 2;

/// One view's fitting, told what the view measures after each fold: which
/// parts it has folded, and, when the controls had to fold, the height
/// that would have shown them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fitting {
    folded: Folds,
    controls_need: Option<i32>,
    /// What the view measured when its folded legend and controls were
    /// last tried shown (see [`Fitting::retry_due`]).
    tried_at: Option<Measure>,
}

impl Fitting {
    /// Everything shown: where a view's fitting starts afresh.
    pub fn start() -> Fitting {
        Fitting::default()
    }

    pub fn folded(&self) -> Folds {
        self.folded
    }

    /// The box height (CSS px) that would show the controls, when they
    /// had to fold.
    pub fn controls_need(&self) -> Option<i32> {
        self.controls_need
    }

    /// Measured again with the controls shown (the view's sentences and
    /// strip change as it runs), the height that would show them now.
    pub fn remeasured_controls(&mut self, with_controls: &Measure) {
        if self.folded.contains(Fold::Controls) {
            self.controls_need = Some(Fitting::height_needed(with_controls));
        }
    }

    /// The box height that would show everything measured: first what
    /// the content overflows by, the view's or its layout's, whichever
    /// runs further (the picture gains nothing until that is taken up),
    /// then what the picture lacks, counting its share once the box has
    /// grown past [`SHARE_FROM`]'s height. The layout's counts as well: a
    /// view's scroll height stops some 10 px short of what its layout runs
    /// past, and a 680 px embed whose ten controls had to fold named
    /// 1,184 px when 1,248 showed them (the share owes half as much again
    /// for each px missed; a refused setting's notice took the slack that
    /// hid it). A picture squeezed to no height still has its border
    /// ([`Pictures::frame`]), which the overflow does not show. It adds
    /// [`ROUNDING_PX`], as the heights it reads are
    /// rounded.
    fn height_needed(m: &Measure) -> i32 {
        let over = (m.content_height - m.height).max(m.layout_overflow).max(0)
            + m.picture.as_ref().map_or(0, Pictures::squeezed_frames);
        let absorbed = Measure { height: m.height + over, content_height: m.height + over, ..m.clone() };
        let small = absorbed.height + absorbed.picture_shortfall_in(false).max(0);
        let picture = match m.width >= SHARE_FROM.0 && small >= SHARE_FROM.1 {
            true => absorbed.height + absorbed.picture_shortfall_in(true).max(0),
            false => small,
        };
        picture.max(m.height + m.shortfall()) + ROUNDING_PX
    }

    /// Whether a check, the view fitting as `now` measures it, should try
    /// its folded legend shown again and measure it with its controls
    /// shown: only where the view measures otherwise than when they were
    /// last tried (a sentence a line shorter gives the picture that line),
    /// or the legend's entries changed since ([`Fitting::legend_changed`]).
    /// Tried at every check, they cost two layouts of the page each,
    /// a quarter of a second apart in every view in sight, to learn what
    /// the check before had learned.
    pub fn retry_due(&mut self, now: &Measure) -> bool {
        if self.tried_at.as_ref() == Some(now) {
            return false;
        }
        self.tried_at = Some(now.clone());
        true
    }

    /// The legend lists other entries: the next check tries it again.
    pub fn legend_changed(&mut self) {
        self.tried_at = None;
    }

    /// Once the view fits, whether its legend shows again, measured with
    /// it shown: the legend folds first whatever the view lacks, yet beside
    /// a chart short of its least height it gives the chart nothing (the
    /// charts' column runs past it), so after the parts that did make room
    /// have folded it shows again wherever the view still fits with it.
    pub fn show_legend_if_fits(&mut self, with_legend: &Measure) -> bool {
        let fits = with_legend.shortfall() == 0;
        if fits {
            self.folded = self.folded.without(Fold::Legend);
        }
        fits
    }

    /// Given what the view measures now, the part to fold next (and counts
    /// it folded), or `None` when the view fits or nothing is left to fold.
    pub fn step(&mut self, measure: &Measure) -> Option<Fold> {
        let shortfall = measure.shortfall();
        if shortfall == 0 {
            return None;
        }
        let fold = Fold::ORDER.into_iter().find(|&fold| !self.folded.contains(fold))?;
        if fold == Fold::Controls {
            self.controls_need = Some(Fitting::height_needed(measure));
        }
        self.folded = self.folded.with(fold);
        Some(fold)
    }
}

/// Whether a view stacks its parts: given no height, or narrow.
pub fn stacks(width: i32, bounded: bool) -> bool {
    !bounded || width < NARROW_BELOW_PX
}

/// The least size (CSS px) of a label in a picture: 12 px, and in the
/// presenter view a fortieth of the screen's height (18 px on a 1280 × 720
/// projector), so that the back of a room reads it.
pub fn least_label_px(presenting: bool, screen_height: f64) -> f64 {
    const LEAST: f64 = 12.0;
    match presenting {
        true => LEAST.max(screen_height / 40.0),
        false => LEAST,
    }
}

/// Why a view is too short for its box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Short {
    /// Its controls had to fold; the text around it asks the reader to
    /// move them.
    OfControls,
    /// It stacks its parts and is taller than its frame.
    Stacked,
}

/// What a stacked view's note adds to its height for the page's margins.
const FRAME_MARGIN_PX: i32 = 20;

/// What a view in a box `available` px tall says when it needs `needed`:
/// nothing when it fits.
pub fn size_note(needed: i32, available: i32, why: Short) -> Option<String> {
    if needed <= available + 1 {
        return None;
    }
    let (needed, what) = match why {
        Short::OfControls => (needed, "to show its controls"),
        Short::Stacked => (needed + FRAME_MARGIN_PX, "at this width"),
    };
    Some(format!("This view needs a frame about {needed} px tall {what}; this one is {available} px."))
}

#[cfg(test)]
mod tests;
