//! The sizes "Copy embed code" offers: a post's column, a wide post and a
//! slide, and the height each gives an embed of a configuration. The
//! heights follow what the embed shows, so that at the width named its
//! picture covers at least 40% of the frame with its parts unfolded as far
//! as they can be (see `src/web/fit.rs`, which folds the rest).

use super::options::Options;

/// What each line of controls beyond the first adds to a frame's height:
/// the line's 56 px, and as much again and more for the picture to keep
/// its share of the taller frame (measured: three controls in a 680 px
/// post need 543 px where one or two fit in 400).
const CONTROL_ROW_PX: u32 = 140;

/// What each sentence under the caption adds: about two lines in a post's
/// column, and the picture's share of them (measured: a twin's two
/// sentences in a 680 px post need 546 px for its one control to show).
const SENTENCE_PX: u32 = 70;

/// Where an embed is meant to go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmbedSize {
    /// A blog post's column, about 680 px wide.
    Post,
    /// A wide post or a page without a sidebar, about 1000 px wide.
    WidePost,
    /// A 16:9 slide, shown as the presenter view.
    Slide,
}

impl EmbedSize {
    pub const ALL: [EmbedSize; 3] = [EmbedSize::Post, EmbedSize::WidePost, EmbedSize::Slide];

    pub fn key(self) -> &'static str {
        match self {
            EmbedSize::Post => "post",
            EmbedSize::WidePost => "wide-post",
            EmbedSize::Slide => "slide",
        }
    }

    /// What the dialog calls it.
    pub fn label(self) -> &'static str {
        match self {
            EmbedSize::Post => "Post (a 680 px column)",
            EmbedSize::WidePost => "Wide post (1000 px)",
            EmbedSize::Slide => "Slide (1280 × 720, presenter view)",
        }
    }

    pub fn from_key(key: &str) -> Option<EmbedSize> {
        EmbedSize::ALL.into_iter().find(|size| size.key() == key)
    }

    /// The width the size is meant for (CSS px).
    pub fn width(self) -> u32 {
        match self {
            EmbedSize::Post => 680,
            EmbedSize::WidePost => 1000,
            EmbedSize::Slide => 1280,
        }
    }

    /// The height (CSS px) to give an embed showing what `options` ask
    /// for: the picture's share of the width, and a line for each further
    /// part (sentences, a second chart, each line of controls beyond the
    /// first under the picture); a slide is always 16:9.
    pub fn height(self, options: &Options) -> u32 {
        if self == EmbedSize::Slide {
            return 720;
        }
        let base = self.width() * 3 / 5;
        let sentences = SENTENCE_PX * options.say.0.len().min(3) as u32;
        let charts = if options.charts.len() > 1 { 60 } else { 0 };
        let rows = options.controls.len().div_ceil(self.controls_a_row()).max(1) as u32;
        let controls = CONTROL_ROW_PX * (rows - 1);
        let caption = if options.caption.is_empty() { 0 } else { 28 };
        base + sentences + charts + controls + caption
    }

    /// How many controls stand side by side on their line under the
    /// picture (see `www/style.css`): a label and its value take about
    /// 300 px.
    fn controls_a_row(self) -> usize {
        (self.width() as usize / 300).max(1)
    }

    /// Whether the embed shows the presenter view.
    pub fn presenter(self) -> bool {
        self == EmbedSize::Slide
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ui::options::Kind;

    fn options(pairs: &[(&str, &str)]) -> Options {
        let mut options = Options::defaults(Kind::Embed);
        for (key, value) in pairs {
            options.set(key, value).unwrap();
        }
        options
    }

    #[test]
    fn a_post_is_at_least_a_blog_frame_and_grows_with_what_it_shows() {
        let plain = EmbedSize::Post.height(&options(&[]));
        assert_eq!(plain, 408, "the default embed: one control, one chart");
        let busy = options(&[
            ("controls", "policy,load,slots"),
            ("charts", "percentiles,clients"),
            ("say", "versus,ratios"),
        ]);
        // Three controls are two lines of them in a post's column, one in a
        // wide post's.
        assert_eq!(EmbedSize::Post.height(&busy), 408 + 2 * 70 + 60 + 140);
        assert_eq!(EmbedSize::WidePost.height(&busy), 600 + 2 * 70 + 60);
        let two = options(&[("controls", "policy,load")]);
        assert_eq!(EmbedSize::Post.height(&two), 408, "two controls share the line under the picture");
    }

    #[test]
    fn a_slide_is_sixteen_by_nine_whatever_it_shows() {
        let busy = options(&[("controls", "policy,load,slots,clients,servers"), ("charts", "all")]);
        assert_eq!(EmbedSize::Slide.height(&busy), 720);
        assert_eq!(EmbedSize::Slide.width() * 9, 720 * 16);
        assert!(EmbedSize::Slide.presenter() && !EmbedSize::Post.presenter());
    }

    #[test]
    fn each_size_reads_back_from_its_key() {
        for size in EmbedSize::ALL {
            assert_eq!(EmbedSize::from_key(size.key()), Some(size));
        }
        assert_eq!(EmbedSize::from_key("poster"), None);
    }
}
