//! Numbers and lists as people read them, the one way each is written in
//! a sentence, a readout, a chart or a message: "12,345", "15,080.4",
//! "4.1 ms", "29.8%", "a, b and c". A foundation that every layer may use
//! (keys' counts, the charts' axes, the sentences, the controls, the
//! command line's refusals), so it names nothing of theirs.

/// Milliseconds for reading: "0.40 ms", "4.1 ms", "72 ms", "1.2 s".
pub fn ms(x: f64) -> String {
    match x {
        // An unstable queue's theoretical wait, worded as the command line words it.
        f64::INFINITY => "infinite".into(),
        x if x >= 1000.0 => format!("{} s", grouped(x / 1000.0, 1)),
        x if x >= 100.0 => format!("{x:.0} ms"),
        x if x >= 1.0 => format!("{x:.1} ms"),
        x => format!("{x:.2} ms"),
    }
}

/// A share as a percentage: "29.8%", and to the hundredth near either end,
/// so that 0.02% of requests failing still shows ("99.98%").
pub fn percent(share: f64) -> String {
    match share {
        0.0 => "0%".to_string(),
        1.0 => "100%".to_string(),
        x if (0.01..=0.99).contains(&x) => format!("{:.1}%", 100.0 * x),
        x => format!("{:.2}%", 100.0 * x),
    }
}

/// "a", "a and b", "a, b and c".
pub fn and_list(items: impl IntoIterator<Item = String>) -> String {
    listed(items, "and")
}

/// "a", "a or b", "a, b or c".
pub fn or_list(items: impl IntoIterator<Item = String>) -> String {
    listed(items, "or")
}

fn listed(items: impl IntoIterator<Item = String>, last_word: &str) -> String {
    let items: Vec<String> = items.into_iter().collect();
    match items.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} {last_word} {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// 12345 as "12,345".
pub fn thousands(n: u64) -> String {
    group_digits(&n.to_string())
}

/// `x` to `decimals` places with its whole part grouped in threes
/// ("15,080.4"): the one way a number is written in a sentence or a
/// readout, where "15080" reads as a code rather than a count.
pub fn grouped(x: f64, decimals: usize) -> String {
    let text = format!("{:.decimals$}", x.abs());
    let (whole, fraction) = match text.split_once('.') {
        Some((whole, fraction)) => (whole, format!(".{fraction}")),
        None => (text.as_str(), String::new()),
    };
    // A negative that rounds to zero is written "0", not "-0".
    let sign = if x < 0.0 && text.bytes().any(|b| b.is_ascii_digit() && b != b'0') { "-" } else { "" };
    format!("{sign}{}{fraction}", group_digits(whole))
}

/// Commas between each three of a run of digits, from the right.
fn group_digits(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Whether two words are the same, asked at compile time too (where
/// `==` on text is not allowed): registries check their names with it.
pub const fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_infinite_time_is_a_word() {
        assert_eq!(
            (ms(f64::INFINITY), ms(1500.0), ms(0.5)),
            ("infinite".into(), "1.5 s".into(), "0.50 ms".into())
        );
    }

    #[test]
    fn numbers_are_grouped_in_threes_wherever_they_are_written() {
        assert_eq!(grouped(15_080.0, 0), "15,080");
        assert_eq!(grouped(1_234_567.891, 1), "1,234,567.9");
        assert_eq!(
            (grouped(999.96, 1), grouped(-0.04, 1), grouped(-2_500.0, 0)),
            ("1,000.0".into(), "0.0".into(), "-2,500".into())
        );
        assert_eq!(ms(15_080_000.0), "15,080.0 s");
        assert_eq!(thousands(15_080), "15,080");
    }

    #[test]
    fn a_share_near_either_end_shows_to_the_hundredth() {
        assert_eq!((percent(0.2981), percent(0.99975)), ("29.8%".to_string(), "99.98%".to_string()));
    }

    #[test]
    fn lists_end_with_their_last_word() {
        let list = |items: &[&str]| items.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(and_list(list(&["a", "b", "c"])), "a, b and c");
        assert_eq!(or_list(list(&["a", "b"])), "a or b");
        assert_eq!(and_list(list(&["a"])), "a");
        assert_eq!(or_list(list(&[])), "");
    }
}
