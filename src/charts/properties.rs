/// The colours a chart draws with, each as its field of `Palette` and the
/// custom property of `www/style.css` that declares it: the one list both
/// the build script (which fixes `Palette::LIGHT` and `Palette::DARK` from
/// the stylesheet) and the browser (which reads the properties live, see
/// `Palette::read`) go by. (Included by `build.rs`, so only items here.)
pub const PROPERTIES: [(&str, &str); 10] = [
    ("ink", "--ink"),
    ("muted", "--muted"),
    ("line", "--line"),
    ("panel", "--panel"),
    ("request", "--c-request"),
    ("busy", "--c-busy"),
    ("queued", "--c-queued"),
    ("p50", "--c-p50"),
    ("p90", "--c-p90"),
    ("p99", "--c-p99"),
];
