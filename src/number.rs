//! Decimal text to `f64`, exactly as `str::parse::<f64>` reads it: the
//! same grammar (a sign, digits with a point, an exponent; `inf`,
//! `infinity` and `nan` in any case) and the same value, the nearest
//! double with ties to even.
//!
//! The standard parser carries a table of 128-bit powers of five (10,416
//! bytes) and its fast and slow paths, 17 KB of the browser's module that
//! compresses poorly (this one takes 5 KB), for speed that a setting typed
//! into a link does not need. Here the value is worked out in whole numbers: the digits
//! times a power of ten, or divided by one, to 66 significant bits and
//! whether anything is left over, then rounded once. Long inputs cost
//! more time, never a wrong bit; `tests` checks it against the standard
//! parser over many values.

use std::cmp::Ordering;

/// The number `text` writes, or `None` where `str::parse::<f64>` refuses it.
pub fn parse(text: &str) -> Option<f64> {
    let (negative, unsigned) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let magnitude = match unsigned.to_ascii_lowercase().as_str() {
        "" => return None,
        "inf" | "infinity" => f64::INFINITY,
        "nan" => f64::NAN,
        _ => decimal(unsigned.as_bytes())?,
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// The value of `digits[.digits][(e|E)[sign]digits]`, with at least one
/// digit before the exponent.
fn decimal(text: &[u8]) -> Option<f64> {
    let (mantissa, exponent) = match text.iter().position(|&b| b == b'e' || b == b'E') {
        Some(at) => (&text[..at], Some(&text[at + 1..])),
        None => (text, None),
    };
    let (whole, fraction) = match mantissa.iter().position(|&b| b == b'.') {
        Some(at) => (&mantissa[..at], &mantissa[at + 1..]),
        None => (mantissa, &[][..]),
    };
    let all_digits = |part: &[u8]| part.iter().all(u8::is_ascii_digit);
    if whole.len() + fraction.len() == 0 || !all_digits(whole) || !all_digits(fraction) {
        return None;
    }
    let mut power = -(fraction.len() as i64);
    if let Some(exponent) = exponent {
        power += written_exponent(exponent)?;
    }
    let significant: Vec<u8> =
        whole.iter().chain(fraction).skip_while(|&&b| b == b'0').map(|b| b - b'0').collect();
    Some(value(&significant, power))
}

/// An exponent's `[sign]digits`, held, as the standard parser holds it,
/// at a size past which every value is zero or infinite.
fn written_exponent(text: &[u8]) -> Option<i64> {
    let (negative, digits) = match text.first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let magnitude =
        digits.iter().fold(0_i64, |n, &d| if n < 0x10000 { 10 * n + i64::from(d - b'0') } else { n });
    Some(if negative { -magnitude } else { magnitude })
}

/// The double nearest `digits` (no leading zero) × 10^`power`.
fn value(digits: &[u8], power: i64) -> f64 {
    if digits.is_empty() {
        return 0.0;
    }
    // The value lies in [10^(len − 1 + power), 10^(len + power)): past
    // 10^309 it is infinite, under 10^−324 (less than half the least
    // double, 4.9e−324) it is zero.
    let len = digits.len() as i64;
    if len - 1 + power >= 309 {
        return f64::INFINITY;
    }
    if len + power <= -324 {
        return 0.0;
    }
    let mut n = Big::from_digits(digits);
    if power >= 0 {
        n.mul_pow10(power as u32);
        let shift = n.bits().saturating_sub(SIGNIFICANT_BITS);
        let sticky = n.any_below(shift);
        rounded(n.top(shift), sticky, i64::from(shift))
    } else {
        let mut divisor = Big::from_digits(&[1]);
        divisor.mul_pow10(power.unsigned_abs() as u32);
        // n × 2^k / 10^−power, with k making the quotient SIGNIFICANT_BITS
        // to two more long (k < 0 shifts the divisor instead).
        let k = i64::from(SIGNIFICANT_BITS + 1 + divisor.bits()) - i64::from(n.bits());
        match k >= 0 {
            true => n.shl(k as u32),
            false => divisor.shl(k.unsigned_abs() as u32),
        }
        let (quotient, rest) = n.div_rem(&divisor);
        rounded(quotient, !rest.is_zero(), -k)
    }
}

/// Bits kept before the one rounding: 53 and two more than a double's
/// significand, so that the bit below the last and a sticky bit decide.
const SIGNIFICANT_BITS: u32 = 66;

/// The double nearest (`significand` + f) × 2^`exponent`, where f is
/// above 0 when `sticky` and below 1: rounded to nearest, ties to even.
fn rounded(significand: u128, sticky: bool, exponent: i64) -> f64 {
    let length = i64::from(128 - significand.leading_zeros());
    // The weight of the last bit kept: 2^−1074 for subnormals.
    let unit = (exponent + length - 1 - 52).max(-1074);
    let shift = unit - exponent;
    let kept = if shift <= 0 {
        significand << -shift
    } else if shift > length {
        0
    } else {
        let kept = significand >> shift;
        let below = significand & ((1 << shift) - 1);
        let half = 1 << (shift - 1);
        match below.cmp(&half) {
            Ordering::Greater => kept + 1,
            Ordering::Equal if sticky || kept & 1 == 1 => kept + 1,
            _ => kept,
        }
    };
    // Rounding up can carry into a 54th bit.
    let (kept, unit) = if kept >> 53 != 0 { (kept >> 1, unit + 1) } else { (kept, unit) };
    if kept < 1 << 52 {
        return f64::from_bits(kept as u64);
    }
    let biased = unit + 1075;
    if biased >= 2047 {
        return f64::INFINITY;
    }
    f64::from_bits((biased as u64) << 52 | (kept as u64 & ((1 << 52) - 1)))
}

/// A whole number of any size, in 32-bit limbs, least significant first.
#[derive(Clone)]
struct Big(Vec<u32>);

impl Big {
    fn from_digits(digits: &[u8]) -> Big {
        let mut n = Big(Vec::new());
        for &digit in digits {
            n.mul_add(10, u32::from(digit));
        }
        n
    }

    fn mul_add(&mut self, factor: u32, add: u32) {
        let mut carry = u64::from(add);
        for limb in &mut self.0 {
            let product = u64::from(*limb) * u64::from(factor) + carry;
            *limb = product as u32;
            carry = product >> 32;
        }
        if carry != 0 {
            self.0.push(carry as u32);
        }
    }

    fn mul_pow10(&mut self, mut power: u32) {
        while power > 0 {
            let step = power.min(9);
            self.mul_add(10_u32.pow(step), 0);
            power -= step;
        }
    }

    fn is_zero(&self) -> bool {
        self.0.iter().all(|&limb| limb == 0)
    }

    fn bits(&self) -> u32 {
        let top = self.0.iter().rposition(|&limb| limb != 0);
        top.map_or(0, |at| 32 * at as u32 + 32 - self.0[at].leading_zeros())
    }

    fn bit(&self, at: u32) -> bool {
        self.0.get((at / 32) as usize).is_some_and(|limb| limb >> (at % 32) & 1 == 1)
    }

    /// Whether any of the lowest `count` bits is set.
    fn any_below(&self, count: u32) -> bool {
        (0..count).any(|at| self.bit(at))
    }

    /// The bits from `from` up, at most 128 of them.
    fn top(&self, from: u32) -> u128 {
        (from..self.bits()).rev().fold(0, |n, at| n << 1 | u128::from(self.bit(at)))
    }

    fn shl(&mut self, bits: u32) {
        let mut shifted = vec![0; (bits / 32) as usize];
        let (within, mut carry) = (bits % 32, 0_u32);
        for &limb in &self.0 {
            shifted.push(if within == 0 { limb } else { limb << within | carry });
            carry = if within == 0 { 0 } else { limb >> (32 - within) };
        }
        shifted.push(carry);
        self.0 = shifted;
    }

    fn compare(&self, other: &Big) -> Ordering {
        let limbs = self.0.len().max(other.0.len());
        let limb = |n: &Big, at: usize| n.0.get(at).copied().unwrap_or(0);
        (0..limbs)
            .rev()
            .map(|at| limb(self, at).cmp(&limb(other, at)))
            .find(|o| o.is_ne())
            .unwrap_or(Ordering::Equal)
    }

    fn sub(&mut self, other: &Big) {
        let mut borrow = 0_i64;
        for (at, limb) in self.0.iter_mut().enumerate() {
            let difference = i64::from(*limb) - i64::from(other.0.get(at).copied().unwrap_or(0)) - borrow;
            *limb = difference.rem_euclid(1 << 32) as u32;
            borrow = i64::from(difference < 0);
        }
    }

    /// The quotient (which must fit 128 bits) and the remainder, by long
    /// division a bit at a time.
    fn div_rem(mut self, divisor: &Big) -> (u128, Big) {
        let mut quotient = 0_u128;
        let steps = self.bits().saturating_sub(divisor.bits());
        let mut shifted = divisor.clone();
        shifted.shl(steps);
        for step in (0..=steps).rev() {
            quotient <<= 1;
            if self.compare(&shifted) != Ordering::Less {
                self.sub(&shifted);
                quotient |= 1;
            }
            if step > 0 {
                shifted = shifted.halved();
            }
        }
        (quotient, self)
    }

    fn halved(&self) -> Big {
        let limbs = &self.0;
        Big((0..limbs.len())
            .map(|at| limbs[at] >> 1 | limbs.get(at + 1).map_or(0, |next| next << 31))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::parse;
    use crate::rng::{Draw, SimRng};

    /// `parse` and the standard parser agree on `text`, to the bit.
    fn agrees(text: &str) {
        let ours = parse(text);
        let std = text.parse::<f64>().ok();
        match (ours, std) {
            (Some(a), Some(b)) if a.is_nan() && b.is_nan() => {}
            (Some(a), Some(b)) => assert_eq!(a.to_bits(), b.to_bits(), "`{text}`: {a:e} against {b:e}"),
            (a, b) => assert_eq!(a.is_some(), b.is_some(), "`{text}`: {a:?} against {b:?}"),
        }
    }

    #[test]
    fn reads_and_refuses_what_the_standard_parser_does() {
        for text in [
            "", "+", "-", ".", "e", "e5", "1e", "1e+", "1e-", "1.", ".5", "-.5", "+0", "-0", "0.0", "00012.50",
            "1_000", " 1", "1 ", "0x10", "1..2", "1.2.3", "1e5.5", "1e+5", "1E-5", "inf", "-Infinity", "INF", "NaN",
            "-nan", "infin", "nan1", "1e99999999999", "-1e-99999999999", "0e99999999", "12345678901234567890123",
            "0.95", "250", "0.1", "0.3", "2.5e-3", "1e308", "1.7976931348623157e308", "1.7976931348623158e308",
            "1.7976931348623159e308", "1e309", "2.2250738585072011e-308", "2.2250738585072014e-308",
            "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "1e-324", "5e-324",
            "9007199254740993", "9007199254740995", "1.00000000000000011102230246251565404236316680908203125",
            "1.00000000000000011102230246251565404236316680908203126",
            "1.00000000000000011102230246251565404236316680908203124", "1.0000000000000003330669073875469621270895004272460937500", "0.000000000000000000000000000000000000001",
            "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791.9999999",
        ] {
            agrees(text);
        }
    }

    #[test]
    fn reads_every_double_as_the_standard_parser_does() {
        let mut rng = SimRng::new(41);
        for _ in 0..20_000 {
            let x = f64::from_bits(rng.next_u64());
            if !x.is_finite() {
                continue;
            }
            for text in
                [format!("{x}"), format!("{x:e}"), format!("{x:.3e}"), format!("{x:.20e}"), format!("{x:.4}")]
            {
                agrees(&text);
            }
        }
    }

    #[test]
    fn reads_random_decimals_as_the_standard_parser_does() {
        let mut rng = SimRng::new(42);
        for _ in 0..50_000 {
            let length = 1 + rng.index(40);
            let digits: String = (0..length).map(|_| char::from(b'0' + rng.index(10) as u8)).collect();
            let point = rng.index(length + 1);
            let exponent = rng.index(760) as i64 - 380;
            let text = format!("{}.{}e{exponent}", &digits[..point], &digits[point..]);
            agrees(&text);
            agrees(&digits);
        }
    }
}
