use super::*;

/// A view as the browser would lay it out: each part in [`Fold::ORDER`]
/// takes its height, unfolded or folded, and the picture, 600 px wide,
/// takes what is left of a box 680 px wide.
struct View {
    height: i32,
    /// Each part's height shown and folded, in [`Fold::ORDER`].
    parts: [(i32, i32); 8],
}

impl View {
    fn measure(&self, folded: Folds) -> Measure {
        let parts: i32 = Fold::ORDER
            .iter()
            .zip(self.parts)
            .map(|(&fold, (shown, away))| if folded.contains(fold) { away } else { shown })
            .sum();
        Measure {
            width: 680,
            height: self.height,
            content_height: self.height.max(parts),
            layout_overflow: 0,
            picture: Some(Pictures::one(600, (self.height - parts).max(0))),
            charts: Vec::new(),
        }
    }

    /// Fits the view as `web::fit` does: measure, fold, measure again.
    fn fit(&self) -> Fitting {
        let mut fitting = Fitting::start();
        while fitting.step(&self.measure(fitting.folded())).is_some() {}
        fitting
    }
}

/// Legend, charts, readouts, sentence, decision, seeds' dots, chart,
/// controls: each saves some height when it folds (the chart beside the
/// picture, none; this view has no dots).
const PARTS: [(i32, i32); 8] = [(30, 0), (80, 40), (90, 24), (60, 24), (40, 0), (0, 0), (0, 0), (52, 0)];

fn folded(fitting: &Fitting) -> Vec<Fold> {
    Fold::ORDER.into_iter().filter(|&fold| fitting.folded().contains(fold)).collect()
}

#[test]
fn a_box_that_holds_everything_folds_nothing() {
    let view = View { height: 900, parts: PARTS };
    let fitting = view.fit();
    assert_eq!(folded(&fitting), []);
    assert_eq!(fitting.controls_need(), None);
}

#[test]
fn parts_fold_least_important_first_and_the_controls_stay() {
    // 352 px of parts unfolded; a 680 × 560 box needs the picture 272 px
    // tall (40% of the box at 600 px wide): 352 + 272 = 624 > 560, so
    // parts fold until they take 288 px or less.
    let view = View { height: 560, parts: PARTS };
    let fitting = view.fit();
    assert_eq!(folded(&fitting), [Fold::Legend, Fold::ChartTabs]);
    assert_eq!(view.measure(fitting.folded()).shortfall(), 0);
}

#[test]
fn the_legend_shows_again_where_the_parts_that_made_room_leave_room_for_it() {
    // Chapter 1 at 1440 × 900: a chart 180 px tall beside the picture
    // needs 240. The legend folds first, though folding it gives the chart
    // nothing; the charts fold into tabs, and the one shown gets its 240.
    let measure = |content_height, charts| Measure {
        width: 985,
        height: 640,
        content_height,
        layout_overflow: 0,
        picture: Some(Pictures::one(650, 420)),
        charts,
    };
    let mut fitting = Fitting::start();
    assert_eq!(fitting.step(&measure(640, vec![(180, 240)])), Some(Fold::Legend));
    assert_eq!(fitting.step(&measure(640, vec![(180, 240)])), Some(Fold::ChartTabs));
    assert_eq!(fitting.step(&measure(640, vec![(400, 240)])), None);
    assert!(fitting.show_legend_if_fits(&measure(640, vec![(400, 240)])));
    assert_eq!(folded(&fitting), [Fold::ChartTabs]);
    // Where the legend takes the room the view lacks, it stays folded.
    let mut short = Fitting::start();
    assert_eq!(short.step(&measure(700, Vec::new())), Some(Fold::Legend));
    assert!(!short.show_legend_if_fits(&measure(700, Vec::new())));
    assert_eq!(folded(&short), [Fold::Legend]);
}

