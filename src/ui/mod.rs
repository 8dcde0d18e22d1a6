//! What a simulation view shows and how its link reads, with no browser in
//! it: the settings (a scenario and the speed), the view's options (controls,
//! charts, readouts, caption, height, theme, versus twin, sentences,
//! presenter), the
//! URL hash that mirrors both, the table of controls, the wording of the
//! notices for entries that cannot be used, and the pace at which frames
//! advance the simulation, and whether a view in sight runs.
//!
//! This is the pure logic of the browser front end, built on every target
//! so that `cargo test` covers it natively; `web` adds the DOM and uses it
//! as an outside crate would, and so does `tests/explainer_claims.rs` to
//! read the explainer's settings exactly as the page reads them.

pub mod bounces;
pub mod chart_turns;
pub mod controls;
pub mod draining;
pub mod embed_size;
pub mod fit;
pub mod following;
pub mod guess;
pub mod hash;
pub mod marks;
pub mod notice;
pub mod opening;
pub mod options;
pub mod pace;
pub mod params;
pub mod popup;
pub mod readouts;
pub mod row_scale;
pub mod spike;
pub mod topology_layout;
pub mod twins;
pub mod whole_run;
