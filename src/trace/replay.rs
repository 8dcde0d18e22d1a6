//! A trace's rows played as the engine's arrivals, the same way wherever
//! they come from: the command line streams them from a file, the lab
//! holds them in memory (read by its trace worker). Speed and looping are
//! applied here, so both give the same arrivals to the nanosecond.

use crate::engine::{Arrival, Replay};
use crate::time::Time;
use crate::Scenario;
use std::rc::Rc;

/// The slowest and fastest speed a trace is played at.
pub const SPEEDS: (f64, f64) = (1e-3, 1e6);

/// A trace's row as the engine takes it: its key as a number (see
/// [`key_number`]) and its class as an index into the scenario's classes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Recorded {
    /// From the start of the trace.
    pub time: Time,
    pub key: Option<u64>,
    pub class: Option<u8>,
    pub service: Option<Time>,
}

/// Where a replay is in its trace: the speed divides every time; looping,
/// each pass starts one mean gap after the last row of the one before, so
/// a trace of even gaps loops without a seam. A trace's time is whole
/// nanoseconds in 64 bits (about 584 years): a replay that would go past
/// that, or whose run time would, ends there rather than wrap to the start.
#[derive(Clone, Debug)]
pub struct Playback {
    speed: f64,
    looped: bool,
    /// What this pass adds to the trace's times.
    shift: u64,
    /// This pass's first and last times, and its rows so far.
    pass: (u64, u64, u64),
}

impl Playback {
    pub fn new(speed: f64, looped: bool) -> Playback {
        Playback { speed, looped, shift: 0, pass: (0, 0, 0) }
    }

    /// The arrival `row` makes in the current pass; `None` past the last
    /// time that can be counted, where the replay ends.
    pub fn play(&mut self, row: &Recorded) -> Option<Arrival> {
        let (first, _, rows) = self.pass;
        let first = if rows == 0 { row.time.0 } else { first };
        self.pass = (first, row.time.0, rows + 1);
        let trace_ns = row.time.0.checked_add(self.shift)?;
        let at = libm::round(trace_ns as f64 / self.speed);
        // 2^64 as a float: every value below it converts exactly enough.
        (at < u64::MAX as f64).then_some(Arrival {
            at: Time(at as u64),
            key: row.key,
            class: row.class,
            service: row.service,
        })
    }

    /// The current pass has ended: whether another starts (looping, the
    /// pass had rows at two times or more, and the next pass's times can
    /// still be counted).
    pub fn again(&mut self) -> bool {
        let (first, last, rows) = self.pass;
        if !self.looped || rows < 2 || last == first {
            return false;
        }
        let span = last - first;
        let Some(shift) = self.shift.checked_add(span).and_then(|s| s.checked_add(span / (rows - 1))) else {
            return false;
        };
        self.shift = shift;
        self.pass = (0, 0, 0);
        true
    }
}

/// The longest run, in seconds, whose trace time a replay at `speed` can
/// count (2^64 ns, about 584 years, of trace time): run time t plays trace
/// time t × speed, which only a looped replay takes past the trace's own.
pub fn longest_run_s(speed: f64) -> f64 {
    u64::MAX as f64 / 1e9 / speed
}

/// The load a trace of `rate_per_s` requests a second offers `scenario`'s
/// servers: the rate times the mean service time (the trace's, or else
/// the scenario's) over their capacity, summed speeds times slots.
pub fn offered_load(scenario: &Scenario, rate_per_s: f64, mean_service_ms: Option<f64>) -> f64 {
    let mean_ms = mean_service_ms.unwrap_or(scenario.service_mean_ms);
    let capacity = scenario.capacity_per_sec() * scenario.service_mean_ms / 1000.0;
    rate_per_s * mean_ms / 1000.0 / capacity
}

/// The classes a trace's rows may name when none are named (no
/// `--trace-classes`, an empty box in the lab), for a scenario of
/// `classes` request classes: with one class, any, and every row is of
/// that class whatever it names (nothing tells classes apart); with more,
/// their indices `0`, `1`, …, as the scenario orders them.
pub fn unnamed_classes(classes: usize) -> Vec<String> {
    match classes {
        0 | 1 => Vec::new(),
        n => (0..n).map(|c| c.to_string()).collect(),
    }
}