#[test]
fn the_folded_legend_is_tried_again_only_when_the_view_measures_otherwise_or_its_entries_change() {
    let measure = |picture_height| Measure {
        width: 985,
        height: 640,
        content_height: 640,
        layout_overflow: 0,
        picture: Some(Pictures::one(650, picture_height)),
        charts: Vec::new(),
    };
    let mut fitting = Fitting::start();
    assert!(fitting.retry_due(&measure(400)));
    // Checks that measure the same would learn what the first learned.
    assert!(!fitting.retry_due(&measure(400)));
    assert!(!fitting.retry_due(&measure(400)));
    // A sentence a line shorter gives the picture that line.
    assert!(fitting.retry_due(&measure(420)));
    assert!(!fitting.retry_due(&measure(420)));
    // The legend lists an entry fewer: it may fit now.
    fitting.legend_changed();
    assert!(fitting.retry_due(&measure(420)));
    assert!(!fitting.retry_due(&measure(420)));
    // A view fitted afresh tries at its first check.
    assert!(Fitting::start().retry_due(&measure(420)));
}

#[test]
fn the_controls_fold_last_and_say_the_height_that_shows_them() {
    // Everything else folded, the parts take 52 + 40 + 24 + 24 = 140 px;
    // at 400 px the picture needs 182 (40% of 680 × 400 at 600 wide): 322
    // fits. At 300 px the picture gets 160 of the 120 it needs at least,
    // but a 300 px box is below the share's size, so it fits too; at 250
    // the picture gets 110: 10 short, and the controls fold, asking 260 px
    // and 2 for the rounding of what was measured.
    assert!(!folded(&View { height: 400, parts: PARTS }.fit()).contains(&Fold::Controls));
    assert!(!folded(&View { height: 300, parts: PARTS }.fit()).contains(&Fold::Controls));
    let short = View { height: 250, parts: PARTS }.fit();
    assert_eq!(folded(&short), Fold::ORDER);
    assert_eq!(short.controls_need(), Some(262));
}

#[test]
fn the_height_a_short_box_needs_counts_the_share_the_grown_box_owes() {
    // At 250 px (below the share's 400) controls of 300 px overflow the box
    // by 50 and leave the picture nothing: the box needs those 50, then the
    // picture's least 120, which makes 420, past 400, where the picture
    // (600 px wide) owes 40% of 680 × h: 600 (h - 300) = 272 h gives
    // h = 548.8, so 549, and 2 px for the rounding of what it measured.
    let short =
        View { height: 250, parts: [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (300, 0)] };
    let fitting = short.fit();
    assert!(fitting.folded().contains(Fold::Controls));
    assert_eq!(fitting.controls_need(), Some(551));
}

#[test]
fn the_height_the_controls_need_counts_the_layout_s_overflow_where_it_runs_further() {
    // The view's content overflows its 250 px box by 50 px, its layout by
    // 61: the box needs those 61 before the picture (600 px wide, at 0)
    // gains, then the picture's share of the grown box: 600 (h - 311) =
    // 272 h gives h = 568.9, so 569, and 2 px for rounding (549 and 2 counted
    // only the view's 50).
    let measure = Measure {
        width: 680,
        height: 250,
        content_height: 300,
        layout_overflow: 61,
        picture: Some(Pictures::one(600, 0)),
        charts: Vec::new(),
    };
    let mut fitting = Fitting::start();
    while fitting.step(&measure).is_some() {}
    assert_eq!(fitting.controls_need(), Some(571));
}

