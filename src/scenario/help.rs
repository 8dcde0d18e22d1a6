//! The fields' help that only the command line prints.

/// The help of a field that has no control: only the command line prints
/// it (`lbsim fields`), since a browser shows a field's help only under its
/// control (`ui::controls`). Without the feature `cli` it is empty, which
/// keeps some 8 KB of text that no page shows out of the browser's modules.
macro_rules! cli_help {
    ($text:literal) => {
        if cfg!(feature = "cli") {
            $text
        } else {
            ""
        }
    };
}
