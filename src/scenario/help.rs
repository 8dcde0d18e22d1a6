//! A field's help, and where it is shown.

/// A field's help: what it means, for a person setting it. Whether a
/// page keeps it follows the table of controls (`ui::controls`), which a
/// test checks both ways: a browser shows a field's help only under its
/// control, so a field with none has its help written with [`cli_help!`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Help {
    /// Shown under the field's control in a page, and printed by the
    /// command line (`lbsim fields`).
    Everywhere(&'static str),
    /// Printed by the command line alone; empty without the feature `cli`.
    CommandLine(&'static str),
}

impl Help {
    /// The words, where this build keeps them ("" where it does not).
    pub fn text(self) -> &'static str {
        match self {
            Help::Everywhere(text) | Help::CommandLine(text) => text,
        }
    }

    /// Whether a page's module keeps it.
    pub fn in_pages(self) -> bool {
        matches!(self, Help::Everywhere(_))
    }
}

/// The help of a field that has no control: only the command line prints
/// it (`lbsim fields`). Without the feature `cli` it is empty, which keeps
/// some 8 KB of text that no page shows out of the browser's modules.
macro_rules! cli_help {
    ($text:literal) => {
        $crate::scenario::help::Help::CommandLine(if cfg!(feature = "cli") { $text } else { "" })
    };
}
