//! What a simulation view shows and how its link reads, with no browser in
//! it: the settings (a scenario and the speed), the view's options (controls,
//! charts, readouts, caption, height, theme, versus twin, sentences,
//! presenter), the URL hash that mirrors both and when it is written, the
//! table of controls, the wording of the notices for entries that cannot
//! be used, what a change of settings does, the pace at which frames
//! advance the simulation, whether a view in sight runs, how an embed runs
//! ahead to its point, the spread of a comparison over seeds, what a frame does
//! with its words, which chart is
//! drawn when, and where the topology's parts are and what a click reaches.
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
pub mod frame;
pub mod gain;
pub mod growing_axis;
pub mod guess;
pub mod hash;
pub mod link;
pub mod marks;
pub mod notice;
pub mod opening;
pub mod options;
pub mod pace;
pub mod params;
pub mod popup;
pub mod readouts;
pub mod row_scale;
pub mod run_ahead;
pub mod settings_change;
pub mod spike;
pub mod spread;
pub mod text_widths;
pub mod topology_layout;
pub mod twins;
pub mod waits;
pub mod whole_run;