#[test]
fn the_height_the_controls_need_counts_the_border_of_a_picture_squeezed_to_nothing() {
    // Measured in a 680 × 400 embed with ten controls shown and a refused
    // setting's notice: the layout overflowed by 416 px, the picture (658
    // px wide, a 1 px border above and below) had no height left. Its
    // parts need 418 px, so the picture's share asks 658 x = 272 (818 + x),
    // x = 576.4: 818 + 577 and 2 for rounding. Counting the layout's 416
    // alone named 1,394 px, where the picture fell 160 px² short of its
    // share and the controls folded again.
    let measure = |frame| Measure {
        width: 680,
        height: 400,
        content_height: 806,
        layout_overflow: 416,
        picture: Some(Pictures { least: 182, frame, ..Pictures::one(658, 0) }),
        charts: Vec::new(),
    };
    let need = |frame| {
        let mut fitting = Fitting::start();
        while fitting.step(&measure(frame)).is_some() {}
        fitting.controls_need()
    };
    assert_eq!(need(2), Some(1397));
    assert_eq!(need(0), Some(1394));
    // A picture that keeps some height keeps its border inside the layout.
    let kept = |frame| {
        let kept = Measure { picture: Some(Pictures { frame, ..Pictures::one(658, 40) }), ..measure(frame) };
        let mut fitting = Fitting::start();
        while fitting.step(&kept).is_some() {}
        fitting.controls_need()
    };
    assert_eq!(kept(2), kept(0));
}

#[test]
fn the_height_the_controls_need_follows_the_view_as_it_grows() {
    let view = View { height: 250, parts: PARTS };
    let mut fitting = view.fit();
    assert_eq!(fitting.controls_need(), Some(262));
    // The sentence grew by 40 px since, taken from the picture (110 → 70):
    // measured again with the controls shown, the box needs 40 more.
    let mut grown = view.measure(fitting.folded().without(Fold::Controls));
    grown.picture = Some(Pictures::one(600, 70));
    fitting.remeasured_controls(&grown);
    assert_eq!(fitting.controls_need(), Some(302));
    // A fitting whose controls show has nothing to say.
    let mut fits = View { height: 900, parts: PARTS }.fit();
    fits.remeasured_controls(&grown);
    assert_eq!(fits.controls_need(), None);
}

#[test]
fn the_picture_needs_its_share_of_a_big_box_and_its_least_height_in_any() {
    let measure = |width, height, (w, h)| Measure {
        width,
        height,
        content_height: height,
        picture: Some(Pictures::one(w, h)),
        ..Measure::default()
    };
    // 40% of 680 × 400 is 108,800 px², 272 px tall at 400 px wide; the
    // box grows with the picture: 400 (200 + d) = 0.4 × 680 (400 + d)
    // gives d = 225.
    assert_eq!(measure(680, 400, (400, 200)).shortfall(), 225);
    assert_eq!(measure(680, 400, (400, 272)).shortfall(), 0);
    // A picture of 40% of the width or less cannot catch up: it is given
    // the height its share needs now, 108,800 / 200 - 200 = 344.
    assert_eq!(measure(680, 400, (200, 200)).shortfall(), 344);
    // Below 640 × 400 only the least height counts.
    assert_eq!(measure(600, 300, (400, 100)).shortfall(), PICTURE_MIN_PX - 100);
    assert_eq!(measure(600, 300, (400, 130)).shortfall(), 0);
}

#[test]
fn a_picture_whose_rows_need_more_than_the_least_height_asks_for_it() {
    // 11 rows labelled need 196 px; a 640 × 400 embed gave 171, over its
    // share of the box.
    let rows = |least| Measure {
        width: 640,
        height: 400,
        content_height: 400,
        picture: Some(Pictures { least, ..Pictures::one(620, 171) }),
        ..Measure::default()
    };
    assert_eq!(rows(196).shortfall(), 25);
    assert_eq!(rows(PICTURE_MIN_PX).shortfall(), 0);
    assert_eq!(rows(0).shortfall(), 0, "never less than the least of any picture");
}

