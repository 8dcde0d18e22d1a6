//! Which servers the picture marks as having just bounced a request, and
//! how strongly. At chapter 3's load a reader saw bounces only as a count
//! in the sentence ("53 bounces so far") and never where one happened: a
//! bounce is one dot turning back among sixty. The picture marks the
//! server whose queue sent it back, held a while at full strength in wall
//! time, so that a reader's eye has time to get there, then fading; its
//! count since time zero stays written beside it.

/// Wall milliseconds a server's bounce mark holds at full strength after
/// its latest bounce: a mark that lasted a frame or two was gone before a
/// reader's eye reached it.
const HELD_MS: f64 = 1_000.0;
/// Wall milliseconds over which it then fades out.
const FADE_MS: f64 = 600.0;

/// How strongly a bounce mark is drawn (1 full, 0 gone) `age_ms` of
/// running wall time after the server's latest bounce.
pub fn strength(age_ms: f64) -> f64 {
    (1.0 - (age_ms - HELD_MS) / FADE_MS).clamp(0.0, 1.0)
}

/// How a bounce's cross is drawn at a strength: its opacity and its
/// stroke (CSS px).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrossInk {
    pub opacity: f64,
    pub stroke_px: f64,
}

/// How a cross of `strength` (see [`strength`]) is drawn: it fades by
/// stroke alone, never by opacity, since a faded cross stays drawn
/// beside its count for as long as the count is written (so that "27"
/// left of a row is not read as a queue's length), and a mark a reader is
/// meant to see stands 3:1 off its panel (WCAG's non-text contrast). At
/// 30% opacity it stood 1.5:1 off the dark panel, and readers lost it.
/// Nor by size: shrunk to 55% as it faded, a cross held beside one that
/// had faded showed two sizes of bounce in one picture, read as two kinds
/// (reader 13, chapter 2); its count's colour (the bounces' while held,
/// muted after) says how fresh it is.
pub fn cross_ink(strength: f64) -> CrossInk {
    CrossInk { opacity: 1.0, stroke_px: 2.0 + strength.clamp(0.0, 1.0) }
}

/// A server's bounce mark, as a frame draws it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BounceMark {
    pub server: usize,
    /// How strongly its mark is drawn (see [`strength`]); 0 once faded,
    /// when only the count is written.
    pub strength: f64,
    /// Requests its queue has bounced since time zero.
    pub bounced: u64,
}

/// Each server's bounces so far and the running wall time since its
/// latest, as frames observe them.
#[derive(Debug, Default)]
pub struct BounceMarks {
    /// Per server: bounces seen, and running wall ms since the latest
    /// (`None` before any was seen bounce).
    servers: Vec<(u64, Option<f64>)>,
    last_ms: Option<f64>,
}

impl BounceMarks {
    /// Takes in a frame at wall time `now_ms` and each server's bounces so
    /// far (`bounced`). Ages grow only while `running`: a paused picture
    /// keeps its marks as they were, for the reader who paused to look. The
    /// first frame, and one after a restart (a count went down, or the
    /// servers changed in number), only learns the counts: bounces from
    /// before (a run ahead) are counted but not marked as just happened.
    pub fn observe(&mut self, now_ms: f64, running: bool, bounced: &[u64]) {
        let elapsed = match (self.last_ms, running) {
            (Some(last), true) => (now_ms - last).max(0.0),
            _ => 0.0,
        };
        self.last_ms = Some(now_ms);
        let restarted = self.servers.len() != bounced.len()
            || self.servers.iter().zip(bounced).any(|(&(seen, _), &now)| now < seen);
        if restarted {
            self.servers = bounced.iter().map(|&n| (n, None)).collect();
            return;
        }
        for ((seen, age), &now) in self.servers.iter_mut().zip(bounced) {
            *age = match now > *seen {
                true => Some(0.0),
                false => age.map(|age| age + elapsed),
            };
            *seen = now;
        }
    }

