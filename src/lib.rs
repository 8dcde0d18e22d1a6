//! lbsim: a load-balancing laboratory.
//!
//! A deterministic discrete-event simulation of clients sending sessions of
//! requests, directly or through a tier of load balancers, to servers with a
//! fixed number of slots and a FIFO queue with a timeout. The model follows
//! the essay in `shared/seeds/000_*` (see the README); it also expresses the
//! classic M/M/c and supermarket queueing systems exactly, so it is checked
//! against theory.
//!
//! The engine has no web dependency. The browser front end (`src/web`, a
//! crate of its own, lbsim-web, compiled only for wasm32) and the command
//! line use it as any outside crate would.
//! The charts (`charts`, with either) read the engine's series and snapshots
//! and draw with plotters: on canvases in the browser, to SVG natively. With
//! them comes `ui`, the browser views' settings, options and links as plain
//! logic, tested natively.

pub mod bins;
pub mod capacity;
#[cfg(feature = "charts")]
pub mod charts;
pub mod engine;
pub mod explain;
pub mod export;
pub mod fdb;
pub mod format;
pub mod keys;
pub mod metrics;
pub mod narration;
pub mod number;
pub mod policy;
pub mod presets;
pub mod rng;
pub mod scenario;
pub mod sort;
pub mod theory;
pub mod time;
pub mod trace;
#[cfg(feature = "charts")]
pub mod ui;

pub use engine::{Simulation, Snapshot, Summary};
pub use scenario::{Scenario, ScenarioError};
pub use time::Time;