#[test]
fn two_pictures_share_the_picture_s_part_and_each_must_read() {
    let measure = |each: Vec<(i32, i32)>, in_a_row| Measure {
        width: 680,
        height: 400,
        content_height: 400,
        picture: Some(Pictures { each, in_a_row, least: PICTURE_MIN_PX, frame: 0 }),
        ..Measure::default()
    };
    // Two of 300 × 182 in a row cover 109,200 px², 40% of 680 × 400.
    assert_eq!(measure(vec![(300, 182), (300, 182)], true).shortfall(), 0);
    // Stacked at 600 px wide, 2 × 600 × 80 = 96,000 px²: the column gains
    // 600 px² a px against the share's 272, so d = 12,800 / 328 = 39.02,
    // rounded up; but each picture must be 120 tall: 40 more.
    assert_eq!(measure(vec![(600, 80), (600, 80)], false).shortfall(), 40);
    assert_eq!(measure(vec![(600, 100), (600, 100)], false).shortfall(), 20);
    // 2 × 300 × 150 = 90,000 px², 18,800 short: in a row they gain 600
    // px² a px (d = 18,800 / 328 = 57.3), stacked only 300 (d = 18,800 /
    // 28 = 671.4).
    assert_eq!(measure(vec![(300, 150), (300, 150)], true).shortfall(), 58);
    assert_eq!(measure(vec![(300, 150), (300, 150)], false).shortfall(), 672);
}

#[test]
fn a_chart_below_its_least_height_or_content_past_the_box_is_a_shortfall() {
    let base = Measure { width: 500, height: 300, content_height: 300, ..Measure::default() };
    assert_eq!(Measure { charts: vec![(90, 120), (200, 120)], ..base.clone() }.shortfall(), 30);
    assert_eq!(Measure { content_height: 340, ..base.clone() }.shortfall(), 39);
    assert_eq!(Measure { layout_overflow: 25, ..base.clone() }.shortfall(), 24);
    // One pixel over is rounding.
    assert_eq!(Measure { content_height: 301, layout_overflow: 1, ..base }.shortfall(), 0);
}

#[test]
fn a_view_stacks_when_narrow_or_given_no_height() {
    assert!(stacks(NARROW_BELOW_PX - 1, true));
    assert!(stacks(1200, false));
    assert!(!stacks(NARROW_BELOW_PX, true));
}

#[test]
fn the_size_note_names_the_height_needed_and_why() {
    assert_eq!(
        size_note(470, 400, Short::OfControls).as_deref(),
        Some("This view needs a frame about 470 px tall to show its controls; this one is 400 px.")
    );
    assert_eq!(
        size_note(900, 600, Short::Stacked).as_deref(),
        Some("This view needs a frame about 920 px tall at this width; this one is 600 px.")
    );
    assert_eq!(size_note(401, 400, Short::OfControls), None);
}

#[test]
fn folds_are_a_set() {
    let folds = Folds::default().with(Fold::Readouts).with(Fold::Legend);
    assert!(folds.contains(Fold::Readouts) && folds.contains(Fold::Legend));
    assert!(!folds.contains(Fold::Controls));
    assert_eq!(Fold::ORDER.map(Fold::class).len(), 8);
}

#[test]
fn a_room_reads_labels_a_fortieth_of_the_screen_high() {
    assert_eq!(least_label_px(true, 720.0), 18.0);
    assert_eq!(least_label_px(true, 1080.0), 27.0);
    assert_eq!(least_label_px(false, 1080.0), 12.0);
    assert_eq!(least_label_px(true, 400.0), 12.0, "never below the page's own");
}

#[test]
fn the_seeds_dots_fold_after_the_decision_and_before_the_chart_and_controls() {
    // Chapter 4's dots under its pictures take 90 px: a box that holds
    // the rest with the pictures at their least folds them, and the
    // controls the link names stay.
    let mut parts = PARTS;
    parts[5] = (90, 0);
    let fitting = View { height: 400, parts }.fit();
    let folds = folded(&fitting);
    assert!(folds.contains(&Fold::Spread), "{folds:?}");
    assert!(!folds.contains(&Fold::Controls), "{folds:?}");
    let order = |fold| Fold::ORDER.iter().position(|&f| f == fold);
    assert!(order(Fold::Decision) < order(Fold::Spread) && order(Fold::Spread) < order(Fold::ChartsAway));
}