    /// The marks a frame draws: each server that has bounced a request,
    /// with its count and how strongly its mark shows.
    pub fn shown(&self) -> Vec<BounceMark> {
        let mark = |(server, &(bounced, age)): (usize, &(u64, Option<f64>))| BounceMark {
            server,
            strength: age.map_or(0.0, strength),
            bounced,
        };
        self.servers.iter().enumerate().map(mark).filter(|m| m.bounced > 0).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::stylesheet::{contrast, declared, themes};

    /// A bounce's cross, where it has faded most and is still drawn beside
    /// its count, stands 3:1 off the panel in both themes (WCAG's least
    /// for a mark a reader is meant to see): drawn at 30% opacity it stood
    /// 1.5:1 off the dark panel.
    #[test]
    fn a_faded_bounce_cross_stands_three_to_one_off_the_panel_in_both_themes() {
        let faintest = cross_ink(0.0);
        for (theme, blocks) in themes() {
            let (bounce, panel) = (declared(&blocks, "--c-bounce"), declared(&blocks, "--panel"));
            let drawn = panel.mix(bounce, faintest.opacity);
            let ratio = contrast(drawn, panel);
            assert!(
                ratio >= 3.0,
                "{theme}: a faded cross {} on the panel {}: {ratio:.2}:1",
                drawn.css(),
                panel.css()
            );
        }
    }

    #[test]
    fn a_mark_holds_a_second_then_fades_over_six_tenths() {
        assert_eq!(strength(0.0), 1.0);
        assert_eq!(strength(1_000.0), 1.0);
        assert!((strength(1_300.0) - 0.5).abs() < 1e-9);
        assert_eq!(strength(1_600.0), 0.0);
    }

    #[test]
    fn a_cross_fades_by_stroke_alone_keeping_its_size_and_colour() {
        assert_eq!(cross_ink(1.0), CrossInk { opacity: 1.0, stroke_px: 3.0 });
        let faded = cross_ink(strength(5_000.0));
        assert_eq!(faded, CrossInk { opacity: 1.0, stroke_px: 2.0 });
        assert_eq!(cross_ink(0.5).stroke_px, 2.5);
    }

    #[test]
    fn a_server_is_marked_when_its_count_grows_and_the_mark_ages_while_running() {
        let mut marks = BounceMarks::default();
        marks.observe(0.0, true, &[0, 3]);
        // Bounces from before the first frame are counted, not marked.
        assert_eq!(marks.shown(), [BounceMark { server: 1, strength: 0.0, bounced: 3 }]);
        marks.observe(100.0, true, &[1, 3]);
        assert_eq!(
            marks.shown(),
            [
                BounceMark { server: 0, strength: 1.0, bounced: 1 },
                BounceMark { server: 1, strength: 0.0, bounced: 3 }
            ]
        );
        marks.observe(1_400.0, true, &[1, 3]);
        assert!((marks.shown()[0].strength - 0.5).abs() < 1e-9, "{:?}", marks.shown());
        // Paused, the mark stays as it was, however long the reader looks.
        marks.observe(9_000.0, false, &[1, 3]);
        assert!((marks.shown()[0].strength - 0.5).abs() < 1e-9, "{:?}", marks.shown());
        // A second bounce at the same server brings its mark back whole.
        marks.observe(9_100.0, true, &[2, 3]);
        assert_eq!(marks.shown()[0], BounceMark { server: 0, strength: 1.0, bounced: 2 });
    }

    #[test]
    fn a_restart_forgets_the_marks_and_learns_the_new_counts() {
        let mut marks = BounceMarks::default();
        marks.observe(0.0, true, &[0, 0]);
        marks.observe(16.0, true, &[2, 0]);
        marks.observe(32.0, true, &[0, 1]);
        assert_eq!(marks.shown(), [BounceMark { server: 1, strength: 0.0, bounced: 1 }]);
        marks.observe(48.0, true, &[0, 1, 0]);
        assert_eq!(marks.shown(), [BounceMark { server: 1, strength: 0.0, bounced: 1 }]);
    }
}