/// The classes a replay reads rows with, for a scenario of `classes`
/// request classes: `named` (as given in `given_as`, `--trace-classes` or
/// the lab's box), or when none are, [`unnamed_classes`]. More names than
/// the scenario has classes are refused before the run: a row of a class
/// past its own would stop the replay there.
pub fn classes_to_read(named: &[String], classes: usize, given_as: &str) -> Result<Vec<String>, String> {
    match named.len() {
        0 => Ok(unnamed_classes(classes)),
        n if n > classes => Err(format!(
            "{given_as} names {n} classes and the scenario has {classes} (class_shares): give it as many"
        )),
        _ => Ok(named.to_vec()),
    }
}

/// A key as the engine takes it, and as `lbsim trace` counts it: text
/// that is a whole number written the one way it can be (digits, no sign,
/// no leading zero) and below 2^64 is that number; any other text (`007`,
/// `+7`, `7.0`, `k7`, a number past 2^64) is its 64-bit FNV-1a hash. So
/// two keys are one when their texts are, and only then (bar a hash
/// meeting another key, one chance in 2^64 a pair), in a replay and in
/// the summary alike.
pub fn key_number(text: &str) -> u64 {
    let canonical = text.bytes().all(|b| b.is_ascii_digit()) && (text == "0" || !text.starts_with('0'));
    canonical
        .then(|| text.parse().ok())
        .flatten()
        .unwrap_or_else(|| fnv1a(0xcbf2_9ce4_8422_2325, text.as_bytes()))
}

/// Bytes folded into a 64-bit FNV-1a hash.
pub fn fnv1a(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |hash, byte| (hash ^ u64::from(*byte)).wrapping_mul(0x100_0000_01b3))
}

/// A replay of rows held in memory, played at `speed`, looped or not.
pub fn in_memory(rows: Rc<[Recorded]>, speed: f64, looped: bool) -> Replay {
    Box::new(InMemory { rows, next: 0, playback: Playback::new(speed, looped) })
}

struct InMemory {
    rows: Rc<[Recorded]>,
    next: usize,
    playback: Playback,
}

impl Iterator for InMemory {
    type Item = Arrival;

    fn next(&mut self) -> Option<Arrival> {
        if self.next == self.rows.len() {
            if !self.playback.again() {
                return None;
            }
            self.next = 0;
        }
        let row = self.rows.get(self.next)?;
        self.next += 1;
        self.playback.play(row)
    }
}

/// The bytes a row takes in [`encode`]'s form.
const ROW_BYTES: usize = 26;
/// The stand-in for a missing class or time.
const NONE_CLASS: u8 = u8::MAX;
const NONE_TIME: u64 = u64::MAX;

/// Rows as bytes, to hand them from the trace worker to the lab: each row
/// its time, whether it has a key, the key, its class and its service
/// time (little-endian; a missing class or service time as all ones).
pub fn encode(rows: &[Recorded]) -> Vec<u8> {
    let mut out = Vec::with_capacity(rows.len() * ROW_BYTES);
    for row in rows {
        out.extend_from_slice(&row.time.0.to_le_bytes());
        out.push(u8::from(row.key.is_some()));
        out.extend_from_slice(&row.key.unwrap_or_default().to_le_bytes());
        out.push(row.class.unwrap_or(NONE_CLASS));
        out.extend_from_slice(&row.service.map_or(NONE_TIME, |s| s.0).to_le_bytes());
    }
    out
}

