//! RFC 3339 timestamps, and only those (RFC 3339 §5.6, `date-time`):
//! `2026-12-03T15:04:05.25Z`, `2026-12-03 16:04:05+01:00`. A date, `T`
//! (or `t`, or the space §5.6 allows "for the sake of readability"), a
//! time with seconds and any fraction, and `Z` (`z`) or an offset ±HH:MM
//! within ±23:59. ISO 8601's other forms (no seconds, `20261203T090000Z`,
//! `+0100`) and RFC 9557's zone names (`Z[Europe/Paris]`) are refused, so
//! that a trace means one thing wherever it is read.
//!
//! Leap seconds (`23:59:60` UTC) are refused too: lbsim measures time as
//! POSIX time does, without them, so such a second has no instant of its
//! own; folding it onto `:59` could put a row before the one it follows.

/// Why a text is not a timestamp read here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotRfc3339 {
    /// Not a date, `T` and a time with seconds.
    Form,
    /// A month, day, hour, minute or second that does not exist.
    NoSuchTime,
    /// No offset, or not `Z` or ±HH:MM within ±23:59.
    Offset,
    /// Something after the offset (a zone's name, say).
    AfterOffset,
    /// 23:59:60 UTC.
    LeapSecond,
}

impl NotRfc3339 {
    /// The fault in a few words, for a message.
    pub fn reason(self) -> &'static str {
        match self {
            NotRfc3339::Form => "not a date and a time with seconds, as 2026-12-03T15:04:05",
            NotRfc3339::NoSuchTime => "no such date or time of day",
            NotRfc3339::Offset => "its offset is not Z or ±HH:MM within ±23:59",
            NotRfc3339::AfterOffset => "text after its offset",
            NotRfc3339::LeapSecond => "a leap second",
        }
    }
}

/// The nanoseconds from 1970-01-01T00:00:00Z to the timestamp `text`.
pub fn nanoseconds_since_1970(text: &str) -> Result<i128, NotRfc3339> {
    use NotRfc3339::*;
    let mut at = Cursor { bytes: text.as_bytes(), at: 0 };
    let [year, month, day] = at.fields([4, 2, 2], b'-').ok_or(Form)?;
    at.byte(b"Tt ").ok_or(Form)?;
    let [hour, minute, second] = at.fields([2, 2, 2], b':').ok_or(Form)?;
    let fraction = match at.byte(b".") {
        Some(_) => at.digits().filter(|digits| !digits.is_empty()).ok_or(Form)?,
        None => &[],
    };
    let offset_minutes = match at.byte(b"Zz+-").ok_or(Offset)? {
        b'Z' | b'z' => 0,
        sign => {
            let [hours, minutes] =
                at.fields([2, 2], b':').filter(|[h, m]| *h <= 23 && *m <= 59).ok_or(Offset)?;
            if sign == b'-' {
                -(hours * 60 + minutes)
            } else {
                hours * 60 + minutes
            }
        }
    };
    if at.at < text.len() {
        return Err(AfterOffset);
    }
    if second == 60 && hour <= 23 && minute <= 59 {
        let utc_minute = (hour * 60 + minute - offset_minutes).rem_euclid(24 * 60);
        return Err(if utc_minute == 24 * 60 - 1 { LeapSecond } else { NoSuchTime });
    }
    let small = |n: i32| i8::try_from(n).map_err(|_| NoSuchTime);
    let civil = jiff::civil::DateTime::new(
        year as i16,
        small(month)?,
        small(day)?,
        small(hour)?,
        small(minute)?,
        small(second)?,
        0,
    )
    .map_err(|_| NoSuchTime)?;
    let offset = jiff::tz::Offset::from_seconds(offset_minutes * 60).map_err(|_| Offset)?;
    let stamp = offset.to_timestamp(civil).map_err(|_| NoSuchTime)?;
    Ok(stamp.as_nanosecond() + fraction_nanoseconds(fraction))
}

