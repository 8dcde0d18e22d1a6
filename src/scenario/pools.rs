//! Class pools: each request class routed to its own range of servers,
//! written `FIRST-LAST` per class, comma separated: `0-7,8-9` sends the
//! first class to servers 0 to 7 and the second to servers 8 and 9.

/// Parses "all" (no pools: every class may use every server), or one
/// inclusive range of servers per class.
pub fn parse(text: &str) -> Option<Vec<(u32, u32)>> {
    if text.trim() == "all" {
        return Some(Vec::new());
    }
    let range = |item: &str| {
        let (first, last) = item.split_once('-')?;
        let (first, last) = (first.trim().parse::<u32>().ok()?, last.trim().parse::<u32>().ok()?);
        (first <= last && last < super::MAX_SERVERS).then_some((first, last))
    };
    let ranges: Vec<(u32, u32)> = text.split(',').map(range).collect::<Option<_>>()?;
    (ranges.len() <= super::MAX_CLASSES).then_some(ranges)
}

/// The pools as text that `parse` reads back.
pub fn text(ranges: &[(u32, u32)]) -> String {
    if ranges.is_empty() {
        return "all".into();
    }
    ranges.iter().map(|(first, last)| format!("{first}-{last}")).collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    #[test]
    fn pools_read_back_and_refuse_what_is_not_one() {
        let ranges = super::parse(" 0-7, 8 - 9").unwrap();
        assert_eq!(ranges, vec![(0, 7), (8, 9)]);
        assert_eq!(super::text(&ranges), "0-7,8-9");
        assert_eq!(super::parse("all"), Some(Vec::new()));
        for bad in ["", "0-", "3-1", "0-7,", "a-b", "0-10000", "0-1,0-1,0-1,0-1,0-1,0-1,0-1,0-1,0-1"] {
            assert_eq!(super::parse(bad), None, "{bad}");
        }
    }
}