/// The rows [`encode`] wrote; `None` when `bytes` are not whole rows.
pub fn decode(bytes: &[u8]) -> Option<Vec<Recorded>> {
    if bytes.len() % ROW_BYTES != 0 {
        return None;
    }
    let word = |b: &[u8]| u64::from_le_bytes(b.try_into().unwrap_or_default());
    let rows = bytes
        .chunks_exact(ROW_BYTES)
        .map(|b| Recorded {
            time: Time(word(&b[0..8])),
            key: (b[8] == 1).then(|| word(&b[9..17])),
            class: (b[17] != NONE_CLASS).then_some(b[17]),
            service: Some(word(&b[18..26])).filter(|s| *s != NONE_TIME).map(Time),
        })
        .collect();
    Some(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(ms: u64) -> Recorded {
        Recorded { time: Time::from_ms(ms as f64), key: None, class: None, service: None }
    }

    #[test]
    fn keys_are_their_numbers_or_their_hashes() {
        assert_eq!(key_number("42"), 42);
        assert_eq!((key_number("0"), key_number("18446744073709551615")), (0, u64::MAX));
        let seven = ["7", "007", "07", "+7", "7.0", " 7", "", "18446744073709551616"].map(key_number);
        assert_eq!(seven[0], 7);
        for (i, a) in seven.iter().enumerate() {
            assert!(seven[i + 1..].iter().all(|b| a != b), "{seven:?}");
        }
        assert_eq!(seven[1], fnv1a(0xcbf2_9ce4_8422_2325, b"007"));
        assert_ne!(key_number("user-42"), key_number("user-43"));
        assert_eq!(key_number("user-42"), key_number("user-42"));
    }

    #[test]
    fn a_replay_reads_the_classes_named_up_to_the_scenarios() {
        let named = ["api".to_string(), "static".to_string()];
        assert_eq!(classes_to_read(&named, 3, "--trace-classes"), Ok(named.to_vec()));
        assert_eq!(classes_to_read(&[], 2, "--trace-classes"), Ok(vec!["0".to_string(), "1".to_string()]));
        assert_eq!(
            classes_to_read(&named, 1, "Classes (api,static)"),
            Err(
                "Classes (api,static) names 2 classes and the scenario has 1 (class_shares): give it as many"
                    .to_string()
            )
        );
    }

    #[test]
    fn rows_survive_their_encoding() {
        let rows = [
            Recorded { time: Time(7), key: Some(u64::MAX - 1), class: Some(3), service: Some(Time(0)) },
            Recorded { time: Time(u64::MAX / 3), key: None, class: None, service: None },
        ];
        assert_eq!(decode(&encode(&rows)), Some(rows.to_vec()));
        assert_eq!(decode(&[0; 25]), None);
    }

    #[test]
    fn a_looped_pass_starts_one_mean_gap_after_the_last() {
        let rows: Rc<[Recorded]> = [row(10), row(20), row(40)].into();
        let times: Vec<u64> = in_memory(rows, 2.0, true).take(6).map(|a| a.at.0 / 1_000_000).collect();
        // A pass spans 30 ms with a mean gap of 15: the second starts 45 ms on.
        assert_eq!(times, [5, 10, 20, 27, 32, 42]);
        // Looped, the replay keeps the rate the trace's summary gives: a row
        // every (last − first) / (rows − 1) of trace time, at speed 2.
        let rows: Rc<[Recorded]> = [row(10), row(20), row(40)].into();
        let rate_per_ms = 2.0 * (rows.len() - 1) as f64 / 30.0;
        let last = in_memory(rows, 2.0, true).nth(3 * 100).unwrap().at.0 as f64 / 1e6;
        assert!((300.0 / (last - 5.0) - rate_per_ms).abs() < 1e-3, "{last}");
        let once: Rc<[Recorded]> = [row(10), row(20)].into();
        assert_eq!(in_memory(once, 1.0, false).count(), 2);
        let instant: Rc<[Recorded]> = [row(10), row(10)].into();
        assert_eq!(in_memory(instant, 1.0, true).count(), 2, "a pass at one instant does not loop");
    }

    #[test]
    fn a_looped_replay_ends_where_its_time_can_no_longer_be_counted() {
        // Ten years between two rows: each pass adds twenty to the trace's
        // time, so the 30th pass would begin past 2^64 ns (584 years).
        let ten_years = Recorded { time: Time(315_360_000 * 1_000_000_000), ..row(0) };
        let rows: Rc<[Recorded]> = [row(0), ten_years].into();
        let times: Vec<u64> = in_memory(rows, 1e6, true).map(|a| a.at.0).collect();
        assert_eq!(times.len(), 2 * 29 + 1, "the last pass's first row still counts: {}", times.len());
        assert!(times.windows(2).all(|w| w[0] < w[1]), "arrivals never go back in time");
        let last_s = *times.last().unwrap() as f64 / 1e9;
        assert!(last_s <= longest_run_s(1e6) && longest_run_s(1e6) < 18_447.0, "{last_s}");
        // Slowed down, the run's own clock ends first.
        let slow: Rc<[Recorded]> = [row(0), ten_years].into();
        assert_eq!(in_memory(slow, 1e-3, true).count(), 1);
    }
}
