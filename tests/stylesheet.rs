//! Rules for the stylesheet that no browser test would notice until the
//! frame costs of `tests/browser/bench.mjs` did.

/// No `:has()`: Chromium checks such a selector again on changes inside
/// the element it is about, and a view changes its readouts' text every
/// frame. Three `:has()` rules made the lab's p95 frame cost at 1,000
/// servers 36 ms instead of 4 ms, and scrolling the explainer 21 ms a frame
/// instead of 1.5 ms; the views set classes instead (`comparing`,
/// `logging`, `no-charts`, `presenting`).
#[test]
fn the_stylesheet_uses_no_has_selector() {
    let css = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/www/style.css")).unwrap();
    let uses: Vec<(usize, &str)> =
        css.lines().enumerate().filter(|(_, line)| line.contains(":has(")).map(|(i, l)| (i + 1, l)).collect();
    assert!(uses.is_empty(), "www/style.css uses :has() at {uses:?}");
}