/// A fraction's digits as nanoseconds, rounded half up below one.
fn fraction_nanoseconds(digits: &[u8]) -> i128 {
    let nanos =
        digits.iter().chain(std::iter::repeat(&b'0')).take(9).fold(0, |n, d| n * 10 + i128::from(d - b'0'));
    nanos + i128::from(digits.get(9).is_some_and(|d| *d >= b'5'))
}

/// A place in the text being read.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    /// The next byte, if it is one of `allowed`.
    fn byte(&mut self, allowed: &[u8]) -> Option<u8> {
        let byte = *self.bytes.get(self.at).filter(|b| allowed.contains(b))?;
        self.at += 1;
        Some(byte)
    }

    /// The digits from here (none, maybe).
    fn digits(&mut self) -> Option<&'a [u8]> {
        let start = self.at;
        while self.bytes.get(self.at).is_some_and(u8::is_ascii_digit) {
            self.at += 1;
        }
        Some(&self.bytes[start..self.at])
    }

    /// Numbers of so many digits each, `between` them.
    fn fields<const N: usize>(&mut self, widths: [usize; N], between: u8) -> Option<[i32; N]> {
        let mut numbers = [0; N];
        for (i, (number, width)) in numbers.iter_mut().zip(widths).enumerate() {
            if i > 0 {
                self.byte(&[between])?;
            }
            let first = self.at;
            let digits = self.digits()?;
            if digits.len() != width {
                self.at = first;
                return None;
            }
            *number = digits.iter().fold(0, |n, d| n * 10 + i32::from(d - b'0'));
        }
        Some(numbers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECOND: i128 = 1_000_000_000;
    /// 2026-12-03T15:04:05Z.
    const AT: i128 = 1_796_310_245 * SECOND;

    #[test]
    fn reads_rfc_3339_and_its_allowed_variants() {
        for (text, nanos) in [
            ("2026-12-03T15:04:05Z", AT),
            ("2026-12-03t15:04:05z", AT),
            ("2026-12-03 15:04:05Z", AT),
            ("2026-12-03T16:04:05+01:00", AT),
            ("2026-12-03T00:04:05-15:00", AT),
            ("2026-12-04T15:03:05+23:59", AT),
            ("2026-12-03T15:04:05.25Z", AT + SECOND / 4),
            ("2026-12-03T15:04:05.000000001Z", AT + 1),
            ("2026-12-03T15:04:05.0000000015Z", AT + 2),
            ("2026-12-03T15:04:05.9999999999Z", AT + SECOND),
            ("2024-02-29T00:00:00Z", 1_709_164_800 * SECOND),
        ] {
            assert_eq!(nanoseconds_since_1970(text), Ok(nanos), "{text}");
        }
    }

    #[test]
    fn refuses_other_forms_saying_why() {
        use NotRfc3339::*;
        for (text, fault) in [
            ("2026-12-03T09:00Z", Form),
            ("20261203T090000Z", Form),
            ("2026-12-03", Form),
            ("2026-12-03T15:04:05.Z", Form),
            ("2026-12-3T15:04:05Z", Form),
            ("2026-12-03_15:04:05Z", Form),
            ("17.5", Form),
            ("2026-12-03T15:04:05", Offset),
            ("2026-12-03T15:04:05+0100", Offset),
            ("2026-12-03T15:04:05+24:00", Offset),
            ("2026-12-03T15:04:05+01:60", Offset),
            ("2026-12-03T15:04:05 Z", Offset),
            ("2026-12-03T15:04:05Z[Europe/Paris]", AfterOffset),
            ("2026-12-03T15:04:05+01:00:00", AfterOffset),
            ("2026-02-29T15:04:05Z", NoSuchTime),
            ("2026-13-03T15:04:05Z", NoSuchTime),
            ("2026-12-03T24:00:00Z", NoSuchTime),
            ("2026-12-03T15:60:00Z", NoSuchTime),
            ("2026-12-03T15:04:60Z", NoSuchTime),
            ("2016-12-31T23:59:60Z", LeapSecond),
            ("2016-12-31T23:59:60.5Z", LeapSecond),
            ("2017-01-01T00:59:60+01:00", LeapSecond),
        ] {
            assert_eq!(nanoseconds_since_1970(text), Err(fault), "{text}");
        }
    }
}
