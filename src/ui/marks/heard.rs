//! What a client heard of each server's load, and where its mark stands.

use crate::engine::LearnedLoad;

/// How long a learned copy of a server's load takes to fade by a factor
/// of e (ms): adding clients (each hears from each server less often)
/// visibly greys the copies out.
const COPY_FADE_MS: f64 = 1_000.0;

/// The faintest a copy's number is written: still legible (about 3:1 on
/// the panel), where a line could go fainter and stay seen.
pub(super) const HEARD_FAINTEST: f64 = 0.45;

/// What the column beside a server's row writes of a client's copy of its
/// load, and how strongly: the load it heard (queued and busy, the number
/// power of two compares), solid while fresh and fading by e each second
/// of age, or "–" (faintest) if the
/// server never answered it; nothing for a server outside its pool. A
/// line under each row, on the row's own scale, was read by no student:
/// a number beside the row's own "10/10" and queue is.
pub fn heard_label(copy: Option<&LearnedLoad>) -> Option<(String, f64)> {
    let copy = copy?;
    Some(match copy.age {
        Some(age) => {
            let fresh = (-age.as_ms().max(0.0) / COPY_FADE_MS).exp();
            ((copy.queued + copy.busy).to_string(), HEARD_FAINTEST + (1.0 - HEARD_FAINTEST) * fresh)
        }
        None => ("–".to_string(), HEARD_FAINTEST),
    })
}

/// The words heading the column of `client`'s copies, longest first (the
/// picture writes the longest that fits): with how long ago it heard, from
/// its freshest copy to its oldest, so that staleness reads in the picture
/// where the client decides, not only in the copies' fading ink (reader 9
/// found it only in a dense paragraph); then without it. A range, not a
/// typical age: a client hears often from the servers it has sessions on
/// and rarely from the rest (chapter 6: copies from 5 ms to 2.5 s old,
/// their median 20 to 100 ms, where the older of the two a decision
/// compares is typically 250 ms old), so one figure would belie the
/// sentence's. Each ends in "heard", which the picture sets right-aligned
/// over the column, so that the word naming the numbers stands over them:
/// "client 0 heard, 18 ms to 1.4 s ago" ended in its ages there, its name
/// over the queues to the left, and reader 14 found the column unlabelled.
/// On a phone, where "client 0" does not fit beside "Servers · 10" with the
/// ages, the ages and "heard" (readers 11 and 12 missed the ages there).
/// A `followed` client is named by the line over the picture, which lies
/// left of the heading and needs its room: the heading then leaves the
/// name out (reader 15 found chapter 6's line over "… ms to … s ago,
/// client 19 heard", all but "heard" hidden).
pub fn heard_titles(client: u32, learned: &[LearnedLoad], followed: bool) -> Vec<String> {
    let ages = learned.iter().filter_map(|copy| copy.age).map(|age| age.as_secs());
    let range = ages.fold(None, |range: Option<(f64, f64)>, age| {
        Some(range.map_or((age, age), |(low, high)| (low.min(age), high.max(age))))
    });
    let heard = format!("client {client} heard");
    let aged = range.map(|(low, high)| match (age_words(low), age_words(high)) {
        (low, high) if low == high => [format!("{low} ago, {heard}"), format!("{low} ago, heard")],
        (low, high) => [format!("{low} to {high} ago, {heard}"), format!("{low}–{high} ago, heard")],
    });
    let [long, short] = aged.map_or([None, None], |[long, short]| [Some(long), Some(short)]);
    let [long, heard] = [long, Some(heard)].map(|title| title.filter(|_| !followed));
    long.into_iter().chain(short).chain(heard).chain(["heard".to_string()]).collect()
}

/// An age as the copies' heading says it: "40 ms", "2.1 s", "12 s".
fn age_words(seconds: f64) -> String {
    match seconds {
        s if s < 0.9995 => format!("{:.0} ms", s * 1000.0),
        s if s < 9.95 => format!("{s:.1} s"),
        s => format!("{s:.0} s"),
    }
}

/// Where the mark of a client's copy of a server's load stands on the
/// row (CSS px): a needle through the row's box at `x`, the copy's load on
/// the row's own scale, from a little above the box to the bottom of the
/// `gap` free below it, with an upward head filling that gap. A caret of
/// 6 px under the row, the first design, could not be read at 1440 × 900
/// (reader 5) nor from a room's back: the needle is as tall as the row,
/// and its stroke and head grow with the labels (`label_px`), as a
/// presenter's screen makes them. It reaches above the box half as far as
/// the gap below, so that a row's smaller cells (a lane holding a long
/// queue) leave it as tall.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CopyMark {
    pub x: f64,
    pub top: f64,
    pub bottom: f64,
    /// The needle's stroke.
    pub stroke: f64,
    /// The head's width at its base, at the needle's bottom.
    pub head: f64,
}

impl CopyMark {
    pub fn new(x: f64, (box_top, box_bottom): (f64, f64), gap: f64, label_px: f64) -> CopyMark {
        let overhang = (gap / 2.0).max(3.0);
        CopyMark {
            x,
            top: box_top - overhang,
            bottom: box_bottom + gap.max(overhang),
            stroke: (label_px / 5.0).max(2.5),
            head: (label_px * 0.8).max(gap.max(overhang) * 1.6),
        }
    }

    /// The box the mark covers, `[x, y, w, h]`.
    pub fn rect(&self) -> [f64; 4] {
        let w = self.head.max(self.stroke);
        [self.x - w / 2.0, self.top, w, self.bottom - self.top]
    }
}

/// Where a queue's length, `width` px wide and written right-aligned at
/// `right` just left of its queue, goes so that a copy's needle (`mark`,
/// haloed 1 px) does not stand on it: where it would, just left of the
/// needle. A copy one or two requests above the queue puts the needle
/// where the length is written (chapter 6 on a phone: a needle reached
/// 6.5 px into a queue's "2").
pub fn count_clear_of(right: f64, width: f64, mark: Option<&CopyMark>) -> f64 {
    const HALO: f64 = 1.0;
    const GAP: f64 = 2.0;
    let Some(mark) = mark else { return right };
    let [x, _, w, _] = mark.rect();
    let (from, to) = (x - HALO - GAP, x + w + HALO + GAP);
    match right - width < to && right > from {
        true => from,
        false => right,
    }
}
