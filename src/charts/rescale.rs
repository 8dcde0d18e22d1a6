//! The waits chart's note on an axis grown far: where the chart reached
//! before, as the reader saw it, and where it reaches since.

use crate::format::ms;

/// How many times further than before the chart must reach for its
/// caption to say so: a run's first seconds step its reach from 10 to 20
/// to 30 ms, which reads; a slowed server's tail took chapter 1's from
/// 30 ms to 800 in a moment, and the pile it had shown became one bar.
const RESCALE_TOLD: f64 = 3.0;

/// Simulated ms a reach must have held, with requests waiting, to count
/// as what the reader saw before: a run's first second grows its reach
/// from a bar at zero through a few steps in moments, and a slowed
/// server's tail grows it in steps of two or three times, each held a
/// moment.
const RESCALE_HELD_MS: f64 = 2_000.0;

/// Where the chart reached before it last grew far, and where it reaches
/// since: the caption says so while it reaches there, so that the pile
/// squeezed to the left edge reads as the scale's doing, not the waits'.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Rescale {
    /// The reach now, and since when (simulated ms) it has held, while
    /// requests wait.
    now: Option<(f64, f64)>,
    /// The last reach that held [`RESCALE_HELD_MS`]: what the reader saw.
    seen: Option<f64>,
    grew_from: Option<f64>,
}

impl Rescale {
    /// Notes the chart's reach (ms) at `now_ms` (simulated), and says what
    /// changed while it reaches [`RESCALE_TOLD`] times or more the last
    /// reach that held [`RESCALE_HELD_MS`]. A chart whose p99 was zero
    /// (`waited` false: nearly every request waited not at all) had no
    /// pile to squeeze, only a bar at zero that stays where it was, and a
    /// reach held a moment was not seen: neither counts (chapter 1's
    /// opening said "Axis now 0–25.0 ms, was 0–1.0 ms" to a reader who
    /// had seen nothing wait yet, and went on saying it: reader 12).
    pub fn observe(&mut self, reach: f64, waited: bool, now_ms: f64) -> Option<String> {
        self.now = match self.now {
            Some((before, since)) if before == reach && waited => Some((before, since)),
            _ => waited.then_some((reach, now_ms)),
        };
        self.grew_from = match (self.grew_from, self.seen) {
            (Some(from), _) if reach >= from * RESCALE_TOLD => Some(from),
            (None, Some(seen)) if reach >= seen * RESCALE_TOLD => Some(seen),
            _ => None,
        };
        if let (None, Some((held, since))) = (self.grew_from, self.now) {
            if now_ms - since >= RESCALE_HELD_MS {
                self.seen = Some(held);
            }
        }
        self.grew_from.map(|from| {
            format!("Axis now 0–{}, was 0–{}: the earlier waits are squeezed left", ms(reach), ms(from))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_far_grown_axis_is_told_until_it_shrinks_and_small_steps_are_not() {
        let mut rescale = Rescale::default();
        assert_eq!(rescale.observe(1.0, false, 0.0), None, "nothing waited yet");
        assert_eq!(rescale.observe(1.0, false, 3_000.0), None, "a bar at zero, held");
        assert_eq!(rescale.observe(25.0, true, 3_500.0), None, "from a bar at zero: nothing squeezed");
        assert_eq!(rescale.observe(10.0, true, 3_600.0), None);
        assert_eq!(rescale.observe(30.0, true, 3_900.0), None, "from a reach held a moment: not seen");
        assert_eq!(rescale.observe(30.0, true, 6_000.0), None, "held");
        // A slowed server's tail: steps of two or three times, a moment each.
        assert_eq!(rescale.observe(50.0, true, 6_150.0), None, "less than three times what was seen");
        let told = rescale.observe(120.0, true, 6_300.0);
        assert_eq!(
            told.as_deref(),
            Some("Axis now 0–120 ms, was 0–30.0 ms: the earlier waits are squeezed left")
        );
        let on = rescale.observe(800.0, true, 6_450.0);
        assert_eq!(
            on.as_deref(),
            Some("Axis now 0–800 ms, was 0–30.0 ms: the earlier waits are squeezed left"),
            "further on, from what was seen"
        );
        assert_eq!(rescale.observe(800.0, true, 20_000.0), on, "said while it reaches there");
        assert_eq!(rescale.observe(80.0, true, 20_100.0), None, "shrunk back: nothing squeezed to tell");
        let mut restarted = Rescale::default();
        assert_eq!(restarted.observe(800.0, true, 0.0), None, "a first reach is no change");
    }
}
