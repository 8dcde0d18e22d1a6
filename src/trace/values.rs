//! Numbers in a trace as nanoseconds, exactly: `1.000000001` seconds is
//! 1,000,000,001 ns, where going through `f64` could be a nanosecond off.

/// Why a value is not a span of time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Refusal {
    NotANumber,
    Negative,
    TooLarge,
}

/// The nanoseconds of `text`, a number of units of `nanos_per_unit` ns
/// each. A plain decimal (`12`, `12.5`, `.5`) is converted exactly, rounded
/// to the nearest nanosecond; other forms (`1e3`) through `f64`.
pub fn nanoseconds(text: &str, nanos_per_unit: u64) -> Result<u64, Refusal> {
    let text = text.trim();
    let value: f64 = text.parse().map_err(|_| Refusal::NotANumber)?;
    // `inf` and `NaN` parse, but are not numbers a trace means; `1e400`
    // is one, out of range.
    if value.is_nan() || !text.bytes().any(|b| b.is_ascii_digit()) {
        return Err(Refusal::NotANumber);
    }
    if value < 0.0 {
        return Err(Refusal::Negative);
    }
    if value.is_infinite() {
        return Err(Refusal::TooLarge);
    }
    match exact(text, nanos_per_unit) {
        Some(nanos) => nanos,
        None => {
            let nanos = (value * nanos_per_unit as f64).round();
            if nanos < u64::MAX as f64 {
                Ok(nanos as u64)
            } else {
                Err(Refusal::TooLarge)
            }
        }
    }
}

/// A plain decimal's nanoseconds in integers, or `None` for another form.
fn exact(text: &str, nanos_per_unit: u64) -> Option<Result<u64, Refusal>> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !digits(fraction) || (whole.is_empty() && fraction.is_empty()) {
        return None;
    }
    let places = nanos_per_unit.ilog10() as usize;
    let mut nanos: u64 = 0;
    for digit in whole.bytes().chain(fraction.bytes().chain(std::iter::repeat(b'0')).take(places)) {
        nanos = match nanos.checked_mul(10).and_then(|n| n.checked_add(u64::from(digit - b'0'))) {
            Some(n) => n,
            None => return Some(Err(Refusal::TooLarge)),
        };
    }
    // Digits below a nanosecond round it, half up.
    let round_up = fraction.as_bytes().get(places).is_some_and(|d| *d >= b'5');
    Some(nanos.checked_add(u64::from(round_up)).ok_or(Refusal::TooLarge))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECOND: u64 = 1_000_000_000;
    const MILLISECOND: u64 = 1_000_000;

    #[test]
    fn plain_decimals_are_exact() {
        assert_eq!(nanoseconds("1.000000001", SECOND), Ok(1_000_000_001));
        assert_eq!(nanoseconds("123456.789012345", SECOND), Ok(123_456_789_012_345));
        assert_eq!(nanoseconds("0.0000000004", SECOND), Ok(0));
        assert_eq!(nanoseconds("0.0000000005", SECOND), Ok(1));
        assert_eq!(nanoseconds(" 12.5 ", MILLISECOND), Ok(12_500_000));
        assert_eq!(nanoseconds(".5", MILLISECOND), Ok(500_000));
        assert_eq!(nanoseconds("7.", SECOND), Ok(7 * SECOND));
        assert_eq!(nanoseconds("1e3", MILLISECOND), Ok(SECOND));
        assert_eq!(nanoseconds("+2", SECOND), Ok(2 * SECOND));
    }

    #[test]
    fn refuses_what_is_not_a_span() {
        assert_eq!(nanoseconds("-0.5", SECOND), Err(Refusal::Negative));
        assert_eq!(nanoseconds("soon", SECOND), Err(Refusal::NotANumber));
        assert_eq!(nanoseconds("", SECOND), Err(Refusal::NotANumber));
        assert_eq!(nanoseconds("NaN", SECOND), Err(Refusal::NotANumber));
        assert_eq!(nanoseconds("inf", SECOND), Err(Refusal::NotANumber));
        assert_eq!(nanoseconds("99999999999", SECOND), Err(Refusal::TooLarge));
        assert_eq!(nanoseconds("1e30", SECOND), Err(Refusal::TooLarge));
        assert_eq!(nanoseconds("1e400", SECOND), Err(Refusal::TooLarge));
        assert_eq!(nanoseconds("-1e400", SECOND), Err(Refusal::Negative));
        assert_eq!(nanoseconds("infinity", SECOND), Err(Refusal::NotANumber));
    }
}
